"""Issue 12's benchmark: how fast the screen answers, per profile, at the board's pace.

Scripted deals go through the unmodified firmware in the simulator, the player pressing
buttons (tools.sim.Driver: first legal card; the action menu opened and closed once a
deal). Every frame is priced on a 125 MHz RP2040:

  display  what displayio redraws, by tools/devicecost.py's model;
  flash    nvm writes (the save log's record after each action: a page program; its
           rewrite when full: an erase), counted by tools/flashnvm.FlashNVM;
  python   the frame's Python, timed in the MicroPython VM replaying the same key presses
           on the same frames (host_tests/mpvm.py; displayio there is stand-ins written in
           Python, dearer than the board's C), scaled to the board by reference loops
           (PLATFORM_NOTES: 100,000 `s += 1` in 454 ms, fib(20) in 298 ms on a 125 MHz
           Pico; the larger of the two ratios). The computer's thinking is left out.

The replay starts from a power-on: the VM has imported only what code.py imports before
the app (sixtysix.core.ui), so the app's import and App() (the title's art, drawn whole) are
priced as the power-on, and every later import in the frame that does it. Frames where
a screen loads before it takes keys (the title: App.load) are listed, not judged against
the 50 ms goal; every other frame is.

A frame starts no earlier than 1/30 s after the previous one (the firmware's pace) and no
earlier than the previous one ended. Per key press:

  first    from the press to the end of the first frame that changed a 16x16 patch's
           worth of pixels;
  settled  to the end of the frame after which no card moves (and no screen or box is
           coming or going); a finished trick's deliberate pause is not waiting for it;
  pixels   sent until settled.

`measure(profile)` returns the figures; `python -m tools.bench --screens` prints them.
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host_tests"))

from tools import devicecost  # noqa: E402
from tools.flashnvm import FlashNVM  # noqa: E402
from tools.sim import Sim, Driver, first_legal, FRAME  # noqa: E402

HEAP = 256 * 1024 * 1024   # the VM's heap from the start: growing it mid-frame costs time
VISIBLE = 256   # pixels a frame must change to count as an answer (a 16x16 patch)
GOALS = {"first": 100.0, "play settled": 300.0, "deal settled": 1000.0, "frame": 50.0}
BOARD_REF_MS = {"loop": 454.0, "fib": 298.0}
REF_CODE = """
import time
try:
    import js                   # the VM's own clock has 1 ms steps; JavaScript's has us
    _perf = js.performance
    def now():
        return _perf.now()
except ImportError:
    def now():
        return time.ticks_ms()
def _loop():
    s = 0
    for i in range(100000):
        s += 1
def _fib(n):
    return n if n < 2 else _fib(n - 1) + _fib(n - 2)
def _time(fn, *a):
    t = now()
    fn(*a)
    return now() - t
REF = {"loop": min(_time(_loop) for _ in range(5)), "fib": min(_time(_fib, 20) for _ in range(5))}
"""


# For timing, bitmaptools.readinto as fast as the board's C: the rows straight into the
# stand-in Bitmap's buffer (same row size: both padded to 4 bytes; the pixel order is
# left as it comes, which no timing depends on).
FAST_BITMAPTOOLS = """
def readinto(bitmap, file, bits_per_pixel, element_size=1, reverse_pixels_in_element=False,
             swap_bytes_in_element=False, reverse_rows=False):
    file.readinto(bitmap.data)
