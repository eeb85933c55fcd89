"""An independent reading of docs/RULES.md sections 2-4, to check the engine against.

Written from the rules text, not from shared_rules/deal.py: cards are handled by their
record names ("TH"), the phase-2 duty and the scoring table are re-stated plainly. The
`Oracle` watches a deal action by action (seat, action, the actor's hand before it) and
says how the deal must end; `snapshot` and `card_places` check what the engine holds.
"""
from shared_rules.actions import MARRY, DECLARE_MARRIAGE, EXCHANGE, CLOSE, DECLARE, DRAW
from shared_rules.cards import name, listed

ORDER = "ATKQJ987"
VALUE = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def higher(a, b):
    """Whether card name a ranks above card name b (same suit)."""
    return ORDER.index(a[0]) < ORDER.index(b[0])


def trick_winner(lead, follow, trump):
    """0 if the lead (a card name) wins, 1 if the follow does."""
    if follow[1] == lead[1]:
        return 1 if higher(follow, lead) else 0
    return 1 if follow[1] == trump else 0


def allowed(follow_rule, hand, lead, trump):
    """The card names a phase-2 follower may play (RULES.md 2 and the `follow` option)."""
    same = [c for c in hand if c[1] == lead[1]]
    trumps = [c for c in hand if c[1] == trump]
    if follow_rule == "beat":
        if same:
            return [c for c in same if higher(c, lead)] or same
        return trumps or hand
    if follow_rule == "suit":
        return same or hand
    return same or trumps or hand            # "trump": follow suit, else trump


def names(mask):
    return [name(c) for c in listed(mask)]


class Oracle:
    """Tracks tricks, melds, closing and declaring from the actions alone, and scores."""

    def __init__(self, rules, trump_card):
        self.rules = rules
        self.trump = name(trump_card)[1]
        self.talon = (rules.pack - 2 * rules.hand_size)   # face-down cards + the turn-up
        self.in_hand = [rules.hand_size, rules.hand_size]
        self.pending = False
        self.closer = None
        self.closer_opp_tricks = None
        self.lead = None
        self.leader = 0
        self.trick_points = [0, 0]
        self.tricks = [0, 0]
        self.melds = [0, 0]
        self.bonus = [0, 0]
        self.declarer = None
        self.last_winner = None
        self.over = False

    def phase2(self):
        return self.closer is not None or self.talon == 0

    def points(self, s):
        return self.trick_points[s] + (self.melds[s] if self.tricks[s] else 0) + self.bonus[s]

    def observe(self, seat, action, hand):
        """One applied action; `hand` is the actor's hand mask just before it (only a
        follow uses it, and a follow never comes with a draw)."""
        assert not self.over, "the engine accepted an action after the end"
        if self.pending:
            self.pending = False
            if action == CLOSE:
                pass                             # closing before drawing
            else:
                self.talon -= 2
                self.in_hand = [self.in_hand[0] + 1, self.in_hand[1] + 1]
        if action == DRAW:
            return
        if action == CLOSE:
            assert self.lead is None and self.closer is None and not self.phase2()
            if self.rules.closing == "leader":
                assert seat == self.leader
            assert self.talon >= self.rules.close_min_talon
            self.closer = seat
            self.closer_opp_tricks = self.tricks[1 - seat]
            return
        if action == EXCHANGE:
            assert self.rules.exchange != "off" and self.tricks[seat] > 0
            assert self.closer is None and self.talon >= 2
            if self.rules.exchange == "leader":
                assert self.lead is None and seat == self.leader
            return
        if action == DECLARE:
            self._on_lead(seat)
            self.declarer = seat
            self.over = True
            return
        card = name(action & 31)
        if action >= MARRY:
            self._on_lead(seat)
            assert card[0] in "KQ"
            assert not self.phase2() or self.rules.phase2_marriages
            self.melds[seat] += 40 if card[1] == self.trump else 20
            if action >= DECLARE_MARRIAGE:
                assert self.rules.declare_marriage
                self.declarer = seat
                self.over = True
                return
        self._play(seat, card, hand)

    def _on_lead(self, seat):
        assert self.lead is None and seat == self.leader, "only the seat on lead may do that"

    def _play(self, seat, card, hand):
        self.in_hand[seat] -= 1
        if self.lead is None:
            assert seat == self.leader
            self.lead = card
            return
        assert seat == 1 - self.leader
        if self.phase2() and hand is not None:
            ok = allowed(self.rules.follow, names(hand), self.lead, self.trump)
            assert card in ok, "phase-2 duty broken: %s on %s with %s" % (card, self.lead, names(hand))
        w = self.leader if trick_winner(self.lead, card, self.trump) == 0 else seat
        self.trick_points[w] += VALUE[self.lead[0]] + VALUE[card[0]]
        self.tricks[w] += 1
        self.lead = None
        self.leader = w
        self.last_winner = w
        if self.in_hand == [0, 0]:
            self.over = True
            if self.closer is None:
                self.bonus[w] = 10
        elif not self.phase2():
            self.pending = True

    # ---- the scoring table (RULES.md 2 and 3) ----

    def result(self):
        """(winner seat or None, [game points per seat], reason) as RULES.md says."""
        assert self.over
        if self.declarer is not None:
            return self._declared(self.declarer)
        w = self.last_winner
        if self.closer is not None:
            if self.points(w) >= 66:
                return self._declared(w)
            return self._won(1 - self.closer, self._closer_failed(), "closer-failed")
        if self.rules.played_out == "last-trick":
            return self._won(w, self._by_loser(1 - w), "last-trick")
        over = [s for s in (0, 1) if self.points(s) >= 66]
        if len(over) == 1:
            return self._won(over[0], self._by_loser(1 - over[0]), "lone-66")
        return None, [0, 0], "no-score" if self.rules.played_out == "carry" else "annulled"

    def _won(self, seat, gp, reason):
        out = [0, 0]
        out[seat] = gp
        return seat, out, reason

    def _declared(self, s):
        if self.points(s) >= 66:
            if self.closer == 1 - s:
                return self._won(s, self._closer_failed(), "closer-failed")
            return self._won(s, self._by_loser(1 - s), "declared")
        wrong = 3 if self.tricks[1 - s] == 0 else 2
        if self.closer == s:
            wrong = max(wrong, self._closer_failed())
        return self._won(1 - s, wrong, "wrong-declaration")

    def _closer_failed(self):
        if self.rules.closer_fail == "russian":
            p = self.points(self.closer)
            return 4 if p == 0 else 3 if p < 33 else 2
        return 3 if self.closer_opp_tricks == 0 else 2

    def _by_loser(self, loser):
        p = self.points(loser)
        if self.rules.schwarz == "tricks" and self.tricks[loser] == 0:
            return 3
        if self.rules.schwarz == "points" and p == 0:
            return 3
        return 2 if p < 33 else 1


def card_places(deal):
    """Each place's cards as masks: both hands, the talon (face-down + turn-up), both won
    piles and the card led; asserts no card is in two places and none is missing."""
    talon = 0
    for c in deal.stock[deal.top:]:
        talon |= 1 << c
    places = [deal.hands[0], deal.hands[1], talon, deal.won[0], deal.won[1],
              (1 << deal.lead) if deal.lead >= 0 else 0]
    union = 0
    for m in places:
        assert union & m == 0, "a card is in two places"
        union |= m
    assert union == deal.pack_mask, "a card is missing or invented"
    return places


def snapshot(deal):
    """Everything a deal holds, copied, to prove an IllegalMove left it unchanged."""
    out = {}
    for k, v in deal.__dict__.items():
        out[k] = list(v) if isinstance(v, list) else v
    return out
