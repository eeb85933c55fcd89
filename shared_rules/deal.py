"""One two-handed deal: the state, its legal actions, and how it ends (docs/RULES.md 2-4).

Seat 0 is the forehand (leads first), seat 1 the dealer. Hands and won cards are
bitmasks; playing allocates nothing. An illegal action raises IllegalMove and leaves
the deal exactly as it was.
"""
from shared_rules.cards import SUIT_MASK, POINTS, SUIT_WORDS, words, low_card, mask_of, pack, count
from shared_rules.actions import MARRY, DECLARE_MARRIAGE, EXCHANGE, CLOSE, DECLARE, DRAW, BID
from shared_rules.errors import IllegalMove
from shared_rules.view import View
from shared_rules.rules import marriage_points

# An object constant: without one, the end of this module's compiled constants points at
# the next heap block and keeps whatever lands there alive (a whole search: 5.7 KB)
# (host_tests/test_firmware_memory.py, test_no_module_pins_the_heap_block_after_its_constants)
HEAP_ANCHOR = "ends in its own block"

_FOLLOW = {"beat": 0, "suit": 1, "trump": 2}
_NO_DECLARING = "in this game nobody declares: every deal is played to the last trick"
# The fields clone() copies as they are (ints, bools and immutable tuples).
_SCALARS = ("top", "trump_card", "trump", "trump_bits", "leader", "to_act", "lead", "phase2", "pending_draw", "closed",
            "closed_opp_tricks", "last_trick", "ended", "result")


def dealt(rules, pack):
    """The deal made from a pack in random order (list of cards, top first).

    Packets of 3 to the forehand, 3 to the dealer, then the rest of each hand; the next
    card is the turn-up (Idiots' Sixty-six has none) and the remainder is the talon, top first.
    """
    n = rules.hand_size
    rest = n - 3
    hands = [mask_of(pack[0:3]) | mask_of(pack[6:6 + rest]),
             mask_of(pack[3:6]) | mask_of(pack[6 + rest:6 + 2 * rest])]
    if rules.game == "idiots":
        return Deal(rules, hands, -1, pack[2 * n:])
    return Deal(rules, hands, pack[2 * n], pack[2 * n + 1:])


