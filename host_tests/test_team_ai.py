"""The team games' greedy player: legal, sees only its view, bids from its hand, feeds a
winning partner and beats random play."""
import pytest

from shared_rules.rules import Rules
from shared_rules.team import dealt, TeamDeal
from shared_rules.rng import Rng
from shared_rules.cards import listed, pack, parse, mask_of
from shared_rules.actions import BID, PASS, MARRY
from shared_rules.ai import team_greedy

GAMES = [("four-handed", {}), ("american", {}), ("american", {"players": 3}), ("american", {"players": 2})]


def _play(rules, order, greedy_side, seed):
    rng = Rng(seed)
    d = dealt(rules, order[:])
    while not d.ended:
        s = d.to_act
        if d.side(s) == greedy_side:
            view = d.view(s)
            a, reason = team_greedy.hint(view)
            assert a in d.legal_actions() and reason
        else:
            acts = d.legal_actions()
            if acts[0] == PASS:
                acts = acts[:2] if rng.below(3) else acts[:1]
            a = acts[rng.below(len(acts))]
        d.apply(a)
    return d.result


@pytest.mark.parametrize("name,opts", GAMES)
def test_plays_only_legal_actions_and_outscores_random(name, opts):
    rules = Rules(name, **opts)
    sides = 2 if rules.players == 4 else rules.players
    mine = theirs = 0
    for seed in range(150):
        order = listed(pack(rules.ranks))
        Rng(seed).permute(order)
        for side in range(sides):
            _, gp, _ = _play(rules, order, side, seed + 1)
            mine += gp[side]
            theirs += (sum(gp) - gp[side]) / (sides - 1)
    assert mine > theirs * 1.3, (mine, theirs)


def _hand(text):
    return mask_of([parse(t) for t in text.split()])


def test_bids_a_strong_hand_and_passes_a_weak_one():
    rules = Rules("american", players=2)
    strong = _hand("AH TH KH QH AS TS AC TC KD QD AD 9S")
    weak = _hand("9H JH 9S JS 9C JC 9D JD QS KC QD KH")
    rest = pack(rules.ranks) & ~strong
    d = TeamDeal(rules, [strong, rest])
    action, reason = team_greedy.hint(d.view(0))
    assert action >= BID + 3, reason
    rest = pack(rules.ranks) & ~weak
    d = TeamDeal(rules, [weak, rest])
    assert team_greedy.choose(d.view(0)) == PASS


def test_leads_a_marriage_and_feeds_a_partner_who_wins():
    rules = Rules("american")
    hands = [_hand("KH QH 9C JC 9D JD"), _hand("AS TS KS QS JS 9S"),
             _hand("AH TH AC TC AD TD"), _hand("JH 9H KC QC KD QD")]
    d = TeamDeal(rules, hands)
    for seat, bid in ((0, BID + 2), (1, PASS), (2, PASS), (3, PASS)):
        d.apply(bid, seat)
    action, reason = team_greedy.hint(d.view(0))
    assert action in (MARRY + parse("KH"), MARRY + parse("QH")) and "40" in reason
    d.apply(MARRY + parse("KH"))
    d.apply(parse("AS"))                     # seat 1 has no hearts; spades are no trump
    action, reason = team_greedy.hint(d.view(2))
    assert action == parse("AH")             # must beat the K of hearts: the ace wins
    d.apply(action)
    action, reason = team_greedy.hint(d.view(3))
    assert action == parse("9H") or action == parse("JH")
