"""What the deploy needs from a board, whichever way it is reached (drive or serial).

Board paths are absolute and use "/" (``/lib/sixtysix/app.py``). Filesystem failures
while writing surface as ``OSError`` with a host errno, so the sync logic can tell a
full disk (ENOSPC) or a read-only one (EROFS) from a broken copy.
"""

import re

from .errors import MIN_CIRCUITPYTHON, WrongFirmware


class BoardInfo:
    """Which firmware a board runs (``name`` is sys.implementation.name) and on which board:
    ``board_id`` is CircuitPython's board id (board.board_id, "Board ID:" in boot_out.txt)."""

    def __init__(self, name, version, machine="", board_id=None):
        self.name = name
        self.version = tuple(version)
        self.machine = machine
        self.board_id = board_id

    def describe(self):
        label = {"circuitpython": "CircuitPython", "micropython": "MicroPython"}.get(self.name, self.name)
        text = "{} {}".format(label, ".".join(str(v) for v in self.version))
        return text + (", " + self.machine if self.machine else "")


_BOOT_OUT = re.compile(r"CircuitPython (\d+)\.(\d+)\.(\d+)[^;\n]*(?:;\s*(.*))?")
_BOARD_ID = re.compile(r"^Board ID:\s*(\S+)", re.MULTILINE)


def parse_boot_out(text):
    """BoardInfo from boot_out.txt (first line, and the Board ID line when there is one),
    or None if it is not CircuitPython's."""
    match = _BOOT_OUT.search(text)
    if not match:
        return None
    board = _BOARD_ID.search(text)
    return BoardInfo("circuitpython", tuple(int(match.group(i)) for i in (1, 2, 3)), (match.group(4) or "").strip(),
                     board.group(1) if board else None)


def check_firmware(info, where, seen=""):
    """Raise WrongFirmware unless ``info`` is a CircuitPython new enough for the game."""
    if info is None:
        raise WrongFirmware.unknown(where, seen or "no answer")
    if info.name == "micropython":
        raise WrongFirmware.micropython(info.version)
    if info.name != "circuitpython":
        raise WrongFirmware.unknown(where, "sys.implementation.name is {!r}".format(info.name))
    if info.version[:2] < MIN_CIRCUITPYTHON:
        raise WrongFirmware.too_old(info.version)


class Target:
    """Interface of a board reached by the deploy. Subclasses: DriveTarget, SerialTarget."""

    description = "a board"

    def board_info(self):
        """BoardInfo, or None when the firmware cannot be identified."""
        raise NotImplementedError

    def read_file(self, path):
        """The file's bytes, or None if it does not exist."""
        raise NotImplementedError

    def survey(self, expected, folders=()):
        """({path: (size or None if missing, checksum or None)}, [(path, size)]).

        ``expected`` is {path: size}: the checksum is taken only where the size matches.
        The list holds every file under ``folders`` (recursively)."""
        raise NotImplementedError

    def checksum(self, data):
        """What survey() reports for a file holding ``data``."""
        raise NotImplementedError

    def write_file(self, path, data):
        """Write the whole file, creating parent folders."""
        raise NotImplementedError

    def remove_file(self, path):
        raise NotImplementedError

    def space(self):
        """(free bytes, allocation block size)."""
        raise NotImplementedError

    def prepare_to_write(self, report, dry_run=False):
        """Make the board writable, or raise ReadOnly (or NotEnoughSpace) saying why it is not.
        With ``dry_run``, only tell (nothing is written or restarted)."""
        raise NotImplementedError

    def read_only_error(self):
        """The ReadOnly error, with advice that fits this way of reaching the board."""
        raise NotImplementedError

    def finish(self, restart, report):
        """Flush everything; with ``restart`` make the board run the new code.py."""

    def close(self):
        """Release the drive or port."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
