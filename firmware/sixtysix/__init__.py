"""Sixty-Six firmware: screens, buttons, saving and the main loop (see app.py).

Runs on CircuitPython (code.py builds the board's display, keys and nvm) and,
unchanged, in the PC simulator (tools/sim.py builds PC stand-ins).
"""


def forget(name, *names):
    """Drop modules that are done with (their screen is gone; a description read once;
    the two-handed deal in a team match), so their code leaves the heap (~3 KB each);
    they compile again if needed. forget("sixtysix.table", "build", "parts"): modules of
    a package by their short names; forget("shared_rules.ai.hard"): one module (or
    package) by its whole name. Short names cost nothing, the board has each (its
    module's name in its package), where a whole name in a module's constants is a
    string in the heap while that module is loaded. The module leaves its package too."""
    import sys
    if not names:
        dot = name.rfind(".")
        name, names = name[:dot], (name[dot + 1:],)
    parent = sys.modules.get(name)
    for short in names:
        if "." in short:
            raise ValueError(short)     # (a whole name: "sixtysix.table", "build")
        whole = name + "." + short
        if whole in sys.modules:
            del sys.modules[whole]
            if parent is not None and hasattr(parent, short):
                delattr(parent, short)
