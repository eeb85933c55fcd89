"""tools.deploy over serial, against FakeBoard: a CircuitPython 10 board on a pty."""

import errno
import os
import shutil
import time
import tty
from pathlib import Path

import pytest
import serial

from deploy_fakes import FakeBoard, board_files, boot_py, install_boot_py, install_game, make_repo, seed_cache, settle
from tools.deploy import cli, discover, mpy
from tools.deploy.errors import BoardNotResponding
from tools.deploy.rawrepl import RawRepl
from tools.deploy.serialboard import SerialTarget, errno_from_output
from tools.deploy.sync import PLACEHOLDER
from tools.flashnvm import FlashNVM

EXPECTED_COUNT = 16


@pytest.fixture(autouse=True)
def quick_link(monkeypatch):
    """The fake board answers within milliseconds: shorter quiet periods than a real board needs."""
    monkeypatch.setattr(RawRepl, "QUIET", 0.03)
    monkeypatch.setattr(RawRepl, "PLAIN_PAUSE", 0)
    monkeypatch.setattr(SerialTarget, "RESET_PAUSE", 0.02)


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.setattr(discover, "mount_points", lambda: [])   # no CIRCUITPY drive on this computer
    return make_repo(tmp_path / "repo"), seed_cache(tmp_path / "cache"), install_boot_py(tmp_path / "board")


@pytest.fixture
def bare(env, tmp_path):
    """A stock board: CircuitPython and nothing else (no boot.py)."""
    (env[2] / "boot.py").unlink()
    return env


def run(capsys, env, board, *args):
    repo, cache, _root = env
    code = cli.main(["--source", str(repo), "--lib-cache", str(cache), "--port", board.port] + list(args))
    out, err = capsys.readouterr()
    return code, out, err


def written(out):
    return [line.split()[1] for line in out.splitlines() if line.strip().startswith("wrote")]


# ---------------------------------------------------------------- a board with the game's boot.py

@pytest.mark.parametrize("paste, hashes, binascii", [
    ("accept", ("sha1",), ("a2b_base64",)),              # the Pico: no sha256
    ("refuse", ("sha256", "sha1"), ("a2b_base64",)),
    ("unknown", (), ("a2b_base64", "crc32")),            # crc32 from binascii
    ("accept", (), ()),                                   # Adler-32 in Python, bytes literals
], ids=["pico", "sha256", "crc32", "python-checksum"])
def test_full_then_incremental_deploy(env, capsys, paste, hashes, binascii):
    repo, _cache, root = env
    with FakeBoard(root, paste=paste, hashes=hashes, binascii=binascii) as board:
        code, out, err = run(capsys, env, board)
        assert (code, err) == (0, "")
        assert "board on {} (CircuitPython 10.0.3, Raspberry Pi Pico with rp2040)".format(board.port) in out
        assert "Restarting the board in deploy mode" in out and "every written file checked" in out
        # deploy mode for the copy, then a reset back to a normal boot that runs the game
        assert settle(board, lambda: board.resets == 2 and board.state == "running")
        assert board.deploy_mode_boots == 1 and not board.writable
        assert boot_py()["marks"](board.nvm) == 2                       # armed once, spent once: not armed
        assert (board.clock.hashed > 0) == bool(hashes or "crc32" in binascii)
    files = board_files(root)
    assert len(files) == EXPECTED_COUNT
    assert files["/code.py"] == (repo / "firmware/code.py").read_bytes()
    assert files["/boot.py"] == (repo / "firmware/boot.py").read_bytes()
    assert files["/assets/cards.bmp"] == (repo / "firmware/assets/cards.bmp").read_bytes()
    assert files["/settings.toml"] == b'SIXTYSIX_PROFILE = "pico_display_pack"\nCIRCUITPY_PYSTACK_SIZE = 4096\n'
    assert written(out)[-1] == "/code.py"

    (repo / "firmware/sixtysix/app.py").write_text("def run(profile):\n    return 66\n")
    with FakeBoard(root, paste=paste, hashes=hashes, binascii=binascii) as board:
        code, out, _ = run(capsys, env, board)
        opened = [c.split("'")[1] for c in board.executed if c.startswith("_open(")]
    assert code == 0 and written(out) == ["/lib/sixtysix/app.mpy", "/code.py"]
    assert opened == ["/code.py", "/lib/sixtysix/app.mpy", "/code.py"]     # placeholder first
    assert board_files(root)["/lib/sixtysix/app.mpy"] == mpy.compile_source(
        b"def run(profile):\n    return 66\n", "sixtysix/app.py", mpy.program())


