"""Small drawing helpers on top of displayio: colours, text, boxes, a list widget, and
the frame budget that keeps every refresh short.

Text is a TileGrid over the font sheet (assets/font.bmp, made by tools/sprites.py
from Terminus 12, the font of terminalio), kept in RAM (1 KB): a label costs one byte
per character and changing it allocates nothing. (adafruit_display_text's bitmap_label
was measured at ~30 KB of heap just to import; see the report.)
"""
import displayio
import vectorio
import sixtysix
from sixtysix.core import bmp

FELT = 0x0B5D2A
FELT_DARK = 0x073D1B
WHITE = 0xFFFFFF
SOFT = 0xA8D5B4
GOLD = 0xFFD23F
INK = 0x101018
RED = 0xFF6060
GREEN = 0x50E070

# What one refresh may cost the board, and what a redrawn pixel costs it (displayio
# composing it, plus its share of the SPI transfer; tools/devicecost.py, fitted to the
# real firmware's refreshes): ~7 us from a sheet (a card, text), ~3 us from a plain shape
# (the felt, a box), both for text over a colour. 40 ms leaves a 50 ms frame room for Python.
# Those figures send pixels at SPI_KHZ; table.Layout fits the budget to a slower display.
FRAME = 40000
SPI_KHZ = 62500
FRAME_US = FRAME
TILE_US = 7
SHAPE_US = 3

CHAR_W = 6
LINE_H = 12
HEADING_CHARS = 3     # characters in a piece of a heading (ui.heading)
PARK = 4096          # how far a new shape waits off the screen (rect, arrive)
SUITS = "\x7f\x80\x81\x82"    # clubs, spades, hearts, diamonds on the font sheet
_font = []

_palettes = {}


def palette(color):
    """A one-colour palette, shared per colour."""
    p = _palettes.get(color)
    if p is None:
        p = displayio.Palette(1)
        p[0] = color
        _palettes[color] = p
    return p


_inks = {}


def ink(color):
    """A text palette (0 see-through, 1 `color`), shared per colour: one a label was two
    more heap allocations a label (the palette and its colours), and a box and the table
    hold a few dozen labels."""
    p = _inks.get(color)
    if p is None:
        p = displayio.Palette(2)
        p[0] = 0
        p.make_transparent(0)
        p[1] = color
        _inks[color] = p
    return p


def rect(x, y, w, h, color):
    """A filled rectangle, parked PARK up and left of its place until it arrives (arrive)."""
    return vectorio.Rectangle(pixel_shader=palette(color), x=x - PARK, y=y - PARK, width=w, height=h)


def arrive(part):
    """Bring the parked shapes of part (a layer or a group) to their places, once part is
    where it will be drawn. CircuitPython's vectorio redraws, at a shape's first refresh,
    every area it had since it was made: made in place, that is where it was before its
    group's position and the display's rotation applied (often a rectangle from the
    screen's corner across most of it: a 30,000-pixel refresh for a box's band). Parked,
    every such area lies off the screen on the same side, so only its place is drawn."""
    if isinstance(part, displayio.Group):
        for i in range(len(part)):
            arrive(part[i])
    elif not isinstance(part, displayio.TileGrid) and part.x < -PARK // 2:
        part.location = (part.x + PARK, part.y + PARK)     # (x and y at once: one area)


def outline(x, y, w, h, color):
    """A rectangle's one-pixel outline, corners left out (a softened card outline)."""
    g = displayio.Group()
    g.append(rect(x + 1, y, w - 2, 1, color))
    g.append(rect(x + 1, y + h - 1, w - 2, 1, color))
    g.append(rect(x, y + 1, 1, h - 2, color))
    g.append(rect(x + w - 1, y + 1, 1, h - 2, color))
    return g


def backdrop(width, height, title):
    """The felt and the title's heading where the screen's layout puts it: code.py's
    splash at power-on, which the title then draws over in the same place."""
    from sixtysix.core import layouts
    x, y, scale = layouts.for_screen(width, height)["heading"]
    sixtysix.forget("sixtysix.core", "layouts")
    g = displayio.Group()
    g.append(rect(0, 0, width, height, FELT))
    g.append(heading(title, x, y, scale))
    arrive(g)
    return g


