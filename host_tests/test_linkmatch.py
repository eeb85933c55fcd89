"""Linked matches (sixtysix.link.match) between two headless devices: set-up, fair seed,
whole matches of every family game under random faults, each fault class on its own,
a modified device, resynchronisation after power cuts, the saved state."""
import random

import pytest

from linkwire import Wire, Device, linked, run
from tools.flashnvm import FlashNVM
from shared_rules import record
from shared_rules.actions import CLOSE, DECLARE
from shared_rules.errors import IllegalMove
from shared_rules.family import new_match
from shared_rules.rules import Rules
from sixtysix.link import fairseed
from sixtysix.save import format as saveformat, store
from sixtysix.link import match as lm
from sixtysix.link import session
from sixtysix.link.terms import ACTIONS
from sixtysix.link.cable import TIMEOUT, VERSION, put16, put32

GAMES = [("standard", {}), ("hoyle", {}), ("russian", {}), ("schnapsen", {}),
         ("three-handed", {}), ("four-handed", {}), ("american", {}),
         ("american", {"players": 3}), ("american", {"players": 2}), ("idiots", {})]


def states(*devices):
    return tuple(d.session.state() for d in devices)


def connected(seed=1, wire=None, versions=(VERSION, VERSION)):
    wire, a, b = linked(wire, seed, versions)
    assert run((a, b), wire, 10, until=lambda: states(a, b) == (lm.IDLE, lm.IDLE)), states(a, b)
    return wire, a, b


def started(rules, counting="casual", seats=None, seed=1, wire=None):
    """Two devices in a linked match (a proposed, b accepted), both playing."""
    wire, a, b = connected(seed, wire)
    assert a.session.propose(rules, counting, seats)
    assert run((a, b), wire, 10, until=lambda: b.session.state() == lm.OFFER)
    assert b.session.accept()
    assert run((a, b), wire, 10, until=lambda: states(a, b) == (lm.PLAYING_NOW, lm.PLAYING_NOW)), states(a, b)
    return wire, a, b


def same_match(a, b):
    sa, sb = a.session, b.session
    assert (sa.count(), sa.crc, bytes(sa.recent)) == (sb.count(), sb.crc, bytes(sb.recent))
    assert sa.match.to_dict() == sb.match.to_dict()
    assert record.to_record(sa.match.deal) == record.to_record(sb.match.deal)


def finish(wire, a, b, seconds=3000, events=None):
    assert run((a, b), wire, seconds, until=lambda: states(a, b) == (lm.OVER, lm.OVER), events=events), \
        (states(a, b), a.session.message(), b.session.message())
    same_match(a, b)


# ---- set-up ---------------------------------------------------------------------------

def test_connected_devices_name_each_other():
    wire, a, b = connected()
    assert a.session.message() == "Connected to Ben" and b.session.message() == "Connected to Anna"
    wire.pull()
    run((a, b), wire, TIMEOUT + 1)
    assert states(a, b) == (lm.CONNECTING, lm.CONNECTING)


def test_the_offer_shows_the_proposers_rules_target_and_seats_before_it_is_accepted():
    wire, a, b = connected()
    a.ready_at = b.ready_at = 1e9            # no moves yet
    assert a.session.propose(Rules("schnapsen", target=5), "classic")
    assert not a.session.propose(Rules("standard"))          # one proposal at a time
    assert run((a, b), wire, 5, until=lambda: b.session.state() == lm.OFFER)
    assert a.session.state() == lm.PROPOSING and a.session.message() == "Waiting for Ben to accept"
    assert b.session.message() == "Anna offers a match"
    nonce, commit, offer = b.session.offer
    assert (offer.rules.name, offer.rules.target, offer.counting) == ("schnapsen", 5, "classic")
    assert offer.seats == (lm.PROPOSER, lm.ACCEPTER)
    assert b.session.match is None                           # nothing dealt before accepting
    assert b.session.accept()
    assert run((a, b), wire, 5, until=lambda: states(a, b) == (lm.PLAYING_NOW, lm.PLAYING_NOW))
    sa, sb = a.session, b.session
    assert (sa.local_player(), sb.local_player()) == (0, 1)
    assert sa.match.rules.target == sb.match.rules.target == 5 and sb.match.counting == "classic"
    assert sa.match.to_dict() == sb.match.to_dict()          # the same deal on both
    seed = fairseed.match_seed(sa.value, sb.value)
    assert new_match(Rules("schnapsen", target=5), "classic", seed).to_dict() == sa.match.to_dict()
    assert fairseed.opens(sa.value, commit)


