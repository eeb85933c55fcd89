"""Board profiles: constants, the calls display()/keys() make, vendor pinouts, BUILD.md.

display() and keys() run against fake board/busio/fourwire/... modules that record
every call (the venv's Blinka provides real ones; the fakes replace them in
sys.modules for each test). The orientation test runs the real Blinka displayio with the
profiles' ST7789 start-up against a recording bus and checks where pixels land in the
panel RAM.
"""
import importlib
import importlib.abc
import re
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HARDWARE = ROOT / "hardware"
BUILD_MD = HARDWARE / "BUILD.md"
SPI_PROFILES = ("pico_display_pack", "waveshare_lcd_1in3", "loose_st7789")   # we build the display
BUILTIN_PROFILES = ("pajenicko_picopad", "pimoroni_picosystem", "ugame22",     # board.DISPLAY
                    "lilygo_t_display_rp2040")
PROFILE_NAMES = SPI_PROFILES + BUILTIN_PROFILES
ROLES = {"left", "right", "up", "down", "ok", "menu"}
HARDWARE_MODULES = ("board", "busio", "fourwire", "busdisplay", "keypad", "pwmio",
                    "digitalio", "displayio", "microcontroller")
# Names the handhelds' board modules give their pins (CircuitPython board definitions).
BOARD_NAMES = ("SW_A", "SW_B", "SW_X", "SW_Y", "SW_UP", "SW_DOWN", "SW_LEFT", "SW_RIGHT", "BAT_SENSE",
               "AUDIO", "TX", "RX", "VOLTAGE_MONITOR", "BUTTON_L", "BUTTON_R", "BUTTON_X", "BUTTON_O",
               "BUTTON_Z", "BUTTON_UP", "BUTTON_DOWN", "BUTTON_LEFT", "BUTTON_RIGHT")

# Raspberry Pi Pico header: physical pin -> name (as on Pimoroni's pack schematics).
PICO_PINS = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND",
    9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11",
    16: "GP12", 17: "GP13", 18: "GND", 19: "GP14", 20: "GP15", 21: "GP16", 22: "GP17",
    23: "GND", 24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21", 28: "GND", 29: "GP22",
    30: "RUN", 31: "GP26", 32: "GP27", 33: "GND", 34: "GP28", 35: "ADC_VREF",
    36: "3V3(OUT)", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}

# The PicoPad's and the PicoSystem's board modules name the same buttons, battery and speaker.
SW_PAD = {
    "battery": ("BAT_SENSE", 3), "sound": "AUDIO",
    "keys": {"A": "SW_A", "B": "SW_B", "X": "SW_X", "Y": "SW_Y", "UP": "SW_UP",
             "DOWN": "SW_DOWN", "LEFT": "SW_LEFT", "RIGHT": "SW_RIGHT"},
    "roles": {"A": "ok", "B": "menu", "X": "ok", "Y": "menu", "UP": "up",
              "DOWN": "down", "LEFT": "left", "RIGHT": "right"},
}

