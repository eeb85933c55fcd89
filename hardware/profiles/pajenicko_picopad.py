"""Pajenicko PicoPad (RP2040, 2.4" ST7789 IPS 320x240, D-pad, A/B/X/Y, speaker; board id pajenicko_picopad).

Nothing to wire: CircuitPython's own build for this board sets the screen up at power-on
(board.DISPLAY, backlight LCD_BL GP16 driven by the firmware), so display() hands that
one out and never builds a second.

Held in landscape: the D-pad under the left thumb, the four keys under the right.

  D-pad                 move (left/right choose a card; up opens the menu on the table)
  A  ok (play / confirm)     B  menu
  X  ok                      Y  menu

A and B come first among the keys so on-screen hints that name the first key of a role
say "A" and "B" (as on the Waveshare board).

Pins (CircuitPython's board definition pajenicko_picopad: pins.c, board.c, and its stub in
circuitpython-stubs board_definitions/pajenicko_picopad): SW_UP GP4, SW_DOWN GP5,
SW_LEFT GP3, SW_RIGHT GP2, SW_A GP7, SW_B GP6, SW_X GP9, SW_Y GP8; AUDIO GP15; BAT_SENSE
GP29; TX GP0, RX GP1 (also SDA, SCL); LCD SPI0: SCLK GP18, MOSI GP19, CS GP21, DC GP17,
RESET GP20, backlight GP16 (board.c: 320x240, no offsets, SPI asked for 60 MHz).
Polarity: the keys pull the pin to ground; public CircuitPython code for the PicoPad reads
them with Pull.UP (pressed = low), so pull=True adds the RP2040's pull-ups.
Battery: BAT_SENSE reads it at a third of its voltage (PicoLibSDK _devices/picopad:
BAT_PIN 29, BAT_MUL 3). Sound: AUDIO GP15 drives the speaker by PWM (PicoLibSDK's PWM
sound output on GP15).
SPI clock: the RP2040 divides its 125 MHz peripheral clock by even numbers, so board.c's
60 MHz becomes 31.25 MHz (the highest rate not above the one asked for); BAUDRATE says so
for the simulator's cost estimate (tools/devicecost.py).

The link cable (docs/LINK.md): UART0 on GP0 (TX) and GP1 (RX), the board's TX and RX
pins on its expansion header; free: the board uses GP2-22 and GP26 (above).
"""
import sys

from profiles import _builtin, _link, _st7789

NAME = "Pajenicko PicoPad"
BOARD_IDS = ("pajenicko_picopad",)
WIDTH = 320
HEIGHT = 240
BAUDRATE = 31250000     # for tools/devicecost.py; the display itself is board.DISPLAY

BUTTONS = ("ok", "menu", "ok", "menu", "left", "right", "up", "down")
HOLDS = None
LABELS = ("A", "B", "X", "Y", "LEFT", "RIGHT", "UP", "DOWN")
KEY_PINS = ("SW_A", "SW_B", "SW_X", "SW_Y", "SW_LEFT", "SW_RIGHT", "SW_UP", "SW_DOWN")
LINK_TX = "GP0"
LINK_RX = "GP1"

WAKE_PIN = "SW_A"           # A (ok) ends deep sleep
BATTERY_PIN = "BAT_SENSE"   # GP29: the battery through a 3:1 divider (PicoLibSDK's picopad_bat)
BATTERY_DIVIDER = 3
SOUND_PIN = "AUDIO"         # GP15: the speaker


def display(brightness=1.0):
    """The board's own display (board.DISPLAY), backlight at brightness (0.0-1.0)."""
    return _builtin.display(brightness)


def keys():
    """The keys as keypad.Keys, key numbers in BUTTONS order; pressed pulls the pin low."""
    return _st7789.keys(sys.modules[__name__])


def link():
    """The link cable's UART (busio.UART, reads never wait)."""
    return _link.uart(sys.modules[__name__])
