"""What goes where on the board: docs/LAYOUT.md turned into a list of files.

The firmware, profiles and assets change while we work, so nothing here names a
module: every source is a glob. In a manifest ``boot.py`` comes first (it is what lets
the next serial deploy write) and ``code.py`` last (it starts the game).
"""

import ast
import re
from pathlib import Path

from .errors import UnknownBoard, UsageError

CODE_PY = "/code.py"
BOOT_PY = "/boot.py"
SETTINGS = "/settings.toml"
PROFILE_KEY = "SIXTYSIX_PROFILE"

# (repo folder, glob, board folder): every row of docs/LAYOUT.md except code.py,
# settings.toml and the libraries, which are handled on their own.
SOURCES = (
    ("firmware/sixtysix", "**/*.py", "/lib/sixtysix"),
    ("firmware/assets", "*.bmp", "/assets"),
    ("shared_rules", "**/*.py", "/lib/shared_rules"),
    ("hardware/profiles", "*.py", "/lib/profiles"),
)

OWNED_DIRS = tuple(board for _repo, _glob, board in SOURCES)
"""Board folders that belong to the game: files there that the repo no longer has are removed."""

PROFILES_DIR = "hardware/profiles"


class Entry:
    """One file for the board: its absolute board path, its bytes and where it came from."""

    __slots__ = ("path", "data", "origin")

    def __init__(self, path, data, origin):
        self.path = path
        self.data = bytes(data)
        self.origin = origin

    @property
    def size(self):
        return len(self.data)

    def __repr__(self):
        return "Entry({!r}, {} bytes from {})".format(self.path, self.size, self.origin)


class Manifest:
    """The complete board contents the game needs, ``boot.py`` first and ``code.py`` last."""

    def __init__(self, entries):
        paths = [entry.path for entry in entries]
        if len(set(paths)) != len(paths):
            raise ValueError("two sources for one board path: {}".format(sorted(paths)))
        first = {BOOT_PY: 0, CODE_PY: 2}
        self.entries = sorted(entries, key=lambda e: (first.get(e.path, 1), e.path))
        self.paths = frozenset(paths)

    @property
    def size(self):
        return sum(entry.size for entry in self.entries)

    def __iter__(self):
        return iter(self.entries)

    def __len__(self):
        return len(self.entries)


def source_entries(repo):
    """code.py and every file under the LAYOUT.md folders, read from the repo at ``repo``."""
    repo = Path(repo)
    code = repo / "firmware" / "code.py"
    if not code.is_file():
        raise UsageError(
            "{} is missing, so there is no game to deploy.\n"
            "Next: run the command from a complete checkout, or pass it with --source.".format(code)
        )
    entries = [Entry(CODE_PY, code.read_bytes(), "firmware/code.py")]
    boot = repo / "firmware" / "boot.py"
    if boot.is_file():
        entries.append(Entry(BOOT_PY, boot.read_bytes(), "firmware/boot.py"))
    for folder, pattern, board_dir in SOURCES:
        base = repo / folder
        for path in sorted(base.glob(pattern)):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            if path.name == "__init__.py" and only_words(path.read_bytes()):
                continue
            relative = path.relative_to(base).as_posix()
            entries.append(Entry(board_dir + "/" + relative, path.read_bytes(), "{}/{}".format(folder, relative)))
    return entries


def only_words(source):
    """True for a package's __init__.py that holds its docstring alone: words for the
    reader. The board finds the package by its folder, and loading the file would keep a
    name and its constants in the heap for as long as the package is imported."""
    body = ast.parse(source).body
    return len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
        and isinstance(body[0].value.value, str)


def python_sources(entries):
    """(origin, text) of every .py entry: what the library scanner reads for imports."""
    return [(e.origin, e.data.decode("utf-8")) for e in entries if e.path.endswith(".py")]