# What the vendors document (see each profile's docstring for the sources).
VENDOR = {
    "pico_display_pack": {
        "clock": "GP18", "mosi": "GP19", "cs": "GP17", "dc": "GP16", "reset": None,
        "backlight": "GP20", "size": (240, 135), "rotation": 270,
        "rowstart": 40, "colstart": 53,
        "keys": {"A": "GP12", "B": "GP13", "X": "GP14", "Y": "GP15"},
        "roles": {"A": "menu", "B": "left", "X": "ok", "Y": "right"},
    },
    "waveshare_lcd_1in3": {
        "clock": "GP10", "mosi": "GP11", "cs": "GP9", "dc": "GP8", "reset": "GP12",
        "backlight": "GP13", "size": (240, 240), "rotation": 270,
        "rowstart": 80, "colstart": 0,
        "keys": {"A": "GP15", "B": "GP17", "X": "GP19", "Y": "GP21", "UP": "GP2",
                 "DOWN": "GP18", "LEFT": "GP16", "RIGHT": "GP20", "PRESS": "GP3"},
        "roles": {"A": "ok", "B": "menu", "X": "ok", "Y": "menu", "UP": "up",
                  "DOWN": "down", "LEFT": "left", "RIGHT": "right", "PRESS": "ok"},
    },
    # CircuitPython's board definition (pins.c): SW_A GP7, SW_B GP6, SW_X GP9, SW_Y GP8,
    # SW_UP GP4, SW_DOWN GP5, SW_LEFT GP3, SW_RIGHT GP2, BAT_SENSE GP29 (it names no GP29),
    # AUDIO GP15; the profile uses the board names
    "pajenicko_picopad": dict(SW_PAD, size=(320, 240)),
    # board definition pimoroni_picosystem: SW_A GP18, SW_B GP19, SW_X GP17, SW_Y GP16, SW_UP GP23,
    # SW_DOWN GP20, SW_LEFT GP22, SW_RIGHT GP21, AUDIO GP11 (piezo), BAT_SENSE GP26 (3:1, Pimoroni's
    # hardware.cpp); it names no GPn pins
    "pimoroni_picosystem": dict(SW_PAD, size=(240, 240)),
    # board definition ugame22: BUTTON_O GP8, BUTTON_X GP6, BUTTON_Z GP0, BUTTON_UP GP10,
    # BUTTON_DOWN GP7, BUTTON_LEFT GP11, BUTTON_RIGHT GP9; no battery sense, I2S audio
    "ugame22": {
        "size": (320, 240),
        "battery": (None, None), "sound": None,
        "keys": {"O": "BUTTON_O", "X": "BUTTON_X", "Z": "BUTTON_Z", "UP": "BUTTON_UP",
                 "DOWN": "BUTTON_DOWN", "LEFT": "BUTTON_LEFT", "RIGHT": "BUTTON_RIGHT"},
        "roles": {"O": "ok", "X": "menu", "Z": "menu", "UP": "up", "DOWN": "down",
                  "LEFT": "left", "RIGHT": "right"},
    },
    # board definition lilygo_t_display_rp2040: BUTTON_L GP6, BUTTON_R GP7, VOLTAGE_MONITOR GP26
    # (its divider is not confirmed: the profile says why it takes 2)
    "lilygo_t_display_rp2040": {
        "size": (240, 135),
        "battery": ("VOLTAGE_MONITOR", 2), "sound": None,
        "keys": {"L": "BUTTON_L", "R": "BUTTON_R"},
        "roles": {"L": "right", "R": "ok"},
        "holds": {"L": "menu", "R": "menu"},
    },
}

# Where the vendor's own landscape driver puts the picture: MADCTL MX|MV with the
# column window starting at x0 and the row window at y0 (RAM rows = x + x0,
# RAM columns = 239 - (y + y0)), and the glass area in RAM (columns, rows).
VENDOR_LANDSCAPE = {
    # Pimoroni drivers/st7789/st7789.cpp: caset 40.., raset 53.., MADCTL COL_ORDER|SWAP_XY
    "pico_display_pack": {"x0": 40, "y0": 53, "glass": ((52, 186), (40, 279))},
    # Waveshare Pico-LCD-1.3.py: MADCTL 0x70, caset 0..239, raset 0..239
    "waveshare_lcd_1in3": {"x0": 0, "y0": 0, "glass": ((0, 239), (0, 239))},
    # Same 135x240 panel as the Display Pack
    "loose_st7789": {"x0": 40, "y0": 53, "glass": ((52, 186), (40, 279))},
}


# ---------------------------------------------------------------- fakes

class Pin:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board." + self.name


def _fake_modules(calls):
    """Fake CircuitPython hardware modules; each call appends (name, args, kwargs, instance)."""

    def recorder(qualname):
        class Fake:
            def __init__(self, *args, **kwargs):
                self.args = args
                self.kwargs = kwargs
                calls.append((qualname, args, kwargs, self))
        Fake.__name__ = qualname.rsplit(".", 1)[-1]
        return Fake

    mods = {name: types.ModuleType(name) for name in HARDWARE_MODULES}
    for n in list(range(23)) + [25, 26, 27, 28]:
        setattr(mods["board"], "GP%d" % n, Pin("GP%d" % n))
    for name in BOARD_NAMES:
        setattr(mods["board"], name, Pin(name))
    mods["board"].DISPLAY = types.SimpleNamespace(brightness=1.0)    # built by the firmware
    mods["busio"].SPI = recorder("busio.SPI")
    mods["busio"].UART = recorder("busio.UART")
    mods["fourwire"].FourWire = recorder("fourwire.FourWire")
    mods["busdisplay"].BusDisplay = recorder("busdisplay.BusDisplay")
    mods["keypad"].Keys = recorder("keypad.Keys")
    mods["pwmio"].PWMOut = recorder("pwmio.PWMOut")
    mods["digitalio"].DigitalInOut = recorder("digitalio.DigitalInOut")
    mods["displayio"].release_displays = lambda: calls.append(("displayio.release_displays", (), {}, None))
    return mods


