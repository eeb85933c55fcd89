"""Every family record (host_tests/records_family: four-handed, North American, Idiots' and
three-handed Sixty-Six) replays to its `expect` through shared_rules.record.replay and
through `python -m tools.replay`; the records that play cards are also followed by the
independent referees of family_oracle, which must agree on points, tricks and result.
"""
import glob
import json
import os
import subprocess
import sys

import pytest

from family_oracle import TeamReferee, IdiotsReferee
from rules_oracle import Oracle
from shared_rules.record import replay, parse_entry, deal_from_record
from shared_rules.rules import Rules

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FILES = sorted(glob.glob(os.path.join(HERE, "records_family", "*.json")))
IDS = [os.path.basename(f)[:-5] for f in FILES]
KEYS = ("status", "points", "tricks", "marriages", "winner", "game_points", "reason", "to_act",
        "error_index", "error")


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def check(out, expect, where):
    for key, want in expect.items():
        assert key in out, "%s: replay gave no %r" % (where, key)
        assert out[key] == want, "%s: %s is %r, expected %r" % (where, key, out[key], want)


def test_there_are_records_of_every_family_game():
    games = {}
    for f in FILES:
        rules = load(f)["record"]["rules"]
        games[rules] = games.get(rules, 0) + 1
    assert games.get("four-handed", 0) >= 15 and games.get("american", 0) >= 15
    assert games.get("idiots", 0) >= 12 and games.get("three-handed", 0) >= 4


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_record_file_shape(path):
    doc = load(path)
    assert set(doc) == {"name", "why", "record", "expect"}
    assert doc["name"] == os.path.basename(path)[:-5]
    assert len(doc["why"]) > 20
    assert set(doc["expect"]) <= set(KEYS) and "status" in doc["expect"]


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_record_replays_to_expect(path):
    doc = load(path)
    out = replay(doc["record"])
    check(out, doc["expect"], "replay()")
    assert json.loads(json.dumps(out)) == out, "the report must be plain JSON data"
    if doc["record"]["rules"] == "three-handed":
        assert len(out["game_points"]) == 3      # seat 0, seat 1, the dealer


def test_replay_tool_agrees_on_every_record():
    """`python -m tools.replay FILE` prints the same report and exits 0 (1 on an error)."""
    for path in FILES:
        doc = load(path)
        run = subprocess.run([sys.executable, "-m", "tools.replay", path], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == (1 if doc["expect"]["status"] == "error" else 0), (path, run.stderr)
        out = json.loads(run.stdout)
        check(out, doc["expect"], "tools.replay " + os.path.basename(path))
        assert out == json.loads(json.dumps(replay(doc["record"])))


def test_replay_tool_reads_a_family_record_from_stdin():
    doc = load(os.path.join(HERE, "records_family", "am_cutthroat_widow.json"))
    run = subprocess.run([sys.executable, "-m", "tools.replay", "-"], cwd=ROOT, input=json.dumps(doc["record"]),
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0
    check(json.loads(run.stdout), doc["expect"], "tools.replay -")


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
