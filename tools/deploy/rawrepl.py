"""MicroPython's raw REPL over a serial port, spoken the way CircuitPython boards need it.

The protocol (MicroPython shared/runtime/pyexec.c): Ctrl-A enters the raw REPL, which
answers "raw REPL; CTRL-B to exit\\r\\n>". A snippet is sent either in raw-paste mode
(Ctrl-E 'A' Ctrl-A, answered "R\\x01" + a 2-byte window size; the board sends \\x01
for each window it can take, the host ends with Ctrl-D and the board acknowledges with
\\x04) or plainly (code, then Ctrl-D, answered "OK"). The board then prints the output,
\\x04, the error text, \\x04 and the ">" prompt. Ctrl-B leaves the raw REPL; Ctrl-D at
the normal REPL soft-reloads code.py.

Why not mpremote's transport, which speaks the same protocol:
- it writes Ctrl-C together with "\\r"; CircuitPython drops a USB packet that holds
  Ctrl-C and other bytes while code runs, so a running game is never stopped;
- when a raw-paste answer comes late it gives up with the board still in raw-paste
  mode, where the next Ctrl-B is taken as code; here the link is brought back to a
  clean raw prompt first (Ctrl-C alone ends raw-paste mode);
- on failure it prints raw bytes to stdout; here every failure is ``Silent``;
- the deploy reports the bytes sent and received, which it counts here.
"""

import struct
import time

import serial

try:
    from termios import error as _TermiosError    # pyserial's flush() lets it through on POSIX
except ImportError:
    _TermiosError = OSError

PORT_ERRORS = (serial.SerialException, OSError, _TermiosError)
BANNER = b"raw REPL; CTRL-B to exit\r\n>"
PASTE_REQUEST = b"\x05A\x01"


class Silent(Exception):
    """The board stopped answering: a timeout, or the port went away."""


