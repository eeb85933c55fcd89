"""The save log (sixtysix.save.store, savegame, settings) on the flash stand-in with
CircuitPython's semantics (tools/flashnvm.FlashNVM): round trips of every rule set, the
extremes of every stored value, power cuts in the middle of page programs, wear, the
deploy flag's bytes, and saves of the firmware before the log."""
import json
import random
from pathlib import Path

import pytest

from tools.flashnvm import FlashNVM, PowerCut, PAGE
from tools.sim import setup_paths

setup_paths()       # firmware/ on sys.path, as on the board
from shared_rules.family import new_match, match_from_dict  # noqa: E402
from shared_rules.rules import Rules, TEAM_GAMES  # noqa: E402
from shared_rules.ai import team_greedy  # noqa: E402
from sixtysix.save import archive, format as saveformat, store, savegame  # noqa: E402
from sixtysix.save.settings import Settings, CHOICES  # noqa: E402

HERE = Path(__file__).resolve().parent
GAMES = [("standard", {}), ("hoyle", {}), ("russian", {}), ("schnapsen", {}),
         ("three-handed", {}), ("four-handed", {}), ("american", {}),
         ("american", {"players": 3}), ("american", {"players": 2}), ("idiots", {}),
         ("standard", {"target": 5}), ("hoyle", {"next_dealer": "winner"})]


class Device:
    """The firmware's save path without the screens: a match played by random moves,
    logged as sixtysix.app logs it (the deal's header, then each action; the action
    that ends a deal carries the statistics), settings changed now and then."""

    def __init__(self, nvm, rules, options, seed, level="normal", counting="casual"):
        self.nvm = nvm
        self.rnd = random.Random(seed)
        self.st = store.Store(nvm)
        self.settings = Settings()
        self.settings.load(self.st)
        self.level = level
        self.match = new_match(Rules(rules, **options), counting, seed)
        savegame.log_deal(self.st, self.match, level)

    def step(self):
        """One thing the device saves: an action, a new deal, or a settings change.
        Returns False once the match is over."""
        m = self.match
        if m.over:
            return False
        if m.deal.ended:
            m.next_deal()
            savegame.log_deal(self.st, m, self.level)
            return True
        if self.rnd.random() < 0.03:
            self.settings.cycle(self.rnd.randrange(2, len(CHOICES)))
            self.settings.save(self.st)
            return True
        d = m.deal
        seat = d.to_act
        if m.rules.game in TEAM_GAMES and self.rnd.random() < 0.9:
            action = team_greedy.choose(d.view(seat))     # random bids never end a match
        else:
            action = self.rnd.choice(d.legal_actions())
        m.apply(action, seat)
        flags = 0
        if d.ended:
            won = d.result[0] is not None and d.result[0] % 2 == 0
            flags = saveformat.COUNTED | (saveformat.WON if won else 0)
            if m.over:
                flags |= saveformat.OVER | (saveformat.MATCH_WON if m.winner == 0 else 0)
            self.settings.count_flags(flags)
        implied = self.rnd.random() < 0.8       # the firmware names the seat when it must
        self.st.action(-1 if implied and not flags else seat, action, flags,
                       self.settings.to_bytes() if flags else None)
        return True

    def state(self):
        """What a restart must find: the match as data, the level, the settings."""
        return (self.match.to_dict(), self.settings.index[:], self.settings.stats[:],
                self.match.over)


def restart(nvm):
    """Power on again: (match dict or None, settings index, stats, over), the store."""
    st = store.Store(nvm)
    s = Settings()
    s.load(st)
    got = savegame.load(st)
    if isinstance(got, tuple):
        return (got[0].to_dict(), s.index[:], s.stats[:], got[0].over), st
    return (None, s.index[:], s.stats[:], None), st


@pytest.mark.parametrize("rules,options", GAMES)
def test_every_rule_set_restarts_exactly_where_it_was(rules, options):
    for seed in range(6):
        dev = Device(FlashNVM(), rules, options, seed, level=savegame.LEVELS[seed % 3],
                     counting=("casual", "classic")[seed % 2])
        for n in range(2000):
            if not dev.step():
                break
            if n % 7 == 0 or dev.match.over:
                got, st = restart(dev.nvm)
                assert got == dev.state()
                assert st.in_progress() == (not dev.match.over)
                m, level, _ = savegame.load(st)
                assert level == dev.level
                assert m.deal.legal_actions() == dev.match.deal.legal_actions()


