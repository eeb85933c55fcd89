"""Power cuts: the device stops at a random moment, boots again, and the match goes on
exactly as if nothing had happened. Damaged saves are reported, never a crash."""
import random

import pytest

from tools.sim import Sim, Driver, setup_paths

setup_paths()       # firmware/ on sys.path, as on the board
from shared_rules import actions as A  # noqa: E402
from shared_rules.record import to_record  # noqa: E402
from sixtysix.save import format as saveformat, store, savegame  # noqa: E402
from tools.flashnvm import FlashNVM  # noqa: E402


class PowerCut(Exception):
    pass


class CuttableSim(Sim):
    """A Sim whose power fails at given step numbers (counted once armed)."""

    def __init__(self, *args, cuts=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.cuts = sorted(cuts)
        self.steps = 0
        self.armed = False

    def step(self):
        self.steps += self.armed
        if self.armed and self.cuts and self.steps >= self.cuts[0]:
            self.cuts.pop(0)
            raise PowerCut()
        super().step()


def random_human(seed):
    """A player who uses every kind of action (menus included), chosen from the state only,
    so after a restart the same state gets the same choice."""
    def policy(deal, seat):
        acts = [a for a in deal.legal_actions(seat) if a not in (A.DRAW, A.DECLARE)]
        if deal.lead < 0 and deal.points(seat) >= 66 and A.DECLARE in deal.legal_actions(seat):
            return A.DECLARE
        r = random.Random(seed * 100003 + 31 * deal.talon_left + deal.hands[seat]
                          + 7 * deal.tricks[0] + 11 * deal.tricks[1] + 3 * deal.lead)
        return r.choice(acts)
    return policy


RULE_SETS = ("standard", "hoyle", "russian", "schnapsen")


def play(seed, cuts=()):
    """Play a match; returns (finished deal records by number, final score, power cuts taken).

    The seed also picks the rule set and the counting mode, set through the Settings screen."""
    sim = CuttableSim("pico_display_pack", seed=seed, cuts=cuts)
    sim.boot()
    sim.settle()
    rule_set = seed % 4
    classic = seed % 3 == 2
    sim.press("right")              # Settings
    sim.press("ok")
    for _ in range(rule_set):
        sim.press("ok")             # Rules: standard -> hoyle -> russian -> schnapsen
    if classic:
        sim.press("right")
        sim.press("right")
        sim.press("ok")             # Counting: casual -> classic
    sim.press("menu")               # back to the title (saves the settings)
    assert sim.app.device.settings.get("rules") == RULE_SETS[rule_set]
    assert sim.app.device.settings.get("counting") == ("classic" if classic else "casual")
    sim.press("ok")                 # New match
    return play_through_cuts(sim, random_human(seed))


def play_through_cuts(sim, policy):
    """Play the started match to its end with `policy`, booting again after every power
    cut: (finished deal records by number, final score, power cuts taken)."""
    sim.armed = True
    deals = {}
    final = {}
    taken = 0
    driver = Driver(sim, policy)

    def look():
        g = sim.app.screen
        if hasattr(g, "match"):
            deals[g.match.deals] = to_record(g.match.deal)
            if g.match.over:
                final["score"] = list(g.match.score)

    for _ in range(5000):
        try:
            if sim.app is None:             # power is back: boot and continue
                sim.boot()
                sim.settle()
                if sim.app.screen.names[0] != "continue":
                    if sim.app.device.store.over and "score" not in final:
                        # The computer ended the match in the frames between our last
                        # look and the cut: the log says so, and holds the last deal.
                        m = savegame.load(sim.app.device.store)[0]
                        deals[m.deals] = to_record(m.deal)
                        final["score"] = list(m.score)
                    assert "score" in final, "the save was lost before the match ended"
                    break
                sim.press("ok")
                look()
            if not driver.act():
                break
            look()
        except PowerCut:
            taken += 1
            sim.power_cut()
    return deals, final["score"], taken


@pytest.mark.parametrize("seed", range(24))
def test_power_cut_then_continue_gives_the_same_match(seed):
    clean = play(seed)
    r = random.Random(seed)
    cuts = sorted(r.sample(range(20, 1200), 3))
    cut = play(seed, cuts=cuts)
    assert cut[2] >= 1, "no power cut happened"
    assert cut[0] == clean[0]
    assert cut[1] == clean[1]


def corrupt_boot(mangle):
    """Save a match in progress, damage the nvm bytes, boot again: the title screen."""
    sim = Sim("pico_display_pack", seed=5)
    sim.boot()
    sim.settle()
    sim.press("ok")
    sim.press("ok")
    sim.settle()
    assert sim.app.screen.match.deal.log
    mangle(sim.nvm)
    sim.power_cut()
    sim.boot()
    sim.settle()
    return sim.app.screen, sim


def offsets(nvm):
    """{kind: [offset of each record]} of the save log (kinds: saveformat.DEAL, ..., 'action')."""
    raw = bytes(nvm[0:len(nvm) - store.RESERVED])
    out = {}
    i = saveformat.HEAD
    while raw[i] != 0xFF:
        kind = raw[i] if raw[i] > saveformat.LAST_ACTION else "action"
        out.setdefault(kind, []).append(i)
        i += saveformat.size(raw, i)
    return out


def red_text_pixels(sim):
    """Red notice text where the title's layout puts it."""
    s = sim.pixels()
    x0, y0, chars = sim.app.device.layout.notice
    return sum(1 for x in range(x0, x0 + chars * 6) for y in range(y0, y0 + 36)
               if s.get_at((x, y))[0] > 200 and s.get_at((x, y))[1] < 120)


def test_corrupt_save_is_reported_and_ignored():
    def flip(nvm):
        at = offsets(nvm)[saveformat.DEAL][-1]
        nvm[at + 4] ^= 0x55             # inside the deal's header, actions after it
    title, sim = corrupt_boot(flip)
    assert "continue" not in title.names
    assert red_text_pixels(sim) > 30
    assert sim.app.screen.notice_text == "Saved match damaged: ignored"
    sim.press("ok")                     # a new match still works
    assert sim.app.screen.match.deal.log is not None


def test_length_cut_short_is_reported():
    def cut_short(nvm):
        at = offsets(nvm)[saveformat.DEAL][-1]
        nvm[at + 1] -= 3                # the record claims fewer bytes than it has
    title, sim = corrupt_boot(cut_short)
    assert "continue" not in title.names
    assert sim.app.screen.notice_text == "Saved match damaged: ignored"


def test_save_from_a_newer_version_says_so():
    def newer(nvm):
        nvm[2] = saveformat.VERSION + 1
    title, sim = corrupt_boot(newer)
    assert "continue" not in title.names
    assert sim.app.screen.notice_text == "Save from a newer version: ignored"


def test_checksummed_nonsense_is_reported_not_a_crash():
    def nonsense(nvm):
        rnd = random.Random(3)
        for n in range(300):      # never an exception, whatever the payload
            payload = bytes(rnd.randrange(256) for _ in range(rnd.randrange(0, 90)))
            st = store.Store(FlashNVM())
            st.start_deal(payload)
            got = savegame.load(st)
            assert got == saveformat.CORRUPT or isinstance(got, tuple)
        at = offsets(nvm)[saveformat.DEAL][-1]
        rec = saveformat.framed(saveformat.DEAL, bytes(range(60))[:nvm[at + 1]])
        nvm[at:at + len(rec)] = rec
    title, sim = corrupt_boot(nonsense)
    assert "continue" not in title.names
    assert sim.app.screen.notice_text == "Saved match damaged: ignored"


def test_damaged_settings_reset_but_match_survives():
    def spoil_settings(nvm):
        at = offsets(nvm)[saveformat.SETTINGS][-1]
        nvm[at + 3] ^= 0xFF
    title, sim = corrupt_boot(spoil_settings)
    assert title.names[0] == "continue"
    assert sim.app.screen.notice_text == "Settings were damaged: reset"


def test_no_nvm_at_all_still_plays():
    sim = Sim("pico_display_pack", seed=2)
    sim.nvm = None
    sim.boot()
    sim.settle()
    assert sim.app.device.store.nvm is None
    sim.press("ok")
    sim.press("ok")
    assert sim.app.screen.match.deal.log
