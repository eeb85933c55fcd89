"""tools.deploy's .mpy: the compiler's output made CircuitPython's, the versions that get
it, the compilers it can use, and a module never on the board as both .py and .mpy."""

import ast
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from deploy_fakes import FakeBoard, board_files, install_boot_py, make_drive, make_repo, seed_cache
from tools.deploy import cli, discover, mpy
from tools.deploy.drive import DriveTarget
from tools.deploy.manifest import source_entries
from tools.deploy.rawrepl import RawRepl
from tools.deploy.serialboard import SerialTarget
from tools.deploy.sync import PLACEHOLDER

ROOT = Path(__file__).resolve().parent.parent
HEADER = b"C\x06\x00\x1f"     # CircuitPython, .mpy version 6, bytecode only, 31-bit small ints
MODULES = ("/lib/sixtysix/__init__", "/lib/sixtysix/app", "/lib/sixtysix/screens/menu", "/lib/shared_rules/cards",
           "/lib/shared_rules/rules", "/lib/profiles/__init__", "/lib/profiles/pico_display_pack",
           "/lib/profiles/waveshare_lcd_1in3")
SOURCES = ("/code.py", "/boot.py", "/lib/adafruit_display_text/__init__.py", "/lib/adafruit_display_text/label.py",
           "/lib/adafruit_st7789.py", "/lib/adafruit_ticks.py")


def boot_out(version):
    return "Adafruit CircuitPython {} on 2025-10-17; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n".format(
        version)


@pytest.fixture
def setup(tmp_path):
    return make_repo(tmp_path / "repo"), seed_cache(tmp_path / "cache"), make_drive(tmp_path / "CIRCUITPY")


def run(capsys, setup, *args):
    repo, cache, drive = setup
    code = cli.main(["--source", str(repo), "--lib-cache", str(cache), "--drive", str(drive)] + list(args))
    out, err = capsys.readouterr()
    return code, out, err


def forms(files):
    """{module without its extension: the extensions it has on the board}."""
    found = {}
    for path in files:
        stem, _dot, ext = path.rpartition(".")
        if ext in ("py", "mpy") and path.startswith(("/lib/sixtysix/", "/lib/shared_rules/", "/lib/profiles/")):
            found.setdefault(stem, set()).add(ext)
    return found


def fake_compiler(folder, header=None, log=None):
    """An mpy-cross stand-in: CircuitPython's own (the pinned compiler's bytes with "C"
    first), or, with ``header``, one that writes those four bytes and nothing else."""
    path = Path(folder) / "other-mpy-cross"
    path.write_text(
        "#!{python}\nimport subprocess, sys\nargs = sys.argv[1:]\nout = args[args.index('-o') + 1]\n"
        "if {log!r}:\n    open({log!r}, 'a').write(' '.join(args) + '\\n')\n"
        "if {header!r} is not None:\n    open(out, 'wb').write({header!r})\n    sys.exit(0)\n"
        "done = subprocess.run([{real!r}] + args)\n"
        "if done.returncode:\n    sys.exit(done.returncode)\n"
        "data = open(out, 'rb').read()\nopen(out, 'wb').write(b'C' + data[1:])\n".format(
            python=sys.executable, log=str(log) if log else "", header=header, real=mpy.program()))
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


# ---------------------------------------------------------------- async/await: where the compilers differ

ASYNC = (ast.AsyncFunctionDef, ast.AsyncFor, ast.AsyncWith, ast.Await)


def async_uses(text, filename="<source>"):
    """[(line, construct)] of every async/await in ``text``."""
    found = []
    for node in ast.walk(ast.parse(text, filename)):
        if isinstance(node, ASYNC):
            found.append((node.lineno, type(node).__name__))
        elif isinstance(node, ast.comprehension) and node.is_async:
            found.append((node.iter.lineno, "async comprehension"))
    return sorted(found)


def test_the_board_code_uses_no_async_or_await():
    """CircuitPython's compiler and MicroPython's mpy-cross compile async/await differently,
    so the modules mpy-cross compiles for CircuitPython must not use them."""
    files = sorted(p for folder in ("firmware", "shared_rules", "hardware/profiles") for p in (ROOT / folder).rglob("*.py"))
    assert len(files) > 60
    found = ["{}:{} {}".format(p.relative_to(ROOT), line, what)
             for p in files for line, what in async_uses(p.read_text("utf-8"), str(p))]
    assert found == []


