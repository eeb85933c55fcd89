"""The title's loading: everything its choices need, imported before it takes keys.

Compiling a module takes 50-200 ms on the board (about 10 ms a KB of code), and a key
pressed meanwhile waits for it. So modules compile only while a screen is loading,
never while it waits for a key: the title shows its heading and fan, then (Loading, a
step a frame) imports what a match of the chosen game and level needs, and what the
saved match needs if that is another, one module a frame (a module's own imports
before it), checks the saved match, and only then shows its menu. At the table nothing
compiles. This module is the title's: forgotten when a match starts (App.start), it
takes no heap while the computer thinks.
"""
import sys
import sixtysix
from sixtysix import store, ui
from sixtysix.app import NOTICES, PLAIN

# What a match's table needs, whatever the game, in import order; needs() adds the
# game's engine and its computer. The table's build modules are forgotten once a table
# is built (the title loads them again).
TABLE = ("shared_rules.errors", "shared_rules.cards", "shared_rules.actions", "shared_rules.rules",
         "shared_rules.rng", "shared_rules.match", "sixtysix.savegame", "sixtysix.dialogs",
         "sixtysix.game", "sixtysix.tableparts", "sixtysix.tablebuild")


def needs(game, level):
    """The modules a match of `game` against the computer at `level` needs, each after
    its own imports (none of them compiles while the match plays)."""
    from shared_rules.rules import TEAM_GAMES
    names = list(TABLE)
    if game in TEAM_GAMES:
        names.append("shared_rules.team")
    else:
        names += ("shared_rules.view", "shared_rules.deal")
    if game not in PLAIN:                   # three players or four: their scores' columns too
        names += ("shared_rules.family", "sixtysix.teams")
    try:
        from shared_rules import ai
    except ImportError:
        return names                        # a board without the AI
    return names + ["shared_rules.ai"] + list(ai.modules(level, game))


def saved(st):
    """(game, level) of the match against the computer in store `st`, or None."""
    raw = st.header() if st.in_progress() else None
    if raw is None:
        return None
    from sixtysix import savegame
    try:
        r, _, level, _ = savegame.opening(raw)
    except (IndexError, KeyError, TypeError, ValueError):
        return None                         # (Loading.check says it is damaged)
    return r.game, level


def keep(*kept):
    """Forget the engine's, the computer's and the team tables' modules that none of
    `kept` (needs() lists, each with its own imports) has: another game's, another
    level's."""
    sixtysix.forget(*[n for n in sys.modules if (n.startswith("shared_rules.") or n == "sixtysix.teams")
                      and not any(n in k for k in kept)])


class Loading:
    """The title's loading, a step a frame (App.step): a store that needs rewriting
    first (damaged, cut short: while the heap has its 4 KB in one piece, rather than in
    the frame that starts a match; a newer version's is kept until something is saved),
    then the chosen game's modules, the saved match's, the saved match checked."""

    def __init__(self, app):
        self.app = app
        st = app.store
        self.todo = [self.chosen, self.resumed, self.check]
        if st.dirty and st.problem != store.NEWER:
            self.todo.insert(0, st.rewrite)

    def step(self):
        """One frame's loading: keys pressed meanwhile read and dropped (there is no menu
        yet: queued, a press would choose what nobody saw); the next module (one
        compile) or other step; once all is done, what the choices cannot use is
        forgotten and the menu comes."""
        app = self.app
        keys = app.keys
        while keys.poll() is not None:
            pass
        keys.held = None                    # (a key held: its release, repeats, hold do nothing)
        keys.pending = -1
        todo = self.todo
        while todo and isinstance(todo[0], str) and todo[0] in sys.modules:
            todo.pop(0)
        if todo:
            w = todo.pop(0)
            if callable(w):
                w()
            else:
                __import__(w)
            app.screen.progress(len(todo))
            return
        s = app.settings
        got = saved(app.store)
        keep(needs(s.rules().game, s.get("level")), needs(*got) if got else ())
        app.loading = None
        g = app.screen
        app.wipe = ui.Show(g.group, g.loaded(), len(g.group))
        app.active = app.clock()            # (idle time counts from the menu)

    def add(self, game, level):
        self.todo[0:0] = [n for n in needs(game, level) if n not in sys.modules]

    def chosen(self):
        """Load (next) what a new match of the chosen game and level needs."""
        s = self.app.settings
        self.add(s.rules().game, s.get("level"))

    def resumed(self):
        """Load (next) what the saved match needs beyond that (another game or level)."""
        got = saved(self.app.store)
        if got is not None:
            self.add(*got)

    def check(self):
        """Make sure the saved match really continues: a damaged one is reported on the
        title and forgotten (the next save rewrites the store)."""
        app = self.app
        st = app.store
        if st.in_progress() and st.header() is not None:    # (linked: when continued)
            if app.load_match() == store.CORRUPT:
                st.records = bytearray()            # (the menu, coming next, has no Continue)
                app.notice = NOTICES[store.CORRUPT]
