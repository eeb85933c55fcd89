"""Pass-and-play: several people share one device; each match player is a person or the computer.

Only the rules part lives here: which person must hold the device now, and when a
"pass to <player>" screen is due (the next person to act is not the one who last saw
their hand). The screens draw the pass screen, hide the hand until a key is pressed,
then call handed(). With one person (playing the computer) no pass screen is ever due.
"""
from shared_rules.actions import CLOSE

PERSON = "person"
COMPUTER = "computer"
ACT = "act"              # next_person(): it is that person's turn
OFFER_CLOSE = "close"    # Russian rules: the person not on lead may close before the lead


class Seats:
    """`kinds`: PERSON or COMPUTER for each match player (player numbers as in the match)."""

    def __init__(self, kinds):
        kinds = tuple(kinds)
        if not kinds or [k for k in kinds if k not in (PERSON, COMPUTER)]:
            raise ValueError("each seat is a person or the computer")
        self.kinds = kinds
        self.holder = None       # the person who has the device (has seen their hand)
        self.asked = -1          # the deal's log length at which the closing offer was answered

    def people(self):
        return [p for p in range(len(self.kinds)) if self.kinds[p] == PERSON]

    def person(self, player):
        return self.kinds[player] == PERSON

    def next_person(self, match):
        """(player, ACT or OFFER_CLOSE) for the person who must have the device now, or
        None while the computer acts or the deal is over. As with the computer, the
        person not on lead is offered the Russian close before the leader leads."""
        d = match.deal
        if d.ended or match.over:
            return None
        if match.rules.closing == "either" and self.asked != len(d.log):
            other = 1 - d.to_act
            player = match.player_at(other)
            if self.person(player) and CLOSE in d.legal_actions(other):
                return player, OFFER_CLOSE
        player = match.player_at(d.to_act)
        return (player, ACT) if self.person(player) else None

    def pass_due(self, match):
        """The player to pass the device to now, or None (no screen needed)."""
        nxt = self.next_person(match)
        if nxt is None or len(self.people()) < 2 or nxt[0] == self.holder:
            return None
        return nxt[0]

    def handed(self, player):
        """The pass screen was dismissed: `player` has the device."""
        self.holder = player

    def close_answered(self, match):
        """The person offered the close declined it: the leader's turn comes next."""
        self.asked = len(match.deal.log)

    def to_byte(self):
        """Bit p set: player p is a person (what a save keeps)."""
        out = 0
        for p in self.people():
            out |= 1 << p
        return out

    @staticmethod
    def from_byte(bits, players):
        return Seats([PERSON if bits >> p & 1 else COMPUTER for p in range(players)])
