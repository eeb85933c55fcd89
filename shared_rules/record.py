"""Game records (docs/RECORD_FORMAT.md): write a deal as a record, rebuild one.

Plain dicts and lists only, so the board can use it without the json module. Replaying a
record into a report is in report.py, which the board does not need.
"""
from shared_rules.cards import name, parse, listed, pack, mask_of
from shared_rules.actions import EXCHANGE, CLOSE, DECLARE, DRAW, BID, PASS
from shared_rules.deal import Deal
from shared_rules.errors import shown
from shared_rules.rules import Rules, TEAM_GAMES

_VERBS = {EXCHANGE: "exchange", CLOSE: "close", DECLARE: "declare", DRAW: "draw", PASS: "pass"}
_CARD_VERBS = ("play", "marry", "declare-marriage")


def action_text(action):
    """Record text of an action without the seat."""
    if action > PASS:
        return "bid " + str(action - BID)
    if action < 96:
        return _CARD_VERBS[action >> 5] + " " + name(action & 31)
    return _VERBS[action]


def parse_action(words):
    """Action int from record text ("play TS", "close"); ValueError when malformed."""
    parts = words.split()
    if len(parts) == 2 and parts[0] == "bid" and parts[1] in ("1", "2", "3", "4", "5"):
        return BID + int(parts[1])
    if len(parts) == 2 and parts[0] in _CARD_VERBS:
        return _CARD_VERBS.index(parts[0]) * 32 + parse(parts[1])
    if len(parts) == 1:
        for a in _VERBS:
            if _VERBS[a] == parts[0]:
                return a
    raise ValueError("not an action: " + shown(words))


def to_record(deal):
    """The record of a deal so far.

    A draw is written only where it matters: before a close (closing after drawing) and
    as the last action (otherwise the replay would stop before the draw).
    """
    log = deal.log
    n = len(log)
    actions = []
    for i in range(n):
        a = log[i] & 255
        if a == DRAW and i + 1 < n and log[i + 1] & 255 != CLOSE:
            continue
        actions.append(str(log[i] >> 8) + " " + action_text(a))
    trump = deal.first_trump
    rec = {"rules": deal.rules.name, "options": dict(deal.rules.overrides),
           "hands": [[name(c) for c in listed(h)] for h in deal.dealt_hands],
           "trump_card": name(trump) if trump >= 0 else None, "talon": [], "actions": actions}
    if deal.rules.game in TEAM_GAMES:
        if deal.widow:
            rec["widow"] = [name(c) for c in listed(deal.widow)]
    else:
        rec["talon"] = [name(c) for c in (deal.stock[:-1] if trump >= 0 else deal.stock)]
    return rec


def _hand_sizes(rules):
    """Cards each seat is dealt, as a record lists them (the four-handed dealer's
    turn-up is the record's trump_card, not part of hands)."""
    g = rules.game
    if g == "four":
        return (8, 8, 8, 7)
    if g == "american":
        n = rules.players
        return (24 // n if n != 3 else 7,) * n
    return (rules.hand_size, rules.hand_size)


def _listed(rec, key, what, needed=True):
    """The list under `key` of a record; ValueError if it is no list. An optional part
    (not `needed`) may be missing or null: empty."""
    value = rec[key] if needed else rec.get(key)
    if value is None and not needed:
        return []
    if type(value) is not list:
        raise ValueError(key + " must be a list of " + what + ", not " + shown(value))
    return value


def deal_from_record(rec):
    """The deal as dealt in a record; ValueError saying what is wrong with a bad one."""
    options = rec.get("options")
    if options is not None and type(options) is not dict:
        raise ValueError("options must be an object, not " + shown(options))
    rules = Rules(rec["rules"], **(options or {}))
    _listed(rec, "actions", "actions")
    sizes = _hand_sizes(rules)
    hands = _listed(rec, "hands", "hands")
    if len(hands) != len(sizes):
        raise ValueError("this game needs " + str(len(sizes)) + " hands")
    masks = []
    cards = []
    for s in range(len(sizes)):
        if type(hands[s]) is not list or len(hands[s]) != sizes[s]:
            raise ValueError("seat " + str(s) + " must be dealt " + str(sizes[s]) + " cards")
        hand = [parse(t) for t in hands[s]]
        masks.append(mask_of(hand))
        cards += hand
    has_turn_up = rules.game in ("two", "three", "four")
    if (rec.get("trump_card") is not None) != has_turn_up:
        raise ValueError("this game has " + ("a" if has_turn_up else "no") + " trump card")
    trump = parse(rec["trump_card"]) if has_turn_up else -1
    talon = [parse(t) for t in _listed(rec, "talon", "cards", False)]
    widow = [parse(t) for t in _listed(rec, "widow", "cards", False)]
    seen = 0
    for c in cards + talon + widow + ([trump] if has_turn_up else []):
        if seen >> c & 1:
            raise ValueError("card " + name(c) + " appears twice")
        seen |= 1 << c
    if seen != pack(rules.ranks):
        raise ValueError("the cards are not exactly one " + str(rules.pack) + "-card pack")
    if rules.game in TEAM_GAMES:
        if talon:
            raise ValueError("this game has no talon: every card is dealt")
        from shared_rules.team import TeamDeal   # loaded only for the team games
        return TeamDeal(rules, masks, trump, widow)
    if widow:
        raise ValueError("only cut-throat North American Sixty-Six has a widow")
    return Deal(rules, masks, trump, talon)


_SEATS = ("0", "1", "2", "3")


def parse_entry(entry, seats=2):
    """(seat, action) from an action string like "0 marry KC"; ValueError if malformed.
    The seat is one ASCII digit: "١" or "²" are not seats, though Python calls them digits."""
    if type(entry) is not str:
        raise ValueError("an action is text like \"0 play TS\", not " + shown(entry))
    parts = entry.split(None, 1)
    if len(parts) != 2 or parts[0] not in _SEATS[:seats]:
        numbers = ", ".join(_SEATS[:seats - 1]) + " or " + _SEATS[seats - 1]
        raise ValueError("an action starts with the seat " + numbers + ": " + shown(entry))
    return _SEATS.index(parts[0]), parse_action(parts[1])
