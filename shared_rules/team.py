"""Deals where every card is dealt and 2-4 seats play tricks: four-handed Sixty-Six
(docs/RULES.md 6) and North American Sixty-Six with its bidding (RULES.md 7).

Seats number clockwise from the forehand (left of the dealer); the dealer is the last
seat. With four seats, seats 0 and 2 form side 0 and seats 1 and 3 side 1; with two or
three seats every seat is its own side. The 32-card pack's 8 and 7 of diamonds sit at
bits 30 and 31, so four-handed masks may be big ints on the board (only that game).
"""
from shared_rules.cards import POINTS, SUIT_WORDS, words, low_card, mask_of, mask_points, pack
from shared_rules.actions import MARRY, BID, PASS
from shared_rules.errors import IllegalMove
from shared_rules.rules import marriage_points

# All 8 ranks of a suit. Diamonds is every bit from 24 up: the same cards in a mask of
# cards (never negative), but a small int on the board, where 0xFF000000 is a big one.
SUIT8 = (0xFF, 0xFF00, 0xFF0000, -0x1000000)
_PACKETS = {"four": (3, 2, 3), 4: (3, 3), 3: (3, 4), 2: (3, 3, 3, 3)}


def dealt(rules, pack):
    """The deal made from a pack in random order (list of cards, top first).

    Cards go clockwise from the forehand in packets: 3, 2, 3 (four-handed); 3s, or 3
    then 4 with three players (North American). Four-handed turns the dealer's last card
    for trump; cut-throat North American keeps the last 3 cards as the widow.
    """
    n = rules.players
    packets = _PACKETS[rules.game if rules.game == "four" else n]
    hands = [0] * n
    i = 0
    for size in packets:
        for s in range(n):
            hands[s] |= mask_of(pack, i, i + size)
            i += size
    if rules.game == "four":
        trump_card = pack[i - 1]
        hands[n - 1] ^= 1 << trump_card
        return TeamDeal(rules, hands, trump_card)
    return TeamDeal(rules, hands, -1, pack[i:])


def again_after(n, bids, bid, again, seat, value):
    """The seats (bits) set to call once more after `seat` calls `value` (0: pass) over
    the highest bid `bid`, given the calls so far and `again` before it: a seat whose
    partner overbids it, except by the moon (RULES.md 7). On bare numbers, so that a
    search can follow the bidding's rules too."""
    partner = (seat + 2) % 4
    if value and n == 4 and bid and bids[partner] == bid and value < 5:
        again |= 1 << partner
    return again & ~(1 << seat)


def next_caller(n, bids, again, seat):
    """The seat that calls after `seat`: the next one clockwise that has not called yet
    or is set to call again; -1 when the bidding is over."""
    for i in range(1, n):
        s = (seat + i) % n
        if bids[s] < 0 or again >> s & 1:
            return s
    return -1


