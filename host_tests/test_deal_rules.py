"""Rule-by-rule tests of shared_rules.deal on hand-built deals (RULES.md sections 2-4).

The records in host_tests/records document the scenarios; these tests look inside the
state (hands, legal actions, the unchanged state after an IllegalMove) where a replay
report cannot.
"""
import glob
import os

import pytest

from engine_records import RECORDS, load, deal_at, entry_of
from rules_oracle import snapshot
from shared_rules.actions import MARRY, DECLARE_MARRIAGE, EXCHANGE, CLOSE, DECLARE, DRAW
from shared_rules.record import parse_action as act
from shared_rules.cards import parse, mask_of, words, POINTS
from shared_rules.deal import Deal, dealt
from shared_rules.errors import IllegalMove
from shared_rules.record import deal_from_record, parse_entry
from shared_rules.report import replay
from shared_rules.rules import Rules


def cards(text):
    return mask_of([parse(t) for t in text.split()])


def refuse(deal, action, seat, message):
    """The action is refused with exactly this message and the deal is unchanged."""
    before = snapshot(deal)
    with pytest.raises(IllegalMove) as e:
        deal.apply(action, seat)
    assert str(e.value) == message
    assert snapshot(deal) == before


ERROR_RECORDS = [os.path.basename(f)[:-5] for f in sorted(glob.glob(os.path.join(RECORDS, "*.json")))
                 if load(os.path.basename(f)[:-5])["expect"]["status"] == "error"
                 and load(os.path.basename(f)[:-5])["expect"].get("error_index") is not None]


@pytest.mark.parametrize("name", ERROR_RECORDS)
def test_every_refused_record_action_leaves_the_deal_unchanged(name):
    expect = load(name)["expect"]
    i = expect["error_index"]
    deal = deal_at(name, i)
    before = snapshot(deal)
    with pytest.raises((IllegalMove, ValueError)) as e:
        seat, action = entry_of(name, i)
        deal.apply(action, seat)
    assert str(e.value) == expect["error"]
    assert snapshot(deal) == before


# ---- tricks and phase 1 ----

@pytest.mark.parametrize("lead,follow,winner", [
    ("TC", "KC", 0),      # the ten ranks above the king; the suit led
    ("9S", "QS", 1),      # the higher card of the suit led
    ("9D", "AS", 0),      # another non-trump suit never wins
    ("AC", "9H", 1),      # any trump beats a plain lead
    ("JH", "QH", 1),      # the higher trump
    ("AH", "TS", 0),      # trump led, plain card
])
def test_trick_winner(lead, follow, winner):
    """Trump hearts (KH turned up); one trick of two cards."""
    d = Deal(Rules("standard"), [cards(lead + " JD"), cards(follow + " QD")], parse("KH"), [parse("9C")])
    d.apply(parse(lead))
    d.apply(parse(follow))
    assert d.last_trick == (parse(lead), parse(follow), winner)
    assert d.leader == winner and d.to_act == winner
    assert d.card_points[winner] == sum(POINTS[parse(c) & 7] for c in (lead, follow))


def test_phase1_follower_may_play_anything():
    d = deal_at("std_trick_winners_and_phase1_freedom", 2)
    d.apply(act("play 9D"))                       # seat 1 holds JD, AS, TH ...
    assert d.legal_plays() == d.hands[1]


def test_draw_winner_first_then_loser_and_turnup_to_the_loser():
    d = deal_at("std_trick_winners_and_phase1_freedom", 2)
    assert d.pending_draw and d.talon_left == 12
    assert d.legal_actions() == [DRAW, CLOSE]
    d.apply(DRAW)
    assert d.hands[0] >> parse("QS") & 1 and d.hands[1] >> parse("JS") & 1
    assert d.talon_left == 10 and not d.pending_draw
    d = deal_at("std_loser_takes_turnup", 12)
    d.apply(DRAW)
    assert d.trump_card == -1 and d.phase2 and d.talon_left == 0
    assert d.hands[1] >> parse("KH") & 1 and d.hands[0] >> parse("TD") & 1
    assert d.known[1] >> parse("KH") & 1          # everybody saw who took the turn-up


def test_explicit_draw_needs_a_pending_draw():
    d = deal_at("std_trick_winners_and_phase1_freedom", 2)
    d.apply(DRAW)
    refuse(d, DRAW, 0, "there is nothing to draw now")


# ---- phase 2 duties, one per follow option ----

