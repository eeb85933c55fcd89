"""Player settings and statistics: what they are, and their bytes in the store.

Settings are kept as small indexes into CHOICES, so a new choice appended later keeps
old saves readable. Payload: the number of settings n, n indexes, then one varint per
statistic (any count fits), then the device id as a varint (absent in older saves).

The device id is a random 30-bit number drawn once (the first time link play is chosen:
sixtysix.screens.friends), which the link cable tells the other device so each knows who it
plays; the name is the "name" choice.
"""
from sixtysix.save import format as saveformat

# (key, title, choices shown to the player)
CHOICES = (
    ("rules", "Rules", ("standard", "hoyle", "russian", "schnapsen", "three-handed",
                        "four-handed", "american", "american 3", "american 2", "idiots")),
    ("level", "Computer", ("easy", "normal", "hard")),
    ("counting", "Counting", ("casual", "classic")),
    ("target", "Match to", ("rule set", "5", "7")),
    ("hints", "Hints", ("on", "off")),
    ("light", "Brightness", ("100%", "75%", "50%", "25%")),
    ("screen", "Screen off", ("1 min", "2 min", "5 min", "never")),
    ("sleep", "Deep sleep", ("5 min", "10 min", "30 min", "never")),
    ("sound", "Sound", ("on", "off")),          # shown only where the board has a speaker
    ("name", "Name", ("Fox", "Owl", "Hare", "Wren", "Lynx", "Crow", "Seal", "Bear")),
)
DEFAULTS = (0, 1, 0, 0, 0, 0, 1, 1, 0, 0)   # standard, normal computer, ..., screen off after 2 min
SOUND = 8                               # CHOICES index of "sound"
NAME = 9                                # ... and of the name
BRIGHTNESS = (1.0, 0.75, 0.5, 0.25)
STATS = ("matches", "matches_won", "deals", "deals_won")
# the end-of-deal flags of an action record (sixtysix.save.store) -> the statistics they count
FLAG_STATS = ((saveformat.COUNTED, "deals"), (saveformat.WON, "deals_won"), (saveformat.OVER, "matches"),
              (saveformat.MATCH_WON, "matches_won"))


def minutes(text):
    """Seconds in a choice like "2 min"; None for "never"."""
    return None if text == "never" else 60 * int(text.split()[0])


class Settings:
    def __init__(self, speaker=False):
        """`speaker`: the board has one, so the sound is on until the player turns it off."""
        self.index = list(DEFAULTS)
        if not speaker:
            self.index[SOUND] = 1
        self.stats = [0] * len(STATS)
        self.device_id = 0          # none drawn yet (a 30-bit number, never 0)

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
        self.stats[STATS.index(stat)] += n

    def count_flags(self, flags):
        """Count a deal's end as an action record's flags describe it."""
        if flags & saveformat.COUNTED:
            for bit, stat in FLAG_STATS:
                if flags & bit:
                    self.count(stat)

    def to_bytes(self):
        out = bytearray((len(self.index),))
        out.extend(self.index)
        for v in self.stats:
            saveformat.put_uint(out, v)
        saveformat.put_uint(out, self.device_id)
        return bytes(out)

    def load(self, st):
        """Read the store's settings and the deal ends counted after them; returns
        saveformat.CORRUPT (defaults kept) or None. Hands the store the folded payload."""
        raw = st.settings
        problem = saveformat.CORRUPT if st.settings_lost else None
        if raw is not None:
            try:
                index = list(self.index)        # the defaults: a save may predate some
                n = raw[0]
                for i in range(n):
                    if i < len(index):
                        index[i] = raw[1 + i]
                        if index[i] >= len(CHOICES[i][2]):
                            raise ValueError("setting out of range")
                stats = []
                i = 1 + n
                for _ in STATS:
                    v, i = saveformat.get_uint(raw, i)
                    stats.append(v)
                device = 0
                if i < len(raw):
                    device, i = saveformat.get_uint(raw, i)
                if i != len(raw) or device >= 1 << 30:
                    raise ValueError("settings too long")
                self.index = index
                self.stats = stats
                self.device_id = device
            except (IndexError, ValueError):
                problem = saveformat.CORRUPT
        for f in st.counted:
            self.count_flags(f)
        st.settings = self.to_bytes()
        st.counted = []
        return problem

    def save(self, st):
        return st.save_settings(self.to_bytes())
