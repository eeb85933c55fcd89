"""Hard in the team games (four-handed, North American for 2-4): determinized search over
the hidden hands, and bids judged by playing the deal out for each of them.

A world deals the unseen cards to the other hands consistently with the seat's TeamView:
its hand, the table, and what the plays so far have shown (a seat that did not follow
suit has none of it; one that did not trump then has no trumps; one that did not beat
the winning card holds nothing above it, in the suit led or in trumps). In each world every candidate card is
played and the deal is played out by the greedy policy below for every seat; all
candidates share the worlds, and the best mean margin wins (my side's game points minus
the others' mean; points break ties). Normal's move goes first and wins ties.

Bidding (North American): in each world, for each bid and for passing, the bidding is
finished by the other seats as Normal would bid (team_greedy's estimate) and the deal
is played out from there.

Bounded like the two-handed search: a work budget (units: cards played in playouts) and
the caller's deadline, read every CHECK_EVERY units; only complete rounds count. Hands
in a world are 8-bit rank masks per seat and suit (h[seat * 4 + suit]), so no mask of the
32-card pack becomes a big int and a decision allocates only a few small objects.
"""
from shared_rules.cards import POINTS
from shared_rules.actions import MARRY, BID, PASS
from shared_rules.rng import Rng
from shared_rules.ai.anytime import Rounds, ABORT
from shared_rules.ai import team_greedy

SCALE = 32          # a game point; points (difference / 8) only break ties
MAX_ROUNDS = 300

# Tables over the 8-bit rank mask of one suit (bit r is rank r; a lower rank is higher).
HIGH8 = bytearray(256)      # rank of its highest card (the lowest bit)
LOW8 = bytearray(256)       # rank of its lowest card (the highest bit)
for _m in range(1, 256):
    _r = 0
    while not _m >> _r & 1:
        _r += 1
    HIGH8[_m] = _r
    _r = 7
    while not _m >> _r & 1:
        _r -= 1
    LOW8[_m] = _r
MARRIAGE = 0b1100           # the K and Q of a suit: ranks 2 and 3


