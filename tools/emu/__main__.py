"""The real CircuitPython firmware on an emulated board: `python -m tools.emu`.

    python -m tools.emu --firmware IMAGE.uf2 --profile NAME --keys FILE --out DIR
    python -m tools.emu --firmware FOLDER --profile NAME --keys FILE --out DIR --link

IMAGE is the official CircuitPython .uf2 for the profile's board (circuitpython.org,
docs/EMULATOR.md); a FOLDER (or $EMU_FIRMWARE) is searched for the board's image. The
board boots the image alone first (CircuitPython makes its CIRCUITPY drive), then
tools.deploy copies the game onto that drive, as on a real board, and the board boots
into the game and plays the keys file (the simulator's format, tools/sim.py; with --link
two boards on a cable, each line starting with a or b). DIR receives the screenshots
(shots/), each board's console, refreshes, heap samples and flash erases, its flash at
the end (for --flash), and summary.json with the figures, also printed.
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tools import bootstrap
from tools.emu import boards, elf, fat, figures, tours

EMU = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("SIXTYSIX_EMU_CACHE", Path.home() / ".cache" / "sixtysix" / "emu"))
FIRST_BOOT_MS = 30000           # at most, for CircuitPython to make its drive and offer the REPL
FRAME_MS = 34                   # a key is held this long at least (a frame of the game's loop)


class EmuError(Exception):
    """Something the person can fix: a missing image, a bad keys file, an unknown board."""


def parser():
    p = argparse.ArgumentParser(prog="python -m tools.emu", description=__doc__.split("\n\n")[0])
    p.add_argument("--firmware", default=os.environ.get("EMU_FIRMWARE"),
                   help="the board's CircuitPython .uf2, or a folder of them (default $EMU_FIRMWARE)")
    p.add_argument("--profile", default="pico_display_pack", help="board profile (hardware/profiles)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--keys", help="keys file (tools/sim.py's format); without it the board boots to the title")
    what.add_argument("--tour", help="one of the boards issue's tours (tools/emu/tours.py; 'list' names them)")
    p.add_argument("--out", required=True, help="folder for the shots, logs and summary.json")
    p.add_argument("--link", action="store_true", help="two boards joined by the link cable")
    p.add_argument("--py", action="store_true", help="deploy the modules as .py (tools.deploy --py)")
    p.add_argument("--source", help="deploy the game of this checkout (tools.deploy --source; default: this one)")
    p.add_argument("--flash", help="start from this flash image (a flash-0.bin of an earlier run) instead of a deploy")
    p.add_argument("--quiet-ms", type=int, default=1000,
                   help="the board waits for the player when it has neither drawn nor been busy this long")
    return p


def find_image(firmware, board_id):
    """The .uf2 for `board_id`: the file given, or the one in the folder named for the board."""
    if not firmware:
        raise EmuError("no CircuitPython image: give --firmware or set EMU_FIRMWARE "
                       "(docs/EMULATOR.md says where each board's image comes from)")
    path = Path(firmware)
    if path.is_dir():
        found = sorted(path.glob("*-%s-*.uf2" % board_id)) or sorted(path.glob("%s*.uf2" % board_id))
        if not found:
            raise EmuError("%s has no CircuitPython image for %s (adafruit-circuitpython-%s-en_US-10.0.3.uf2)"
                           % (path, board_id, board_id))
        return found[-1]
    if not path.is_file():
        raise EmuError("%s does not exist" % path)
    return path


def board_spec(profile, board_id, image, index):
    """The job's description of one board (tools/emu/run.mjs)."""
    keys = [boards.gpio(board_id, name) for name in profile.KEY_PINS]
    link = None
    if getattr(profile, "LINK_TX", None):
        link = {"tx": boards.gpio(board_id, profile.LINK_TX), "rx": boards.gpio(board_id, profile.LINK_RX)}
    return {"name": "ab"[index], "firmware": str(image), "flash": None, "probes": elf.probes(Path(image)),
            "panel": boards.panel(board_id, profile), "keys": keys,
            "adc": boards.battery(board_id, profile), "link": link,
            "uniqueId": [0xE6, 0x60, 0x5C, 0x21, 0x13, 0x4A, 0x29, 0x30 + index]}


