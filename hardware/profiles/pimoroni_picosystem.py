"""Pimoroni PicoSystem (RP2040, 1.54" ST7789 IPS 240x240, D-pad, A/B/X/Y, piezo, LiPo; board id pimoroni_picosystem).

Nothing to wire: CircuitPython's own build for this board sets the screen up at power-on
(board.DISPLAY, backlight GP12 by PWM), so display() hands that one out and never builds
a second. Flash CircuitPython for "Pimoroni PicoSystem", deploy, play.

Held like a game pad: the D-pad under the left thumb, A/B/X/Y under the right.

  D-pad                 move (left/right choose a card; up opens the menu on the table)
  A  ok (play / confirm)     B  menu
  X  ok                      Y  menu

A and B come first among the keys so on-screen hints say "A" and "B"; A is the main
button, as in CircuitPython's own ugame module for this board (K_O = SW_A).

Pins (CircuitPython's board definition pimoroni_picosystem: its stub in circuitpython-stubs
board_definitions/pimoroni_picosystem, and board.c): SW_UP GP23, SW_DOWN GP20, SW_LEFT GP22,
SW_RIGHT GP21, SW_A GP18, SW_B GP19, SW_X GP17, SW_Y GP16; AUDIO GP11 (piezo); BAT_SENSE
GP26; CHARGE_STAT GP24; TX GP0, RX GP1; LCD SPI0: SCLK GP6, MOSI GP7, CS GP5, DC GP9,
RESET GP4, VSYNC GP8, BACKLIGHT GP12 (board.c: 240x240, no offsets, SPI asked for 60 MHz,
backlight by PWM). The board names no GPn pins: the profile uses these names.
Polarity: pressed pulls the pin low, with pull-ups (Pimoroni's picosystem library,
libraries/hardware.cpp: init_inputs() pulls every button up and button() is
`!(gpio & bit)`; CircuitPython's frozen ugame.py for the board: keypad.Keys(...,
value_when_pressed=False, pull=True)).
Battery: BAT_SENSE reads it at a third of its voltage (hardware.cpp _battery_voltage():
`v * 3.0f`, "correct for voltage divider on board").
Sound: the piezo on AUDIO, driven by PWM at the note's frequency (the library's tone
output; CircuitPython's ugame.py plays samples there with audiopwmio).
SPI clock: the RP2040 divides its 125 MHz peripheral clock by even numbers, so board.c's
60 MHz becomes 31.25 MHz; BAUDRATE says so for tools/devicecost.py.

The link cable (docs/LINK.md): UART0 on TX (GP0) and RX (GP1), free on this board (the
list above). Not confirmed: where GP0 and GP1 can be reached on the PicoSystem's board
(the case has no expansion connector); a link needs the case opened and three wires.
"""
import sys

from profiles import _builtin, _link, _st7789

NAME = "Pimoroni PicoSystem"
BOARD_IDS = ("pimoroni_picosystem",)
WIDTH = 240
HEIGHT = 240
BAUDRATE = 31250000     # for tools/devicecost.py; the display itself is board.DISPLAY

BUTTONS = ("ok", "menu", "ok", "menu", "left", "right", "up", "down")
HOLDS = None
LABELS = ("A", "B", "X", "Y", "LEFT", "RIGHT", "UP", "DOWN")
KEY_PINS = ("SW_A", "SW_B", "SW_X", "SW_Y", "SW_LEFT", "SW_RIGHT", "SW_UP", "SW_DOWN")
LINK_TX = "TX"
LINK_RX = "RX"

WAKE_PIN = "SW_A"           # A (ok) ends deep sleep
BATTERY_PIN = "BAT_SENSE"   # GP26: the LiPo through a 3:1 divider
BATTERY_DIVIDER = 3
SOUND_PIN = "AUDIO"         # GP11: the piezo


def display(brightness=1.0):
    """The board's own display (board.DISPLAY), backlight at brightness (0.0-1.0)."""
    return _builtin.display(brightness)


def keys():
    """The keys as keypad.Keys, key numbers in BUTTONS order; pressed pulls the pin low."""
    return _st7789.keys(sys.modules[__name__])


def link():
    """The link cable's UART (busio.UART, reads never wait)."""
    return _link.uart(sys.modules[__name__])