def _pin_names(value):
    return value.name if isinstance(value, Pin) else value


@pytest.fixture
def profiles(monkeypatch):
    """import profiles.<name> fresh from hardware/; earlier imports are restored afterwards."""
    monkeypatch.syspath_prepend(str(HARDWARE))
    for key in [k for k in sys.modules if k == "profiles" or k.startswith("profiles.")]:
        monkeypatch.delitem(sys.modules, key)

    def load(name):
        return importlib.import_module("profiles." + name)

    yield load
    for key in [k for k in sys.modules if k == "profiles" or k.startswith("profiles.")]:
        del sys.modules[key]


@pytest.fixture
def hardware(monkeypatch):
    """Fake hardware modules in sys.modules; returns the list of recorded calls."""
    calls = []
    for name, module in _fake_modules(calls).items():
        monkeypatch.setitem(sys.modules, name, module)
    return calls


def _called(calls, qualname):
    """(args, kwargs, instance) of the one call to qualname."""
    found = [call[1:] for call in calls if call[0] == qualname]
    assert len(found) == 1, "%s called %d times: %r" % (qualname, len(found), calls)
    return found[0]


# ---------------------------------------------------------------- the package

def test_profiles_tuple_lists_every_profile_module(profiles):
    module = profiles("pico_display_pack")
    pkg = sys.modules["profiles"]
    files = sorted(p.stem for p in (HARDWARE / "profiles").glob("*.py") if not p.stem.startswith("_"))
    assert sorted(pkg.PROFILES) == files
    assert sorted(pkg.PROFILES) == sorted(PROFILE_NAMES)
    assert pkg.DEFAULT in pkg.PROFILES
    assert module is pkg.load("pico_display_pack")


def test_load_returns_the_module_and_names_the_choices_when_unknown(profiles):
    profiles("loose_st7789")
    pkg = sys.modules["profiles"]
    assert pkg.load("waveshare_lcd_1in3").NAME == "Waveshare Pico-LCD-1.3"
    assert pkg.load(None) is pkg.load(pkg.DEFAULT)
    assert pkg.load("") is pkg.load(pkg.DEFAULT)
    with pytest.raises(ValueError) as err:
        pkg.load("pico_dispaly_pack")
    for name in PROFILE_NAMES:
        assert name in str(err.value)


# ---------------------------------------------------------------- constants

@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_constants(profiles, name):
    p = profiles(name)
    assert isinstance(p.NAME, str) and p.NAME
    assert isinstance(p.WIDTH, int) and p.WIDTH > 0
    assert isinstance(p.HEIGHT, int) and p.HEIGHT > 0
    assert isinstance(p.BUTTONS, tuple) and set(p.BUTTONS) <= ROLES
    assert {"ok", "right"} <= set(p.BUTTONS)
    assert isinstance(p.LABELS, tuple) and len(p.LABELS) == len(p.BUTTONS)
    assert all(isinstance(label, str) and label for label in p.LABELS)
    assert len(set(p.LABELS)) == len(p.LABELS)
    assert len(p.KEY_PINS) == len(p.BUTTONS)
    assert p.HOLDS is None or (len(p.HOLDS) == len(p.BUTTONS) and set(p.HOLDS) - {None} <= ROLES)
    assert {"ok", "right", "menu"} <= set(p.BUTTONS) | set(p.HOLDS or ())    # every action in reach
    assert (p.LINK_TX is None) == (p.LINK_RX is None)
    assert p.SOUND_PIN is None or isinstance(p.SOUND_PIN, str)
    if name in SPI_PROFILES:
        assert p.ROTATION in (0, 90, 180, 270)


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_importing_a_profile_touches_no_hardware(profiles, monkeypatch, name):
    class Refuse(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path, target=None):
            if fullname.split(".")[0] in HARDWARE_MODULES:
                raise ImportError("profile imported %s at import time" % fullname)
            return None

    for module in HARDWARE_MODULES:
        monkeypatch.delitem(sys.modules, module, raising=False)
    monkeypatch.setattr(sys, "meta_path", [Refuse()] + sys.meta_path)
    p = profiles(name)
    assert p.WIDTH and p.BUTTONS
    assert not [m for m in HARDWARE_MODULES if m in sys.modules]


# ---------------------------------------------------------------- keys()

