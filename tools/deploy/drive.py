"""A board reached through its mounted CIRCUITPY drive (or any folder standing in for one)."""

import errno
import hashlib
import os
import shutil
from pathlib import Path

from .errors import ReadOnly
from .target import Target, parse_boot_out

PROBE = ".sixtysix_write_test"
READ_ONLY_ERRNOS = (errno.EROFS, errno.EACCES, errno.EPERM)


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
        return parse_boot_out(boot_out.read_text("utf-8", "replace"))

    def read_file(self, path):
        local = self._local(path)
        return local.read_bytes() if local.is_file() else None

    def sizes(self, paths):
        result = {}
        for path in paths:
            local = self._local(path)
            result[path] = local.stat().st_size if local.is_file() else None
        return result

    def digests(self, paths):
        return {path: hashlib.sha256(self._local(path).read_bytes()).hexdigest() for path in paths}

    def list_files(self, folder):
        base = self._local(folder)
        if not base.is_dir():
            return []
        found = []
        for path in sorted(base.rglob("*")):
            if path.is_file():
                found.append(("/" + path.relative_to(self.root).as_posix(), path.stat().st_size))
        return found

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

    def check_writable(self):
        probe = self.root / PROBE
        try:
            probe.write_bytes(b"ok")
            probe.unlink()
        except OSError as error:
            if error.errno in READ_ONLY_ERRNOS:
                raise self.read_only_error()
            raise

    def read_only_error(self):
        return ReadOnly.drive(self.root)

    def finish(self, restart):
        # CircuitPython reloads code.py by itself after writes through the drive.
        if hasattr(os, "sync"):
            os.sync()
