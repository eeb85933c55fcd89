"""The firmware's pieces on their own: buttons, the save format, settings, sprites, layout."""
import random

import pytest

from tools.sim import setup_paths, EventQueue
from tools import sprites

setup_paths()       # firmware/ on sys.path, as on the board
from shared_rules.match import Match  # noqa: E402
from shared_rules.rules import Rules, NAMES  # noqa: E402
from shared_rules.actions import MARRY  # noqa: E402
from sixtysix import crc, store, keys  # noqa: E402
from tools.flashnvm import FlashNVM  # noqa: E402
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


def test_checks_and_records():
    assert crc.crc16(b"123456789") == 0x29B1        # CRC-16/CCITT-FALSE check value
    assert crc.crc16(b"56789", crc.crc16(b"1234")) == 0x29B1     # continued (the link)
    assert crc.crc8(b"123456789") == 0xF4           # CRC-8 (polynomial 0x07) check value
    # a record's last byte is never 0xFF, so a record cut short always fails its check
    for a in range(256):
        for rec in (store.small(a % (store.LAST_ACTION + 1)), store.small(store.FLAGGED, 1, a),
                    store.framed(store.DEAL, bytes((a, 0xFF)))):
            assert rec[-1] != 0xFF
            assert store.size(rec, 0) == len(rec) and store.complete(rec, 0, len(rec))
            for k in range(1, len(rec)):
                torn = rec[:k] + b"\xff" * (len(rec) - k)
                assert not store.complete(torn, 0, len(rec))
    for n in (0, 1, 127, 128, 300, 2 ** 40):
        out = bytearray()
        store.put_uint(out, n)
        assert store.get_uint(out, 0) == (n, len(out))
    for n in (0, -1, 1, -129, 10 ** 9, -(10 ** 9)):
        out = bytearray()
        store.put_int(out, n)
        assert store.get_int(out, 0) == (n, len(out))


def test_settings_round_trip():
    st = store.Store(FlashNVM())
    s = Settings()
    for i in range(len(CHOICES)):
        s.cycle(i, i + 1)
    s.count("deals", 70000)
    s.count("matches_won")
    assert s.save(st)
    t = Settings()
    assert t.load(store.Store(st.nvm)) is None
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
    import time
    import types
    from tools.sim import Sim, SimPower, FIRMWARE, EventQueue
    import sixtysix.app
    import sixtysix.ui

    sim = Sim("waveshare_lcd_1in3")
    keys_obj = types.SimpleNamespace(events=EventQueue())
    chosen = {}

    def load(name):
        chosen["name"] = name
        return types.SimpleNamespace(BUTTONS=sim.roles, display=lambda: sim.display,
                                     keys=lambda: keys_obj)

    ran = {}
    power = SimPower(charge=0.5)
    monkeypatch.setitem(sys.modules, "profiles", types.SimpleNamespace(
        load=load, power=lambda profile, display, keys: power))
    status_bar = types.SimpleNamespace(display=True)
    monkeypatch.setitem(sys.modules, "supervisor", types.SimpleNamespace(status_bar=status_bar))
    real_font = sixtysix.ui.load_font
    monkeypatch.setattr(sixtysix.ui, "load_font",
                        lambda path: real_font(str(FIRMWARE / "assets" / path.split("/")[-1])))
    monkeypatch.setattr(sim.display, "auto_refresh", False)    # as the profile builds it
    shown = []
    real_refresh = sim.display.refresh

    def refresh():
        shown.append(sim.display.root_group)
        return real_refresh()

    monkeypatch.setattr(sim.display, "refresh", refresh)
    monkeypatch.setitem(sys.modules, "microcontroller", types.SimpleNamespace(nvm=FlashNVM()))
    monkeypatch.setitem(sys.modules, "storage",        # CIRCUITPY read-only to code: a normal boot
                        types.SimpleNamespace(getmount=lambda path: types.SimpleNamespace(readonly=True)))
    monkeypatch.setenv("SIXTYSIX_PROFILE", "waveshare_lcd_1in3")
    monkeypatch.setattr(sixtysix.app.App, "run",
                        lambda self, sleep: ran.update(app=self, sleep=sleep))
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
    assert app.power is power and ran["sleep"] is time.sleep
    assert type(app.screen).__name__ == "Title"
    # the first picture is the splash, drawn before the app exists; no status line
    assert shown and shown[0] is not app.screen.group and sim.display.auto_refresh
    assert status_bar.display is False


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
