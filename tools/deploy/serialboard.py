"""A board reached over its USB serial port with mpremote's raw-REPL transport.

mpremote is written for MicroPython; CircuitPython differs in ways this module works
around: its ``os`` has no ``ilistdir`` (so no ``mpremote fs ls``), its ``hashlib`` has
only ``new(name)`` and is missing on the plain Pico, and its OSError text reads
"[Errno 30] Read-only filesystem", which mpremote does not map back to an errno.
So the file commands here send their own small snippets through ``Transport.exec``
and use mpremote's ``fs_writefile`` for the copy itself.
"""

import ast
import errno
import hashlib
import os
import re

import serial
from mpremote.mp_errno import MP_ERRNO_TABLE
from mpremote.transport import TransportError, TransportExecError
from mpremote.transport_serial import SerialTransport

from .discover import circuitpy_drives
from .errors import BoardNotResponding, NoBoard, ReadOnly
from .target import BoardInfo, Target

CHUNK = 512
PROBE = "/.sixtysix_write_test"

_IDENTIFY = """\
import sys
try:
 import os
 m=os.uname().machine
except Exception:
 m=''
print(repr((sys.implementation.name,tuple(sys.implementation.version)[:3],m)))
"""

_SIZES = """\
import os
for p in {paths!r}:
 try:
  s=os.stat(p)
  print(repr(None if s[0]&0x4000 else s[6]))
 except OSError:
  print('None')
"""

_LIST = """\
import os
def _w(d):
 try:
  l=os.listdir(d)
 except OSError:
  return
 for n in l:
  p=d+'/'+n
  s=os.stat(p)
  if s[0]&0x4000:
   _w(p)
  else:
   print(repr((p,s[6])))
_w({folder!r})
"""

_HASHLIB = """\
import hashlib
def _h(p):
 try:
  h=hashlib.new('sha256')
 except AttributeError:
  h=hashlib.sha256()
 with open(p,'rb') as f:
  while 1:
   b=f.read({chunk})
   if not b:
    break
   h.update(b)
 return h.digest()
try:
 hashlib.new('sha256')
except AttributeError:
 hashlib.sha256()
""".format(chunk=CHUNK)

_DIGEST = "print(repr(_h({path!r})))"

_READ = """\
with open({path!r},'rb') as f:
 while 1:
  b=f.read({chunk})
  if not b:
   break
  print(repr(b))
"""

_SPACE = "import os\ns=os.statvfs('/')\nprint(repr((s[0],s[1],s[4])))"

_PROBE = """\
try:
 f=open({probe!r},'wb')
 f.write(b'ok')
 f.close()
 import os
 os.remove({probe!r})
 print(0)
except OSError as e:
 print(e.args[0])
""".format(probe=PROBE)

# Error numbers differ between ports, so "already exists" is checked with stat, not errno.
_MKDIR = """\
import os
try:
 os.mkdir({folder!r})
except OSError:
 if not os.stat({folder!r})[0]&0x4000:
  raise
"""

_CLOSE_QUIETLY = "try:\n f.close()\nexcept Exception:\n pass"


def errno_from_output(text):
    """Host errno for the OSError at the end of a board traceback, or EIO if there is none.

    Handles "[Errno 28] No space left on device" (CircuitPython), "[Errno 28] ENOSPC"
    (MicroPython) and "OSError: 28" (minimal builds).
    """
    match = re.search(r"OSError: \[Errno (\d+)\]", text) or re.search(r"OSError: (-?\d+)\s*$", text.strip())
    if match:
        number = abs(int(match.group(1)))
        return MP_ERRNO_TABLE.get(number, number)
    for name in ("ENOSPC", "EROFS", "ENOENT", "EACCES", "EEXIST"):
        if name in text:
            return getattr(errno, name)
    return errno.EIO


def _board_error(error):
    """OSError for a traceback the board printed (a TransportExecError)."""
    last = (error.error_output.strip().splitlines() or ["no error text"])[-1]
    return OSError(errno_from_output(error.error_output), "the board reported " + last)


