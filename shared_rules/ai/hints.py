"""The one-line reasons behind a move, for the device's hint ("Hint: " + reason).

Loaded only when a hint is asked for, so the strings cost no heap otherwise.
"""
from shared_rules.cards import SUIT_MASK, POINTS, SUIT_WORDS, words
from shared_rules.actions import MARRY, DECLARE_MARRIAGE, EXCHANGE, CLOSE, DECLARE, DRAW
from shared_rules.ai import greedy


def reason(view, a):
    """One line saying why action `a` is a good move in `view`."""
    if a is None:
        return "wait for your opponent's move"
    trump = view.trump
    if a == DRAW:
        return "draw from the talon"
    if a == CLOSE:
        return "close the talon: your sure tricks should take you to 66"
    if a == DECLARE:
        return "declare: you have " + str(view.points) + " points"
    if a == EXCHANGE:
        return "exchange " + words(view.exchange_card) + " for " + words(view.trump_card)
    c = a & 31
    if a >= DECLARE_MARRIAGE:
        return "show the marriage in " + SUIT_WORDS[c >> 3] + " (" + str(view.meld_value(c)) + ") and declare 66"
    if a >= MARRY:
        return "lead " + words(c) + " and meld " + str(view.meld_value(c))
    if view.lead >= 0:
        lead = view.lead
        n_legal = 0
        for x in view.legal:
            if x < 32:
                n_legal += 1
        if greedy.beats(c, lead, trump, view.rules.higher):
            verb = "trump " if (c ^ lead) >= 8 else "take "
            return verb + words(lead) + " with " + words(c) + " for " + \
                str(POINTS[lead & 7] + POINTS[c & 7]) + " points"
        if n_legal == 1:
            return "play " + words(c) + ": it is your only legal card"
        return "give " + words(c) + ": it is the card you lose least by"
    if view.phase2:
        out = view.unseen | view.opp_known
        if greedy.sure_winner(c, out, trump, view.talon_left == 0, view.rules.higher):
            if c >> 3 == trump and out & SUIT_MASK[trump]:
                return "lead " + words(c) + " to draw your opponent's trumps"
            return "lead " + words(c) + ": it wins the trick"
        return "lead " + words(c) + ": it gives your opponent the fewest points"
    return "lead " + words(c) + ": a cheap card that gives little away"
