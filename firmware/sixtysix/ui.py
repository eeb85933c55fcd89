"""Small drawing helpers on top of displayio: colours, text, boxes, a list widget.

Text uses bitmap_label (one small bitmap per label) rather than label (one
TileGrid per character), which keeps RAM low on the board.
"""
import displayio
import terminalio
import vectorio
from adafruit_display_text import bitmap_label

FELT = 0x0B5D2A
FELT_DARK = 0x073D1B
WHITE = 0xFFFFFF
SOFT = 0xA8D5B4
GOLD = 0xFFD23F
INK = 0x101018
RED = 0xFF6060

FONT = terminalio.FONT
CHAR_W = 6
LINE_H = 12

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


def text(s, x, y, color=WHITE, scale=1):
    """A label whose top-left corner is at x, y."""
    return bitmap_label.Label(FONT, text=s, color=color, scale=scale,
                              anchor_point=(0, 0), anchored_position=(x, y))


def set_text(label, s):
    if label.text != s:
        label.text = s


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
        self.labels = []
        for i, s in enumerate(items):
            lab = text(s, x + 4, y + i * row_h + 1, color)
            group.append(lab)
            self.labels.append(lab)
        self.color = color
        self.select(0)

    def select(self, i):
        self.labels[self.index].color = self.color
        self.index = i % len(self.items)
        self.bar.y = self.y + self.index * self.row_h
        self.labels[self.index].color = INK

    def relabel(self, i, s):
        self.items[i] = s
        set_text(self.labels[i], s)

    def handle(self, role):
        """Move on left/up/right/down; return the chosen index on ok, else None."""
        if role in ("left", "up"):
            self.select(self.index - 1)
        elif role in ("right", "down"):
            self.select(self.index + 1)
        elif role == "ok":
            return self.index
        return None
