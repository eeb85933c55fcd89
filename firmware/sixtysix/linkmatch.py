"""A linked match: one match on two devices joined by the link cable (docs/LINK.md).

Set-up: either device proposes (its rule set, options with the target, counting, and
which player each device holds); the other shows the offer and accepts or declines.
The deal is then seeded fairly (sixtysix.fairseed: both commit, then both reveal).

Play: the match is the seed plus one shared ACTION LOG, 2 bytes per action (deal seat,
action). Each log position has exactly one writer: the device that holds the player to
act; the computer's players are played by the proposing device, whose choices the other
device checks like any other (so the two never need identical AI timing or memory).
The one move made out of turn, the Russian close before the leader leads, is sent as a
request to the device that holds the turn, which puts it in the log if it is still legal.

Every action from the other device is checked by the rules engine when it is applied;
anything illegal stops the match on both devices with a message. Scores are never
sent: each device computes them from the log, so a false 66 cannot be claimed.

Resume: after every link-up both devices exchange STATUS (how many actions, CRC of the
log). The one behind receives the missing actions; logs that disagree on their common
part stop the match ("mismatch"); nothing is merged.

Contract with the screens (sixtysix.game, sixtysix.linkscreen):
- poll(now) every pass; state() and message() say what to show;
- save (sync(store, session)) whenever `changed` is set, right after a poll and BEFORE
  the next one, and log each move in the store as it is applied (the store's action
  records, as a local match's): a device's own moves and shuffle value are saved before
  they are sent;
- incoming() is the next action of the other device (or computer) to show: play it with
  apply(action, seat) like a local one; my_turn() / computer_turn() say when this device
  acts; a finished deal is followed by match.next_deal() on each device (no message).

The save (sixtysix.store): a LINKED record holds header() (written again at each step of
the set-up, so before any move), the moves follow as action records, and a close asked
for is an ASKED record; restore() rebuilds the session from them.
"""
from shared_rules.actions import CLOSE
from shared_rules.errors import IllegalMove
from shared_rules.match import COUNTING
from shared_rules.rules import Rules, OPTIONS
from sixtysix import fairseed
from sixtysix.store import LINKED, ASKED, size, small
from sixtysix.link import CLASH, MAX_PAYLOAD, put16, put32, u16, u32
from sixtysix.crc import crc16

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


