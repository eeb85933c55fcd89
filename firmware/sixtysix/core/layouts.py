"""Where everything goes: one description per screen size.

Every screen reads its places from the layout of the display's size; no screen asks
how wide the display is. A description is a dict of plain numbers (x, y in pixels;
card places are the top-left corner of a card):

  card, sheet      card size and the sprite sheet drawn at that size (assets/SHEET.bmp)
  frames           (a flight, a dealt packet): frames a card takes across the table; fewer
                   where cards are bigger (each frame of them costs more to draw)
  battery, title_battery   (x, y, w, h) kept free for a battery symbol on the table
                   and on the title
  heading          (x, y, scale) of a screen's title text; body_y: where the text under it starts
  fan              (x, y, dx, dy): the title's fan of four cards
  menu             (x, y, width, row height): the title menu
  notice           (x, y, characters a line): where the title says what went wrong (three
                   lines at most)
  settings_row, settings_hint   row height of the settings list; (x, y) of its key hint
                   (the list's Back line is left out where it would not fit above the
                   hint: the menu key goes back)
  box              (largest width, lift): dialog boxes over the table
  hand_y, raise_px, stride, hand_x   the hand: its row, how far the chosen card rises,
                   card spacing, (left, right) limits it is centred in
  trump, talon, talon_text, cpu_trick, my_trick   the two-handed table
  cpu_from         where the computer's cards come from (its hand of backs, if shown)
  cpu_hand         (x, y, dx) of the computer's backs, or None (not shown)
  panel, panel_chars    score lines (five); msg, msg_chars: the message line
  places           {3: ..., 4: ...}: trick places by seat place (bottom, left, top,
                   right; None for a seat that never plays) in the family games
  piles            {place: (x, y)}: each player's won tricks as a face-down pile (a second
                   back 3 pixels further once there are two tricks), or None (tricks fly
                   off the screen towards the winner)
  last             (x, y, dx, dy, label x, label y): the last trick, face up, or None

Two-handed deals use piles and the last trick; the family games fly tricks off screen.
Each description is built by a function, so only the screen's own takes heap.
"""

def compact():
    """Pico Display Pack and the loose 1.14" module: everything in one landscape strip."""
    return {
        "card": (32, 44), "sheet": "cards", "frames": (5, 4), "battery": (152, 2, 30, 10),
        "heading": (8, 3, 2), "body_y": 27, "fan": (140, 13, 18, 3), "menu": (6, 40, 110, 15),
        "notice": (124, 64, 19),        # under the fan: the menu fills the left to the bottom
        "title_battery": (214, 1, 24, 10), "settings_row": 12, "box": (216, 0),
        "settings_hint": (106, 10),     # beside the heading: nine lines fill the rest
        "hand_y": 89, "raise_px": 6, "stride": 34, "hand_x": (2, 238),
        "trump": (3, 18), "talon": (21, 14), "talon_text": (2, 2),
        "cpu_trick": (76, 4), "my_trick": (112, 14), "cpu_from": (104, -44), "cpu_hand": None,
        "panel": (152, 2), "panel_chars": 14, "msg": (2, 70), "msg_chars": 39,
        # a tilted diamond: no card ever covers another's corner index
        "places": {3: ((86, 24), (54, 2), None, (118, 2)),
                   4: ((80, 26), (10, 14), (50, 0), (116, 14))},
        "piles": None, "last": None,
    }

def square():
    """Waveshare Pico-LCD-1.3, PicoSystem: the computer's hand shown as backs at the top."""
    return {
        "card": (32, 44), "sheet": "cards", "frames": (5, 4), "battery": (150, 8, 30, 10),
        "heading": (8, 3, 2), "body_y": 27, "fan": (140, 48, 18, 3), "menu": (6, 64, 110, 15),
        "notice": (4, 202, 39),
        "title_battery": (214, 1, 24, 10), "settings_row": 18, "box": (216, 10),
        "settings_hint": (6, 227),
        "hand_y": 188, "raise_px": 8, "stride": 38, "hand_x": (2, 238),
        "trump": (10, 90), "talon": (30, 86), "talon_text": (10, 138),
        "cpu_trick": (96, 78), "my_trick": (138, 96), "cpu_from": (40, 8), "cpu_hand": (6, 8, 20),
        "panel": (150, 8), "panel_chars": 14, "msg": (4, 160), "msg_chars": 39,
        "places": {3: ((112, 110), (80, 70), None, (144, 70)),
                   4: ((104, 112), (60, 86), (104, 60), (148, 86))},
        "piles": None, "last": None,
    }

def wide():
    """PicoPad, uGame 22: larger cards, both trick piles and the last trick beside the play."""
    return {
        "card": (40, 56), "sheet": "cards-large", "frames": (2, 3), "battery": (290, 2, 26, 10),
        "heading": (10, 6, 3), "body_y": 48, "fan": (196, 54, 22, 4), "menu": (10, 72, 150, 18),
        "notice": (4, 202, 52),
        "title_battery": (290, 2, 26, 10), "settings_row": 18, "box": (260, 10),
        "settings_hint": (6, 227),
        "hand_y": 178, "raise_px": 8, "stride": 44, "hand_x": (56, 318),
        "trump": (6, 86), "talon": (28, 82), "talon_text": (6, 144),
        "cpu_trick": (118, 70), "my_trick": (166, 90), "cpu_from": (44, 4), "cpu_hand": (4, 4, 20),
        "panel": (204, 16), "panel_chars": 19, "msg": (4, 158), "msg_chars": 37,
        # a tilted diamond, as on the small screens: no card covers another's index
        "places": {3: ((130, 100), (92, 70), None, (164, 70)),
                   4: ((130, 100), (84, 74), (130, 40), (170, 78))},
        "piles": {0: (4, 178), 2: (154, 4)},
        "last": (232, 94, 22, 8, 226, 80),
    }

LAYOUTS = {(240, 135): compact, (240, 240): square, (320, 240): wide}


def for_screen(width, height):
    """The description for a width x height screen: its own, else the largest that fits."""
    best = None
    for (w, h), make in LAYOUTS.items():
        if w <= width and h <= height and (best is None or w * h > best[0]):
            best = (w * h, make)
    if best is None:
        raise ValueError("no layout fits a %dx%d screen" % (width, height))
    return best[1]()
