"""`python -m tools.review` (issue 24): every choice of the reviewed seat weighed by Hard's
search from that seat's view alone: exact where every card is known (checked against
brute-force minimax over the engine), the same advice whatever the hidden cards are; the
command's JSON and its one-line errors. Small budgets: seconds in all."""
import io
import itertools
import json
import sys

import pytest

from shared_rules import ai
from shared_rules.ai import weigh
from shared_rules.actions import CLOSE, DRAW, DECLARE
from shared_rules.cards import listed, parse
from shared_rules.family import new_match
from shared_rules.record import to_record, deal_from_record, parse_entry, action_text
from shared_rules.report import replay
from shared_rules.rules import Rules
from tools import review as review_tool
from tools.review import review, review_deal, MIN_COST
from tools.solver_check import brute

BUDGET = 1500       # work units per decision: tens of sampled deals, enough for a test


def normal_deal(rules, seed):
    """The first deal of a seeded match, Normal at every seat, as a record."""
    d = new_match(rules, "classic", seed).deal
    player = ai.make_player("normal", seed)
    while not d.ended:
        d.apply(player.choose(d.view(d.to_act)), d.to_act)
    return to_record(d)


def before(rec, i):
    """The deal of `rec` as its action i finds it (a draw the record leaves out made)."""
    d = deal_from_record(rec)
    for entry in rec["actions"][:i]:
        d.apply(*reversed(parse_entry(entry, len(d.hands))))
    action = parse_entry(rec["actions"][i], len(d.hands))[1]
    if getattr(d, "pending_draw", False) and action != DRAW and action != CLOSE:
        d.apply(DRAW)
    return d


def minimax(d):
    """{action text: game-point margin for the seat to act} by brute force (tools.solver_check)."""
    out = {}
    for a in d.legal_actions():
        after = d.clone()
        after.apply(a)
        out[action_text(a)] = brute(after, d.to_act)
    return out


def small_endgame(d):
    """Seat 0 to play, the talon used up (every card known), at most 4 cards each."""
    return d.to_act == 0 and d.phase2 and d.talon_left == 0 and d.closed < 0 and not d.pending_draw \
        and len(listed(d.hands[0])) <= 4


def endgame_blunder():
    """A standard deal played by Normal in which seat 0, once the talon is used up and it
    holds 4 cards or fewer, plays the card minimax rates lowest where that costs a game
    point or more (a card: the solver decides it, not a declaration's result)."""
    rules = Rules("standard")
    for seed in range(1, 100):
        d = new_match(rules, "classic", seed).deal
        normal = ai.make_player("normal", seed)
        blundered = False
        while not d.ended:
            if not blundered and small_endgame(d):
                values = minimax(d)
                values.pop("declare", None)
                if max(values.values()) - min(values.values()) >= 1:
                    worst = min(values, key=values.get)
                    d.apply([a for a in d.legal_actions() if action_text(a) == worst][0])
                    blundered = True
                    continue
            d.apply(normal.choose(d.view(d.to_act)))
        if blundered:
            return to_record(d)
    raise AssertionError("no costly endgame in 99 deals")


def test_an_endgame_the_solver_decides_is_weighed_exactly(tmp_path):
    """Once the talon is used up every card is known: each choice's value is the minimax
    game-point margin, from one exact solve, and the blunder leads the costliest moves."""
    rec = endgame_blunder()
    exact = [x for x in review_deal(rec, 0, BUDGET)["decisions"] if x["exact"]]
    checked = []
    for x in exact:
        d = before(rec, x["action_index"])
        if small_endgame(d):
            want = minimax(d)
            assert x["values"] == want and x["rounds"] == 1
            assert x["cost"] == max(want.values()) - want[x["played"]]
            assert want[x["best"]] == max(want.values())
            checked.append(x)
    blunder = max(checked, key=lambda x: x["cost"])
    assert blunder["cost"] >= 1
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(rec))
    costliest = review([str(path)], budget=BUDGET)["costliest"][0]
    assert costliest["action_index"] == blunder["action_index"] and costliest["cost"] == blunder["cost"]


def test_the_search_values_every_action_in_game_points():
    """shared_rules.ai.weigh, the seam the review uses: a value for each action given, none
    dropped, in game points with no card-point tie-break: showing a marriage to reach 66 is
    worth what the deal then scores, though the seats' card points differ."""
    rec = normal_deal(Rules("standard"), 9)
    assert rec["actions"][7] == "0 declare-marriage KD"
    d = before(rec, 7)
    view = d.view(0)
    actions = [a for a in view.legal if a != DECLARE]
    values, rounds, exact = weigh.values(ai.make_player("hard", 1, budget=BUDGET), view, actions)
    assert len(values) == len(actions) and rounds >= 10 and not exact
    after = d.clone()
    after.apply(parse_entry(rec["actions"][7])[1])
    gp = after.result[1]
    assert after.points(0) - after.points(1) >= 8 and gp[0] >= 1      # a tie-break would show
    assert values[actions.index(parse_entry(rec["actions"][7])[1])] == gp[0] - gp[1]


