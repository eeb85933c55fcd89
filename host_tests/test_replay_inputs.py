"""`python -m tools.replay` on hostile input (issue 9): one line of JSON on stdout, the
documented error object, exit 1 for a bad record and 2 for input it cannot read; never a
traceback, and never Python's own wording ("unhashable type", "has no attribute").
Most cases run the tool's main() in this process; a closed standard input and a folder
run the real command.
"""
import io
import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from shared_rules.report import replay
from tools import replay as replay_tool

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GOOD = os.path.join(HERE, "records", "std_declared_1.json")
PYTHON_WORDING = ("unhashable", "has no attribute", "object is not", "argument after", "invalid literal",
                  "Traceback", "Error:")


def good():
    with open(GOOD, encoding="utf-8") as f:
        return json.load(f)["record"]


@pytest.fixture
def run(capsys, monkeypatch):
    """The tool's main() on standard input `data` (bytes), in this process (an exception
    would fail the test just as a traceback would); (exit code, the one JSON report)."""
    def run(data):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        code = replay_tool.main(["-"])
        out, err = capsys.readouterr()
        assert err == ""
        lines = out.splitlines()
        assert len(lines) == 1, lines
        report = json.loads(lines[0])
        if report["status"] == "error":
            assert not any(w in report["error"] for w in PYTHON_WORDING), report["error"]
            assert len(report["error"]) < 300
        return code, report
    return run


def with_(**changes):
    rec = good()
    rec.update(changes)
    return json.dumps(rec).encode()


def test_a_utf8_byte_order_mark_is_accepted(run):
    plain = run(with_())
    assert plain[0] == 0 and plain[1]["status"] == "ended"
    assert run(b"\xef\xbb\xbf" + with_()) == plain


@pytest.mark.parametrize("data,words", [
    (with_().replace(b'"standard"', b'"standard\xe9"'), "not UTF-8 text: byte 0xe9"),
    (json.dumps(good()).encode("utf-16"), "not UTF-8 text: it is UTF-16"),
    (b"\xff\xfe", "not UTF-8 text: it is UTF-16"),
    (b"\xfe\xff\x00{", "not UTF-8 text: it is UTF-16"),
    (b"{\"rules\": \"standard\x80\"}", "not UTF-8 text: byte 0x80"),
])
def test_text_that_is_not_utf8_is_refused(run, data, words):
    code, report = run(data)
    assert code == 1 and report["error"].startswith(words) and report["error_index"] is None


def test_nesting_without_end_is_refused(run):
    code, report = run(b"[" * 100000)
    assert code == 1 and report["error"] == "not JSON: nested too deeply"
    deep = b'{"rules": "standard", "options": {"follow": ' + b"[" * 100000 + b"]" * 100000 + b"}}"
    code, report = run(deep)
    assert code == 1 and report["error"] == "not JSON: nested too deeply"
    code, report = run(with_(options={"follow": json.loads("[" * 500 + "]" * 500)}))
    assert code == 1 and report["error"] == "bad record: rule option follow cannot be a list in standard"


@pytest.mark.parametrize("changes,error", [
    ({"actions": None}, "bad record: actions must be a list of actions, not null"),
    ({"actions": {}}, "bad record: actions must be a list of actions, not an object"),
    ({"actions": "0 play TS"}, "bad record: actions must be a list of actions, not '0 play TS'"),
    ({"rules": ["standard"]}, "bad record: unknown rule set a list"),
    ({"rules": None}, "bad record: unknown rule set null"),
    ({"options": ["target"]}, "bad record: options must be an object, not a list"),
    ({"options": "target=5"}, "bad record: options must be an object, not 'target=5'"),
    ({"options": {"target": "5"}}, "bad record: rule option target cannot be '5' in standard"),
    ({"hands": "TS KC"}, "bad record: hands must be a list of hands, not 'TS KC'"),
    ({"hands": [None, None]}, "bad record: seat 0 must be dealt 6 cards"),
    ({"trump_card": 7}, "bad record: not a card: 7"),
    ({"talon": {"top": "AH"}}, "bad record: talon must be a list of cards, not an object"),
])
def test_malformed_parts_are_named(run, changes, error):
    code, report = run(with_(**changes))
    assert code == 1 and report["error"].startswith(error) and report["error_index"] is None


@pytest.mark.parametrize("card", [5, None, [], {}, True, "X" * 10000])
def test_cards_that_are_not_card_names(run, card):
    rec = good()
    rec["hands"][0][0] = card
    code, report = run(json.dumps(rec).encode())
    assert code == 1 and report["error"].startswith("bad record: not a card: ")


@pytest.mark.parametrize("entry,error", [
    (7, 'an action is text like "0 play TS", not 7'),
    (["0", "play", "TS"], 'an action is text like "0 play TS", not a list'),
    (None, 'an action is text like "0 play TS", not null'),
    ("\u0661 play TS", "an action starts with the seat 0 or 1"),      # Arabic-Indic one
    ("\u00b2 play TS", "an action starts with the seat 0 or 1"),      # superscript two
    ("01 play TS", "an action starts with the seat 0 or 1"),
    ("0 play", "not an action: 'play'"),
    ("0 bid 2", "there is no bidding in this game"),
])
def test_actions_that_are_not_actions(run, entry, error):
    rec = good()
    first = rec["actions"][0]
    rec["actions"] = [first, entry]
    code, report = run(json.dumps(rec).encode())
    assert code == 1 and report["error_index"] == 1 and report["error"].startswith(error)
    assert report["to_act"] == 1                   # the state before the bad action


def test_closed_standard_input_cannot_be_read():
    out = subprocess.run([sys.executable, "-m", "tools.replay", "-"], cwd=ROOT, stdin=subprocess.DEVNULL,
                         capture_output=True, timeout=60, preexec_fn=lambda: os.close(0))
    assert out.returncode == 2 and out.stderr == b""
    report = json.loads(out.stdout)
    assert report == {"status": "error", "error_index": None, "error": "cannot read standard input: it is closed"}


def test_a_folder_cannot_be_read(tmp_path):
    out = subprocess.run([sys.executable, "-m", "tools.replay", str(tmp_path)], cwd=ROOT,
                         capture_output=True, timeout=60)
    assert out.returncode == 2 and out.stderr == b""
    assert json.loads(out.stdout)["error"].startswith("cannot read " + str(tmp_path))


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 40) | st.floats(allow_nan=False) |
                    st.sampled_from(["", "TS", "0 play TS", "standard", "american", "1 draw", "bid"]),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
PARTS = ("rules", "options", "hands", "trump_card", "talon", "widow", "actions")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(PARTS), JSON, max_size=3), st.sampled_from(PARTS + (None,)), st.data())
def test_any_damage_to_a_record_gets_a_report(changes, nested, data):
    """Parts of a good record replaced by arbitrary JSON (or one card, seat or action
    replaced): replay() always answers with a report, never an exception."""
    rec = good()
    rec.update(changes)
    if nested in ("hands", "talon", "actions") and type(rec[nested]) is list and rec[nested]:
        i = data.draw(st.integers(0, len(rec[nested]) - 1))
        rec[nested][i] = data.draw(JSON)
    out = replay(rec)
    assert out["status"] in ("ended", "in-progress", "error")
    json.dumps(out)
    if out["status"] == "error":
        assert not any(w in out["error"] for w in PYTHON_WORDING), out["error"]
