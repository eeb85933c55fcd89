"""Learn to play (firmware/sixtysix/screens/lesson.py): the whole lesson played by the buttons in
the simulator on boards of every size (two buttons too), its boxes read off the screen,
a wrong move at each step explained and tried again, and its deal a legal game record
that tools.replay replays (host_tests/records/std_lesson.json).
"""
import json
import subprocess
import sys

import pytest

from tools.sim import Sim, Driver, ROOT, setup_paths

setup_paths()

RECORD_FILE = ROOT / "host_tests" / "records" / "std_lesson.json"
# The titles of the lesson's boxes, in order (lessondeal.STEPS' titles and END, after the
# deal's result); a box too long for the screen goes on in a box of the same title
TITLES = ["Your lead", "The computer won", "Following", "A marriage", "The trump 9", "Closing",
          "The talon is closed", "Follow and beat", "Your lead", "No spades: trump", "Declaring",
          "You win the deal", "What a deal scores"]


def boot(profile):
    sim = Sim(profile)
    sim.boot()
    sim.settle()
    if sim.app.name == "keys":          # a new two-button board: its buttons first
        sim.press("ok")
    return sim


def to_lesson(sim):
    """Title > Rules > Learn to play, by the buttons."""
    title = sim.app.screen
    while title.names[title.menu.index] != "rules":
        sim.press("right")
    sim.press("ok")
    assert sim.app.screen.menu.items[0] == "Learn to play"
    sim.press("ok")
    assert type(sim.app.screen).__name__ == "Lesson"
    return sim.app.screen


def box(sim):
    """(title, text) of the box on the table, read from its text layers (a label's tiles
    are its characters), every layer checked to be on the screen."""
    from sixtysix.core import ui
    g = sim.app.screen
    font = ui._font[0]
    rows = []

    def walk(group, x0, y0):
        for i in range(len(group)):
            item = group[i]
            if hasattr(item, "pixel_shader") and getattr(item, "bitmap", None) is font:
                assert 0 <= y0 + item.y and y0 + item.y + ui.LINE_H <= sim.height, "a line off the screen"
                text = "".join(chr(item[k] + 32) for k in range(item.width)).rstrip()
                rows.append((y0 + item.y, x0 + item.x, text))
            elif hasattr(item, "__len__"):
                walk(item, x0 + item.x, y0 + item.y)
    walk(g.overlay[0], 0, 0)
    lines = [t for _, _, t in sorted(rows)]
    return lines[0], " ".join(lines[1:-1])          # the title, the text (not the menu's OK)


def the_move(sim, g):
    """Make the script's next move of the person by the buttons: the raised card, or the
    action menu's line."""
    from shared_rules.actions import MARRY, EXCHANGE, CLOSE, DECLARE
    from shared_rules import cards
    a = g.script[g.at][1]
    if a < MARRY:
        assert g.hand()[g.cursor] == a, "the lesson raises the card to play"
        sim.press("ok")
    else:
        line = {EXCHANGE: "Exchange", CLOSE: "Close", DECLARE: "Declare"}.get(a)
        Driver(sim, None).menu_pick(line or "Marry " + cards.SUIT_WORDS[(a & 31) >> 3])


@pytest.mark.parametrize("profile", ["pico_display_pack", "lilygo_t_display_rp2040", "pimoroni_picosystem",
                                     "pajenicko_picopad"])
def test_the_whole_lesson_by_the_buttons(profile):
    """Every box in order, each saying its rules in the rules screen's words and the
    move in the hint's; each move changes the picture; the deal ends as its record does;
    then the Rules menu, with the lesson's modules forgotten and the save untouched."""
    from sixtysix.screens import rulestext
    from sixtysix.screens.lessondeal import STEPS, END
    sim = boot(profile)
    saved = bytes(sim.nvm[0:4096])
    g = to_lesson(sim)
    sim.settle()
    titles = []
    said = ""
    rules = [n for step in STEPS if step for n in step[1]] + list(END[1])
    for _ in range(200):
        g = sim.app.screen
        if type(g).__name__ != "Lesson":
            break
        if g.overlay is not None:
            title, text = box(sim)
            if not titles or titles[-1] != title:
                titles.append(title)
            said += " " + text
            sim.press("ok")
            continue
        before = sim.pixels().copy()
        log = len(g.match.deal.log)
        the_move(sim, g)
        assert len(g.match.deal.log) > log
        after = sim.pixels()
        changed = sum(1 for x in range(0, sim.width, 2) for y in range(0, sim.height, 2)
                      if before.get_at((x, y)) != after.get_at((x, y)))
        assert changed > 100, "the move did not change the picture"
    assert titles == TITLES
    said = " ".join(said.split())
    for name in rules:
        assert getattr(rulestext, name) in said, name
    for hint in ("Lead the J of spades: a cheap card", "Lead the K of diamonds and meld 20",
                 "Exchange the 9 of hearts for the 10 of hearts", "Close the talon: your sure tricks",
                 "Trump the 10 of spades with the A of hearts for 21 points", "Declare: you have 66 points"):
        assert hint in said, hint
    assert sim.app.name == "rules" and sim.app.screen.menu.items[0] == "Learn to play"
    assert not {"sixtysix.screens.lesson", "sixtysix.screens.lessondeal", "shared_rules.ai.hints"} & set(sys.modules)
    assert bytes(sim.nvm[0:4096]) == saved, "the lesson saves nothing"


