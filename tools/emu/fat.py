"""The CIRCUITPY drive as bytes: a FAT12 volume made from a folder, and read back into one.

The emulator puts the game on the board the way a person does: CircuitPython formats
its drive on the first boot, tools.deploy copies the game onto the drive, the board
boots again. Here the drive is the flash region CircuitPython keeps it in (1 MB of a
2 MB flash, 512-byte sectors, no partition table), so these two functions stand in for
the computer's USB mass-storage driver: `read` takes the files off a volume (the
boot_out.txt that tools.deploy reads), `make` writes a folder as a new volume with
long file names, as a computer's FAT driver would.
"""
import struct
from pathlib import Path

SECTOR = 512
ROOT_ENTRIES = 512
STAMP = (0x5821, 0x6000)      # 2024-01-01 12:00: every file, so a volume is reproducible


class FatError(ValueError):
    """The bytes are not a FAT12/16 volume this module can read, or the files do not fit."""


def make(folder, size=1024 * 1024, label="CIRCUITPY"):
    """The files under `folder` as a FAT12 volume of `size` bytes."""
    sectors = size // SECTOR
    fat_sectors = (sectors * 3 // 2 + SECTOR - 1) // SECTOR + 1
    root_sectors = ROOT_ENTRIES * 32 // SECTOR
    first_data = 1 + fat_sectors + root_sectors
    clusters = sectors - first_data
    if clusters >= 4085:
        raise FatError("a FAT12 volume holds at most 4084 clusters; %d bytes need more" % size)
    image = bytearray(size)
    boot = struct.pack("<3s8sHBHBHHBHHHII", b"\xeb\x3c\x90", b"MSDOS5.0", SECTOR, 1, 1, 1,
                       ROOT_ENTRIES, sectors, 0xF8, fat_sectors, 63, 255, 0, 0)
    boot += struct.pack("<BBBI11s8s", 0x80, 0, 0x29, 0x1234ABCD, label.encode().ljust(11)[:11], b"FAT12   ")
    image[:len(boot)] = boot
    image[510:512] = b"\x55\xaa"
    fat = [0xFF8, 0xFFF] + [0] * clusters
    free = [2]

    def allocate(data):
        count = max(1, (len(data) + SECTOR - 1) // SECTOR)
        start = free[0]
        if start + count > clusters + 2:
            raise FatError("the files do not fit in %d bytes" % size)
        free[0] += count
        for n in range(count):
            fat[start + n] = start + n + 1 if n < count - 1 else 0xFFF
            at = (first_data + start - 2 + n) * SECTOR
            chunk = data[n * SECTOR:(n + 1) * SECTOR]
            image[at:at + len(chunk)] = chunk
        return start

    def directory(path, parent, own):
        """The entries of folder `path`; its subfolders are written on the way."""
        entries = []
        if own is not None:
            entries.append(short_entry(b".          ", 0x10, own, 0))
            entries.append(short_entry(b"..         ", 0x10, parent or 0, 0))
        taken = set()
        for child in sorted(path.iterdir(), key=lambda p: p.name):
            short = short_name(child.name, taken)
            if child.is_dir():
                count = 2 + sum(len(long_entries(c.name, b" " * 11)) + 1 for c in child.iterdir())
                cluster = allocate(bytes(count * 32))       # its clusters first: "." names them
                body = directory(child, own, cluster)
                at = (first_data + cluster - 2) * SECTOR
                image[at:at + len(body)] = body
                attr, length = 0x10, 0
            else:
                data = child.read_bytes()
                cluster, attr, length = (allocate(data) if data else 0), 0x20, len(data)
            entries.extend(long_entries(child.name, short))
            entries.append(short_entry(short, attr, cluster, length))
        return b"".join(entries)

    root = directory(Path(folder), None, None)
    if len(root) > ROOT_ENTRIES * 32:
        raise FatError("the drive's top folder has too many entries")
    at = (1 + fat_sectors) * SECTOR
    image[at:at + len(root)] = root
    packed = bytearray(fat_sectors * SECTOR)
    for n, value in enumerate(fat):
        o = n * 3 // 2
        if n & 1:
            packed[o] = (packed[o] & 0x0F) | ((value << 4) & 0xF0)
            packed[o + 1] = value >> 4
        else:
            packed[o] = value & 0xFF
            packed[o + 1] = (packed[o + 1] & 0xF0) | (value >> 8)
    image[SECTOR:SECTOR + len(packed)] = packed
    return bytes(image)


def short_entry(name11, attr, cluster, size):
    return struct.pack("<11sBBBHHHHHHHI", name11, attr, 0, 0, STAMP[1], STAMP[0], STAMP[0], 0,
                       STAMP[1], STAMP[0], cluster, size)


def short_name(name, taken):
    """An 8.3 name for `name`, unique in its folder (NAME~N.EXT where it needs one, as a
    computer makes); the long name goes beside it."""
    stem, dot, ext = name.rpartition(".")
    if not dot:
        stem, ext = name, ""
    base = "".join(c for c in stem.upper() if c.isalnum() or c in "_-")
    ext = "".join(c for c in ext.upper() if c.isalnum() or c in "_-")[:3]
    candidate = (base.ljust(8) + ext.ljust(3)).encode()
    n = 1
    while len(base) > 8 or candidate in taken:
        tail = "~%d" % n
        candidate = ((base[:8 - len(tail)] + tail).ljust(8) + ext.ljust(3)).encode()
        if candidate not in taken:
            break
        n += 1
    taken.add(candidate)
    return candidate


def long_entries(name, short):
    """The VFAT entries that carry `name`, last part first, as they stand before the short entry."""
    checksum = 0
    for b in short:
        checksum = (((checksum & 1) << 7) + (checksum >> 1) + b) & 0xFF
    units = list(name.encode("utf-16-le"))
    chars = [units[i] | units[i + 1] << 8 for i in range(0, len(units), 2)]
    parts = [chars[i:i + 13] for i in range(0, len(chars), 13)]
    out = []
    for n, part in enumerate(parts, 1):
        part = part + ([0x0000] + [0xFFFF] * 12 if len(part) < 13 else [])
        part = part[:13]
        order = n | (0x40 if n == len(parts) else 0)
        u = struct.pack("<13H", *part)
        out.append(struct.pack("<B10sBBB12sH4s", order, u[:10], 0x0F, 0, checksum, u[10:22], 0, u[22:26]))
    return out[::-1]


def find(flash, step=4096):
    """(offset, size) of the FAT volume that runs to the end of a flash image: CircuitPython
    keeps CIRCUITPY after its firmware and nvm, where depends on the board's build (1 MB on
    a Pico, 1.5 MB + 4 KB on a Pico W build)."""
    for offset in range(step, len(flash), step):
        if flash[offset + 510:offset + 512] == b"\x55\xaa" and flash[offset + 11:offset + 13] == b"\x00\x02":
            total = struct.unpack_from("<H", flash, offset + 19)[0] or struct.unpack_from("<I", flash, offset + 32)[0]
            if total * SECTOR == len(flash) - offset:
                return offset, total * SECTOR
    raise FatError("no FAT volume to the end of the flash (the drive was never formatted)")


def read(image):
    """{path: bytes} of every file on a FAT12/16 volume (long names where it has them)."""
    if len(image) < SECTOR or image[510:512] != b"\x55\xaa":
        raise FatError("no FAT boot sector (the drive was never formatted)")
    (per_sector, per_cluster, reserved, fats, root_entries, small_total, _media, fat_sectors
     ) = struct.unpack_from("<HBHBHHBH", image, 11)
    if per_sector != SECTOR or per_cluster == 0 or fats == 0:
        raise FatError("not a FAT volume with 512-byte sectors")
    total = small_total or struct.unpack_from("<I", image, 32)[0]
    root_at = (reserved + fats * fat_sectors) * SECTOR
    data_at = root_at + root_entries * 32
    clusters = (total * SECTOR - data_at) // (per_cluster * SECTOR)
    fat12 = clusters < 4085
    fat_at = reserved * SECTOR

    def next_cluster(n):
        if fat12:
            v = struct.unpack_from("<H", image, fat_at + n * 3 // 2)[0]
            return v >> 4 if n & 1 else v & 0xFFF
        return struct.unpack_from("<H", image, fat_at + n * 2)[0]

    def chain(n):
        out, end = [], 0xFF8 if fat12 else 0xFFF8
        while 2 <= n < end and len(out) <= clusters:
            out.append(n)
            n = next_cluster(n)
        return out

    def body(n):
        size = per_cluster * SECTOR
        return b"".join(image[data_at + (c - 2) * size:data_at + (c - 1) * size] for c in chain(n))

    files = {}

    def walk(raw, prefix):
        long = []
        for o in range(0, len(raw) - 31, 32):
            e = raw[o:o + 32]
            if e[0] == 0:
                break
            if e[0] == 0xE5:
                long = []
                continue
            if e[11] == 0x0F:
                long.insert(0, e[1:11] + e[14:26] + e[28:32])
                continue
            if e[11] & 0x08:
                long = []
                continue
            if long:
                name = b"".join(long).decode("utf-16-le").split("\x00")[0]
            else:
                stem, ext = e[:8].decode("latin-1").rstrip(), e[8:11].decode("latin-1").rstrip()
                # Windows NT's flags for an all-lowercase part, which FatFs writes too
                stem, ext = (stem.lower() if e[12] & 0x08 else stem), (ext.lower() if e[12] & 0x10 else ext)
                name = stem + ("." + ext if ext else "")
            long = []
            cluster, size = struct.unpack_from("<H", e, 26)[0], struct.unpack_from("<I", e, 28)[0]
            if name in (".", ".."):
                continue
            if e[11] & 0x10:
                walk(body(cluster), prefix + name + "/")
            else:
                files[prefix + name] = body(cluster)[:size] if cluster else b""

    walk(image[root_at:data_at], "")
    return files
