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
        self.hidden = False
        self._items = []

    def append(self, item):
        self._items.append(item)

    def remove(self, item):
        self._items.remove(item)

    def pop(self, i=-1):
        return self._items.pop(i)

    def __len__(self):
        return len(self._items)

    def __getitem__(self, i):
        return self._items[i]


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


class Bitmap:
    # the same pixel buffer as CircuitPython's: rows of 32-bit words, on the GC heap
    # (pixel access allocates nothing, like the real one)
    def __init__(self, width, height, value_count):
        bits = 1
        while (1 << bits) < value_count:
            bits *= 2
        self.width = width
        self.height = height
        self.bits = bits
        self.stride = (width * bits + 31) // 32 * 4
        self.data = bytearray(self.stride * height)

    def __getitem__(self, i):
        y = i // self.width
        bit = (i - y * self.width) * self.bits
        byte = self.data[y * self.stride + bit // 8]
        return byte >> (bit % 8) & ((1 << self.bits) - 1)

    def __setitem__(self, i, v):
        y = i // self.width
        bit = (i - y * self.width) * self.bits
        j = y * self.stride + bit // 8
        mask = ((1 << self.bits) - 1) << (bit % 8)
        self.data[j] = self.data[j] & ~mask | (v << (bit % 8)) & mask


class TileGrid:
    def __init__(self, bitmap, pixel_shader=None, width=1, height=1, tile_width=0,
                 tile_height=0, default_tile=0, x=0, y=0):
        self.pixel_shader = pixel_shader
        self.width = width
        self.height = height
        self.tile_width = tile_width
        self.tile_height = tile_height
        self.x = x
        self.y = y
        self.hidden = False
        self._t = bytearray(width * height)

    def __getitem__(self, i):
        return self._t[i]

    def __setitem__(self, i, v):
        self._t[i] = v
'''

BITMAPTOOLS = '''
def readinto(bitmap, file, bits_per_pixel, element_size=1, reverse_pixels_in_element=False,
             swap_bytes_in_element=False, reverse_rows=False):
    # CircuitPython reads each row into a buffer on the C stack: no garbage on the heap
    row = (bitmap.width * bits_per_pixel + element_size * 8 - 1) // (element_size * 8) * element_size
    mask = (1 << bits_per_pixel) - 1
    per = 8 // bits_per_pixel
    data = bytearray(row)
    for r in range(bitmap.height):
        file.readinto(data)
        y = bitmap.height - 1 - r if reverse_rows else r
        for x in range(bitmap.width):
            k = per - 1 - x % per if reverse_pixels_in_element else x % per
            bitmap[y * bitmap.width + x] = data[x // per] >> (k * bits_per_pixel) & mask
'''

VECTORIO = '''
class Rectangle:
    def __init__(self, pixel_shader=None, x=0, y=0, width=1, height=1):
        self.pixel_shader = pixel_shader
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.hidden = False

    @property
    def location(self):
        return (self.x, self.y)

    @location.setter
    def location(self, xy):
        self.x, self.y = xy
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
# The board collects garbage while it compiles; the VM only between steps: one import a
# step, then the app (the title screen).
BOOT = ['from sixtysix.app import App', 'import sixtysix.screens.title',
        'app = App(Disp(), q, ("ok", "menu", "left", "right"), bytearray(4096), clock, '
        'assets="/lib/assets", seed=7)\n'
        'app.device.settings.index[1] = 2   # the computer plays Hard']
# What a match compiles (as above, one a step): the table, the engine, the AI.
MATCH_IMPORTS = ["import sixtysix.table.driver", "import sixtysix.table.view", "import sixtysix.save.savegame", "import shared_rules.match",
                 "import shared_rules.ai", "import shared_rules.ai.greedy", "import shared_rules.ai.normal",
                 "import shared_rules.ai.solver", "import shared_rules.ai.playouts", "import shared_rules.ai.search",
                 "import shared_rules.ai.hard"]
OK = "q.q.append(Ev(0, True))\nq.q.append(Ev(0, False))"
STEP = "T[0] += 0.05\napp.step()"
MARK = "R.append(gc.mem_alloc())"
WARM_UP = [STEP] * 40       # frames of the title loading what its choices need, one module a frame
# Every computer decision notes the heap in use when it returns: the VM collects nothing
# inside a step, so that is everything live plus all the decision (and its step) allocated.
WATCH_DECISIONS = """
import sixtysix.table.driver
H = []
_decide = sixtysix.table.driver.Driver.decide
def _watched(self, seat):
    a = _decide(self, seat)
    H.append(gc.mem_alloc())
    return a
sixtysix.table.driver.Driver.decide = _watched
"""

# Not resident while a match is played: the layout is read once at power-on and dropped
# (sixtysix.table.felt.Layout), the menu screens are dropped when a match starts (App.start).
NOT_WHILE_PLAYING = ("sixtysix.core.layouts", "sixtysix.core.keynames", "sixtysix.screens.title",
                     "sixtysix.screens.settings", "sixtysix.screens.text", "sixtysix.screens.rulestext",
                     "sixtysix.table.build", "sixtysix.table.parts")
FIRMWARE = ["sixtysix.save.store", "sixtysix.core.bmp", "sixtysix.core.ui", "sixtysix.core.keys",
            "sixtysix.core.keynames", "sixtysix.save.settings", "sixtysix.core.layouts", "sixtysix.table.felt",
            "sixtysix.table.parts", "sixtysix.table.build", "sixtysix.app", "sixtysix.screens.title",
            "sixtysix.screens.settings", "sixtysix.screens.text", "sixtysix.save.savegame",
            "sixtysix.table.driver", "sixtysix.table.boxes", "sixtysix.table.view", "sixtysix.screens.rulestext", "sixtysix.core.battery"]
ENGINE = ["shared_rules.cards", "shared_rules.actions", "shared_rules.errors",
          "shared_rules.rules", "shared_rules.rng", "shared_rules.view", "shared_rules.deal",
          "shared_rules.record", "shared_rules.match"]
AI = ["shared_rules.ai", "shared_rules.ai.greedy", "shared_rules.ai.normal", "shared_rules.ai.solver",
      "shared_rules.ai.playouts", "shared_rules.ai.search", "shared_rules.ai.hard"]
SPEAKER = ["sixtysix.core.sound"]        # only on a board with a speaker (app.device.sound)
# A speaker in the VM: what profiles/_sound.Buzzer offers (the board's PWMOut is a C object)
SOUND = """
class Speaker:
    def tone(self, hz):
        pass
    def off(self):
        pass
"""


@pytest.fixture(scope="module")
def packages(tmp_path_factory):
    """The stand-ins, the assets, and the firmware and engine as the deploy compiles them
    for the board (mpvm: .mpy, without docstrings)."""
    try:
        mpvm.check_installed()
    except mpvm.MPVMUnavailable as e:
        pytest.skip(str(e))
    d = tmp_path_factory.mktemp("stubs")
    (d / "displayio.py").write_text(DISPLAYIO)
    (d / "vectorio.py").write_text(VECTORIO)
    (d / "bitmaptools.py").write_text(BITMAPTOOLS)
    return (d / "displayio.py", d / "vectorio.py", d / "bitmaptools.py", ROOT / "firmware" / "sixtysix",
            ROOT / "shared_rules", ROOT / "firmware" / "assets")


def import_marks(mods, packages):
    """[(module, gc.mem_alloc() after importing it)], after ("start", the first mark)."""
    steps = ["import gc\nR = [('start', gc.mem_alloc())]"]
    for m in mods:
        steps.append("import " + m)
        steps.append("R.append(('%s', gc.mem_alloc()))" % m)
    steps.append("import json\nprint(json.dumps(R))")
    return json.loads(mpvm.run(steps, packages=packages, timeout=120).strip().splitlines()[-1])


def test_import_cost_of_every_module(packages):
    """Resident bytes each module adds, imported in dependency order (loaded from the
    deploy's .mpy: see `packages`)."""
    rows = import_marks(["displayio", "vectorio", "bitmaptools"] + ENGINE + FIRMWARE + AI + SPEAKER, packages)
    base = prev = rows[0][1]
    print("\nresident heap per module (bytes, after a GC):")
    own = playing = speaker = 0
    for name, v in rows[1:]:
        print("  %-22s %6d" % (name, v - prev))
        if name in SPEAKER:
            speaker += v - prev
        elif name not in NOT_WHILE_PLAYING:
            playing += v - prev
            if name.startswith("sixtysix"):
                own += v - prev
        prev = v
    print("  resident while Hard plays (not %s): firmware %d, everything %d; all modules: %d; "
          "a board with a speaker adds %d" % (", ".join(NOT_WHILE_PLAYING), own, playing, prev - base, speaker))
    # 50 KB before link play and pass-and-play added their entry points to app, game,
    # table.boxes and settings (52.5 KB measured with them), screens built a step a frame
    # (+1.4 KB); in packages (core, save, table are modules too) 52,448 B against 51,728
    # flat: the free heap a Hard decision keeps is test_family_memory's to hold
    assert own < 54 * 1024
    assert playing < 100 * 1024
    assert speaker < 2 * 1024


def play_hard(packages, width, height, presses=200, sound=False):
    """Boot a width x height device (with a speaker: sound), let the title load the rest
    (40 frames), start a match against Hard and press OK every 8 frames with the heap
    capped at BUDGET. Returns the heap in use after boot (the title), once the title has
    loaded the engine, after each frame (after a collection), when each decision
    returned, how far the game got, and whether the sound code was loaded."""
    boot = BOOT
    if sound:
        boot = BOOT[:2] + [SOUND + BOOT[2].replace("seed=7)", "seed=7, sound=Speaker())")]
    steps = [DEVICE, "Disp.width = %d\nDisp.height = %d" % (width, height)] + boot + [MARK]
    steps += WARM_UP + [MARK] + MATCH_IMPORTS + [WATCH_DECISIONS, OK, STEP, STEP, MARK]
    for i in range(presses):
        if i % 8 == 0:
            steps.append(OK)
        steps.append(STEP)
        steps.append(MARK)
    steps.append("import json, sys\ng = app.screen\n"
                 "print(json.dumps([R, H, g.match.deals, len(g.match.deal.log), g.level,\n"
                 "                  'sixtysix.core.sound' in sys.modules]))")
    out = mpvm.run(steps, packages=packages, timeout=300, heap_cap=BUDGET)
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.parametrize("size, sound", [((240, 135), False), ((320, 240), False), ((240, 240), True)])
def test_heap_free_at_the_title_and_during_hard_decisions(packages, size, sound):
    """Issue 12's heap goal: 20 KB free during a Hard decision, with the sheets in RAM
    (and on a board with a speaker, its tunes too). The VM collects only between steps
    (one step = one frame here), so each step's garbage counts too: a stricter test than
    the board. Calibrated against the real CircuitPython 10.0.3 firmware (measured in an
    emulator, the game deployed as .mpy, Pico Display Pack, a standard match at Hard):
    this model reads 29.1 KB free during a Hard decision (worst) and 30.8 KB between
    frames where the board has 44.4 KB free while Hard thinks and 41.3 KB after its
    worst collection: the model is pessimistic by ~1.5x (15 KB), so its 20 KB floor
    stands for ~35 KB on the board."""
    marks, decisions, deals, actions, level, sound_loaded = play_hard(packages, *size, sound=sound)
    print("\n%dx%d%s, heap budget %d:" % (size + (" with a speaker" if sound else "", BUDGET)))
    print("  free at the title:                %6d" % (BUDGET - marks[0]))
    print("  free once the title loaded the engine: %6d" % (BUDGET - marks[1]))
    print("  free between frames, worst:       %6d" % (BUDGET - max(marks)))
    print("  free during a Hard decision, worst of %d: %6d" % (len(decisions), BUDGET - max(decisions)))
    assert level == "hard" and len(decisions) >= 5
    assert deals > 1 or actions > 10, "the game did not move on"
    assert BUDGET - max(decisions) >= 20 * 1024
    assert sound_loaded == sound, "the sound code is loaded only on a board with a speaker"


LINK_PLAY = ["sixtysix.save.format", "sixtysix.link.cable", "shared_rules.team", "shared_rules.family",
             "sixtysix.link.terms", "sixtysix.link.play", "sixtysix.link.heard", "sixtysix.link.match",
             "sixtysix.link.table", "sixtysix.table.seats", "sixtysix.table.passplay", "sixtysix.link.sha256",
             "sixtysix.link.fairseed", "sixtysix.link.handshake", "sixtysix.screens.friends",
             "sixtysix.link.screen"]


def test_resident_cost_of_playing_a_friend(packages):
    """What pass-and-play and link play add to the heap on top of a match against the
    computer (its modules loaded first): the figure to set against Hard's 20 KB."""
    rows = import_marks(["displayio", "vectorio", "bitmaptools"] + ENGINE + FIRMWARE + LINK_PLAY, packages)
    marks = dict(rows)
    prev = marks[FIRMWARE[-1]]
    print("\nresident heap per module of playing a friend (bytes, after a GC):")
    for name in LINK_PLAY:
        print("  %-22s %6d" % (name, marks[name] - prev))
        prev = marks[name]
    table = marks["sixtysix.link.table"] - marks[FIRMWARE[-1]]
    passing = marks["sixtysix.table.passplay"] - marks["sixtysix.link.table"]
    print("  at a linked match's table (link play, the family rules, link.table): %d; at a pass-and-play"
          " table (seats, passplay): %d; set-up, dropped at the table (the fair seed, the handshake,"
          " friends, link.screen): %d"
          % (table, passing, marks["sixtysix.link.screen"] - marks["sixtysix.table.passplay"]))
    # before the set-up screens left the table: 36 KB and 7.4 KB (pass-and-play did not
    # fit beside Hard in the team games); a Hard decision leaves 24-31 KB free of 150.
    # Before the set-up's steps and the fair seed left it: 31 KB. A new pool of
    # identifiers (qstrs: ~9 KB, MicroPython keeps them on the heap, each pool larger than
    # the last) lands on whichever module needs it (after the table's in this order)
    assert passing < 4 * 1024 and table < 26 * 1024


# A module's compiled constants are one allocation: its identifiers' table (16-bit
# entries), then its object constants (long strings, floats, bytes). The module keeps a
# pointer to each part. With no object constant the second points just past the end:
# when the identifiers fill whole 16-byte blocks, at the head of the NEXT block, and
# the collector keeps whatever is put there alive, with all it references (MicroPython's
# mp_module_context_alloc_tables; CircuitPython has the same core). A Hard decision's
# search landing there stayed for good: 5.7 KB less free in every later decision.
CONTEXTS = '''
import sys, uctypes
def _words(addr, n):
    return uctypes.struct(addr, {"w": (uctypes.ARRAY | 0, uctypes.UINT32 | n)}).w
for _n in sorted(sys.modules):
    _m = sys.modules[_n]
    _g = id(_m.__dict__)
    _fs = []
    for _v in _m.__dict__.values():
        _fs.append(_v)
        if type(_v) is type:
            _fs.extend(_v.__dict__.values())
    for _f in _fs:
        if type(_f).__name__ == "function":
            _c = _words(_words(id(_f), 2)[1], 4)    # its module's context: module, globals, tables
            if _c[1] == _g:
                print("CONTEXT", _n, _c[2], _c[3])
                break
import micropython
micropython.mem_info(1)
'''


def pinning_modules(mods, packages):
    """The modules in `mods` (imported in that order, one a step) whose object-constant
    pointer lands on the head of the next heap block, and the bytes that block holds."""
    out = mpvm.run(["import " + m for m in mods] + [CONTEXTS], packages=packages, timeout=120)
    layout = out.split("GC memory layout; from ")[1]
    start = int(layout.split(":")[0], 16)
    kinds = {}
    for line in layout.splitlines()[1:]:
        at, _, row = line.partition(": ")
        if len(at) == 8 and row:
            for i, c in enumerate(row):
                kinds[int(at, 16) // 16 + i] = c
    pins = {}
    for line in out.splitlines():
        if line.startswith("CONTEXT"):
            _, name, names, objects = line.split()
            block, rest = divmod(int(objects) - start, 16)
            if rest == 0 and int(objects) > int(names) and kinds.get(block, ".") != "=":
                pins[name] = kinds.get(block, ".")
    return pins


def test_no_module_pins_the_heap_block_after_its_constants(packages):
    """Every module of the firmware and the engine has an object constant or identifiers
    that end inside a block, so no module keeps a stray object alive (see CONTEXTS)."""
    firmware = ROOT / "firmware" / "sixtysix"
    names = sorted(".".join(p.relative_to(firmware).with_suffix("").parts)
                   for p in firmware.rglob("*.py") if p.stem != "__init__")     # (a package's holds no code)
    assert "link.play" in names
    rules = sorted(p.stem for p in (ROOT / "shared_rules").glob("*.py") if p.stem != "__init__")
    ai = sorted(p.stem for p in (ROOT / "shared_rules" / "ai").glob("*.py") if p.stem != "__init__")
    mods = ["displayio", "vectorio", "bitmaptools"] + ["shared_rules." + n for n in rules] + \
        ["shared_rules.ai." + n for n in ai] + ["sixtysix." + n for n in names]
    pins = pinning_modules(mods, packages)
    print("\nmodules whose constants' end pointer is a heap block's head: %s" % (pins or "none"))
    assert not [n for n in pins if n.startswith(("sixtysix", "shared_rules"))], \
        "give each an object constant (a string of more than 10 characters): %s" % sorted(pins)


IDLE = """import gc
gc.collect()
gc.disable()
_a = gc.mem_alloc()
for _ in range(30):
    T[0] += 0.05
    app.step()
R.append(((gc.mem_alloc() - _a) / 30, app.busy() or bool(app.device.warm)))
gc.enable()
"""


def test_a_frame_that_waits_for_a_key_allocates_next_to_nothing(packages):
    """At the title and at the table waiting for the person, a frame allocates under 100
    bytes (the VM's boxed floats: the board's are not). The real firmware collects
    whenever its heap areas are full, ~30-40 ms each time: reading the screen-off and
    sleep settings every frame (~450 bytes) brought a collection every second or so
    while the game waited, often in the frame that answered the next key. Measured in
    one VM step (the VM collects between steps)."""
    steps = [DEVICE, "Disp.width = 240\nDisp.height = 135"] + BOOT + WARM_UP + [STEP] * 40 + [IDLE]
    steps += MATCH_IMPORTS + [OK] + [STEP] * 200 + [IDLE]
    steps.append("import json\nprint(json.dumps([R, type(app.screen).__name__]))")
    out = mpvm.run(steps, packages=packages, timeout=300, heap_cap=BUDGET)
    (title, title_busy), (table, table_busy) = json.loads(out.strip().splitlines()[-1])[0]
    print("\nbytes a frame waiting for a key: title %.1f, table %.1f" % (title, table))
    assert not title_busy and not table_busy
    assert title < 100 and table < 100