def closed_deal(rules, closer=0):
    """The deal of std_follow_beat_plays_higher under `rules`, closed before the first lead.

    Trump spades; seat 0 holds QD AH AC 9H TC KC, seat 1 KD 9D AS TS 9C QH.
    """
    rec = load("std_follow_beat_plays_higher")["record"]
    d = deal_from_record(dict(rec, rules=rules))
    d.apply(CLOSE, closer)
    return d


@pytest.mark.parametrize("rules,lead,legal", [
    ("standard", "QD", "KD"),            # follow and beat
    ("standard", "AC", "9C"),            # cannot beat: any of the suit
    ("standard", "AH", "QH"),
    ("hoyle", "QD", "KD 9D"),            # follow suit only
    ("russian", "QD", "KD 9D"),          # follow suit, no duty to beat
])
def test_phase2_duty_when_holding_the_suit(rules, lead, legal):
    d = closed_deal(rules, closer=1 if rules == "russian" else 0)
    d.apply(parse(lead))
    assert d.legal_plays() == cards(legal)


@pytest.mark.parametrize("rules,legal", [
    ("standard", "AS TS"),               # void: must trump
    ("russian", "AS TS"),                # void: must trump
    ("hoyle", "KD 9D AS TS 9C"),         # void: anything
])
def test_phase2_duty_when_void(rules, legal):
    d = closed_deal(rules, closer=1 if rules == "russian" else 0)
    d.apply(parse("AH"))
    d.apply(parse("QH"))                 # seat 0 wins, seat 1 is now void in hearts
    d.apply(parse("9H"))
    assert d.legal_plays() == cards(legal)


@pytest.mark.parametrize("rules,lead,bad,message", [
    ("standard", "QD", "9D", "you must beat the Q of diamonds: you hold the K of diamonds"),
    ("standard", "AC", "QH", "you must follow suit: you hold the 9 of clubs"),
    ("hoyle", "AC", "TS", "you must follow suit: you hold the 9 of clubs"),
    ("russian", "QD", "AS", "you must follow suit: you hold the K of diamonds"),
])
def test_phase2_refusals_name_a_legal_card(rules, lead, bad, message):
    d = closed_deal(rules, closer=1 if rules == "russian" else 0)
    d.apply(parse(lead))
    refuse(d, parse(bad), 1, message)


def test_no_duty_before_the_talon_is_used_up():
    d = deal_at("std_loser_takes_turnup", 10)       # 5 tricks, talon still open
    assert not d.phase2
    d.apply(act("play JD"), 1)
    assert d.legal_plays() == d.hands[0]


# ---- marriages ----

def test_marriage_points_wait_for_a_trick():
    d = deal_at("std_forehand_meld_waits_for_trick")
    assert d.melds[0] == 1 and d.meld_points[0] == 20 and d.points(0) == 0
    d = deal_at("std_forehand_meld_counts_after_trick")
    assert d.points(0) == 25


def test_marriage_listed_only_on_lead_with_both_cards():
    d = deal_at("std_marriages_20_and_40", 2)
    d.apply(DRAW)
    acts = d.legal_actions()
    assert MARRY + parse("KC") in acts and MARRY + parse("QC") in acts
    assert DECLARE_MARRIAGE + parse("KC") in acts
    assert MARRY + parse("KH") in acts                # hearts: trumps, 40
    d.apply(MARRY + parse("KC"))
    assert not any(MARRY <= a < EXCHANGE for a in d.legal_actions())


def test_marriage_needs_both_cards_and_a_king_or_queen():
    d = deal_at("std_forehand_meld_waits_for_trick", 0)
    refuse(d, MARRY + parse("9S"), 0, "a marriage is shown with a K or a Q")
    refuse(d, MARRY + parse("KD"), 0, "you do not hold the K of diamonds")
    d = deal_at("std_trick_winners_and_phase1_freedom", 0)
    refuse(d, MARRY + parse("KS"), 0, "you need the Q of spades too for a marriage")


@pytest.mark.parametrize("rules,ok", [("standard", False), ("russian", False), ("hoyle", True)])
def test_marriage_in_phase2(rules, ok):
    rec = load("std_no_marriage_after_closing")["record"]
    d = deal_from_record(dict(rec, rules=rules))
    for e in rec["actions"][:3]:
        seat, a = parse_entry(e)
        d.apply(a, seat)
    assert (MARRY + parse("KH") in d.legal_actions()) == ok
    if ok:
        d.apply(MARRY + parse("KH"))
        assert d.meld_points[0] == 40
    else:
        refuse(d, MARRY + parse("KH"), 0, "marriages are shown only while the talon is open")


