"""Determinized search (the Hard level): sample worlds, play each candidate out, average.

A world is one guess at the hidden cards consistent with the seat's View: the
opponent's hand (its shown cards plus random unseen ones) and the talon order. For each
world every candidate action is played out on masks - the greedy policy for both seats
while the talon is open, then the exact solver once nobody draws and few enough cards
remain - and scored in game points (card points break ties). All candidates share the
same worlds, so their difference is measured, not their luck.

Every two-handed deal of the family: the trump of Idiots' Sixty-six moves with each
marriage in the playouts too, and deals without declaring are played to the last trick.

Anytime and bounded: `budget` work units (cards played in playouts plus solver nodes) and
an optional deadline on a caller's clock, read every CHECK_EVERY units inside a round
(about 20 ms on a board); only complete rounds (one world, every candidate) count. All
state lives in lists made once, so a decision allocates only a few small objects (and a
float per look at the clock) however long it runs.
"""
from shared_rules.cards import SUIT_MASK, POINTS, low_card, count, mask_points, pack
from shared_rules.actions import MARRY, DECLARE_MARRIAGE, EXCHANGE, CLOSE, DRAW
from shared_rules.rng import Rng
from shared_rules.ai.anytime import Rounds, ABORT
from shared_rules.rules import marriage_points
from shared_rules.ai.solver import Solver
from shared_rules.ai import greedy

NO_STACK = -99998
_FOLLOW = {"beat": 0, "suit": 1, "trump": 2}
MAX_ROUNDS = 500    # enough to rank the candidates; more only repeats the same worlds
SCALE = 32          # a game point; card points (difference / 8) only break ties