"""


class Frame:
    """One pass of the loop that drew (or could have drawn) a frame. Its kind: "build" (a
    new screen being made and shown, from the frame that starts it to the one that
    finishes it; `screen` names it), "save" (the save log filled the nvm's sector and
    rewrote it: an erase, about once in 50-85 deals), "warm" (App.warm_up: among them the
    title's imports of what its choices need, sixtysix.screens.loading), else "frame" (an
    animation frame or a key's answer, with the save log's record: a page program); a frame
    where the computer thought counts its other work only."""

    def __init__(self, step, refreshes, erases, programs, moving, signature, built, warmed=False):
        self.step = step
        self.kind = "build" if built else "save" if erases else \
            "warm" if warmed else "frame"
        self.screen = built
        self.pixels = sum(r.pixels for r in refreshes)
        self.display_ms = sum(r.ms for r in refreshes)
        self.flash_ms = devicecost.flash_ms(erases, programs)
        self.moving = moving
        self.signature = signature
        self.python_ms = 0.0
        self.thinking_ms = 0.0

    @property
    def ms(self):
        return self.display_ms + self.flash_ms + self.python_ms


def signature(app):
    """What the firmware is doing, for checking the VM replays the same frames."""
    g = app.screen
    name = type(g).__name__
    if hasattr(g, "match"):
        d = g.match.deal
        return "%s %d %d %d" % (name, g.match.deals, len(d.log), sum(d.tricks))
    return name


def moving(app):
    """True while a card moves, a screen or box comes or goes, or more is queued that does
    not start with a pause (a finished trick's pause is the game resting)."""
    if app.wipe is not None or app.going is not None:
        return True
    g = app.screen
    if not hasattr(g, "match"):
        return False
    t = g.table
    if g.wipes or t.moves or t.looks or t.waiting and any(m is not None for m in t.waiting):
        return True
    if t.moves is None and t.queue:
        head = t.queue[0][0]
        return callable(head) or bool(head)
    return False


class Recorder(Sim):
    """The simulator, with every refresh priced and every key press and frame noted."""

    def __init__(self, profile, seed):
        super().__init__(profile, headless=True, seed=seed, nvm=FlashNVM())
        self.meter = devicecost.Meter(self.display, getattr(self.profile, "BAUDRATE", devicecost.DEFAULT_BAUDRATE),
                                      draw=False, rotation=getattr(self.profile, "ROTATION", 0))
        self.show = self.meter.refresh
        self.steps = 0
        self.frames = []
        self.keys = []          # (step, key number, pressed)
        self.presses = []       # (step, kind)
        self.choices = []       # (settings index, value) chosen after power-on (the VM's too)
        self.menu_at = None     # the step after which the title's menu was whole (power-on)
        self.boot_refresh = None    # App()'s refresh (the title's art, at power-on)

    def boot(self, woke=False):
        before = len(self.meter.log)
        app = super().boot(woke)
        self.boot_refresh = self.meter.log[before:]
        self.frames = []
        if self.holds:
            # keys that answer when let go (or once held long enough): a press counts
            # from the frame that gets its role
            poll = app.keys.poll

            def answered():
                role = poll()
                if role is not None:
                    self.presses.append((self.steps, self.kind(role)))
                return role

            app.keys.poll = answered
        return app

    def key(self, role, pressed=True):
        if pressed and not self.holds:
            self.presses.append((self.steps, self.kind(role)))
        super().key(role, pressed)
        self.keys.append((self.steps, self.button(role)[0], pressed))

    def kind(self, role):
        """What a key press asks for, as the player sees it."""
        g = self.app.screen
        if self.app.name == "keys":
            return "buttons page"
        if self.app.name == "title" and g is not None:
            if role != "ok":
                return "title move"
            name = g.names[g.menu.index]
            return "new match" if name == "new" else "open " + name
        if not hasattr(g, "match"):
            return "screen key"
        if g.overlay is not None:
            if role == "ok":
                return "next deal" if g.match.deal.ended else "menu pick"
            return "close box" if role == "menu" else "menu move"
        if role in ("menu", "up"):
            return "menu"
        return "play" if role == "ok" else "move"

    def step(self):
        d = self.nvm
        app = self.app
        before = (len(self.meter.log), d.erases, d.page_programs, app.screen)
        showing = type(app.wipe).__name__ == "Show"     # a new screen still coming
        warm = list(app.device.warm)
        super().step()
        refreshes = self.meter.log[before[0]:]
        if refreshes:
            built = None
            if app.screen is None:
                built = "(old one dropped)"
            elif app.screen is not before[3] or showing:
                built = type(app.screen).__name__
            self.frames.append(Frame(self.steps, refreshes, d.erases - before[1],
                                     d.page_programs - before[2], moving(app),
                                     signature(app), built, warm[:1] != app.device.warm[:1]))
        if self.menu_at is None and app.wipe is None and \
                getattr(app.screen, "menu", None) is not None:
            self.menu_at = self.steps
        self.steps += 1


def play_script(sim, deals, rules=None, level=None):
    """Boot, New match once the title has loaded what it loads while it waits, `deals` deals played by the first legal card (the action menu
    opened and closed at each deal's start), the next deal dealt, then the title again
    (Main menu), each of its other screens and back, and the match continued (a match
    won within those deals goes to the title itself, with nothing to continue)."""
    sim.boot()                              # power-on: the title's art, drawn whole
    from sixtysix.save.settings import CHOICES
    for key, value in (("rules", rules), ("level", level)):
        if value is not None:               # (as Settings would set them, before the title loads)
            i = [c[0] for c in CHOICES].index(key)
            sim.choices.append((i, CHOICES[i][2].index(value)))
    for i, v in sim.choices:
        sim.app.device.settings.index[i] = v
    sim.step()
    if sim.app.name == "keys":              # a new two-button board: how its buttons work
        sim.press("ok")
    sim.settle()                            # the player reads the title: it loads meanwhile
    sim.press("ok")                         # New match
    driver = Driver(sim, first_legal)
    done = 0
    opened = -1
    for _ in range(4000):
        g = sim.app.screen
        if not hasattr(g, "match"):
            break
        if g.overlay is None and g.match.deals != opened and g.playing():
            opened = g.match.deals
            sim.press("menu")
            sim.press("right")
            sim.press("menu")
            continue
        if g.overlay is not None and g.match.deal.ended:
            done += 1
            if done >= deals:
                break
        driver.act()
    sim.press("ok")                         # the next deal (or the title, the match won)
    while hasattr(sim.app.screen, "match") and not sim.app.screen.playing():
        driver.act()
    if hasattr(sim.app.screen, "match"):
        driver.menu_pick("Main menu")
    for name in ("settings", "stats", "rules", "continue"):
        title = sim.app.screen
        if name not in title.names:             # (no match to continue)
            break
        for _ in title.names:
            if title.names[title.menu.index] == name:
                break
            sim.press("right")
        sim.press("ok")
        if name == "rules":
            sim.press("right")                  # a page turned: a page of text redrawn
            sim.press("right")
        if name != "continue":
            sim.press("menu")                   # back to the title


def vm_python(sim, replays=5):
    """Replay sim's key presses in the MicroPython VM frame by frame: each frame's
    Python time (ms on the board) and its thinking time, by step number."""
    import mpvm
    import test_firmware_memory as stand_ins
    from tools.stripped import without_docstrings
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / "displayio.py").write_text(stand_ins.DISPLAYIO)
        (d / "vectorio.py").write_text(stand_ins.VECTORIO)
        (d / "bitmaptools.py").write_text(FAST_BITMAPTOOLS)
        without_docstrings(str(ROOT / "firmware" / "sixtysix"), str(d / "sixtysix"))
        without_docstrings(str(ROOT / "shared_rules"), str(d / "shared_rules"))
        packages = [d / "displayio.py", d / "vectorio.py", d / "bitmaptools.py", d / "sixtysix",
                    d / "shared_rules", ROOT / "firmware" / "assets"]
        keys = {}
        for step, n, pressed in sim.keys:
            keys.setdefault(step, []).append((n, pressed))
        setup = stand_ins.DEVICE + REF_CODE + """
import time, json, sys
import sixtysix.core.ui
BASE = set(sys.modules)         # what code.py imports before the app: the rest compiles later
Disp.width = %d
Disp.height = %d
THINK = [0]
TIMED = [None]                  # the sixtysix.table.driver whose Driver.decide is timed
def _time_decide():
    driver = sys.modules.get("sixtysix.table.driver")
    if driver is None or driver is TIMED[0]:
        return
    TIMED[0] = driver
    _decide = driver.Driver.decide
    def _timed(self, seat):
        t = now()
        a = _decide(self, seat)
        THINK[0] += now() - t
        return a
    driver.Driver.decide = _timed
KEYS = %s
class Board:                    # what the app reads of the profile
    BAUDRATE = %r
    HOLDS = %r
    LABELS = %r
    NAME = %r
    LINK_TX = %r
    LINK_RX = %r
class Speaker:
    def tone(self, hz):
        pass
    def off(self):
        pass
def boot():
    global app, OUT, BOOT
    for name in list(sys.modules):      # a power-on: nothing the last boot compiled is kept
        if name not in BASE:
            del sys.modules[name]
            dot = name.rfind(".")
            if name[:dot] in sys.modules:
                try:
                    delattr(sys.modules[name[:dot]], name[dot + 1:])
                except AttributeError:
                    pass
    gc.collect()
    q.q = []
    T[0] = 0.0
    t = now()
    from sixtysix.app import App
    app = App(Disp(), q, %r, bytearray(b"\\xff" * 4096), clock, assets="/lib/assets", seed=%d,
              board=Board, sound=%s)
    BOOT = now() - t            # the app's import and App(): the power-on, to the title's art
    for i, v in %r:
        app.device.settings.index[i] = v
    OUT = []
def frame(i):
    for n, p in KEYS.get(i, ()):
        q.q.append(Ev(n, p))
    T[0] += %r
    THINK[0] = 0
    _time_decide()
    t = now()
    app.step()
    ms = now() - t
    OUT.append((i, ms - THINK[0], THINK[0], SIG(app)))
""" % (sim.width, sim.height, repr(keys), sim.profile.BAUDRATE, sim.profile.HOLDS, sim.profile.LABELS,
       sim.profile.NAME, sim.profile.LINK_TX, sim.profile.LINK_RX, sim.roles, sim.seed, "None" if sim.speaker is None else "Speaker()", sim.choices, FRAME)
        setup += "\n" + _source(signature).replace("def signature", "def SIG")
        # Pauses that are not the firmware's only ever add time: Node's (its JIT, its
        # garbage collector) fall where the calls into the VM fall, the VM's own (its heap
        # taking more memory) where its allocations add up to the next step. Of five
        # replays cut into calls of different lengths, each after a different amount of
        # memory kept aside, each frame's shortest time is the nearer. Each replay comes
        # after a first one that is not timed: Node compiles the VM's code as it first runs it.
        runs = []
        for k, chunk in enumerate((25, 17, 31, 11, 41)[:replays]):
            steps = [setup]
            for timed in (False, True):
                if timed:
                    steps.append("ASIDE = [bytearray(1024) for _ in range(%d)]" % (700 * k))
                steps.append("boot()")
                for i in range(0, sim.steps, chunk):     # the VM collects between calls
                    steps.append("for i in range(%d, %d):\n    frame(i)" % (i, min(i + chunk, sim.steps)))
            steps.append("print(json.dumps([REF, OUT, BOOT]))")
            out = mpvm.run(steps, packages=packages, timeout=900, heapsize=HEAP)
            runs.append(json.loads(out.strip().splitlines()[-1]))
    ref = {k: min(r[0][k] for r in runs) for k in BOARD_REF_MS}
    scale = max(BOARD_REF_MS[k] / ref[k] for k in BOARD_REF_MS)
    times = {}
    for rows in zip(*(r[1] for r in runs)):
        i, sig = rows[0][0], rows[0][3]
        times[i] = (min(r[1] for r in rows) * scale, min(r[2] for r in rows) * scale, sig)
    return scale, times, min(r[2] for r in runs) * scale