def header_round_trip(m):
    raw = savegame.header(m, "hard")
    back, level, _ = savegame.restore(raw, [])
    return raw, back


def test_every_value_the_engine_can_produce_is_stored():
    """North American scores far below -128 and far above the target, a big carry, a
    deal count past 65535, and a finished match (the target reached)."""
    for score in ([-32769, 5], [-129, 10 ** 6], [0, -1], [2 ** 29, -2 ** 29]):
        m = new_match(Rules("american"), seed=3)
        m.score = score
        m.carry = 70000
        m.deals = 66000
        raw, back = header_round_trip(m)
        assert (back.score, back.carry, back.deals) == (score, 70000, 66000)
        assert back.deal.dealt_hands == m.deal.dealt_hands
    dev = Device(FlashNVM(), "american", {"players": 3}, 1)
    while dev.step():
        pass
    m = dev.match
    back = savegame.load(store.Store(dev.nvm))[0]
    assert back.over and back.winner == m.winner and back.score == m.score
    assert max(m.score) >= m.rules.target
    assert not store.Store(dev.nvm).in_progress()       # the title offers no "Continue"


def test_the_save_of_a_deal_is_small():
    """A deal's header has no cards; an action is 2 bytes (4 with its seat or the deal's
    end): a whole standard deal logs in well under 100 bytes."""
    dev = Device(FlashNVM(), "standard", {}, 11)
    start = dev.st.end
    deals = dev.match.deals
    while dev.match.deals == deals or not dev.match.deal.log:
        dev.step()
    per_deal = dev.st.end - start
    header = len(savegame.header(dev.match, "normal"))
    print("\nstandard: a deal's header %d bytes, a whole deal %d bytes of log" % (header, per_deal))
    assert header < 24 and per_deal < 100


@pytest.mark.parametrize("rules,options", GAMES[:10])
def test_wear_is_under_a_twentieth_of_an_erase_per_deal(rules, options):
    nvm = FlashNVM()
    deals = 0
    images = []
    for seed in range(40):
        was = nvm.erases
        dev = Device(nvm, rules, options, seed)
        while True:
            if nvm.erases != was:
                was = nvm.erases
                images.append(dev.st.archive_at)
                assert dev.st.log_at - dev.st.archive_at <= archive.BUDGET
            if not dev.step():
                break
        deals += dev.match.deals
    rate = nvm.erases / deals
    print("\n%s %s: %d erases in %d deals (%.3f a deal); rewritten images %d-%d bytes"
          % (rules, options, nvm.erases, deals, rate, min(images or [0]), max(images or [0])))
    assert rate <= 0.05
    assert max(images) <= PAGE            # the rewrite's image lies in the first page (the archive after it)


def test_the_deploy_flag_bytes_are_never_touched():
    nvm = FlashNVM()
    tail = bytes(range(100, 164))
    nvm[len(nvm) - 64:] = tail
    for seed in range(12):
        dev = Device(nvm, "four-handed", {}, seed)
        while dev.step():
            assert nvm[len(nvm) - 64:] == tail
    assert nvm.erases >= 3                # compactions happened, and kept the flag


