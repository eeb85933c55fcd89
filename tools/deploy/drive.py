"""A board reached through its mounted CIRCUITPY drive (or any folder standing in for one)."""

import errno
import hashlib
import os
import shutil
from pathlib import Path

from .errors import NotEnoughSpace, ReadOnly, WrongFirmware
from .target import Target, parse_boot_out

PROBE = ".sixtysix_write_test"


class DriveTarget(Target):
    def __init__(self, root):
        self.root = Path(root)
        self.description = "CIRCUITPY drive at {}".format(self.root)

    def _local(self, path):
        return self.root / path.lstrip("/")

    def board_info(self):
        boot_out = self.root / "boot_out.txt"
        if not boot_out.is_file():
            return None
        try:
            text = boot_out.read_text("utf-8", "replace")
        except OSError as error:
            raise WrongFirmware.unknown(self.description, "its boot_out.txt cannot be read: {}".format(
                error.strerror or error))
        return parse_boot_out(text)

    def read_file(self, path):
        local = self._local(path)
        return local.read_bytes() if local.is_file() else None

    def survey(self, expected, folders=()):
        states = {}
        for path, size in expected.items():
            local = self._local(path)
            found = local.stat().st_size if local.is_file() else None
            states[path] = (found, self.checksum(local.read_bytes()) if found == size else None)
        listed = []
        for folder in folders:
            base = self._local(folder)
            for path in sorted(base.rglob("*")) if base.is_dir() else ():
                if path.is_file():
                    listed.append(("/" + path.relative_to(self.root).as_posix(), path.stat().st_size))
        return states, listed

    def checksum(self, data):
        return hashlib.sha256(data).digest()

    def write_file(self, path, data):
        local = self._local(path)
        local.parent.mkdir(parents=True, exist_ok=True)
        with open(local, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())

    def remove_file(self, path):
        self._local(path).unlink()

    def space(self):
        free = shutil.disk_usage(self.root).free
        block = os.statvfs(self.root).f_frsize if hasattr(os, "statvfs") else 512
        return free, block or 512

    def prepare_to_write(self, report, dry_run=False):
        if dry_run:
            mounted_read_only = hasattr(os, "statvfs") and os.statvfs(self.root).f_flag & os.ST_RDONLY
            if mounted_read_only or not os.access(self.root, os.W_OK):
                raise self.read_only_error()
            return
        probe = self.root / PROBE
        try:
            probe.write_bytes(b"ok")
            probe.unlink()
        except OSError as error:
            if error.errno == errno.ENOSPC:
                free, block = self.space()
                raise NotEnoughSpace(block, free)
            raise ReadOnly.drive(self.root, "" if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM)
                                 else error.strerror or str(error))

    def read_only_error(self):
        return ReadOnly.drive(self.root)

    def finish(self, restart, report):
        # CircuitPython reloads code.py by itself after writes through the drive.
        if hasattr(os, "sync"):
            os.sync()
