"""Computer players: make_player(level) for "easy", "normal" and "hard" in every game.

The engine knows nothing of this package; a player knows a deal only through one seat's
view, and answers choose(view, clock=None, deadline=None) with an action of view.legal
(None off its turn or after the deal). hint(view) -> (action, reason). docs/AI.md has
the levels, the modules and the API.
"""

LEVELS = ("easy", "normal", "hard")
CHECK_EVERY = 64    # Hard's work units between looks at the clock: about 20 ms on a board


def make_player(level, seed=0, **options):
    """A computer player; Hard's options: budget= (work units), solve_cards=."""
    if level == "easy" or level == "normal":
        from shared_rules.ai.normal import Normal
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
    from shared_rules.rules import TEAM_GAMES
    if game in TEAM_GAMES:
        names = ("team_greedy", "anytime", "team_worlds", "team_playouts", "team_search", "hard") \
            if level == "hard" else ("greedy", "normal", "team_greedy")
    elif level == "hard":
        names = ("greedy", "normal", "anytime", "solver", "playouts", "search", "hard")
    else:
        names = ("greedy", "normal") if level == "easy" else ("greedy", "normal", "solver")
    return tuple("shared_rules.ai." + name for name in names)


def fallback(view):
    """Normal's move without its endgame search: no memory beyond the view."""
    from shared_rules.ai.normal import decide
    return decide(view, False, None, None)
