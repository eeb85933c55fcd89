"""Rule sets and their options (docs/RULES.md sections 2-8).

A rule set is a name plus named options; any option can be overridden alone, e.g.
Rules("standard", target=5). The option names are the ones records use in "options".
"""

from shared_rules.errors import shown

# An object constant: without one, the end of this module's compiled constants points at
# the next heap block and keeps whatever lands there alive (a whole search: 5.7 KB)
# (host_tests/test_firmware_memory.py, test_no_module_pins_the_heap_block_after_its_constants)
HEAP_ANCHOR = "ends in its own block"

# option name -> allowed values, the `standard` value first.
OPTIONS = {
    "pack": (24, 20, 32),                  # cards: A..9, A..J (Schnapsen), A..7 (four-handed)
    "hand_size": (6, 5, 8),                # North American: from the number of players
    "exchange_rank": ("9", "J"),           # the trump card swapped for the turn-up
    "target": (7, 5, 8, 10, 15),           # game points that win the match
    "next_dealer": ("alternate", "winner"),
    "exchange": ("leader", "any", "off"),  # who may exchange: leader on lead, any seat to act, nobody
    "phase2_marriages": (False, True),
    "declare_marriage": (True, False),     # claim 66 by showing a marriage without playing
    "follow": ("beat", "suit", "trump"),   # phase-2 duty: follow+beat else trump / follow only / follow else trump
    "closing": ("leader", "either", "never"),  # who may close: the leader, either player before any lead, nobody
    "close_min_talon": (2, 5),             # talon cards (face-down + trump) needed to close
    "closer_fail": ("standard", "russian"),
    "schwarz": ("tricks", "points"),       # 3 game points when the loser has no trick / no points
    "played_out": ("last-trick", "carry", "annul", "higher"),  # all cards played, nobody declared
    "first_dealer": ("lot", "cut"),
    "declaring": (True, False),            # a player may stop the deal by claiming 66
    "players": (2, 3, 4),
    "ten_of_trumps": (False, True),        # four-handed: 1 game point for the side winning it
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
    # The family (RULES.md 5-8); docs/RULES_IMPLEMENTED.md has the open points we fixed.
    "three-handed": {"exchange": "any", "phase2_marriages": True, "follow": "suit",
                     "played_out": "carry", "first_dealer": "cut", "players": 3},
    "four-handed": {"pack": 32, "hand_size": 8, "players": 4, "exchange": "off",
                    "closing": "never", "declaring": False, "declare_marriage": False},
    "american": {"players": 4, "target": 15, "exchange": "off", "closing": "never",
                 "declaring": False, "declare_marriage": False},
    "idiots": {"exchange": "off", "closing": "never", "declaring": False,
               "declare_marriage": False, "played_out": "higher"},
}

NAMES = ("standard", "hoyle", "russian", "schnapsen")      # the two-handed games
FAMILY = ("three-handed", "four-handed", "american", "idiots")
# How each rule set is played: "two" is the two-handed deal of deal.py.
GAMES = {"three-handed": "three", "four-handed": "four", "american": "american", "idiots": "idiots"}
TEAM_GAMES = ("four", "american")     # the games played by team.TeamDeal, every card dealt
PLAIN = ("two", "idiots")       # the games match.Match plays; the rest: family.new_match


def marriage_points(game, suit, trump, shown):
    """What a marriage in `suit` is worth when shown now, after `shown` marriages in the deal:
    Idiots' counts 20, 40, 60, 80 in order; elsewhere 40 in trumps (with no trump yet the
    marriage's lead names it) and 20 otherwise."""
    if game == "idiots":
        return 20 * (shown + 1)
    return 40 if suit == trump or trump < 0 else 20


class Rules:
    """The options in force for one match; read them as attributes (rules.follow).
    ValueError, naming the option and the rule set, for an option the game does not use
    or cannot play."""

    NAMES = NAMES

    def __init__(self, name="standard", **overrides):
        if type(name) is not str or name not in SETS:
            raise ValueError("unknown rule set " + shown(name) + "; choose one of " + ", ".join(NAMES + FAMILY))
        self.name = name
        self.game = game = GAMES.get(name, "two")
        v = {}
        for key in OPTIONS:
            v[key] = OPTIONS[key][0]
        v.update(SETS[name])
        if game == "american" and overrides.get("players") == 2:
            v["target"] = 10          # seed 003: team and cut-throat games go to 15, the game itself to 10
        self.overrides = {}           # options that differ from the rule set's own
        if overrides:                 # the checks are loaded only for a match with options
            from shared_rules.overrides import checked
            self.overrides = checked(name, game, v, overrides, OPTIONS)
        for key in v:
            setattr(self, key, v[key])
        self.ranks = 6 if self.pack == 24 else (5 if self.pack == 20 else 8)
        # Which card beats which, as the hot loops read it: per rank (A T K Q J 9 8 7, as in
        # cards.RANKS) the ranks of its suit above it, bit r for rank r; above card c lie
        # higher[c & 7] << (c & 24). Every game ranks A 10 K Q J 9 8 7, bit order (RULES.md
        # 1), but North American, "ranking 9, 10, Jack, Queen, King, and Ace" (seed 003,
        # RULES.md 7): A K Q J 10 9, the 10 under A K Q J (0x1D).
        self.higher = b"\x00\x1d\x01\x05\x0d\x1f" if game == "american" else b"\x00\x01\x03\x07\x0f\x1f\x3f\x7f"
