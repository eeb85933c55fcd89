"""Play the unmodified firmware on a PC: Blinka displayio drawn into a pygame window.

    python -m tools.sim                                # window, Pico Display Pack size
    python -m tools.sim --profile waveshare_lcd_1in3   # 240x240
    python -m tools.sim --headless --keys play.txt --shots out/   # scripted, no window
    python -m tools.sim --readme-shots                 # docs/screenshot-PROFILE.png, each board
    python -m tools.sim --link 5066                    # in two terminals: two devices
                                                       # on a link cable (loopback TCP)
    python -m tools.sim --link 0 --headless --keys pair.txt --shots out/

Keyboard: arrows move (left/right, up/down where the board has them), Enter or
Space = OK, Esc or Backspace = MENU (on a board that reaches the menu by holding a
button, they hold it); the letters printed on the board's buttons (A, B, X, Y; L, R)
press those buttons. The window's title and the first line printed name the board's
buttons and their keys. The match is saved to --save (default .sim-nvm.bin in the
repo), the same 4 KB of bytes the board keeps in microcontroller.nvm, so closing the
window and starting again continues it. Headless runs start from an empty nvm unless
--save is given. Sounds are silent: a board with a speaker records them (SimSpeaker).

Keys file (--keys), one command per line, '#' starts a comment:
    right | left | up | down | ok | menu   press and release that button (a role the board
                                           gives only to a held button: hold it), then let
                                           the device run until it waits for the player
                                           (its screen finished: nothing left to draw)
    right 3                                the same, three times
    hold right 800                         hold the button 800 ms (key repeat)
    wait 500                               let 500 ms of device time pass
    shot NAME                              write DIR/NAME.png (--shots DIR; NAME is a
                                           plain file name)
    powercut                               drop the device and boot it again (same nvm)
With --link --headless, both devices run in one process on a loopback TCP connection:
each line starts with the device, `a` or `b` (`a ok`, `b shot offer`, `a powercut`);
`wait MS` and `shot NAME` alone run both / picture both (NAME-a.png, NAME-b.png).
The whole file is checked first (commands, buttons the board has): a bad line stops the
run before the device starts, naming the line.
Headless runs use a fake clock advanced 1/30 s per step and a fixed --seed, so a
keys file always gives the same game and the same pictures.
"""
import argparse
import gc
import os
import sys
import time
import types
from pathlib import Path

from tools.flashnvm import FlashNVM

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
PATHS = (str(FIRMWARE), str(ROOT), str(ROOT / "hardware"))
FRAME = 1 / 30
PRESSES = ("left", "right", "up", "down", "ok", "menu")     # keys file: press a button
SCRIPT_ARGS = {"hold": 2, "wait": 1, "shot": 1, "powercut": 0}   # keys file: the other commands


def setup_paths():
    """Make `import sixtysix`, `import shared_rules`, `import profiles` resolve to the repo.

    Appended, not prepended: firmware/ holds code.py, which must never shadow the
    standard library's `code` module in a PC process."""
    for p in PATHS:
        if p not in sys.path:
            sys.path.append(p)


def import_pygame_display(headless):
    """PyGameDisplay, working around the 4.1.0 wheel that lacks keypad_pygame.py.

    We never use that module (our own input adapter reads pygame events), so an empty
    stand-in is enough for the import to succeed.
    """
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if "keypad_pygame" not in sys.modules:
        try:
            import keypad_pygame  # noqa: F401  (present in the sdist, missing in the 4.1.0 wheel)
        except ImportError:
            stub = types.ModuleType("keypad_pygame")
            stub.PyGameKeys = None
            sys.modules["keypad_pygame"] = stub
    import contextlib
    import io
    with contextlib.redirect_stdout(io.StringIO()):     # Blinka's "GENERIC_X86" warning
        from blinka_displayio_pygamedisplay import PyGameDisplay
    return PyGameDisplay


class Event:
    """What keypad.Keys.events.get() returns, enough for sixtysix.core.keys."""

    def __init__(self, key_number, pressed):
        self.key_number = key_number
        self.pressed = pressed
        self.released = not pressed


class EventQueue:
    def __init__(self):
        self.items = []

    def put(self, key_number, pressed):
        self.items.append(Event(key_number, pressed))

    def get(self):
        return self.items.pop(0) if self.items else None


class DeepSleep(BaseException):
    """The firmware went to deep sleep (on the board its program ends there)."""


class SimPower:
    """The board's power as the firmware sees it (the shape of profiles/_power.Power):
    deep sleep stops the device until a key wakes it; `charge` is the battery share
    (0.0-1.0) or None for a board without battery sense."""

    def __init__(self, can_sleep=True, charge=None):
        self.can_sleep = can_sleep
        self.charge = charge
        self.woke = False

    @property
    def has_battery(self):
        return self.charge is not None

    def battery(self):
        return self.charge

    def deep_sleep(self):
        raise DeepSleep()