def node(job, out):
    """Run a job; the node process's own failure is an EmuError with its message."""
    bootstrap.emulator()
    path = Path(out) / "job.json"
    path.write_text(json.dumps(job, indent=1))
    done = subprocess.run(["node", str(EMU / "run.mjs"), str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        raise EmuError("the emulator stopped: " + (done.stderr.strip().splitlines() or ["(no message)"])[-1])
    return json.loads((Path(out) / "result.json").read_text())


def fresh_flash(spec, image):
    """The flash after the image's first boot (cached by the image's digest): CircuitPython
    has formatted CIRCUITPY and written boot_out.txt there."""
    digest = hashlib.sha256(image.read_bytes()).hexdigest()[:16]
    cached = CACHE / (digest + ".bin")
    if not cached.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            # the drive is made, then code.py (none yet) is done: the REPL is offered
            node({"out": tmp, "boards": [dict(spec, flash=None)],
                  "steps": [{"do": "console", "text": "Press any key to enter the REPL", "ms": FIRST_BOOT_MS}]}, tmp)
            flash = (Path(tmp) / "flash-0.bin").read_bytes()
            fat.find(flash)             # raises if the drive was never made
            part = cached.with_suffix(".%d" % os.getpid())     # whole or not there: runs share it
            part.write_bytes(flash)
            os.replace(part, cached)
    return cached.read_bytes()


def deploy(flash, profile_name, out, py=False, source=None):
    """tools.deploy onto the drive in `flash`, as onto a mounted CIRCUITPY: the new flash."""
    from tools.deploy.cli import main as deploy_main
    drive = Path(out) / "drive"
    shutil.rmtree(drive, ignore_errors=True)
    offset, size = fat.find(flash)
    files = fat.read(flash[offset:])
    for name, data in files.items():
        (drive / name).parent.mkdir(parents=True, exist_ok=True)
        (drive / name).write_bytes(data)
    log = Path(out) / "deploy.txt"
    with open(log, "w") as f:
        code = deploy_main(["--drive", str(drive), "--profile", profile_name] + (["--py"] if py else []) +
                           (["--source", source] if source else []), out=f)
    if code != 0:
        raise EmuError("tools.deploy failed (%d): see %s" % (code, log))
    return flash[:offset] + fat.make(drive, size)


def steps_for(script, profile, pair, board_id):
    """The keys file's commands as the job's steps: pins pressed and let go, times, settles."""
    from sixtysix.core.keys import HOLD
    roles, holds = tuple(profile.BUTTONS), tuple(profile.HOLDS or ())
    steps = [{"do": "settle", "drawn": True}, {"do": "mark", "label": "title"}]
    for n, k, cmd, args in script:
        who = range(2) if k is None and pair else [k or 0]
        if cmd == "wait":
            steps.append({"do": "run", "ms": int(args[0])})
        elif cmd == "shot":
            for b in who:
                steps.append({"do": "shot", "board": b, "name": args[0] + ("-" + "ab"[b] if k is None and pair else "")})
        elif cmd == "powercut":
            steps += [{"do": "powercut", "board": who[0]}, {"do": "settle", "drawn": True},
                      {"do": "mark", "label": "title"}]
        else:
            role = args[0] if cmd == "hold" else cmd
            held = role not in roles
            pin = boards.gpio(board_id, profile.KEY_PINS[(holds if held else roles).index(role)])
            ms = int(args[1]) if cmd == "hold" else int(HOLD * 1000 + 2 * FRAME_MS) if held else FRAME_MS
            times = 1 if cmd == "hold" else int(args[0]) if args else 1
            for _ in range(times):
                steps += [{"do": "mark", "label": "line %d" % n},
                          {"do": "key", "board": who[0], "pin": pin, "down": True}, {"do": "run", "ms": ms},
                          {"do": "key", "board": who[0], "pin": pin, "down": False}, {"do": "settle"}]
    return steps


def read_script(lines, profile, pair):
    """The keys file's lines as (line number, board or None, command, args)."""
    from tools.sim import buttons_of, read_script as read_one, read_pair_script
    buttons = buttons_of(profile)

    def one(some):
        return read_one(some, buttons, profile.NAME)

    if pair:
        return read_pair_script(lines, one)
    return [(n, None, cmd, args) for n, cmd, args in one(lines)]


def run(args):
    from tools.sim import setup_paths, read_keys
    setup_paths()
    from profiles import load
    try:
        profile = load(args.profile)
    except ImportError:
        raise EmuError("no board profile %r (hardware/profiles)" % args.profile) from None
    board_id = profile.BOARD_IDS[0]
    image = find_image(args.firmware, board_id)
    pair = args.link or args.tour in tours.LINKED
    if args.tour:
        if args.tour not in tours.TOURS and args.tour not in tours.LINKED:
            raise EmuError("no tour %r; the tours: %s" % (args.tour, ", ".join(list(tours.TOURS) + list(tours.LINKED))))
        lines = tours.keys(args.tour, profile)
    else:
        lines = read_keys(args.keys) if args.keys else []
    script = read_script(lines, profile, pair)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    specs = [board_spec(profile, board_id, image, i) for i in range(2 if pair else 1)]
    start = Path(args.flash) if args.flash else out / "flash-start.bin"
    if not args.flash:
        start.write_bytes(deploy(fresh_flash(specs[0], image), args.profile, out, args.py, args.source))
    for spec in specs:
        spec["flash"] = str(start)
    steps = steps_for(script, profile, pair, board_id)
    result = node({"out": str(out), "boards": specs, "steps": steps, "quietMs": args.quiet_ms}, out)
    summary = figures.summarize(out, result, image=image.name, profile=args.profile)
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(figures.report(summary))
    return summary


def main(argv=None):
    args = parser().parse_args(argv)
    if args.tour == "list":
        print("\n".join(list(tours.TOURS) + list(tours.LINKED)))
        return 0
    try:
        run(args)
    except (EmuError, boards.BoardError, fat.FatError) as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
