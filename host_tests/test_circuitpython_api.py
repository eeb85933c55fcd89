"""Board code must only call what CircuitPython 10 has (see host_tests/cpcheck.py).

The first run builds .venv-cp (pip, about 10 s); later runs reuse it.
"""
import sys
import textwrap
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cpcheck  # noqa: E402


def test_board_code_uses_only_circuitpython_apis():
    found = cpcheck.targets()
    problems = cpcheck.check(found)
    assert problems == [], "CircuitPython 10 lacks these:\n" + "\n".join(problems)


# Each bad line is marked with `# BAD`; the check must flag exactly those lines.
FIXTURES = {
    "bad_random.py": """
        import random

        def deal(cards):
            random.shuffle(cards)  # BAD
            return random.sample(cards, 2)  # BAD
    """,
    "bad_time.py": """
        import time

        def now():
            return time.ticks_ms()  # BAD
    """,
    "bad_display.py": """
        import busdisplay
        import displayio

        def make(spi, pins):
            bus = displayio.FourWire(spi, command=pins[0], chip_select=pins[1])  # BAD
            display = busdisplay.BusDisplay(bus, b"", width=240, height=135)
            display.show(displayio.Group())  # BAD
            return display
    """,
    "bad_builtins.py": """
        def score_line(points):
            width = 3
            text = str(points).rjust(width)  # BAD
            return text, width.bit_length()  # BAD

        def load(path):
            try:
                return open(path).read()
            except FileNotFoundError:  # BAD
                return None
    """,
    "bad_imports.py": """
        import itertools  # BAD
        from functools import partial  # BAD
        from typing import List  # BAD
        import shared_rules_missing_module  # BAD
    """,
    "good.py": """
        import board
        import busdisplay
        import displayio
        import errno
        import fourwire
        import gc
        import json
        import keypad
        import microcontroller
        import os
        import random
        import struct
        import supervisor
        import sys
        import terminalio
        import time
        from adafruit_display_text import label
        from micropython import const

        _WIDTH = const(240)

        def keys():
            k = keypad.Keys((board.GP12, board.GP13), value_when_pressed=False, pull=True)
            event = k.events.get()
            return event.key_number if event else None

        def display(spi):
            bus = fourwire.FourWire(spi, command=board.GP16, chip_select=board.GP17, reset=None)
            d = busdisplay.BusDisplay(bus, b"", width=_WIDTH, height=135, rotation=270)
            group = displayio.Group()
            group.append(label.Label(terminalio.FONT, text="66"))
            d.root_group = group
            return d

        def misc(data):
            gc.collect()
            random.seed(random.getrandbits(16))
            pick = random.choice(data) + random.randrange(10) + random.randint(1, 6)
            start = time.monotonic()
            ticks = supervisor.ticks_ms()
            profile = os.getenv("SIXTYSIX_PROFILE", "pico_display_pack")
            blob = struct.pack("<HH", pick, ticks & 0xFFFF) + json.dumps({"p": profile}).encode()
            nvm = microcontroller.nvm
            if nvm is not None:
                nvm[0:len(blob)] = blob
            try:
                os.stat("/save.bin")
            except OSError as e:
                if e.args[0] == errno.ENOENT:
                    sys.print_exception(e)
            return time.monotonic() - start, gc.mem_free()
    """,
    "defensive.py": """
        try:
            from time import monotonic as clock
        except ImportError:  # the MicroPython VM
            from time import ticks_ms

            def clock():
                return ticks_ms() / 1000

        try:
            from typing import Optional
        except ImportError:
            pass

        try:
            import itertools
        except ImportError:
            itertools = None

        import time

        def stamp():
            return time.monotonic_ns() if hasattr(time, "monotonic_ns") else time.ticks_ms()

        def elapsed(start, now=clock):
            return now() - start
    """,
}


@pytest.fixture(scope="module")
def fixture_results(tmp_path_factory):
    base = tmp_path_factory.mktemp("cpfixtures")
    package = base / "cpfixture"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name, text in FIXTURES.items():
        (package / name).write_text(textwrap.dedent(text).lstrip())
    problems = cpcheck.check([(base, "-p", "cpfixture")])
    return package, problems


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_check_flags_exactly_the_bad_lines(fixture_results, name):
    package, problems = fixture_results
    path = package / name
    expected = [i for i, line in enumerate(path.read_text().splitlines(), 1) if "# BAD" in line]
    flagged = sorted({int(p.split(":")[1]) for p in problems if p.startswith(str(path) + ":")})
    assert flagged == expected, "\n".join(p for p in problems if p.startswith(str(path)))