class Search(Rounds):
    def __init__(self, seed=0, budget=6000, solve_cards=8, tt_size=512):
        self.seed = seed
        self.budget = budget
        self.solve_cards = solve_cards   # in a sampled world, solve exactly from this many cards
        self.stack_cards = 12            # the most the board's Python stack lets the solver take
        self.solve_at = solve_cards      # this decision's: solve_cards, or all of it if exact
        self.rng = Rng(seed)
        self.solver = Solver(tt_size)
        self.pool = [0] * 32
        self.stock = [0] * 16
        self.cands = [0] * 20
        self.total = [0] * 20
        self.vals = [0] * 20
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
        exact = self.talon_left == 0
        # Every card known (talon used up): one exact solve. Sampled worlds: greedy playouts
        # until few cards are left, as exact play in a guessed world is mostly overconfident.
        self.solve_at = min(12 if exact else self.solve_cards, self.stack_cards)
        rng = self.rng
        # Reseeded per decision: the same seed and view always give the same move.
        rng.reseed((self.seed & 0xFFFF) * 7919 ^ view.hand ^ (view.played >> 1) ^ (view.opp_known >> 2))
        return self.run(n, rng, 1 if exact else MAX_ROUNDS)

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
            if n < 20:
                cands[n] = a
                n += 1
        return n

    # ---- worlds ----------------------------------------------------------------------------

    def _prepare(self, v):
        """Copy the constants of the decision out of the view."""
        self.seat = v.seat
        self.rules = v.rules
        self.game = v.rules.game
        self.declaring = v.rules.declaring
        self.shown = count(v.melds[0]) + count(v.melds[1])
        self.trump = v.trump
        self.tm = SUIT_MASK[v.trump]
        self.xcard = v.exchange_card
        self.may_exchange = v.rules.exchange != "off"
        self.p2m = v.rules.phase2_marriages
        self.dm = v.rules.declare_marriage
        self.fol = _FOLLOW[v.rules.follow]
        self.talon_left = v.talon_left
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
        self.unseen = v.unseen
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

    # ---- playing one candidate out -------------------------------------------------------------

    def rollout(self, action):
        """Game-point value (x SCALE) for the searching seat of `action` in the current
        world, or ABORT when the budget or deadline ran out first."""
        seat = self.seat
        h = self.h
        cp = self.cp
        mp = self.mp
        t = self.t
        h[seat] = self.hand
        h[1 - seat] = self.w_opp_hand
        cp[0] = self.w_cp0
        cp[1] = self.w_cp1
        mp[0] = self.w_mp0
        mp[1] = self.w_mp1
        t[0] = self.w_t0
        t[1] = self.w_t1
        stock = self.stock
        n = self.nstock
        top = 0
        trump = self.trump
        tm = self.tm
        shown = self.shown
        tcard = self.trump_card
        if tcard >= 0:
            stock[n - 1] = tcard
        closed = self.closed
        cot = self.cot
        phase2 = self.phase2
        ls = self.leader
        lead = self.lead
        played = self.played
        fol = self.fol
        ncards = count(h[0]) + count(h[1]) + (lead >= 0)
        forced = action
        units = 1           # every playout costs something, even one that ends at once
        if self.pending:
            if forced == CLOSE:
                closed = ls
                cot = t[1 - ls]
                phase2 = True
            else:
                h[ls] |= 1 << stock[0]
                h[1 - ls] |= 1 << stock[1]
                top = 2
                ncards += 2
                if top == n:
                    phase2 = True
                    tcard = -1
            forced = -1
        while True:
            if phase2 and forced < 0 and ncards <= self.solve_at:
                self.units += units
                units = 0
                v = self._solve(ls, lead, trump, closed, cot, ncards)
                if v != NO_STACK:
                    return v
            if lead < 0:
                hand = h[ls]
                if forced >= 0:
                    a = forced
                    forced = -1
                else:
                    a = self._policy_lead(ls, hand, played, phase2, closed, n - top, tcard, trump)
                if a == EXCHANGE:
                    x = self.xcard
                    h[ls] = hand ^ (1 << x) ^ (1 << tcard)
                    stock[n - 1] = x
                    tcard = x
                    continue
                if a == CLOSE:
                    closed = ls
                    cot = t[1 - ls]
                    phase2 = True
                    continue
                if a >= MARRY:
                    c = a & 31
                    mp[ls] += marriage_points(self.game, c >> 3, trump, shown)
                    shown += 1
                    if self.game == "idiots":           # the marriage's suit is trump now
                        trump = c >> 3
                        tm = SUIT_MASK[trump]
                    if a >= DECLARE_MARRIAGE:
                        self.units += units
                        return self._end_declared(ls, closed, cot)
                    a = c
                lead = a
                h[ls] = hand ^ (1 << a)
                units += 1
                continue
            fs = 1 - ls
            hand = h[fs]
            if forced >= 0:
                f = forced
                forced = -1
            else:
                legal = hand
                if phase2:
                    same = hand & SUIT_MASK[lead >> 3]
                    if same:
                        legal = same
                        if fol == 0 and same & ((1 << lead) - 1):
                            legal = same & ((1 << lead) - 1)
                    elif fol != 1 and hand & tm:
                        legal = hand & tm
                out = self.live & ~played & ~hand & ~(1 << lead)
                f = greedy.follow(hand, legal, lead, trump, out, phase2, cp[fs] + mp[fs], cp[ls] + mp[ls])
            h[fs] = hand ^ (1 << f)
            units += 1
            ncards -= 2
            played |= (1 << lead) | (1 << f)
            if greedy.beats(f, lead, trump):
                w = fs
            else:
                w = ls
            cp[w] += POINTS[lead & 7] + POINTS[f & 7]
            t[w] += 1
            ls = w
            lead = -1
            if not h[w]:
                self.units += units
                return self._end_last(w, closed, cot)
            if cp[w] + mp[w] >= 66 and self.declaring:
                self.units += units
                return self._end_declared(w, closed, cot)
            if not phase2:
                h[w] |= 1 << stock[top]
                h[1 - w] |= 1 << stock[top + 1]
                top += 2
                ncards += 2
                if top == n:
                    phase2 = True
                    tcard = -1
            if self.spent(units):
                return ABORT

    value = rollout         # what Rounds.run scores a candidate with

    def _policy_lead(self, ls, hand, played, phase2, closed, talon, tcard, trump):
        """The greedy leader: exchange, declare or show a marriage, then a card."""
        t = self.t
        if not phase2 and self.may_exchange and hand >> self.xcard & 1 and t[ls] and talon >= 2:
            return EXCHANGE
        if not phase2 or self.p2m:
            for k in range(-1, 4):                            # trumps first, as Normal
                s = trump if k < 0 else k
                if s < 0 or k >= 0 and s == trump:
                    continue
                c = s * 8 + 2
                if hand >> c & 3 == 3:
                    if self.dm and t[ls] and self.cp[ls] + self.mp[ls] + (40 if s == trump else 20) >= 66:
                        return DECLARE_MARRIAGE + c
                    return MARRY + c + 1
        out = self.live & ~played & ~hand
        if tcard >= 0:
            out &= ~(1 << tcard)
        if not phase2:
            return greedy.lead_phase1(hand, out, trump)
        return greedy.lead_phase2(hand, out, trump, talon == 0 or closed < 0)

    # ---- ends ---------------------------------------------------------------------------------

    def _counted(self, s):
        return self.cp[s] + self.mp[s] if self.t[s] else self.cp[s]

    def _value(self, w, gp):
        """Scaled value for the searching seat when seat w scores gp."""
        seat = self.seat
        diff = self._counted(seat) - self._counted(1 - seat)
        v = gp * SCALE + (diff >> 3)
        return v if w == seat else -gp * SCALE + (diff >> 3)

    def _end_declared(self, w, closed, cot):
        sv = self.solver
        sv.closed = closed
        sv.cot = cot
        if self._counted(w) >= 66:
            return self._value(w, sv.won(w, self._counted(1 - w), self.t[1 - w]))
        gp = 3 if self.t[1 - w] == 0 else 2
        if closed == w:
            f = sv.failed(self._counted(w))
            gp = f if f > gp else gp
        return self._value(1 - w, gp)

    def _end_last(self, w, closed, cot):
        sv = self.solver
        sv.closed = closed
        sv.cot = cot
        v = sv.last(w, self._counted(w), self._counted(1 - w), self.t[w], self.t[1 - w])
        if closed < 0:
            self.cp[w] += 10
        if v >= 0:
            return self._value(w, v)
        return self._value(1 - w, -v)

    def _solve(self, ls, lead, trump, closed, cot, ncards):
        """Exact value of the world from here (the lead, if made, is in `lead`); NO_STACK
        (and smaller endgames from now on) if the board's Python stack is too small."""
        sv = self.solver
        sv.setup(self.rules, trump, closed, cot)
        remaining = self.budget - self.units
        sv.budget(remaining if remaining > 1 else 1, self.clock, self.deadline)
        h = self.h
        cp = self.cp
        mp = self.mp
        t = self.t
        fs = 1 - ls
        try:
            v = sv.lead(h[ls], h[fs], ls, cp[ls], cp[fs], t[ls], t[fs], mp[ls], mp[fs], -9, 9, lead)
        except RuntimeError:        # "pystack exhausted": CIRCUITPY_PYSTACK_SIZE too small
            self.units += sv.nodes
            self.stack_cards = self.solve_at = ncards - 2
            return NO_STACK
        self.units += sv.nodes
        if sv.aborted:
            return ABORT
        if ls != self.seat:
            v = -v
        return v * SCALE