class TeamDeal:
    """State of a deal in progress; `apply` moves it on, `result` tells how it ended."""

    def __init__(self, rules, hands, trump_card=-1, widow=()):
        n = len(hands)
        self.rules = rules
        self.n = n
        self.sides = 2 if n == 4 else n
        self.dealt_hands = tuple(hands)
        self.first_trump = trump_card
        self.hands = list(hands)
        if trump_card >= 0:                    # four-handed: the turn-up is the dealer's
            self.hands[n - 1] |= 1 << trump_card
        self.trump = trump_card >> 3 if trump_card >= 0 else -1
        self.widow = mask_of(widow)
        self.bidding = rules.game == "american"
        self.bids = [-1] * n                   # each seat's last call: -1 none yet, 0 pass, 1-5 a bid
        self.again = 0                         # seats (bits) whose partner overbid them: one more call
        self.bid = 0
        self.bidder = -1
        self.out = -1                          # the moon bidder's partner, who does not play
        self.to_act = 0
        self.leader = 0
        self.trick = []                        # cards of the current trick in play order
        self.best = -1                         # the card winning the trick so far
        self.best_seat = -1
        self.won = [0] * self.sides
        self.tricks = [0] * self.sides
        self.trick_count = 0
        self.card_points = [0] * self.sides    # includes the widow and any last-trick 10
        self.meld_points = [0] * self.sides    # counted once the side wins a trick
        self.melds = [0] * n                   # suit bits of marriages shown per seat
        self.ten_side = -1                     # side that won the ten of trumps
        self.last_trick = None                 # [cards in play order..., winner's seat]
        self.ended = False
        self.result = None                     # (winning side or None, points per side, reason)
        self.log = []

    def view(self, seat):
        """What `seat` may know now (TeamView: no reference back to the deal)."""
        return TeamView(self, seat)

    def side(self, seat):
        return seat % self.sides

    def points(self, side):
        """Counted points of a side: cards (with widow and last trick), marriages once it has a trick."""
        if self.tricks[side]:
            return self.card_points[side] + self.meld_points[side]
        return self.card_points[side]

    def _next(self, seat):
        seat = (seat + 1) % self.n
        return (seat + 1) % self.n if seat == self.out else seat

    # ---- legality ----------------------------------------------------------------

    def legal_plays(self):
        """Mask of the cards the seat to act may play (0 while bidding or after the end)."""
        if self.ended or self.bidder < 0 and self.bidding:
            return 0
        h = self.hands[self.to_act]
        if not self.trick:
            return h
        return self._duty(h)

    def _duty(self, h):
        """The cards of `h` the seat may play to the trick (both games, RULES.md 6 and 7):
        follow suit, beating the winning card if able; void, trump, higher than a winning
        trump if able; else anything."""
        lead = self.trick[0]
        best = self.best
        same = h & SUIT8[lead >> 3]
        if same:
            if (best ^ lead) < 8:              # the led suit is still winning: beat it if able
                higher = same & self.rules.higher[best & 7] << (best & 24)
                if higher:
                    return higher
            return same
        if self.trump >= 0:
            trumps = h & SUIT8[self.trump]
            if trumps:
                if best >> 3 == self.trump:    # play higher if able: over a winning trump too
                    higher = trumps & self.rules.higher[best & 7] << (best & 24)
                    if higher:
                        return higher
                return trumps
        return h

    def legal_actions(self):
        if self.ended:
            return []
        if self.bidding and self.bidder < 0:
            return [PASS] + [BID + b for b in range(self.bid + 1, 6)]
        out = []
        m = self.legal_plays()
        while m:
            b = m & -m
            out.append(low_card(b))
            m ^= b
        if self.bidding and not self.trick:
            h = self.hands[self.to_act]
            for s in range(4):
                k = (s << 3) | 2
                if h >> k & 3 == 3:
                    out.append(MARRY + k)
                    out.append(MARRY + k + 1)
        return out

    # ---- moving on -------------------------------------------------------------------

    def apply(self, action, seat=None):
        """Apply one action of `seat` (default: the seat to act); IllegalMove if not allowed."""
        if self.ended:
            raise IllegalMove("the deal is over")
        if seat is None:
            seat = self.to_act
        if seat != self.to_act:
            raise IllegalMove("it is not your turn")
        if BID <= action <= BID + 5:
            self._bid(action, seat)
        elif self.bidding and self.bidder < 0:
            raise IllegalMove("the bidding is not over")
        elif 0 <= action < 32:
            self._play(action, seat)
        elif 32 <= action < 64:
            if not self.bidding:
                raise IllegalMove("there are no marriages in four-handed Sixty-Six")
            self._meld(action & 31, seat)
        else:
            raise IllegalMove("that is not allowed in this game")
        if self.log is not None:
            self.log.append(seat << 8 | action)

    def _bid(self, action, seat):
        """Bidding (RULES.md 7): from the forehand, each seat once bids higher or passes; a
        seat whose partner overbids it may call once more (seed 003: "his partner is set to
        bid again"), in turn clockwise. The highest bidder leads; all passing throws the deal in."""
        if not self.bidding:
            raise IllegalMove("there is no bidding in this game")
        if self.bidder >= 0:
            raise IllegalMove("the bidding is over")
        value = action - BID
        if action != PASS and value <= self.bid:
            raise IllegalMove("bid more than " + str(self.bid) + " or pass")
        self.again = again_after(self.n, self.bids, self.bid, self.again, seat, value)
        self.bids[seat] = value
        if value:
            self.bid = value
        s = next_caller(self.n, self.bids, self.again, seat)
        if s >= 0:
            self.to_act = s
            return
        if not self.bid:
            self._finish(None, [0] * self.sides, "annulled")
            return
        self.bidder = self.bids.index(self.bid)
        if self.bid == 5 and self.n == 4:
            self.out = (self.bidder + 2) % 4
        self.leader = self.to_act = self.bidder

    def _meld(self, c, seat):
        if self.trick:
            raise IllegalMove("you may show a marriage only when you lead")
        h = self.hands[seat]
        if c & 7 not in (2, 3) or not h >> c & 1 or not h >> (c ^ 1) & 1:
            raise IllegalMove("a marriage is a K and a Q of one suit in your hand; lead one of them")
        s = c >> 3
        self.melds[seat] |= 1 << s
        self.meld_points[self.side(seat)] += marriage_points(self.rules.game, s, self.trump, 0)
        self._play(c, seat)

    def _play(self, c, seat):
        bit = 1 << c
        h = self.hands[seat]
        ok = self._duty(h) if self.trick else h
        if not ok & bit:
            if not h & bit:
                raise IllegalMove("you do not hold " + words(c))
            raise IllegalMove(self._duty_message(ok))
        if self.trump < 0 and not self.trick:
            self.trump = c >> 3
        self.hands[seat] = h ^ bit
        self.trick.append(c)
        if len(self.trick) == 1 or self._beats(c):
            self.best = c
            self.best_seat = seat
        if len(self.trick) == self.n - (self.out >= 0):
            self._trick_done()
        else:
            self.to_act = self._next(seat)

    def _beats(self, c):
        best = self.best
        if (c ^ best) < 8:
            return self.rules.higher[best & 7] >> (c & 7) & 1
        return c >> 3 == self.trump

    def _duty_message(self, ok):
        hint = words(low_card(ok))
        lead = self.trick[0]
        higher = ok & self.rules.higher[self.best & 7] << (self.best & 24)
        if ok & SUIT8[lead >> 3]:
            if higher and (self.best ^ lead) < 8:
                return "you must beat " + words(self.best) + ": you hold " + hint
            return "you must follow suit: you hold " + hint
        if higher and self.best >> 3 == self.trump:
            return "you have no " + SUIT_WORDS[lead >> 3] + ", so you must trump higher than " + \
                words(self.best) + ": you hold " + hint
        return "you have no " + SUIT_WORDS[lead >> 3] + ", so you must trump: you hold " + hint

    def _trick_done(self):
        w = self.best_seat
        side = self.side(w)
        cards = mask_of(self.trick)
        pts = 0
        for c in self.trick:
            pts += POINTS[c & 7]
        if self.widow and self.trick_count == 0:
            cards |= self.widow                 # cut-throat: the first trick takes the widow
            pts += mask_points(self.widow)
        self.won[side] |= cards
        self.card_points[side] += pts
        self.tricks[side] += 1
        self.trick_count += 1
        if self.rules.ten_of_trumps and self.trump >= 0 and cards >> ((self.trump << 3) | 1) & 1:
            self.ten_side = side
        # The finished trick's list (its winner appended) becomes last_trick, and the one
        # before is reused for the next trick: no allocation per trick.
        last = self.trick
        last.append(w)
        self.trick = self.last_trick if self.last_trick is not None else []
        self.trick.clear()
        self.last_trick = last
        self.best = self.best_seat = -1
        self.leader = self.to_act = w
        if not self.hands[w]:
            self._deal_over(side)

    # ---- scoring ---------------------------------------------------------------------

    def _finish(self, winner, gp, reason):
        self.result = (winner, gp, reason)
        self.ended = True
        self.to_act = -1

    def _deal_over(self, last_side):
        gp = [0] * self.sides
        if not self.bidding:                   # four-handed (RULES.md 6)
            self.card_points[last_side] += 10
            a, b = self.points(0), self.points(1)
            if self.ten_side >= 0:
                gp[self.ten_side] = 1
            if a == b:
                self._finish(None, gp, "no-score")
                return
            w = 0 if a > b else 1
            p = a if w == 0 else b
            gp[w] += 3 if not self.tricks[1 - w] else (2 if p >= 100 else 1)
            self._finish(w, gp, "played-out")
            return
        # North American (RULES.md 7): units of 33 points; the bidding side must make its bid.
        bside = self.side(self.bidder)
        for s in range(self.sides):
            gp[s] = self.points(s) // 33
        if self.bid == 5:
            made = self.tricks[bside] == sum(self.tricks)
            gp[bside] = 5 if made else -5
        else:
            made = self.points(bside) >= 33 * self.bid
            if not made:
                gp[bside] = -self.bid
        self._finish(bside if made else None, gp, "made" if made else "set")



