"""Benchmark the engine and the AI where they run: a board, the MicroPython VM, or CPython.

    mpremote run tools/board_bench.py        (shared_rules/ must be in the board's /lib)

Self-contained: needs only `shared_rules` on the path. Prints random deals per second
and heap allocated per deal (gc disabled while measuring, so every allocation counts).
On CPython the heap figure is 0 (it has no gc.mem_alloc); use `python -m tools.bench`.

Then, per AI level, it plays fixed seeded deals (standard rules; the level in seat 0,
Normal in seat 1) and prints the decisions timed (mean and worst ms), the work units
reached (Hard: playout cards plus solver nodes; Normal: endgame solver nodes; Easy: 0)
and the heap high-water mark of one decision (bytes allocated with the GC off, garbage
included). Hard plays against its deadline (HARD_SECONDS) with no work limit, so its
units show the work budget this machine reaches in that time.
"""
import gc

try:
    from time import ticks_ms, ticks_diff
except ImportError:
    try:
        from supervisor import ticks_ms
    except ImportError:
        from time import monotonic

        def ticks_ms():
            return int(monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

try:
    mem_alloc = gc.mem_alloc
except AttributeError:          # CPython: no heap figure
    def mem_alloc():
        return 0

from shared_rules.rules import Rules, FAMILY, TEAM_GAMES
from shared_rules.deal import dealt
from shared_rules.rng import Rng
from shared_rules.cards import listed, pack
from shared_rules.ai.randplay import random_play, random_team_play
from shared_rules.match import Match
from shared_rules.ai import make_player

DEALS = 50
AI_SEEDS = (11, 22, 33, 44)      # one deal per seed; Hard plays the first two
HARD_SECONDS = 1.5


def play_deals(rules, n, seed):
    """Play n random deals; returns (milliseconds, bytes allocated, actions)."""
    deal_from, play = dealt, random_play
    if rules.game in TEAM_GAMES:
        from shared_rules.team import dealt as deal_from
        play = random_team_play
    rng = Rng(seed)
    order = listed(pack(rules.ranks))
    actions = 0
    gc.collect()
    gc.disable()
    before = mem_alloc()
    t0 = ticks_ms()
    for _ in range(n):
        rng.permute(order)
        d = deal_from(rules, order)
        d.log = None
        while not d.ended:
            play(d, rng)
            actions += 1
    ms = ticks_diff(ticks_ms(), t0)
    used = mem_alloc() - before
    gc.enable()
    gc.collect()
    return ms, used, actions


def _seconds():
    return ticks_ms() / 1000


def _units(player):
    if player.level == "hard":
        return player.search.units
    if player.solver is not None:
        return player.solver.nodes
    return 0


def ai_bench(level, seeds, hard_seconds=HARD_SECONDS, hard_budget=0):
    """Time the level's decisions over one deal per seed (seat 0 vs Normal in seat 1).

    Returns (decisions, total ms, worst ms, total units, worst units, worst heap bytes).
    hard_budget > 0 fixes Hard's work instead of its deadline.
    """
    rules = Rules("standard")
    n = total_ms = worst_ms = total_u = worst_u = worst_heap = 0
    for seed in seeds:
        m = Match(rules, "casual", seed)
        me = make_player(level, seed, budget=hard_budget or (1 << 29)) if level == "hard" \
            else make_player(level, seed)
        other = make_player("normal", seed + 1)
        d = m.deal
        while not d.ended:
            s = d.to_act
            view = d.view(s)
            if m.player_at(s) != 0:
                m.apply(other.choose(view), s)
                continue
            if level == "normal":
                me.solver.nodes = 0
            gc.collect()
            gc.disable()
            before = mem_alloc()
            t0 = ticks_ms()
            if level == "hard" and not hard_budget:
                a = me.choose(view, _seconds, t0 / 1000 + hard_seconds)
            else:
                a = me.choose(view)
            ms = ticks_diff(ticks_ms(), t0)
            heap = mem_alloc() - before
            gc.enable()
            u = _units(me)
            n += 1
            total_ms += ms
            total_u += u
            worst_ms = ms if ms > worst_ms else worst_ms
            worst_u = u if u > worst_u else worst_u
            worst_heap = heap if heap > worst_heap else worst_heap
            m.apply(a, s)
    return n, total_ms, worst_ms, total_u, worst_u, worst_heap


def ai_main(hard_seconds=HARD_SECONDS, hard_budget=0):
    for level in ("easy", "normal", "hard"):
        seeds = AI_SEEDS[:2] if level == "hard" else AI_SEEDS
        n, tms, wms, tu, wu, heap = ai_bench(level, seeds, hard_seconds, hard_budget)
        n = n or 1
        print("ai", level, "decisions", n, "mean_ms", tms // n, "worst_ms", wms,
              "mean_units", tu // n, "worst_units", wu, "heap_bytes", heap)


def main():
    for name in Rules.NAMES + FAMILY:
        rules = Rules(name)
        ms, used, actions = play_deals(rules, DEALS, 7)
        rate = DEALS * 1000 // ms if ms else 0
        print("engine", name, "deals", DEALS, "ms", ms, "deals_per_s", rate,
              "bytes_per_deal", used // DEALS, "actions", actions)
    ai_main()


if __name__ == "__main__":      # `mpremote run` and `python tools/board_bench.py`
    main()
