"""The engine refuses exactly what legal_actions() leaves out (issue 9), in every game.

Random deals of every rule set, under every option value Rules accepts on its own and
under random mixes of options: at every step, for every seat and every action number,
apply() accepts the action if and only if legal_actions(seat) lists it; a refused action
raises IllegalMove with a message and leaves the whole deal as it was. Every card is in
exactly one place throughout, and the card points add up to the pack's 120 (plus the
last-trick 10 where it is scored).

Two documented exceptions are part of the check: with a draw pending, the trick's winner
may write its next action without the draw (apply draws first, as records require), and a
`declare-marriage` may name the Q, though legal_actions lists it once, with the K.
"""
import copy
import random

import pytest
from hypothesis import given, settings, strategies as st, HealthCheck, assume

from family_oracle import team_places, check_one_place
from rules_oracle import card_places, snapshot
from shared_rules import team
from shared_rules.actions import DECLARE_MARRIAGE, EXCHANGE, CLOSE, DRAW
from shared_rules.cards import listed, pack, mask_points
from shared_rules.deal import dealt as deal_two
from shared_rules.errors import IllegalMove
from shared_rules.overrides import USES
from shared_rules.ai.randplay import random_action
from shared_rules.rng import Rng
from shared_rules.rules import Rules, OPTIONS, NAMES, FAMILY, TEAM_GAMES

ACTIONS = range(-1, 107)          # every action number and one beyond each end


def new_deal(rules, seed):
    order = listed(pack(rules.ranks))
    Rng(seed).permute(order)
    if rules.game in TEAM_GAMES:
        return team.dealt(rules, order)
    return deal_two(rules, order)


def seats(deal):
    return range(len(deal.hands))


def legal(deal, seat):
    """What legal_actions lists for `seat` (the team deal lists only the seat to act)."""
    if deal.rules.game in TEAM_GAMES:
        return deal.legal_actions() if seat == deal.to_act else []
    return deal.legal_actions(seat)


def same_action(a):
    """declare-marriage with the Q is the one with the K (legal_actions lists the K)."""
    return a - 1 if DECLARE_MARRIAGE <= a < EXCHANGE and a & 7 == 3 else a


def accepted(deal, seat):
    """The actions apply() must accept from `seat` now."""
    ok = set(legal(deal, seat))
    if getattr(deal, "pending_draw", False) and seat == deal.to_act:
        drawn = deal.clone()
        drawn.apply(DRAW, seat)
        ok |= {a for a in drawn.legal_actions(seat) if a != CLOSE}   # close after drawing needs the draw
    return ok


def check_step(deal):
    """Every action of every seat: listed ones are accepted (tried on a copy), all others
    refused with a message and no trace."""
    before = snapshot(deal)
    for seat in seats(deal):
        ok = accepted(deal, seat)
        for a in ACTIONS:
            if same_action(a) in ok:
                trial = deal.clone() if hasattr(deal, "clone") else copy.deepcopy(deal)
                try:
                    trial.apply(a, seat)
                except IllegalMove as e:
                    raise AssertionError("seat %d: listed action %d refused: %s" % (seat, a, e))
                continue
            try:
                deal.apply(a, seat)
            except IllegalMove as e:
                assert str(e), "an IllegalMove needs a message"
            else:
                raise AssertionError("seat %d: unlisted action %d accepted" % (seat, a))
        assert snapshot(deal) == before, "a refused action of seat %d changed the deal" % seat


def check_cards(deal):
    """Every card in one place, 120 points among them; the points counted for the won
    cards are theirs, plus the last-trick 10 where it is scored."""
    check_one_place(team_places(deal) if deal.rules.game in TEAM_GAMES else card_places(deal), deal.rules)
    won = 0
    for m in deal.won:
        won |= m
    bonus = sum(deal.card_points) - mask_points(won)
    played_out = deal.ended and not any(deal.hands[s] for s in seats(deal) if s != getattr(deal, "out", -1))
    last_ten = played_out and deal.rules.game != "american" and getattr(deal, "closed", -1) < 0
    assert bonus == (10 if last_ten else 0), "card points %r for won cards worth %d" % (deal.card_points, mask_points(won))


def play(rules, seed):
    """One random deal, every step checked; returns the number of steps."""
    deal = new_deal(rules, seed)
    rng = Rng(seed)
    pick = random.Random(seed)
    steps = 0
    while not deal.ended:
        check_cards(deal)
        check_step(deal)
        if rules.game in TEAM_GAMES:
            deal.apply(pick.choice(deal.legal_actions()))
        else:
            random_action(deal, rng)
        steps += 1
    check_cards(deal)
    check_step(deal)
    return steps


