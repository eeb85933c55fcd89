"""The family records (host_tests/records_family: four-handed, North American, Idiots' and
three-handed Sixty-Six) cover every game, and the independent referees of family_oracle,
fed the same records, agree with the engine on points, tricks and result. (test_records
replays every record to its `expect`, through replay() and `python -m tools.replay`.)
"""
import glob
import json
import os

import pytest

from family_oracle import TeamReferee, IdiotsReferee
from rules_oracle import Oracle
from shared_rules.record import parse_entry, deal_from_record
from shared_rules.report import replay
from shared_rules.rules import Rules

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FILES = sorted(glob.glob(os.path.join(HERE, "records_family", "*.json")))


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def test_there_are_records_of_every_family_game():
    games = {}
    for f in FILES:
        rules = load(f)["record"]["rules"]
        games[rules] = games.get(rules, 0) + 1
    assert games.get("four-handed", 0) >= 15 and games.get("american", 0) >= 15
    assert games.get("idiots", 0) >= 12 and games.get("three-handed", 0) >= 4


PLAYED = [f for f in FILES if load(f)["record"]["rules"] in ("four-handed", "american", "idiots")
          and not os.path.basename(f).startswith("bad_")]


@pytest.mark.parametrize("path", PLAYED, ids=[os.path.basename(f)[:-5] for f in PLAYED])
def test_referee_agrees(path):
    """The independent referee, fed the same record, allows each accepted action, refuses
    the one the engine refuses, and ends with the same points, tricks and result."""
    doc = load(path)
    rec = doc["record"]
    rules = Rules(rec["rules"], **rec["options"])
    if rules.game == "idiots":
        ref = IdiotsReferee(rec["hands"], rec["talon"])
    else:
        ref = TeamReferee(rules.game, rec["hands"], rec["trump_card"], rec.get("widow", ()))
    out = replay(rec)
    stop = out.get("error_index")
    for i, entry in enumerate(rec["actions"]):
        seat, action = parse_entry(entry, len(rec["hands"]))
        if i == stop:
            with pytest.raises(AssertionError):
                ref.apply(seat, action)
            break
        ref.apply(seat, action)
    sides = len(out["points"])
    assert [ref.points(s) for s in range(sides)] == out["points"]
    assert list(ref.tricks) == out["tricks"]
    if out["status"] == "ended":
        result = ref.result() if rules.game == "idiots" else ref.result(rules.ten_of_trumps)
        assert result == (out["winner"], out["game_points"], out["reason"])


THREE = [f for f in FILES if load(f)["record"]["rules"] == "three-handed"]


@pytest.mark.parametrize("path", THREE, ids=[os.path.basename(f)[:-5] for f in THREE])
def test_three_handed_dealer_points_agree_with_the_oracle(path):
    """rules_oracle (the two-handed reading of RULES.md) scores the active players' Hoyle
    deal; the dealer's entry is what the winner scored, or 1 when nobody scored."""
    rec = load(path)["record"]
    deal = deal_from_record(rec)
    oracle = Oracle(deal.rules, deal.trump_card)
    for entry in rec["actions"]:
        seat, action = parse_entry(entry)
        hand = deal.hands[seat]
        deal.apply(action, seat)
        oracle.observe(seat, action, hand)
    winner, gp, reason = oracle.result()
    out = replay(rec)
    assert out["game_points"] == gp + [1 if winner is None else gp[winner]]
    assert (out["winner"], out["reason"]) == (winner, reason)
