"""Sixty-Six firmware: screens, buttons, saving and the main loop (see app.py).

Runs on CircuitPython (code.py builds the board's display, keys and nvm) and,
unchanged, in the PC simulator (tools/sim.py builds PC stand-ins).
"""


def forget(*names):
    """Drop modules that are done with (their screen is gone; a description read once;
    the two-handed deal in a team match), so their code leaves the heap (~3 KB each);
    they compile again if needed. A name is whole ("sixtysix.link.play",
    "shared_rules.ai.hard") or sixtysix's ("link.play"); the module leaves its package
    too (sixtysix.link's attribute play)."""
    import sys
    for name in names:
        if not (name.startswith("sixtysix.") or name.startswith("shared_rules.")):
            name = __name__ + "." + name
        if name in sys.modules:
            del sys.modules[name]
            dot = name.rfind(".")
            parent = sys.modules.get(name[:dot])     # (None: forgotten just before it)
            if parent is not None and hasattr(parent, name[dot + 1:]):
                delattr(parent, name[dot + 1:])
