"""The family games on the device: each one chosen in the Settings screen and played to
the match result through the buttons (the human presses for the first legal choice,
the computer plays every other seat); screenshots checked by pixel; power cuts in a
team game and in Idiots' Sixty-six.
"""
import random

import pytest

from tools.sim import Sim, Driver, first_legal, setup_paths
from test_sim_match import rgb, near
from test_sim_powercut import CuttableSim, play_through_cuts

setup_paths()       # firmware/ on sys.path, as on the board
from shared_rules import actions as A  # noqa: E402
from sixtysix.save.settings import CHOICES  # noqa: E402
from sixtysix.table.driver import on_table  # noqa: E402

GAMES = CHOICES[0][2]
FAMILY = GAMES[4:]
FELT = (8, 93, 41)          # the felt as the 16-bit display shows it
GOLD = (255, 210, 63)


def count(surface, box, colour, tol=24):
    x0, y0, w, h = box
    return sum(1 for x in range(x0, x0 + w) for y in range(y0, y0 + h)
               if near(rgb(surface, x, y), colour, tol))


def start(game, seed, profile="pico_display_pack", cls=Sim, settle=True, level="easy", **kw):
    """Boot, choose the game, the computer's level (Easy) and a match to 5 in the Settings
    screen, start a match."""
    sim = cls(profile, seed=seed, **kw)
    sim.boot()
    sim.settle()
    sim.press("right")                      # Settings
    sim.press("ok")
    for _ in range(GAMES.index(game)):
        sim.press("ok")                     # Rules: standard -> hoyle -> ... -> the game
    sim.press("right")
    for _ in range(("normal", "hard", "easy").index(level)):
        sim.press("ok")                     # Computer: normal -> hard -> easy
    sim.press("right")
    sim.press("right")
    sim.press("ok")                         # Match to: rule set -> 5
    sim.press("menu")                       # back to the title (saves the settings)
    assert sim.app.device.settings.get("rules") == game
    assert sim.app.device.settings.get("level") == level
    assert sim.app.device.settings.target_override() == 5
    sim.press("ok", settle=settle)          # New match
    return sim


def card_face(surface, xy, row=1):
    """True if a card's face (white) shows in a row of the place xy (1: its top edge;
    the bottom place hides the top place's lower part, so look at its own low rows)."""
    return count(surface, (xy[0] + 2, xy[1] + row, 28, 1), (255, 255, 255), 0) > 14


@pytest.mark.parametrize("game", FAMILY)
def test_whole_family_match_through_the_buttons(game):
    sim = start(game, seed=3 + FAMILY.index(game))
    g = sim.app.screen
    assert g.match.rules.name == game.split()[0]
    players = {"three-handed": 3, "four-handed": 4, "american": 4, "american 3": 3,
               "american 2": 2, "idiots": 2}[game]
    assert g.match.players() == players
    seen = {"result": 0, "match": False, "bid": False, "cards": 0}

    def look():
        g = sim.app.screen
        if not hasattr(g, "match"):
            return
        d = g.match.deal
        if g.overlay is not None:
            s = sim.pixels()
            assert count(s, (40, 50, 160, 30), (0x07, 0x3D, 0x1B), 10) > 1000   # the dark box
            if d.ended and g.overlay[1].items != ["Back to the title"]:
                seen["result"] += 1
            elif g.match.over:
                seen["match"] = True
                seen["score"] = list(g.match.score)
            return
        if g.bidding() and not seen["bid"]:
            seen["bid"] = True
            check_bidding_screen(sim)
        table = on_table(d)
        if table and not g.bidding():
            s = sim.pixels()
            for seat, _ in table:             # each card played lies towards its player
                assert card_face(s, g.lay.places[players][g.place(seat)])
            seen["cards"] = max(seen["cards"], len(table))

    team = g.team
    Driver(sim, first_legal).play_match(limit=3000, on_action=look)
    assert type(sim.app.screen).__name__ == "Title"
    assert seen["match"] and seen["result"] >= 1
    assert max(seen["score"]) >= 5
    assert seen["bid"] == game.startswith("american")
    assert seen["cards"] >= (players - 1 if team else 1)      # all before the human's card
    stats = dict(zip(("matches", "won", "deals", "deals_won"), sim.app.device.settings.stats))
    assert stats["matches"] == 1 and stats["deals"] == seen["result"]


