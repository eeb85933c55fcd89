"""The emulator's own parts, without a CircuitPython image: the drive (FAT), the board
table against every profile, the keys file turned into pins and times, and the node
side's panel, UF2 loader, PNG writer and ROM (each with its own node test)."""
import os
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from tools import bootstrap
from tools.emu import boards, fat
from tools.emu.__main__ import read_script, steps_for, find_image, EmuError

ROOT = Path(__file__).resolve().parent.parent
PROFILES = sorted(p.stem for p in (ROOT / "hardware" / "profiles").glob("[!_]*.py"))


def profile(name):
    from tools.sim import setup_paths
    setup_paths()
    from profiles import load
    return load(name)


def test_a_folder_makes_a_volume_that_reads_back_whole(tmp_path):
    src = tmp_path / "drive"
    (src / "sixtysix" / "link").mkdir(parents=True)
    files = {"code.py": b"print(1)\n", "empty.txt": b"", "boot_out.txt": b"Board ID:raspberry_pi_pico\n"}
    for n in range(40):        # more entries than one directory cluster holds, long names each
        files["sixtysix/link/a_long_module_name_%02d.mpy" % n] = os.urandom(300 + 97 * n)
    for name, data in files.items():
        (src / name).write_bytes(data)
    image = fat.make(src)
    assert len(image) == 1024 * 1024
    assert fat.read(image) == files


def test_the_drive_is_found_where_the_board_s_build_keeps_it(tmp_path):
    (tmp_path / "boot_out.txt").write_bytes(b"Board ID:pajenicko_picopad\n")
    firmware = bytes(range(256)) * 4096                     # 1 MB of something else first
    for offset in (0x100000, 0x181000):                     # a Pico's build, a Pico W's
        flash = firmware + bytes(offset - len(firmware)) + fat.make(tmp_path, 2 * 1024 * 1024 - offset)
        assert fat.find(flash) == (offset, 2 * 1024 * 1024 - offset)
        assert fat.read(flash[offset:])["boot_out.txt"].startswith(b"Board ID")
    with pytest.raises(fat.FatError, match="never formatted"):
        fat.find(firmware + bytes(1024 * 1024))


def test_short_names_stay_unique_in_a_folder():
    taken = set()
    names = [fat.short_name(n, taken) for n in ("cards-large-map.bmp", "cards-large.bmp", "cards.bmp", "CODE.PY")]
    assert names == [b"CARDS-~1BMP", b"CARDS-~2BMP", b"CARDS   BMP", b"CODE    PY "]


def test_too_much_for_the_volume_or_no_volume_is_a_clear_error(tmp_path):
    (tmp_path / "big.bin").write_bytes(bytes(2 * 1024 * 1024))
    with pytest.raises(fat.FatError, match="do not fit"):
        fat.make(tmp_path)
    with pytest.raises(fat.FatError, match="never formatted"):
        fat.read(bytes(1024 * 1024))


@pytest.mark.parametrize("name", PROFILES)
def test_every_profile_pin_is_known_to_the_emulator(name):
    p = profile(name)
    board = p.BOARD_IDS[0]
    pins = [boards.gpio(board, pin) for pin in p.KEY_PINS]
    assert len(set(pins)) == len(pins) and all(0 <= g <= 29 for g in pins)
    panel = boards.panel(board, p)
    assert panel["spi"] in (0, 1) and panel["dc"] not in pins
    if getattr(p, "LINK_TX", None):
        assert boards.gpio(board, p.LINK_TX) not in pins
    reading = boards.battery(board, p, volts=4.0)
    assert (p.BATTERY_PIN is None) == (reading == {})
    for value in reading.values():      # read back as the firmware's Power would
        assert abs(value / 4095 * 3.3 * p.BATTERY_DIVIDER - 4.0) < 0.01


def test_an_unknown_pin_or_board_is_named():
    with pytest.raises(boards.BoardError, match="SW_Q"):
        boards.gpio("pimoroni_picosystem", "SW_Q")
    with pytest.raises(boards.BoardError, match="no model of board"):
        boards.panel("adafruit_feather_rp2040", profile("pico_display_pack"))


def test_a_held_role_is_a_held_pin_and_a_count_repeats():
    lines = ["right 3", "menu", "shot here", "wait 250", "powercut"]
    p = profile("lilygo_t_display_rp2040")       # menu: hold either button
    steps = steps_for(read_script(lines, p, False), p, False, "lilygo_t_display_rp2040")
    downs = [s for s in steps if s["do"] == "key" and s["down"]]
    assert [s["pin"] for s in downs] == [6, 6, 6, 6]        # BUTTON_L: next, and held, the menu
    runs = [s["ms"] for s in steps if s["do"] == "run"]
    assert runs[:3] == [34, 34, 34] and runs[3] >= 500 and runs[4] == 250
    assert [s["do"] for s in steps[-3:]] == ["powercut", "settle", "mark"]      # a title after the power-on
    assert {"do": "shot", "board": 0, "name": "here"} in steps


def test_a_pair_script_names_each_line_s_board():
    p = profile("pico_display_pack")
    steps = steps_for(read_script(["a ok", "b menu", "shot both"], p, True), p, True, "raspberry_pi_pico")
    assert [s["board"] for s in steps if s["do"] == "key"] == [0, 0, 1, 1]
    assert [s["name"] for s in steps if s["do"] == "shot"] == ["both-a", "both-b"]
    with pytest.raises(SystemExit, match="line 1"):
        read_script(["ok"], p, True)


def test_a_missing_image_says_where_to_get_one(tmp_path):
    with pytest.raises(EmuError, match="EMULATOR.md"):
        find_image(None, "raspberry_pi_pico")
    with pytest.raises(EmuError, match="adafruit-circuitpython-ugame22-en_US-10.0.3.uf2"):
        find_image(tmp_path, "ugame22")
    (tmp_path / "adafruit-circuitpython-ugame22-en_US-10.0.3.uf2").write_bytes(b"")
    assert find_image(tmp_path, "ugame22").name.endswith("ugame22-en_US-10.0.3.uf2")


@pytest.fixture(scope="module")
def emulator():
    bootstrap.emulator()


def test_the_panel_uf2_and_png_parts(emulator, tmp_path):
    png = tmp_path / "t.png"
    done = subprocess.run(["node", "tools/emu/parts.test.mjs", str(png)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    im = Image.open(png).convert("RGB")
    assert [im.getpixel((x, y)) for y in (0, 1) for x in (0, 1)] == [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]


def test_the_rom_stand_in(emulator):
    done = subprocess.run(["node", "tools/emu/rom.test.mjs"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