@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_keys_pins_follow_buttons_active_low_with_pull(profiles, hardware, name):
    p = profiles(name)
    keys = p.keys()
    args, kwargs, instance = _called(hardware, "keypad.Keys")
    assert keys is instance
    assert tuple(_pin_names(pin) for pin in args[0]) == p.KEY_PINS
    assert kwargs == {"value_when_pressed": False, "pull": True}


@pytest.mark.parametrize("name", sorted(VENDOR))
def test_keys_match_the_vendor_pinout_and_chosen_roles(profiles, hardware, name):
    p = profiles(name)
    p.keys()
    args, _, _ = _called(hardware, "keypad.Keys")
    by_label = {label: _pin_names(pin) for label, pin in zip(p.LABELS, args[0])}
    assert by_label == VENDOR[name]["keys"]
    assert dict(zip(p.LABELS, p.BUTTONS)) == VENDOR[name]["roles"]
    assert dict(zip(p.LABELS, p.HOLDS or (None,) * len(p.LABELS))) == \
        VENDOR[name].get("holds", dict.fromkeys(p.LABELS))


def test_waveshare_hints_name_a_and_b_first(profiles):
    p = profiles("waveshare_lcd_1in3")
    assert p.LABELS[p.BUTTONS.index("ok")] == "A"
    assert p.LABELS[p.BUTTONS.index("menu")] == "B"


# ---------------------------------------------------------------- display()

def _expected(name):
    if name in VENDOR:
        return VENDOR[name]
    rows = build_table()
    module = {label: gpio for gpio, kind, label in rows if kind == "module"}
    p = sys.modules["profiles." + name]
    return {"clock": module["SCL"], "mosi": module["SDA"], "cs": module["CS"],
            "dc": module["DC"], "reset": module["RES"], "backlight": module["BLK"],
            "size": (p.WIDTH, p.HEIGHT), "rotation": p.ROTATION,
            "rowstart": p.ROWSTART, "colstart": p.COLSTART}


@pytest.mark.parametrize("name", SPI_PROFILES)
def test_display_builds_bus_and_driver_with_documented_pins(profiles, hardware, name):
    p = profiles(name)
    want = _expected(name)
    result = p.display()
    _, spi, spi_instance = _called(hardware, "busio.SPI")
    bus_args, bus, bus_instance = _called(hardware, "fourwire.FourWire")
    st_args, st, st_instance = _called(hardware, "busdisplay.BusDisplay")

    assert hardware[0][0] == "displayio.release_displays"
    assert {k: _pin_names(v) for k, v in spi.items()} == {"clock": want["clock"], "MOSI": want["mosi"]}
    assert _pin_names(bus["command"]) == want["dc"]
    assert _pin_names(bus["chip_select"]) == want["cs"]
    assert _pin_names(bus.get("reset")) == want["reset"]
    assert 1000000 <= bus["baudrate"] <= 62500000
    assert bus_args == (spi_instance,)
    assert st_args == (bus_instance, sys.modules["profiles._st7789"].INIT)
    assert (st["width"], st["height"]) == want["size"] == (p.WIDTH, p.HEIGHT)
    assert st["rotation"] == want["rotation"]
    assert (st["rowstart"], st["colstart"]) == (want["rowstart"], want["colstart"])
    assert _pin_names(st["backlight_pin"]) == want["backlight"]
    assert st["brightness"] == 1.0
    assert result is st_instance


@pytest.mark.parametrize("name", SPI_PROFILES)
def test_display_passes_the_brightness(profiles, hardware, name):
    p = profiles(name)
    p.display(brightness=0.25)
    _, st, _ = _called(hardware, "busdisplay.BusDisplay")
    assert st["brightness"] == 0.25 and st["auto_refresh"] is False


@pytest.mark.parametrize("name", SPI_PROFILES)
def test_no_pin_is_used_twice(profiles, hardware, name):
    p = profiles(name)
    p.display()
    p.keys()
    p.link()
    used = []
    for _, args, kwargs, _ in hardware:
        for value in list(args) + list(kwargs.values()):
            values = value if isinstance(value, tuple) else (value,)
            used.extend(v.name for v in values if isinstance(v, Pin))
    assert len(used) == len(set(used)), used
    assert len(used) == len(p.KEY_PINS) + 4 + (p.RESET is not None) + (p.CHIP_SELECT is not None) + 2


