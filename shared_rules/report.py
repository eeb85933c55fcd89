"""Replaying a game record into its report (docs/RECORD_FORMAT.md 'Replaying'): what
`python -m tools.replay` prints. Host tools and tests use it; the board does not.
"""
from shared_rules.cards import SUITS
from shared_rules.errors import IllegalMove
from shared_rules.record import deal_from_record, parse_entry
from shared_rules.rules import TEAM_GAMES


def summary(deal):
    """The replay report of a deal (docs/RECORD_FORMAT.md 'Replaying'); team games report
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


def record_of(doc):
    """The record in `doc`: an example document ({"name", "why", "record", "expect"}, as in
    records/ folders) holds one under "record"; anything else is taken as the record."""
    if isinstance(doc, dict) and "rules" not in doc and isinstance(doc.get("record"), dict):
        return doc["record"]
    return doc


def replay(rec):
    """Replay a record (or an example document: record_of); the report says how the deal
    stands or which action is wrong."""
    rec = record_of(rec)
    try:
        deal = deal_from_record(rec)
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        return {"status": "error", "error_index": None, "error": "bad record: " + _message(e)}
    entries = rec["actions"]
    for i in range(len(entries)):
        try:
            seat, action = parse_entry(entries[i], len(deal.hands))
            deal.apply(action, seat)
        except (ValueError, IllegalMove) as e:
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
