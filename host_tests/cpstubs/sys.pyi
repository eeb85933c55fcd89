# CircuitPython 10 `sys`: print_exception is MicroPython's; no getsizeof, exc_info, settrace,
# getrecursionlimit, float_info, intern.
from typing import Any, NoReturn, TextIO, Tuple

class _Implementation:
    name: str
    version: Tuple[int, int, int]
    _machine: str
    _mpy: int

argv: list[str]
byteorder: str
implementation: _Implementation
maxsize: int
modules: dict[str, Any]
path: list[str]
platform: str
stderr: TextIO
stdin: TextIO
stdout: TextIO
version: str
version_info: Tuple[int, int, int]

def exit(retval: object = ...) -> NoReturn: ...
def print_exception(exc: BaseException, file: Any = ...) -> None: ...
