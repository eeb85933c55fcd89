"""Never "Code done running" (sixtysix.restart): an error code.py did not expect shows a
line and restarts the board into the saved match; a restart that fails again before its
first key waits for a key and restarts into the title; a MemoryError while a screen
loads gets a collect and one more try, then the title says so."""
import sys
import types

import pytest

from tools.sim import Sim, SimPower, FIRMWARE, setup_paths

setup_paths()
from sixtysix import restart  # noqa: E402
import sixtysix.app  # noqa: E402
import sixtysix.core.ui  # noqa: E402


class Reloaded(BaseException):
    """supervisor.reload(): the program ends here."""


def shown_text(group):
    """The text lines in a displayio group (labels are TileGrids over the font)."""
    import displayio
    lines = []
    for layer in group:
        if isinstance(layer, displayio.Group):
            lines += shown_text(layer)
        elif isinstance(layer, displayio.TileGrid) and layer.height == 1:
            lines.append("".join(chr(layer[i] + 32) for i in range(layer.width)).strip())
    return lines


class Board:
    """code.py on a 'board' made of the simulator's parts; `memory` is alarm.sleep_memory
    (RAM that outlives a restart) and `crash(app)` what App.run does."""

    def __init__(self, monkeypatch, sim, memory):
        self.sim = sim
        self.memory = memory
        self.reloads = 0
        self.slept = 0.0
        self.app = None
        self.keys = types.SimpleNamespace(events=sim.events)
        profile = types.SimpleNamespace(BUTTONS=sim.roles, HOLDS=None, LABELS=sim.profile.LABELS,
                                        display=lambda: sim.display, keys=lambda: self.keys)
        mp = monkeypatch
        mp.setitem(sys.modules, "profiles", types.SimpleNamespace(
            load=lambda name: profile, power=lambda p, display, keys: SimPower(), sound=lambda p: None))
        mp.setitem(sys.modules, "supervisor", types.SimpleNamespace(
            status_bar=types.SimpleNamespace(display=True), reload=self.reload))
        mp.setitem(sys.modules, "microcontroller", types.SimpleNamespace(nvm=sim.nvm))
        mp.setitem(sys.modules, "board", types.SimpleNamespace(DISPLAY=sim.display))
        mp.setitem(sys.modules, "storage",
                   types.SimpleNamespace(getmount=lambda path: types.SimpleNamespace(readonly=True)))
        mp.setitem(sys.modules, "alarm", types.SimpleNamespace(sleep_memory=memory))
        mp.setenv("SIXTYSIX_PROFILE", "pico_display_pack")
        real_font = sixtysix.core.ui.load_font
        mp.setattr(sixtysix.core.ui, "load_font",
                   lambda path: real_font(str(FIRMWARE / "assets" / path.split("/")[-1])))
        real_init = sixtysix.app.App.__init__

        def init(app, display, events, roles, nvm, clock, assets="/assets", **kw):
            self.app = app
            real_init(app, display, events, roles, nvm, sim.clock, str(FIRMWARE / "assets"), **kw)

        mp.setattr(sixtysix.app.App, "__init__", init)
        mp.setitem(sys.modules, "time", types.SimpleNamespace(    # code.py's (the display's stays)
            sleep=self.sleep, monotonic=lambda: self.slept))
        self.on_sleep = None

    def reload(self):
        self.reloads += 1

    def sleep(self, s):
        self.slept += s
        if self.reloads:
            raise Reloaded()
        if self.on_sleep is not None:
            self.on_sleep()

    def run(self, monkeypatch, crash):
        monkeypatch.setattr(sixtysix.app.App, "run", lambda app, sleep: crash(app))
        code = (FIRMWARE / "code.py").read_text()
        with pytest.raises(Reloaded):
            exec(compile(code, "code.py", "exec"), {"__name__": "__main__"})
        return shown_text(self.sim.display.root_group)


def play_a_little(app, sim, presses):
    """The board's main loop for `presses` OK presses (New match, then play)."""
    for _ in range(presses):
        sim.key("ok")
        sim.key("ok", False)
        for _ in range(400):
            sim.clock.now += 1 / 30
            app.step()


def boom(app):
    raise RuntimeError("boom")


def test_an_error_restarts_into_the_saved_match_and_a_quick_second_one_waits_for_a_key(monkeypatch, capsys):
    sim = Sim("pico_display_pack", seed=3)
    memory = bytearray(256)
    board = Board(monkeypatch, sim, memory)

    def crash_in_a_match(app):
        play_a_little(app, sim, 3)
        assert app.name == "continue"
        raise RuntimeError("boom")

    lines = board.run(monkeypatch, crash_in_a_match)
    assert lines == ["RuntimeError: boom", "Restarting..."]
    assert "RuntimeError: boom" in capsys.readouterr().err      # the traceback, for the console
    assert board.reloads == 1 and board.slept >= restart.SHOW and memory[0] == restart.RESUME
    saved = bytes(sim.nvm)

    # the restart: straight into the saved match, and the byte is spent
    board.reloads = 0
    board.on_sleep = lambda: sim.events.items or sim.key("ok")     # someone presses a key
    lines = board.run(monkeypatch, boom)
    app = board.app
    assert app.screen is not None and hasattr(app.screen, "match") and bytes(sim.nvm) == saved
    # ... it failed before its first key: no restart until a key, then into the title
    assert lines == ["RuntimeError: boom", "Press a key to restart"]
    assert board.reloads == 1 and memory[0] == restart.TITLE
    assert board.slept > 0

    board.reloads = 0
    title = []
    lines = board.run(monkeypatch, lambda app: title.append(app.name) or boom(app))
    assert title == ["title"] and memory[0] == restart.TITLE       # (failed again at once)


