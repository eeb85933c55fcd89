"""Board profiles: one module per supported board, and the only code that names pins.

On the board they live in /lib/profiles/. settings.toml picks one with
SIXTYSIX_PROFILE = "pico_display_pack"; the deploy tool and the settings screen offer
the names in PROFILES. Every profile module has the same shape:

  NAME, WIDTH, HEIGHT   board name and screen size in pixels after rotation
  BOARD_IDS             CircuitPython board ids (board.board_id) the profile is made for:
                        tools.deploy picks the profile by the board's id when no --profile
                        is given (DEFAULT when several fit)
  BUTTONS               role of each key number: "left", "right", "up", "down", "ok", "menu"
  HOLDS                 role of each key number when held down (sixtysix.core.keys.HOLD seconds),
                        or None: a board with few buttons (two on the T-Display) reaches the
                        menu this way; a key with a hold role answers when it is let go
  LABELS                the printed name of each key, same order as BUTTONS
  WAKE_PIN              the button that ends deep sleep, or None (profiles/_power.py)
  BATTERY_PIN, BATTERY_DIVIDER   battery sense through a divider, or None
  SOUND_PIN             the speaker or piezo, driven by PWM (profiles/_sound.py), or None;
                        SOUND_DUTY (optional) its loudness
  display(brightness)   the display with auto_refresh off until the caller has shown
                        something: built here (an ST7789 on SPI), or board.DISPLAY on a
                        board whose CircuitPython sets its screen up; .brightness (0.0-1.0)
                        dims it
  keys()                keypad.Keys whose key numbers follow BUTTONS
  LINK_TX, LINK_RX      the link cable's UART pins (docs/LINK.md), or None where the board
                        has no free hardware UART pair
  link()                that UART as busio.UART (non-blocking reads), or None

Pins are named as the board's own `board` module names them (host_tests/cpcheck.py checks
every name against the board definition of each of BOARD_IDS). Importing a profile
touches no hardware: board, busio, keypad, ... are imported inside display(), keys() and
link() only, so PC tools can read the constants.
"""
import sys

PROFILES = ("pico_display_pack", "waveshare_lcd_1in3", "loose_st7789", "pajenicko_picopad",
            "pimoroni_picosystem", "ugame22", "lilygo_t_display_rp2040")
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


def sound(profile):
    """The board's speaker as a tone output (profiles/_sound.py), or None where it has
    none: then no sound code is imported at all."""
    if profile.SOUND_PIN is None:
        return None
    from profiles._sound import Buzzer
    return Buzzer(profile)
