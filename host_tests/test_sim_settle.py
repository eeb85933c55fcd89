"""What "the device waits for the player" means to the simulator (Sim.idle, Sim.settle, a
keys file's presses): the screen is finished, nothing is left to draw. The firmware draws
much over several frames (a screen coming and going a few layers a frame, a text page a
few lines a frame, a menu's bar in two frames, a box, the cards): a picture taken as soon
as the simulator settles is the one the player sees once the device has stopped drawing.
"""
import pygame
import pytest

from tools.sim import Sim

LATER = 1000        # ms: far longer than anything takes to draw after a key


def picture(sim):
    """The panel's pixels (whatever the backlight), as bytes."""
    return pygame.image.tostring(sim.pixels(), "RGB")


def same(a, b):
    """Pixel-identical (bytes compared here: pytest's diff of two screens is slow)."""
    return a == b


@pytest.mark.parametrize("profile", ["pico_display_pack", "pajenicko_picopad"])
def test_a_shot_after_a_page_turn_shows_the_whole_page(tmp_path, profile):
    """Title > Rules > Read the rules, its pages turned onwards and back in a keys file:
    each shot right after the key is the shot after a long wait (the page came a few
    lines a frame; the shot showed the new page's first lines over the old page's)."""
    sim = Sim(profile, seed=3)
    sim.boot()
    sim.settle()
    lines = ["right 3", "ok", "right", "ok"]       # Rules, Read the rules
    turns = ["right"] * 5 + ["left"] * 2
    for i, key in enumerate(turns):
        lines += [key, "shot now%d" % i, "wait %d" % LATER, "shot later%d" % i]
    sim.run_script(lines, tmp_path)
    assert sim.app.name == "rulepages" and sim.app.screen.page == 3
    for i in range(len(turns)):
        now = pygame.image.load(str(tmp_path / ("now%d.png" % i)))
        later = pygame.image.load(str(tmp_path / ("later%d.png" % i)))
        assert same(pygame.image.tostring(now, "RGB"), pygame.image.tostring(later, "RGB")), \
            "page turn %d (%s): the shot is not the whole page" % (i, turns[i])


# Tours of the screens, each from a fresh start; a press is (role, times), a title's
# choice is its name.
TOURS = [
    ["settings", ("ok", 1), ("right", 2), ("menu", 1),          # Settings, its bar moved
     "stats", ("ok", 1), ("menu", 1),                            # Statistics
     "rules", ("ok", 1), ("right", 1), ("ok", 1), ("right", 3), ("menu", 1)],   # the rules' pages
    ["rules", ("ok", 1), ("ok", 1), ("ok", 3),                   # Learn to play: its boxes
     ("menu", 2)],                                               # its action menu, opened and closed
    ["new", ("ok", 1), ("right", 2), ("menu", 1), ("right", 1),  # a match: the cursor, the action menu
     ("menu", 1), ("ok", 2)],                                    # cards played, the computer's answers
]


@pytest.mark.parametrize("profile", ["pico_display_pack", "pajenicko_picopad", "lilygo_t_display_rp2040"])
def test_every_screen_is_finished_when_the_simulator_settles(profile):
    """The title's menu, Settings, Statistics, the rules menu and pages, the lesson's
    boxes and action menu, a match, through the board's own buttons: after every press
    the picture is the one a long wait later (on the two-button board a key answers when
    let go, and a menu's bar came to its new line a frame after the press was over)."""
    for tour in TOURS:
        sim = Sim(profile, seed=3)
        sim.boot()
        sim.settle()
        if sim.app.name == "keys":                  # a two-button board's first start
            sim.press("ok")
        for step in tour:
            role, times = ("right", sim.app.screen.names.index(step)) if isinstance(step, str) else step
            for _ in range(times):
                sim.press(role)
                now = picture(sim)
                sim.wait(LATER)
                assert same(picture(sim), now), \
                    "%s, after %s: the screen was not finished" % (sim.app.name, role)
