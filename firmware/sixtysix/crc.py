"""CRCs by table lookup (not bit by bit: the board is slow at loops): CRC-8 for the save
log's small records, CRC-16/CCITT-FALSE for its larger ones and for the link cable.
Their own module so the link does not load the save store.
"""


def _crc8_table():
    """CRC-8 (polynomial 0x07) of every byte value: one lookup a byte instead of 8 steps."""
    out = bytearray(256)
    for i in range(256):
        c = i
        for _ in range(8):
            c = ((c << 1) ^ 0x07) & 0xFF if c & 0x80 else (c << 1) & 0xFF
        out[i] = c
    return bytes(out)


_CRC8 = _crc8_table()
CHECK1 = bytes(c % 255 for c in _CRC8)      # the save log's check of a one-byte record
# CRC-16/CCITT of each 4-bit value: two lookups a byte, and a table of 16 small ints.
_CRC16 = (0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50A5, 0x60C6, 0x70E7,
          0x8108, 0x9129, 0xA14A, 0xB16B, 0xC18C, 0xD1AD, 0xE1CE, 0xF1EF)


def crc8(data):
    """CRC-8 (polynomial 0x07) of data."""
    c = 0
    t = _CRC8
    for b in data:
        c = t[c ^ b]
    return c


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of data; pass the CRC so far to continue it (sixtysix.link)."""
    t = _CRC16
    for b in data:
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b >> 4)]
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b & 15)]
    return crc
