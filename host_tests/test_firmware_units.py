"""The firmware's pieces on their own: buttons, the save format, settings, sprites, layout."""
import random

import pytest

from tools.sim import setup_paths, EventQueue
from tools import sprites

setup_paths()       # firmware/ on sys.path, as on the board
from shared_rules.match import Match  # noqa: E402
from shared_rules.rules import Rules, NAMES  # noqa: E402
from shared_rules.actions import MARRY  # noqa: E402
from sixtysix.save import format as saveformat, store  # noqa: E402
from sixtysix.core import keys
from tools.flashnvm import FlashNVM  # noqa: E402
from sixtysix.save.settings import Settings, CHOICES  # noqa: E402
from sixtysix.table.felt import Layout  # noqa: E402
from sixtysix.core import layouts  # noqa: E402
from sixtysix.table.driver import greedy  # noqa: E402


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


def test_a_key_with_a_hold_role_answers_on_release_or_once_held_long_enough():
    """Two buttons (the T-Display): L is "right" when tapped, "menu" when held; a tap
    answers when it is let go, a hold once (no repeat, and nothing when let go)."""
    now = [0.0]
    src = EventQueue()
    k = keys.RoleKeys(src, ("right", "ok"), lambda: now[0], ("menu", "menu"))
    src.put(0, True)
    assert k.poll() is None                 # short or long: not known yet
    now[0] += keys.HOLD - 0.1
    assert k.poll() is None
    src.put(0, False)
    assert k.poll() == "right"              # let go in time: a tap
    src.put(1, True)
    got = []
    for _ in range(150):                    # held 1.5 s: one "menu", no repeats
        now[0] += 0.01
        got.append(k.poll())
    assert [r for r in got if r] == ["menu"]
    assert got.index("menu") == pytest.approx(keys.HOLD / 0.01, abs=1.5)
    src.put(1, False)
    assert k.poll() is None                 # the hold already answered
    for n in (0, 1, 0):                     # quick taps, all seen, in order
        src.put(n, True)
        src.put(n, False)
    assert [k.poll() for _ in range(3)] == ["right", "ok", "right"]


def test_key_names_say_what_to_press_on_each_board():
    from sixtysix.core.keynames import key_names
    k = keys.RoleKeys(EventQueue(), ("left", "right", "ok", "menu"), lambda: 0.0)
    assert key_names(k, ("B", "Y", "X", "A")) == {"left": "B", "right": "Y", "ok": "X", "menu": "A"}
    assert key_names(k, None)["menu"] == "MENU"
    k = keys.RoleKeys(EventQueue(), ("ok", "menu", "ok"), lambda: 0.0)
    assert key_names(k, ("A", "B", "X"))["ok"] == "A"               # the first key of a role
    k = keys.RoleKeys(EventQueue(), ("right", "ok"), lambda: 0.0, ("menu", "menu"))
    assert key_names(k, ("L", "R")) == {"right": "L", "ok": "R", "menu": "hold"}
    k = keys.RoleKeys(EventQueue(), ("right", "ok"), lambda: 0.0, ("menu", None))
    assert key_names(k, ("L", "R"))["menu"] == "hold L"


def test_the_sound_setting_is_on_by_default_only_with_a_speaker():
    assert Settings(speaker=True).get("sound") == "on"
    assert Settings().get("sound") == "off"
    st = store.Store(FlashNVM())
    old = Settings()
    old.index = old.index[:8]                   # saved before there was a Sound setting
    assert st.save_settings(old.to_bytes())
    s = Settings(speaker=True)
    assert s.load(store.Store(st.nvm)) is None and s.get("sound") == "on"


def test_the_store_reads_its_log_once_and_forgets_the_reader():
    """Reading the log at power-on is sixtysix.save.storeread's (1.5 KB in the model): the
    store forgets it once read, and a store made later reads it again."""
    import sys
    st = store.Store(FlashNVM())
    assert st.save_settings(b"settings") and st.put(saveformat.small(saveformat.SLEPT, 3))
    again = store.Store(st.nvm)
    assert (again.settings, again.slept, again.problem) == (b"settings", 3, None)
    assert "sixtysix.save.storeread" not in sys.modules
    st.nvm[st.end - 1] ^= 0x55                  # the sleep record's check broken, more log after it
    st.nvm[st.end:st.end + 3] = saveformat.small(saveformat.SLEPT, 4)
    damaged = store.Store(st.nvm)
    assert (damaged.settings, damaged.slept, damaged.problem) == (b"settings", 4, None)
    assert "sixtysix.save.storeread" not in sys.modules


