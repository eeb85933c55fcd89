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
from tools.emu.__main__ import run, parser, find_image, EmuError, fresh_flash, board_spec, DRIVE_OFFSET

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
    flash.write_bytes(fresh_flash(spec, img)[:DRIVE_OFFSET] + fat.make(drive))
    spec["flash"] = str(flash)
    node({"out": str(tmp_path), "boards": [spec], "steps": [{"do": "run", "ms": 4000}]}, tmp_path)
    printed = [int(n) for n in re.findall(r"FREE (\d+)", (tmp_path / "console-0.txt").read_text("latin-1"))]
    seen = {int(row.split(",")[1]) for row in (tmp_path / "heap-0.csv").read_text().splitlines()[1:]}
    assert len(printed) == 10
    assert set(printed) <= seen
