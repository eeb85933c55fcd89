"""Determinized search (the Hard level): sample worlds, play each candidate out, average.

A world is one guess at the hidden cards consistent with the seat's View: the
opponent's hand (its shown cards plus random unseen ones) and the talon order. For each
world every candidate action is played out on masks (shared_rules.ai.playouts: the
greedy policy for both seats while the talon is open, then the exact solver once nobody
draws and few enough cards remain) and scored in game points (card points break ties).
All candidates share the same worlds, so their difference is measured, not their luck.

Every two-handed deal of the family: the trump of Idiots' Sixty-six moves with each
marriage in the playouts too, and deals without declaring are played to the last trick.

Anytime and bounded: `budget` work units (cards played in playouts plus solver nodes) and
an optional deadline on a caller's clock, read every CHECK_EVERY units inside a round
(about 20 ms on a board); only complete rounds (one world, every candidate) count. All
state lives in lists made once, so a decision allocates only a few small objects (and a
float per look at the clock) however long it runs.
"""
from shared_rules.cards import low_card, count, mask_points, pack
from shared_rules.actions import MARRY, DECLARE_MARRIAGE, CLOSE, DRAW
from shared_rules.rng import Rng
from shared_rules.ai.anytime import Rounds
from shared_rules.ai.solver import Solver
from shared_rules.ai.playouts import Playouts

MAX_ROUNDS = 500    # enough to rank the candidates; more only repeats the same worlds


class Search(Playouts, Rounds):
    def __init__(self, seed=0, budget=6000, solve_cards=8, tt_size=512):
        self.seed = seed
        self.budget = budget
        self.solve_cards = solve_cards   # in a sampled world, solve exactly from this many cards
        self.stack_cards = 12            # the most the board's Python stack lets the solver take
        self.solve_at = solve_cards      # this decision's: solve_cards, or all of it if exact
        self.rng = Rng(seed)
        self.solver = Solver(tt_size)
        # Sized to a two-handed deal of 24 cards: at most 18 unseen (Idiots' has no
        # turn-up), a talon of 12, and 7 candidates (a hand of 6, closing).
        self.pool = [0] * 18
        self.stock = [0] * 12
        self.cands = [0] * 8
        self.total = [0] * 8
        self.vals = [0] * 8
        self.h = [0, 0]
        self.cp = [0, 0]
        self.mp = [0, 0]
        self.t = [0, 0]
        self.units = 0
        self.rounds = 0
        self.clock = None
        self.deadline = 0

    # ---- the decision --------------------------------------------------------------------

    def choose(self, view, first, clock=None, deadline=None):
        """The best action among the view's legal ones; `first` (the greedy choice) goes
        first among the candidates and wins ties. Returns first if no round completes."""
        self.units = 0
        n = self._candidates(view, first)
        if n == 1:
            return first
        self._prepare(view)
        self.clock = clock
        self.deadline = deadline if deadline is not None else 0
        return self.run(n, self.rng, self.max_rounds)

    def _candidates(self, view, first):
        """Fill self.cands with the actions worth searching; return how many."""
        legal = view.legal
        marry = 0
        for a in legal:
            if MARRY <= a < DECLARE_MARRIAGE:
                marry |= 1 << (a & 31)
        cands = self.cands
        cands[0] = first
        n = 1
        for a in legal:
            if a == first or a >= DECLARE_MARRIAGE and a != CLOSE and a != DRAW:
                continue
            if a < 32 and marry >> a & 1:
                continue        # a marriage card goes out as a marriage
            if n < 8:
                cands[n] = a
                n += 1
        return n

    # ---- worlds ----------------------------------------------------------------------------

    def _prepare(self, v):
        """Take in the decision: its constants out of the view, how to search it, the
        worlds' seed (shared_rules.ai.weigh calls it too)."""
        exact = v.talon_left == 0
        # Every card known (talon used up): one exact solve. Sampled worlds: greedy playouts
        # until few cards are left, as exact play in a guessed world is mostly overconfident.
        self.solve_at = min(12 if exact else self.solve_cards, self.stack_cards)
        self.max_rounds = 1 if exact else MAX_ROUNDS
        # Reseeded per decision: the same seed and view always give the same move.
        self.rng.reseed((self.seed & 0xFFFF) * 7919 ^ v.hand ^ (v.played >> 1) ^ (v.opp_known >> 2))
        self.seat = v.seat
        self.rules = v.rules
        self.shown = count(v.melds[0]) + count(v.melds[1])
        self.trump = v.trump
        self.xcard = v.exchange_card
        self.trump_card = v.trump_card if v.talon_left else -1
        self.closed = v.closed
        self.cot = v.closed_opp_tricks
        self.solver.setup(v.rules, v.trump, v.closed, self.cot)
        self.phase2 = v.phase2
        self.pending = v.pending_draw
        self.leader = v.leader
        self.lead = v.lead
        self.played = v.played
        self.hand = v.hand
        self.opp_known = v.opp_known
        self.w_cp0 = mask_points(v.won[0])
        self.w_cp1 = mask_points(v.won[1])
        self.w_mp0 = v.meld_points[0]
        self.w_mp1 = v.meld_points[1]
        self.w_t0 = v.tricks[0]
        self.w_t1 = v.tricks[1]
        self.live = pack(v.rules.ranks) & ~v.played
        n_opp = count(self.live) - count(v.hand) - v.talon_left
        self.n_draw = n_opp - count(v.opp_known)
        self.n_pool = count(v.unseen)
        pool = self.pool
        m = v.unseen
        i = 0
        while m:
            b = m & -m
            m ^= b
            pool[i] = low_card(b)
            i += 1

    def _sample(self, rng):
        """Deal a random world: the opponent's hidden cards and the face-down talon order."""
        pool = self.pool
        n = self.n_pool
        rng.permute(pool, n)
        opp = self.opp_known
        k = self.n_draw
        for i in range(k):
            opp |= 1 << pool[i]
        self.w_opp_hand = opp
        stock = self.stock
        s = 0
        for i in range(k, n):
            stock[s] = pool[i]
            s += 1
        if self.trump_card >= 0:
            stock[s] = self.trump_card
            s += 1
        self.nstock = s
        self.units += 1 + n // 8        # shuffling costs time too

    value = Playouts.rollout     # what Rounds.run scores a candidate with