def _source(fn):
    import inspect
    return inspect.getsource(fn)


def timeline(frames, start):
    """End time (ms after the frame at `start` began) of each frame from `start` on: a
    frame begins 1/30 s after the previous one began, or when it ended if later."""
    out = []
    begin = end = 0.0
    for i, f in enumerate(frames[start:]):
        if i:
            begin = max(begin + FRAME * 1000, end)
        end = begin + f.ms
        out.append(end)
    return out


def actions(sim):
    """Per key press: (kind, first ms, settled ms, pixels until settled)."""
    frames = sim.frames
    at = {f.step: i for i, f in enumerate(frames)}
    rows = []
    for step, kind in sim.presses:
        first = at.get(step)
        if first is None:
            continue
        ends = timeline(frames, first)
        drawn = next((j for j, f in enumerate(frames[first:]) if f.pixels >= VISIBLE), None)
        if drawn is None:
            continue
        still = next((j for j, f in enumerate(frames[first:]) if not f.moving), len(ends) - 1)
        pixels = sum(f.pixels for f in frames[first:first + still + 1])
        rows.append((kind, ends[drawn], ends[still], pixels))
    return rows


class PowerOn:
    """`with PowerOn():` none of the game's modules (sixtysix, shared_rules) imported, as
    at a power-on, so the simulator's firmware loads what the board's does (the VM replay
    starts the same way); the process's own are back afterwards."""
    OURS = ("sixtysix", "shared_rules")

    def __enter__(self):
        self.kept = {n: m for n, m in sys.modules.items() if n.split(".")[0] in self.OURS}
        for n in self.kept:
            del sys.modules[n]
        return self

    def __exit__(self, *exc):
        for n in [n for n in sys.modules if n.split(".")[0] in self.OURS]:
            del sys.modules[n]
        sys.modules.update(self.kept)


