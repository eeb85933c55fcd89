"""A linked match's play (sixtysix.link.match's LinkedMatch is one): the shared action
log, each position written by the device that holds the player to act; the other
device's moves checked by owner and by the rules engine; a close asked out of turn;
the log compared after each link-up. Parted from the session's state and what it hears
so that no module of link play takes longer than a frame to load on the board.
"""
from shared_rules.actions import CLOSE
from shared_rules.errors import IllegalMove
from sixtysix.save.format import crc16
from sixtysix.link.cable import MAX_PAYLOAD, put16
from sixtysix.link.terms import ACTIONS, REQUEST, DISAGREE, PLAYING, NONE

# Moves the log keeps, each with the CRC of the log up to it: the other device is behind
# by the moves this one made while it was away (its own player's and the computers', a
# trick or two), never by more, since each device saves a move before sending it. A
# window of fixed size keeps a long match's heap flat (docs/LINK.md).
WINDOW = 32


class Play:
    """The play of a LinkedMatch."""

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
        crc = self.crc = crc16(bytes((seat, action)), self.crc)
        r = self.recent
        i = 4 * (self.moves % WINDOW)
        r[i] = seat
        r[i + 1] = action
        r[i + 2] = crc & 255
        r[i + 3] = crc >> 8
        self.moves += 1
        self.changed = True

    def move(self, i):
        """(seat, action) at log position i; None when it left the window (or is not
        there yet)."""
        if not max(0, self.moves - WINDOW) <= i < self.moves:
            return None
        j = 4 * (i % WINDOW)
        return self.recent[j], self.recent[j + 1]

    def crc_at(self, n):
        """The CRC of the log's first n moves; None when the window no longer has it."""
        if n == self.moves:
            return self.crc
        if n == 0:
            return 0xFFFF if self.moves <= WINDOW else None
        if self.move(n - 1) is None:
            return None
        j = 4 * ((n - 1) % WINDOW)
        return self.recent[j + 2] | self.recent[j + 3] << 8

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

    def _send_request(self):
        out = bytearray((REQUEST,))
        put16(out, self.requested)
        out.append(self.match.seat_of(self.local_player()))
        out.append(CLOSE)
        self.link.send(out)

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
