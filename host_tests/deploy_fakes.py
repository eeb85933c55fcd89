"""Test doubles for tools.deploy: fixture repos, fake library wheels and a fake board.

FakeBoard is a CircuitPython board on a serial port: a pseudo-terminal (reached through
a symlink that vanishes while the board resets, as a USB port does) speaking
MicroPython's raw REPL protocol (Ctrl-A raw mode, Ctrl-D execute, "OK", output, \\x04,
error, \\x04, ">"; raw-paste negotiated with \\x05A\\x01 and accepted, refused, answered
late or not understood), running what it receives with exec() against a temporary
folder that stands for CIRCUITPY. It behaves like CircuitPython 10 on a Pico where the
deploy depends on it:

- CIRCUITPY is read-only to code at every power-up unless boot.py remounted it (the
  board's own /boot.py runs at power-up, with microcontroller.nvm a tools.flashnvm
  FlashNVM that counts erases); storage.remount from the REPL is refused while the
  drive is visible to the computer;
- code.py runs after power-up and after a soft reload; the game builds a display, and
  once the game is stopped the display echoes the REPL until something else is shown
  on it or it is released (supervisor.runtime.display, displayio, terminalio);
- hashlib has sha1 only (sha256 raises ValueError), binascii has a2b_base64 (crc32 on
  request); os has no ilistdir; OSError texts follow the chosen firmware;
- while code runs (a program, or raw-paste reading), a USB packet holding Ctrl-C and
  other bytes is dropped whole: Ctrl-C only works alone;
- microcontroller.reset() drops the port, runs boot.py again and starts code.py.

Faults: a capacity limit (ENOSPC), an I/O error or a power cut while a given file is
written, silent corruption of a file's bytes, a power cut while the nvm is written
(FlashNVM.arm_cut) or when the Nth snippet arrives, a board that does not come back
after a reset, and power_cut()/power_on() from the test.

Every board has a BoardClock: bytes in and out, snippets, Python lines run, flash
bytes, checksummed bytes, redraws and boots, and the board time they add up to.
"""

import errno
import os
import select
import struct
import sys
import threading
import time
import traceback
import tty
import zipfile
from pathlib import Path

from tools.deploy.sync import PLACEHOLDER
from tools.flashnvm import FlashNVM, PowerCut

CIRCUITPY_BOOT_OUT = ("Adafruit CircuitPython 10.0.3 on 2025-10-17; Raspberry Pi Pico with rp2040\n"
                      "Board ID:raspberry_pi_pico\nUID:E6614103E7452D2F\n")
REAL_BOOT_PY = Path(__file__).resolve().parent.parent / "firmware" / "boot.py"
PICO = ("raspberry_pi_pico", "raspberry_pi_pico_w")


# ---------------------------------------------------------------- fixture repos and wheels

def make_repo(root, profiles=("pico_display_pack", "waveshare_lcd_1in3"), app_imports=("adafruit_display_text.label",),
              board_ids=None, default="pico_display_pack"):
    """A tiny stand-in for the real repo, laid out as docs/LAYOUT.md says, with the real
    firmware/boot.py. ``board_ids``: {profile: BOARD_IDS} (default: the Pico's for all)."""
    root = Path(root)
    files = {
        "firmware/code.py": "import os\nimport sixtysix.app\nsixtysix.app.run(os.getenv('SIXTYSIX_PROFILE'))\n",
        "firmware/boot.py": REAL_BOOT_PY.read_text(),
        "firmware/sixtysix/__init__.py": "",
        "firmware/sixtysix/app.py": "".join("import {}\n".format(m) for m in app_imports) +
                                    "from shared_rules import cards\n\ndef run(profile):\n    return profile\n",
        "firmware/sixtysix/screens/menu.py": "TITLE = 'Sixty-Six'\n",
        "shared_rules/cards.py": "SUITS = 'CSHD'\n",
        "shared_rules/rules.py": "try:\n    import adafruit_not_needed\nexcept ImportError:\n    pass\n",
        "hardware/profiles/__init__.py": "PROFILES = {!r}\nDEFAULT = {!r}\n".format(tuple(profiles), default),
    }
    for name in profiles:
        ids = (board_ids or {}).get(name, PICO)
        files["hardware/profiles/{}.py".format(name)] = (
            "NAME = {!r}\nBOARD_IDS = {!r}\n\ndef display():\n    import adafruit_st7789\n    return adafruit_st7789\n"
            .format(name, tuple(ids)))
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assets = root / "firmware" / "assets"
    assets.mkdir(parents=True, exist_ok=True)
    (assets / "cards.bmp").write_bytes(b"BM" + bytes(range(256)) * 8)
    (assets / "notes.txt").write_text("not a bitmap: not deployed\n")
    return root


