"""What a screen refresh costs on the board: the simulator's device-cost model.

The simulator runs displayio on a PC (Blinka), where drawing is instant. On the board
CircuitPython's displayio composes every pixel it sends, layer by layer, and that is
where the time goes. This module watches the simulator's display: for every refresh it
takes the dirty rectangles displayio hands to the panel (tools/sim.like_the_board makes
them CircuitPython's) and the layers that cover each one, and turns them into estimated
milliseconds on a 125 MHz RP2040 with the costs in COSTS.

How CircuitPython draws one refresh (shared-module/busdisplay/BusDisplay.c and
displayio/Group.c, TileGrid.c, vectorio/VectorShape.c):
  * it walks the display's tree for the dirty rectangles, and again when done;
  * each rectangle is cut into buffers of at most 256 pixels (512 bytes of 16-bit
    pixels), at least one of the panel's own rows each: on a panel turned a quarter
    (the Pico builds' ST7789 at rotation 270) a row is a column of the screen;
  * for each buffer the root group walks its layers top to bottom; a layer that
    overlaps visits every pixel of the overlap: pixels an upper layer already drew are
    skipped (cheap), the others are fetched from the layer's bitmap or shape, looked up
    in its palette and written unless transparent; a layer that covers the whole
    buffer with opaque pixels ends the walk;
  * the buffer goes out over SPI (16 bits a pixel).
So the estimate of one refresh is

    REFRESH + sum over rectangles of (AREA + sum over buffers of (BUFFER + LAYER * layers walked))
  + sum over layers of (VISIT * pixels of its overlap + COSTS[kind] * pixels it fetched)
  + SPI time of every pixel sent,

with kind "ram" for a displayio.Bitmap and "shape" for a vectorio shape.
"""
import csv
import math
import os

import numpy as np

# The real firmware's refreshes the model is fitted to (CALIBRATION, read by fit()): the
# official CircuitPython 10.0.3 builds for the Pico and the uGame 22, measured on the real
# firmware in an emulator of the RP2040 at 125 MHz, SPI at 62.5 MHz; each refresh timed
# from display.refresh()'s call to its return, its dirty rectangles read from displayio as
# it drew them. The simulator's refreshes with the same rectangles and pixels, through
# this model's Meter, give the counts. One line a refresh: the board's screen, the moment
# of the script, the counts (as in AreaCost, summed over the refresh's rectangles; "area":
# how many rectangles) and the real milliseconds.
CALIBRATION = os.path.join(os.path.dirname(os.path.abspath(__file__)), "devicecost_refreshes.csv")

# Microseconds on a 125 MHz RP2040: FITTED by fit() (a test keeps them equal), SPI and
# flash from their datasheets.
COSTS = {
    # SPI: 16 bits per pixel at the profile's clock; the refresh waits for each buffer.
    # 62.5 MHz -> 0.256 us a pixel (the RP2040's most: its 125 MHz peripheral clock halved).
    "spi_bits": 16,
    "refresh": 244.8,   # per refresh, drawn or not: the tree walked for dirty areas, then finished
    "area": 78.1,       # per dirty rectangle: clipped, its buffers sized
    "buffer": 50.1,     # per buffer: the panel's window set, the buffer and mask cleared
    "layer": 2.89,      # per layer walked per buffer: the hidden / overlap test
    "visit": 0.33,      # per pixel of a layer's overlap that an upper layer already drew
    "ram": 4.32,        # per pixel fetched from a Bitmap (a card, text), palette-converted, written
    "shape": 2.41,      # per pixel fetched from a vectorio shape (the felt, a box)
    # nvm writes block the CPU: W25Q16JV datasheet, typical sector erase (tSE) 45 ms and
    # page program (tPP) 0.4 ms (the Pico's flash; maxima 400 ms and 3 ms)
    "erase_ms": 45.0,
    "page_ms": 0.4,
}
FITTED = ("refresh", "area", "buffer", "layer", "visit", "ram", "shape")
BUFFER_PIXELS = 256             # BusDisplay.c: uint32_t buffer[128] of 16-bit pixels
DEFAULT_BAUDRATE = 62500000

_index_images = {}


def _index_image(bitmap):
    """The bitmap's palette indexes as a numpy array (read once per bitmap)."""
    got = _index_images.get(id(bitmap))
    if got is None or got[0] is not bitmap:
        w, h = bitmap.width, bitmap.height
        img = np.array([[bitmap[x, y] for x in range(w)] for y in range(h)], dtype=np.int32)
        got = (bitmap, img)
        _index_images[id(bitmap)] = got
    return got[1]


