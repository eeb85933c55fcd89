"""Game records (RECORD_FORMAT.md): write a deal as a record, rebuild and replay one.

Plain dicts and lists only, so the board can use it without the json module.
"""
from shared_rules.cards import name, parse, listed, pack, mask_of, SUITS
from shared_rules.actions import EXCHANGE, CLOSE, DECLARE, DRAW, BID, PASS
from shared_rules.deal import Deal
from shared_rules.errors import IllegalMove
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
    raise ValueError("not an action: " + repr(words))


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


def deal_from_record(rec):
    """The deal as dealt in a record; ValueError saying what is wrong with a bad one."""
    rules = Rules(rec["rules"], **(rec.get("options") or {}))
    sizes = _hand_sizes(rules)
    hands = rec["hands"]
    if len(hands) != len(sizes):
        raise ValueError("this game needs " + str(len(sizes)) + " hands")
    masks = []
    cards = []
    for s in range(len(sizes)):
        if len(hands[s]) != sizes[s]:
            raise ValueError("seat " + str(s) + " must be dealt " + str(sizes[s]) + " cards")
        hand = [parse(t) for t in hands[s]]
        masks.append(mask_of(hand))
        cards += hand
    has_turn_up = rules.game in ("two", "three", "four")
    if (rec.get("trump_card") is not None) != has_turn_up:
        raise ValueError("this game has " + ("a" if has_turn_up else "no") + " trump card")
    trump = parse(rec["trump_card"]) if has_turn_up else -1
    talon = [parse(t) for t in rec.get("talon") or ()]
    widow = [parse(t) for t in rec.get("widow") or ()]
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


def parse_entry(entry, seats=2):
    """(seat, action) from an action string like "0 marry KC"; ValueError if malformed."""
    parts = entry.split(None, 1)
    if len(parts) != 2 or not parts[0].isdigit() or int(parts[0]) >= seats:
        numbers = ", ".join(str(i) for i in range(seats - 1)) + " or " + str(seats - 1)
        raise ValueError("an action starts with the seat " + numbers + ": " + repr(entry))
    return int(parts[0]), parse_action(parts[1])


def summary(deal):
    """The replay report of a deal (RECORD_FORMAT.md 'Replaying'); team games report
    points, tricks and game points per side, marriages per seat."""
    sides = len(deal.tricks)
    out = {"status": "ended" if deal.ended else "in-progress",
           "points": [deal.points(s) for s in range(sides)],
           "tricks": deal.tricks[:],
           "marriages": [[SUITS[s] for s in range(4) if m >> s & 1] for m in deal.melds],
           "winner": None, "game_points": [0] * sides, "reason": None,
           "to_act": None if deal.ended else deal.to_act}
    if deal.ended:
        out["winner"], out["game_points"], out["reason"] = deal.result
    if deal.rules.game == "three":
        out["game_points"] = out["game_points"] + [dealer_points(deal)]
    if deal.rules.game in TEAM_GAMES:
        out["bid"] = deal.bid
        out["bidder"] = None if deal.bidder < 0 else deal.bidder
    return out


def dealer_points(deal):
    """Three-handed: the dealer scores what either active player won, or 1 when neither
    scored (the match caps it below the target)."""
    if not deal.ended:
        return 0
    winner, gp, reason = deal.result
    return 1 if winner is None else gp[winner]


def replay(rec):
    """Replay a record; the report says how the deal stands or which action is wrong.

    An example document ({"name", "why", "record", "expect"}, as in records/ folders) is
    replayed by its "record".
    """
    if isinstance(rec, dict) and "rules" not in rec and isinstance(rec.get("record"), dict):
        rec = rec["record"]
    try:
        deal = deal_from_record(rec)
        entries = rec["actions"]
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        return {"status": "error", "error_index": None, "error": "bad record: " + _message(e)}
    for i in range(len(entries)):
        try:
            seat, action = parse_entry(entries[i], len(deal.hands))
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
