"""tools.arena plays duplicate matches of any game and reports figures as JSON."""
import json

import pytest

from tools import arena


@pytest.mark.parametrize("rules,extra", [("standard", []), ("four-handed", []),
                                         ("american", ["--players", "3"]), ("idiots", [])])
def test_arena_reports_normal_beating_random(capsys, rules, extra):
    arena.main(["normal", "random", "--deals", "20", "--rules", rules, "--procs", "1", "--json"] + extra)
    res = json.loads(capsys.readouterr().out)
    assert res["deals"] >= 40 and res["matches"] >= 2
    assert res["a_won"] + res["b_won"] + res["no_score"] == res["deals"]
    low, high = res["gp_per_deal_ci95"]
    assert low <= res["gp_per_deal"] <= high
    assert res["gp_per_deal"] > 0 and res["deals_won_pct"] > 50


def test_duplicate_places_see_the_same_cards():
    """In a duplicate pair the k-th deal of each match is dealt from the same shuffle."""
    from shared_rules.family import new_match
    from shared_rules.rules import Rules
    a = new_match(Rules("four-handed"), "casual", 7)
    b = new_match(Rules("four-handed"), "casual", 7)
    assert a.deal.dealt_hands == b.deal.dealt_hands


def test_unknown_player_is_refused():
    with pytest.raises(SystemExit):
        arena.main(["normal", "nobody", "--deals", "1"])
