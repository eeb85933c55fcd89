"""Hard: determinized search (shared_rules.ai.search) seeded with Normal's move."""
from shared_rules.actions import DECLARE_MARRIAGE, CLOSE, DRAW
from shared_rules.rng import Rng
from shared_rules.ai.normal import decide, hint

HARD_BUDGET = 20000      # work units: about 0.3 s mean, 0.7 s worst in the MicroPython VM, under 1.5 s on a board
HARD_TABLE = 256         # transposition-table entries (4 ints each) of Hard's solver


class Hard:
    level = "hard"

    def __init__(self, seed=0, budget=HARD_BUDGET, solve_cards=None):
        from shared_rules.ai.search import Search
        if solve_cards is None:
            solve_cards = 12 if budget >= 20000 else 8
        self.search = Search(seed, budget, solve_cards, HARD_TABLE)
        self.rng = Rng(seed)

    @property
    def budget(self):
        return self.search.budget

    @budget.setter
    def budget(self, n):
        self.search.budget = n

    def choose(self, view, clock=None, deadline=None):
        first = decide(view, False, self.search.solver, self.rng, clock, deadline)
        if first is None or first >= DECLARE_MARRIAGE and first != CLOSE and first != DRAW:
            return first
        if view.to_act != view.seat or view.rules.game != "two" and view.rules.game != "three":
            return first    # the search models the two-handed deal with one trump for the deal
        return self.search.choose(view, first, clock, deadline)

    def hint(self, view):
        return hint(self, view)