def test_declare_marriage_not_offered_in_russian():
    d = deal_at("russian_no_declare_marriage", 6)
    d.apply(DRAW)
    acts = d.legal_actions()
    assert MARRY + parse("KH") in acts
    assert not any(DECLARE_MARRIAGE <= a < EXCHANGE for a in acts)


# ---- trump exchange ----

def test_exchange_swaps_nine_and_turnup():
    d = deal_at("std_exchange_leader_after_trick", 8)
    d.apply(DRAW)
    assert EXCHANGE in d.legal_actions()
    d.apply(EXCHANGE)
    assert d.trump_card == parse("9H") and d.stock[-1] == parse("9H")
    assert d.hands[0] >> parse("KH") & 1 and not d.hands[0] >> parse("9H") & 1
    assert d.known[0] >> parse("KH") & 1             # the opponent saw it taken
    assert EXCHANGE not in d.legal_actions()


def test_hoyle_exchange_offered_while_following_standard_not():
    for name, offered in (("hoyle_exchange_while_following", True), ("std_exchange_only_on_lead", False)):
        d = deal_at(name, 5)
        assert d.lead >= 0 and d.to_act == 1
        assert (EXCHANGE in d.legal_actions()) == offered


def test_schnapsen_exchanges_the_jack():
    d = deal_at("schnapsen_exchange_jack", 2)
    d.apply(DRAW)
    assert d.exchange_card == parse("JH")
    d.apply(EXCHANGE)
    assert d.trump_card == parse("JH") and d.hands[1] >> parse("TH") & 1


def test_exchange_refusals():
    d = deal_at("std_exchange_needs_a_trick", 0)
    refuse(d, EXCHANGE, 0, "you may exchange only after winning a trick")
    d = deal_at("std_exchange_not_when_closed", 3)
    refuse(d, EXCHANGE, 1, "the talon is closed")
    d = deal_at("russian_exchange_off", 2)
    refuse(d, EXCHANGE, 1, "this rule set has no trump exchange")
    d = deal_at("std_exchange_talon_used_up", 12)
    refuse(d, EXCHANGE, 0, "no face-down card is left above the trump")
    d = deal_at("std_trick_winners_and_phase1_freedom", 2)
    refuse(d, EXCHANGE, 0, "you do not hold the 9 of hearts")


# ---- closing ----

def test_close_before_drawing_keeps_hands_short():
    d = deal_at("std_exchange_not_when_closed", 3)
    assert d.closed == 1 and d.phase2 and not d.pending_draw
    assert d.talon_left == 12 and bin(d.hands[1]).count("1") == 5
    assert d.closed_opp_tricks == 0


def test_draw_then_close():
    d = deal_at("std_draw_then_close", 4)
    assert d.closed == 1 and d.talon_left == 10 and bin(d.hands[1]).count("1") == 6


def test_close_refusals():
    refuse(deal_at("std_close_only_leader", 0), CLOSE, 1, "only the player on lead may close")
    refuse(deal_at("std_close_not_after_lead", 1), CLOSE, 0, "you may close only before a card is led")
    refuse(deal_at("std_close_after_talon_used_up", 13), CLOSE, 0, "the talon is used up")
    refuse(deal_at("std_draw_then_close", 4), CLOSE, 1, "the talon is already closed")
    refuse(deal_at("russian_close_needs_five", 9), CLOSE, 1, "the talon needs at least 5 cards to close")


def test_russian_either_player_may_close_before_any_lead():
    d = deal_at("russian_close_by_non_leader_before_drawing", 2)
    assert d.to_act == 1 and d.pending_draw
    assert CLOSE in d.legal_actions(0) and CLOSE in d.legal_actions(1)
    d.apply(CLOSE, 0)
    assert d.closed == 0 and d.closed_opp_tricks == 1 and d.talon_left == 12
    d = deal_at("russian_closer_failed_4", 0)
    assert CLOSE in d.legal_actions(1)            # the dealer, before the forehand's first lead
    d.apply(parse("AS"))
    assert CLOSE not in d.legal_actions(0) and CLOSE not in d.legal_actions(1)


def test_standard_close_minimum_is_the_last_face_down_card():
    d = deal_at("std_loser_takes_turnup", 12)     # talon: TD face down + KH
    assert d.talon_left == 2 and CLOSE in d.legal_actions()


# ---- declaring ----

def test_declare_only_on_lead():
    d = deal_at("std_declared_1", 1)
    refuse(d, DECLARE, 1, "you may do that only when you are on lead")
    refuse(d, DECLARE, 0, "it is not your turn")


