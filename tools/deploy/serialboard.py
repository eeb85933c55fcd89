"""A board reached over its USB serial port, through the raw REPL (rawrepl.RawRepl).

What the board runs is small snippets defined once per connection (PRELUDE): they quiet
the display, report the board, checksum files on the board, list folders, and write
files from base64 or bytes literals, whichever is shorter. mpremote's own ``fs``
commands are not used: CircuitPython's ``os`` has no ``ilistdir`` and mpremote cannot
read its error texts ("[Errno 30] Read-only filesystem").

CircuitPython specifics handled here:
- CIRCUITPY is read-only to code at power-up. If the board has the game's boot.py, the
  tool arms its one-shot deploy-mode flag (``arm`` from that boot.py, run on the board)
  and resets; boot.py then opens the drive to code for that boot only. Without it, the
  REPL can remount the drive once the computer has ejected it; else: exit 7 with advice.
  After writing to a drive opened this way, the board is reset (not soft-reloaded), so
  boot.py runs again and the computer gets its drive back.
- After Ctrl-C the game's display echoes the REPL, 155-342 ms per redraw: the first
  thing sent shows a fixed "Deploying..." instead, so nothing more is redrawn.
- ``hashlib`` lacks sha256 on the Pico: the board uses the best it has (sha256, sha1,
  binascii.crc32, else Adler-32 in Python) and the tool computes the same here.
"""

import ast
import base64
import errno
import hashlib
import os
import re
import time
import zlib

import serial

from .discover import circuitpy_drives
from .errors import BoardNotResponding, NoBoard, ReadOnly
from .rawrepl import RawRepl, Silent
from .target import BoardInfo, Target

PAYLOAD = 4096        # file bytes per snippet: the board compiles each snippet in its heap
READ_CHUNK = 512

PRELUDE = """\
import os,sys
def _q():
 try:
  import supervisor
  d=supervisor.runtime.display
 except Exception:
  return
 if d is None:
  return
 try:
  import displayio,terminalio
  f=terminalio.FONT
  w,h=f.get_bounding_box()[:2]
  p=displayio.Palette(2)
  p[1]=0xFFFFFF
  t=displayio.TileGrid(f.bitmap,pixel_shader=p,width=12,height=1,tile_width=w,tile_height=h)
  g=displayio.Group(scale=2,x=8,y=8)
  g.append(t)
  terminalio.Terminal(t,f).write('Deploying...')
  d.root_group=g
 except Exception:
  import displayio
  displayio.release_displays()
def _hasher(n):
 import hashlib
 if hasattr(hashlib,'new'):
  return hashlib.new(n)
 return getattr(hashlib,n)()
def _pick():
 for n in ('sha256','sha1'):
  try:
   _hasher(n)
   return n
  except Exception:
   pass
 try:
  from binascii import crc32
  return 'crc32'
 except ImportError:
  return 'adler32'
_S=_pick()
try:
 from binascii import a2b_base64 as _a
except ImportError:
 _a=None
def _sum(p):
 f=open(p,'rb')
 try:
  if _S=='crc32':
   from binascii import crc32
   c=0
   while 1:
    b=f.read(1024)
    if not b:
     return c
    c=crc32(b,c)
  if _S=='adler32':
   a=1
   s=0
   while 1:
    b=f.read(1024)
    if not b:
     return s*65536+a
    for x in b:
     a+=x
     s+=a
    a%=65521
    s%=65521
  h=_hasher(_S)
  while 1:
   b=f.read(1024)
   if not b:
    return h.digest()
   h.update(b)
 finally:
  f.close()
def _walk(d):
 try:
  l=os.listdir(d)
 except OSError:
  return
 for n in l:
  p=d+'/'+n
  s=os.stat(p)
  if s[0]&0x4000:
   _walk(p)
  else:
   print(repr((p,s[6])))
def _survey(want,dirs):
 for p,n in want:
  try:
   s=os.stat(p)
   z=None if s[0]&0x4000 else s[6]
  except OSError:
   z=None
  print(repr((z,_sum(p) if z==n else None)))
 for d in dirs:
  _walk(d)
def _read(p):
 try:
  f=open(p,'rb')
 except OSError:
  print('None')
  return
 while 1:
  b=f.read(READ_CHUNK)
  if not b:
   break
  print(repr(b))
 f.close()
_f=None
def _open(p):
 global _f
 d=''
 for c in p.split('/')[1:-1]:
  d+='/'+c
  try:
   os.mkdir(d)
  except OSError:
   if not os.stat(d)[0]&0x4000:
    raise
 _f=open(p,'wb')
def _close():
 try:
  _f.close()
 except Exception:
  pass
def _space():
 s=os.statvfs('/')
 print(repr((s[0],s[1],s[4])))
def _deploy_mode(arm):
 try:
  t=open('/boot.py').read()
 except OSError:
  t=''
 if 'def arm(nvm)' not in t:
  print(False)
  return
 g={'__name__':'deploy'}
 exec(t,g)
 if arm:
  import microcontroller
  g['arm'](microcontroller.nvm)
 print(True)
def _remount(really):
 import storage
 try:
  storage.remount('/',readonly=not really)
 except RuntimeError:
  print(False)
  return
 print(True)
def _state():
 r={'impl':sys.implementation.name,'version':tuple(sys.implementation.version)[:3],'sum':_S,'b64':_a is not None}
 try:
  r['machine']=os.uname().machine
 except Exception:
  pass
 try:
  import board
  r['board_id']=board.board_id
 except Exception:
  pass
 try:
  import storage
  r['readonly']=storage.getmount('/').readonly
 except Exception:
  pass
 print(repr(r))
_q()
_state()
""".replace("READ_CHUNK", str(READ_CHUNK))

