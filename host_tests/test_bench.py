"""The benchmarks run where they claim to: tools/board_bench.py inside MicroPython (as on
a board), tools.bench on CPython. They print figures; these tests check the figures are
real measurements (plausible, not constant), never how fast anything is."""
import json
import os
import subprocess
import sys
from pathlib import Path

import mpvm

ROOT = Path(__file__).resolve().parent.parent

BOARD = """
import json
from board_bench import play_deals, ai_bench
from shared_rules.rules import Rules, NAMES, FAMILY
rows = []
for name in NAMES + FAMILY:
    ms, used, actions = play_deals(Rules(name), 4, 7)
    rows.append([name, ms, used, actions])
print(json.dumps(rows))
print(json.dumps([list(ai_bench(level, (11,), 0.05, 300)) for level in ("easy", "normal", "hard")]))
"""


def test_board_bench_runs_on_micropython():
    out = mpvm.run(BOARD, packages=("shared_rules", ROOT / "tools" / "board_bench.py"), timeout=300)
    deals, ai = (json.loads(line) for line in out.strip().splitlines()[-2:])
    for name, ms, used, actions in deals:
        assert ms >= 0 and actions >= 4 * 8, name
        assert 0 < used < 4 * 16 * 1024, (name, used)      # heap per deal is measured, and bounded
    for (n, total_ms, worst_ms, total_u, worst_u, heap), level in zip(ai, ("easy", "normal", "hard")):
        assert n >= 3 and worst_ms <= total_ms and worst_u <= total_u, level
    assert ai[2][4] > 0                                    # Hard reports the work it did


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
    assert set(res["model"]["fitted_fetch_us"]) == {"flash", "ram", "shape"}
