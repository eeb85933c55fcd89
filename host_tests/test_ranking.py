"""Which card beats which, per rule set (docs/RULES.md 1 and 7): A 10 K Q J 9 8 7 in every
game but North American Sixty-Six, which ranks A K Q J 10 9 (seed 003: "a 24-card pack
ranking 9, 10, Jack, Queen, King, and Ace"), with the same card points. Checked here
against those orders as the rules text writes them: the table the hot loops read
(Rules.higher), North American's duty to follow and play higher, its trick winners, the
computer players' sense of order and the device's hand. The records of issue 22
(records_family/am_jack_must_beat_the_ten_error, am_king_takes_ten_jack_queen) replay
in test_records.
"""
from hypothesis import given, settings, strategies as st, HealthCheck

from family_oracle import ORDER, AMERICAN_ORDER
from shared_rules.actions import BID, PASS
from shared_rules.cards import POINTS, RANKS, SUITS, listed, mask_of, name, pack, parse, ranked
from shared_rules.rng import Rng
from shared_rules.rules import Rules, NAMES, FAMILY
from shared_rules.team import TeamDeal, dealt
from shared_rules.ai import team_greedy, greedy

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def order_of(rules):
    """The rules text's order, high to low, of the ranks in the rule set's pack."""
    text = AMERICAN_ORDER if rules.game == "american" else ORDER
    return [x for x in text if RANKS.index(x) < rules.ranks]


def above(rules, c):
    """The cards of c's suit that the rules text ranks above c."""
    order = order_of(rules)
    i = order.index(RANKS[c & 7])
    return {parse(x + SUITS[c >> 3]) for x in order[:i]}


def test_every_rule_set_reads_its_order_from_higher():
    """Rules.higher holds, per rank, the ranks the rules text puts above it: North
    American's 10 under A K Q J, every other game's under the A alone."""
    for n in NAMES + FAMILY:
        rules = Rules(n)
        for c in listed(pack(rules.ranks)):
            got = set(listed(rules.higher[c & 7] << (c & 24)))
            assert got == above(rules, c), (n, name(c))
    american = Rules("american", players=2).higher
    assert [sum(american[r] >> k & 1 for k in range(8)) for r in range(6)] == [0, 4, 1, 2, 3, 5]
    assert POINTS[:6] == (11, 10, 4, 3, 2, 0)       # the points stay the same in every game


def test_a_hand_is_shown_high_to_low_by_the_ranking():
    cards = [parse(x) for x in ("9H", "TH", "JH", "QH", "KH", "AH", "TS", "KS", "JC")]
    mask = mask_of(cards)
    assert [name(c) for c in ranked(mask, Rules("american").higher)] == \
        ["JC", "KS", "TS", "AH", "KH", "QH", "JH", "TH", "9H"]
    assert ranked(mask, Rules("standard").higher) == listed(mask)
    assert ranked(mask, Rules("four-handed").higher) == listed(mask)


# ---- North American: follow and play higher, by A K Q J 10 9 ----------------------------

def allowed(hand, trick, trump):
    """The cards the rules text lets a seat play to a trick (RULES.md 7): follow suit and
    play higher than the winning card if able; void, trump, higher than a winning trump if
    able; else anything. Cards as names, ranked by A K Q J 10 9."""
    def beats(c, best):
        if c[1] == best[1]:
            return AMERICAN_ORDER.index(c[0]) < AMERICAN_ORDER.index(best[0])
        return c[1] == trump
    best = trick[0]
    for c in trick[1:]:
        if beats(c, best):
            best = c
    same = [c for c in hand if c[1] == trick[0][1]]
    if same:
        higher = [c for c in same if best[1] == trick[0][1] and beats(c, best)]
        return set(higher or same), best
    trumps = [c for c in hand if c[1] == trump]
    if trumps:
        higher = [c for c in trumps if best[1] == trump and beats(c, best)]
        return set(higher or trumps), best
    return set(hand), best


