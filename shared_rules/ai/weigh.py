"""What every action is worth, not only the best one: Hard's search run over the same
sampled worlds for each action given, none dropped. For a PC that reviews play
(tools.review); the device never imports it, so its searches carry only what play needs.
"""


def values(player, view, actions):
    """(the mean game-point margin for the view's seat of each of `actions`, the worlds
    played, whether that was the real deal solved exactly) by a Hard `player`'s search,
    budget and seed. Every action gets the same worlds (no racing drops one), card points
    do not break ties (Rounds.ties). The actions must be legal in the view and playable by
    the search: not a declaration, nor an exchange while following. The values are None
    if the budget allowed no complete round."""
    search = player.searcher(view.rules.game)
    n = len(actions)
    while len(search.cands) < n:
        search.cands.append(0)
        search.total.append(0)
        search.vals.append(0)
    for i in range(n):
        search.cands[i] = actions[i]
    search.units = 0
    search.ties = False
    search._prepare(view)           # as the search's choose() does, with no clock
    search.clock = None
    max_rounds = search.max_rounds
    sums = [0] * n
    rounds = 0
    while rounds < max_rounds:
        search.run(n, search.rng, 1)        # one world: a single round drops nobody
        if not search.rounds:
            break                           # the budget is spent
        for i in range(n):
            sums[i] += search.total[i]
        rounds += 1
    search.ties = True
    if not rounds:
        return None, 0, False
    unit = rounds * search.scale
    return [x / unit for x in sums], rounds, max_rounds == 1
