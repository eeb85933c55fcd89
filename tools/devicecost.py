"""What a screen refresh costs on the board: the simulator's device-cost model.

The simulator runs displayio on a PC (Blinka), where drawing is instant. On the board
CircuitPython's displayio composes every pixel it sends, layer by layer, and that is
where the time goes. This module watches the simulator's display: for every refresh it
takes the dirty rectangles displayio hands to the panel and the layers that cover each
one, and turns them into estimated milliseconds on a 125 MHz RP2040 with the per-pixel
costs in COSTS (each with its source).

How CircuitPython draws one dirty rectangle (shared-module/busdisplay/BusDisplay.c and
displayio/Group.c, TileGrid.c, vectorio/VectorShape.c):
  * the rectangle is cut into sub-rectangles of at most 256 pixels (a 512-byte buffer
    of 16-bit pixels), at least one row each;
  * for each sub-rectangle the root group walks its layers top to bottom; a layer that
    overlaps visits every pixel of the overlap: pixels an upper layer already drew are
    skipped (cheap), the others are fetched from the layer's bitmap or shape, looked up
    in its palette and written unless transparent; a layer that covers the whole
    sub-rectangle with opaque pixels ends the walk;
  * the buffer goes out over SPI (16 bits a pixel).
So the estimate of one refresh is

    sum over sub-rectangles of (SUBRECT + LAYER * layers walked)
  + sum over layers of (VISIT * pixels of its overlap + FETCH[kind] * pixels it fetched)
  + SPI time of every pixel sent,

with kind "flash" for an OnDiskBitmap (read from the filesystem per pixel), "ram" for a
displayio.Bitmap and "shape" for a vectorio shape.
"""
import math

import numpy as np

# Board figures the model is calibrated on: CircuitPython 10.0.3 on an emulated Pico with a
# Pico Display Pack (240x135, SPI 62.5 MHz), running the firmware of commit b927cc9 (both
# sheets OnDiskBitmaps), from issue 12; "ram": the same firmware with both sheets read into
# RAM Bitmaps (bitmaptools.readinto), also issue 12.
MEASURED = {
    "title flash": 228,     # ms, the full title screen
    "title ram": 152,
    "play flash": 885,      # ms, the refresh after "X plays a card": 73,120 pixels sent
    "play ram": 487,
}
PLAY_PIXELS = 73120

# The same two scenes replayed through this model's Meter in the simulator (commit b927cc9,
# pico_display_pack, seed 3): the title's first refresh, and the six animation frames
# after the second OK (the first card played), 71,896 pixels - the deal differed,
# so the measured play times are scaled by 71,896 / 73,120 when fitting. Counts as in
# AreaCost; "sheet" is what came from the sheets (flash in MEASURED's flash rows, RAM in
# its ram rows).
CALIBRATION = {
    "title": {"pixels": 32400, "subrects": 135, "walked": 1485, "visits": 8115,
              "sheet": 11407, "shape": 27648},
    "play": {"pixels": 71896, "subrects": 329, "walked": 11844, "visits": 68508,
             "sheet": 62763, "shape": 11043},
}

# Microseconds on a 125 MHz RP2040. "fetch" is fitted to MEASURED by fit() (least squares
# over CALIBRATION, relative errors; all four scenes within 1.1%); the rest are set from
# first principles and say so.
COSTS = {
    # SPI: 16 bits per pixel at the profile's clock; the refresh waits for each buffer.
    # 62.5 MHz -> 0.256 us a pixel; PLATFORM_NOTES: "the SPI transfer is only ~8 ms" of a
    # full 240x135 screen (32,400 pixels * 0.256 us = 8.3 ms).
    "spi_bits": 16,
    # per sub-rectangle: set the panel window (3 commands), clear the 512-byte buffer and
    # the mask, begin/end the bus transaction. Assumed ~25 us (a few hundred cycles plus
    # command bytes); PLATFORM_NOTES: "a tiny change redraws in well under 1 ms".
    "subrect": 25.0,
    # per layer per sub-rectangle: the hidden / overlap test (assumed ~1 us: a call and a
    # rectangle intersection on a Cortex-M0+ at 125 MHz)
    "layer": 1.0,
    # per pixel of a layer's overlap that an upper layer already drew (mask test; assumed)
    "visit": 0.2,
    # per pixel fetched, palette-converted and written, by source (fitted)
    "fetch": {"flash": 12.71, "ram": 6.35, "shape": 2.38},
    # nvm writes block the CPU: W25Q16JV datasheet, typical sector erase (tSE) 45 ms and
    # page program (tPP) 0.4 ms (the Pico's flash; maxima 400 ms and 3 ms)
    "erase_ms": 45.0,
    "page_ms": 0.4,
}
SUBRECT_PIXELS = 256            # BusDisplay.c: uint32_t buffer[128] of 16-bit pixels
DEFAULT_BAUDRATE = 62500000


def kind_of(bitmap):
    """"flash" for an OnDiskBitmap, "ram" for a displayio.Bitmap."""
    return "flash" if type(bitmap).__name__ == "OnDiskBitmap" else "ram"


