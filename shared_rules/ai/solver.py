"""Exact alpha-beta over masks for perfect-information play once nobody draws.

Once the talon is used up or closed and both hands are known (the real deal after the
talon is exhausted, or one sampled world), the rest of the deal is a small two-player
game. Values are game points (-4..4) for the player on lead, negamax style; where the
rules let a player declare, one who reaches 66 on lead declares at once (declaring later
never scores more, since the loser's points and tricks only grow); the last trick plays
the deal out as the engine does (Idiots': the higher total wins).

One Python frame per trick (the follower's replies and the trick itself are inline), so
the depth is at most 6 frames: the board's Python stack is small. A transposition table
of preallocated int lists keyed by the masks; no allocation per node. `nodes` counts
completed tricks tried (the work unit); the clock is read every CHECK_EVERY nodes.
"""
from shared_rules.cards import SUIT_MASK, POINTS, low_card
from shared_rules.ai import CHECK_EVERY

# An object constant: without one, the end of this module's compiled constants points at
# the next heap block and keeps whatever lands there alive (a whole search: 5.7 KB)
# (host_tests/test_firmware_memory.py, test_no_module_pins_the_heap_block_after_its_constants)
HEAP_ANCHOR = "ends in its own block"

_FOLLOW = {"beat": 0, "suit": 1, "trump": 2}
LOSS = -9   # below every game-point value
CHECK_MASK = CHECK_EVERY - 1    # the clock is read every CHECK_EVERY nodes (a power of two)