class Deal:
    """State of a deal in progress; `apply` moves it on, `result` tells how it ended."""

    def __init__(self, rules, hands, trump_card, talon):
        self.rules = rules
        self.pack_mask = pack(rules.ranks)
        self.dealt_hands = (hands[0], hands[1])
        self.first_trump = trump_card
        self.hands = [hands[0], hands[1]]
        self.stock = list(talon)                  # draw order; the last is the turn-up
        if trump_card >= 0:
            self.stock.append(trump_card)
        self.top = 0
        self.trump_card = trump_card              # the face-up card, -1 once drawn (or none)
        self.trump = trump_card >> 3              # -1: no trump yet (Idiots' Sixty-six)
        self.trump_bits = SUIT_MASK[self.trump]
        # the trump that may take the turn-up's place: the 9 (rank 5), Schnapsen's J (4)
        self.exchange_card = self.trump << 3 | (5 if rules.exchange_rank == "9" else 4) if trump_card >= 0 else -1
        self.follow = _FOLLOW[rules.follow]
        self.leader = 0
        self.to_act = 0
        self.lead = -1
        self.phase2 = False
        self.pending_draw = False
        self.closed = -1                          # the closer's seat
        self.closed_opp_tricks = 0                # tricks the closer's opponent had then
        self.won = [0, 0]
        self.tricks = [0, 0]
        self.card_points = [0, 0]                 # includes the last-trick 10
        self.meld_points = [0, 0]                 # counted once the seat has a trick
        self.melds = [0, 0]                       # suit bits of marriages shown
        self.known = [0, 0]                       # cards in a hand that the other seat has seen
        self.last_trick = None
        self.ended = False
        self.result = None                        # (winner seat or None, [gp0, gp1], reason)
        self.log = []                             # seat << 8 | action, as applied

    def clone(self):
        """A copy for search: shares rules, keeps no action log."""
        d = Deal(self.rules, self.dealt_hands, self.first_trump, ())
        for k in _SCALARS:
            setattr(d, k, getattr(self, k))
        d.stock = self.stock[:]
        d.hands = self.hands[:]
        d.won = self.won[:]
        d.tricks = self.tricks[:]
        d.card_points = self.card_points[:]
        d.meld_points = self.meld_points[:]
        d.melds = self.melds[:]
        d.known = self.known[:]
        d.log = None
        return d

    # ---- what a seat can see and do -------------------------------------------

    @property
    def talon_left(self):
        """Cards still in the talon, the face-up trump included."""
        return len(self.stock) - self.top

    def points(self, seat):
        """Counted points: tricks (with any last-trick 10), marriages once a trick is won."""
        if self.tricks[seat]:
            return self.card_points[seat] + self.meld_points[seat]
        return self.card_points[seat]

    def view(self, seat):
        """What `seat` may know now (see view.View)."""
        return View(self, seat)

    def legal_plays(self):
        """Mask of the cards the seat to act may play now (0 while a draw is pending)."""
        if self.pending_draw or self.ended:
            return 0
        h = self.hands[self.to_act]
        if self.lead < 0 or not self.phase2:
            return h
        return self._duty(h, self.lead)

    def _duty(self, h, lead):
        same = h & SUIT_MASK[lead >> 3]
        if same:
            if self.follow == 0:
                higher = same & self.rules.higher[lead & 7] << (lead & 24)
                if higher:
                    return higher
            return same
        if self.follow != 1 and h & self.trump_bits:
            return h & self.trump_bits
        return h

    def legal_actions(self, seat=None):
        """Every legal action of a seat (default: the seat to act) as a list of ints."""
        if self.ended:
            return []
        if seat is None:
            seat = self.to_act
        out = []
        if self.pending_draw:
            if seat == self.to_act:
                out.append(DRAW)
        elif seat == self.to_act:
            m = self.legal_plays()
            while m:
                b = m & -m
                out.append(low_card(b))
                m ^= b
            if self.lead < 0:
                h = self.hands[seat]
                if self._may_marry():
                    for s in range(4):
                        k = (s << 3) | 2
                        if h >> k & 3 == 3:
                            out.append(MARRY + k)
                            out.append(MARRY + k + 1)
                            if self.rules.declare_marriage:
                                out.append(DECLARE_MARRIAGE + k)
                if self.rules.declaring:
                    out.append(DECLARE)
            if self._exchange_error(seat) is None:
                out.append(EXCHANGE)
        if self._close_error(seat) is None:
            out.append(CLOSE)
        return out

    def _may_marry(self):
        return not self.phase2 or self.rules.phase2_marriages

    def _exchange_error(self, seat):
        r = self.rules
        if r.exchange == "off":
            return "this rule set has no trump exchange"
        if seat != self.to_act or self.pending_draw:
            return "it is not your turn"
        if self.lead >= 0 and r.exchange != "any":
            return "you may exchange only when you are on lead"
        if not self.hands[seat] >> self.exchange_card & 1:
            return "you do not hold " + words(self.exchange_card)
        if not self.tricks[seat]:
            return "you may exchange only after winning a trick"
        if self.closed >= 0:
            return "the talon is closed"
        if self.talon_left < 2:
            return "no face-down card is left above the trump"
        return None

    def _close_error(self, seat):
        if self.rules.closing == "never":
            return "in this game the talon is never closed"
        if self.closed >= 0:
            return "the talon is already closed"
        if self.phase2:
            return "the talon is used up"
        if self.lead >= 0:
            return "you may close only before a card is led"
        if seat != self.leader and self.rules.closing != "either":
            return "only the player on lead may close"
        if self.talon_left < self.rules.close_min_talon:
            return "the talon needs at least " + str(self.rules.close_min_talon) + " cards to close"
        return None

    # ---- moving the deal on --------------------------------------------------------

    def apply(self, action, seat=None):
        """Apply one action of `seat` (default: the seat to act); IllegalMove if not allowed.

        As in game records, a pending draw happens first unless the action is close or draw.
        """
        if self.ended:
            raise IllegalMove("the deal is over")
        if seat is None:
            seat = self.to_act
        if self.pending_draw and action != CLOSE and action != DRAW:
            if seat != self.to_act:
                raise IllegalMove("it is not your turn")
            self._draw()
            try:
                self._apply(action, seat)
            except IllegalMove:
                self._undraw()
                raise
        else:
            self._apply(action, seat)
        if self.log is not None:
            self.log.append(seat << 8 | action)

    def _apply(self, action, seat):
        if action < 0:
            raise IllegalMove("unknown action")
        if action < 32:
            self._play(action, seat)
        elif action < 96:
            self._meld(action, seat)
        elif action == CLOSE:
            err = self._close_error(seat)
            if err:
                raise IllegalMove(err)
            self.closed = seat
            self.closed_opp_tricks = self.tricks[1 - seat]
            self.phase2 = True
            self.pending_draw = False
        elif action == DRAW:
            if not self.pending_draw:
                raise IllegalMove("there is nothing to draw now")
            if seat != self.to_act:
                raise IllegalMove("the winner of the trick draws first")
            self._draw()
        elif action == DECLARE:
            if not self.rules.declaring:
                raise IllegalMove(_NO_DECLARING)
            self._check_on_lead(seat)
            self._declared(seat)
        elif action == EXCHANGE:
            err = self._exchange_error(seat)
            if err:
                raise IllegalMove(err)
            old = self.trump_card
            self.hands[seat] ^= (1 << self.exchange_card) | (1 << old)
            self.stock[-1] = self.exchange_card
            self.trump_card = self.exchange_card
            self.known[seat] |= 1 << old
        elif BID <= action <= BID + 5:
            raise IllegalMove("there is no bidding in this game")
        else:
            raise IllegalMove("unknown action")

    def _check_on_lead(self, seat):
        if seat != self.to_act:
            raise IllegalMove("it is not your turn")
        if self.lead >= 0:
            raise IllegalMove("you may do that only when you are on lead")

    def _meld(self, action, seat):
        c = action & 31
        self._check_on_lead(seat)
        if c & 7 not in (2, 3):
            raise IllegalMove("a marriage is shown with a K or a Q")
        h = self.hands[seat]
        if not h >> c & 1:
            raise IllegalMove("you do not hold " + words(c))
        partner = c ^ 1
        if not h >> partner & 1:
            raise IllegalMove("you need " + words(partner) + " too for a marriage")
        if not self._may_marry():
            raise IllegalMove("marriages are shown only while the talon is open")
        declaring = action >= DECLARE_MARRIAGE
        if declaring and not self.rules.declaring:
            raise IllegalMove(_NO_DECLARING)
        if declaring and not self.rules.declare_marriage:
            raise IllegalMove("in this rule set a marriage counts only when you lead it")
        s = c >> 3
        self.meld_points[seat] += marriage_points(self.rules.game, s, self.trump,
                                                  count(self.melds[0]) + count(self.melds[1]))
        if self.rules.game == "idiots":       # each marriage makes its suit trump
            self.trump = s
            self.trump_bits = SUIT_MASK[s]
        self.melds[seat] |= 1 << s
        if declaring:
            self.known[seat] |= (1 << c) | (1 << partner)
            self._declared(seat)
        else:
            self.known[seat] |= 1 << partner
            self._play(c, seat)

    def _play(self, c, seat):
        if seat != self.to_act:
            raise IllegalMove("it is not your turn")
        bit = 1 << c
        h = self.hands[seat]
        if not h & bit:
            raise IllegalMove("you do not hold " + words(c))
        lead = self.lead
        if lead < 0:
            self.known[seat] &= ~bit           # on the table now, no longer in the hand
            self.hands[seat] = h ^ bit
            self.lead = c
            self.to_act = 1 - seat
            return
        if self.phase2:
            ok = self._duty(h, lead)
            if not ok & bit:
                raise IllegalMove(self._duty_message(h, lead, ok))
        self.known[seat] &= ~bit
        self.hands[seat] = h ^ bit
        self._trick(lead, c)

    def _duty_message(self, h, lead, ok):
        hint = words(low_card(ok))
        if ok & SUIT_MASK[lead >> 3]:
            if ok & self.rules.higher[lead & 7] << (lead & 24) and self.follow == 0:
                return "you must beat " + words(lead) + ": you hold " + hint
            return "you must follow suit: you hold " + hint
        return "you have no " + SUIT_WORDS[lead >> 3] + ", so you must trump: you hold " + hint

    def _trick(self, lead, c):
        leader = self.leader
        follower = 1 - leader
        if (c ^ lead) < 8:
            w = follower if self.rules.higher[lead & 7] >> (c & 7) & 1 else leader
        elif c >> 3 == self.trump:
            w = follower
        else:
            w = leader
        self.won[w] |= (1 << lead) | (1 << c)
        self.card_points[w] += POINTS[lead & 7] + POINTS[c & 7]
        self.tricks[w] += 1
        self.last_trick = (lead, c, w)
        self.lead = -1
        self.leader = w
        self.to_act = w
        if not self.hands[w]:
            self._played_out(w)
        elif not self.phase2:
            self.pending_draw = True

    def _draw(self):
        t = self.top
        w = self.leader
        self.hands[w] |= 1 << self.stock[t]
        self.hands[1 - w] |= 1 << self.stock[t + 1]
        self.top = t + 2
        self.pending_draw = False
        if self.top == len(self.stock):
            if self.trump_card >= 0:
                self.known[1 - w] |= 1 << self.trump_card
                self.trump_card = -1
            self.phase2 = True

    def _undraw(self):
        self.top -= 2
        t = self.top
        w = self.leader
        self.hands[w] ^= 1 << self.stock[t]
        self.hands[1 - w] ^= 1 << self.stock[t + 1]
        if self.phase2:
            self.phase2 = False
            if self.first_trump >= 0:
                self.trump_card = self.stock[-1]
                self.known[1 - w] &= ~(1 << self.trump_card)
        self.pending_draw = True

    # ---- how the deal ends (RULES.md: game points) -----------------------------------

    def _finish(self, winner, game_points, reason):
        gp = [0, 0]
        if winner is not None:
            gp[winner] = game_points
        self.result = (winner, gp, reason)
        self.ended = True
        self.to_act = -1
        self.pending_draw = False

    def _by_loser(self, loser):
        """1, 2 or 3 game points for beating `loser`, by the loser's points."""
        p = self.points(loser)
        if (self.tricks[loser] == 0) if self.rules.schwarz == "tricks" else (p == 0):
            return 3
        return 2 if p < 33 else 1

    def _closer_failed(self):
        """Game points the closer's opponent scores when the closer fails."""
        closer = self.closed
        if self.rules.closer_fail == "russian":
            p = self.points(closer)
            return 4 if p == 0 else (3 if p < 33 else 2)
        return 3 if self.closed_opp_tricks == 0 else 2

    def _declared(self, seat):
        other = 1 - seat
        if self.points(seat) >= 66:
            if self.closed == other:
                self._finish(seat, self._closer_failed(), "closer-failed")
            else:
                self._finish(seat, self._by_loser(other), "declared")
        else:
            gp = 3 if self.tricks[other] == 0 else 2
            if self.closed == seat:
                gp = max(gp, self._closer_failed())
            self._finish(other, gp, "wrong-declaration")

    def _played_out(self, w):
        if self.closed >= 0:
            if self.points(w) >= 66:
                self._declared(w)
            else:
                self._finish(1 - self.closed, self._closer_failed(), "closer-failed")
            return
        self.card_points[w] += 10
        mode = self.rules.played_out
        if mode == "last-trick":
            self._finish(w, self._by_loser(1 - w), "last-trick")
            return
        if mode == "higher":                  # Idiots' Sixty-six: more points wins
            a, b = self.points(0), self.points(1)
            if a == b:
                self._finish(None, 0, "no-score")
            else:
                hi = 0 if a > b else 1
                self._finish(hi, self._by_loser(1 - hi), "higher")
            return
        over = [s for s in (0, 1) if self.points(s) >= 66]
        if len(over) == 1:
            self._finish(over[0], self._by_loser(1 - over[0]), "lone-66")
        else:
            self._finish(None, 0, "no-score" if mode == "carry" else "annulled")
