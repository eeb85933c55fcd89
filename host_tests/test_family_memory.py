"""Heap of the family games on the device, measured in the MicroPython VM the same way
as host_tests/test_firmware_memory.py (its display stand-ins and button script): the
computer at Hard in every game, each of its decisions watched. Figures are printed (run
with -s to see them)."""
import json

import pytest

import mpvm
from test_firmware_memory import DEVICE, OK, STEP, MARK, WARM_UP, BUDGET, ENGINE, FIRMWARE, import_marks, packages  # noqa: F401

FAMILY = ["shared_rules.team", "shared_rules.family", "shared_rules.ai.team_greedy", "sixtysix.table.teams"]
TEAM_HARD = ["shared_rules.ai", "shared_rules.ai.anytime", "shared_rules.ai.team_worlds",
             "shared_rules.ai.team_playouts", "shared_rules.ai.team_search", "shared_rules.ai.hard"]
GAMES = ("standard", "hoyle", "russian", "schnapsen", "three-handed", "four-handed",
         "american", "american 3", "american 2", "idiots")
# Issues 12, 13 and 20: 20 KB free during a Hard decision ON THE BOARD. This model is
# pessimistic (test_firmware_memory's calibration against the real CircuitPython 10.0.3
# firmware, in an emulator, the game as .mpy): standard at Hard, 29.1 KB here where the
# board has 44.4 KB while Hard thinks; three-handed pass-and-play at Hard, 18.1 KB here
# where the board's lowest free heap after a collection in a whole pass-and-play match
# was 33.5 KB. So 16 KB here stands for some 30 KB on the board: the goal and a margin.
FREE = 16 * 1024
# Every decision of the computer, counted in W: how many, the most heap in use when one
# returned (the VM collects nothing inside a step, so that is everything live plus all
# the decision allocated), and how many moves played were not Hard's own (Hard never
# answered, out of memory, and the firmware's fallback played).
WATCH_HARD = """
import sixtysix.table.driver
import shared_rules.ai.hard
W = [0, 0, 0]
_own = []
_choose = shared_rules.ai.hard.Hard.choose
def _hard(self, view, clock=None, deadline=None):
    a = _choose(self, view, clock, deadline)
    _own.append(a)
    return a
shared_rules.ai.hard.Hard.choose = _hard
_decide = sixtysix.table.driver.Driver.decide
def _watched(self, seat):
    del _own[:]
    a = _decide(self, seat)
    W[0] += 1
    W[1] = max(W[1], gc.mem_alloc())
    W[2] += not _own or _own[-1] != a
    return a
sixtysix.table.driver.Driver.decide = _watched
"""
# A whole match keeps only the largest heap between frames (a list of them would grow).
MARK_MAX = "R[0] = max(R[0], gc.mem_alloc())"
OVER = "if hasattr(app.screen, 'match'):\n    M[0] = app.screen.match\nelif M[0] is not None:\n    D[0] = True"


def test_import_cost_of_the_family_modules(packages):
    """Resident bytes each family module adds on top of the two-handed firmware, and
    Hard's team search on top of them."""
    rows = import_marks(["displayio", "vectorio", "bitmaptools"] + ENGINE + FIRMWARE + FAMILY + TEAM_HARD, packages)
    cost = {}
    for (_, a), (name, b) in zip(rows, rows[1:]):
        cost[name] = b - a
    print("\nresident heap of the family modules (bytes, after a GC):")
    for name in FAMILY + TEAM_HARD:
        print("  %-30s %6d" % (name, cost[name]))
    print("  family: %d; Hard's team search: %d" % (sum(cost[n] for n in FAMILY), sum(cost[n] for n in TEAM_HARD)))
    assert sum(cost[n] for n in FAMILY) < 30 * 1024
    assert sum(cost[n] for n in TEAM_HARD) < 16 * 1024


