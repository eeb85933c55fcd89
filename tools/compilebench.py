"""What compiling each module costs on the board: `python -m tools.bench --compile
MOD,MOD,...` imports the modules in that order in the MicroPython VM (each after the
ones before it, so a module's time is its own compile and import once its dependencies
are loaded), from the firmware as the board compiles it (docstrings stripped), and
prints each one's milliseconds on the board: the VM's best of three runs, scaled by the
benchmark's reference loops (tools/screenbench.py, PLATFORM_NOTES' board figures).
A module a list names that an earlier one already imported prints "loaded".

A compile cannot be split, so a module that takes longer than a frame (50 ms) must be
compiled while a screen loads, or be made smaller (docs/SCREENS.md, docs/LINK.md). The
board compiles only after a `tools.deploy --py` (or on a CircuitPython whose .mpy format
the deploy does not know): it otherwise gets the modules precompiled (docs/DEPLOY.md).
"""
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host_tests"))

from tools.screenbench import REF_CODE, BOARD_REF_MS  # noqa: E402

RUNS = 3


def times(modules, runs=RUNS):
    """[(module, board ms or None when already loaded, the other modules its import
    loaded)] for `modules` imported in order."""
    import mpvm
    import test_firmware_memory as stand_ins
    from tools.stripped import without_docstrings
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / "displayio.py").write_text(stand_ins.DISPLAYIO)
        (d / "vectorio.py").write_text(stand_ins.VECTORIO)
        (d / "bitmaptools.py").write_text("def readinto(*a, **k): pass\n")
        without_docstrings(str(ROOT / "firmware" / "sixtysix"), str(d / "sixtysix"))
        without_docstrings(str(ROOT / "shared_rules"), str(d / "shared_rules"))
        packages = [d / "displayio.py", d / "vectorio.py", d / "bitmaptools.py", d / "sixtysix", d / "shared_rules"]
        code = REF_CODE + """
import sys, json, gc
OUT = []
for m in %r:
    gc.collect()
    if m in sys.modules:
        OUT.append((m, None, []))
        continue
    before = set(sys.modules)
    t = now()
    __import__(m)
    t = now() - t
    OUT.append((m, t, sorted(set(sys.modules) - before - {m})))
print(json.dumps([REF, OUT]))
""" % (list(modules),)
        got = [json.loads(mpvm.run(code, packages=packages, heapsize=64 * 1024 * 1024,
                                   compiled=False).strip().splitlines()[-1])
               for _ in range(runs)]
    ref = {k: min(r[0][k] for r in got) for k in BOARD_REF_MS}
    scale = max(BOARD_REF_MS[k] / ref[k] for k in BOARD_REF_MS)
    rows = []
    for i, (name, t, extra) in enumerate(got[0][1]):
        best = None if t is None else min(r[1][i][1] for r in got) * scale
        rows.append((name, best, extra))
    return rows


def report(rows):
    out = []
    for name, ms, extra in rows:
        what = "loaded" if ms is None else "%6.1f ms" % ms
        out.append("%-30s %s%s" % (name, what, "  (with " + ", ".join(extra) + ")" if extra else ""))
    return out
