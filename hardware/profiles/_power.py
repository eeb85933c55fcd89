"""Power on the board: deep sleep that a button ends, and the battery's charge.

Read from a profile's constants, so a new profile only names its pins:
  WAKE_PIN          the button (pressed = low) whose press ends deep sleep, or None where
                    the board cannot wake that way (the game then only turns the
                    backlight off)
  BATTERY_PIN       an analog pin reading the battery through a divider, or None
  BATTERY_DIVIDER   battery volts per volt at that pin (a Pico's VSYS/3 on GP29: 3)
  BATTERY_EMPTY, BATTERY_FULL   optional: the volts shown as 0% and 100% (default: one
                    LiPo cell, 3.4 V and 4.1 V)

The game sees only a Power: woke, can_sleep, deep_sleep(), has_battery, battery().
"""
EMPTY = 3.4
FULL = 4.1


class Power:
    def __init__(self, profile, display, keys):
        self.profile = profile
        self.display = display
        self.keys = keys
        try:
            import alarm
            self.woke = alarm.wake_alarm is not None       # this start ends a deep sleep
            self.can_sleep = profile.WAKE_PIN is not None
        except ImportError:
            self.woke = False
            self.can_sleep = False
        self.adc = None
        if profile.BATTERY_PIN is not None:
            import analogio
            import board
            self.adc = analogio.AnalogIn(getattr(board, profile.BATTERY_PIN))
        self.has_battery = self.adc is not None

    def battery(self):
        """The charge as a share from 0.0 (EMPTY volts or less) to 1.0 (FULL or more)."""
        p = self.profile
        volts = self.adc.value * self.adc.reference_voltage / 65535 * p.BATTERY_DIVIDER
        empty = getattr(p, "BATTERY_EMPTY", EMPTY)
        full = getattr(p, "BATTERY_FULL", FULL)
        return max(0.0, min(1.0, (volts - empty) / (full - empty)))

    def deep_sleep(self):
        """Panel asleep, keys released (keypad holds the pin), then deep sleep until the
        wake button: CircuitPython ends the program, and a press starts it again."""
        import alarm
        import board
        from alarm.pin import PinAlarm
        from profiles import _st7789
        _st7789.sleep(self.display)
        self.keys.deinit()
        alarm.exit_and_deep_sleep_until_alarms(
            PinAlarm(getattr(board, self.profile.WAKE_PIN), value=False, pull=True))