def play_in_vm(packages, game, presses=200, whole=False, people=0):
    """Boot, choose `game` and the computer at Hard (a match to 5), let the title load
    what it loads, start a match (`people` > 1: pass-and-play, the persons' bits as
    sixtysix.table.seats saves them) and press OK every 8 frames with the heap capped: for
    `presses` frames, or (whole) until the match is over and the title back. Returns the
    largest heap in use between frames (after a collection), the decisions (W, see
    WATCH_HARD), the deals played, the actions of the last one, the rule set and whether
    the match is over."""
    boot = ['from sixtysix.app import App', 'import sixtysix.screens.title',
            'app = App(Disp(), q, ("ok", "menu", "left", "right"), bytearray(4096), clock, '
            'assets="/lib/assets", seed=7)\n'
            'app.device.settings.index[0] = %d\napp.device.settings.index[1] = 2\napp.device.settings.index[3] = 1\n'
            'D = [False]\nM = [None]\nR.append(0)' % GAMES.index(game)]
    start = OK if people == 0 else "from sixtysix.screens.loading import new_game\napp.start(*new_game(app.device, %d))" % people
    steps = [DEVICE] + boot + WARM_UP + [WATCH_HARD, start, STEP, STEP, MARK_MAX]
    for i in range(presses):
        frame = [(OK + "\n") * (i % 8 == 0) + STEP, MARK_MAX]        # the mark after a collection
        if whole:
            frame[1] += "\n" + OVER
            frame = ["if not D[0]:\n" + "".join("    " + line + "\n" for line in step.split("\n"))
                     for step in frame]
        steps += frame
    steps.append("import json\nm = M[0] if D[0] else app.screen.match\n"
                 "print(json.dumps([R[0], W, m.deals, len(m.deal.log), m.rules.name, m.over]))")
    out = mpvm.run(steps, packages=packages, timeout=600, heap_cap=BUDGET)
    return json.loads(out.strip().splitlines()[-1])


def report(game, largest, decisions):
    print("\n%-12s free between frames, worst %6d; during a Hard decision, worst of %d: %6d"
          % (game, BUDGET - largest, decisions[0], BUDGET - decisions[1]))


@pytest.mark.parametrize("game", ["four-handed", "american", "american 3", "american 2",
                                  "three-handed", "idiots", "schnapsen"])
def test_hard_decides_with_20_kb_free_and_plays_its_own_moves(packages, game):
    """Issues 12 and 13: at least 20 KB free during every Hard decision, in the team games
    (their search, with North American bidding) as in the two-handed ones; and every move
    the computer plays is Hard's own, not the fallback the firmware plays when the AI
    runs out of memory."""
    largest, decisions, deals, actions, name, _ = play_in_vm(packages, game)
    report(game, largest, decisions)
    assert name == game.split()[0]
    assert deals > 1 or actions > 12, "the game did not move on"
    count, heap, not_own = decisions
    assert count >= 10
    assert BUDGET - heap >= FREE
    assert not_own == 0


def test_a_whole_four_handed_match_at_hard_inside_150_kb(packages):
    """The largest team game at Hard from the title to the match's end, the heap capped at
    the board's 150 KB: no MemoryError in any frame (a decision, a deal dealt, a box).
    (Frames enough for some 190 decisions, each a frame showing "Thinking..." and one
    thinking.)"""
    largest, decisions, deals, actions, name, over = play_in_vm(packages, "four-handed", presses=1800, whole=True)
    report("four-handed", largest, decisions)
    print("  a match to 5: %d deals, %d decisions" % (deals, decisions[0]))
    assert over and deals >= 2
    assert decisions[2] == 0 and BUDGET - decisions[1] >= FREE


# Three-handed: South and East are the persons, West the computer: the first dealer
# (player 2, East) sits the first deal out, so the computer plays in it (a computer in
# East's seat would not decide once in the frames this test runs)
@pytest.mark.parametrize("game,people", [("four-handed", 0b0111), ("three-handed", 0b101)])
def test_pass_and_play_beside_hard_keeps_20_kb_free(packages, game, people):
    """Pass-and-play (its seats, pass screens and their boxes resident) with the computer
    at Hard in the other seat: still 20 KB free during its every decision, its own moves."""
    largest, decisions, deals, actions, name, _ = play_in_vm(packages, game, presses=400, people=people)
    report(game + " pass", largest, decisions)
    assert deals > 1 or actions > 12, "the game did not move on"
    count, heap, not_own = decisions
    assert count >= 5
    assert BUDGET - heap >= FREE
    assert not_own == 0
