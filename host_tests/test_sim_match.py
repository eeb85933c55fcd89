"""The simulator plays whole matches through the buttons; screenshots are checked by pixel.

The firmware runs unmodified under Blinka (tools/sim.py), headless, on a fake clock.
"""
import subprocess
import sys

import pytest

from tools.sim import Sim, Driver, first_legal, ROOT

FELT = (0x0B, 0x5D, 0x2A)


def rgb(surface, x, y):
    c = surface.get_at((x, y))
    return (c.r, c.g, c.b)


def near(a, b, tol=24):
    return all(abs(p - q) <= tol for p, q in zip(a, b))


def ink(surface, x0, y0, w, h):
    """(red pixels, black pixels) in a box: the colour of a card's rank and pip."""
    red = black = 0
    for y in range(y0, y0 + h):
        for x in range(x0, x0 + w):
            r, g, b = rgb(surface, x, y)
            if r > 150 and g < 90 and b < 90:
                red += 1
            elif r < 60 and g < 60 and b < 60:
                black += 1
    return red, black


def check_hand_pixels(sim):
    """Every card the engine says the human holds is drawn face up in its suit's colour;
    cards that may not be played now are faded (still in their suit's colour)."""
    g = sim.app.screen
    surface = sim.pixels()
    lay = g.lay
    hand = g.hand()
    d = g.match.deal
    mine = d.to_act == g.me() and not d.ended and not d.pending_draw
    legal = d.legal_plays() if mine and d.phase2 else -1
    for i, c in enumerate(hand):
        x, y = lay.hand_xy(i, len(hand))
        if mine and i == g.cursor:
            y -= lay.raise_px
        face = rgb(surface, x + 16, y + 1)
        red_suit = c >> 3 in (2, 3)
        if legal >> c & 1:
            assert face == (255, 255, 255), "card face at slot %d" % i
            red, black = ink(surface, x + 3, y + 3, 11, 22)
            if red_suit:
                assert red > 20 and black == 0, (c, red, black)
            else:
                assert black > 20 and red == 0, (c, red, black)
        else:
            assert 100 < face[0] < 200, "faded face at slot %d: %r" % (i, face)
            reddish = sum(1 for yy in range(y + 3, y + 25) for xx in range(x + 3, x + 14)
                          if rgb(surface, xx, yy)[0] > rgb(surface, xx, yy)[1] + 30)
            assert (reddish > 20) == red_suit, (c, reddish)
    return surface


@pytest.fixture(scope="module")
def finished_match():
    """One whole match on the Pico Display Pack: the human presses for the first legal
    card, the computer plays Easy. Shots at the key moments are kept for the tests."""
    sim = Sim("pico_display_pack")
    sim.boot()
    sim.settle()
    shots = {}
    assert type(sim.app.screen).__name__ == "Title"
    shots["title"] = sim.pixels().copy()
    sim.press("right")                                 # Settings
    sim.press("ok")
    sim.press("right")                                 # Computer: normal -> hard -> easy
    sim.press("ok")
    sim.press("ok")
    assert sim.app.device.settings.get("level") == "easy"
    sim.press("menu")                                  # back to the title, on New match
    assert type(sim.app.screen).__name__ == "Title"
    sim.press("ok")                                    # New match
    check_hand_pixels(sim)
    shots["table"] = sim.pixels().copy()
    seen = {"phase2": False, "result": False, "match": False}

    def look():
        g = sim.app.screen
        if not hasattr(g, "match"):
            return
        d = g.match.deal
        if g.overlay is None and not seen["phase2"] and d.phase2 and d.lead >= 0 \
                and d.to_act == g.me() and d.legal_plays() != d.hands[g.me()]:
            seen["phase2"] = True
            check_hand_pixels(sim)
            shots["phase2"] = sim.pixels().copy()
        if g.overlay is not None and d.ended and not seen["result"]:
            seen["result"] = True
            shots["result"] = sim.pixels().copy()
        if g.overlay is not None and g.match.over and g.overlay[1].items == ["Back to the title"]:
            seen["match"] = True
            shots["match"] = sim.pixels().copy()
            shots["match_score"] = list(g.match.score)

    Driver(sim, first_legal).play_match(on_action=look)
    return sim, shots, seen


