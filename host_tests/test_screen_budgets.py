"""Issue 12's goals as budgets, on the device-cost model (tools/devicecost.py): a scripted
deal through the firmware on each board profile, every refresh priced as the board would
pay for it. A change that makes a move redraw the whole screen, or pile several cards'
moves into one frame, fails here; the Python side of a frame is the benchmark's
(`python -m tools.bench --screens`), which prints the full figures.

Also the model itself: how it composes a rectangle, its calibration, and the simulator's
dirty rectangles following CircuitPython's rules."""
import pytest

from tools import devicecost, screenbench
from tools.sim import setup_paths, make_display

setup_paths()
import profiles  # noqa: E402

# Every board profile: the firmware fits its frame budget to each display's SPI clock
# (table.Layout: 62.5 MHz on the Pico builds and the uGame 22, 31.25 MHz on the PicoPad,
# PicoSystem and T-Display, 24 MHz for the loose module's long wires).
PROFILES = profiles.PROFILES
DISPLAY_PER_FRAME = 48.0    # ms of drawing in an animation frame: 50 ms less its Python


@pytest.fixture(scope="module", params=PROFILES)
def session(request):
    """The benchmark's script (two deals: the second match continued is where cards
    appear over cards and the table leaves over its own cards)."""
    sim = screenbench.Recorder(request.param, 3)
    screenbench.play_script(sim, 2)
    return sim


def test_no_frame_redraws_much_of_the_screen(session):
    screen = session.width * session.height
    frames = session.frames                      # (the power-on picture: App(), before them)
    assert len(frames) > 100
    worst = max(frames, key=lambda f: f.pixels)
    assert worst.pixels <= screen // 2, "step %d redraws %d of %d pixels" % (worst.step, worst.pixels, screen)


def test_every_frame_draws_within_its_budget(session):
    """Every frame of every kind: animation, answers to keys, the title's imports, and
    each of the frames that build a screen (the table, the title, settings, statistics,
    rules: the script visits them all), and those that take the table off (a box, the
    whole table leaving for the title: its first layers' rectangle spans cards still
    there) and show or hide cards over cards (a continued match)."""
    frames = session.frames
    assert {"Game", "Title", "SettingsScreen", "TextScreen"} <= {f.screen for f in frames}
    assert {"frame", "build", "warm"} <= {f.kind for f in frames}
    for kind in {f.kind for f in frames}:
        worst = max((f for f in frames if f.kind == kind), key=lambda f: f.display_ms)
        assert worst.display_ms <= DISPLAY_PER_FRAME, "%s, step %d: %.1f ms" % (kind, worst.step, worst.display_ms)


@pytest.fixture(scope="module", params=["pico_display_pack", "pajenicko_picopad"])
def team_session(request):
    """The same script through a four-handed match at Hard: a finished trick is four
    cards, swept off the bottom edge over the player's hand when the player's side wins
    it (on 240x135, where the team's won tricks have no pile)."""
    sim = screenbench.Recorder(request.param, 3)
    screenbench.play_script(sim, 2, "four-handed", "hard")
    return sim


def test_a_four_handed_table_draws_within_its_budget(team_session):
    """Three cards of a trick swept over the hand in one frame came to 54.6 ms of drawing
    on the Display Pack (priced as flights over felt); the budget now prices a sweep
    off the bottom edge as the cards it passes over."""
    frames = team_session.frames
    assert sum(1 for f in frames if f.signature.startswith("Game")) > 500
    worst = max(frames, key=lambda f: f.display_ms)
    assert worst.display_ms <= DISPLAY_PER_FRAME, "step %d (%s): %.1f ms" % (
        worst.step, worst.signature, worst.display_ms)


