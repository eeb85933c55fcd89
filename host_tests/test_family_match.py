"""Matches of the family games (shared_rules/family.py): three-handed dealer scoring and
rotation, team scores by player across rotating seats, four-handed carry and the ten of
trumps, North American negative scores, "bidders out" and targets, and saved matches
restored mid-deal for every family game.

Deals with a known course come from host_tests/records_family: a record's deal is put in
the match and its actions applied through the match, so the match scores it.
"""
import json
import os

import pytest

from shared_rules.errors import IllegalMove
from shared_rules.family import ThreeMatch, TeamMatch, new_match, match_from_dict
from shared_rules.match import Match
from shared_rules.record import deal_from_record, parse_entry
from shared_rules.rng import Rng
from shared_rules.rules import Rules

RECORDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "records_family")


def record(name):
    with open(os.path.join(RECORDS, name + ".json"), encoding="utf-8") as f:
        return json.load(f)["record"]


def play_record(m, name, upto=None):
    """Put record NAME's deal in match m (dealer as the match has it) and apply its actions."""
    rec = record(name)
    rules = m.rules
    m.deal = deal_from_record(dict(rec, rules=rules.name, options=dict(rules.overrides)))
    for entry in rec["actions"][:upto]:
        seat, action = parse_entry(entry, len(rec["hands"]))
        m.apply(action, seat)
    return m


def step(m, rng):
    """One random legal action of the seat to act, through the match."""
    acts = m.deal.legal_actions()
    m.apply(acts[rng.below(len(acts))])


def finish_randomly(m, rng):
    while not m.deal.ended and not m.over:
        step(m, rng)


# ---- three-handed (RULES.md 5) ------------------------------------------------------

def three(dealer=0, **options):
    m = new_match(Rules("three-handed", **options), counting="classic", seed=4)
    assert isinstance(m, ThreeMatch)
    m.dealer = dealer
    return m


@pytest.mark.parametrize("name", ["three-handed", "four-handed", "american"])
def test_first_dealer_by_cut_for_every_player_count(name):
    """Seed 000: "Each player cuts; the player drawing the highest card is the first dealer"
    (the three-handed rule set's `first_dealer: cut`, which any game may choose); a tie for
    the highest rank cuts again. By lot there is no cut."""
    options = {} if name == "three-handed" else {"first_dealer": "cut"}
    dealers = set()
    for seed in range(40):
        m = new_match(Rules(name, **options), seed=seed)
        n = m.players()
        assert len(m.cut) == n and len(set(m.cut)) == n          # one card each, all different
        ranks = [c & 7 for c in m.cut]
        assert ranks.count(min(ranks)) == 1                        # one highest card (lowest index)
        assert m.dealer == ranks.index(min(ranks))
        dealers.add(m.dealer)
    assert dealers == set(range(n))
    lot = {} if name != "three-handed" else {"first_dealer": "lot"}
    assert new_match(Rules(name, **lot), seed=1).cut is None


def test_three_handed_seats_and_dealer_rotation():
    m = three(dealer=2)
    assert [m.player_at(s) for s in (0, 1)] == [0, 1] and m.seat_of(2) == 2
    play_record(m, "three_wrong_declaration")
    dealers = [m.dealer]
    for _ in range(4):
        m.next_deal()
        dealers.append(m.dealer)
        finish_randomly(m, Rng(m.deals))
        if m.over:
            break
    assert dealers[:4] == [2, 0, 1, 2]


def test_three_handed_dealer_scores_what_the_winner_won():
    m = play_record(three(dealer=0), "three_wrong_declaration")     # seat 1 (player 2) gets 3
    assert m.score == [3, 0, 3]
    m = play_record(three(dealer=1), "three_declare_schwarz")       # seat 0 (player 2) gets 3
    assert m.score == [0, 3, 3]
    assert not m.over


def test_three_handed_dealer_scores_one_when_nobody_scores():
    m = play_record(three(dealer=2), "three_no_score_dealer_1")
    assert m.score == [0, 0, 1] and m.carry == 0


def test_three_handed_dealer_cannot_reach_the_target():
    m = three(dealer=0)
    m.score = [5, 2, 0]
    play_record(m, "three_wrong_declaration")           # player 2 wins 3; dealer 5 + 3 capped at 6
    assert m.score == [6, 2, 3] and not m.over
    m = three(dealer=0)
    m.score = [6, 0, 0]
    play_record(m, "three_no_score_dealer_1")
    assert m.score == [6, 0, 0] and not m.over         # already on 6: the dealer's point is lost
    m = three(dealer=0, target=5)
    m.score = [2, 0, 0]
    play_record(m, "three_wrong_declaration")
    assert m.score == [4, 0, 3] and not m.over


