"""The terms of a linked match and the words its two devices speak (docs/LINK.md): the
messages, the session's phases, who holds a player, what the screens show, and the
proposal (the rule set, target, counting and seats) as it travels and is saved.
sixtysix.linkmatch is the session that uses them (one module of link play a frame
compiles in under 50 ms on the board: sixtysix.friends loads them one a frame).
"""
from shared_rules.match import COUNTING
from shared_rules.rules import Rules, OPTIONS

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


def default_seats(players):
    """Proposer first, the accepter next to it (two or three players) or opposite it,
    as partners against two computer players (four players)."""
    if players == 4:
        return (PROPOSER, COMPUTER, ACCEPTER, COMPUTER)
    return (PROPOSER, ACCEPTER, COMPUTER)[:players]


def rules_text(rules):
    """'american players=3 target=5': the rule set and its overrides."""
    words = [rules.name]
    for key in sorted(rules.overrides):
        words.append(key + "=" + str(rules.overrides[key]))
    return " ".join(words)


def parse_rules(text):
    """Rules from rules_text(); ValueError when this device does not know them."""
    words = text.split()
    if not words:
        raise ValueError("no rule set")
    options = {}
    for word in words[1:]:
        kv = word.split("=")
        key, value = kv[0], kv[-1]
        if len(kv) != 2 or key not in OPTIONS:
            raise ValueError("unknown rule option " + key)
        found = [v for v in OPTIONS[key] if str(v) == value]
        if not found:
            raise ValueError("rule option " + key + " cannot be " + value)
        options[key] = found[0]
    return Rules(words[0], **options)


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

    @staticmethod
    def from_bytes(raw, i):
        """(Proposal, index after it) from raw[i:]; ValueError when it makes no sense."""
        if len(raw) < i + 4:
            raise ValueError("short proposal")
        counting, packed, n, size = raw[i], raw[i + 1], raw[i + 2], raw[i + 3]
        if counting >= len(COUNTING) or len(raw) < i + 4 + size:
            raise ValueError("bad proposal")
        try:
            text = bytes(raw[i + 4:i + 4 + size]).decode()
        except UnicodeError:
            raise ValueError("bad rules text")
        seats = [packed >> 2 * k & 3 for k in range(n)]
        return Proposal(parse_rules(text), COUNTING[counting], seats), i + 4 + size



def random_id(entropy):
    """A random non-zero 30-bit number (match ids, device ids)."""
    b = entropy(4)
    return ((b[0] & 0x3F) << 24 | b[1] << 16 | b[2] << 8 | b[3]) or 1
