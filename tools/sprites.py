"""Render the card sprite sheet from the source art in art/cards.txt.

    python -m tools.sprites            # writes firmware/assets/cards.bmp
    python -m tools.sprites --check    # exit 1 if the committed sheet is stale
    python -m tools.sprites --preview out.png   # also a 4x PNG to look at

The sheet is a 4-bit indexed BMP (what displayio.OnDiskBitmap reads on the
board without loading it into RAM). Tile n (row-major, COLUMNS per row) is
card n for n < 32 (card = suit * 8 + rank, the engine's numbering), then the
card back and an empty-place outline. The BMP is written here byte by byte,
so the output is exactly reproducible and the deploy needs no Pillow.
"""

import argparse
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ART = ROOT / "art" / "cards.txt"
SHEET = ROOT / "firmware" / "assets" / "cards.bmp"

COLUMNS = 17
BACK = 32
SLOT = 33
TILES = 34
RANKS = "ATKQJ987"
SUITS = "CSHD"
RED_SUITS = "HD"

RANK_AT = (3, 3)
PIP_AT = (3, 16)
BIGPIP_AT = (14, 25)


def parse_art(text):
    """art/cards.txt -> dict: size, colors [(char, name, rgb)], glyphs {key: rows}."""
    art = {"colors": [], "glyphs": {}}
    key = None
    for raw in text.splitlines():
        line = raw.rstrip()
        if line.startswith("#") and key is None:
            continue
        if not line:
            key = None
            continue
        if key is not None:
            art["glyphs"][key].append(line)
            continue
        words = line.split()
        if words[0] == "size":
            art["size"] = (int(words[1]), int(words[2]))
        elif words[0] == "color":
            art["colors"].append((words[1], words[2], int(words[3], 16)))
        else:
            key = " ".join(words)
            art["glyphs"][key] = []
    return art


class Canvas:
    """A width x height grid of palette indexes."""

    def __init__(self, width, height, fill=0):
        self.width = width
        self.height = height
        self.px = [[fill] * width for _ in range(height)]

    def stamp(self, rows, x, y, index, flip_x=False, flip_y=False, ink="#"):
        for dy, row in enumerate(rows[::-1] if flip_y else rows):
            for dx, ch in enumerate(row[::-1] if flip_x else row):
                if ch in ink:
                    self.px[y + dy][x + dx] = index if isinstance(index, int) else index[ch]

    def paste(self, other, x, y):
        for dy in range(other.height):
            self.px[y + dy][x:x + other.width] = other.px[dy]


def _index(art, name):
    return [c[1] for c in art["colors"]].index(name)


def blank_card(art, inside):
    """The rounded outline filled with palette index `inside`."""
    w, h = art["size"]
    edge = _index(art, "edge")
    card = Canvas(w, h, inside)
    for x in range(w):
        card.px[0][x] = card.px[h - 1][x] = edge
    for y in range(h):
        card.px[y][0] = card.px[y][w - 1] = edge
    by_char = {c[0]: i for i, c in enumerate(art["colors"])}
    corner = art["glyphs"]["corner"]
    n = len(corner)
    for fx in (False, True):
        for fy in (False, True):
            card.stamp(corner, w - n if fx else 0, h - n if fy else 0, by_char,
                       flip_x=fx, flip_y=fy, ink=".gw")
            # the corner's 'w' means "inside colour"
            for dy in range(n):
                for dx in range(n):
                    yy = h - n + dy if fy else dy
                    xx = w - n + dx if fx else dx
                    if card.px[yy][xx] == by_char["w"]:
                        card.px[yy][xx] = inside
    return card


def face(art, card):
    suit, rank = SUITS[card // 8], RANKS[card % 8]
    ink = _index(art, "red" if suit in RED_SUITS else "black")
    c = blank_card(art, _index(art, "face"))
    c.stamp(art["glyphs"]["rank " + rank], RANK_AT[0], RANK_AT[1], ink)
    c.stamp(art["glyphs"]["pip " + suit], PIP_AT[0], PIP_AT[1], ink)
    c.stamp(art["glyphs"]["bigpip " + suit], BIGPIP_AT[0], BIGPIP_AT[1], ink)
    return c


def back(art):
    w, h = art["size"]
    c = blank_card(art, _index(art, "face"))
    dark, light = _index(art, "back-dark"), _index(art, "back-light")
    tile = art["glyphs"]["back"]
    th, tw = len(tile), len(tile[0])
    for y in range(3, h - 3):
        for x in range(3, w - 3):
            c.px[y][x] = light if tile[(y - 3) % th][(x - 3) % tw] == "#" else dark
    return c


def slot(art):
    """An empty place on the table: outline only, transparent inside."""
    c = blank_card(art, 0)
    s = _index(art, "slot")
    edge = _index(art, "edge")
    for row in c.px:
        for x, v in enumerate(row):
            if v == edge:
                row[x] = s
    return c


def sheet(art):
    w, h = art["size"]
    rows = (TILES + COLUMNS - 1) // COLUMNS
    out = Canvas(w * COLUMNS, h * rows, 0)
    tiles = [face(art, n) for n in range(32)] + [back(art), slot(art)]
    for n, tile in enumerate(tiles):
        out.paste(tile, (n % COLUMNS) * w, (n // COLUMNS) * h)
    return out


def bmp4(canvas, colors):
    """A 4-bit indexed, bottom-up, uncompressed Windows BMP."""
    stride = ((canvas.width * 4 + 31) // 32) * 4
    pixels = bytearray()
    for row in reversed(canvas.px):
        line = bytearray(stride)
        for x, v in enumerate(row):
            line[x // 2] |= v << (0 if x % 2 else 4)
        pixels += line
    palette = bytearray()
    for i in range(16):
        rgb = colors[i] if i < len(colors) else 0
        palette += struct.pack("<BBBB", rgb & 255, (rgb >> 8) & 255, rgb >> 16, 0)
    offset = 14 + 40 + len(palette)
    header = struct.pack("<2sIHHI", b"BM", offset + len(pixels), 0, 0, offset)
    info = struct.pack("<IiiHHIIiiII", 40, canvas.width, canvas.height, 1, 4, 0,
                       len(pixels), 2835, 2835, 16, 16)
    return header + info + bytes(palette) + bytes(pixels)


def render(art_text):
    art = parse_art(art_text)
    return bmp4(sheet(art), [c[2] for c in art["colors"]])


def preview(bmp_bytes, path, scale=4):
    from PIL import Image  # only for looking at the result
    import io
    img = Image.open(io.BytesIO(bmp_bytes)).convert("RGB")
    img.resize((img.width * scale, img.height * scale), Image.NEAREST).save(path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if the sheet is stale")
    ap.add_argument("--preview", help="also write an enlarged PNG here")
    args = ap.parse_args(argv)
    data = render(ART.read_text())
    if args.check:
        if not SHEET.exists() or SHEET.read_bytes() != data:
            print("stale: run python -m tools.sprites", file=sys.stderr)
            return 1
        print("up to date:", SHEET.relative_to(ROOT))
        return 0
    SHEET.parent.mkdir(parents=True, exist_ok=True)
    SHEET.write_bytes(data)
    print("wrote", SHEET.relative_to(ROOT), len(data), "bytes")
    if args.preview:
        preview(data, args.preview)
    return 0


if __name__ == "__main__":
    sys.exit(main())