def test_leaving_a_screen_draws_a_share_that_leaves_room_for_sorting_it(team_session):
    """The key that leaves a screen (Main menu from a four-handed table: some 90 layers)
    sorts the screen's layers (ui.places) in its own frame: 17-20 ms of Python on the
    board, so that frame's first share of the removal is half a frame's drawing (the
    whole frame's came to 40.3 ms of display on the PicoPad, 57-60 ms in all)."""
    at = {f.step: f for f in team_session.frames}
    leaving = [at[step] for step, kind in team_session.presses
               if step in at and kind in ("menu pick", "open settings", "open stats", "open rules")]
    assert len(leaving) == 4
    for f in leaving:
        assert f.display_ms <= 0.65 * DISPLAY_PER_FRAME, "step %d: %.1f ms" % (f.step, f.display_ms)


@pytest.mark.parametrize("profile", ["pico_display_pack", "pajenicko_picopad"])
def test_the_computer_thinks_in_a_frame_of_its_own_after_thinking_is_shown(profile, monkeypatch):
    """The frame that shows "Thinking..." is drawn before the thought, and the thought
    and its move come in the next frame, which draws only the move's answer. Both once
    came in one frame: the message's refresh before the thought, the move's after it,
    some 40 ms of display with 21-24 ms of the move's Python on the board (North
    American at Hard, 62-67 ms on the PicoPad)."""
    sim = screenbench.Recorder(profile, 3)
    events = []                     # ("drawn" or "thought", step), in order
    refresh = sim.show

    def show():
        events.append(("drawn", sim.steps))
        refresh()

    sim.show = show                 # (App takes it at boot)
    from sixtysix.table import driver as table_driver     # (the one the app loaded)
    adviser = table_driver.Driver.adviser

    def thinks(game):
        events.append(("thought", sim.steps))
        return adviser(game)

    monkeypatch.setattr(table_driver.Driver, "adviser", thinks)
    screenbench.play_script(sim, 1, "american", "hard")
    at = {f.step: f for f in sim.frames}
    thoughts = [i for i, e in enumerate(events) if e[0] == "thought"]
    assert len(thoughts) >= 5
    for i in thoughts:
        step = events[i][1]
        assert events[i - 1] != ("drawn", step), "step %d drew before its thought" % step
        assert ("drawn", step - 1) in events, "step %d: nothing shown before it" % step
        f = at[step]
        assert f.display_ms <= 0.65 * DISPLAY_PER_FRAME, "step %d: %.1f ms" % (step, f.display_ms)


def test_the_save_logs_rewrite_has_a_frame_of_its_own():
    """The log's rewrite (a sector erase, 45 ms) comes once it is nearly full, in a frame
    where the game waits for a key and nothing else happens: no key answered, nothing
    drawn (once it landed in the frame of an action or a deal)."""
    from sixtysix.save import store
    from tools.sim import Driver, first_legal
    sim = screenbench.Recorder("pico_display_pack", 3)
    sim.boot()
    sim.settle()
    sim.press("ok")                             # New match
    driver = Driver(sim, first_legal)
    st = sim.app.device.store
    while st.area - st.end >= store.ROOM:
        st.sleep_on(0)                          # real records, two bytes each: the log fills
    erases = sim.nvm.erases
    for _ in range(300):                        # until the rewrite (full: some 85 actions on)
        driver.act()
        if sim.nvm.erases > erases:
            break
    for _ in range(30):
        driver.act()
    saves = [f for f in sim.frames if f.flash_ms >= devicecost.COSTS["erase_ms"]]
    assert sim.nvm.erases == erases + 1 and len(saves) == 1
    (save,) = saves
    assert save.pixels == 0 and save.step not in {step for step, _ in sim.presses}
    assert save.ms <= (devicecost.COSTS["erase_ms"] + 16 * devicecost.COSTS["page_ms"]
                       + devicecost.COSTS["refresh"] / 1000)       # (a refresh that finds nothing)
    assert st.area - st.end > 2048             # the log has its room again


