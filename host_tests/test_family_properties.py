"""Property tests of the family games (RULES.md 5-8): random legal deals of four-handed,
North American (2, 3 and 4 players), Idiots' and three-handed Sixty-Six, each checked
action by action against the independent referees of family_oracle.

Checked throughout: every card in exactly one place, the legal actions are exactly what
the referee allows (test_legality proves that everything else is refused), per-seat views
do not change when hidden cards move; at the end: points, game points and reason as the
referee scores them, and the written record replays to the same result.
"""
import random

from hypothesis import given, settings, strategies as st, HealthCheck

from family_oracle import TeamReferee, IdiotsReferee, random_legal, team_places, check_one_place
from rules_oracle import Oracle, card_places
from shared_rules import team
from shared_rules.actions import EXCHANGE, CLOSE, DECLARE
from shared_rules.cards import listed, pack, mask_points
from shared_rules.deal import dealt as deal_two
from shared_rules.ai.randplay import random_action
from shared_rules.record import to_record, deal_from_record, parse_entry
from shared_rules.report import replay
from shared_rules.rng import Rng
from shared_rules.rules import Rules

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TEAM_GAMES = [("four-handed", {}), ("four-handed", {"ten_of_trumps": True}), ("american", {}),
              ("american", {"players": 3}), ("american", {"players": 2}), ("american", {"target": 10})]


def shuffled(rules, seed):
    order = listed(pack(rules.ranks))
    Rng(seed).permute(order)
    return order


def snapshot(deal):
    """Everything a deal holds, copied (lists become tuples), without the rules and log."""
    out = {}
    for k, v in vars(deal).items():
        if k in ("rules", "log"):
            continue
        out[k] = tuple(v) if isinstance(v, list) else v
    return out


def view_state(view):
    return {k: v for k, v in vars(view).items() if k != "rules"}


def check_team_views_hide(deal, probe):
    """Swapping hidden cards between two other seats (or with the widow, unseen or taken
    face down by another seat) must not change what a seat's view holds."""
    n = deal.n
    turn_up = deal.first_trump
    for seat in range(n):
        want = view_state(deal.view(seat))
        assert want["hand"] == deal.hands[seat]
        holders = [s for s in range(n) if s != seat and deal.hands[s]]
        pools = [("hand", s) for s in holders]
        if deal.trick_count == 0 and deal.widow:
            pools.append(("widow", None))
        for side in range(deal.sides):               # the widow, taken face down by another seat
            if side != deal.side(seat) and deal.won[side] & deal.widow:
                pools.append(("taken", side))
        if len(pools) < 2:
            continue
        a, b = probe.sample(pools, 2)
        ca, cb = _hidden_card(deal, a, turn_up, probe), _hidden_card(deal, b, turn_up, probe)
        if ca is None or cb is None:
            continue
        _move(deal, a, ca, cb)
        _move(deal, b, cb, ca)
        got = view_state(deal.view(seat))
        _move(deal, a, cb, ca)
        _move(deal, b, ca, cb)
        assert got == want, "seat %d's view changed when hidden cards moved" % seat


def _hidden_card(deal, pool, turn_up, probe):
    kind, s = pool
    mask = deal.widow if kind == "widow" else (deal.won[s] & deal.widow if kind == "taken" else deal.hands[s])
    if turn_up >= 0:
        mask &= ~(1 << turn_up)          # the four-handed turn-up was shown to everybody
    cards = listed(mask)
    return probe.choice(cards) if cards else None


def _move(deal, pool, out_card, in_card):
    kind, s = pool
    if kind == "widow":
        deal.widow ^= (1 << out_card) | (1 << in_card)
    elif kind == "taken":
        deal.won[s] ^= (1 << out_card) | (1 << in_card)
        deal.widow ^= (1 << out_card) | (1 << in_card)
    else:
        deal.hands[s] ^= (1 << out_card) | (1 << in_card)


def play_team_deal(name, options, seed):
    rules = Rules(name, **options)
    deal = team.dealt(rules, shuffled(rules, seed))
    rec = to_record(deal)
    ref = TeamReferee(rules.game, rec["hands"], rec["trump_card"], rec.get("widow", ()))
    rng = Rng(seed)
    probe = random.Random(seed)
    while not deal.ended:
        check_one_place(team_places(deal), rules)
        allowed = ref.allowed()
        assert set(deal.legal_actions()) == allowed
        assert deal.to_act == ref.turn
        check_team_views_hide(deal, probe)
        seat, action = random_legal(deal, rng)
        ref.apply(seat, action)
    check_one_place(team_places(deal), rules)
    assert ref.over
    result = ref.result(rules.ten_of_trumps)
    assert deal.result == result, (deal.result, result)
    if result[2] != "annulled":
        idle = mask_points(deal.hands[deal.out]) if deal.out >= 0 else 0   # the moon partner's
        assert sum(deal.card_points) + idle == (130 if rules.game == "four" else 120)
        assert [deal.points(s) for s in range(deal.sides)] == [ref.points(s) for s in range(deal.sides)]
    out = replay(to_record(deal))
    assert out["status"] == "ended"
    assert (out["winner"], out["game_points"], out["reason"]) == deal.result
    assert out["tricks"] == deal.tricks and out["bid"] == deal.bid
    return deal


@SETTINGS
@given(st.sampled_from(TEAM_GAMES), st.integers(0, 2 ** 31 - 1))
def test_random_team_deals(game, seed):
    play_team_deal(game[0], game[1], seed)


