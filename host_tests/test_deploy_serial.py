"""tools.deploy over serial: mpremote's real SerialTransport talking to FakeBoard on a pty."""

import errno
import time

import pytest
import serial

from deploy_fakes import FakeBoard, board_files, make_repo, seed_cache
from tools.deploy import cli, discover
from tools.deploy.errors import BoardNotResponding
from tools.deploy.serialboard import SerialTarget, errno_from_output
from tools.deploy.sync import PLACEHOLDER

EXPECTED_COUNT = 14


@pytest.fixture
def env(tmp_path):
    return make_repo(tmp_path / "repo"), seed_cache(tmp_path / "cache"), tmp_path / "board"


def run(capsys, env, board, *args):
    repo, cache, _root = env
    code = cli.main(["--source", str(repo), "--lib-cache", str(cache), "--port", board.port] + list(args))
    out, err = capsys.readouterr()
    return code, out, err


def written(out):
    return [line.split()[1] for line in out.splitlines() if line.strip().startswith("wrote")]


@pytest.mark.parametrize("paste, with_hashlib", [("accept", False), ("refuse", True), ("unknown", False)])
def test_full_then_incremental_deploy(env, capsys, paste, with_hashlib):
    repo, _cache, root = env
    with FakeBoard(root, paste=paste, with_hashlib=with_hashlib) as board:
        code, out, err = run(capsys, env, board)
        assert (code, err) == (0, "")
        assert "board on {} (CircuitPython 10.0.3, Raspberry Pi Pico with rp2040)".format(board.port) in out
        assert "{} verified".format(EXPECTED_COUNT) in out
    files = board_files(root)
    assert len(files) == EXPECTED_COUNT
    assert files["/code.py"] == (repo / "firmware/code.py").read_bytes()
    assert files["/assets/cards.bmp"] == (repo / "firmware/assets/cards.bmp").read_bytes()
    assert files["/settings.toml"] == b'SIXTYSIX_PROFILE = "pico_display_pack"\nCIRCUITPY_PYSTACK_SIZE = 4096\n'
    assert written(out)[-1] == "/code.py"

    (repo / "firmware/sixtysix/app.py").write_text("def run(profile):\n    return 66\n")
    with FakeBoard(root, paste=paste, with_hashlib=with_hashlib) as board:
        code, out, _ = run(capsys, env, board)
        writes = [c for c in board.executed if c.startswith("f=open(")]
    assert code == 0 and written(out) == ["/lib/sixtysix/app.py", "/code.py"]
    assert [w.split("'")[1] for w in writes] == ["/code.py", "/lib/sixtysix/app.py", "/code.py"]
    assert board_files(root)["/lib/sixtysix/app.py"] == b"def run(profile):\n    return 66\n"


def wait_for_reload(board):
    """The fake board registers the soft reload on its own thread: wait up to 10 s for it."""
    for _ in range(1000):
        if board.reloads:
            break
        time.sleep(0.01)
    return board.reloads


@pytest.mark.parametrize("second_run", [False, True], ids=["after copying", "after nothing to copy"])
def test_the_game_is_restarted_after_a_deploy(env, capsys, second_run):
    if second_run:
        with FakeBoard(env[2]) as board:
            assert run(capsys, env, board)[0] == 0
    with FakeBoard(env[2]) as board:
        code, out, _ = run(capsys, env, board)
        assert code == 0 and ("Nothing to copy" in out) == second_run
        assert wait_for_reload(board) == 1 and board.state == "running"


def test_no_restart_leaves_the_board_at_the_repl(env, capsys):
    with FakeBoard(env[2]) as board:
        assert run(capsys, env, board, "--no-restart")[0] == 0
        time.sleep(0.1)
        assert board.reloads == 0 and board.state == "friendly"


def test_settings_merge_over_serial(env, capsys):
    root = env[2]
    root.mkdir()
    (root / "settings.toml").write_text('CIRCUITPY_WIFI_SSID = "home"\r\nSIXTYSIX_PROFILE = "old_board"\r\n')
    with FakeBoard(root) as board:
        code, out, _ = run(capsys, env, board, "--profile", "waveshare_lcd_1in3")
    assert code == 0
    assert (root / "settings.toml").read_bytes() == (b'CIRCUITPY_WIFI_SSID = "home"\r\n'
                                                     b'SIXTYSIX_PROFILE = "waveshare_lcd_1in3"\r\n'
                                                     b'CIRCUITPY_PYSTACK_SIZE = 4096\r\n')


def test_micropython_board_is_refused(env, capsys):
    with FakeBoard(env[2], implementation="micropython", version=(1, 25, 0)) as board:
        code, _out, err = run(capsys, env, board)
    assert code == 5 and "runs MicroPython 1.25.0, not CircuitPython" in err and "--uf2" in err
    assert board_files(env[2]) == {}


def test_old_circuitpython_is_refused(env, capsys):
    with FakeBoard(env[2], version=(8, 2, 10)) as board:
        code, _out, err = run(capsys, env, board)
    assert code == 5 and "CircuitPython 8.2.10; the game needs 9.0 or newer" in err


