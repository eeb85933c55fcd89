"""Test doubles for tools.deploy: fixture repos, fake library wheels and a fake board.

FakeBoard is a CircuitPython board as mpremote sees it: a pseudo-terminal speaking
MicroPython's raw REPL protocol (Ctrl-A raw mode, Ctrl-D execute, "OK", output, \\x04,
error, \\x04, ">"; raw-paste negotiated with \\x05A\\x01 and accepted, refused or not
understood), running the snippets it receives with exec() against a temporary folder
that stands for the board's filesystem. Its ``os`` is CircuitPython's (no ilistdir),
OSError texts follow the chosen firmware, and faults can be switched on: read-only
filesystem (EROFS), a capacity limit (ENOSPC), an I/O error or an unplugged cable
while a given file is written, and silent corruption of a file's bytes.
"""

import errno
import os
import struct
import threading
import traceback
import tty
import zipfile
from pathlib import Path

CIRCUITPY_BOOT_OUT = "Adafruit CircuitPython 10.0.3 on 2025-10-17; Raspberry Pi Pico with rp2040\n"


# ---------------------------------------------------------------- fixture repos and wheels

def make_repo(root, profiles=("pico_display_pack", "waveshare_lcd_1in3"), app_imports=("adafruit_display_text.label",)):
    """A tiny stand-in for the real repo, laid out as docs/LAYOUT.md says."""
    root = Path(root)
    files = {
        "firmware/code.py": "import os\nimport sixtysix.app\nsixtysix.app.run(os.getenv('SIXTYSIX_PROFILE'))\n",
        "firmware/sixtysix/__init__.py": "",
        "firmware/sixtysix/app.py": "".join("import {}\n".format(m) for m in app_imports) +
                                    "from shared_rules import cards\n\ndef run(profile):\n    return profile\n",
        "firmware/sixtysix/screens/menu.py": "TITLE = 'Sixty-Six'\n",
        "shared_rules/cards.py": "SUITS = 'CSHD'\n",
        "shared_rules/rules.py": "try:\n    import adafruit_not_needed\nexcept ImportError:\n    pass\n",
    }
    for name in profiles:
        files["hardware/profiles/{}.py".format(name)] = (
            "NAME = {!r}\n\ndef display():\n    import adafruit_st7789\n    return adafruit_st7789\n".format(name))
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


def board_files(root):
    """{board path: bytes} of every file under ``root`` except boot_out.txt."""
    root = Path(root)
    return {"/" + p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != "boot_out.txt"}


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


class Unplugged(Exception):
    """Raised inside the fake when the cable is 'pulled'."""


class _Namespace:
    def __init__(self, **fields):
        self.__dict__.update(fields)


