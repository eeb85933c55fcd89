"""Linked matches through the firmware itself: two simulated devices (tools.sim, the real
App, screens and save log) on one cable, driven by key presses only. The cable is the
fault-injecting wire of linkwire.py (or loopback TCP); faults at random: dropped,
duplicated and corrupted bytes, line noise, frames twice, the cable pulled mid-message,
one side's power cut (it continues from the title as a person would), another protocol
version, a device sending an illegal move. (test_linkmatch.py tests the same faults on
the session alone, without screens.)"""
import random
import sys

import pytest

from linkwire import Wire
from tools.sim import LinkedPair, Driver, first_legal
from shared_rules import record
from sixtysix.link import match as lm
from sixtysix.link.cable import VERSION
from sixtysix.save.store import Store

RULES = ("standard", "hoyle", "russian", "schnapsen", "three-handed", "four-handed", "american",
         "american 3", "american 2", "idiots")


class Cable(LinkedPair):
    """A LinkedPair on a linkwire.Wire that keeps the wire's time with the devices' clock
    (`tcp`: on loopback TCP instead, tools.linkport, without faults)."""

    def __init__(self, seed=1, tcp=False, **faults):
        self.wire = None if tcp else Wire(seed, **faults)
        ports = None if tcp else (self.wire.end(0), self.wire.end(1))
        LinkedPair.__init__(self, ports=ports, seed=seed)

    def step(self):
        if self.wire is not None:
            self.wire.now = self.clock.now
        LinkedPair.step(self)

    def screen(self, k):
        return type(self.devices[k].app.screen).__name__

    def session(self, k):
        return self.devices[k].app.device.session

    def choose(self, k, name):
        """On the title (or a menu): move to item `name` and press OK."""
        scr = self.devices[k].app.screen
        for _ in range(scr.names.index(name)):
            self.press(k, "right")
        self.press(k, "ok")

    def to_link_screen(self, k):
        self.choose(k, "friend")
        self.press(k, "ok")             # "Link cable"
        assert self.screen(k) == "LinkScreen"

    def on_link_screens(self):
        """Both devices powered on and from the title to the link screen, connected to
        each other; their link screens."""
        self.boot()
        self.settle()
        for k in (0, 1):
            self.to_link_screen(k)
        self.wait(1500)
        return [d.app.screen for d in self.devices]

    def set_rules(self, k, rules):
        """Settings on device k: the rule set (keys, as a person would)."""
        self.choose(k, "settings")
        self.press(k, "ok", RULES.index(rules))
        self.press(k, "menu")

    def agree(self, rules="standard"):
        """Device a offers its settings, b accepts: both at the table of the new match."""
        self.set_rules(0, rules)
        for k in (0, 1):
            self.to_link_screen(k)
        self.offer_accepted()

    def offer_accepted(self):
        """Both on the link screen: device a offers its settings, b accepts: both at the
        table of the new match."""
        self.wait(1500)
        assert self.devices[0].app.screen.shown[0] == ["Connected to " + self.session(0).link.peer_name]
        self.press(0, "ok")             # "Offer: <rules>"
        self.wait(1500)
        offer = self.devices[1].app.screen.shown
        assert offer[0][0].endswith("offers a match") and offer[2][0] == "Accept", offer
        self.press(1, "ok")
        self.wait(1500)
        assert (self.screen(0), self.screen(1)) == ("Linked", "Linked")

    def ok_to_title(self, k):
        """OK on device k until its title comes (a finished match's boxes)."""
        for _ in range(20):
            if self.screen(k) == "Title":
                return
            self.press(k, "ok")
            self.wait(300)

    def press(self, k, role, times=1):
        for _ in range(times):
            LinkedPair.press(self, k, role)


def final(pair, k, sessions):
    """What device k ends with: its log (moves, CRC), its match, and what its save log holds
    (`sessions`: play's)."""
    from sixtysix.link import session
    s = sessions[k]
    again = session.restore(Store(pair.devices[k].nvm), s.link, lambda n: bytes(n))
    return (s.count(), s.crc), s.match.to_dict(), record.to_record(s.match.deal), (again.count(), again.crc)


