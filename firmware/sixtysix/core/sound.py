"""Short, quiet tunes on the board's speaker: a card played, a trick won, a marriage, a
deal won or lost.

Loaded only on a board whose profile offers a sound output (profiles.sound: anything with
tone(hz) and off()); elsewhere device.sound is None and nothing here runs. Nothing waits:
cue() starts a tune's first note and the main loop's step() moves to the next note when
its time is up (notes are a frame or a few long), so the screen and the keys never stop
for a tune. Before the computer thinks (a second or more without the loop) hush() stops
whatever sounds.
"""
from shared_rules.actions import MARRY, EXCHANGE

# (frequency in Hz, seconds) per note
TUNES = {
    "play": ((1760, 0.03),),
    "trick": ((1319, 0.05), (1760, 0.08)),
    "marriage": ((1047, 0.06), (1319, 0.06), (1568, 0.1)),
    "won": ((1047, 0.07), (1319, 0.07), (1568, 0.07), (2093, 0.14)),
    "lost": ((784, 0.1), (659, 0.1), (523, 0.2)),
}


class Sound:
    def __init__(self, out, settings, clock):
        self.out = out
        self.settings = settings
        self.clock = clock
        self.tune = ()
        self.next = 0           # the tune's next note
        self.until = 0.0        # when the note sounding now ends

    def cue(self, name):
        """Start tune `name` unless Sound is off (one already sounding gives way)."""
        if self.settings.get("sound") == "on":
            self.tune = TUNES[name]
            self.next = 0
            now = self.clock()
            self.until = now
            self.step(now)

    def acted(self, action, ours):
        """The tune for an action the table has just applied: a marriage, a trick won by
        the person's side (`ours`), any other card played."""
        if MARRY <= action < EXCHANGE:
            self.cue("marriage")
        elif ours:
            self.cue("trick")
        elif action < MARRY:
            self.cue("play")

    def step(self, now):
        """The next note when the current one is over; silence after the last."""
        if not self.tune or now < self.until:
            return
        if self.next < len(self.tune):
            hz, seconds = self.tune[self.next]
            self.next += 1
            self.out.tone(hz)
            self.until = now + seconds
        else:
            self.hush()

    def hush(self):
        if self.tune:
            self.tune = ()
            self.out.off()