class SerialTarget(Target):
    def __init__(self, port, answer_timeout=5):
        self.port = port
        self.description = "board on {}".format(port)
        self._dirs = {"/"}
        self._has_hashlib = None
        if os.name != "nt" and not os.path.exists(port):
            raise NoBoard("There is no serial port {}.".format(port))
        try:
            self.transport = SerialTransport(port, baudrate=115200)
        except TransportError as error:
            raise BoardNotResponding.busy(port) if "failed to access" in str(error) else \
                BoardNotResponding.silent(port, error)
        # mpremote reads a pseudo-terminal with blocking reads; a read timeout keeps a
        # silent board from hanging the deploy (mpremote then reports a timeout).
        self.transport.serial.timeout = min(answer_timeout, 1.0)
        self._enter_raw_repl(answer_timeout)

    def _enter_raw_repl(self, timeout):
        # A running code.py is stopped with Ctrl-C; CircuitPython then waits for "any key"
        # before its REPL starts, which can swallow the Ctrl-A: so try more than once.
        last = None
        for _attempt in range(3):
            try:
                self.transport.enter_raw_repl(soft_reset=False, timeout_overall=timeout)
                return
            except (TransportError, serial.SerialException, OSError) as error:
                last = error
        self.close()
        raise BoardNotResponding.silent(self.port, last)

    def _exec(self, code):
        """Run ``code`` on the board; board exceptions become OSError with a host errno."""
        try:
            return self.transport.exec(code)
        except TransportExecError as error:
            raise _board_error(error)
        except (TransportError, serial.SerialException) as error:
            raise OSError(errno.EIO, "the board stopped answering ({})".format(error))

    def _lines(self, code):
        return [ast.literal_eval(line) for line in self._exec(code).decode("utf-8").splitlines() if line.strip()]

    def board_info(self):
        try:
            name, version, machine = self._lines(_IDENTIFY)[0]
        except (OSError, IndexError, ValueError, SyntaxError):
            return None
        return BoardInfo(name, version, machine)

    def read_file(self, path):
        if self.sizes([path])[path] is None:
            return None
        return b"".join(self._lines(_READ.format(path=path, chunk=CHUNK)))

    def sizes(self, paths):
        paths = list(paths)
        if not paths:
            return {}
        return dict(zip(paths, self._lines(_SIZES.format(paths=paths))))

    def _hashlib(self):
        if self._has_hashlib is None:
            try:
                self._exec(_HASHLIB)
                self._has_hashlib = True
            except OSError:
                self._has_hashlib = False
        return self._has_hashlib

    def digests(self, paths):
        result = {}
        for path in paths:
            if self._hashlib():
                digest = self._lines(_DIGEST.format(path=path))[0]
            else:
                digest = hashlib.sha256(self.read_file(path) or b"").digest()
            result[path] = digest.hex()
        return result

    def list_files(self, folder):
        return [tuple(item) for item in self._lines(_LIST.format(folder=folder))]

    def _make_dirs(self, folder):
        if folder in self._dirs:
            return
        self._make_dirs(folder.rsplit("/", 1)[0] or "/")
        self._exec(_MKDIR.format(folder=folder))
        self._dirs.add(folder)

    def write_file(self, path, data):
        self._make_dirs(path.rsplit("/", 1)[0] or "/")
        try:
            self.transport.fs_writefile(path, data, chunk_size=CHUNK)
        except TransportExecError as error:
            self._close_quietly()
            raise _board_error(error)
        except (TransportError, serial.SerialException) as error:  # SerialException is an OSError too
            raise OSError(errno.EIO, "the board stopped answering ({})".format(error))
        except OSError:
            self._close_quietly()
            raise

    def _close_quietly(self):
        try:
            self.transport.exec(_CLOSE_QUIETLY)
        except Exception:  # the link may be gone; the next deploy starts fresh
            pass

    def remove_file(self, path):
        self._exec("import os\nos.remove({!r})".format(path))

    def space(self):
        block_size, fragment, available = self._lines(_SPACE)[0]
        return available * (fragment or block_size), fragment or block_size

    def check_writable(self):
        code = self._lines(_PROBE)[0]
        if code:
            number = MP_ERRNO_TABLE.get(code, code)
            if number in (errno.EROFS, errno.EACCES, errno.EPERM):
                raise self.read_only_error()
            raise OSError(number, "cannot write a test file on the board")

    def read_only_error(self):
        return ReadOnly.over_serial(_mounted_drive())

    def finish(self, restart):
        try:
            self.transport.exit_raw_repl()
            if restart:
                self.transport.serial.write(b"\x04")  # soft reload: CircuitPython runs the new code.py
        except (TransportError, serial.SerialException, OSError):
            pass

    def close(self):
        transport, self.transport = getattr(self, "transport", None), None
        if transport is None:
            return
        try:
            if transport.in_raw_repl:  # after an error: leave the board at its normal REPL
                transport.exit_raw_repl()
            transport.close()
        except (OSError, serial.SerialException):
            pass


def _mounted_drive():
    drives = circuitpy_drives()
    return drives[0] if len(drives) == 1 else None
