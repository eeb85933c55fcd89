"""What every screen is given when it is made: the device it runs on, not the app.

A screen (the title, a menu, Settings, a text screen, the link screen, the table) reads
the screen's layout, the card sheet, the keys' names, the board, the settings and the
store here; cues the sound; puts the battery symbol in its heading; queues work for the
frames without a key (warm); takes the notice the app left for it. It tells the app
where to go by what its tick returns (a screen's name), never by calling it. The app
makes the one Device at power-on and keeps it; so do the simulator's tests. Each thing
has one owner: the settings, the store, the sound and link play's session are the
device's alone (the app reads them here), and the app's work kept out of its module
(sixtysix.screens.friends.open, sixtysix.screens.loading, sixtysix.link.session) is
given the device, never the app.

    layout       sixtysix.table.felt.Layout: sizes and places for this screen (w, h, ...)
    sheet        the card sheet (sixtysix.table.felt.Sheet)
    key          role -> the words that name its button ("X", "hold L")
    board        the board profile (its LABELS, HOLDS; rulestext names its buttons), or None
    settings     sixtysix.save.settings.Settings; store: sixtysix.save.store.Store
    sound        sixtysix.core.sound.Sound, or None (no speaker)
    battery      sixtysix.core.battery.Battery, or None (no battery sense)
    think_clock  the clock the computer's time limit is read on, or None: no limit
    seed         the next match's seed (the simulator's tests), or None: a random one
    warm         what to do in the next frames without a key (a function, or a module
                 to import), one a frame (App.idle): the screen's own, dropped with it
                 (App.clear); a function that returns a screen's name goes there
    notice       a line for the next screen that shows one (the title, the link screen)
    people       pass-and-play: the persons chosen on its set-up screen (bits)
    link_port    builds the link cable's port (a busio.UART), the first time link play is
                 chosen; None: no link port. port: the port it built, kept (its pins stay
                 taken)
    entropy      entropy(n): n random bytes (os.urandom), or None: the random module's
    session      link play's session (sixtysix.link.match), while it is chosen, and
                 sync, which saves it (App.step polls it): sixtysix.link.session
    named        groups of a linked table's names made (sixtysix.screens.friends.AHEAD);
                 while link play's modules load, `dots` (their loading dots) too
"""
OFF, DIMMED, LIT = 0, 1, 2
DIM = 0.1           # the dimmed backlight (or the chosen brightness, if lower)


class Device:
    def __init__(self, display, layout, sheet, key, settings, store, board=None, sound=None,
                 battery=None, think_clock=None, seed=None, link_port=None, entropy=None):
        self.display = display
        self.layout = layout
        self.sheet = sheet
        self.key = key
        self.settings = settings
        self.store = store
        self.board = board
        self.sound = sound
        self.battery = battery
        self.think_clock = think_clock
        self.seed = seed
        self.warm = []
        self.notice = ""
        self.people = 0
        self.lit = LIT
        self.link_port = link_port
        self.port = None
        self.entropy = entropy
        self.session = None
        self.sync = None
        self.named = 0

    def light(self, level=LIT):
        """The backlight: LIT (the chosen brightness: again after Settings changed it),
        DIMMED or OFF."""
        self.lit = level
        b = self.settings.brightness()
        try:
            self.display.brightness = b if level == LIT else (min(b, DIM) if level == DIMMED else 0.0)
        except (AttributeError, NotImplementedError, RuntimeError, ValueError):
            pass    # a display without backlight control

    def add_gauge(self, group, box):
        """A battery symbol in the layout's box for it (x, y, w, h), at its right end;
        nothing without battery sense."""
        if self.battery is not None:
            self.battery.add_gauge(group, box)
