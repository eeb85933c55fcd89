"""Measuring helpers that run inside the VM (copied to /lib/mpvm_probe.py on every run).

Plain MicroPython/CircuitPython, so a benchmark can also run it on the board.
"""
import gc


def alloc(fn, *args):
    """Return (bytes allocated by fn(*args), its result), garbage included.

    The GC is off while fn runs, so nothing it allocates is reclaimed before the second
    reading; calling through here allocates nothing itself.
    """
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        result = fn(*args)
        after = gc.mem_alloc()
    finally:
        gc.enable()
    return after - before, result