def test_declining_and_withdrawing_leave_both_devices_idle_with_a_notice():
    wire, a, b = connected()
    a.session.propose(Rules("standard"))
    run((a, b), wire, 5, until=lambda: b.session.state() == lm.OFFER)
    b.session.leave()
    assert run((a, b), wire, 5, until=lambda: states(a, b) == (lm.IDLE, lm.IDLE))
    assert a.session.notice == "The other device declined"
    a.session.propose(Rules("hoyle"))
    run((a, b), wire, 5, until=lambda: b.session.state() == lm.OFFER)
    a.session.leave()
    assert run((a, b), wire, 5, until=lambda: states(a, b) == (lm.IDLE, lm.IDLE))
    assert b.session.notice == "The other device withdrew its offer"


def test_when_both_propose_at_once_the_higher_device_ids_proposal_stands():
    wire, a, b = connected()
    assert a.session.propose(Rules("standard")) and b.session.propose(Rules("russian"))
    assert run((a, b), wire, 5, until=lambda: states(a, b) == (lm.OFFER, lm.PROPOSING))
    assert a.session.offer[2].rules.name == "russian"        # Ben's id 2002 > Anna's 1001
    assert a.session.accept()
    assert run((a, b), wire, 5, until=lambda: states(a, b) == (lm.PLAYING_NOW, lm.PLAYING_NOW))
    assert a.session.local_player() == 1 and b.session.local_player() == 0


def test_a_device_whose_value_does_not_open_its_commitment_is_stopped():
    wire, a, b = connected()
    a.session.propose(Rules("standard"))
    run((a, b), wire, 5, until=lambda: b.session.state() == lm.OFFER)
    b.session.accept()
    a.session.value = bytes(16)          # a modified proposer reveals another value
    assert run((a, b), wire, 5, until=lambda: b.session.state() == lm.STOPPED)
    assert "does not match its commitment" in b.session.message()
    assert b.session.match is None
    assert run((a, b), wire, 5, until=lambda: a.session.state() == lm.STOPPED)


# ---- whole matches ----------------------------------------------------------------------

def random_faults(wire, devices, rng, counts):
    """Pull the cable and cut the power now and then (the byte faults are the wire's)."""
    def events(now):
        if wire.pulled:
            if rng.random() < 0.01:
                wire.plug()
        elif rng.random() < 0.002:
            wire.pull()
            counts["pulls"] += 1
        if rng.random() < 0.002:
            d = rng.choice(devices)
            if rng.random() < 0.5:           # the cut lands between a change and its save
                d.cut_before_save = True
                d.step(now)
                d.cut_before_save = False
            d.power_cut()
            counts["cuts"] += 1
    return events


@pytest.mark.parametrize("name,options", GAMES, ids=[n + "".join("-%s" % v for v in o.values()) for n, o in GAMES])
def test_every_family_game_plays_to_the_end_with_faults_at_random(name, options):
    seed = 11
    wire = Wire(seed, drop=0.002, dup=0.002, corrupt=0.002, noise=0.002, repeat=0.01)
    wire, a, b = started(Rules(name, **options), seed=seed, wire=wire)
    counts = {"pulls": 0, "cuts": 0}
    finish(wire, a, b, events=random_faults(wire, (a, b), random.Random(seed), counts))
    assert counts["pulls"] and counts["cuts"] and a.resends() + b.resends()
    assert not a.refused and not b.refused
    sa = a.session
    computer = [p for p in range(len(sa.proposal.seats)) if sa.proposal.seats[p] == lm.COMPUTER]
    assert bool(computer) == (a.computer_moves > 0)          # the proposer plays the computer
    assert b.computer_moves == 0