def test_team_sweep_reaches_every_ending():
    """Fixed seeds, all checked: each team game reaches the endings it has."""
    seen = {}
    for name, options in TEAM_GAMES[:5]:
        key = name + str(options)
        for seed in range(60):
            seen.setdefault(key, set()).add(play_team_deal(name, options, seed).result[2])
    assert seen["four-handed{}"] >= {"played-out"}
    for key in ("american{}", "american{'players': 3}", "american{'players': 2}"):
        assert {"made", "set"} <= seen[key], (key, seen[key])


def check_two_views_hide(deal, probe):
    """Swapping an unseen card of the opponent's hand with one of the face-down talon
    leaves a seat's view unchanged."""
    for seat in (0, 1):
        other = 1 - seat
        want = view_state(deal.view(seat))
        hidden = listed(deal.hands[other] & ~deal.known[other])
        face_down = deal.stock[deal.top:len(deal.stock) - (1 if deal.trump_card >= 0 else 0)]
        if not hidden or not face_down:
            continue
        a = probe.choice(hidden)
        i = deal.stock.index(probe.choice(face_down))
        b = deal.stock[i]
        deal.hands[other] ^= (1 << a) | (1 << b)
        deal.stock[i] = a
        got = view_state(deal.view(seat))
        deal.hands[other] ^= (1 << a) | (1 << b)
        deal.stock[i] = b
        assert got == want, "seat %d's view changed when hidden cards moved" % seat


def play_idiots_deal(seed):
    rules = Rules("idiots")
    deal = deal_two(rules, shuffled(rules, seed))
    rec = to_record(deal)
    assert rec["trump_card"] is None and len(rec["talon"]) == 12
    ref = IdiotsReferee(rec["hands"], rec["talon"])
    rng = Rng(seed)
    probe = random.Random(seed)
    while not deal.ended:
        check_one_place(card_places(deal), rules)
        check_two_views_hide(deal, probe)
        legal = deal.legal_actions()
        if not deal.pending_draw:
            assert set(legal) == ref.allowed(deal.to_act)
            assert deal.to_act == (ref.leader if ref.lead is None else 1 - ref.leader)
        assert not {EXCHANGE, CLOSE, DECLARE} & set(legal)
        seat, action = random_legal(deal, rng)
        ref.apply(seat, action)
        assert deal.trump == ("CSHD".index(ref.trump) if ref.trump else -1)
    check_one_place(card_places(deal), rules)
    assert deal.result == ref.result(), (deal.result, ref.result())
    assert [deal.points(0), deal.points(1)] == [ref.points(0), ref.points(1)]
    assert sum(deal.card_points) == 130
    out = replay(to_record(deal))
    assert (out["winner"], out["game_points"], out["reason"]) == deal.result
    return deal


@SETTINGS
@given(st.integers(0, 2 ** 31 - 1))
def test_random_idiots_deals(seed):
    play_idiots_deal(seed)


def test_idiots_sweep_reaches_marriages_and_ties():
    kinds = set()
    marriages = set()
    for seed in range(150):
        d = play_idiots_deal(seed)
        kinds.add(d.result[2])
        marriages.add(sum(bin(m).count("1") for m in d.melds))
    assert "higher" in kinds
    assert {0, 1, 2} <= marriages, marriages


def play_three_handed_deal(seed):
    """A three-handed deal is a Hoyle deal of the two active players; the replay adds the
    dealer's points: what the winner scored, or 1 when nobody scored."""
    rules = Rules("three-handed")
    deal = deal_two(rules, shuffled(rules, seed))
    oracle = Oracle(rules, deal.trump_card)
    rng = Rng(seed)
    probe = random.Random(seed)
    while not deal.ended:
        check_one_place(card_places(deal), rules)
        check_two_views_hide(deal, probe)
        hands = deal.hands[:]
        seat, action = random_action(deal, rng)
        oracle.observe(seat, action, hands[seat])
    assert deal.result == oracle.result()
    out = replay(to_record(deal))
    winner, gp, reason = oracle.result()
    assert out["game_points"] == gp + [1 if winner is None else gp[winner]]
    assert out["reason"] == reason
    return deal


@SETTINGS
@given(st.integers(0, 2 ** 31 - 1))
def test_random_three_handed_deals(seed):
    play_three_handed_deal(seed)


def test_record_written_mid_deal_rebuilds_the_state():
    """At every step of a family deal the record rebuilds the same state."""
    for name, options in TEAM_GAMES[:5] + [("idiots", {})]:
        rules = Rules(name, **options)
        order = shuffled(rules, 7)
        deal = deal_two(rules, order) if rules.game == "idiots" else team.dealt(rules, order)
        rng = Rng(3)
        while not deal.ended:
            random_legal(deal, rng)
            rec = to_record(deal)
            again = deal_from_record(rec)
            for entry in rec["actions"]:
                seat, action = parse_entry(entry, len(again.hands))
                again.apply(action, seat)
            assert snapshot(again) == snapshot(deal), name


def test_four_handed_turn_up_is_known_to_all_until_played():
    """The dealer's turned-up card is in the dealer's hand and every seat knows it."""
    rules = Rules("four-handed")
    deal = team.dealt(rules, shuffled(rules, 11))
    up = deal.first_trump
    assert deal.hands[3] >> up & 1 and deal.trump == up >> 3
    for seat in range(4):
        v = deal.view(seat)
        assert v.trump_card == up and not v.unseen >> up & 1
        assert v.unseen == pack(8) & ~v.hand & ~(1 << up)
