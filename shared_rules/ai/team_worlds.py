"""The worlds of Hard's team search (shared_rules.ai.team_search): what the other seats
may hold, and random deals of the unseen cards within it.

A world deals the unseen cards to the other hands consistently with the seat's TeamView:
its hand, the table, and what the plays so far have shown (a seat that did not follow
suit has none of it; one that did not trump then has no trumps; one that did not beat
the winning card holds nothing above it, in the suit led or in trumps). Hands are 8-bit
rank masks per seat and suit, wh[seat * 4 + suit]; on them the ranking (Rules.higher,
per rank) tells which ranks beat which, and `top` which rank of a mask beats the others.

A module of its own so that the board compiles the search in two halves: compiling a
module takes several times its size in heap for a moment, and the whole search at once
did not fit beside a team match.
"""
from shared_rules.cards import POINTS
from shared_rules.ai.team_greedy import top

# An object constant: without one, the end of this module's compiled constants points at
# the next heap block and keeps whatever lands there alive (a whole search: 5.7 KB)
# (host_tests/test_firmware_memory.py, test_no_module_pins_the_heap_block_after_its_constants)
HEAP_ANCHOR = "ends in its own block"

# Tables over the 8-bit rank mask of one suit (bit r is rank r: A T K Q J 9 8 7, richest first).
HIGH8 = bytearray(256)      # rank of its richest card (the lowest bit)
LOW8 = bytearray(256)       # rank of its poorest card (the highest bit)
for _m in range(1, 256):
    _r = 0
    while not _m >> _r & 1:
        _r += 1
    HIGH8[_m] = _r
    _r = 7
    while not _m >> _r & 1:
        _r -= 1
    LOW8[_m] = _r


class TeamWorlds:
    """_prepare(view) once per decision, then _sample(rng) per world: wh holds its hands,
    `dead` the points nobody holds (the cut-throat widow, a moon bidder's partner)."""

    def __init__(self):
        self.wh = [0] * 16          # the world's hands
        self.cannot = [0] * 16      # cards a seat cannot hold, per seat and suit
        self.need = [0] * 4         # hidden cards per seat (the rest of the pool is dead)
        self.pool = [0] * 32        # the unseen cards
        self.units = 0
        self.higher = None          # the ranking `top` was made for (Rules.higher)

    def _prepare(self, v):
        """Who holds how many hidden cards, the unseen pool, and what each seat cannot hold."""
        higher = v.rules.higher
        if higher != self.higher:
            # Per rank mask, the rank of the card that beats the others: HIGH8 where the
            # ranking is bit order (A 10 K Q J 9 8 7), else a table of the ranking's own.
            self.higher = higher
            self.top = HIGH8
            for r in range(len(higher)):
                if higher[r] != (1 << r) - 1:
                    self.top = bytearray(1 << len(higher))
                    for m in range(1, len(self.top)):
                        self.top[m] = top(m, higher)
                    break
        self.seat = v.seat
        self.n = n = v.n
        self.game_four = v.rules.game == "four"
        self.tricks_done = 0
        for s in range(v.sides):
            self.tricks_done += v.tricks[s]
        # Hidden cards per seat: the deal's hand size less what it has played.
        size = 8 if self.game_four else (21 if n == 3 else 24) // n      # cut-throat: 3 in the widow
        on_table = len(v.trick)
        for s in range(n):
            self.need[s] = size - self.tricks_done
            k = (s - v.leader) % n
            if v.out >= 0 and (v.out - v.leader) % n < k:
                k -= 1
            if s != v.out and k < on_table:
                self.need[s] -= 1
        self.need[v.seat] = 0
        if v.out >= 0:
            self.need[v.out] = 0        # its hand lies face down: dead cards, like the widow
        self.turnup = -1
        if self.game_four and v.seat != n - 1 and not v.played >> v.trump_card & 1:
            self.turnup = v.trump_card  # still in the dealer's hand
            self.need[n - 1] -= 1
        pool = self.pool
        k = 0
        for x in range(4):
            m = (v.unseen >> (8 * x)) & 0xFF
            while m:
                r = HIGH8[m]
                m &= m - 1
                pool[k] = x * 8 + r
                k += 1
        self.n_pool = k
        for i in range(16):
            self.cannot[i] = 0
        self._infer(v)
        for x in range(4):
            self.wh[v.seat * 4 + x] = (v.hand >> (8 * x)) & 0xFF

    def _infer(self, v):
        """Mark the cards each seat has shown it cannot hold, from the plays so far."""
        cannot = self.cannot
        higher = self.higher
        trump = v.trump if self.game_four else -1
        k = 0
        ls = bs = br = 0
        for e in v.history:
            a = e & 255
            if a >= 64:
                continue                                  # bids and passes
            s = e >> 8
            c = a & 31
            x = c >> 3
            r = c & 7
            if trump < 0:
                trump = x                                 # the first card led names trump
            if k == 0:
                ls, bs, br = x, x, r
            else:
                if x != ls:
                    cannot[s * 4 + ls] = 0xFF
                    if x != trump and trump >= 0:
                        cannot[s * 4 + trump] = 0xFF
                    elif x == trump and bs == trump and not higher[br] >> r & 1:     # did not over-trump
                        cannot[s * 4 + trump] |= higher[br]
                elif bs == ls and not higher[br] >> r & 1:
                    cannot[s * 4 + ls] |= higher[br]
                if x == bs and higher[br] >> r & 1 or x != bs and x == trump:
                    bs, br = x, r
            k += 1
            if k == v.n - (v.out >= 0):
                k = 0

    def _sample(self, rng):
        """Deal the pool to the hidden hands, seat by seat, within what each seat can hold;
        after a few failures, ignoring what the plays have shown."""
        pool = self.pool
        n_pool = self.n_pool
        wh = self.wh
        seat = self.seat
        for attempt in range(6):
            self.units += 1 + n_pool // 2               # a deal of the pool costs time too
            rng.permute(pool, n_pool)
            for s in range(self.n):
                if s != seat:
                    for x in range(4):
                        wh[s * 4 + x] = 0
            taken = 0                                    # pool positions used, as bits
            ok = True
            for s in range(self.n):
                need = self.need[s]
                if s == seat or not need:
                    continue
                for i in range(n_pool):
                    if taken >> i & 1:
                        continue
                    c = pool[i]
                    x = c >> 3
                    if attempt < 5 and self.cannot[s * 4 + x] >> (c & 7) & 1:
                        continue
                    wh[s * 4 + x] |= 1 << (c & 7)
                    taken |= 1 << i
                    need -= 1
                    if not need:
                        break
                if need:
                    ok = False
                    break
            if ok:
                break
        if self.turnup >= 0:
            d = (self.n - 1) * 4 + (self.turnup >> 3)
            wh[d] |= 1 << (self.turnup & 7)
        self.dead = 0
        for i in range(n_pool):
            if not taken >> i & 1:
                self.dead += POINTS[pool[i] & 7]
