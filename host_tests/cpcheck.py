"""Static check that board code uses only what CircuitPython 10 has.

    .venv/bin/python host_tests/cpcheck.py          # check shared_rules/, firmware/, hardware/profiles/

mypy runs from its own virtualenv, .venv-cp, built on first use from requirements-cp.txt
(the main .venv has Blinka, whose real displayio/board modules would hide the stubs). It
checks against:
- circuitpython-stubs for the CircuitPython modules, with the Raspberry Pi Pico's pins;
- a copy of mypy's typeshed (built in .venv-cp/cp-typeshed) in which the standard modules
  that CircuitPython cuts down are replaced: host_tests/cpstubs/*.pyi (random, time, gc, sys,
  os, json, struct, errno) and the stubs' own traceback, zlib, warnings, ...; builtins
  lose what MicroPython lacks (MISSING_BUILTINS). A stub directory on mypy_path also
  overrides random or time, but mypy refuses one for `sys`, so the typeshed copy it is.

Only errors about names that do not exist and calls that do not fit are reported
(REPORTED); inference noise from the unannotated code is dropped, and so are missing
attributes of the project's own classes (they may be set with setattr). Missing names inside
defensive code (the body and handlers of a try that catches ImportError, AttributeError
or NameError, and `if`/`x if c else y` whose test calls hasattr) are allowed.
A second pass flags imports of CPython standard modules the board lacks (itertools,
typing, ...) outside such a try. Modules the board has are read from the Pico's board
definition in circuitpython-stubs.
A third pass checks the board profiles (hardware/profiles/*.py), which name their pins as
strings that getattr(board, ...) looks up: every pin a profile names (PIN_CONSTANTS) must
be in the `board` module of each board id it lists in BOARD_IDS (its stub in
circuitpython-stubs), and a profile that does not build its display (no SPI_CLOCK) needs
the board's own board.DISPLAY.
"""
import ast
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
VENV = REPO / ".venv-cp"
REQUIREMENTS = REPO / "requirements-cp.txt"
STUBS = Path(__file__).resolve().parent / "cpstubs"
CONFIG = STUBS / "mypy.ini"
TYPESHED = VENV / "cp-typeshed"
BOARD = "raspberry_pi_pico"
CHECKED = ("shared_rules", "firmware", "hardware/profiles")

# arg-type and call-overload are left out: in unannotated code they are mostly inference noise.
REPORTED = {"attr-defined", "name-defined", "import-not-found", "import", "call-arg"}
MISSING_NAME_CODES = {"attr-defined", "name-defined", "import-not-found", "import"}
GUARDS = {"ImportError", "AttributeError", "NameError"}