def test_keys_answer_and_cards_settle_in_time(session):
    rows = screenbench.actions(session)
    kinds = {kind for kind, _, _, _ in rows}
    assert {"new match", "play", "menu", "close box"} <= kinds
    for kind, first, settled, pixels in rows:
        assert first <= screenbench.GOALS["first"], (kind, first)
        if kind == "play":
            assert settled <= screenbench.GOALS["play settled"], settled
            assert pixels <= session.width * session.height, pixels
        if kind == "new match":
            assert settled <= screenbench.GOALS["deal settled"], settled


# A deal on 320x240 (the PicoPad, the uGame 22: more pixels a card) in the rule sets whose
# deals took longest, and their level: the deal that follows a finished one (its result
# box taken off first) was 1019-1066 ms with the frames' Python, 1019-1051 ms of drawing
# and pacing alone, until the box's bands went one a frame, the new deal's Python took
# the frame that drops the box, and a dealt card fanning out of its packet was priced
# as the one card it draws.
DEALS_320 = [("pajenicko_picopad", "schnapsen", "normal"), ("ugame22", "schnapsen", "normal"),
             ("pajenicko_picopad", "standard", "hard"), ("ugame22", "standard", "hard"),
             ("pajenicko_picopad", "idiots", "normal"), ("pajenicko_picopad", "russian", "hard")]
DEAL_DRAWING = 930.0    # ms, key to settled without the Python: the 1 s goal less some 70 ms of it


@pytest.mark.parametrize("profile,rules,level", DEALS_320)
def test_a_deal_on_320x240_is_dealt_within_its_budget(profile, rules, level):
    """Key to settled for every deal of the script, its frames' drawing and their pace
    (a frame starts 1/30 s after the last) without their Python, which the benchmark
    adds (10-22 ms a deal: mostly the new deal's own frame and its texts' frame)."""
    sim = screenbench.Recorder(profile, 3)
    with screenbench.PowerOn():
        screenbench.play_script(sim, 2, rules, level)
    deals = [settled for kind, _, settled, _ in screenbench.actions(sim)
             if kind in ("new match", "next deal")]
    assert len(deals) >= 3
    assert max(deals) <= DEAL_DRAWING, deals


def test_the_vm_replays_the_simulators_frames():
    """The Python figures come from the MicroPython VM replaying the same key presses on the
    same frames; it checks it stays on the simulator's path (or raises)."""
    import mpvm
    try:
        mpvm.check_installed()
    except mpvm.MPVMUnavailable as e:
        pytest.skip(str(e))
    r = screenbench.measure("pico_display_pack", deals=1, replays=3)   # the shortest of three
    f = r["frames"]
    assert f["frame"]["n"] > 100 and f["frame"]["mean_ms"] > 0
    assert f["build"]["worst_parts"]["python"] > 0
    assert r["thinking_worst_ms"] > 0                    # the computer thought, left out
    # (the Python's milliseconds come from Node's wall clock and wobble on a busy machine:
    # none is compared with a budget here; each screen is built over several frames, each
    # within a frame's drawing, its Python timed)
    for name in ("Game", "Title", "SettingsScreen", "TextScreen"):
        b = r["builds"][name]
        assert b["n"] >= 3 and b["display_worst_ms"] <= screenbench.GOALS["frame"], (name, b)
        assert b["worst_parts"]["python"] > 0, (name, b)


# ---- the model -------------------------------------------------------------------------