def test_the_async_check_sees_every_form():
    text = ("async def f():\n    await g()\n    async for x in y:\n        pass\n    async with z:\n        pass\n"
            "    return [a async for a in b]\n")
    assert async_uses(text) == [(1, "AsyncFunctionDef"), (2, "Await"), (3, "AsyncFor"), (5, "AsyncWith"),
                                (7, "async comprehension")]


# ---------------------------------------------------------------- the compiler's output

def test_the_board_gets_circuitpythons_header_on_the_compilers_bytes(tmp_path):
    source = b'"""A docstring the board never needs."""\nN = 1 << 40\n\ndef f(x):\n    return x + N\n'
    board = mpy.compile_source(source, "sixtysix/x.py", mpy.program())
    (tmp_path / "sixtysix").mkdir()
    (tmp_path / "sixtysix/x.py").write_bytes(source)
    subprocess.run([mpy.program()] + list(mpy.OPTIONS) + ["-s", "sixtysix.x", "-o", "x.mpy", "sixtysix/x.py"],
                   cwd=tmp_path, check=True)
    raw = (tmp_path / "x.mpy").read_bytes()
    assert raw[:1] == b"M" and board == b"C" + raw[1:]     # MicroPython's compiler: only its first byte differs
    assert board[:4] == HEADER
    assert b"docstring" not in board and b"sixtysix/x.py" not in board
    assert b"sixtysix.x" in board           # its tracebacks name the module, a name the import makes anyway


def test_a_compiled_module_is_named_as_it_is_imported():
    assert [mpy.module_name(n) for n in ("sixtysix/app.py", "sixtysix/__init__.py", "shared_rules/ai/hard.py",
                                         "profiles/ugame22.py")] == \
        ["sixtysix.app", "sixtysix", "shared_rules.ai.hard", "profiles.ugame22"]


def test_which_files_are_compiled(tmp_path):
    entries = source_entries(make_repo(tmp_path / "repo"))
    compiled = sorted(e.path for e in entries if mpy.compiled(e))
    assert compiled == sorted(m + ".py" for m in MODULES)
    assert mpy.source_name("/lib/sixtysix/screens/menu.py") == "sixtysix/screens/menu.py"


# ---------------------------------------------------------------- which CircuitPython gets .mpy

@pytest.mark.parametrize("version, form", [("9.0.0", "mpy"), ("9.2.8", "mpy"), ("10.0.3", "mpy"), ("11.0.0", "py")])
def test_known_versions_get_mpy_and_an_unknown_one_gets_sources_with_the_reason(setup, capsys, version, form):
    (setup[2] / "boot_out.txt").write_text(boot_out(version))
    code, out, err = run(capsys, setup)
    assert (code, err) == (0, "")
    files = board_files(setup[2])
    assert forms(files) == {m: {form} for m in MODULES}
    assert all(path in files for path in SOURCES)                 # code.py, boot.py, libraries: source
    why = [line for line in out.splitlines() if line.startswith("Modules:")]
    if form == "mpy":
        assert all(files[m + ".mpy"][:4] == HEADER for m in MODULES)
        sources = sum(e.size for e in source_entries(setup[0]) if mpy.compiled(e))
        assert why == ["Modules: 8 compiled to .mpy ({:,} B; {:,} B as .py).".format(
            sum(len(files[m + ".mpy"]) for m in MODULES), sources)]
    else:
        assert files["/lib/sixtysix/app.py"] == (setup[0] / "firmware/sixtysix/app.py").read_bytes()
        assert why == ["Modules: 8 as .py sources: this tool does not know which .mpy format CircuitPython 11.0.0 "
                       "loads (it knows 9.x, 10.x)."]


def test_py_ships_sources(setup, capsys):
    code, out, _ = run(capsys, setup, "--py")
    assert code == 0 and "Modules: 8 as .py sources (--py)." in out
    assert forms(board_files(setup[2])) == {m: {"py"} for m in MODULES}


