"""tools.arena plays duplicate matches of any game and reports figures as JSON."""
import json

import pytest

from shared_rules.rules import Rules
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


def test_rdeep_plays_out_depth_tricks_and_scores_the_share_of_points():
    """As the published RdeepBot: `depth` counts tricks (the move's own first), and a world
    scores mine / (mine + theirs) even when the deal ended inside the playout."""
    from tools.baselines import RDeep, sample_world
    from shared_rules.match import Match
    from shared_rules.rng import Rng
    ended = 0
    for seed in range(40):
        m = Match(Rules("schnapsen"), "casual", seed)
        d = m.deal
        for _ in range(seed % 20):                 # some moves in: draws, leads, replies
            d.apply(d.legal_actions()[0])
            if d.ended:
                break
        if d.ended:
            continue
        v = d.view(d.to_act)
        t0 = v.tricks[0] + v.tricks[1]
        for depth in (1, 3):
            bot = RDeep(seed, 1, depth)
            w = sample_world(v, Rng(seed))
            if w.pending_draw:
                w.apply(w.legal_actions()[0])
            w.apply([a for a in w.legal_actions() if a < 32][0])
            share = bot._playout(w, v.seat, t0 + depth)
            assert 0 <= share <= 1
            if w.ended:
                ended += 1
                total = w.points(0) + w.points(1)
                assert share == (w.points(v.seat) / total if total else 0.5)
            else:
                assert w.tricks[0] + w.tricks[1] == t0 + depth, (seed, depth)
    assert ended


@pytest.mark.parametrize("rules,options", [("standard", {}), ("hoyle", {}), ("russian", {}), ("schnapsen", {}),
                                           ("three-handed", {}), ("idiots", {}), ("four-handed", {}),
                                           ("american", {}), ("american", {"players": 3}),
                                           ("american", {"players": 2})])
def test_the_arenas_hard_plays_the_devices_budget(rules, options):
    """The arena's `hard` is the device's Hard at its work budget (HARD_BUDGET of the game:
    what the real firmware does in 1.5 s, less a margin; docs/AI.md) and no clock: a
    decision that searches until the budget stops it does that much work, give or take
    CHECK_EVERY units."""
    from shared_rules.ai import CHECK_EVERY
    from shared_rules.ai.hard import HARD_BUDGET
    from shared_rules.family import new_match
    r = Rules(rules, **options)
    budget = HARD_BUDGET[r.game]
    m = new_match(r, "casual", 5)
    d = m.deal
    works = []
    while not d.ended and len(works) < 6:
        s = d.to_act
        p = arena.make("hard", len(works))
        assert p.searcher(r.game).budget == budget
        a = p.choose(d.view(s))
        works.append(p.work)
        m.apply(a, s)
    assert budget - CHECK_EVERY <= max(works) <= budget + CHECK_EVERY, works