def test_a_linked_match_over_a_loopback_tcp_connection():
    from tools import linkport
    one, two = linkport.pair()
    try:
        clock = Wire()
        a = Device(one, 1001, "Anna", 1)
        b = Device(two, 2002, "Ben", 2)
        assert run((a, b), clock, 5, until=lambda: states(a, b) == (lm.IDLE, lm.IDLE))
        a.session.propose(Rules("three-handed"))
        run((a, b), clock, 5, until=lambda: b.session.state() == lm.OFFER)
        b.session.accept()
        finish(clock, a, b)
    finally:
        one.close()
        two.close()


# ---- one fault at a time ----------------------------------------------------------------

@pytest.mark.parametrize("fault", ["drop", "dup", "corrupt", "noise", "repeat"])
def test_byte_faults_alone_cost_resends_only(fault):
    wire = Wire(3, **{fault: 0.1 if fault == "repeat" else 0.01})
    wire, a, b = started(Rules("standard"), wire=wire, seed=3)
    finish(wire, a, b)
    assert a.link.ups == b.link.ups == 1
    assert a.link.resends + b.link.resends > 0 or fault == "repeat"


def test_a_cable_pulled_mid_message_shows_waiting_and_the_match_resumes():
    wire, a, b = started(Rules("standard"), seed=4)
    quiet_until(wire, a, b, lambda: a.session.count() >= 10 and a.session.my_turn())
    n = a.session.count()
    a.ready_at = 0
    a.step(wire.now)                        # a moves; its frame goes out on the next poll
    a.session.poll(wire.now)
    wire.now += 0.0005                      # ...a few bytes of it are on the wire...
    wire.pull()
    assert a.session.count() == n + 1
    assert run((a, b), wire, TIMEOUT + 2, until=lambda: states(a, b) == (lm.WAITING, lm.WAITING))
    assert a.session.message() == b.session.message() == "Waiting for the other device"
    d = b.session.match.deal
    with pytest.raises(IllegalMove, match="waiting for the other device|turn"):
        b.session.apply(d.legal_actions()[0], d.to_act)
    run((a, b), wire, 30)
    assert b.session.count() == n             # nothing moved while unplugged
    wire.plug()
    assert run((a, b), wire, 5, until=lambda: b.session.count() == n + 1)
    a.ready_at = b.ready_at = 0
    finish(wire, a, b)
    assert a.link.ups == b.link.ups == 2


@pytest.mark.parametrize("before_save", [False, True])
def test_a_power_cut_resumes_from_the_save_and_the_one_behind_catches_up(before_save):
    wire, a, b = started(Rules("four-handed"), seed=5)
    rng = random.Random(5)
    behind = 0
    for _ in range(12):
        run((a, b), wire, rng.uniform(1, 6))
        victim = rng.choice((a, b))
        other = b if victim is a else a
        victim.cut_before_save = before_save
        victim.step(wire.now)
        victim.cut_before_save = False
        victim.power_cut()
        assert victim.session.match.to_dict() == victim.reloaded().match.to_dict()
        if victim.session.count() < other.session.count():
            behind += 1
            assert not victim.session.my_turn() and not victim.session.computer_turn()
            assert run((a, b), wire, 5, until=lambda: victim.session.count() >= other.session.count())
    if before_save:
        assert behind                           # some cuts lost moves that the other device resent
    finish(wire, a, b)