class TeamSearch(Rounds):
    def __init__(self, seed=0, budget=3000):
        self.seed = seed
        self.budget = budget
        self.rng = Rng(seed)
        self.h = [0] * 16           # the hands while a playout runs
        self.wh = [0] * 16          # the world's hands
        self.cannot = [0] * 16      # cards a seat cannot hold, per seat and suit
        self.live = [0] * 4         # unplayed cards per suit (playout)
        self.wlive = [0] * 4
        self.pts = [0] * 4          # per side: card points, marriage points, tricks
        self.mp = [0] * 4
        self.tr = [0] * 4
        self.need = [0] * 4         # hidden cards per seat (the rest of the pool is dead)
        self.pool = [0] * 32
        self.cands = [0] * 16
        self.total = [0] * 16
        self.vals = [0] * 16
        self.units = 0
        self.rounds = 0
        self.trace = None           # a list: the playout appends (seat, action) (tests)

    # ---- decisions -------------------------------------------------------------------------

    def choose(self, view, first, clock=None, deadline=None):
        """The best card (or bid) for the view; `first` (Normal's) goes first, wins ties."""
        self.units = 0
        self.rounds = 0
        self.bidding = view.legal[0] == PASS
        n = self._candidates(view, first, self.bidding)
        if n == 1:
            return first
        self._prepare(view)
        self.clock = clock
        self.deadline = deadline if deadline is not None else 0
        rng = self.rng
        rng.state = ((self.seed & 0xFFFF) * 7919 ^ (view.hand & 0x3FFFFFF) ^ len(view.history) * 131) \
            % 1073741788 + 1
        return self.run(n, rng, MAX_ROUNDS)

    def value(self, action):
        """What Rounds.run scores a candidate with, in the current world."""
        return self._bid_value(action) if self.bidding else self.rollout(action)

    def _candidates(self, view, first, bidding):
        """Fill self.cands with the actions worth searching (Normal's first); how many."""
        cands = self.cands
        cands[0] = first
        n = 1
        for a in view.legal:
            if a == first or n >= 16:
                continue
            if not bidding and a < 32 and MARRY + a in view.legal:
                continue            # a marriage card goes out as a marriage
            cands[n] = a
            n += 1
        return n

    # ---- the world ---------------------------------------------------------------------------

    def _prepare(self, v):
        """Copy the decision's constants out of the view; infer what each seat cannot hold."""
        self.seat = v.seat
        self.n = n = v.n
        self.sides = v.sides
        self.side = v.side
        self.game_four = v.rules.game == "four"
        self.bidding_game = v.rules.game == "american"
        self.ten = v.rules.ten_of_trumps
        self.out = v.out
        self.bid = v.bid
        self.bidder = v.bidder
        self.high_bidder = -1                            # while bidding: who bid the most so far
        for p in range(n):
            if v.bids[p] > 0 and v.bids[p] == v.bid:
                self.high_bidder = p
        self.trump0 = v.trump
        self.trick0 = v.trick
        self.best0 = v.best
        self.best_seat0 = v.best_seat
        self.tricks_done = 0
        for s in range(v.sides):
            self.tricks_done += v.tricks[s]
        # Cut-throat: the widow's points go to the first trick's winner.
        self.widow_open = v.rules.game == "american" and n == 3 and self.tricks_done == 0
        # Points per side: card points (the widow's included once taken), marriages apart.
        for s in range(v.sides):
            meld = 0
            for p in range(n):
                if p % v.sides == s:
                    m = v.melds[p]
                    for x in range(4):
                        if m >> x & 1:
                            meld += 40 if x == v.trump else 20
            self.mp[s] = meld
            self.pts[s] = v.points[s] - (meld if v.tricks[s] else 0)
            self.tr[s] = v.tricks[s]
        self.wmp = self.mp[:]
        self.wpts = self.pts[:]
        self.wtr = self.tr[:]
        # Unplayed cards per suit; my hand.
        played = v.played
        hand = v.hand
        for x in range(4):
            self.wlive[x] = ~(played >> (8 * x)) & 0xFF & ((1 << v.rules.ranks) - 1)
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
        if self.game_four and v.seat != n - 1 and not played >> v.trump_card & 1:
            self.turnup = v.trump_card  # still in the dealer's hand
            self.need[n - 1] -= 1
        # The pool: every unseen card.
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
            self.wh[v.seat * 4 + x] = (hand >> (8 * x)) & 0xFF

    def _infer(self, v):
        """Mark the cards each seat has shown it cannot hold, from the plays so far."""
        cannot = self.cannot
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
                    elif x == trump and bs == trump and r > br:     # did not over-trump
                        cannot[s * 4 + trump] |= (1 << br) - 1
                elif bs == ls and r > br:
                    cannot[s * 4 + ls] |= (1 << br) - 1
                if x == bs and r < br or x != bs and x == trump:
                    bs, br = x, r
            k += 1
            if k == v.n - (v.out >= 0):
                k = 0

    def _sample(self, rng):
        """Deal the pool to the hidden hands (most constrained first), within what each
        seat can hold; after a few failures, ignoring what the plays have shown."""
        pool = self.pool
        n_pool = self.n_pool
        wh = self.wh
        seat = self.seat
        for attempt in range(6):
            self.units += 1 + n_pool // 2               # a deal of the pool costs time too
            i = n_pool - 1
            while i > 0:
                j = rng.below(i + 1)
                pool[i], pool[j] = pool[j], pool[i]
                i -= 1
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
        self.dead = 0                                    # the widow's points (or an idle hand's)
        for i in range(n_pool):
            if not taken >> i & 1:
                self.dead += POINTS[pool[i] & 7]

    # ---- playouts ------------------------------------------------------------------------------

    def _start(self):
        h = self.h
        wh = self.wh
        for i in range(16):
            h[i] = wh[i]
        for x in range(4):
            self.live[x] = self.wlive[x]
        for s in range(self.sides):
            self.pts[s] = self.wpts[s]
            self.mp[s] = self.wmp[s]
            self.tr[s] = self.wtr[s]

    def rollout(self, action):
        """Value (x SCALE) for my side of playing `action` now in the current world, the
        deal then played out greedily by every seat; ABORT when time or work ran out."""
        self._start()
        return self._play_out(action, self.seat, self.bidder, self.bid, self.out)

    def _bid_value(self, action):
        """Value for my side of bidding `action` (or passing) in the current world: the
        seats after me bid once each as Normal would, then the deal is played out."""
        bid = self.bid
        bidder = self.high_bidder
        if action != PASS:
            bid = action - BID
            bidder = self.seat
        wh = self.wh
        for s in range(self.seat + 1, self.n):
            est = team_greedy.estimate(_mask(wh, s), self.n == 4)
            units = 4 if est >= 4 * 33 else est // 33
            if self.n == 4 and est >= 140:
                units = 5
            if units > bid:
                bid = units
                bidder = s
        if bidder < 0:
            self.units += 1
            return 0                                      # everybody passed: thrown in
        self._start()
        return self._play_out(-1, bidder, bidder, bid, (bidder + 2) % 4 if bid == 5 and self.n == 4 else -1)

    def _play_out(self, forced, seat, bidder, bid, out):
        """Play on from the table (seat to act `seat`, first playing `forced` if >= 0) to
        the end of the deal; the value for my side."""
        h = self.h
        live = self.live
        pts = self.pts
        tr = self.tr
        n = self.n
        sides = self.sides
        players = n - (out >= 0)
        trump = self.trump0
        trace = self.trace
        k = len(self.trick0) if forced >= 0 else 0       # a bid's playout starts a fresh deal
        tp = ls = bs = br = bseat = 0
        if k:
            for c in self.trick0:
                tp += POINTS[c & 7]
            ls = self.trick0[0] >> 3
            bs = self.best0 >> 3
            br = self.best0 & 7
            bseat = self.best_seat0
        ten = -1
        widow = self.widow_open
        units = 1
        while True:
            if forced >= 0:
                a = forced
                forced = -1
            elif k == 0:
                a = self._lead(seat, trump)
            else:
                a = self._follow(seat, ls, bs, br, bseat, trump, k == players - 1, out)
            c = a & 31
            x = c >> 3
            r = c & 7
            if trace is not None:
                trace.append((seat, a))
            if a >= MARRY:                                  # a marriage, North American
                side = seat % sides
                self.mp[side] += 40 if trump < 0 or x == trump else 20
            h[seat * 4 + x] ^= 1 << r
            live[x] ^= 1 << r
            tp += POINTS[r]
            if k == 0:
                if trump < 0:
                    trump = x                               # the first card led names trump
                ls = bs = x
                br = r
                bseat = seat
            elif x == bs and r < br or x != bs and x == trump:
                bs = x
                br = r
                bseat = seat
            if self.ten and x == trump and r == 1:
                ten = -2                                    # the ten of trumps is in this trick
            k += 1
            units += 1
            if k < players:
                seat = (seat + 1) % n
                if seat == out:
                    seat = (seat + 1) % n
                continue
            # The trick is complete.
            side = bseat % sides
            if widow:
                tp += self.dead
                widow = False
            tr[side] += 1
            if ten == -2:
                ten = side
            empty = True
            for i in range(4):
                if h[bseat * 4 + i]:
                    empty = False
                    break
            if empty:
                if self.game_four:
                    tp += 10
                pts[side] += tp
                self.units += units
                return self._score(bidder, bid, ten)
            pts[side] += tp
            tp = 0
            k = 0
            seat = bseat
            if self.spent(units):
                return ABORT

    # ---- the greedy policy (team_greedy's rules of thumb on suit masks) ----------------------

    def _lead(self, s, trump):
        h = self.h
        base = s * 4
        if self.bidding_game:
            pick = -1
            for x in range(4):
                if h[base + x] & MARRIAGE == MARRIAGE:
                    if pick < 0 or x == trump or trump < 0 and _count8(h[base + x]) > 2:
                        pick = x
            if pick >= 0:
                return MARRY + pick * 8 + 2
        live = self.live
        best = -1
        best_p = -1
        any_master = -1
        for x in range(4):
            m = h[base + x]
            if not m:
                continue
            r = HIGH8[m]
            if not live[x] & ((1 << r) - 1):                # nothing unplayed above it
                if x != trump and POINTS[r] > best_p:
                    best_p = POINTS[r]
                    best = x * 8 + r
                any_master = x * 8 + r
        if best >= 0:
            return best
        if any_master >= 0:
            return any_master
        if trump < 0:                                       # name trump: the longest suit
            bx = 0
            bn = -1
            for x in range(4):
                c = _count8(h[base + x])
                if c > bn:
                    bn = c
                    bx = x
            return bx * 8 + HIGH8[h[base + bx]]
        return self._cheapest(base, trump, True)

    def _cheapest(self, base, skip, avoid):
        """The card of the hand worth fewest points, the lowest of them (skipping suit
        `skip` if `avoid` and the hand has anything else)."""
        h = self.h
        best = -1
        best_k = 99
        for x in range(4):
            m = h[base + x]
            if not m or avoid and x == skip:
                continue
            r = LOW8[m]
            key = POINTS[r] * 8 - r
            if key < best_k:
                best_k = key
                best = x * 8 + r
        if best < 0:
            return self._cheapest(base, skip, False)
        return best

    def _follow(self, s, ls, bs, br, bseat, trump, last, out):
        h = self.h
        base = s * 4
        # The legal cards: one suit's mask (lx), or any card (lx = -1).
        m = h[base + ls]
        if m:
            lx = ls
            if bs == ls and m & ((1 << br) - 1):
                m &= (1 << br) - 1
        elif trump >= 0 and h[base + trump]:
            lx = trump
            m = h[base + trump]
            if bs == trump and m & ((1 << br) - 1):            # higher than a winning trump
                m &= (1 << br) - 1
        else:
            lx = -1
        # Which legal cards would win.
        win_x = -1
        win_m = 0
        if lx >= 0:
            if lx == bs:
                win_m = m & ((1 << br) - 1)
            elif lx == trump:
                win_m = m
            win_x = lx
        partner = self.n == 4 and bseat % 2 == s % 2
        if partner:
            safe = last or not self.live[bs] & ~h[base + bs] & ((1 << br) - 1)
            if lx >= 0:
                feed = m & ~win_m if m & ~win_m else m
                if safe:
                    return lx * 8 + _richest(feed)
                return lx * 8 + LOW8[feed]
            if safe:
                return self._richest_card(base, win_x)
            return self._cheapest(base, win_x, True)
        if win_m:
            return win_x * 8 + (LOW8[win_m] if last else HIGH8[win_m])
        if lx >= 0:
            return lx * 8 + LOW8[m]
        return self._cheapest(base, trump, True)

    def _richest_card(self, base, skip):
        """The card worth most points outside suit `skip` (any suit if only it is left)."""
        h = self.h
        best = -1
        best_p = -1
        for x in range(4):
            m = h[base + x]
            if m and x != skip:
                r = _richest(m)
                if POINTS[r] > best_p:
                    best_p = POINTS[r]
                    best = x * 8 + r
        if best < 0:
            return skip * 8 + _richest(h[base + skip])
        return best

    # ---- the end of a deal ----------------------------------------------------------------------

    def _score(self, bidder, bid, ten):
        pts = self.pts
        tr = self.tr
        mp = self.mp
        sides = self.sides
        counted0 = pts[0] + (mp[0] if tr[0] else 0)
        if self.game_four:
            a = counted0
            b = pts[1] + (mp[1] if tr[1] else 0)
            g0 = g1 = 0
            if a != b:
                w = 0 if a > b else 1
                p = a if w == 0 else b
                g = 3 if not tr[1 - w] else (2 if p >= 100 else 1)
                if w == 0:
                    g0 = g
                else:
                    g1 = g
            if ten == 0:
                g0 += 1
            elif ten == 1:
                g1 += 1
            mine = g0 if self.side == 0 else g1
            theirs = g1 if self.side == 0 else g0
            diff = a - b if self.side == 0 else b - a
            return mine * SCALE - theirs * SCALE + (diff >> 3)
        bside = bidder % sides
        total_gp = 0
        total_p = 0
        mine = my_p = 0
        all_tricks = 0
        for s in range(sides):
            all_tricks += tr[s]
        for s in range(sides):
            p = pts[s] + (mp[s] if tr[s] else 0)
            g = p // 33
            if s == bside:
                if bid == 5:
                    g = 5 if tr[s] == all_tricks else -5
                elif p < 33 * bid:
                    g = -bid
            if s == self.side:
                mine = g
                my_p = p
            else:
                total_gp += g
                total_p += p
        o = sides - 1
        return (mine * o - total_gp) * SCALE + ((my_p * o - total_p) >> 3)


def _mask(wh, s):
    """A seat's world hand as a card mask (for team_greedy's bidding estimate)."""
    m = 0
    for x in range(4):
        m |= wh[s * 4 + x] << (8 * x)
    return m


def _count8(m):
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


def _richest(m):
    """Rank of the card worth most points in a suit mask: its highest card."""
    return HIGH8[m]