@pytest.mark.parametrize("name", SPI_PROFILES)
def test_spi_pins_are_one_hardware_spi_block(profiles, name):
    """RP2040: SCK is GPIO 4k+2, TX (MOSI) 4k+3; GPIO 0-7 and 16-23 are SPI0, 8-15 and 24-29 SPI1."""
    p = profiles(name)
    sck, tx = int(p.SPI_CLOCK[2:]), int(p.SPI_MOSI[2:])
    assert sck % 4 == 2 and tx % 4 == 3
    assert (sck // 8) % 2 == (tx // 8) % 2


@pytest.mark.parametrize("name", BUILTIN_PROFILES)
def test_a_board_with_its_own_screen_hands_out_board_display(profiles, hardware, name):
    """The firmware set the screen up: display() returns board.DISPLAY with the asked
    brightness and builds no bus, driver or second display."""
    import board
    p = profiles(name)
    screen = p.display(brightness=0.25)
    assert screen is board.DISPLAY and screen.brightness == 0.25
    assert screen.auto_refresh is False         # as the profiles that build theirs: the splash first
    assert (p.WIDTH, p.HEIGHT) == VENDOR[name]["size"]
    assert hardware == [], hardware
    p.keys()
    args, _, _ = _called(hardware, "keypad.Keys")
    assert len(set(pin.name for pin in args[0])) == len(p.KEY_PINS)


def test_a_board_without_a_backlight_keeps_its_screen_lit(profiles, hardware, monkeypatch):
    """The uGame 22's panel has no backlight pin: CircuitPython refuses a brightness (a
    RuntimeError), and display() still hands the screen out."""
    import board

    class NoBacklight:
        auto_refresh = True

        @property
        def brightness(self):
            return 1.0

        @brightness.setter
        def brightness(self, value):
            raise RuntimeError("Brightness not adjustable")

    monkeypatch.setattr(board, "DISPLAY", NoBacklight())
    p = profiles("ugame22")
    screen = p.display(brightness=0.5)
    assert screen is board.DISPLAY and screen.auto_refresh is False


# ---------------------------------------------------------------- sound()

@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_sound_is_pwm_on_the_speaker_pin_or_nothing_at_all(profiles, hardware, name):
    p = profiles(name)
    out = sys.modules["profiles"].sound(p)
    assert p.SOUND_PIN == VENDOR.get(name, {}).get("sound")
    if p.SOUND_PIN is None:
        assert out is None and hardware == []
        assert "profiles._sound" not in sys.modules         # no sound code on such a board
        return
    args, kwargs, pwm = _called(hardware, "pwmio.PWMOut")
    assert _pin_names(args[0]) == p.SOUND_PIN
    assert kwargs["variable_frequency"] is True and kwargs["duty_cycle"] == 0
    pwm.frequency, pwm.duty_cycle = kwargs["frequency"], 0
    out.tone(1760)
    assert pwm.frequency == 1760 and 0 < pwm.duty_cycle <= 0x1000      # a quiet pulse
    out.off()
    assert pwm.duty_cycle == 0


# ---------------------------------------------------------------- link()

# Every GPIO the board or its add-on itself occupies (the profiles' docstrings give the
# sources; the loose module's wiring is BUILD.md's table): the link cable must use none.
OCCUPIED = {
    "pico_display_pack": {6, 7, 8} | set(range(12, 22)),
    "waveshare_lcd_1in3": {2, 3} | set(range(8, 14)) | set(range(15, 22)),
    "loose_st7789": set(range(12, 22)),
    # keys GP2-9, SD card GP10-13, D1 GP14, speaker GP15, LCD GP16-21, LED GP22, D0 GP26
    "pajenicko_picopad": set(range(2, 23)) | {26},
    # VBUS_DETECT 2, LCD 4-9, AUDIO 11, BACKLIGHT 12, LED 13-15, keys 16-23, CHARGE_STAT 24, BAT_SENSE 26
    "pimoroni_picosystem": {2} | set(range(4, 10)) | set(range(11, 25)) | {26},
    # LCD 0-5, buttons 6-7, TFT_POWER 22, LED 25, VOLTAGE_MONITOR 26
    "lilygo_t_display_rp2040": set(range(0, 8)) | {22, 25, 26},
    # BUTTON_Z 0, TFT 1-5, buttons 6-11, GAIN and I2S 22-25
    "ugame22": set(range(0, 12)) | set(range(22, 26)),
}
PICO_BASED = ("pico_display_pack", "waveshare_lcd_1in3", "loose_st7789")


@pytest.fixture(scope="module")
def gpio_of():
    """{board id: {pin name: GPIO number}} from CircuitPython's board definitions (the
    stubs of the CircuitPython API check, host_tests/cpcheck.py)."""
    sys.path.insert(0, str(ROOT / "host_tests"))
    import cpcheck
    cpcheck.ensure_env()
    return cpcheck.board_pins


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_link_pins_are_one_hardware_uart_and_free_on_that_board(profiles, gpio_of, name):
    """RP2040: UART TX is GPIO 4k, RX 4k+1 (GP0/1, 12/13, 16/17 UART0; GP4/5, 8/9, 20/21 UART1).
    A board where no such pair is free has no link: LINK_TX and LINK_RX are None."""
    p = profiles(name)
    pins = gpio_of(p.BOARD_IDS[0])
    free = {n for n in pins.values() if n is not None} - OCCUPIED[name]
    if p.LINK_TX is None:
        assert not [tx for tx in free if tx % 4 == 0 and tx + 1 in free]
        assert p.link() is None
        return
    tx, rx = pins[p.LINK_TX], pins[p.LINK_RX]
    assert tx % 4 == 0 and rx == tx + 1
    assert {tx, rx} <= free
    assert not {tx, rx} & {pins[k] for k in p.KEY_PINS}
    if name in PICO_BASED:
        assert [n for n, gpio in PICO_PINS.items() if gpio in (p.LINK_TX, p.LINK_RX)] == [1, 2]
        assert PICO_PINS[3] == "GND"                  # the cable's third wire sits next to them


@pytest.mark.parametrize("name", [n for n in PROFILE_NAMES if n != "ugame22"])
def test_link_is_a_uart_whose_reads_never_wait(profiles, hardware, name):
    p = profiles(name)
    result = p.link()
    args, kwargs, instance = _called(hardware, "busio.UART")
    assert result is instance
    assert tuple(_pin_names(a) for a in args) == (p.LINK_TX, p.LINK_RX)
    assert kwargs["timeout"] == 0 and kwargs["baudrate"] == 115200
    assert kwargs["receiver_buffer_size"] >= 512


# ---------------------------------------------------------------- orientation

class _RecordingBus:
    """Stands in for fourwire.FourWire under Blinka's displayio and keeps what is sent."""

    def __init__(self):
        self.sent = []

    def reset(self):
        pass

    def _free(self):
        return True

    def _begin_transaction(self):
        return False  # Blinka's BusDisplay init loops while this is true

    def _end_transaction(self):
        pass

    def _send(self, data_type, chip_select, data):
        self.sent.append((data_type, bytes(data)))


def _ram_writes(sent):
    """[(madctl or None, caset, raset, pixels)] from a command log; pixels as 16-bit words."""
    out, command, window = [], None, {}
    for data_type, data in sent:
        if data_type == 0:
            command = data[0]
            continue
        if command == 0x2A:
            window["x"] = (data[0] << 8 | data[1], data[2] << 8 | data[3])
        elif command == 0x2B:
            window["y"] = (data[0] << 8 | data[1], data[2] << 8 | data[3])
        elif command == 0x2C:
            words = [data[i] << 8 | data[i + 1] for i in range(0, len(data), 2)]
            out.append((window["x"], window["y"], words))
        elif command == 0x36:
            window["madctl"] = data[0]
    return out, window.get("madctl")


@pytest.mark.parametrize("name", SPI_PROFILES)
def test_rotation_and_offsets_match_the_vendor_landscape(profiles, monkeypatch, name):
    p = profiles(name)
    displayio = pytest.importorskip("displayio")
    fourwire = pytest.importorskip("fourwire")
    busdisplay = pytest.importorskip("busdisplay")
    monkeypatch.setattr(busdisplay.time, "sleep", lambda seconds: None)
    init = sys.modules["profiles._st7789"].INIT

    bus = _RecordingBus()
    bus.__class__ = type("RecordingFourWire", (_RecordingBus, fourwire.FourWire), {})
    displayio.release_displays()
    try:
        display = busdisplay.BusDisplay(bus, init, width=p.WIDTH, height=p.HEIGHT, rotation=p.ROTATION,
                                        rowstart=p.ROWSTART, colstart=p.COLSTART, auto_refresh=False)
        _, madctl = _ram_writes(bus.sent)
        assert madctl == 0xC0  # MY|MX: RAM column = 239 - x, RAM row = 319 - y
        corners = {(0, 0): 1, (p.WIDTH - 1, 0): 2, (0, p.HEIGHT - 1): 3, (p.WIDTH - 1, p.HEIGHT - 1): 4}
        bitmap = displayio.Bitmap(p.WIDTH, p.HEIGHT, 5)
        palette = displayio.Palette(5)
        for i, colour in enumerate((0x000000, 0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF)):
            palette[i] = colour
        for (x, y), index in corners.items():
            bitmap[x, y] = index
        group = displayio.Group()
        group.append(displayio.TileGrid(bitmap, pixel_shader=palette))
        display.root_group = group
        bus.sent.clear()
        display.refresh()
    finally:
        displayio.release_displays()

    writes, _ = _ram_writes(bus.sent)
    assert writes
    ref = VENDOR_LANDSCAPE[name]
    (gc0, gc1), (gr0, gr1) = ref["glass"]
    found = {}
    for (x0, x1), (y0, y1), words in writes:
        assert gc0 <= 239 - x1 and 239 - x0 <= gc1, "columns outside the glass"
        assert gr0 <= 319 - y1 and 319 - y0 <= gr1, "rows outside the glass"
        width = x1 - x0 + 1
        for i, word in enumerate(words):
            if word:
                found[word] = (239 - (x0 + i % width), 319 - (y0 + i // width))
    colours = {1: 0xF800, 2: 0x07E0, 3: 0x001F, 4: 0xFFFF}
    for (x, y), index in corners.items():
        vendor_ram = (239 - (y + ref["y0"]), x + ref["x0"])  # (column, row) under MX|MV
        assert found[colours[index]] == vendor_ram, (x, y)


def _sequence(init):
    """{command: its last arguments}, total delay in ms, from displayio init bytes."""
    commands, delay, i = {}, 0, 0
    while i < len(init):
        cmd, n = init[i], init[i + 1]
        args = init[i + 2:i + 2 + (n & 0x7F)]
        i += 2 + (n & 0x7F)
        commands[cmd] = args
        if n & 0x80:
            delay += 500 if init[i] == 0xFF else init[i]
            i += 1
    return commands, delay


def test_the_panel_starts_as_adafruit_st7789_starts_it_without_its_waits(profiles):
    """The same commands and final settings as the library's ST7789 (BGR, inverted), in
    a fraction of its 1.17 s of delays (the datasheet asks 5 ms after SWRESET/SLPOUT)."""
    adafruit_st7789 = pytest.importorskip("adafruit_st7789")
    profiles("pico_display_pack")
    ours, our_delay = _sequence(sys.modules["profiles._st7789"].INIT)
    theirs, their_delay = _sequence(adafruit_st7789._INIT_SEQUENCE + b"\x36\x01\xc0" + b"\x21\x00")
    assert ours == theirs
    assert their_delay == 1170 and 10 <= our_delay <= 200


# ---------------------------------------------------------------- power

@pytest.fixture
def power_hardware(monkeypatch, hardware):
    """alarm, alarm.pin and analogio fakes on top of `hardware`; a display and keys."""
    def recorder(qualname, **attrs):
        class Fake:
            def __init__(self, *args, **kwargs):
                self.args = args
                self.kwargs = kwargs
                self.__dict__.update(attrs)
                hardware.append((qualname, args, kwargs, self))
        return Fake

    alarm = types.ModuleType("alarm")
    alarm.wake_alarm = None
    alarm.exit_and_deep_sleep_until_alarms = lambda *a: hardware.append(("alarm.exit", a, {}, None))
    pin = types.ModuleType("alarm.pin")
    pin.PinAlarm = recorder("alarm.pin.PinAlarm")
    alarm.pin = pin
    analogio = types.ModuleType("analogio")
    analogio.AnalogIn = recorder("analogio.AnalogIn", value=0, reference_voltage=3.3)
    for name, module in (("alarm", alarm), ("alarm.pin", pin), ("analogio", analogio)):
        monkeypatch.setitem(sys.modules, name, module)
    bus = types.SimpleNamespace(send=lambda cmd, data: hardware.append(("bus.send", (cmd, data), {}, None)))
    display = types.SimpleNamespace(bus=bus, auto_refresh=True)
    keys = types.SimpleNamespace(deinit=lambda: hardware.append(("keys.deinit", (), {}, None)))
    return alarm, display, keys


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_battery_is_read_through_the_divider(profiles, power_hardware, hardware, name):
    p = profiles(name)
    alarm, display, keys = power_hardware
    power = sys.modules["profiles"].power(p, display, keys)
    # a Pico reads VSYS/3 on GP29, which its board module calls VOLTAGE_MONITOR
    assert (p.BATTERY_PIN, p.BATTERY_DIVIDER) == VENDOR.get(name, {}).get("battery", ("VOLTAGE_MONITOR", 3))
    if p.BATTERY_PIN is None:
        assert not power.has_battery and not [c for c in hardware if c[0] == "analogio.AnalogIn"]
        return
    (pin,), _, adc = _called(hardware, "analogio.AnalogIn")
    assert pin.name == p.BATTERY_PIN
    screen_pins = tuple(getattr(p, a) for a in ("BACKLIGHT", "SPI_CLOCK", "SPI_MOSI", "COMMAND") if hasattr(p, a))
    assert pin.name not in p.KEY_PINS + screen_pins
    assert power.has_battery
    for volts, share in ((3.75, 0.5), (4.8, 1.0), (3.0, 0.0)):      # 4.8 V: on USB
        adc.value = int(volts / p.BATTERY_DIVIDER / 3.3 * 65535)
        assert power.battery() == pytest.approx(share, abs=0.01)


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_deep_sleep_sleeps_the_panel_and_wakes_on_the_ok_button(profiles, power_hardware,
                                                                 hardware, name):
    p = profiles(name)
    alarm, display, keys = power_hardware
    power = sys.modules["profiles"].power(p, display, keys)
    assert power.can_sleep and not power.woke
    power.deep_sleep()
    order = [c[0] for c in hardware if c[0] in ("bus.send", "keys.deinit", "alarm.exit")]
    assert order == ["bus.send", "bus.send", "keys.deinit", "alarm.exit"]
    assert [c[1][0] for c in hardware if c[0] == "bus.send"] == [0x28, 0x10]   # DISPOFF, SLPIN
    (pin,), kwargs, pin_alarm = _called(hardware, "alarm.pin.PinAlarm")
    assert pin.name == p.WAKE_PIN and kwargs == {"value": False, "pull": True}
    assert p.BUTTONS[p.KEY_PINS.index(p.WAKE_PIN)] == "ok"
    assert [c[1] for c in hardware if c[0] == "alarm.exit"] == [(pin_alarm,)]
    assert display.auto_refresh is False
    alarm.wake_alarm = pin_alarm
    assert sys.modules["profiles"].power(p, display, keys).woke


def test_a_board_without_alarm_only_turns_the_light_off(profiles, hardware, monkeypatch):
    p = profiles("pico_display_pack")
    monkeypatch.setitem(sys.modules, "alarm", None)         # import alarm fails
    monkeypatch.setattr(p, "BATTERY_PIN", None)
    power = sys.modules["profiles"].power(p, None, None)
    assert not power.can_sleep and not power.woke and not power.has_battery


# ---------------------------------------------------------------- BUILD.md

def build_table():
    """Rows (gpio name, "module"/"button"/"other", label) of the loose-module wiring table."""
    text = BUILD_MD.read_text(encoding="utf-8")
    section = text.split("### Wiring the loose ST7789 module", 1)[1]
    rows = []
    for line in section.splitlines()[1:]:
        line = line.strip()
        if not line:
            if rows:
                break
            continue
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] in ("Pico pin",) or set(cells[0]) <= set("-: "):
            continue
        pin, gpio, target = int(cells[0]), cells[1], cells[2]
        assert PICO_PINS[pin] == gpio, "BUILD.md: pin %d is %s, not %s" % (pin, PICO_PINS[pin], gpio)
        match = re.fullmatch(r"(module|button) (\S+)", target)
        rows.append((gpio, match.group(1), match.group(2)) if match else (gpio, "other", target))
    return rows


def test_build_md_wiring_table_is_the_loose_profile(profiles):
    p = profiles("loose_st7789")
    rows = build_table()
    module = {label: gpio for gpio, kind, label in rows if kind == "module"}
    buttons = {label: gpio for gpio, kind, label in rows if kind == "button"}
    assert module == {"VCC": "3V3(OUT)", "GND": "GND", "SCL": p.SPI_CLOCK, "SDA": p.SPI_MOSI,
                      "CS": p.CHIP_SELECT, "DC": p.COMMAND, "RES": p.RESET, "BLK": p.BACKLIGHT}
    assert buttons == dict(zip(p.LABELS, p.KEY_PINS))
    others = [(gpio, target) for gpio, kind, target in rows if kind == "other"]
    assert others == [("GND", "other leg of all four buttons")]
    gp_rows = [gpio for gpio, _, _ in rows if gpio.startswith("GP")]
    assert len(gp_rows) == len(set(gp_rows))
