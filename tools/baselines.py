"""Baseline players for the arena (host only): random, bully and rdeep (the published
Schnapsen sampling bot).

Random plays every game of the family; bully and rdeep are two-handed designs.

They answer like shared_rules.ai players (`choose(view, clock=None, deadline=None)`),
see only their View, and declare as soon as they hold 66 so they are not handicapped in
classic counting. Marriages, exchanges and closing are left to chance (random) or not
used (bully); rdeep searches card plays, marriages and the exchange as its moves.
"""
from shared_rules.actions import MARRY, DECLARE_MARRIAGE, EXCHANGE, DECLARE, DRAW
from shared_rules.cards import SUIT_MASK, count, listed, mask_points, pack
from shared_rules.deal import Deal
from shared_rules.rng import Rng
from shared_rules.rules import TEAM_GAMES, marriage_points


def _declare(view):
    """DECLARE when the seat is on lead with 66, else None."""
    if view.to_act == view.seat and view.lead < 0 and DECLARE in view.legal and view.points >= 66:
        return DECLARE
    return None


def _forced(view):
    """What bully and rdeep do without thinking: declare at 66, draw when a draw is due."""
    if view.pending_draw:
        return DRAW
    return _declare(view)


class RandomPlayer:
    """Uniformly random among the legal moves, never closing and never calling wrongly."""

    def __init__(self, seed=0):
        self.rng = Rng(seed)

    def choose(self, view, clock=None, deadline=None):
        if view.to_act != view.seat:
            return None
        if view.rules.game in TEAM_GAMES:                 # any card, any bid
            return view.legal[self.rng.below(len(view.legal))]
        a = _declare(view)
        if a is not None:
            return a
        moves = [a for a in view.legal if a < DECLARE_MARRIAGE or a == EXCHANGE or a == DRAW]
        return moves[self.rng.below(len(moves))]


class Bully:
    """Plays a trump when it can (the highest), else the highest card of the suit led, else
    its highest card; draws when it must."""

    def __init__(self, seed=0):
        pass

    def choose(self, view, clock=None, deadline=None):
        if view.to_act != view.seat:
            return None
        a = _forced(view)
        if a is not None:
            return a
        cards = 0
        for a in view.legal:
            if a < 32:
                cards |= 1 << a
        trumps = cards & SUIT_MASK[view.trump]
        if trumps:
            return _highest(trumps)
        if view.lead >= 0 and cards & SUIT_MASK[view.lead >> 3]:
            return _highest(cards & SUIT_MASK[view.lead >> 3])
        return _highest(cards)


def _highest(m):
    """The highest-ranked card of a mask (ties between suits: the first suit)."""
    best = -1
    for c in listed(m):
        if best < 0 or c & 7 < best & 7:
            best = c
    return best


def world_deal(view, opp_hand, talon):
    """A Deal in the state the view shows, with the hidden cards as guessed: the opponent
    holds opp_hand and the face-down talon is `talon` (top first)."""
    seat = view.seat
    hands = [0, 0]
    hands[seat] = view.hand
    hands[1 - seat] = opp_hand
    trump_card = view.trump_card if view.talon_left else view.exchange_card
    d = Deal(view.rules, hands, trump_card, talon)
    if not view.talon_left:
        d.stock = []
        d.trump_card = -1
    d.trump = view.trump
    d.trump_bits = SUIT_MASK[view.trump]
    d.leader = view.leader
    d.to_act = view.to_act
    d.lead = view.lead
    d.phase2 = view.phase2
    d.pending_draw = view.pending_draw
    d.closed = view.closed
    d.closed_opp_tricks = view.closed_opp_tricks
    d.won = list(view.won)
    d.tricks = list(view.tricks)
    d.card_points = [mask_points(view.won[0]), mask_points(view.won[1])]
    d.meld_points = list(view.meld_points)
    d.melds = list(view.melds)
    d.log = None
    return d


def sample_world(view, rng):
    """A random Deal consistent with the view (opponent's hidden cards, talon order)."""
    pool = listed(view.unseen)
    rng.permute(pool)
    n_opp = count(pack(view.rules.ranks)) - count(view.played) - count(view.hand) - view.talon_left
    k = n_opp - count(view.opp_known)
    opp = view.opp_known
    for c in pool[:k]:
        opp |= 1 << c
    return world_deal(view, opp, pool[k:])


class RDeep:
    """The VU Amsterdam Schnapsen platform's RdeepBot(num_samples, depth), on our engine.

    For each of its moves (cards, one marriage per pair leading the queen, the exchange),
    in random order: `samples` worlds of its own, each sampled afresh; in each, the move
    is played and then both seats play uniformly random moves (cards, marriages, the
    exchange; the draw and a declaration at 66 as due) until `depth` tricks are complete,
    counting the trick of the move itself, or the deal ends. A world scores the share of
    counted points, mine / (mine + theirs) (0.5 when both are 0), also when the deal
    ended. The move with the best mean wins; the first such in the shuffled order."""

    def __init__(self, seed=0, samples=16, depth=4):
        self.rng = Rng(seed)
        self.samples = samples
        self.depth = depth

    def choose(self, view, clock=None, deadline=None):
        if view.to_act != view.seat:
            return None
        a = _forced(view)
        if a is None and view.lead < 0:
            a = _declare_marriage(view)
        if a is not None:
            return a
        moves = _moves(view.legal)
        if len(moves) == 1:
            return moves[0]
        self.rng.permute(moves)
        stop = view.tricks[0] + view.tricks[1] + self.depth     # the move's trick is the first
        best = best_score = None
        for a in moves:
            score = 0.0
            for _ in range(self.samples):
                d = sample_world(view, self.rng)
                d.apply(a)
                score += self._playout(d, view.seat, stop)
            if best is None or score > best_score:
                best, best_score = a, score
        return best

    def _playout(self, d, me, stop):
        """Random play until `stop` tricks are complete (or the deal ends); my share of points."""
        while not d.ended and d.tricks[0] + d.tricks[1] < stop:
            if d.pending_draw:
                d.apply(DRAW)
            elif d.lead < 0 and d.rules.declaring and d.points(d.leader) >= 66:
                d.apply(DECLARE)
            else:
                moves = _moves(d.legal_actions())
                d.apply(moves[self.rng.below(len(moves))])
        mine = d.points(me)
        total = mine + d.points(1 - me)
        return mine / total if total else 0.5


def _moves(legal):
    """The platform's moves among legal actions: cards, a marriage leading its queen, the exchange."""
    return [a for a in legal if a < 32 or MARRY <= a < DECLARE_MARRIAGE and a & 7 == 3 or a == EXCHANGE]


def _declare_marriage(view):
    """A marriage that reaches 66 ends the deal at once on the platform: show it and declare."""
    shown = count(view.melds[0]) + count(view.melds[1])
    for a in view.legal:
        if DECLARE_MARRIAGE <= a < EXCHANGE and view.tricks[view.seat] and \
                view.points + marriage_points(view.rules.game, (a & 31) >> 3, view.trump, shown) >= 66:
            return a
    return None


BASELINES = {"random": RandomPlayer, "bully": Bully, "rdeep": RDeep}