def check_bidding_screen(sim):
    """The human's call: "Bid: < pass >" on the message line, the bids so far by the
    seats; right shows the next bid, left goes back; nothing is said until OK."""
    g = sim.app.screen
    d = g.match.deal
    assert g.table.msg.text.startswith("Bid: < pass >")
    s = sim.pixels()
    lay = g.lay
    assert count(s, (lay.msg[0], lay.msg[1], 80, 12), GOLD) > 40
    for seat in range(d.n):
        label = g.table.seat_labels[g.place(seat)]
        said = d.bids[seat]
        assert label.text == ("" if said < 0 else "pass" if said == 0 else "bid " + str(said))
        if said >= 0:
            x, y = label.tiles.x, label.tiles.y
            assert count(s, (x, y, 30, 12), GOLD) > 20
    log = len(d.log)
    sim.press("right")
    assert g.table.msg.text.startswith("Bid: < " + str(d.bid + 1))
    sim.press("left")
    assert g.table.msg.text.startswith("Bid: < pass >") and len(d.log) == log


def test_four_handed_table_has_a_card_at_each_place_and_the_hint_plays_by_the_rules():
    sim = start("four-handed", seed=8)
    g = sim.app.screen
    places = g.lay.places[4]
    driver = Driver(sim, first_legal)
    for _ in range(40):
        if len(on_table(g.match.deal)) == 3 and g.overlay is None:
            break
        driver.act()
    else:
        pytest.fail("the human never played last to a trick")
    s = sim.pixels()
    assert not card_face(s, places[0], 40)
    assert sum(card_face(s, places[p]) for p in (1, 2, 3)) == 3
    # ask for a hint: it raises a card the rules allow
    sim.press("menu")
    items = g.overlay[1].items
    for _ in range(items.index("Hint")):
        sim.press("right")
    sim.press("ok")
    assert g.overlay[1].items == ["OK"]
    sim.press("ok")
    hand = g.hand()
    assert g.match.deal.legal_plays() >> hand[g.cursor] & 1
    sim.press("ok", settle=False)            # play it: the whole trick shows for a moment
    for _ in range(g.lay.frames[0] + 2):
        sim.step()
    s = sim.pixels()
    assert all(card_face(s, places[p]) for p in range(4)) and card_face(s, places[0], 40)


def test_three_handed_dealer_sits_out_and_watches():
    """When the human deals, the two computers play the deal alone (no hand at the
    bottom), the human's score column shows no tricks, and the result follows."""
    for seed in range(1, 40):
        sim = start("three-handed", seed=seed, settle=False)
        while not hasattr(sim.app.screen, "match") or sim.app.wipe is not None:
            sim.step()                                  # the title gives way to the table
        g = sim.app.screen
        if g.watching():
            break
    else:
        pytest.fail("the human never dealt first")
    assert g.hand() == [] and g.table.msg.text == "You deal and sit out this time"
    lines = [lab.text for lab in g.table.panel]
    assert lines[2].startswith("Trick  -")
    saw_cards = False
    for _ in range(3000):
        sim.step()
        if on_table(g.match.deal) and not g.table.busy():
            s = sim.pixels()
            lay = g.lay
            assert count(s, (0, lay.hand_y, 240, 44), FELT, 6) > 240 * 40   # nobody's hand
            saw_cards = True
        if g.overlay is not None:
            break
    assert saw_cards and g.match.deal.ended
    assert g.overlay[1].items == ["Next deal"]


# ---- power cuts ---------------------------------------------------------------------------