class SimSpeaker:
    """The board's speaker (the shape of profiles/_sound.Buzzer), silent: every tone and
    every off() is recorded as (device time, Hz; 0 for off) so tests can hear the tunes."""

    def __init__(self, clock):
        self.clock = clock
        self.log = []

    def tone(self, hz):
        self.log.append((self.clock(), hz))

    def off(self):
        self.log.append((self.clock(), 0))

    def tunes(self):
        """The tunes played, by name (sixtysix.core.sound.TUNES): each is its notes up to off()."""
        from sixtysix.core.sound import TUNES
        names = {tuple(hz for hz, _ in notes): name for name, notes in TUNES.items()}
        out, notes = [], []
        for _, hz in self.log:
            if hz:
                notes.append(hz)
            elif notes:
                out.append(names.get(tuple(notes), "?"))
                notes = []
        return out


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


_displays = {}

# The board the simulator is (Sim sets it): how its panel is turned, for like_the_board.
BOARD = {"rotation": 0, "width": 240, "height": 135}


def like_the_board():
    """Make Blinka's displayio mark dirty what CircuitPython's (10.x) does, so the
    simulator's redraws, and tools/devicecost.py's estimates, are the board's.

    Blinka serves its background refresh thread, which the simulator never runs
    (auto_refresh is off), and draws on a panel that is not turned; the board's
    CircuitPython (shared-module/displayio/TileGrid.c, Group.c, vectorio/VectorShape.c):
      * a TileGrid taken out of its group redraws where it was last drawn, nothing if
        it was drawn hidden (Blinka adds where it is now); after a whole-screen refresh
        every change drawn is forgotten (Blinka draws them all again at the next refresh);
      * a shape redraws, at its first refresh after a change, every area it had since
        its last refresh, and one made or taken out of its group has its area where it
        would be with no group: in the panel's own coordinates, before the board's
        rotation (BOARD); in a group not (yet) under the display, an area at the panel's
        corner. (The firmware parks new shapes off the screen for this: ui.rect.)
      * a shape taken out of its group redraws where it is and was since its last
        refresh, drawn or not;
      * layers taken out of a group in one frame redraw one rectangle around them all
        (Blinka: up to eight);
      * a group taken out of its group that holds a shape redraws an area read from a
        variable never set (Group.c, displayio_group_get_previous_area): the whole
        screen here."""
    import displayio
    import vectorio
    from displayio._area import Area
    from displayio._structs import TransformStruct, null_transform
    tilegrid = displayio.TileGrid
    if getattr(tilegrid, "_like_the_board", False):
        return

    def previous_area(self, area):
        if self._previous_area.x1 == self._previous_area.x2:
            return False
        self._previous_area.copy_into(area)
        return True

    full = tilegrid._prepare_full_refresh

    def prepare_full_refresh(self):
        full(self)
        self._needs_refresh = False

    tilegrid._get_previous_area = previous_area
    tilegrid._prepare_full_refresh = prepare_full_refresh
    tilegrid._like_the_board = True

    group = displayio.Group
    group_init = group.__init__
    group_update = group._update_transform

    def init(self, *args, **kwargs):
        group_init(self, *args, **kwargs)
        self._absolute_transform.detached = True        # (CircuitPython: all zero)

    def update_transform(self, parent):
        if parent is not None:
            self._absolute_transform.detached = getattr(parent, "detached", False)
        group_update(self, parent)

    def queue_removed(self, layer):
        area = Area()
        if layer._get_previous_area(area):
            if self._removed_areas:
                self._removed_areas[0].union(area, self._removed_areas[0])
            else:
                self._removed_areas.append(area)
        if isinstance(layer, group):
            layer._item_removed = False
            layer._removed_areas.clear()

    def group_previous_area(self, area):
        if any(isinstance(layer, vectorio._vectorshape._VectorShape) for layer in self._layers):
            Area(0, 0, BOARD["width"], BOARD["height"]).copy_into(area)
            return True
        return group_previous(self, area)

    group_previous = group._get_previous_area
    group.__init__ = init
    group._update_transform = update_transform
    group._queue_removed = queue_removed
    group._get_previous_area = group_previous_area

    shape = vectorio._vectorshape._VectorShape
    screen_area = shape._get_screen_area
    zero = TransformStruct(0, 0, 0, 0, 0)

    def shape_screen_area(self, out):
        t = self._absolute_transform
        if t is not null_transform and not getattr(t, "detached", False):
            return screen_area(self, out)
        if t is not null_transform:
            self._absolute_transform = zero
        try:
            screen_area(self, out)
        finally:
            self._absolute_transform = t
        panel_to_screen(out)
        return out

    def shape_previous_area(self, area):
        self._ephemeral_dirty_area.union(self._refresh_current_area, area)
        for a in self._pending_dirty_areas:
            if isinstance(a, Area):
                area.union(a, area)
        return True

    shape._get_screen_area = shape_screen_area
    shape._get_previous_area = shape_previous_area


