"""The link layer (sixtysix.link.cable): frames, handshake, resends, faults, version clash."""
import random

import pytest

from linkwire import Wire, STEP
from sixtysix.link import cable as L
from sixtysix.save.format import crc16


def entropy_of(seed):
    rng = random.Random(seed)
    return lambda n: bytes(rng.getrandbits(8) for _ in range(n))


def pair(wire, versions=(L.VERSION, L.VERSION)):
    a = L.Link(wire.end(0), 1001, "Anna", entropy_of(1), versions[0])
    b = L.Link(wire.end(1), 2002, "Ben", entropy_of(2), versions[1])
    return a, b


def spin(wire, links, seconds, until=None, each=None):
    """Poll the links every STEP for up to `seconds`; True once until() holds."""
    end = wire.now + seconds
    while wire.now < end:
        for k in links:
            k.poll(wire.now)
        if each is not None:
            each()
        if until is not None and until():
            return True
        wire.now += STEP
    return False


def test_frame_layout():
    f = L.frame(L.DATA, 5, 4, 9, b"abc")
    assert f[:2] == bytes((0x5A, 0xC3))
    assert f[2:7] == bytes((3, L.DATA, 5, 4, 9))
    assert f[7:10] == b"abc"
    c = crc16(f[2:10])
    assert f[10:] == bytes((c & 255, c >> 8))
    assert len(L.frame(L.ACK, 0, 0, 0, b"")) == L.OVERHEAD
    with pytest.raises(ValueError):
        L.frame(L.DATA, 0, 0, 0, bytes(L.MAX_PAYLOAD + 1))


def test_handshake_names_both_devices_and_comes_up_once():
    wire = Wire()
    a, b = pair(wire)
    assert spin(wire, (a, b), 2, until=lambda: a.up() and b.up())
    assert wire.now < 0.2                    # a few HELLOs
    assert (a.peer_id, a.peer_name, b.peer_id, b.peer_name) == (2002, "Ben", 1001, "Anna")
    assert a.epoch == b.epoch
    spin(wire, (a, b), 20)                   # idle: keep-alives hold it up
    assert a.up() and b.up() and a.ups == b.ups == 1
    assert a.sent_bytes < 20 * 2 * L.OVERHEAD  # about one keep-alive a second


def exchange(wire, a, b, n, seed=0, seconds=600):
    """Send n random messages each way; returns what each side received."""
    rng = random.Random(seed)
    sent = ([], [])
    got = ([], [])
    for side, k in enumerate((a, b)):
        for i in range(n):
            msg = bytes([i & 255]) + bytes(rng.getrandbits(8) for _ in range(rng.randrange(L.MAX_PAYLOAD)))
            sent[side].append(msg)

    def pump():
        for side, k in enumerate((a, b)):
            if k.up() and not k.out and sent[side][len(got[1 - side]):]:
                k.send(sent[side][len(got[1 - side])])
            got[side].extend(k.inbox)
            k.inbox.clear()

    done = spin(wire, (a, b), seconds, until=lambda: len(got[0]) == len(got[1]) == n, each=pump)
    return done, sent, got


@pytest.mark.parametrize("faults", [
    {"drop": 0.01}, {"dup": 0.01}, {"corrupt": 0.01}, {"noise": 0.01}, {"repeat": 0.1},
    {"drop": 0.005, "dup": 0.005, "corrupt": 0.005, "noise": 0.005, "repeat": 0.02}])
def test_every_message_arrives_once_in_order_despite_faults(faults):
    wire = Wire(seed=7, **faults)
    a, b = pair(wire)
    assert spin(wire, (a, b), 10, until=lambda: a.up() and b.up())
    done, sent, got = exchange(wire, a, b, 60)
    assert done
    assert got[0] == sent[1] and got[1] == sent[0]
    if "repeat" not in faults:
        assert a.resends + b.resends > 0     # the faults did cost something


def test_garbage_before_a_frame_is_skipped():
    wire = Wire()
    a, b = pair(wire)
    assert spin(wire, (a, b), 2, until=lambda: a.up() and b.up())
    junk = bytes([0x5A, 0xC3, 200, 1, 2]) + bytes([0x5A, 0xC3, 3, 2, 0, 0, 0, 1, 2, 3, 9, 9]) + bytes(range(40))
    wire.end(0).write(junk)                  # from "a", as a burst of line noise
    a.send(b"after the noise")
    spin(wire, (a, b), 2, until=lambda: b.inbox)
    assert b.inbox == [b"after the noise"]