def screen(layout, title):
    """A menu screen's group (over the app's felt) with its heading."""
    g = displayio.Group()
    x, y, scale = layout.heading
    g.append(heading(title, x, y, scale))
    return g


def heading(s, x, y, scale):
    """A screen's title, big: a group of pieces of a few characters, so a screen coming
    a few layers a frame (Show) draws it over more than one frame where it is large."""
    g = displayio.Group()
    n = HEADING_CHARS
    for i in range(0, len(s), n):
        g.append(Label(s[i:i + n], x + i * CHAR_W * scale, y, GOLD, scale).view)
    return g


def load_font(path):
    if not _font:
        _font.append(bmp.load(path, False)[0])


class Label:
    """A line of text of a fixed capacity; `view` goes into a Group."""

    def __init__(self, s, x, y, color=WHITE, scale=1, chars=0):
        self.chars = n = max(chars, len(s), 1)
        self.tiles = displayio.TileGrid(_font[0], pixel_shader=ink(color), width=n, height=1,
                                        tile_width=CHAR_W, tile_height=LINE_H, default_tile=0)
        if scale > 1:
            self.view = displayio.Group(scale=scale, x=x, y=y)
            self.view.append(self.tiles)
        else:
            self.tiles.x = x
            self.tiles.y = y
            self.view = self.tiles
        self.text = ""
        self.set(s)

    def recolor(self, color):
        """Its text in `color` (redrawn only if that changes it)."""
        p = ink(color)
        if self.tiles.pixel_shader is not p:
            self.tiles.pixel_shader = p

    def set(self, s):
        if s == self.text:
            return
        self.text = s
        t = self.tiles
        for i in range(self.chars):
            c = ord(s[i]) - 32 if i < len(s) else 0
            if c < 0 or c > 98:
                c = 31    # "?"
            if t[i] != c:
                t[i] = c


def text_us(old, new):
    """What changing a line of text from `old` to `new` costs the board to redraw (us):
    its tiles up to the longer of the two, over the colour beneath (as drawn() prices it)."""
    return max(len(old), len(new)) * CHAR_W * LINE_H * (TILE_US + SHAPE_US)


def fit(s, chars):
    return s if len(s) <= chars else s[:chars - 1] + "."


def wrap(s, chars):
    """Break text into lines of at most `chars` characters at spaces."""
    lines = []
    for para in s.split("\n"):
        line = ""
        for word in para.split(" "):
            if line and len(line) + 1 + len(word) > chars:
                lines.append(line)
                line = word
            else:
                line = word if not line else line + " " + word
        lines.append(line)
    return lines


