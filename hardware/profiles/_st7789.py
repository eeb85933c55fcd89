"""What every profile shares: an ST7789 panel on an SPI bus, and keys that pull a pin low.

A profile passes itself (its module) so its constants are the only place pins are named.
"""

# The panel's start-up, in displayio's init-sequence bytes (command, argument count |
# 0x80 when a delay follows, arguments, delay in ms). The same commands as
# adafruit_st7789 (16-bit colour, BGR, inverted for IPS) without its 1.17 s of waits:
# the ST7789 datasheet asks 5 ms after SWRESET (120 ms when the panel was awake) and
# 5 ms after SLPOUT; Pimoroni's own driver waits 150 ms and 0 ms. That second is
# a third of the time from power-on to the title.
INIT = (b"\x01\x80\x96"        # SWRESET, 150 ms
        b"\x11\x80\x0a"        # SLPOUT, 10 ms
        b"\x3a\x01\x55"        # COLMOD: 16 bits a pixel
        b"\x36\x01\xc0"        # MADCTL: the rotation BusDisplay adds to, BGR order
        b"\x21\x00"            # INVON: IPS panels show inverted values
        b"\x13\x00"            # NORON
        b"\x29\x00")           # DISPON: the caller's first picture comes next


def display(p, brightness):
    """The profile's ST7789 as a BusDisplay, backlight at brightness (0.0-1.0) by PWM. It
    is built with auto_refresh off, so CircuitPython never draws its console on it: the
    caller shows its own group, refreshes, then turns auto_refresh on."""
    import board
    import busdisplay
    import busio
    import displayio
    import fourwire

    displayio.release_displays()
    spi = busio.SPI(clock=getattr(board, p.SPI_CLOCK), MOSI=getattr(board, p.SPI_MOSI))
    mode = getattr(p, "SPI_MODE", 0)
    bus = fourwire.FourWire(spi, command=getattr(board, p.COMMAND),
                            chip_select=getattr(board, p.CHIP_SELECT) if p.CHIP_SELECT else None,
                            reset=getattr(board, p.RESET) if p.RESET else None,
                            baudrate=p.BAUDRATE, polarity=mode >> 1, phase=mode & 1)
    return busdisplay.BusDisplay(bus, INIT, width=p.WIDTH, height=p.HEIGHT, rotation=p.ROTATION,
                                 rowstart=p.ROWSTART, colstart=p.COLSTART,
                                 backlight_pin=getattr(board, p.BACKLIGHT),
                                 brightness=brightness, auto_refresh=False)


def sleep(display):
    """Put the panel to sleep (DISPOFF, SLPIN: microamps instead of milliamps); the next
    start resets it."""
    display.auto_refresh = False
    display.bus.send(0x28, b"")
    display.bus.send(0x10, b"")


def keys(p):
    """keypad.Keys on the profile's KEY_PINS (key numbers in BUTTONS order); pressed = low."""
    import board
    import keypad

    return keypad.Keys(tuple(getattr(board, pin) for pin in p.KEY_PINS),
                       value_when_pressed=False, pull=True)
