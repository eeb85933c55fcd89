"""The firmware's pieces on their own: buttons, the save format, settings, sprites, layout."""
import random

import pytest

from tools.sim import setup_paths, EventQueue
from tools import sprites

setup_paths()       # firmware/ on sys.path, as on the board
from shared_rules.match import Match  # noqa: E402
from shared_rules.rules import Rules, NAMES  # noqa: E402
from shared_rules.actions import MARRY  # noqa: E402
from sixtysix import store, savegame, keys  # noqa: E402
from sixtysix.settings import Settings, CHOICES  # noqa: E402
from sixtysix.table import Layout, CARD_W, CARD_H  # noqa: E402
from sixtysix.game import greedy  # noqa: E402


def test_role_keys_repeat_only_moves_and_stop_on_release():
    now = [0.0]
    src = EventQueue()
    k = keys.RoleKeys(src, ("ok", "menu", "left", "right"), lambda: now[0])
    src.put(3, True)
    assert k.poll() == "right"
    got = []
    for _ in range(100):            # one second in 10 ms polls
        now[0] += 0.01
        r = k.poll()
        if r:
            got.append(round(now[0], 2))
    assert got[0] == pytest.approx(keys.DELAY, abs=0.011)
    assert len(got) == 1 + int((1.0 - keys.DELAY) / keys.INTERVAL)
    src.put(3, False)
    now[0] += 1
    assert k.poll() is None
    src.put(0, True)       # ok never repeats
    assert k.poll() == "ok"
    now[0] += 2
    assert k.poll() is None
    src.put(9, True)       # a key number the profile does not know
    assert k.poll() is None


def test_quick_presses_are_all_seen():
    src = EventQueue()
    k = keys.RoleKeys(src, ("ok", "menu", "left", "right"), lambda: 0.0)
    for n in (2, 2, 3, 0):
        src.put(n, True)
        src.put(n, False)
    assert [k.poll() for _ in range(4)] == ["left", "left", "right", "ok"]


def test_crc_and_frames():
    assert store.crc16(b"123456789") == 0x29B1      # CRC-16/CCITT-FALSE check value
    rec = store.frame(77, 1, b"hello")
    assert store.unframe(rec + b"\xff" * 10, 77, 1) == b"hello"
    assert store.unframe(rec, 77, 2) == store.OLD
    assert store.unframe(rec, 83, 1) == store.EMPTY
    assert store.unframe(b"\xff" * 64, 77, 1) == store.EMPTY
    assert store.unframe(b"\x00" * 64, 77, 1) == store.EMPTY
    assert store.unframe(rec[:-1], 77, 1) == store.CORRUPT
    for i in range(4, len(rec)):
        bad = bytearray(rec)
        bad[i] ^= 0x10
        assert store.unframe(bytes(bad), 77, 1) == store.CORRUPT


def test_store_writes_once_per_change():
    st = store.Store(bytearray(b"\xff" * 4096))
    assert st.save(64, 4032, 77, 1, b"abc")
    assert st.save(64, 4032, 77, 1, b"abc")
    assert st.writes == 1
    assert not st.save(64, 10, 77, 1, b"x" * 20)          # does not fit its slot
    assert store.Store(None).load(0, 64, 83, 1) == store.EMPTY


def test_settings_round_trip():
    st = store.Store(bytearray(b"\xff" * 4096))
    s = Settings()
    for i in range(len(CHOICES)):
        s.cycle(i, i + 1)
    s.count("deals", 300)
    s.count("matches_won")
    assert s.save(st)
    t = Settings()
    assert t.load(st) is None
    assert t.index == s.index and t.stats == s.stats
    assert t.get("counting") == s.get("counting")


def test_every_game_the_settings_offer_is_one_rules_accepts():
    """Rules refuses options a game does not use or cannot play: the settings screen must
    offer none of those (every rule set with every "Match to" choice)."""
    games, targets = CHOICES[0][2], CHOICES[3][2]
    s = Settings()
    for g in range(len(games)):
        for t in range(len(targets)):
            s.index[0], s.index[3] = g, t
            r = s.rules()
            assert r.name == games[g].split()[0]
            if t:
                assert r.target == int(targets[t])


