"""The application: screens, settings, saving, power, and the main loop.

Everything platform-specific is passed in, so the same code runs on the board
(code.py) and in the simulator (tools/sim.py):

    display      a displayio display (BusDisplay on the board, PyGameDisplay on a PC)
    events       keypad-style event source with get() (keypad.Keys().events)
    roles        the profile's BUTTONS: the role of each key number
    nvm          microcontroller.nvm or a stand-in (None: nothing is saved)
    clock        seconds, for animation pacing, key repeat and idle times (time.monotonic)
    think_clock  the clock the computer's time limit is measured with, or None for
                 "no time limit" (the simulator's deterministic tests)
    power        the board's deep sleep and battery (profiles.power: woke, can_sleep,
                 deep_sleep(), has_battery, battery()), or None
    show         draws what changed on the screen (display.refresh), or None (tests that
                 never look)
    board        the board profile (profiles.load: its LABELS name the keys on the screen,
                 its HOLDS give keys a role when held, Rules names it and its link cable),
                 or None: keys without names
    sound        the board's speaker (profiles.sound: tone(hz), off()), or None: then no
                 sound code is loaded and Settings has no Sound line; the device's sound
                 is its sixtysix.core.sound.Sound (or None), which the screens cue
    link         builds the link cable's port (profile.link: a busio.UART), called the
                 first time link play is chosen; None: this device has no link port
    entropy      entropy(n) gives n random bytes (os.urandom on the board; the simulator's
                 are seeded; None: the random module's): the device id, the fair shuffle
                 of a linked match
    resume       True: open the saved match at once (code.py's restart after an error,
                 sixtysix.restart), if there is one

The display does not refresh on its own: each pass of the loop that changed something
ends with one refresh, so every frame is drawn whole and the next key is read as soon
as it is out. A new screen replaces the old one a few layers a frame (ui.Clear, ui.Show)
over the felt that stays, so no refresh redraws the whole screen after the first.

A screen is made with the Device (sixtysix.core.device: the layout, the sheet, the keys'
names, the settings and the store, ...), never with the App, and says where to go by what
its tick returns. The Device owns what the screens use (the settings, the store, the sound,
link play's session); the App keeps only what only it does: the loop, the current screen
and its changes, power. The app's own work that it keeps out of this always-loaded module
(sixtysix.screens.friends.open, sixtysix.screens.loading, sixtysix.link.session) is given
the Device and what it uses by name, and says what the App is to do next by what it
returns (a screen to make, a match to start), never by calling it.
"""
import gc
import sys
import displayio
import sixtysix
from sixtysix.save import format as saveformat, store
from sixtysix.core import ui
from sixtysix.core.keys import RoleKeys
from sixtysix.core.device import Device, LIT, DIMMED, OFF
from sixtysix.save.settings import Settings, minutes
from sixtysix.table.felt import Sheet, Layout

FRAME = 1 / 30      # seconds per animation frame; run() sleeps until the next one
DIM_AFTER = 30      # seconds without a key before the backlight dims
# Bytes asked for, and dropped, after the collection that follows an answer (App.idle).
# CircuitPython 10's collected heap is areas taken from the free memory outside it, and it
# adds one only when a collection cannot make room: with its areas nearly full of live
# objects it collected two or three times (~30 ms each) in one frame, keeping keys waiting
# 105-150 ms, while 36 KB lay outside. A block that does not fit makes it add an area
# there; on the real firmware the lesson's worst key answer went from 140 to 101 ms.
ROOM = 12 * 1024
# Screens deep sleep can wake up on, as the store's sleep record numbers them (only ever
# growing at the end).
SCREENS = ("title", "settings", "stats", "rules", "continue", "keys", "friend", "pass", "link",
           "rulepages")
OFFER = "New to Sixty-Six? Rules > Learn to play"      # the title's notice on a new device
# The module of sixtysix.screens each menu screen is in (named in the package: in the VM
# 112 bytes fewer resident than "screens.title", ...), and the one that starts the matches
# with friends, and the lesson's (the rules menu's): each compiles in a frame of its own
# when its screen is opened (App.step) and none stays loaded while a match plays. What a
# screen needs beyond it is that module's to say (its OPENS: App.before).
MENUS = {"title": "title", "settings": "settings", "stats": "text",
         "rules": "text", "rulepages": "text", "keys": "text", "lesson": "text", "friend": "friends",
         "pass": "friends", "link": "friends", "passgame": "friends", "linkgame": "friends",
         "linked": "friends"}


