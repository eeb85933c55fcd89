"""Deploy mode: CIRCUITPY writable to code for one boot, when the deploy tool asked for it.

CircuitPython makes CIRCUITPY read-only to code at every power-up, so a deploy over USB
serial cannot write files. `python -m tools.deploy --port PORT` therefore arms a one-shot
flag in the last AREA bytes of microcontroller.nvm (the deploy tool's share of the nvm,
docs/LAYOUT.md) over the REPL and resets the board. At power-up this file spends the flag
FIRST and only then remounts the drive writable for code (the computer sees it read-only
meanwhile; code.py says "Deploying..."). Whatever happens next, the following boot is a
normal one: a board is never stuck in deploy mode.

The flag area is only ever programmed from 0xFF, which costs no flash erase: arming
programs the next free byte with MARK, spending programs the one after, so the area reads
as k MARK bytes followed by 0xFF bytes, and an odd k means armed. Anything else (a torn or
foreign write) reads as "not armed": a normal boot. When the area is full (AREA // 2 = 32
deploys) arming erases it once (the rest of the nvm sector is kept by CircuitPython).

The deploy tool runs arm() from this very file on the board (executed with a __name__
other than "__main__"), so the board arms exactly what its boot.py will spend.
"""

AREA = 64
MARK = 0x66


def marks(nvm):
    """How many MARK bytes lead the flag area, or -1 if the area is not MARKs then 0xFF."""
    end = len(nvm)
    area = nvm[end - AREA:end]
    used = 0
    while used < AREA and area[used] == MARK:
        used += 1
    for byte in area[used:]:
        if byte != 0xFF:
            return -1
    return used


def arm(nvm):
    """Ask for a writable next boot; erases only when the area is full or unreadable."""
    used = marks(nvm)
    if used > 0 and used % 2 == 1:
        return
    end = len(nvm)
    if 0 <= used <= AREA - 2:
        nvm[end - AREA + used] = MARK
    else:
        nvm[end - AREA:end] = bytes((MARK,)) + b"\xff" * (AREA - 1)


def spend(nvm):
    """True if the flag was armed; it is spent before anything else happens."""
    used = marks(nvm)
    if used > 0 and used % 2 == 1:
        nvm[len(nvm) - AREA + used] = MARK
        return True
    return False


if __name__ == "__main__":
    try:
        import microcontroller

        if spend(microcontroller.nvm):
            import storage

            storage.remount("/", readonly=False)
    except Exception:  # no nvm on this board, a flash error: boot normally
        pass