FAKE_LIBRARIES = {
    # distribution, version: {file in wheel: text}
    ("adafruit-circuitpython-display-text", "5.0.6"): {
        "adafruit_display_text/__init__.py": "from displayio import Group\n",
        "adafruit_display_text/label.py": "from adafruit_display_text import Group\nimport adafruit_ticks\n",
    },
    ("adafruit-circuitpython-st7789", "2.1.5"): {
        "adafruit_st7789.py": "from busdisplay import BusDisplay\ntry:\n    from fourwire import FourWire\nexcept ImportError:\n    pass\n",
    },
    ("adafruit-circuitpython-ticks", "1.1.7"): {
        "adafruit_ticks.py": "from micropython import const\n",
    },
}


def make_wheel(folder, dist, version, files):
    """A wheel as pip would download it: the modules plus a dist-info folder."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stem = "{}-{}".format(dist.replace("-", "_"), version)
    path = folder / "{}-py3-none-any.whl".format(stem)
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
        archive.writestr("{}.dist-info/METADATA".format(stem), "Name: {}\nVersion: {}\n".format(dist, version))
    return path


def seed_cache(folder):
    for (dist, version), files in FAKE_LIBRARIES.items():
        make_wheel(folder, dist, version, files)
    return Path(folder)


def make_drive(root, boot_out=CIRCUITPY_BOOT_OUT):
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    if boot_out is not None:
        (root / "boot_out.txt").write_text(boot_out)
    return root


def install_boot_py(root, text=None):
    """A board that got the game's boot.py once (through the drive): what serial deploys need."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    (root / "boot.py").write_text(REAL_BOOT_PY.read_text() if text is None else text)
    return root


def boot_py():
    """firmware/boot.py's functions (marks, arm, spend); its __main__ part does not run."""
    namespace = {"__name__": "boot"}
    exec(REAL_BOOT_PY.read_text(), namespace)
    return namespace


def install_game(root):
    """A board running an older version of the game (its code.py imports sixtysix)."""
    (Path(root) / "code.py").write_text("import sixtysix.app  # an older game\n")
    return Path(root)


def board_files(root):
    """{board path: bytes} of every file under ``root`` except boot_out.txt."""
    root = Path(root)
    return {"/" + p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != "boot_out.txt"}


# ---------------------------------------------------------------- board time