class App:
    def __init__(self, display, events, roles, nvm, clock, assets="/assets",
                 think_clock=None, seed=None, show=None, power=None, board=None, sound=None,
                 link=None, entropy=None, resume=False):
        w, h = display.width, display.height
        if power is not None and power.woke:
            while events.get() is not None:
                pass                            # the press that woke the board does nothing
        holds = getattr(board, "HOLDS", None)
        self.keys = RoleKeys(events, roles, clock, holds)
        from sixtysix.core.keynames import key_names
        key = key_names(self.keys, getattr(board, "LABELS", None))   # role -> what to press
        sixtysix.forget("sixtysix.core", "keynames")
        self.clock = clock
        self._show = show
        self.power = power
        st = store.Store(nvm)
        settings = Settings(sound is not None)
        if sound is not None:
            from sixtysix.core.sound import Sound
            sound = Sound(sound, settings, clock)
        first = st.settings is None and not st.settings_lost and st.legacy is None
        problem = st.problem
        if st.legacy is not None:       # a save from before the log: once
            from sixtysix.save import oldsave
            problem = oldsave.convert(st, settings)
        notice = saveformat.NOTICES.get(problem, "")
        if settings.load(st) == saveformat.CORRUPT and not notice:
            notice = "Settings were damaged: reset"
        if first:
            settings.save(st)      # once: the settings mark the device as started
            if not notice and not st.in_progress():
                notice = OFFER
        try:
            display.auto_refresh = False
        except (AttributeError, NotImplementedError):
            pass    # a display that only refreshes when asked
        lay = Layout(w, h, getattr(board, "BAUDRATE", ui.SPI_KHZ * 1000) // 1000)
        battery = None
        if power is not None and power.has_battery:
            from sixtysix.core.battery import Battery
            battery = Battery(power)
        self.device = dev = Device(display, lay, Sheet(assets, lay.sheet, lay.cw, lay.ch), key,
                                   settings, st, board, sound, battery, think_clock, seed, link, entropy)
        dev.notice = notice
        dev.light()
        ui.load_font(assets + "/font.bmp")
        self.root = displayio.Group()
        self.root.append(ui.rect(0, 0, w, h, ui.FELT))
        ui.arrive(self.root)
        display.root_group = self.root
        self.screen = None
        self.name = "title"
        self.wipe = None        # the screen being shown or hidden a few layers a frame (ui)
        self.going = None       # the screen to open once the current one is hidden
        self.next_frame = 0.0
        self.active = clock()           # the last key press, or the end of the last animation
        self.swept = False              # the heap collected since then (App.idle)
        self.pressed = False            # a key was answered since power-on (sixtysix.restart)
        self.retry = None               # the screen loading again after a MemoryError (App.starved)
        first_screen = "title"
        if resume and st.in_progress():
            first_screen = "continue"               # restarted after an error: the match again
        elif power is not None and power.woke and 0 <= st.slept < len(SCREENS):
            first_screen = SCREENS[st.slept]    # woken from deep sleep: where it was
        elif first and holds is not None:
            first_screen = "keys"           # a new device with few buttons: how they work
        self.open(first_screen)
        while self.wipe is not None and self.wipe.step():
            pass                        # drawn whole at power-on (the title: its art; then it loads)
        self.wipe = None
        self.show_now()                 # shown at once, menu and all: it takes keys

    # ---- platform glue ---------------------------------------------------------

    def show_now(self):
        """Draw what changed: at the end of a frame (and of the power-on's drawing)."""
        if self._show is not None:
            self._show()

    # ---- screens -----------------------------------------------------------------

    def clear(self):
        """Drop the current screen (already emptied) before building the next, so both
        never share RAM, and what it left to do in the frames without a key (the device's
        warm: each screen's own, which the next never runs)."""
        if self.screen is not None:
            try:
                self.root.remove(self.screen.group)
            except ValueError:
                pass                # (its load failed before it was shown: App.starved)
        self.screen = None
        dev = self.device
        dev.warm = []
        if dev.battery is not None:
            dev.battery.gauge = None
        gc.collect()

    def set_screen(self, screen):
        """Show a new screen a few layers a frame, and build what it builds in steps
        (its `steps`, if any), one a frame: keys wait meanwhile."""
        self.screen = screen
        self.wipe = ui.Show(screen.group, getattr(screen, "steps", None))
        if not self.wipe.step():
            self.wipe = None
        self.root.append(screen.group)

    def go(self, name):
        """Leave for screen `name`: the current one goes a few layers a frame (the first
        share now, as the key's answer: half a frame's, the other half is the Python of
        sorting the screen's layers), then `name` is built and comes the same way."""
        self.going = name
        under = getattr(self.screen, "UNDER", ui.SHAPE_US + 1)   # a menu screen: the felt, mostly
        lay = self.device.layout
        self.wipe = ui.Clear(self.screen.group, lay.w, lay.h, under)
        if not self.wipe.step(ui.FRAME_US // 2):
            self.wipe = None

    def title(self):
        """The title, then (sixtysix.screens.loading) what its choices need, in frames without a key."""
        from sixtysix.screens.title import Title
        from sixtysix.screens import loading
        self.clear()
        self.name = "title"
        self.set_screen(Title(self.device))
        loading.begin(self.device)

    def open(self, name):
        """Open screen `name` (a match: "new", "continue"; a menu screen; the ways to
        play a friend, which sixtysix.screens.friends says how to open)."""
        dev = self.device
        if name == "continue" and dev.store.header(saveformat.LINKED) is not None:
            name = "linked"
        if name == "new":
            from sixtysix.screens.loading import new_game
            self.start(*new_game(dev, 1))
        elif name == "continue":
            from sixtysix.save import savegame
            got = savegame.load(dev.store)
            if isinstance(got, tuple):
                self.start(got[0], got[1], False, got[2])
            else:
                self.damaged(got)
        elif name == "settings":
            from sixtysix.screens.settings import SettingsScreen
            self.menu_screen(name, SettingsScreen)
        elif name in ("stats", "rules", "rulepages", "keys"):
            from sixtysix.screens import text
            self.menu_screen(name, {"stats": text.Stats, "rules": text.RulesMenu,
                                    "rulepages": text.RulesScreen, "keys": text.KeysScreen}[name])
        elif name == "lesson":
            from sixtysix.screens import lesson
            self.menu_screen("rules", lesson.Lesson)     # (deep sleep wakes on the rules menu)
        elif name != "title":
            from sixtysix.screens import friends
            got = friends.open(dev, name, self.root, self.screen is not None)
            if got is True:                 # a module loaded: again in the next frame, the
                self.going = name           # old screen's heap first, in a frame of its own
                if self.screen is not None:
                    self.clear()
            elif got is None:
                self.back_to_title()        # (a linked match that is not there to play)
            elif callable(got):
                self.menu_screen(name, got)
            else:
                self.start(*got)
        else:
            self.title()

    def menu_screen(self, name, make):
        self.clear()
        self.name = name
        self.set_screen(make(self.device))

    def damaged(self, got):
        """The saved match cannot be continued: say so on the title, forget it."""
        if got == saveformat.CORRUPT:
            self.device.store.records = bytearray()
            self.device.notice = saveformat.NOTICES[saveformat.CORRUPT]
        self.back_to_title()

    def back_to_title(self):
        """The title again, now (at power-on) or as any screen change goes (App.go)."""
        if self.screen is None:
            self.title()
        else:
            self.go("title")

    def start(self, match, level, fresh, people=1, session=None):
        """The table: a match against the computer, pass-and-play (`people`: the persons'
        bits, two or more) or a linked match (`session`)."""
        self.clear()
        from sixtysix.screens.loading import leave
        need = leave(match.rules.game, level, session is not None, people)
        dev = self.device
        if session is None and dev.session is not None:
            from sixtysix.link.session import drop
            drop(dev)               # before the table is built (on the real firmware, link
            # play's modules beside a pass-and-play table at Hard ran the heap out)
        self.name = "continue"
        if fresh and session is None:       # saved first: a rewrite's 4 KB come before the table's
            from sixtysix.save import savegame
            savegame.log_deal(dev.store, match, level, people)
        if session is not None:
            from sixtysix.link.table import Linked
            self.set_screen(Linked(dev, match, level, fresh, session=session))
        elif people != 1:
            from sixtysix.table.passplay import PassPlay
            from sixtysix.table.seats import Seats
            self.set_screen(PassPlay(dev, match, level, fresh, Seats.from_byte(people, match.players())))
        else:
            from sixtysix.table.view import Game
            self.set_screen(Game(dev, match, level, fresh))
        # what the title had no time to load (a key came first; a screen other than the
        # title woken from deep sleep led here): one a frame, after the table's build; not
        # what the title still had to do for its other choices
        dev.warm = [n for n in need if n not in sys.modules]
        if session is None and dev.session is not None:    # (the drop above waits for the
            from sixtysix.link.session import drop      # link to say its last: again, in
            dev.warm.insert(0, lambda: drop(dev))       # the new warm)

    # ---- power ----------------------------------------------------------------------

    def busy(self):
        """True while the screen has something still to draw (its `busy`, if it has one)."""
        busy = getattr(self.screen, "busy", None)
        return busy is not None and busy()

    def idle(self, now, drew):
        """A frame with no key: what is to be done meanwhile (App.warm); rewrite the save log when it
        is nearly full (a few finished deals a frame, then a sector erase, ~45 ms); collect the
        heap once after each answer; dim, turn off, deep sleep; read the
        battery. Not in a frame that drew (`drew`: the screen was busy when it began): each
        of these is a frame's work of its own, never added to a key's or an animation's."""
        if drew or self.busy():
            self.active = now               # the idle time counts from the last animation
            self.swept = False
            return
        dev = self.device
        if dev.warm:
            self.warm_up()
            return
        if dev.store.due():
            dev.store.tidy()
            return
        if not self.swept:
            # the last answer's garbage goes now, not in the next key's frame: on the real
            # firmware a collection came in nearly every key answer over 75 ms
            self.swept = True
            gc.collect()
            try:
                bytearray(ROOM)     # (see ROOM)
            except MemoryError:
                pass
            return
        quiet = now - self.active
        if quiet >= DIM_AFTER:
            self.rest(quiet)
        battery = dev.battery
        if battery is not None and battery.check(now):
            self.low_battery()

    def rest(self, quiet):
        """Dim, turn off or deep sleep after `quiet` seconds without a key (DIM_AFTER or
        more: reading the settings' words allocates, ~400 bytes a frame, which on the real
        firmware brought a collection every second or so while the game waited)."""
        dev = self.device
        off = minutes(dev.settings.get("screen"))
        sleep = minutes(dev.settings.get("sleep"))
        if dev.session is not None and dev.session.in_match():
            sleep = None                    # the other device would wait for this one
        if sleep is not None and quiet >= sleep:
            self.deep_sleep()
        elif off is not None and quiet >= off and dev.lit != OFF:
            dev.light(OFF)
        elif off is not None and quiet < off and dev.lit == LIT:
            dev.light(DIMMED)

    def warm_up(self):
        """One thing to do while the screen waits (the device's warm: a function, or a
        module to import), in a frame of its own. A function that returns a screen's name
        says where to go, as a tick does (sixtysix.screens.loading.check)."""
        w = self.device.warm.pop(0)
        if callable(w):
            w = w()
            if isinstance(w, str):
                self.go(w)
        else:
            __import__(w)

    def deep_sleep(self):
        """Save, then sleep until the wake button (the board restarts, the app comes
        back on this screen); where the board cannot, the backlight stays off."""
        flush = getattr(self.screen, "flush", None)
        if flush is not None:
            flush()
        dev = self.device
        if self.power is None or not self.power.can_sleep:
            if dev.lit != OFF:
                dev.light(OFF)
            return
        dev.store.sleep_on(SCREENS.index(self.name))
        dev.light(OFF)
        if dev.sound is not None:
            dev.sound.hush()
        self.power.deep_sleep()

    def low_battery(self):
        """Save what is not saved yet and say so (the match is saved after every action)."""
        flush = getattr(self.screen, "flush", None)
        if flush is not None:
            flush()
        g = self.screen
        if hasattr(g, "match"):
            if g.overlay is None:
                g.notice("Battery low", "The match is saved. Charge the battery soon.")
        elif self.name == "title":
            self.device.notice = "Battery low: the match is saved"
            self.back_to_title()

    # ---- the loop ------------------------------------------------------------------------

    def step(self):
        """One pass of the main loop: the link, input, then at most one frame (an animation
        frame or a share of a screen change), then one refresh of what that frame changed.
        Keys wait in the event queue while a screen changes."""
        dev = self.device
        s = dev.session
        if s is not None:
            dev.sync(dev.store, s)          # what was done since the last poll, saved before it
            s.poll(self.clock())
            dev.sync(dev.store, s)          # what the poll changed
        changing = self.wipe is not None or self.going is not None
        role = None if changing else self.keys.poll()
        now = self.clock()
        if dev.sound is not None:
            dev.sound.step(now)
        if role is not None:
            self.active = now
            self.swept = False
            self.pressed = True
            if dev.lit != LIT:          # a key only wakes the screen
                dev.light()
                self.keys.held = None
                return
        if role is None and now < self.next_frame:
            return
        self.next_frame = now + FRAME
        if changing:
            try:
                self.change()
            except MemoryError as error:
                self.starved(error)
        else:
            self.retry = None
            drew = self.busy()
            nxt = self.screen.tick(role)
            if nxt is not None:
                self.go(nxt)
            elif role is None:
                self.idle(now, drew)
        self.show_now()

    def change(self):
        """A frame's share of a screen change: the old screen's going, the new one's
        modules, its build, its coming."""
        if self.wipe is not None:
            if not self.wipe.step():
                self.wipe = None
        else:                               # the old screen is empty (and drawn so):
            name = self.going               # removing it redraws nothing
            need = self.before(name)
            if need is None:
                self.going = None
                self.open(name)
            elif self.screen is not None:   # the old screen's heap first (its own frame),
                self.clear()                # then the new one's modules, one a frame, then the screen
            else:
                __import__(need)

    def starved(self, error):
        """A MemoryError while a screen loads: what it built goes, the heap is collected
        and the screen loads again from the start (the save holds a match's state); if
        that fails too, the title says so (and if the title fails twice, `error` goes on
        to code.py, which restarts the board)."""
        name = self.going or self.name
        self.wipe = self.going = None
        self.clear()
        if self.retry != name:
            self.retry = name
            self.going = name               # (next frame: its modules, then the screen)
        elif name != "title":
            self.device.notice = "Not enough memory for that: back to the title"
            self.going = "title"
        else:
            raise error

    def before(self, name):
        """The next module screen `name` needs before it opens (its menu module, then what
        that module's OPENS says the screen needs), or None. The long names live in the
        menu modules, which no match keeps, not here: in the heap for as long as their
        module is loaded (docs/ARCHITECTURE.md)."""
        if name == "continue" and self.device.store.header(saveformat.LINKED) is not None:
            name = "linked"                 # as open() reads it (a method for the two: 160 B of heap)
        menu = MENUS.get(name)
        if menu is None:
            return None
        menu = "sixtysix.screens." + menu
        m = sys.modules.get(menu)
        if m is None:
            return menu
        opens = getattr(m, "OPENS", None)       # (no dict made a frame while a screen changes)
        if opens is not None:
            for need in opens.get(name, ()):
                if need not in sys.modules:
                    return need
        return None

    def run(self, sleep):
        """Forever: a step, then sleep until the next frame is due. keypad queues the
        presses meanwhile, so none is lost; the CPU idles while it waits."""
        while True:
            self.step()
            wait = self.next_frame - self.clock()
            if wait > 0:
                sleep(wait)
