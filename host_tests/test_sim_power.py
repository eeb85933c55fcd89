"""Power on the device, in the simulator: the backlight dims and turns off when nobody
presses a key, a key only wakes it, deep sleep saves and a button wakes the device on
the same screen, the battery symbol and the low-battery warning. Checked on screenshots
(what the player sees through the backlight)."""
import pygame
import pytest

from tools.sim import Sim, SimPower, Driver, first_legal, setup_paths

setup_paths()       # firmware/ on sys.path, as on the board
from sixtysix.core import device as device_mod  # noqa: E402
from sixtysix.save.settings import CHOICES  # noqa: E402

SCREEN_OFF = [c[0] for c in CHOICES].index("screen")
SLEEP = [c[0] for c in CHOICES].index("sleep")


def brightness_of(surface):
    """Mean brightness of what the player sees, 0-255."""
    w, h = surface.get_size()
    total = 0
    for x in range(0, w, 4):
        for y in range(0, h, 4):
            c = surface.get_at((x, y))
            total += (c.r + c.g + c.b) / 3
    return total / ((w // 4) * (h // 4))


def test_the_backlight_dims_then_turns_off_and_a_key_only_wakes_it(tmp_path):
    sim = Sim("pico_display_pack")
    sim.boot()
    sim.settle()
    full = brightness_of(sim.seen())
    sim.wait(29000)
    assert sim.display.brightness == 1.0
    sim.wait(2000)                              # 31 s without a key: dimmed
    assert sim.display.brightness == pytest.approx(device_mod.DIM)
    sim.shot(tmp_path / "dimmed.png")
    dimmed = brightness_of(pygame.image.load(str(tmp_path / "dimmed.png")))
    assert dimmed < full * 0.2
    sim.wait(90000)                             # 2 minutes: off
    assert sim.display.brightness == 0.0
    sim.shot(tmp_path / "off.png")
    assert brightness_of(pygame.image.load(str(tmp_path / "off.png"))) == 0
    menu = sim.app.screen.menu
    chosen = menu.index
    sim.press("right")                          # wakes the screen, does nothing else
    assert sim.display.brightness == 1.0 and menu.index == chosen
    sim.shot(tmp_path / "awake.png")
    assert brightness_of(pygame.image.load(str(tmp_path / "awake.png"))) == pytest.approx(full)
    sim.press("right")                          # now the key works again
    assert menu.index == chosen + 1


def test_screen_off_never_keeps_the_light_on():
    sim = Sim("pico_display_pack")
    sim.boot()
    sim.settle()
    sim.app.device.settings.index[SCREEN_OFF] = CHOICES[SCREEN_OFF][2].index("never")
    sim.app.device.settings.index[SLEEP] = CHOICES[SLEEP][2].index("never")
    sim.wait(6 * 60 * 1000)
    assert sim.display.brightness == 1.0 and not sim.asleep


def test_moving_cards_count_as_activity():
    """While cards move (a deal the player only watches, the computer's moves) the
    screen does not dim, however long ago the last key was."""
    sim = Sim("pico_display_pack")
    sim.boot()
    sim.settle()
    app = sim.app
    app.active = -1000.0                        # long ago
    app.open("new")
    while app.wipe is not None:                 # the table built
        sim.step()
    sim.step()
    assert app.screen.busy()                    # dealing the cards
    while app.screen.busy():
        sim.step()
        assert app.device.lit == device_mod.LIT


def play_a_little(sim, moves=3):
    sim.press("ok")                             # New match
    driver = Driver(sim, first_legal)
    for _ in range(moves):
        driver.act()
    g = sim.app.screen
    return g.match.to_dict()


def test_deep_sleep_saves_and_the_button_wakes_it_on_the_same_table(tmp_path):
    sim = Sim("pico_display_pack", seed=7)
    sim.boot()
    sim.settle()
    sim.app.device.settings.index[SLEEP] = CHOICES[SLEEP][2].index("5 min")
    sim.app.device.settings.save(sim.app.device.store)
    before = play_a_little(sim)
    sim.shot(tmp_path / "table.png")
    table = pygame.image.load(str(tmp_path / "table.png"))
    sim.wait(4 * 60 * 1000)
    assert sim.display.brightness == 0.0 and not sim.asleep    # screen off after 2 min
    sim.wait(61 * 1000)
    assert sim.asleep and sim.app is None                      # 5 min: deep sleep
    sim.shot(tmp_path / "asleep.png")
    assert brightness_of(pygame.image.load(str(tmp_path / "asleep.png"))) == 0
    sim.press("ok")                                            # the wake button
    assert not sim.asleep and sim.power.woke
    g = sim.app.screen
    assert hasattr(g, "match") and g.match.to_dict() == before  # the press played nothing
    sim.shot(tmp_path / "woken.png")
    woken = pygame.image.load(str(tmp_path / "woken.png"))
    assert brightness_of(woken) > 40
    # the same table: talon, trick, scores (the hand's cursor may start on another card)
    assert all(table.get_at((x, y)) == woken.get_at((x, y)) for x in range(240) for y in range(0, 68))
    sim.press("ok")                                            # and now it plays
    assert g.match.to_dict() != before


def test_deep_sleep_on_the_settings_screen_keeps_the_change():
    sim = Sim("pico_display_pack")
    sim.boot()
    sim.settle()
    sim.app.device.settings.index[SLEEP] = CHOICES[SLEEP][2].index("5 min")
    sim.press("right")
    sim.press("ok")                             # Settings
    sim.press("ok")                             # Rules: standard -> hoyle (not saved yet)
    sim.wait(5 * 60 * 1000 + 500)
    assert sim.asleep
    sim.press("menu")
    assert type(sim.app.screen).__name__ == "SettingsScreen"
    assert sim.app.device.settings.get("rules") == "hoyle"


def test_without_deep_sleep_the_backlight_stays_off():
    sim = Sim("pico_display_pack", power=SimPower(can_sleep=False))
    sim.boot()
    sim.settle()
    sim.app.device.settings.index[SLEEP] = CHOICES[SLEEP][2].index("5 min")
    sim.wait(6 * 60 * 1000)
    assert not sim.asleep and sim.display.brightness == 0.0
    sim.press("left")
    assert sim.display.brightness == 1.0


def gauge_pixels(surface, x0, y0, colour):
    """Pixels of a colour in the battery symbol's box."""
    return sum(1 for x in range(x0, x0 + 14) for y in range(y0, y0 + 7)
               if abs(surface.get_at((x, y)).g - colour[1]) < 40
               and abs(surface.get_at((x, y)).r - colour[0]) < 40)


def gauge_at(sim, box):
    """The battery symbol's top-left corner, which must lie in the layout's box for it."""
    fill = sim.app.device.battery.gauge.fill
    x, y = fill.x - 1, fill.y - 1
    bx, by, bw, bh = box
    assert bx <= x and x + 14 <= bx + bw and by <= y and y + 7 <= by + bh
    return x, y


def test_battery_symbol_and_low_battery_warning(tmp_path):
    power = SimPower(charge=0.8)
    sim = Sim("pico_display_pack", power=power)
    sim.boot()
    sim.settle()
    sim.step()
    sim.shot(tmp_path / "title.png")
    title = pygame.image.load(str(tmp_path / "title.png"))
    green, red = (0x50, 0xE0), (0xFF, 0x60)
    x, y = gauge_at(sim, sim.app.device.layout.title_battery)
    assert gauge_pixels(title, x, y, green) >= 20
    power.charge = 0.05
    sim.wait(11000)
    assert sim.app.screen.notice_text == "Battery low: the match is saved"
    sim.shot(tmp_path / "low.png")
    low = pygame.image.load(str(tmp_path / "low.png"))
    x, y = gauge_at(sim, sim.app.device.layout.title_battery)
    assert gauge_pixels(low, x, y, red) >= 2 and gauge_pixels(low, x, y, green) == 0
    power.charge = 0.5                          # charged: the warning may come again
    sim.wait(11000)
    play_a_little(sim, 1)
    g = sim.app.screen
    x, y = gauge_at(sim, g.lay.battery)
    assert gauge_pixels(sim.seen(), x, y, green) >= 10
    power.charge = 0.02
    sim.wait(11000)
    assert g.overlay is not None and g.overlay[1].items == ["OK"]       # the warning box
    sim.shot(tmp_path / "table-low.png")


def test_no_battery_sense_no_symbol():
    sim = Sim("pico_display_pack", power=SimPower(charge=None))
    sim.boot()
    sim.settle()
    assert sim.app.device.battery is None
    s = sim.seen()
    assert gauge_pixels(s, 222, 2, (0x50, 0xE0)) == 0
