"""Property tests: many random legal deals of every rule set (and random option mixes),
driven through every action type by randplay.random_action, checked against the
independent reading of the rules in rules_oracle. (That every action legal_actions leaves
out is refused is test_legality's.)
"""
from hypothesis import given, settings, strategies as st, HealthCheck, assume

from rules_oracle import Oracle, card_places, snapshot, allowed, names
from shared_rules.cards import listed, pack, mask_points
from shared_rules.deal import dealt
from shared_rules.ai.randplay import random_action
from shared_rules.record import to_record, deal_from_record, parse_entry
from shared_rules.report import replay
from shared_rules.rng import Rng
from shared_rules.rules import Rules, OPTIONS

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# The options of a two-handed deal (RULES.md sections 3 and 4) and their values.
DEAL_OPTIONS = {
    "pack": (24, 20), "hand_size": (6, 5), "exchange_rank": ("9", "J"),
    "exchange": ("leader", "any", "off"), "phase2_marriages": (False, True),
    "declare_marriage": (True, False), "follow": ("beat", "suit", "trump"),
    "closing": ("leader", "either"), "close_min_talon": (2, 5),
    "closer_fail": ("standard", "russian"), "schwarz": ("tricks", "points"),
    "played_out": ("last-trick", "carry", "annul"),
}


def overrides():
    """Any mix of the two-handed options (even a 20-card pack with 6-card hands); the test
    skips the mixes Rules refuses."""
    return st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in DEAL_OPTIONS.items()})


def new_deal(rules, seed):
    order = listed(pack(rules.ranks))
    Rng(seed).permute(order)
    return dealt(rules, order)


def check_points(deal, oracle):
    """The 120 card points are all somewhere; the won piles hold what the engine counts."""
    places = card_places(deal)
    assert sum(mask_points(m) for m in places) == 120
    for s in (0, 1):
        assert deal.card_points[s] == mask_points(deal.won[s]) + oracle.bonus[s]
        assert mask_points(deal.won[s]) == oracle.trick_points[s]


def check_clone(deal):
    """A clone (the AI's search copy) holds the same state and moves on independently."""
    copy = deal.clone()
    want, got = snapshot(deal), snapshot(copy)
    del want["log"], got["log"]
    assert got == want
    acts = copy.legal_actions()
    if acts:
        before = snapshot(deal)
        copy.apply(acts[-1])
        assert snapshot(deal) == before


def check_record_rebuilds(deal):
    """The record written at any moment rebuilds exactly this state (drawn or not)."""
    rec = to_record(deal)
    again = deal_from_record(rec)
    for entry in rec["actions"]:
        again.apply(*reversed(parse_entry(entry)))
    want, got = snapshot(deal), snapshot(again)
    for k in ("rules", "log"):
        del want[k], got[k]
    assert got == want


def play_and_check(rules, seed):
    deal = new_deal(rules, seed)
    rng = Rng(seed)
    oracle = Oracle(rules, deal.trump_card)
    trump = "CSHD"[deal.trump]
    while not deal.ended:
        check_points(deal, oracle)
        check_clone(deal)
        assert deal.phase2 == oracle.phase2()
        if deal.lead >= 0 and deal.phase2:          # exactly the cards the duty allows
            follower = deal.to_act
            ok = allowed(rules.follow, names(deal.hands[follower]), names(1 << deal.lead)[0], trump)
            assert sorted(names(deal.legal_plays())) == sorted(ok)
        hands = deal.hands[:]
        seat, action = random_action(deal, rng)
        oracle.observe(seat, action, hands[seat])  # asserts the played card kept the duty
        check_record_rebuilds(deal)
    check_points(deal, oracle)
    if oracle.declarer is None and deal.closed < 0:     # played out, talon open
        assert sum(deal.card_points) == 130
    assert deal.points(0) == oracle.points(0) and deal.points(1) == oracle.points(1)
    assert deal.result == oracle.result(), (deal.result, oracle.result())
    # the written record replays to the same end
    rec = to_record(deal)
    out = replay(rec)
    assert out["status"] == "ended"
    assert (out["winner"], out["game_points"], out["reason"]) == deal.result
    assert out["points"] == [deal.points(0), deal.points(1)]
    assert out["tricks"] == deal.tricks
    return deal


@SETTINGS
@given(st.sampled_from(Rules.NAMES), st.integers(0, 2 ** 31 - 1))
def test_random_deals_of_every_rule_set(name, seed):
    play_and_check(Rules(name), seed)


def test_two_handed_options_are_engine_options():
    for key, values in DEAL_OPTIONS.items():
        assert set(values) <= set(OPTIONS[key])


@SETTINGS
@given(st.sampled_from(Rules.NAMES), overrides(), st.integers(0, 2 ** 31 - 1))
def test_random_deals_with_random_options(name, options, seed):
    try:
        rules = Rules(name, **options)
    except ValueError:                 # a mix Rules refuses (test_legality checks those)
        assume(False)
    play_and_check(rules, seed)


def test_many_deals_per_rule_set_reach_every_ending():
    """A plain sweep of seeds: every rule set reaches its kinds of ending, all checked."""
    seen = {}
    for name in Rules.NAMES:
        rules = Rules(name)
        for seed in range(300):
            d = play_and_check(rules, seed)
            seen.setdefault(name, set()).add(d.result[2])
    for name in Rules.NAMES:
        assert {"declared", "wrong-declaration", "closer-failed"} <= seen[name], seen[name]
    assert "last-trick" in seen["standard"] and "lone-66" in seen["hoyle"] and "lone-66" in seen["russian"]
