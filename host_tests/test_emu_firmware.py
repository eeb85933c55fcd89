"""The real-firmware tier: the official CircuitPython 10.0.3 image of each board, in the
emulator (tools.emu), with the game deployed by tools.deploy, running the boards issue's
tours and held to its floors.

It runs on every board whose image is in the folder EMU_FIRMWARE names
(docs/EMULATOR.md); without it every test here skips with one line saying how to get the
images. EMU_TOURS (comma-separated tour names, tools/emu/tours.py) runs fewer tours.
"""
import os
import re
import shutil
from pathlib import Path

import pytest

from tools.emu import tours
from tools.emu.__main__ import run, parser, find_image, EmuError, fresh_flash, board_spec

FIRMWARE = os.environ.get("EMU_FIRMWARE")
# a profile for each image: the Pico's build stands for the three Pico profiles
BOARDS = ("pico_display_pack", "pimoroni_picosystem", "pajenicko_picopad", "ugame22", "lilygo_t_display_rp2040")
WANTED = [t for t in os.environ.get("EMU_TOURS", "").split(",") if t]
FLOOR_FREE = 20 * 1024
FLOOR_REFRESH_MS = 50.0
TITLE_MS = 3000            # a normal boot's title, usable
AFTER_CODE_MS = 1000       # ... or this long after code.py starts, where the board's own boot is slower


def profile_of(name):
    from tools.sim import setup_paths
    setup_paths()
    from profiles import load
    return load(name)


def image(name):
    if not FIRMWARE:
        pytest.skip("no CircuitPython images: set EMU_FIRMWARE to a folder of the official 10.0.3 .uf2 "
                    "files (docs/EMULATOR.md) to run the real-firmware tier")
    try:
        return find_image(FIRMWARE, profile_of(name).BOARD_IDS[0])
    except EmuError as e:
        pytest.skip(str(e))


def tour(name, tour_name, tmp_path):
    image(name)
    if WANTED and tour_name not in WANTED:
        pytest.skip("EMU_TOURS leaves out " + tour_name)
    out = tmp_path / ("%s-%s" % (name, tour_name))
    summary = run(parser().parse_args(["--firmware", FIRMWARE, "--profile", name, "--tour", tour_name,
                                       "--out", str(out)]))
    keep = os.environ.get("EMU_KEEP")       # a folder to keep every run's output in
    if keep:
        shutil.copytree(out, Path(keep) / out.name, dirs_exist_ok=True)
    return summary


def held_to_the_floors(summary):
    """The boards issue's floors, each board of the run."""
    for b in summary["boards"]:
        assert (b["tracebacks"], b["memory_errors"], b["code_done"]) == (0, 0, 0), b["console_tail"]
        assert b["least_free"] >= FLOOR_FREE, "%d B free at %s" % (b["least_free"], b["least_free_at"])
        assert b["worst_refresh_ms"] is None or b["worst_refresh_ms"] <= FLOOR_REFRESH_MS, \
            "a %.1f ms refresh at %s" % (b["worst_refresh_ms"], b["worst_refresh_at"])
        assert b["flash_erases"] == 0
    assert summary["unsettled"] == 0, "the board never waited for the player after some key"


@pytest.mark.parametrize("name", BOARDS)
@pytest.mark.parametrize("tour_name", sorted(tours.TOURS))
def test_the_tour_on_the_board_s_own_firmware(name, tour_name, tmp_path):
    held_to_the_floors(tour(name, tour_name, tmp_path))


@pytest.mark.parametrize("name", [b for b in BOARDS if profile_of(b).LINK_TX])
def test_a_linked_match_between_two_boards(name, tmp_path):
    held_to_the_floors(tour(name, "linked", tmp_path))


@pytest.mark.parametrize("name", BOARDS)
def test_a_normal_boot_shows_the_title_in_time(name, tmp_path):
    summary = tour(name, "continue", tmp_path)
    normal = summary["boards"][0]["title_usable_ms"][1]
    assert normal is not None and normal <= TITLE_MS, "title usable at %s ms after power-on" % normal


def test_the_heap_probe_reads_what_gc_mem_free_says(tmp_path):
    """The probe's free heap after each collection is the firmware's own gc.mem_free()
    right after gc.collect(), to the byte, while the VM's heap grows in areas."""
    from tools.emu import fat
    from tools.emu.__main__ import node
    name = "pico_display_pack"
    img = image(name)
    spec = board_spec(profile_of(name), "raspberry_pi_pico", img, 0)
    drive = tmp_path / "drive"
    drive.mkdir()
    (drive / "code.py").write_text(
        "import gc, time\nkeep = []\nfor i in range(10):\n"
        "    keep.append(bytearray(900 * i)); keep.append([str(j) for j in range(40 * i)])\n"
        "    gc.collect(); print('FREE', gc.mem_free()); time.sleep(0.05)\n")
    flash = tmp_path / "flash.bin"
    fresh = fresh_flash(spec, img)
    offset, size = fat.find(fresh)
    flash.write_bytes(fresh[:offset] + fat.make(drive, size))
    spec["flash"] = str(flash)
    node({"out": str(tmp_path), "boards": [spec], "steps": [{"do": "run", "ms": 4000}]}, tmp_path)
    printed = [int(n) for n in re.findall(r"FREE (\d+)", (tmp_path / "console-0.txt").read_text("latin-1"))]
    seen = {int(row.split(",")[1]) for row in (tmp_path / "heap-0.csv").read_text().splitlines()[1:]}
    assert len(printed) == 10
    assert set(printed) <= seen


def rgb565(colour):
    """A colour as the panel shows it: 5, 6 and 5 bits, widened back to 8 as the emulator does."""
    r, g, b = colour[0] >> 3, colour[1] >> 2, colour[2] >> 3
    return (r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2)


@pytest.mark.parametrize("name", BOARDS)
def test_the_simulator_shows_what_the_firmware_shows(name, tmp_path):
    """The first screen after power-on, pixel for pixel in the panel's 16-bit colours, but
    for the battery symbol's fill (its charge rounds differently from 16-bit ADC counts):
    the README's pictures come from the simulator."""
    from PIL import Image
    from tools.emu import boards
    from tools.sim import Sim, SimPower
    img = image(name)
    keys = tmp_path / "keys.txt"
    keys.write_text("shot first\n")
    run(parser().parse_args(["--firmware", str(img), "--profile", name, "--keys", str(keys),
                             "--out", str(tmp_path / "emu")]))
    sim = Sim(name)
    p = sim.profile
    from profiles._power import EMPTY, FULL
    for reading in boards.battery(p.BOARD_IDS[0], p).values():
        volts = reading / 4095 * 3.3 * p.BATTERY_DIVIDER
        sim.power = SimPower(charge=max(0.0, min(1.0, (volts - EMPTY) / (FULL - EMPTY))))
    sim.boot()
    sim.settle()
    sim.shot(tmp_path / "sim.png")
    real = Image.open(tmp_path / "emu" / "shots" / "first.png").convert("RGB")
    seen = Image.open(tmp_path / "sim.png").convert("RGB")
    assert real.size == seen.size == (p.WIDTH, p.HEIGHT)
    differ = [(x, y) for y in range(p.HEIGHT) for x in range(p.WIDTH)
              if rgb565(seen.getpixel((x, y))) != real.getpixel((x, y))]
    assert len(differ) <= 8 and all(x > p.WIDTH - 40 and y < 20 for x, y in differ), differ[:10]