def test_pulled_cable_goes_down_after_the_timeout_and_comes_back():
    wire = Wire()
    a, b = pair(wire)
    assert spin(wire, (a, b), 2, until=lambda: a.up() and b.up())
    a.send(bytes(100))
    a.poll(wire.now)                         # the frame is on its way...
    wire.now += STEP / 4
    wire.pull()                              # ...and torn
    start = wire.now
    assert spin(wire, (a, b), 10, until=lambda: not a.up() and not b.up())
    assert L.TIMEOUT - L.KEEPALIVE - STEP <= wire.now - start <= L.TIMEOUT + 2 * STEP
    assert not a.out                         # the link session's queue is gone with it
    spin(wire, (a, b), 5)
    assert not a.up() and not b.up()
    wire.plug()
    assert spin(wire, (a, b), 2, until=lambda: a.up() and b.up())
    assert a.ups == b.ups == 2
    assert b.inbox == []                     # nothing of the torn frame was delivered
    done, sent, got = exchange(wire, a, b, 5)
    assert done and got[1] == sent[0]


def test_a_short_pull_costs_only_resends():
    wire = Wire()
    a, b = pair(wire)
    assert spin(wire, (a, b), 2, until=lambda: a.up() and b.up())
    a.send(b"one")
    a.poll(wire.now)
    wire.pull()
    spin(wire, (a, b), 2)
    wire.plug()
    assert spin(wire, (a, b), 2, until=lambda: b.inbox)
    assert b.inbox == [b"one"] and a.ups == b.ups == 1 and a.resends >= 2


def test_a_restarted_device_is_met_again_without_waiting_for_the_timeout():
    wire = Wire()
    a, b = pair(wire)
    assert spin(wire, (a, b), 2, until=lambda: a.up() and b.up())
    b2 = L.Link(wire.end(1), 2002, "Ben", entropy_of(3))   # b rebooted
    start = wire.now
    assert spin(wire, (a, b2), 2, until=lambda: a.up() and b2.up() and a.ups == 2)
    assert wire.now - start < 1.0
    a.send(b"hello again")
    assert spin(wire, (a, b2), 2, until=lambda: b2.inbox)


def test_another_protocol_version_is_a_clash_on_both_sides():
    wire = Wire()
    a, b = pair(wire, versions=(L.VERSION, L.VERSION + 1))
    spin(wire, (a, b), 3)
    assert a.state == b.state == L.CLASH
    assert a.peer_version == L.VERSION + 1 and b.peer_version == L.VERSION
    assert not a.send(b"x")
    b2 = L.Link(wire.end(1), 2002, "Ben", entropy_of(3))    # the other device is updated
    assert spin(wire, (a, b2), 3, until=lambda: a.up() and b2.up())


def test_loopback_tcp_ports_carry_the_link():
    from tools import linkport
    one, two = linkport.pair()
    try:
        assert one.sock.getpeername()[0] == "127.0.0.1"
        clock = Wire()                       # only its clock
        a = L.Link(one, 1001, "Anna", entropy_of(1))
        b = L.Link(two, 2002, "Ben", entropy_of(2))
        assert spin(clock, (a, b), 2, until=lambda: a.up() and b.up())
        a.send(b"over tcp")
        assert spin(clock, (a, b), 2, until=lambda: b.inbox)
        assert b.inbox == [b"over tcp"]
        two.close()                          # the other end closed: a pulled cable
        while one.read(100):
            pass                             # what was sent before the close
        assert one.closed and one.read(10) is None and one.write(b"lost") == 0
    finally:
        one.close()
        two.close()


def test_a_hello_with_a_name_that_is_not_text_is_taken_without_a_crash():
    wire = Wire()
    a = L.Link(wire.end(0), 1001, "Anna", entropy_of(1))
    hello = bytes((L.VERSION, 0, 7, 0, 0, 0, 1, 2, 0, 0)) + b"\xff\xfe"
    wire.end(1).write(L.frame(L.HELLO, 0, 0, 0, hello))
    spin(wire, (a,), 0.2)
    assert (a.peer_id, a.peer_name, a.peer_nonce) == (0x201, "?", 7)
