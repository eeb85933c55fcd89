"""Benchmark the engine and the AI where they run: a board, the MicroPython VM, or CPython.

    mpremote run tools/board_bench.py        (shared_rules/ must be in the board's /lib)
    python -m tools.bench --board            (the same, in the MicroPython VM on a Pico-sized heap)

Self-contained: needs only `shared_rules` on the path. Prints one JSON object per line:

- {"reference": ...}: recursive fib(20) here, and `scale`, the factor that turns this
  machine's milliseconds into the board's (1 on a board): fib(20)'s time on the real
  firmware over its time here, divided by CALIBRATION. Every "ms" figure below is in board
  milliseconds; `deadline` runs on that clock. Off a board each decision runs three times
  and counts its fastest time and its most work, on the clock of the fastest fib(20) seen
  so far (timed before every decision): a shared machine's load only ever adds time.
- {"engine": rules, ...}: random deals (random_play), deals_per_s and the heap each deal
  allocates, mean and worst (garbage included: the GC is off during a deal and
  collects between deals, so a board's heap holds one deal's garbage at most).
- {"ai": level, "rules": ...}: the level as the forehand of seeded deals of one game, the
  other seats Normal; its decisions' mean and worst ms, the worst overrun of Hard's
  1.5 s deadline, work units (Hard: playout cards and solver nodes; Normal: endgame
  nodes) and the heap high-water mark of one decision (allocated with the GC off).
  Hard plays against its deadline with no work limit: units_in_deadline, the mean work
  of its decisions that thought until the deadline, is the work the board does in that
  time (on the real firmware, less a margin, shared_rules.ai.hard.HARD_BUDGET: what the
  arena's `hard` plays).
  units_per_s: Hard's work per board second; with a fixed budget (Bench(hard_budget=N))
  every decision is the same work each time, so the best of 3 timings is a clean rate.
  Bench(device=True): Hard as the device plays it, at its budget (HARD_BUDGET, or
  hard_budget) AND against the 1.5 s deadline, with the GC on during the decision as in
  the game (so its collections count in the time; no heap figure): worst_ms and
  worst_overrun_ms are what a player waits, deadline_decisions how many decisions the
  clock stopped rather than the budget.

Every measurement is a small step (one deal, one decision): `plan()` lists them and
`Bench.step()` runs the next, so the VM, which collects garbage only between steps, can
run it on a capped heap as a board would.
"""
import gc
import sys

try:                            # the MicroPython VM in Node (whose ticks_us counts whole ms): the
    import js                   # process's CPU time, which a shared machine's load does not stretch
    now_ms = js.Function("const u = process.cpuUsage(); return (u.user + u.system) / 1000;")
except ImportError:
    try:                        # MicroPython on a board
        from time import ticks_ms, ticks_diff
        _T0 = ticks_ms()

        def now_ms():
            return ticks_diff(ticks_ms(), _T0)
    except ImportError:
        try:                    # CircuitPython
            from supervisor import ticks_ms
            _T0 = ticks_ms()

            def now_ms():
                return (ticks_ms() - _T0) & 0x1FFFFFFF     # it wraps at 2**29 ms
        except ImportError:     # CPython
            from time import perf_counter

            def now_ms():
                return perf_counter() * 1000


try:
    mem_alloc = gc.mem_alloc
except AttributeError:          # CPython: no heap figure
    def mem_alloc():
        return 0

try:
    import json
    dumps = json.dumps
except ImportError:
    dumps = repr

from shared_rules.rules import Rules, NAMES, FAMILY, TEAM_GAMES
from shared_rules.rng import Rng
from shared_rules.cards import listed, pack
from shared_rules.family import new_match

DEALS = 40
# Recursive fib(20) on the real firmware: CircuitPython 10.0.3 on an RP2040 at 125 MHz (run
# in an emulator; docs/AI.md).
BOARD_FIB20_MS = 241
# Off a board the clock is fib(20)'s, divided by this: Hard's work in 1.5 s on the real
# firmware over its work in the MicroPython VM (`tools.bench --board`) in 1.5 s by fib(20)
# alone, on the same script (the mean of the games, 1.06 to 1.29 by game; docs/AI.md).
CALIBRATION = 1.17
ON_BOARD = sys.platform in ("RP2040", "rp2")
REPEATS = 1 if ON_BOARD else 3  # elsewhere each timing is the best of 3 from the same state
HARD_SECONDS = 1.5              # the device's thinking time for Hard
AI_GAMES = ("standard", "schnapsen", "three-handed", "idiots", "four-handed", "american")
AI_DEALS = {"easy": 2, "normal": 4, "hard": 2}     # seeded deals per level and game


