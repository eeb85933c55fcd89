"""Engine and device figures: `python -m tools.bench [--deals N] [--json]`;
`python -m tools.bench --screens [--profiles a,b] [--no-vm]`: how fast the screen answers on
every board profile, at the board's pace (tools/screenbench.py, tools/devicecost.py).

Random-vs-random complete deals (tools/board_bench.play_deals, the loop a board runs) on
CPython, one core, and inside the MicroPython VM (host_tests/vm), where it also measures heap allocated per
deal (gc disabled while playing, so every allocation counts) and the engine's resident
heap after import (ENGINE: what the device imports to play a match). Then the device
(tools/device_bench.py): flash wear of the saves per deal for every rule set, through the
firmware in the simulator; the share of time the main loop sleeps while waiting for a
key; the start-up cost in the VM. Prints figures; judges nothing.
"""
import argparse
import json
import os
import sys
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "host_tests"))

from shared_rules.rules import Rules, FAMILY  # noqa: E402
from tools.board_bench import play_deals  # noqa: E402  (the same loop runs on the board)

# The rules engine proper, and the match and record layers the device adds on top.
ENGINE = "shared_rules.cards, shared_rules.rules, shared_rules.actions, shared_rules.deal"
MATCH = ENGINE + ", shared_rules.match, shared_rules.record"

VM_DEALS = """
from board_bench import play_deals
from shared_rules.rules import Rules
ms, used, actions = play_deals(Rules(RULES), DEALS, 11)
print(ms, used)
"""


def cpython_deals_per_s(rules, deals):
    ms, _, _ = play_deals(rules, deals, 11)
    return deals * 1000.0 / max(ms, 1)


def without_docstrings(src_dir, dst_dir):
    """Copy a package (subpackages too) with its docstrings removed.

    The VM's MicroPython build keeps docstrings in the heap; CircuitPython's board builds
    do not compile them in, so the stripped figure is the one that applies on the board.
    Only the docstring lines change (each becomes `pass`, line numbers kept): the code is
    left byte for byte, because MicroPython compiles some spellings differently (ast.unparse
    writes `a, b = (x, y)`, which allocates a tuple where `a, b = x, y` does not).
    """
    import ast
    os.makedirs(dst_dir, exist_ok=True)
    for name in os.listdir(src_dir):
        src = os.path.join(src_dir, name)
        if os.path.isdir(src) and os.path.exists(os.path.join(src, "__init__.py")):
            without_docstrings(src, os.path.join(dst_dir, name))
            continue
        if not name.endswith(".py"):
            continue
        text = open(src, encoding="utf-8").read()
        lines = text.splitlines(keepends=True)
        for node in ast.walk(ast.parse(text)):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                    and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                doc = body[0]
                first, last = doc.lineno - 1, doc.end_lineno - 1
                indent = lines[first][:doc.col_offset]
                if lines[first][:doc.col_offset].strip() or lines[last][doc.end_col_offset:].strip():
                    continue                  # shares a line with code: leave it
                lines[first] = indent + "pass\n"
                for i in range(first + 1, last + 1):
                    lines[i] = "\n"
        with open(os.path.join(dst_dir, name), "w", encoding="utf-8") as f:
            f.write("".join(lines))


def vm_figures(rules_name, deals):
    import tempfile
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
        shipped = mpvm.import_footprint(MATCH.replace(", ", "\nimport "))
    out["vm_import_bytes_with_match_and_docstrings"] = shipped["resident"]
    out["vm_import_allocated"] = shipped["allocated"]
    return out


def device_figures(matches, idle_seconds, vm):
    """Save wear for every rule set the device offers, the loop's idle share, and (in the
    VM) the start-up cost: tools/device_bench.py says how each is measured."""
    import tempfile
    from tools import device_bench
    from tools.sim import setup_paths
    setup_paths()
    from sixtysix.settings import CHOICES
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


def screens(args):
    from tools import devicecost, screenbench
    from tools.sim import setup_paths
    setup_paths()
    import profiles
    names = args.profiles.split(",") if args.profiles else list(profiles.PROFILES)
    rows = [screenbench.measure(name, deals=args.screen_deals, python=not args.no_vm) for name in names]
    fetch, scenes = devicecost.fit()
    model = {"costs_us": devicecost.COSTS, "fitted_fetch_us": {k: round(v, 2) for k, v in fetch.items()},
             "calibration_ms": {k: [round(m, 1), round(e, 1)] for k, (m, e) in scenes.items()}}
    if args.json:
        print(json.dumps({"model": model, "screens": rows}))
        return 0
    print("device-cost model: fetch us/pixel %s; measured vs model (ms): %s" % (
        model["fitted_fetch_us"], ", ".join("%s %d/%.0f" % (k, m, e) for k, (m, e) in model["calibration_ms"].items())))
    print("\n".join(screenbench.report(rows)))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
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
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--screens", action="store_true",
                    help="instead: scripted deals through the firmware on every board profile, priced "
                         "per frame on the board (issue 12's figures)")
    ap.add_argument("--profiles", help="--screens: comma-separated profile names (default: all)")
    ap.add_argument("--screen-deals", type=int, default=2, help="--screens: deals per profile (default 2)")
    args = ap.parse_args(argv)
    if args.screens:
        return screens(args)
    rules = Rules(args.rules)
    out = {"rules": args.rules, "deals": args.deals,
           "deals_per_s": round(cpython_deals_per_s(rules, args.deals), 1)}
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
