"""Checksummed, versioned records in a small byte store (microcontroller.nvm).

Two records live side by side so that a damaged match save never costs the
player their settings and statistics:

    offset 0    settings + statistics   (SETTINGS_SLOT bytes)
    offset 64   the match in progress    (the rest)

A record is: b"66", kind (1 byte), version (1 byte), payload length (2 bytes,
little endian), payload, CRC-16/CCITT of everything before it (2 bytes). Each
record is written with ONE slice assignment: on the RP2040 every nvm write
erases and reprograms the 4 KB flash sector, so fewer writes = less wear.

`nvm` is anything with len(), slicing and slice assignment: microcontroller.nvm
on the board, a file-backed stand-in in the simulator, a bytearray in tests.
"""

MAGIC = b"66"
HEADER = 6
SETTINGS_AT = 0
SETTINGS_SLOT = 64
MATCH_AT = 64

# load() outcomes besides a payload
EMPTY = "empty"
CORRUPT = "corrupt"
OLD = "old"


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE, bit by bit: no table to keep in RAM."""
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def frame(kind, version, payload):
    n = len(payload)
    head = MAGIC + bytes((kind, version, n & 255, n >> 8))
    body = head + payload
    c = crc16(body)
    return body + bytes((c & 255, c >> 8))


def unframe(raw, kind, version):
    """Payload bytes of a record, or EMPTY / CORRUPT / OLD."""
    if len(raw) < HEADER or raw[0:2] != MAGIC or raw[2] != kind:
        return EMPTY
    n = raw[4] | raw[5] << 8
    end = HEADER + n
    if end + 2 > len(raw):
        return CORRUPT
    if crc16(raw[0:end]) != raw[end] | raw[end + 1] << 8:
        return CORRUPT
    if raw[3] != version:
        return OLD
    return bytes(raw[HEADER:end])


class Store:
    """Reads and writes the two records; tolerates a missing nvm (None)."""

    def __init__(self, nvm):
        self.nvm = nvm
        self.writes = 0   # flash sector writes so far (wear accounting for tests)

    def size(self):
        return 0 if self.nvm is None else len(self.nvm)

    def load(self, at, limit, kind, version):
        if self.nvm is None:
            return EMPTY
        end = min(at + limit, len(self.nvm))
        if end <= at:
            return EMPTY
        return unframe(self.nvm[at:end], kind, version)

    def save(self, at, limit, kind, version, payload):
        """Write a record unless it is already there; False if it does not fit."""
        if self.nvm is None:
            return False
        data = frame(kind, version, payload)
        if len(data) > limit or at + len(data) > len(self.nvm):
            return False
        if self.nvm[at:at + len(data)] != data:
            self.nvm[at:at + len(data)] = data
            self.writes += 1
        return True

    def erase(self, at, kind):
        """Mark a record gone by overwriting its kind byte (one small write)."""
        if self.nvm is not None and self.size() > at + 2 and self.nvm[at + 2] == kind:
            self.nvm[at + 2:at + 3] = b"\x00"
            self.writes += 1