def test_whole_match_reaches_the_match_result(finished_match):
    sim, shots, seen = finished_match
    assert seen["result"] and seen["match"] and seen["phase2"]
    score = shots["match_score"]
    assert max(score) >= 7
    assert type(sim.app.screen).__name__ == "Title"
    stats = dict(zip(("matches", "won", "deals", "deals_won"), sim.app.device.settings.stats))
    nvm = sim.nvm
    print("\nnvm for the whole match: %d sector erases, %d page programs (%d deals)"
          % (nvm.erases, nvm.page_programs, stats["deals"]))
    assert nvm.erases <= 1        # the log appends; one erase at most when it is full
    assert stats["matches"] == 1 and stats["deals"] >= 2
    assert stats["won"] == (1 if score[0] > score[1] else 0)


def test_title_screen_pixels(finished_match):
    _, shots, _ = finished_match
    s = shots["title"]
    assert near(rgb(s, 2, 130), FELT)                     # felt background
    assert near(rgb(s, 100, 42), (0xFF, 0xD2, 0x3F))      # highlight bar on "New match"
    gold = sum(1 for x in range(8, 120) for y in range(4, 28) if near(rgb(s, x, y), (0xFF, 0xD2, 0x3F)))
    assert gold > 150                                     # the big gold title text


def test_table_screen_pixels(finished_match):
    _, shots, _ = finished_match
    s = shots["table"]
    # talon: the card back's blue at its place; the face-up trump left of it
    assert near(rgb(s, 40, 40), (0x1B, 0x3A, 0x8C), 80) or near(rgb(s, 40, 40), (0x6C, 0x8E, 0xE0), 80)
    assert near(rgb(s, 6, 58), (255, 255, 255), 30)
    # the score panel has white text; the message line gold text
    white = sum(1 for x in range(152, 240) for y in range(14, 26) if rgb(s, x, y) == (255, 255, 255))
    assert white > 40


def test_result_screens_pixels(finished_match):
    _, shots, _ = finished_match
    for name in ("result", "match"):
        s = shots[name]
        # the overlay box: gold frame, dark inside, gold title text
        frame = sum(1 for x in range(0, 240) if near(rgb(s, x, 67), (0xFF, 0xD2, 0x3F), 10))
        assert frame > 0
        dark = sum(1 for x in range(40, 200) for y in range(40, 90) if near(rgb(s, x, y), (0x07, 0x3D, 0x1B), 10))
        assert dark > 2000, name


def test_tall_profile_shows_the_computer_hand_and_the_table():
    sim = Sim("waveshare_lcd_1in3")
    sim.boot()
    sim.settle()
    sim.press("ok")
    g = sim.app.screen
    surface = check_hand_pixels(sim)
    from shared_rules import cards
    backs = sum(1 for t in g.table.backs if not t.hidden)
    assert backs == cards.count(g.match.deal.hands[1 - g.me()]) >= 5
    x, y, step = g.lay.cpu_hand
    assert not near(rgb(surface, x + 16, y + 22), FELT)     # a card back, not felt


def test_key_repeat_moves_the_cursor_while_held():
    sim = Sim("pico_display_pack")
    sim.boot()
    sim.settle()
    sim.press("ok")
    g = sim.app.screen
    n = len(g.hand())
    start = g.cursor
    sim.key("right", True)
    sim.wait(700)           # the press, then after 0.4 s a repeat every 0.12 s
    sim.key("right", False)
    sim.step()
    moved = (g.cursor - start) % n
    assert moved in (3, 4)
    sim.wait(500)           # released: no more moves
    assert (g.cursor - start) % n == moved


