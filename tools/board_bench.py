"""Benchmark the engine where it runs: a board, the MicroPython VM, or CPython.

    mpremote run tools/board_bench.py        (shared_rules/ must be in the board's /lib)

Self-contained: needs only `shared_rules` on the path. Prints random deals per second
and heap allocated per deal (gc disabled while measuring, so every allocation counts).
On CPython the heap figure is 0 (it has no gc.mem_alloc); use `python -m tools.bench`.
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

from shared_rules.rules import Rules
from shared_rules.deal import dealt
from shared_rules.rng import Rng
from shared_rules.cards import listed, pack
from shared_rules.randplay import random_play

DEALS = 50


def play_deals(rules, n, seed):
    """Play n random deals; returns (milliseconds, bytes allocated, actions)."""
    rng = Rng(seed)
    order = listed(pack(rules.ranks))
    actions = 0
    gc.collect()
    gc.disable()
    before = mem_alloc()
    t0 = ticks_ms()
    for _ in range(n):
        rng.shuffle(order)
        d = dealt(rules, order)
        d.log = None
        while not d.ended:
            random_play(d, rng)
            actions += 1
    ms = ticks_diff(ticks_ms(), t0)
    used = mem_alloc() - before
    gc.enable()
    gc.collect()
    return ms, used, actions


def main():
    for name in Rules.NAMES:
        rules = Rules(name)
        ms, used, actions = play_deals(rules, DEALS, 7)
        rate = DEALS * 1000 // ms if ms else 0
        print("engine", name, "deals", DEALS, "ms", ms, "deals_per_s", rate,
              "bytes_per_deal", used // DEALS, "actions", actions)


main()
