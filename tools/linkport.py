"""The link cable on a PC: a loopback TCP connection that looks like busio.UART.

sixtysix.link.cable needs only read(n), write(b) and in_waiting, so a simulator (or a test)
joins two devices with a SocketPort at each end of a TCP connection on 127.0.0.1.
Nothing here can reach another machine: the address is fixed to the loopback one.

    server = linkport.listen(port)        # device 1
    one = linkport.accept(server)
    two = linkport.connect(port)          # device 2 (another process or thread)
    a, b = linkport.pair()                # both ends in one process (tests)
    end = linkport.Plug(port)             # a simulator window's end (tools.sim --link PORT)

A closed connection behaves like a pulled cable: reads give nothing, writes vanish.
"""
import socket
import time

HOST = "127.0.0.1"


class SocketPort:
    def __init__(self, sock):
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock = sock
        self.buffer = b""
        self.closed = False

    def _fill(self):
        while not self.closed:
            try:
                got = self.sock.recv(4096)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                got = b""
            if not got:
                self.closed = True
                return
            self.buffer += got

    @property
    def in_waiting(self):
        self._fill()
        return len(self.buffer)

    def read(self, n=None):
        """Up to n bytes that have arrived, or None (as busio.UART with timeout=0)."""
        self._fill()
        if not self.buffer:
            return None
        n = len(self.buffer) if n is None else n
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def write(self, data):
        if self.closed:
            return 0
        try:
            self.sock.sendall(data)
        except BlockingIOError:
            return 0            # the other end stopped reading: like bytes lost on a wire
        except OSError:
            self.closed = True
            return 0
        return len(data)

    def close(self):
        self.closed = True
        self.sock.close()


def listen(port=0):
    """A listening socket on the loopback address (port 0: any free port)."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((HOST, port))
    server.listen(1)
    return server


def accept(server, timeout=30.0):
    server.settimeout(timeout)
    sock, _ = server.accept()
    return SocketPort(sock)


def connect(port, timeout=30.0):
    sock = socket.create_connection((HOST, port), timeout=timeout)
    return SocketPort(sock)


def pair():
    """Two connected SocketPorts over a real loopback TCP connection."""
    server = listen(0)
    try:
        a = connect(server.getsockname()[1])
        b = accept(server)
    finally:
        server.close()
    return a, b


class Plug:
    """A simulator's end of the cable on loopback port `port`, plugged in whenever the other
    simulator is there: it connects to one that listens on the port, else listens itself
    (`first`: it did); when the other window closes, it waits for the next one, as a
    device does for a cable put back. Until then reads give nothing and writes vanish."""

    def __init__(self, port):
        self.number = port
        self.server = None
        self.conn = None
        self.tried = 0.0
        self.first = not self._connect()

    def _connect(self):
        """Connect to a listening simulator, or listen when there is none; True: connected."""
        self.tried = time.monotonic()
        try:
            self.conn = connect(self.number, timeout=0.5)
            return True
        except OSError:
            pass
        try:
            self.server = listen(self.number)
            self.server.setblocking(False)
        except OSError:
            self.server = None          # both raced for the port: try again in a second
        return False

    def _end(self):
        """The connected SocketPort, or None while unplugged."""
        if self.conn is not None and self.conn.closed:
            self.conn = None
        if self.conn is None and self.server is not None:
            try:
                sock, _ = self.server.accept()
                self.conn = SocketPort(sock)
            except (BlockingIOError, InterruptedError):
                pass
        elif self.conn is None and time.monotonic() - self.tried > 1.0:
            self._connect()
        return self.conn

    @property
    def in_waiting(self):
        end = self._end()
        return end.in_waiting if end is not None else 0

    def read(self, n=None):
        end = self._end()
        return end.read(n) if end is not None else None

    def write(self, data):
        end = self._end()
        return end.write(data) if end is not None else len(data)     # lost, as on a pulled cable

    def close(self):
        for s in (self.conn, self.server):
            if s is not None:
                s.close()
