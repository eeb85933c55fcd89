"""The match driver (sixtysix.table.driver) without the table.

A Driver whose view has only what the driver tells it (`acted`, `show`, `notice`, `human`)
plays whole matches against the computer: the driver reaches for nothing of the table
(a Driver that did would fail here on an attribute this view has not), says each
action it applied once, deals the next deal and saves every action and deal through
the app.
"""
import pytest

from tools.sim import setup_paths

setup_paths()       # firmware/ on sys.path, as on the board
from shared_rules import ai  # noqa: E402
from shared_rules.family import new_match  # noqa: E402
from shared_rules.rules import Rules  # noqa: E402
from sixtysix.table.driver import Driver, greedy  # noqa: E402


class App:
    """What the driver asks of the app: the computer, the save."""
    sound = None
    think_clock = None

    def __init__(self):
        self.saved = []         # (action, seat, implied, the deal ended, won by this device)
        self.deals = 0

    def make_player(self, level):
        return ai.make_player(level, seed=len(self.saved))

    def log_action(self, game, action, seat, implied):
        d = game.match.deal
        self.saved.append((action, seat, implied, d.ended, d.ended and game.deal_won()))

    def log_deal(self, match, level, people):
        assert people == 1                  # nobody but the person against the computer
        self.deals += 1


class Told(Driver):
    """A view of nothing but what the driver tells it, noted in `told`; the person's key
    (human) plays the greedy move."""

    def __init__(self, app, match, level):
        self.told = []
        Driver.__init__(self, app, match, level)

    def acted(self, action, seat, took, was):
        self.told.append(("acted", action, seat))

    def show(self, deal_in=False):
        self.told.append(("show", deal_in))

    def notice(self, title, text):
        self.told.append(("notice", title, text))

    def human(self, role):
        self.told.append(("human", role))
        self.act(greedy(self.match.deal), self.me())


@pytest.mark.parametrize("rules, seed", [("standard", 1), ("russian", 2), ("three-handed", 3),
                                         ("four-handed", 4)])
def test_the_driver_plays_a_whole_match_against_the_computer_telling_the_view(rules, seed):
    """The person's turns come to the view (human), and so does every action applied
    (acted, once each, as the app saves it: one record each, the deal's end with its
    last) and every next deal (show); nothing else, and nothing refused."""
    m = new_match(Rules(rules), "casual", seed)
    app = App()
    g = Told(app, m, "easy")
    deals = 1
    while not m.over:
        if m.deal.ended:
            g.next_deal()
            deals += 1
        else:
            g.move_on("ok")
    acted = [t for t in g.told if t[0] == "acted"]
    assert [t[0] for t in g.told if t[0] not in ("acted", "human")] == ["show"] * (deals - 1)
    assert all(t == ("show", True) for t in g.told if t[0] == "show")
    assert [(a, s) for a, s, _, _, _ in app.saved] == [t[1:] for t in acted]
    assert app.deals == deals - 1           # the first deal is App.start's to save
    assert sum(1 for e in app.saved if e[3]) == deals        # each deal's end saved with it
    me = g.me()
    assert any(t[0] == "human" for t in g.told) and any(s != me for _, s, _, _, _ in app.saved)


def test_a_move_the_rules_refuse_is_told_and_not_saved():
    m = new_match(Rules("standard"), "casual", 5)
    app = App()
    g = Told(app, m, "easy")
    d = m.deal
    if d.to_act != g.me():
        g.move_on(None)                     # the computer leads
    theirs = d.hands[1 - g.me()] & -d.hands[1 - g.me()]
    card = theirs.bit_length() - 1          # a card the person does not hold
    saved = len(app.saved)
    assert g.act(card, g.me()) is False
    assert g.told[-1][:2] == ("notice", "Not allowed") and len(app.saved) == saved
