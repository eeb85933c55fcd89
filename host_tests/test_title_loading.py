"""The title loads before it takes keys (docs/SCREENS.md, "Loading"): at power-on it
shows its heading and fan, then imports everything its choices need, one module a frame,
and only then its menu. Compiling a module takes 50-200 ms on the board, so no compile
may fall in a frame where a screen waits for a key or answers one, or while a match
plays: these tests follow scripted matches from a power-on (every sixtysix and
shared_rules module dropped first, as on the board) and note each frame's imports."""
import sys

import pytest

from tools.screenbench import PowerOn
from tools.sim import Sim, Driver, first_legal, setup_paths

setup_paths()

# The menu screens' own modules compile in a frame of their own when their screen is
# opened (each within a frame's time: docs/SCREENS.md).
MENU_MODULES = {"sixtysix.title", "sixtysix.settingsscreen", "sixtysix.textscreen", "sixtysix.rulestext"}
# On the way to pass-and-play: the friends' menu module (with the seat names it imports)
# and pass-and-play's table, loaded before its set-up screen opens (App.OPENS).
PASS_MODULES = {"sixtysix.friends", "sixtysix.seats", "sixtysix.passplay"}
RULES = ("standard", "hoyle", "russian", "schnapsen", "three-handed", "four-handed", "american",
         "idiots")


@pytest.fixture
def power_on():
    with PowerOn():
        yield


def watched(rules=0, level=1, seed=5):
    """A booted simulator whose every frame notes (frame, screen loading?, imports) in
    sim.imports; the rule set and level chosen before the title loads."""
    sim = Sim("pico_display_pack", headless=True, seed=seed)
    sim.imports = []
    step = sim.step

    def noting(*a, **k):
        app = sim.app
        loading = getattr(app, "loading", None) is not None
        before = set(sys.modules)
        step(*a, **k)
        new = {n for n in set(sys.modules) - before if n.split(".")[0] in ("sixtysix", "shared_rules")}
        sim.imports.append((len(sim.imports), loading, new))

    sim.step = noting
    sim.boot()
    sim.app.settings.index[0] = rules           # (as Settings would set them)
    sim.app.settings.index[1] = level
    return sim


def menu_ready(sim):
    """Run until the title's menu is there; the frame it came in."""
    for _ in range(200):
        app = sim.app
        if getattr(app.screen, "menu", None) is not None and app.wipe is None and app.going is None \
                and getattr(app, "loading", None) is None:
            return len(sim.imports)
        sim.step()
    raise AssertionError("the title's menu never came")


def play_deals(sim, deals=2, limit=3000):
    driver = Driver(sim, first_legal)
    ended = 0
    for _ in range(limit):
        g = driver.game()
        if g is not None and g.overlay is not None and g.match.deal.ended:
            ended += 1
            if ended >= deals:
                return
        if not driver.act():
            return
    raise AssertionError("the deals did not end")


def late_imports(sim, since, allowed=MENU_MODULES):
    return [(i, sorted(new - allowed)) for i, _, new in sim.imports[since:] if new - allowed]


@pytest.mark.parametrize("rules, level", [(0, 0), (0, 1), (0, 2), (5, 2), (4, 1), (3, 2)])
def test_nothing_compiles_once_the_title_menu_is_up(power_on, rules, level):
    """Against the computer: New match, two deals played; then the title again (its
    build modules come back while it loads) and the match continued."""
    sim = watched(rules, level)
    ready = menu_ready(sim)
    sim.settle()
    sim.press("ok")                                             # New match
    assert type(sim.app.screen).__name__ == "Game"
    play_deals(sim)
    assert late_imports(sim, ready) == []
    loads = [new for _, loading, new in sim.imports[:ready] if loading]
    # one module a frame (the first: the rule sets and the computer's package, which
    # tell what the choices need, with the rule sets' one import)
    assert loads[0] <= {"shared_rules", "shared_rules.errors", "shared_rules.rules", "shared_rules.ai"}
    assert all(len(new) <= 1 for new in loads[1:]), loads
    assert sum(len(new) for new in loads) >= 15
    driver = Driver(sim, first_legal)
    sim.press("ok")                                             # the next deal
    while not sim.app.screen.playing():
        driver.act()
    driver.menu_pick("Main menu")
    again = menu_ready(sim)
    sim.settle()
    sim.press("ok")                                             # Continue
    assert sim.app.screen.match.rules.name == RULES[rules]
    play_deals(sim, 1)
    assert late_imports(sim, again) == []


def test_back_from_settings_the_title_loads_the_new_choice_and_forgets_the_old(power_on):
    """Another game and level chosen: the title loads them before its menu is back, and
    the two-handed engine and search it loaded first are gone once the match starts."""
    sim = watched(0, 2)                                         # standard, Hard
    menu_ready(sim)
    sim.settle()
    assert "shared_rules.deal" in sys.modules and "shared_rules.ai.search" in sys.modules
    sim.app.settings.index[0] = 5                               # four-handed (as Settings would)
    sim.app.go("title")                                         # (as leaving Settings does)
    ready = menu_ready(sim)
    assert {"shared_rules.team", "shared_rules.ai.team_search"} <= set(sys.modules)
    sim.settle()
    sim.press("ok")
    assert sim.app.screen.match.rules.name == "four-handed"
    play_deals(sim, 1)
    assert late_imports(sim, ready) == []
    assert not {"shared_rules.deal", "shared_rules.view", "shared_rules.ai.search"} & set(sys.modules)


def test_pass_and_play_loads_its_table_before_its_set_up_screen(power_on):
    sim = watched(rules=4, level=2)                             # three-handed, Hard
    ready = menu_ready(sim)
    sim.settle()
    names = sim.app.screen.names
    sim.run_script(["right %d" % names.index("friend"), "ok", "right", "ok"])
    setup = sim.app.screen
    assert type(setup).__name__ == "PassSetup"
    assert "sixtysix.passplay" in sys.modules                   # before it takes keys
    opened = len(sim.imports)
    while setup.menu.index != len(setup.names):
        sim.press("right")
    sim.press("ok")                                             # Start: two people, the computer
    assert type(sim.app.screen).__name__ == "PassPlay"
    play_deals(sim, 1, limit=6000)
    assert late_imports(sim, opened) == []
    assert late_imports(sim, ready, MENU_MODULES | PASS_MODULES) == []


def test_keys_pressed_while_the_title_loads_do_nothing(power_on):
    """No menu yet: a press is read and dropped (queued, it would pick what nobody saw)."""
    sim = watched(0, 2)
    for role in ("ok", "right", "ok", "menu", "left", "ok"):
        sim.press(role, settle=False)
        assert sim.app.loading is not None and getattr(sim.app.screen, "menu", None) is None
    sim.key("right", True)                      # held through the end of loading
    menu_ready(sim)
    sim.key("right", False)
    sim.settle()
    assert sim.app.name == "title" and sim.app.screen.menu.index == 0
    sim.press("ok")
    assert type(sim.app.screen).__name__ == "Game"