def test_the_log_keeps_a_window_of_moves_and_a_device_too_far_behind_is_told_so():
    wire, a, b = started(Rules("four-handed"), seed=6)
    s = a.session
    crcs = {0: s.crc}

    def seen():
        crcs[s.count()] = s.crc
        return s.count() >= 3 * lm.WINDOW
    assert run((a, b), wire, 600, until=seen)
    quiet_until(wire, a, b, lambda: True)
    n = s.count()
    assert s.move(n - lm.WINDOW) is not None and s.move(n - lm.WINDOW - 1) is None and s.move(n) is None
    assert all(s.crc_at(k) == crcs[k] for k in crcs if k > n - lm.WINDOW)
    assert s.crc_at(n - lm.WINDOW) is None and s.crc_at(0) is None
    # the other device says it has fewer moves than the window reaches back to
    out = bytearray((lm.STATUS, b.session.phase, b.session.role))
    put32(out, b.session.nonce)
    put16(out, n - lm.WINDOW)
    put16(out, crcs.get(n - lm.WINDOW, 0))
    b.link.send(out)
    assert run((a, b), wire, 5, until=lambda: states(a, b) == (lm.STOPPED, lm.STOPPED))
    assert "too far behind" in a.session.message() and "too far behind" in b.session.message()
    assert s.count() == n                       # nothing lost: the save still has the match
    assert a.reloaded().count() == n


def test_another_protocol_version_gets_a_clear_message_on_both_devices():
    wire, a, b = linked(versions=(VERSION, VERSION + 1))
    run((a, b), wire, 3)
    assert states(a, b) == (lm.VERSION, lm.VERSION)
    assert "link version %d, this one %d" % (VERSION + 1, VERSION) in a.session.message()
    assert "link version %d, this one %d" % (VERSION, VERSION + 1) in b.session.message()
    assert not a.session.propose(Rules("standard"))


def cheat(device, seat, action):
    """A modified device writes a move straight onto the link, as the next in the log."""
    out = bytearray((ACTIONS,))
    put16(out, device.session.count())
    out.extend((seat, action))
    device.link.send(out)


def quiet_until(wire, a, b, cond, seconds=60):
    """Play on until cond() holds with the logs level, then hold both players' moves back."""
    def met():
        if cond() and a.session.count() == b.session.count() and states(a, b) == (lm.PLAYING_NOW,) * 2:
            a.ready_at = b.ready_at = 1e9
            return True
        return False
    assert run((a, b), wire, seconds, until=met)


@pytest.mark.parametrize("kind", ["a card it does not hold", "out of turn", "the other device's seat",
                                  "a computer seat it does not play", "a declaration out of turn"])
def test_illegal_moves_from_a_modified_device_are_refused_and_both_stop(kind):
    seats = (lm.PROPOSER, lm.ACCEPTER, lm.COMPUTER) if "computer" in kind else None
    wire, a, b = started(Rules("three-handed" if seats else "standard"), "classic", seats=seats, seed=6)
    run((a, b), wire, 3)
    cheater, honest = (b, a) if seats else (a, b)
    sc, sh = cheater.session, honest.session
    m = sh.match
    mine, theirs = m.seat_of(sh.local_player()), m.seat_of(sc.local_player())
    if kind == "a card it does not hold":
        quiet_until(wire, a, b, lambda: sc.my_turn())
        held = m.deal.hands[theirs]
        move = (theirs, [c for c in range(24) if not held >> c & 1][0])
    elif kind == "out of turn":
        quiet_until(wire, a, b, lambda: sh.my_turn())
        move = (theirs, [c for c in range(24) if m.deal.hands[theirs] >> c & 1][0])
    elif kind == "the other device's seat":
        quiet_until(wire, a, b, lambda: sh.my_turn())
        move = (mine, m.deal.legal_actions()[0])
    elif kind == "a computer seat it does not play":
        quiet_until(wire, a, b, lambda: sh.computer_turn())
        move = (m.deal.to_act, m.deal.legal_actions()[0])
    else:
        quiet_until(wire, a, b, lambda: sh.my_turn() and m.deal.lead < 0)
        move = (theirs, DECLARE)
    n = sh.count()
    cheat(cheater, *move)
    assert run((a, b), wire, 5, until=lambda: states(a, b) == (lm.STOPPED, lm.STOPPED)), states(a, b)
    assert sh.count() == n                   # the refused move is not in the log
    assert honest.refused and "rules forbid" in sh.message()
    assert "stopped the match" in sc.message()


