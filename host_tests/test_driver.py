"""The match driver (sixtysix.table.driver) without the table.

A Driver whose view has only what the driver tells it (`acted`, `show`, `notice`, `human`)
plays whole matches against the computer: the driver reaches for nothing of the table
(a Driver that did would fail here on an attribute this view has not), says each
action it applied once, deals the next deal and saves every action and deal through
the device's store.
"""
import pytest

from tools.sim import setup_paths

setup_paths()       # firmware/ on sys.path, as on the board
from shared_rules.family import new_match  # noqa: E402
from shared_rules.rules import Rules  # noqa: E402
from sixtysix.save.format import COUNTED, DEAL, OVER  # noqa: E402
from sixtysix.save.settings import Settings  # noqa: E402
from sixtysix.save.store import Store  # noqa: E402
from sixtysix.table.driver import Driver, greedy  # noqa: E402


class Saving(Store):
    """The store in a bytearray, noting what the driver saves."""

    def __init__(self):
        Store.__init__(self, bytearray(8192))
        self.saved = []         # (seat saved, action, flags)
        self.deals = 0

    def action(self, seat, action, flags=0, settings=None):
        self.saved.append((seat, action, flags))
        Store.action(self, seat, action, flags, settings)

    def start_deal(self, header, kind=DEAL):
        self.deals += 1
        return Store.start_deal(self, header, kind)


class Device:
    """What the driver asks of the device: the store (the save), the settings (the
    statistics); no sound, no time limit."""
    sound = None
    think_clock = None

    def __init__(self):
        self.store = Saving()
        self.settings = Settings()


class Told(Driver):
    """A view of nothing but what the driver tells it, noted in `told`; the person's key
    (human) plays the greedy move."""

    def __init__(self, device, match, level):
        self.told = []
        Driver.__init__(self, device, match, level)

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
    dev = Device()
    g = Told(dev, m, "easy")
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
    saved = dev.store.saved
    assert [a for _, a, _ in saved] == [t[1] for t in acted]
    assert all(s in (-1, t[2]) for (s, _, _), t in zip(saved, acted))   # -1: the seat to act's
    assert dev.store.deals == deals - 1     # the first deal is App.start's to save
    assert sum(1 for e in saved if e[2] & COUNTED) == deals      # each deal's end saved with it
    assert saved[-1][2] & OVER and dev.settings.stats[2] == deals   # counted in the statistics
    me = g.me()
    assert any(t[0] == "human" for t in g.told) and any(t[2] != me for t in acted)


def test_a_move_the_rules_refuse_is_told_and_not_saved():
    m = new_match(Rules("standard"), "casual", 5)
    dev = Device()
    g = Told(dev, m, "easy")
    d = m.deal
    if d.to_act != g.me():
        g.move_on(None)                     # the computer leads
    theirs = d.hands[1 - g.me()] & -d.hands[1 - g.me()]
    card = theirs.bit_length() - 1          # a card the person does not hold
    saved = len(dev.store.saved)
    assert g.act(card, g.me()) is False
    assert g.told[-1][:2] == ("notice", "Not allowed") and len(dev.store.saved) == saved