def random_match(seed):
    r = random.Random(seed)
    name = NAMES[seed % len(NAMES)]
    rules = Rules(name, target=5) if seed % 3 == 0 else Rules(name)
    m = Match(rules, counting=("casual", "classic")[seed % 2], seed=seed)
    for _ in range(r.randrange(0, 120)):
        if m.deal.ended:
            if m.over:
                break
            m.next_deal()
        m.apply(r.choice(m.deal.legal_actions()))
    return m


def test_save_round_trip_many_matches():
    biggest = 0
    for seed in range(150):
        m = random_match(seed)
        level = savegame.LEVELS[seed % 3]
        raw = savegame.pack(m, level)
        biggest = max(biggest, len(raw))
        back, lvl = savegame.unpack(raw)
        assert back.to_dict() == m.to_dict() and lvl == level
        assert back.deal.legal_actions() == m.deal.legal_actions()
    print("\nlargest match save payload: %d bytes (+8 framing)" % biggest)
    assert biggest + 8 < 4096 - store.MATCH_AT


def test_save_size_of_a_complete_deal():
    m = Match(Rules("standard"), seed=11)
    r = random.Random(1)
    while not m.deal.ended:
        m.apply(r.choice(m.deal.legal_actions()))
    size = len(store.frame(savegame.KIND, savegame.VERSION, savegame.pack(m, "hard")))
    print("\na finished standard deal saves in %d bytes" % size)
    assert size < 120


def test_greedy_fallback_is_always_legal():
    for seed in range(60):
        m = random_match(seed)
        d = m.deal
        if d.ended:
            continue
        a = greedy(d)
        assert a in d.legal_actions(), (seed, a)


def test_sprite_sheets_are_up_to_date():
    cards = sprites.render(sprites.ART.read_text())
    font = sprites.render_font(sprites.FONT_ART.read_text(), sprites.SYMBOL_ART.read_text())
    assert sprites.SHEET.read_bytes() == cards, "run python -m tools.sprites"
    assert sprites.FONT_SHEET.read_bytes() == font, "run python -m tools.sprites"
    print("\ncards.bmp %d bytes (4-bit, %d tiles), font.bmp %d bytes (1-bit)"
          % (len(cards), sprites.TILES, len(font)))