def test_power_cuts_in_the_middle_of_page_programs():
    """Thousands of random cuts: at each, a random prefix of the bytes being programmed
    lands. Every restart finds the last complete action or the one before; only a cut
    inside a rewrite (the erase window, docs/SAVES.md) may lose more, and then the
    player is told (or the flash is blank)."""
    rnd = random.Random(66)
    cuts = window = 0
    for game_i in range(1000):
        if cuts >= 3000:
            break
        rules, options = GAMES[game_i % len(GAMES)]
        nvm = FlashNVM()
        dev = Device(nvm, rules, options, game_i)
        while not dev.match.over:
            before = dev.state()
            erases = nvm.erases
            rewrite = dev.st.blank or dev.st.dirty      # the next write programs a new image
            if rnd.random() < 0.6:
                if not dev.step():
                    break
                continue
            # most writes are 2-4 bytes; some are headers, settings or a whole rewrite
            nvm.arm_cut(rnd.randrange(0, 4) if rnd.random() < 0.8 else rnd.randrange(0, 300))
            try:
                if not dev.step():
                    break
                nvm.cut_in = None                   # the write finished before the cut
                continue
            except PowerCut:
                cuts += 1
            after = dev.state()
            got, st = restart(nvm)
            if rewrite or nvm.erases != erases:     # the cut came inside a rewrite
                window += 1
                if got not in (before, after):
                    assert st.problem == saveformat.LOST or st.blank
            else:
                assert got in (before, after), "a cut lost more than the last action"
                assert st.problem is None
            # the device boots again and plays on from what it found
            if got[0] is None:
                break
            dev.st = st
            dev.settings = Settings()
            dev.settings.load(st)
            dev.match = savegame.load(st)[0]
    print("\n%d power cuts mid-write, %d of them inside a rewrite" % (cuts, window))
    assert cuts >= 2000


def test_a_torn_header_or_an_unknown_record_is_reported():
    dev = Device(FlashNVM(), "standard", {}, 1)
    for _ in range(20):
        dev.step()
    raw = bytearray(dev.nvm.data)
    deal = raw.index(bytes((saveformat.DEAL,)), saveformat.HEAD)
    raw[deal + saveformat.size(raw, deal)] = 0x6B        # a kind no version writes, mid-log
    got = store.Store(FlashNVM(bytes(raw)))
    assert got.problem == saveformat.DAMAGED and not got.in_progress()
    torn = bytearray(b"\xff" * 4096)
    torn[0] = saveformat.MAGIC[0]                       # a rewrite cut after its first byte
    assert store.Store(FlashNVM(bytes(torn))).problem == saveformat.LOST


@pytest.mark.parametrize("rules,options", GAMES[4:10])
def test_damaged_logs_never_crash(rules, options):
    """Random bytes changed anywhere in the log: reading it reports or ignores the
    damage; the settings and the match load or are refused, never an exception."""
    dev = Device(FlashNVM(), rules, options, 5)
    for _ in range(60):
        dev.step()
    raw = bytes(dev.nvm.data)
    rnd = random.Random(1)
    outcomes = set()
    for _ in range(300):
        bad = bytearray(raw)
        for _ in range(rnd.randrange(1, 4)):
            bad[rnd.randrange(dev.st.end)] = rnd.randrange(256)
        st = store.Store(FlashNVM(bytes(bad)))
        Settings().load(st)
        got = savegame.load(st)
        assert got in (saveformat.CORRUPT, saveformat.EMPTY) or isinstance(got, tuple)
        outcomes.add(st.problem)
    assert saveformat.DAMAGED in outcomes


def test_the_first_write_on_a_blank_chip_does_not_erase():
    nvm = FlashNVM()
    Device(nvm, "standard", {}, 2)
    assert nvm.erases == 0 and nvm[0:2] == b"6L"


VM_READ = """
import json
from sixtysix.save import store, savegame
from sixtysix.save.settings import Settings
for image in IMAGES:
    st = store.Store(bytearray(bytes.fromhex(image)))
    s = Settings()
    s.load(st)
    got = savegame.load(st)
    match = got[0].to_dict() if isinstance(got, tuple) else got
    acts = got[0].deal.legal_actions() if isinstance(got, tuple) else []
    if acts:
        st.action(-1, acts[0])
    st.rewrite()
    print(json.dumps([match, s.index, s.stats, st.problem, st.in_progress(),
                      bytes(st.nvm[0:st.end]).hex()]))
"""