def test_no_room_even_for_the_message_restarts_into_the_title(monkeypatch):
    """The screen's heap goes before the message is made; if the message still finds no
    room, the board restarts at once (into the title: no reload loop)."""
    sim = Sim("pico_display_pack", seed=3)
    memory = bytearray(256)
    board = Board(monkeypatch, sim, memory)
    trees = []

    def starved(*args):
        trees.append(sim.display.root_group)
        raise MemoryError()

    import traceback
    monkeypatch.setattr(traceback, "print_exception", starved)    # (crashed's first step)
    monkeypatch.setattr(sixtysix.app.App, "run", lambda app, sleep: boom(app))
    with pytest.raises(Reloaded):
        exec(compile((FIRMWARE / "code.py").read_text(), "code.py", "exec"), {"__name__": "__main__"})
    assert trees == [None] and board.reloads == 1 and memory[0] == 0


def test_the_second_error_waits_for_a_key_with_the_backlight_off_after_a_minute(monkeypatch):
    sim = Sim("pico_display_pack", seed=3)
    memory = bytearray(256)
    memory[0] = restart.RESUME
    board = Board(monkeypatch, sim, memory)
    sim.key("ok")                       # pressed before the error: not the answer

    def press_later():
        if board.slept > restart.WAIT_LIT + 5 and not sim.events.items:
            assert sim.display.brightness == 0.0
            sim.key("ok")

    board.on_sleep = press_later
    lines = board.run(monkeypatch, boom)
    assert lines[-1] == "Press a key to restart" and board.reloads == 1
    assert board.slept > restart.WAIT_LIT and memory[0] == restart.TITLE


def test_an_error_after_a_key_in_a_restart_restarts_again(monkeypatch):
    sim = Sim("pico_display_pack", seed=3)
    memory = bytearray(256)
    memory[0] = restart.TITLE
    board = Board(monkeypatch, sim, memory)

    def after_a_key(app):
        play_a_little(app, sim, 1)
        assert app.pressed
        raise ValueError("bad")

    assert board.run(monkeypatch, after_a_key) == ["ValueError: bad", "Restarting..."]
    assert memory[0] == restart.RESUME


def test_ctrl_c_and_reloads_still_end_the_program(monkeypatch):
    sim = Sim("pico_display_pack", seed=3)
    board = Board(monkeypatch, sim, bytearray(256))

    def interrupted(app):
        raise KeyboardInterrupt()       # (tools.deploy stops the game this way)

    monkeypatch.setattr(sixtysix.app.App, "run", lambda app, sleep: interrupted(app))
    with pytest.raises(KeyboardInterrupt):
        exec(compile((FIRMWARE / "code.py").read_text(), "code.py", "exec"), {"__name__": "__main__"})
    assert board.reloads == 0


def test_a_restart_without_a_saved_match_opens_the_title():
    sim = Sim("pico_display_pack", seed=3)
    memory = bytearray(256)
    memory[0] = restart.RESUME
    assert restart.spend(memory) == restart.RESUME and memory[0] == 0
    assert restart.spend(memory) == 0
    memory[0] = 0x33                    # RAM after a power-on that the guard missed
    assert restart.spend(memory) == 0 and memory[0] == 0
    app = sixtysix.app.App(sim.display, sim.events, sim.roles, sim.nvm, sim.clock,
                           assets=str(FIRMWARE / "assets"), resume=True)
    assert app.name == "title"


def test_a_memory_error_while_a_screen_loads_is_tried_once_more_then_the_title_says_so(monkeypatch):
    from sixtysix.screens import settings
    sim = Sim("pico_display_pack", seed=3)
    sim.boot()
    sim.settle()
    real = settings.SettingsScreen.__init__
    fails = [1]

    def starved(screen, app):
        if fails[0]:
            fails[0] -= 1
            raise MemoryError("memory allocation failed")
        real(screen, app)

    monkeypatch.setattr(settings.SettingsScreen, "__init__", starved)
    sim.app.go("settings")              # fails once, then opens
    sim.settle()
    assert sim.app.name == "settings" and type(sim.app.screen).__name__ == "SettingsScreen"
    sim.press("menu")                   # back to the title, which forgets the settings' module
    assert sim.app.name == "title"
    from sixtysix.screens import settings     # (so this one is the one Settings will use)
    monkeypatch.setattr(settings.SettingsScreen, "__init__", starved)

    fails[0] = 2                        # fails twice: the title, which says so
    sim.app.go("settings")
    sim.settle()
    assert sim.app.name == "title" and sim.app.retry is None
    assert any("Not enough memory" in line for line in shown_text(sim.app.screen.group))
