"""Every scenario record (host_tests/records and host_tests/records_family) replays to its
`expect`, both through shared_rules.report.replay and through `python -m tools.replay`
(file path and standard input, exit code 0 for a clean replay, 1 for an error in the
record).
"""
import glob
import json
import os
import subprocess
import sys

import pytest

from shared_rules.report import replay

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OURS = sorted(glob.glob(os.path.join(HERE, "records", "*.json"))
              + glob.glob(os.path.join(HERE, "records_family", "*.json")))
FILES = OURS
IDS = [os.path.basename(os.path.dirname(f)) + "/" + os.path.basename(f)[:-5] for f in OURS]
KEYS = ("status", "points", "tricks", "marriages", "winner", "game_points", "reason", "to_act",
        "error_index", "error", "bid", "bidder")


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def check(out, expect, where):
    for key, want in expect.items():
        assert key in out, "%s: replay gave no %r" % (where, key)
        assert out[key] == want, "%s: %s is %r, expected %r" % (where, key, out[key], want)


def run_tool(args, stdin=None):
    return subprocess.run([sys.executable, "-m", "tools.replay"] + args, cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_there_are_records():
    assert len(OURS) >= 140


@pytest.mark.parametrize("path", OURS, ids=[os.path.basename(f)[:-5] for f in OURS])
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


def test_replay_accepts_an_example_document():
    doc = load(OURS[0])
    assert replay(doc) == replay(doc["record"])


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_replay_tool_on_file_and_stdin(path):
    doc = load(path)
    code = 1 if doc["expect"]["status"] == "error" else 0
    by_path = run_tool([path])
    assert by_path.returncode == code, by_path.stderr
    check(json.loads(by_path.stdout), doc["expect"], "tools.replay FILE")
    by_stdin = run_tool(["-"], json.dumps(doc["record"]))
    assert by_stdin.returncode == code, by_stdin.stderr
    assert json.loads(by_stdin.stdout) == json.loads(by_path.stdout)


def test_replay_tool_unreadable_file_exits_2(tmp_path):
    out = run_tool([str(tmp_path / "missing.json")])
    assert out.returncode == 2
    report = json.loads(out.stdout)
    assert report["status"] == "error" and "cannot read" in report["error"]


def test_replay_tool_usage_exits_2():
    assert run_tool([]).returncode == 2


def test_replay_tool_not_json_exits_1():
    out = run_tool(["-"], "{not json")
    assert out.returncode == 1
    assert json.loads(out.stdout)["error"].startswith("not JSON")


def test_replay_tool_not_an_object_exits_1():
    out = run_tool(["-"], "[1, 2]")
    assert out.returncode == 1
    assert json.loads(out.stdout)["status"] == "error"


def test_seed_004_example_round():
    """The German description's example round (seed 004, section 11), replayed trick by
    trick: Player 2 (seat 0) declares 68 against 28."""
    doc = load(os.path.join(HERE, "records", "std_seed004_example_round.json"))
    rec = dict(doc["record"])
    totals = []
    for n in (2, 4, 6, 8, 10, 12):
        rec["actions"] = doc["record"]["actions"][:n]
        totals.append(replay(rec)["points"])
    assert totals == [[10, 0], [30, 15], [51, 15], [64, 15], [64, 28], [68, 28]]
