"""Render the card and font sprite sheets from the source art in art/.

    python -m tools.sprites            # writes firmware/assets/*.bmp
    python -m tools.sprites --check    # exit 1 if a committed sheet is stale
    python -m tools.sprites --preview out.png   # also a 4x PNG of the cards to look at
    python -m tools.sprites --import-font FILE.bdf  # (re)make art/font.txt from a BDF font

Cards come in the sizes art/cards.txt lists (`card NAME W H ...`: 32x44 for the 240-wide
screens, 40x56 for 320x240). The firmware keeps its sheets in RAM (displayio.Bitmap: drawing
from RAM costs about half the time per pixel of reading the file, issue 12), so a card size
is stored as tiles: every card is cut into TILE_W x TILE_H cells and each distinct cell is
kept once. NAME.bmp is a 4-bit sheet of those distinct tiles (tile 0 fully transparent;
about 3 KB of RAM for 32x44 cards instead of 24 KB for the whole cards at 4 bits), and
NAME-map.bmp an 8-bit image of tile numbers: card n (card = suit * 8 + rank, the engine's
numbering; then the back) is rows n*H/TILE_H.. of it, one pixel per cell. A card on
screen is then a TileGrid of W/TILE_W x H/TILE_H tiles. (The empty places on the table
are outlines the firmware draws in the art's "slot" colour, palette entry SLOT_COLOR.)

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
ASSETS = ROOT / "firmware" / "assets"
FONT_SHEET = ASSETS / "font.bmp"
GLYPH_W, GLYPH_H = 6, 12
FONT_COLUMNS = 16

BACK = 32
TILES = 33             # card images per size: 32 faces and the back
SLOT_COLOR = 7         # the palette entry of the "slot" colour (art/cards.txt order)
TILE_W, TILE_H = 8, 4  # the cells cards are cut into
SHEET_COLUMNS = 16     # tiles per row of NAME.bmp
RANKS = "ATKQJ987"
SUITS = "CSHD"
RED_SUITS = "HD"


def parse_art(text):
    """art/cards.txt -> dict: cards [(name, w, h, {part: (x, y)})], colors [(char, name,
    rgb)], glyphs {key: rows}."""
    art = {"colors": [], "glyphs": {}, "cards": []}
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
        if words[0] == "card":
            at = {words[i]: (int(words[i + 1]), int(words[i + 2])) for i in range(4, len(words), 3)}
            art["cards"].append((words[1], int(words[2]), int(words[3]), at))
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

    def crop(self, x, y, w, h):
        out = Canvas(w, h)
        out.px = [row[x:x + w] for row in self.px[y:y + h]]
        return out


def _index(art, name):
    return [c[1] for c in art["colors"]].index(name)


def blank_card(art, inside, w, h):
    """The rounded w x h outline filled with palette index `inside`."""
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


def face(art, size, card):
    _, w, h, at = size
    suit, rank = SUITS[card // 8], RANKS[card % 8]
    ink = _index(art, "red" if suit in RED_SUITS else "black")
    c = blank_card(art, _index(art, "face"), w, h)
    c.stamp(art["glyphs"]["rank " + rank], at["rank"][0], at["rank"][1], ink)
    c.stamp(art["glyphs"]["pip " + suit], at["pip"][0], at["pip"][1], ink)
    c.stamp(art["glyphs"]["bigpip " + suit], at["bigpip"][0], at["bigpip"][1], ink)
    return c


def back(art, size):
    _, w, h, _ = size
    c = blank_card(art, _index(art, "face"), w, h)
    dark, light = _index(art, "back-dark"), _index(art, "back-light")
    tile = art["glyphs"]["back"]
    th, tw = len(tile), len(tile[0])
    for y in range(3, h - 3):
        for x in range(3, w - 3):
            c.px[y][x] = light if tile[(y - 3) % th][(x - 3) % tw] == "#" else dark
    return c


def cards(art, size):
    """The TILES card images of one size, in sheet order."""
    return [face(art, size, n) for n in range(32)] + [back(art, size)]


def tiled(images, w, h):
    """Cut equal-sized images into cells: (distinct tiles, tile 0 empty; map: a Canvas of
    tile numbers, image n in rows n*h/TILE_H..)."""
    if w % TILE_W or h % TILE_H:
        raise ValueError("card size %dx%d is not a whole number of %dx%d tiles" % (w, h, TILE_W, TILE_H))
    cols, rows = w // TILE_W, h // TILE_H
    empty = tuple((0,) * TILE_W for _ in range(TILE_H))
    found = {empty: 0}
    tiles = [empty]
    cells = Canvas(cols, rows * len(images))
    for n, img in enumerate(images):
        for r in range(rows):
            for c in range(cols):
                key = tuple(tuple(img.px[r * TILE_H + y][c * TILE_W:(c + 1) * TILE_W])
                            for y in range(TILE_H))
                if key not in found:
                    found[key] = len(tiles)
                    tiles.append(key)
                cells.px[n * rows + r][c] = found[key]
    if len(tiles) > 256:
        raise ValueError("%d distinct tiles: more than an 8-bit map can name" % len(tiles))
    return tiles, cells


def tile_sheet(tiles):
    rows = (len(tiles) + SHEET_COLUMNS - 1) // SHEET_COLUMNS
    out = Canvas(TILE_W * SHEET_COLUMNS, TILE_H * rows, 0)
    for n, tile in enumerate(tiles):
        x, y = (n % SHEET_COLUMNS) * TILE_W, (n // SHEET_COLUMNS) * TILE_H
        for dy, row in enumerate(tile):
            out.px[y + dy][x:x + TILE_W] = list(row)
    return out


def bmp(canvas, colors, bits=4):
    """An indexed (1-, 4- or 8-bit), bottom-up, uncompressed Windows BMP."""
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


GREYS = [i * 0x010101 for i in range(256)]   # the map's palette: tile n drawn as grey n


def render(art_text):
    """{file name: BMP bytes} for every card size in the art."""
    art = parse_art(art_text)
    if _index(art, "slot") != SLOT_COLOR:
        raise ValueError("art/cards.txt: the slot colour must be colour %d" % SLOT_COLOR)
    colors = [c[2] for c in art["colors"]]
    out = {}
    for size in art["cards"]:
        name, w, h, _ = size
        tiles, cells = tiled(cards(art, size), w, h)
        out[name + ".bmp"] = bmp(tile_sheet(tiles), colors)
        out[name + "-map.bmp"] = bmp(cells, GREYS, bits=8)
    return out


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


def card_images(sheets, name, w, h):
    """The TILES card images of size `name` as the firmware assembles them from its tile
    sheet and map (PIL RGBA images, transparent corners); for looking and for tests."""
    from PIL import Image
    import io
    tiles = Image.open(io.BytesIO(sheets[name + ".bmp"]))
    tiles.info["transparency"] = 0
    tiles = tiles.convert("RGBA")
    cells = Image.open(io.BytesIO(sheets[name + "-map.bmp"]))
    cols, rows = w // TILE_W, h // TILE_H
    out = []
    for n in range(TILES):
        img = Image.new("RGBA", (w, h))
        for r in range(rows):
            for c in range(cols):
                t = cells.getpixel((c, n * rows + r))
                tx, ty = (t % SHEET_COLUMNS) * TILE_W, (t // SHEET_COLUMNS) * TILE_H
                img.paste(tiles.crop((tx, ty, tx + TILE_W, ty + TILE_H)), (c * TILE_W, r * TILE_H))
        out.append(img)
    return out


def preview(art_text, path, scale=4):
    """Every card of every size, enlarged, on the felt."""
    from PIL import Image  # only for looking at the result
    art = parse_art(art_text)
    sheets = render(art_text)
    width = max(w for _, w, _, _ in art["cards"]) * 17
    height = sum(h * 2 for _, _, h, _ in art["cards"])
    out = Image.new("RGB", (width, height), (11, 93, 42))
    top = 0
    for name, w, h, _ in art["cards"]:
        for n, img in enumerate(card_images(sheets, name, w, h)):
            out.paste(img, ((n % 17) * w, top + (n // 17) * h), img)
        top += h * 2
    out.resize((out.width * scale, out.height * scale), Image.NEAREST).save(path)


def outputs():
    """(path, bytes) of every sheet the art makes."""
    found = [(ASSETS / name, data) for name, data in render(ART.read_text()).items()]
    found.append((FONT_SHEET, render_font(FONT_ART.read_text(), SYMBOL_ART.read_text())))
    return found


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if a sheet is stale")
    ap.add_argument("--preview", help="also write an enlarged PNG of the cards here")
    ap.add_argument("--import-font", help="make art/font.txt from this BDF font")
    args = ap.parse_args(argv)
    if args.import_font:
        FONT_ART.write_text(import_bdf(args.import_font))
        print("wrote", FONT_ART.relative_to(ROOT))
    found = outputs()
    if args.check:
        stale = [p for p, data in found if not p.exists() or p.read_bytes() != data]
        for p in stale:
            print("stale:", p.relative_to(ROOT), "- run python -m tools.sprites", file=sys.stderr)
        return 1 if stale else 0
    for path, data in found:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print("wrote", path.relative_to(ROOT), len(data), "bytes")
    if args.preview:
        preview(ART.read_text(), args.preview)
    return 0


if __name__ == "__main__":
    sys.exit(main())