# Measured in the MicroPython 1.27 VM (richer than CircuitPython 10's builtins).
MISSING_BUILTINS = {
    "int": ("as_integer_ratio", "bit_count", "bit_length", "conjugate", "denominator", "imag",
            "numerator", "real", "is_integer"),
    "float": ("as_integer_ratio", "conjugate", "fromhex", "hex", "imag", "is_integer", "real"),
    "str": ("capitalize", "casefold", "expandtabs", "format_map", "isalnum", "isascii", "isdecimal",
            "isidentifier", "isnumeric", "isprintable", "istitle", "ljust", "maketrans", "removeprefix",
            "removesuffix", "rjust", "swapcase", "title", "translate", "zfill"),
    "bytes": ("capitalize", "expandtabs", "isalnum", "isascii", "istitle", "ljust", "maketrans",
              "removeprefix", "removesuffix", "rjust", "swapcase", "title", "translate", "zfill"),
    # (bytearray also lacks insert, pop, remove, reverse and clear, but typeshed gives it
    # those from MutableSequence, so removing them here would change nothing.)
    "bytearray": ("capitalize", "copy", "expandtabs", "isalnum", "isascii", "istitle", "ljust", "maketrans",
                  "removeprefix", "removesuffix", "rjust", "swapcase", "title", "translate", "zfill"),
    "range": ("start", "step", "stop"),
    "memoryview": ("c_contiguous", "cast", "contiguous", "f_contiguous", "format", "itemsize", "nbytes",
                   "ndim", "obj", "readonly", "release", "shape", "strides", "suboffsets", "tobytes",
                   "tolist", "toreadonly"),
}
# Not in MicroPython either. Kept although MicroPython lacks them: ConnectionError,
# BrokenPipeError and TimeoutError (CircuitPython adds them) and the Warning classes
# (CircuitPython's warnings module uses Warning).
MISSING_BUILTIN_NAMES = (
    "BaseExceptionGroup", "BlockingIOError", "BufferError", "ChildProcessError", "ConnectionAbortedError",
    "ConnectionRefusedError", "ConnectionResetError", "EnvironmentError", "ExceptionGroup", "FileExistsError",
    "FileNotFoundError", "FloatingPointError", "IOError", "InterruptedError", "IsADirectoryError",
    "ModuleNotFoundError", "NotADirectoryError", "PermissionError", "ProcessLookupError", "RecursionError",
    "ReferenceError", "SystemError", "TabError", "UnboundLocalError", "UnicodeDecodeError",
    "UnicodeEncodeError", "UnicodeTranslateError",
    "aiter", "anext", "ascii", "breakpoint", "copyright", "credits", "exit", "format", "license", "quit", "vars",
)
# On the board although not in the Pico's module list.
CORE_MODULES = {"gc", "micropython", "builtins", "sys"}
# A profile's constants that name pins of the board module (a name, a tuple of names, or None).
PIN_CONSTANTS = ("KEY_PINS", "WAKE_PIN", "BATTERY_PIN", "SOUND_PIN", "LINK_TX", "LINK_RX",
                 "SPI_CLOCK", "SPI_MOSI", "CHIP_SELECT", "COMMAND", "RESET", "BACKLIGHT")


def _digest(*parts):
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else repr(part).encode())
    return h.hexdigest()


def _site_packages():
    return next(VENV.glob("lib/python*/site-packages"))


def _venv_stamp():
    return _digest(REQUIREMENTS.read_bytes(), BOARD, sys.version_info[:2])


def _typeshed_stamp():
    stubs = [(p.name, p.read_bytes()) for p in sorted(STUBS.glob("*.pyi"))]
    return _digest(stubs, MISSING_BUILTINS, MISSING_BUILTIN_NAMES, _venv_stamp())


def _run(cmd, **kwargs):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if proc.returncode != 0:
        raise RuntimeError("%s failed:\n%s%s" % (" ".join(map(str, cmd)), proc.stdout, proc.stderr))
    return proc