class Solver:
    def __init__(self, tt_size=512):
        self.tt_a = [0] * tt_size
        self.tt_b = [0] * tt_size
        self.tt_c = [0] * tt_size
        self.tt_v = [0] * tt_size
        self.tt_mask = tt_size - 1
        self.gen = 0
        self.nodes = 0
        self.limit = 1 << 29
        self.aborted = False
        self.clock = None
        self.deadline = 0

    def setup(self, rules, trump, closed, closed_opp_tricks):
        """Fix the constants of one position (rules, trump, who closed); clears the table."""
        self.trump = trump
        self.follow = _FOLLOW[rules.follow]
        self.over = rules.higher          # the ranking: per rank, the ranks above it
        self.closed = closed
        self.cot = closed_opp_tricks
        self.russian_fail = rules.closer_fail == "russian"
        self.schwarz_points = rules.schwarz == "points"
        self.last_trick_wins = rules.played_out == "last-trick"
        self.higher = rules.played_out == "higher"
        self.stop = 66 if rules.declaring else 999      # points that end the deal at once
        self.p2m = rules.phase2_marriages
        self.dm = rules.declare_marriage and rules.phase2_marriages
        self.gen = (self.gen + 1) & 0xFFFF

    def budget(self, limit, clock=None, deadline=0):
        """Stop (aborted = True, values meaningless) after `limit` nodes or at the deadline."""
        self.nodes = 0
        self.limit = limit
        self.aborted = False
        self.clock = clock
        self.deadline = deadline

    # ---- scoring ---------------------------------------------------------------------

    def won(self, ws, pl, tl):
        """Game points seat `ws` scores by reaching 66 against a loser with counted points
        pl and tl tricks."""
        if self.closed == 1 - ws:
            return self.failed(pl)
        if (pl == 0) if self.schwarz_points else (tl == 0):
            return 3
        return 2 if pl < 33 else 1

    def failed(self, closer_points):
        """Game points the closer's opponent scores when the closer fails."""
        if self.russian_fail:
            return 4 if closer_points == 0 else (3 if closer_points < 33 else 2)
        return 3 if self.cot == 0 else 2

    def last(self, ws, pw, pl, tw, tl):
        """Value for ws, who won the last trick (pw, pl counted, the last-trick 10 not yet;
        the loser may hold 66 if it never declared, e.g. a human in classic counting)."""
        if self.closed >= 0:
            if pw >= 66:
                return self.won(ws, pl, tl)
            v = self.failed(pl if self.closed != ws else pw)
            return v if self.closed != ws else -v
        if self.last_trick_wins:
            return self.won(ws, pl, tl)
        if self.higher:
            if pw + 10 == pl:
                return 0
            return self.won(ws, pl, tl) if pw + 10 > pl else -self.won(1 - ws, pw + 10, tw)
        if pw + 10 >= 66:
            return 0 if pl >= 66 else self.won(ws, pl, tl)
        return -self.won(1 - ws, pw + 10, tw) if pl >= 66 else 0

    # ---- search ------------------------------------------------------------------------

    def trick(self, hl, hf, ls, c, f, pl, pf, tl, tf, ml, mf, alpha, beta):
        """Value for the leader (seat ls) after lead c (already out of hl) and reply f
        (already out of hf); ml includes any marriage shown with c."""
        pts = POINTS[c & 7] + POINTS[f & 7]
        if (f ^ c) < 8:
            lw = not self.over[c & 7] >> (f & 7) & 1
        else:
            lw = f >> 3 != self.trump
        if lw:
            p = pl + pts + ml
            if not hl:
                return self.last(ls, p, pf + mf if tf else pf, tl + 1, tf)
            if p >= self.stop:
                return self.won(ls, pf + mf if tf else pf, tf)
            return self.lead(hl, hf, ls, pl + pts, pf, tl + 1, tf, ml, mf, alpha, beta, -1)
        p = pf + pts + mf
        if not hl:
            return -self.last(1 - ls, p, pl + ml if tl else pl, tf + 1, tl)
        if p >= self.stop:
            return -self.won(1 - ls, pl + ml if tl else pl, tl)
        return -self.lead(hf, hl, 1 - ls, pf + pts, pl, tf + 1, tl, mf, ml, -beta, -alpha, -1)

    def lead(self, hl, hf, ls, pl, pf, tl, tf, ml, mf, alpha, beta, forced):
        """Value for seat ls on lead with hand hl against hf (points pl/pf are card points,
        ml/mf marriage points counted once that seat has a trick). forced >= 0: the lead
        is already made with that card (hl no longer holds it), only replies are searched."""
        if self.aborted:
            return 0
        # Transposition table.
        x = hl ^ (hf >> 1) ^ (pl << 3) ^ (pf << 11) ^ (ls << 19) ^ (forced & 63) << 20
        x = (x ^ (x >> 10) ^ (x >> 20)) & self.tt_mask
        # 30 bits: card points 7 each, marriages in 20s (Idiots' reach 200) 4 each, the lead 5.
        kc = pl | pf << 7 | ls << 14 | (tl > 0) << 15 | (tf > 0) << 16 | (ml // 20) << 17 | (mf // 20) << 21
        kc |= (forced + 1) << 25 if forced >= 0 else 0
        v = self.tt_v[x]
        if v >> 8 == self.gen and self.tt_a[x] == hl and self.tt_b[x] == hf and self.tt_c[x] == kc:
            lo = (v >> 4 & 15) - 8
            hi = (v & 15) - 8
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        alpha0 = alpha
        trump = self.trump
        tm = SUIT_MASK[trump]
        p2m = self.p2m and forced < 0
        if p2m and self.dm and tl:
            # Hoyle: show a marriage that reaches 66 and stop without playing.
            for s in range(4):
                if hl >> (s * 8 + 2) & 3 == 3 and pl + ml + (40 if s == trump else 20) >= 66:
                    return self.won(ls, pf + mf if tf else pf, tf)
        best = LOSS
        fol = self.follow
        over = self.over
        stop = self.stop
        lm = hl if forced < 0 else 1 << forced
        while lm:
            b = lm & -lm
            lm ^= b
            c = low_card(b)
            h2 = hl ^ b if forced < 0 else hl
            ml2 = ml
            if p2m and (c & 6) == 2 and hl >> (c ^ 1) & 1:
                ml2 = ml + (40 if c >> 3 == trump else 20)
            higher = over[c & 7] << (c & 24)
            same = hf & SUIT_MASK[c >> 3]
            if same:
                legal = same
                if fol == 0 and same & higher:
                    legal = same & higher
            elif fol != 1 and hf & tm:
                legal = hf & tm
            else:
                legal = hf
            worst = 9
            a2 = alpha if alpha > best else best
            while legal:
                fb = legal & -legal
                legal ^= fb
                self.nodes += 1
                if self.nodes >= self.limit:
                    self.aborted = True
                    return 0
                if not self.nodes & CHECK_MASK and self.clock is not None and self.clock() >= self.deadline:
                    self.aborted = True
                    return 0
                b2 = beta if beta < worst else worst
                # The trick, inline (as in trick()) so a deal costs one frame per trick.
                f = low_card(fb)
                pts = POINTS[c & 7] + POINTS[f & 7]
                if (f ^ c) < 8:
                    lw = not fb & higher
                else:
                    lw = f >> 3 != trump
                if lw:
                    p = pl + pts + ml2
                    if not h2:
                        v = self.last(ls, p, pf + mf if tf else pf, tl + 1, tf)
                    elif p >= stop:
                        v = self.won(ls, pf + mf if tf else pf, tf)
                    else:
                        v = self.lead(h2, hf ^ fb, ls, pl + pts, pf, tl + 1, tf, ml2, mf, a2, b2, -1)
                else:
                    p = pf + pts + mf
                    if not h2:
                        v = -self.last(1 - ls, p, pl + ml2 if tl else pl, tf + 1, tl)
                    elif p >= stop:
                        v = -self.won(1 - ls, pl + ml2 if tl else pl, tl)
                    else:
                        v = -self.lead(hf ^ fb, h2, 1 - ls, pf + pts, pl, tf + 1, tl, mf, ml2, -b2, -a2, -1)
                if v < worst:
                    worst = v
                    if worst <= a2:
                        break
            if worst > best:
                best = worst
                if best >= beta:
                    break
        if self.aborted:
            return 0
        if best <= alpha0:
            lo, hi = -8, best
        elif best >= beta:
            lo, hi = best, 7
        else:
            lo, hi = best, best
        self.tt_a[x] = hl
        self.tt_b[x] = hf
        self.tt_c[x] = kc
        self.tt_v[x] = self.gen << 8 | (lo + 8) << 4 | (hi + 8)
        return best
