"""Symbols of a firmware's .elf, for the emulator's optional probes.

The official downloads are .uf2 files alone, and the emulator needs nothing more. A
build from CircuitPython's source also leaves its .elf: where one lies beside the .uf2,
the emulator times every display refresh from the call of display.refresh() to its return
(common_hal_busdisplay_busdisplay_refresh), as a debugger would, instead of from the
panel's pixels alone, and reads the heap as each collection returns (gc_collect_end)
instead of by the word a collection writes last.
"""
import struct

PROBES = {"refresh": "common_hal_busdisplay_busdisplay_refresh", "collected": "gc_collect_end"}


def symbols(path, wanted):
    """{name: address} of the functions named in `wanted` found in an ELF32 file's symbol table."""
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 1:
        raise ValueError("%s is not a 32-bit ELF file" % path)
    shoff, = struct.unpack_from("<I", data, 32)
    shentsize, shnum = struct.unpack_from("<HH", data, 46)
    sections = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize) for i in range(shnum)]
    found = {}
    for _name, kind, _f, _a, offset, size, link, _i, _al, entsize in sections:
        if kind != 2:                   # SHT_SYMTAB
            continue
        strtab = sections[link][4]
        for at in range(offset, offset + size, entsize):
            name_at, value, _size, info = struct.unpack_from("<IIIB", data, at)
            end = data.index(b"\0", strtab + name_at)
            name = data[strtab + name_at:end].decode("latin-1")
            if name in wanted and info & 0xF == 2:      # STT_FUNC
                found[name] = value & ~1
    return found


def probes(image):
    """The probes' addresses for the .elf beside `image` (a .uf2), or {} without one."""
    elf = image.with_suffix(".elf")
    if not elf.is_file():
        return {}
    found = symbols(elf, set(PROBES.values()))
    return {probe: found[name] for probe, name in PROBES.items() if name in found}