def test_a_false_66_scores_for_the_other_side():
    wire, a, b = started(Rules("standard"), "classic", seed=12)
    sa, sb = a.session, b.session
    quiet_until(wire, a, b, lambda: sa.my_turn() and sa.match.deal.lead < 0
                and sa.match.deal.points(sa.match.deal.to_act) < 66)
    seat = sa.match.deal.to_act
    a.auto_next = b.auto_next = False        # keep the results on screen
    sa.apply(DECLARE, seat)                  # the engine takes it: a wrong call
    assert run((a, b), wire, 5, until=lambda: sb.count() == sa.count())
    for s in (sa, sb):
        winner, points, reason = s.match.deal.result
        assert (winner, reason) == (1 - seat, "wrong-declaration")
    same_match(a, b)


def test_logs_that_disagree_stop_both_devices_and_are_not_merged():
    wire, a, b = started(Rules("standard"), seed=7)
    run((a, b), wire, 60, until=lambda: a.session.count() >= 12)
    run((a, b), wire, 1, until=lambda: a.session.count() == b.session.count() and not a.link.out)
    n = b.session.count()
    # b's save is edited: its last move is replaced by another legal one
    assert b.reloaded().count() == n
    st = store.Store(b.nvm)
    moves = list(st.actions())
    edited = store.Store(FlashNVM())
    edited.start_deal(st.header(saveformat.LINKED), saveformat.LINKED)
    for seat, action in moves[:-1]:
        edited.action(seat, action)
    m = session.restore(edited, b.link, b.entropy).match
    if m.deal.ended:
        m.next_deal()
    d = m.deal
    last = b.session.move(n - 1)
    other = [x for x in d.legal_actions() if (d.to_act, x) != last][0]
    edited.action(d.to_act, other)
    b.nvm = edited.nvm
    kept = (a.session.count(), a.session.crc)
    b.power_cut()
    assert run((a, b), wire, 5, until=lambda: states(a, b) == (lm.STOPPED, lm.STOPPED))
    assert "disagree" in a.session.message() and "disagree" in b.session.message()
    assert (a.session.count(), a.session.crc) == kept
    assert (b.session.count(), b.session.move(n - 1)) == (n, (d.to_act, other))


def test_an_illegal_local_move_changes_nothing_and_sends_nothing():
    wire, a, b = started(Rules("standard"), seed=8)
    a.ready_at = b.ready_at = 1e9
    run((a, b), wire, 2)
    sa = a.session if a.session.my_turn() else b.session
    d = sa.match.deal
    before = (sa.count(), sa.match.to_dict(), len(sa.link.out))
    held = d.hands[d.to_act]
    not_held = [c for c in range(24) if not held >> c & 1][0]
    with pytest.raises(IllegalMove):
        sa.apply(not_held, d.to_act)
    theirs = d.hands[1 - d.to_act]
    with pytest.raises(IllegalMove, match="not this device's turn"):
        sa.apply([c for c in range(24) if theirs >> c & 1][0], 1 - d.to_act)
    assert (sa.count(), sa.match.to_dict(), len(sa.link.out)) == before
    assert not sa.changed


def closable(a, b):
    """True when the player not on lead may close (Russian rules) before the lead."""
    d = a.session.match.deal
    return not d.ended and d.lead < 0 and not d.pending_draw and CLOSE in d.legal_actions(1 - d.to_act)