def test_sprite_sheet_is_a_4bit_bmp_with_every_card():
    import io
    from PIL import Image
    img = Image.open(io.BytesIO(sprites.SHEET.read_bytes()))
    assert img.mode == "P" and img.info.get("compression", 0) == 0
    w, h = sprites.parse_art(sprites.ART.read_text())["size"]
    assert img.size == (w * sprites.COLUMNS, h * 2)
    rgb = img.convert("RGB")
    for card in range(32):
        x = (card % sprites.COLUMNS) * w
        y = (card // sprites.COLUMNS) * h
        box = [rgb.getpixel((x + i, y + j)) for i in range(3, 14) for j in range(3, 14)]
        red = sum(1 for p in box if p[0] > 150 and p[1] < 60)
        black = sum(1 for p in box if max(p) < 40)
        if card >> 3 in (2, 3):
            assert red > 15 and black == 0, card
        else:
            assert black > 15 and red == 0, card


@pytest.mark.parametrize("size", [(240, 135), (240, 240)])
def test_layout_fits_the_screen(size):
    lay = Layout(*size)
    for n in (5, 6):
        xs = [lay.hand_xy(i, n)[0] for i in range(n)]
        assert xs[0] >= 0 and xs[-1] + CARD_W <= size[0]
        assert all(b - a >= CARD_W for a, b in zip(xs, xs[1:]))      # no overlap
    assert lay.hand_y + CARD_H <= size[1]
    for x, y in (lay.trump, lay.talon, lay.cpu_trick, lay.my_trick):
        assert 0 <= x and x + CARD_W <= size[0] and 0 <= y
        assert y + CARD_H <= lay.hand_y - lay.raise_px       # table cards clear the hand
    assert lay.msg[1] + 12 <= lay.hand_y - lay.raise_px
    assert lay.cpu_trick[0] + CARD_W <= lay.my_trick[0]           # both trick cards show


def test_menu_actions_are_only_legal_ones():
    """The action menu offers exactly what the engine allows (driven from the simulator)."""
    from tools.sim import Sim
    sim = Sim("pico_display_pack", seed=21)
    sim.boot()
    sim.settle()
    sim.press("ok")
    g = sim.app.screen
    for _ in range(40):
        d = g.match.deal
        if d.ended or g.overlay is not None:
            break
        sim.press("menu")
        items = g.overlay[1].items
        legal = d.legal_actions(g.me())
        marry_suits = {(a & 31) >> 3 for a in legal if MARRY <= a < 64}
        assert sum(1 for s in items if s.startswith("Marry")) == len(marry_suits)
        assert ("Close the talon" in items) == (97 in legal)
        assert any(s.startswith("Exchange") for s in items) == (96 in legal)
        sim.press("menu")
        sim.press("ok")


def test_code_py_wires_the_board_seams(monkeypatch):
    """code.py on a 'board' made of the simulator's parts: it picks the profile from
    SIXTYSIX_PROFILE, passes keypad events, nvm and the clock to the app, and runs it."""
    import sys
    import types
    from tools.sim import Sim, FIRMWARE, EventQueue
    import sixtysix.app

    sim = Sim("waveshare_lcd_1in3")
    keys_obj = types.SimpleNamespace(events=EventQueue())
    chosen = {}

    def load(name):
        chosen["name"] = name
        return types.SimpleNamespace(BUTTONS=sim.roles, display=lambda: sim.display,
                                     keys=lambda: keys_obj)

    ran = {}
    monkeypatch.setitem(sys.modules, "profiles", types.SimpleNamespace(load=load))
    monkeypatch.setitem(sys.modules, "microcontroller",
                        types.SimpleNamespace(nvm=bytearray(b"\xff" * 4096)))
    monkeypatch.setitem(sys.modules, "storage",        # CIRCUITPY read-only to code: a normal boot
                        types.SimpleNamespace(getmount=lambda path: types.SimpleNamespace(readonly=True)))
    monkeypatch.setenv("SIXTYSIX_PROFILE", "waveshare_lcd_1in3")
    monkeypatch.setattr(sixtysix.app.App, "run", lambda self: ran.setdefault("app", self))
    real_init = sixtysix.app.App.__init__

    def init(self, display, events, roles, nvm, clock, assets="/assets", **kw):
        ran["assets"] = assets
        real_init(self, display, events, roles, nvm, clock, str(FIRMWARE / "assets"), **kw)

    monkeypatch.setattr(sixtysix.app.App, "__init__", init)
    code = (FIRMWARE / "code.py").read_text()
    exec(compile(code, "code.py", "exec"), {"__name__": "__main__"})
    app = ran["app"]
    assert chosen["name"] == "waveshare_lcd_1in3" and ran["assets"] == "/assets"
    assert app.keys.source is keys_obj.events and app.keys.roles == sim.roles
    assert app.think_clock is not None and app.width == 240 and app.height == 240
    assert type(app.screen).__name__ == "Title"


def test_memory_error_in_the_ai_falls_back_to_the_greedy_move():
    from tools.sim import Sim

    class Starved:
        def choose(self, view, clock=None, deadline=None):
            raise MemoryError("no room for the search")

    sim = Sim("pico_display_pack", seed=4)
    sim.boot()
    sim.settle()
    sim.app.make_player = lambda level: Starved()
    sim.press("ok")                             # New match
    g = sim.app.screen
    for _ in range(12):                         # the computer keeps moving
        if g.match.deal.ended:
            break
        sim.press("ok")
    cpu = [e for e in g.match.deal.log if e >> 8 != g.me()]
    assert cpu, "the computer never moved"
