"""Engine, AI and device figures: `python -m tools.bench [--deals N] [--json]`; the
board benchmark in the MicroPython VM: `python -m tools.bench --board`; how fast the screen
answers on every board profile, at the board's pace: `python -m tools.bench --screens
[--profiles a,b] [--no-vm]` (tools/screenbench.py, tools/devicecost.py).

Default: random-vs-random complete deals (tools/board_bench's EngineRun, the loop a board
runs) on CPython, one core, and inside the MicroPython VM (host_tests/vm), where it also
measures heap allocated per deal and the resident heap after import of the engine
(ENGINE: what the device imports to play a match) and of each AI level (AI_LEVELS). Then
the device (tools/device_bench.py): flash wear of the saves per deal for every rule set,
through the firmware in the simulator; the share of time the main loop sleeps while
waiting for a key; the start-up cost in the VM.

--board: tools/board_bench.py itself in the VM with the GC heap capped at a Pico's
(150 KB, docstrings stripped as CircuitPython does, a 4 KB Python stack as deploy sets),
one deal or decision per VM step so garbage is collected between them as on a board.
Times are the real firmware's: board_bench's fib(20) reference, calibrated against the
real firmware (board_bench.CALIBRATION, docs/AI.md). Prints board_bench's JSON lines
(--json: one JSON list). Prints figures; judges nothing.
"""
import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "host_tests"))

from shared_rules.rules import Rules, FAMILY  # noqa: E402
from tools.board_bench import EngineRun  # noqa: E402  (the same loop runs on the board)
from tools.stripped import without_docstrings  # noqa: E402

# The rules engine proper, and the match and record layers the device adds on top.
ENGINE = "shared_rules.cards, shared_rules.rules, shared_rules.actions, shared_rules.deal"
MATCH = ENGINE + ", shared_rules.match, shared_rules.record"
# What the device imports (and builds) for a computer player of each level, after MATCH;
# Hard with the search it builds at its first decision (two-handed, team games).
AI_LEVELS = {
    "easy": "from shared_rules import ai\n_p = ai.make_player('easy')",
    "normal": "from shared_rules import ai\n_p = ai.make_player('normal')",
    "hard": "from shared_rules import ai\nfrom shared_rules.ai import search, hard\n_p = ai.make_player('hard')\n"
            "_p.search = search.Search(0, 0, 0, hard.HARD_TABLE)",
    "hard_team": "from shared_rules import ai\nfrom shared_rules.ai import team_search\n_p = ai.make_player('hard')\n"
                 "_p.team = team_search.TeamSearch()",
}
PICO_HEAP = 150 * 1024          # PLATFORM_NOTES: plan on 150 KB of live heap
BOARD_STACK = 4096              # CIRCUITPY_PYSTACK_SIZE as tools.deploy sets it

VM_DEALS = """
from board_bench import EngineRun
run = EngineRun(RULES, DEALS, 11)
while run.step():
    pass
print(int(run.ms), run.total)
"""


def cpython_deals_per_s(rules_name, deals):
    run = EngineRun(rules_name, deals, 11)
    while run.step():
        pass
    return deals * 1000.0 / max(run.ms, 1)


def import_cost(stripped, setup, code):
    """Resident bytes that `code` adds after `setup` has run (both in the VM, after a GC)."""
    import mpvm
    out = mpvm.run(["import gc\n_m = [0, 0]\n" + setup, "_m[0] = gc.mem_alloc()", code,
                    "_m[1] = gc.mem_alloc()", "print(_m[1] - _m[0])"], packages=(Path(stripped),))
    return int(out)


