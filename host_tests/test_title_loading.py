"""The title takes keys at once and loads what its choices need in frames without a key
(docs/SCREENS.md, "Loading"): the menu comes with the title; then, one module a frame,
another game's modules are forgotten and the chosen game's imported, so that nothing
loads while a match plays and one game's modules are in the heap at a time. A key
pressed while the title comes waits in the key queue and is answered once its menu is
there. These tests follow scripted matches from a power-on (every sixtysix and
shared_rules module dropped first, as on the board) and note each frame's imports."""
import sys

import pytest

from tools.screenbench import PowerOn
from tools.sim import Sim, Driver, first_legal, setup_paths

setup_paths()

# The menu screens' own modules compile in a frame of their own when their screen is
# opened (each within a frame's time: docs/SCREENS.md), with the menu screen that Rules
# and Play a friend show (sixtysix.screens.menu).
MENU_MODULES = {"sixtysix.screens.title", "sixtysix.screens.settings", "sixtysix.screens.text",
                "sixtysix.screens.rulestext", "sixtysix.screens.menu"}
# On the way to pass-and-play: the friends' menu module (with the seat names it imports)
# and pass-and-play's table, loaded before its set-up screen opens (screens.friends.OPENS).
PASS_MODULES = {"sixtysix.screens.friends", "sixtysix.table.seats", "sixtysix.table.passplay"}
RULES = ("standard", "hoyle", "russian", "schnapsen", "three-handed", "four-handed", "american",
         "idiots")


@pytest.fixture
def power_on():
    with PowerOn():
        yield


def watched(rules=0, level=1, seed=5):
    """A booted simulator whose every frame notes (frame, key queued?, imports, two
    games' engines loaded at once?) in sim.imports; the rule set and level chosen before
    the title loads."""
    sim = Sim("pico_display_pack", headless=True, seed=seed)
    sim.imports = []
    step = sim.step

    def noting(*a, **k):
        keyed = bool(sim.events.items)
        before = set(sys.modules)
        step(*a, **k)
        new = {n for n in set(sys.modules) - before if n.split(".")[0] in ("sixtysix", "shared_rules")}
        both = "shared_rules.deal" in sys.modules and "shared_rules.team" in sys.modules
        sim.imports.append((len(sim.imports), keyed, new, both))

    sim.step = noting
    sim.boot()
    sim.app.device.settings.index[0] = rules           # (as Settings would set them)
    sim.app.device.settings.index[1] = level
    return sim


def menu_ready(sim):
    """Run until the title's menu is there; the frame it came in."""
    for _ in range(200):
        app = sim.app
        if getattr(app.screen, "menu", None) is not None and app.wipe is None and app.going is None:
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
    """The frames after `since` that imported more than `allowed`, but for the computer's
    modules, which the table loads in its first frames (App.start's warm): each alone,
    in a frame without a key."""
    late = []
    for i, keyed, new, _ in sim.imports[since:]:
        ai = {n for n in new if n.startswith("shared_rules.ai.")}
        if ai and (keyed or len(new) > 1) or new - ai - allowed:
            late.append((i, sorted(new - allowed)))
    return late


def computer_loaded():
    """The computer's modules loaded (its package alone says what each level needs)."""
    return sorted(n for n in sys.modules if n.startswith("shared_rules.ai."))


@pytest.mark.parametrize("rules, level", [(0, 0), (0, 1), (0, 2), (5, 2), (4, 1), (3, 2)])
def test_nothing_loads_while_a_match_plays_once_the_title_has_loaded(power_on, rules, level):
    """Against the computer: New match, two deals played; then the title again (its
    build modules come back while it waits) and the match continued. The title loads the
    table and the engine, not the computer, which comes a module a frame at the table
    before its first thought."""
    sim = watched(rules, level)
    assert menu_ready(sim) == 0                                 # the menu comes with the title
    sim.settle()
    assert computer_loaded() == []
    loaded = len(sim.imports)
    sim.press("ok")                                             # New match
    assert type(sim.app.screen).__name__ == "Game"
    play_deals(sim)
    assert late_imports(sim, loaded) == []
    assert "shared_rules.ai.greedy" in sys.modules or "shared_rules.ai.team_greedy" in sys.modules
    loads = [new for _, keyed, new, _ in sim.imports[:loaded] if new]
    assert not any(keyed for _, keyed, new, _ in sim.imports[:loaded] if new)
    # one module a frame (the first: the rule sets, the computer's package and the save's
    # reader, which tell what the choices need, with their own imports)
    assert len(loads[0]) <= 8, loads[0]
    assert all(len(new) <= 1 for new in loads[1:]), loads
    assert sum(len(new) for new in loads) >= 15
    driver = Driver(sim, first_legal)
    sim.press("ok")                                             # the next deal
    while not sim.app.screen.playing():
        driver.act()
    driver.menu_pick("Main menu")
    menu_ready(sim)
    sim.settle()
    again = len(sim.imports)
    sim.press("ok")                                             # Continue
    assert sim.app.screen.match.rules.name == RULES[rules]
    play_deals(sim, 1)
    assert late_imports(sim, again) == []


