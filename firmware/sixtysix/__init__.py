"""Sixty-Six firmware: screens, buttons, saving and the main loop (see app.py).

Runs on CircuitPython (code.py builds the board's display, keys and nvm) and,
unchanged, in the PC simulator (tools/sim.py builds PC stand-ins).
"""


def forget(*names):
    """Drop sixtysix modules that are done with (their screen is gone; a description read
    once), so their code leaves the heap (~3 KB each); they compile again if needed."""
    import sys
    here = sys.modules[__name__]
    for name in names:
        if __name__ + "." + name in sys.modules:
            del sys.modules[__name__ + "." + name]
            delattr(here, name)
