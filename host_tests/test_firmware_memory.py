"""Heap the firmware needs, measured in a real MicroPython VM (host_tests/mpvm.py).

displayio and vectorio are replaced by small stand-ins (written below) that take the same
calls; CircuitPython's native objects are C structs, so the real figures for the display
objects are, if anything, smaller. Figures are printed (run with -s to see them).
"""
import json
from pathlib import Path

import pytest

import mpvm

ROOT = Path(__file__).resolve().parent.parent
BUDGET = 150 * 1024

DISPLAYIO = '''
class Group:
    def __init__(self, scale=1, x=0, y=0):
        self.scale = scale
        self.x = x
        self.y = y
        self._items = []

    def append(self, item):
        self._items.append(item)

    def remove(self, item):
        self._items.remove(item)


class Palette:
    def __init__(self, n):
        self._c = [0] * n

    def __setitem__(self, i, v):
        self._c[i] = v

    def __getitem__(self, i):
        return self._c[i]

    def __len__(self):
        return len(self._c)

    def make_transparent(self, i):
        pass


class OnDiskBitmap:
    def __init__(self, path):
        self.pixel_shader = Palette(16)


class TileGrid:
    def __init__(self, bitmap, pixel_shader=None, width=1, height=1, tile_width=0,
                 tile_height=0, default_tile=0, x=0, y=0):
        self.pixel_shader = pixel_shader
        self.x = x
        self.y = y
        self.hidden = False
        self._t = bytearray(width * height)

    def __getitem__(self, i):
        return self._t[i]

    def __setitem__(self, i, v):
        self._t[i] = v
'''

VECTORIO = '''
class Rectangle:
    def __init__(self, pixel_shader=None, x=0, y=0, width=1, height=1):
        self.pixel_shader = pixel_shader
        self.x = x
        self.y = y
'''

# A board in the VM: a display with no pixels, a queue of button events, 4 KB of nvm.
DEVICE = '''
import gc
class Disp:
    width = 240
    height = 135
    root_group = None
    brightness = 1.0
class Ev:
    def __init__(s, n, p):
        s.key_number = n
        s.pressed = p
        s.released = not p
class Q:
    def __init__(s):
        s.q = []
    def get(s):
        return s.q.pop(0) if s.q else None
q = Q()
T = [0.0]
def clock():
    return T[0]
R = []
'''
BOOT = ('from sixtysix.app import App\n'
        'app = App(Disp(), q, ("ok", "menu", "left", "right"), bytearray(4096), clock, '
        'assets="/assets", seed=7)\n'
        'app.settings.index[1] = 2   # the computer plays Hard')
OK = "q.q.append(Ev(0, True))\nq.q.append(Ev(0, False))"
STEP = "T[0] += 0.05\napp.step()"
MARK = "R.append(gc.mem_alloc())"
WARM_UP = [STEP] * 6        # frames of the title waiting: it imports the engine meanwhile

FIRMWARE = ["sixtysix.store", "sixtysix.ui", "sixtysix.keys", "sixtysix.settings",
            "sixtysix.table", "sixtysix.app", "sixtysix.screens", "sixtysix.savegame",
            "sixtysix.dialogs", "sixtysix.game", "sixtysix.rulestext", "sixtysix.battery"]
ENGINE = ["shared_rules.cards", "shared_rules.actions", "shared_rules.errors",
          "shared_rules.rules", "shared_rules.rng", "shared_rules.view", "shared_rules.deal",
          "shared_rules.record", "shared_rules.match"]
AI = ["shared_rules.ai", "shared_rules.ai.greedy", "shared_rules.ai.normal", "shared_rules.ai.solver",
      "shared_rules.ai.search", "shared_rules.ai.hard"]


@pytest.fixture(scope="module")
def packages(tmp_path_factory):
    try:
        mpvm.check_installed()
    except mpvm.MPVMUnavailable as e:
        pytest.skip(str(e))
    d = tmp_path_factory.mktemp("stubs")
    (d / "displayio.py").write_text(DISPLAYIO)
    (d / "vectorio.py").write_text(VECTORIO)
    return (d / "displayio.py", d / "vectorio.py", ROOT / "firmware" / "sixtysix", "shared_rules")


def import_marks(mods, packages):
    """[(module, gc.mem_alloc() after importing it)], after ("start", the first mark)."""
    steps = ["import gc\nR = [('start', gc.mem_alloc())]"]
    for m in mods:
        steps.append("import " + m)
        steps.append("R.append(('%s', gc.mem_alloc()))" % m)
    steps.append("import json\nprint(json.dumps(R))")
    return json.loads(mpvm.run(steps, packages=packages, timeout=120).strip().splitlines()[-1])


def test_import_cost_of_every_module(packages, tmp_path):
    """Resident bytes each module adds, imported in dependency order (compiled from .py),
    without docstrings: CircuitPython's board builds do not keep them (the VM's build
    does; tools/bench.py measures the engine the same way)."""
    from tools.bench import without_docstrings
    stripped = []
    for package in packages[2:]:
        src = package if isinstance(package, Path) else ROOT / package
        without_docstrings(str(src), str(tmp_path / src.name))
        stripped.append(tmp_path / src.name)
    rows = import_marks(["displayio", "vectorio"] + ENGINE + FIRMWARE + AI,
                        packages[:2] + tuple(stripped))
    base = prev = rows[0][1]
    print("\nresident heap per module (bytes, after a GC):")
    own = 0
    for name, v in rows[1:]:
        print("  %-22s %6d" % (name, v - prev))
        if name.startswith("sixtysix"):
            own += v - prev
        prev = v
    total = prev - base
    print("  firmware modules together: %d; everything: %d" % (own, total))
    assert own < 50 * 1024
    assert total < 100 * 1024


def test_a_hard_game_runs_inside_150_kb(packages):
    """Boot, let the title load the rest (six frames), start a match against Hard and
    play 16 tricks' worth of button presses with the GC heap capped at 150 KB. The VM collects only between steps (one step = one
    frame here), so every step's garbage counts too: a stricter test than the board."""
    steps = [DEVICE, BOOT, MARK] + WARM_UP + [MARK, OK, STEP, STEP, MARK]
    for i in range(200):
        if i % 8 == 0:
            steps.append(OK)
        steps.append(STEP)
        steps.append(MARK)
    steps.append("import json\ng = app.screen\n"
                 "print(json.dumps([R, g.match.deals, len(g.match.deal.log), g.level]))")
    out = mpvm.run(steps, packages=packages, timeout=300, heap_cap=BUDGET)
    marks, deals, actions, level = json.loads(out.strip().splitlines()[-1])
    print("\nheap after boot (title screen): %d" % marks[0])
    print("heap once the title has loaded the engine: %d" % marks[1])
    print("heap after starting a match:    %d" % marks[2])
    print("largest heap between frames:    %d (budget %d)" % (max(marks), BUDGET))
    assert level == "hard"
    assert deals > 1 or actions > 10, "the game did not move on"
    assert max(marks) < BUDGET
