"""An error the game did not expect: never CircuitPython's "Code done running".

code.py hands it here: the error is printed on the console (for a computer listening),
one line on the screen says what happened, and the board restarts (supervisor.reload)
into the saved match; the match is saved after every action (sixtysix.save.store), so
nothing is lost and nothing is written now.

A restart that fails again before its first key (the saved match fails at once, say)
must not restart again: the board would restart for ever, its screen lit and its CPU
busy. So a byte of RAM that outlives a restart (alarm.sleep_memory: RAM, no flash wear)
tells the next run why it runs; that run spends it at once (a power-on, a wake from deep
sleep are normal starts). After a second error the screen asks for a key and the board
then restarts into the title, with the backlight off after a minute of waiting.
"""
import gc

RESUME = 0x5A       # this run restarts into the saved match
TITLE = 0xA5        # this run restarts into the title: the restart before it failed at once
WAIT_LIT = 60       # seconds the second error's message stays lit
SHOW = 2            # seconds the first error's message stays before the restart


def memory():
    """The RAM byte's home (alarm.sleep_memory), or None where there is none."""
    try:
        import alarm
        return alarm.sleep_memory
    except (ImportError, AttributeError):
        return None


def spend(mem):
    """Why this run runs: RESUME, TITLE or 0 (a normal start); the byte is cleared."""
    if mem is None:
        return 0
    why = mem[0]
    if why:
        mem[0] = 0
    return why if why in (RESUME, TITLE) else 0


def line(error):
    """The one line the screen shows: the error's type and message."""
    s = str(error)
    return type(error).__name__ + (": " + s if s else "")


def crashed(error, why, pressed, display, events, mem, reload, sleep, clock):
    """After `error` in a run started for `why` (spend()), in which a key was answered
    (`pressed`) or not: say so, then restart (`reload`). `events` is the keys' event
    queue (keypad), read while the second error's message waits for a key."""
    import traceback
    # (CircuitPython 10 and CPython take the error alone; CircuitPython's stubs ask for three)
    traceback.print_exception(error)  # type: ignore[call-arg]
    gc.collect()
    again = why != 0 and not pressed
    try:
        show(display, line(error), "Press a key to restart" if again else "Restarting...")
    except MemoryError:
        pass                            # (no room even for that: restart regardless)
    if again:
        while events.get() is not None:
            pass                        # (presses from before the message)
        start = clock()
        while True:
            e = events.get()
            if e is not None and e.pressed:
                break
            if clock() - start > WAIT_LIT:
                light(display, 0.0)
            sleep(0.05)
    else:
        sleep(SHOW)
    if mem is not None:
        mem[0] = TITLE if again else RESUME
    reload()
    while True:
        sleep(1)                        # (the reload stops this program at once)


def show(display, message, then):
    """The felt, `message` (cut to the screen's width) and what comes next."""
    import displayio
    from sixtysix.core import ui
    chars = display.width // ui.CHAR_W - 2
    g = displayio.Group()
    g.append(ui.rect(0, 0, display.width, display.height, ui.FELT))
    y = display.height // 2 - ui.LINE_H
    g.append(ui.Label(ui.fit(message, chars), ui.CHAR_W, y, ui.RED).view)
    g.append(ui.Label(ui.fit(then, chars), ui.CHAR_W, y + 2 * ui.LINE_H).view)
    ui.arrive(g)
    display.root_group = g
    light(display, 1.0)        # (it may have been dimmed or off)
    display.refresh()


def light(display, level):
    try:
        display.brightness = level
    except (AttributeError, NotImplementedError, RuntimeError, ValueError):
        pass                            # a display without backlight control
