"""Raspberry Pi Pico + Waveshare Pico-LCD-1.3 (1.3" ST7789 IPS, 240x240, 5-way joystick, A/B/X/Y).

Held with the joystick under the left thumb and the keys A, B, X, Y (top to bottom)
under the right thumb:

  joystick left/right/up/down   move            joystick press   ok
  A  ok (play / confirm)        B  menu         X  ok            Y  menu

Each pair of right-hand keys has "ok" above "menu", so either pair works. A and B
come first in BUTTONS so on-screen hints that name the first key of a role say "A"
and "B".

Pins (Waveshare's demo for this board and the wiki page it belongs to):
  LCD  SPI1: SCK GP10, MOSI GP11, CS GP9, DC GP8, RST GP12, backlight GP13 (PWM).
  Keys A GP15, B GP17, X GP19, Y GP21; joystick up GP2, down GP18, left GP16,
  right GP20, press GP3; all active low with the RP2040's pull-ups (pull=True).
Sources:
  github.com/waveshare/Pico_code Python/Pico-LCD-1.3/Pico-LCD-1.3.py (pin constants, keys with
  PULL_UP, backlight PWM on GP13, MADCTL 0x70 = MX|MV, 240x240 window from 0, INVON; its key
  test draws A, B, X, Y top to bottom on the right and the joystick on the left);
  https://www.waveshare.com/wiki/Pico-LCD-1.3 (the product wiki those demos come from);
  the same table in russhughes/st7789py_mpy tft_configs/waveshare_13/tft_config.py.

Driver: profiles/_st7789.py (adafruit_st7789's init: MADCTL MX|MY). rotation=270 with
rowstart=80 shows the
picture the way Waveshare's demo does (MX|MV, no offset); 240x240 ST7789 panels under
CircuitPython need rowstart=80 (kreier/t-display circuitpython9/boot.py uses the same
pins with rowstart=80). The joystick directions above assume rotation 270; with
ROTATION = 90 swap up/down and left/right in KEY_PINS.
SPI: Waveshare's demo asks for 100 MHz; the RP2040 tops out at 62.5 MHz, used here.

Brightness: backlight_pin goes to BusDisplay (PWM); `display.brightness = 0.0 ... 1.0`.
"""
import sys

from profiles import _link, _st7789


NAME = "Waveshare Pico-LCD-1.3"
BOARD_IDS = ("raspberry_pi_pico", "raspberry_pi_pico_w")
WIDTH = 240
HEIGHT = 240
ROTATION = 270
ROWSTART = 80
COLSTART = 0
BAUDRATE = 62500000

SPI_CLOCK = "GP10"
SPI_MOSI = "GP11"
CHIP_SELECT = "GP9"
COMMAND = "GP8"
RESET = "GP12"
BACKLIGHT = "GP13"

BUTTONS = ("ok", "menu", "ok", "menu", "left", "right", "up", "down", "ok")
HOLDS = None
LABELS = ("A", "B", "X", "Y", "LEFT", "RIGHT", "UP", "DOWN", "PRESS")
KEY_PINS = ("GP15", "GP17", "GP19", "GP21", "GP16", "GP20", "GP2", "GP18", "GP3")

WAKE_PIN = "GP15"          # A (ok) ends deep sleep
# The Pico reads VSYS through a 3:1 divider on GP29 (ADC3), which its board module names
# VOLTAGE_MONITOR (also A3; there is no board.GP29 on the Pico or the Pico W).
BATTERY_PIN = "VOLTAGE_MONITOR"
BATTERY_DIVIDER = 3
SOUND_PIN = None           # no speaker

# The link cable (docs/LINK.md): UART0 on header pins 1 (GP0, TX) and 2 (GP1, RX), GND on pin 3;
# free with the board: it uses GP2, GP3, GP8-13 and GP15-21.
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
