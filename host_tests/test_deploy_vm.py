"""End to end over a real MicroPython REPL: the deploy tool, mpremote's serial transport
and MicroPython 1.27's own raw REPL (the npm WebAssembly VM) joined by a pseudo-terminal.

What is real: mpremote's SerialTransport on a /dev/pts port, the raw REPL protocol, the
board-side execution of every snippet (parsing, os, open, hashlib, errors) and the VM's
filesystem. What is not: the VM answers raw-paste requests with "not supported" and, when
asked, reports sys.implementation as CircuitPython (so the deploy goes ahead).
Skipped when node or the VM package (host_tests/vm) is not installed.
"""

import base64
import json
import os
import shutil
import subprocess
import threading
import tty
from pathlib import Path

import pytest

from deploy_fakes import make_repo, seed_cache
from tools.deploy import cli, mpy
from tools.deploy.rawrepl import RawRepl

HERE = Path(__file__).resolve().parent
VM = HERE / "vm" / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
BRIDGE = HERE / "deploy_vm_bridge.mjs"

pytestmark = pytest.mark.skipif(not (shutil.which("node") and VM.is_file()),
                                reason="needs node and the MicroPython VM in host_tests/vm")


class VMBoard:
    """The VM behind a pseudo-terminal; ``files()`` stops it and returns its filesystem."""

    def __init__(self, dump, pose_as="10.0.3"):
        self.dump = dump
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        command = ["node", str(BRIDGE), VM.as_uri(), str(dump)] + ([pose_as] if pose_as else [])
        self.node = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        threading.Thread(target=self._to_vm, daemon=True).start()
        threading.Thread(target=self._from_vm, daemon=True).start()

    def _to_vm(self):
        try:
            while True:
                data = os.read(self.master, 4096)
                self.node.stdin.write(data)
                self.node.stdin.flush()
        except (OSError, ValueError):
            pass

    def _from_vm(self):
        while True:
            data = self.node.stdout.read1(4096)
            if not data:
                return
            os.write(self.master, data)

    def files(self):
        self.node.stdin.close()
        self.node.wait(timeout=20)
        for fd in (self.master, self.slave):
            os.close(fd)
        return {path: base64.b64decode(data) for path, data in json.loads(self.dump.read_text()).items()}

    def kill(self):
        if self.node.poll() is None:
            self.node.kill()
            self.node.wait()


@pytest.fixture(autouse=True)
def quick_link(monkeypatch):
    """The VM answers at once: shorter quiet periods than a real board needs."""
    monkeypatch.setattr(RawRepl, "QUIET", 0.05)
    monkeypatch.setattr(RawRepl, "PLAIN_PAUSE", 0)


@pytest.fixture
def vm_board(tmp_path):
    boards = []

    def start(**kwargs):
        board = VMBoard(tmp_path / "dump{}.json".format(len(boards)), **kwargs)
        boards.append(board)
        return board

    yield start
    for board in boards:
        board.kill()


def deploy(tmp_path, board, *args):
    repo = tmp_path / "repo"
    if not repo.exists():
        make_repo(repo)
        seed_cache(tmp_path / "cache")
    return cli.main(["--source", str(repo), "--lib-cache", str(tmp_path / "cache"), "--port", board.port] + list(args))


def test_deploy_to_a_real_micropython_repl(tmp_path, vm_board, capsys):
    board = vm_board()
    assert deploy(tmp_path, board, "--profile", "waveshare_lcd_1in3") == 0  # ends with a soft reboot (Ctrl-D)
    out = capsys.readouterr().out
    assert "16 written" in out and "every written file checked" in out
    files = board.files()
    repo = tmp_path / "repo"
    assert files["/code.py"] == (repo / "firmware/code.py").read_bytes()
    assert files["/assets/cards.bmp"] == (repo / "firmware/assets/cards.bmp").read_bytes()
    assert files["/lib/sixtysix/screens/menu.mpy"] == mpy.compile_source(
        (repo / "firmware/sixtysix/screens/menu.py").read_bytes(), "sixtysix/screens/menu.py", mpy.program())
    assert files["/settings.toml"] == b'SIXTYSIX_PROFILE = "waveshare_lcd_1in3"\nCIRCUITPY_PYSTACK_SIZE = 4096\n'
    assert sorted(p for p in files if p.startswith("/lib/adafruit")) == [
        "/lib/adafruit_display_text/__init__.py", "/lib/adafruit_display_text/label.py",
        "/lib/adafruit_st7789.py", "/lib/adafruit_ticks.py"]
    assert len(files) == 16


def test_incremental_deploy_on_the_real_repl(tmp_path, vm_board, capsys):
    board = vm_board()
    assert deploy(tmp_path, board, "--no-restart") == 0
    # The same VM session: nothing changed, so nothing is written; then one file changes.
    assert deploy(tmp_path, board, "--no-restart") == 0
    assert "Nothing to copy: all 16 files on the board match" in capsys.readouterr().out
    (tmp_path / "repo/shared_rules/cards.py").write_text("SUITS = 'SCHD'\n")
    assert deploy(tmp_path, board, "--no-restart") == 0
    out = capsys.readouterr().out
    assert [line.split()[1] for line in out.splitlines() if line.strip().startswith("wrote")] == [
        "/lib/shared_rules/cards.mpy", "/code.py"]
    assert b"SCHD" in board.files()["/lib/shared_rules/cards.mpy"]


def test_real_micropython_is_refused(tmp_path, vm_board, capsys):
    board = vm_board(pose_as=None)
    assert deploy(tmp_path, board) == 5
    assert "runs MicroPython 1.27.0, not CircuitPython" in capsys.readouterr().err
    assert board.files() == {}
