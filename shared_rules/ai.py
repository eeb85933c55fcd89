"""Computer opponents: make_player(level) for "easy", "normal" and "hard", and hints.

Every player sees only its seat's View (never the Deal) and answers
`choose(view, clock=None, deadline=None)` with one action int from `view.legal`:

- its own turn (view.to_act == view.seat): a card, a marriage, EXCHANGE, CLOSE, DECLARE
  or DECLARE_MARRIAGE; with a draw pending (view.pending_draw) DRAW or CLOSE.
- not its turn (view.to_act != view.seat): only the Russian option of closing before the
  opponent leads; it returns CLOSE or None (None = pass, let the opponent act).
- None as well when view.legal is empty (the deal is over).

`clock` is a zero-argument function giving seconds (time.monotonic on the board) and
`deadline` an absolute time on it; only Hard needs them (Easy and Normal are a few mask
operations). Hard also stops at its work budget: make_player("hard", seed, budget=N),
or set player.budget. In "classic" counting the players declare for themselves at 66
(and declare with a marriage where the rules allow); in "casual" the Match does it.

`hint(view)` -> (action, reason): the move this player would make and a one-line reason
("lead the Q of hearts and meld 20"); the firmware shows it as "Hint: " + reason.
`fallback(view)`: the cheapest sensible move, for use after a MemoryError.

Every game of the family is covered: three-handed and Idiots' are two-handed deals (Hard
plays Normal's move in Idiots', whose trump moves); the team games' views (team.TeamView)
go to shared_rules.team_ai at every level.
"""
from shared_rules.cards import SUIT_MASK, POINTS, SUIT_WORDS, words, low_card, count, mask_points, pack
from shared_rules.actions import MARRY, DECLARE_MARRIAGE, EXCHANGE, CLOSE, DECLARE, DRAW
from shared_rules.rng import Rng
from shared_rules.rules import marriage_points, TEAM_GAMES
from shared_rules import greedy

LEVELS = ("easy", "normal", "hard")
HARD_BUDGET = 20000      # work units: about 0.3 s mean, 0.7 s worst in the MicroPython VM, under 1.5 s on a board
NORMAL_SOLVE = 400       # solver nodes Normal spends on an endgame before it plays greedily
HARD_TABLE = 256         # transposition-table entries (4 ints each) of Hard's solver


def make_player(level, seed=0, **options):
    """A computer player; options: budget=, solve_cards= (hard only)."""
    if level == "easy":
        return Greedy(True, seed)
    if level == "normal":
        return Greedy(False, seed)
    if level == "hard":
        return Hard(seed, **options)
    raise ValueError("unknown level " + repr(level) + "; choose easy, normal or hard")


def fallback(view):
    """A greedy move that needs no memory beyond the view (after a MemoryError)."""
    return decide(view, False, None, None)


class Greedy:
    """Easy and Normal: rules of thumb over masks, plus an exact endgame for Normal."""

    def __init__(self, easy, seed=0):
        self.easy = easy
        self.level = "easy" if easy else "normal"
        self.rng = Rng(seed)
        self.solver = None
        if not easy:
            from shared_rules.solver import Solver
            self.solver = Solver(64)

    def choose(self, view, clock=None, deadline=None):
        return decide(view, self.easy, self.solver, self.rng, clock, deadline)

    def hint(self, view):
        return _hint(self, view)


class Hard:
    """Determinized search (shared_rules.search) seeded with Normal's move."""

    level = "hard"

    def __init__(self, seed=0, budget=HARD_BUDGET, solve_cards=None):
        from shared_rules.search import Search
        if solve_cards is None:
            solve_cards = 12 if budget >= 20000 else 8
        self.search = Search(seed, budget, solve_cards, HARD_TABLE)
        self.rng = Rng(seed)

    @property
    def budget(self):
        return self.search.budget

    @budget.setter
    def budget(self, n):
        self.search.budget = n

    def choose(self, view, clock=None, deadline=None):
        first = decide(view, False, self.search.solver, self.rng, clock, deadline)
        if first is None or first >= DECLARE_MARRIAGE and first != CLOSE and first != DRAW:
            return first
        if view.to_act != view.seat or view.rules.game != "two" and view.rules.game != "three":
            return first    # the search models the two-handed deal with one trump for the deal
        return self.search.choose(view, first, clock, deadline)

    def hint(self, view):
        return _hint(self, view)


