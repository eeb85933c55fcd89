"""An independent reading of docs/RULES.md sections 5-8 (the family games), to check the engine.

Written from the rules text, not from shared_rules/team.py or deal.py: cards are record
names ("TH"), hands are sets, and each referee follows a deal action by action, says
which cards the seat to act may play, and scores the deal by the tables of RULES.md.
Also the random drivers the family tests share (legal actions only, seeded) and the
check that every card is in exactly one place.
"""
from shared_rules.actions import MARRY, DECLARE_MARRIAGE, DRAW, BID, PASS
from shared_rules.cards import name, listed, parse, pack, mask_points

ORDER = "ATKQJ987"                 # high to low (RULES.md 1)
AMERICAN_ORDER = "AKQJT9"          # North American: the ten below the jack (RULES.md 7)
VALUE = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def names(mask):
    return [name(c) for c in listed(mask)]


def beats(card, best, trump, order=ORDER):
    """Whether `card` played after `best` (currently winning) takes over the trick."""
    if card[1] == best[1]:
        return order.index(card[0]) < order.index(best[0])
    return card[1] == trump


def trick_winner(cards, trump, order=ORDER):
    """Index into `cards` (play order) of the card that wins the trick."""
    w = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[w], trump, order):
            w = i
    return w


def team_allowed(hand, trick, trump, order=ORDER):
    """Cards a seat may play to a trick (RULES.md 6 and 7): any card on lead; else follow
    suit, beating the winning card if it is of the led suit and the seat can; void, trump
    (over a trump already winning if able, else any trump); else anything."""
    if not trick:
        return set(hand)
    lead = trick[0]
    best = trick[trick_winner(trick, trump, order)]
    same = [c for c in hand if c[1] == lead[1]]
    if same:
        if best[1] == lead[1]:
            higher = [c for c in same if beats(c, best, trump, order)]
            if higher:
                return set(higher)
        return set(same)
    trumps = [c for c in hand if c[1] == trump]
    if trumps:
        if best[1] == trump:
            over = [c for c in trumps if beats(c, best, trump, order)]
            if over:
                return set(over)
        return set(trumps)
    return set(hand)


def four_handed_points(side_points, tricks, ten_side=None):
    """Game points per side (RULES.md 6): 66-99 → 1, 100-129 → 2, every trick → 3,
    65-65 nobody; the ten of trumps option adds 1 to the side that won it."""
    gp = [0, 0]
    if ten_side is not None:
        gp[ten_side] += 1
    a, b = side_points
    if a == b:
        return None, gp, "no-score"
    w = 0 if a > b else 1
    if tricks[1 - w] == 0:
        gp[w] += 3
    elif side_points[w] >= 100:
        gp[w] += 2
    else:
        gp[w] += 1
    return w, gp, "played-out"


