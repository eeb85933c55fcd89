"""Every AI level inside the real MicroPython VM: legal moves and bounded heap per decision."""
import json

import pytest

import mpvm

try:
    mpvm.check_installed()
except mpvm.MPVMUnavailable as e:         # a setup problem, said plainly
    pytest.skip(str(e), allow_module_level=True)

SCRIPT = r"""
import gc, json, mpvm_probe
from shared_rules.match import Match
from shared_rules.rules import Rules
from shared_rules.ai import make_player, fallback

def run(level, rules, counting, seed, deals):
    m = Match(Rules(rules), counting, seed)
    me = make_player(level, seed)
    other = make_player("easy", seed + 1)
    n = 0
    heap = 0
    for _ in range(deals):
        d = m.deal
        while not d.ended:
            s = d.to_act
            v = d.view(s)
            if m.player_at(s) != 0:
                m.apply(other.choose(v), s)
                continue
            used, a = mpvm_probe.alloc(me.choose, v)
            if a not in v.legal:
                raise ValueError("illegal %r" % a)
            if fallback(v) not in v.legal:
                raise ValueError("illegal fallback")
            heap = max(heap, used)
            n += 1
            m.apply(a, s)
        if m.over:
            break
        m.next_deal()
    print(json.dumps({"level": level, "rules": rules, "decisions": n, "heap": heap}))
"""

CASES = [("easy", "standard", "classic", 3, 2), ("normal", "standard", "casual", 4, 2),
         ("normal", "hoyle", "classic", 5, 1), ("easy", "russian", "casual", 6, 1),
         ("normal", "schnapsen", "casual", 7, 1), ("hard", "standard", "casual", 8, 1),
         ("hard", "schnapsen", "classic", 9, 1)]
LIMIT = {"easy": 2048, "normal": 2048, "hard": 20 * 1024}


def test_levels_play_legally_within_their_heap_budget_in_the_vm():
    steps = [SCRIPT] + ["run(%r, %r, %r, %d, %d)" % case for case in CASES]
    # 1.5 KB of Python stack, as on a board that keeps the default CIRCUITPY_PYSTACK_SIZE:
    # the solver then sticks to endgames that fit instead of failing.
    rows = mpvm.run_json(steps, timeout=300, pystack_bytes=1536)
    assert len(rows) == len(CASES)
    for row in rows:
        assert row["decisions"] >= 5, row
        assert row["heap"] < LIMIT[row["level"]], json.dumps(row)
