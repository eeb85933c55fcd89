"""µGame 22 by deshipu (RP2040, 2.2" 320x240, D-pad, X/O/Z; board id ugame22).

Nothing to wire: CircuitPython's own build for this board sets the screen up at power-on
(board.DISPLAY), so display() hands that one out and never builds a second. The panel
has no backlight pin: Brightness and Screen off cannot dim it (deep sleep still sends
it to sleep).

Held like a game pad: the D-pad under the left thumb, O and X under the right, Z apart.

  D-pad                 move (left/right choose a card; up opens the menu on the table)
  O  ok (play / confirm)     X  menu     Z  menu

O is the main button, as in CircuitPython's own ugame module for this board (K_O).

Pins (CircuitPython's board definition ugame22: its stub in circuitpython-stubs
board_definitions/ugame22, and board.c): BUTTON_UP GP10, BUTTON_DOWN GP7, BUTTON_LEFT
GP11, BUTTON_RIGHT GP9, BUTTON_X GP6, BUTTON_O GP8, BUTTON_Z GP0; TFT SPI0: SCK GP2,
MOSI GP3, DC GP4, CS GP5, RST GP1 (board.c: 320x240 after rotation, no offsets, SPI asked
for 80 MHz, no backlight pin); I2S audio: DIN GP23, BCLK GP24, LRCLK GP25, GAIN GP22;
SDA GP14, SCL GP15.
Polarity: pressed pulls the pin low (CircuitPython's frozen ugame.py for ugame22:
keypad.Keys(..., value_when_pressed=False), whose pull defaults to True).
Battery: the board definition names no battery-sense pin: no battery symbol.
Sound: an I2S amplifier (audiobusio), not a PWM pin: the game's tones are not played
here (SOUND_PIN None).
SPI clock: board.c's 80 MHz is above what the RP2040 gives (its 125 MHz peripheral clock
halved): 62.5 MHz; BAUDRATE says so for tools/devicecost.py.

No link cable: the pins the board names leave no hardware UART pair free (a UART's TX is
GP0/4/8/12/16/20/24/28 with RX on the next pin; GP0-11 and GP22-25 are taken, GP14/15 are
no TX/RX pair, and the board names no other pin). The game says so (docs/LINK.md).
"""
import sys

from profiles import _builtin, _link, _st7789

NAME = "uGame 22"
BOARD_IDS = ("ugame22",)
WIDTH = 320
HEIGHT = 240
BAUDRATE = 62500000     # for tools/devicecost.py; the display itself is board.DISPLAY

BUTTONS = ("ok", "menu", "menu", "left", "right", "up", "down")
HOLDS = None
LABELS = ("O", "X", "Z", "LEFT", "RIGHT", "UP", "DOWN")
KEY_PINS = ("BUTTON_O", "BUTTON_X", "BUTTON_Z", "BUTTON_LEFT", "BUTTON_RIGHT", "BUTTON_UP",
            "BUTTON_DOWN")
LINK_TX = None
LINK_RX = None

WAKE_PIN = "BUTTON_O"       # O (ok) ends deep sleep
BATTERY_PIN = None
BATTERY_DIVIDER = None
SOUND_PIN = None            # I2S, not PWM (above)


def display(brightness=1.0):
    """The board's own display (board.DISPLAY); it has no backlight to dim."""
    return _builtin.display(brightness)


def keys():
    """The keys as keypad.Keys, key numbers in BUTTONS order; pressed pulls the pin low."""
    return _st7789.keys(sys.modules[__name__])


def link():
    """None: this board has no link cable."""
    return _link.uart(sys.modules[__name__])
