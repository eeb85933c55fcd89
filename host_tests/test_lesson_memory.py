"""Heap of the lesson (Rules > Learn to play) on the device, measured in the MicroPython
VM as host_tests/test_firmware_memory.py measures a match (its display stand-ins, the
firmware as the deploy compiles it, the heap capped at the board's 150 KB): the lesson
played through from the title, which has loaded Hard's modules for a match. Figures are
printed (run with -s to see them)."""
import json

import mpvm
from test_firmware_memory import DEVICE, BOOT, OK, STEP, MARK, WARM_UP, BUDGET, ENGINE, FIRMWARE, import_marks, packages  # noqa: F401

LESSON = ["shared_rules.ai", "shared_rules.ai.greedy", "shared_rules.ai.hints", "sixtysix.screens.menu",
          "sixtysix.screens.lessondeal", "sixtysix.screens.lesson"]
# One frame of the person: once the lesson waits, OK on a box, else the script's move
# made directly (as its buttons would: the raised card, the menu's line)
PERSON = """
g = app.screen
if hasattr(g, "script") and not g.busy():
    if g.overlay is not None:
        %s
    elif g.playing():
        g.act(g.script[g.at][1], 0)
""" % OK.replace("\n", "\n        ")
DONE = "L[0] = L[0] or hasattr(app.screen, 'script')\nE[0] = L[0] and app.name == 'rules' and not hasattr(app.screen, 'script')"


def test_import_cost_of_the_lessons_modules(packages):
    """Resident bytes the lesson's own modules add to the firmware (the hint's words and
    the rules' words it says; the rules' module is the rules screen's too)."""
    rows = import_marks(["displayio", "vectorio", "bitmaptools"] + ENGINE + FIRMWARE + LESSON, packages)
    cost = {}
    for (_, a), (name, b) in zip(rows, rows[1:]):
        cost[name] = b - a
    print("\nresident heap of the lesson's modules (bytes, after a GC):")
    for name in LESSON:
        print("  %-24s %6d" % (name, cost[name]))
    print("  the lesson's own (lessondeal, lesson): %d"
          % (cost["sixtysix.screens.lessondeal"] + cost["sixtysix.screens.lesson"]))
    assert cost["sixtysix.screens.lessondeal"] + cost["sixtysix.screens.lesson"] < 8 * 1024


def test_the_lesson_fits_beside_what_the_title_loaded(packages):
    """From the title (Hard's modules loaded for a match) through the whole lesson to the
    Rules menu with the heap capped at the board's 150 KB: no frame runs out of memory,
    each frame's garbage counted (the VM collects only between steps: stricter than the
    board), and 16 KB stay free between frames (test_family_memory's floor: some 30 KB on
    the board); afterwards the lesson's modules are gone."""
    steps = [DEVICE] + BOOT + WARM_UP + [MARK, "L = [False]\nE = [False]\nW = [0]\nB = [0]", 'app.go("lesson")']
    frame = PERSON + STEP + "\n" + DONE + "\nW[0] = max(W[0], gc.mem_alloc())"
    for _ in range(1500):
        steps.append("if not E[0]:\n" + "".join("    " + line + "\n" for line in frame.split("\n")))
        steps.append("if L[0] and not E[0]:\n    B[0] = max(B[0], gc.mem_alloc())")
    steps += [MARK, "import json, sys\nprint(json.dumps([R, W[0], B[0], E[0], app.name, "
                    "[m for m in sys.modules if 'lesson' in m]]))"]
    out = mpvm.run(steps, packages=packages, timeout=600, heap_cap=BUDGET)
    marks, peak, between, ended, name, left = json.loads(out.strip().splitlines()[-1])
    print("\nthe lesson, heap budget %d:" % BUDGET)
    print("  free at the title (Hard's modules loaded): %6d" % (BUDGET - marks[0]))
    print("  free between the lesson's frames, worst:   %6d" % (BUDGET - between))
    print("  free at the end of its dearest frame (its garbage counted): %6d" % (BUDGET - peak))
    print("  free at the Rules menu after it:           %6d" % (BUDGET - marks[-1]))
    assert ended and name == "rules", "the lesson did not reach its end"
    assert left == []
    assert BUDGET - between >= 16 * 1024
