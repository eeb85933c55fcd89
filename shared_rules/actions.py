"""Actions as small ints, and their record text ("marry KC", "close").

play c = c (0..31); marry c = MARRY + c; declare-marriage c = DECLARE_MARRIAGE + c;
bid n = BID + n (1..5) and pass = PASS in the bidding games.
"""
from shared_rules import cards

MARRY = 32
DECLARE_MARRIAGE = 64
EXCHANGE = 96
CLOSE = 97
DECLARE = 98
DRAW = 99
BID = 100
PASS = 100

_VERBS = {EXCHANGE: "exchange", CLOSE: "close", DECLARE: "declare", DRAW: "draw", PASS: "pass"}
_CARD_VERBS = ("play", "marry", "declare-marriage")


def text(action):
    """Record text of an action without the seat."""
    if action > PASS:
        return "bid " + str(action - BID)
    if action < 96:
        return _CARD_VERBS[action >> 5] + " " + cards.name(action & 31)
    return _VERBS[action]


def parse(words):
    """Action int from record text ("play TS", "close"); ValueError when malformed."""
    parts = words.split()
    if len(parts) == 2 and parts[0] == "bid" and parts[1] in ("1", "2", "3", "4", "5"):
        return BID + int(parts[1])
    if len(parts) == 2 and parts[0] in _CARD_VERBS:
        return _CARD_VERBS.index(parts[0]) * 32 + cards.parse(parts[1])
    if len(parts) == 1:
        for a in _VERBS:
            if _VERBS[a] == parts[0]:
                return a
    raise ValueError("not an action: " + repr(words))