def panel_to_screen(area):
    """An area in the panel's own coordinates, in the screen's (the board's rotation)."""
    r, w, h = BOARD["rotation"], BOARD["width"], BOARD["height"]
    x1, y1, x2, y2 = area.x1, area.y1, area.x2, area.y2
    if r == 270:
        area.x1, area.y1, area.x2, area.y2 = w - y2, x1, w - y1, x2
    elif r == 90:
        area.x1, area.y1, area.x2, area.y2 = y1, h - x2, y2, h - x1
    elif r == 180:
        area.x1, area.y1, area.x2, area.y2 = w - x2, h - y2, w - x1, h - y1


def make_display(width, height, headless, scale=1):
    """A PyGameDisplay of the board's size (one per process: pygame has one window).

    displayio draws into `screen`, a surface of exactly width x height pixels (what the
    screenshots save); the window shows it `scale` times larger.
    """
    key = (width, height, scale)
    if key in _displays:
        import pygame
        if pygame.display.get_surface() is None:    # displayio.release_displays() closed it
            _displays.clear()
    if key not in _displays:
        PyGameDisplay = import_pygame_display(headless)
        like_the_board()
        import busdisplay
        import pygame

        class SimDisplay(PyGameDisplay):
            def _get_refresh_areas(self):
                # what the board redraws: the dirty areas (PyGameDisplay redraws all)
                return busdisplay.BusDisplay._get_refresh_areas(self)

            def _refresh_area(self, area):
                # PyGameDisplay's own sizes its buffer a pixel short for odd areas
                import numpy as np
                from displayio._area import Area
                clipped = Area()
                if not self._core.clip_area(area, clipped):
                    return True
                w, h = clipped.width(), clipped.height()
                buffer = memoryview(bytearray(((w * h + 1) // 2) * 4)).cast("I")
                mask = memoryview(bytearray((w * h // 32 + 1) * 4)).cast("I")
                self._core.fill_area(clipped, mask, buffer)
                px = np.frombuffer(buffer.tobytes()[:w * h * 2], dtype=">u2")
                rgb = np.column_stack((((px >> 11) & 31) * 255 // 31, ((px >> 5) & 63) * 255 // 63,
                                       (px & 31) * 255 // 31)).astype(np.uint8)
                self._pygame_screen.blit(pygame.image.frombuffer(rgb.tobytes(), (w, h), "RGB"),
                                         (clipped.x1, clipped.y1))
                return True

            def _initialize(self, init_sequence):
                super()._initialize(init_sequence)
                self.screen = self._pygame_screen
                if scale > 1:
                    self.window = pygame.display.set_mode((width * scale, height * scale))
                    self.screen = self._pygame_screen = pygame.Surface((width, height))

            def _refresh_display(self):
                super()._refresh_display()
                if scale > 1:
                    pygame.transform.scale(self.seen(), self.window.get_size(), self.window)
                    pygame.display.flip()

            def seen(self):
                """What the player sees: the panel's pixels through the backlight."""
                out = self.screen.copy()
                level = round(255 * self.brightness)
                if level < 255:
                    out.fill((level, level, level), special_flags=pygame.BLEND_MULT)
                return out

        if _displays:
            import displayio
            displayio.release_displays()    # one window: close the other size first
        _displays.clear()
        _displays[key] = SimDisplay(width=width, height=height, auto_refresh=False,
                                    caption="Sixty-Six")
    return _displays[key]


def seeded_entropy(seed):
    """os.urandom's stand-in for a simulated device: the same bytes for the same seed."""
    import random
    rng = random.Random(seed)
    return lambda n: bytes(rng.getrandbits(8) for _ in range(n))


def buttons_of(profile):
    """Every role a board's buttons give, pressed or held."""
    return set(profile.BUTTONS) | set(r for r in (profile.HOLDS or ()) if r is not None)


def read_script(lines, buttons, board):
    """The commands of a keys file as (line number, command, args) for a board (its name)
    whose buttons give the roles `buttons`; SystemExit naming the line when one cannot be
    run there. The simulator and the emulator (tools.emu) read the same files."""
    out = []
    for n, raw in enumerate(lines, 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        cmd, args = words[0], words[1:]
        numbers = args[1:] if cmd == "hold" else ([] if cmd == "shot" else args)
        if not (cmd in PRESSES and len(args) <= 1 or SCRIPT_ARGS.get(cmd) == len(args)) \
                or not all(a.isascii() and a.isdigit() for a in numbers):
            raise SystemExit("keys file line %d: cannot read %r" % (n, raw))
        button = args[0] if cmd == "hold" else cmd
        if (cmd == "hold" or cmd in PRESSES) and button not in buttons:
            raise SystemExit("keys file line %d: the %s has no %r button (it has %s)"
                             % (n, board, button, ", ".join(sorted(buttons))))
        if cmd == "shot" and (os.path.basename(args[0]) != args[0] or "\\" in args[0] or args[0] in (".", "..")):
            raise SystemExit("keys file line %d: a shot is named by a plain file name, not %r" % (n, args[0]))
        out.append((n, cmd, args))
    return out


def read_pair_script(lines, read):
    """A keys file for two devices (or boards) on a cable as (line number, device or None,
    command, args): each line starts with a or b, but `wait` and `shot` alone mean both;
    `read(lines)` reads one device's commands. SystemExit naming a bad line."""
    out = []
    for n, raw in enumerate(lines, 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        k = "ab".find(words[0]) if len(words[0]) == 1 else -1
        if k < 0 and words[0] not in ("wait", "shot"):
            raise SystemExit("keys file line %d: start with the device, a or b: %r" % (n, raw))
        for _, cmd, args in read([" ".join(words[1:] if k >= 0 else words)]):
            out.append((n, k if k >= 0 else None, cmd, args))
    return out


class Sim:
    """The device on a PC: profile, display, buttons, nvm, clock; boot() starts the firmware.
    `link`: the link cable's port (tools.linkport, or a test's wire end), or None;
    `clock`: a clock to share with another device (a FakeClock, or time.monotonic)."""

    def __init__(self, profile="pico_display_pack", headless=True, nvm=None, seed=1,
                 fake_clock=True, think_clock=None, scale=1, power=None, link=None, clock=None):
        setup_paths()
        from profiles import load
        self.profile = load(profile)
        self.width, self.height = self.profile.WIDTH, self.profile.HEIGHT
        BOARD.update(rotation=getattr(self.profile, "ROTATION", 0), width=self.width, height=self.height)
        self.roles = tuple(self.profile.BUTTONS)
        self.holds = self.profile.HOLDS or ()
        self.display = make_display(self.width, self.height, headless, scale)
        self.show = None
        self.nvm = nvm if nvm is not None else FlashNVM()
        self.power = power if power is not None else SimPower()
        self.clock = clock if clock is not None else FakeClock() if fake_clock else time.monotonic
        self.speaker = SimSpeaker(self.clock) if self.profile.SOUND_PIN is not None else None
        self.think_clock = think_clock
        self.seed = seed
        self.port = link
        self.boots = 0
        self.events = EventQueue()
        self.app = None
        self.asleep = False

    def boot(self, woke=False):
        """Power on (or wake from deep sleep): a fresh firmware instance over the same nvm
        bytes. The key press that woke the board is still queued, as keypad reports a
        key held at start."""
        from sixtysix.app import App
        # what the PC's Python holds so far (pygame, Blinka, earlier simulators) is set
        # aside from its collector: the firmware's gc.collect() then costs about what it
        # costs a board (its own garbage), not 30 ms a call
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        if not woke:
            self.events = EventQueue()
        self.asleep = False
        self.power.woke = woke
        self.display.brightness = 1.0
        self.boots += 1
        link = None if self.port is None else (lambda: self.port)
        # a device's random bytes: its own, and new ones after each power cut (as the board's)
        entropy = os.urandom if self.seed is None else seeded_entropy(self.seed * 1000 + self.boots)
        self.app = App(self.display, self.events, self.roles, self.nvm, self.clock,
                       assets=str(FIRMWARE / "assets"), think_clock=self.think_clock,
                       seed=self.seed, show=self.show, power=self.power, board=self.profile,
                       sound=self.speaker, link=link, entropy=entropy)
        return self.app

    def power_cut(self):
        self.app = None
        self.display.root_group = None

    # ---- stepping (deterministic with the fake clock) -----------------------------

    def step(self, tick=True):
        """One pass of the device's main loop (`tick`: advance the fake clock first)."""
        if tick and isinstance(self.clock, FakeClock):
            self.clock.now += FRAME
        if self.asleep:
            if self.events.items:               # the wake button
                self.boot(woke=True)
            return
        try:
            self.app.step()
        except DeepSleep:
            self.asleep = True                  # the program has ended; the screen is dark
            self.app = None

    def buttons(self):
        return buttons_of(self.profile)

    def button(self, role):
        """(key number, held?) of the first button that gives `role` (pressed before held)."""
        if role in self.roles:
            return self.roles.index(role), False
        if role in self.holds:
            return self.holds.index(role), True
        raise ValueError("this board has no " + repr(role) + " button: " + repr(sorted(self.buttons())))

    def key(self, role, pressed=True):
        self.events.put(self.button(role)[0], pressed)

    def press(self, role, settle=True):
        """Press and let go of the button for `role`; one that gives it only when held is
        held until it has (sixtysix.core.keys.HOLD), as a player would."""
        from sixtysix.core.keys import HOLD
        held = self.button(role)[1]
        self.key(role, True)
        self.step()
        if held:
            self.wait(HOLD * 1000 + 2 * FRAME * 1000)
        self.key(role, False)
        self.step()
        if settle:
            self.settle()

    def idle(self):
        """True when the device waits for the player: its screen finished (nothing left
        to draw, no screen coming or going), nothing animating, thinking or loading; or
        it sleeps."""
        if self.asleep:
            return True
        app = self.app
        if app.device.warm or app.wipe is not None or app.going is not None:
            return False
        if app.active + FRAME >= app.next_frame:
            # its last frame answered a key or drew (App.step, App.idle: `active` is then
            # that frame's time, `next_frame` its time + FRAME): a screen draws in parts,
            # a part a frame (a text page a few lines, a menu's bar its old line then the
            # new), and only a frame that draws nothing says the screen is finished
            return False
        g = app.screen
        if not hasattr(g, "match"):
            return True
        if g.busy():
            return False
        if g.overlay is not None:
            return True
        s = g.session
        if s is not None and g.status != s.state():
            return False        # the table has not said what the link says yet
        d = g.match.deal
        if d.ended:
            return g.shown_result
        draw = getattr(d, "pending_draw", False)
        if s is not None:       # link play: idle while waiting for the other device
            return s.incoming() is None and not s.computer_turn() and not (s.my_turn() and draw)
        if g.seats is not None and g.seats.pass_due(g.match) is not None:
            return False        # the pass box comes next
        if g.match.rules.closing == "either" and g.asked != len(d.log):
            return False        # the computer decides first whether to close (Russian)
        return d.to_act == g.me() and not draw

    def settle(self, limit=5000):
        for _ in range(limit):
            if self.idle():
                return
            self.step()
        raise RuntimeError("the device never became idle")

    def wait(self, ms):
        for _ in range(int(ms / 1000 / FRAME + 0.5)):
            self.step()

    def shot(self, path):
        """Draw the current screen and save what the player sees as a PNG."""
        import pygame
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.seen(), str(path))

    def pixels(self):
        """The screen as a pygame Surface (refreshed first): the panel's pixels, at full
        brightness whatever the backlight does."""
        self.display.refresh()
        return self.display.screen

    def seen(self):
        """What the player sees (refreshed first): the pixels through the backlight."""
        self.display.refresh()
        return self.display.seen()

    # ---- scripts ------------------------------------------------------------------

    def read_script(self, lines):
        return read_script(lines, self.buttons(), self.profile.NAME)

    def run_script(self, lines, shots=None):
        for n, cmd, args in self.read_script(lines):
            if cmd == "hold":
                self.key(args[0], True)
                self.wait(int(args[1]))
                self.key(args[0], False)
                self.step()
                self.settle()
            elif cmd == "wait":
                self.wait(int(args[0]))
            elif cmd == "shot":
                if shots is not None:
                    try:
                        self.shot(Path(shots) / (args[0] + ".png"))
                    except OSError as e:
                        raise SystemExit("keys file line %d: cannot write %s: %s"
                                         % (n, Path(shots) / (args[0] + ".png"), e.strerror or e))
            elif cmd == "powercut":
                self.power_cut()
                self.boot()
                self.settle()
            else:
                for _ in range(int(args[0]) if args else 1):
                    self.press(cmd)


class LinkedPair:
    """Two simulated devices joined by the link cable: `ports` are the cable's two ends
    (a loopback TCP connection unless given: a test's faulty wire). One clock; a step is
    a pass of each device's main loop. Both draw into the process's one display: a shot
    shows the device it names.

    Keys file (--link with --headless): a line starts with the device, `a` or `b`, then
    any keys-file command for it; `wait MS` runs both; `shot NAME` without a device
    writes NAME-a.png and NAME-b.png. A key press is followed by running both devices
    until each waits for its player and nothing is on its way over the cable."""

    def __init__(self, profile="pico_display_pack", ports=None, seed=1, tcp_port=0):
        if ports is None:
            from tools import linkport
            server = linkport.listen(tcp_port)
            try:
                ports = (linkport.connect(server.getsockname()[1]), linkport.accept(server))
            finally:
                server.close()
        self.clock = FakeClock()
        self.devices = [Sim(profile, seed=seed + k, link=ports[k], clock=self.clock) for k in (0, 1)]

    def boot(self):
        for d in self.devices:
            d.boot()

    def step(self):
        self.clock.now += FRAME
        for d in self.devices:
            d.step(tick=False)

    def quiet(self):
        """True when both devices wait for their players and the cable carries nothing
        unacknowledged or unread."""
        for d in self.devices:
            if not d.idle():
                return False
            s = d.app and d.app.device.session
            if s is not None and (s.link.out or d.port.in_waiting):
                return False
        return True

    def settle(self, limit=20000, calm=6):
        """Run until quiet() has held for `calm` passes in a row."""
        still = 0
        for _ in range(limit):
            still = still + 1 if self.quiet() else 0
            if still >= calm:
                return
            self.step()
        raise RuntimeError("the linked devices never settled")

    def side(self, k):
        """Device k as a Driver sees a Sim: its app, and key presses that run both."""
        pair = self

        class Side:
            @property
            def app(self):
                return pair.devices[k].app

            def press(self, role):
                pair.press(k, role)

            def buttons(self):
                return pair.devices[k].buttons()

        return Side()

    def press(self, k, role):
        d = self.devices[k]
        d.key(role, True)
        self.step()
        d.key(role, False)
        self.step()
        self.settle()

    def wait(self, ms):
        for _ in range(int(ms / 1000 / FRAME + 0.5)):
            self.step()

    def shot(self, k, path):
        d = self.devices[k]
        d.display.root_group = d.app.root if d.app is not None else None
        d.display.brightness = 1.0
        d.shot(path)

    def read_script(self, lines):
        return read_pair_script(lines, self.devices[0].read_script)

    def run_script(self, lines, shots=None):
        for n, k, cmd, args in self.read_script(lines):
            if cmd == "wait":
                self.wait(int(args[0]))
            elif cmd == "shot":
                if shots is not None:
                    for j in ((k,) if k is not None else (0, 1)):
                        name = args[0] + ("" if k is not None else "-" + "ab"[j])
                        self.shot(j, Path(shots) / (name + ".png"))
            elif cmd == "powercut":
                self.devices[k].power_cut()
                self.devices[k].boot()
                self.settle()
            elif cmd == "hold":
                d = self.devices[k]
                d.key(args[0], True)
                self.wait(int(args[1]))
                d.key(args[0], False)
                self.step()
                self.settle()
            else:
                for _ in range(int(args[0]) if args else 1):
                    self.press(k, cmd)


def read_keys(path):
    """The lines of a keys file (UTF-8, a byte-order mark allowed); SystemExit saying why
    it cannot be read."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise SystemExit("cannot read keys file %s: %s" % (path, e.strerror or e))
    try:
        return data.decode("utf-8-sig").splitlines()
    except UnicodeDecodeError as e:
        raise SystemExit("keys file %s is not UTF-8 text (byte 0x%02x at offset %d)" % (path, data[e.start], e.start))


class Driver:
    """Plays for the human through the buttons, choosing actions with `policy(deal, seat)`.

    Tests use it to play whole matches; it only reads the firmware's state to decide
    which buttons to press, exactly as a player reads the screen.
    """

    def __init__(self, sim, policy):
        self.sim = sim
        self.policy = policy

    def game(self):
        g = self.sim.app.screen
        return g if hasattr(g, "match") else None

    def move_cursor(self, g, index):
        back = "left" in self.sim.buttons()      # two buttons: only onwards (it wraps round)
        for _ in range(16):
            if g.cursor == index:
                return
            self.sim.press("right" if g.cursor < index or not back else "left")
        raise AssertionError("the cursor cannot reach card %d" % index)

    def menu_pick(self, prefix):
        self.sim.press("menu")
        g = self.game()
        items = g.overlay[1].items
        want = [i for i, s in enumerate(items) if s.startswith(prefix)]
        if not want:
            raise AssertionError("no %r in the action menu %r" % (prefix, items))
        for _ in range(want[0]):
            self.sim.press("right")
        self.sim.press("ok")

    def act(self):
        """Do one thing the device waits for; returns False on the title screen, None
        when it waits for the other device (link play)."""
        from shared_rules import actions as A, cards
        g = self.game()
        if g is None:
            return False
        if g.overlay is not None:
            self.sim.press("ok")
            return True
        if g.session is not None and not g.session.my_turn():
            return None
        d = g.match.deal
        a = self.policy(d, g.me())
        hand = g.hand()
        if a >= A.BID:
            for _ in range(8):                  # left/right choose the bid, OK says it
                if g.match.deal.legal_actions()[g.bid_choice] == a:
                    break
                self.sim.press("right")
            self.sim.press("ok")
        elif a < A.MARRY:
            self.move_cursor(g, hand.index(a))
            self.sim.press("ok")
        elif a < A.DECLARE_MARRIAGE:
            c = a & 31
            self.move_cursor(g, hand.index(c))
            self.menu_pick("Marry " + cards.SUIT_WORDS[c >> 3])
        elif a < A.EXCHANGE:
            self.menu_pick("Show " + cards.SUIT_WORDS[(a & 31) >> 3])
        else:
            self.menu_pick({A.EXCHANGE: "Exchange", A.CLOSE: "Close",
                            A.DECLARE: "Declare"}[a])
        return True

    def play_match(self, limit=3000, on_action=None):
        for _ in range(limit):
            if not self.act():
                return
            if on_action is not None:
                on_action()
        raise AssertionError("the match did not end")


def first_legal(deal, seat):
    """The simplest human: the first legal card (what a button-masher would do); in
    the bidding, the first choice offered (pass)."""
    from shared_rules.actions import MARRY
    acts = deal.legal_actions()
    plays = [a for a in acts if a < MARRY]
    return plays[0] if plays else acts[0]


# The README's pictures: a table a few tricks into a deal, on every board.
README_KEYS = """
ok              # New match
ok              # play a card
ok
right
ok
right 2
shot table
"""


def readme_shots(folder=ROOT / "docs"):
    """folder/screenshot-PROFILE.png for every board profile (with a battery symbol where
    the board senses one), the buttons page a two-button board shows first
    (screenshot-PROFILE-buttons.png), the four-handed table, and docs/LINK.md's pictures
    of link play and pass-and-play."""
    from profiles import PROFILES
    out = []
    for profile in PROFILES:
        sim = Sim(profile, headless=True, seed=3)
        sim.power.charge = 0.8 if sim.profile.BATTERY_PIN else None
        sim.boot()
        sim.settle()
        if sim.app.name == "keys":          # a two-button board's first start: its buttons
            path = folder / ("screenshot-%s-buttons.png" % profile)
            sim.shot(path)
            out.append(path)
            sim.press("ok")
        shots = folder / ".shots"
        sim.run_script(README_KEYS.splitlines(), shots)
        path = folder / ("screenshot-%s.png" % profile)
        (shots / "table.png").replace(path)
        shots.rmdir()
        out.append(path)
    out.append(four_handed_shot(folder / "screenshot-four-handed.png"))
    out.extend(friend_shots(folder))
    out.extend(lesson_shots(folder))
    return out


# docs/LESSON.md's pictures: Rules > Learn to play, its third box (following while the
# talon is open) over the computer's lead, on a small board and a large one.
LESSON_KEYS = """
right 3         # Rules
ok
ok              # Learn to play
ok              # the first box read
ok              # the J of spades led (raised)
ok              # the second box read: the computer leads
shot lesson
"""


def lesson_shots(folder):
    out = []
    shots = folder / ".shots"
    for profile in ("pico_display_pack", "pajenicko_picopad"):
        sim = Sim(profile, headless=True, seed=3)
        sim.boot()
        sim.settle()
        sim.run_script(LESSON_KEYS.splitlines(), shots)
        path = folder / ("screenshot-lesson-%s.png" % profile)
        (shots / "lesson.png").replace(path)
        out.append(path)
    shots.rmdir()
    return out


# docs/LINK.md's pictures: two devices agree on a match over the cable, the table from the
# accepting device's seat; pass-and-play's pass screen.
LINK_KEYS = """
a right 4       # Play a friend
a ok
a ok            # Link cable
b right 4
b ok
b ok
wait 1500
a shot link-connected
a ok            # Offer: standard
wait 1500
b shot link-offer
b ok            # Accept
wait 1500
b shot link-table
"""
PASS_KEYS = """
right 4         # Play a friend
ok
right           # Pass and play
ok
right 2         # Start (South and North: people)
ok
shot pass
"""


def friend_shots(folder):
    out = []
    with_shots = folder / ".shots"
    pair = LinkedPair(seed=2)
    pair.boot()
    pair.settle()
    pair.run_script(LINK_KEYS.splitlines(), with_shots)
    sim = Sim("pico_display_pack", headless=True, seed=3)
    sim.boot()
    sim.settle()
    sim.run_script(PASS_KEYS.splitlines(), with_shots)
    for name in ("link-connected", "link-offer", "link-table", "pass"):
        path = folder / ("screenshot-" + name + ".png")
        (with_shots / (name + ".png")).replace(path)
        out.append(path)
    with_shots.rmdir()
    return out


def four_handed_shot(path, seed=8):
    """A four-handed table on the Pico Display Pack: the human about to play last to a
    trick, the other three cards placed towards their players."""
    from sixtysix.table.driver import on_table
    sim = Sim("pico_display_pack", headless=True, seed=seed)
    sim.boot()
    sim.settle()
    sim.run_script(["right", "ok", "ok 5", "menu", "ok"])     # Settings: Rules four-handed; New match
    g = sim.app.screen
    driver = Driver(sim, first_legal)
    for _ in range(60):
        if len(on_table(g.match.deal)) == 3 and g.overlay is None and sum(g.match.deal.tricks):
            break
        driver.act()
    sim.shot(path)
    return path


# PC keys for the roles, after the letters printed on the board's buttons
KEYMAP = {"left": "left", "right": "right", "up": "up", "down": "down",
          "return": "ok", "space": "ok", "escape": "menu", "backspace": "menu"}


def keyboard(sim):
    """{PC key name: (key number, held?)}: each button's printed label as a letter, then
    the arrows, Enter/Space and Esc/Backspace for the roles the board's buttons give (a
    role only a held button gives: that key holds it)."""
    out = {}
    for n, label in enumerate(sim.profile.LABELS):
        out[label.lower()] = (n, False)
    for name, role in KEYMAP.items():
        if name not in out and role in sim.buttons():
            out[name] = sim.button(role)
    return out


def legend(sim):
    """One line: each of the board's buttons, its role, and the PC keys for it."""
    keys = keyboard(sim)
    parts = []
    for n, label in enumerate(sim.profile.LABELS):
        part = "%s (%s): %s" % (label, sim.roles[n], ", ".join(k for k, v in keys.items() if v == (n, False)))
        held = [k for k, v in keys.items() if v == (n, True)]
        if held:
            part += "; held (%s): %s" % (sim.holds[n], ", ".join(held))
        parts.append(part)
    return sim.profile.NAME + " - " + " | ".join(parts)


def hold_counted(sim, n):
    """True once the device has read button n's press and counted its hold (its keys no
    longer wait to learn whether it is a tap or a hold: sixtysix.core.keys.RoleKeys), or
    sleeps. A time for it (HOLD and a frame) is not enough: a frame can come late (the
    window's first whole refresh took 0.45 s on a busy PC) and the button, let go before
    the device looked again, was a tap."""
    if sim.app is None:
        return True
    if any(e.key_number == n and e.pressed for e in sim.events.items):
        return False
    return sim.app.keys.pending != n


def play_window(sim, loops=None):
    """Interactive play: pygame key events -> button events; the app redraws what changed
    after each frame (sim.show), and the loop sleeps until the next frame is due, as on
    the board. A key that holds a button keeps it down at least until the hold counts,
    however briefly it is pressed. `loops` stops after that many passes (for tests)."""
    import pygame
    keys = keyboard(sim)
    print(legend(sim))
    pygame.display.set_caption("Sixty-Six: " + legend(sim))
    sim.boot()
    late = []               # held buttons whose PC key went up before their hold counted
    while loops is None or loops > 0:
        if loops is not None:
            loops -= 1
        for ev in pygame.event.get():
            if ev.type in (pygame.QUIT, pygame.WINDOWCLOSE):
                return
            if ev.type in (pygame.KEYDOWN, pygame.KEYUP) and pygame.key.name(ev.key) in keys:
                n, held = keys[pygame.key.name(ev.key)]
                if ev.type == pygame.KEYDOWN:
                    sim.events.put(n, True)
                elif held and not hold_counted(sim, n):
                    late.append(n)
                else:
                    sim.events.put(n, False)
        for n in [n for n in late if hold_counted(sim, n)]:
            late.remove(n)
            sim.events.put(n, False)
        sim.step()
        sim.display.refresh()           # the window (a dark one once the device sleeps)
        wait = FRAME if sim.asleep else sim.app.next_frame - sim.clock()
        if wait > 0:
            time.sleep(wait)            # as the board's main loop does (App.run)


def open_save(path):
    """The nvm for --save PATH (None: a fresh one in memory); one clear line and exit
    status 1 when the file cannot hold the save (a folder, a read-only place, a file
    that is not an nvm image)."""
    if not path:
        return None
    try:
        return FlashNVM.file(path)
    except ValueError as e:
        raise SystemExit("--save: %s (--fresh deletes it and starts over)" % e)
    except OSError as e:
        raise SystemExit("--save: cannot keep the save in %s: %s" % (path, e.strerror or e))


def main(argv=None):
    ap = argparse.ArgumentParser(description="Sixty-Six firmware simulator")
    ap.add_argument("--profile", default="pico_display_pack", help="board profile name")
    ap.add_argument("--headless", action="store_true", help="no window (needs --keys)")
    ap.add_argument("--keys", help="script of button presses (see the module docstring)")
    ap.add_argument("--shots", help="directory for the script's screenshots")
    ap.add_argument("--seed", type=int, default=None, help="match seed (headless default 1)")
    ap.add_argument("--save", default=None,
                    help="file standing in for the board's nvm (window default: "
                         ".sim-nvm.bin in the repo; headless default: none, start fresh; "
                         "'-' for none)")
    ap.add_argument("--fresh", action="store_true", help="start with an empty save")
    ap.add_argument("--scale", type=int, default=3, help="window zoom (default 3)")
    ap.add_argument("--link", type=int, default=None, metavar="PORT",
                    help="a link cable on loopback TCP port PORT: start two windows with the "
                         "same PORT (each keeps its own save); with --headless both devices "
                         "run from one keys file (PORT 0: any free port)")
    ap.add_argument("--readme-shots", action="store_true",
                    help="write docs/screenshot-PROFILE.png (every board) and the four-handed table for the README, and exit")
    args = ap.parse_args(argv)
    setup_paths()
    from profiles import PROFILES
    if args.profile not in PROFILES:
        raise SystemExit("unknown board profile %r; choose one of: %s" % (args.profile, ", ".join(PROFILES)))
    plug = None
    if args.link is not None and not args.headless:
        from tools import linkport
        plug = linkport.Plug(args.link)
        print("link cable on 127.0.0.1:%d (%s)" % (args.link, "waiting for the other window"
                                                    if plug.first else "joined the other window"))
    if args.save is None and not args.headless:
        args.save = str(ROOT / (".sim-nvm.bin" if plug is None else
                                ".sim-nvm-link-%s.bin" % ("a" if plug.first else "b")))
    if args.save == "-":
        args.save = None
    if args.fresh and args.save and os.path.isfile(args.save):
        os.remove(args.save)
    if args.readme_shots:
        for path in readme_shots():
            print("wrote", path.relative_to(ROOT))
        return 0
    if args.headless:
        if not args.keys:
            ap.error("--headless needs --keys FILE")
        lines = read_keys(args.keys)
        if args.link is not None:
            pair = LinkedPair(args.profile, seed=1 if args.seed is None else args.seed,
                              tcp_port=args.link)
            pair.read_script(lines)
            pair.boot()
            pair.settle()
            pair.run_script(lines, args.shots)
            return 0
        sim = Sim(args.profile, headless=True, seed=1 if args.seed is None else args.seed,
                  nvm=open_save(args.save))
        sim.read_script(lines)              # a bad line is reported before the device starts
        sim.boot()
        sim.settle()
        sim.run_script(lines, args.shots)
        return 0
    sim = Sim(args.profile, headless=False, seed=args.seed,
              nvm=open_save(args.save),
              fake_clock=False, think_clock=time.monotonic, scale=args.scale, link=plug)
    sim.show = sim.display.refresh          # "Thinking..." appears before the computer thinks
    play_window(sim)
    return 0


if __name__ == "__main__":
    sys.exit(main())
