"""The engine's scenarios run again inside a real MicroPython VM and must agree with CPython.

Every two-handed record of ours is replayed in the VM; random deals of every rule set
played from the same seeds must give the same actions and results, which also proves the
PRNG shuffles identically on both.
"""
import glob
import json
import os

import pytest

import mpvm
from shared_rules.record import to_record
from shared_rules.report import replay
from shared_rules.match import Match
from shared_rules.rules import Rules
from shared_rules.rng import Rng
from shared_rules.ai.randplay import random_action

HERE = os.path.dirname(os.path.abspath(__file__))
RECORD_FILES = sorted(glob.glob(os.path.join(HERE, "records", "*.json")))

VM_REPLAY = """
import json
from shared_rules.report import replay
for rec in json.loads(RECORDS):
    print(json.dumps(replay(rec)))
"""

VM_RANDOM = """
import json
from shared_rules.match import Match
from shared_rules.rules import Rules
from shared_rules.rng import Rng
from shared_rules.ai.randplay import random_action
from shared_rules.record import to_record
for name, seed in json.loads(CASES):
    m = Match(Rules(name), counting="classic", seed=seed)
    rng = Rng(seed)
    while not m.deal.ended:
        random_action(m.deal, rng)
    print(json.dumps([to_record(m.deal), list(m.deal.result)]))
"""


def _vm(script, name, value):
    return mpvm.run_json(name + " = " + repr(json.dumps(value)) + "\n" + script, timeout=120)


def test_records_replay_identically_in_the_vm():
    assert RECORD_FILES, "no record files found"
    records = [json.load(open(f))["record"] for f in RECORD_FILES]
    got = _vm(VM_REPLAY, "RECORDS", records)
    want = [json.loads(json.dumps(replay(r))) for r in records]
    assert len(got) == len(records)
    for f, g, w in zip(RECORD_FILES, got, want):
        assert g == w, os.path.basename(f)


@pytest.mark.parametrize("name", Rules.NAMES)
def test_random_deals_match_cpython(name):
    cases = [[name, seed] for seed in range(25)]
    got = _vm(VM_RANDOM, "CASES", cases)
    for (rules, seed), row in zip(cases, got):
        m = Match(Rules(rules), counting="classic", seed=seed)
        rng = Rng(seed)
        while not m.deal.ended:
            random_action(m.deal, rng)
        assert row == json.loads(json.dumps([to_record(m.deal), list(m.deal.result)])), seed


VM_CLONE = """
import json
from shared_rules.match import Match
from shared_rules.rules import Rules
from shared_rules.rng import Rng
from shared_rules.ai.randplay import random_play
from shared_rules.record import to_record
rng = Rng(5)
d = Match(Rules(), seed=3).deal
for _ in range(9):
    random_play(d, rng)
before = to_record(d)
c = d.clone()
while not c.ended:
    random_play(c, rng)
print(json.dumps([before == to_record(d), c.ended, c.log is None, c.result]))
"""


def test_clone_is_independent_in_the_vm():
    """Search plays on clones; the original deal must not move (and clone must work on MicroPython)."""
    [[unchanged, ended, no_log, result]] = mpvm.run_json(VM_CLONE, timeout=60)
    assert unchanged and ended and no_log
    assert result[2] in ("declared", "wrong-declaration", "last-trick", "closer-failed")