def russian_close_asked():
    """Two devices where the one not on lead has asked to close: (wire, asking, leader)."""
    wire, a, b = started(Rules("russian"), seed=13)
    a.closer = b.closer = False
    quiet_until(wire, a, b, lambda: closable(a, b))
    asking, leader = (b, a) if a.session.my_turn() else (a, b)
    assert asking.session.request_close()
    assert asking.session.close_requested()
    return wire, asking, leader


def test_russian_close_out_of_turn_is_asked_of_the_device_on_lead():
    wire, asking, leader = russian_close_asked()
    s = asking.session
    seat = s.match.seat_of(s.local_player())
    n = s.count()
    assert run((asking, leader), wire, 5, until=lambda: leader.session.count() == s.count() == n + 1)
    assert leader.session.move(n) == (seat, CLOSE) == s.move(n)
    assert not s.close_requested()
    assert s.match.deal.closed == leader.session.match.deal.closed == seat


def test_a_close_asked_before_a_power_cut_is_still_taken_after_it():
    wire, asking, leader = russian_close_asked()
    asking.save()
    asking.power_cut()
    n = leader.session.count()
    assert run((asking, leader), wire, 5, until=lambda: asking.session.count() == n + 1)
    same_match(asking, leader)


def test_a_stale_close_request_is_dropped():
    wire, asking, leader = russian_close_asked()
    d = leader.session.match.deal
    leader.session.apply([x for x in d.legal_actions() if x < 32][0], d.to_act)   # it leads first
    n = leader.session.count()
    run((asking, leader), wire, 3)
    assert asking.session.count() == leader.session.count() == n
    assert d.closed < 0 and not asking.session.close_requested()


# ---- the saved state ---------------------------------------------------------------------

def test_the_saved_state_round_trips_and_a_corrupt_one_is_refused():
    wire, a, b = started(Rules("american", players=3, target=5), "classic", seed=9)
    before = (store.Store(a.nvm).end, a.session.count())
    run((a, b), wire, 40)
    s = a.session
    st = store.Store(a.nvm)
    header = st.header(saveformat.LINKED)
    assert header == s.header() and len(header) < 110
    # each move is 2 bytes of log, as a local match's (4 with the seat, when it was not the turn's)
    told = sum(1 for seat, _ in st.actions() if seat >= 0)
    assert st.end - before[0] == 2 * (s.count() - before[1]) + 2 * told and s.count() > 100
    t = a.reloaded()
    assert t.match.to_dict() == s.match.to_dict() and bytes(t.recent) == bytes(s.recent) and t.crc == s.crc
    assert (t.role, t.peer_id, t.nonce, t.local_player()) == (s.role, s.peer_id, s.nonce, s.local_player())
    moves = list(st.actions())
    bad = [(header[:5], moves), (b"X" + header[1:], moves), (header[:-1], moves), (header + b"\x00", moves),
           (header, moves[:3] + [(0, 77)] + moves[4:]),              # a move nobody could make
           (header.replace(b"american", b"americax"), moves),
           (header[:2] + bytes((lm.PROPOSED,)) + header[3:], moves)]  # moves before the match began
    for h, m in bad:
        with pytest.raises(ValueError):
            lm.LinkedMatch(s.link, a.entropy, (h, iter(m), -1))
    assert lm.LinkedMatch(s.link, a.entropy, None).phase == lm.NONE


def test_leaving_a_match_stops_it_on_the_other_device_unless_it_is_over():
    wire, a, b = started(Rules("standard"), seed=14)
    run((a, b), wire, 5)
    a.session.leave()
    assert run((a, b), wire, 5, until=lambda: states(a, b) == (lm.IDLE, lm.STOPPED))
    assert b.session.message() == "The other device has left this match"
    b.session.leave()
    assert run((a, b), wire, 5, until=lambda: states(a, b) == (lm.IDLE, lm.IDLE))
    wire, a, b = started(Rules("standard"), seed=15)
    finish(wire, a, b)
    a.session.leave()
    run((a, b), wire, 5)
    assert states(a, b) == (lm.IDLE, lm.OVER)