def test_three_handed_active_winner_reaching_the_target_wins():
    m = three(dealer=0)
    m.score = [6, 0, 4]
    play_record(m, "three_wrong_declaration")          # seat 1 is player 2: 4 + 3
    assert m.over and m.winner == 2 and m.score == [6, 0, 7]
    with pytest.raises(ValueError):
        m.next_deal()


# ---- team matches (RULES.md 6 and 7) ------------------------------------------------

def four(dealer=0, **options):
    m = new_match(Rules("four-handed", **options), seed=2)
    assert isinstance(m, TeamMatch) and m.sides() == 2
    m.dealer = dealer
    return m


def test_teams_are_fixed_by_player_while_seats_rotate():
    for dealer in range(4):
        m = four(dealer)
        assert [m.player_at(s) for s in range(4)] == [(dealer + 1 + s) % 4 for s in range(4)]
        for side in (0, 1):
            assert m.team_of_side(side) == m.player_at(side) % 2 == m.player_at(side + 2) % 2
    # Side 0 takes every trick: 3 game points to the team of the players in seats 0 and 2.
    assert play_record(four(dealer=3), "four_every_trick_3").score == [3, 0]   # seat 0 = player 0
    assert play_record(four(dealer=0), "four_every_trick_3").score == [0, 3]   # seat 0 = player 1
    m = play_record(four(dealer=1), "four_every_trick_3")
    assert m.score == [3, 0]
    m.next_deal()
    assert m.dealer == 2 and m.team_of_side(0) == 1


def test_four_handed_no_score_carries_to_the_next_winners():
    m = play_record(four(dealer=3), "four_no_score_65")
    assert m.score == [0, 0] and m.carry == 1 and not m.over
    play_record(m, "four_no_score_65")
    assert m.carry == 2
    play_record(m, "four_one_point")                   # side 1 (seats 1, 3 = team 1) wins 1
    assert m.score == [0, 3] and m.carry == 0


def test_four_handed_target_reached_by_the_deal_winner():
    m = four(dealer=3)
    m.score = [6, 6]
    play_record(m, "four_one_point")                   # side 1 = team 1 wins 1
    assert m.over and m.winner == 1 and m.score == [6, 7]


def test_ten_of_trumps_wins_at_once_on_target_minus_one():
    m = four(dealer=3, ten_of_trumps=True)
    m.score = [6, 0]
    play_record(m, "four_every_trick_3", upto=8)       # trick 2: side 0 wins the 10 of clubs
    assert m.over and m.winner == 0 and m.score == [7, 0]
    assert not m.deal.ended
    with pytest.raises(IllegalMove):
        m.apply(m.deal.legal_actions()[0])
    again = match_from_dict(json.loads(json.dumps(m.to_dict())))
    assert again.over and again.winner == 0


def test_ten_of_trumps_point_without_reaching_the_target():
    m = four(dealer=3, ten_of_trumps=True)
    play_record(m, "four_ten_of_trumps_to_losers")
    assert m.score == [1, 1] and not m.over


def test_ten_of_trumps_on_the_last_trick_beats_the_deal_winner():
    """Both teams on 6: the deal's winners would reach 7 by the deal, but the other team
    won the ten of trumps on the last trick, which wins at once, before the deal is scored."""
    rec = record("four_ten_of_trumps_last_trick")
    deal = deal_from_record(rec)
    for entry in rec["actions"]:
        deal.apply(*reversed(parse_entry(entry, 4)))
    ten_side, winner = deal.ten_side, deal.result[0]
    assert ten_side != winner
    m = four(dealer=3, ten_of_trumps=True)
    m.score = [6, 6]
    play_record(m, "four_ten_of_trumps_last_trick")
    assert m.over and m.winner == m.team_of_side(ten_side)


def american(dealer=3, **options):
    m = new_match(Rules("american", **options), seed=3)
    assert isinstance(m, TeamMatch)
    m.dealer = dealer
    return m


def test_american_set_goes_below_zero_and_survives_a_save():
    m = play_record(american(), "am_set_loses_bid")      # side 0 = team 0 scores 3, bidders -1
    assert m.score == [3, -1]
    play_record(m, "am_moon_set")                         # team 0's moon fails: -5
    assert m.score == [-2, -1] and not m.over
    again = match_from_dict(json.loads(json.dumps(m.to_dict())))
    assert again.score == [-2, -1]