class Layer:
    """One leaf of the display tree as CircuitPython composes it: where, what, opacity."""

    def __init__(self, obj, kind, rect):
        self.obj = obj
        self.kind = kind
        self.rect = rect            # (x1, y1, x2, y2) on the screen, x2/y2 exclusive

    def opaque(self, x1, y1, x2, y2):
        """Boolean array (rows, columns) of the opaque pixels inside the given rectangle."""
        rx1, ry1 = self.rect[0], self.rect[1]
        if self.kind == "shape":
            shader = self.obj.pixel_shader
            solid = not shader.is_transparent(0) if hasattr(shader, "is_transparent") else True
            return np.full((y2 - y1, x2 - x1), solid)
        t = self.obj
        scale = t._absolute_transform.dx if t._absolute_transform is not None else 1
        img = _index_image(t.bitmap)
        tw, th = t.tile_width, t.tile_height
        cols = img.shape[1] // tw
        tiles = np.frombuffer(bytes(t._tiles), dtype=np.uint8).reshape(t.height, t.width)
        # which tile rows/columns the rectangle touches (in unscaled tile pixels)
        px1, py1 = (x1 - rx1) // scale, (y1 - ry1) // scale
        px2, py2 = -(-(x2 - rx1) // scale), -(-(y2 - ry1) // scale)
        ys = np.arange(py1, py2)
        xs = np.arange(px1, px2)
        tile = tiles[ys // th][:, xs // tw]
        src_y = (tile // cols) * th + (ys % th)[:, None]
        src_x = (tile % cols) * tw + (xs % tw)[None, :]
        index = img[src_y, src_x]
        shader = t.pixel_shader
        if hasattr(shader, "is_transparent"):
            clear = np.array([shader.is_transparent(i) for i in range(len(shader))] + [True] * 256)
            solid = ~clear[index]
        else:
            solid = np.ones(index.shape, dtype=bool)
        if scale > 1:
            solid = np.repeat(np.repeat(solid, scale, axis=0), scale, axis=1)
            ox, oy = (x1 - rx1) - px1 * scale, (y1 - ry1) - py1 * scale
            solid = solid[oy:oy + (y2 - y1), ox:ox + (x2 - x1)]
        return solid


def layers_of(group):
    """Every visible and hidden leaf of the tree, top (drawn last) first, as Layers or None
    for a hidden one (still walked, at LAYER cost)."""
    out = []
    _walk(group, out, False)
    return out


def _walk(group, out, hidden):
    hidden = hidden or group.hidden
    for item in reversed(group._layers):
        if hasattr(item, "_layers"):
            _walk(item, out, hidden)
        elif hasattr(item, "tile_width"):            # TileGrid
            if hidden or item.hidden:
                out.append(None)
                continue
            a = item._current_area
            out.append(Layer(item, "ram", (a.x1, a.y1, a.x2, a.y2)))
        else:                                         # vectorio shape
            if hidden or item.hidden:
                out.append(None)
                continue
            a = item._current_area
            out.append(Layer(item, "shape", (a.x1, a.y1, a.x2, a.y2)))


class AreaCost:
    """What one dirty rectangle costs: pixels, buffers, layers, fetches by kind. `turned`:
    the panel is turned a quarter (its rows are the screen's columns)."""

    def __init__(self, rect, turned=False):
        self.rect = rect
        x1, y1, x2, y2 = rect
        self.w, self.h = x2 - x1, y2 - y1
        self.pixels = self.w * self.h
        self.buffers = buffers(self.h, self.w) if turned else buffers(self.w, self.h)
        self.walked = 0             # layer tests, summed over buffers
        self.covering = 0           # layers that overlap the rectangle
        self.visits = 0             # overlap pixels already drawn by an upper layer
        self.fetch = {"ram": 0, "shape": 0}

    def counts(self):
        """{FITTED cost: how many of it} but the refresh's own."""
        return {"area": 1, "buffer": self.buffers, "layer": self.walked, "visit": self.visits,
                "ram": self.fetch["ram"], "shape": self.fetch["shape"]}

    def micros(self, baudrate=DEFAULT_BAUDRATE):
        return (sum(n * COSTS[k] for k, n in self.counts().items())
                + self.pixels * COSTS["spi_bits"] * 1e6 / baudrate)


def buffers(w, h):
    """How many buffers BusDisplay sends a w x h rectangle (in the panel's own rows) in."""
    if w * h <= BUFFER_PIXELS:
        return 1
    rows = max(1, BUFFER_PIXELS // w)
    return math.ceil(h / rows)


def area_cost(rect, layers, turned=False):
    """Compose `rect` through `layers` (top first) the way CircuitPython does and count."""
    cost = AreaCost(rect, turned)
    x1, y1, x2, y2 = rect
    if cost.pixels <= 0:
        return cost
    drawn = np.zeros((y2 - y1, x2 - x1), dtype=bool)
    walked = 0
    for layer in layers:
        walked += 1
        if layer is None:
            continue
        lx1, ly1, lx2, ly2 = layer.rect
        ox1, oy1, ox2, oy2 = max(x1, lx1), max(y1, ly1), min(x2, lx2), min(y2, ly2)
        if ox1 >= ox2 or oy1 >= oy2:
            continue
        cost.covering += 1
        sub = drawn[oy1 - y1:oy2 - y1, ox1 - x1:ox2 - x1]
        free = ~sub
        n_free = int(free.sum())
        cost.visits += sub.size - n_free
        cost.fetch[layer.kind] += n_free
        solid = layer.opaque(ox1, oy1, ox2, oy2)
        sub |= solid
        if (ox1, oy1, ox2, oy2) == rect and bool(solid[free].all()):
            break               # full coverage: the layers below are not walked
    # the walk repeats for every buffer; a full-coverage stop is rare enough per buffer
    # to count it per rectangle
    cost.walked = walked * cost.buffers
    return cost


def calibration():
    """CALIBRATION's refreshes: [(board, moment, {"pixels" and FITTED[1:]: count}, real ms)]."""
    with open(CALIBRATION) as f:
        return [(r["board"], r["moment"], {k: int(r[k]) for k in ("pixels",) + FITTED[1:]}, float(r["ms"]))
                for r in csv.DictReader(f)]


def scene_micros(counts, costs):
    """What a refresh with these counts (CALIBRATION's) costs at 62.5 MHz with `costs` ({FITTED: us})."""
    return (costs["refresh"] + sum(counts[k] * costs[k] for k in FITTED[1:])
            + counts["pixels"] * COSTS["spi_bits"] * 1e6 / DEFAULT_BAUDRATE)


def fit():
    """The costs (FITTED, us) that best explain CALIBRATION's real milliseconds (least
    squares on relative errors, none negative), and every refresh's real time next to the
    model's with them: ({cost: us}, [(board, moment, real ms, model ms)])."""
    scenes = calibration()
    a = np.array([[1] + [counts[k] for k in FITTED[1:]] for _, _, counts, _ in scenes], dtype=float)
    y = np.array([ms * 1000 - scene_micros(counts, dict.fromkeys(FITTED, 0)) for _, _, counts, ms in scenes])
    w = np.array([1.0 / max(ms, 2.0) for _, _, _, ms in scenes])     # (a tiny refresh: its 2 ms's share)
    keep = list(range(len(FITTED)))
    while True:                     # none negative: drop the most negative, fit again
        x = np.linalg.lstsq(a[:, keep] * w[:, None], y * w, rcond=None)[0]
        if (x >= 0).all():
            break
        keep.pop(int(np.argmin(x)))
    costs = dict.fromkeys(FITTED, 0.0)
    for i, v in zip(keep, x):
        costs[FITTED[i]] = float(v)
    return costs, [(board, moment, ms, scene_micros(counts, costs) / 1000) for board, moment, counts, ms in scenes]


def flash_ms(erases, page_programs):
    """Time the CPU stands still for nvm writes (typical flash timings)."""
    return erases * COSTS["erase_ms"] + page_programs * COSTS["page_ms"]


class Refresh:
    """One display refresh: its dirty rectangles and their estimated cost (a refresh with
    nothing to draw still walks the tree)."""

    def __init__(self, areas, baudrate):
        self.areas = areas
        self.pixels = sum(a.pixels for a in areas)
        self.us = COSTS["refresh"] + sum(a.micros(baudrate) for a in areas)

    @property
    def ms(self):
        return self.us / 1000.0


class Meter:
    """Watches a Blinka display: each refresh becomes a Refresh in `log` (and is drawn,
    unless draw=False, which skips Blinka's slow pixel work when only figures matter).
    `rotation`: the board's (a panel turned a quarter sends a screen column a buffer)."""

    def __init__(self, display, baudrate=DEFAULT_BAUDRATE, draw=True, rotation=0):
        self.display = display
        self.baudrate = baudrate
        self.draw = draw
        self.turned = rotation in (90, 270)
        self.log = []
        self._areas = None
        self._original = display._refresh_area
        display._refresh_area = self._refresh_area

    def detach(self):
        del self.display._refresh_area

    def _refresh_area(self, area):
        core = self.display._core
        clipped = type(area)()
        if core.clip_area(area, clipped) and self._areas is not None:
            rect = (clipped.x1, clipped.y1, clipped.x2, clipped.y2)
            self._areas.append(area_cost(rect, self._layers, self.turned))
        if self.draw:
            return self._original(area)
        return True

    def refresh(self):
        """Refresh the display now; returns the Refresh (also appended to `log`)."""
        group = self.display.root_group
        self._layers = layers_of(group) if group is not None else []
        self._areas = []
        self.display.refresh()
        r = Refresh(self._areas, self.baudrate)
        self._areas = None
        self.log.append(r)
        return r