def test_checks_and_records():
    assert saveformat.crc16(b"123456789") == 0x29B1        # CRC-16/CCITT-FALSE check value
    assert saveformat.crc16(b"56789", saveformat.crc16(b"1234")) == 0x29B1     # continued (the link)
    assert saveformat.crc8(b"123456789") == 0xF4           # CRC-8 (polynomial 0x07) check value
    # a record's last byte is never 0xFF, so a record cut short always fails its check
    for a in range(256):
        for rec in (saveformat.small(a % (saveformat.LAST_ACTION + 1)), saveformat.small(saveformat.FLAGGED, 1, a),
                    saveformat.framed(saveformat.DEAL, bytes((a, 0xFF)))):
            assert rec[-1] != 0xFF
            assert saveformat.size(rec, 0) == len(rec) and saveformat.complete(rec, 0, len(rec))
            for k in range(1, len(rec)):
                torn = rec[:k] + b"\xff" * (len(rec) - k)
                assert not saveformat.complete(torn, 0, len(rec))
    for n in (0, 1, 127, 128, 300, 2 ** 40):
        out = bytearray()
        saveformat.put_uint(out, n)
        assert saveformat.get_uint(out, 0) == (n, len(out))
    for n in (0, -1, 1, -129, 10 ** 9, -(10 ** 9)):
        out = bytearray()
        saveformat.put_int(out, n)
        assert saveformat.get_int(out, 0) == (n, len(out))


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
    stale = [p.name for p, data in sprites.outputs() if p.read_bytes() != data]
    assert not stale, "run python -m tools.sprites: %s" % stale
    for p, data in sprites.outputs():
        print("\n%s %d bytes" % (p.name, len(data)), end="")


@pytest.mark.parametrize("size", sprites.parse_art(sprites.ART.read_text())["cards"],
                         ids=lambda size: size[0])
