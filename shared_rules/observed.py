"""A seat's View built from what it has seen, for a program that runs the game itself and
asks our AI for moves (docs/AI.md): no Deal of invented cards on the host's side.

Not loaded on the device (its deals make their views themselves).
"""
from shared_rules.cards import SUIT_MASK, count, mask_of, mask_points, pack
from shared_rules.deal import Deal
from shared_rules.rules import marriage_points
from shared_rules.view import View


def observed(rules, seat, hand, trump_card, talon_left, won=(0, 0), lead=-1, marriages=(),
             exchanges=(), closed=-1, closed_opp_tricks=0):
    """The View of `seat` (0: the forehand, who led the deal's first trick) when it is its
    turn, from what it has seen; ValueError if the observations do not fit together.

    hand: its cards (a mask or a list of card ints; cards.parse("QH") names one).
    trump_card: the face-up card under the talon now (after any exchange), or the last
    one shown once the talon is used up; -1 in Idiots' Sixty-six (no turn-up).
    talon_left: cards still in the talon, the face-up one included (0: used up).
    won: the cards each seat has won in tricks (masks or lists), seat 0 first.
    lead: the card the opponent has led to this trick, or -1 when `seat` is to lead.
    marriages: (seat, suit) of every marriage shown, in order. exchanges: (seat, card
    taken) of every trump exchange. closed: the seat that closed the talon (-1: nobody);
    closed_opp_tricks: the tricks its opponent had won then.
    """
    hand = _mask(hand)
    won = (_mask(won[0]), _mask(won[1]))
    full = pack(rules.ranks)
    seen = hand | won[0] | won[1]
    if seat not in (0, 1) or closed not in (-1, 0, 1):
        raise ValueError("seats are 0 and 1")
    if seen & ~full or lead >= 0 and not full >> lead & 1:
        raise ValueError("a card that is not in this game's pack")
    if hand & (won[0] | won[1]) or won[0] & won[1] or lead >= 0 and seen >> lead & 1:
        raise ValueError("a card seen in two places")
    if count(won[0]) % 2 or count(won[1]) % 2:
        raise ValueError("tricks hold two cards each")
    if 2 * count(hand) + talon_left + count(won[0]) + count(won[1]) != count(full):
        raise ValueError("%d cards in hand, %d in the talon and %d won do not make the pack of %d"
                         % (count(hand), talon_left, count(won[0] | won[1]), count(full)))
    idiots = rules.game == "idiots"
    if idiots != (trump_card < 0) or trump_card >= 0 and (
            not full >> trump_card & 1 or talon_left and seen >> trump_card & 1):
        raise ValueError("the face-up trump card does not fit")
    for s, suit in marriages:
        if s not in (0, 1) or suit not in (0, 1, 2, 3):
            raise ValueError("a marriage is (seat, suit)")
    hands = [0, 0]
    hands[seat] = hand
    # Nobody draws from this deal: the face-down cards only need to be counted.
    d = Deal(rules, hands, trump_card, [-1] * (talon_left - (trump_card >= 0) if talon_left else 0))
    if not talon_left:
        d.stock = []
        d.trump_card = -1                  # drawn: its suit stays trump
    other = 1 - seat
    d.phase2 = talon_left == 0 or closed >= 0
    d.closed = closed
    d.closed_opp_tricks = closed_opp_tricks
    d.won = [won[0], won[1]]
    d.tricks = [count(won[0]) // 2, count(won[1]) // 2]
    d.card_points = [mask_points(won[0]), mask_points(won[1])]
    shown = 0
    for s, suit in marriages:
        d.meld_points[s] += marriage_points(rules.game, suit, d.trump, shown)
        d.melds[s] |= 1 << suit
        shown += 1
        if idiots:
            d.trump = suit
            d.trump_bits = SUIT_MASK[suit]
        if s == other:                     # its other half stays known until it is played
            d.known[other] |= 3 << (suit * 8 + 2)
    for s, card in exchanges:
        if s == other:
            d.known[other] |= 1 << card
    if not talon_left and trump_card >= 0:
        d.known[other] |= 1 << trump_card  # the last card drawn: the face-up one (if not mine)
    d.known[other] &= ~(seen | (1 << lead if lead >= 0 else 0))
    d.lead = lead
    d.leader = other if lead >= 0 else seat
    d.to_act = seat
    d.log = None
    return View(d, seat)


def _mask(cards):
    return cards if isinstance(cards, int) else mask_of(cards)