def test_a_rectangle_is_composed_top_layer_first():
    import displayio
    import vectorio
    felt = displayio.Palette(1)
    felt[0] = 0x0B5D2A
    ink = displayio.Palette(2)
    ink.make_transparent(0)
    ink[1] = 0xFFFFFF
    card = displayio.Bitmap(8, 8, 2)
    card.fill(1)                                  # opaque
    text = displayio.Bitmap(8, 8, 2)              # clear but one pixel
    text[0, 0] = 1
    g = displayio.Group()
    g.append(vectorio.Rectangle(pixel_shader=felt, x=0, y=0, width=64, height=64))
    g.append(displayio.TileGrid(card, pixel_shader=ink, x=8, y=8))
    g.append(displayio.TileGrid(text, pixel_shader=ink, x=4, y=4))
    root = displayio.Group()
    root.append(g)
    display = make_display(64, 64, True)
    display.root_group = root
    try:
        layers = devicecost.layers_of(root)
        c = devicecost.area_cost((0, 0, 16, 16), layers)
    finally:
        display.root_group = None
    assert (c.pixels, c.buffers, c.covering) == (256, 1, 3)
    # the text on top: its 64 pixels fetched, one of them ink (at 4, 4); the card: its 64
    # pixels; the felt: 256 pixels, of which the card's 64 and the ink's 1 are drawn
    assert c.fetch == {"ram": 64 + 64, "shape": 256 - 65}
    assert c.visits == 65
    assert c.walked == 3


def test_an_opaque_layer_covering_the_rectangle_ends_the_walk():
    import displayio
    import vectorio
    p = displayio.Palette(1)
    p[0] = 0x123456
    g = displayio.Group()
    g.append(vectorio.Rectangle(pixel_shader=p, x=0, y=0, width=64, height=64))
    g.append(vectorio.Rectangle(pixel_shader=p, x=0, y=0, width=32, height=32))
    display = make_display(64, 64, True)
    display.root_group = g
    try:
        c = devicecost.area_cost((0, 0, 16, 16), devicecost.layers_of(g))
    finally:
        display.root_group = None
    assert c.walked == 1 and c.fetch["shape"] == 256 and c.visits == 0


def test_buffers_follow_busdisplay():
    assert devicecost.buffers(16, 16) == 1          # 256 pixels: one buffer
    assert devicecost.buffers(32, 44) == 6          # 8 rows of 32 a buffer
    assert devicecost.buffers(320, 240) == 240      # a row longer than the buffer: one a buffer
    # a panel turned a quarter (the Display Pack) sends the screen's columns as its rows
    assert devicecost.AreaCost((0, 0, 200, 10)).buffers == 10       # a row a buffer
    assert devicecost.AreaCost((0, 0, 200, 10), turned=True).buffers == 8    # 25 columns a buffer