def test_the_board_reads_and_writes_the_same_log():
    """Logs written on CPython, read in MicroPython (as on the board): the same match,
    settings and findings; then an action appended and the area rewritten, byte for byte
    as on CPython."""
    import mpvm
    try:
        mpvm.check_installed()
    except mpvm.MPVMUnavailable as e:
        pytest.skip(str(e))
    images = []
    for i, (rules, options) in enumerate(GAMES[:10]):
        dev = Device(FlashNVM(), rules, options, i, counting=("casual", "classic")[i % 2])
        for _ in range(25 + 9 * i):
            dev.step()
        raw = bytearray(dev.nvm.data)
        if i % 3 == 1:
            raw[dev.st.end - 1] = 0xFF           # the last record cut short
        images.append(bytes(raw).hex())
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):                   # the same script on CPython
        exec(VM_READ, {"IMAGES": images})
    expect = [json.loads(line) for line in out.getvalue().splitlines()]
    rows = mpvm.run_json("IMAGES = %r\n" % images + VM_READ, timeout=120,
                         packages=("shared_rules", HERE.parent / "firmware" / "sixtysix"))
    assert rows == expect and len(rows) == 10
    assert {row[3] for row in rows} == {None} and any(row[4] for row in rows)


# What save formats 2 and 3 numbered: saves outlive updates, so these may only grow at the end.
SAVED_OPTION_VALUES = {
    "pack": (24, 20, 32), "hand_size": (6, 5, 8), "exchange_rank": ("9", "J"),
    "target": (7, 5, 8, 10, 15), "next_dealer": ("alternate", "winner"),
    "exchange": ("leader", "any", "off"), "phase2_marriages": (False, True),
    "declare_marriage": (True, False), "follow": ("beat", "suit", "trump"),
    "closing": ("leader", "either", "never"), "close_min_talon": (2, 5),
    "closer_fail": ("standard", "russian"), "schwarz": ("tricks", "points"),
    "played_out": ("last-trick", "carry", "annul", "higher"), "first_dealer": ("lot", "cut"),
    "declaring": (True, False), "players": (2, 3, 4), "ten_of_trumps": (False, True)}


def test_the_numbers_in_saves_only_grow_at_the_end():
    from shared_rules import rules
    assert set(savegame.SETS) == set(rules.NAMES + rules.FAMILY)
    assert savegame.SETS[:8] == ("standard", "hoyle", "russian", "schnapsen", "three-handed",
                                 "four-handed", "american", "idiots")
    assert set(savegame.OPTION_NAMES) == set(rules.OPTIONS)
    assert savegame.OPTION_NAMES[:18] == tuple(sorted(SAVED_OPTION_VALUES))
    for key, values in SAVED_OPTION_VALUES.items():
        assert rules.OPTIONS[key][:len(values)] == values, key


# ---- saves of the firmware before the log ------------------------------------------------

OLD = json.loads((HERE / "saves_v2.json").read_text())


@pytest.mark.parametrize("name", sorted(OLD))
def test_old_saves_are_read_once_and_kept_as_a_log(name):
    """Images written by the firmware's save code before the log (commit b927cc9, save
    format 2): the settings, statistics and match come through, in one erase."""
    from tools.sim import Sim
    case = OLD[name]
    image = bytes.fromhex(case["nvm"])
    nvm = FlashNVM(image + b"\xff" * (4096 - len(image)))
    sim = Sim("pico_display_pack", nvm=nvm)
    sim.boot()
    sim.settle()
    app = sim.app
    assert nvm.erases == 1 and nvm[0:2] == b"6L"      # rewritten as a log, once
    if case["settings"] is not None:
        assert app.device.settings.index[:6] == case["settings"] and app.device.settings.stats == case["stats"]
    if case["match"] == "old":
        assert app.screen.notice_text == "Save from an older version: ignored"
        return
    assert app.screen.notice_text == ""
    if case["match"] is None:
        assert "continue" not in app.screen.names
        return
    old = match_from_dict(case["match"])
    if old.deal.ended:
        old.next_deal()                 # a finished deal goes on with the next one
    got, level, _ = savegame.load(app.device.store)
    assert got.to_dict() == old.to_dict() and level == case["level"]
    assert app.screen.names[0] == "continue"
    sim.power_cut()
    sim.boot()                          # read again: a log now, nothing to convert
    assert sim.app.device.store.legacy is None and nvm.erases == 1
    assert savegame.load(sim.app.device.store)[0].to_dict() == old.to_dict()
