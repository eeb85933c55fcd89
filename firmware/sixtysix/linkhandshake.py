"""A linked match's set-up (sixtysix.linkmatch's LinkedMatch is one): a proposal, its
acceptance, declined or withdrawn, and the fair seed (sixtysix.fairseed: both commit,
then both reveal), which starts the match. Parted from the play so that no module of
link play takes longer than a frame to compile on the board. sixtysix.fairseed (and
the sha256 under it) is imported where the set-up uses it: a linked match's table
forgets them (sixtysix.linksession.start_linked), 3.6 KB a match never needs.
"""
from sixtysix.link import put16, put32
from sixtysix.linkterms import STATUS, PROPOSE, ACCEPT, REVEAL, LEAVE, NONE, PROPOSED, ACCEPTED, REVEALED, \
    PLAYING, PROPOSER, ACCEPTER, IDLE, Proposal, default_seats, random_id


class Handshake:
    """The set-up of a LinkedMatch: what a session is before its match plays."""

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

    def propose(self, rules, counting="casual", seats=None):
        """Offer a match to the connected device; False when not possible now."""
        if self.phase != NONE or self.offer or self.state() != IDLE:
            return False
        proposal = Proposal(rules, counting, seats or default_seats(rules.players))
        self.role = PROPOSER
        self.proposal = proposal
        self.nonce = random_id(self.entropy)
        from sixtysix import fairseed
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
        from sixtysix import fairseed
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

    def _send_status(self):
        out = bytearray((STATUS, self.phase, self.role))
        put32(out, self.nonce)
        put16(out, self.count())
        put16(out, self.crc)
        self.link.send(out)

    def _send_propose(self):
        out = bytearray((PROPOSE,))
        put32(out, self.nonce)
        from sixtysix import fairseed
        out.extend(fairseed.commitment(self.value))
        out.extend(self.proposal.to_bytes())
        self.link.send(out)

    def _send_accept(self):
        out = bytearray((ACCEPT,))
        put32(out, self.nonce)
        from sixtysix import fairseed
        out.extend(fairseed.commitment(self.value))
        self.link.send(out)

    def _send_reveal(self):
        out = bytearray((REVEAL,))
        put32(out, self.nonce)
        out.extend(self.value)
        self.link.send(out)

    def _withdraw(self, notice):
        """Drop this device's proposal."""
        self._forget()
        self.changed = True
        self.notice = notice

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
        from sixtysix import fairseed
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
        from sixtysix import fairseed
        self.match = new_match(p.rules, p.counting, fairseed.match_seed(pv, av))
        self.phase = PLAYING
