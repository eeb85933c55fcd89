"""The save log's bytes (sixtysix.save.store keeps the log): the kinds of record, their
framing and checks, the varints inside them, what reading a log may find instead of a
match, and the CRCs (by table lookup, not bit by bit: the board is slow at loops; the
link cable's frames use the same CRC-16). Below the store, the log's reader, the
archive and the match's header, which all read and write these bytes (docs/SAVES.md).

    b"6L", VERSION, image length (2 bytes LE), archive length (2 bytes LE), the image's
    records, the archive (sixtysix.save.archive), the records logged since, 0xFF to the end
    0x00-0x69  action h by the seat to act                 [h, check]
    0x70-0x7F  action by a seat, flags h & 15              [h, seat, action, check]
    0x80       a deal starts: savegame's match header      [h, n, payload, check16]
    0x81       settings and statistics                     [h, n, payload, check16]
    0x82       deep sleep began on screen s                [h, s, check]
    0x83       a linked match: link.match's header          [h, n, payload, check16]
               (n = 0: the linked match was left)
    0x84       a close asked for at the linked log index   [h, lo, hi, check]
    0x85       in the archive only: a finished deal        [h, n, payload, check16]
    0x86       in the archive only: a finished linked      [h, n, payload, check16]
               match's part
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
    """CRC-16/CCITT-FALSE of data; pass the CRC so far to continue it (sixtysix.link.cable)."""
    t = _CRC16
    for b in data:
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b >> 4)]
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b & 15)]
    return crc


MAGIC = b"6L"
VERSION = 4         # 1 and 2 rewrote fixed records in place (sixtysix.save.oldsave reads them)
HEAD = 7
LOGGED = 3          # the version before the archive: no archive length (read as none)

LAST_ACTION = 0x69
FLAGGED = 0x70
DEAL = 0x80
SETTINGS = 0x81
SLEPT = 0x82
LINKED = 0x83       # a linked match's header: its actions follow, for the whole match
ASKED = 0x84
ARCHIVED = 0x85
LINKED_PART = 0x86

# flags of an action record
COUNTED = 1         # the statistics count this deal's end (cleared in a rewritten image)
WON = 2             # the player's side won the deal
OVER = 4            # the match is over
MATCH_WON = 8

# What loading may find instead of data, and what the title says about the store
EMPTY = "empty"
CORRUPT = "corrupt"     # a complete record whose contents make no sense
DAMAGED = "damaged"     # a bad record in the middle of the log
OLD = "old"
NEWER = "newer"
LOST = "lost"           # the power failed while the area was being rewritten
# What the title says about each
NOTICES = {DAMAGED: "Saved match damaged: ignored",
           CORRUPT: "Saved match damaged: ignored",
           OLD: "Save from an older version: ignored",
           NEWER: "Save from a newer version: ignored",
           LOST: "Power cut while saving: some play lost"}


# A record's last byte is never 0xFF (its check is taken modulo 255, or 0xFF00): a record
# whose last byte is still erased was cut short, whatever else landed.

def small(*body):
    """A record of a few bytes and its check."""
    b = bytes(body)
    return b + bytes((crc8(b) % 255,))


def framed(kind, payload):
    """A DEAL or SETTINGS record: kind, length, payload, check (2 bytes LE)."""
    if len(payload) > 254:
        raise ValueError("record payload too long")
    b = bytes((kind, len(payload))) + payload
    c = crc16(b) % 0xFF00
    return b + bytes((c & 255, c >> 8))


def size(raw, i):
    """Bytes of the record starting at raw[i]: 0 for an unknown kind; 2 for a framed
    record whose length byte is still erased (a torn write)."""
    h = raw[i]
    if h <= LAST_ACTION:
        return 2
    if FLAGGED <= h < DEAL:
        return 4
    if h == SLEPT:
        return 3
    if h == ASKED:
        return 4
    if h == DEAL or h == SETTINGS or h == LINKED:
        n = raw[i + 1] if i + 1 < len(raw) else 0xFF
        return 2 if n == 0xFF else n + 4
    return 0


def complete(raw, i, n):
    """True if the n-byte record at raw[i] is whole and passes its check."""
    h = raw[i]
    if h == DEAL or h == SETTINGS or h == LINKED or h == ARCHIVED or h == LINKED_PART:
        if n < 4:
            return False
        c = crc16(raw[i:i + n - 2]) % 0xFF00
        return raw[i + n - 2] == c & 255 and raw[i + n - 1] == c >> 8
    return crc8(raw[i:i + n - 1]) % 255 == raw[i + n - 1]


def put_uint(out, n):
    """Append a non-negative int as a varint (7 bits a byte, low first): any size fits."""
    while n > 127:
        out.append(n & 127 | 128)
        n >>= 7
    out.append(n)


def get_uint(raw, i):
    """(the varint at raw[i], the index after it); IndexError if it runs off the end."""
    n = 0
    shift = 0
    while True:
        b = raw[i]
        i += 1
        n |= (b & 127) << shift
        if b < 128:
            return n, i
        shift += 7


def put_int(out, n):
    """A signed int as a zigzag varint (0, -1, 1, -2 ... -> 0, 1, 2, 3 ...)."""
    put_uint(out, n * 2 if n >= 0 else -n * 2 - 1)


def get_int(raw, i):
    z, i = get_uint(raw, i)
    return (z >> 1 if not z & 1 else -((z + 1) >> 1)), i
