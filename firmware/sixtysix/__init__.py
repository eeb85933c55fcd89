"""Sixty-Six firmware: screens, buttons, saving and the main loop (see app.py).

Runs on CircuitPython (code.py builds the board's display, keys and nvm) and,
unchanged, in the PC simulator (tools/sim.py builds PC stand-ins).
"""