def american_points(side_points, tricks, bid, bid_side):
    """Game points per side (RULES.md 7): a unit per full 33 points; the bidders score only
    if they make the bid (moon: every trick, +5) and lose its value otherwise."""
    gp = [p // 33 for p in side_points]
    if bid == 5:
        made = tricks[bid_side] == sum(tricks)
        gp[bid_side] = 5 if made else -5
    else:
        made = side_points[bid_side] >= 33 * bid
        if not made:
            gp[bid_side] = -bid
    return (bid_side if made else None), gp, ("made" if made else "set")


class TeamReferee:
    """Follows a four-handed or North American deal from its record (hands as names)."""

    def __init__(self, game, hands, trump_card=None, widow=()):
        self.game = game                       # "four" or "american"
        self.order = AMERICAN_ORDER if game == "american" else ORDER
        self.n = len(hands)
        self.sides = 2 if self.n == 4 else self.n
        self.hands = [set(h) for h in hands]
        self.trump = None
        if trump_card:                         # four-handed: the dealer's 8th card
            self.hands[self.n - 1].add(trump_card)
            self.trump = trump_card[1]
        self.widow = set(widow)
        self.to_call = set(range(self.n)) if game == "american" else set()   # seats still to bid or pass
        self.bid = 0
        self.bidder = None
        self.out = None
        self.turn = 0
        self.trick = []                        # (seat, card)
        self.card_points = [0] * self.sides
        self.melds = [0] * self.sides
        self.tricks = [0] * self.sides
        self.ten_side = None
        self.tricks_played = 0
        self.over = False
        self.annulled = False

    def side(self, seat):
        return seat % self.sides

    def bidding(self):
        return bool(self.to_call)

    def allowed_cards(self):
        cards = [c for _, c in self.trick]
        return team_allowed(self.hands[self.turn], cards, self.trump, self.order)

    def allowed(self):
        """Every action the seat to act may take, as ints."""
        if self.over:
            return set()
        if self.bidding():
            return {PASS} | {BID + b for b in range(self.bid + 1, 6)}
        out = {parse(c) for c in self.allowed_cards()}
        if self.game == "american" and not self.trick:
            for c in self.hands[self.turn]:
                if c[0] in "KQ" and ("Q" if c[0] == "K" else "K") + c[1] in self.hands[self.turn]:
                    out.add(MARRY + parse(c))
        return out

    def apply(self, seat, action):
        assert seat == self.turn and action in self.allowed(), (seat, action)
        if action >= BID:
            # Each seat calls once, in turn; a seat whose partner overbids it (four players,
            # under the moon) may call once more when its turn comes round again.
            if action > PASS:
                if self.n == 4 and self.bidder == (seat + 2) % 4 and action - BID < 5:
                    self.to_call.add(self.bidder)
                self.bid = action - BID
                self.bidder = seat
            self.to_call.discard(seat)
            later = [(seat + i) % self.n for i in range(1, self.n) if (seat + i) % self.n in self.to_call]
            if later:
                self.turn = later[0]
            elif self.bidder is None:
                self.over = self.annulled = True
            else:
                self.turn = self.bidder
                if self.bid == 5 and self.n == 4:
                    self.out = (self.bidder + 2) % 4
            return
        card = name(action & 31)
        if self.trump is None:
            self.trump = card[1]               # North American: the first card led is trump
        if action >= MARRY:
            self.melds[self.side(seat)] += 40 if card[1] == self.trump else 20
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        players = self.n - (self.out is not None)
        if len(self.trick) < players:
            self.turn = (seat + 1) % self.n
            if self.turn == self.out:
                self.turn = (self.turn + 1) % self.n
            return
        cards = [c for _, c in self.trick]
        w = self.trick[trick_winner(cards, self.trump, self.order)][0]
        side = self.side(w)
        self.card_points[side] += sum(VALUE[c[0]] for c in cards)
        if self.tricks_played == 0 and self.widow:
            self.card_points[side] += sum(VALUE[c[0]] for c in self.widow)
        if self.game == "four" and "T" + self.trump in cards:
            self.ten_side = side
        self.tricks[side] += 1
        self.tricks_played += 1
        self.trick = []
        self.turn = w
        if not self.hands[w]:
            self.over = True
            if self.game == "four":
                self.card_points[side] += 10   # the last trick

    def points(self, side):
        return self.card_points[side] + (self.melds[side] if self.tricks[side] else 0)

    def result(self, ten_option=False):
        assert self.over
        if self.annulled:
            return None, [0] * self.sides, "annulled"
        pts = [self.points(s) for s in range(self.sides)]
        if self.game == "four":
            return four_handed_points(pts, self.tricks, self.ten_side if ten_option else None)
        return american_points(pts, self.tricks, self.bid, self.side(self.bidder))


class IdiotsReferee:
    """Follows an Idiots' Sixty-six deal (RULES.md 8 and docs/RULES_IMPLEMENTED.md): no
    trump until a marriage; each marriage makes its suit trump and scores 20, 40, 60, 80;
    drawing while the talon lasts; then follow, beat, else trump; last trick 10; the
    higher total wins 1/2/3 by the loser's points, a tie scores nothing."""

    def __init__(self, hands, talon):
        self.hands = [set(hands[0]), set(hands[1])]
        self.talon = list(talon)
        self.trump = None
        self.lead = None
        self.leader = 0
        self.marriages = 0
        self.card_points = [0, 0]
        self.melds = [0, 0]
        self.tricks = [0, 0]
        self.over = False
        self.last = None

    def allowed(self, seat):
        """Every action `seat` may take now (talon drawn), as ints."""
        out = {parse(c) for c in self.allowed_cards(seat)}
        if self.lead is None and self.talon:
            for c in self.hands[seat]:
                if c[0] in "KQ" and ("Q" if c[0] == "K" else "K") + c[1] in self.hands[seat]:
                    out.add(MARRY + parse(c))
        return out

    def allowed_cards(self, seat):
        hand = self.hands[seat]
        if self.lead is None or self.talon:
            return set(hand)
        same = [c for c in hand if c[1] == self.lead[1]]
        if same:
            return set([c for c in same if beats(c, self.lead, None)] or same)
        return set([c for c in hand if c[1] == self.trump] or hand)

    def apply(self, seat, action):
        assert not self.over
        if action == DRAW:
            return
        assert action < DECLARE_MARRIAGE, "Idiots' Sixty-six has no declaring, closing or exchange"
        card = name(action & 31)
        if action >= MARRY:
            assert self.lead is None and seat == self.leader and self.talon
            assert card[0] in "KQ" and ("Q" if card[0] == "K" else "K") + card[1] in self.hands[seat]
            self.marriages += 1
            self.melds[seat] += 20 * self.marriages
            self.trump = card[1]
        assert card in self.allowed_cards(seat), (card, self.lead, sorted(self.hands[seat]))
        self.hands[seat].remove(card)
        if self.lead is None:
            assert seat == self.leader
            self.lead = card
            return
        assert seat == 1 - self.leader
        w = seat if beats(card, self.lead, self.trump) else self.leader
        self.card_points[w] += VALUE[card[0]] + VALUE[self.lead[0]]
        self.tricks[w] += 1
        self.lead = None
        self.leader = w
        if self.talon:
            self.hands[w].add(self.talon.pop(0))
            self.hands[1 - w].add(self.talon.pop(0))
        if not self.hands[w]:
            self.card_points[w] += 10
            self.over = True

    def points(self, seat):
        return self.card_points[seat] + (self.melds[seat] if self.tricks[seat] else 0)

    def result(self):
        a, b = self.points(0), self.points(1)
        if a == b:
            return None, [0, 0], "no-score"
        w = 0 if a > b else 1
        loser = 1 - w
        gp = [0, 0]
        gp[w] = 3 if not self.tricks[loser] else (2 if self.points(loser) < 33 else 1)
        return w, gp, "higher"


def random_legal(deal, rng):
    """Apply one random legal action of the seat to act; returns (seat, action). In the
    bidding a third each: pass, the lowest bid, any bid (so bids are made, set and mooned)."""
    acts = deal.legal_actions()
    seat = deal.to_act
    action = acts[rng.below(len(acts))]
    if action >= BID and len(acts) > 1:
        pick = rng.below(3)
        action = PASS if pick == 0 else (acts[1] if pick == 1 else action)
    deal.apply(action, seat)
    return seat, action


def play_out(deal, rng):
    """Random legal play to the end of the deal (the VM test runs the same code)."""
    while not deal.ended:
        random_legal(deal, rng)
    return deal


def play_match_for(match, rng, steps):
    """`steps` uniformly random legal actions of a match, dealing on as deals end (the VM
    test runs the same code)."""
    for _ in range(steps):
        if match.deal.ended:
            if match.over:
                break
            match.next_deal()
        acts = match.deal.legal_actions()
        match.apply(acts[rng.below(len(acts))])
    return match


def team_places(deal):
    """Masks of every place a card can be: hands (the moon partner's idle one too), the
    trick on the table, the won piles, and the widow until the first trick takes it."""
    places = list(deal.hands) + list(deal.won)
    trick = 0
    for c in deal.trick:
        trick |= 1 << c
    places.append(trick)
    if deal.trick_count == 0:
        places.append(deal.widow)
    return places


def check_one_place(places, rules):
    """Every card of the pack in exactly one of the places; 120 card points among them."""
    seen = 0
    for m in places:
        assert not seen & m, "a card is in two places: %s" % names(seen & m)
        seen |= m
    assert seen == pack(rules.ranks), "cards missing: %s" % names(pack(rules.ranks) & ~seen)
    assert sum(mask_points(m) for m in places) == 120