def random_human(seed):
    """A player choosing among every legal action (bids and marriages too), from the state
    only, so after a restart the same state gets the same choice."""
    def policy(deal, seat):
        acts = [a for a in deal.legal_actions() if a not in (A.DECLARE, A.DRAW)]
        # not the log's length: a restored deal's log lacks the automatic draws
        r = random.Random(seed * 100003 + sum(deal.hands) % 1000003 + 7 * sum(deal.tricks))
        return r.choice(acts)
    return policy


def play(game, seed, cuts=(), level="easy"):
    return play_through_cuts(start(game, seed, cls=CuttableSim, cuts=cuts, level=level), random_human(seed))


@pytest.mark.parametrize("game,seed", [("american", 1), ("four-handed", 2), ("idiots", 3),
                                       ("american 3", 4), ("three-handed", 5)])
def test_power_cut_then_continue_gives_the_same_match(game, seed):
    clean = play(game, seed)
    r = random.Random(seed)
    cut = play(game, seed, cuts=sorted(r.sample(range(20, 900), 3)))
    assert cut[2] >= 1, "no power cut happened"
    assert cut[0] == clean[0]
    assert cut[1] == clean[1]


@pytest.mark.parametrize("game,seed", [("four-handed", 6), ("american", 7), ("american 3", 8), ("american 2", 9)])
def test_power_cut_at_hard_then_continue_gives_the_same_match(game, seed):
    """Hard searches from a seed the save log rebuilds (app.state_seed) and the view: a team
    match against Hard, cut at random moments, goes on with the very same moves."""
    clean = play(game, seed, level="hard")
    r = random.Random(seed)
    cut = play(game, seed, cuts=sorted(r.sample(range(20, 900), 4)), level="hard")
    assert cut[2] >= 2, "too few power cuts happened"
    assert cut[0] == clean[0]
    assert cut[1] == clean[1]


def test_bidding_hint_chooses_the_bid_the_computer_would_make():
    from shared_rules.ai import team_greedy
    sim = start("american", seed=6)
    g = sim.app.screen
    for _ in range(40):
        if g.bidding() and g.overlay is None:
            break
        Driver(sim, first_legal).act()
    else:
        pytest.fail("the human never had to bid")
    action, why = team_greedy.hint(g.match.deal.view(g.me()))
    sim.press("menu")
    items = g.overlay[1].items
    assert items == ["Hint", "Main menu", "Back"]
    sim.press("ok")
    assert g.overlay[1].items == ["OK"]
    sim.press("ok")
    assert g.match.deal.legal_actions()[g.bid_choice] == action
    said = "pass" if action == A.PASS else str(action - A.BID)
    assert g.table.msg.text.startswith("Bid: < " + said)
    log = len(g.match.deal.log)
    sim.press("ok")
    assert g.match.deal.log[log] & 255 == action


def test_north_american_hand_and_rules_screen_rank_the_ten_below_the_jack():
    """The hand at the bottom goes suit by suit, high to low by A K Q J 10 9 (a 10 after
    the J, Q or K of its suit), and the rules screen says so."""
    from sixtysix.screens import rulestext
    from shared_rules.cards import name
    order = "AKQJT9"
    for seed in range(1, 20):
        sim = start("american", seed=seed)
        g = sim.app.screen
        names = [name(c) for c in g.hand()]
        suits = [n[1] for n in names]
        assert suits == sorted(suits, key="CSHD".index)
        for a, b in zip(names, names[1:]):
            if a[1] == b[1]:
                assert order.index(a[0]) < order.index(b[0]), names
        if any(a[1] == b[1] and a[0] in "KQJ" and b[0] == "T" for a, b in zip(names, names[1:])):
            break
    else:
        raise AssertionError("no hand held a 10 below a K, Q or J of its suit")
    assert any("Cards rank A K Q J 10 9" in p for p in rulestext.pages("american", sim.app.device.key))