RESET = "import microcontroller\nmicrocontroller.reset()"

# MicroPython's errno numbers (py/mperrno.h: the Linux values) -> this computer's.
BOARD_ERRNO = {1: errno.EPERM, 2: errno.ENOENT, 5: errno.EIO, 9: errno.EBADF, 13: errno.EACCES,
               17: errno.EEXIST, 20: errno.ENOTDIR, 21: errno.EISDIR, 22: errno.EINVAL,
               28: errno.ENOSPC, 30: errno.EROFS}


def write_snippets(path, data, base64_on_board):
    """The snippets that write ``data`` to ``path``, PAYLOAD bytes each, every piece spelled
    the shorter way: a bytes literal, or base64 (``_a``) where the board can decode it."""
    pieces = [data[at:at + PAYLOAD] for at in range(0, len(data), PAYLOAD)] or [b""]
    snippets = []
    for number, piece in enumerate(pieces):
        code = "_open({!r})\n".format(path) if number == 0 else ""
        if piece:
            literal = repr(piece)
            packed = "_a({!r})".format(base64.b64encode(piece))
            code += "_f.write({})\n".format(packed if base64_on_board and len(packed) < len(literal) else literal)
        if number == len(pieces) - 1:
            code += "_f.close()\n"
        snippets.append(code)
    return snippets


def checksum(name, data):
    """What the board's _sum prints for ``data`` under algorithm ``name``."""
    if name in ("sha256", "sha1"):
        return hashlib.new(name, data).digest()
    if name == "crc32":
        return zlib.crc32(data)
    return zlib.adler32(data)


def errno_from_output(text):
    """Host errno for the OSError at the end of a board traceback, or EIO if there is none.

    Handles "[Errno 28] No space left on device" (CircuitPython), "[Errno 28] ENOSPC"
    (MicroPython) and "OSError: 28" (minimal builds).
    """
    match = re.search(r"OSError: \[Errno (\d+)\]", text) or re.search(r"OSError: (-?\d+)\s*$", text.strip())
    if match:
        number = abs(int(match.group(1)))
        return BOARD_ERRNO.get(number, number)
    for name in ("ENOSPC", "EROFS", "ENOENT", "EACCES", "EEXIST"):
        if name in text:
            return getattr(errno, name)
    return errno.EIO


class BoardError(OSError):
    """A traceback the board printed, as an OSError with the host's errno."""

    def __init__(self, text):
        last = (text.strip().splitlines() or ["no error text"])[-1]
        super().__init__(errno_from_output(text), "the board reported " + last)


