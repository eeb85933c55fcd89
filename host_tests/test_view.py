"""shared_rules.view: a View shows a seat what it may know, and nothing else.

Checked over random deals of every rule set against the full state: `unseen` is exactly
the opponent's unknown cards plus the face-down talon, and `opp_known` is exactly what
was shown (marriage partners, the card taken by exchange, the turn-up drawn last).
"""
import pytest

from shared_rules.actions import MARRY, DECLARE_MARRIAGE, EXCHANGE, CLOSE
from shared_rules.cards import listed, pack
from shared_rules.deal import Deal, dealt
from shared_rules.ai.randplay import random_action
from shared_rules.rng import Rng
from shared_rules.rules import Rules

PLAIN = (int, bool, str, type(None))


def plain(value):
    """Only ints, strings, None and tuples/lists of them (and the shared Rules object)."""
    if isinstance(value, PLAIN) or isinstance(value, Rules):
        return True
    if isinstance(value, (tuple, list)):
        return all(plain(v) for v in value)
    return False


def face_down(deal):
    """The talon cards nobody has seen (the turn-up excluded, also once closed)."""
    m = 0
    for c in deal.stock[deal.top:len(deal.stock) - 1]:
        m |= 1 << c
    return m


def check_views(deal, shown):
    for seat in (0, 1):
        v = deal.view(seat)
        other = 1 - seat
        for key, value in v.__dict__.items():
            assert plain(value), "View.%s holds %r" % (key, type(value))
            assert value is not deal.stock and value is not deal.hands and not isinstance(value, Deal)
        assert v.hand == deal.hands[seat]
        assert v.opp_known == shown[other] and v.opp_known & ~deal.hands[other] == 0
        assert v.unseen == (deal.hands[other] & ~shown[other]) | face_down(deal)
        lead = (1 << deal.lead) if deal.lead >= 0 else 0
        assert v.played == deal.won[0] | deal.won[1] | lead
        assert (v.points, v.opp_points) == (deal.points(seat), deal.points(other))
        assert v.legal == deal.legal_actions(seat)
        assert v.trump_card == deal.trump_card and v.talon_left == deal.talon_left


@pytest.mark.parametrize("name", Rules.NAMES)
def test_views_over_random_deals(name):
    rules = Rules(name)
    kinds = set()
    for seed in range(150):
        order = listed(pack(rules.ranks))
        Rng(seed).permute(order)
        deal = dealt(rules, order)
        rng = Rng(seed * 7 + 1)
        shown = [0, 0]
        while not deal.ended:
            check_views(deal, shown)
            turnup = deal.trump_card
            seat, action = random_action(deal, rng)
            if MARRY <= action < DECLARE_MARRIAGE:
                shown[seat] |= 1 << ((action & 31) ^ 1)
                kinds.add("marriage")
            if DECLARE_MARRIAGE <= action < EXCHANGE:       # shown, both cards stay in hand
                shown[seat] |= 3 << (action & 30)
            if action == EXCHANGE:
                shown[seat] |= 1 << turnup
                kinds.add("exchange")
            if action < DECLARE_MARRIAGE:
                shown[seat] &= ~(1 << (action & 31))
            if turnup >= 0 and deal.trump_card < 0:       # the last draw: the loser took the turn-up
                shown[1 - deal.leader] |= 1 << (deal.stock[-1])
                kinds.add("turn-up")
        check_views(deal, shown)
    assert {"marriage", "turn-up"} <= kinds
    if rules.exchange != "off":
        assert "exchange" in kinds


def test_view_after_closing_keeps_the_turnup_out_of_unseen():
    rules = Rules("standard")
    order = listed(pack(rules.ranks))
    deal = dealt(rules, order)
    deal.apply(CLOSE)                    # before the first lead
    v = deal.view(1)
    assert v.closed == 0 and v.trump_card == deal.stock[-1]
    assert not v.unseen >> deal.trump_card & 1