def play(pair, rng, faults=True, limit=6000):
    """Both players play by keys until both devices are back on the title with the match
    over. With `faults`, three cable pulls and three power cuts of one side or the other
    at random moments (a cut lands a random number of main-loop passes after a key: in
    an animation, between a move and its sending, ...). Returns what was done and each
    device's session as its table last had it (the title forgets a finished match's)."""
    drivers = [Driver(pair.side(k), first_legal) for k in (0, 1)]
    done = {"pulls": 0, "cuts": 0}
    sessions = [None, None]
    pulls = set(rng.sample(range(1, 40), 3)) if faults else ()
    cuts = set(rng.sample(range(1, 40), 3)) if faults else ()
    for turn in range(limit):
        moved = False
        over = 0
        for k in (0, 1):
            app = pair.devices[k].app
            if pair.screen(k) == "Title":
                if app.screen.names[0] == "continue":   # after a power cut
                    pair.press(k, "ok")
                    moved = True
                else:
                    assert sessions[k].match.over
                    over += 1
            elif pair.screen(k) == "Linked":
                sessions[k] = app.device.session
                moved = bool(drivers[k].act()) or moved
        if over == 2:
            return done, sessions
        if turn in pulls:
            pair.wire.pull()                # torn mid-message when something is on its way
            pair.wait(rng.choice((300, 2000, 7000)))
            pair.wire.plug()
            done["pulls"] += 1
        if turn in cuts:
            k = rng.randrange(2)
            for _ in range(rng.randrange(12)):
                pair.step()
            pair.devices[k].power_cut()
            pair.devices[k].boot()
            pair.settle()
            done["cuts"] += 1
        if not moved:
            pair.wait(100)
    raise AssertionError("the linked match did not end: %s %s" % (
        pair.session(0).message(), pair.session(1).message()))


@pytest.mark.parametrize("rules,seed", [("standard", 1), ("russian", 2), ("four-handed", 3),
                                        ("american 3", 4)])
def test_a_linked_match_plays_to_the_end_through_the_firmware_with_faults_at_random(rules, seed):
    pair = Cable(seed, drop=0.002, dup=0.002, corrupt=0.002, noise=0.001, repeat=0.01)
    pair.boot()
    pair.settle()
    pair.agree(rules)
    assert pair.session(0).match.rules.name == pair.session(1).match.rules.name
    done, sessions = play(pair, random.Random(seed))
    a, b = final(pair, 0, sessions), final(pair, 1, sessions)
    assert a == b                       # the same moves, match and last deal on both ...
    assert a[0] == a[3]                 # ... and in each device's save log
    assert sessions[0].match.over and done == {"pulls": 3, "cuts": 3}, done
    assert pair.wire.lost


def test_the_table_shows_each_device_its_own_seat_and_hand():
    pair = Cable(5)
    pair.boot()
    pair.settle()
    pair.agree("standard")
    g0, g1 = (pair.devices[k].app.screen for k in (0, 1))
    assert (g0.viewer, g1.viewer) == (0, 1)
    m0, m1 = g0.match, g1.match
    assert g0.hand() != g1.hand() and sorted(g0.hand()) == sorted(
        __import__("shared_rules.cards", fromlist=["listed"]).listed(m0.deal.hands[m0.seat_of(0)]))
    assert g1.place(m1.seat_of(1)) == 0 and g1.place(m1.seat_of(0)) == 2     # own seat at the bottom
    assert g1.names[0] == pair.session(1).link.peer_name and g1.names[1] == "You"


def test_another_protocol_version_shows_a_clear_message_on_both_link_screens():
    pair = Cable(6)
    pair.boot()
    pair.settle()
    for k in (0, 1):
        pair.to_link_screen(k)
    pair.wait(1500)
    pair.wire.pull()                                # the cable goes to a device of another game version
    pair.wait(6000)
    pair.session(1).link.version = VERSION + 1
    pair.wire.plug()
    pair.wait(2000)
    for k in (0, 1):
        lines = " ".join(pair.devices[k].app.screen.shown[0])
        assert "link version" in lines and str(VERSION) in lines and str(VERSION + 1) in lines, lines
        assert pair.devices[k].app.screen.shown[2] == ["Back"]      # nothing to offer
    pair.session(1).link.version = VERSION          # updated: they connect
    pair.wait(2000)
    assert pair.devices[0].app.screen.shown[0][0].startswith("Connected to")


