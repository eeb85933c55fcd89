"""Easy and Normal: rules of thumb over masks (shared_rules.ai.greedy); Normal also
solves the endgame exactly once the talon is used up, within a small node budget.

Easy forgets the cards already played and closes only with a wide margin; Normal tracks
every card seen. Both cost a few mask operations per decision, plus Normal's bounded
endgame solve. In "classic" counting they declare for themselves at 66 (and with a
marriage where the rules allow); in "casual" the Match does it. The player object is
shared_rules.ai.Normal; the team games are shared_rules.ai.team_greedy's.
"""
from shared_rules.cards import SUIT_MASK, low_card, count, mask_points, pack
from shared_rules.actions import MARRY, DECLARE_MARRIAGE, EXCHANGE, CLOSE, DECLARE, DRAW
from shared_rules.ai import greedy

# An object constant: without one, the end of this module's compiled constants points at
# the next heap block and keeps whatever lands there alive (a whole search: 5.7 KB)
# (host_tests/test_firmware_memory.py, test_no_module_pins_the_heap_block_after_its_constants)
HEAP_ANCHOR = "ends in its own block"

# Normal solves an endgame exactly once the talon is used up and it holds SOLVE_CARDS
# cards or fewer, within SOLVE_NODES solver nodes (under 30 ms on a board); else greedy.
SOLVE_CARDS = 4
SOLVE_NODES = 100


def choose(player, view, clock=None, deadline=None):
    """The move of `player` (a shared_rules.ai.Normal: Easy or Normal) in a two- or
    three-handed deal."""
    if player.easy:                                         # no endgame to solve
        return decide(view, True, None, player.rng)
    if player.solver is None:
        from shared_rules.ai.solver import Solver
        player.solver = Solver(64)
    player.solver.nodes = 0
    a = decide(view, False, player.solver, player.rng, clock, deadline)
    player.work = player.solver.nodes
    return a


# ---- the greedy decision -------------------------------------------------------------------


def _out(view, easy):
    """Cards the opponent may hold (or that wait in the talon) as far as the player knows.

    Easy forgets the cards already played; Normal tracks every card seen."""
    if easy:
        out = pack(view.rules.ranks) & ~view.hand
        if view.lead >= 0:
            out &= ~(1 << view.lead)
        return out
    return view.unseen | view.opp_known


def _marriage(view):
    """The K of the best marriage the seat may show now (trumps first), or -1."""
    best = -1
    for a in view.legal:
        if MARRY <= a < DECLARE_MARRIAGE and a & 7 == 2:
            c = a & 31
            if best < 0 or c >> 3 == view.trump:
                best = c
    return best


def should_close(view, easy):
    """Close when counted points plus the sure tricks (card points) reach 66."""
    if view.phase2 or view.closed >= 0:
        return False
    sure = greedy.sure_points(view.hand, _out(view, easy), view.trump, view.rules.higher)
    if not sure:
        return False
    seat = view.seat
    total = mask_points(view.won[seat]) + view.meld_points[seat] + sure
    return total >= (80 if easy else 66)


def decide(view, easy, solver, rng, clock=None, deadline=None):
    legal = view.legal
    if not legal:
        return None
    if view.to_act != view.seat:
        if CLOSE in legal and should_close(view, easy):
            return CLOSE
        return None
    if view.pending_draw:
        if CLOSE in legal and should_close(view, easy):
            return CLOSE
        return DRAW
    hand = view.hand
    trump = view.trump
    out = _out(view, easy)
    if view.lead < 0:
        if DECLARE in legal and view.points >= 66:
            return DECLARE
        k = _marriage(view)
        if k >= 0 and DECLARE_MARRIAGE + k in legal and view.tricks[view.seat] \
                and view.points + view.meld_value(k) >= 66:
            return DECLARE_MARRIAGE + k
        if EXCHANGE in legal:
            return EXCHANGE
        if CLOSE in legal and should_close(view, easy):
            return CLOSE
        if k >= 0:
            return MARRY + k + 1       # lead the queen, keep the king
        if not view.phase2:
            if easy and rng is not None and rng.below(4) == 0:
                side = hand & ~SUIT_MASK[trump]
                if side:
                    return _nth_card(side, rng.below(count(side)))
            first = greedy.lead_phase1(hand, out, trump)
        else:
            first = greedy.lead_phase2(hand, out, trump, view.talon_left == 0, view.rules.higher)
    else:
        if EXCHANGE in legal:
            return EXCHANGE
        cards = 0
        for a in legal:
            if a < 32:
                cards |= 1 << a
        seat = view.seat
        first = greedy.follow(hand, cards, view.lead, trump, out, view.phase2, view.rules.higher,
                              mask_points(view.won[seat]) + view.meld_points[seat],
                              mask_points(view.won[1 - seat]) + view.meld_points[1 - seat])
    if solver is not None and view.talon_left == 0 and count(hand) <= SOLVE_CARDS:
        best = solve_best(view, solver, first, SOLVE_NODES, clock, deadline)
        if best >= 0:
            return best
    return first


def _nth_card(m, i):
    while i:
        m &= m - 1
        i -= 1
    return low_card(m)


def solve_best(view, solver, first, limit, clock=None, deadline=None):
    """The exact best card once every card is known (talon used up), preferring `first`
    among equals; -1 if the solver ran out of nodes or time."""
    seat = view.seat
    other = 1 - seat
    hand = view.hand
    opp = view.unseen | view.opp_known
    trump = view.trump
    cp = mask_points(view.won[seat])
    cpo = mask_points(view.won[other])
    mp = view.meld_points[seat]
    mpo = view.meld_points[other]
    t = view.tricks[seat]
    to = view.tricks[other]
    cot = view.closed_opp_tricks
    solver.setup(view.rules, trump, view.closed, cot)
    solver.budget(limit, clock, deadline if deadline is not None else 0)
    try:
        return _solve_best(view, solver, first, seat, other, hand, opp, trump, cp, cpo, mp, mpo, t, to)
    except RuntimeError:            # "pystack exhausted": CIRCUITPY_PYSTACK_SIZE too small
        return -1


def _solve_best(view, solver, first, seat, other, hand, opp, trump, cp, cpo, mp, mpo, t, to):
    best = -1
    best_v = -9
    # `first` first: its value bounds the rest, which must beat it strictly to be chosen.
    for i in range(-1, len(view.legal)):
        a = first if i < 0 else view.legal[i]
        if a >= DECLARE_MARRIAGE or i >= 0 and a == first:
            continue
        c = a & 31
        if view.lead < 0:
            ml = mp + (view.meld_value(c) if a >= MARRY else 0)
            v = solver.lead(hand ^ (1 << c), opp, seat, cp, cpo, t, to, ml, mpo, best_v, 9, c)
        else:
            v = -solver.trick(opp, hand ^ (1 << c), other, view.lead, c, cpo, cp, to, t, mpo, mp, -9, -best_v)
        if solver.aborted:
            return -1
        if v > best_v:
            best_v = v
            best = a
    return best