class ListWidget:
    """A vertical menu: a highlight bar moves behind the chosen line.

    A line's label is only as wide as its longest text (`longest`, default the items
    themselves): recolouring a label redraws all of it. The bar moves in two frames
    (`step()` in the next one: called from `later`, the game's queue of what comes
    before the next key, Game.wipes, for a box's menu over the table; else by `handle`
    in a frame without a key): in one, a move on 320x240 drew 59-63 ms."""

    def __init__(self, group, items, x, y, width, row_h=LINE_H + 2, color=WHITE, longest=None,
                 later=None):
        self.items = items
        self.later = later
        self.moving = False         # the bar is off its line until step() (later is None)
        self.index = 0
        self.y = y
        self.row_h = row_h
        self.bar = rect(x, y, width, row_h, GOLD)
        group.append(self.bar)
        room = (width - 6) // CHAR_W
        self.labels = []
        for i, s in enumerate(items):
            chars = min(room, max(len(s), longest[i] if longest else 0))
            lab = Label(fit(s, chars), x + 4, y + i * row_h + (row_h - LINE_H) // 2, color, 1, chars)
            group.append(lab.view)
            self.labels.append(lab)
        self.color = color
        self.labels[0].recolor(INK)         # the bar is on the first line (and parked: rect)

    def select(self, i):
        self.labels[self.index].recolor(self.color)
        self.index = i % len(self.items)
        bar = self.bar
        y = self.y + self.index * self.row_h
        if bar.y != y:
            # the old line this frame, the new one the next: one frame redrawing both
            # lines, both labels recoloured (each composed twice), was 72-79 ms of drawing
            # in a box (59-63 in settings on 320x240).
            # A shape redraws where it last was whenever its area changes, hidden or
            # not: parked as the new line's row farthest from the old (one rectangle of
            # one band each), the old line is not redrawn twice
            bar.hidden = True
            bar.height = 1
            bar.y = y + self.row_h - 1 if y > bar.y else y
            if self.later is None:
                self.moving = True
            else:
                self.later.append((self, None))
            return
        self.step()

    def step(self):
        """The bar on the chosen line, its label recoloured to read on it (a move's
        second frame); False: nothing more to come."""
        bar = self.bar
        bar.y = self.y + self.index * self.row_h
        bar.height = self.row_h
        set_hidden(bar, False)
        self.labels[self.index].recolor(INK)
        return False

    def relabel(self, i, s):
        self.items[i] = s
        self.labels[i].set(fit(s, self.labels[i].chars))

    def handle(self, role):
        """Move on left/up/right/down; return the chosen index on ok, else None. A frame
        without a key (role None) ends a move (select)."""
        if role is None:
            if self.moving:
                self.moving = False
                self.step()
        elif role in ("left", "up"):
            self.select(self.index - 1)
        elif role in ("right", "down"):
            self.select(self.index + 1)
        elif role == "ok":
            return self.index
        return None


def drop(parent, group):
    """Take `group` out of `parent`, its layers first (ui.Show says why not at once)."""
    while len(group):
        group.pop()
    parent.remove(group)


def set_hidden(item, hidden):
    """Hide or show a layer only if that changes it: showing redraws it even when it was
    already showing."""
    if item.hidden != hidden:
        item.hidden = hidden


def area(item):
    """Pixels a TileGrid or shape covers (unscaled)."""
    if isinstance(item, displayio.TileGrid):
        return item.width * item.tile_width * item.height * item.tile_height
    return item.width * item.height


def drawn(part, scale=1):
    """What drawing `part` (a layer or a group) costs when it first appears (us): each of
    its visible layers' own area."""
    if part.hidden:
        return 0
    if isinstance(part, displayio.Group):
        scale *= part.scale
        layers = [part[i] for i in range(len(part))]
        us = sum(drawn(item, scale) for item in layers)
        if any(not isinstance(item, (displayio.Group, displayio.TileGrid)) for item in layers):
            # text coming with the shapes under it (a box's band) is composed twice: in
            # its own rectangle and in theirs
            us += sum(area(item) * scale * scale * TILE_US for item in layers
                      if isinstance(item, displayio.TileGrid) and not item.hidden
                      and len(item.pixel_shader) <= 2)
        return us
    per = SHAPE_US
    if isinstance(part, displayio.TileGrid):
        # text (a two-colour palette) is mostly clear: what is under it shows too
        per = TILE_US + SHAPE_US if len(part.pixel_shader) <= 2 else TILE_US
    return area(part) * scale * scale * per


# A screen or a box changes over a few frames, each within FRAME_US, the two ways
# that match how displayio redraws: a layer appearing redraws its own area; layers taken
# out of a group redraw, together, the one rectangle around where they were.

class Show:
    """Bring a group's parts (not yet drawn) in a few a frame (a part too big for one
    frame: its own parts a few a frame). `steps` build the rest of the screen, one a
    frame after those parts: each is the Python of a frame of its own, and what it
    appends to the group comes in a few a frame as well, before the next step (so a
    screen too dear to build in one frame appears in reading order); a step may return
    more steps, which come next. `start`: the group's parts before it are already drawn
    and stay.

    A part waits hidden in its place (its shapes parked: rect) and arrives by being
    shown. Nothing is taken out of a group: CircuitPython redraws where a removed group
    was, and for a group that holds a shape it reads that from a variable it never set
    (Group.c, displayio_group_get_previous_area); a removed shape forgets its group's
    position, and when it comes back redraws where it would be without it.

    `cheap`: the steps are a few ms each (a box's band), and what each makes comes in
    its own frame, within the frame's drawing."""

    def __init__(self, group, steps=None, start=0, cheap=False):
        self.group = group
        self.cheap = cheap
        self.todo = self.take(group, start)     # (us, part) in drawing order, then steps
        if steps:
            self.todo.extend(steps)
            del steps[:]                    # used up: what builds a screen leaves the heap

    def take(self, group, start=0):
        """[(what it draws, part)] of group's parts from `start` on; those that draw
        are hidden until they arrive."""
        out = []
        for i in range(start, len(group)):
            part = group[i]
            us = drawn(part)
            if isinstance(part, displayio.Group) and us > FRAME_US:
                out.extend(self.take(part))
                continue
            if us:
                part.hidden = True
            out.append((us, part))
        return out

    def step(self):
        """One frame's share; True while more is to come."""
        spent = 0
        todo = self.todo
        while todo:
            if callable(todo[0]):
                if spent and not self.cheap:
                    break
                n = len(self.group)
                more = todo.pop(0)()
                todo[0:0] = self.take(self.group, n) + (more or [])
                if not self.cheap:
                    spent = FRAME_US    # the step was the frame's work: only what draws
                continue                # nothing (hidden layers) comes with it
            us, part = todo[0]
            if spent and spent + us > FRAME_US:
                break
            todo.pop(0)
            if us:
                part.hidden = False
            arrive(part)
            spent += us
        return bool(todo)


def places(group, width, height, x0=0, y0=0, scale=1, out=None):
    """[(reading order, layer, its group, (x1, y1, x2, y2) on a width x height screen)] of
    every TileGrid and shape under group, top to bottom, left to right, then in drawing
    order (clipped: a layer parked off the screen covers nothing, and comes last). Sorted
    once, at the top, without a key function (MicroPython would call it at every
    comparison: most of the time of leaving the table went there): the reading order is
    an int, different for every layer (the drawing order is in it too: MicroPython's sort
    is not stable), so no comparison looks further into the tuples."""
    top = out is None
    if top:
        out = []
    for i in range(len(group)):
        item = group[i]
        x, y = x0 + item.x * scale, y0 + item.y * scale
        if isinstance(item, displayio.Group):
            places(item, width, height, x, y, scale * item.scale, out)
            continue
        if isinstance(item, displayio.TileGrid):
            w, h = item.width * item.tile_width, item.height * item.tile_height
        else:
            w, h = item.width, item.height
        box = (max(0, x), max(0, y), min(width, x + w * scale), min(height, y + h * scale))
        row = box[1] if box[2] > box[0] and box[3] > box[1] else 1023
        out.append(((row * 1024 + box[0]) * 1024 + len(out), item, group, box))
    if top:
        out.sort()
    return out


class Clear:
    """Take everything out of a group a few layers a frame, in reading order, so each
    frame's rectangles (one per group things leave) stay within FRAME_US; `under` is what
    a pixel of them costs with what stays beneath (the felt; a box: the table's cards
    and text) and with the group's layers still to go (a title's few letters, a table's
    cards: Game.UNDER). The layers are sorted at the first step: a box closed by the key
    that leaves the table (which goes whole) never pays for it."""

    def __init__(self, group, width, height, under):
        self.group = group
        self.size = (width, height)
        self.items = None
        self.under = under

    def step(self, budget=None):
        """One frame's share (`budget`: us of drawing, FRAME_US unless given); True while
        more is to come."""
        budget = FRAME_US if budget is None else budget
        if self.items is None:
            self.items = places(self.group, *self.size)
            self.group = None
        boxes = []                      # [group, x1, y1, x2, y2] of this frame's removals
        spent = 0
        items = self.items
        while items:
            _, item, group, (a, b, c, d) = items[0]
            if c > a and d > b:
                box = None
                for k in boxes:
                    if k[0] is group:
                        box = k
                grown = [group, a, b, c, d] if box is None else \
                    [group, min(box[1], a), min(box[2], b), max(box[3], c), max(box[4], d)]
                before = 0 if box is None else (box[3] - box[1]) * (box[4] - box[2])
                cost = ((grown[3] - grown[1]) * (grown[4] - grown[2]) - before) * self.under
                if spent and spent + cost > budget:
                    break
                if box is None:
                    boxes.append(grown)
                else:
                    box[1:] = grown[1:]
                spent += cost
            elif any(k[0] is group for k in boxes):
                # a layer off the screen was drawn there too: its removal would stretch
                # its group's rectangle to the screen's edge (8,900 pixels on 320x240)
                break
            group.remove(item)
            items.pop(0)
        return bool(items)