def measure(profile, deals=2, seed=3, python=True, replays=5, rules=None, level=None, detail=0):
    """The figures for one profile (see the module docstring) as a dict; `rules`, `level`:
    the Settings chosen (default: standard, normal); `detail`: how many of the worst judged
    frames to list one by one (what the firmware was doing, and what each cost)."""
    sim = Recorder(profile, seed)
    with PowerOn():
        play_script(sim, deals, rules, level)
    scale = None
    boot_ms = 0.0
    if python:
        scale, times, boot_ms = vm_python(sim, replays)
        for f in sim.frames:
            ms, think, sig = times[f.step]
            if sig != f.signature:
                raise RuntimeError("the VM replay left the simulator's path at step %d: %r vs %r"
                                   % (f.step, sig, f.signature))
            f.python_ms, f.thinking_ms = ms, think
    kinds = {}
    for kind, first, settled, pixels in actions(sim):
        k = kinds.setdefault(kind, {"n": 0, "first": [], "settled": [], "pixels": []})
        k["n"] += 1
        k["first"].append(first)
        k["settled"].append(settled)
        k["pixels"].append(pixels)
    frames = sim.frames
    art = boot_ms + sum(r.ms for r in sim.boot_refresh)
    ready = [i for i, f in enumerate(frames) if f.step <= sim.menu_at]
    menu = art + FRAME * 1000 + timeline(frames, 0)[ready[-1]]
    out = {"profile": profile, "rules": rules or "standard", "level": level or "normal", "size": [sim.width, sim.height], "deals": deals, "seed": seed,
           "python": "board estimate from the VM (x%.1f)" % scale if python else "left out",
           "frames": {}, "thinking_worst_ms": round(max(f.thinking_ms for f in frames), 1),
           "actions": {}, "power_on": {"art_ms": round(art, 1), "menu_ms": round(menu, 1),
                                       "app_ms": round(boot_ms, 1)}}
    for kind in ("frame", "save", "build", "warm"):
        some = [f for f in frames if f.kind == kind]
        if some:
            out["frames"][kind] = frame_figures(some)
    out["worst_frame_ms"] = max(f["worst_ms"] for f in out["frames"].values())
    judged = sorted(frames, key=lambda f: -f.ms)
    out["worst_frames"] = [{"step": f.step, "kind": f.kind, "screen": f.screen, "doing": f.signature,
                            "ms": round(f.ms, 1), "display": round(f.display_ms, 1),
                            "python": round(f.python_ms, 1), "flash": round(f.flash_ms, 1),
                            "pixels": f.pixels} for f in judged[:detail]]
    out["builds"] = {}                          # per screen: its building frames
    for f in frames:
        if f.screen is not None:
            out["builds"].setdefault(f.screen, []).append(f)
    for name, some in out["builds"].items():
        out["builds"][name] = frame_figures(some)
    for kind, k in sorted(kinds.items()):
        out["actions"][kind] = {
            "n": k["n"],
            "first_worst": round(max(k["first"]), 1), "first_mean": round(sum(k["first"]) / k["n"], 1),
            "settled_worst": round(max(k["settled"]), 1),
            "settled_mean": round(sum(k["settled"]) / k["n"], 1),
            "pixels_worst": max(k["pixels"]), "pixels_mean": sum(k["pixels"]) // k["n"]}
    return out


def frame_figures(some):
    """n, worst and mean ms of some frames, and what the worst one spent its time on."""
    worst = max(some, key=lambda f: f.ms)
    return {"n": len(some), "worst_ms": round(worst.ms, 1),
            "mean_ms": round(sum(f.ms for f in some) / len(some), 1),
            "worst_parts": {"display": round(worst.display_ms, 1), "python": round(worst.python_ms, 1),
                            "flash": round(worst.flash_ms, 1), "pixels": worst.pixels},
            "display_worst_ms": round(max(f.display_ms for f in some), 1)}


def verdicts(r):
    """[(goal, worst figure in ms, met)] of issue 12's goals for one measure() result."""
    a = r["actions"]
    out = [("first answer to a key <= %d ms" % GOALS["first"],
            max(k["first_worst"] for k in a.values()))]
    if "play" in a:
        out.append(("a played card settled <= %d ms" % GOALS["play settled"], a["play"]["settled_worst"]))
    deals = [a[k]["settled_worst"] for k in ("new match", "next deal") if k in a]
    if deals:
        out.append(("a deal dealt <= %d ms" % GOALS["deal settled"], max(deals)))
    out.append(("any frame <= %d ms" % GOALS["frame"], r["worst_frame_ms"]))
    return [(goal, ms, ms <= float(goal.split("<= ")[1].split()[0])) for goal, ms in out]


def report(rows):
    """Printable lines for a list of measure() results."""
    lines = []
    for r in rows:
        lines.append("%s %dx%d: %s at %s, %d deals, seed %d; python: %s" % (
            r["profile"], r["size"][0], r["size"][1], r["rules"], r["level"], r["deals"], r["seed"], r["python"]))
        lines.append("  %-12s %4s %17s %19s %17s" % ("key", "n", "first ms (worst/mean)",
                                                     "settled ms (w/m)", "pixels (w/m)"))
        for kind, a in r["actions"].items():
            lines.append("  %-12s %4d %9.0f %7.0f %9.0f %9.0f %8d %8d" % (
                kind, a["n"], a["first_worst"], a["first_mean"], a["settled_worst"],
                a["settled_mean"], a["pixels_worst"], a["pixels_mean"]))
        for kind, f in r["frames"].items():
            p = f["worst_parts"]
            lines.append("  %-6s frames %4d: worst %6.1f ms (display %.1f, python %.1f, flash %.1f; %d pixels), "
                         "mean %.1f; display alone worst %.1f" % (
                             kind, f["n"], f["worst_ms"], p["display"], p["python"], p["flash"],
                             p["pixels"], f["mean_ms"], f["display_worst_ms"]))
        for name, f in r["builds"].items():
            p = f["worst_parts"]
            lines.append("  building %-14s %3d frames: worst %6.1f ms (display %.1f, python %.1f), mean %.1f" % (
                name, f["n"], f["worst_ms"], p["display"], p["python"], f["mean_ms"]))
        for f in r["worst_frames"]:
            lines.append("  frame at step %d (%s%s, %s): %.1f ms (display %.1f, python %.1f, flash %.1f; %d pixels)" % (
                f["step"], f["kind"], " of " + f["screen"] if f["screen"] else "", f["doing"], f["ms"],
                f["display"], f["python"], f["flash"], f["pixels"]))
        p = r["power_on"]
        lines.append("  power-on (code.py's app import and App() %.0f ms): the title's art at %.0f ms, "
                     "its menu ready at %.0f ms" % (p["app_ms"], p["art_ms"], p["menu_ms"]))
        lines.append("  the computer's thinking, not counted above: worst %.0f ms" % r["thinking_worst_ms"])
        for goal, ms, met in verdicts(r):
            lines.append("  %-40s %7.1f  %s" % (goal, ms, "met" if met else "NOT MET"))
    return lines