def test_read_only_filesystem(env, capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(discover, "mount_points", lambda: [str(tmp_path / "nothing")])
    with FakeBoard(env[2], readonly=True) as board:
        code, _out, err = run(capsys, env, board)
    assert code == 7
    assert "read-only over serial" in err and "--drive PATH/TO/CIRCUITPY" in err
    assert board_files(env[2]) == {}


def test_read_only_names_the_mounted_drive(env, capsys, monkeypatch, tmp_path):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 10.0.3 on 2025-10-17; Raspberry Pi Pico with rp2040\n")
    monkeypatch.setattr(discover, "mount_points", lambda: [str(drive)])
    with FakeBoard(env[2], readonly=True) as board:
        code, _out, err = run(capsys, env, board)
    assert code == 7 and "It is mounted at {}".format(drive) in err and "--drive {}".format(drive) in err


def test_not_enough_space_is_found_before_copying(env, capsys):
    with FakeBoard(env[2], capacity=4096, block=512) as board:
        code, _out, err = run(capsys, env, board)
    assert code == 6 and "Not enough space" in err and "Nothing was changed" in err
    assert board_files(env[2]) == {}


def test_disk_full_midway_then_resume(env, capsys, monkeypatch):
    # the size estimate is fooled (statvfs claims room) but the flash fills up while copying
    monkeypatch.setattr(SerialTarget, "space", lambda self: (1 << 20, 512))
    with FakeBoard(env[2], capacity=6 * 1024, block=512) as board:
        code, _out, err = run(capsys, env, board)
    assert code == 6 and "ran out of space while copying" in err
    assert board_files(env[2])["/code.py"] == PLACEHOLDER.data
    with FakeBoard(env[2]) as board:  # the maker deletes other files: now it fits
        code, out, _ = run(capsys, env, board)
    assert code == 0 and len(board_files(env[2])) == EXPECTED_COUNT


def test_io_error_midway_then_resume(env, capsys):
    with FakeBoard(env[2], fail_on="/assets/cards.bmp") as board:  # fails on its second 512-byte chunk
        code, _out, err = run(capsys, env, board)
    assert code == 8 and "Copying /assets/cards.bmp failed: the board reported OSError: [Errno 5] Input/output error" in err
    assert board_files(env[2])["/code.py"] == PLACEHOLDER.data
    with FakeBoard(env[2]) as board:
        code, out, _ = run(capsys, env, board)
    assert code == 0
    assert written(out) == ["/assets/cards.bmp"] + sorted(written(out)[1:-1]) + ["/code.py"]
    assert "/lib/adafruit_display_text/__init__.py" in written(out)  # after the failure: still to do
    assert board_files(env[2])["/code.py"] == (env[0] / "firmware/code.py").read_bytes()


def test_cable_pulled_midway_then_resume(env, capsys):
    with FakeBoard(env[2], unplug_on="/lib/profiles/pico_display_pack.py") as board:
        code, _out, err = run(capsys, env, board)
    assert code == 8 and "the board stopped answering" in err and "run the same command again" in err
    assert board_files(env[2])["/code.py"] == PLACEHOLDER.data
    with FakeBoard(env[2]) as board:
        code, _out, _ = run(capsys, env, board)
    assert code == 0 and len(board_files(env[2])) == EXPECTED_COUNT


def test_verification_catches_corruption(env, capsys):
    with FakeBoard(env[2], corrupt={"/lib/shared_rules/cards.py"}) as board:
        code, _out, err = run(capsys, env, board)
    assert code == 9 and "/lib/shared_rules/cards.py: content differs (sha256)" in err
    assert board_files(env[2])["/code.py"] == PLACEHOLDER.data


def test_dry_run_over_serial_writes_nothing(env, capsys):
    with FakeBoard(env[2]) as board:
        code, out, _ = run(capsys, env, board, "--dry-run")
        assert not [c for c in board.executed if "open(" in c and "'wb'" in c]
    assert code == 0 and "Dry run: {} to write".format(EXPECTED_COUNT) in out
    assert board_files(env[2]) == {}


def test_port_in_use(env, capsys):
    with FakeBoard(env[2]) as board:
        with serial.Serial(board.port, exclusive=True):
            code, _out, err = run(capsys, env, board)
    assert code == 11 and "another program is using it" in err and "Thonny" in err


def test_board_that_does_not_answer(tmp_path):
    import os
    import tty
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        with pytest.raises(BoardNotResponding) as caught:
            SerialTarget(os.ttyname(slave), answer_timeout=0.2)
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
    monkeypatch.setattr(discover, "mount_points", lambda: [])
    monkeypatch.setattr(discover, "board_ports", lambda: [Port("/dev/ttyACM0"), Port("/dev/ttyACM1")])
    code = cli.main(["--source", str(repo), "--lib-cache", str(cache)])
    err = capsys.readouterr().err
    assert code == 4 and "/dev/ttyACM0  Raspberry Pi Pico" in err and "--port /dev/ttyACM0" in err


def test_single_serial_board_is_found(env, capsys, monkeypatch):
    repo, cache, root = env
    with FakeBoard(root) as board:
        monkeypatch.setattr(discover, "mount_points", lambda: [])
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
