"""Hard in the team games (four-handed, North American for 2-4): determinized search over
the hidden hands, and bids judged by playing the deal out for each of them.

Worlds (shared_rules.ai.team_worlds) deal the unseen cards to the other hands
consistently with the seat's TeamView and what the plays have shown. In each world every
candidate card is played and the deal is played out by every seat with the rules of
thumb (shared_rules.ai.team_playouts); all candidates share the worlds, and the best
mean margin wins (my side's game points minus the others' mean; points break ties).
Normal's move goes first and wins ties.

Bidding (North American): in each world, for each bid and for passing, the bidding goes
on by the engine's own rules (shared_rules.team: who calls next, who is set to call
again), the other seats calling as Normal would (team_greedy), and the deal is played
out from there.

Bounded like the two-handed search: a work budget (units: cards played in playouts) and
the caller's deadline, read every CHECK_EVERY units; only complete rounds count. Hands
in a world are 8-bit rank masks per seat and suit (h[seat * 4 + suit]), so no mask of the
32-card pack becomes a big int and a decision allocates only a few small objects.
"""
from shared_rules.actions import MARRY, BID, PASS
from shared_rules.rng import Rng
from shared_rules.team import again_after, next_caller
from shared_rules.ai.anytime import Rounds
from shared_rules.ai.team_worlds import TeamWorlds
from shared_rules.ai.team_playouts import TeamPlayouts
from shared_rules.ai.team_greedy import estimate, bid_units

MAX_ROUNDS = 300


class TeamSearch(TeamPlayouts, TeamWorlds, Rounds):
    def __init__(self, seed=0, budget=3000):
        TeamPlayouts.__init__(self)
        TeamWorlds.__init__(self)
        self.seed = seed
        self.budget = budget
        self.rng = Rng(seed)
        self.would = [0] * 4        # bidding: the most each seat would bid in this world
        self.said = [0] * 4         # bidding: the calls while one is simulated
        self.cands = [0] * 16
        self.total = [0] * 16
        self.vals = [0] * 16
        self.rounds = 0

    # ---- decisions -------------------------------------------------------------------------

    def choose(self, view, first, clock=None, deadline=None):
        """The best card (or bid) for the view; `first` (Normal's) goes first, wins ties."""
        self.units = 0
        self.rounds = 0
        n = self._candidates(view, first, view.legal[0] == PASS)
        if n == 1:
            return first
        self._prepare(view)
        self.clock = clock
        self.deadline = deadline if deadline is not None else 0
        return self.run(n, self.rng, self.max_rounds)

    def value(self, action):
        """What Rounds.run scores a candidate with, in the current world."""
        return self._bid_value(action) if self.bidding else self.rollout(action)

    def _candidates(self, view, first, bidding):
        """Fill self.cands with the actions worth searching (Normal's first); how many."""
        cands = self.cands
        cands[0] = first
        n = 1
        for a in view.legal:
            if a == first or n >= 16:
                continue
            if not bidding and a < 32 and MARRY + a in view.legal:
                continue            # a marriage card goes out as a marriage
            cands[n] = a
            n += 1
        return n

    def _prepare(self, v):
        """The world's constraints (TeamWorlds), the table (TeamPlayouts), the bidding, the
        worlds' seed (shared_rules.ai.weigh calls it too)."""
        self.rng.reseed((self.seed & 0xFFFF) * 7919 ^ (v.hand & 0x3FFFFFF) ^ len(v.history) * 131)
        self.max_rounds = MAX_ROUNDS
        TeamWorlds._prepare(self, v)
        self._table(v)
        self.bidding = v.legal[0] == PASS
        self.out = v.out
        self.bid = v.bid
        self.bidder = v.bidder
        self.bids = v.bids
        self.again = v.again

    def _sample(self, rng):
        """A world (TeamWorlds); while bidding, what each seat would bid in it (mine too: I
        may be set to call again)."""
        TeamWorlds._sample(self, rng)
        if self.bidding:
            for s in range(self.n):
                self.would[s] = bid_units(estimate(_mask(self.wh, s), self.n == 4, self.higher), self.n)

    # ---- the value of a card or a call in a world -------------------------------------------

    def rollout(self, action):
        """Value (x SCALE) for my side of playing `action` now in the current world, the
        deal then played out greedily by every seat; ABORT when time or work ran out."""
        self._start()
        return self._play_out(action, self.seat, self.bidder, self.bid, self.out)

    def _bid_value(self, action):
        """Value for my side of calling `action` (a bid, or PASS) in the current world: the
        bidding goes on as the engine runs it, each other seat bidding what it would
        (self.would) if that is higher, else passing; then the deal is played out."""
        n = self.n
        said = self.said
        for s in range(n):
            said[s] = self.bids[s]
        bid = self.bid
        again = self.again
        seat = self.seat
        value = action - BID                              # PASS: 0
        while seat >= 0:
            if self.trace is not None:
                self.trace.append((seat, BID + value))
            again = again_after(n, said, bid, again, seat, value)
            said[seat] = value
            if value:
                bid = value
            seat = next_caller(n, said, again, seat)
            value = self.would[seat] if seat >= 0 and self.would[seat] > bid else 0
        if not bid:
            self.units += 1
            return 0                                      # everybody passed: thrown in
        bidder = said.index(bid)
        self._start()
        return self._play_out(-1, bidder, bidder, bid, (bidder + 2) % 4 if bid == 5 and n == 4 else -1)


def _mask(wh, s):
    """A seat's world hand as a card mask (for team_greedy's bidding estimate)."""
    m = 0
    for x in range(4):
        m |= wh[s * 4 + x] << (8 * x)
    return m