def test_a_wrong_move_at_each_step_is_explained_and_tried_again():
    """At each of the person's steps: another card (where the keys reach one), the menu's
    Declare 66 (short of 66: the wrong declaration's rule) or a move the rules refuse (the
    engine's words) gives a "Try again" box with the rule; nothing is played, the card to
    play is raised again, and the right move then goes on."""
    from shared_rules.actions import DECLARE, MARRY
    from sixtysix.screens import rulestext
    from sixtysix.screens.lessondeal import STEPS
    sim = boot("pico_display_pack")
    g = to_lesson(sim)
    sim.settle()
    tried = 0
    for _ in range(300):
        g = sim.app.screen
        if type(g).__name__ != "Lesson" or g.match.deal.ended:
            break
        if g.overlay is not None:
            sim.press("ok")
            continue
        d = g.match.deal
        want = g.script[g.at][1]
        state = (list(d.hands), len(d.log), g.at)
        hand = g.hand()
        names = STEPS[g.at][1]
        if want == DECLARE:
            sim.press("ok")                                 # a card instead of declaring
        elif want < MARRY and d.legal_plays() != 1 << want:
            sim.press("right")                              # another card
            sim.press("ok")
        elif d.lead < 0:
            Driver(sim, None).menu_pick("Declare")          # short of 66
            names = ("WRONG",)
        else:                                               # the only card: the engine refuses another
            other = [c for c in hand if c != want][0]
            g.act(other, g.me())
            sim.settle()
            title, text = box(sim)
            assert text.startswith("You must beat the Q of clubs: you hold the K of clubs.")
        title, text = box(sim)
        text = " ".join(text.split())
        while True:                                         # (a long box goes on in the next)
            assert title == "Try again"
            sim.press("ok")
            if sim.app.screen.overlay is None:
                break
            text += " " + box(sim)[1]
        for name in names:
            assert rulestext.say((name,)) in " ".join(text.split()), (name, text)
        assert (list(d.hands), len(d.log), g.at) == state, "the wrong move changed the deal"
        if want < MARRY:
            assert g.hand()[g.cursor] == want, "the card to play is raised again"
        the_move(sim, g)
        tried += 1
    assert tried == 10 and g.match.deal.result[2] == "declared"


def test_the_lessons_deal_is_its_test_record_and_replays():
    """host_tests/records/std_lesson.json holds the lesson's own record; tools.replay
    replays it as a legal deal of the standard rules to the lesson's end."""
    from sixtysix.screens.lessondeal import RECORD, STEPS
    doc = json.loads(RECORD_FILE.read_text())
    assert doc["record"] == RECORD
    assert len(STEPS) == len(RECORD["actions"])
    run = subprocess.run([sys.executable, "-m", "tools.replay", str(RECORD_FILE)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    out = json.loads(run.stdout)
    assert out["status"] == "ended" and out["reason"] == "declared" and out["points"][0] >= 66


@pytest.mark.parametrize("profile", ["lilygo_t_display_rp2040", "pico_display_pack"])
def test_a_new_device_offers_the_lesson_on_its_title_once(profile):
    """The first start's title says where the lesson is, and the save keeps that the
    device was started (with or without the two-button board's keys page): a second
    start, with nothing else saved, does not say it again."""
    from sixtysix.app import OFFER
    sim = boot(profile)
    assert sim.app.screen.notice_text == OFFER
    sim.power_cut()
    sim.boot()
    sim.settle()
    assert sim.app.name == "title" and sim.app.screen.notice_text == ""
