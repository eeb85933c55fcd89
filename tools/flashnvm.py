"""A stand-in for `microcontroller.nvm` on RP2040 CircuitPython, flash physics included.

CircuitPython's RP2040 port (ports/raspberrypi/common-hal/nvm/ByteArray.c) keeps the nvm
in ONE 4 KB flash sector and handles an assignment in one of two ways:

  * every target byte is 0xFF: each 256-byte page the target touches is programmed
    (the page's current bytes merged with the new ones; programming only clears bits),
    no erase;
  * otherwise: the whole sector is read, the new bytes merged in, the sector ERASED and
    all of it programmed again, page by page. Bytes outside the target keep their values.

The flash (W25Q16JV on the Pico) guarantees 100,000 erase cycles per sector, so
`erases` is the wear figure; `page_programs` counts page program operations.

Power cuts: `arm_cut(n)` makes the device lose power once `n` more of the bytes being
programmed have landed (counted over the next assignments, in address order). The page
being programmed then holds a prefix of its new bytes, the rest of the target stays as
it was (0xFF after an erase), and `PowerCut` is raised. In the erase path the erase has
already happened, so `n = 0` there leaves the sector blank. `PowerCut` is a
BaseException, so firmware code that catches Exception cannot swallow it.

The simulator, the firmware tests and the deploy tool's fake boards all use this class.
`FlashNVM.file(path)` keeps the bytes in a file (the simulator's --save), rewritten after
every assignment atomically (temporary file, flush, fsync, rename), so killing the
simulator at any moment leaves either the old image or the new one, never a torn file.
"""
import os
import sys

SECTOR = 4096       # FLASH_SECTOR_SIZE: the nvm is exactly one sector on RP2040
PAGE = 256          # FLASH_PAGE_SIZE: the unit of programming


class PowerCut(BaseException):
    """The device lost power in the middle of a flash write."""


class FlashNVM:
    """`len()`, indexing, slicing and (slice) assignment, as microcontroller.nvm offers."""

    def __init__(self, data=None, size=SECTOR):
        if data is not None and len(data) != size:
            raise ValueError("nvm image must be %d bytes, not %d" % (size, len(data)))
        self.data = bytearray(b"\xff" * size) if data is None else bytearray(data)
        self.erases = 0
        self.page_programs = 0
        self.cut_in = None      # bytes still to land before the armed power cut
        self.path = None        # the file the bytes are kept in (file())
        self.failed = None      # the last error writing it, reported once

    @classmethod
    def file(cls, path, size=SECTOR):
        """The nvm kept in a file: read if it exists (an erased image if not) and written
        at once, so a path that cannot hold it fails here with OSError or ValueError
        (a folder, a read-only place, a file that is not an nvm image), not mid-game."""
        path = os.fspath(path)
        if os.path.isdir(path):
            raise IsADirectoryError("%s is a folder, not a file" % path)
        data = None
        if os.path.exists(path):
            with open(path, "rb") as f:
                data = f.read()
            if len(data) != size:
                raise ValueError("%s holds %d bytes, not an nvm image of %d bytes" % (path, len(data), size))
        nvm = cls(data, size)
        nvm.path = path
        nvm.save()
        return nvm

    def save(self):
        """Write the file atomically: a temporary file beside it, flushed, synced, renamed."""
        tmp = self.path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(self.data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return bytearray(self.data[index])
        return self.data[index]

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self.data))
            if step != 1:
                raise ValueError("nvm slices take no step")
            new = bytes(value)
            if len(new) != max(0, stop - start):
                raise ValueError("slice and value have different lengths")
        else:
            if not -len(self.data) <= index < len(self.data):
                raise IndexError("nvm index out of range")
            start = index % len(self.data)
            new = bytes((value,))
        if not new:
            return
        if all(b == 0xFF for b in self.data[start:start + len(new)]):
            self._program(start, new)
        else:
            merged = bytearray(self.data)
            merged[start:start + len(new)] = new
            self.erases += 1
            self.data[:] = b"\xff" * len(self.data)
            self._program(0, bytes(merged))
        self.written()

    def _program(self, start, new):
        """Program `new` at `start` page by page; honours an armed power cut."""
        at = 0
        while at < len(new):
            addr = start + at
            n = min(len(new) - at, PAGE - addr % PAGE)
            chunk = new[at:at + n]
            self.page_programs += 1
            if self.cut_in is not None and self.cut_in <= n:
                landed = self.cut_in
                self._land(addr, chunk[:landed])
                self.cut_in = None
                self.written()
                raise PowerCut("power cut after %d of %d bytes at %d" % (landed, n, addr))
            self._land(addr, chunk)
            if self.cut_in is not None:
                self.cut_in -= n
            at += n

    def _land(self, addr, chunk):
        for i, b in enumerate(chunk):
            self.data[addr + i] &= b       # programming only clears bits

    def arm_cut(self, after_bytes):
        """Lose power once `after_bytes` more programmed bytes have landed."""
        self.cut_in = after_bytes

    def written(self):
        """Called after every assignment (and at a power cut): keeps the file up to date.
        A file that cannot be written any more is reported once; the play goes on."""
        if self.path is None:
            return
        try:
            self.save()
            self.failed = None
        except OSError as e:
            if self.failed is None:
                print("cannot write the save file %s (%s): playing on without saving"
                      % (self.path, e.strerror or e), file=sys.stderr)
            self.failed = e
