"""Sixty-Six rules engine and AI, shared by the board (CircuitPython) and the PC.

Dependency-free on purpose: the same files run on CPython 3.11 and CircuitPython 9/10.
Cards are small ints and card sets are int bitmasks (see `cards`).
"""
