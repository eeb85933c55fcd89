"""Two headless devices on a link cable, with faults: the harness of the link tests.

Wire: an in-memory cable at 115200 baud (each byte arrives 10 bit-times after the one
before it) that can drop, duplicate or corrupt bytes, repeat whole frames, add noise,
and be pulled (bytes in flight are lost, so a frame is torn mid-message) and plugged back.

Device: what the firmware's screens do with a sixtysix.link.match.LinkedMatch, without
the screens: poll, save into a save store (sixtysix.save.store over a flash stand-in, as the
firmware: the moves as they are applied, link.match.sync for the rest), show the next move
of the other device, start the next deal after a result, and let its player (random
legal moves) and the computer players it holds act. power_cut() drops everything but
the nvm and boots again; cut_before_save makes the cut land between a pass's changes
and their save. (test_sim_link.py plays linked matches through the firmware itself.)
"""
import random
from collections import deque

from tools.sim import setup_paths

setup_paths()
from shared_rules.actions import BID, CLOSE, DECLARE  # noqa: E402
from shared_rules.errors import IllegalMove  # noqa: E402
from sixtysix.link import match as lm  # noqa: E402
from sixtysix.link.session import restore  # noqa: E402
from sixtysix.link.cable import Link, VERSION  # noqa: E402
from sixtysix.save.store import Store  # noqa: E402
from tools.flashnvm import FlashNVM  # noqa: E402

BYTE_TIME = 10 / 115200
STEP = 1 / 30            # seconds between main-loop passes
RARE = (CLOSE, DECLARE)  # moves that end a deal early: a random player makes them (and high bids) seldom


class Wire:
    """A cable between end 0 and end 1. Fault rates are per byte written; `repeat` per
    write (a frame arrives twice)."""

    def __init__(self, seed=0, drop=0.0, dup=0.0, corrupt=0.0, noise=0.0, repeat=0.0):
        self.rng = random.Random(seed)
        self.drop, self.dup, self.corrupt, self.noise = drop, dup, corrupt, noise
        self.repeat = repeat
        self.now = 0.0
        self.pulled = False
        self.queues = (deque(), deque())     # (arrival time, byte) towards end 0 / end 1
        self.last = [0.0, 0.0]
        self.lost = 0

    def end(self, side):
        return End(self, side)

    def pull(self):
        """Unplug: what is still on its way is lost (a torn frame), and so is what follows."""
        self.pulled = True
        for q in self.queues:
            self.lost += len(q)
            q.clear()

    def plug(self):
        self.pulled = False

    def _send(self, to, data):
        if self.pulled:
            self.lost += len(data)
            return
        if self.repeat and self.rng.random() < self.repeat:
            data = data + data
        q = self.queues[to]
        t = max(self.now, self.last[to])
        r = self.rng.random
        for b in data:
            if self.noise and r() < self.noise:
                t += BYTE_TIME
                q.append((t, self.rng.randrange(256)))
            if self.drop and r() < self.drop:
                self.lost += 1
                continue
            if self.corrupt and r() < self.corrupt:
                b ^= 1 << self.rng.randrange(8)
            t += BYTE_TIME
            q.append((t, b))
            if self.dup and r() < self.dup:
                t += BYTE_TIME
                q.append((t, b))
        self.last[to] = t

    def _arrived(self, side):
        q = self.queues[side]
        n = 0
        for t, _ in q:
            if t > self.now:
                break
            n += 1
        return n


class End:
    """One end of a Wire, with busio.UART's read/write/in_waiting."""

    def __init__(self, wire, side):
        self.wire = wire
        self.side = side

    @property
    def in_waiting(self):
        return self.wire._arrived(self.side)

    def read(self, n):
        q = self.wire.queues[self.side]
        n = min(n, self.wire._arrived(self.side))
        if not n:
            return None
        return bytes(q.popleft()[1] for _ in range(n))

    def write(self, data):
        self.wire._send(1 - self.side, data)
        return len(data)