def test_headless_cli_writes_screenshots(tmp_path):
    keys = tmp_path / "keys.txt"
    keys.write_text("# start a match, look at the table\nshot title\nok\nright\nshot table\n"
                    "menu\nshot menu\nmenu\nok\nwait 300\nshot after\n"
                    "powercut\nshot again\nok\nshot continued\n")
    shots = tmp_path / "shots"
    save = tmp_path / "nvm.bin"
    out = subprocess.run([sys.executable, "-m", "tools.sim", "--headless", "--keys", str(keys),
                          "--shots", str(shots), "--save", str(save)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert save.stat().st_size == 4096 and save.read_bytes()[0:2] == b"6L"     # the save log
    import pygame
    for name in ("title", "table", "menu", "after", "again", "continued"):
        img = pygame.image.load(str(shots / (name + ".png")))
        assert img.get_size() == (240, 135)
    after = pygame.image.load(str(shots / "after.png"))
    continued = pygame.image.load(str(shots / "continued.png"))
    # the power cut changed nothing on the table (talon, trick, scores); only the
    # cursor starts again on the first card
    assert all(after.get_at((x, y)) == continued.get_at((x, y))
               for x in range(240) for y in range(0, 68))
    menu = pygame.image.load(str(shots / "menu.png"))
    assert menu.get_at((120, 60))[:3] != pygame.image.load(str(shots / "table.png")).get_at((120, 60))[:3]


def test_bad_keys_file_is_reported(tmp_path):
    keys = tmp_path / "keys.txt"
    keys.write_text("ok\njump 3\n")
    out = subprocess.run([sys.executable, "-m", "tools.sim", "--headless", "--keys", str(keys),
                          "--save", "-"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode != 0 and "line 2" in out.stderr


def test_keyboard_drives_the_windowed_simulator():
    """The interactive mode maps PC keys to the board's buttons (dummy video driver)."""
    import pygame
    from tools.sim import play_window
    sim = Sim("pico_display_pack", headless=True, fake_clock=False, scale=1)
    sim.show = sim.display.refresh
    pygame.event.clear()
    play_window(sim, loops=90)          # power-on: the title and its menu
    assert sim.app.screen.menu is not None
    sim.boot = lambda woke=False: sim.app       # (the window goes on from there)
    for key in (pygame.K_RETURN,):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key))
    play_window(sim, loops=150)      # the title gives way over a few frames
    assert hasattr(sim.app.screen, "match"), "Enter pressed OK on 'New match'"


def test_cursor_skips_cards_that_may_not_be_played():
    from tools.sim import first_legal
    sim = Sim("pico_display_pack", seed=9)
    sim.boot()
    sim.settle()
    sim.press("ok")
    g = sim.app.screen
    driver = Driver(sim, first_legal)
    for _ in range(200):
        d = g.match.deal
        if d.phase2 and d.lead >= 0 and d.to_act == g.me() and g.overlay is None \
                and d.legal_plays() != d.hands[g.me()]:
            break
        driver.act()
    else:
        pytest.fail("never had to follow in phase 2 with a card that may not be played")
    legal = d.legal_plays()
    hand = g.hand()
    visited = set()
    for _ in range(2 * len(hand)):
        assert legal >> hand[g.cursor] & 1
        visited.add(g.cursor)
        sim.press("right")
    assert visited == {i for i, c in enumerate(hand) if legal >> c & 1}


def test_the_heap_is_collected_after_an_answer_not_while_a_key_waits(monkeypatch):
    """The garbage of a key's answer is collected in the first frame that waits for the
    next key, once: not in the frame that answers a key (on the real firmware a
    collection came in nearly every answer over 75 ms), and not again while nothing
    happens."""
    import gc
    sim = Sim("pico_display_pack", headless=True, seed=3)
    sim.boot()
    sim.settle()
    sim.press("ok")                                 # New match
    sim.settle()
    sim.wait(500)
    calls = []
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append(len(sim.events.items)))
    sim.key("right")                                # the cursor moves: no animation
    sim.step()
    assert calls == []                              # the answer's frame
    sim.key("right", False)
    sim.wait(500)
    assert calls == [0]                             # once, with no key waiting
    sim.press("menu")                               # a box comes: its frames, then one more
    sim.wait(500)
    assert len(calls) == 2


def test_labels_share_a_palette_per_colour():
    """Every label of a colour draws with one shared palette (a palette each was two more
    heap allocations a label): on the title, at the table and in a box, with
    the menu's bar recolouring the line it moves to and the one it left."""
    import displayio
    sim = Sim("pico_display_pack")
    sim.boot()
    sim.settle()
    from sixtysix.core import ui

    def palettes():
        found = {}

        def walk(g):
            for layer in g:
                if isinstance(layer, displayio.Group):
                    walk(layer)
                elif isinstance(layer, displayio.TileGrid) and layer.bitmap is ui._font[0]:
                    found.setdefault(layer.pixel_shader[1], set()).add(id(layer.pixel_shader))
        walk(sim.display.root_group)
        assert found
        return found

    title = sim.app.screen
    sim.press("right")                          # the bar to the next line: both recoloured
    assert title.menu.labels[1].tiles.pixel_shader is ui.ink(ui.INK)
    assert title.menu.labels[0].tiles.pixel_shader is ui.ink(title.menu.color)
    sim.press("left")
    sim.press("ok")                             # New match
    assert all(len(ids) == 1 for ids in palettes().values())
    sim.press("menu")                           # the action menu over the table
    assert sim.app.screen.overlay is not None
    shown = palettes()
    assert all(len(ids) == 1 for ids in shown.values()) and len(shown) >= 3, shown
