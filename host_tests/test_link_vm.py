"""The link modules inside a real MicroPython VM: SHA-256 agrees with CPython's hashlib, a
whole linked match (computer players, line noise, a power cut) plays out the same on both
devices, and the heap figures of linked play are printed (run with -s to see them).
"""
import hashlib
import json
from pathlib import Path

import mpvm

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("shared_rules", ROOT / "firmware" / "sixtysix")

# Two devices in one VM, joined by a cable that flips about one byte in 300.
DEVICES = r'''
import gc, json, random
from sixtysix.link.cable import Link
from sixtysix.link import match as lm
from sixtysix.link.session import restore
from sixtysix.save.store import Store
from shared_rules.rules import Rules
random.seed(5)


def entropy(n):
    return bytes([random.getrandbits(8) for _ in range(n)])


class End:
    def __init__(self, inq, outq):
        self.inq = inq
        self.outq = outq

    @property
    def in_waiting(self):
        return len(self.inq[0])

    def read(self, n):
        q = self.inq[0]
        if not q:
            return None
        self.inq[0] = q[n:]
        return bytes(q[:n])

    def write(self, data):
        b = bytearray(data)
        for i in range(len(b)):
            if random.getrandbits(16) % 300 == 0:
                b[i] ^= 0x10
        self.outq[0] = self.outq[0] + b
        return len(b)


ERASED = b"\xff" * 64
NVM = 1536      # a small save area: a four-handed match's log fills it, the store compacts it


class Dev:
    def __init__(self, end, ident, name):
        self.end = end
        self.ident = ident
        self.name = name
        self.nvm = bytearray(NVM)
        for i in range(0, NVM, 64):
            self.nvm[i:i + 64] = ERASED
        self.boots = 0
        self.boot()

    def boot(self):
        self.link = Link(self.end, self.ident, self.name, entropy)
        self.store = Store(self.nvm)
        self.s = restore(self.store, self.link, entropy)
        self.boots += 1

    def apply(self, action, seat):
        implied = seat == self.s.match.deal.to_act
        self.s.apply(action, seat)
        self.store.action(-1 if implied else seat, action)

    def step(self, now):
        s = self.s
        lm.sync(self.store, s)
        s.poll(now)
        lm.sync(self.store, s)
        m = s.match
        if m is not None and m.deal.ended and not m.over:
            m.next_deal()
        got = s.incoming()
        if got is not None:
            self.apply(got[1], got[0])
        elif s.my_turn() or s.computer_turn():
            legal = m.deal.legal_actions()
            usual = [x for x in legal if x < 96] or legal
            self.apply(usual[random.getrandbits(8) % len(usual)], m.deal.to_act)


clock = [0.0]


def run(passes):
    for _ in range(passes):
        a.step(clock[0])
        b.step(clock[0])
        clock[0] += 1 / 30


def over():
    return a.s.state() == lm.OVER and b.s.state() == lm.OVER
'''

# The devices, once the imports' garbage is collected (a step of their own).
MAKE = r'''
ab = [bytearray()]
ba = [bytearray()]
a = Dev(End(ba, ab), 1001, "Anna")
b = Dev(End(ab, ba), 2002, "Ben")
'''

# Steps of a few passes each: the VM collects garbage only between steps.
PLAY = r'''
if not over():
    run(10)
    if a.s.count() > 40 and b.boots == 1:
        b.boot()            # a power cut: b starts again from its save
'''

# Milliseconds in the VM, with the board's reference loop (PLATFORM_NOTES: 100,000 `s += 1`
# take 454 ms on a 125 MHz RP2040) to scale them by.
TIMING = [r'''
import time
from sixtysix.link.cable import frame
def ms(fn, n):
    t = time.ticks_ms()
    for _ in range(n):
        fn()
    return time.ticks_diff(time.ticks_ms(), t) / n
def ref():
    s = 0
    for i in range(100000):
        s += 1
R['ref_ms'] = ms(ref, 3)
''', "R['sha256_ms'] = ms(lambda: sha256(bytes(32)), 5)",
          "R['frame_ms'] = ms(lambda: frame(2, 1, 0, 7, bytes(5)), 50)",
          "R['idle_pass_ms'] = ms(lambda: a.step(clock[0]), 50)"]

# The report, one part per step.
REPORT = [
    "import mpvm_probe\nfrom sixtysix.link.sha256 import sha256\nR = {}",
    "R['same_match'] = repr(a.s.match.to_dict()) == repr(b.s.match.to_dict())",
    "R.update(a=a.s.state(), b=b.s.state(), moves=a.s.count(), boots=b.boots, same_log=(a.s.count(), a.s.crc) == (b.s.count(), b.s.crc),"
    " resends=a.link.resends + b.link.resends, wire_bytes=a.link.sent_bytes + b.link.sent_bytes,"
    " save_bytes=a.store.end)",
    "R['live_heap'] = gc.mem_alloc()",
    "R['pass_alloc'] = mpvm_probe.alloc(a.step, clock[0])[0]",
    "R['sha256_alloc'] = mpvm_probe.alloc(sha256, bytes(32))[0]",
    "R['digests'] = []",
] + ["R['digests'].append(sha256(bytes(range(%d))).hex())" % n for n in (0, 55, 56, 64, 200)] + [
] + TIMING + ["print(json.dumps(R))"]


def test_a_linked_match_plays_out_the_same_on_both_devices_in_micropython():
    steps = [DEVICES, MAKE, "run(20)", "assert a.s.propose(Rules('four-handed'))", "run(10)", "assert b.s.accept()"]
    steps += ["run(1)"] * 10 + ["assert a.s.state() == b.s.state() == lm.PLAYING_NOW"]
    steps += [PLAY] * 400 + ["assert over(), (a.s.state(), b.s.state())"] + REPORT
    got = json.loads(mpvm.run(steps, packages=PACKAGES, heap_cap=150 * 1024, timeout=120).splitlines()[-1])
    print("\nlinked four-handed match in the MicroPython VM (150 KB heap, two devices):", got)
    scale = 454.0 / got["ref_ms"]
    print("board estimates (ms): sha256 of one block %.0f, one frame built %.2f, an idle pass of the link %.2f"
          % (got["sha256_ms"] * scale, got["frame_ms"] * scale, got["idle_pass_ms"] * scale))
    assert (got["a"], got["b"], got["same_log"], got["same_match"]) == ("over", "over", True, True)
    assert got["boots"] == 2 and got["resends"] > 0
    assert got["digests"] == [hashlib.sha256(bytes(range(n))).hexdigest() for n in (0, 55, 56, 64, 200)]
    assert got["pass_alloc"] < 1024


def resident(module, before):
    """Bytes `import module` keeps in the VM when `before` is already imported."""
    out = mpvm.run(["import gc\n_m = [0, 0]\nimport " + before, "_m[0] = gc.mem_alloc()", "import " + module,
                    "_m[1] = gc.mem_alloc()", "print(_m[1] - _m[0])"], packages=PACKAGES)
    return int(out)


def test_heap_of_linked_play():
    game = "shared_rules.match, shared_rules.family, sixtysix.save.store"
    link = resident("sixtysix.link.match", game)
    seats = resident("sixtysix.table.seats", "shared_rules.match")
    print("\nresident bytes: link play (link.cable, link.match, link.fairseed, link.sha256) %d; pass-and-play seats %d"
          % (link, seats))
    assert link < 32 * 1024 and seats < 6 * 1024