def test_messages_name_the_missing_api(fixture_results):
    _, problems = fixture_results
    text = "\n".join(problems)
    for word in ('"shuffle"', '"sample"', '"ticks_ms"', '"FourWire"', '"show"', '"rjust"', '"bit_length"',
                 '"FileNotFoundError"', "'itertools'", "'functools'", "'typing'", "shared_rules_missing_module"):
        assert word in text, word


def test_targets_follow_the_board_layout(tmp_path):
    (tmp_path / "shared_rules").mkdir()
    (tmp_path / "shared_rules" / "__init__.py").write_text("import random\nrandom.shuffle([1, 2])\n")
    (tmp_path / "firmware" / "sixtysix").mkdir(parents=True)
    (tmp_path / "firmware" / "code.py").write_text("import sixtysix.app\nimport profiles.pico\n")
    (tmp_path / "firmware" / "sixtysix" / "__init__.py").write_text("")
    (tmp_path / "firmware" / "sixtysix" / "app.py").write_text("import gc\ngc.threshold(4096)\n")
    (tmp_path / "hardware" / "profiles").mkdir(parents=True)
    (tmp_path / "hardware" / "profiles" / "pico.py").write_text(
        "def keys():\n    import board, keypad\n    return keypad.Keys((board.GP12, board.GP99), value_when_pressed=False)\n")
    found = cpcheck.targets(tmp_path)
    assert [(flag, name) for _, flag, name in found] == [
        ("-p", "shared_rules"), ("-m", "code"), ("-p", "sixtysix"), ("-p", "profiles")]
    problems = "\n".join(cpcheck.check(found))
    for word in ('"shuffle"', '"threshold"', '"GP99"'):
        assert word in problems, word
    assert "code.py" not in problems  # sixtysix.app and profiles.pico resolve like /lib on the board


def test_no_board_dirs_means_nothing_to_check(tmp_path):
    assert cpcheck.targets(tmp_path) == []
    assert cpcheck.check([]) == []


def test_profile_pins_are_checked_against_the_board_definition_of_each_board_id(tmp_path):
    """Profiles name pins as strings (getattr(board, name)), which mypy cannot see: the
    check reads each name against the `board` stub of every id in BOARD_IDS."""
    folder = tmp_path / "profiles"
    folder.mkdir()
    (folder / "__init__.py").write_text("PROFILES = ('handheld', 'pack', 'nowhere')\n")
    (folder / "_shared.py").write_text("KEY_PINS = ('NOT_A_PIN',)\n")     # a helper, not a profile
    (folder / "handheld.py").write_text(
        'BOARD_IDS = ("pimoroni_picosystem", "raspberry_pi_pico")\n'
        'KEY_PINS = ("SW_A", "GP13")\n'         # SW_A only on the PicoSystem, GP13 only on the Pico
        'WAKE_PIN = "SW_A"\nBATTERY_PIN = None\nLINK_TX = "TX"\n')
    (folder / "pack.py").write_text(
        'BOARD_IDS = ("raspberry_pi_pico",)\nSPI_CLOCK = "GP18"\nRESET = None\nBATTERY_PIN = "GP29"\n')
    (folder / "nowhere.py").write_text('BOARD_IDS = ("no_such_board",)\nKEY_PINS = ("GP0",)\n')
    cpcheck.ensure_env()
    problems = sorted(p.replace(str(folder) + "/", "") for p in cpcheck.profile_pin_problems(folder))
    assert problems == [
        "handheld.py:1: display(): board raspberry_pi_pico has no pin 'DISPLAY'",
        "handheld.py:2: KEY_PINS: board pimoroni_picosystem has no pin 'GP13'",
        "handheld.py:2: KEY_PINS: board raspberry_pi_pico has no pin 'SW_A'",
        "handheld.py:3: WAKE_PIN: board raspberry_pi_pico has no pin 'SW_A'",
        "handheld.py:5: LINK_TX: board raspberry_pi_pico has no pin 'TX'",
        "nowhere.py:1: no board definition for board id 'no_such_board'",
        "pack.py:4: BATTERY_PIN: board raspberry_pi_pico has no pin 'GP29'",
    ]