class LinkedMatch:
    """This device's side of a linked match. `link` is a sixtysix.link.Link; `entropy(n)`
    gives n random bytes (os.urandom); `saved` is (header(), the moves as (seat, action),
    seat -1 for the seat to act, the log index of a close asked for or -1), as restore()
    reads them from the store."""

    def __init__(self, link, entropy, saved=None):
        self.link = link
        self.entropy = entropy
        self.ups = link.ups
        self.peer = None             # (phase, match id, actions, crc): its STATUS in this link session
        self.changed = False
        self.notice = None           # a one-off message for the screen ("declined"); clear it when shown
        self._forget()
        if saved:
            self._load(*saved)

    def _forget(self):
        self.phase = NONE
        self.role = PROPOSER
        self.peer_id = None
        self.nonce = 0
        self.proposal = None
        self.value = None            # this device's shuffle value
        self.peer_commit = None
        self.peer_value = None
        self.match = None
        self.log = bytearray()       # (deal seat, action) per action, in order
        self.crc = 0xFFFF            # CRC-16 of the log so far
        self.requested = -1          # log index at which this device asked to close (saved:
                                     # the close may come back after a restart)
        self._volatile()

    def _volatile(self):
        """What the other device will tell again (never saved)."""
        self.offer = None            # (match id, commitment, Proposal) received
        self.inbox = []              # (seat, action, granted) to apply, oldest first
        self.peer_count = 0          # actions the other device has (at least)
        self.problem = None          # why the match stopped

    # ---- what the screens ask ------------------------------------------------------

    def count(self):
        """Actions in the log."""
        return len(self.log) // 2

    def state(self):
        if self.problem:
            return STOPPED
        if self.link.state == CLASH:
            return VERSION
        if not self.link.up() or self.peer is None or self._other_device():
            return CONNECTING if self.phase == NONE else WAITING
        if self.phase == NONE:
            return OFFER if self.offer else IDLE
        if self.phase == PROPOSED:
            return PROPOSING
        if self.phase != PLAYING:
            return SHUFFLING
        if self.match.over:
            return OVER
        return PLAYING_NOW if self._synced() else WAITING

    def message(self):
        """One line for the screen about the current state."""
        s = self.state()
        link = self.link
        if s == STOPPED:
            return self.problem
        if s == VERSION:
            return "The other device speaks link version " + str(link.peer_version) + \
                ", this one " + str(link.version) + ": give both the same game version"
        if s == CONNECTING:
            return "Connect the link cable to the other device"
        if s == WAITING:
            if self.link.up() and self._other_device():
                return "Connected to " + link.peer_name + ", not the device of this match"
            return "Waiting for the other device"
        if s == OFFER:
            return link.peer_name + " offers a match"
        if s == PROPOSING:
            return "Waiting for " + link.peer_name + " to accept"
        if s == SHUFFLING:
            return "Shuffling"
        if s == IDLE:
            return "Connected to " + link.peer_name
        return ""

    def in_match(self):
        """True while a match is being set up or played (not once it is over)."""
        return self.phase != NONE and (self.match is None or not self.match.over)

    def local_player(self):
        """The match player this device holds (None before a proposal)."""
        if self.proposal is None:
            return None
        return self.proposal.seats.index(self.role)

    def device_of(self, player):
        """PROPOSER or ACCEPTER: the device that moves for a match player."""
        owner = self.proposal.seats[player]
        return PROPOSER if owner == COMPUTER else owner

    def to_act(self):
        """The match player to act, or None (no match, deal or match over)."""
        m = self.match
        if m is None or m.deal.ended or m.over:
            return None
        return m.player_at(m.deal.to_act)

    def my_turn(self):
        """True when this device's player may act now."""
        p = self._my_move()
        return p is not None and self.proposal.seats[p] == self.role

    def computer_turn(self):
        """True when a computer player is to act and this device plays it."""
        p = self._my_move()
        return p is not None and self.proposal.seats[p] == COMPUTER

    def incoming(self):
        """(seat, action) of the next move from the other device to show, or None."""
        if not self.inbox or self.problem:
            return None
        return self.inbox[0][0], self.inbox[0][1]

    def close_requested(self):
        """True while this device's request to close is waiting for the other device."""
        return self.requested == self.count() and not self.problem

    # ---- what the screens do ----------------------------------------------------------

    def propose(self, rules, counting="casual", seats=None):
        """Offer a match to the connected device; False when not possible now."""
        if self.phase != NONE or self.offer or self.state() != IDLE:
            return False
        proposal = Proposal(rules, counting, seats or default_seats(rules.players))
        self.role = PROPOSER
        self.proposal = proposal
        self.nonce = random_id(self.entropy)
        self.value = fairseed.new_value(self.entropy)
        self.peer_id = self.link.peer_id
        self.phase = PROPOSED
        self.changed = True
        self._send_propose()
        return True

    def accept(self):
        """Accept the offer on screen; False when there is none (or no link)."""
        o = self.offer
        if o is None or self.phase != NONE or not self.link.up():
            return False
        self.role = ACCEPTER
        self.nonce, self.peer_commit, self.proposal = o
        self.value = fairseed.new_value(self.entropy)
        self.peer_id = self.link.peer_id
        self.phase = ACCEPTED
        self.offer = None
        self.changed = True
        self._send_accept()
        return True

    def leave(self):
        """Decline the offer, withdraw the proposal or leave the match (also after it
        stopped or ended); the other device is told when the link is up, and hears this
        one's new STATUS (an offer it made meanwhile comes again)."""
        nonce = self.offer[0] if self.offer else self.nonce
        if nonce:
            out = bytearray((LEAVE,))
            put32(out, nonce)
            self.link.send(out)
        if self.phase != NONE:
            self.changed = True
        self._forget()
        self._send_status()

    def apply(self, action, seat):
        """Play an action of a deal seat: the head of incoming(), or this device's own
        (its player, or a computer player it plays). IllegalMove when not allowed; an
        illegal action of the other device also stops the match (state STOPPED)."""
        m = self.match
        if m is None or self.problem:
            raise IllegalMove("no linked match in play")
        if not (0 <= action < 256 and 0 <= seat < 4):
            raise IllegalMove("unknown action")
        if m.deal.ended or m.over:
            raise IllegalMove("the deal is over")
        if self.inbox and self.inbox[0][0] == seat and self.inbox[0][1] == action:
            granted = self.inbox.pop(0)[2]
            if granted:                          # the other device's close, in our turn
                self._commit(action, seat)
            else:
                self._take(action, seat)
            return
        if self.inbox:
            raise IllegalMove("the other device has moved: show its move first")
        if self._my_move() is None or seat >= len(m.deal.hands) \
                or self.device_of(m.player_at(seat)) != self.role:
            raise IllegalMove("not this device's turn" if self._synced() else "waiting for the other device")
        self._commit(action, seat)

    def request_close(self):
        """Russian rules: ask to close the talon before the other player leads. The close
        arrives later through incoming() if the other device still allows it."""
        m = self.match
        if not self._synced() or self.inbox or m.rules.closing != "either" or self.to_act() is None:
            return False
        seat = m.seat_of(self.local_player())
        d = m.deal
        if seat == d.to_act or seat >= len(d.hands) or CLOSE not in d.legal_actions(seat):
            return False
        self.requested = self.count()
        self.changed = True
        self._send_request()
        return True

    def poll(self, now):
        """Run the link and take in what the other device sent."""
        link = self.link
        link.poll(now)
        if link.ups != self.ups:
            self.ups = link.ups
            self.peer = None
            self.peer_count = 0
            self._send_status()
            if self.close_requested():
                self._send_request()
        while link.inbox:
            p = link.inbox.pop(0)
            try:
                self._receive(p)
            except (IndexError, ValueError):
                pass                             # a malformed message: as if never sent

    # ---- the log ---------------------------------------------------------------------

    def _commit(self, action, seat):
        """Apply an action this device writes into the log, save-mark it and send it."""
        self.match.apply(action, seat)
        i = self.count()
        self._append(seat, action)
        out = bytearray((ACTIONS,))
        put16(out, i)
        out.append(seat)
        out.append(action)
        self.link.send(out)

    def _append(self, seat, action):
        pair = bytes((seat, action))
        self.log.extend(pair)
        self.crc = crc16(pair, self.crc)
        self.changed = True

    def _take(self, action, seat):
        """An action of the other device: checked by ownership and by the rules engine."""
        m = self.match
        d = m.deal
        i = self.count()
        if seat >= len(d.hands):
            self._refuse(i, "a seat that does not play now")
        owner = self.device_of(m.player_at(seat))
        mine_granted = action == CLOSE and owner == self.role and self.requested == i
        if owner == self.role and not mine_granted:
            self._refuse(i, "a move for this device's player")
        try:
            m.apply(action, seat)
        except IllegalMove as e:
            self._refuse(i, str(e.args[0]) if e.args else "an illegal move")
        self._append(seat, action)

    def _refuse(self, index, why):
        self._stop("The other device made a move the rules forbid: " + why,
                   "it refused your move " + str(index + 1) + ": " + why)
        raise IllegalMove(self.problem)

    def _my_move(self):
        """The player to act when this device may move for it now, else None."""
        p = self.to_act()
        if p is None or self.inbox or not self._synced() or self.device_of(p) != self.role:
            return None
        return p

    def _synced(self):
        return self.phase == PLAYING and self.link.up() and self.peer is not None and not self.problem \
            and not self._other_device() and self.count() + len(self.inbox) >= self.peer_count

    def _other_device(self):
        return self.phase != NONE and self.peer_id is not None and self.link.peer_id != self.peer_id

    # ---- messages out -------------------------------------------------------------------

    def _send_status(self):
        out = bytearray((STATUS, self.phase, self.role))
        put32(out, self.nonce)
        put16(out, self.count())
        put16(out, self.crc)
        self.link.send(out)

    def _send_request(self):
        out = bytearray((REQUEST,))
        put16(out, self.requested)
        out.append(self.match.seat_of(self.local_player()))
        out.append(CLOSE)
        self.link.send(out)

    def _send_propose(self):
        out = bytearray((PROPOSE,))
        put32(out, self.nonce)
        out.extend(fairseed.commitment(self.value))
        out.extend(self.proposal.to_bytes())
        self.link.send(out)

    def _send_accept(self):
        out = bytearray((ACCEPT,))
        put32(out, self.nonce)
        out.extend(fairseed.commitment(self.value))
        self.link.send(out)

    def _send_reveal(self):
        out = bytearray((REVEAL,))
        put32(out, self.nonce)
        out.extend(self.value)
        self.link.send(out)

    def _send_actions(self, start):
        """The log from `start` on, in as few messages as fit."""
        per = (MAX_PAYLOAD - 3) // 2
        n = self.count()
        while start < n:
            end = min(n, start + per)
            out = bytearray((ACTIONS,))
            put16(out, start)
            out.extend(self.log[2 * start:2 * end])
            self.link.send(out)
            start = end

    def _withdraw(self, notice):
        """Drop this device's proposal."""
        self._forget()
        self.changed = True
        self.notice = notice

    def _left(self, why):
        """The other device is no longer in this match: it stops, unless it was over."""
        if self.match is None or not self.match.over:
            self._stop(why)

    def _stop(self, why, tell=None):
        """Stop the match with a message; `tell`: what the other device shows after
        "The other device stopped the match: " (None: it finds out by itself)."""
        self.problem = why
        self.inbox = []
        if tell is not None:
            out = bytearray((DISAGREE,))
            put16(out, self.count())
            out.extend(tell.encode()[:MAX_PAYLOAD - 3])
            self.link.send(out)

    # ---- messages in ---------------------------------------------------------------------

    def _receive(self, p):
        kind = p[0]
        if kind == STATUS:
            self._on_status(p[1], u32(p, 3), u16(p, 7), u16(p, 9))
        elif kind == PROPOSE:
            self._on_propose(u32(p, 1), bytes(p[5:37]), p)
        elif kind == ACCEPT:
            self._on_accept(u32(p, 1), bytes(p[5:37]))
        elif kind == REVEAL:
            self._on_reveal(u32(p, 1), bytes(p[5:21]))
        elif kind == ACTIONS:
            self._on_actions(u16(p, 1), p[3:])
        elif kind == REQUEST:
            self._on_request(u16(p, 1), p[3], p[4])
        elif kind == LEAVE:
            self._on_leave(u32(p, 1))
        elif kind == DISAGREE and self.phase != NONE and not self.problem:
            self.problem = "The other device stopped the match: " + bytes(p[3:]).decode()

    def _on_status(self, phase, nonce, count, crc):
        self.peer = (phase, nonce, count, crc)
        if self.offer and (phase != PROPOSED or nonce != self.offer[0]):
            self.offer = None                    # withdrawn while the link was down
            self.notice = "The other device withdrew its offer"
        if self.phase == NONE or self._other_device():
            return
        if nonce != self.nonce:
            if self.phase != PROPOSED:
                self._left("The other device is in another match" if phase > PROPOSED
                           else "The other device has left this match")
            elif phase == NONE or phase == PROPOSED and self.link.device_id > self.link.peer_id:
                self._send_propose()             # not seen yet, or both proposed at once and ours stands
            elif phase == PROPOSED:
                self._withdraw(None)             # both proposed at once: the other device's stands
            else:
                self._withdraw("The other device is still in another match")
            return
        if phase == PLAYING and self.phase == PLAYING:
            self._compare(count, crc)
        elif phase == PROPOSED and self.phase == ACCEPTED:
            self._send_accept()
        elif phase == ACCEPTED and self.phase in (REVEALED, PLAYING) and self.role == PROPOSER \
                or phase == REVEALED and self.phase == PLAYING and self.role == ACCEPTER:
            self._send_reveal()

    def _compare(self, count, crc):
        """Both play this match: the one ahead sends what the other lacks."""
        self.peer_count = count
        mine = self.count()
        if count <= mine and (crc16(self.log[:2 * count]) if count < mine else self.crc) != crc:
            why = "the two devices disagree about this match (moves: " + str(mine) + " and " + str(count) + ")"
            self._stop("The devices stopped: " + why, why)
        elif count < mine:
            self._send_actions(count)

    def _on_propose(self, nonce, commit, p):
        try:
            proposal = Proposal.from_bytes(p, 37)[0]
        except ValueError as e:
            out = bytearray((LEAVE,))
            put32(out, nonce)
            self.link.send(out)
            self.notice = "The other device offers a game this one does not know (" + str(e) + ")"
            return
        if self.phase == PROPOSED and nonce != self.nonce:
            if self.link.device_id > self.link.peer_id:
                return                           # both proposed at once: ours stands
            self._withdraw(None)
        if self.phase == NONE:
            if not self.offer or self.offer[0] != nonce:
                self.offer = (nonce, commit, proposal)
        elif nonce == self.nonce and self.phase == ACCEPTED:
            self._send_accept()

    def _on_accept(self, nonce, commit):
        if nonce != self.nonce or self.role != PROPOSER:
            return
        if self.phase == PROPOSED:
            self.peer_commit = commit
            self.phase = REVEALED
            self.changed = True
            self._send_reveal()
        elif self.phase != NONE and commit != self.peer_commit:
            self._stop("The other device changed its shuffle commitment", "it saw your shuffle commitment change")

    def _on_reveal(self, nonce, value):
        if nonce != self.nonce or self.phase not in (ACCEPTED, REVEALED, PLAYING):
            return
        if self.phase == PLAYING:
            if value != self.peer_value:
                self._stop("The other device changed its shuffle value", "it saw your shuffle value change")
            return
        if not fairseed.opens(value, self.peer_commit):
            self._stop("The other device's shuffle value does not match its commitment",
                       "your shuffle value does not match your commitment")
            return
        self.peer_value = value
        self._start()
        self.changed = True
        if self.role == ACCEPTER:
            self._send_reveal()

    def _start(self):
        from shared_rules.family import new_match
        pv, av = (self.value, self.peer_value) if self.role == PROPOSER else (self.peer_value, self.value)
        p = self.proposal
        self.match = new_match(p.rules, p.counting, fairseed.match_seed(pv, av))
        self.phase = PLAYING

    def _on_actions(self, index, pairs):
        if self.phase != PLAYING or self.problem:
            return
        base = self.count()
        n = len(pairs) // 2
        for k in range(n):
            i = index + k
            seat, action = pairs[2 * k], pairs[2 * k + 1]
            if i < base:
                same = self.log[2 * i] == seat and self.log[2 * i + 1] == action
            elif i < base + len(self.inbox):
                e = self.inbox[i - base]
                same = e[0] == seat and e[1] == action
            elif i == base + len(self.inbox):
                self.inbox.append((seat, action, False))
                continue
            else:
                self._send_status()              # a gap: ask for the missing part
                break
            if not same:
                why = "the two devices disagree about move " + str(i + 1)
                self._stop("The devices stopped: " + why, why)
                return
        self.peer_count = max(self.peer_count, index + n)

    def _on_request(self, index, seat, action):
        m = self.match
        if action != CLOSE or index != self.count() or self.inbox or self._my_move() is None:
            return
        d = m.deal
        if seat < len(d.hands) and self.device_of(m.player_at(seat)) != self.role \
                and CLOSE in d.legal_actions(seat):
            self.inbox.append((seat, CLOSE, True))

    def _on_leave(self, nonce):
        if self.offer and self.offer[0] == nonce:
            self.offer = None
            self.notice = "The other device withdrew its offer"
        elif nonce == self.nonce and self.phase == PROPOSED:
            self._withdraw("The other device declined")
        elif nonce == self.nonce and self.phase != NONE and not self.problem:
            self._left("The other device has left this match")

    # ---- saved state -------------------------------------------------------------------

    def header(self):
        """What a save keeps besides the moves and a close request (docs/LINK.md); empty
        when there is no match. It changes only during the set-up."""
        if self.phase == NONE:
            return b""
        out = bytearray((MAGIC, FORMAT, self.phase, self.role))
        put32(out, self.peer_id or 0)
        put32(out, self.nonce)
        out.extend(self.proposal.to_bytes())
        out.extend(self.value)
        out.extend(self.peer_commit or bytes(32))
        out.extend(self.peer_value or bytes(16))
        return bytes(out)

    def _load(self, raw, moves, requested):
        """Rebuild from a header, the moves and a close request; ValueError (a fresh
        session) when they make no sense."""
        try:
            if raw[0] != MAGIC or raw[1] != FORMAT or raw[2] not in (PROPOSED, ACCEPTED, REVEALED, PLAYING) \
                    or raw[3] not in (PROPOSER, ACCEPTER):
                raise ValueError("not a linked match")
            proposal, i = Proposal.from_bytes(raw, 12)
            if len(raw) != i + 64:
                raise ValueError("bad length")
            self.phase, self.role = raw[2], raw[3]
            self.peer_id = u32(raw, 4)
            self.nonce = u32(raw, 8)
            self.proposal = proposal
            self.value = bytes(raw[i:i + 16])
            if self.phase != PROPOSED:           # the accepter holds it from the offer
                self.peer_commit = bytes(raw[i + 16:i + 48])
            if self.phase == PLAYING:
                self.peer_value = bytes(raw[i + 48:i + 64])
                self._start()
                self._replay(moves)
                self.requested = requested
            else:
                for _ in moves:
                    raise ValueError("moves before the match began")
        except (IndexError, KeyError, TypeError, ValueError, IllegalMove) as e:
            self._forget()
            raise ValueError("bad linked match save: " + str(e))

    def _replay(self, moves):
        m = self.match
        for seat, action in moves:
            if m.deal.ended and not m.over:
                m.next_deal()
            if seat < 0:
                seat = m.deal.to_act
            m.apply(action, seat)
            self._append(seat, action)
        self.changed = False


