"""Finding boards: mounted CIRCUITPY / RPI-RP2 drives and USB serial ports.

A CIRCUITPY drive is recognised by the boot_out.txt CircuitPython writes at every start,
the RP2040 bootloader drive by its INFO_UF2.TXT; names can differ between systems.
"""

import os
import string
import sys
from pathlib import Path

import serial.tools.list_ports

CIRCUITPY_MARKER = "boot_out.txt"
BOOTLOADER_MARKER = "INFO_UF2.TXT"
REMOVABLE_FS = {"vfat", "msdos", "fat", "exfat", "fuseblk"}


def mount_points():
    """Folders where a USB drive may be mounted on this system."""
    if sys.platform.startswith("linux"):
        found = []
        try:
            with open("/proc/mounts") as mounts:
                for line in mounts:
                    fields = line.split()
                    if len(fields) >= 3 and fields[2] in REMOVABLE_FS:
                        found.append(fields[1].replace("\\040", " "))
        except OSError:
            pass
        return found
    if sys.platform == "darwin":
        return [str(path) for path in Path("/Volumes").iterdir()] if Path("/Volumes").is_dir() else []
    if os.name == "nt":
        return ["{}:\\".format(letter) for letter in string.ascii_uppercase if os.path.exists(letter + ":\\")]
    return []


def _drives_with(marker):
    return sorted(point for point in mount_points() if os.path.isfile(os.path.join(point, marker)))


def circuitpy_drives():
    return _drives_with(CIRCUITPY_MARKER)


def bootloader_drives():
    return _drives_with(BOOTLOADER_MARKER)


def _is_board_port(port):
    # USB ports only (skips built-in UARTs such as /dev/ttyS0); a CircuitPython board with
    # usb_cdc data enabled shows a second "CDC2" port that has no REPL.
    return port.vid is not None and "CDC2" not in (port.interface or "")


def board_ports():
    return sorted((p for p in serial.tools.list_ports.comports() if _is_board_port(p)), key=lambda p: p.device)


def describe_port(port):
    details = " ".join(part for part in (port.manufacturer, port.product) if part)
    return "{}  {}".format(port.device, details).rstrip()
