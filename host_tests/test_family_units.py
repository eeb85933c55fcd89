"""The device's family pieces on their own: table places, hands of 7-12 cards, the
save format for every game, the settings' game choice, the score panel."""
import random

import pytest

from tools.sim import Sim, setup_paths

setup_paths()       # firmware/ on sys.path, as on the board
from shared_rules.family import new_match  # noqa: E402
from shared_rules.rules import Rules  # noqa: E402
from sixtysix import store, savegame  # noqa: E402
from sixtysix.settings import Settings, CHOICES  # noqa: E402
from sixtysix.table import Layout  # noqa: E402
from sixtysix import layouts  # noqa: E402
from sixtysix.ui import CHAR_W, LINE_H  # noqa: E402

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


GAMES = [("three-handed", {}), ("four-handed", {}), ("four-handed", {"ten_of_trumps": True}),
         ("american", {}), ("american", {"players": 3}), ("american", {"players": 2, "target": 15}),
         ("idiots", {}), ("idiots", {"target": 5})]


def random_match(name, options, seed):
    r = random.Random(seed)
    m = new_match(Rules(name, **options), seed=seed)
    for _ in range(r.randrange(0, 400)):
        if m.over:
            break
        if m.deal.ended:
            m.next_deal()
        m.apply(r.choice(m.deal.legal_actions()))
    return m


@pytest.mark.parametrize("name,options", GAMES)
def test_family_saves_round_trip(name, options):
    biggest = 0
    negative = False
    for seed in range(40):
        m = random_match(name, options, seed)
        raw = savegame.pack(m, "hard")
        biggest = max(biggest, len(raw))
        negative |= min(m.score) < 0
        back, level = savegame.unpack(raw)
        assert back.to_dict() == m.to_dict() and level == "hard"
        assert (back.over, back.winner) == (m.over, m.winner)
        assert back.deal.legal_actions() == m.deal.legal_actions()
    print("\n%s %s: largest save payload %d bytes" % (name, options, biggest))
    assert biggest + 8 < 4096 - store.MATCH_AT
    if name == "american":
        assert negative, "no set bid took a score below zero"


def test_damaged_family_saves_never_crash():
    st = store.Store(bytearray(b"\xff" * 4096))
    m = random_match("american", {"players": 3}, 5)
    raw = bytearray(savegame.pack(m, "easy"))
    rnd = random.Random(1)
    for _ in range(300):
        bad = bytearray(raw)
        for _ in range(rnd.randrange(1, 4)):
            bad[rnd.randrange(len(bad))] = rnd.randrange(256)
        st.save(store.MATCH_AT, 4000, savegame.KIND, savegame.VERSION, bytes(bad[:rnd.randrange(len(bad) + 1)]))
        got = savegame.load(st)
        assert got == store.CORRUPT or isinstance(got, tuple)


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
    # a settings record written before the family existed (rules index 3) still loads
    old = Settings()
    old.index[0] = 3
    st = store.Store(bytearray(b"\xff" * 4096))
    assert old.save(st)
    fresh = Settings()
    assert fresh.load(st) is None and fresh.get("rules") == "schnapsen"
    # an index past the choices is damage, not a crash
    bad = bytearray(old.to_bytes())
    bad[0] = len(games)
    st.save(store.SETTINGS_AT, store.SETTINGS_SLOT, 83, 1, bytes(bad))
    assert Settings().load(st) == store.CORRUPT


@pytest.mark.parametrize("game,head", [("four-handed", "       Us Opp"), ("american 3", "     You  L  R"),
                                       ("three-handed", "     You  L  R"), ("american 2", "      You CPU")])
def test_score_panel_columns(game, head):
    sim = Sim("pico_display_pack", seed=2)
    sim.boot()
    sim.settle()
    sim.app.settings.index[0] = CHOICES[0][2].index(game)
    sim.press("ok")
    g = sim.app.screen
    lines = [lab.text for lab in g.table.panel]
    assert lines[0] == head
    assert lines[1].startswith("Games") and lines[2].startswith("Trick")
    assert all(len(s) <= 14 for s in lines)
    assert lines[4].startswith("Trump ")
    if game.startswith("american"):
        assert lines[3].startswith("Pts") and "bid" in lines[3] or "no bid" in lines[3]


def test_rules_screen_starts_with_the_chosen_game():
    sim = Sim("pico_display_pack", seed=2)
    sim.boot()
    sim.settle()
    sim.app.settings.index[0] = CHOICES[0][2].index("american 3")
    names = sim.app.screen.names
    for _ in range(names.index("rules")):
        sim.press("right")
    sim.press("ok")
    screen = sim.app.screen
    assert screen.flat[0][0].startswith("North American")
    sim.app.settings.index[0] = 0
    sim.press("menu")
    for _ in range(names.index("rules")):
        sim.press("right")
    sim.press("ok")
    assert sim.app.screen.flat[0][0].startswith("Sixty-Six")
