"""Random legal play: the benchmark's players and the fuzzers' driver.

`random_play` picks among the cards only (plus the obligatory draw and a declaration at
66), which is how the throughput benchmark plays, allocation-free (`random_team_play`
likewise for the team games); `random_action` picks
among every legal action of both seats, so property tests reach closing, exchanging,
melding and wrong calls.
"""
from shared_rules.cards import LOW, TOP, count, nth
from shared_rules.actions import DRAW, DECLARE, DECLARE_MARRIAGE, EXCHANGE, CLOSE, BID, PASS

# Relative weights in random_action. A card (play or marry) is 16; a wrong call is rare
# so that most deals get far, a correct one likely but not certain (so undeclared 66s,
# played-out deals and both-over-66 endings happen too); closing is an occasional choice.
_CARD, _DRAW, _EXCHANGE, _CLOSE, _WRONG, _RIGHT = 16, 16, 16, 1, 1, 200


def random_play(deal, rng):
    """Apply one random card play for the seat to act (drawing and declaring as needed)."""
    if deal.pending_draw:
        deal.apply(DRAW)
    elif deal.lead < 0 and deal.rules.declaring and deal.points(deal.leader) >= 66:
        deal.apply(DECLARE)
    else:
        m = deal.legal_plays()
        deal.apply(nth(m, rng.below(count(m))))


def random_team_play(deal, rng):
    """Team games (team.TeamDeal): a random legal card; while bidding, a pass two times
    in three, else the lowest bid over the current one. Allocation-free."""
    m = deal.legal_plays()
    if m:
        deal.apply(_pick(m, rng))
    elif rng.below(3) or deal.bid >= 5:
        deal.apply(PASS)
    else:
        deal.apply(BID + deal.bid + 1)


def _pick(m, rng):
    """A uniformly random card of mask m. Cards 30 and 31 (the 32-card pack's 8 and 7 of
    diamonds) make m a big int on the board, where every operation allocates: they are
    split off once, and the rest is counted on a small int."""
    top = m >> TOP
    if not top:
        return nth(m, rng.below(count(m)))
    m &= LOW
    n = count(m)
    i = rng.below(n + (top & 1) + (top >> 1))
    if i < n:
        return nth(m, i)
    return TOP + i - n if top & 1 else TOP + 1


def _weight(deal, seat, action):
    if action < DECLARE_MARRIAGE:
        return _CARD
    if action < EXCHANGE:                      # declare-marriage: right if it reaches 66
        c = action & 31
        meld = 40 if c >> 3 == deal.trump else 20
        right = deal.tricks[seat] and deal.points(seat) + meld >= 66
        return _RIGHT if right else _WRONG
    if action == DECLARE:
        return _RIGHT if deal.points(seat) >= 66 else _WRONG
    if action == CLOSE:
        return _CLOSE
    if action == DRAW:
        return _DRAW
    return _EXCHANGE


def random_action(deal, rng):
    """Apply one random legal action of either seat (weighted, see above); returns (seat, action)."""
    seat = deal.to_act
    choices = [(seat, a) for a in deal.legal_actions(seat)]
    if deal.lead < 0:                          # e.g. a Russian close by the non-leader
        choices += [(1 - seat, a) for a in deal.legal_actions(1 - seat)]
    total = 0
    for s, a in choices:
        total += _weight(deal, s, a)
    i = rng.below(total)
    for s, a in choices:
        i -= _weight(deal, s, a)
        if i < 0:
            deal.apply(a, s)
            return s, a
