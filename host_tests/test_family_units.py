"""The device's family pieces on their own: table places, hands of 7-12 cards, the
settings' game choice, the score panel (saves of every game: test_savelog.py)."""
import pytest

from tools.sim import Sim, setup_paths

setup_paths()       # firmware/ on sys.path, as on the board
from sixtysix.save import format as saveformat, store  # noqa: E402
from tools.flashnvm import FlashNVM  # noqa: E402
from sixtysix.save.settings import Settings, CHOICES  # noqa: E402
from sixtysix.table.felt import Layout  # noqa: E402
from sixtysix.core import layouts  # noqa: E402
from sixtysix.core.ui import CHAR_W, LINE_H  # noqa: E402

SIZES = sorted(layouts.LAYOUTS)


def boxes_meet(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("n", [2, 3, 4])
def test_trick_places_fit_and_every_card_index_shows(size, n):
    lay = Layout(*size)
    CARD_W, CARD_H = lay.cw, lay.ch
    places = [xy for xy in lay.places[n] if xy is not None]
    assert len(places) == n
    panel = (lay.panel[0], lay.panel[1], lay.panel_chars * CHAR_W, 5 * LINE_H)
    for x, y in places:
        card = (x, y, CARD_W, CARD_H)
        assert 0 <= x and x + CARD_W <= size[0] and 0 <= y
        assert y + CARD_H <= lay.msg[1] and y + CARD_H <= lay.hand_y - lay.raise_px
        assert not boxes_meet(card, panel)
        # the rank and suit in the card's corner are never under another place's card
        index = (x + 3, y + 3, 11, 20)
        for other in places:
            if other != (x, y):
                assert not boxes_meet(index, (other[0], other[1], CARD_W, CARD_H))
    for p in range(1, 4):
        if lay.places[n][p] is not None:
            ox, oy = lay.offscreen(p)
            assert ox + CARD_W <= 0 or ox >= size[0] or oy + CARD_H <= 0, (p, ox, oy)
    ox, oy = lay.offscreen(0)
    assert oy >= size[1]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("cards", [6, 7, 8, 12])
def test_long_hands_overlap_but_show_every_index(size, cards):
    lay = Layout(*size)
    xs = [lay.hand_xy(i, cards)[0] for i in range(cards)]
    assert xs[0] >= 0 and xs[-1] + lay.cw <= size[0]
    assert all(b - a >= 16 for a, b in zip(xs, xs[1:]))      # the corner index stays visible


def test_settings_offer_every_game_and_keep_old_saves():
    games = CHOICES[0][2]
    assert games[:4] == ("standard", "hoyle", "russian", "schnapsen")     # old indexes unchanged
    s = Settings()
    made = {}
    for i, g in enumerate(games):
        s.index[0] = i
        r = s.rules()
        made[g] = (r.name, r.players)
    assert made["three-handed"] == ("three-handed", 3)
    assert made["four-handed"] == ("four-handed", 4)
    assert made["american"] == ("american", 4)
    assert made["american 3"] == ("american", 3)
    assert made["american 2"] == ("american", 2)
    assert made["idiots"] == ("idiots", 2)
    s.index[3] = 1
    assert s.rules().target == 5
    # settings saved with the first four games only (rules index 3) still load
    old = Settings()
    old.index[0] = 3
    st = store.Store(FlashNVM())
    assert old.save(st)
    fresh = Settings()
    assert fresh.load(store.Store(st.nvm)) is None and fresh.get("rules") == "schnapsen"
    # an index past the choices is damage, not a crash: the defaults stay
    bad = bytearray(old.to_bytes())
    bad[1] = len(games)
    st.save_settings(bytes(bad))
    back = Settings()
    assert back.load(store.Store(st.nvm)) == saveformat.CORRUPT and back.get("rules") == "standard"


@pytest.mark.parametrize("game,head", [("four-handed", "       Us Opp"), ("american 3", "     You  L  R"),
                                       ("three-handed", "     You  L  R"), ("american 2", "      You CPU"),
                                       ("standard", "      You CPU")])
def test_score_panel_columns(game, head):
    sim = Sim("pico_display_pack", seed=2)
    sim.boot()
    sim.settle()
    sim.app.device.settings.index[0] = CHOICES[0][2].index(game)
    sim.press("ok")
    g = sim.app.screen
    lines = [lab.text for lab in g.table.panel]
    assert lines[0] == head
    assert lines[1].startswith("Games") and lines[2].startswith("Trick")
    ends = [i for i, c in enumerate(head) if c != " " and (i + 1 == len(head) or head[i + 1] == " ")]
    assert [i for i, c in enumerate(lines[1]) if c == "0"] == ends, lines[1]     # under the heads' ends
    assert all(len(s) <= 14 for s in lines)
    assert lines[4].startswith("Trump ")
    if game.startswith("american"):
        assert lines[3].startswith("Pts") and "bid" in lines[3] or "no bid" in lines[3]


def to_read_the_rules(sim, game):
    """From the title, with `game` chosen (as Settings would): Rules, its menu's "Read
    the rules" line chosen (not yet opened)."""
    sim.app.device.settings.index[0] = CHOICES[0][2].index(game)
    names = sim.app.screen.names
    for _ in range(names.index("rules")):
        sim.press("right")
    sim.run_script(["ok", "right"])


def test_rules_screen_starts_with_the_chosen_game():
    sim = Sim("pico_display_pack", seed=2)
    sim.boot()
    sim.settle()
    to_read_the_rules(sim, "american 3")
    sim.press("ok")
    screen = sim.app.screen
    assert screen.flat[0][0].startswith("North American")
    sim.press("menu")
    to_read_the_rules(sim, "standard")
    sim.press("ok")
    assert sim.app.screen.flat[0][0].startswith("Sixty-Six")


def test_rules_pages_take_keys_once_the_first_page_is_laid_out():
    """Four-handed's rules: the first page is laid out before the screen takes keys, the
    others in frames that wait for a key; a key pressed before they are all laid out is
    answered in its own frame (on the real firmware, laid out first, the key waited 150
    ms), and the footer's count is right once they are."""
    sim = Sim("pico_display_pack", seed=2)
    sim.boot()
    sim.settle()
    to_read_the_rules(sim, "four-handed")
    sim.press("ok", settle=False)                   # Read the rules
    while sim.app.wipe is not None or sim.app.going is not None:
        sim.step()
    screen = sim.app.screen
    assert sim.app.name == "rulepages" and 1 <= screen.laid < len(screen.pages)
    sim.key("right")
    sim.step()
    assert screen.page == 1 and screen.footer.text.startswith("2/")
    sim.key("right", False)
    sim.settle()
    assert screen.laid == len(screen.pages) and screen.footer.text.startswith("2/%d " % len(screen.flat))
    sim.press("left")
    sim.press("left")                               # round to the last page: the board's
    assert screen.page == len(screen.flat) - 1 and screen.flat[-1][0].startswith("This board: ")