class SerialTarget(Target):
    RECONNECT = 20.0      # seconds for a reset board to be back at its REPL
    RESET_PAUSE = 0.3     # the port lingers a moment after the board resets

    def __init__(self, port):
        self.port = port
        self.description = "board on {}".format(port)
        self.repl = None
        self.state = {}
        self.sent = self.received = 0
        self.reset_after = False  # the drive was opened to code: end with a reset, not a reload
        if os.name != "nt" and not os.path.exists(port):
            raise NoBoard("There is no serial port {}.".format(port))
        self._connect()

    # -- the connection

    def _connect(self):
        try:
            self.repl = RawRepl(self.port)
        except (serial.SerialException, OSError) as error:
            number = getattr(error, "errno", None)
            if number == errno.ENOENT:
                raise NoBoard("There is no serial port {}.".format(self.port))
            if number in (errno.EACCES, errno.EPERM):
                raise BoardNotResponding.no_access(self.port)
            raise BoardNotResponding.busy(self.port)
        try:
            self.repl.enter()
            out, err = self.repl.exec(PRELUDE)
        except Silent as error:
            self.close()
            raise BoardNotResponding.silent(self.port, error)
        try:
            state = _literals(out)[-1]
        except (IndexError, ValueError, SyntaxError):
            state = None
        self.state = state if isinstance(state, dict) and not err else {}

    def _reconnect(self, why):
        self._count()
        self.repl.close()
        self.repl = None
        deadline = time.monotonic() + self.RECONNECT
        time.sleep(self.RESET_PAUSE)
        while True:
            try:
                self._connect()
                return
            except (NoBoard, BoardNotResponding):
                if time.monotonic() >= deadline:
                    raise BoardNotResponding.silent(
                        self.port, "it did not come back within {:g} s after {}".format(self.RECONNECT, why))
                time.sleep(0.2)

    def _count(self):
        if self.repl is not None:
            self.sent += self.repl.sent
            self.received += self.repl.received
            self.repl.sent = self.repl.received = 0

    def _exec(self, code, copying=False):
        """Run ``code``; what it printed. While ``copying``, failures are OSErrors the copy
        reports (a board traceback with its errno, a silent board as EIO); otherwise
        BoardNotResponding."""
        try:
            out, err = self.repl.exec(code)
        except Silent as error:
            if copying:
                raise OSError(errno.EIO, "the board stopped answering ({})".format(error))
            raise BoardNotResponding.silent(self.port, error)
        if err:
            if copying:
                raise BoardError(err)
            raise BoardNotResponding.failed(self.port, BoardError(err).strerror)
        return out

    def _lines(self, code):
        """The Python literals ``code`` prints, one a line."""
        out = self._exec(code)
        try:
            return _literals(out)
        except (ValueError, SyntaxError):
            raise BoardNotResponding.failed(self.port, "an answer that is not what was asked for: {!r}".format(
                out[:80]))

    # -- what the deploy asks

    def board_info(self):
        state = self.state
        if "impl" not in state or "version" not in state:
            return None
        return BoardInfo(state["impl"], state["version"], state.get("machine", ""), state.get("board_id"))

    def read_file(self, path):
        lines = self._lines("_read({!r})".format(path))
        if lines[:1] == [None]:
            return None
        return b"".join(lines)

    def read_nvm(self):
        """The bytes of microcontroller.nvm, the game's save area (tools.records)."""
        return b"".join(self._lines("import microcontroller\n_n=microcontroller.nvm\n"
                                    "for _i in range(0,len(_n),256):\n print(repr(bytes(_n[_i:_i+256])))"))

    def survey(self, expected, folders=()):
        lines = self._lines("_survey({!r},{!r})".format(list(expected.items()), list(folders)))
        count = len(expected)
        if len(lines) < count:
            raise BoardNotResponding.failed(self.port, "{} answers for {} files".format(len(lines), count))
        return dict(zip(expected, (tuple(line) for line in lines[:count]))), [tuple(item) for item in lines[count:]]

    def checksum(self, data):
        return checksum(self.state.get("sum", "adler32"), data)

    def write_file(self, path, data):
        for code in write_snippets(path, data, self.state.get("b64")):
            try:
                self._exec(code, copying=True)
            except BoardError:
                self._close_quietly()
                raise

    def _close_quietly(self):
        try:
            self.repl.exec("_close()")
        except Silent:  # the link may be gone; the next deploy starts fresh
            pass

    def remove_file(self, path):
        self._exec("os.remove({!r})".format(path), copying=True)

    def space(self):
        block_size, fragment, available = self._lines("_space()")[0]
        return available * (fragment or block_size), fragment or block_size

    def prepare_to_write(self, report, dry_run=False):
        readonly = self.state.get("readonly")
        if readonly is None:                 # no storage module: not CircuitPython's read-only drive
            return
        if not readonly:
            self.reset_after = True
            return
        if self._lines("_deploy_mode({})".format(not dry_run))[0]:
            if dry_run:
                report("The board is read-only to code now: the deploy will restart it in deploy mode "
                       "(its boot.py opens CIRCUITPY to code for one boot).")
                return
            report("Restarting the board in deploy mode (its boot.py opens CIRCUITPY to code for one boot) ...")
            self.repl.exec_no_answer(RESET)
            self._reconnect("restarting in deploy mode")
            if self.state.get("readonly") is not False:
                raise ReadOnly.still_read_only(self.port)
            self.reset_after = True
            return
        # No deploy mode yet (a board without the game's boot.py): the REPL may remount
        # the drive itself once the computer has ejected it.
        if self._lines("_remount({})".format(not dry_run))[0]:
            if dry_run:
                report("The board's drive is ejected: the deploy will open it to code from the REPL.")
            else:
                report("The computer has ejected CIRCUITPY: opened it to code from the REPL.")
                self.reset_after = True
            return
        raise self.read_only_error()

    def read_only_error(self):
        return ReadOnly.over_serial(_mounted_drive())

    def finish(self, restart, report):
        try:
            if restart and self.reset_after:
                # boot.py runs again: a normal boot, the drive the computer's again
                self.repl.exec_no_answer(RESET)
            else:
                self.repl.leave(reload=restart)
                if self.reset_after:
                    report("The board stays at its REPL with CIRCUITPY writable to code (read-only to the "
                           "computer) until it restarts.")
        except Silent:
            report("The board did not take the restart: press its reset button to start the game.")
        self._count()
        report("Serial link: {:,} bytes to the board, {:,} back.".format(self.sent, self.received))

    def close(self):
        self._count()
        repl, self.repl = self.repl, None
        if repl is not None:
            repl.close()


def _literals(out):
    return [ast.literal_eval(line) for line in out.decode("utf-8", "replace").splitlines() if line.strip()]


def _mounted_drive():
    drives = circuitpy_drives()
    return drives[0] if len(drives) == 1 else None
