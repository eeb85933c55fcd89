"""Random legal play, allocation-free: the benchmark's players and the fuzzers' driver.

`random_play` picks among the cards only (plus the obligatory draw and a declaration at
66), which is how the throughput benchmark plays; `random_action` picks among every
legal action, so property tests reach closing, exchanging, melding and wrong calls.
"""
from shared_rules.cards import count, nth
from shared_rules.actions import DRAW, DECLARE


def random_play(deal, rng):
    """Apply one random card play for the seat to act (drawing and declaring as needed)."""
    if deal.pending_draw:
        deal.apply(DRAW)
    elif deal.lead < 0 and deal.points(deal.leader) >= 66:
        deal.apply(DECLARE)
    else:
        m = deal.legal_plays()
        deal.apply(nth(m, rng.below(count(m))))


def random_action(deal, rng):
    """Apply one uniformly random legal action of any seat that may act (allocates a list)."""
    acts = deal.legal_actions()
    other = 1 - deal.to_act
    extra = deal.legal_actions(other) if deal.lead < 0 else ()
    n = len(acts) + len(extra)
    i = rng.below(n)
    if i < len(acts):
        deal.apply(acts[i])
    else:
        deal.apply(extra[i - len(acts)], other)