class TeamView:
    """One seat's knowledge: its hand, the table, the bidding; all other hands are hidden
    (a moon bidder's partner's too: it lies face down and plays no part), and so is the
    cut-throat widow, except to the seat whose first trick took it."""

    def __init__(self, deal, seat):
        self.seat = seat
        self.rules = deal.rules
        self.n = deal.n
        self.sides = deal.sides
        self.side = deal.side(seat)
        self.hand = deal.hands[seat]
        self.trump = deal.trump
        self.trump_card = deal.first_trump          # four-handed: the dealer's turn-up was shown
        self.trick = tuple(deal.trick)
        self.best = deal.best
        self.best_seat = deal.best_seat
        self.leader = deal.leader
        self.to_act = deal.to_act
        won = deal.won
        if deal.widow and not won[self.side] & deal.widow:
            # Cut-throat: the widow joins the first trick's winner face down; others never see it.
            won = [w & ~deal.widow for w in won]
        self.won = tuple(won)
        self.tricks = tuple(deal.tricks)
        self.points = tuple(deal.points(s) for s in range(deal.sides))
        self.melds = tuple(deal.melds)
        self.bids = tuple(deal.bids)
        self.again = deal.again
        self.bid = deal.bid
        self.bidder = deal.bidder
        self.out = deal.out
        self.last_trick = tuple(deal.last_trick) if deal.last_trick else None
        # Every action so far, seat << 8 | action (bids, cards, marriages): all were public.
        self.history = tuple(deal.log) if deal.log is not None else ()
        played = 0
        for w in won:
            played |= w
        for c in deal.trick:
            played |= 1 << c
        self.played = played
        self.unseen = pack(deal.rules.ranks) & ~(played | self.hand)
        if deal.first_trump >= 0 and seat != deal.n - 1 and deal.hands[deal.n - 1] >> deal.first_trump & 1:
            self.unseen &= ~(1 << deal.first_trump)
        self.legal = deal.legal_actions() if seat == deal.to_act else []
        self.ended = deal.ended
