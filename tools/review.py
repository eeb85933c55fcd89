"""Review a person's play: at each of their decisions in game records, what Hard's search
makes of every choice, knowing only what that seat knew, and the moves that cost most.

    python -m tools.review RECORD [RECORD ...] [--seat N] [--top 3] [--budget N] [--seed 1] [--json]

RECORD: a game record (docs/RECORD_FORMAT.md), a JSON list of records (a match, deal by
deal), a folder of such files, or - for standard input. Prints the costliest moves, each
with the hint's one-line reason for the better move, and a summary per deal; --json: one
JSON object (docs/REVIEW.md). Exits 1 when a record, an action or the seat is wrong (one
line says which), 2 when an input cannot be read.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from shared_rules.actions import DECLARE, EXCHANGE, CLOSE, DRAW  # noqa: E402
from shared_rules.record import deal_from_record, parse_entry, action_text  # noqa: E402
from shared_rules.report import record_of, replay, summary  # noqa: E402
from shared_rules.rules import TEAM_GAMES  # noqa: E402
from shared_rules.ai import weigh  # noqa: E402
from shared_rules.ai.hard import Hard, HARD_BUDGET  # noqa: E402
from tools.replay import BadInput, load  # noqa: E402

# Work per decision: this many times what the device's Hard does in its 1.5 s (HARD_BUDGET),
# spread over every legal action (none is dropped as Hard's racing does). About a second a
# two-handed deal on a PC (docs/REVIEW.md).
EFFORT = 6
# Costs listed from here: below is the search's sampling noise (a move that costs nothing,
# weighed again with another seed, costs 0.006 game points on average, 95% under 0.04).
MIN_COST = 0.1


class ReviewError(Exception):
    """What is wrong with the input, in one line, and the exit code (`code`)."""

    def __init__(self, message, code=1):
        Exception.__init__(self, message)
        self.code = code


# ---- the records -------------------------------------------------------------------------


def inputs(paths):
    """[(source, index in its list or None, record)] for the command's arguments: files,
    folders (their .json files in name order) and '-'."""
    out = []
    for path in paths:
        if path != "-" and os.path.isdir(path):
            names = sorted(n for n in os.listdir(path) if n.endswith(".json"))
            if not names:
                raise ReviewError("no .json records in " + path)
            out += inputs([os.path.join(path, n) for n in names])
            continue
        source = "standard input" if path == "-" else path
        try:
            doc = load(path)
        except BadInput as e:          # "cannot read FILE: ..." names it already
            raise ReviewError(str(e) if e.code == 2 else source + ": " + str(e), e.code)
        if isinstance(doc, list):
            if not doc:
                raise ReviewError(source + ": an empty list holds no deal")
            out += [(source, i, doc[i]) for i in range(len(doc))]
        else:
            out.append((source, None, doc))
    return out


def checked(doc, chosen):
    """(the record of `doc`, the seat to review, how it was chosen: "option", "record" or
    "default") once the record replays without error; ReviewError saying what is wrong
    otherwise (tools.replay's words). A record may name the seats persons played in
    "people" (docs/RECORD_FORMAT.md); none there (a three-handed deal the person dealt):
    the seat is None, nothing to review."""
    if not isinstance(doc, dict):
        raise ReviewError("a record is a JSON object")
    out = replay(doc)
    if out["status"] == "error":
        at = "" if out["error_index"] is None else "action " + str(out["error_index"]) + ": "
        raise ReviewError(at + out["error"])
    rec = record_of(doc)
    if chosen is not None:
        seat, how = chosen, "option"
    elif "people" in rec:
        people = rec["people"]
        if type(people) is not list or [s for s in people if type(s) is not int]:
            raise ReviewError("people must be a list of seats, as numbers")
        seat, how = people[0] if people else None, "record"
    else:
        seat, how = 0, "default"
    seats = len(deal_from_record(rec).hands)
    if seat is not None and not 0 <= seat < seats:
        raise ReviewError("seat " + str(seat) + " is not a seat of this game: it has seats 0 to " + str(seats - 1))
    return rec, seat, how


# ---- weighing the choices --------------------------------------------------------------------


def worth(deal, view, hard):
    """({action: expected game-point margin for the seat}, sampled deals, exact) for every
    legal action of `view`, by the search on the view alone (shared_rules.ai.weigh).
    Except: a declaration ends the deal, so it is worth its result (decided by what is on
    the table); after an exchange or a close the seat acts again, having seen nothing new,
    so they are worth its best choice then (the search would make that one by its rules
    of thumb)."""
    legal = view.legal
    searched = [a for a in legal if a != DECLARE and a != EXCHANGE and a != CLOSE]
    values, rounds, exact = weigh.values(hard, view, searched)
    if values is None:
        raise ReviewError("the budget is too small for one sampled deal: raise --budget", 2)
    out = dict(zip(searched, values))
    for a in legal:
        if a not in out:
            after = deal.clone()
            after.apply(a, view.seat)
            if after.ended:
                gp = after.result[1]
                out[a] = gp[view.seat] - gp[1 - view.seat]
            else:
                out[a] = max(worth(after, after.view(view.seat), hard)[0].values())
    return out, rounds, exact


def reason(view, best):
    """The hint's one-line reason for `best`; in the team games only where the hint's own
    move is `best` (its reasons are those of its rules of thumb), else None."""
    if view.rules.game in TEAM_GAMES:
        from shared_rules.ai import team_greedy
        a, why = team_greedy.decide(view)
        return why if a == best else None
    from shared_rules.ai.hints import reason as hint_reason
    return hint_reason(view, best)


def decision(deal, view, played, index, hard):
    """One decision of the reviewed seat: every choice's value, the best one, the cost."""
    if played not in view.legal:
        played ^= 1         # "declare-marriage QC": listed by the king, as legal_actions does
    values, rounds, exact = worth(deal, view, hard)
    top = max(values.values())
    best = played if values[played] == top else [a for a in view.legal if values[a] == top][0]
    bidding = deal.rules.game == "american" and deal.bidder < 0
    return {"action_index": index, "trick": None if bidding else sum(deal.tricks) + 1,
            "played": action_text(played), "best": action_text(best),
            "cost": _round(top - values[played]), "exact": exact, "rounds": rounds,
            "values": {action_text(a): _round(values[a]) for a in view.legal},
            "reason": reason(view, best)}


def _round(x):
    return round(x, 3) + 0.0          # + 0.0: never -0.0


def review_deal(rec, seat, budget=None, seed=1):
    """The report of one deal (a replayable record) for `seat` (None: no decisions;
    docs/REVIEW.md); `budget`: work units per decision (default EFFORT times the device's
    Hard)."""
    deal = deal_from_record(rec)
    budget = budget or EFFORT * HARD_BUDGET[deal.rules.game]
    hard = Hard(seed, budget)
    decisions = []
    entries = rec["actions"]
    for i in range(len(entries)):
        s, action = parse_entry(entries[i], len(deal.hands))
        if getattr(deal, "pending_draw", False) and action != DRAW and action != CLOSE:
            deal.apply(DRAW)        # the draw a record leaves out: the decision sees the card drawn
        if s == seat and deal.to_act == seat and action != DRAW:
            view = deal.view(seat)
            if len(view.legal) > 1:
                decisions.append(decision(deal, view, action, i, hard))
        deal.apply(action, s)
    return {"rules": rec["rules"], "options": rec.get("options") or {}, "seat": seat, "budget": budget,
            "reviewed": len(decisions), "cost": _round(sum(d["cost"] for d in decisions)),
            "result": summary(deal), "decisions": decisions}


def review(paths, seat=None, top=3, budget=None, seed=1):
    """The review of every deal in `paths` (docs/REVIEW.md); ReviewError on bad input,
    found before any deal is weighed."""
    found = []
    for source, index, doc in inputs(paths):
        try:
            found.append((source, index) + checked(doc, seat))
        except ReviewError as e:
            raise ReviewError(source + ("" if index is None else ", deal " + str(index + 1)) + ": " + str(e))
    deals = []
    for source, index, rec, s, how in found:
        d = review_deal(rec, s, budget, seed)
        d.update({"source": source, "index": index, "seat_from": how})
        deals.append(d)
    costly = [dict(d, deal=k) for k in range(len(deals)) for d in deals[k]["decisions"] if d["cost"] >= MIN_COST]
    costly.sort(key=lambda d: -d["cost"])
    return {"deals": deals, "costliest": costly[:top],
            "reviewed": sum(d["reviewed"] for d in deals),
            "cost": _round(sum(d["cost"] for d in deals))}


# ---- the printout -----------------------------------------------------------------------------


def text(report):
    """The review as lines for a person."""
    deals = report["deals"]
    lines = []
    if any(d["seat_from"] == "default" for d in deals):
        lines.append("Seat 0 reviewed: the record does not say which seat the person played "
                     "(--seat N to choose).")
    lines.append("Costliest moves:" if report["costliest"] else
                 "No costly moves: every choice was within %.1f game points of the best." % MIN_COST)
    for n, d in enumerate(report["costliest"], 1):
        values = d["values"]
        how = "exact" if d["exact"] else "%d sampled deals" % d["rounds"]
        when = "bidding" if d["trick"] is None else "trick %d" % d["trick"]
        lines.append("%d. deal %d, %s (action %d): you: %s (%+.2f); better: %s (%+.2f); cost %.2f game points (%s)"
                     % (n, d["deal"] + 1, when, d["action_index"], d["played"], values[d["played"]],
                        d["best"], values[d["best"]], d["cost"], how))
        lines.append("   " + (d["reason"] or "(no reason in the hints' words: the hint's rules of thumb pick another move)"))
    lines.append("Deals:")
    for k, d in enumerate(deals, 1):
        r = d["result"]
        result = "in progress" if r["status"] != "ended" else \
            r["reason"] + ", game points " + " / ".join(str(g) for g in r["game_points"])
        seat = "no person's seat" if d["seat"] is None else "seat %d" % d["seat"]
        lines.append("deal %d (%s, %s): %d decisions reviewed, expected cost %.2f game points; result: %s"
                     % (k, d["rules"], seat, d["reviewed"], d["cost"], result))
    if len(deals) > 1:
        lines.append("All %d deals: %d decisions reviewed, expected cost %.2f game points"
                     % (len(deals), report["reviewed"], report["cost"]))
    return lines


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m tools.review", description=__doc__.split("\n\n")[0])
    p.add_argument("records", nargs="+", metavar="RECORD", help="a record, a JSON list of records, a folder, or -")
    p.add_argument("--seat", type=int, choices=range(4), help="the seat to review (default: the record's "
                   "\"people\", else 0)")
    p.add_argument("--top", type=int, default=3, help="how many costly moves to list (default 3)")
    p.add_argument("--budget", type=int, help="work units per decision (default: %d x the device's Hard)"
                   % EFFORT)
    p.add_argument("--seed", type=int, default=1, help="the search's seed (default 1): the same seed, the same review")
    p.add_argument("--json", action="store_true", help="one JSON object (docs/REVIEW.md)")
    args = p.parse_args(argv)
    if args.top < 0 or args.budget is not None and args.budget < 1:
        p.error("--top must be 0 or more, --budget 1 or more")
    try:
        report = review(args.records, args.seat, args.top, args.budget, args.seed)
    except ReviewError as e:
        if args.json:
            print(json.dumps({"status": "error", "error": str(e)}))
        else:
            print("review: " + str(e), file=sys.stderr)
        return e.code
    print(json.dumps(report) if args.json else "\n".join(text(report)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
