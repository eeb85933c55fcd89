"""shared_rules.match: dealers, carried points, targets, counting modes, saving and loading."""
import json
import random

import pytest

from engine_records import load
from rules_oracle import snapshot
from shared_rules.actions import DECLARE, DECLARE_MARRIAGE, EXCHANGE, DRAW
from shared_rules.errors import IllegalMove
from shared_rules.match import Match
from shared_rules.ai.randplay import random_action
from shared_rules.record import deal_from_record, parse_entry, to_record
from shared_rules.rng import Rng
from shared_rules.rules import Rules


def play_record(m, name, upto=None):
    """Put the deal of record NAME on the match's table and play its actions through the match."""
    rec = load(name)["record"]
    assert m.deal.ended or not m.deal.log
    m.deal = deal_from_record(rec)
    for entry in rec["actions"][:upto]:
        seat, action = parse_entry(entry)
        m.apply(action, seat)
    return m.deal


def match_step(m, rnd):
    """One random legal action through the match (declaring is left to casual counting)."""
    acts = [a for a in m.deal.legal_actions() if a != DECLARE and not DECLARE_MARRIAGE <= a < EXCHANGE]
    m.apply(rnd.choice(acts))


def test_seats_and_players():
    m = Match(Rules("standard"), seed=5)
    for dealer in (0, 1):
        m.dealer = dealer
        assert m.seat_of(dealer) == 1 and m.seat_of(1 - dealer) == 0
        for seat in (0, 1):
            assert m.seat_of(m.player_at(seat)) == seat


def test_dealer_alternates_in_standard():
    m = Match(Rules("standard"), counting="classic", seed=3)
    first = m.dealer
    play_record(m, "std_declared_1")              # won by seat 0, the non-dealer
    m.next_deal()
    assert m.dealer == 1 - first
    play_record(m, "std_closer_opponent_declares")    # won by seat 1, the dealer
    m.next_deal()
    assert m.dealer == first and m.deals == 3


def test_russian_winner_deals_and_annulled_deal_is_dealt_again():
    m = Match(Rules("russian"), counting="classic", seed=3)
    first = m.dealer
    play_record(m, "russian_annulled")
    assert m.deal.result[2] == "annulled" and m.score == [0, 0]
    m.next_deal()
    assert m.dealer == first                      # the same dealer deals again
    play_record(m, "russian_lone_66")             # seat 1 = the dealer wins
    m.next_deal()
    assert m.dealer == first and m.score[first] == 1
    play_record(m, "russian_closer_failed_4")     # seat 0, the forehand, wins 4
    m.next_deal()
    assert m.dealer == 1 - first and m.score[1 - first] == 4


def test_hoyle_no_score_carries_points_to_the_next_winner():
    m = Match(Rules("hoyle"), counting="classic", seed=8)
    dealer = m.dealer
    play_record(m, "hoyle_no_score_neither_66")
    assert m.carry == 1 and m.score == [0, 0]
    m.next_deal()
    assert m.dealer == 1 - dealer                 # the deal still alternates
    play_record(m, "hoyle_no_score_both_66")
    assert m.carry == 2
    m.next_deal()
    play_record(m, "hoyle_lone_66")               # seat 1 wins 1 game point, plus the 2 carried
    winner = m.player_at(1)
    assert m.score[winner] == 3 and m.score[1 - winner] == 0 and m.carry == 0


@pytest.mark.parametrize("target", [5, 7, 8])
def test_match_target(target):
    m = Match(Rules("standard", target=target), counting="classic", seed=1)
    # the forehand takes 3 game points per deal (declares 74 against a trickless opponent)
    totals = []
    while not m.over:
        play_record(m, "std_declare_marriage_reaches_66")
        totals.append(m.score[:])
        if not m.over:
            m.next_deal()
    assert max(m.score) >= target and max(totals[-2] if len(totals) > 1 else [0]) < target
    assert m.winner == m.score.index(max(m.score))
    with pytest.raises(ValueError):
        m.next_deal()


def test_default_targets_per_rule_set():
    assert Rules("standard").target == 7 and Rules("hoyle").target == 7
    assert Rules("russian").target == 8 and Rules("schnapsen").target == 7


def test_first_dealer_by_lot_and_by_cut():
    dealers = {Match(Rules("standard"), seed=s).dealer for s in range(20)}
    assert dealers == {0, 1}
    for s in range(20):
        m = Match(Rules("hoyle"), seed=s)
        a, b = m.cut                              # player 0's and player 1's cut cards
        assert a & 7 != b & 7
        assert m.dealer == (0 if a & 7 < b & 7 else 1)   # the higher card deals
        assert Match(Rules("standard"), seed=s).cut is None


def test_casual_declares_and_records_it_classic_does_not():
    rec = load("std_declared_1")["record"]
    without_declare = len(rec["actions"]) - 1
    casual = Match(Rules("standard"), counting="casual", seed=2)
    d = play_record(casual, "std_declared_1", without_declare)
    assert d.ended and d.result == (0, [1, 0], "declared")
    assert to_record(d)["actions"] == rec["actions"]      # the automatic "0 declare" is written
    assert casual.score[casual.player_at(0)] == 1
    classic = Match(Rules("standard"), counting="classic", seed=2)
    d = play_record(classic, "std_declared_1", without_declare)
    assert not d.ended and d.to_act == 0 and d.points(0) == 72
    classic.apply(DRAW)
    assert DECLARE in d.legal_actions() and not d.ended