def test_a_second_deploy_with_nothing_to_copy(env, capsys):
    with FakeBoard(env[2]) as board:
        assert run(capsys, env, board)[0] == 0
    nvm = board.nvm
    before = bytes(nvm.data)
    with FakeBoard(env[2], nvm=nvm) as board:                 # the game runs, its display on
        assert board.display is not None and not board.display.echoes
        code, out, _ = run(capsys, env, board)
        assert settle(board, lambda: board.reloads == 1 and board.state == "running")
        figures = board.clock.figures()
    print("\nno-change serial deploy, fixture repo:", figures)
    assert code == 0 and "Nothing to copy: all {} files".format(EXPECTED_COUNT) in out
    assert board.resets == 0 and bytes(nvm.data) == before     # no deploy mode: no nvm write, no reset
    assert figures["redraws"] <= 6 and figures["snippets"] == 4
    assert figures["seconds"] < 4


def test_the_display_stops_echoing_the_repl(env, capsys):
    with FakeBoard(install_game(env[2])) as board:
        assert run(capsys, env, board, "--no-restart")[0] == 0
        # the deploy-mode boot: code.py printed "Deploying..." on the console; the
        # tool's first snippet then put a fixed "Deploying..." on the screen
        assert board.display.console == ["Deploying..."]
        assert board.display.text() == "Deploying..." and not board.display.echoes
        # about 6 redraws each time the tool reaches the REPL (before deploy mode and in it)
        assert board.clock.redraws <= 12, board.clock.figures()


def test_no_restart_leaves_the_board_at_the_repl(env, capsys):
    with FakeBoard(env[2]) as board:
        code, out, _ = run(capsys, env, board, "--no-restart")
        time.sleep(0.1)
        assert code == 0 and board.state == "friendly" and board.resets == 1
        assert board.writable and "until it restarts" in out


def test_settings_merge_over_serial(env, capsys):
    root = env[2]
    (root / "settings.toml").write_text('CIRCUITPY_WIFI_SSID = "home"\r\nSIXTYSIX_PROFILE = "old_board"\r\n')
    with FakeBoard(root) as board:
        code, out, _ = run(capsys, env, board, "--profile", "waveshare_lcd_1in3")
    assert code == 0
    assert (root / "settings.toml").read_bytes() == (b'CIRCUITPY_WIFI_SSID = "home"\r\n'
                                                     b'SIXTYSIX_PROFILE = "waveshare_lcd_1in3"\r\n'
                                                     b'CIRCUITPY_PYSTACK_SIZE = 4096\r\n')


