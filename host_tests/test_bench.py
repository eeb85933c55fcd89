"""The benchmarks run where they claim to: tools/board_bench.py inside MicroPython (as on
a board), tools.bench on CPython. They print figures; these tests check the figures are
real measurements (plausible, not constant), never how fast anything is."""
import json
import os
import subprocess
import sys
from pathlib import Path

from shared_rules.rules import NAMES, FAMILY

ROOT = Path(__file__).resolve().parent.parent

def test_board_bench_runs_to_the_end_on_a_pico_heap():
    """tools/board_bench.py in the VM capped at a Pico's 150 KB (as `tools.bench --board`
    runs it): every rule set's deals and every level's decisions are measured, a deal
    allocates under 4 KB on average in every game and a decision under 20 KB."""
    from tools.bench import board_vm
    rows = board_vm("deals=3, games=('standard', 'idiots', 'four-handed', 'american'), hard_budget=300",
                    steps=400, timeout=300)
    ref, engine, ai = rows[0], [r for r in rows if "engine" in r], [r for r in rows if "ai" in r]
    assert ref["reference"] == "webassembly" and ref["scale"] > 1
    assert sorted(r["engine"] for r in engine) == sorted(NAMES + FAMILY)
    for r in engine:
        assert r["deals"] == 3 and r["actions"] >= 3 * 8 and r["deals_per_s"] > 0, r
        assert 0 < r["bytes_per_deal"] < 4096 and r["bytes_per_deal"] <= r["worst_bytes_per_deal"], r
    assert {(r["ai"], r["rules"]) for r in ai} == {(level, game) for level in ("easy", "normal", "hard")
                                                    for game in ("standard", "idiots", "four-handed", "american")}
    for r in ai:
        assert r["decisions"] >= 3 and r["worst_ms"] >= r["mean_ms"] >= 0, r
        assert r["heap_bytes"] < 20 * 1024, r
        if r["ai"] == "hard":
            assert 0 < r["mean_units"] <= r["worst_units"] <= 300 + 64, r


def test_bench_prints_json_figures():
    run = subprocess.run([sys.executable, "-m", "tools.bench", "--deals", "200", "--no-vm",
                          "--nvm-matches", "1", "--idle-seconds", "0.5", "--json"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert run.returncode == 0, run.stderr
    res = json.loads(run.stdout)
    assert res["deals"] == 200 and res["deals_per_s"] > 0
    # the device: every rule set's save wear through the firmware, the loop's idle share
    games = res["nvm_erases_per_deal"]
    assert len(games) == 10 and set(games) == set(res["nvm_page_programs_per_deal"])
    for game, erases in games.items():
        assert res["nvm_deals"][game] >= 1 and erases >= 0, game
        assert 5 < res["nvm_page_programs_per_deal"][game] < 200, game      # a few per action
    for screen in ("title", "table"):
        assert 0 < res["idle_share_board_est"][screen] <= res["idle_share"][screen] < 1


def test_bench_prints_the_screen_figures_as_json():
    run = subprocess.run([sys.executable, "-m", "tools.bench", "--screens", "--profiles", "waveshare_lcd_1in3",
                          "--screen-deals", "1", "--no-vm", "--json"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1", SDL_VIDEODRIVER="dummy"))
    assert run.returncode == 0, run.stderr
    res = json.loads(run.stdout)
    (row,) = res["screens"]
    assert row["profile"] == "waveshare_lcd_1in3" and row["size"] == [240, 240]
    assert row["actions"]["play"]["n"] >= 5 and row["actions"]["play"]["pixels_worst"] > 0
    assert row["frames"]["frame"]["worst_ms"] > 0 and "left out" in row["python"]
    model = res["model"]        # the costs fitted to the real firmware's refreshes, and how well
    assert set(model["fitted_us"]) <= set(model["costs_us"]) and model["calibration"]["refreshes"] > 100
    assert 0 < model["calibration"]["median_error"] <= model["calibration"]["p90_error"] < 0.15


def test_compile_bench_times_each_module_once_after_those_before_it():
    """`tools.bench --compile` (tools/compilebench.py): a module is timed where the list
    first imports it, with the modules its import brought in; a later mention is
    "loaded" (no timing is compared: on a shared machine the VM's times swing widely)."""
    from tools.compilebench import times, report
    rows = times(["sixtysix.save.format", "sixtysix.link.cable", "sixtysix.save.format", "sixtysix.link.fairseed"],
                 runs=1)
    (crc, t_crc, _), (link, t_link, _), (again, t_again, _), (fair, t_fair, extra) = rows
    assert (crc, link, again, fair) == ("sixtysix.save.format", "sixtysix.link.cable", "sixtysix.save.format",
                                        "sixtysix.link.fairseed")
    assert t_crc > 0 and t_link > 0 and t_again is None
    assert t_fair > 0 and extra == ["sixtysix.link.sha256"]
    assert "loaded" in report(rows)[2]


def test_board_bench_plays_the_devices_hard():
    """Bench(device=True): Hard as the device plays it, a fresh player per decision at its
    HARD_BUDGET and against the deadline, in any rule set the device offers (here North
    American cut-throat): no decision does more than the budget (give or take CHECK_EVERY
    units), and the row says how many the clock stopped instead."""
    from shared_rules.ai import CHECK_EVERY
    from shared_rules.ai.hard import HARD_BUDGET
    from tools.bench import board_vm
    (ref, row) = board_vm("deals=0, levels=('hard',), games=('american 3',), ai_deals=1, device=True",
                          steps=200, timeout=300)
    assert row["ai"] == "hard" and row["rules"] == "american 3" and row["device"] and row["decisions"] >= 3, row
    assert 0 < row["mean_units"] <= row["worst_units"] <= HARD_BUDGET["american"] + CHECK_EVERY, row
    assert 0 <= row["deadline_decisions"] <= row["decisions"] and "heap_bytes" not in row, row