class BoardFS:
    """The board's filesystem: a host folder, plus the faults a test switched on."""

    def __init__(self, root, block=512, capacity=None, readonly=False, fail_on=None, unplug_on=None, corrupt=()):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.block = block
        self.capacity = capacity
        self.readonly = readonly
        self.fail_on = fail_on
        self.unplug_on = unplug_on
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
            if fs.unplug_on == path:
                raise Unplugged()
        elif not local.is_file():
            raise OSError(errno.ENOENT)
        self.handle = open(local, mode if "b" in mode else mode + "b")
        self.text = "b" not in mode
        self.writes = 0

    def read(self, n=-1):
        data = self.handle.read(n)
        return data.decode() if self.text else data

    def readinto(self, buf):
        data = self.handle.read(len(buf))
        buf[:len(data)] = data
        return len(data)

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

    def rmdir(self, path):
        self._fs.check_write()
        self._existing(path).rmdir()

    def rename(self, old, new):
        self._fs.check_write()
        self._existing(old).rename(self._fs.local(new))

    def statvfs(self, path):
        block = self._fs.block
        capacity = self._fs.capacity if self._fs.capacity is not None else 1024 * 1024
        total = capacity // block
        free = max(0, (capacity - self._fs.used()) // block)
        return (block, block, total, free, free, 0, 0, 0, 0, 255)

    def uname(self):
        return _Namespace(sysname="rp2040", machine=self._machine)

    def sync(self):
        pass


class _Sha256:
    def __init__(self):
        import hashlib
        self._h = hashlib.sha256()

    def update(self, data):
        self._h.update(bytes(data))

    def digest(self):
        return self._h.digest()


def _modules(fs, implementation, version, machine, with_hashlib):
    modules = {
        "os": FakeOS(fs, machine),
        "sys": _Namespace(implementation=_Namespace(name=implementation, version=tuple(version)),
                          platform="RP2040"),
    }
    if with_hashlib:
        if implementation == "circuitpython":
            modules["hashlib"] = _Namespace(new=lambda name, data=b"": _Sha256())
        else:
            modules["hashlib"] = _Namespace(sha256=_Sha256)
    return modules


# ---------------------------------------------------------------- the REPL over a pseudo-terminal

class FakeBoard:
    """A board on a pseudo-terminal; ``port`` is what mpremote opens.

    paste: "accept" (raw-paste supported, like MicroPython >= 1.14), "refuse" (answers
    R\\x00) or "unknown" (an old REPL that treats the request as a raw REPL reset).
    """

    WINDOW = 128  # CircuitPython and MicroPython: half of the 256-byte stdin buffer

    def __init__(self, root, implementation="circuitpython", version=(10, 0, 3),
                 machine="Raspberry Pi Pico with rp2040", paste="accept", with_hashlib=False,
                 error_style=None, code_running=True, **faults):
        self.fs = BoardFS(root, **faults)
        self.implementation = implementation
        self.version = tuple(version)
        self.machine = machine
        self.paste = paste
        self.error_style = error_style or implementation
        self.modules = _modules(self.fs, implementation, self.version, machine, with_hashlib)
        self.namespace = self._fresh_namespace()
        self.state = "running" if code_running else "friendly"
        self.line = bytearray()
        self.pasted = 0
        self.executed = []
        self.reloads = 0
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    # -- lifecycle

    def close(self):
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self._thread.join(timeout=5)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _serve(self):
        try:
            while True:
                data = os.read(self.master, 4096)
                if not data:
                    return
                for byte in data:
                    self._receive(byte)
        except (OSError, Unplugged):
            try:
                os.close(self.master)
            except OSError:
                pass

    def _send(self, data):
        if isinstance(data, str):
            data = data.encode()
        os.write(self.master, data)

    # -- the REPL state machine (see MicroPython's shared/runtime/pyexec.c)

    def _banner(self):
        return "\r\nAdafruit CircuitPython {} on 2025-10-17; {}\r\n>>> ".format(
            ".".join(map(str, self.version)), self.machine)

    def _receive(self, c):
        handler = getattr(self, "_in_" + self.state)
        handler(c)

    def _in_running(self, c):
        if c == 0x03:
            self._send("\r\nTraceback (most recent call last):\r\n  File \"code.py\", line 3, in <module>\r\n"
                       "KeyboardInterrupt: \r\n\r\nCode done running.\r\n\r\n"
                       "Press any key to enter the REPL. Use CTRL-D to reload.\r\n")
            self.state = "anykey"

    def _in_anykey(self, c):
        if c == 0x04:
            self._reload()
        else:
            self._send(self._banner())
            self.state = "friendly"

    def _reload(self):
        self.namespace = self._fresh_namespace()
        self._send("\r\nsoft reboot\r\n\r\ncode.py output:\r\n")
        self.state = "running"
        self.reloads += 1           # last: a test that sees the count sees the new state too

    def _in_friendly(self, c):
        if c == 0x01:
            self._send("\r\nraw REPL; CTRL-B to exit\r\n>")
            self.line = bytearray()
            self.state = "raw"
        elif c == 0x04:
            self._reload()
        elif c == 0x02:
            self._send(self._banner())
        elif c in (0x03, 0x0D):
            self._send("\r\n>>> ")

    def _in_raw(self, c):
        if c == 0x01:
            if bytes(self.line) == b"\x05A" and self.paste != "unknown":
                self.line = bytearray()
                if self.paste == "accept":
                    self._send(b"R\x01" + struct.pack("<H", self.WINDOW) + b"\x01")
                    self.pasted = 0
                    self.state = "paste"
                else:
                    self._send(b"R\x00")
                return
            self.line = bytearray()
            self._send("raw REPL; CTRL-B to exit\r\n>")
        elif c == 0x02:
            self.state = "friendly"
            self._send(self._banner())
        elif c == 0x03:
            self.line = bytearray()
        elif c == 0x04:
            self._send("OK")
            if not self.line:
                self._send("\r\nsoft reboot\r\nraw REPL; CTRL-B to exit\r\n>")
                self.namespace = self._fresh_namespace()
                return
            self._execute()
        else:
            self.line.append(c)

    def _in_paste(self, c):
        if c == 0x04:
            self._send(b"\x04")
            self.state = "raw"
            self._execute()
            return
        self.line.append(c)
        self.pasted += 1
        if self.pasted % self.WINDOW == 0:
            self._send(b"\x01")

    # -- running code

    def _fresh_namespace(self):
        modules = self.modules

        def board_import(name, *args, **kwargs):
            if name in modules:
                return modules[name]
            raise ImportError("no module named '{}'".format(name))

        builtins = dict(__builtins__ if isinstance(__builtins__, dict) else vars(__builtins__))
        builtins["__import__"] = board_import
        builtins["open"] = lambda path, mode="r": FakeFile(self.fs, path, mode)
        return {"__builtins__": builtins}

    def _execute(self):
        code = bytes(self.line).decode("utf-8")
        self.line = bytearray()
        self.executed.append(code)
        out = []
        namespace = self.namespace

        def board_print(*values, sep=" ", end="\n"):
            out.append(sep.join(str(v) for v in values) + end)

        namespace["__builtins__"]["print"] = board_print
        error = ""
        try:
            exec(compile(code, "<stdin>", "exec"), namespace)
        except Unplugged:
            raise
        except Exception as exc:  # the board prints the traceback and carries on
            error = self._traceback(exc)
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
