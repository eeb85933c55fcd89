"""Heap of the family games on the device, measured in the MicroPython VM the same way
as host_tests/test_firmware_memory.py (its display stand-ins and button script). Figures
are printed (run with -s to see them)."""
import json

import mpvm
from test_firmware_memory import DEVICE, OK, STEP, MARK, WARM_UP, BUDGET, ENGINE, FIRMWARE, import_marks, packages  # noqa: F401

FAMILY = ["shared_rules.team", "shared_rules.family", "shared_rules.ai.team_greedy", "sixtysix.teams"]
GAMES = ("standard", "hoyle", "russian", "schnapsen", "three-handed", "four-handed",
         "american", "american 3", "american 2", "idiots")


def test_import_cost_of_the_family_modules(packages):
    """Resident bytes each family module adds on top of the two-handed firmware."""
    rows = import_marks(["displayio", "vectorio", "bitmaptools"] + ENGINE + FIRMWARE + FAMILY, packages)
    cost = {}
    for (_, a), (name, b) in zip(rows, rows[1:]):
        cost[name] = b - a
    print("\nresident heap of the family modules (bytes, after a GC):")
    for name in FAMILY:
        print("  %-22s %6d" % (name, cost[name]))
    print("  together: %d" % sum(cost[n] for n in FAMILY))
    assert sum(cost[n] for n in FAMILY) < 30 * 1024


def play_in_vm(packages, game, presses=200):
    """Boot, choose `game`, let the title load the engine, start a match, press OK every
    8 frames with the heap capped."""
    boot = ['from sixtysix.app import App', 'import sixtysix.screens',
            'app = App(Disp(), q, ("ok", "menu", "left", "right"), bytearray(4096), clock, '
            'assets="/lib/assets", seed=7)\n'
            'app.settings.index[0] = %d\napp.settings.index[1] = 2' % GAMES.index(game)]
    steps = [DEVICE] + boot + [MARK] + WARM_UP + [OK, STEP, STEP, MARK]
    for i in range(presses):
        if i % 8 == 0:
            steps.append(OK)
        steps.append(STEP)
        steps.append(MARK)
    steps.append("import json\ng = app.screen\n"
                 "print(json.dumps([R, g.match.deals, len(g.match.deal.log), g.match.rules.name]))")
    out = mpvm.run(steps, packages=packages, timeout=300, heap_cap=BUDGET)
    return json.loads(out.strip().splitlines()[-1])


def test_a_four_handed_game_runs_inside_150_kb(packages):
    marks, deals, actions, name = play_in_vm(packages, "four-handed")
    print("\nfour-handed: heap after boot %d, after starting %d, largest between frames %d (budget %d)"
          % (marks[0], marks[1], max(marks), BUDGET))
    assert name == "four-handed"
    assert deals > 1 or actions > 12, "the game did not move on"
    assert max(marks) < BUDGET


def test_north_american_bidding_and_idiots_run_inside_150_kb(packages):
    for game in ("american", "idiots"):
        marks, deals, actions, name = play_in_vm(packages, game, presses=120)
        print("\n%s: largest heap between frames %d (budget %d)" % (game, max(marks), BUDGET))
        assert deals > 1 or actions > 8, "the game did not move on"
        assert max(marks) < BUDGET