@SETTINGS
@given(st.sampled_from([4, 3, 2]), st.integers(0, 2 ** 31 - 1))
def test_american_follows_and_beats_by_a_k_q_j_10_9(players, seed):
    """A deal played at random (legal plays only), each play checked against the rules
    text's duty and each trick's winner against A K Q J 10 9."""
    rules = Rules("american", players=players)
    rng = Rng(seed)
    cards = listed(pack(6))
    rng.permute(cards)
    d = dealt(rules, cards)
    d.apply(BID + 1, 0)
    while d.to_act != 0:
        d.apply(PASS)
    seats = {}                                  # who played each card of the trick
    while not d.ended:
        seat = d.to_act
        hand = [name(c) for c in listed(d.hands[seat])]
        legal = {name(c) for c in listed(d.legal_plays())}
        if d.trick:
            trick = [name(c) for c in d.trick]
            want, best = allowed(hand, trick, SUITS[d.trump])
            assert legal == want, (trick, hand)
            assert name(d.best) == best
        else:
            assert legal == set(hand)
            seats = {}
        c = sorted(legal)[rng.below(len(legal))]
        seats[c] = seat
        d.apply(parse(c), seat)
        if not d.trick:                         # the trick is complete: the winner leads
            _, best = allowed([], [name(x) for x in d.last_trick[:-1]], SUITS[d.trump])
            assert d.last_trick[-1] == seats[best] == d.leader


def test_a_ten_led_is_beaten_by_the_jack_queen_and_king():
    """Seed 003's order on the cards of issue 22: the 10 of hearts led (hearts trump), a
    hand with the J and the 9 may only play the J; a hand with the K and the A may play
    either over a Q."""
    rules = Rules("american")
    hands = [[parse(x) for x in h] for h in (("TH", "AS", "KS", "QS", "JS", "TS"),
                                             ("JH", "9H", "AC", "KC", "QC", "JC"),
                                             ("QH", "9S", "TC", "9C", "AD", "KD"),
                                             ("AH", "KH", "QD", "JD", "TD", "9D"))]
    d = TeamDeal(rules, [mask_of(h) for h in hands])
    d.apply(BID + 1, 0)
    for seat in (1, 2, 3):
        d.apply(PASS, seat)
    d.apply(parse("TH"), 0)
    assert d.legal_plays() == 1 << parse("JH")
    d.apply(parse("JH"), 1)
    d.apply(parse("QH"), 2)
    assert d.legal_plays() == (1 << parse("AH")) | (1 << parse("KH"))
    d.apply(parse("KH"), 3)
    assert d.last_trick[-1] == 3 and d.card_points == [0, 19]


# ---- the computer players read the same order --------------------------------------------

def test_the_players_sense_of_order_follows_the_ranking():
    """team_greedy's top card and masters, and greedy's sure winners and trick winners,
    by A K Q J 10 9 in North American and by A 10 K Q J 9 elsewhere."""
    american = Rules("american").higher
    standard = Rules("standard").higher
    hearts = mask_of([parse(x) for x in ("TH", "KH", "9H")])
    assert name(team_greedy.top(hearts, american)) == "KH"
    assert name(team_greedy.top(hearts, standard)) == "TH"
    # rank masks (one suit's bits 0-7): the team search's hands
    assert team_greedy.top(0b110110, american) == 2 and team_greedy.top(0b110110, standard) == 1
    out = mask_of([parse(x) for x in ("QH", "JH")])            # the A is gone
    assert greedy.sure_winner(parse("KH"), out, 0, True, american)
    assert not greedy.sure_winner(parse("TH"), out, 0, True, american)
    assert greedy.sure_winner(parse("TH"), out, 0, True, standard)
    assert greedy.beats(parse("JH"), parse("TH"), 0, american)
    assert not greedy.beats(parse("JH"), parse("TH"), 0, standard)
    assert greedy.sure_points(mask_of([parse(x) for x in ("KH", "TH")]), out, 2, american) == 4


def test_north_american_bids_count_the_king_behind_the_ace():
    """The bidding estimate's sure cards: the ace and the card ranked next (North
    American's K, 4 points, not the 10)."""
    hand = mask_of([parse(x) for x in ("AS", "KS", "TS")])
    assert team_greedy.estimate(hand, False, Rules("american").higher) == 11 + 5 + 4 + 5 + 6
    assert team_greedy.estimate(hand, False, Rules("four-handed").higher) == 11 + 5 + 10 + 5 + 6
