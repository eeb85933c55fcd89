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
"""
import gc
from sixtysix import store, ui
from sixtysix.keys import RoleKeys
from sixtysix.settings import Settings
from sixtysix.table import Sheet

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
        self.sheet = Sheet(assets + "/cards.bmp")
        ui.load_font(assets + "/font.bmp")
        self.screen = None
        self.next_frame = 0.0
        self.title()

    # ---- platform glue ---------------------------------------------------------

    def show_now(self):
        """Get the screen out before a long computation (the computer thinking)."""
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
        """Drop the current screen before building the next, so both never share RAM."""
        self.screen = None
        self.display.root_group = None
        gc.collect()

    def set_screen(self, screen):
        self.screen = screen
        self.display.root_group = screen.group

    def title(self):
        from sixtysix.screens import Title
        self.clear()
        self.set_screen(Title(self))

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
        self.set_screen(Game(self, match, level, fresh))
        if fresh:
            self.save_match(self.screen)

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
        """One pass of the main loop: input, then at most one animation frame."""
        role = self.keys.poll()
        now = self.clock()
        if role is None and now < self.next_frame:
            return
        self.next_frame = now + FRAME
        nxt = self.screen.tick(role)
        if nxt is not None:
            self.open(nxt)

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
