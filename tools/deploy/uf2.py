"""Installing CircuitPython: copying its .uf2 onto a board in bootloader mode (RPI-RP2).

The file is checked first (UF2 framing, RP2040 family, CircuitPython inside) because
the bootloader silently ignores files it cannot use and the maker would only see the
drive vanish and reappear unchanged.
"""

import shutil
import struct
from pathlib import Path

from .errors import UsageError

BLOCK = 512
MAGIC_START = (0x0A324655, 0x9E5D5157)
MAGIC_END = 0x0AB16F30
FLAG_FAMILY = 0x2000
RP2040_FAMILY = 0xE48BFF56


def check(path):
    """Raise UsageError unless ``path`` is a CircuitPython .uf2 for the RP2040."""
    path = Path(path)
    if path.is_dir():
        raise UsageError("{} is a folder, not a .uf2 file.\nNext: pass the CircuitPython .uf2 file itself with --uf2 "
                         "(for example {}/adafruit-circuitpython-raspberry_pi_pico-en_US-10.0.3.uf2).".format(
                             path, path))
    if not path.is_file():
        raise UsageError("{} does not exist.\nNext: download the CircuitPython .uf2 for your board "
                         "from https://circuitpython.org and pass its path with --uf2.".format(path))
    data = path.read_bytes()
    if not data or len(data) % BLOCK:
        raise UsageError("{} is not a UF2 file (its size is not a multiple of 512 bytes).\n"
                         "Next: download the .uf2 again; a browser may have saved an HTML page.".format(path))
    payload = bytearray()
    for offset in range(0, len(data), BLOCK):
        block = data[offset:offset + BLOCK]
        start0, start1, flags, _address, size, _number, _count, family = struct.unpack_from("<8I", block)
        (end,) = struct.unpack_from("<I", block, BLOCK - 4)
        if (start0, start1) != MAGIC_START or end != MAGIC_END or size > 476:
            raise UsageError("{} is not a valid UF2 file (bad block at byte {}).\n"
                             "Next: download the .uf2 again.".format(path, offset))
        if flags & FLAG_FAMILY and family != RP2040_FAMILY:
            raise UsageError("{} is built for another chip (UF2 family 0x{:08x}, the RP2040 is 0x{:08x}).\n"
                             "Next: download the .uf2 made for your board (Raspberry Pi Pico: "
                             "https://circuitpython.org/board/raspberry_pi_pico/).".format(path, family, RP2040_FAMILY))
        payload += block[32:32 + size]
    if b"CircuitPython" not in payload:
        raise UsageError("{} does not contain CircuitPython (MicroPython or another firmware?).\n"
                         "Next: download the CircuitPython .uf2 from https://circuitpython.org.".format(path))


def install(path, bootloader_drive):
    """Copy the .uf2 to the RPI-RP2 drive; the board flashes it and restarts as CIRCUITPY."""
    destination = Path(bootloader_drive) / Path(path).name
    try:
        shutil.copyfile(path, destination)
    except OSError:
        # The bootloader may reboot (and the drive vanish) as the last block lands;
        # whether it worked shows when CIRCUITPY appears.
        pass
