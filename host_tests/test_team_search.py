"""Hard in the team games (shared_rules.ai.team_search): playouts follow the engine's rules
and scoring, worlds agree with what the plays have shown, decisions are legal and bounded."""
import pytest

from shared_rules.actions import PASS, BID
from shared_rules.ai import make_player
from shared_rules.ai.team_greedy import bid_units, estimate
from shared_rules.ai.team_search import TeamSearch
from shared_rules.cards import count, listed, mask_of, pack, parse
from shared_rules.family import new_match
from shared_rules.rng import Rng
from shared_rules.rules import Rules
from shared_rules.team import TeamDeal

GAMES = [("four-handed", {}), ("american", {}), ("american", {"players": 3}), ("american", {"players": 2})]


def positions(name, opts, n, seed=0):
    """Deals of a game played by Normal seats for a random number of actions: (deal, view)
    of the seat to act, past the bidding."""
    rules = Rules(name, **opts)
    rng = Rng(seed)
    for k in range(n):
        m = new_match(rules, "casual", seed * 1000 + k)
        players = [make_player("normal", k + p) for p in range(m.players())]
        d = m.deal
        steps = rng.below(24)
        while not d.ended and (steps or d.legal_actions()[0] == PASS):
            s = d.to_act
            m.apply(players[m.player_at(s)].choose(d.view(s)), s)
            steps -= 1
        if not d.ended:
            yield d, d.view(d.to_act)


def world_hands(ts, n):
    return [sum(ts.wh[p * 4 + x] << (8 * x) for x in range(4)) for p in range(n)]


@pytest.mark.parametrize("name,opts", GAMES)
def test_playouts_score_like_the_engine(name, opts):
    """A playout's cards, replayed through TeamDeal from the same world, are legal in turn,
    end the deal, and its value is the engine's result (game points, points to break ties)."""
    rules = Rules(name, **opts)
    checked = 0
    for d, v in positions(name, opts, 12):
        ts = TeamSearch(1, 1 << 20)
        n = ts._candidates(v, v.legal[0], False)
        ts._prepare(v)
        ts.clock = None
        ts.next_check = 1 << 29
        ts._sample(Rng(checked + 1))
        hands = world_hands(ts, d.n)
        for i in range(n):
            ts.trace = []
            value = ts.rollout(ts.cands[i])
            w = TeamDeal(rules, list(d.dealt_hands), d.first_trump, listed(d.widow))
            for e in d.log:
                w.apply(e & 255, e >> 8)
            for p in range(d.n):
                if p != v.seat:
                    w.hands[p] = hands[p]
            if w.widow and not w.trick_count:        # the world's widow: the cards nobody holds
                w.widow = pack(rules.ranks) & ~sum(w.hands) & ~mask_of(w.trick)
            for seat, action in ts.trace:
                assert seat == w.to_act
                w.apply(action, seat)
            assert w.ended
            gp = w.result[1]
            pts = [w.points(x) for x in range(w.sides)]
            o = w.sides - 1
            my = v.side
            want = (gp[my] * o - (sum(gp) - gp[my])) * 32 + ((pts[my] * o - (sum(pts) - pts[my])) >> 3)
            assert value == want, (name, opts, ts.cands[i], gp, pts)
            checked += 1
    assert checked >= 20


def bidding_positions(players, n, seed=0):
    """North American deals stopped somewhere in the bidding, the calls so far made at
    random (a pass, or one more than the bid: partners overbid each other and are set to
    call again): (deal, view of the seat to call)."""
    rules = Rules("american", players=players)
    rng = Rng(seed)
    for k in range(n):
        d = new_match(rules, "casual", seed * 1000 + k).deal
        for _ in range(rng.below(7)):
            if d.ended or d.legal_actions()[0] != PASS:
                break
            d.apply(PASS if rng.below(2) or d.bid == 5 else BID + d.bid + 1)
        if not d.ended and d.legal_actions()[0] == PASS:
            yield d, d.view(d.to_act)