def test_an_illegal_move_from_the_other_device_stops_the_match_on_both_with_a_message():
    from sixtysix.link.terms import ACTIONS
    from shared_rules import cards
    pair = Cable(7)
    pair.boot()
    pair.settle()
    pair.agree("standard")
    s1 = pair.session(1)
    m = s1.match
    if s1.my_turn() is False:           # a plays first: one legal card
        Driver(pair.side(0), first_legal).act()
        pair.wait(500)
    assert s1.my_turn()
    n = s1.count()
    seat = m.deal.to_act
    theirs = cards.listed(m.deal.hands[1 - seat])[0]        # a card device b does not hold
    s1.link.send(bytes((ACTIONS, n & 255, n >> 8, seat, theirs)))   # a modified device
    pair.wait(2000)
    g0, g1 = (pair.devices[k].app.screen for k in (0, 1))
    assert pair.session(0).count() == n == s1.count()       # refused: nothing changed
    assert g0.overlay is not None and g1.overlay is not None
    assert "forbid" in pair.session(0).message() and "refused" in s1.message()
    pair.press(0, "ok")                                     # "Leave the match"
    assert pair.screen(0) == "Title"


def test_a_linked_match_over_loopback_tcp():
    pair = Cable(8, tcp=True)
    pair.boot()
    pair.settle()
    pair.agree("schnapsen")
    sessions = play(pair, random.Random(8), faults=False)[1]
    assert final(pair, 0, sessions) == final(pair, 1, sessions)


