"""The terms of a linked match and the words its two devices speak (docs/LINK.md): the
messages, the session's phases, who holds a player, what the screens show, and the
proposal (the rule set, target, counting and seats) as it travels and is saved (read
back by sixtysix.link.handshake). sixtysix.link.match is the session that uses them.
"""
from shared_rules.match import COUNTING

# Messages: the first byte of a DATA payload.
STATUS = 1       # phase, role, match id (4), actions (2), log CRC (2)
PROPOSE = 2      # match id (4), commitment (32), proposal
ACCEPT = 3       # match id (4), commitment (32)
REVEAL = 4       # match id (4), value (16)
ACTIONS = 5      # index of the first (2), then (seat, action) pairs
REQUEST = 6      # index (2), seat, action: a close out of turn
LEAVE = 7        # match id (4): declined, withdrawn or left
DISAGREE = 8     # index (2), text: a refused action or a log mismatch

# Phases (saved).
NONE = 0         # no match (an offer received is not saved: the proposer repeats it)
PROPOSED = 1     # proposer: waiting for the other device to accept
ACCEPTED = 2     # accepter: committed, waiting for the proposer's value
REVEALED = 3     # proposer: value revealed, waiting for the accepter's
PLAYING = 4

# Who holds a player (the proposal's seats, one per match player).
PROPOSER = 0
ACCEPTER = 1
COMPUTER = 2

# What the screens show: state().
CONNECTING = "connecting"    # no match, no other device (yet)
WAITING = "waiting"          # a match, but the other device is gone or catching up
VERSION = "version"          # the other device speaks another protocol version
IDLE = "idle"                # connected, no match: either device may propose
OFFER = "offer"              # the other device proposes a match: accept or decline
PROPOSING = "proposing"      # our proposal is waiting for the other device
SHUFFLING = "shuffling"      # both agreed; the seed is being made
PLAYING_NOW = "playing"
OVER = "over"                # the match has ended on this device
STOPPED = "stopped"          # mismatch, refused action, or the other device left

FORMAT = 1                   # of header()
MAGIC = 76                   # "L"


def rules_text(rules):
    """'american players=3 target=5': the rule set and its overrides."""
    words = [rules.name]
    for key in sorted(rules.overrides):
        words.append(key + "=" + str(rules.overrides[key]))
    return " ".join(words)


class Proposal:
    """What a match is played by: rules (with the target), counting, and who holds each player."""

    def __init__(self, rules, counting, seats):
        players = rules.players
        seats = tuple(seats)
        if counting not in COUNTING:
            raise ValueError("counting must be casual or classic")
        if len(seats) != players or seats.count(PROPOSER) != 1 or seats.count(ACCEPTER) != 1 \
                or [s for s in seats if s not in (PROPOSER, ACCEPTER, COMPUTER)]:
            raise ValueError("each device holds one player, the computer the others")
        self.rules = rules
        self.counting = counting
        self.seats = seats

    def to_bytes(self):
        packed = 0
        for i in range(len(self.seats)):
            packed |= self.seats[i] << 2 * i
        text = rules_text(self.rules).encode()
        return bytes((COUNTING.index(self.counting), packed, len(self.seats), len(text))) + text
