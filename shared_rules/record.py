"""Game records (RECORD_FORMAT.md): write a deal as a record, rebuild and replay one.

Plain dicts and lists only, so the board can use it without the json module.
"""
from shared_rules.cards import name, parse, listed, pack, SUITS
from shared_rules.actions import text, parse as parse_action, CLOSE, DRAW
from shared_rules.deal import Deal
from shared_rules.errors import IllegalMove
from shared_rules.rules import Rules


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
        actions.append(str(log[i] >> 8) + " " + text(a))
    return {"rules": deal.rules.name, "options": dict(deal.rules.overrides),
            "hands": [[name(c) for c in listed(h)] for h in deal.dealt_hands],
            "trump_card": name(deal.first_trump),
            "talon": [name(c) for c in deal.stock[:-1]],
            "actions": actions}


def deal_from_record(rec):
    """The deal as dealt in a record; ValueError saying what is wrong with a bad one."""
    rules = Rules(rec["rules"], **(rec.get("options") or {}))
    hands = rec["hands"]
    if len(hands) != 2:
        raise ValueError("a two-handed record needs 2 hands")
    masks = [0, 0]
    seen = 0
    cards = []
    for s in (0, 1):
        if len(hands[s]) != rules.hand_size:
            raise ValueError("seat " + str(s) + " must be dealt " + str(rules.hand_size) + " cards")
        for t in hands[s]:
            c = parse(t)
            masks[s] |= 1 << c
            cards.append(c)
    trump = parse(rec["trump_card"])
    talon = [parse(t) for t in rec["talon"]]
    for c in cards + [trump] + talon:
        if seen >> c & 1:
            raise ValueError("card " + name(c) + " appears twice")
        seen |= 1 << c
    if seen != pack(rules.ranks):
        raise ValueError("the cards are not exactly one " + str(rules.pack) + "-card pack")
    return Deal(rules, masks, trump, talon)


def parse_entry(entry):
    """(seat, action) from an action string like "0 marry KC"; ValueError if malformed."""
    parts = entry.split(None, 1)
    if len(parts) != 2 or parts[0] not in ("0", "1"):
        raise ValueError("an action starts with the seat 0 or 1: " + repr(entry))
    return int(parts[0]), parse_action(parts[1])


def summary(deal):
    """The replay report of a deal (RECORD_FORMAT.md 'Replaying')."""
    out = {"status": "ended" if deal.ended else "in-progress",
           "points": [deal.points(0), deal.points(1)],
           "tricks": deal.tricks[:],
           "marriages": [[SUITS[s] for s in range(4) if m >> s & 1] for m in deal.melds],
           "winner": None, "game_points": [0, 0], "reason": None,
           "to_act": None if deal.ended else deal.to_act}
    if deal.ended:
        out["winner"], out["game_points"], out["reason"] = deal.result
    return out


def replay(rec):
    """Replay a record; the report says how the deal stands or which action is wrong."""
    try:
        deal = deal_from_record(rec)
        entries = rec["actions"]
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        return {"status": "error", "error_index": None, "error": "bad record: " + _message(e)}
    for i in range(len(entries)):
        try:
            seat, action = parse_entry(entries[i])
            deal.apply(action, seat)
        except (ValueError, IllegalMove, AttributeError) as e:
            out = summary(deal)
            out["status"] = "error"
            out["error_index"] = i
            out["error"] = _message(e)
            return out
    return summary(deal)


def _message(e):
    if isinstance(e, KeyError):
        return "missing " + str(e)
    return str(e.args[0]) if e.args else type(e).__name__