class Device:
    """A headless device: a LinkedMatch, its save, and a player who moves at random."""

    def __init__(self, port, device_id, name, seed, version=VERSION, think=0.2):
        self.port = port
        self.device_id = device_id
        self.name = name
        self.rng = random.Random(seed)
        self.version = version
        self.think = think              # seconds its player takes per move
        self.nvm = FlashNVM()
        self.pending = []               # moves applied and not saved yet: (seat or -1, action)
        self.cut_before_save = False
        self.boots = 0
        self.refused = []               # IllegalMove messages from incoming moves
        self.ready_at = 0.0
        self.auto_next = True           # dismisses each deal's result at once
        self.closer = True              # asks to close out of turn now and then (Russian rules)
        self.requests = 0
        self.computer_moves = 0         # moves this device made for computer players
        self.link = None
        self.resends_before = 0         # resends of the links that power cuts ended
        self.boot()

    def entropy(self, n):
        return bytes(self.rng.getrandbits(8) for _ in range(n))

    def boot(self):
        if self.link is not None:
            self.resends_before += self.link.resends
        self.link = Link(self.port, self.device_id, self.name, self.entropy, self.version)
        self.pending = []
        self.store = Store(self.nvm)
        self.session = restore(self.store, self.link, self.entropy)
        self.boots += 1

    def power_cut(self):
        self.boot()

    def resends(self):
        """Frames this device sent again, over every boot."""
        return self.resends_before + self.link.resends

    def reloaded(self):
        """The session a restart would find in the nvm now."""
        return restore(Store(self.nvm), self.link, self.entropy)

    def save(self):
        """As the firmware must: whenever the session changed, before its next poll."""
        lm.sync(self.store, self.session)
        for seat, action in self.pending:
            self.store.action(seat, action)
        self.pending = []

    def apply(self, action, seat):
        """session.apply, and the move waits for the save (as the firmware's log)."""
        s = self.session
        implied = seat == s.match.deal.to_act
        s.apply(action, seat)
        self.pending.append((-1 if implied else seat, action))

    def step(self, now):
        """One pass of the main loop. With cut_before_save the pass ends without its save
        (the power cut lands between its changes and their save)."""
        s = self.session
        self.save()                     # what calls between passes changed (a key press)
        s.poll(now)
        self.save()                     # what the poll changed (a new phase of the set-up)
        m = s.match
        if m is not None and m.deal.ended and not m.over and self.auto_next:
            m.next_deal()               # the result screen was dismissed
        got = s.incoming()
        if got is not None:
            try:
                self.apply(got[1], got[0])
            except IllegalMove as e:
                self.refused.append(str(e))
        elif (s.my_turn() or s.computer_turn()) and now >= self.ready_at:
            self.move(now)
        elif self.closer and self.rng.random() < 0.05 and s.request_close():
            self.requests += 1
        if not self.cut_before_save:
            self.save()

    def move(self, now):
        s = self.session
        d = s.match.deal
        if s.computer_turn():
            self.computer_moves += 1
        legal = d.legal_actions()
        usual = [a for a in legal if a not in RARE and not BID + 1 < a <= BID + 5]
        action = self.rng.choice(legal if not usual or self.rng.random() < 0.05 else usual)
        self.apply(action, d.to_act)
        self.ready_at = now + self.think


def run(devices, wire, seconds, until=None, events=None, step=STEP):
    """Run the devices for up to `seconds` more of device time (the wire keeps the
    clock); `until()` stops early; `events(now)` may inject faults before each pass.
    Returns True when `until()` was met."""
    end = wire.now + seconds
    while wire.now < end:
        if events is not None:
            events(wire.now)
        for d in devices:
            d.step(wire.now)
        if until is not None and until():
            return True
        wire.now += step
    return False


def linked(wire=None, seed=1, versions=(VERSION, VERSION)):
    """Two devices on a wire (a clean one unless given)."""
    wire = wire or Wire(seed)
    a = Device(wire.end(0), 1001, "Anna", seed * 2 + 1, versions[0])
    b = Device(wire.end(1), 2002, "Ben", seed * 2 + 2, versions[1])
    return wire, a, b
