"""The link cable: framed, checked, acknowledged messages between two devices.

A frame (docs/LINK.md has the whole protocol):

    0x5A 0xC3   sync marker
    len         payload bytes, 0..MAX_PAYLOAD
    kind        HELLO, DATA or ACK
    seq         DATA: this frame's number (0-255); otherwise 0
    ack         the number of the last DATA frame received in order
    epoch       tag of the link session (HELLO: 0): frames of an older session are ignored
    payload
    crc         CRC-16/CCITT of len..payload, low byte first

A receiver hunts for the sync marker and drops frames whose length or CRC is wrong,
so garbage, torn frames and flipped bits cost only a resend. DATA frames go one at a
time (stop-and-wait): each is resent every RESEND seconds until acknowledged, and a
repeated one is acknowledged again but delivered once. HELLO frames carry the protocol
version, a fresh random number per link session (the nonce) and the one heard from the
other device: the link is up once each side has heard its own nonce echoed, and goes
down when nothing valid arrived for TIMEOUT seconds (a keep-alive ACK goes out every
KEEPALIVE seconds when there is nothing else to say). A device of another protocol
version puts the link in CLASH; the version is the first HELLO byte in every version.

Non-blocking: poll(now) is called every pass of the main loop with the time in seconds;
it first transmits (so whatever the previous poll received has been saved by then), then
reads what has arrived. `port` is anything with read(n), write(b) and in_waiting:
busio.UART(..., timeout=0) on the board, tools.linkport on a PC.
"""
from sixtysix.save.format import crc16

VERSION = 1
SYNC0 = 0x5A
SYNC1 = 0xC3
HELLO = 1
DATA = 2
ACK = 3
OVERHEAD = 9             # sync 2, header 5, CRC 2
MAX_PAYLOAD = 120
UP_FLAG = 1              # HELLO flags: the sender's link is up

RESEND = 0.5             # seconds before an unacknowledged DATA frame goes again
KEEPALIVE = 1.0          # seconds of silence before an ACK is sent anyway
TIMEOUT = 5.0            # seconds without a valid frame: the other device is gone
HELLO_EVERY = 0.25       # seconds between HELLOs while the link is down
STALE = 0.3              # seconds a torn frame may wait for the rest of its bytes

DOWN = "down"
UP = "up"
CLASH = "clash"


def frame(kind, seq, ack, epoch, payload):
    """The bytes of one frame."""
    n = len(payload)
    if n > MAX_PAYLOAD:
        raise ValueError("payload too long: " + str(n))
    body = bytes((n, kind, seq, ack, epoch)) + payload
    c = crc16(body)
    return bytes((SYNC0, SYNC1)) + body + bytes((c & 255, c >> 8))


def u16(b, i):
    return b[i] | b[i + 1] << 8


def u32(b, i):
    return b[i] | b[i + 1] << 8 | b[i + 2] << 16 | (b[i + 3] & 0x3F) << 24


def put16(out, v):
    out.append(v & 255)
    out.append(v >> 8 & 255)


def put32(out, v):
    """A 30-bit number (device ids, match ids) as 4 bytes."""
    put16(out, v & 0xFFFF)
    put16(out, v >> 16)


