"""Cards as small ints and sets of cards as int bitmasks.

card = suit * 8 + rank, suits C S H D = 0..3, ranks A T K Q J 9 8 7 = 0..7: the lower
bits of a suit hold its richer cards. Which card beats which is the rule set's
(Rules.higher): A 10 K Q J 9 is bit order, North American's A K Q J 10 9 is not.
Every card of the 24- and 20-card packs fits below bit 30, so masks stay
small ints on the board. The 8 and 7 of diamonds of the 32-card pack sit at bits 30 and
31: a mask holding them is a big int there, and every operation on it allocates. The
helpers below take those two bits apart first (LOW, TOP), so they run on small ints.
"""
from shared_rules.errors import shown

SUITS = "CSHD"
RANKS = "ATKQJ987"
SUIT_WORDS = ("clubs", "spades", "hearts", "diamonds")
RANK_WORDS = ("A", "10", "K", "Q", "J", "9", "8", "7")
POINTS = (11, 10, 4, 3, 2, 0, 0, 0)
KING, QUEEN = 2, 3                 # the marriage ranks (a K and its Q differ in bit 0)

# Cards A..9 of each suit: 6 bits, so even the diamonds mask stays a small int. The fifth
# entry is SUIT_MASK[-1]: "no trump yet" (suit -1, Idiots' Sixty-six) selects no cards.
SUIT_MASK = (0x3F, 0x3F00, 0x3F0000, 0x3F000000, 0)

LOW = 0x3FFFFFFF                   # the bits of a small int on the board: cards 0..29
TOP = 30                           # cards 30 and 31 are mask >> TOP

# 2**k % 37 is different for every k < 36: a single bit's card is BIT_INDEX[bit % 37].
BIT_INDEX = bytearray(37)
for _c in range(32):
    BIT_INDEX[(1 << _c) % 37] = _c


def low_card(mask):
    """The card of the lowest set bit (the richest card of the lowest suit)."""
    return BIT_INDEX[(mask & -mask) % 37]


def count(mask):
    """Number of cards in a mask (CircuitPython has no int.bit_count)."""
    n = 0
    top = mask >> TOP
    if top:
        n = (top & 1) + (top >> 1)
        mask &= LOW
    while mask:
        mask &= mask - 1
        n += 1
    return n


def nth(mask, i):
    """The i-th card (0-based, in bit order) of a mask."""
    top = mask >> TOP
    if top:
        mask &= LOW
    while i and mask:
        mask &= mask - 1
        i -= 1
    if mask:
        return BIT_INDEX[(mask & -mask) % 37]
    if top & 1:             # past the small cards: 30 and 31 in turn
        return TOP + i
    return TOP + 1


def mask_points(mask):
    """Card points of all cards in a mask."""
    total = 0
    while mask:
        b = mask & -mask
        total += POINTS[BIT_INDEX[b % 37] & 7]
        mask ^= b
    return total


def listed(mask):
    """The cards of a mask as a list, in bit order (suit by suit, A 10 K Q J 9 8 7)."""
    out = []
    while mask:
        b = mask & -mask
        out.append(BIT_INDEX[b % 37])
        mask ^= b
    return out


def ranked(mask, higher):
    """The cards of a mask suit by suit, each suit high to low by a ranking's `higher`
    (Rules.higher): how a hand is shown."""
    out = listed(mask)
    out.sort(key=lambda c: (c & 24) << 5 | higher[c & 7])
    return out


def mask_of(card_list, start=0, stop=None):
    """Mask of the cards of a list (of card_list[start:stop], without slicing it)."""
    m = 0
    top = 0
    for i in range(start, len(card_list) if stop is None else stop):
        c = card_list[i]
        if c < TOP:
            m |= 1 << c
        else:
            top |= 1 << (c - TOP)
    return m | top << TOP if top else m


def name(c):
    """Two-character record name, e.g. 'TH' for the ten of hearts."""
    return RANKS[c & 7] + SUITS[c >> 3]


def words(c):
    """How a player says the card: 'the 10 of hearts'."""
    return "the " + RANK_WORDS[c & 7] + " of " + SUIT_WORDS[c >> 3]


def parse(text):
    """Card from its record name ('th', 'TH' and '10H' all give the ten of hearts)."""
    if type(text) is not str:
        raise ValueError("not a card: " + shown(text))
    t = text.strip().upper()
    if t[:2] == "10":
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError("not a card: " + shown(text))
    return SUITS.index(t[1]) * 8 + RANKS.index(t[0])


def pack(ranks):
    """Mask of the pack made of the given ranks in every suit (e.g. 6 for A..9)."""
    m = 0
    for s in range(4):
        m |= ((1 << ranks) - 1) << (s * 8)
    return m
