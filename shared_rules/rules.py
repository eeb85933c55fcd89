"""Rule sets and their options (RULES.md sections 2-4).

A rule set is a name plus named options; any option can be overridden alone, e.g.
Rules("standard", target=5). The option names are the ones records use in "options".
"""

# option name -> allowed values, the `standard` value first.
OPTIONS = {
    "pack": (24, 20),                      # cards in the pack: A..9, or A..J (Schnapsen)
    "hand_size": (6, 5),
    "exchange_rank": ("9", "J"),           # the trump card swapped for the turn-up
    "target": (7, 5, 8),                   # game points that win the match
    "next_dealer": ("alternate", "winner"),
    "exchange": ("leader", "any", "off"),  # who may exchange: leader on lead, any seat to act, nobody
    "phase2_marriages": (False, True),
    "declare_marriage": (True, False),     # claim 66 by showing a marriage without playing
    "follow": ("beat", "suit", "trump"),   # phase-2 duty: follow+beat else trump / follow only / follow else trump
    "closing": ("leader", "either"),       # who may close: the leader, or either player before any lead
    "close_min_talon": (2, 5),             # talon cards (face-down + trump) needed to close
    "closer_fail": ("standard", "russian"),
    "schwarz": ("tricks", "points"),       # 3 game points when the loser has no trick / no points
    "played_out": ("last-trick", "carry", "annul"),  # all cards played, nobody declared
    "first_dealer": ("lot", "cut"),
}

# Each rule set as its differences from `standard` (RULES.md section 3 and 4).
SETS = {
    "standard": {},
    "hoyle": {"exchange": "any", "phase2_marriages": True, "follow": "suit",
              "played_out": "carry", "first_dealer": "cut"},
    "russian": {"target": 8, "next_dealer": "winner", "exchange": "off",
                "declare_marriage": False, "follow": "trump", "closing": "either",
                "close_min_talon": 5, "closer_fail": "russian", "schwarz": "points",
                "played_out": "annul"},
    "schnapsen": {"pack": 20, "hand_size": 5, "exchange_rank": "J"},
}

NAMES = ("standard", "hoyle", "russian", "schnapsen")


class Rules:
    """The options in force for one match; read them as attributes (rules.follow)."""

    NAMES = NAMES

    def __init__(self, name="standard", **overrides):
        if name not in SETS:
            raise ValueError("unknown rule set " + repr(name) + "; choose one of " + ", ".join(NAMES))
        self.name = name
        base = {}
        for key in OPTIONS:
            base[key] = OPTIONS[key][0]
        base.update(SETS[name])
        self.overrides = {}                # options that differ from the rule set's own
        for key in overrides:
            if key not in OPTIONS:
                raise ValueError("unknown rule option " + repr(key))
            if overrides[key] not in OPTIONS[key]:
                raise ValueError("rule option " + key + " cannot be " + repr(overrides[key]))
            if overrides[key] != base[key]:
                self.overrides[key] = overrides[key]
        base.update(overrides)
        for key in base:
            setattr(self, key, base[key])
        self.ranks = 6 if self.pack == 24 else 5
        self.exchange_card_rank = 5 if self.exchange_rank == "9" else 4

    def __repr__(self):
        return "Rules(" + repr(self.name) + "".join(", " + k + "=" + repr(v) for k, v in self.overrides.items()) + ")"
