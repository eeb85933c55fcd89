"""A program that runs the game itself asks our AI for moves through observed(...),
knowing only what its seat has seen: the view it builds is the engine's own, move for move."""
import pytest

from shared_rules.actions import MARRY, DECLARE_MARRIAGE, EXCHANGE, DRAW
from shared_rules.ai import make_player
from shared_rules.cards import parse, mask_of
from shared_rules.match import Match
from shared_rules.rules import Rules
from shared_rules.observed import observed

FIELDS = ("seat", "hand", "trump", "trump_card", "exchange_card", "talon_left", "closed", "phase2",
          "pending_draw", "lead", "leader", "to_act", "won", "tricks", "melds", "meld_points",
          "closed_opp_tricks", "points", "opp_points", "opp_known", "played", "unseen", "legal")


class Observer:
    """What one seat of a deal has seen, gathered as an outside host would: its own cards,
    the face-up trump, every card played, every marriage and exchange announced."""

    def __init__(self, seat, deal):
        self.seat = seat
        self.deal = deal                   # read only for what is public, or this seat's own
        self.marriages = []
        self.exchanges = []
        self.face_up = deal.trump_card

    def saw(self, seat, action):
        d = self.deal
        if MARRY <= action < EXCHANGE:
            self.marriages.append((seat, (action & 31) >> 3))
        if action == EXCHANGE:
            self.exchanges.append((seat, self.face_up))
        if d.trump_card >= 0:
            self.face_up = d.trump_card

    def view(self):
        d = self.deal
        return observed(d.rules, self.seat, d.hands[self.seat], self.face_up, d.talon_left,
                        (d.won[0], d.won[1]), d.lead, self.marriages, self.exchanges, d.closed,
                        d.closed_opp_tricks)


@pytest.mark.parametrize("rules", ("standard", "schnapsen", "hoyle", "russian", "idiots", "three-handed"))
def test_a_host_plays_through_observed_views(rules):
    played = marriages = 0
    for seed in range(12):
        m = Match(Rules(rules), "classic", seed)
        d = m.deal
        me = seed % 2
        watch = Observer(me, d)
        ai = make_player("hard" if seed % 3 == 0 else "normal", seed, budget=200)
        other = make_player("normal", seed + 1)
        while not d.ended:
            s = d.to_act
            if d.pending_draw:                 # the host deals the cards drawn
                d.apply(DRAW)
                watch.saw(s, DRAW)
                continue
            if s == me:
                v = watch.view()
                want = d.view(me)
                for f in FIELDS:
                    assert getattr(v, f) == getattr(want, f), (rules, seed, f)
                a = ai.choose(v)
                assert a in want.legal
                if MARRY <= a < DECLARE_MARRIAGE:
                    assert (a & 31) & 7 in (2, 3) and d.hands[me] >> (a & 31 ^ 1) & 1   # leads K or Q
                    marriages += 1
                played += 1
            else:
                a = other.choose(d.view(s))
            d.apply(a, s)
            watch.saw(s, a)
    assert played > 60 and (marriages or rules == "russian")


def _cards(text):
    return mask_of([parse(t) for t in text.split()])


def test_observations_that_do_not_fit_are_refused():
    r = Rules("schnapsen")
    hand = _cards("AH TH KH QH JH")
    ok = observed(r, 0, hand, parse("JC"), 10)
    assert MARRY + parse("QH") in ok.legal and ok.unseen & _cards("AS AC") and not ok.opp_known
    with pytest.raises(ValueError, match="pack"):
        observed(r, 0, hand, parse("JC"), 8)                     # 2 cards unaccounted for
    with pytest.raises(ValueError, match="two places"):
        observed(r, 0, hand, parse("JC"), 8, won=(_cards("AH AS"), 0))
    with pytest.raises(ValueError, match="not in this game"):
        observed(r, 0, _cards("9H TH KH QH JH"), parse("JC"), 10)   # no nines in Schnapsen
    with pytest.raises(ValueError, match="trump card"):
        observed(r, 0, hand, parse("JH"), 10)                    # the turn-up is in my hand
    with pytest.raises(ValueError, match="trump card"):
        observed(Rules("idiots"), 0, _cards("AH TH KH QH JH 9H"), parse("JC"), 12)


def test_the_opponents_marriage_partner_and_exchanged_card_are_known_until_played():
    r = Rules("standard")
    hand = _cards("AC TC KC QC JC 9C")
    # Seat 1 won a trick, exchanged its 9 of diamonds for the turn-up (the A of diamonds) and
    # led the Q of hearts as a marriage: the K of hearts and the A of diamonds are in its hand.
    v = observed(r, 0, hand, parse("9D"), 10, won=(0, _cards("AS TS")), lead=parse("QH"),
                 marriages=[(1, 2)], exchanges=[(1, parse("AD"))])
    assert v.opp_known == _cards("KH AD")
    assert v.meld_points == (0, 20) and v.opp_points == 21 + 20