_index_images = {}


def _index_image(bitmap):
    """The bitmap's palette indexes as a numpy array (read once per bitmap)."""
    got = _index_images.get(id(bitmap))
    if got is None or got[0] is not bitmap:
        w, h = bitmap.width, bitmap.height
        if kind_of(bitmap) == "flash":
            img = np.array([[bitmap._get_pixel(x, y) for x in range(w)] for y in range(h)],
                           dtype=np.int32)
        else:
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
            out.append(Layer(item, kind_of(item.bitmap), (a.x1, a.y1, a.x2, a.y2)))
        else:                                         # vectorio shape
            if hidden or item.hidden:
                out.append(None)
                continue
            a = item._current_area
            out.append(Layer(item, "shape", (a.x1, a.y1, a.x2, a.y2)))


class AreaCost:
    """What one dirty rectangle costs: pixels, sub-rectangles, layers, fetches by kind."""

    def __init__(self, rect):
        self.rect = rect
        x1, y1, x2, y2 = rect
        self.w, self.h = x2 - x1, y2 - y1
        self.pixels = self.w * self.h
        self.subrects = subrects(self.w, self.h)
        self.walked = 0             # layer tests, summed over sub-rectangles
        self.covering = 0           # layers that overlap the rectangle
        self.visits = 0             # overlap pixels already drawn by an upper layer
        self.fetch = {"flash": 0, "ram": 0, "shape": 0}

    def micros(self, baudrate=DEFAULT_BAUDRATE, costs=COSTS):
        us = self.subrects * costs["subrect"] + self.walked * costs["layer"]
        us += self.visits * costs["visit"]
        for k, n in self.fetch.items():
            us += n * costs["fetch"][k]
        us += self.pixels * costs["spi_bits"] * 1e6 / baudrate
        return us


def subrects(w, h):
    """How many buffers BusDisplay sends a w x h rectangle in."""
    if w * h <= SUBRECT_PIXELS:
        return 1
    rows = max(1, SUBRECT_PIXELS // w)
    return math.ceil(h / rows)


def area_cost(rect, layers):
    """Compose `rect` through `layers` (top first) the way CircuitPython does and count."""
    cost = AreaCost(rect)
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
    # the walk repeats for every sub-rectangle; a full-coverage stop is rare enough
    # per sub-rectangle to count it per rectangle
    cost.walked = walked * cost.subrects
    return cost


def fixed_micros(counts, costs=COSTS, baudrate=DEFAULT_BAUDRATE):
    """The part of a scene's time that does not depend on where pixels come from."""
    return (counts["pixels"] * costs["spi_bits"] * 1e6 / baudrate + counts["subrects"] * costs["subrect"]
            + counts["walked"] * costs["layer"] + counts["visits"] * costs["visit"])


def fit():
    """Fetch costs (flash, ram, shape) that best explain MEASURED from CALIBRATION, and
    each scene's measured time (for the replayed scene's pixels) next to the model's:
    ({kind: us}, {scene: (measured ms, model ms)})."""
    rows, want = [], []
    for name, counts in CALIBRATION.items():
        scale = counts["pixels"] / PLAY_PIXELS if name == "play" else 1.0
        for source in ("flash", "ram"):
            ms = MEASURED[name + " " + source] * scale
            rows.append([counts["sheet"] * (source == "flash"), counts["sheet"] * (source == "ram"),
                         counts["shape"]])
            want.append(((ms * 1000 - fixed_micros(counts)), ms))
    a = np.array(rows, dtype=float)
    weights = np.array([1.0 / ms for _, ms in want])
    y = np.array([us for us, _ in want])
    x = np.linalg.lstsq(a * weights[:, None], y * weights, rcond=None)[0]
    fetch = {"flash": float(x[0]), "ram": float(x[1]), "shape": float(x[2])}
    scenes = {}
    i = 0
    for name, counts in CALIBRATION.items():
        for source in ("flash", "ram"):
            scenes[name + " " + source] = (want[i][1], (float(a[i] @ x) + fixed_micros(counts)) / 1000)
            i += 1
    return fetch, scenes


def flash_ms(erases, page_programs, costs=COSTS):
    """Time the CPU stands still for nvm writes (typical flash timings)."""
    return erases * costs["erase_ms"] + page_programs * costs["page_ms"]


class Refresh:
    """One display refresh: its dirty rectangles and their estimated cost."""

    def __init__(self, areas, baudrate):
        self.areas = areas
        self.pixels = sum(a.pixels for a in areas)
        self.us = sum(a.micros(baudrate) for a in areas)

    @property
    def ms(self):
        return self.us / 1000.0


class Meter:
    """Watches a Blinka display: each refresh becomes a Refresh in `log` (and is drawn,
    unless draw=False, which skips Blinka's slow pixel work when only figures matter)."""

    def __init__(self, display, baudrate=DEFAULT_BAUDRATE, draw=True):
        self.display = display
        self.baudrate = baudrate
        self.draw = draw
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
            self._areas.append(area_cost(rect, self._layers))
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
