"""Computer players: make_player(level) for "easy", "normal" and "hard" in every game.

The engine (shared_rules/*.py) knows nothing of this package, and a player knows the
deal only through one seat's view: `Deal.view(seat)` / `TeamDeal.view(seat)` while the
engine runs the deal, or `shared_rules.view.observed(...)` for a program that knows only
what the seat has seen (docs/AI.md).

Every player answers `choose(view, clock=None, deadline=None)` with one action int from
`view.legal`:

- its own turn (view.to_act == view.seat): a card, a marriage (MARRY + the card it leads,
  the K or the Q), EXCHANGE, CLOSE, DECLARE or DECLARE_MARRIAGE; with a draw pending
  (view.pending_draw) DRAW or CLOSE; in the bidding games a bid or PASS.
- not its turn (view.to_act != view.seat): only the Russian option of closing before the
  opponent leads; it returns CLOSE or None (None = pass, let the opponent act).
- None as well when view.legal is empty (the deal is over).

`clock` is a zero-argument function giving seconds (time.monotonic on the board) and
`deadline` an absolute time on it; Hard stops there (and at its work budget), Easy and
Normal are bounded by a small fixed amount of work. `hint(view)` -> (action, reason):
the move and a one-line reason ("lead the Q of hearts and meld 20").

Modules: normal (Easy and Normal: rules of thumb, an exact endgame), greedy (the mask
heuristics), solver (exact endgames), search (Hard in the two-handed deals), hard
(Hard's dispatch), team_greedy and team_search (the team games), hints (the reasons),
randplay (random legal play for benchmarks and fuzzing).
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


def fallback(view):
    """Normal's move without its endgame search: no memory beyond the view."""
    from shared_rules.ai.normal import decide
    return decide(view, False, None, None)
