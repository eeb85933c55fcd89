# CircuitPython 10 `errno`: MicroPython's short list plus EROFS and ENOSPC (CIRCUITPY is
# read-only while USB has it mounted).
errorcode: dict[int, str]
EACCES: int
EADDRINUSE: int
EAGAIN: int
EALREADY: int
EBADF: int
ECONNABORTED: int
ECONNREFUSED: int
ECONNRESET: int
EEXIST: int
EHOSTUNREACH: int
EINPROGRESS: int
EINVAL: int
EIO: int
EISDIR: int
ENOBUFS: int
ENODEV: int
ENOENT: int
ENOMEM: int
ENOSPC: int
ENOTCONN: int
EOPNOTSUPP: int
EPERM: int
EROFS: int
ETIMEDOUT: int