def test_another_compiler_is_used_when_given(setup, capsys, tmp_path):
    log = tmp_path / "calls.log"
    code, _out, _err = run(capsys, setup, "--mpy-cross", str(fake_compiler(tmp_path, log=log)))
    assert code == 0
    calls = log.read_text().splitlines()
    assert len(calls) == len(MODULES) and all("-msmall-int-bits=31" in call for call in calls)
    with_other = board_files(setup[2])
    (setup[2] / "lib").rename(tmp_path / "other-lib")
    assert run(capsys, setup)[0] == 0                      # the pinned compiler: the very same bytes
    assert board_files(setup[2]) == with_other


# ---------------------------------------------------------------- bad input: a clear error, nothing lost

def test_a_module_that_does_not_compile_stops_the_deploy_before_the_board_is_touched(setup, capsys):
    assert run(capsys, setup)[0] == 0
    before = board_files(setup[2])
    (setup[0] / "firmware/sixtysix/app.py").write_text("TITLE = 'Sixty-Six'\nx = = 1\n")
    code, out, err = run(capsys, setup)
    assert code == 12 and out == ""
    assert "firmware/sixtysix/app.py does not compile, so nothing was copied" in err
    assert 'File "sixtysix/app.py", line 2' in err and "SyntaxError" in err and "Next:" in err
    assert board_files(setup[2]) == before
    code, out, err = run(capsys, setup, "--py")             # found by the deploy's own import scan
    assert code == 12 and out == "" and "firmware/sixtysix/app.py does not compile" in err
    assert board_files(setup[2]) == before


@pytest.mark.parametrize("trouble", ["missing", "not installed", "wrong format", "fails"])
def test_compiler_trouble_is_a_clear_error_and_changes_nothing(setup, capsys, monkeypatch, tmp_path, trouble):
    args = []
    if trouble == "missing":
        args = ["--mpy-cross", str(tmp_path / "no-such-mpy-cross")]
    elif trouble == "not installed":
        monkeypatch.setattr(mpy, "pinned_compiler", lambda: None)
    elif trouble == "wrong format":
        args = ["--mpy-cross", str(fake_compiler(tmp_path, header=b"C\x05\x00\x1f"))]   # CircuitPython 8's
    else:
        failing = tmp_path / "failing"
        failing.write_text("#!/bin/sh\nexit 3\n")
        failing.chmod(0o755)
        args = ["--mpy-cross", str(failing)]
    code, out, err = run(capsys, setup, *args)
    assert code == 12 and out == "" and "nothing was copied" in err and "Next:" in err and "--py" in err
    assert board_files(setup[2]) == {}
    expected = {"missing": "no such program", "not installed": "requirements-dev.txt",
                "wrong format": "header 43 05 00 1f", "fails": "exit code 3"}[trouble]
    assert expected in err


def test_an_unreadable_boot_out_is_a_clear_error(setup, capsys, monkeypatch):
    real = Path.read_text

    def unreadable(self, *args, **kwargs):
        if self.name == "boot_out.txt":
            raise PermissionError(13, "Permission denied")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", unreadable)
    code, _out, err = run(capsys, setup)
    assert code == 5 and "its boot_out.txt cannot be read: Permission denied" in err and "Next:" in err
    assert board_files(setup[2]) == {}


# ---------------------------------------------------------------- never both: the twin goes

def test_switching_form_removes_the_twin_before_anything_is_written(setup, capsys, monkeypatch):
    """From .py to .mpy and back: every twin is removed, and no write happens while a
    module has both forms on the board."""
    real_write = DriveTarget.write_file

    def write_file(self, path, data):
        assert all(len(exts) == 1 for exts in forms(board_files(setup[2])).values()), path
        real_write(self, path, data)

    monkeypatch.setattr(DriveTarget, "write_file", write_file)
    for args, form in ((["--py"], "py"), ([], "mpy"), (["--py"], "py")):
        code, out, _ = run(capsys, setup, *args)
        assert code == 0 and forms(board_files(setup[2])) == {m: {form} for m in MODULES}
    assert "removed  /lib/sixtysix/app.mpy" in out and "8 removed" in out


