"""Every screen is made from the device alone (sixtysix.core.device), never the app.

Each screen here is given a Device of its own, made beside a booted simulator's app
from the same parts but holding no reference to the app: it builds (its steps, one a
frame), answers keys and says where to go by what its tick returns. A screen that
reached for anything of the app (open, set_screen, start, its session, ...) would fail
here on the attribute the device has not.
"""
import pytest

from tools.sim import Sim, setup_paths

setup_paths()       # firmware/ on sys.path, as on the board
from shared_rules.match import Match  # noqa: E402
from shared_rules.rules import Rules  # noqa: E402
from sixtysix.core.device import Device, DIMMED, LIT  # noqa: E402
from sixtysix.save.settings import Settings  # noqa: E402
from sixtysix.save.store import Store  # noqa: E402


@pytest.fixture(scope="module")
def sim():
    s = Sim("pico_display_pack", seed=3)
    s.boot()
    s.settle()
    return s


def device_of(sim):
    """A Device of the app's own layout, sheet and keys' names, its own settings and
    an empty store."""
    d = sim.app.device
    return Device(sim.display, d.layout, d.sheet, d.key, Settings(), Store(bytearray(8192)), seed=5)


def built(screen):
    """The screen shown whole, its steps done (as the app shows it: ui.Show, a share a
    frame)."""
    from sixtysix.core import ui
    show = ui.Show(screen.group, getattr(screen, "steps", None))
    while show.step():
        pass
    return screen


def test_the_menu_screens_are_made_from_the_device_and_say_where_to_go(sim):
    from sixtysix.screens.title import Title
    from sixtysix.screens.settings import SettingsScreen
    from sixtysix.screens import text, friends
    dev = device_of(sim)
    dev.notice = "A line for the title"
    title = built(Title(dev))
    assert title.notice_text == "A line for the title" and dev.notice == ""     # taken
    assert title.tick("ok") == "new"                    # no match saved: New match first
    assert built(SettingsScreen(dev)).tick("menu") == "title"
    for make in (text.Stats, text.RulesMenu, text.KeysScreen, friends.Friend, friends.PassSetup):
        screen = built(make(dev))
        assert screen.tick(None) is None                # nothing pressed: it stays
        assert screen.tick("menu") == "title", make.__name__


def test_pass_and_play_set_up_leaves_the_persons_on_the_device(sim):
    from sixtysix.screens.friends import PassSetup
    dev = device_of(sim)
    setup = PassSetup(dev)
    n = len(setup.names)
    for _ in range(n):
        setup.tick("right")                             # down to "Start"
    assert setup.tick("ok") == "passgame" and dev.people == 0b11      # the first two seats


def test_the_link_screen_shows_its_session_or_why_there_is_none(sim):
    from sixtysix.link.screen import LinkScreen
    dev = device_of(sim)
    dev.notice = "This device has no link cable port"
    screen = LinkScreen(dev, None)
    assert screen.s is None and dev.notice == ""
    assert screen.tick("menu") == "title"


def test_the_table_plays_and_saves_on_the_device_alone(sim):
    from sixtysix.table.view import Game
    dev = device_of(sim)
    m = Match(Rules("standard"), "casual", 11)
    dev.store.start_deal(b"\x00")       # (App.start saves the first deal's header)
    g = built(Game(dev, m, "easy"))
    before = len(dev.store.records)
    for _ in range(12):
        g.tick("ok")
    assert m.deal.log and len(dev.store.records) > before      # moves made and saved
    for _ in range(300):
        if not g.busy() and g.overlay is None and not m.deal.ended and m.deal.to_act == g.me():
            break
        g.tick(None)                    # the cards' moves and the computer's, a frame each
    assert g.tick("menu") is None and g.overlay is not None     # the action menu, on the table


def test_the_device_lights_the_screen_as_the_settings_say(sim):
    dev = device_of(sim)
    dev.light(DIMMED)
    assert dev.lit == DIMMED and sim.display.brightness <= 0.1
    dev.light()
    assert dev.lit == LIT and sim.display.brightness == pytest.approx(dev.settings.brightness())


def test_the_app_holds_only_its_own_the_device_the_rest(sim):
    """One owner for each thing: the settings, the store, the sound, the board, the
    display and link play's session, port and randomness are the device's; the App keeps
    the loop, the screen and its changes, the power (no second name for any of them)."""
    app, dev = sim.app, sim.app.device
    for name in ("store", "settings", "sound", "board", "display", "session", "sync", "port", "link_port",
                 "entropy", "named", "width", "height"):
        assert not hasattr(app, name), name
        assert hasattr(dev, name) or name in ("width", "height"), name
    assert dev.layout.w == sim.display.width and dev.store.nvm is sim.nvm


def test_the_apps_own_work_takes_the_device_and_says_what_to_do(sim):
    """screens.friends.open, screens.loading.begin and link.session.start_linked are given
    the device (and what they use by name), never the app: they answer with what the app
    is to do (load on, make this screen, start this match, the title)."""
    import displayio
    from sixtysix.screens import friends, loading
    from sixtysix.link import session
    dev = device_of(sim)
    root = displayio.Group()
    assert friends.open(dev, "friend", root, False) is friends.Friend
    got, frames = True, 0
    while got is True:                  # pass-and-play's set-up: its modules, one a frame
        got = friends.open(dev, "pass", root, frames == 0)
        frames += 1
    assert got is friends.PassSetup and len(root) == 0      # (its loading dots gone)
    dev.people = 0b11
    match, level, fresh, people = friends.open(dev, "passgame", root, False)
    assert match.players() == 2 and (level, fresh, people) == (dev.settings.get("level"), True, 0b11)
    assert session.start_linked(dev, True) is None          # no link port: no match, the title
    assert dev.session is None and dev.notice == "This device has no link cable port"
    dev.notice = ""
    loading.begin(dev)                  # the title's steps: on the device's warm
    assert dev.warm
    said = []
    for _ in range(200):
        if not dev.warm:
            break
        w = dev.warm.pop(0)
        said.append(w() if callable(w) else __import__(w))
    assert not dev.warm and said[-1] is None                # no damaged match: the title stays
    assert all(n in __import__("sys").modules for n in loading.needs(dev.settings.rules().game))
