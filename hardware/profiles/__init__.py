"""Board profiles: one module per supported board, and the only code that names pins.

On the board they live in /lib/profiles/. settings.toml picks one with
SIXTYSIX_PROFILE = "pico_display_pack"; the deploy tool and the settings screen offer
the names in PROFILES. Every profile module has the same shape:

  NAME, WIDTH, HEIGHT   board name and screen size in pixels after rotation
  BOARD_IDS             CircuitPython board ids (board.board_id) the profile is made for:
                        tools.deploy picks the profile by the board's id when no --profile
                        is given (DEFAULT when several fit)
  BUTTONS               role of each key number: "left", "right", "up", "down", "ok", "menu"
  LABELS                the printed name of each key, same order as BUTTONS
  WAKE_PIN              the button that ends deep sleep, or None (profiles/_power.py)
  BATTERY_PIN, BATTERY_DIVIDER   battery sense through a divider, or None
  display(brightness)   the display with auto_refresh off until the caller has shown
                        something: built here (an ST7789 on SPI), or board.DISPLAY on a
                        board whose CircuitPython sets its screen up; .brightness (0.0-1.0)
                        dims it
  keys()                keypad.Keys whose key numbers follow BUTTONS
  LINK_TX, LINK_RX      the link cable's UART pins (docs/LINK.md)
  link()                that UART as busio.UART (non-blocking reads)

Importing a profile touches no hardware: board, busio, keypad, ... are imported inside
display(), keys() and link() only, so PC tools can read the constants.
"""
import sys

PROFILES = ("pico_display_pack", "waveshare_lcd_1in3", "loose_st7789", "pajenicko_picopad")
DEFAULT = "pico_display_pack"


def load(name=None):
    """The profile module called name (DEFAULT when name is empty)."""
    if not name:
        name = DEFAULT
    if name not in PROFILES:
        raise ValueError("unknown board profile %r; choose one of: %s" % (name, ", ".join(PROFILES)))
    full = __name__ + "." + name
    __import__(full)
    return sys.modules[full]


def power(profile, display, keys):
    """The board's deep sleep and battery for the game, from the profile's constants."""
    from profiles._power import Power
    return Power(profile, display, keys)
