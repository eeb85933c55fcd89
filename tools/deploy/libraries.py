"""The CircuitPython libraries the game imports, as .py files from their PyPI wheels.

Which libraries: every module named in tools/board_libs.txt that the game's code (or a
library already chosen) imports, outside ``try: ... except ImportError``. An unpinned
``adafruit_*`` import is an error, so a forgotten pin cannot ship a board that fails at
import. Wheels are cached; pip is asked only for the ones the cache lacks.
"""

import ast
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

from .errors import CompileFailed, LibrariesUnavailable
from .manifest import Entry

PINS_FILE = Path(__file__).resolve().parent.parent / "board_libs.txt"
CACHE_ENV = "SIXTYSIX_LIB_CACHE"


def default_cache():
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "sixtysix" / "libs")


class Pin:
    """One line of board_libs.txt: a module and the exact distribution that provides it."""

    def __init__(self, module, requirement):
        dist, _, version = requirement.partition("==")
        if not version:
            raise ValueError("{}: pin an exact version with ==".format(requirement))
        self.module = module
        self.dist = dist
        self.version = version

    @property
    def requirement(self):
        return "{}=={}".format(self.dist, self.version)

    @property
    def wheel_prefix(self):
        return "{}-{}-".format(re.sub(r"[-_.]+", "_", self.dist).lower(), self.version)


def read_pins(path=PINS_FILE):
    pins = {}
    for number, raw in enumerate(Path(path).read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        if len(fields) != 2:
            raise ValueError("{}:{}: expected 'module package==version'".format(path, number))
        pins[fields[0]] = Pin(fields[0], fields[1])
    return pins


def _guarded(handlers):
    """True if a try statement's handlers swallow ImportError (the import is optional)."""
    for handler in handlers:
        kind = handler.type
        names = kind.elts if isinstance(kind, ast.Tuple) else [kind]
        for name in names:
            if name is None or (isinstance(name, ast.Name) and name.id in ("ImportError", "Exception")):
                return True
    return False


def imported_modules(text, filename="<source>"):
    """Top-level names of the absolute imports that must succeed for ``text`` to run."""
    found = set()

    def visit(node, optional):
        if isinstance(node, ast.Try):
            body_optional = optional or _guarded(node.handlers)
            for child in node.body:
                visit(child, body_optional)
            for child in node.handlers + node.orelse + node.finalbody:
                visit(child, optional)
            return
        if not optional:
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
        for child in ast.iter_child_nodes(node):
            visit(child, optional)

    visit(ast.parse(text, filename), False)
    return found


class WheelCache:
    """A folder of wheels; ``fetch`` fills in missing ones with pip."""

    def __init__(self, folder=None, pins_file=PINS_FILE):
        self.folder = Path(folder) if folder else default_cache()
        self.pins_file = pins_file

    def wheel(self, pin):
        if self.folder.is_dir():
            for path in sorted(self.folder.iterdir()):
                if path.name.lower().startswith(pin.wheel_prefix) and path.suffix == ".whl":
                    return path
        return None

    def fetch(self, pins):
        missing = [pin for pin in pins if self.wheel(pin) is None]
        if not missing:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                   "--disable-pip-version-check", "--retries", "1", "--timeout", "15",
                   "--dest", str(self.folder)] + [pin.requirement for pin in missing]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise LibrariesUnavailable.offline([p.requirement for p in missing], self.folder, error)
        still = [pin for pin in missing if self.wheel(pin) is None]
        if done.returncode or still:
            lines = (done.stderr or done.stdout).strip().splitlines() or ["pip exit code {}".format(done.returncode)]
            raise LibrariesUnavailable.offline([p.requirement for p in still or missing], self.folder, lines[-1])

    def module_files(self, pin):
        """{path inside /lib: bytes} of the pin's module (a .py file or a package of them)."""
        wheel = self.wheel(pin)
        files = {}
        with zipfile.ZipFile(wheel) as archive:
            for name in archive.namelist():
                if name == pin.module + ".py" or (name.startswith(pin.module + "/") and name.endswith(".py")):
                    files[name] = archive.read(name)
        if not files:
            raise LibrariesUnavailable.missing_module(pin.module, wheel.name)
        return files


def resolve(sources, cache, pins):
    """Board entries (/lib/...) for every pinned library ``sources`` need, dependencies included.

    ``sources`` is a list of (origin, python text). Libraries are fetched breadth first so
    pip runs once per level of the dependency tree, not once per library.
    """
    wanted = {}
    queue = _needs(sources, pins, cache.pins_file)
    while queue:
        level = [pins[module] for module in sorted(queue) if module not in wanted]
        cache.fetch(level)
        queue = set()
        for pin in level:
            files = cache.module_files(pin)
            wanted[pin.module] = (pin, files)
            texts = [("{} ({})".format(name, pin.requirement), data.decode("utf-8")) for name, data in files.items()]
            queue |= _needs(texts, pins, cache.pins_file) - set(wanted)
    entries = []
    for pin, files in wanted.values():
        for name, data in files.items():
            entries.append(Entry("/lib/" + name, data, pin.requirement))
    return entries


def _needs(sources, pins, pins_file):
    needed = set()
    for origin, text in sources:
        try:
            modules = imported_modules(text, origin)
        except SyntaxError as error:
            raise CompileFailed.module(origin, 'File "{}", line {}\nSyntaxError: {}'.format(
                origin, error.lineno, error.msg))
        for module in modules:
            if module in pins:
                needed.add(module)
            elif module.startswith("adafruit_"):
                raise LibrariesUnavailable.unpinned(module, pins_file, origin)
    return needed
