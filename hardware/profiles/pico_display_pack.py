"""Raspberry Pi Pico + Pimoroni Pico Display Pack (1.14" ST7789 IPS, 240x135, A/B/X/Y, RGB LED).

Held in landscape with the printed labels readable: A (top) and B (bottom) on the left
of the screen, X (top) and Y (bottom) on the right.

  B  left   (left thumb, bottom)    Y  right  (right thumb, bottom)
  A  menu   (left thumb, top)       X  ok     (right thumb, top: play / confirm)

Left and right sit under the thumbs of the same names; the play key is above "right".

Pins (Pimoroni's pin constants and schematic):
  LCD  SPI0: SCK GP18, MOSI GP19, CS GP17, DC GP16, backlight GP20 (PWM); no reset line.
  Keys A GP12, B GP13, X GP14, Y GP15; active low, no pull-ups on the pack (pull=True).
  RGB LED GP6/GP7/GP8 (not used by the game). GP21 is the panel's TE line (unused).
Sources:
  github.com/pimoroni/pimoroni-pico libraries/pico_display/pico_display.hpp (A=12 B=13 X=14 Y=15)
  and pico_display.cpp (LED 6/7/8, buttons pulled up, pressed = low);
  common/pimoroni_common.hpp (SPI_DEFAULT_SCK 18, MOSI 19, DC 16; BG_SPI_FRONT CS 17, PWM 20);
  drivers/st7789/st7789.hpp (SPI_BAUD 62.5 MHz) and st7789.cpp (240x135 landscape: MADCTL
  MX|MV, column window from 40, row window from 53, INVON);
  schematic https://cdn.shopify.com/s/files/1/0174/1800/files/pico_display_pack_schematic.pdf
  (GP12/A, GP13/B, GP14/X, GP15/Y, GP16, GP17/SCS, GP18/SCK, GP19/STX, GP20/BL, GP21/TE).

Driver: profiles/_st7789.py (adafruit_st7789's init, MADCTL MX|MY and INVON, without its
waits). rotation=270 with
rowstart=40, colstart=53 lands on the same panel area and orientation as Pimoroni's
landscape mode; public CircuitPython code for this pack uses the same numbers. If the
picture is upside down on your unit, set ROTATION = 90 (the offsets stay the same).

Brightness: the backlight pin goes to BusDisplay as backlight_pin, so CircuitPython
drives it with PWM and `display.brightness = 0.0 ... 1.0` dims it.
"""
import sys

from profiles import _link, _st7789


NAME = "Pimoroni Pico Display Pack"
BOARD_IDS = ("raspberry_pi_pico", "raspberry_pi_pico_w")
WIDTH = 240
HEIGHT = 135
ROTATION = 270
ROWSTART = 40
COLSTART = 53
BAUDRATE = 62500000

SPI_CLOCK = "GP18"
SPI_MOSI = "GP19"
CHIP_SELECT = "GP17"
COMMAND = "GP16"
RESET = None
BACKLIGHT = "GP20"

BUTTONS = ("left", "right", "ok", "menu")
HOLDS = None
LABELS = ("B", "Y", "X", "A")
KEY_PINS = ("GP13", "GP15", "GP14", "GP12")

WAKE_PIN = "GP14"          # X (ok) ends deep sleep
# The Pico reads VSYS through a 3:1 divider on GP29 (ADC3), which its board module names
# VOLTAGE_MONITOR (also A3; there is no board.GP29 on the Pico or the Pico W).
BATTERY_PIN = "VOLTAGE_MONITOR"
BATTERY_DIVIDER = 3
SOUND_PIN = None           # no speaker

# The link cable (docs/LINK.md): UART0 on header pins 1 (GP0, TX) and 2 (GP1, RX), GND on pin 3;
# free with the pack: it uses GP6-8 and GP12-21.
LINK_TX = "GP0"
LINK_RX = "GP1"


def display(brightness=1.0):
    """The ST7789 as a BusDisplay, backlight at brightness (0.0-1.0)."""
    return _st7789.display(sys.modules[__name__], brightness)


def keys():
    """The keys as keypad.Keys, key numbers in BUTTONS order; pressed pulls the pin low."""
    return _st7789.keys(sys.modules[__name__])


def link():
    """The link cable's UART (busio.UART, reads never wait)."""
    return _link.uart(sys.modules[__name__])
