"""Small drawing helpers on top of displayio: colours, text, boxes, a list widget.

Text is a TileGrid over the font sheet (assets/font.bmp, made by tools/sprites.py
from Terminus 12, the font of terminalio): a label costs one byte per character
and changing it allocates nothing. (adafruit_display_text's bitmap_label was
measured at ~30 KB of heap just to import; see the report.)
"""
import displayio
import vectorio

FELT = 0x0B5D2A
FELT_DARK = 0x073D1B
WHITE = 0xFFFFFF
SOFT = 0xA8D5B4
GOLD = 0xFFD23F
INK = 0x101018
RED = 0xFF6060
GREEN = 0x50E070

CHAR_W = 6
LINE_H = 12
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


def rect(x, y, w, h, color):
    return vectorio.Rectangle(pixel_shader=palette(color), x=x, y=y, width=w, height=h)


def backdrop(width, height, title):
    """The screens' felt and gold heading; at power-on it is also the splash, so the
    title that follows only adds to it."""
    g = displayio.Group()
    g.append(rect(0, 0, width, height, FELT))
    g.append(text(title, 8, 4, GOLD, 2).view)
    return g


def load_font(path):
    if not _font:
        _font.append(displayio.OnDiskBitmap(path))


class Label:
    """A line of text of a fixed capacity; `view` goes into a Group."""

    def __init__(self, s, x, y, color=WHITE, scale=1, chars=0):
        self.chars = n = max(chars, len(s), 1)
        self.palette = p = displayio.Palette(2)
        p[0] = 0
        p.make_transparent(0)
        p[1] = color
        self.tiles = displayio.TileGrid(_font[0], pixel_shader=p, width=n, height=1,
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

    def set_color(self, color):
        self.palette[1] = color


def text(s, x, y, color=WHITE, scale=1, chars=0):
    return Label(s, x, y, color, scale, chars)


def set_text(label, s):
    label.set(s)


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
    """A vertical menu: a highlight bar moves behind the chosen line."""

    def __init__(self, group, items, x, y, width, row_h=LINE_H + 2, color=WHITE):
        self.items = items
        self.index = 0
        self.x = x
        self.y = y
        self.row_h = row_h
        self.bar = rect(x, y, width, row_h, GOLD)
        group.append(self.bar)
        chars = (width - 6) // CHAR_W
        self.labels = []
        for i, s in enumerate(items):
            lab = text(fit(s, chars), x + 4, y + i * row_h + (row_h - LINE_H) // 2, color, 1, chars)
            group.append(lab.view)
            self.labels.append(lab)
        self.color = color
        self.select(0)

    def select(self, i):
        self.labels[self.index].set_color(self.color)
        self.index = i % len(self.items)
        self.bar.y = self.y + self.index * self.row_h
        self.labels[self.index].set_color(INK)

    def relabel(self, i, s):
        self.items[i] = s
        self.labels[i].set(fit(s, self.labels[i].chars))

    def handle(self, role):
        """Move on left/up/right/down; return the chosen index on ok, else None."""
        if role in ("left", "up"):
            self.select(self.index - 1)
        elif role in ("right", "down"):
            self.select(self.index + 1)
        elif role == "ok":
            return self.index
        return None
