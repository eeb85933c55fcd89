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
            if n:                   # the first builds the player's tables (Normal's solver)
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


IMPORTS = r"""
import sys, json
import shared_rules.ai as ai
from shared_rules.rules import Rules
from shared_rules.family import new_match

def imports(level, rules, opts):
    for name in list(sys.modules):              # a fresh start for the AI's own modules
        if name.startswith("shared_rules.ai."):
            del sys.modules[name]
            delattr(ai, name.rsplit(".", 1)[1])
    m = new_match(Rules(rules, **opts), "casual", 3)
    d = m.deal
    while not d.ended:
        p = ai.make_player(level, len(d.log), budget=100) if level == "hard" else ai.make_player(level)
        s = d.to_act
        m.apply(p.choose(d.view(s)), s)
    got = sorted(n for n in sys.modules if n.startswith("shared_rules.ai."))
    print(json.dumps([level, rules, got, sorted(ai.modules(level, m.rules.game))]))
"""


def test_a_board_can_import_ahead_what_each_player_imports():
    """ai.modules(level, game) - what the device imports one a frame before the computer's
    first move - is exactly what a player of that level imports to play that game."""
    cases = [(level, rules, opts) for level in ("easy", "normal", "hard")
             for rules, opts in (("standard", {}), ("idiots", {}), ("four-handed", {}), ("american", {"players": 3}))]
    rows = mpvm.run_json([IMPORTS] + ["imports(%r, %r, %r)" % case for case in cases], timeout=300)
    assert len(rows) == len(cases)
    for level, rules, got, listed in rows:
        assert got == listed, (level, rules)
