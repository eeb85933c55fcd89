"""The playouts of Hard's two-handed search (shared_rules.ai.search): one candidate action
played in a sampled world and the deal played out on masks - the greedy policy for both
seats while the talon is open, then the exact solver once nobody draws and few enough
cards remain - and scored in game points as the engine scores the deal (card points
break ties). Idiots' Sixty-six: the trump moves with each marriage here too.

A mixin of Search: it plays the world Search._sample dealt, with the constants
Search._prepare copied out of the view, counts its work in self.units and stops when
self.spent() (shared_rules.ai.anytime) says time or work ran out. A module of its own so
that the board compiles the search in two halves: compiling a module takes several times
its size in heap for a moment.
"""
from shared_rules.cards import SUIT_MASK, POINTS, count
from shared_rules.actions import MARRY, DECLARE_MARRIAGE, EXCHANGE, CLOSE
from shared_rules.ai.anytime import ABORT
from shared_rules.rules import marriage_points
from shared_rules.ai import greedy

# An object constant: without one, the end of this module's compiled constants points at
# the next heap block and keeps whatever lands there alive (a whole search: 5.7 KB)
# (host_tests/test_firmware_memory.py, test_no_module_pins_the_heap_block_after_its_constants)
HEAP_ANCHOR = "ends in its own block"

NO_STACK = -99998
SCALE = 32          # a game point; card points (difference / 8) only break ties


class Playouts:
    scale = SCALE       # a game point of margin, in values

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
        tm = SUIT_MASK[trump]
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
        fol = self.solver.follow
        game = self.rules.game
        declaring = self.rules.declaring
        higher = self.rules.higher
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
                    mp[ls] += marriage_points(game, c >> 3, trump, shown)
                    shown += 1
                    if game == "idiots":                # the marriage's suit is trump now
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
                        if fol == 0 and same & higher[lead & 7] << (lead & 24):
                            legal = same & higher[lead & 7] << (lead & 24)
                    elif fol != 1 and hand & tm:
                        legal = hand & tm
                out = self.live & ~played & ~hand & ~(1 << lead)
                f = greedy.follow(hand, legal, lead, trump, out, phase2, higher, cp[fs] + mp[fs], cp[ls] + mp[ls])
            h[fs] = hand ^ (1 << f)
            units += 1
            ncards -= 2
            played |= (1 << lead) | (1 << f)
            if greedy.beats(f, lead, trump, higher):
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
            if cp[w] + mp[w] >= 66 and declaring:
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

    def _policy_lead(self, ls, hand, played, phase2, closed, talon, tcard, trump):
        """The greedy leader: exchange, declare or show a marriage, then a card."""
        t = self.t
        rules = self.rules
        if not phase2 and rules.exchange != "off" and hand >> self.xcard & 1 and t[ls] and talon >= 2:
            return EXCHANGE
        if not phase2 or rules.phase2_marriages:
            for k in range(-1, 4):                            # trumps first, as Normal
                s = trump if k < 0 else k
                if s < 0 or k >= 0 and s == trump:
                    continue
                c = s * 8 + 2
                if hand >> c & 3 == 3:
                    dm = rules.declare_marriage
                    if dm and t[ls] and self.cp[ls] + self.mp[ls] + (40 if s == trump else 20) >= 66:
                        return DECLARE_MARRIAGE + c
                    return MARRY + c + 1
        out = self.live & ~played & ~hand
        if tcard >= 0:
            out &= ~(1 << tcard)
        if not phase2:
            return greedy.lead_phase1(hand, out, trump)
        return greedy.lead_phase2(hand, out, trump, talon == 0 or closed < 0, rules.higher)

    # ---- ends ---------------------------------------------------------------------------------

    def _counted(self, s):
        return self.cp[s] + self.mp[s] if self.t[s] else self.cp[s]

    def _value(self, w, gp):
        """Scaled value for the searching seat when seat w scores gp (self.ties: card
        points break ties)."""
        seat = self.seat
        tie = (self._counted(seat) - self._counted(1 - seat)) >> 3 if self.ties else 0
        return (gp if w == seat else -gp) * SCALE + tie

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
