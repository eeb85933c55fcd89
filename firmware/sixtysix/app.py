"""The application: screens, settings, saving, and the main loop.

Everything platform-specific is passed in, so the same code runs on the board
(code.py) and in the simulator (tools/sim.py):

    display      a displayio display (BusDisplay on the board, PyGameDisplay on a PC)
    events       keypad-style event source with get() (keypad.Keys().events)
    roles        the profile's BUTTONS: the role of each key number
    nvm          microcontroller.nvm or a stand-in (None: nothing is saved)
    clock        seconds, for animation pacing and key repeat (time.monotonic)
    think_clock  the clock the computer's time limit is measured with, or None for
                 "no time limit" (the simulator's deterministic tests)
    show         draws what changed on the screen (display.refresh), or None (tests that
                 never look)

The display does not refresh on its own: each pass of the loop that changed something
ends with one refresh, so every frame is drawn whole and the next key is read as soon
as it is out. A new screen replaces the old one a few layers a frame (ui.Clear, ui.Show)
over the felt that stays, so no refresh redraws the whole screen after the first.
"""
import gc
import displayio
import sixtysix
from sixtysix import store, ui
from sixtysix.keys import RoleKeys
from sixtysix.settings import Settings
from sixtysix.table import Sheet, Layout

FRAME = 1 / 30      # seconds per animation frame


class App:
    def __init__(self, display, events, roles, nvm, clock, assets="/assets",
                 think_clock=None, seed=None, show=None):
        self.display = display
        self.width = display.width
        self.height = display.height
        self.keys = RoleKeys(events, roles, clock)
        self.clock = clock
        self.think_clock = think_clock
        self.seed = seed
        self._show = show
        self.store = store.Store(nvm)
        self.settings = Settings()
        self.notice = ""
        problem = self.settings.load(self.store)
        if problem == store.CORRUPT:
            self.notice = "Settings were damaged: reset"
        elif problem == store.OLD:
            self.notice = "Old settings: reset"
        self.apply_brightness()
        try:
            display.auto_refresh = False
        except (AttributeError, NotImplementedError):
            pass    # a display that only refreshes when asked
        self.layout = lay = Layout(self.width, self.height)
        self.sheet = Sheet(assets, lay.sheet, lay.cw, lay.ch)
        ui.load_font(assets + "/font.bmp")
        self.root = displayio.Group()
        self.root.append(ui.rect(0, 0, self.width, self.height, ui.FELT))
        display.root_group = self.root
        self.screen = None
        self.wipe = None        # the screen being shown or hidden a few layers a frame (ui)
        self.going = None       # the screen to open once the current one is hidden
        self.next_frame = 0.0
        self.set_screen(self.make_title(), wipe=False)    # drawn whole at power-on

    # ---- platform glue ---------------------------------------------------------

    def show_now(self):
        """Draw what changed: at the end of a frame, and before a long computation (the
        computer thinking)."""
        if self._show is not None:
            self._show()

    def apply_brightness(self):
        try:
            self.display.brightness = self.settings.brightness()
        except (AttributeError, NotImplementedError, RuntimeError, ValueError):
            pass    # a display without backlight control

    def make_player(self, level):
        """The computer player for a level, seeded from the match state (so a resumed
        match continues exactly as it would have), or None when there is no AI."""
        try:
            from shared_rules import ai
        except ImportError:
            return None
        g = self.screen
        seed = 0
        if g is not None and hasattr(g, "match"):
            seed = state_seed(g.match)
        return ai.make_player(level, seed=seed)

    # ---- screens -----------------------------------------------------------------

    def clear(self):
        """Drop the current screen (already emptied) before building the next, so both
        never share RAM."""
        if self.screen is not None:
            self.root.remove(self.screen.group)
        self.screen = None
        gc.collect()

    def set_screen(self, screen, wipe=True):
        self.screen = screen
        if wipe:
            self.wipe = ui.Show(screen.group)
            if not self.wipe.step():
                self.wipe = None
        self.root.append(screen.group)

    def go(self, name):
        """Leave for screen `name`: the current one goes a few layers a frame (the first
        share now, as the key's answer), then `name` is built and comes the same way."""
        self.going = name
        self.wipe = ui.Clear(self.screen.group, self.width, self.height, ui.SHAPE_US + 1)
        if not self.wipe.step():
            self.wipe = None

    def make_title(self):
        from sixtysix.screens import Title
        return Title(self)

    def title(self):
        self.clear()
        self.set_screen(self.make_title())

    def open(self, name):
        from sixtysix import screens
        self.clear()
        if name == "settings":
            self.set_screen(screens.SettingsScreen(self))
        elif name == "stats":
            self.set_screen(screens.Stats(self))
        elif name == "rules":
            self.set_screen(screens.RulesScreen(self))
        elif name == "new":
            self.start(self.new_match(), self.settings.get("level"), True)
        elif name == "continue":
            got = self.load_match()
            if isinstance(got, tuple):
                self.start(got[0], got[1], False)
            else:
                self.title()
        else:
            self.title()

    def start(self, match, level, fresh):
        from sixtysix.game import Game
        self.clear()
        sixtysix.forget("screens", "rulestext")     # not while the cards are out
        game = Game(self, match, level, fresh)
        game.unsaved = fresh        # saved once its deal is on the table (Game.save)
        self.set_screen(game)

    # ---- the match and its save -----------------------------------------------------

    def new_match(self):
        s = self.settings
        rules = s.rules()
        seed = self.seed
        if seed is None:
            import random
            seed = random.getrandbits(30)
        else:
            self.seed = seed + 1
        if rules.game in ("two", "idiots"):     # the family module only where it is needed
            from shared_rules.match import Match
            return Match(rules, s.get("counting"), seed)
        from shared_rules.family import new_match
        return new_match(rules, s.get("counting"), seed)

    def load_match(self):
        from sixtysix import savegame
        return savegame.load(self.store)

    def save_match(self, game):
        from sixtysix import savegame
        savegame.save(self.store, game.match, game.level)

    def deal_ended(self, game):
        s = self.settings
        match = game.match
        s.count("deals")
        if game.deal_won():
            s.count("deals_won")
        if match.over:
            s.count("matches")
            if match.winner == 0:
                s.count("matches_won")
        s.save(self.store)

    def match_ended(self):
        from sixtysix import savegame
        savegame.erase(self.store)

    # ---- the loop ------------------------------------------------------------------------

    def step(self):
        """One pass of the main loop: input, then at most one frame (an animation frame or
        a share of a screen change), then one refresh of what that frame changed. Keys
        wait in the event queue while a screen changes."""
        changing = self.wipe is not None or self.going is not None
        role = None if changing else self.keys.poll()
        now = self.clock()
        if role is None and now < self.next_frame:
            return
        self.next_frame = now + FRAME
        if self.wipe is not None:
            if not self.wipe.step():
                self.wipe = None
        elif self.going is not None:        # the old screen is empty (and drawn so):
            name = self.going               # removing it redraws nothing
            self.going = None
            self.open(name)
        else:
            nxt = self.screen.tick(role)
            if nxt is not None:
                self.go(nxt)
        self.show_now()

    def run(self):
        while True:
            self.step()


def state_seed(match):
    """A number that depends only on what a save keeps (not, e.g., on the action log,
    which a restored deal rebuilds without its automatic draws)."""
    from shared_rules.cards import count
    d = match.deal
    seat = d.to_act if d.to_act >= 0 else 0
    return (match.rng.state + 7919 * count(d.won[0] | d.won[1]) + 31 * d.talon_left
            + d.lead + 1 + d.hands[seat] % 65521) & 0x3FFFFFFF