def test_a_stray_twin_left_on_the_board_is_removed(setup, capsys):
    assert run(capsys, setup)[0] == 0
    (setup[2] / "lib/sixtysix/app.py").write_text("print('an old copy, which would win')\n")
    code, out, _ = run(capsys, setup)
    assert code == 0 and "removed  /lib/sixtysix/app.py" in out
    assert forms(board_files(setup[2]))["/lib/sixtysix/app"] == {"mpy"}


def test_dry_run_lists_the_twins_and_changes_nothing(setup, capsys):
    assert run(capsys, setup, "--py")[0] == 0
    before = board_files(setup[2])
    code, out, _ = run(capsys, setup, "--dry-run")
    assert code == 0 and board_files(setup[2]) == before
    for module in MODULES:
        assert "would remove {}.py".format(module) in out and "would write  {}.mpy".format(module) in out
    assert "Dry run: 8 to write" in out and "8 to remove" in out
    assert "(firmware/sixtysix/app.py, compiled)" in out


def test_an_interrupted_switch_boots_the_placeholder_then_resumes(setup, capsys, monkeypatch):
    assert run(capsys, setup, "--py")[0] == 0
    real_write = DriveTarget.write_file

    def cut(self, path, data):
        if path == "/lib/shared_rules/cards.mpy":
            raise OSError(5, "Input/output error")
        real_write(self, path, data)

    monkeypatch.setattr(DriveTarget, "write_file", cut)
    code, _out, err = run(capsys, setup)
    assert code == 8 and "Copying /lib/shared_rules/cards.mpy failed" in err
    assert board_files(setup[2])["/code.py"] == PLACEHOLDER.data
    assert all(len(exts) == 1 for exts in forms(board_files(setup[2])).values())
    monkeypatch.setattr(DriveTarget, "write_file", real_write)
    code, out, _ = run(capsys, setup)
    assert code == 0 and "removed  /" not in out                    # the twins went the first time
    files = board_files(setup[2])
    assert forms(files) == {m: {"mpy"} for m in MODULES}
    assert files["/code.py"] == (setup[0] / "firmware/code.py").read_bytes()


# ---------------------------------------------------------------- over serial

@pytest.fixture
def quick_link(monkeypatch):
    monkeypatch.setattr(RawRepl, "QUIET", 0.03)
    monkeypatch.setattr(RawRepl, "PLAIN_PAUSE", 0)
    monkeypatch.setattr(SerialTarget, "RESET_PAUSE", 0.02)
    monkeypatch.setattr(discover, "mount_points", lambda: [])


def test_serial_deploy_writes_and_checks_mpy_and_removes_the_twins(tmp_path, capsys, quick_link):
    repo, cache, root = make_repo(tmp_path / "repo"), seed_cache(tmp_path / "cache"), install_boot_py(tmp_path / "b")

    def deploy(*args):
        code = cli.main(["--source", str(repo), "--lib-cache", str(cache), "--port", board.port] + list(args))
        return code, capsys.readouterr().out

    with FakeBoard(root, version=(9, 2, 8)) as board:
        code, _out = deploy("--py")
    assert code == 0 and forms(board_files(root)) == {m: {"py"} for m in MODULES}
    with FakeBoard(root, version=(9, 2, 8)) as board:
        code, out = deploy()
        writes = "".join(c for c in board.executed if "_f.write(" in c)
    files = board_files(root)
    assert code == 0 and forms(files) == {m: {"mpy"} for m in MODULES}
    assert all(files[m + ".mpy"][:4] == HEADER for m in MODULES) and "8 removed" in out
    assert "_a(b'" in writes                                     # binary sent as base64 where shorter
    with FakeBoard(root, version=(9, 2, 8)) as board:
        code, out = deploy()
    assert code == 0 and "Nothing to copy" in out
    os.remove(root / "lib/sixtysix/app.mpy")
    with FakeBoard(root, version=(9, 2, 8), corrupt={"/lib/sixtysix/app.mpy"}) as board:
        code, out = deploy()
    assert code == 9 and "retry    /lib/sixtysix/app.mpy (content differs (checksum))" in out
    assert board_files(root)["/code.py"] == PLACEHOLDER.data
