"""What the emulator must know of each board that the firmware image does not say itself.

A board profile names its pins by the `board` module's names (GP13, SW_A, BUTTON_O);
the emulator drives GPIO numbers. For a Pico build the names are the GPIO numbers, and
the profile says where its panel is wired. A handheld's CircuitPython builds its panel
in its board.c, and its pins.c gives its names: both copied here from CircuitPython
10.0.3's ports/raspberrypi/boards/<id>/ (only the names our profiles use, and the panel).
"""

# board id: {"pins": {name: GPIO}, "panel": (SPI clock GPIO, DC GPIO, CS GPIO) or None}
BOARDS = {
    "raspberry_pi_pico": {"pins": {"VOLTAGE_MONITOR": 29}, "panel": None},
    "pimoroni_picosystem": {
        "pins": {"TX": 0, "RX": 1, "AUDIO": 11, "SW_Y": 16, "SW_X": 17, "SW_A": 18,
                 "SW_B": 19, "SW_DOWN": 20, "SW_RIGHT": 21, "SW_LEFT": 22, "SW_UP": 23, "BAT_SENSE": 26},
        "panel": (6, 9, 5)},
    "pajenicko_picopad": {
        "pins": {"AUDIO": 15, "SW_X": 9, "SW_Y": 8, "SW_A": 7, "SW_B": 6, "SW_DOWN": 5, "SW_RIGHT": 2,
                 "SW_LEFT": 3, "SW_UP": 4, "BAT_SENSE": 29, "TX": 0, "RX": 1},
        "panel": (18, 17, 21)},
    "ugame22": {
        "pins": {"BUTTON_Z": 0, "BUTTON_X": 6, "BUTTON_DOWN": 7, "BUTTON_O": 8, "BUTTON_RIGHT": 9,
                 "BUTTON_UP": 10, "BUTTON_LEFT": 11},
        "panel": (2, 4, 5)},
    "lilygo_t_display_rp2040": {
        "pins": {"BUTTON_L": 6, "BUTTON_R": 7, "VOLTAGE_MONITOR": 26},
        "panel": (2, 1, 5)},
}


class BoardError(ValueError):
    """A profile names a pin or board the emulator does not know."""


def gpio(board_id, name):
    """The GPIO number of pin `name` on the board."""
    if name.startswith("GP") and name[2:].isdigit():
        return int(name[2:])
    try:
        return BOARDS[board_id]["pins"][name]
    except KeyError:
        raise BoardError("the emulator does not know pin %s of %s" % (name, board_id)) from None


def spi_of(clock):
    """The SPI block (0 or 1) whose clock a GPIO can carry (GP2/6/18/22: SPI0; 10/14/26: SPI1)."""
    return (clock >> 3) & 1


def panel(board_id, profile):
    """{spi, dc, cs, rotation} of the profile's panel: the board's own, or the one the profile wires."""
    if board_id not in BOARDS:
        raise BoardError("the emulator has no model of board %s (it knows %s)" % (board_id, ", ".join(BOARDS)))
    builtin = BOARDS[board_id]["panel"]
    if builtin is not None:     # the board's own display: its board.c sets it up unturned
        clock, dc, cs = builtin
        rotation = 0
    else:                       # the profile builds it, turned by displayio's rotation
        clock, dc = gpio(board_id, profile.SPI_CLOCK), gpio(board_id, profile.COMMAND)
        cs = gpio(board_id, profile.CHIP_SELECT) if profile.CHIP_SELECT else None
        rotation = profile.ROTATION
    return {"spi": spi_of(clock), "dc": dc, "cs": cs, "rotation": rotation}


def battery(board_id, profile, volts=4.0):
    """{ADC channel: 12-bit reading} for a battery at `volts` on the profile's pin (GPIO 26-29)."""
    if profile.BATTERY_PIN is None:
        return {}
    pin = gpio(board_id, profile.BATTERY_PIN)
    if not 26 <= pin <= 29:
        raise BoardError("%s is GPIO %d, not an ADC pin" % (profile.BATTERY_PIN, pin))
    return {pin - 26: min(4095, round(volts / profile.BATTERY_DIVIDER / 3.3 * 4095))}