def test_the_model_agrees_with_the_real_firmwares_refreshes():
    """COSTS are the fit to the real firmware's refreshes (devicecost.CALIBRATION), and
    with them the model's refreshes are the real ones within a few percent."""
    costs, scenes = devicecost.fit()
    for k, us in costs.items():
        assert devicecost.COSTS[k] == pytest.approx(us, rel=0.01, abs=0.01), k
    assert {board for board, _, _, _ in scenes} == {"240x135", "320x240"}
    errors = sorted(abs(model - real) / real for _, _, real, model in scenes)
    assert errors[len(errors) // 2] <= 0.05 and errors[len(errors) * 9 // 10] <= 0.10
    for board, moment, real, model in scenes:
        if real > 20:
            assert model == pytest.approx(real, rel=0.15), (board, moment)


def test_moving_a_tilegrid_dirties_what_circuitpython_redraws():
    """A short move: one rectangle around both places; a long one (more than twice the
    layer's area): the two places apart (shared-module/displayio/TileGrid.c)."""
    import displayio
    bitmap = displayio.Bitmap(8, 8, 2)
    palette = displayio.Palette(2)
    t = displayio.TileGrid(bitmap, pixel_shader=palette, x=0, y=0)
    g = displayio.Group()
    g.append(t)
    display = make_display(64, 64, True)
    meter = devicecost.Meter(display, draw=False)
    display.root_group = g
    try:
        meter.refresh()                                 # whole screen: the first picture
        t.x = 4
        short = meter.refresh()
        t.x = 40
        long = meter.refresh()
        nothing = meter.refresh()
    finally:
        meter.detach()
        display.root_group = None
    assert [a.rect for a in short.areas] == [(0, 0, 12, 8)]
    assert sorted(a.rect for a in long.areas) == [(4, 0, 12, 8), (40, 0, 48, 8)]
    assert nothing.pixels == 0 and nothing.us == devicecost.COSTS["refresh"]    # (the tree walked)


def test_what_is_redrawn_leaves_the_screen_as_a_whole_redraw_would():
    """Drawing only the dirty rectangles (as the board does) never leaves stale pixels:
    after keys pressed at random, also in the middle of animations and screen changes,
    the screen equals the same scene drawn whole."""
    import random
    import numpy
    import pygame
    from tools.sim import Sim
    sim = Sim("pico_display_pack", headless=True, seed=4)
    sim.boot()
    d = sim.display
    r = random.Random(4)
    checked = 0
    for i in range(900):
        if r.random() < 0.3:
            role = r.choice(sim.roles)
            sim.key(role, True)
            sim.step()
            sim.key(role, False)
        sim.step()
        d.refresh()
        if i % 45 == 44:
            drawn = pygame.surfarray.array3d(d.screen).copy()
            root = d.root_group
            d.root_group = None
            d.root_group = root                 # a new root group: the whole screen
            d.refresh()
            whole = pygame.surfarray.array3d(d.screen)
            assert numpy.array_equal(drawn, whole), "step %d: %s" % (i, type(sim.app.screen).__name__)
            checked += 1
    assert checked == 20


@pytest.mark.parametrize("profile", ["pico_display_pack", "pajenicko_picopad"])
def test_a_box_menus_frames_draw_within_their_budget(profile):
    """Schnapsen's action menu: its lines as wide as the game writes them (an exchange,
    a marriage and its lead), the bar moved a line on and back, round the end, a line picked and the box
    closed. A move that redrew both lines over the table, both labels recoloured in one
    frame, came to 72-79 ms of drawing; every frame from each key to the next is now
    within a frame's budget, the bar's move in two (the old line, then the new)."""
    from sixtysix.table import boxes
    sim = screenbench.Recorder(profile, 3)
    sim.boot()
    from sixtysix.save.settings import CHOICES
    sim.app.device.settings.index[[c[0] for c in CHOICES].index("rules")] = CHOICES[0][2].index("schnapsen")
    sim.step()
    sim.settle()
    sim.press("ok")                                 # New match
    game = sim.app.screen
    assert game.match.rules.name == "schnapsen" and game.playing()
    sim.press("menu")                               # the action menu as the game opens it
    sim.press("right")
    sim.press("menu")
    wide = ["Exchange Nine for Queen diamonds", "Marry diamonds (20), lead Queen",
            "Show diamonds K+Q, claim 66", "Back"]      # the game's widest lines

    def handler(role):
        if role == "menu":
            game.close_overlay()
        elif game.overlay[1].handle(role) is not None:
            game.close_overlay()

    start = len(sim.presses)
    boxes.open_box(game, "Your move", [], wide, handler)
    sim.settle()
    for role in ("right", "right", "left", "left", "left", "right", "ok"):
        sim.press(role)
    boxes.open_box(game, "Your move", [], wide, handler)
    sim.settle()
    sim.press("menu")
    steps = [step for step, _ in sim.presses] + [sim.steps]
    kinds = {kind for _, kind in sim.presses}
    assert {"menu", "menu move", "menu pick", "close box"} <= kinds
    assert len(steps) - start > 8
    for i, (step, kind) in enumerate(sim.presses):
        frames = [f for f in sim.frames if step <= f.step < steps[i + 1]]
        assert frames, (step, kind)
        worst = max(frames, key=lambda f: f.display_ms)
        assert worst.display_ms <= DISPLAY_PER_FRAME, "%s, step %d: %.1f ms" % (kind, worst.step, worst.display_ms)