def sync(st, session):
    """Save what the session changed in `st` (a sixtysix.store.Store): its header when the
    set-up moved on or the match was left, a close asked for. Call it whenever `changed`
    is set, before the next poll; each move is logged (st.action) as it is applied."""
    if not session.changed:
        return
    session.changed = False
    h = session.header()
    kept = st.header(LINKED)
    if h != kept and (h or kept is not None):      # (no linked match: a local one stays)
        st.start_deal(h, LINKED)
    if session.close_requested() and asked(st) != session.requested:
        st.append(small(ASKED, session.requested & 255, session.requested >> 8))


def asked(st):
    """The log index of the newest close asked for in the store's linked match, or -1."""
    r = st.records
    out = -1
    i = size(r, 0) if r else 0
    while i < len(r):
        if r[i] == ASKED:
            out = r[i + 1] | r[i + 2] << 8
        i += size(r, i)
    return out


def restore(st, link, entropy):
    """The session of the linked match in `st` (a fresh one if there is none); ValueError
    when the save makes no sense."""
    h = st.header(LINKED)
    return LinkedMatch(link, entropy, (h, st.actions(), asked(st)) if h else None)


def random_id(entropy):
    """A random non-zero 30-bit number (match ids, device ids)."""
    b = entropy(4)
    return ((b[0] & 0x3F) << 24 | b[1] << 16 | b[2] << 8 | b[3]) or 1


def drop(app):
    """Link play's session and modules (~21 KB) leave the heap while a match that is not
    linked plays (App.start), so that Hard's search fits: once the link has told the other
    device what it still had to (leaving a linked match), or is down. The port stays;
    choosing link play again makes a new session on it (sixtysix.friends)."""
    s = app.session
    if s is None or app.name == "link" or s.in_match():
        return                                  # in use again meanwhile
    if s.link.up() and s.link.out:
        app.warm.insert(0, lambda: drop(app))   # again in the next frame
        return
    app.session = app.sync = None
    import sixtysix
    sixtysix.forget("linkmatch", "link", "fairseed", "sha256")