def single_options():
    """Every rule set alone and with each value of each option it accepts: alone where
    Rules takes it alone, else with the first other option that makes it playable (a
    20-card pack needs the jack as the exchange card)."""
    out = []
    for name in NAMES + FAMILY:
        out.append((name, {}))
        for key in OPTIONS:
            for value in OPTIONS[key]:
                for extra in [{}] + [{k: v} for k in OPTIONS if k != key for v in OPTIONS[k]]:
                    options = dict(extra, **{key: value})
                    try:
                        r = Rules(name, **options)
                    except ValueError:
                        continue
                    if key in r.overrides:
                        out.append((name, options))
                    break
    return out


SINGLE = single_options()


def test_every_game_accepts_options_of_its_own():
    """The sweep below covers each option every game uses, with each of its values."""
    games = {}
    for name, options in SINGLE:
        games.setdefault(name, set()).update(options)
    for name in NAMES + FAMILY:
        game = Rules(name).game
        assert games[name] == set(USES[game]) | {"target", "first_dealer"}, name


@pytest.mark.parametrize("name", NAMES + FAMILY)
def test_every_single_option(name):
    steps = 0
    for i, (n, options) in enumerate(SINGLE):
        if n == name:
            for seed in (i, i + 1000):
                steps += play(Rules(name, **options), seed)
    print("%s: %d steps checked" % (name, steps))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NAMES + FAMILY), st.data(), st.integers(0, 2 ** 31 - 1))
def test_random_option_mixes(name, data, seed):
    game = Rules(name).game
    keys = USES[game] + ("target", "first_dealer")
    options = data.draw(st.fixed_dictionaries({}, optional={k: st.sampled_from(OPTIONS[k]) for k in keys}))
    try:
        rules = Rules(name, **options)
    except ValueError as e:
        assert name in str(e)              # refused, naming the game
        assume(False)
    play(rules, seed)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NAMES + FAMILY), st.dictionaries(st.sampled_from(sorted(OPTIONS)), st.integers(0, 4), max_size=2),
       st.integers(0, 2 ** 31 - 1))
def test_any_options_are_refused_or_played(name, picks, seed):
    """Any option of any game, one or two at a time: Rules refuses it with a message that
    names the option and the game, or the deal it makes plays by the property above."""
    options = {k: OPTIONS[k][i % len(OPTIONS[k])] for k, i in picks.items()}
    try:
        rules = Rules(name, **options)
    except ValueError as e:
        assert name in str(e) and [k for k in options if k in str(e)], str(e)
        return
    play(rules, seed)


def test_options_a_game_does_not_use_are_refused():
    """Issue 9: two-handed options given to the team games were silently ignored."""
    for name in NAMES + FAMILY:
        own = Rules(name)
        uses = USES[own.game] + ("target", "first_dealer")
        for key in OPTIONS:
            for value in OPTIONS[key]:
                if key in uses or value == getattr(own, key):
                    continue
                with pytest.raises(ValueError) as e:
                    Rules(name, **{key: value})
                assert str(e.value).startswith("rule option %s cannot be " % key) and str(e.value).endswith(" in " + name)


@pytest.mark.parametrize("name,options,message", [
    ("idiots", {"exchange": "leader"}, "rule option exchange cannot be 'leader' in idiots"),
    ("idiots", {"exchange": "any"}, "rule option exchange cannot be 'any' in idiots"),
    ("standard", {"declaring": False}, "in standard, rule option declare_marriage cannot be true when declaring is false"),
    ("four-handed", {"follow": "suit"}, "rule option follow cannot be 'suit' in four-handed"),
    ("american", {"closing": "leader"}, "rule option closing cannot be 'leader' in american"),
    ("american", {"exchange": "any"}, "rule option exchange cannot be 'any' in american"),
    ("schnapsen", {"exchange_rank": "9"}, "in schnapsen, rule option exchange_rank cannot be '9' with a 20-card pack"),
    ("standard", {"closing": "never", "closer_fail": "russian"},
     "in standard, rule option closer_fail is not used when closing is 'never'"),
    ("three-handed", {"played_out": "annul"}, "rule option played_out cannot be 'annul' in three-handed"),
    ("three-handed", {"next_dealer": "winner"}, "rule option next_dealer cannot be 'winner' in three-handed"),
    ("hoyle", {"pack": 32}, "rule option pack cannot be 32 in hoyle"),
])
def test_options_a_game_cannot_play_are_refused(name, options, message):
    with pytest.raises(ValueError) as e:
        Rules(name, **options)
    assert str(e.value).startswith(message)


def test_playable_mixes_are_accepted():
    assert Rules("standard", declaring=False, declare_marriage=False).overrides == {
        "declaring": False, "declare_marriage": False}
    assert Rules("standard", pack=20, exchange_rank="J").pack == 20
    assert Rules("standard", pack=20, exchange="off").exchange == "off"
    assert Rules("four-handed", pack=32, players=4).overrides == {}      # the set's own values