def test_a_different_device_on_the_cable_is_not_taken_for_the_partner():
    wire, a, b = started(Rules("standard"), seed=16)
    run((a, b), wire, 5)
    stranger = Device(wire.end(1), 3003, "Cleo", 99)
    run((a, stranger), wire, 3)
    assert a.session.state() == lm.WAITING
    assert a.session.message() == "Connected to Cleo, not the device of this match"
    assert stranger.session.state() == lm.IDLE
    assert a.session.phase == lm.PLAYING and not a.session.problem


def test_a_clean_cable_costs_two_frames_per_move_and_a_few_passes_of_delay():
    wire, a, b = started(Rules("standard"), seed=17)
    sent = a.link.sent_bytes + b.link.sent_bytes
    start, moves = wire.now, a.session.count()
    delays = []

    def watch():
        for src, dst in ((a, b), (b, a)):
            if src.session.count() > dst.session.count() and src not in pending:
                pending[src] = wire.now
            elif src in pending and dst.session.count() == src.session.count():
                delays.append(round((wire.now - pending.pop(src)) * 30))
        return states(a, b) == (lm.OVER, lm.OVER)
    pending = {}
    assert run((a, b), wire, 3000, until=watch)
    moves = a.session.count() - moves
    per_move = (a.link.sent_bytes + b.link.sent_bytes - sent) / moves
    keepalive = 2 * 9 / 1.0 * (wire.now - start) / moves    # two sides, 9 bytes a second
    print("\nclean cable: %d moves, %.1f bytes on the wire per move (keep-alives %.1f of them),"
          " delay %.1f passes mean, %d worst" % (moves, per_move, keepalive, sum(delays) / len(delays), max(delays)))
    assert a.link.resends == b.link.resends == 0
    assert per_move < 14 + 9 + keepalive + 1          # an ACTIONS frame, its ACK, the keep-alives
    assert max(delays) <= 3


def test_malformed_messages_never_crash_a_session():
    rng = random.Random(18)
    for phase in ("idle", "playing"):
        if phase == "idle":
            wire, a, b = connected(seed=18)
        else:
            wire, a, b = started(Rules("four-handed"), seed=18)
        for _ in range(300):
            kind = rng.randrange(0, 10)
            junk = bytes([kind] + [rng.randrange(256) for _ in range(rng.randrange(0, 60))])
            b.link.inbox.append(junk)
            b.step(wire.now)                  # raises if a message is mishandled
            a.step(wire.now)
            wire.now += 1 / 30
        assert b.session.state() in (lm.IDLE, lm.OFFER, lm.PLAYING_NOW, lm.WAITING, lm.STOPPED, lm.OVER)


@pytest.mark.parametrize("before_save", [False, True])
@pytest.mark.parametrize("victim", [0, 1])
def test_a_power_cut_at_any_pass_of_the_set_up_still_ends_in_one_fair_match(victim, before_save):
    for at in range(12):                    # the set-up takes about 8 passes
        wire, a, b = connected(seed=20 + at)
        a.ready_at = b.ready_at = 1e9
        assert a.session.propose(Rules("hoyle"))
        passes = [0]

        def events(now):
            if b.session.state() == lm.OFFER:
                b.session.accept()
            if states(a, b) == (lm.IDLE, lm.IDLE):
                a.session.propose(Rules("hoyle"))   # the proposal was lost with its save
            if passes[0] == at:
                d = (a, b)[victim]
                d.cut_before_save = before_save
                d.step(now)
                d.cut_before_save = False
                d.power_cut()
            passes[0] += 1

        assert run((a, b), wire, 30, events=events,
                   until=lambda: states(a, b) == (lm.PLAYING_NOW, lm.PLAYING_NOW)), (at, states(a, b))
        sa, sb = a.session, b.session
        assert sa.match.to_dict() == sb.match.to_dict()
        assert sa.match.rng.state == new_match(Rules("hoyle"), "casual",
                                               fairseed.match_seed(sa.value, sb.value)).rng.state
