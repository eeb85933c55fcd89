"""What the deploy needs from a board, whichever way it is reached (drive or serial).

Board paths are absolute and use "/" (``/lib/sixtysix/app.py``). Filesystem failures
while writing surface as ``OSError`` with a host errno, so the sync logic can tell a
full disk (ENOSPC) or a read-only one (EROFS) from a broken copy.
"""

import re

from .errors import MIN_CIRCUITPYTHON, WrongFirmware


class BoardInfo:
    """Which firmware a board runs: ``name`` is sys.implementation.name."""

    def __init__(self, name, version, machine=""):
        self.name = name
        self.version = tuple(version)
        self.machine = machine

    def describe(self):
        label = {"circuitpython": "CircuitPython", "micropython": "MicroPython"}.get(self.name, self.name)
        text = "{} {}".format(label, ".".join(str(v) for v in self.version))
        return text + (", " + self.machine if self.machine else "")


_BOOT_OUT = re.compile(r"CircuitPython (\d+)\.(\d+)\.(\d+)[^;\n]*(?:;\s*(.*))?")


def parse_boot_out(text):
    """BoardInfo from the first line of boot_out.txt, or None if it is not CircuitPython's."""
    match = _BOOT_OUT.search(text)
    if not match:
        return None
    return BoardInfo("circuitpython", tuple(int(match.group(i)) for i in (1, 2, 3)), (match.group(4) or "").strip())


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

    def sizes(self, paths):
        """{path: size in bytes, or None if missing} for regular files."""
        raise NotImplementedError

    def digests(self, paths):
        """{path: sha256 hex digest} for existing files."""
        raise NotImplementedError

    def list_files(self, folder):
        """[(path, size)] of every file under ``folder`` (recursively); [] if it is missing."""
        raise NotImplementedError

    def write_file(self, path, data):
        """Write the whole file, creating parent folders."""
        raise NotImplementedError

    def remove_file(self, path):
        raise NotImplementedError

    def space(self):
        """(free bytes, allocation block size)."""
        raise NotImplementedError

    def check_writable(self):
        """Raise ReadOnly if the deploy cannot write here (probe with a tiny file)."""
        raise NotImplementedError

    def read_only_error(self):
        """The ReadOnly error, with advice that fits this way of reaching the board."""
        raise NotImplementedError

    def finish(self, restart):
        """Flush everything; with ``restart`` make the board run the new code.py."""

    def close(self):
        """Release the drive or port."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
