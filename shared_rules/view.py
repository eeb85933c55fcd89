"""What one seat may know about a deal: its own cards and everything shown on the table.

A View is a snapshot with no reference back to the deal, so an AI handed a View cannot
reach the opponent's hand or the talon order. The engine makes one with Deal.view(seat);
a program that knows only what its seat has seen makes one with shared_rules.observed.
"""
from shared_rules.cards import count
from shared_rules.rules import marriage_points

# An object constant: without one, the end of this module's compiled constants points at
# the next heap block and keeps whatever lands there alive (a whole search: 5.7 KB)
# (host_tests/test_firmware_memory.py, test_no_module_pins_the_heap_block_after_its_constants)
HEAP_ANCHOR = "ends in its own block"


class View:
    def __init__(self, deal, seat):
        other = 1 - seat
        self.seat = seat
        self.rules = deal.rules
        self.hand = deal.hands[seat]
        self.trump = deal.trump
        self.trump_card = deal.trump_card        # remembered after closing: it was face up
        self.exchange_card = deal.exchange_card
        self.talon_left = deal.talon_left
        self.closed = deal.closed
        self.phase2 = deal.phase2
        self.pending_draw = deal.pending_draw
        self.lead = deal.lead
        self.leader = deal.leader
        self.to_act = deal.to_act
        self.won = (deal.won[0], deal.won[1])
        self.tricks = (deal.tricks[0], deal.tricks[1])
        self.melds = (deal.melds[0], deal.melds[1])
        self.meld_points = (deal.meld_points[0], deal.meld_points[1])   # announced: public
        self.closed_opp_tricks = deal.closed_opp_tricks
        self.points = deal.points(seat)
        self.opp_points = deal.points(other)     # public: won cards and marriages were shown
        self.opp_known = deal.known[other]       # opponent's cards shown to this seat
        self.last_trick = deal.last_trick
        played = deal.won[0] | deal.won[1]
        if deal.lead >= 0:
            played |= 1 << deal.lead
        self.played = played
        seen = self.hand | played | self.opp_known
        if deal.trump_card >= 0:
            seen |= 1 << deal.trump_card
        self.unseen = deal.pack_mask & ~seen
        self.legal = deal.legal_actions(seat)
        self.ended = deal.ended


    def meld_value(self, k):
        """Points the marriage of king (or queen) k would score if shown now."""
        return marriage_points(self.rules.game, k >> 3, self.trump, count(self.melds[0]) + count(self.melds[1]))
