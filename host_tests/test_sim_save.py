"""The simulator's save file (--save): written atomically, so killing the simulator at
any moment never loses the match; a place it cannot use is one clear line."""
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from tools.flashnvm import FlashNVM, SECTOR
from tools.sim import Sim, ROOT, Driver, first_legal, open_save, setup_paths

setup_paths()
from sixtysix.save import savegame  # noqa: E402


def run_sim(args, **kw):
    return subprocess.run([sys.executable, "-m", "tools.sim"] + args, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, **kw)


def test_sigkill_never_leaves_a_broken_save(tmp_path):
    """Kill a running `tools.sim` again and again while it plays and saves: the file is
    always a whole nvm image, and the next start continues the match."""
    keys = tmp_path / "keys.txt"
    keys.write_text("ok\n" * 400)               # New match, then play on and on
    save = tmp_path / "nvm.bin"
    rnd = random.Random(9)
    played = []
    for kill in range(6):
        proc = subprocess.Popen([sys.executable, "-m", "tools.sim", "--headless", "--keys", str(keys),
                                 "--save", str(save), "--seed", str(kill)], cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        start = time.monotonic()
        while not save.exists() and time.monotonic() - start < 30:
            time.sleep(0.01)
        first = save.read_bytes() if save.exists() else b""
        while save.exists() and save.read_bytes() == first and time.monotonic() - start < 30:
            time.sleep(0.01)                    # a loaded machine boots slowly: wait for a save
        time.sleep(rnd.uniform(0.0, 1.0))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert save.stat().st_size == SECTOR, "kill %d left a torn file" % kill
        sim = Sim("pico_display_pack", nvm=FlashNVM(save.read_bytes()))
        sim.boot()
        sim.settle()
        assert sim.app.screen.notice_text == ""
        if sim.app.device.store.in_progress():
            played.append(len(savegame.load(sim.app.device.store)[0].deal.log))
    assert played, "no kill came after the first action was saved"


def test_save_in_a_folder_or_a_place_it_cannot_write_is_one_line(tmp_path):
    keys = tmp_path / "keys.txt"
    keys.write_text("ok\n")
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    wrong = tmp_path / "short.bin"
    wrong.write_bytes(b"")                      # what the old truncate-then-write left
    cases = [(tmp_path, "is a folder"), (blocked / "nvm.bin", "cannot keep the save"),
             (wrong, "--fresh")]
    if os.geteuid() != 0:                       # root may write anywhere
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o555)
        cases.append((ro / "nvm.bin", "cannot keep the save"))
    for path, says in cases:
        out = run_sim(["--headless", "--keys", str(keys), "--save", str(path)])
        assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
        assert out.stderr.count("\n") == 1 and says in out.stderr, out.stderr
    assert wrong.read_bytes() == b""            # and nothing was overwritten


def test_a_save_file_that_stops_working_mid_game_is_reported_once(tmp_path, monkeypatch, capsys):
    nvm = open_save(str(tmp_path / "nvm.bin"))
    sim = Sim("pico_display_pack", nvm=nvm)
    sim.boot()
    sim.settle()

    def full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    sim.press("ok")
    driver = Driver(sim, first_legal)
    for _ in range(4):
        driver.act()
    err = capsys.readouterr().err
    assert err.count("playing on without saving") == 1 and "No space left" in err
    assert sim.app.screen.match.deal.log            # the game went on
    monkeypatch.undo()
    driver.act()                                    # writable again: saved again
    assert FlashNVM.file(tmp_path / "nvm.bin").data == nvm.data


def test_fresh_starts_over(tmp_path):
    save = tmp_path / "nvm.bin"
    save.write_bytes(b"\x00" * 10)
    keys = tmp_path / "keys.txt"
    keys.write_text("ok\n")
    out = run_sim(["--headless", "--keys", str(keys), "--save", str(save), "--fresh"])
    assert out.returncode == 0, out.stderr
    assert save.stat().st_size == SECTOR and save.read_bytes()[0:2] == b"6L"


@pytest.mark.parametrize("cut", [0, 1, 2])
def test_power_cut_mid_write_through_the_firmware(cut):
    """The real firmware in the simulator, power lost in the middle of saving an action
    (`cut` bytes of it land): the next boot continues at that action or the one before."""
    from tools.flashnvm import PowerCut
    sim = Sim("pico_display_pack", seed=4)
    sim.boot()
    sim.settle()
    sim.press("ok")
    driver = Driver(sim, first_legal)
    for _ in range(3):
        driver.act()
    g = sim.app.screen
    before = g.match.to_dict()
    sim.nvm.arm_cut(cut)
    with pytest.raises(PowerCut):
        driver.act()
    after = g.match.to_dict()
    sim.power_cut()
    sim.boot()
    sim.settle()
    assert sim.app.screen.names[0] == "continue" and sim.app.screen.notice_text == ""
    got = savegame.load(sim.app.device.store)[0].to_dict()
    assert got in (before, after)
    assert got == (after if cut >= 2 else before)   # an action record is 2 bytes
