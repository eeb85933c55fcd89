"""A linked match: one match on two devices joined by the link cable (docs/LINK.md).

Set-up: either device proposes (its rule set, options with the target, counting, and
which player each device holds); the other shows the offer and accepts or declines.
The deal is then seeded fairly (sixtysix.link.fairseed: both commit, then both reveal).

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
log). The one behind receives the missing actions from the last WINDOW the other keeps;
logs that disagree on their common part, or a device further behind, stop the match;
nothing is merged.

Contract with the screens (sixtysix.link.table, sixtysix.link.screen):
- poll(now) every pass; state() and message() say what to show;
- save (sync(store, session)) whenever `changed` is set, right after a poll and BEFORE
  the next one, and log each move in the store as it is applied (the store's action
  records, as a local match's): a device's own moves and shuffle value are saved before
  they are sent;
- incoming() is the next action of the other device (or computer) to show: play it with
  apply(action, seat) like a local one; my_turn() / computer_turn() say when this device
  acts; a finished deal is followed by match.next_deal() on each device (no message).

The save (sixtysix.save.store): a LINKED record holds header() (written again at each step of
the set-up, so before any move), the moves follow as action records, and a close asked
for is an ASKED record; restore() rebuilds the session from them.
"""
from sixtysix.save.format import LINKED, ASKED, size, small
from sixtysix.link.cable import CLASH, put16, put32
from sixtysix.link.heard import Heard
from sixtysix.link.play import WINDOW
# (the phases, holders and states the screens read as link.match's too)
from sixtysix.link.terms import NONE, PROPOSED, ACCEPTED, REVEALED, PLAYING, PROPOSER, ACCEPTER, COMPUTER, \
    CONNECTING, WAITING, VERSION, IDLE, OFFER, PROPOSING, SHUFFLING, PLAYING_NOW, OVER, STOPPED, FORMAT, MAGIC, \
    STATUS, REVEAL, LEAVE


class LinkedMatch(Heard):
    """This device's side of a linked match. `link` is a sixtysix.link.cable.Link; `entropy(n)`
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
            from sixtysix.link.restore import load
            load(self, *saved)

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
        self.moves = 0               # actions in the log
        self.recent = bytearray(4 * WINDOW)  # the last WINDOW: deal seat, action, CRC (2 bytes)
        self.crc = 0xFFFF            # CRC-16 of the whole log so far
        self.requested = -1          # log index at which this device asked to close (saved:
                                     # the close may come back after a restart)
        self._volatile()

    def _volatile(self):
        """What the other device will tell again (never saved)."""
        self.offer = None            # (match id, commitment, Proposal) received
        self.inbox = []              # (seat, action, granted) to apply, oldest first
        self.peer_count = 0          # actions the other device has (at least)
        self.problem = None          # why the match stopped

    # ---- what the screens do -------------------------------------------------------

    def propose(self, rules, counting="casual", seats=None):
        """Offer a match to the connected device; False when not possible now."""
        from sixtysix.link.handshake import propose
        return propose(self, rules, counting, seats)

    def accept(self):
        """Accept the offer on screen; False when there is none (or no link)."""
        from sixtysix.link.handshake import accept
        return accept(self)

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

    def _send_status(self):
        out = bytearray((STATUS, self.phase, self.role))
        put32(out, self.nonce)
        put16(out, self.count())
        put16(out, self.crc)
        self.link.send(out)

    def _send_reveal(self):
        out = bytearray((REVEAL,))
        put32(out, self.nonce)
        out.extend(self.value)
        self.link.send(out)

    # ---- what the screens ask ------------------------------------------------------

    def count(self):
        """Actions in the log."""
        return self.moves

    def state(self):
        if self.problem:
            return STOPPED
        if self.link.state == CLASH:
            return VERSION
        if self.phase == PLAYING and self.match.over and not self.link.out:
            return OVER                 # (the other device has every move: it may go)
        if not self.link.up() or self.peer is None or self._other_device():
            return CONNECTING if self.phase == NONE else WAITING
        if self.phase == NONE:
            return OFFER if self.offer else IDLE
        if self.phase == PROPOSED:
            return PROPOSING
        if self.phase != PLAYING:
            return SHUFFLING
        return OVER if self.match.over else PLAYING_NOW if self._synced() else WAITING

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


def sync(st, session):
    """Save what the session changed in `st` (a sixtysix.save.store.Store): its header when the
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