def test_american_moon_scores_five_and_annulled_deal_passes():
    m = play_record(american(), "am_moon_made")
    assert m.score == [5, 0]
    play_record(m, "am_all_pass_annulled")
    assert m.score == [5, 0]
    m.next_deal()
    assert m.dealer == 0                                  # the deal passes to the next dealer


@pytest.mark.parametrize("options,target,own", [({}, 15, True), ({"players": 3}, 15, True),
                                                ({"players": 2}, 10, True), ({"target": 10}, 10, False),
                                                ({"target": 5}, 5, False), ({"players": 2, "target": 7}, 7, False),
                                                ({"players": 2, "target": 15}, 15, False)])
def test_american_targets(options, target, own):
    """Seed 003: "Two team and cut-throat games are played to 15"; the two-player game keeps
    the score "up to 10". Either target can be chosen, or a shorter match as in every game
    (then it is an override)."""
    m = american(**options)
    assert m.rules.target == target
    assert ("target" in m.rules.overrides) != own
    if "players" in options:
        return
    m.score = [target - 2, 0]
    play_record(m, "am_both_sides_score")                # both sides score 1
    assert m.score == [target - 1, 1] and not m.over
    play_record(m, "am_both_sides_score")
    assert m.over and m.winner == 0 and m.score == [target, 2]


def test_bidders_out_when_both_teams_pass_the_target():
    m = american(target=10)
    m.score = [9, 9]                                      # side 0 (team 0) bids and makes
    play_record(m, "am_both_sides_score")
    assert m.score == [10, 10] and m.over and m.winner == 0
    again = match_from_dict(json.loads(json.dumps(m.to_dict())))
    assert again.over and again.winner == 0              # not readable from the equal scores
    m = american(target=10)
    m.score = [9, 9]
    m.dealer = 0                                          # now seat 0 is player 1: team 1 bids
    play_record(m, "am_both_sides_score")
    assert m.over and m.winner == 1
    saved = json.loads(json.dumps(m.to_dict()))
    again = match_from_dict(saved)
    assert again.over and again.winner == 1


def test_bidders_set_the_opponents_past_the_target_win():
    m = american(target=10)
    m.score = [8, 9]
    play_record(m, "am_set_loses_bid")                    # team 0 +3, bidding team 1 -1
    assert m.score == [11, 8] and m.over and m.winner == 0


def test_cutthroat_level_past_the_target_plays_on():
    m = american(dealer=2, players=3, target=10)
    assert m.sides() == 3 and [m.player_at(s) for s in range(3)] == [0, 1, 2]
    m._score((None, [2, 2, -1], "set"))
    m.score = [10, 10, 0]
    m._score((None, [0, 0, -1], "set"))
    assert not m.over
    saved = json.loads(json.dumps(m.to_dict()))
    assert not match_from_dict(saved).over
    play_record(m, "am_cutthroat_widow")                  # the bidder (player 2) makes 3
    assert m.score == [10, 10, 2] and not m.over


def test_saved_winner_is_checked():
    m = american()
    saved = json.loads(json.dumps(m.to_dict()))
    for bad in (0, True, 2, "0"):
        data = dict(saved, winner=bad)
        with pytest.raises(ValueError):
            match_from_dict(data)


# ---- saving and restoring (every family game, mid-deal) ---------------------------------

FAMILY = [("three-handed", {}), ("four-handed", {}), ("four-handed", {"ten_of_trumps": True}),
          ("american", {}), ("american", {"players": 3}), ("american", {"players": 2, "target": 15}),
          ("idiots", {})]


@pytest.mark.parametrize("name,options", FAMILY)
def test_round_trip_mid_deal(name, options):
    rules = Rules(name, **options)
    for seed in range(6):
        m = new_match(rules, counting="classic", seed=seed)
        assert type(m) is {"three": ThreeMatch, "four": TeamMatch, "american": TeamMatch, "idiots": Match}[rules.game]
        rng = Rng(seed)
        for _ in range(seed * 3 + 1):
            if not m.deal.ended:
                step(m, rng)
        saved = json.loads(json.dumps(m.to_dict()))
        again = match_from_dict(saved)
        assert again.to_dict() == saved
        assert type(again) is type(m) and again.deal.hands == m.deal.hands
        # both go on identically
        r1, r2 = Rng(seed + 100), Rng(seed + 100)
        finish_randomly(m, r1)
        finish_randomly(again, r2)
        assert again.to_dict() == m.to_dict()