def seat_views(rec, seat):
    """What `seat` knew at each of its turns (its views, as comparable dicts)."""
    d = deal_from_record(rec)
    out = []
    for entry in rec["actions"]:
        s, action = parse_entry(entry, len(d.hands))
        if getattr(d, "pending_draw", False) and action != DRAW and action != CLOSE:
            d.apply(DRAW)
        if s == seat and d.to_act == seat:
            v = dict(vars(d.view(seat)))
            del v["rules"]
            out.append(v)
        d.apply(action, s)
    return out


def dealing(rec):
    """Where the cards of a record lie: each hand, the talon in order, the widow."""
    return deal_from_record(rec).dealt_hands, rec.get("talon"), sorted(rec.get("widow") or ())


def swapped(rec, x, y):
    """The record with cards x and y (names) trading places in the deal."""
    def swap(cards):
        return [y if c == x else x if c == y else c for c in cards or ()]
    out = dict(rec, hands=[swap(h) for h in rec["hands"]], talon=swap(rec.get("talon")))
    if rec.get("widow"):
        out["widow"] = swap(rec["widow"])
    return out


# Deals where the seat closes and declares (and exchanges, in Schnapsen and Hoyle), and
# two cards it never sees can trade places.
@pytest.mark.parametrize("rules, seed", [
    (Rules("standard"), 8), (Rules("schnapsen"), 5), (Rules("hoyle"), 9),
    (Rules("four-handed"), 1), (Rules("american", players=3), 1)])