def _hint(player, view):
    if view.rules.game in TEAM_GAMES:
        return _team_ai().hint(view)
    a = player.choose(view)
    return a, reason(view, a)


def _team_ai():
    from shared_rules import team_ai      # loaded only for the team games
    return team_ai


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


def _meld(view, k):
    return marriage_points(view.rules.game, k >> 3, view.trump, count(view.melds[0]) + count(view.melds[1]))


def should_close(view, easy):
    """Close when counted points plus the sure tricks (card points) reach 66."""
    if view.phase2 or view.closed >= 0:
        return False
    sure = greedy.sure_points(view.hand, _out(view, easy), view.trump)
    if not sure:
        return False
    seat = view.seat
    total = mask_points(view.won[seat]) + view.meld_points[seat] + sure
    return total >= (80 if easy else 66)


def decide(view, easy, solver, rng, clock=None, deadline=None):
    legal = view.legal
    if not legal:
        return None
    if view.rules.game in TEAM_GAMES:
        return _team_ai().choose(view)
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
                and view.points + _meld(view, k) >= 66:
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
            first = greedy.lead_phase2(hand, out, trump, view.talon_left == 0)
    else:
        if EXCHANGE in legal:
            return EXCHANGE
        cards = 0
        for a in legal:
            if a < 32:
                cards |= 1 << a
        first = greedy.follow(hand, cards, view.lead, trump, out, view.phase2)
    if solver is not None and view.talon_left == 0 and count(hand) <= 6:
        best = solve_best(view, solver, first, NORMAL_SOLVE, clock, deadline)
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
    first_v = -9
    for a in view.legal:
        if a >= DECLARE_MARRIAGE:
            continue
        c = a & 31
        if view.lead < 0:
            ml = mp + (_meld(view, c) if a >= MARRY else 0)
            v = solver.lead(hand ^ (1 << c), opp, seat, cp, cpo, t, to, ml, mpo, best_v - 1, 9, c)
        else:
            v = -solver.trick(opp, hand ^ (1 << c), other, view.lead, c, cpo, cp, to, t, mpo, mp, -9, 1 - best_v)
        if solver.aborted:
            return -1
        if a == first:
            first_v = v
        if v > best_v:
            best_v = v
            best = a
    if first_v >= best_v:
        return first
    return best


# ---- reasons -------------------------------------------------------------------------------


def reason(view, a):
    """One line saying why action `a` is a good move in `view`."""
    if a is None:
        return "wait for your opponent's move"
    trump = view.trump
    if a == DRAW:
        return "draw from the talon"
    if a == CLOSE:
        return "close the talon: your sure tricks should take you to 66"
    if a == DECLARE:
        return "declare: you have " + str(view.points) + " points"
    if a == EXCHANGE:
        return "exchange " + words(view.exchange_card) + " for " + words(view.trump_card)
    c = a & 31
    if a >= DECLARE_MARRIAGE:
        return "show the marriage in " + SUIT_WORDS[c >> 3] + " (" + str(_meld(view, c)) + ") and declare 66"
    if a >= MARRY:
        return "lead " + words(c) + " and meld " + str(_meld(view, c))
    if view.lead >= 0:
        lead = view.lead
        n_legal = 0
        for x in view.legal:
            if x < 32:
                n_legal += 1
        if greedy.beats(c, lead, trump):
            verb = "trump " if (c ^ lead) >= 8 else "take "
            return verb + words(lead) + " with " + words(c) + " for " + \
                str(POINTS[lead & 7] + POINTS[c & 7]) + " points"
        if n_legal == 1:
            return "play " + words(c) + ": it is your only legal card"
        return "give " + words(c) + ": it is the card you lose least by"
    if view.phase2:
        out = view.unseen | view.opp_known
        if greedy.sure_winner(c, view.hand, out, trump, view.talon_left == 0):
            if c >> 3 == trump and out & SUIT_MASK[trump]:
                return "lead " + words(c) + " to draw your opponent's trumps"
            return "lead " + words(c) + ": it wins the trick"
        return "lead " + words(c) + ": it gives your opponent the fewest points"
    return "lead " + words(c) + ": a cheap card that gives little away"
