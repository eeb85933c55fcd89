"""Pass-and-play: several people share one device; each match player is a person or the computer.

Only the rules part lives here: which person must hold the device now, and when a
"pass to <player>" screen is due (the next person to act is not the one who last saw
their hand). The table (sixtysix.table.passplay) draws the pass screen, hides the hand until a key
is pressed, then calls handed(). With one person no pass screen is ever due.

The Russian close out of turn (either player, before the lead) is offered on the pass
screen: the person who still holds the device, not on lead, may close before handing it
to the leader. (Asking at every lead would mean two passes a trick.)
"""
from shared_rules.actions import CLOSE

PERSON = "person"
COMPUTER = "computer"
# Each player keeps one name whoever holds the device: the compass points of the seats
# (lists: their names are interned, a constant tuple's would be str objects: driver.NAMES)
COMPASS = {2: ["South", "North"], 3: ["South", "West", "East"], 4: ["South", "West", "North", "East"]}


class Seats:
    """`kinds`: PERSON or COMPUTER for each match player (player numbers as in the match)."""

    def __init__(self, kinds):
        kinds = tuple(kinds)
        if PERSON not in kinds or [k for k in kinds if k not in (PERSON, COMPUTER)]:
            raise ValueError("each seat is a person or the computer, one at least a person")
        self.kinds = kinds
        self.holder = None       # the person who has the device (has seen their hand)

    def people(self):
        return [p for p in range(len(self.kinds)) if self.kinds[p] == PERSON]

    def person(self, player):
        return self.kinds[player] == PERSON

    def next_person(self, match):
        """The person to act now, or None while the computer acts or the deal is over."""
        d = match.deal
        if d.ended or match.over:
            return None
        player = match.player_at(d.to_act)
        return player if self.person(player) else None

    def pass_due(self, match):
        """The player to pass the device to now, or None (no screen needed)."""
        nxt = self.next_person(match)
        if nxt is None or len(self.people()) < 2 or nxt == self.holder:
            return None
        return nxt

    def handed(self, player):
        """The pass screen was dismissed: `player` has the device."""
        self.holder = player

    def may_close(self, match):
        """True when the person holding the device, not on lead, may close the talon
        before the lead (Russian rules): the pass screen offers it."""
        if self.holder is None or match.rules.closing != "either":
            return False
        seat = match.seat_of(self.holder)
        d = match.deal
        return seat != d.to_act and seat < len(d.hands) and CLOSE in d.legal_actions(seat)

    def to_byte(self):
        """Bit p set: player p is a person (what a save keeps)."""
        out = 0
        for p in self.people():
            out |= 1 << p
        return out

    @staticmethod
    def from_byte(bits, players):
        return Seats([PERSON if bits >> p & 1 else COMPUTER for p in range(players)])
