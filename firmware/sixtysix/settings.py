"""Player settings and statistics: what they are, and their bytes in the store.

Settings are kept as small indexes into CHOICES, so the saved form is one byte
each and a new choice appended later keeps old saves readable.
"""
from sixtysix import store

KIND = 83       # "S"
VERSION = 1

# (key, title, choices shown to the player)
CHOICES = (
    ("rules", "Rules", ("standard", "hoyle", "russian", "schnapsen", "three-handed",
                        "four-handed", "american", "american 3", "american 2", "idiots")),
    ("level", "Computer", ("easy", "normal", "hard")),
    ("counting", "Counting", ("casual", "classic")),
    ("target", "Match to", ("rule set", "5", "7")),
    ("hints", "Hints", ("on", "off")),
    ("light", "Brightness", ("100%", "75%", "50%", "25%")),
)
DEFAULTS = (0, 1, 0, 0, 0, 0)      # standard, normal computer, casual, ..., full brightness
BRIGHTNESS = (1.0, 0.75, 0.5, 0.25)
STATS = ("matches", "matches_won", "deals", "deals_won")


class Settings:
    def __init__(self):
        self.index = list(DEFAULTS)
        self.stats = [0] * len(STATS)

    def get(self, key):
        """The chosen value as shown ("easy", "casual", ...)."""
        for i, c in enumerate(CHOICES):
            if c[0] == key:
                return c[2][self.index[i]]
        raise KeyError(key)

    def cycle(self, i, step=1):
        self.index[i] = (self.index[i] + step) % len(CHOICES[i][2])

    def brightness(self):
        return BRIGHTNESS[self.index[5]]

    def rules(self):
        """The Rules of the chosen game: "american 3" is North American for 3 players."""
        from shared_rules.rules import Rules
        words = self.get("rules").split()
        options = {}
        if len(words) > 1:
            options["players"] = int(words[1])
        t = self.target_override()
        if t:
            options["target"] = t
        return Rules(words[0], **options)

    def target_override(self):
        """The match target to pass to Rules, or None for the rule set's own."""
        t = self.get("target")
        return None if t == "rule set" else int(t)

    def count(self, stat, n=1):
        i = STATS.index(stat)
        self.stats[i] = min(self.stats[i] + n, 0xFFFF)

    def to_bytes(self):
        out = bytearray(self.index)
        for v in self.stats:
            out.append(v & 255)
            out.append(v >> 8)
        return bytes(out)

    def load(self, st):
        """Read from a Store; returns store.EMPTY/CORRUPT/OLD or None when loaded."""
        raw = st.load(store.SETTINGS_AT, store.SETTINGS_SLOT, KIND, VERSION)
        if not isinstance(raw, bytes):
            return raw
        n = len(CHOICES)
        if len(raw) != n + 2 * len(STATS):
            return store.CORRUPT
        for i in range(n):
            if raw[i] >= len(CHOICES[i][2]):
                return store.CORRUPT
        self.index = list(raw[0:n])
        self.stats = [raw[n + 2 * i] | raw[n + 2 * i + 1] << 8 for i in range(len(STATS))]
        return None

    def save(self, st):
        return st.save(store.SETTINGS_AT, store.SETTINGS_SLOT, KIND, VERSION, self.to_bytes())
