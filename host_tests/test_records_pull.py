"""Finished matches kept on the device (sixtysix.save.archive) and `python -m tools.records`:
a match played through the firmware comes out as records that replay to the score the
device showed; archives survive rewrites; the oldest match goes when the budget is full;
power cuts in the rewrite never lose the game; damage loses only what it hit; saves of
the version before the archive still load; and the serial path, on the deploy's fake
board."""
import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tools.flashnvm import FlashNVM, PowerCut
from tools.sim import Sim, Driver, ROOT, first_legal, setup_paths
from tools import records

setup_paths()
from shared_rules.record import to_record  # noqa: E402
from shared_rules.report import replay  # noqa: E402
from sixtysix.save import archive, savegame, format as saveformat, store  # noqa: E402
from test_savelog import Device, restart  # noqa: E402

HERE = Path(__file__).resolve().parent


def run_records(*args):
    return subprocess.run([sys.executable, "-m", "tools.records"] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def replayed_score(deals):
    """Two-handed: each player's game points over the deals' replays (what tools.replay
    prints), the person (the record's "people") being match player 0."""
    score = [0, 0]
    for rec in deals:
        out = replay(rec)
        assert out["status"] == "ended"
        me = rec["people"][0]
        score[0] += out["game_points"][me]
        score[1] += out["game_points"][1 - me]
    return score


def test_a_match_played_on_the_device_comes_out_as_records(tmp_path):
    """The firmware in the simulator, saving to a --save file: a whole match, then
    `tools.records pull --nvm` gives the deals as the device dealt and played them, with
    the person's seat, replaying to the score the device showed."""
    save = tmp_path / "nvm.bin"
    sim = Sim("pico_display_pack", nvm=FlashNVM.file(save), seed=3)
    sim.boot()
    sim.settle()
    sim.press("ok")                                 # New match: standard, Normal computer
    played = {}
    shown = {}

    def look():
        g = sim.app.screen
        if hasattr(g, "match"):
            rec = to_record(g.match.deal)
            rec["people"] = [g.match.seat_of(0)]
            played[g.match.deals] = rec
            if g.match.over:
                shown["score"] = list(g.match.score)

    Driver(sim, first_legal).play_match(on_action=look)
    out = run_records("pull", "--nvm", str(save), "--out", str(tmp_path / "out"))
    assert out.returncode == 0 and out.stderr == "", out.stderr
    files = sorted((tmp_path / "out").iterdir())
    assert len(files) == 1 and files[0].name.startswith("standard-")
    deals = json.loads(files[0].read_text())
    assert deals == [played[k] for k in sorted(played)]
    assert replayed_score(deals) == shown["score"]
    won = "you won" if shown["score"][0] > shown["score"][1] else "the computer won"
    assert out.stdout.startswith("1. standard, casual, normal computer: %d-%d, %s; %d deals -> "
                                 % (shown["score"][0], shown["score"][1], won, len(deals)))
    listed = run_records("list", "--nvm", str(save))
    assert listed.returncode == 0 and listed.stdout == out.stdout.split(" -> ")[0] + "\n"
    again = run_records("pull", "--nvm", str(save), "--out", str(tmp_path / "out"))
    assert "already there: kept" in again.stdout and json.loads(files[0].read_text()) == deals


def play(nvm, rules, seed):
    """A whole match through the save path (test_savelog.Device): its deal records and
    final score."""
    dev = Device(nvm, rules, {}, seed)
    deals = {}
    while True:
        deals[dev.match.deals] = to_record(dev.match.deal)
        if not dev.step():
            return [deals[k] for k in sorted(deals)], dev.match.score


def pulled(nvm):
    found, notes = records.matches(bytes(nvm.data))
    return [([dict((k, v) for k, v in r.items() if k != "people") for r in f["records"]], f["match"].score)
            for f in found], notes


@pytest.mark.parametrize("rules", ["standard", "hoyle"])
def test_archives_survive_rewrites_and_the_oldest_match_goes(rules):
    """Match after match on one nvm: the log is rewritten several times, and what comes
    out is always the newest matches, each whole, the archive within its budget."""
    nvm = FlashNVM()
    played = []
    dropped = False
    for seed in range(90):
        played.append(play(nvm, rules, seed))
        got, notes = pulled(nvm)
        assert notes == [] and got and got == played[-len(got):]
        dropped = dropped or len(got) < len(played)
    st = store.Store(nvm)
    assert nvm.erases >= 3 and dropped
    assert 0 < st.log_at - st.archive_at <= archive.BUDGET
    print("\n%s: %d erases, %d matches kept of %d, archive %d bytes"
          % (rules, nvm.erases, len(got), len(played), st.log_at - st.archive_at))


def test_a_match_over_budget_keeps_its_last_deals():
    kept = []
    deals = []
    for k in range(1, 60):
        body = bytes((0, 0, 1, 0, 0, 1, 0, 0, 0)) + bytes((k,)) + bytes(3)
        last = bytes((saveformat.FLAGGED | saveformat.OVER, 0, 1)) if k == 59 else b""
        rec = archive.entry(body, bytes(range(30)) + last)
        deals.append(rec)
        archive.keep(kept, rec)
    size = sum(len(k[0]) for k in kept)
    assert size <= archive.BUDGET < size + len(deals[0])
    assert [k[0] for k in kept] == deals[-len(kept):]


def test_an_unfinished_match_goes_when_the_next_one_starts():
    nvm = FlashNVM()
    first = play(nvm, "standard", 1)
    dev = Device(nvm, "standard", {}, 2)
    while dev.match.deals < 2:                  # a deal and a bit, then a new match
        dev.step()
    third = play(nvm, "standard", 3)
    assert pulled(nvm) == ([first, third], ["1 unfinished match (in progress or left): not listed"])
    st = restart(nvm)[1]
    st.rewrite()
    assert pulled(nvm) == ([first, third], [])
    kept = archive.archived(nvm.data, st.archive_at, st.log_at)
    assert [archive.summary(r)[0] for r in kept] == \
        list(range(1, len(first[0]) + 1)) + list(range(1, len(third[0])))   # the last one: the image's


def test_the_idle_rewrite_reads_a_few_deals_a_frame_and_writes_the_same_bytes():
    """Store.tidy (App.idle's rewrite, a frame a call) reads at most DEALS_A_FRAME deals a
    call and then writes exactly what rewrite() writes at once. Actions of the current
    deal logged between its frames do not start it over (they are the image's, and a
    player plays on while it reads); a new deal does, and the deal before is archived."""
    nvm = FlashNVM()
    seed = 0
    while nvm.erases < 1 or store.Store(nvm).end - store.Store(nvm).log_at < 1000:
        play(nvm, "standard", seed)
        seed += 1
    first = Device(nvm, "standard", {}, seed)
    first.step()
    st = store.Store(nvm)
    deals = len(list(archive.archived(nvm.data, st.archive_at, st.log_at))) + \
        len(list(archive.logged(nvm.data, st.first, st.archive_at, st.log_at, st.end)))
    assert deals > 20
    for new_deal in (False, True):
        dev = copy.deepcopy(first)
        nvm, st = dev.nvm, dev.st
        erases = nvm.erases
        frames = 0
        while nvm.erases == erases:
            if frames == 2:     # the deal played on between two frames: to its end, or into the next
                while not dev.match.deal.ended or new_deal and dev.match.deals == 1:
                    dev.step()
                once = FlashNVM(bytes(nvm.data))
                restart(once)[1].rewrite()
            assert st.tidy()
            frames += 1
        assert bytes(nvm.data) == bytes(once.data)
        assert restart(nvm)[0][0] == dev.match.to_dict()
        # a step a deal read but the current one (the image's, not read), and the write
        if new_deal:
            assert frames == 2 + deals // archive.DEALS_A_FRAME + 1
        else:
            assert frames == (deals - 1) // archive.DEALS_A_FRAME + 1


def test_power_cuts_in_the_rewrite_never_lose_the_game():
    """A cut at every 7th byte of a rewrite that carries an archive: once the image (page
    0's first bytes) has landed, the game and the settings are there, unchanged; what
    the cut lost is archived deals only, and the rest still comes out."""
    nvm = FlashNVM()
    for seed in range(12):
        play(nvm, "standard", seed)
    dev = Device(nvm, "standard", {}, 99)
    for _ in range(15):
        dev.step()
    snapshot = bytes(nvm.data)
    whole = FlashNVM(snapshot)
    st = restart(whole)[1]          # read as the device reads it at power-on
    st.rewrite()
    image, end = st.archive_at, st.log_at
    full, _ = pulled(whole)
    assert end - image > 500
    before, _ = restart(FlashNVM(snapshot))
    for cut in range(image, end, 7):
        nvm = FlashNVM(snapshot)
        st = restart(nvm)[1]
        nvm.arm_cut(cut)
        with pytest.raises(PowerCut):
            st.rewrite()
        got, again = restart(nvm)
        assert got == before and again.problem is None
        out, notes = pulled(nvm)
        assert all(m in full for m in out)


def test_a_damaged_archive_entry_is_skipped_and_the_others_come_out(tmp_path):
    nvm = FlashNVM()
    played = [play(nvm, "standard", seed) for seed in range(30)]
    st = restart(nvm)[1]
    st.rewrite()
    got, _ = pulled(nvm)
    spans = []
    i = st.archive_at
    while i < st.log_at:
        n = archive.whole(nvm.data, i, st.log_at)
        spans.append((i, n))
        i += n
    first_match_deals = len(got[0][0])
    at, n = spans[first_match_deals]                # the second match's first deal
    data = bytearray(nvm.data)
    data[at + n // 2] ^= 0x5A
    path = tmp_path / "nvm.bin"
    path.write_bytes(bytes(data))
    out = run_records("pull", "--nvm", str(path), "--out", str(tmp_path / "out"))
    assert out.returncode == 0 and "Traceback" not in out.stderr
    assert "records: a damaged stretch of the archive: skipped" in out.stderr.splitlines()
    lines = out.stdout.splitlines()
    assert len(lines) == len(got) and "the first not kept" in lines[1]      # its other deals
    kept = [json.loads((tmp_path / "out" / line.split(" -> ")[1].split("/")[-1]).read_text())
            for line in lines]
    assert [[{k: v for k, v in r.items() if k != "people"} for r in m] for m in kept][2:] == \
        [m[0] for m in got[2:]]
    assert played[-1] == got[-1]


def test_a_three_handed_deal_the_person_dealt_has_no_persons_seat(tmp_path):
    """The three-handed dealer sits out: that deal's record says "people": [], and the
    review passes over it (nothing of the person's to weigh)."""
    from tools.review import review
    nvm = FlashNVM()
    dev = Device(nvm, "three-handed", {}, 4)
    seats = {}
    while True:
        seats[dev.match.deals] = dev.match.seat_of(0)
        if not dev.step():
            break
    (found,), notes = records.matches(bytes(nvm.data))
    expect = [[seats[k]] if seats[k] < 2 else [] for k in sorted(seats)]
    assert [r["people"] for r in found["records"]] == expect and [] in expect
    path = tmp_path / "match.json"
    path.write_text(json.dumps(found["records"]))
    out = review([str(path)], budget=2000)
    assert [d["seat"] for d in out["deals"]] == [e[0] if e else None for e in expect]
    assert all(d["reviewed"] == 0 for d in out["deals"] if d["seat"] is None)


def test_pass_and_play_records_name_every_persons_seat(monkeypatch):
    """Pass-and-play, players 0 and 2 persons (the header's people bits): each deal names
    both seats, in player order, as the dealer moves them; the list says who won."""
    header = savegame.header
    monkeypatch.setattr(savegame, "log_deal", lambda st, m, level, people=1: st.start_deal(header(m, level, 5)))
    nvm = FlashNVM()
    dev = Device(nvm, "four-handed", {}, 3)
    seats = {}
    while True:
        seats[dev.match.deals] = [dev.match.seat_of(0), dev.match.seat_of(2)]
        if not dev.step():
            break
    (found,), notes = records.matches(bytes(nvm.data))
    assert [r["people"] for r in found["records"]] == [seats[k] for k in sorted(seats)]
    won = "players 0 and 2 won" if dev.match.winner == 0 else "players 1 and 3 won"
    assert records.line(1, found).startswith("1. four-handed, casual, pass-and-play: ")
    assert won in records.line(1, found)


@pytest.mark.parametrize("data, code, words", [
    (None, 2, "cannot read"),
    (b"6L", 2, "holds 2 bytes: not an nvm image"),
    (b"\xff" * 4096, 1, "the save area holds no save yet: no matches in it"),
    (b"\x00" * 4096, 1, "the save area holds a damaged save: no matches in it"),
    (b"6L\x09" + b"\x00" * 4093, 1, "the save area holds a newer firmware's save: no matches in it"),
])
def test_bad_input_is_one_line(tmp_path, data, code, words):
    path = tmp_path / "nvm.bin"
    if data is not None:
        path.write_bytes(data)
    out = run_records("list", "--nvm", str(path))
    assert out.returncode == code and out.stdout == ""
    assert out.stderr.count("\n") == 1 and words in out.stderr and "Traceback" not in out.stderr


# ---- saves of the version before the archive ----------------------------------------------

OLD = json.loads((HERE / "saves_v3.json").read_text())


@pytest.mark.parametrize("name", sorted(OLD))
def test_a_log_of_the_version_before_loads_and_its_finished_match_comes_out(name):
    """Logs written by the firmware before the archive (save version 3): the match in
    progress and the settings load; the finished match in the log comes out as records;
    the first rewrite writes this version's log, with that match archived."""
    case = OLD[name]
    image = bytes.fromhex(case["nvm"])
    nvm = FlashNVM(image + b"\xff" * (4096 - len(image)))
    got, st = restart(nvm)
    assert got[0] == case["match"] and got[1:3] == (case["settings"], case["stats"])
    assert st.problem is None and not st.dirty
    finished = case["finished"]
    assert pulled(nvm)[0] == [(finished["records"], finished["score"])]
    st.rewrite()
    assert nvm[2] == saveformat.VERSION and st.log_at - st.archive_at > 0
    assert restart(nvm)[0] == got
    assert pulled(nvm)[0] == [(finished["records"], finished["score"])]


VM_HARVEST = """
from sixtysix.save import store, archive
for image in IMAGES:
    st = store.Store(bytearray(bytes.fromhex(image)))
    print('"%s"' % bytes(archive.harvest(st)).hex())
"""


def test_the_board_archives_the_same_bytes():
    """Logs with an archive in them, the next rewrite's archive worked out in MicroPython
    (as on the board): the same bytes as on CPython."""
    import mpvm
    try:
        mpvm.check_installed()
    except mpvm.MPVMUnavailable as e:
        pytest.skip(str(e))
    images = []
    expect = []
    for rules in ("standard", "four-handed", "american"):
        nvm = FlashNVM()
        for seed in range(40):
            play(nvm, rules, seed)
            if nvm.erases >= 2:
                break
        st = store.Store(nvm)
        assert st.log_at > st.archive_at
        images.append(bytes(nvm.data).hex())
        expect.append(bytes(archive.harvest(st)).hex())
    rows = mpvm.run_json("IMAGES = %r\n" % images + VM_HARVEST, timeout=300,
                         packages=("shared_rules", HERE.parent / "firmware" / "sixtysix"))
    assert rows == expect


# ---- over serial ----------------------------------------------------------------------------


def test_pull_over_serial_from_the_fake_board(tmp_path, monkeypatch, capsys):
    """The deploy's fake board with a save in its nvm: the bytes come over the raw REPL,
    the matches come out, the game is started again."""
    from deploy_fakes import FakeBoard, install_boot_py, settle
    from tools.deploy.rawrepl import RawRepl
    from tools.deploy.serialboard import SerialTarget
    monkeypatch.setattr(RawRepl, "QUIET", 0.03)
    monkeypatch.setattr(SerialTarget, "RESET_PAUSE", 0.02)
    nvm = FlashNVM()
    played = [play(nvm, "standard", seed) for seed in range(3)]
    with FakeBoard(install_boot_py(tmp_path / "board"), nvm=nvm) as board:
        code = records.main(["pull", "--port", board.port, "--out", str(tmp_path / "out")])
        out, err = capsys.readouterr()
        assert code == 0 and err == ""
        assert len(out.splitlines()) == 3 and len(list((tmp_path / "out").iterdir())) == 3
        assert settle(board, lambda: board.reloads >= 1)     # the game runs again
    assert records.main(["list", "--port", str(tmp_path / "nothing")]) == 3
    assert capsys.readouterr().err == "records: no board on %s\n" % (tmp_path / "nothing")
    assert pulled(nvm)[0] == played


def test_no_board_or_several_boards_is_one_line(monkeypatch, capsys):
    from tools.deploy import discover

    class Port:
        def __init__(self, device):
            self.device = device

    for ports, code, words in (([], 3, "no board plugged in (a data USB cable?)"),
                               ([Port("/dev/ttyACM0"), Port("/dev/ttyACM1")], 4,
                                "several boards: choose one with --port (/dev/ttyACM0, /dev/ttyACM1)")):
        monkeypatch.setattr(discover, "board_ports", lambda: ports)
        assert records.main(["list"]) == code
        out, err = capsys.readouterr()
        assert out == "" and err == "records: %s\n" % words


def test_a_folder_that_cannot_be_made_is_one_line(tmp_path, capsys):
    nvm = FlashNVM.file(tmp_path / "nvm.bin")
    play(nvm, "standard", 1)
    (tmp_path / "taken").write_text("a file")
    assert records.main(["pull", "--nvm", str(tmp_path / "nvm.bin"), "--out", str(tmp_path / "taken")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("records: cannot make %s" % (tmp_path / "taken")) and err.count("\n") == 1


@pytest.mark.parametrize("rules", ["standard", "three-handed"])
def test_a_linked_match_comes_out_as_records_on_both_devices(rules):
    """A whole linked match through the firmware on two simulated devices: each device's
    save lists it as a match of its own person's seats, from the log first, then from
    the archive once a match against the computer started after it and the log was
    rewritten; the deals replay to the match's score."""
    import random
    from test_sim_link import Cable, play
    pair = Cable(5)
    pair.boot()
    pair.settle()
    pair.agree(rules)
    sessions = play(pair, random.Random(5), faults=False)[1]
    m = sessions[0].match
    assert m.over
    for k in (0, 1):
        me = sessions[k].local_player()
        for archived in (False, True):
            nvm = pair.devices[k].nvm
            if archived:
                sim = pair.devices[k]
                sim.press("ok")                 # New match (the title's first line now)
                assert type(sim.app.screen).__name__ == "Game"
                sim.app.device.store.rewrite()
                st = store.Store(nvm)
                assert [archive.summary(r)[1:] for r in archive.archived(nvm.data, st.archive_at, st.log_at)
                        if archive.linked(r)][-1] == (True, True)
            found, notes = records.matches(bytes(nvm.data))
            assert notes == (["1 unfinished match (in progress or left): not listed"] if archived else [])
            assert len(found) == 1
            f = found[0]
            assert f["linked"] and f["people"] == 1 << me and f["match"].score == m.score
            assert len(f["records"]) == m.deals and f["records"][-1]["actions"] == to_record(m.deal)["actions"]
            assert all(replay(rec)["status"] == "ended" for rec in f["records"])
            if m.players() == 2:                # the person's seat in each deal: its points
                assert replayed_score(f["records"]) == [m.score[me], m.score[1 - me]]
            mine = f["match"].score[me % m.sides()]
            won = "you won" if mine == max(m.score) else "you lost"
            assert records.line(1, f).startswith("1. %s, casual, linked: %d-" % (rules, mine))
            assert records.line(1, f).endswith(", %s; %d deals" % (won, m.deals))


def test_a_linked_match_is_kept_in_parts_cut_between_moves_and_whole_or_not_at_all():
    """A long linked match's moves (plain and flagged) go into records of at most 254
    payload bytes, numbered, the last marked, cut only between moves, and read back as
    they were; the budget keeps a linked match whole or drops it whole (its header is in
    its first part); one that is not over is not kept."""
    head = bytes(range(90))
    moves = bytearray()
    for k in range(500):
        moves += bytes((k % 0x60,)) if k % 7 else bytes((saveformat.FLAGGED | saveformat.WON, k % 3, k % 0x60))
    moves += bytes((saveformat.FLAGGED | saveformat.OVER, 1, 5))                    # 652 bytes of moves
    parts = archive.parts(head, moves)
    assert len(parts) == 3 and all(256 <= len(p) <= 258 for p in parts[:-1])     # full, but a move
    assert [archive.summary(p) for p in parts] == [(0, False, True), (1, False, True), (2, True, True)]
    assert archive.header(parts[0]) == head and archive.header(parts[1]) == b""
    flat = [a for p in parts for a in archive.actions(p)]
    assert len(flat) == 501 and flat[-1] == (1, 5, saveformat.OVER) and flat[7] == (1, 7, saveformat.WON)
    assert [(-1, k % 0x60, 0) if k % 7 else (k % 3, k % 0x60, saveformat.WON) for k in range(500)] == flat[:-1]
    assert archive.kept_of(saveformat.LINKED, head, moves[:-3]) == ()          # not over: not kept
    assert archive.kept_of(saveformat.LINKED, head, moves) == parts
    kept = []
    for p in parts:
        archive.keep(kept, p)
    assert [k[0] for k in kept] == parts                                   # 760 bytes: within 1 KB
    longer = archive.parts(head, moves * 2)
    for p in longer:
        archive.keep(kept, p)
    assert kept == []                                                      # over budget alone: none
