"""Checking the options a match overrides (Rules("standard", target=5)): each must be a
value of the option, used by the game, and playable with the others. Loaded only when a
match has overrides, which keeps it off the board's heap otherwise.
"""
from shared_rules.errors import shown

# The options each kind of game reads besides target and first_dealer, which every game
# has. Any other option would change nothing: it is refused unless it is the set's own.
_DEAL = ("pack", "hand_size", "exchange_rank", "exchange", "phase2_marriages", "declare_marriage",
         "follow", "closing", "close_min_talon", "closer_fail", "schwarz", "played_out", "declaring")
USES = {"two": ("next_dealer",) + _DEAL, "three": _DEAL, "four": ("ten_of_trumps",), "american": ("players",),
        "idiots": ("next_dealer", "pack", "hand_size", "phase2_marriages", "follow", "schwarz")}


def checked(name, game, values, given, options):
    """The overrides that differ from rule set `name`'s own `values`, which they update;
    ValueError naming the option and the rule set when one cannot be played. `options`:
    rules.OPTIONS (handed down: this module is the rules' and does not import them)."""
    out = {}
    for key in given:
        if key not in options:
            raise ValueError("unknown rule option " + shown(key) + " in " + name)
        x = given[key]
        # Only four-handed deals the 32-card pack, and in full; three-handed scores a
        # drawn deal for the dealer, so it never annuls one.
        if not _allowed(x, options[key]) or x != values[key] and (
                key not in USES[game] and key != "target" and key != "first_dealer"
                or key in ("pack", "hand_size") and x in (32, 8) or x == "annul" and game == "three"):
            raise ValueError("rule option " + key + " cannot be " + shown(x) + " in " + name)
        if x != values[key]:
            out[key] = x
    values.update(given)
    why = None
    if values["declare_marriage"] and not values["declaring"]:
        why = "declare_marriage cannot be true when declaring is false"
    elif values["exchange"] != "off" and values["exchange_rank"] == "9" and values["pack"] == 20:
        why = "exchange_rank cannot be '9' with a 20-card pack (no nines)"
    for key, needs, off in (("close_min_talon", "closing", "never"), ("closer_fail", "closing", "never"),
                            ("exchange_rank", "exchange", "off")):
        if key in out and values[needs] == off:
            why = key + " is not used when " + needs + " is " + repr(off)
    if why:
        raise ValueError("in " + name + ", rule option " + why)
    return out


def _allowed(value, values):
    """One of the values, of the same type: 1 is not True and 24.0 is not 24 in a record."""
    for v in values:
        if v == value and type(v) is type(value):
            return True
    return False
