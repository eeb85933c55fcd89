"""What the title's choices need, imported while it waits for a key.

The title's menu comes at once and takes keys at once (a key pressed while it comes
waits in the key queue and is answered when the menu is there). Then, a step a frame in
frames without a key (App.warm), the store is rewritten if it needs it (while the heap
has its 4 KB in one piece, rather than in the frame that starts a match), the computer's
modules and another game's engine and team tables are forgotten, and the table and the
engine a match of the chosen game needs are imported, and the saved match's if that is
another game, one module a frame, and the saved match is checked: a module is
precompiled (.mpy), so an import takes a few ms to ~40 ms, and a key pressed meanwhile
waits for that one only. The computer's modules load in the table's first frames.
Forgetting before importing keeps one game's modules in the heap at a time (the heap
measured on the board ran out where the new game's were loaded before the old one's
went). This module is the title's: forgotten when a match starts (App.start). Its steps
are given the device (the store, the settings, the session, the warm), not the app: they
are the title's warm, which the app drops when the title goes (App.clear).
"""
import sys
import sixtysix
from sixtysix.save import format as saveformat

# What a match's table needs, whatever the game, in import order; needs() adds the
# game's engine and its computer. The table's build modules are forgotten once a table
# is built (the title loads them again).
TABLE = ("shared_rules.errors", "shared_rules.cards", "shared_rules.actions", "shared_rules.rules",
         "shared_rules.rng", "shared_rules.match", "sixtysix.save.savegame", "sixtysix.table.driver",
         "sixtysix.table.boxes", "sixtysix.table.view", "sixtysix.table.parts", "sixtysix.table.build")


def needs(game, level=None, linked=False):
    """The modules a match of `game` against the computer at `level` needs, each after
    its own imports (none of them compiles while the match plays); without a level, the
    table's and the engine's, not the computer's (the title's: see plan). A linked
    match's table saves through its session (sixtysix.link.match): not sixtysix.save.savegame."""
    from shared_rules.rules import TEAM_GAMES, PLAIN
    names = [n for n in TABLE if not linked or n != "sixtysix.save.savegame"]
    if game in TEAM_GAMES:
        names.append("shared_rules.team")
    else:
        names += ("shared_rules.view", "shared_rules.deal")
    if game not in PLAIN:                   # three players or four: their scores' columns too
        names += ("shared_rules.family", "sixtysix.table.teams")
    try:
        from shared_rules import ai
    except ImportError:
        return names                        # a board without the AI
    names.append("shared_rules.ai")         # (the package alone: what each level needs)
    return names if level is None else names + list(ai.modules(level, game))


def saved(st):
    """(game, level) of the match against the computer in store `st`, or None."""
    raw = st.header() if st.in_progress() else None
    if raw is None:
        return None
    from sixtysix.save import savegame
    try:
        r, _, level, _ = savegame.opening(raw)
    except (IndexError, KeyError, TypeError, ValueError):
        return None                         # (Loading.check says it is damaged)
    return r.game, level


def leave(game, level, linked, people):
    """App.start: what a match of `game` at `level` needs (needs()), and what goes as its
    table comes: what the title loaded for another game or level (keep) and, not while
    the cards are out, the menu screens and this loading, the ways to a match, its
    options' checks; a linked match's: the link screen, the local save's; pass-and-play's
    when `people` is one person (loaded for a pass-and-play set-up left). Here, not in the
    app: a long constant (a package's name) the board has no name for yet is a string in
    the heap for as long as its module is loaded, and the app always is."""
    need = needs(game, level, linked)
    keep(need)
    sixtysix.forget("sixtysix.screens", "title", "loading", *SCREENS)
    sixtysix.forget("shared_rules", "overrides")
    sixtysix.forget("sixtysix.link", "screen")
    if linked:
        sixtysix.forget("sixtysix.save", "savegame")
    if people == 1:
        sixtysix.forget("sixtysix.table", "passplay")
    return need