class BoardClock:
    """What the fake board did, and the board time it would take a 125 MHz Pico.

    The costs are estimates, calibrated so that the deploy tool as it was before issue
    10 comes out at the two board times measured then on real CircuitPython 10.0.3
    (emulated Pico): a full deploy to a board without a running display, 309 KB in and
    297 KB out, ~9 s; a no-change deploy to a board running the game, ~40 s of which 37 s
    were 112 display redraws (155-342 ms each). LINE_US: 100,000 turns of `s += 1` take
    0.45 s (PLATFORM_NOTES), two line events a turn. BOOT_S: power-up to code.py.
    """

    RECEIVE_US = 8.0        # a byte from the computer: USB, then the REPL's lexer/compiler
    SEND_US = 6.0           # a byte to the computer
    SNIPPET_MS = 3.0        # compiling and starting one snippet
    LINE_US = 2.25          # one line of Python run on the board
    FLASH_WRITE_US = 10.0   # a byte written to a file (sector erases and programming included)
    FLASH_READ_US = 0.5     # a byte read from a file
    HASH_US = 0.1           # a byte checksummed in C (hashlib, binascii.crc32)
    REDRAW_MS = 330.0       # the display redrawing the REPL console
    BOOT_S = 1.2            # reset to code.py
    ERASE_MS = 45.0         # one 4 KB sector erase of the nvm

    FIELDS = ("received", "sent", "snippets", "lines", "flash_written", "flash_read", "hashed", "redraws", "boots",
              "nvm_erases")

    def __init__(self):
        for field in self.FIELDS:
            setattr(self, field, 0)

    @property
    def seconds(self):
        return (self.received * self.RECEIVE_US + self.sent * self.SEND_US + self.lines * self.LINE_US
                + self.flash_written * self.FLASH_WRITE_US + self.flash_read * self.FLASH_READ_US
                + self.hashed * self.HASH_US) / 1e6 + (self.snippets * self.SNIPPET_MS + self.redraws * self.REDRAW_MS
                                                      + self.nvm_erases * self.ERASE_MS) / 1e3 + self.boots * self.BOOT_S

    def figures(self):
        return dict({field: getattr(self, field) for field in self.FIELDS}, seconds=round(self.seconds, 2))


# ---------------------------------------------------------------- the fake board's Python

CIRCUITPYTHON_ERRNO_TEXT = {
    errno.ENOENT: "No such file/directory", errno.EIO: "Input/output error", errno.EEXIST: "File exists",
    errno.ENOSPC: "No space left on device", errno.EROFS: "Read-only filesystem",
}

ERROR_TEXT = {
    # how each firmware prints OSError(n)
    "circuitpython": lambda n: "[Errno {}] {}".format(n, CIRCUITPYTHON_ERRNO_TEXT.get(n, os.strerror(n))),
    "micropython": lambda n: "[Errno {}] {}".format(n, errno.errorcode.get(n, n)),
    "minimal": lambda n: str(n),
}


class PowerOff(BaseException):
    """Raised inside the fake when the board loses power (or the cable is pulled)."""


class _Reset(BaseException):
    """microcontroller.reset() on the board."""


class _Namespace:
    def __init__(self, **fields):
        self.__dict__.update(fields)