class Link:
    """One end of the cable. `device_id` (30-bit) and `name` say who this device is;
    `entropy(n)` gives n random bytes for the link nonces."""

    def __init__(self, port, device_id, name, entropy, version=VERSION):
        self.port = port
        self.device_id = device_id
        self.name = name
        self.entropy = entropy
        self.version = version
        self.state = DOWN
        self.peer_id = None          # who is (or was last) at the other end
        self.peer_name = ""
        self.peer_version = None
        self.nonce = self._fresh()
        self.peer_nonce = 0
        self.epoch = 0
        self.hello_due = True
        self.ups = 0                 # link sessions so far: the session layer resyncs on each
        self.inbox = []              # delivered DATA payloads, oldest first
        self.out = []                # payloads waiting to go, out[0] in flight
        self.tx_seq = 0
        self.sent_at = -1.0          # when out[0] last went (-1: not yet)
        self.rx_next = 0
        self.ack_due = False
        self.rx = bytearray()
        self.torn_since = -1.0       # when the partial frame at the head of rx was first seen
        self.heard = 0.0             # when the last valid frame arrived
        self.said = -HELLO_EVERY     # when the last frame went out
        self.sent_bytes = 0          # totals, for the figures in docs/LINK.md
        self.received_bytes = 0
        self.resends = 0

    def _fresh(self):
        b = self.entropy(2)
        return (b[0] << 8 | b[1]) or 1

    # ---- the upper layer's side -------------------------------------------------

    def up(self):
        return self.state == UP

    def send(self, payload):
        """Queue a message for the other device; False (dropped) while the link is down.
        After every link-up the upper layer restates what it needs (sixtysix.link.match)."""
        if self.state != UP:
            return False
        self.out.append(bytes(payload))
        return True

    def poll(self, now):
        """Transmit what is due, then take in what arrived; never waits."""
        if self.state == UP and now - self.heard > TIMEOUT:
            self._down()
        self._transmit(now)
        self._receive(now)

    # ---- sending --------------------------------------------------------------------

    def _write(self, kind, seq, payload, now):
        data = frame(kind, seq, (self.rx_next - 1) & 255, self.epoch if kind != HELLO else 0, payload)
        try:
            self.port.write(data)
        except OSError:
            pass                     # a broken transport is a pulled cable: resends and timeouts cope
        self.sent_bytes += len(data)
        self.said = now

    def _hello(self, now):
        out = bytearray((self.version, UP_FLAG if self.state == UP else 0))
        put16(out, self.nonce)
        put16(out, self.peer_nonce)
        put32(out, self.device_id)
        out.extend(self.name.encode()[:16])
        self._write(HELLO, 0, out, now)
        self.hello_due = False

    def _transmit(self, now):
        if self.state != UP:
            if self.hello_due or now - self.said >= HELLO_EVERY:
                self._hello(now)
            return
        if self.hello_due:
            self._hello(now)
        if self.out and (self.sent_at < 0 or now - self.sent_at >= RESEND):
            if self.sent_at >= 0:
                self.resends += 1
            self._write(DATA, self.tx_seq, self.out[0], now)
            self.sent_at = now
            self.ack_due = False
        elif self.ack_due or now - self.said >= KEEPALIVE:
            self._write(ACK, 0, b"", now)
            self.ack_due = False

    # ---- receiving ------------------------------------------------------------------

    def _receive(self, now):
        try:
            n = self.port.in_waiting
            data = self.port.read(n) if n else None
        except OSError:
            data = None
        if data:
            self.received_bytes += len(data)
            self.rx.extend(data)
        rx = self.rx
        i = 0
        while True:
            while i < len(rx) - 1 and not (rx[i] == SYNC0 and rx[i + 1] == SYNC1):
                i += 1
            if len(rx) - i < 7:
                break
            n = rx[i + 2]
            end = i + OVERHEAD + n
            if n > MAX_PAYLOAD:
                i += 1
                continue
            if end > len(rx):
                if self.torn_since < 0:
                    self.torn_since = now
                if now - self.torn_since <= STALE:
                    break
                i += 1                   # the rest never came (a pulled cable): hunt on
                self.torn_since = -1.0
                continue
            self.torn_since = -1.0
            if crc16(rx[i + 2:end - 2]) != u16(rx, end - 2):
                i += 1
                continue
            self._frame(rx[i + 3], rx[i + 4], rx[i + 5], rx[i + 6], bytes(rx[i + 7:end - 2]), now)
            i = end
        if i:
            self.rx = rx[i:]

    def _frame(self, kind, seq, ack, epoch, payload, now):
        if kind == HELLO:
            self._on_hello(payload, now)
            return
        if self.state != UP or epoch != self.epoch:
            return
        self.heard = now
        if self.out and self.sent_at >= 0 and ack == self.tx_seq:
            self.out.pop(0)
            self.tx_seq = (self.tx_seq + 1) & 255
            self.sent_at = -1.0
        if kind == DATA:
            if seq == self.rx_next:
                self.inbox.append(payload)
                self.rx_next = (self.rx_next + 1) & 255
                self.ack_due = True
            elif seq == (self.rx_next - 1) & 255:
                self.ack_due = True      # a repeat: our ack was lost; say it again

    def _on_hello(self, p, now):
        if not p:
            return
        if p[0] != self.version:
            self.peer_version = p[0]
            if self.state == UP:
                self._down()
            self.state = CLASH
            return
        if len(p) < 10:
            return
        self.peer_version = p[0]
        nonce = u16(p, 2)
        if self.state == CLASH:
            self.state = DOWN
        if nonce != self.peer_nonce:
            if self.state == UP:
                self._down()             # the other device restarted its side of the link
            self.peer_nonce = nonce
        self.peer_id = u32(p, 6)
        try:
            self.peer_name = bytes(p[10:]).decode()
        except UnicodeError:
            self.peer_name = "?"
        self.heard = now
        if u16(p, 4) == self.nonce and self.state != UP:
            self._come_up(now)
        if not p[1] & UP_FLAG:
            self.hello_due = True        # the other side has not heard us echo it yet

    def _come_up(self, now):
        self.state = UP
        self.epoch = (self.nonce ^ self.peer_nonce) & 255
        self.out = []
        self.tx_seq = 0
        self.rx_next = 0
        self.sent_at = -1.0
        self.ack_due = False
        self.heard = now
        self.ups += 1

    def _down(self):
        self.state = DOWN
        self.nonce = self._fresh()
        self.peer_nonce = 0
        self.out = []
        self.hello_due = True