def test_sim_link_headless_drives_both_devices_from_one_keys_file(tmp_path):
    from tools import sim
    keys = tmp_path / "pair.txt"
    keys.write_text(sim.LINK_KEYS)
    assert sim.main(["--link", "0", "--headless", "--keys", str(keys), "--shots", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.glob("*.png")) == [
        "link-connected.png", "link-offer.png", "link-table.png"]
    keys.write_text("a ok\nc ok\n")
    with pytest.raises(SystemExit, match="line 2"):
        sim.main(["--link", "0", "--headless", "--keys", str(keys)])


def test_two_simulator_windows_plug_into_one_loopback_port_and_replug():
    import socket
    import time
    from tools.linkport import Plug
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    one = Plug(port)
    assert one.read(4) is None and one.write(b"lost") == 4      # nobody there: a pulled cable
    two = Plug(port)
    assert one.first and not two.first

    def arrived(end, n):
        for _ in range(100):
            if end.in_waiting >= n:
                return end.read(n)
            time.sleep(0.01)

    one.write(b"hello")
    assert arrived(two, 5) == b"hello"
    two.close()                                                 # the other window closed
    three = Plug(port)                                          # and opened again
    three.write(b"back")
    assert arrived(one, 4) == b"back"
    one.close()
    three.close()


def test_the_computer_of_a_linked_match_plays_normal_at_most():
    """Hard's search does not fit beside link play's resident code (docs/LINK.md)."""
    pair = Cable(9)
    pair.boot()
    pair.settle()
    pair.devices[0].app.device.settings.index[1] = 2       # Computer: hard
    pair.agree("three-handed")
    g = pair.devices[0].app.screen
    assert g.level == "normal" and pair.session(0).proposal.seats[2] == lm.COMPUTER


def test_a_match_without_link_play_drops_the_session_and_the_link_screen_builds_it_again():
    """Link play's session and modules (~21 KB) leave the heap when a match that is not
    linked starts (sixtysix.link.session.drop), once the other device has been told this one left the
    linked match; choosing link play again reconnects on the port built the first time."""
    pair = Cable(11)
    pair.boot()
    pair.settle()
    pair.agree("standard")
    port = pair.devices[0].app.device.port

    def to_title():
        pair.press(0, "menu")                   # the action menu, in turn or not
        pair.press(0, "right", pair.devices[0].app.screen.overlay[1].items.index("Main menu"))
        pair.press(0, "ok")
        assert pair.screen(0) == "Title"

    to_title()
    assert pair.session(0).in_match()           # the linked match is kept
    pair.choose(0, "new")                       # a match against the computer replaces it
    pair.wait(3000)
    assert pair.screen(0) == "Game" and pair.session(0) is None and pair.devices[0].app.device.sync is None
    assert "left this match" in pair.session(1).message()
    to_title()
    pair.to_link_screen(0)
    pair.wait(1500)
    assert pair.devices[0].app.device.port is port and pair.session(0).link.port is port
    assert pair.devices[0].app.screen.shown[0] == ["Connected to " + pair.session(0).link.peer_name]


def test_link_play_left_without_a_match_leaves_the_heap_at_the_title(monkeypatch):
    """The link screen visited, no linked match: back at the title, link play's session
    and modules go while it waits (on the real firmware they ran the heap out beside the
    title's next game at Hard, and beside a pass-and-play table), the link screen with
    them (chosen again, it must not hold the old copies); and a match started at once,
    before they went, has none when its table is built."""
    from sixtysix.app import App
    pair = Cable(12)
    pair.boot()
    pair.settle()
    pair.to_link_screen(0)
    pair.wait(1500)
    assert pair.session(0) is not None
    pair.press(0, "menu")
    pair.wait(500)
    assert pair.screen(0) == "Title" and pair.session(0) is None and pair.devices[0].app.device.sync is None
    assert "sixtysix.link.screen" not in sys.modules     # it held link play's modules
    pair.to_link_screen(0)                              # chosen again: one copy of each
    pair.wait(1500)
    assert pair.session(0) is not None
    assert sys.modules["sixtysix.link.screen"].lm is sys.modules["sixtysix.link.match"]
    assert type(pair.session(0)) is sys.modules["sixtysix.link.match"].LinkedMatch
    pair.press(0, "menu")
    pair.wait(500)
    assert pair.session(0) is None
    from sixtysix.screens import loading
    monkeypatch.setattr(loading, "begin", lambda device: None)    # the title too busy to drop it
    pair.to_link_screen(0)
    pair.wait(1500)
    pair.press(0, "menu")
    pair.wait(500)
    assert pair.screen(0) == "Title" and pair.session(0) is not None
    sessions = []
    real = App.set_screen

    def noting(app, screen):
        sessions.append((type(screen).__name__, app.device.session))
        real(app, screen)

    monkeypatch.setattr(App, "set_screen", noting)
    pair.choose(0, "new")
    assert ("Game", None) in sessions and pair.screen(0) == "Game"


# Link play's modules, and what a linked match's engine and computer load: forgotten
# before the test below (and put back after it), so that it sees them compiled.
LINK_MODULES = ("sixtysix.screens.friends", "sixtysix.table.seats", "sixtysix.link.cable",
                "sixtysix.link.sha256", "sixtysix.link.fairseed", "sixtysix.link.terms",
                "sixtysix.link.handshake", "sixtysix.link.play", "sixtysix.link.heard", "sixtysix.link.match",
                "sixtysix.link.session", "sixtysix.link.restore", "sixtysix.link.screen", "sixtysix.link.table",
                "sixtysix.table.teams", "shared_rules.family", "shared_rules.team", "shared_rules.ai.greedy",
                "shared_rules.ai.normal", "shared_rules.ai.solver", "shared_rules.ai.team_greedy")


class Watched(Cable):
    """A Cable that notes, for every pass of each device's loop while `watching`, the
    modules of sixtysix and shared_rules that pass compiled and whether the device was
    loading a screen then (App.step's frames between the old screen and the new one, and
    the frames of App.warm, the title's imports among them: no key is answered in them). Both devices share this process's modules: a module one
    forgets and the other imports again is not a compile on the other (it kept its own)."""

    watching = False

    def __init__(self, seed):
        Cable.__init__(self, seed)
        self.frames = []            # (device, loading, screen, modules compiled)
        self.kept = [set(), set()]  # what each device imported and has not forgotten

    def step(self):
        import sys
        self.wire.now = self.clock.now
        self.clock.now += 1 / 30
        for k, d in enumerate(self.devices):
            app = d.app
            loading = app is not None and app.wipe is None and \
                (app.going is not None or bool(app.device.warm))
            before = set(sys.modules)
            d.step(tick=False)
            after = set(sys.modules)
            new = sorted(m for m in after - before - self.kept[k] if m.startswith(("sixtysix.", "shared_rules.")))
            self.kept[k] = (self.kept[k] - (before - after)) | (after - before)
            if self.watching:
                self.frames.append((k, loading, type(app.screen).__name__, new))


def test_a_finished_linked_match_leaves_the_heap_at_the_title_and_the_next_starts_fresh(monkeypatch):
    """After a linked match, back at the title, link play's session and modules go once
    the other device has every move (on the real firmware, kept beside the title's next
    game they ran the heap out as a linked four-handed match started); the other device,
    still at its table, shows the match over, not a wait; link play chosen again does
    not rebuild the finished match (link.restore not even loaded), and the next match is
    offered and agreed."""
    pair = Cable(13)
    pair.boot()
    pair.settle()
    pair.agree("schnapsen")
    drivers = [Driver(pair.side(k), first_legal) for k in (0, 1)]
    for _ in range(3000):
        if pair.session(0).match.over and pair.session(1).match.over:
            break
        if not any(d.act() for d in drivers):
            pair.wait(100)
    assert pair.session(0).match.over and pair.session(1).match.over
    pair.ok_to_title(0)                         # the match's end shown: device 0 goes on
    assert pair.screen(0) == "Title" and pair.screen(1) == "Linked"
    pair.wait(1500)
    assert pair.session(0) is None and pair.devices[0].app.device.sync is None
    assert pair.session(1).state() == lm.OVER   # device 1 hears no more from it
    assert pair.devices[1].app.screen.table.msg.text == ""
    pair.wait(9000)
    assert pair.session(1).state() == lm.OVER
    loaded = []
    real = __import__

    def noting(name, *args, **kwargs):
        loaded.append(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr("builtins.__import__", noting)
    pair.to_link_screen(0)
    pair.wait(1500)
    assert "sixtysix.link.restore" not in loaded and pair.session(0).match is None
    monkeypatch.undo()
    pair.ok_to_title(1)
    pair.to_link_screen(1)
    pair.offer_accepted()
    assert pair.session(0).count() == pair.session(1).count() and not pair.session(0).match.over


def test_a_linked_table_keeps_neither_the_set_up_nor_the_other_games(monkeypatch):
    """Once a linked match is agreed, the link screen's module and the engine of the games
    it is not go before the table's modules load (on the real firmware the table's
    loading beside them left 6.5 KB free), with the set-up's steps and the fair seed's
    modules and the local save's (a linked table saves through its session), and the
    title's and the menus' (on the real firmware 1.4 KB more free at that moment); a team
    game's computer keeps none of the two-handed ones; the next match's set-up loads them
    again."""
    pair = Cable(14)
    pair.boot()
    pair.settle()
    seen = {}
    real = __import__

    def noting(name, *args, **kwargs):
        if name == "sixtysix.table.driver" and name not in sys.modules and \
                any(d.app.going == "linkgame" for d in pair.devices):
            seen.setdefault("link screen", "sixtysix.link.screen" in sys.modules)
            seen.setdefault("two-handed deal", "shared_rules.deal" in sys.modules)
            seen.setdefault("local save", "sixtysix.save.savegame" in sys.modules)
            seen.setdefault("title and menus", [m for m in ("sixtysix.screens.title", "sixtysix.screens.menu")
                                                if m in sys.modules])
            seen.setdefault("set-up", [m for m in ("sixtysix.link.handshake", "sixtysix.link.fairseed",
                                                   "sixtysix.link.sha256") if m in sys.modules])
        return real(name, *args, **kwargs)

    monkeypatch.setattr("builtins.__import__", noting)
    pair.agree("four-handed")               # (the link screen loads every game's engine)
    assert seen == {"link screen": False, "two-handed deal": False, "local save": False, "set-up": [],
                    "title and menus": []}
    gone = ("sixtysix.link.sha256", "sixtysix.link.fairseed", "sixtysix.link.handshake", "sixtysix.save.savegame",
            "sixtysix.link.screen", "shared_rules.deal", "shared_rules.view", "shared_rules.ai.greedy",
            "shared_rules.ai.normal")
    assert [m for m in gone if m in sys.modules] == []
    assert "shared_rules.ai.team_greedy" in sys.modules     # (the computer's and the hints')
    pair.press(0, "menu")                       # leave the match: a new one is offered
    pair.press(0, "right", pair.devices[0].app.screen.overlay[1].items.index("Leave the match"))
    pair.press(0, "ok")
    pair.wait(1500)
    pair.press(1, "ok")                         # the other device's "stopped" box: to the title
    pair.wait(1500)
    for k in (0, 1):
        assert pair.screen(k) == "Title", pair.screen(k)
        pair.to_link_screen(k)
    pair.offer_accepted()                       # (fair seed's modules loaded again)


def test_the_link_screen_makes_a_linked_tables_names_once_and_keeps_none_of_its_modules(monkeypatch):
    """The link screen's first visit after power-on loads what a linked table loads that
    it does not (friends.AHEAD), one a frame, then forgets it: the names (identifiers) are
    made while the heap is in one piece, not as the table loads (on the real firmware a
    pool of them fell due there with no free block big enough). The next visit does not."""
    from sixtysix.screens import friends
    pair = Cable(15)
    pair.boot()
    pair.settle()
    loaded = []
    real = __import__

    def noting(name, *args, **kwargs):
        if name not in sys.modules:
            loaded.append(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr("builtins.__import__", noting)
    pair.to_link_screen(0)
    ahead = [m for group in friends.AHEAD for m in group]
    assert [m for m in ahead if m in loaded] == ahead
    assert [m for m in ahead if m in sys.modules] == ["shared_rules.team"]     # (the link screen's)
    assert pair.devices[0].app.device.named == len(friends.AHEAD)
    pair.press(0, "menu")
    pair.wait(500)
    del loaded[:]
    pair.to_link_screen(0)
    assert [m for m in ahead if m in loaded and m not in friends.SCREEN] == []


def test_link_play_compiles_only_while_a_screen_loads_one_module_a_frame(monkeypatch):
    """Opening link play, agreeing a match, playing it and continuing it after a power
    cut compile modules only in frames where a screen loads, one a frame: never in a
    frame that waits for a key or answers one (on the board a compile cannot be split:
    link.match alone takes ~200 ms)."""
    import sys
    import sixtysix
    import shared_rules
    pair = Watched(13)
    pair.boot()
    pair.settle()               # the title's own loading is the title's (sixtysix.screens.loading)
    for name in LINK_MODULES:
        if name in sys.modules:
            pkg, attr = name.rsplit(".", 1)
            monkeypatch.delitem(sys.modules, name)
            monkeypatch.delattr(sys.modules[pkg], attr)
    pair.watching = True
    pair.agree("three-handed")          # with a computer player: its modules too
    drivers = [Driver(pair.side(k), first_legal) for k in (0, 1)]
    for _ in range(40):
        for k in (0, 1):
            drivers[k].act()
        pair.wait(100)
    pair.watching = False
    pair.devices[1].power_cut()
    pair.devices[1].boot()
    pair.settle()
    pair.watching = True
    pair.press(1, "ok")                 # Continue: the linked match
    pair.wait(1500)
    assert pair.screen(1) == "Linked"
    for k in (0, 1):
        drivers[k].act()
    pair.wait(1000)
    compiled = [f for f in pair.frames if f[3]]
    assert compiled, "nothing was compiled: the test saw nothing"
    wrong = [f for f in compiled if not f[1] or len(f[3]) > 1]
    assert not wrong, wrong
    assert {"sixtysix.link.match", "sixtysix.link.restore", "sixtysix.link.table", "shared_rules.ai.normal"} <= \
        {m for f in compiled for m in f[3]}


def test_the_link_screen_shows_a_change_a_part_a_frame():
    """An offer arriving changes the state's line, the offer's three lines and the menu:
    the menu comes first (the answer to a key, when a key made the change), then a line
    a frame; on the real firmware all of them in one frame drew 89 ms."""
    pair = Cable(5)
    scr = pair.on_link_screens()[1]
    tick = scr.tick
    seen = []

    def noting(role):
        out = tick(role)
        seen.append(([lab.text for lab in scr.texts], scr.menu))
        return out

    scr.tick = noting
    pair.press(0, "ok")                         # device a offers its settings
    pair.wait(1500)
    changes = [[i for i in range(len(a[0])) if a[0][i] != b[0][i]] + (["menu"] if a[1] is not b[1] else [])
               for a, b in zip(seen, seen[1:])]
    changed = [c for c in changes if c]
    assert changed[0] == ["menu"] and len(changed) == 5, changed     # the state's line, the offer's three
    assert all(len(c) == 1 for c in changed), changed
    assert scr.shown[0][0].endswith("offers a match") and scr.menu.items[0] == "Accept"


def test_an_offer_answers_its_key_before_its_commitment(monkeypatch):
    """OK on "Offer" takes the menu off in the key's own frame and makes the offer's
    SHA-256 commitment (~100 ms on the board) in the next: on the real firmware the key
    waited 136 ms for its first change."""
    pair = Cable(6)
    scr = pair.on_link_screens()[0]
    tick = scr.tick
    frames = []
    gone = []

    def noting(role):
        frames.append(role)
        out = tick(role)
        if scr.menu is None and not gone:
            gone.append(len(frames))
        return out

    fairseed = sys.modules["sixtysix.link.handshake"].fairseed     # (the one the set-up uses)
    real = fairseed.commitment
    made = []
    monkeypatch.setattr(scr, "tick", noting)
    monkeypatch.setattr(fairseed, "commitment", lambda v: made.append(len(frames)) or real(v))
    pair.press(0, "ok")
    pair.wait(1500)
    assert gone and frames[gone[0] - 1] == "ok"          # the menu went in the key's frame
    assert made and made[0] == gone[0] + 1              # the commitment in the next
    assert scr.menu.items[0] == "Withdraw the offer"