def _build_venv():
    shutil.rmtree(VENV, ignore_errors=True)
    _run([sys.executable, "-m", "venv", str(VENV)])
    _run([str(VENV / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
          "--no-deps", "-r", str(REQUIREMENTS)])
    _run([str(VENV / "bin" / "circuitpython_setboard"), BOARD])
    (VENV / "stamp").write_text(_venv_stamp())


def _replace_module(stdlib, name, source):
    """Put source (a .pyi file or a stub package dir) in place of typeshed's module name."""
    for old in (stdlib / (name + ".pyi"), stdlib / name):
        if old.is_dir():
            shutil.rmtree(old)
        elif old.exists():
            old.unlink()
    if source.is_dir():
        shutil.copytree(source, stdlib / name)
    else:
        shutil.copyfile(source, stdlib / (name + ".pyi"))


def _trim_builtins(path):
    """Turn the definitions of MISSING_BUILTINS(_NAMES) in builtins.pyi into `...`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    tree = ast.parse("\n".join(lines))
    doomed = []

    def defined_names(node):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return {node.name}
        if isinstance(node, ast.Assign):
            return {t.id for t in node.targets if isinstance(t, ast.Name)}
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            return {node.target.id}
        return set()

    def walk(body, names, in_class):
        for node in body:
            if isinstance(node, ast.If):
                walk(node.body, names, in_class)
                walk(node.orelse, names, in_class)
            elif defined_names(node) & names:
                doomed.append(node)
            elif isinstance(node, ast.ClassDef) and not in_class and node.name in MISSING_BUILTINS:
                walk(node.body, set(MISSING_BUILTINS[node.name]), True)

    walk(tree.body, set(MISSING_BUILTIN_NAMES), False)
    for node in doomed:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        lines[first - 1] = " " * node.col_offset + "..."
        for i in range(first, node.end_lineno):
            lines[i] = ""
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _build_typeshed():
    site = _site_packages()
    shutil.rmtree(TYPESHED, ignore_errors=True)
    shutil.rmtree(VENV / "mypy-cache", ignore_errors=True)
    shutil.copytree(site / "mypy" / "typeshed", TYPESHED)
    stdlib = TYPESHED / "stdlib"
    for stub_pkg in sorted(site.glob("*-stubs")):
        name = stub_pkg.name[:-len("-stubs")]
        if (stdlib / (name + ".pyi")).exists() or (stdlib / name).is_dir():
            _replace_module(stdlib, name, stub_pkg)
    for stub in sorted(STUBS.glob("*.pyi")):
        _replace_module(stdlib, stub.stem, stub)
    _trim_builtins(stdlib / "builtins.pyi")
    (TYPESHED / "stamp").write_text(_typeshed_stamp())


def _stamp_ok(path, expected):
    return path.exists() and path.read_text() == expected


def ensure_env():
    """Build .venv-cp and its typeshed if missing or stale; safe to call from parallel workers."""
    lock = Path(tempfile.gettempdir()) / ("sixtysix-cpcheck-%s.lock" % _digest(str(REPO))[:12])
    with open(lock, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        if not _stamp_ok(VENV / "stamp", _venv_stamp()):
            _build_venv()
        if not _stamp_ok(TYPESHED / "stamp", _typeshed_stamp()):
            _build_typeshed()


def board_modules():
    """Top-level modules in the Pico build, from its board definition's docstring."""
    text = (_site_packages() / "board_definitions" / BOARD / "__init__.pyi").read_text(encoding="utf-8")
    listed = re.search(r"Included modules:(.*)", text).group(1)
    return {m.strip().split(".")[0].split(" ")[0] for m in listed.split(",") if m.strip()} | CORE_MODULES


def board_pins(board_id):
    """{name: GPIO number (None for a name that is no GPIO, e.g. DISPLAY)} of the `board`
    module of board_id, from its stub in circuitpython-stubs; None when there is no stub."""
    path = _site_packages() / "board_definitions" / board_id / "__init__.pyi"
    if not path.exists():
        return None
    names = {}
    for m in re.finditer(r"^(\w+): [\w.]+(?:\s+# GPIO(\d+))?", path.read_text(encoding="utf-8"), re.M):
        names[m.group(1)] = int(m.group(2)) if m.group(2) else None
    return names


def profile_constants(path):
    """{constant: (value, line)} of a profile module's top-level literal assignments."""
    out = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                out[node.targets[0].id] = (ast.literal_eval(node.value), node.lineno)
            except ValueError:
                pass
    return out


def profile_pin_problems(folder):
    """Pins the board profiles in `folder` name that their boards' `board` modules lack."""
    problems = []
    for path in sorted(folder.glob("*.py")):
        if path.stem.startswith("_"):
            continue
        consts = profile_constants(path)
        ids, line = consts.get("BOARD_IDS", ((), 1))
        if not ids:
            problems.append("%s:%d: the profile lists no BOARD_IDS to check its pins against" % (path, line))
        for board_id in ids:
            pins = board_pins(board_id)
            if pins is None:
                problems.append("%s:%d: no board definition for board id %r" % (path, line, board_id))
                continue
            named = [(c, v, n) for c in PIN_CONSTANTS if c in consts
                     for v, n in [consts[c]] for v in (v if isinstance(v, tuple) else (v,)) if v is not None]
            if "SPI_CLOCK" not in consts:
                named.append(("display()", "DISPLAY", line))
            for const, name, n in named:
                if name not in pins:
                    problems.append("%s:%d: %s: board %s has no pin %r" % (path, n, const, board_id, name))
    return problems


def targets(repo=REPO):
    """(search base, mypy flag, name) for every module under the checked dirs that exist.

    The bases are what the board's /lib gives: shared_rules/ and firmware/sixtysix/ and
    hardware/profiles/ (as `profiles`) import as top-level packages.
    """
    found = []
    if (repo / "shared_rules").is_dir():
        found.append((repo, "-p", "shared_rules"))
    firmware = repo / "firmware"
    if firmware.is_dir():
        for child in sorted(firmware.iterdir()):
            if child.suffix == ".py":
                found.append((firmware, "-m", child.stem))
            elif child.is_dir() and any(child.glob("*.py")):
                found.append((firmware, "-p", child.name))
    profiles = repo / "hardware" / "profiles"
    if profiles.is_dir() and any(profiles.glob("*.py")):
        found.append((profiles.parent, "-p", "profiles"))
    return found


def _guarded(node):
    """A try that expects a missing module or name: a handler names one of GUARDS."""
    return any(h.type is not None and any(isinstance(n, ast.Name) and n.id in GUARDS for n in ast.walk(h.type))
               for h in node.handlers)


def _calls_hasattr(test):
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "hasattr"
               for n in ast.walk(test))


