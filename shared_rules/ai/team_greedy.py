"""Greedy computer player for the team games (four-handed, North American): it bids
from an estimate of its hand, leads marriages and masters, feeds points to a partner
who is winning, wins cheaply when it can, and throws its cheapest card when it cannot.

It sees only its seat's TeamView. A few mask operations per decision, like Normal.
"""
from shared_rules.cards import BIT_INDEX, POINTS, SUIT_WORDS, words, low_card, count
from shared_rules.actions import MARRY, BID, PASS
from shared_rules.team import SUIT8


def choose(view):
    """The action this seat plays now (None when it has nothing to do)."""
    return decide(view)[0]


def hint(view):
    """(action, one-line reason) for the device's hint feature."""
    return decide(view)


def decide(view):
    if not view.legal:
        return None, "nothing to do"
    if view.legal[0] == PASS:
        return _bid(view)
    if not view.trick:
        return _lead(view)
    return _follow(view)


def estimate(hand, partner, higher):
    """Points this hand should take when it picks trump: marriages, aces and the cards
    ranked next (by `higher`: Rules.higher) that stand up, long trumps; a partner brings
    about a fifth of the rest."""
    r = 1
    while higher[r] != 1:                           # the rank only the ace beats: the 10, or the K
        r += 1
    best = 0
    for trump in range(4):
        pts = 0
        for s in range(4):
            suit = hand & SUIT8[s]
            k = (s << 3) | 2
            if suit >> k & 3 == 3:
                pts += 40 if s == trump else 20
            if suit & 1 << (s << 3):               # the ace wins; the card next to it too
                pts += 11 + 5
                if suit >> ((s << 3) | r) & 1:
                    pts += POINTS[r] + 5
            if s == trump:
                pts += 6 * max(0, count(suit) - 2)
        best = max(best, pts)
    return best + (20 if partner else 0)


def bid_units(est, n):
    """The highest bid on a hand estimated at `est` points with n players (0: none): a
    unit per 33 points, the moon from 140 with a partner."""
    if n == 4 and est >= 140:
        return 5
    return min(4, est // 33)


def _bid(view):
    est = estimate(view.hand, view.n == 4, view.rules.higher)
    units = bid_units(est, view.n)
    if units > view.bid:
        return BID + units, "bid " + str(units) + ": your hand should take about " + str(est) + " points"
    return PASS, "pass: your hand is worth about " + str(est) + " points"


def _masters(view):
    """The top card of each suit in hand where no unseen card beats it."""
    higher = view.rules.higher
    out = 0
    for s in range(4):
        mine = view.hand & SUIT8[s]
        if mine:
            c = top(mine, higher)
            if not view.unseen & higher[c & 7] << (c & 24):
                out |= 1 << c
    return out


def _lead(view):
    hand = view.hand
    best_meld = None
    for a in view.legal:
        if MARRY <= a < MARRY + 32:
            s = (a & 31) >> 3
            if best_meld is None or s == view.trump or (view.trump < 0 and count(hand & SUIT8[s]) > 2):
                best_meld = a
    if best_meld is not None:
        c = best_meld & 31
        pts = 40 if view.trump < 0 or c >> 3 == view.trump else 20
        return best_meld, "lead " + words(c) + " and meld " + str(pts)
    masters = _masters(view)
    if view.trump >= 0:
        plain = masters & ~SUIT8[view.trump]
        if plain:
            masters = plain
    if masters:
        c = _highest_points(masters)
        return c, "lead " + words(c) + ": nobody can beat it"
    if view.trump < 0:                              # the first lead names trump: the longest suit
        s = max(range(4), key=lambda x: count(hand & SUIT8[x]))
        c = top(hand & SUIT8[s], view.rules.higher)
        return c, "lead " + words(c) + " to make " + SUIT_WORDS[s] + " trump"
    c = _cheapest(hand & ~SUIT8[view.trump] or hand)
    return c, "lead " + words(c) + ", your cheapest card"


def _beats(view, c):
    best = view.best
    if (c ^ best) < 8:
        return view.rules.higher[best & 7] >> (c & 7) & 1
    return c >> 3 == view.trump


def _follow(view):
    legal = 0
    for a in view.legal:
        legal |= 1 << a
    partner_wins = view.n == 4 and view.best_seat % 2 == view.seat % 2
    last = len(view.trick) == view.n - 1 - (view.out >= 0)
    winners = 0
    m = legal
    while m:
        b = m & -m
        if _beats(view, low_card(b)):
            winners |= b
        m ^= b
    if partner_wins:
        best = view.best
        safe = last or not view.unseen & view.rules.higher[best & 7] << (best & 24)
        feed = legal & ~winners if legal & ~winners else legal
        if safe:
            c = _highest_points(feed)
            return c, "give " + words(c) + " to your partner, who wins the trick"
        c = _cheapest(feed)
        return c, "your partner is winning for now: keep your points and play " + words(c)
    if winners:
        c = _cheapest(winners) if last else top(winners, view.rules.higher)
        return c, "win the trick with " + words(c)
    c = _cheapest(legal)
    return c, "you cannot win this trick: throw " + words(c)


def top(mask, higher):
    """The card of a one-suit mask that beats the others, by a ranking's `higher`
    (Rules.higher); on a mask of ranks (one suit's bits 0-7) its rank."""
    c = BIT_INDEX[(mask & -mask) % 37]
    while mask & higher[c & 7] << (c & 24):
        mask &= higher[c & 7] << (c & 24)
        c = BIT_INDEX[(mask & -mask) % 37]
    return c


def _best(mask, score):
    """The card of `mask` with the highest score(card); the first one on ties."""
    best = -1
    m = mask
    while m:
        c = low_card(m)
        m &= m - 1
        if best < 0 or score(c) > score(best):
            best = c
    return best


def _highest_points(mask):
    return _best(mask, lambda c: POINTS[c & 7])


def _cheapest(mask):
    """The card worth the fewest points, the lowest-ranked of them."""
    return _best(mask, lambda c: (c & 7) - 16 * POINTS[c & 7])
