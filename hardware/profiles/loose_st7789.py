"""Bare Raspberry Pi Pico + a loose 1.14" ST7789 module (240x135, 8 pins with CS) + 4 buttons.

The module is the common 1.14" IPS board with pins GND VCC SCL SDA RES DC CS BLK (the
same 135x240 panel as Adafruit's 1.14" TFT and Pimoroni's Display Pack). Wiring, using
SPI0 and the same display pins as the Display Pack, matches the table in
hardware/BUILD.md (a test keeps them equal):

  SCL GP18   SDA GP19   CS GP17   DC GP16   RES GP21   BLK GP20 (PWM)   VCC 3V3(OUT)
  Buttons from the pin to GND, no resistors (internal pull-ups, pull=True):
  LEFT GP14   RIGHT GP15   OK GP13   MENU GP12

Driver: profiles/_st7789.py (adafruit_st7789's init) with rotation=270, rowstart=40,
colstart=53, the numbers
Adafruit and public code use for this panel. If the picture is upside down for the way
you mounted the module, set ROTATION = 90 (the offsets stay).
SPI at 24 MHz (CircuitPython's default) because jumper wires are long; try 62500000
once it works.

The 1.3" 240x240 module instead: WIDTH = HEIGHT = 240, ROWSTART = 80, COLSTART = 0.
Many of those have no CS pin (7 pins: GND VCC SCL SDA RES DC BLK): then set
CHIP_SELECT = None and SPI_MODE = 3, which they are reported to need (not verified here).

Brightness: BLK goes to BusDisplay as backlight_pin (PWM); `display.brightness = 0.0 ... 1.0`.
Pin numbers: Raspberry Pi Pico pinout as printed on Pimoroni's pack schematics
(https://cdn.shopify.com/s/files/1/0174/1800/files/pico_display_pack_schematic.pdf).
"""
import sys

from profiles import _link, _st7789


NAME = "Pico + loose ST7789 1.14in"
BOARD_IDS = ("raspberry_pi_pico", "raspberry_pi_pico_w")
WIDTH = 240
HEIGHT = 135
ROTATION = 270
ROWSTART = 40
COLSTART = 53
BAUDRATE = 24000000
SPI_MODE = 0

SPI_CLOCK = "GP18"
SPI_MOSI = "GP19"
CHIP_SELECT = "GP17"
COMMAND = "GP16"
RESET = "GP21"
BACKLIGHT = "GP20"

BUTTONS = ("left", "right", "ok", "menu")
HOLDS = None
LABELS = ("LEFT", "RIGHT", "OK", "MENU")
KEY_PINS = ("GP14", "GP15", "GP13", "GP12")

WAKE_PIN = "GP13"          # OK ends deep sleep
# The Pico reads VSYS through a 3:1 divider on GP29 (ADC3), which its board module names
# VOLTAGE_MONITOR (also A3; there is no board.GP29 on the Pico or the Pico W).
BATTERY_PIN = "VOLTAGE_MONITOR"
BATTERY_DIVIDER = 3
SOUND_PIN = None           # no speaker

# The link cable (docs/LINK.md): UART0 on header pins 1 (GP0, TX) and 2 (GP1, RX), GND on pin 3;
# free with the wiring above: it uses GP12-21.
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
