"""LILYGO T-Display RP2040 (1.14" ST7789 IPS 240x135, two buttons; board id lilygo_t_display_rp2040).

Nothing to wire: CircuitPython's own build for this board powers the panel (TFT_POWER
GP22) and sets the screen up at power-on (board.DISPLAY, backlight GP4 by PWM), so
display() hands that one out and never builds a second.

Two buttons reach everything (sixtysix.core.keys: a key with a hold role answers when let go):

  L          next: the next card, menu line, bid or page      (role "right")
  R          ok: play the raised card, choose                 (role "ok")
  hold L/R   menu: the actions and the main menu; back        (role "menu", held 0.5 s)

The game shows this the first time it starts and in Rules (its buttons page).

Pins (CircuitPython's board definition lilygo_t_display_rp2040: pins.c, board.c, and its
stub in circuitpython-stubs): BUTTON_L GP6 (also BUTTON0), BUTTON_R GP7 (BUTTON1),
VOLTAGE_MONITOR GP26, TFT_POWER GP22, LED GP25; LCD SPI0: CLK GP2, MOSI GP3, CS GP5,
DC GP1, RESET GP0, BACKLIGHT GP4 (board.c: 240x135, column start 40, row start 53, SPI
asked for 40 MHz, mode 1/0). LILYGO's README (github.com/Xinyuan-LilyGO/LILYGO-T-display-RP2040)
gives the same: TFT_MOSI 3, TFT_SCLK 2, TFT_CS 5, TFT_DC 1, TFT_RST 0, TFT_BL 4, PWR_ON 22,
BOTTON1 6, BOTTON2 7.
Polarity: pressed pulls the pin low (russhughes/st7789py_mpy tft_configs/ttgo_tdisplay_rp2040:
Pin(6, Pin.IN), Pin(7, Pin.IN), read by its examples as pressed when 0); pull=True adds the
RP2040's pull-ups.
Not confirmed (LILYGO's schematic is a PDF we could not read): the battery divider on
VOLTAGE_MONITOR. 2 is taken, the 100k/100k divider LILYGO uses on its other T-Display
boards; if the symbol shows a charged cell as empty, set BATTERY_DIVIDER = 3.
SPI clock: the RP2040 divides its 125 MHz peripheral clock by even numbers, so board.c's
40 MHz becomes 31.25 MHz; BAUDRATE says so for tools/devicecost.py.

The link cable (docs/LINK.md): UART1 on GP8 (TX) and GP9 (RX), free GP pins the board
definition names. Not GP1/GP2, which pins.c also calls TX and RX: they are the LCD's DC
and clock (and GP2 is no UART TX/RX pin). Not confirmed: where GP8 and GP9 sit on the
board's headers.
"""
import sys

from profiles import _builtin, _link, _st7789

NAME = "LILYGO T-Display RP2040"
BOARD_IDS = ("lilygo_t_display_rp2040",)
WIDTH = 240
HEIGHT = 135
BAUDRATE = 31250000     # for tools/devicecost.py; the display itself is board.DISPLAY

BUTTONS = ("right", "ok")
HOLDS = ("menu", "menu")
LABELS = ("L", "R")
KEY_PINS = ("BUTTON_L", "BUTTON_R")
LINK_TX = "GP8"
LINK_RX = "GP9"

WAKE_PIN = "BUTTON_R"           # R (ok) ends deep sleep
BATTERY_PIN = "VOLTAGE_MONITOR"  # GP26, through a divider (above: not confirmed)
BATTERY_DIVIDER = 2
SOUND_PIN = None                # no speaker


def display(brightness=1.0):
    """The board's own display (board.DISPLAY), backlight at brightness (0.0-1.0)."""
    return _builtin.display(brightness)


def keys():
    """The keys as keypad.Keys, key numbers in BUTTONS order; pressed pulls the pin low."""
    return _st7789.keys(sys.modules[__name__])


def link():
    """The link cable's UART (busio.UART, reads never wait)."""
    return _link.uart(sys.modules[__name__])
