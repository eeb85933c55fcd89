"""Pass-and-play through the firmware (tools.sim, keys only): several people on one
device. Between two people's turns a "Pass to <seat>" box hides the hand until the next
person presses a key; the deal result lists everybody's points; the seat map is saved
with the match, so a power cut continues it with the same people."""
import pytest

from tools.sim import Sim, Driver, first_legal, setup_paths

setup_paths()
from shared_rules import cards  # noqa: E402


def boxes(monkeypatch):
    """Every box the firmware opens, as [title, lines, items, the hands' cards face up
    while it showed (play() fills it in)]. (The module the firmware will use: an earlier
    test's link screen may have forgotten the one imported before it.)"""
    from sixtysix.table import boxes
    seen = []
    real = boxes.open_box

    def spy(game, title, lines, items, handler):
        seen.append([title, list(lines), list(items), None])
        return real(game, title, lines, items, handler)

    monkeypatch.setattr(boxes, "open_box", spy)
    return seen


def shown_hands(game):
    """The cards of any person's hand that are face up in the hand row now."""
    if game.seats is None:
        return []
    m, t = game.match, game.table
    out = []
    for p in game.seats.people():
        seat = m.seat_of(p)
        if seat < len(m.deal.hands):
            for c in cards.listed(m.deal.hands[seat]):
                xy = t.place[c]
                if xy is not None and xy[1] >= game.lay.hand_y - game.lay.raise_px and not t.cards[c].hidden:
                    out.append(c)
    return out


def start(sim, people):
    """Title: Play a friend, Pass and play; seat k a person when people[k]; Start."""
    sim.settle()
    names = sim.app.screen.names
    sim.run_script(["right %d" % names.index("friend"), "ok", "right", "ok"])
    setup = sim.app.screen
    assert type(setup).__name__ == "PassSetup"
    for k in list(range(len(people))) + [len(people)]:     # each seat, then Start
        while setup.menu.index != k:
            sim.press("right")
        if k < len(people) and people[k] != setup.people[k]:
            sim.press("ok")                     # person <-> computer
    sim.press("ok")                             # Start


def play(sim, seen, limit=6000):
    """Play the match by keys to its end, noting what each box showed once it is drawn
    (the screen settled, just before the key that answers it)."""
    driver = Driver(sim, first_legal)
    for _ in range(limit):
        g = driver.game()
        if g is not None and g.overlay is not None and seen[-1][3] is None:
            seen[-1][3] = shown_hands(g)
        if not driver.act():
            return
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("rules,people", [(0, (True, True)), (5, (True, False, True, True))])
def test_a_pass_and_play_match_plays_to_the_end_with_the_hand_hidden_on_pass_screens(
        monkeypatch, rules, people):
    seen = boxes(monkeypatch)
    sim = Sim("pico_display_pack", seed=11)
    sim.boot()
    sim.app.device.settings.index[0] = rules           # (the rule set, as Settings would set it)
    start(sim, people)
    g = sim.app.screen
    assert type(g).__name__ == "PassPlay" and g.seats.kinds == tuple(
        "person" if p else "computer" for p in people)
    play(sim, seen)
    passes = [b for b in seen if b[0].startswith("Pass to ")]
    assert len(passes) > 10
    assert all(b[3] == [] for b in passes)      # no hand face up on any pass screen
    names = set(g.names[p] for p in g.seats.people())
    assert set(b[0][len("Pass to "):] for b in passes) == names
    results = [b for b in seen if "wins the deal" in b[0] or "win the deal" in b[0]]
    assert results and all(all(g.side_name(s) in " ".join(b[1]) for s in range(g.match.sides()))
                           for b in results[-1:])
    assert "You" not in " ".join(b[0] for b in results)     # nobody is "you" on a shared device


def test_a_power_cut_continues_pass_and_play_with_the_same_people_and_a_pass_screen():
    sim = Sim("pico_display_pack", seed=12)
    sim.boot()
    start(sim, (True, True))
    d = Driver(sim, first_legal)
    for _ in range(9):
        d.act()
    before = sim.app.screen.match.to_dict()
    sim.power_cut()
    sim.boot()
    sim.settle()
    assert sim.app.screen.names[0] == "continue"
    sim.press("ok")
    g = sim.app.screen
    assert type(g).__name__ == "PassPlay" and g.seats.kinds == ("person", "person")
    assert g.match.to_dict() == before
    assert g.overlay is not None and g.hand() == [] and shown_hands(g) == []    # whoever picks it up


def test_the_menu_key_on_a_pass_box_opens_the_action_menu_with_the_hand_hidden(monkeypatch):
    """Menu on a "Pass to <seat>" box opens the table's action menu (Main menu, Back, and
    what the person still holding the device may do: the Russian close before the lead),
    none of the next person's moves and no card of the hidden hand; Back or Menu again
    bring the pass box back, Main menu leaves the match for the title."""
    seen = boxes(monkeypatch)
    real_idle = Sim.idle

    def idle(sim):
        # (Sim.idle waits for the computer to decide on the Russian close before each lead
        # (Driver.asked), which pass-and-play's table never asks: its seats say who may)
        g = sim.app.screen
        if getattr(g, "seats", None) is not None:
            g.asked = len(g.match.deal.log)
        return real_idle(sim)

    monkeypatch.setattr(Sim, "idle", idle)
    sim = Sim("pico_display_pack", seed=11)
    sim.boot()
    sim.app.device.settings.index[0] = 2         # Russian: either player may close before the lead
    start(sim, (True, True))
    g = sim.app.screen
    assert g.overlay is not None and seen[-1][0].startswith("Pass to ")

    def menu_on_the_pass_box():
        passes = len(seen)
        sim.press("menu")
        assert len(seen) == passes + 1 and seen[-1][0] == "Menu"
        assert g.overlay is not None and g.passing and g.hand() == [] and shown_hands(g) == []
        return seen[-1][2]

    assert menu_on_the_pass_box() == ["Main menu", "Back"]     # nobody holds the device yet
    sim.press("right")
    sim.press("ok")                                             # Back: the pass box again
    assert seen[-1][0].startswith("Pass to ") and g.overlay is not None and shown_hands(g) == []
    assert menu_on_the_pass_box() == ["Main menu", "Back"]
    sim.press("menu")                                           # Menu again: the same
    assert seen[-1][0].startswith("Pass to ") and g.overlay is not None
    # play on until the person holding the device may close before the other leads
    driver = Driver(sim, first_legal)
    for _ in range(400):
        if g.overlay is not None and seen[-1][0].startswith("Pass to ") and g.seats.may_close(g.match):
            break
        driver.act()
    else:
        raise AssertionError("no pass box offered the close")
    holder, to = g.seats.holder, seen[-1][0]
    assert menu_on_the_pass_box() == ["Close the talon first", "Main menu", "Back"]
    sim.press("ok")                                             # closed by the holder, still hidden
    assert g.match.deal.closed == g.match.seat_of(holder) and g.seats.holder == holder
    assert seen[-1][0] == to and g.overlay is not None and shown_hands(g) == []
    menu_on_the_pass_box()
    sim.press("ok")                                             # Main menu
    assert type(sim.app.screen).__name__ == "Title"
    sim.press("ok")                                             # Continue: the pass box, hand hidden
    g = sim.app.screen
    assert type(g).__name__ == "PassPlay" and g.overlay is not None and shown_hands(g) == []