def test_back_from_settings_the_title_forgets_the_old_choice_before_it_loads_the_new(power_on):
    """Another game and level chosen: the title forgets the two-handed engine and search
    it loaded first, then loads the four-handed ones: never both in the heap."""
    sim = watched(0, 2)                                         # standard, Hard
    menu_ready(sim)
    sim.settle()
    assert "shared_rules.deal" in sys.modules and computer_loaded() == []
    sim.app.device.settings.index[0] = 5                               # four-handed (as Settings would)
    sim.app.go("title")                                         # (as leaving Settings does)
    menu_ready(sim)
    sim.settle()
    assert "shared_rules.team" in sys.modules and computer_loaded() == []
    assert not {"shared_rules.deal", "shared_rules.view"} & set(sys.modules)
    assert not any(both for _, _, _, both in sim.imports)
    loaded = len(sim.imports)
    sim.press("ok")
    assert sim.app.screen.match.rules.name == "four-handed"
    play_deals(sim, 1)
    assert late_imports(sim, loaded) == []


def test_pass_and_play_loads_its_table_before_its_set_up_screen(power_on):
    sim = watched(rules=4, level=2)                             # three-handed, Hard
    menu_ready(sim)
    sim.settle()
    ready = len(sim.imports)
    names = sim.app.screen.names
    sim.run_script(["right %d" % names.index("friend"), "ok", "right", "ok"])
    setup = sim.app.screen
    assert type(setup).__name__ == "PassSetup"
    assert "sixtysix.table.passplay" in sys.modules                   # before it takes keys
    opened = len(sim.imports)
    while setup.menu.index != len(setup.names):
        sim.press("right")
    sim.press("ok")                                             # Start: two people, the computer
    assert type(sim.app.screen).__name__ == "PassPlay"
    play_deals(sim, 1, limit=6000)
    assert late_imports(sim, opened) == []
    assert late_imports(sim, ready, MENU_MODULES | PASS_MODULES) == []


def test_a_key_pressed_while_the_title_comes_is_answered_once_its_menu_is_there(power_on):
    """At power-on (keypad queued it before the program read keys) and while the title
    comes back from another screen: OK is kept and starts a match, once."""
    sim = watched(0, 1)
    sim.key("ok")
    sim.key("ok", False)
    sim.settle()
    assert type(sim.app.screen).__name__ == "Game"
    sim.app.go("settings")
    sim.settle()
    sim.app.go("title")
    sim.step()
    assert sim.app.wipe is not None or sim.app.going is not None      # the title is coming
    for _ in range(2):
        sim.key("right")
        sim.key("right", False)
    sim.key("ok")
    sim.key("ok", False)
    sim.settle()
    assert sim.app.name == "settings"      # Continue, New match, Settings


def test_the_titles_loading_stops_once_the_title_is_left(power_on):
    """Left at once (for Settings): none of the title's imports or forgetting happens on
    the other screen, where a friend's screens load modules of their own."""
    sim = watched(0, 2)
    sim.app.go("settings")
    sim.settle()
    assert sim.app.name == "settings" and not sim.app.device.warm
    assert not {"shared_rules.deal", "shared_rules.ai.search", "sixtysix.table.driver",
                 "sixtysix.table.view"} & set(sys.modules)


def test_the_link_screen_comes_without_the_match_the_title_loaded(power_on):
    """The table's modules, loaded by the title for its choice, go before link play's
    come (a linked match loads its own once agreed): on the real firmware the link screen
    beside them and Hard's left 4 KB free (no key answered) and 11 KB without Hard's.
    Back at the title, they come again, while it waits."""
    sim = watched(0, 2)                                         # standard, Hard
    menu_ready(sim)
    sim.settle()
    table = {"sixtysix.table.driver", "sixtysix.table.view", "sixtysix.table.boxes", "sixtysix.table.build",
             "sixtysix.table.parts"}
    assert table <= set(sys.modules)
    names = sim.app.screen.names
    sim.run_script(["right %d" % names.index("friend"), "ok", "ok"])      # Play a friend, Link cable
    assert sim.app.name == "link"
    assert not [n for n in sys.modules if n.startswith("shared_rules.ai")]
    assert not table & set(sys.modules)
    assert "sixtysix.link.screen" in sys.modules
    sim.press("menu")
    menu_ready(sim)
    sim.settle()
    assert sim.app.name == "title" and table <= set(sys.modules)


def test_the_title_forgets_the_other_screens_modules(power_on):
    """Back at the title from link play (this device has no port: no session, its modules
    loaded all the same), Statistics, Rules and pass-and-play's set-up, none of their
    modules stays while the title waits: on the real firmware the title's next game at
    Hard beside them had 12 KB free, 17 KB without them."""
    sim = watched(0, 2)
    menu_ready(sim)
    sim.settle()
    fresh = {n for n in sys.modules if n.startswith(("sixtysix.", "shared_rules."))}
    names = sim.app.screen.names
    visits = (("friend", ["ok"]), ("stats", []), ("rules", ["right", "ok"]), ("friend", ["right", "ok"]))
    for name, more in visits:
        sim.run_script(["right %d" % names.index(name), "ok"] + more)
        sim.settle()
        assert sim.app.name != "title"
        sim.press("menu")
        menu_ready(sim)
        sim.settle()
        assert sim.app.name == "title" and sim.app.device.session is None
        now = {n for n in sys.modules if n.startswith(("sixtysix.", "shared_rules."))}
        assert now == fresh, (name, sorted(now ^ fresh))
