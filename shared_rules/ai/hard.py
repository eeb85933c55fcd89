"""Hard: a determinized search seeded with Normal's move, in every game of the family.

Two-handed deals (standard, Hoyle, Russian, Schnapsen, three-handed, Idiots') search
with shared_rules.ai.search, the team games with shared_rules.ai.team_search. Bounded by
a work budget (units: cards played in playouts plus solver nodes), by default the work a
board does in the device's 1.5 s, and by the caller's deadline, whichever comes first.
Its hints in the team games are Normal's (team_greedy's reasons).

Each kind of game imports only its own modules (the two-handed ones: Normal, its rules of
thumb, the search and the solver), so a team game on the board keeps none of them.
"""
from shared_rules.actions import DECLARE_MARRIAGE, CLOSE, DRAW
from shared_rules.ai import team
from shared_rules.rng import Rng
from shared_rules.rules import TEAM_GAMES

# Work units (cards played in playouts, solver nodes) per decision, per game: what the board
# does in Hard's 1.5 s, less a margin of 15%, rounded down to a hundred. Measured on the
# real firmware (CircuitPython 10.0.3 on an RP2040 at 125 MHz, in an emulator):
# tools/board_bench.py's units_in_deadline (the mean work of Hard's decisions that thought
# until the deadline), the lowest of the game's rule sets, with about 20 KB of heap free as
# in a match and with all of it free (docs/AI.md has the figures). The arena's `hard` plays
# these, so its figures are the device's strength.
HARD_BUDGET = {"two": 3300, "three": 3400, "idiots": 4000, "four": 5400, "american": 4500}
HARD_TABLE = 256         # transposition-table entries (4 ints each) of Hard's solver
SOLVE_CARDS = 6          # in a sampled world, solve exactly once both hands hold this many
# Seconds before the caller's deadline Hard stops: the clock is read every CHECK_EVERY
# units (about 20 ms on the board), so without it a decision ended up to 22 ms late
# (tools.bench --board, worst overrun of 1.5 s).
SLACK = 0.025


class Hard:
    level = "hard"

    def __init__(self, seed=0, budget=None, solve_cards=None):
        """budget: work units per decision (default: the board's, per game: HARD_BUDGET);
        solve_cards: in sampled worlds, solve exactly once both hands hold this many cards
        together (once the talon is used up every card is known and Hard solves it all)."""
        self.seed = seed
        self.budget = budget
        self.solve_cards = solve_cards
        self.rng = Rng(seed)
        self.search = None
        self.team = None
        self.work = 0

    def choose(self, view, clock=None, deadline=None):
        self.work = 0
        if deadline is not None:
            deadline -= SLACK
        game = view.rules.game
        t = team(view)
        if t is not None:
            first = t.choose(view)
            if first is None or len(view.legal) == 1:
                return first
        else:
            from shared_rules.ai.normal import decide
            first = decide(view, False, None, self.rng)
            if first is None or first >= DECLARE_MARRIAGE and first != CLOSE and first != DRAW \
                    or view.to_act != view.seat:
                return first
        s = self.searcher(game)
        a = s.choose(view, first, clock, deadline)
        self.work = s.units
        return a

    def searcher(self, game):
        """The search for `game` (a Rules.game), made at its first use, at this player's
        budget (shared_rules.ai.weigh asks for it too)."""
        if game in TEAM_GAMES:
            s = self.team
            if s is None:
                from shared_rules.ai.team_search import TeamSearch
                s = self.team = TeamSearch(self.seed)
        else:
            s = self.search
            if s is None:
                from shared_rules.ai.search import Search
                solve = self.solve_cards if self.solve_cards is not None else SOLVE_CARDS
                s = self.search = Search(self.seed, 0, solve, HARD_TABLE)
        s.budget = self.budget if self.budget is not None else HARD_BUDGET[game]
        return s

    def hint(self, view):
        from shared_rules.ai import hint
        return hint(self, view)