def vm_figures(rules_name, deals):
    import mpvm
    out = mpvm.run("RULES = %r\nDEALS = %d\n" % (rules_name, deals) + VM_DEALS, timeout=600,
                   packages=("shared_rules", Path(ROOT) / "tools" / "board_bench.py"))
    ms, used = (int(n) for n in out.split())
    out = {"vm_deals_per_s": round(deals * 1000.0 / max(ms, 1), 1), "vm_bytes_per_deal": used // deals}
    with tempfile.TemporaryDirectory() as tmp:
        stripped = os.path.join(tmp, "shared_rules")
        without_docstrings(os.path.join(ROOT, "shared_rules"), stripped)
        for key, modules in (("vm_import_bytes", ENGINE), ("vm_import_bytes_with_match", MATCH)):
            imports = modules.replace(", ", "\nimport ")
            out[key] = mpvm.import_footprint(imports, packages=(Path(stripped),))["resident"]
        for level, code in AI_LEVELS.items():
            out["vm_import_bytes_ai_" + level] = import_cost(stripped, "import " + MATCH.replace(", ", "\nimport "),
                                                             code)
        shipped = mpvm.import_footprint(MATCH.replace(", ", "\nimport "), compiled=False)
    out["vm_import_bytes_with_match_and_docstrings"] = shipped["resident"]
    out["vm_import_allocated"] = shipped["allocated"]
    return out


def device_figures(matches, idle_seconds, vm):
    """Save wear for every rule set the device offers, the loop's idle share, and (in the
    VM) the start-up cost: tools/device_bench.py says how each is measured."""
    from tools import device_bench
    from tools.sim import setup_paths
    setup_paths()
    from sixtysix.save.settings import CHOICES
    out = {"nvm_matches": matches, "nvm_erases_per_deal": {}, "nvm_page_programs_per_deal": {},
           "nvm_deals": {}}
    for game in CHOICES[0][2]:
        erases, programs, deals = device_bench.nvm_wear(game, matches)
        out["nvm_erases_per_deal"][game] = round(erases, 4)
        out["nvm_page_programs_per_deal"][game] = round(programs, 1)
        out["nvm_deals"][game] = deals
    idle = device_bench.idle_share(idle_seconds)
    out["idle_share"] = {k: round(v[0], 4) for k, v in idle.items()}
    out["idle_share_board_est"] = {k: round(v[1], 4) for k, v in idle.items()}
    out["idle_awake_us_per_pass"] = {k: round(v[2], 1) for k, v in idle.items()}
    if vm:
        with tempfile.TemporaryDirectory() as tmp:
            dirs = []
            for name in ("firmware/sixtysix", "shared_rules"):
                dst = os.path.join(tmp, os.path.basename(name))
                without_docstrings(os.path.join(ROOT, name), dst)
                dirs.append(Path(dst))
            out["boot"] = device_bench.boot_cost(dirs)
    return out


# One VM step: the next deal or decision of board_bench; rows go out as they complete.
BOARD_STEP = "if B is not None:\n    _l = B.step()\n    if _l is None:\n        B = None\n        print('done')\n" \
             "    elif _l:\n        print(_l)"


def board_vm(options="", steps=3000, heap_cap=PICO_HEAP, timeout=1800):
    """Run tools/board_bench.py in the VM as on a Pico (see the module doc); its rows.

    options: keyword arguments for board_bench.Bench, as Python source."""
    import mpvm
    with tempfile.TemporaryDirectory() as tmp:
        stripped = os.path.join(tmp, "shared_rules")
        without_docstrings(os.path.join(ROOT, "shared_rules"), stripped)
        without_docstrings(os.path.join(ROOT, "tools"), os.path.join(tmp, "tools"))
        code = ["from board_bench import Bench\nB = Bench(%s)" % options] + [BOARD_STEP] * steps
        out = mpvm.run(code, packages=(Path(stripped), Path(tmp) / "tools" / "board_bench.py"),
                       heap_cap=heap_cap, pystack_bytes=BOARD_STACK, timeout=timeout)
    lines = out.strip().splitlines()
    if not lines or lines[-1] != "done":
        raise RuntimeError("board_bench did not finish in %d VM steps" % steps)
    return [json.loads(line) for line in lines[:-1]]


def screens(args):
    from tools import devicecost, screenbench
    from tools.sim import setup_paths
    setup_paths()
    import profiles
    names = args.profiles.split(",") if args.profiles else list(profiles.PROFILES)
    rows = [screenbench.measure(name, deals=args.screen_deals, python=not args.no_vm,
                                    rules=args.screen_rules, level=args.screen_level,
                                    detail=args.screen_frames) for name in names]
    costs, scenes = devicecost.fit()
    errors = sorted(abs(model - real) / real for _, _, real, model in scenes)
    model = {"costs_us": devicecost.COSTS, "fitted_us": {k: round(v, 2) for k, v in costs.items()},
             "calibration": {"refreshes": len(scenes), "median_error": round(errors[len(errors) // 2], 3),
                             "p90_error": round(errors[len(errors) * 9 // 10], 3)}}
    if args.json:
        print(json.dumps({"model": model, "screens": rows}))
        return 0
    c = model["calibration"]
    print("device-cost model: costs us %s; against the real firmware's %d refreshes: median error %.1f%%, "
          "90%% within %.1f%%" % (model["fitted_us"], c["refreshes"], 100 * c["median_error"], 100 * c["p90_error"]))
    print("\n".join(screenbench.report(rows)))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=20000, help="CPython deals (default 20000)")
    ap.add_argument("--vm-deals", type=int, default=500, help="MicroPython VM deals (default 500)")
    ap.add_argument("--rules", default="standard", choices=Rules.NAMES + FAMILY)
    ap.add_argument("--no-vm", action="store_true", help="skip the MicroPython VM figures")
    ap.add_argument("--nvm-matches", type=int, default=20,
                    help="whole matches per rule set for the save wear figures (default 20)")
    ap.add_argument("--idle-seconds", type=float, default=2.0,
                    help="seconds the idle share is measured on each screen (default 2)")
    ap.add_argument("--no-device", action="store_true",
                    help="skip the device figures (save wear, idle share, start-up)")
    ap.add_argument("--board", action="store_true", help="run tools/board_bench.py in the VM on a Pico-sized heap")
    ap.add_argument("--hard-budget", type=int, default=0,
                    help="--board: Hard does this many work units per decision instead of thinking 1.5 s")
    ap.add_argument("--json", action="store_true", help="print one JSON object (--board: a list)")
    ap.add_argument("--compile", metavar="MODULES",
                    help="comma-separated modules: each one's compile and import, ms on the board (tools/compilebench.py)")
    ap.add_argument("--screens", action="store_true",
                    help="instead: scripted deals through the firmware on every board profile, priced "
                         "per frame on the board (issue 12's figures)")
    ap.add_argument("--profiles", help="--screens: comma-separated profile names (default: all)")
    ap.add_argument("--screen-rules", help="--screens: the rule set chosen (default standard)")
    ap.add_argument("--screen-level", help="--screens: the computer's level (default normal)")
    ap.add_argument("--screen-frames", type=int, default=0,
                    help="--screens: list the N worst judged frames one by one (default 0)")
    ap.add_argument("--screen-deals", type=int, default=2, help="--screens: deals per profile (default 2)")
    args = ap.parse_args(argv)
    if args.board:
        rows = board_vm("hard_budget=%d" % args.hard_budget)
        print(json.dumps(rows) if args.json else "\n".join(json.dumps(r) for r in rows))
        return 0
    if args.compile:
        from tools import compilebench
        rows = compilebench.times(args.compile.split(","))
        print(json.dumps(rows) if args.json else "\n".join(compilebench.report(rows)))
        return 0
    if args.screens:
        return screens(args)
    out = {"rules": args.rules, "deals": args.deals,
           "deals_per_s": round(cpython_deals_per_s(args.rules, args.deals), 1)}
    if not args.no_vm:
        out["vm_deals"] = args.vm_deals
        out.update(vm_figures(args.rules, args.vm_deals))
    if not args.no_device:
        out.update(device_figures(args.nvm_matches, args.idle_seconds, not args.no_vm))
    if args.json:
        print(json.dumps(out))
    else:
        for k in out:
            print("%-22s %s" % (k, out[k]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
