"""Greedy card play over masks: the Easy/Normal players and the search's rollout policy.

Every function takes plain masks (hand, cards the opponent may hold, trump suit) and the
ranking (Rules.higher) and returns a card, so the same few mask operations serve a
player reading a View and the search playing out a sampled world. Nothing here allocates.
"""
from shared_rules.cards import SUIT_MASK, POINTS, KING, QUEEN, BIT_INDEX, low_card, count, mask_points


def beats(c, lead, trump, higher):
    """True if card c played on `lead` wins the trick."""
    if (c ^ lead) < 8:
        return higher[lead & 7] >> (c & 7) & 1
    return c >> 3 == trump


def _keep_value(c, hand, out, trump):
    """How much we would rather keep card c: its points, trumps, marriage halves."""
    r = c & 7
    v = POINTS[r] * 4
    if c >> 3 == trump:
        v += 40
    if r == KING or r == QUEEN:
        partner = c ^ 1
        if hand >> partner & 1 or out >> partner & 1:
            v += 10
    elif r == 1 and out >> (c & ~7) & 1:
        v += 6        # a ten whose ace is still out is easy prey: do not lead it
    return v


def cheapest(m, hand, out, trump):
    """The card of m we mind least giving away."""
    best = -1
    best_v = 9999
    while m:
        b = m & -m
        m ^= b
        c = BIT_INDEX[b % 37]
        v = _keep_value(c, hand, out, trump)
        if v < best_v:
            best_v = v
            best = c
    return best


def sure_winner(c, out, trump, exact, higher):
    """True if leading c wins whatever the opponent holds among `out`.

    `exact` says `out` is exactly the opponent's hand (talon used up), so a follower
    holding the suit must follow it.
    """
    s = c >> 3
    if out & higher[c & 7] << (c & 24):
        return False
    if s == trump:
        return True
    if not out & SUIT_MASK[trump]:
        return True
    return exact and out & SUIT_MASK[s] != 0


def lead_phase1(hand, out, trump):
    """A lead while the talon is open: a cheap card the opponent gains little from."""
    return cheapest(hand, hand, out, trump)


def lead_phase2(hand, out, trump, exact, higher):
    """A lead once the follower must follow: draw trumps, cash sure winners, else go low."""
    tm = SUIT_MASK[trump]
    mine = hand & tm
    if mine and out & tm:
        mine = sure(mine, out, higher)
        if mine:
            return low_card(mine)           # the richest trump nothing out beats
    best = -1
    best_p = -1
    m = hand
    while m:
        b = m & -m
        m ^= b
        c = low_card(b)
        if POINTS[c & 7] > best_p and sure_winner(c, out, trump, exact, higher):
            best_p = POINTS[c & 7]
            best = c
    if best >= 0:
        return best
    return cheapest(hand & ~tm or hand, hand, out, trump)


TEMPO = 12          # what winning a trick is worth beyond its points while the talon lasts (keep units)


def follow(hand, legal, lead, trump, out, phase2, higher, mine=0, theirs=0):
    """A reply to `lead` from the `legal` cards. mine / theirs: the follower's and the
    leader's points with every marriage shown (a won trick makes them count)."""
    if phase2:
        return _follow_phase2(hand, legal, lead, trump, out, higher)
    # While the talon lasts any card may be played: weigh each one. Units of _keep_value
    # (a card point is 4): the trick's points won or lost, less what the card was worth
    # keeping, plus the lead (and the draw first) for the winner; reaching 66 decides.
    lp = POINTS[lead & 7]
    over = higher[lead & 7] << (lead & 24)
    best = -1
    best_v = -99999
    m = legal
    while m:
        b = m & -m
        m ^= b
        c = BIT_INDEX[b % 37]
        p = lp + POINTS[c & 7]
        v = -_keep_value(c, hand, out, trump)
        if (b & over) if (c ^ lead) < 8 else (c >> 3 == trump):       # beats(c, lead, trump, higher)
            v += 4 * p + TEMPO
            if mine + p >= 66:
                v += 10000
        else:
            v -= 4 * p
            if theirs + p >= 66:
                v -= 10000
        if v > best_v:
            best_v = v
            best = c
    return best


def _follow_phase2(hand, legal, lead, trump, out, higher):
    """Once the follower must follow: win the trick if it can (with the richest card of
    the suit, else the cheapest trump), else throw the cheapest card."""
    tm = SUIT_MASK[trump]
    ls = lead >> 3
    same_hi = legal & higher[lead & 7] << (lead & 24)
    if same_hi:
        # Win in suit with the richest card.
        best = -1
        m = same_hi
        while m:
            b = m & -m
            m ^= b
            c = low_card(b)
            if best < 0 or POINTS[c & 7] > POINTS[best & 7]:
                best = c
        return best
    if ls != trump and not legal & SUIT_MASK[ls]:
        trumps = legal & tm
        if trumps:
            return cheapest(trumps, hand, out, trump)
    return cheapest(legal, hand, out, trump)


def sure_points(hand, out, trump, higher):
    """Card points of the tricks `hand` takes for certain once the talon is closed.

    Top trumps in an unbroken run are sure; when they outnumber the trumps still out,
    the top runs of the other suits are sure as well.
    """
    tm = SUIT_MASK[trump]
    trumps = sure(hand & tm, out, higher)
    if count(out & tm) > count(trumps):
        return mask_points(trumps)
    return mask_points(sure(hand, out, higher))


def sure(m, out, higher):
    """The cards of m that no card of `out` beats in their suit: each suit's top run."""
    mine = 0
    while m:
        b = m & -m
        m ^= b
        c = BIT_INDEX[b % 37]
        if not out & higher[c & 7] << (c & 24):
            mine |= b
    return mine