def defensive_lines(tree):
    """Lines where a missing name is expected and handled."""
    lines = set()

    def span(nodes):
        for node in nodes:
            lines.update(range(node.lineno, node.end_lineno + 1))

    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and _guarded(node):
            span(node.body)
            for handler in node.handlers:
                span(handler.body)
        elif isinstance(node, (ast.If, ast.IfExp)) and _calls_hasattr(node.test):
            span([node])
    return lines


def _imports_outside_guards(tree):
    guarded = defensive_lines(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        if node.lineno not in guarded:
            for name in names:
                yield node.lineno, name.split(".")[0]


def missing_modules(files, available):
    """Problems for imports of CPython standard modules the board does not have."""
    problems = []
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for line, top in _imports_outside_guards(tree):
            if top in sys.stdlib_module_names and top not in available:
                problems.append("%s:%d: CircuitPython has no module %r" % (path, line, top))
    return problems


_ERROR = re.compile(r"^(?P<path>.+?):(?P<line>\d+): error: (?P<msg>.*?)\s+\[(?P<code>[a-z-]+)\]$")
_OWN_ATTRIBUTE = re.compile(r'^"(?:type\[)?(?P<cls>\w+)\]?" has no attribute')


def _class_names(files):
    return {node.name for path in files for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ClassDef)}


def run_mypy(found, own_classes=()):
    """mypy over the given targets; returns (problems, raw output)."""
    bases = list(dict.fromkeys(str(base) for base, _, _ in found))
    # One cache per layout: the fixtures reuse the real package names elsewhere.
    cache = VENV / "mypy-cache" / _digest(bases)[:12]
    cmd = [str(VENV / "bin" / "mypy"), "--config-file", str(CONFIG), "--custom-typeshed-dir", str(TYPESHED),
           "--cache-dir", str(cache)]
    for _, flag, name in found:
        cmd += [flag, name]
    env = dict(os.environ, MYPYPATH=os.pathsep.join(bases))
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=REPO)
    if proc.returncode not in (0, 1):
        raise RuntimeError("mypy failed (exit %d):\n%s%s" % (proc.returncode, proc.stdout, proc.stderr))
    trees = {}
    problems = []
    for line in proc.stdout.splitlines():
        m = _ERROR.match(line)
        if not m or m["code"] not in REPORTED:
            continue
        own = _OWN_ATTRIBUTE.match(m["msg"])
        if own and own["cls"] in own_classes:
            continue
        path = Path(m["path"])
        if m["code"] in MISSING_NAME_CODES:
            if path not in trees:
                trees[path] = defensive_lines(ast.parse(path.read_text(encoding="utf-8")))
            if int(m["line"]) in trees[path]:
                continue
        problems.append(line)
    return problems, proc.stdout


def check(found=None):
    """All problems in the given targets (default: the repo's board code), as text lines."""
    found = targets() if found is None else found
    if not found:
        return []
    ensure_env()
    files = []
    for base, flag, name in found:
        root = base / name.replace(".", "/")
        files += [root.with_suffix(".py")] if flag == "-m" else sorted(root.rglob("*.py"))
    problems, _ = run_mypy(found, _class_names(files))
    for base, _, name in found:
        if name == "profiles":
            problems += profile_pin_problems(base / name)
    return problems + missing_modules(files, board_modules())


if __name__ == "__main__":
    found_problems = check()
    print("\n".join(found_problems) or "CircuitPython API check: no problems")
    sys.exit(1 if found_problems else 0)