def test_the_hidden_cards_change_no_advice(rules, seed):
    """Two cards the seat never sees trade places (the other hands, the talon, the widow):
    every view of the seat stays the same, so must every value the review gives. The team
    games play every card, so their record stops halfway, before those cards are played."""
    rec = normal_deal(rules, seed)
    if rules.game in ("four", "american"):
        rec["actions"] = rec["actions"][:len(rec["actions"]) // 2]
    views = seat_views(rec, 0)
    seen = 0
    for v in views:
        seen |= v["hand"] | v["played"] | v.get("opp_known", 0)
    everything = set(sum(rec["hands"], []) + (rec.get("talon") or []) + (rec.get("widow") or []))
    hidden = sorted(c for c in everything if c != rec["trump_card"] and not seen >> parse(c) & 1)
    base = review_deal(rec, 0, BUDGET)
    assert base["reviewed"] >= 2 and not all(x["exact"] for x in base["decisions"])
    checked = 0
    for x, y in itertools.combinations(hidden, 2):
        other = swapped(rec, x, y)
        if dealing(other) == dealing(rec):
            continue                # two cards of one hand (or of the widow): the same deal
        if replay(other)["status"] == "error" or seat_views(other, 0) != views:
            continue                # the others' plays would be illegal, or the seat would see it
        assert review_deal(other, 0, BUDGET)["decisions"] == base["decisions"], (x, y)
        checked += 1
        if checked == 2:
            break
    assert checked == 2


# ---- the command -----------------------------------------------------------------------------


@pytest.fixture
def command(capsys, monkeypatch):
    """tools.review's main() in this process: (exit code, stdout, stderr); `stdin` bytes
    for '-'."""
    def run(*args, stdin=None):
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
        code = review_tool.main(list(args))
        out, err = capsys.readouterr()
        return code, out, err
    return run


def schnapsen_match():
    """Two deals of Schnapsen played by Normal: a match as the review takes it."""
    return [normal_deal(Rules("schnapsen"), seed) for seed in (1, 2)]


def test_json_gives_every_choice_its_value(command, tmp_path):
    match = schnapsen_match()
    path = tmp_path / "match.json"
    path.write_text(json.dumps(match))
    code, out, err = command(str(path), "--json", "--budget", str(BUDGET), "--top", "2")
    assert code == 0 and err == "" and len(out.splitlines()) == 1
    report = json.loads(out)
    assert len(report["deals"]) == 2
    for k, deal in enumerate(report["deals"]):
        assert (deal["source"], deal["index"], deal["seat"], deal["seat_from"]) == (str(path), k, 0, "default")
        assert deal["rules"] == "schnapsen" and deal["budget"] == BUDGET
        assert deal["result"]["status"] == "ended"
        assert deal["reviewed"] == len(deal["decisions"]) >= 2
        assert deal["cost"] == pytest.approx(sum(x["cost"] for x in deal["decisions"]), abs=0.002)
        rec = match[k]
        for x in deal["decisions"]:
            d = before(rec, x["action_index"])
            assert d.to_act == 0 and x["played"] == rec["actions"][x["action_index"]][2:]
            assert set(x["values"]) == {action_text(a) for a in d.legal_actions()}
            assert x["values"][x["best"]] == max(x["values"].values())
            assert x["cost"] == pytest.approx(x["values"][x["best"]] - x["values"][x["played"]], abs=0.002)
            assert x["trick"] == d.tricks[0] + d.tricks[1] + 1
            assert x["rounds"] >= 1 and isinstance(x["exact"], bool) and x["reason"]
    costs = [x["cost"] for deal in report["deals"] for x in deal["decisions"] if x["cost"] >= MIN_COST]
    assert [x["cost"] for x in report["costliest"]] == sorted(costs, reverse=True)[:2]
    for x in report["costliest"]:
        assert x in [dict(y, deal=x["deal"]) for y in report["deals"][x["deal"]]["decisions"]]
    assert report["reviewed"] == sum(deal["reviewed"] for deal in report["deals"])


def test_the_text_names_the_seat_and_sums_up_each_deal(command, tmp_path):
    match = schnapsen_match()
    path = tmp_path / "match.json"
    path.write_text(json.dumps(match))
    code, out, err = command(str(path), "--budget", str(BUDGET))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("Seat 0 reviewed: the record does not say which seat")
    assert sum(line.startswith("deal ") for line in lines) == 2
    assert lines[-1].startswith("All 2 deals: ")
    # A record that names the person's seat: no note, that seat; --seat overrides it.
    for rec in match:
        rec["people"] = [1]
    path.write_text(json.dumps(match))
    out = json.loads(command(str(path), "--budget", str(BUDGET), "--json")[1])
    assert [(d["seat"], d["seat_from"]) for d in out["deals"]] == [(1, "record")] * 2
    assert "Seat 0 reviewed" not in command(str(path), "--budget", str(BUDGET))[1]
    out = json.loads(command(str(path), "--budget", str(BUDGET), "--json", "--seat", "0")[1])
    assert [(d["seat"], d["seat_from"]) for d in out["deals"]] == [(0, "option")] * 2


def test_a_folder_and_standard_input(command, tmp_path):
    match = schnapsen_match()
    for k, rec in enumerate(match):
        (tmp_path / ("deal%d.json" % k)).write_text(json.dumps(rec))
    (tmp_path / "notes.txt").write_text("not a record")
    from_folder = json.loads(command(str(tmp_path), "--budget", str(BUDGET), "--json")[1])
    assert [d["source"] for d in from_folder["deals"]] == [str(tmp_path / "deal0.json"), str(tmp_path / "deal1.json")]
    from_stdin = json.loads(command("-", "--budget", str(BUDGET), "--json", stdin=json.dumps(match).encode())[1])
    assert [d["decisions"] for d in from_stdin["deals"]] == [d["decisions"] for d in from_folder["deals"]]


def _illegal():
    rec = normal_deal(Rules("schnapsen"), 1)
    rec["actions"][1] = rec["actions"][0]     # the same seat again
    return rec


@pytest.mark.parametrize("data, args, code, words", [
    (b"{", (), 1, "not JSON: "),
    (b"\xff\xfe{", (), 1, "not UTF-8 text"),
    (b"[]", (), 1, "an empty list holds no deal"),
    (b"[1]", (), 1, "deal 1: a record is a JSON object"),
    (json.dumps(dict(normal_deal(Rules("schnapsen"), 1), trump_card="XX")).encode(), (), 1, "bad record: "),
    (json.dumps(_illegal()).encode(), (), 1, "action 1: it is not your turn"),
    (json.dumps(dict(normal_deal(Rules("schnapsen"), 1), people="me")).encode(), (), 1, "people must be a list"),
    (json.dumps(normal_deal(Rules("schnapsen"), 1)).encode(), ("--seat", "2"), 1,
     "seat 2 is not a seat of this game: it has seats 0 to 1"),
])
def test_bad_input_is_one_line_and_a_failing_exit(command, data, args, code, words):
    got, out, err = command("-", "--budget", str(BUDGET), *args, stdin=data)
    assert got == code and out == "" and len(err.splitlines()) == 1
    assert err.startswith("review: standard input")
    assert words in err and "Traceback" not in err
    got, out, err = command("-", "--budget", str(BUDGET), "--json", *args, stdin=data)
    report = json.loads(out)
    assert got == code and err == "" and report["status"] == "error" and words in report["error"]


def test_a_missing_file_cannot_be_read(command, tmp_path):
    code, out, err = command(str(tmp_path / "none.json"))
    assert code == 2 and out == "" and err.startswith("review: cannot read ") and len(err.splitlines()) == 1
