"""The screen of a handheld whose CircuitPython sets it up at power-on (board.DISPLAY).

Such a board's own firmware builds the display from its board.c (bus, panel start-up,
backlight), so the game never constructs a second one: it takes board.DISPLAY, turns
auto_refresh off as the profiles that build theirs do (the caller shows its own group,
refreshes, then turns it on), and sets the brightness where the board can dim it.
"""


def display(brightness):
    """board.DISPLAY with auto_refresh off, backlight at brightness (0.0-1.0) where the
    board drives one (a board without: CircuitPython refuses, and the screen stays lit)."""
    import board

    screen = getattr(board, "DISPLAY")
    screen.auto_refresh = False
    try:
        screen.brightness = brightness
    except (AttributeError, NotImplementedError, RuntimeError, ValueError):
        pass
    return screen
