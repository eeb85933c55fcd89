"""A speaker or piezo driven by PWM on the pin a profile names as SOUND_PIN.

A square wave at the note's frequency, its loudness set by the duty cycle (a short
pulse is quiet): what Pimoroni's PicoSystem library and PicoLibSDK (PicoPad) do on the
same pins. The pin keeps its PWM slice for the whole run (variable_frequency), so a note
is two register writes and never waits. sixtysix.core.sound decides what to play and when.
"""
DUTY = 0x0800       # 1/32 of the period: quiet


class Buzzer:
    def __init__(self, p):
        import board
        import pwmio

        self.duty = getattr(p, "SOUND_DUTY", DUTY)
        self.pwm = pwmio.PWMOut(getattr(board, p.SOUND_PIN), frequency=440, duty_cycle=0,
                                variable_frequency=True)

    def tone(self, frequency):
        """Sound `frequency` Hz until the next tone() or off()."""
        self.pwm.frequency = frequency
        self.pwm.duty_cycle = self.duty

    def off(self):
        self.pwm.duty_cycle = 0