def _constant(path, name):
    """The literal value of a module-level ``name = ...`` in a Python file, or None."""
    for node in ast.parse(path.read_text("utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            try:
                return ast.literal_eval(node.value)
            except ValueError:
                return None
    return None


def available_profiles(repo):
    """{profile name: the board ids it serves}, from each profile's BOARD_IDS (read, not imported)."""
    found = {}
    for path in sorted((Path(repo) / PROFILES_DIR).glob("*.py")):
        if not path.stem.startswith("_"):
            found[path.stem] = tuple(_constant(path, "BOARD_IDS") or ())
    return found


def default_profile(repo):
    """The firmware's own default (DEFAULT in hardware/profiles/__init__.py)."""
    init = Path(repo) / PROFILES_DIR / "__init__.py"
    return _constant(init, "DEFAULT") if init.is_file() else None


def check_profile(name, profiles):
    if name not in profiles:
        raise UsageError(
            "Unknown board profile {!r}. Known profiles (from {}/*.py): {}.\n"
            "Next: pass one of them with --profile.".format(name, PROFILES_DIR, ", ".join(profiles) or "none")
        )


_PROFILE_LINE = re.compile(r'^\s*' + PROFILE_KEY + r'\s*=\s*"([^"]*)"', re.MULTILINE)
_PROFILE_KEY_LINE = re.compile(r'^[ \t]*' + PROFILE_KEY + r'[ \t]*=[^\r\n]*', re.MULTILINE)


def current_profile(settings_text):
    """The profile an existing settings.toml names, or None."""
    match = _PROFILE_LINE.search(settings_text or "")
    return match.group(1) if match else None


# The Hard AI's endgame solver recurses one Python frame per trick: a 1.5 KB default
# Python stack cuts its search short, 4 KB lets it solve whole endgames.
STACK_KEY = "CIRCUITPY_PYSTACK_SIZE"
STACK_LINE = STACK_KEY + " = 4096"
_STACK_KEY_LINE = re.compile(r'^[ \t]*' + STACK_KEY + r'[ \t]*=', re.MULTILINE)


def merge_settings(existing_text, profile):
    """settings.toml text with our keys set and every other line kept as the maker wrote it
    (a stack size the maker chose stays)."""
    line = '{} = "{}"'.format(PROFILE_KEY, profile)
    text = existing_text or ""
    newline = "\r\n" if "\r\n" in text else "\n"
    if _PROFILE_KEY_LINE.search(text):
        text = _PROFILE_KEY_LINE.sub(line, text, count=1)
    else:
        if text and not text.endswith("\n"):
            text += newline
        text += line + newline
    if not _STACK_KEY_LINE.search(text):
        text += STACK_LINE + newline
    return text


def settings_entry(existing, profile):
    """The merged /settings.toml; ``existing`` is the board's current file as bytes (or None)."""
    text = existing.decode("utf-8", "surrogateescape") if existing else ""
    merged = merge_settings(text, profile)
    return Entry(SETTINGS, merged.encode("utf-8", "surrogateescape"), "settings.toml (profile {})".format(profile))


def choose_profile(requested, existing_settings, profiles, board_id=None, default=None):
    """The profile to write to settings.toml, and why.

    In order: --profile; the profile settings.toml already names, unless another profile
    is made for this board id and that one is not; the profile made for the board id
    (``default`` when several are); with no board id, ``default``. ``profiles`` is
    {name: board ids}. An unknown board id with nothing else to go on is an error.
    """
    if requested:
        check_profile(requested, profiles)
        return requested, "--profile"
    text = existing_settings.decode("utf-8", "replace") if existing_settings else ""
    on_board = current_profile(text)
    made_for = [name for name, ids in profiles.items() if board_id in ids]
    if on_board in profiles and (not made_for or on_board in made_for):
        return on_board, "named by the board's settings.toml"
    if made_for:
        chosen = default if default in made_for else made_for[0] if len(made_for) == 1 else None
        if chosen is None:
            raise UnknownBoard(board_id, profiles, made_for)
        return chosen, "made for {}".format(board_id)
    if board_id is None and default in profiles:
        return default, "the default"
    raise UnknownBoard(board_id, profiles)