def test_the_profile_follows_the_board_id(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(discover, "mount_points", lambda: [])
    repo = make_repo(tmp_path / "repo", profiles=("pico_display_pack", "handheld"),
                     board_ids={"handheld": ("pimoroni_picosystem",)})
    env = (repo, seed_cache(tmp_path / "cache"), install_boot_py(tmp_path / "board"))
    with FakeBoard(env[2], board_id="pimoroni_picosystem") as board:
        code, out, _ = run(capsys, env, board)
    assert code == 0 and "Profile: handheld (made for pimoroni_picosystem)" in out
    assert b'SIXTYSIX_PROFILE = "handheld"' in (env[2] / "settings.toml").read_bytes()
    with FakeBoard(env[2], board_id="lilygo_t_display_rp2040") as board:
        code, out, _err = run(capsys, env, board)
    # nothing is made for this board, but settings.toml names a profile: the maker's choice stays
    assert code == 0 and "Profile: handheld (named by the board's settings.toml)" in out
    assert "Note: handheld is made for pimoroni_picosystem, but the board says it is lilygo_t_display_rp2040" in out
    (env[2] / "settings.toml").unlink()
    with FakeBoard(env[2], board_id="lilygo_t_display_rp2040") as board:
        code, _out, err = run(capsys, env, board)
    assert code == 2 and "No board profile is made for this board (Board ID: lilygo_t_display_rp2040)" in err
    assert "handheld               pimoroni_picosystem" in err and "--profile NAME" in err


# ---------------------------------------------------------------- a stock board

def test_a_stock_board_is_read_only_and_the_tool_says_what_to_do_once(bare, capsys):
    with FakeBoard(bare[2]) as board:
        nvm_before = bytes(board.nvm.data)
        code, _out, err = run(capsys, bare, board)
        assert board.resets == 0 and bytes(board.nvm.data) == nvm_before
    assert code == 7 and "read-only over serial" in err and "does not have the game's\nboot.py" in err
    assert "eject the CIRCUITPY drive" in err and "--drive PATH/TO/CIRCUITPY" in err
    assert board_files(bare[2]) == {}


def test_read_only_names_the_mounted_drive(bare, capsys, monkeypatch, tmp_path):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 10.0.3 on 2025-10-17; Raspberry Pi Pico with rp2040\n")
    monkeypatch.setattr(discover, "mount_points", lambda: [str(drive)])
    with FakeBoard(bare[2]) as board:
        code, _out, err = run(capsys, bare, board)
    assert code == 7 and "(it is mounted at {})".format(drive) in err and "--drive {}".format(drive) in err


def test_a_stock_board_whose_drive_was_ejected_takes_the_first_deploy(bare, capsys):
    with FakeBoard(bare[2], drive_visible=False) as board:
        code, out, err = run(capsys, bare, board)
        assert (code, err) == (0, "") and "opened it to code from the REPL" in out
        assert settle(board, lambda: board.resets == 1 and board.state == "running") and not board.writable
    assert board_files(bare[2])["/boot.py"] == (bare[0] / "firmware/boot.py").read_bytes()
    (bare[0] / "shared_rules/cards.py").write_text("SUITS = 'SCHD'\n")
    with FakeBoard(bare[2]) as board:              # the drive is back: from now on, deploy mode
        code, out, _ = run(capsys, bare, board)
    assert code == 0 and "deploy mode" in out and written(out) == ["/lib/shared_rules/cards.mpy", "/code.py"]


def test_dry_run_on_a_stock_board_says_it_will_fail(bare, capsys):
    with FakeBoard(bare[2]) as board:
        code, out, err = run(capsys, bare, board, "--dry-run")
        assert not [c for c in board.executed if c.startswith(("_open(", "_remount(True"))]
    assert code == 7 and "Dry run: {} to write".format(EXPECTED_COUNT) in out and "read-only over serial" in err
    assert board_files(bare[2]) == {}


def test_dry_run_with_boot_py_writes_and_restarts_nothing(env, capsys):
    with FakeBoard(env[2]) as board:
        nvm_before = bytes(board.nvm.data)
        code, out, _ = run(capsys, env, board, "--dry-run")
        assert not [c for c in board.executed if c.startswith("_open(")]
        assert board.resets == 0 and bytes(board.nvm.data) == nvm_before
    assert code == 0 and "Dry run: {} to write".format(EXPECTED_COUNT - 1) in out
    assert "will restart it in deploy mode" in out
    assert set(board_files(env[2])) == {"/boot.py"}


# ---------------------------------------------------------------- power cuts and silent boards

def test_power_cut_mid_copy_boots_the_placeholder_then_the_deploy_resumes(env, capsys):
    with FakeBoard(env[2], cut_on="/lib/profiles/pico_display_pack.mpy") as board:
        code, _out, err = run(capsys, env, board)
        assert code == 8 and "the board stopped answering" in err and "run the same command again" in err
        assert "Traceback" not in err
        board.power_on()
        # the flag was spent by the deploy-mode boot: this one is normal, and code.py is the placeholder
        assert not board.writable and board.deploy_mode_boots == 1 and board.state == "anykey"
        assert board_files(env[2])["/code.py"] == PLACEHOLDER.data
        code, out, _ = run(capsys, env, board)
        assert code == 0 and "deploy mode" in out
        assert settle(board, lambda: board.state == "running" and not board.writable)
    assert len(board_files(env[2])) == EXPECTED_COUNT


@pytest.mark.parametrize("full", [False, True], ids=["fresh flag area", "full flag area (erase)"])
def test_power_cut_while_arming_never_leaves_the_board_in_deploy_mode(env, capsys, full):
    nvm = FlashNVM()
    if full:
        nvm[len(nvm) - 64:] = b"\x66" * 64
        nvm.erases = 0
    nvm.arm_cut(0)
    with FakeBoard(env[2], nvm=nvm) as board:
        code, _out, err = run(capsys, env, board)
        assert code == 11 and "does not answer" in err and "Traceback" not in err
        board.power_on()
        assert not board.writable and board.deploy_mode_boots == 0
        code, _out, _ = run(capsys, env, board)
        assert code == 0 and settle(board, lambda: board.state == "running" and not board.writable)
    assert len(board_files(env[2])) == EXPECTED_COUNT


def test_an_armed_flag_gives_exactly_one_deploy_mode_boot(env):
    with FakeBoard(install_game(env[2])) as board:
        boot_py()["arm"](board.nvm)                    # armed, then the tool never comes
        board.power_cut()
        board.power_on()
        assert board.writable and board.display.console == ["Deploying..."]
        board.power_cut()
        board.power_on()
        assert not board.writable and board.deploy_mode_boots == 1


@pytest.mark.parametrize("snippet, exit_code", [(1, 11), (2, 11), (3, 11), (9, 8)],
                         ids=["identify", "settings", "survey", "copying"])
def test_a_board_that_stops_answering_gets_the_documented_exit(env, capsys, monkeypatch, snippet, exit_code):
    monkeypatch.setattr(RawRepl, "TIMEOUT", 1.0)
    with FakeBoard(env[2], cut_at_snippet=snippet) as board:
        code, _out, err = run(capsys, env, board)
    assert code == exit_code and "Traceback" not in err
    assert ("does not answer" if exit_code == 11 else "the board stopped answering") in err


def test_a_board_that_does_not_come_back_after_the_reset(env, capsys, monkeypatch):
    monkeypatch.setattr(SerialTarget, "RECONNECT", 0.3)
    with FakeBoard(env[2], comes_back=False) as board:
        code, _out, err = run(capsys, env, board)
    assert code == 11 and "did not come back within 0.3 s after restarting in deploy mode" in err


def test_a_late_raw_paste_answer_does_not_leave_the_board_in_raw_paste_mode(env, capsys, monkeypatch):
    monkeypatch.setattr(RawRepl, "PASTE_TIMEOUT", 0.1)
    with FakeBoard(env[2], paste="late", late_paste=0.3) as board:
        code, _out, err = run(capsys, env, board)
        assert (code, err) == (0, "")
        assert settle(board, lambda: board.state == "running")
    assert len(board_files(env[2])) == EXPECTED_COUNT


def test_ctrl_c_is_lost_in_a_packet_with_other_bytes_while_code_runs(env):
    with FakeBoard(install_game(env[2])) as board:
        with serial.Serial(board.port, timeout=0.3) as port:
            port.write(b"\r\x03")                          # what mpremote sends: ignored
            port.read(100)
            assert board.state == "running"
            port.write(b"\x03")
            assert b"KeyboardInterrupt" in port.read(300) and board.state == "anykey"


# ---------------------------------------------------------------- firmware, space and copy faults

def test_micropython_board_is_refused(env, capsys):
    with FakeBoard(env[2], implementation="micropython", version=(1, 25, 0)) as board:
        code, _out, err = run(capsys, env, board)
    assert code == 5 and "runs MicroPython 1.25.0, not CircuitPython" in err and "--uf2" in err
    assert set(board_files(env[2])) == {"/boot.py"}


def test_old_circuitpython_is_refused(env, capsys):
    with FakeBoard(env[2], version=(8, 2, 10)) as board:
        code, _out, err = run(capsys, env, board)
    assert code == 5 and "CircuitPython 8.2.10; the game needs 9.0 or newer" in err


def test_not_enough_space_is_found_before_copying(env, capsys):
    with FakeBoard(env[2], capacity=4096, block=512) as board:
        code, _out, err = run(capsys, env, board)
        assert board.resets == 0
    assert code == 6 and "Not enough space" in err and "Nothing was changed" in err
    assert set(board_files(env[2])) == {"/boot.py"}


def test_disk_full_midway_then_resume(env, capsys, monkeypatch):
    # the size estimate is fooled (statvfs claims room) but the flash fills up while copying
    monkeypatch.setattr(SerialTarget, "space", lambda self: (1 << 20, 512))
    with FakeBoard(env[2], capacity=7 * 1024, block=512) as board:
        code, _out, err = run(capsys, env, board)
    assert code == 6 and "ran out of space while copying" in err
    assert board_files(env[2])["/code.py"] == PLACEHOLDER.data
    with FakeBoard(env[2]) as board:  # the maker deletes other files: now it fits
        code, out, _ = run(capsys, env, board)
    assert code == 0 and len(board_files(env[2])) == EXPECTED_COUNT


def test_io_error_midway_then_resume(env, capsys, tmp_path):
    big = env[0] / "firmware/assets/big.bmp"
    big.write_bytes(bytes(range(256)) * 40)              # over one snippet's worth of bytes
    with FakeBoard(env[2], fail_on="/assets/big.bmp") as board:  # fails on its second write
        code, _out, err = run(capsys, env, board)
    assert code == 8 and "Copying /assets/big.bmp failed: the board reported OSError: [Errno 5] Input/output error" in err
    assert board_files(env[2])["/code.py"] == PLACEHOLDER.data
    with FakeBoard(env[2]) as board:
        code, out, _ = run(capsys, env, board)
    assert code == 0
    assert written(out)[0] == "/assets/big.bmp" and written(out)[-1] == "/code.py"
    assert "/lib/adafruit_display_text/__init__.py" in written(out)  # after the failure: still to do
    assert board_files(env[2])["/code.py"] == (env[0] / "firmware/code.py").read_bytes()


def test_verification_catches_corruption(env, capsys):
    with FakeBoard(env[2], corrupt={"/lib/shared_rules/cards.mpy"}) as board:
        code, _out, err = run(capsys, env, board)
    assert code == 9 and "/lib/shared_rules/cards.mpy: content differs (checksum)" in err
    assert board_files(env[2])["/code.py"] == PLACEHOLDER.data


# ---------------------------------------------------------------- ports

def test_port_in_use(env, capsys):
    with FakeBoard(env[2]) as board:
        with serial.Serial(board.port, exclusive=True):
            code, _out, err = run(capsys, env, board)
    assert code == 11 and "another program is using it" in err and "Thonny" in err


def test_board_that_does_not_answer(monkeypatch):
    monkeypatch.setattr(RawRepl, "BANNER_TIMEOUT", 0.2)
    monkeypatch.setattr(RawRepl, "QUIET", 0.05)
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        with pytest.raises(BoardNotResponding) as caught:
            SerialTarget(os.ttyname(slave))
        assert caught.value.exit_code == 11 and "does not answer" in str(caught.value)
    finally:
        os.close(master)
        os.close(slave)


def test_missing_port(env, capsys):
    repo, cache, _root = env
    code = cli.main(["--source", str(repo), "--lib-cache", str(cache), "--port", "/dev/ttyACM97"])
    assert code == 3 and "There is no serial port /dev/ttyACM97" in capsys.readouterr().err


class Port:
    def __init__(self, device, vid=0x239A, interface=None, manufacturer="Raspberry Pi", product="Pico"):
        self.device, self.vid, self.interface = device, vid, interface
        self.manufacturer, self.product = manufacturer, product


def test_port_discovery_skips_uarts_and_the_circuitpython_data_port(monkeypatch):
    ports = [Port("/dev/ttyS0", vid=None), Port("/dev/ttyACM1", interface="CircuitPython CDC2 data"),
             Port("/dev/ttyACM0", interface="CircuitPython CDC control")]
    monkeypatch.setattr(discover.serial.tools.list_ports, "comports", lambda: ports)
    assert [p.device for p in discover.board_ports()] == ["/dev/ttyACM0"]


def test_several_serial_boards(env, capsys, monkeypatch):
    repo, cache, _root = env
    monkeypatch.setattr(discover, "board_ports", lambda: [Port("/dev/ttyACM0"), Port("/dev/ttyACM1")])
    code = cli.main(["--source", str(repo), "--lib-cache", str(cache)])
    err = capsys.readouterr().err
    assert code == 4 and "/dev/ttyACM0  Raspberry Pi Pico" in err and "--port /dev/ttyACM0" in err


def test_single_serial_board_is_found(env, capsys, monkeypatch):
    repo, cache, root = env
    with FakeBoard(root) as board:
        monkeypatch.setattr(discover, "board_ports", lambda: [Port(board.port)])
        code = cli.main(["--source", str(repo), "--lib-cache", str(cache)])
    assert code == 0 and len(board_files(root)) == EXPECTED_COUNT


@pytest.mark.parametrize("text, number", [
    ("Traceback (most recent call last):\r\nOSError: [Errno 30] Read-only filesystem\r\n", errno.EROFS),
    ("Traceback (most recent call last):\r\nOSError: [Errno 28] ENOSPC\r\n", errno.ENOSPC),
    ("Traceback (most recent call last):\r\nOSError: 2\r\n", errno.ENOENT),
    ("Traceback (most recent call last):\r\nOSError: -30\r\n", errno.EROFS),
    ("Traceback (most recent call last):\r\nMemoryError: memory allocation failed\r\n", errno.EIO),
])
def test_board_error_texts_map_to_errno(text, number):
    assert errno_from_output(text) == number


def test_board_already_at_its_repl(env, capsys):
    with FakeBoard(env[2], code_running=False) as board:
        code, _out, _err = run(capsys, env, board)
    assert code == 0 and len(board_files(env[2])) == EXPECTED_COUNT


# ---------------------------------------------------------------- board time of this repository's deploy

def test_board_time_of_serial_deploys_of_this_repo(tmp_path, capsys, monkeypatch):
    """Prints bytes each way and the board-time estimate (deploy_fakes.BoardClock) for a
    full deploy, a no-change deploy and a one-file deploy of this repository's files."""
    monkeypatch.setattr(discover, "mount_points", lambda: [])
    root = Path(__file__).resolve().parent.parent
    repo = tmp_path / "repo"
    for folder in ("firmware", "shared_rules", "hardware/profiles"):
        shutil.copytree(root / folder, repo / folder, ignore=shutil.ignore_patterns("__pycache__"))
    env = (repo, seed_cache(tmp_path / "cache"), install_boot_py(tmp_path / "board"))
    figures = {}
    nvm = FlashNVM()
    for name, change in (("full deploy, no display", None), ("no change, game running", None),
                         ("one file changed, game running", "shared_rules/cards.py")):
        if change:
            (repo / change).write_text((repo / change).read_text() + "\nCHANGED = True\n")   # (not a comment: no bytecode)
        with FakeBoard(env[2], nvm=nvm) as board:
            code, out, _err = run(capsys, env, board)
            assert code == 0, out
            settle(board, lambda: board.state == "running")
            figures[name] = board.clock.figures()
    with capsys.disabled():
        print("\nserial deploys of this repository (board time: deploy_fakes.BoardClock):")
        for name, f in figures.items():
            print("  {:<32} {:>8,} B to the board {:>7,} B back  {:>3} snippets {:>3} redraws {} boots "
                  "{:>5.1f} s".format(name, f["received"], f["sent"], f["snippets"], f["redraws"], f["boots"] - 1,
                                      f["seconds"]))
    nothing = figures["no change, game running"]
    files = len(board_files(env[2]))            # a checksum a file comes back: ~118 bytes
    assert nothing["seconds"] < 5 and nothing["sent"] < 125 * files and nothing["redraws"] <= 6
    assert figures["full deploy, no display"]["sent"] < 20000          # checksums, not files, come back
    assert nvm.erases == 0