def rules_of(name):
    """The Rules of a bench game: a rule set's name, or "american 3" (players)."""
    name, _, players = name.partition(" ")
    return Rules(name, players=int(players)) if players else Rules(name)


def _fib(n):
    return n if n < 2 else _fib(n - 1) + _fib(n - 2)


def reference(runs=3 * REPEATS):
    """fib(20) on this machine (the best run) and the factor to board milliseconds."""
    best = 1 << 29
    for _ in range(runs):
        t0 = now_ms()
        _fib(20)
        best = min(best, now_ms() - t0)
    return {"reference": sys.platform, "fib20_ms": best,
            "scale": 1.0 if ON_BOARD else BOARD_FIB20_MS / (CALIBRATION * max(best, 0.25))}


class EngineRun:
    """Random deals of one rule set, one deal per step."""

    def __init__(self, name, deals=DEALS, seed=7):
        from shared_rules.ai import randplay
        self.rules = Rules(name)
        self.name = name
        if self.rules.game in TEAM_GAMES:
            from shared_rules.team import dealt
            self.play = randplay.random_team_play
        else:
            from shared_rules.deal import dealt
            self.play = randplay.random_play
        self.dealt = dealt
        self.left = deals
        self.deals = deals
        self.rng = Rng(seed)
        self.order = listed(pack(self.rules.ranks))
        self.ms = self.actions = self.total = self.worst = 0

    def step(self):
        rng = self.rng
        rng.permute(self.order)
        gc.collect()
        gc.disable()
        before = mem_alloc()
        t0 = now_ms()
        d = self.dealt(self.rules, self.order)
        d.log = None
        while not d.ended:
            self.play(d, rng)
            self.actions += 1
        self.ms += now_ms() - t0
        used = mem_alloc() - before
        gc.enable()
        self.total += used
        self.worst = max(self.worst, used)
        self.left -= 1
        return self.left > 0

    def row(self, scale):
        ms = self.ms * scale
        return {"engine": self.name, "deals": self.deals, "actions": self.actions, "ms": round(ms),
                "deals_per_s": round(self.deals * 1000 / ms, 1) if ms else 0,
                "bytes_per_deal": self.total // self.deals, "worst_bytes_per_deal": self.worst}


class AIRun:
    """One level as the forehand of seeded matches (a deal each), Normal in the other
    seats; one measured decision per step."""

    def __init__(self, level, name, seeds, scale, hard_budget=0, device=False):
        from shared_rules.ai import make_player
        if level == "hard":     # imported once on a device: compiling it is not a decision's heap
            from shared_rules.ai import search, team_search  # noqa: F401
        self.make_player = make_player
        self.level = level
        self.name = name
        self.seeds = list(seeds)
        self.scale = scale
        self.hard_budget = hard_budget
        self.device = device and level == "hard"
        self.match = None
        self.n = self.ms = self.worst_ms = self.units = self.worst_units = self.heap = 0
        self.full = self.full_units = 0     # decisions that thought until the deadline
        self.overrun = -HARD_SECONDS * 1000

    def _clock(self):
        """Board seconds since the decision began."""
        return (now_ms() - self.t0) * self.per_s

    def _next_match(self):
        if not self.seeds:
            return False
        seed = self.seed = self.seeds.pop(0)
        m = self.match = new_match(rules_of(self.name), "casual", seed)
        self.me = m.player_at(0)            # the forehand: every game deals it in
        me = self._player()
        self.players = [me if p == self.me else self.make_player("normal", seed + p) for p in range(m.players())]
        return True

    def _player(self):
        """The measured player. Hard is made afresh for every decision, as the device
        makes it (sixtysix.table.driver.Driver.decide): its search and tables are built in the time
        of each decision."""
        seed = self.seed * 1009 + self.n
        if self.device:             # the device's player: HARD_BUDGET unless told
            return self.make_player("hard", seed, budget=self.hard_budget or None)
        if self.level == "hard":
            return self.make_player("hard", seed, budget=self.hard_budget or (1 << 29))
        return self.make_player(self.level, self.seed)

    def step(self):
        """Play on to the level's next decision and measure it; False when all are done."""
        while True:
            if self.match is None or self.match.deal.ended:
                if not self._next_match():
                    return False
            m = self.match
            d = m.deal
            s = d.to_act
            who = m.player_at(s)
            if who == self.me:
                break
            m.apply(self.players[who].choose(d.view(s)), s)
        if self.level == "hard":
            self.players[who] = None        # the last decision's player is garbage first
            self.players[who] = self._player()
        me = self.players[who]
        view = d.view(s)
        state = me.rng.state
        ms = 1 << 29
        heap = u = 0
        if not ON_BOARD:             # the board's clock: the fastest fib(20) seen so far
            self.scale = max(self.scale, reference(REPEATS)["scale"])
        self.per_s = self.scale / 1000
        for _ in range(REPEATS):     # the least disturbed run (a shared machine's load only adds)
            me.rng.state = state
            gc.collect()
            if not self.device:     # the device collects while it thinks: no heap figure
                gc.disable()
            before = mem_alloc()
            self.t0 = now_ms()
            if self.device or self.level == "hard" and not self.hard_budget:
                a = me.choose(view, self._clock, HARD_SECONDS)
            else:
                a = me.choose(view)
            ms = min(ms, (now_ms() - self.t0) * self.scale)
            heap = max(heap, mem_alloc() - before)
            gc.enable()
            u = max(u, me.work)
        view = None
        self.n += 1
        self.ms += ms
        self.units += u
        self.worst_ms = max(self.worst_ms, ms)
        self.worst_units = max(self.worst_units, u)
        self.heap = max(self.heap, heap)
        self.overrun = max(self.overrun, ms - HARD_SECONDS * 1000)
        if ms >= HARD_SECONDS * 950:
            self.full += 1
            self.full_units += u
        m.apply(a, s)
        return True

    def row(self):
        n = self.n or 1
        out = {"ai": self.level, "rules": self.name, "decisions": self.n, "mean_ms": round(self.ms / n, 1),
               "worst_ms": round(self.worst_ms, 1), "mean_units": self.units // n,
               "worst_units": self.worst_units, "heap_bytes": self.heap}
        if self.level == "hard":
            out["units_per_s"] = round(self.units * 1000 / self.ms) if self.ms else 0
        if self.device:
            del out["heap_bytes"]
            out["device"] = True
        if self.device or self.level == "hard" and not self.hard_budget:
            out["worst_overrun_ms"] = round(self.overrun, 1)
            # The work of a decision that used all its time: Hard's budget on this board.
            out["deadline_decisions"] = self.full
            out["units_in_deadline"] = self.full_units // self.full if self.full else 0
        return out


def plan(scale, deals=DEALS, games=AI_GAMES, levels=("easy", "normal", "hard"), hard_budget=0, ai_deals=None,
         device=False):
    """Every run of the benchmark, in order: each rule set's engine (none if deals=0),
    then each level per game (ai_deals: seeded deals per level and game instead of
    AI_DEALS; device: Hard as the device plays, see the module's doc)."""
    runs = [EngineRun(name, deals) for name in NAMES + FAMILY] if deals else []
    for level in levels:
        seeds = [11 * (k + 1) for k in range(ai_deals or AI_DEALS[level])]
        for name in games:
            runs.append(AIRun(level, name, seeds, scale, hard_budget, device))
    return runs


class Bench:
    """The benchmark as steps: step() runs the next deal or decision and returns the JSON
    row of a run when it completes, "" otherwise, None when everything is done."""

    def __init__(self, **options):
        ref = reference()
        self.rows = [dumps(ref)]
        self.scale = ref["scale"]
        self.runs = plan(self.scale, **options)

    def step(self):
        if self.rows:
            return self.rows.pop(0)
        if not self.runs:
            return None
        run = self.runs[0]
        if run.step():
            return ""
        self.runs.pop(0)
        return dumps(run.row(self.scale) if isinstance(run, EngineRun) else run.row())


def main():
    bench = Bench()
    while True:
        line = bench.step()
        if line is None:
            return
        if line:
            print(line)
        gc.collect()


if __name__ == "__main__":      # `mpremote run` and `python tools/board_bench.py`
    main()
