"""The playouts of Hard's team search (shared_rules.ai.team_search): from the table as it
is, a deal played to its end by every seat with team_greedy's rules of thumb on suit
masks, and scored as the engine scores it.

A mixin of TeamSearch: it plays the world in self.wh (shared_rules.ai.team_worlds),
counts its work in self.units and stops when self.spent() (shared_rules.ai.anytime)
says time or work ran out. A module of its own, like the worlds: the board compiles the
search in parts that each fit beside a team match.
"""
from shared_rules.cards import POINTS, count
from shared_rules.actions import MARRY
from shared_rules.ai.anytime import ABORT
from shared_rules.ai.team_worlds import HIGH8, LOW8

# An object constant: without one, the end of this module's compiled constants points at
# the next heap block and keeps whatever lands there alive
# (host_tests/test_firmware_memory.py, test_no_module_pins_the_heap_block_after_its_constants)
HEAP_ANCHOR = "ends in its own block"

SCALE = 32          # a game point; points (difference / 8) only break ties
MARRIAGE = 0b1100   # the K and Q of a suit: ranks 2 and 3


class TeamPlayouts:
    def __init__(self):
        self.h = [0] * 16           # the hands while a playout runs
        self.live = [0] * 4         # unplayed cards per suit
        self.pts = [0] * 4          # per side: card points, marriage points, tricks
        self.mp = [0] * 4
        self.tr = [0] * 4
        self.wlive = [0] * 4        # the same on the table now
        self.wpts = [0] * 4
        self.wmp = [0] * 4
        self.wtr = [0] * 4
        self.trace = None           # a list: the calls and plays append (seat, action) (tests)

    def _table(self, v):
        """Copy the table out of the view: the trick, the points and tricks per side (after
        TeamWorlds._prepare)."""
        self.sides = v.sides
        self.side = v.side
        self.scale = SCALE * (v.sides - 1)   # a game point of margin: mine minus the others' mean
        self.bidding_game = v.rules.game == "american"
        self.ten = v.rules.ten_of_trumps
        self.trump0 = v.trump
        self.trick0 = v.trick
        self.best0 = v.best
        self.best_seat0 = v.best_seat
        # Cut-throat: the widow's points go to the first trick's winner.
        self.widow_open = self.bidding_game and self.n == 3 and self.tricks_done == 0
        # Points per side: card points (the widow's included once taken), marriages apart.
        for s in range(v.sides):
            meld = 0
            for p in range(self.n):
                if p % v.sides == s:
                    m = v.melds[p]
                    for x in range(4):
                        if m >> x & 1:
                            meld += 40 if x == v.trump else 20
            self.wmp[s] = meld
            self.wpts[s] = v.points[s] - (meld if v.tricks[s] else 0)
            self.wtr[s] = v.tricks[s]
        for x in range(4):
            self.wlive[x] = ~(v.played >> (8 * x)) & 0xFF & ((1 << v.rules.ranks) - 1)

    def _start(self):
        """A playout starts from the world's hands and the table."""
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
        higher = self.higher
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
            elif x == bs and higher[br] >> r & 1 or x != bs and x == trump:
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
                    if pick < 0 or x == trump or trump < 0 and count(h[base + x]) > 2:
                        pick = x
            if pick >= 0:
                return MARRY + pick * 8 + 2
        live = self.live
        top = self.top
        higher = self.higher
        best = -1
        best_p = -1
        any_master = -1
        for x in range(4):
            m = h[base + x]
            if not m:
                continue
            r = top[m]
            if not live[x] & higher[r]:                     # nothing unplayed above it
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
                c = count(h[base + x])
                if c > bn:
                    bn = c
                    bx = x
            return bx * 8 + top[h[base + bx]]
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
        higher = self.higher[br]
        # The legal cards: one suit's mask (lx), or any card (lx = -1).
        m = h[base + ls]
        if m:
            lx = ls
            if bs == ls and m & higher:
                m &= higher
        elif trump >= 0 and h[base + trump]:
            lx = trump
            m = h[base + trump]
            if bs == trump and m & higher:                  # higher than a winning trump
                m &= higher
        else:
            lx = -1
        # Which legal cards would win.
        win_x = -1
        win_m = 0
        if lx >= 0:
            if lx == bs:
                win_m = m & higher
            elif lx == trump:
                win_m = m
            win_x = lx
        partner = self.n == 4 and bseat % 2 == s % 2
        if partner:
            safe = last or not self.live[bs] & ~h[base + bs] & higher
            if lx >= 0:
                feed = m & ~win_m if m & ~win_m else m
                if safe:
                    return lx * 8 + HIGH8[feed]
                return lx * 8 + LOW8[feed]
            if safe:
                return self._richest_card(base, win_x)
            return self._cheapest(base, win_x, True)
        if win_m:
            return win_x * 8 + (LOW8[win_m] if last else self.top[win_m])
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
                r = HIGH8[m]
                if POINTS[r] > best_p:
                    best_p = POINTS[r]
                    best = x * 8 + r
        if best < 0:
            return skip * 8 + HIGH8[h[base + skip]]
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
            return (mine - theirs) * SCALE + (diff >> 3 if self.ties else 0)
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
        return (mine * o - total_gp) * SCALE + ((my_p * o - total_p) >> 3 if self.ties else 0)