def new_game(device, people):
    """A new match for a table (New match: `people` 1; pass-and-play's Start: the persons'
    bits), replacing a linked match in progress (the other device is told): App.start's
    arguments. Made here, not in the app or where it plays, so that none of it stays
    while it does."""
    s = device.session
    if s is not None and s.in_match():
        s.leave()
    return new_match(device), device.settings.get("level"), True, people


def new_match(device):
    """A new match of the rules, counting and seed the device has."""
    s = device.settings
    rules = s.rules()
    seed = device.seed
    if seed is None:
        import random
        seed = random.getrandbits(30)
    else:
        device.seed = seed + 1
    from shared_rules.rules import PLAIN
    if rules.game in PLAIN:                 # the family module only where it is needed
        from shared_rules.match import Match
        return Match(rules, s.get("counting"), seed)
    from shared_rules.family import new_match
    return new_match(rules, s.get("counting"), seed)


def keep(*kept):
    """Forget the engine's, the computer's and the team tables' modules that none of
    `kept` (needs() lists, each with its own imports) has: another game's, another
    level's."""
    for n in [n for n in sys.modules if (n.startswith("shared_rules.") or n == "sixtysix.table.teams")
              and not any(n in k for k in kept)]:
        sixtysix.forget(n)


# The other screens' modules: each loads when its screen is chosen (App.before) and goes
# at the title (begin) and at the table (App.start).
SCREENS = ("settings", "text", "menu", "rulestext", "friends")     # of sixtysix.screens


def begin(device):
    """The title's work for its idle frames (App.warm): the other screens' modules go, and
    link play's session and modules unless a linked match is set up or playing (link play
    was left, or its match is over: on the real firmware the title's next game at Hard
    beside them had 12 KB free, 17 KB without them, and after a linked match a linked
    four-handed one ran out of memory as it started; choosing them again loads them
    again), the store's rewrite if it
    needs one, then (plan) what the choices need. Each step is the title's: once it is
    left (Settings, a friend's screens, which load what they need), the app drops the
    steps left with it (App.clear)."""
    st = device.store
    warm = device.warm
    s = device.session
    sixtysix.forget("sixtysix.screens", *SCREENS)
    sixtysix.forget("shared_rules", "overrides")
    if s is None or not s.in_match():
        sixtysix.forget("sixtysix.table", "seats", "passplay")
        if "sixtysix.link.match" in sys.modules:
            from sixtysix.link.session import drop
            warm.append(lambda: drop(device))
    if st.dirty and st.problem != saveformat.NEWER:
        warm.append(st.rewrite)
    warm.append(lambda: plan(device))


def plan(device):
    """Forget the computer's modules and another game's, then import (one a frame: load)
    the table and the engine a new match of the chosen game needs, and the saved match's.
    The computer's modules come in the table's first frames (App.start), before its first
    thought: beside the title on the real firmware, North American Hard's left 16.5 KB
    free."""
    want = needs(device.settings.rules().game)
    got = saved(device.store)
    other = needs(got[0]) if got else []
    keep(want, other)
    todo = [n for n in want + other if n not in sys.modules]
    device.warm.append(lambda: load(device, todo))


def load(device, todo):
    """A frame's step while the title is there: the next module of `todo`; when all are
    in, the saved match checked (what that says: the title again, or nothing)."""
    if todo:
        __import__(todo.pop(0))
        device.warm.append(lambda: load(device, todo))
        return None
    return check(device)


def check(device):
    """Make sure the saved match really continues: a damaged one is forgotten (the next
    save rewrites the store) and the title comes again, saying so, without Continue
    ("title": the app goes there, App.warm_up; if the title was left before, Continue
    finds it, App.open)."""
    from sixtysix.save import savegame
    st = device.store
    if st.in_progress() and st.header() is not None and savegame.load(st) == saveformat.CORRUPT:
        st.records = bytearray()
        device.notice = saveformat.NOTICES[saveformat.CORRUPT]
        return "title"
    return None
