"""The tours of the boards issue as keys files, made for a board's buttons.

Each tour starts on a freshly deployed board (the title, cursor on its first line) and
uses only the roles every board has (right, ok, menu). At the table the cursor always
rests on a playable card or bid, so `ok` alone plays a whole match, and after its end
starts the next deal or match. A board whose first start explains its buttons (the
T-Display) is sent past that screen first. `python -m tools.emu --tour NAME` runs one;
`python -m tools.emu --tour list` names them.
"""

RULES = ("standard", "hoyle", "russian", "schnapsen", "three-handed", "four-handed", "american",
         "american 3", "american 2", "idiots")
# Settings' lines in order (save.settings.CHOICES), Sound only on a board with a speaker
SETTINGS = (("rules", 10), ("level", 3), ("counting", 2), ("target", 3), ("hints", 2), ("light", 4),
            ("screen", 4), ("sleep", 4), ("sound", 2), ("name", 8))
TITLE = ("new", "settings", "stats", "rules", "friend")
MATCH_PRESSES = 120       # two or three deals of a two-handed match, a whole one of the short ones


def prologue(profile):
    """Keys that bring a freshly deployed board to its title's first line."""
    return ["ok    # past the first start's Buttons page"] if profile.HOLDS else []


def title(item):
    """From the title (cursor on its first line): open `item`."""
    i = TITLE.index(item)
    return (["right %d" % i] if i else []) + ["ok"]


def settings(profile, rules=None, level=None):
    """Open Settings, set the rule set and the computer's level (from the defaults:
    standard, normal), go back to the title."""
    keys = title("settings")
    if rules and RULES.index(rules):
        keys.append("ok %d    # rules: %s" % (RULES.index(rules), rules))
    if level:
        keys += ["right", "ok %d    # computer: %s" % ((("easy", "normal", "hard").index(level) - 1) % 3, level)]
    return keys + ["menu"]


def tour_settings(profile):
    """Every settings line through all its values (back where it was), twice; Statistics
    and the rules' pages; the link screen with no cable."""
    keys = []
    for n in range(2):
        keys += title("settings")
        shown = [(k, c) for k, c in SETTINGS if k != "sound" or profile.SOUND_PIN is not None]
        for i, (key, count) in enumerate(shown):
            keys += (["right"] if i else []) + ["ok %d    # %s" % (count, key)]
        keys += ["shot settings-%d" % n, "menu"]
        keys += title("stats") + ["shot stats-%d" % n, "menu"]
        keys += title("rules") + ["right", "ok    # Read the rules"] + ["right"] * 6 + \
            ["shot rules-%d" % n, "menu", "menu"]
        keys += title("friend") + ["ok    # Link cable", "wait 3000", "shot link-%d" % n, "menu", "menu"]
    return keys


def tour_match(profile, rules, presses=MATCH_PRESSES):
    """A match of `rules` at Hard: `presses` of ok, a shot every 40."""
    keys = settings(profile, rules, "hard") + title("new")
    for n in range(0, presses, 40):
        keys += ["ok %d" % min(40, presses - n), "shot %s-%d" % (rules.replace(" ", "-"), n // 40)]
    return keys


def tour_pass(profile, rules, presses=MATCH_PRESSES):
    """Pass-and-play at Hard (the default seats: two or more people, the computer the rest)."""
    players = 4 if rules == "four-handed" else 3
    return settings(profile, rules, "hard") + title("friend") + \
        ["right", "ok    # Pass and play", "right %d" % players, "ok    # Start", "shot pass-start"] + \
        ["ok %d" % presses, "shot pass-end"]


def tour_texts(profile, times=10):
    """Statistics and the rules' pages, `times` each."""
    keys = []
    for n in range(times):
        keys += title("stats") + ["menu"] + title("rules") + ["right", "ok"] + ["right"] * 3 + ["menu", "menu"]
    return keys + ["shot texts"]


def tour_lesson(profile):
    """Rules > Learn to play, to its end. Its deal and its moves are the same on every
    board, so the presses are found by playing it in the simulator (tools.sim's Driver,
    doing the move each step asks for: the raised card, or the action menu's line)."""
    from tools.sim import Sim, Driver
    sim = Sim(profile.__name__.rsplit(".", 1)[-1])
    sim.boot()
    sim.settle()
    sim.run_script(prologue(profile) + title("rules") + ["ok"])
    lesson = sim.app.screen
    pressed = []
    press = sim.press
    sim.press = lambda role, settle=True: (pressed.append(role), press(role, settle))
    driver = Driver(sim, lambda deal, seat: lesson.script[lesson.at][1])
    for _ in range(300):
        if sim.app.screen is not lesson:
            break
        driver.act()
    return title("rules") + ["ok    # Learn to play", "shot lesson-start"] + pressed + ["shot lesson-end"]


def tour_continue(profile):
    """A match started, the power cut mid-deal, Continue on the title, the match goes on."""
    return title("new") + ["ok 12", "shot before-cut", "powercut", "shot after-cut", "ok    # Continue",
                           "shot continued", "ok 12", "shot after"]


def tour_linked(profile, presses=80):
    """Two boards on the cable: both open the link screen, a offers its four-handed
    match at Hard, b accepts, and both play (the computer holds the other seats)."""
    keys = []
    for b in "ab":
        keys += ["%s %s" % (b, k) for k in prologue(profile) + settings(profile, "four-handed", "hard")]
        keys += ["%s %s" % (b, k) for k in title("friend") + ["ok    # Link cable"]]
    keys += ["wait 4000", "shot connected", "a ok    # offer", "wait 2000", "shot offer", "b ok    # accept",
             "wait 4000", "shot table"]
    for n in range(presses // 2):
        keys += ["a ok", "b ok"]
    return keys + ["shot played"]


TOURS = {
    "settings": tour_settings,
    "texts": tour_texts,
    "lesson": tour_lesson,
    "continue": tour_continue,
    "pass-three": lambda p: tour_pass(p, "three-handed"),
    "pass-four": lambda p: tour_pass(p, "four-handed"),
}
TOURS.update({"match-" + r.replace(" ", "-"): (lambda p, r=r: tour_match(p, r)) for r in RULES})
LINKED = {"linked": tour_linked}


def keys(name, profile):
    """The lines of tour `name` for the profile (a linked tour's lines name their board)."""
    if name in LINKED:
        return LINKED[name](profile)
    return prologue(profile) + TOURS[name](profile)
