"""What a linked match hears from the other device (sixtysix.link.match's LinkedMatch is
one): the link run every pass, each message taken in: its STATUS after every link-up
(the set-up resent where the other device is behind, the logs compared), its moves
and a close it asks for, its proposal, acceptance, reveal, leaving or disagreement (the
set-up's steps are sixtysix.link.handshake's, loaded while a match is set up).
"""
from shared_rules.actions import CLOSE
from sixtysix.link.cable import MAX_PAYLOAD, put16, u16, u32
from sixtysix.link.play import Play
from sixtysix.link.terms import STATUS, PROPOSE, ACCEPT, REVEAL, ACTIONS, REQUEST, LEAVE, DISAGREE, \
    NONE, PROPOSED, ACCEPTED, REVEALED, PLAYING, PROPOSER, ACCEPTER


class Heard(Play):
    """The messages in of a LinkedMatch."""

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

    def _receive(self, p):
        kind = p[0]
        if kind == STATUS:
            self._on_status(p[1], u32(p, 3), u16(p, 7), u16(p, 9))
        elif kind == PROPOSE:
            if self.phase != PLAYING:           # (a new offer waits for this match to be left)
                from sixtysix.link import handshake
                handshake.on_propose(self, u32(p, 1), bytes(p[5:37]), p)
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
            else:
                from sixtysix.link import handshake as h
                if phase == NONE or phase == PROPOSED and self.link.device_id > self.link.peer_id:
                    h.send_propose(self)         # not seen yet, or both proposed at once and ours stands
                elif phase == PROPOSED:
                    h.withdraw(self, None)       # both proposed at once: the other device's stands
                else:
                    h.withdraw(self, "The other device is still in another match")
            return
        if phase == PLAYING and self.phase == PLAYING:
            self._compare(count, crc)
        elif phase == PROPOSED and self.phase == ACCEPTED:
            from sixtysix.link.handshake import send_accept
            send_accept(self)
        elif phase == ACCEPTED and self.phase in (REVEALED, PLAYING) and self.role == PROPOSER \
                or phase == REVEALED and self.phase == PLAYING and self.role == ACCEPTER:
            self._send_reveal()

    def _on_accept(self, nonce, commit):
        if nonce != self.nonce or self.role != PROPOSER:
            return
        if self.phase == PROPOSED:
            from sixtysix.link.handshake import accepted
            accepted(self, commit)
        elif self.phase != NONE and commit != self.peer_commit:
            self._stop("The other device changed its shuffle commitment", "it saw your shuffle commitment change")

    def _on_reveal(self, nonce, value):
        if nonce != self.nonce or self.phase not in (ACCEPTED, REVEALED, PLAYING):
            return
        if self.phase != PLAYING:
            from sixtysix.link.handshake import revealed
            revealed(self, value)
        elif value != self.peer_value:
            self._stop("The other device changed its shuffle value", "it saw your shuffle value change")

    def _compare(self, count, crc):
        """Both play this match: the one ahead sends what the other lacks."""
        self.peer_count = count
        mine = self.count()
        if count > mine:
            return
        ours = self.crc_at(count)
        if ours != crc:
            moves = " (moves: " + str(mine) + " and " + str(count) + ")"
            why = ("the two devices disagree about this match" if ours is not None
                   else "one device is too far behind to catch up") + moves
            self._stop("The devices stopped: " + why, why)
        elif count < mine:
            self._send_actions(count)

    def _on_actions(self, index, pairs):
        if self.phase != PLAYING or self.problem:
            return
        base = self.count()
        n = len(pairs) // 2
        for k in range(n):
            i = index + k
            seat, action = pairs[2 * k], pairs[2 * k + 1]
            if i < base:
                same = self.move(i) in (None, (seat, action))    # (gone: the CRCs compare it)
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

    def _send_actions(self, start):
        """The log from `start` on, in as few messages as fit."""
        per = (MAX_PAYLOAD - 3) // 2
        n = self.count()
        while start < n:
            end = min(n, start + per)
            out = bytearray((ACTIONS,))
            put16(out, start)
            for i in range(start, end):
                seat, action = self.move(i)
                out.append(seat)
                out.append(action)
            self.link.send(out)
            start = end

    def _on_leave(self, nonce):
        if self.offer and self.offer[0] == nonce:
            self.offer = None
            self.notice = "The other device withdrew its offer"
        elif nonce == self.nonce and self.phase == PROPOSED:
            from sixtysix.link.handshake import withdraw
            withdraw(self, "The other device declined")
        elif nonce == self.nonce and self.phase != NONE and not self.problem:
            self._left("The other device has left this match")