def test_wrong_declaration_counts_tricks_at_that_moment():
    d = deal_at("std_wrong_declaration_3")
    assert d.result == (1, [0, 3], "wrong-declaration")


def test_played_out_bonus_only_when_open():
    d = deal_at("std_played_out_last_trick")
    assert sum(d.card_points) == 130
    d = deal_at("std_closed_played_out_winner_66")
    assert d.points(0) == 84                      # no 10 in a closed deal


def test_action_after_the_end_is_refused():
    d = deal_at("std_declared_1")
    assert d.ended and d.legal_actions() == [] and d.legal_plays() == 0
    refuse(d, parse("QS"), 0, "the deal is over")


def test_dealing_packets():
    rules = Rules("standard")
    d = dealt(rules, list(range(6)) + list(range(8, 14)) + list(range(16, 22)) + list(range(24, 30)))
    # 3 to the forehand, 3 to the dealer, 3 and 3 again, then the turn-up
    assert d.hands[0] == cards("AC TC KC AS TS KS") and d.hands[1] == cards("QC JC 9C QS JS 9S")
    assert d.trump_card == parse("AH") and d.talon_left == 12 and d.stock[0] == parse("TH")
    d = dealt(Rules("schnapsen"), list(range(5)) + list(range(8, 13)) + list(range(16, 21)) + list(range(24, 29)))
    assert d.hands[0] == cards("AC TC KC TS KS") and d.hands[1] == cards("QC JC AS QS JS")
    assert d.trump_card == parse("AH") and d.talon_left == 10


def test_words_used_in_messages():
    assert words(parse("TH")) == "the 10 of hearts"


def test_unknown_action_numbers_are_refused():
    d = deal_at("std_declared_1", 0)
    refuse(d, -1, 0, "unknown action")
    refuse(d, 120, 0, "unknown action")


# ---- rule sets and options (RULES.md section 3) ----

def test_rule_sets_match_the_options_table():
    want = {
        "standard": dict(target=7, next_dealer="alternate", exchange="leader", phase2_marriages=False,
                         declare_marriage=True, follow="beat", closing="leader", closer_fail="standard",
                         schwarz="tricks", played_out="last-trick", first_dealer="lot", pack=24, hand_size=6),
        "hoyle": dict(target=7, next_dealer="alternate", exchange="any", phase2_marriages=True,
                      declare_marriage=True, follow="suit", closing="leader", closer_fail="standard",
                      schwarz="tricks", played_out="carry", first_dealer="cut", pack=24, hand_size=6),
        "russian": dict(target=8, next_dealer="winner", exchange="off", phase2_marriages=False,
                        declare_marriage=False, follow="trump", closing="either", close_min_talon=5,
                        closer_fail="russian", schwarz="points", played_out="annul", first_dealer="lot"),
        "schnapsen": dict(pack=20, hand_size=5, exchange_rank="J", follow="beat", played_out="last-trick"),
    }
    for name, options in want.items():
        r = Rules(name)
        for key, value in options.items():
            assert getattr(r, key) == value, (name, key)
        assert r.overrides == {}


def test_rule_overrides():
    r = Rules("standard", target=5, follow="suit")
    assert r.target == 5 and r.follow == "suit" and r.overrides == {"target": 5, "follow": "suit"}
    assert Rules("russian", target=8).overrides == {}        # the set's own value is no override
    for bad, message in BAD_OPTIONS:
        with pytest.raises(ValueError) as e:
            Rules("standard", **bad)
        assert str(e.value).startswith(message)
    with pytest.raises(ValueError) as e:
        Rules("bezique")
    assert str(e.value).startswith("unknown rule set 'bezique'; choose one of standard, hoyle, russian, schnapsen")


BAD_OPTIONS = ((dict(target=9), "rule option target cannot be 9"),
               (dict(jokers=True), "unknown rule option 'jokers'"),
               (dict(phase2_marriages=1), "rule option phase2_marriages cannot be 1"))


@pytest.mark.parametrize("name,message", [("bad_option_value", BAD_OPTIONS[0][1]),
                                          ("bad_unknown_option", BAD_OPTIONS[1][1]),
                                          ("bad_option_type", BAD_OPTIONS[2][1])])
def test_bad_options_in_a_record(name, message):
    out = replay(load(name)["record"])
    assert out["status"] == "error" and out["error"].startswith("bad record: " + message)


def test_unknown_rule_set_in_a_record():
    out = replay(dict(load("bad_unknown_rules")["record"]))
    assert out["status"] == "error" and out["error_index"] is None
    assert out["error"].startswith("bad record: unknown rule set 'bezique'; choose one of standard")