def test_every_card_assembles_from_the_tiles(size):
    """The cards the firmware builds from tiles and map are the cards the art draws: red
    suits red, black suits black, an opaque face with transparent corners."""
    import io
    from PIL import Image
    name, w, h, _ = size
    sheets = sprites.render(sprites.ART.read_text())
    tiles = Image.open(io.BytesIO(sheets[name + ".bmp"]))
    assert tiles.mode == "P" and tiles.info.get("compression", 0) == 0
    cells = Image.open(io.BytesIO(sheets[name + "-map.bmp"]))
    assert cells.size == (w // sprites.TILE_W, sprites.TILES * h // sprites.TILE_H)
    art = sprites.parse_art(sprites.ART.read_text())
    expected = sprites.cards(art, size)
    colors = [c[2] for c in art["colors"]]
    for card, img in enumerate(sprites.card_images(sheets, name, w, h)):
        for y in range(h):
            for x in range(w):
                index = expected[card].px[y][x]
                r, g, b, a = img.getpixel((x, y))
                if index == 0:
                    assert a == 0, (name, card, x, y)
                else:
                    assert (r << 16 | g << 8 | b) == colors[index] and a == 255, (name, card, x, y)
        if card < 32:
            box = [img.getpixel((x, y)) for x in range(3, 14) for y in range(3, 14)]
            red = sum(1 for p in box if p[0] > 150 and p[1] < 60)
            black = sum(1 for p in box if max(p[:3]) < 40 and p[3])
            if card >> 3 in (2, 3):
                assert red > 15 and black == 0, card
            else:
                assert black > 15 and red == 0, card


def _overlap(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("size", sorted(layouts.LAYOUTS))
def test_layout_fits_the_screen(size):
    lay = Layout(*size)
    cw, ch = lay.cw, lay.ch
    for n in (5, 6):
        xs = [lay.hand_xy(i, n)[0] for i in range(n)]
        assert xs[0] >= lay.hand_x[0] and xs[-1] + cw <= min(size[0], lay.hand_x[1])
        assert all(b - a >= cw for a, b in zip(xs, xs[1:]))      # no overlap
    for n in (8, 12):                                            # family hands overlap, in bounds
        xs = [lay.hand_xy(i, n)[0] for i in range(n)]
        assert xs[0] >= 0 and xs[-1] + cw <= size[0]
    assert lay.hand_y + ch <= size[1]
    table = [lay.trump, lay.talon, lay.cpu_trick, lay.my_trick]
    if lay.last:
        table += [lay.last[:2], (lay.last[0] + lay.last[2], lay.last[1] + lay.last[3])]
    for x, y in table:
        assert 0 <= x and x + cw <= size[0] and 0 <= y
        assert y + ch <= lay.hand_y - lay.raise_px       # table cards clear the hand
    assert lay.msg[1] + 12 <= lay.hand_y - lay.raise_px
    assert lay.msg[0] + lay.msg_chars * 6 <= size[0]
    assert lay.panel[0] + lay.panel_chars * 6 <= size[0]
    assert lay.cpu_trick[0] + cw <= lay.my_trick[0]           # both trick cards show
    def box(*corners):                 # the rectangle holding cards at these corners
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        return (min(xs), min(ys), max(xs) + cw - min(xs), max(ys) + ch - min(ys))

    things = [box(lay.trump, lay.talon), box(lay.cpu_trick), box(lay.my_trick)]
    if lay.last:
        things.append(box(*table[4:]))
    if lay.cpu_hand:
        x, y, dx = lay.cpu_hand
        things.append(box((x, y), (x + 5 * dx, y)))
    for place, (x, y) in (lay.piles or {}).items():
        assert 0 <= x and x + cw + 3 <= size[0] and 0 <= y and y + ch + 3 <= size[1]
        things.append(box((x, y), (x + 3, y + 3)))
    x0 = lay.hand_xy(0, 6)[0]
    hand = (x0, lay.hand_y - lay.raise_px, lay.hand_xy(5, 6)[0] + cw - x0, ch + lay.raise_px)
    for i, a in enumerate(things):              # nothing covers the hand or anything else
        assert not _overlap(a, hand), a
        assert not any(_overlap(a, b) for b in things[i + 1:]), a
    cards = things
    for box in (lay.battery, lay.title_battery):                # kept free for the battery
        assert 0 <= box[0] and box[0] + box[2] <= size[0] and 0 <= box[1] and box[1] + box[3] <= size[1]
    assert not any(_overlap(lay.battery, c) for c in cards)
    # on the table the battery sits in the blank start of the score panel's header
    px, py = lay.panel
    assert py >= lay.battery[1] + lay.battery[3] or px <= lay.battery[0] and \
        lay.battery[0] + lay.battery[2] <= px + 5 * 6


@pytest.mark.parametrize("profile", ["pico_display_pack", "waveshare_lcd_1in3", "pajenicko_picopad",
                                     "pimoroni_picosystem", "ugame22", "lilygo_t_display_rp2040"])
def test_the_settings_screen_fits_every_screen(profile):
    """Every setting's line, and the key hint, on the screen and clear of each other and
    of the heading (240x135 once ran its last lines into the hint and off the screen)."""
    from tools.sim import Sim
    from sixtysix.screens.settings import SettingsScreen
    from sixtysix.save.settings import CHOICES
    sim = Sim(profile)
    sim.boot()
    screen = SettingsScreen(sim.app.device)
    for step in screen.steps:           # what the app builds a step a frame
        step()
    w, h = sim.width, sim.height

    def rect(view):                     # a text's rectangle (a TileGrid, or a scaled group of one)
        k, t = (view.scale, view[0]) if hasattr(view, "scale") else (1, view)
        return (view.x, view.y, t.width * t.tile_width * k, t.height * t.tile_height * k)

    lines = [rect(lab.view) for lab in screen.menu.labels]
    sound = sim.profile.SOUND_PIN is not None           # the Sound line only with a speaker
    assert len(lines) >= len(CHOICES) - (not sound)
    assert any(s.startswith("Sound") for s in screen.menu.items) == sound
    pieces = screen.group[0]                            # the heading, a few letters a piece
    first, last = rect(pieces[0]), rect(pieces[len(pieces) - 1])
    head = (first[0], first[1], last[0] + last[2] - first[0], first[3])
    hint = rect(screen.group[len(screen.group) - 1])    # appended last
    for r in lines + [hint]:
        assert 0 <= r[0] and r[0] + r[2] <= w and 0 <= r[1] and r[1] + r[3] <= h, r
        assert not _overlap(r, head), r
    for i, r in enumerate(lines):
        assert not _overlap(r, hint) and not any(_overlap(r, q) for q in lines[i + 1:]), r


def test_a_screen_without_its_own_layout_gets_the_largest_that_fits():
    assert layouts.for_screen(240, 135) == layouts.compact()
    assert layouts.for_screen(320, 240) == layouts.wide()
    assert layouts.for_screen(320, 480) == layouts.wide()
    assert layouts.for_screen(240, 320) == layouts.square()
    with pytest.raises(ValueError):
        layouts.for_screen(128, 128)


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
    from tools.sim import Sim, SimPower, SimSpeaker, FIRMWARE, EventQueue
    import sixtysix.app
    import sixtysix.core.ui

    sim = Sim("waveshare_lcd_1in3")
    keys_obj = types.SimpleNamespace(events=EventQueue())
    chosen = {}

    def link():
        raise AssertionError("the link port is built only when link play is chosen")

    profile = types.SimpleNamespace(BUTTONS=sim.roles, HOLDS=None, LABELS=sim.profile.LABELS,
                                    display=lambda: sim.display, keys=lambda: keys_obj, link=link)

    def load(name):
        chosen["name"] = name
        return profile

    ran = {}
    power = SimPower(charge=0.5)
    speaker = SimSpeaker(time.monotonic)
    monkeypatch.setitem(sys.modules, "profiles", types.SimpleNamespace(
        load=load, power=lambda p, display, keys: power, sound=lambda p: speaker if p is profile else None))
    status_bar = types.SimpleNamespace(display=True)
    monkeypatch.setitem(sys.modules, "supervisor", types.SimpleNamespace(status_bar=status_bar))
    real_font = sixtysix.core.ui.load_font
    monkeypatch.setattr(sixtysix.core.ui, "load_font",
                        lambda path: real_font(str(FIRMWARE / "assets" / path.split("/")[-1])))
    monkeypatch.setattr(sim.display, "auto_refresh", False)    # as the profile builds it
    shown = []
    real_refresh = sim.display.refresh

    def refresh():
        shown.append(sim.display.root_group)
        return real_refresh()

    monkeypatch.setattr(sim.display, "refresh", refresh)
    monkeypatch.setitem(sys.modules, "microcontroller", types.SimpleNamespace(nvm=FlashNVM()))
    monkeypatch.setitem(sys.modules, "board", types.SimpleNamespace())     # no built-in display
    monkeypatch.setitem(sys.modules, "storage",        # CIRCUITPY read-only to code: a normal boot
                        types.SimpleNamespace(getmount=lambda path: types.SimpleNamespace(readonly=True)))
    monkeypatch.setenv("SIXTYSIX_PROFILE", "waveshare_lcd_1in3")
    monkeypatch.setattr(sixtysix.app.App, "run",
                        lambda self, sleep: ran.update(app=self, sleep=sleep))
    real_init = sixtysix.app.App.__init__

    def init(self, display, events, roles, nvm, clock, assets="/assets", **kw):
        ran["assets"] = assets
        ran["shown_before"] = len(shown)
        real_init(self, display, events, roles, nvm, clock, str(FIRMWARE / "assets"), **kw)

    monkeypatch.setattr(sixtysix.app.App, "__init__", init)
    code = (FIRMWARE / "code.py").read_text()
    exec(compile(code, "code.py", "exec"), {"__name__": "__main__"})
    app = ran["app"]
    assert chosen["name"] == "waveshare_lcd_1in3" and ran["assets"] == "/assets"
    assert app.keys.source is keys_obj.events and app.keys.roles == sim.roles
    assert app.device.think_clock is not None and app.device.layout.w == 240 and app.device.layout.h == 240
    assert app.power is power and ran["sleep"] is time.sleep
    assert app.device.sound.out is speaker and app.device.key["ok"] == "A"       # the speaker, the keys' names
    assert app.device.link_port is link and app.device.entropy(4) != app.device.entropy(4)     # os.urandom
    assert type(app.screen).__name__ == "Title"
    # the first picture is the splash, drawn before the app exists; no status line; then
    # the app refreshes the display itself, once a frame
    assert ran["shown_before"] == 1 and shown[0] is not app.root and not sim.display.auto_refresh
    assert status_bar.display is False


def test_memory_error_in_the_ai_falls_back_to_the_greedy_move(monkeypatch):
    from tools.sim import Sim

    class Starved:
        def choose(self, view, clock=None, deadline=None):
            raise MemoryError("no room for the search")

    sim = Sim("pico_display_pack", seed=4)
    sim.boot()
    sim.settle()
    from sixtysix.table import driver as table_driver     # (the one the app loaded)
    monkeypatch.setattr(table_driver.Driver, "adviser", lambda self: Starved())
    sim.press("ok")                             # New match
    g = sim.app.screen
    for _ in range(12):                         # the computer keeps moving
        if g.match.deal.ended:
            break
        sim.press("ok")
    cpu = [e for e in g.match.deal.log if e >> 8 != g.me()]
    assert cpu, "the computer never moved"