class RawRepl:
    """One connection to a board's raw REPL. ``sent``/``received`` count bytes on the wire."""

    TIMEOUT = 10.0        # seconds of silence after which a board that should talk is given up
    PASTE_TIMEOUT = 2.0   # for the raw-paste answer (a board whose display echoes the REPL
                          # answers only after a redraw of up to ~0.35 s)
    BANNER_TIMEOUT = 2.0  # for the raw REPL banner after Ctrl-A
    QUIET = 0.25          # seconds without output that end a burst (tracebacks, banners)
    PLAIN_CHUNK = 256     # raw REPL without paste has no flow control: pace the writes
    PLAIN_PAUSE = 0.01

    def __init__(self, port):
        self.port = port
        self.sent = 0
        self.received = 0
        self.paste = None                 # None: not tried yet on this connection
        self.in_raw = False
        self._buffer = bytearray()
        # exclusive: a second program on the port would steal our answers
        self.serial = serial.Serial(port, 115200, timeout=0.02, exclusive=True)

    # -- bytes on the wire

    def write(self, data):
        try:
            self.serial.write(data)
            self.serial.flush()
        except PORT_ERRORS as error:
            raise Silent("the port went away: {}".format(error))
        self.sent += len(data)

    def _waiting(self):
        try:
            return self.serial.in_waiting
        except PORT_ERRORS as error:
            raise Silent("the port went away: {}".format(error))

    def _fill(self, wait):
        """Move what the port has into the buffer; True if anything came within ``wait`` s."""
        deadline = time.monotonic() + wait
        while True:
            try:
                data = self.serial.read(max(1, self._waiting()))
            except PORT_ERRORS as error:
                raise Silent("the port went away: {}".format(error))
            if data:
                self.received += len(data)
                self._buffer += data
                return True
            if time.monotonic() >= deadline:
                return False

    def _take(self, size):
        data = bytes(self._buffer[:size])
        del self._buffer[:size]
        return data

    def read_until(self, ending, timeout=None):
        """Bytes up to and including ``ending``; Silent after ``timeout`` s with no byte."""
        timeout = self.TIMEOUT if timeout is None else timeout
        searched = 0
        while True:
            found = self._buffer.find(ending, searched)
            if found >= 0:
                return self._take(found + len(ending))
            searched = max(0, len(self._buffer) - len(ending) + 1)
            if not self._fill(timeout):
                raise Silent("no answer within {:g} s (waiting for {!r} after {!r})".format(
                    timeout, ending, bytes(self._buffer[-40:])))

    def read_exact(self, size, timeout):
        """Up to ``size`` bytes: fewer if the board is silent for ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while len(self._buffer) < size:
            left = deadline - time.monotonic()
            if left <= 0 or not self._fill(left):
                break
        return self._take(size)

    def drain(self, quiet=None, limit=3.0):
        """Everything until the board has been quiet for ``quiet`` s (at most ``limit`` s)."""
        quiet = self.QUIET if quiet is None else quiet
        start = time.monotonic()
        while self._fill(quiet) and time.monotonic() - start < limit:
            pass
        return self._take(len(self._buffer))

    # -- REPL states

    def enter(self, attempts=3):
        """Stop whatever runs and reach a clean raw REPL prompt."""
        for _attempt in range(attempts):
            self.write(b"\x03")       # alone in its packet, or CircuitPython loses it
            self.drain()              # "KeyboardInterrupt ... Press any key to enter the REPL"
            self.write(b"\r")         # that key (at a prompt: an empty line)
            self.drain()
            self.write(b"\x01")
            try:
                self.read_until(BANNER, self.BANNER_TIMEOUT)
            except Silent:
                continue
            self.in_raw = True
            return
        raise Silent("could not reach the raw REPL after {} tries".format(attempts))

    def resync(self):
        """Back to a clean raw prompt from an unknown state (raw-paste, a running snippet)."""
        self.write(b"\x03")           # ends raw-paste mode (KeyboardInterrupt) or a snippet
        self.drain()
        self.write(b"\x01")
        self.read_until(BANNER)

    def leave(self, reload=False):
        """Back to the normal REPL; with ``reload`` Ctrl-D soft-reloads code.py."""
        self.write(b"\x02")
        self.in_raw = False
        if reload:
            self.drain(limit=1.0)
            self.write(b"\x04")

    def close(self):
        """Release the port; after a failure, first leave the board at its normal REPL."""
        try:
            if self.in_raw:
                self.write(b"\x03")   # in case it sits in raw-paste mode or runs a snippet
                self.drain(limit=1.0)
                self.leave()
        except Silent:
            pass
        try:
            self.serial.close()
        except PORT_ERRORS:
            pass

    # -- running code

    def exec(self, code):
        """Run ``code``; returns (output bytes, error text). Raises Silent."""
        self._send(code)
        out = self.read_until(b"\x04")[:-1]
        err = self.read_until(b"\x04")[:-1]
        self.read_until(b">")
        return out, err.decode("utf-8", "replace")

    def exec_no_answer(self, code):
        """Send ``code`` that ends the connection (a reset). The port may vanish as the
        last byte goes out, so silence is what is expected: whether the board took it
        shows when it is back."""
        self.in_raw = False
        try:
            self._send(code, receipt=False)
            self.drain(limit=0.5)
        except Silent:
            pass

    def _send(self, code, receipt=True):
        data = code.encode("utf-8")
        if self.paste is not False:
            self.write(PASTE_REQUEST)
            answer = self.read_exact(2, self.PASTE_TIMEOUT)
            if answer == b"R\x01":
                self.paste = True
                self._paste(data, receipt)
                return
            self.paste = False
            if answer != b"R\x00":
                # No answer yet, a late one, or a REPL that does not know the request:
                # the board may enter raw-paste mode later, so start again from clean.
                self.resync()
        for start in range(0, len(data), self.PLAIN_CHUNK):
            self.write(data[start:start + self.PLAIN_CHUNK])
            time.sleep(self.PLAIN_PAUSE)
        self.write(b"\x04")
        if receipt:
            self.read_until(b"OK")

    def _paste(self, data, receipt):
        header = self.read_exact(2, self.TIMEOUT)
        if len(header) != 2:
            raise Silent("no raw-paste window size")
        window = struct.unpack("<H", header)[0]
        remain = window
        at = 0
        while at < len(data):
            while remain == 0 or self._buffer or self._waiting():
                signal = self.read_exact(1, self.TIMEOUT)
                if signal == b"\x01":
                    remain += window
                elif signal == b"\x04":     # the board ended the paste early (it saw an error)
                    self.write(b"\x04")
                    return
                else:
                    raise Silent("unexpected {!r} during raw-paste".format(signal))
            chunk = data[at:at + remain]
            self.write(chunk)
            remain -= len(chunk)
            at += len(chunk)
        self.write(b"\x04")
        if receipt:
            self.read_until(b"\x04")       # receipt (window signals before it are dropped)
