"""Render the card sprite sheet from the source art in art/cards.txt.

    python -m tools.sprites            # writes firmware/assets/cards.bmp and font.bmp
    python -m tools.sprites --check    # exit 1 if a committed sheet is stale
    python -m tools.sprites --preview out.png   # also a 4x PNG of the cards to look at
    python -m tools.sprites --import-font FILE.bdf  # (re)make art/font.txt from a BDF font

cards.bmp is a 4-bit indexed BMP (what displayio.OnDiskBitmap reads on the
board without loading it into RAM). Tile n (row-major, COLUMNS per row) is
card n for n < 32 (card = suit * 8 + rank, the engine's numbering), then the
card back and an empty-place outline.

font.bmp is a 1-bit sheet of 6x12 glyphs: tile n is character 32 + n for
printable ASCII, then the four suit symbols (clubs, spades, hearts, diamonds).
The firmware draws text as one TileGrid over it, so text costs a few bytes of
RAM and no text library. The glyphs are Terminus 12 (the font CircuitPython's
terminalio uses), kept as text in art/font.txt; the suit symbols are ours.

The BMPs are written here byte by byte, so the output is exactly reproducible
and the deploy needs no Pillow.
"""

import argparse
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ART = ROOT / "art" / "cards.txt"
FONT_ART = ROOT / "art" / "font.txt"
SYMBOL_ART = ROOT / "art" / "symbols.txt"
SHEET = ROOT / "firmware" / "assets" / "cards.bmp"
FONT_SHEET = ROOT / "firmware" / "assets" / "font.bmp"
GLYPH_W, GLYPH_H = 6, 12
FONT_COLUMNS = 16

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


def bmp(canvas, colors, bits=4):
    """An indexed (1- or 4-bit), bottom-up, uncompressed Windows BMP."""
    per_byte = 8 // bits
    stride = ((canvas.width * bits + 31) // 32) * 4
    pixels = bytearray()
    for row in reversed(canvas.px):
        line = bytearray(stride)
        for x, v in enumerate(row):
            line[x // per_byte] |= v << (8 - bits - (x % per_byte) * bits)
        pixels += line
    n = 1 << bits
    palette = bytearray()
    for i in range(n):
        rgb = colors[i] if i < len(colors) else 0
        palette += struct.pack("<BBBB", rgb & 255, (rgb >> 8) & 255, rgb >> 16, 0)
    offset = 14 + 40 + len(palette)
    header = struct.pack("<2sIHHI", b"BM", offset + len(pixels), 0, 0, offset)
    info = struct.pack("<IiiHHIIiiII", 40, canvas.width, canvas.height, 1, bits, 0,
                       len(pixels), 2835, 2835, n, n)
    return header + info + bytes(palette) + bytes(pixels)


def render(art_text):
    art = parse_art(art_text)
    return bmp(sheet(art), [c[2] for c in art["colors"]])


def parse_glyphs(text):
    """'glyph N' headers (N a character code) each followed by GLYPH_H pixel rows."""
    glyphs = {}
    key = None
    for line in text.splitlines():
        if line.startswith("glyph "):
            key = int(line.split()[1])
            glyphs[key] = []
        elif key is not None and line and line[0] in ".#":
            glyphs[key].append(line)
    return glyphs


def render_font(font_text, symbol_text):
    glyphs = parse_glyphs(font_text)
    symbols = parse_glyphs(symbol_text)
    order = [glyphs.get(code, [""] * GLYPH_H) for code in range(32, 127)]
    order += [symbols[n] for n in sorted(symbols)]
    rows = (len(order) + FONT_COLUMNS - 1) // FONT_COLUMNS
    out = Canvas(GLYPH_W * FONT_COLUMNS, GLYPH_H * rows, 0)
    for n, rows_ in enumerate(order):
        out.stamp(rows_, (n % FONT_COLUMNS) * GLYPH_W, (n // FONT_COLUMNS) * GLYPH_H, 1)
    return bmp(out, [0x000000, 0xFFFFFF], bits=1)


def import_bdf(path):
    """art/font.txt text from a 6x12 BDF font (printable ASCII only)."""
    out = ["# Terminus 12 (ter-u12n), the font of CircuitPython's terminalio.",
           "# Copyright (C) 2018 Dimitar Toshkov Zhekov; SIL Open Font License 1.1.",
           "# Made by `python -m tools.sprites --import-font ter-u12n.bdf`.", ""]
    code = None
    rows = None
    for line in Path(path).read_text().splitlines():
        if line.startswith("ENCODING "):
            code = int(line.split()[1])
        elif line == "BITMAP":
            rows = []
        elif line == "ENDCHAR":
            if 32 <= code < 127 and rows is not None:
                out.append("glyph %d %s" % (code, chr(code)))
                out.extend(rows)
                out.append("")
            rows = None
        elif rows is not None:
            bits = int(line, 16)
            rows.append("".join("#" if bits >> (7 - i) & 1 else "." for i in range(GLYPH_W)))
    return "\n".join(out)


def preview(bmp_bytes, path, scale=4):
    from PIL import Image  # only for looking at the result
    import io
    img = Image.open(io.BytesIO(bmp_bytes)).convert("RGB")
    img.resize((img.width * scale, img.height * scale), Image.NEAREST).save(path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if the sheet is stale")
    ap.add_argument("--preview", help="also write an enlarged PNG here")
    ap.add_argument("--import-font", help="make art/font.txt from this BDF font")
    args = ap.parse_args(argv)
    if args.import_font:
        FONT_ART.write_text(import_bdf(args.import_font))
        print("wrote", FONT_ART.relative_to(ROOT))
    outputs = ((SHEET, render(ART.read_text())),
               (FONT_SHEET, render_font(FONT_ART.read_text(), SYMBOL_ART.read_text())))
    if args.check:
        stale = [p for p, data in outputs if not p.exists() or p.read_bytes() != data]
        for p in stale:
            print("stale:", p.relative_to(ROOT), "- run python -m tools.sprites", file=sys.stderr)
        return 1 if stale else 0
    for path, data in outputs:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print("wrote", path.relative_to(ROOT), len(data), "bytes")
    if args.preview:
        preview(outputs[0][1], args.preview)
    return 0


if __name__ == "__main__":
    sys.exit(main())
