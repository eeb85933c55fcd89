"""The anytime loop both searches run (ai.search, ai.team_search): rounds of sampled worlds
until the work budget, the deadline or enough rounds; each round plays every candidate in
the same world, so their difference is measured, not their luck.

A search subclasses Rounds and provides _sample(rng) (deal a world), value(action) (the
action's value in it, or ABORT once spent() says time or work ran out), and the lists
cands, total, vals; it counts its work in self.units. Only complete rounds count.
shared_rules.ai.weigh runs it a round at a time to weigh every action.
"""
from shared_rules.ai import CHECK_EVERY

ABORT = -99999

# Racing: after this many rounds, candidates whose total trails the best by more than
# the margin (scaled game points per round; it shrinks as the means settle) are dropped,
# so the remaining work goes to the moves still in contention.
RACE = ((8, 48), (16, 34), (32, 24), (64, 17), (128, 12))


class Rounds:
    ties = True         # card points break ties between equal game points (value())

    def run(self, n, rng, max_rounds):
        """The best of the first n candidates (the first one on ties; cands[0] if no round
        completed). max_rounds = 1: a single world (the real one), no candidate dropped."""
        total = self.total
        vals = self.vals
        cands = self.cands
        for i in range(n):
            total[i] = 0
        self.rounds = 0
        self.next_check = 0         # a deadline already past: no round at all
        while self.units < self.budget:
            if self.units >= self.next_check:
                self.next_check = self.units + CHECK_EVERY
                if self.clock is not None and self.clock() >= self.deadline:
                    break
            self._sample(rng)
            for i in range(n):
                v = self.value(cands[i])
                if v == ABORT:
                    break
                vals[i] = v
            if v == ABORT:
                break
            for i in range(n):
                total[i] += vals[i]
            self.rounds += 1
            if self.rounds >= max_rounds:
                break
            n = race(cands, total, n, self.rounds)
        best = 0
        for i in range(1, n):
            if total[i] > total[best]:
                best = i
        return cands[best]


    def spent(self, units):
        """True once the budget or the deadline has run out; `units`: the work of the
        playout in progress, not yet in self.units. The clock is read every CHECK_EVERY."""
        u = self.units + units
        if u >= self.budget:
            return True
        if u >= self.next_check:
            self.next_check = u + CHECK_EVERY
            return self.clock is not None and self.clock() >= self.deadline
        return False


def race(cands, total, n, rounds):
    """Drop the candidates (cands[:n], their totals) that trail by more than the margin
    for this number of rounds; the new count. The rest keep their order."""
    for r, margin in RACE:
        if r == rounds:
            best = total[0]
            for i in range(1, n):
                if total[i] > best:
                    best = total[i]
            cut = best - margin * rounds
            k = 0
            for i in range(n):
                if total[i] >= cut:
                    cands[k] = cands[i]
                    total[k] = total[i]
                    k += 1
            return k
    return n