class BoardFS:
    """The board's filesystem: a host folder, plus the faults a test switched on."""

    def __init__(self, root, board, block=512, capacity=None, fail_on=None, cut_on=None, corrupt=()):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.board = board
        self.block = block
        self.capacity = capacity
        self.readonly = False
        self.fail_on = fail_on
        self.cut_on = cut_on
        self.corrupt = set(corrupt)

    def local(self, path):
        if not path.startswith("/"):
            path = "/" + path
        return self.root / path.lstrip("/")

    def used(self):
        total = 0
        for p in self.root.rglob("*"):
            size = p.stat().st_size if p.is_file() else self.block
            total += -(-size // self.block) * self.block
        return total

    def check_write(self):
        if self.readonly:
            raise OSError(errno.EROFS)


class FakeFile:
    def __init__(self, fs, path, mode):
        self.fs = fs
        self.path = path
        self.writing = "w" in mode or "a" in mode
        local = fs.local(path)
        if self.writing:
            fs.check_write()
            if not local.parent.is_dir():
                raise OSError(errno.ENOENT)
            if fs.cut_on == path:
                fs.cut_on = None
                local.write_bytes(b"")          # the file was created, then the power went
                raise PowerOff()
        elif not local.is_file():
            raise OSError(errno.ENOENT)
        self.handle = open(local, mode if "b" in mode else mode + "b")
        self.text = "b" not in mode
        self.writes = 0

    def read(self, n=-1):
        data = self.handle.read(n)
        self.fs.board.clock.flash_read += len(data)
        return data.decode() if self.text else data

    def write(self, data):
        if isinstance(data, str):
            data = data.encode()
        data = bytes(data)
        self.writes += 1
        if self.fs.fail_on == self.path and self.writes == 2:
            raise OSError(errno.EIO)
        if self.fs.capacity is not None:
            self.handle.flush()
            if self.fs.used() + len(data) + self.fs.block > self.fs.capacity:
                raise OSError(errno.ENOSPC)
        if self.path in self.fs.corrupt and self.writes == 1 and data:
            data = bytes([data[0] ^ 0xFF]) + data[1:]
        self.handle.write(data)
        self.fs.board.clock.flash_written += len(data)
        return len(data)

    def close(self):
        self.handle.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class FakeOS:
    """CircuitPython's os module as far as deploy snippets use it (no ilistdir)."""

    def __init__(self, fs, machine):
        self._fs = fs
        self._machine = machine

    def _existing(self, path):
        local = self._fs.local(path)
        if not local.exists():
            raise OSError(errno.ENOENT)
        return local

    def listdir(self, path="/"):
        local = self._existing(path)
        if not local.is_dir():
            raise OSError(errno.ENOTDIR)
        return sorted(p.name for p in local.iterdir())

    def stat(self, path):
        local = self._existing(path)
        if local.is_dir():
            return (0x4000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        return (0x8000, 0, 0, 0, 0, 0, local.stat().st_size, 0, 0, 0)

    def mkdir(self, path):
        self._fs.check_write()
        local = self._fs.local(path)
        if local.exists():
            raise OSError(errno.EEXIST)
        if not local.parent.is_dir():
            raise OSError(errno.ENOENT)
        local.mkdir()

    def remove(self, path):
        self._fs.check_write()
        local = self._existing(path)
        if local.is_dir():
            raise OSError(errno.EISDIR)
        local.unlink()

    def statvfs(self, path):
        block = self._fs.block
        capacity = self._fs.capacity if self._fs.capacity is not None else 1024 * 1024
        total = capacity // block
        free = max(0, (capacity - self._fs.used()) // block)
        return (block, block, total, free, free, 0, 0, 0, 0, 255)

    def uname(self):
        return _Namespace(sysname="rp2040", machine=self._machine)


class _Hash:
    def __init__(self, board, name):
        import hashlib
        self._board = board
        self._h = hashlib.new(name)

    def update(self, data):
        self._board.clock.hashed += len(data)
        self._h.update(bytes(data))

    def digest(self):
        return self._h.digest()


# ---------------------------------------------------------------- the display

class _Group:
    def __init__(self, scale=1, x=0, y=0):
        self.items = []

    def append(self, item):
        self.items.append(item)


class _TileGrid:
    def __init__(self, bitmap, pixel_shader=None, width=1, height=1, tile_width=1, tile_height=1):
        self.text = ""


class _Palette:
    def __init__(self, count):
        self.colors = [0] * count

    def __setitem__(self, index, color):
        self.colors[index] = color


class _Font:
    bitmap = object()

    def get_bounding_box(self):
        return (6, 14)


class _Terminal:
    def __init__(self, tilegrid, font):
        self.tilegrid = tilegrid

    def write(self, text):
        self.tilegrid.text += text


TERMINAL = _Group()          # displayio.CIRCUITPYTHON_TERMINAL


class FakeDisplay:
    """The game's display as CircuitPython keeps it: shows ``root_group``; the REPL console
    (TERMINAL) is echoed, each change redrawing the screen."""

    def __init__(self, board, root_group):
        self._board = board
        self._root = root_group
        self.console = []            # lines printed while the console is shown

    @property
    def root_group(self):
        return self._root

    @root_group.setter
    def root_group(self, group):
        self._root = group
        self._board.clock.redraws += 1    # a new picture: one full redraw

    @property
    def echoes(self):
        return self._root is TERMINAL

    def text(self):
        """What the screen says: "console" while the REPL is echoed, else the shown text."""
        if self._root is TERMINAL:
            return "console"
        return "".join(getattr(item, "text", "") for item in getattr(self._root, "items", ()))


# ---------------------------------------------------------------- the board


def settle(board, until, seconds=10):
    """The fake board acts on its own thread: wait until ``until()`` holds."""
    deadline = time.monotonic() + seconds
    while not until() and time.monotonic() < deadline:
        time.sleep(0.01)
    return until()

class FakeBoard:
    """A board on a serial port; ``port`` is what the deploy tool opens.

    paste: "accept" (raw-paste supported, as on CircuitPython), "refuse" (answers R\\x00),
    "late" (answers R\\x01 after ``late_paste`` s, then expects paste data) or "unknown"
    (an old REPL that treats the request as a raw REPL reset).
    code_running: power up running code.py; False: the board sits at its REPL as if
    code.py had finished. A code.py that imports sixtysix is the game, which keeps
    running and shows its display; any other (the deploy placeholder) prints and ends.
    """

    WINDOW = 128  # CircuitPython and MicroPython: half of the 256-byte stdin buffer
    PACKET = 64   # USB full-speed bulk packet

    def __init__(self, root, implementation="circuitpython", version=(10, 0, 3),
                 machine="Raspberry Pi Pico with rp2040", board_id="raspberry_pi_pico", paste="accept",
                 late_paste=0.6, hashes=("sha1",), binascii=("a2b_base64",), error_style=None, code_running=True,
                 has_display=True, drive_visible=True, nvm=None, cut_at_snippet=None, comes_back=True, **faults):
        self.clock = BoardClock()
        self.fs = BoardFS(root, self, **faults)
        self.implementation = implementation
        self.version = tuple(version)
        self.machine = machine
        self.board_id = board_id
        self.paste = paste
        self.late_paste = late_paste
        self.hashes = hashes
        self.binascii = binascii
        self.error_style = error_style or implementation
        self.has_display = has_display
        self.drive_visible = drive_visible
        self.cut_at_snippet = cut_at_snippet
        self.comes_back = comes_back
        self.nvm = nvm if nvm is not None else FlashNVM()
        self.display = None
        self.booting = False
        self.executed = []
        self.reloads = 0
        self.resets = 0
        self.deploy_mode_boots = 0
        self.port = str(Path(root).parent / (Path(root).name + ".tty"))
        self.master = self.slave = None
        self._requests = []          # power_cut / power_on asked by the test thread
        self._done = threading.Event()
        self._closing = False
        self._line = bytearray()
        self._pasted = 0
        self._queued = []
        self._power_up(code_running)
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    # -- lifecycle seen from the test

    def close(self):
        self._closing = True
        self._thread.join(timeout=5)
        self._unplug()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def power_cut(self):
        """The board loses power (and its port) until power_on()."""
        self._ask("cut")

    def power_on(self):
        self._ask("on")

    def _ask(self, what):
        self._done.clear()
        self._requests.append(what)
        if not self._done.wait(5):
            raise RuntimeError("the fake board did not take the request")

    @property
    def powered(self):
        return self.master is not None

    @property
    def writable(self):
        """CIRCUITPY writable to code (boot.py remounted it)."""
        return not self.fs.readonly

    # -- the port: a pty behind a symlink, gone while the board is off

    def _plug(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        link = self.port + ".new"
        if os.path.lexists(link):
            os.unlink(link)
        os.symlink(os.ttyname(self.slave), link)
        os.replace(link, self.port)

    def _unplug(self):
        if os.path.lexists(self.port):
            os.unlink(self.port)
        for fd in (self.master, self.slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.master = self.slave = None

    def _serve(self):
        while not self._closing:
            while self._requests:
                what = self._requests.pop(0)
                if what == "cut":
                    self._unplug()
                    self.state = "off"
                elif not self.powered:
                    self._power_up(True)
                self._done.set()
            if not self.powered:
                threading.Event().wait(0.01)
                continue
            if self.state == "late" and time.monotonic() >= self._late:
                self._answer_late()
            try:
                ready, _, _ = select.select([self.master], [], [], 0.02)
                if not ready:
                    continue
                data = os.read(self.master, 4096)
            except OSError:
                continue
            self.clock.received += len(data)
            try:
                for start in range(0, len(data), self.PACKET):
                    self._packet(data[start:start + self.PACKET])
            except PowerOff:
                self._unplug()
                self.state = "off"
                continue
            except _Reset:
                self._unplug()
                self.resets += 1
                if self.comes_back:
                    self._power_up(True)
                else:
                    self.state = "off"
                continue
            # the display refreshes while the board waits for a command (not while it reads
            # raw-paste data the computer is streaming): one redraw for what it printed
            if self._dirty and self.state != "paste" and self.display is not None and self.display.echoes:
                self.clock.redraws += 1
                self._dirty = False

    def _send(self, data):
        if isinstance(data, str):
            data = data.encode()
        self.clock.sent += len(data)
        if self.display is not None and self.display.echoes and any(byte >= 0x20 for byte in data):
            self._dirty = True          # the console shows text: the screen is redrawn (control bytes draw nothing)
        try:
            os.write(self.master, data)
        except OSError:
            pass

    # -- power-up: boot.py, then code.py

    def _power_up(self, run_code):
        self._dirty = False
        self.display = None
        self.clock.boots += 1
        # CircuitPython: CIRCUITPY is read-only to code at power-up; MicroPython has no USB drive
        self.fs.readonly = self.implementation == "circuitpython"
        boot = self.fs.local("/boot.py")
        if boot.is_file():
            self.booting = True
            try:
                namespace = self._fresh_namespace()
                namespace["__name__"] = "__main__"
                exec(compile(boot.read_bytes(), "boot.py", "exec"), namespace)
            except PowerCut:
                self.booting = False
                self.state = "off"
                return
            except Exception:
                pass                 # CircuitPython writes the error to boot_out.txt and goes on
            self.booting = False
        if not self.fs.readonly and self.implementation == "circuitpython":
            self.deploy_mode_boots += 1
        self._plug()
        self._start_code(run_code)

    def _start_code(self, run_code=True):
        self.namespace = self._fresh_namespace()
        code = self.fs.local("/code.py")
        game = code.is_file() and b"sixtysix" in code.read_bytes() and code.read_bytes() != PLACEHOLDER.data
        if run_code and game:
            if self.has_display:
                # the game builds its display; in deploy mode code.py prints to its console
                self.display = FakeDisplay(self, TERMINAL if self.writable else _Group())
                if self.writable:
                    self.display.console.append("Deploying...")
            self.state = "running"
            return
        self.state = "anykey"

    def _reload(self):
        self._send("\r\nsoft reboot\r\n\r\ncode.py output:\r\n")
        self._start_code()
        self.reloads += 1           # last: a test that sees the count sees the new state too

    # -- the REPL state machine (see MicroPython's shared/runtime/pyexec.c)

    def _banner(self):
        return "\r\nAdafruit CircuitPython {} on 2025-10-17; {}\r\n>>> ".format(
            ".".join(map(str, self.version)), self.machine)

    def _packet(self, packet):
        if self.state == "late":
            self._queued.append(packet)
            return
        if self.state in ("running", "paste") and 0x03 in packet and len(packet) > 1:
            return      # CircuitPython drops a packet holding Ctrl-C and more while code runs
        for at, byte in enumerate(packet):
            getattr(self, "_in_" + self.state)(byte)
            if self.state == "late":
                self._queued.append(packet[at + 1:])
                return

    def _answer_late(self):
        """The raw-paste answer a busy board gives late; what came meanwhile is read after it."""
        self._send(b"R\x01" + struct.pack("<H", self.WINDOW) + b"\x01")
        self._pasted = 0
        self.state = "paste"
        queued, self._queued = self._queued, []
        for packet in queued:
            if packet:
                self._packet(packet)

    def _in_off(self, c):
        pass

    def _in_running(self, c):
        if c == 0x03:
            if self.display is not None:
                self.display.root_group = TERMINAL    # the VM ends: the console comes back
            self._send("\x1b]0;\xf0\x9f\x90\x8dDone | 10.0.3\x1b\\"
                       "\r\nTraceback (most recent call last):\r\n  File \"code.py\", line 3, in <module>\r\n"
                       "KeyboardInterrupt: \r\n\r\nCode done running.\r\n\r\n"
                       "Press any key to enter the REPL. Use CTRL-D to reload.\r\n")
            self.state = "anykey"

    def _in_anykey(self, c):
        if c == 0x04:
            self._reload()
        else:
            self.namespace = self._fresh_namespace()
            self._send(self._banner())
            self.state = "friendly"

    def _in_friendly(self, c):
        if c == 0x01:
            self._send("\r\nraw REPL; CTRL-B to exit\r\n>")
            self._line = bytearray()
            self.state = "raw"
        elif c == 0x04:
            self._reload()
        elif c == 0x02:
            self._send(self._banner())
        elif c in (0x03, 0x0D):
            self._send("\r\n>>> ")

    def _in_raw(self, c):
        if c == 0x01:
            if bytes(self._line) == b"\x05A" and self.paste != "unknown":
                self._line = bytearray()
                if self.paste == "refuse":
                    self._send(b"R\x00")
                    return
                if self.paste == "late":
                    self._late = time.monotonic() + self.late_paste
                    self.state = "late"
                    return
                self._send(b"R\x01" + struct.pack("<H", self.WINDOW) + b"\x01")
                self._pasted = 0
                self.state = "paste"
                return
            self._line = bytearray()
            self._send("raw REPL; CTRL-B to exit\r\n>")
        elif c == 0x02:
            self.state = "friendly"
            self._send(self._banner())
        elif c == 0x03:
            self._line = bytearray()
        elif c == 0x04:
            self._send("OK")
            if not self._line:
                self._send("\r\nsoft reboot\r\nraw REPL; CTRL-B to exit\r\n>")
                self.namespace = self._fresh_namespace()
                return
            self._execute()
        else:
            self._line.append(c)

    def _in_paste(self, c):
        if c == 0x03:           # Ctrl-C alone: the paste ends in a KeyboardInterrupt
            self._line = bytearray()
            self.state = "raw"
            self._send(b"\x04\x04Traceback (most recent call last):\r\nKeyboardInterrupt: \r\n\x04>")
            return
        if c == 0x04:
            self._send(b"\x04")
            self.state = "raw"
            self._execute()
            return
        self._line.append(c)
        self._pasted += 1
        if self._pasted % self.WINDOW == 0:
            self._send(b"\x01")

    # -- running code

    def _modules(self):
        board = self
        fs = self.fs

        def remount(path, readonly=False, disable_concurrent_write_protection=False):
            if not board.booting and board.drive_visible:
                raise RuntimeError("Cannot remount path when visible via USB.")
            fs.readonly = readonly

        def reset():
            raise _Reset()

        def new_hash(name, data=b""):
            if name not in board.hashes:
                raise ValueError("Unsupported hash algorithm")
            return _Hash(board, name)

        def release_displays():
            board.display = None

        def crc32(data, value=0):
            import zlib
            board.clock.hashed += len(data)
            return zlib.crc32(bytes(data), value)

        def a2b_base64(text):
            import base64
            return base64.b64decode(text)

        modules = {
            "os": FakeOS(fs, self.machine),
            "sys": _Namespace(implementation=_Namespace(name=self.implementation, version=tuple(self.version)),
                              platform="RP2040"),
        }
        if self.implementation == "circuitpython":
            class Runtime:
                display = property(lambda _self: board.display)

            modules.update({
                "storage": _Namespace(remount=remount, getmount=lambda path: _Namespace(readonly=fs.readonly)),
                "microcontroller": _Namespace(nvm=self.nvm, reset=reset),
                "board": _Namespace(board_id=self.board_id),
                "supervisor": _Namespace(runtime=Runtime()),
                "displayio": _Namespace(Group=_Group, TileGrid=_TileGrid, Palette=_Palette,
                                        CIRCUITPYTHON_TERMINAL=TERMINAL, release_displays=release_displays),
                "terminalio": _Namespace(FONT=_Font(), Terminal=_Terminal),
                "hashlib": _Namespace(new=new_hash),
            })
        else:
            modules["hashlib"] = _Namespace(**{name: (lambda n=name: _Hash(board, n)) for name in self.hashes})
        functions = {"a2b_base64": a2b_base64, "crc32": crc32}
        modules["binascii"] = _Namespace(**{name: functions[name] for name in self.binascii})
        return modules

    def _fresh_namespace(self):
        modules = self._modules()

        def board_import(name, *args, **kwargs):
            if name in modules:
                return modules[name]
            raise ImportError("no module named '{}'".format(name))

        builtins = dict(__builtins__ if isinstance(__builtins__, dict) else vars(__builtins__))
        builtins["__import__"] = board_import
        builtins["open"] = lambda path, mode="r": FakeFile(self.fs, path, mode)

        def board_exec(code, globals_=None, locals_=None):
            globals_ = {} if globals_ is None else globals_
            globals_.setdefault("__builtins__", builtins)
            exec(code, globals_, locals_)

        builtins["exec"] = board_exec
        return {"__builtins__": builtins}

    def _trace(self, frame, event, arg):
        if frame.f_code.co_filename not in ("<stdin>", "<string>"):
            return None

        def count(frame, event, arg):
            if event == "line":
                self.clock.lines += 1
            return count

        return count

    def _execute(self):
        code = bytes(self._line).decode("utf-8")
        self._line = bytearray()
        self.executed.append(code)
        self.clock.snippets += 1
        if self.clock.snippets == self.cut_at_snippet:
            raise PowerOff()
        out = []
        namespace = self.namespace

        def board_print(*values, sep=" ", end="\n"):
            out.append(sep.join(str(v) for v in values) + end)

        namespace["__builtins__"]["print"] = board_print
        error = ""
        sys.settrace(self._trace)
        try:
            exec(compile(code, "<stdin>", "exec"), namespace)
        except (PowerOff, _Reset):
            raise
        except PowerCut:                # the nvm write was cut: so was the board
            raise PowerOff()
        except Exception as exc:  # the board prints the traceback and carries on
            error = self._traceback(exc)
        finally:
            sys.settrace(None)
            self.clock.nvm_erases = self.nvm.erases
        self._send("".join(out).replace("\n", "\r\n").encode("utf-8") + b"\x04" + error.encode() + b"\x04>")

    def _traceback(self, exc):
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == "<stdin>"]
        line = frames[-1].lineno if frames else 1
        if isinstance(exc, OSError) and exc.args and isinstance(exc.args[0], int):
            message = "OSError: " + ERROR_TEXT[self.error_style](exc.args[0])
        else:
            message = "{}: {}".format(type(exc).__name__, exc)
        return 'Traceback (most recent call last):\r\n  File "<stdin>", line {}, in <module>\r\n{}\r\n'.format(
            line, message)

