"""Computer players: make_player(level) for "easy", "normal" and "hard" in every game.

The engine knows nothing of this package; a player knows a deal only through one seat's
view, and answers choose(view, clock=None, deadline=None) with an action of view.legal
(None off its turn or after the deal). hint(view) -> (action, reason). docs/AI.md has
the levels, the modules and the API.
"""
from shared_rules.rng import Rng
from shared_rules.rules import TEAM_GAMES

LEVELS = ("easy", "normal", "hard")
CHECK_EVERY = 64    # Hard's work units between looks at the clock: about 20 ms on a board


def make_player(level, seed=0, **options):
    """A computer player; Hard's options: budget= (work units), solve_cards=."""
    if level == "easy" or level == "normal":
        return Normal(level == "easy", seed)
    if level == "hard":
        from shared_rules.ai.hard import Hard
        return Hard(seed, **options)
    raise ValueError("unknown level " + repr(level) + "; choose easy, normal or hard")


def modules(level, game):
    """The modules a `level` player imports to play `game` (a Rules.game), in order. A
    board may import them one at a time before the first decision: compiling a module
    takes several times its size in heap for a moment, and the decision then thinks at
    once. (host_tests/test_ai_vm.py holds this to what the players really import.)"""
    if game in TEAM_GAMES:
        names = ("team_greedy", "anytime", "team_worlds", "team_playouts", "team_search", "hard") \
            if level == "hard" else ("team_greedy",)
    elif level == "hard":
        names = ("greedy", "normal", "anytime", "solver", "playouts", "search", "hard")
    else:
        names = ("greedy", "normal") if level == "easy" else ("greedy", "normal", "solver")
    return tuple("shared_rules.ai." + name for name in names)


def fallback(view):
    """Normal's move without its endgame search: no memory beyond the view."""
    t = team(view)
    if t is not None:
        return t.choose(view)
    from shared_rules.ai.normal import decide
    return decide(view, False, None, None)


class Normal:
    """Easy (easy=True) and Normal. As Hard, each kind of game imports only its own
    modules (shared_rules.ai.normal and its endgame solver for the two- and three-handed
    deals, team_greedy for the team games): a team game's table on the board keeps none
    of the others (4 KB)."""

    def __init__(self, easy, seed=0):
        self.easy = easy
        self.level = "easy" if easy else "normal"
        self.rng = Rng(seed)
        self.solver = None      # Normal's endgame solver, made at its first two-handed decision
        self.work = 0           # endgame solver nodes of the last decision

    def choose(self, view, clock=None, deadline=None):
        t = team(view)
        if t is not None:
            return t.choose(view)
        from shared_rules.ai.normal import choose
        return choose(self, view, clock, deadline)

    def hint(self, view):
        return hint(self, view)


def team(view):
    """shared_rules.ai.team_greedy for a team game's view (Easy's and Normal's player
    there, and Hard's first guess), else None."""
    if view.rules.game not in TEAM_GAMES:
        return None
    from shared_rules.ai import team_greedy
    return team_greedy


def hint(player, view):
    """(action, one-line reason) for `player` (Normal or Hard) in `view`: team_greedy's
    in the team games."""
    t = team(view)
    if t is not None:
        return t.hint(view)
    from shared_rules.ai.hints import reason
    a = player.choose(view)
    return a, reason(view, a)