def test_casual_does_not_declare_under_66():
    m = Match(Rules("standard"), counting="casual", seed=2)
    d = play_record(m, "std_declared_1", 10)      # seat 0 on lead with 62
    assert not d.ended and d.points(0) == 62


def roundtrip(m):
    data = json.loads(json.dumps(m.to_dict()))
    again = Match.from_dict(data)
    assert again.to_dict() == m.to_dict()
    return again


@pytest.mark.parametrize("name", Rules.NAMES)
def test_to_dict_round_trip_mid_deal_and_at_the_end(name):
    m = Match(Rules(name, target=5), counting="casual", seed=11)
    rnd = random.Random(name)
    step = 0
    while not m.over:
        step += 1
        if m.deal.ended:
            again = roundtrip(m)
            assert (again.score, again.carry, again.dealer, again.over) == (m.score, m.carry, m.dealer, m.over)
            m.next_deal()
            again.next_deal()
            assert to_record(again.deal) == to_record(m.deal)      # the same shuffle follows
            continue
        if step % 5 == 0:
            again = roundtrip(m)
            assert again.deal.legal_actions() == m.deal.legal_actions()
            assert snapshot_without_log(again.deal) == snapshot_without_log(m.deal)
        match_step(m, rnd)
    assert m.deals > 1 and max(m.score) >= 5
    again = roundtrip(m)
    assert again.over and again.winner == m.winner


def snapshot_without_log(deal):
    s = snapshot(deal)
    del s["log"], s["rules"]
    return s


def saved():
    m = Match(Rules("standard"), counting="classic", seed=4)
    m.apply(m.deal.legal_actions()[0])
    return json.loads(json.dumps(m.to_dict()))


@pytest.mark.parametrize("change,words", [
    (lambda d: d.pop("score"), "missing 'score'"),
    (lambda d: d.update(rules="skat"), "unknown rule set"),
    (lambda d: d.update(options={"target": 9}), "cannot be 9"),
    (lambda d: d.update(options=[1]), "bad rule options"),
    (lambda d: d.update(counting="lazy"), "bad counting mode"),
    (lambda d: d.update(rng=0), "bad random generator state"),
    (lambda d: d.update(rng="x"), "bad random generator state"),
    (lambda d: d.update(score=[1]), "bad score"),
    (lambda d: d.update(score=[-1, 0]), "bad score"),
    (lambda d: d.update(dealer=2), "bad dealer"),
    (lambda d: d.update(deal=None), "not a saved match"),
    (lambda d: d["deal"].update(rules="hoyle"), "not played by the match's rules"),
    (lambda d: d["deal"]["hands"][0].__setitem__(0, d["deal"]["hands"][1][0]), "appears twice"),
    (lambda d: d["deal"]["actions"].append("7 play AS"), "seat 0 or 1"),
])
def test_from_dict_refuses_corrupt_data(change, words):
    data = saved()
    change(data)
    with pytest.raises(ValueError) as e:
        Match.from_dict(data)
    assert words in str(e.value)


def test_from_dict_refuses_an_illegal_saved_action():
    data = saved()
    data["deal"]["actions"].append(data["deal"]["actions"][0])      # the same card twice
    with pytest.raises(IllegalMove):
        Match.from_dict(data)


@pytest.mark.parametrize("name", Rules.NAMES)
@pytest.mark.parametrize("counting", ["casual", "classic"])
def test_random_matches_keep_score_and_dealers(name, counting):
    """Whole random matches: the score, carried points and dealers follow RULES.md 2-3."""
    rules = Rules(name)
    for seed in range(40):
        m = Match(rules, counting=counting, seed=seed)
        rng = Rng(seed)
        score, carry = [0, 0], 0
        while True:
            d = m.deal
            while not d.ended:
                seat, action = random_action(d.clone(), Rng(rng.next()))
                m.apply(action, seat)
                if counting == "casual" and not d.ended and d.lead < 0:
                    assert d.points(d.leader) < 66, "casual counting declares at 66"
            winner, gp, reason = d.result
            dealer = m.dealer
            if reason == "no-score":
                carry += 1
            elif winner is not None:
                score[m.player_at(winner)] += gp[winner] + carry
                carry = 0
            assert (m.score, m.carry) == (score, carry)
            if max(score) >= rules.target:
                assert m.over and m.winner == score.index(max(score))
                break
            assert not m.over
            m.next_deal()
            if reason == "annulled":
                assert m.dealer == dealer
            elif rules.next_dealer == "winner" and winner is not None:
                assert m.seat_of(m.dealer) == 1 and m.dealer == (dealer if winner == 1 else 1 - dealer)
            elif rules.next_dealer == "alternate":
                assert m.dealer == 1 - dealer