@pytest.mark.parametrize("players", [4, 3, 2])
def test_bidding_goes_on_as_the_engine_runs_it(players):
    """Each candidate call played on in a world: the calls that follow come in the engine's
    order (a seat overbid by its partner calls again), each the bid team_greedy's estimate
    of that seat's world hand gives if higher, else a pass; then the deal is played out
    from the bidder (a moon without the bidder's partner) and scored as the engine does."""
    rules = Rules("american", players=players)
    checked = again = 0
    for d, v in bidding_positions(players, 40, seed=players):
        ts = TeamSearch(1, 1 << 20)
        n = ts._candidates(v, v.legal[0], True)
        ts._prepare(v)
        ts.clock = None
        ts.next_check = 1 << 29
        ts._sample(Rng(checked + 1))
        hands = world_hands(ts, d.n)
        widow = listed(pack(rules.ranks) & ~sum(hands))
        for i in range(n):
            ts.trace = []
            value = ts._bid_value(ts.cands[i])
            w = TeamDeal(rules, list(hands), -1, widow)
            for e in d.log:
                w.apply(e & 255, e >> 8)
            callers = [e >> 8 for e in d.log]
            assert ts.trace[0] == (v.seat, ts.cands[i])
            for k, (seat, action) in enumerate(ts.trace):
                assert seat == w.to_act, (players, ts.trace)
                if w.bidder < 0:
                    callers.append(seat)
                    units = bid_units(estimate(w.hands[seat], players == 4, w.rules.higher), players)
                    assert not k or action == (BID + units if units > w.bid else PASS), (seat, action, units)
                w.apply(action, seat)
            again += len(callers) > len(set(callers))
            assert w.ended
            if w.result[2] == "annulled":
                assert value == 0
            else:
                gp = w.result[1]
                pts = [w.points(x) for x in range(w.sides)]
                o = w.sides - 1
                my = v.side
                assert value == (gp[my] * o - (sum(gp) - gp[my])) * 32 + ((pts[my] * o - (sum(pts) - pts[my])) >> 3)
            checked += 1
    assert checked >= 40
    assert again or players < 4, "no seat was set to call again"


@pytest.mark.parametrize("name,opts", GAMES)
def test_worlds_agree_with_what_the_plays_showed(name, opts):
    """What a seat 'cannot hold' (voids, no trumps, nothing above a card it did not beat) is
    never a card it holds; worlds give every hidden hand its size and respect it."""
    inferred = respected = 0
    for d, v in positions(name, opts, 30, seed=5):
        ts = TeamSearch(1, 1 << 20)
        ts._prepare(v)
        for p in range(d.n):
            cannot = sum(ts.cannot[p * 4 + x] << (8 * x) for x in range(4))
            assert not cannot & d.hands[p], (name, p)
            inferred += cannot != 0 and p != v.seat
        ts._sample(Rng(3))
        hands = world_hands(ts, d.n)
        for p in range(d.n):
            if p == v.seat or p == d.out:
                continue
            assert count(hands[p]) == count(d.hands[p]), (name, p)
            cannot = sum(ts.cannot[p * 4 + x] << (8 * x) for x in range(4))
            respected += not hands[p] & cannot
        assert hands[v.seat] == v.hand
    assert inferred and respected


@pytest.mark.parametrize("name,opts", GAMES + [("idiots", {}), ("three-handed", {})])
def test_hard_plays_only_legal_actions(name, opts):
    rules = Rules(name, **opts)
    for seed in range(3):
        m = new_match(rules, "casual", seed)
        players = [make_player("hard" if p % 2 == 0 else "normal", seed + p, budget=150)
                   for p in range(m.players())]
        for _ in range(2):
            d = m.deal
            while not d.ended and not m.over:
                s = d.to_act
                v = d.view(s)
                a = players[m.player_at(s)].choose(v)
                assert a in v.legal, (name, a, v.legal)
                m.apply(a, s)
            if m.over:
                break
            m.next_deal()


def test_hard_stops_at_its_deadline_in_a_team_game():
    now = [0.0]

    def clock():
        now[0] += 0.1
        return now[0]

    d, v = next(positions("four-handed", {}, 5))
    p = make_player("hard", 1, budget=1 << 29)
    assert p.choose(v, clock, 1.0) in v.legal
    assert now[0] < 3.0                      # a handful of looks at the clock, then done
    now[0] = 50.0
    assert p.choose(v, clock, 1.0) == make_player("normal").choose(v)     # already late


def _hand(text):
    return mask_of([parse(t) for t in text.split()])


def test_bids_follow_the_cards():
    """Two-handed North American: a hand full of aces, tens and a trump marriage bids;
    one of nines and jacks passes."""
    rules = Rules("american", players=2)
    strong = _hand("AH TH KH QH AS TS AC TC AD TD JH 9H")
    weak = _hand("9C JC 9S JS 9D JD 9H JH QS KC QD KH")
    p = make_player("hard", 3, budget=2000)
    a = p.choose(TeamDeal(rules, [strong, pack(6) & ~strong]).view(0))
    assert a >= BID + 2
    assert p.choose(TeamDeal(rules, [weak, pack(6) & ~weak]).view(0)) == PASS
