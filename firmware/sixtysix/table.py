"""The card table: one TileGrid per card that moves between hand, trick and talon.

Every card of the pack owns a TileGrid showing its face (backs are TileGrids of their
own: talon, the closed trump, the computer's hand, piles), so drawing a state is "put
each card where it belongs". `goto(targets, 0)` jumps to a state,
`goto(targets)` queues an animated step, `tick()` plays one frame.

What a frame costs on the board is what displayio redraws: each moving card dirties the
rectangle it leaves and the one it enters (tools/devicecost.py turns that into time).
So a step does not move every card at once: its moves start one after another as the
frame's pixel budget (ui.FRAME_PIXELS) allows, long flights first, and a short move
(a card closing a gap in the hand) takes fewer frames than a flight.
"""
import sys
import displayio
from sixtysix import bmp, ui

BACK = 32           # card images on a sheet: 0-31 faces, then the back and the empty place
SLOT = 33
IMAGES = 34
FRAMES = 6          # frames of a card's flight across the table
SPEED = 9           # pixels a frame for short moves (closing up the hand)
PAUSE = 14          # frames a finished trick stays on the table


def _dimmed(color):
    """Half way to the felt: an unplayable card fades but keeps its suit colour."""
    r, g, b = color >> 16, (color >> 8) & 255, color & 255
    return (((r + 0x0B) // 2) << 16) | (((g + 0x5D) // 2) << 8) | ((b + 0x2A) // 2)


class Sheet:
    """The cards of one size in RAM: tiles and their palettes (normal and dimmed), plus,
    while a screen is being built, the map saying which tiles make each card
    (tools/sprites.py). The map is read from flash for each screen and dropped after
    (`done`), since a card never changes what it shows."""

    def __init__(self, assets, name, card_w, card_h):
        self.bitmap, self.palette = bmp.load(assets + "/" + name + ".bmp")
        self.palette.make_transparent(0)
        self.map_path = assets + "/" + name + "-map.bmp"
        self.cells = None
        self.w = card_w
        self.h = card_h
        n = len(self.palette)
        self.dim = displayio.Palette(n)
        for i in range(n):
            self.dim[i] = _dimmed(self.palette[i])
        self.dim.make_transparent(0)

    def tile(self, image, x=0, y=0):
        """A new TileGrid showing card image `image` (a card, BACK or SLOT) at x, y."""
        if self.cells is None:
            self.cells = bmp.load(self.map_path, False)[0]
        cells = self.cells
        cols = cells.width
        rows = cells.height // IMAGES
        t = displayio.TileGrid(self.bitmap, pixel_shader=self.palette, width=cols,
                               height=rows, tile_width=self.w // cols,
                               tile_height=self.h // rows, x=x, y=y)
        n = cols * rows
        base = image * n
        for i in range(n):
            t[i] = cells[base + i]
        return t

    def done(self):
        """The screen's cards are made: let the map go."""
        self.cells = None


class Layout:
    """The screen's description (sixtysix.layouts) as attributes, and the hand's arithmetic."""

    def __init__(self, width, height):
        self.w = width
        self.h = height
        import sixtysix
        from sixtysix import layouts
        d = layouts.for_screen(width, height)
        # read once at power-on: drop the module so its code (~3 KB) leaves the heap
        del sys.modules["sixtysix.layouts"]
        del sixtysix.layouts
        for key in d:
            setattr(self, key, d[key])
        self.cw, self.ch = self.card
        self.places = dict(self.places)
        self.places[2] = (self.my_trick, None, self.cpu_trick, None)

    def hand_xy(self, i, n):
        """Card i of n in the hand, centred between hand_x; more cards than fit overlap."""
        left, right = self.hand_x
        stride = self.stride
        if n > 1:
            stride = min(stride, (right - left - self.cw) // (n - 1))
        x0 = left + (right - left - (n - 1) * stride - self.cw) // 2
        return x0 + i * stride, self.hand_y

    def offscreen(self, place):
        """Where a card enters from or leaves towards the player at `place`."""
        if place == 0:
            return (self.w // 2 - self.cw // 2, self.h)
        if place == 2:
            return (self.w // 2 - self.cw // 2, -self.ch)
        x = -self.cw if place == 1 else self.w
        return (x, 10)


class Move:
    """One card's way from (x0, y0) to (x1, y1) over `frames` frames."""

    def __init__(self, t, x0, y0, x1, y1, leaving, frames, flight, cost):
        self.t = t
        self.x0, self.y0, self.x1, self.y1 = x0, y0, x1, y1
        self.leaving = leaving
        self.frames = frames
        self.frame = 0
        self.flight = flight    # across the table (over other cards), not a short shift
        self.cost = cost        # pixels it dirties a frame (what it leaves and enters)


class Table:
    def __init__(self, sheet, lay, pack_mask, players=2, seat_labels=False):
        self.sheet = sheet
        self.lay = lay
        self.group = g = displayio.Group()     # over the app's felt
        self.trump_slot = sheet.tile(SLOT, *lay.trump)
        g.append(self.trump_slot)
        self.trump_back = sheet.tile(BACK, *lay.trump)      # the turn-up once closed
        self.trump_back.hidden = True
        g.append(self.trump_back)
        for xy in lay.places[players]:
            if xy is not None:
                g.append(sheet.tile(SLOT, *xy))
        self.talon = sheet.tile(BACK, *lay.talon)
        g.append(self.talon)
        self.talon_label = ui.text("", lay.talon_text[0], lay.talon_text[1], ui.SOFT, 1, 8)
        g.append(self.talon_label.view)
        self.backs = []
        if lay.cpu_hand and players == 2:
            x, y, step = lay.cpu_hand
            for i in range(6):
                t = sheet.tile(BACK, x + i * step, y)
                t.hidden = True
                self.backs.append(t)
                g.append(t)
        # won tricks as face-down piles by place, and the last trick face up (two-handed)
        self.piles = [None] * 4
        self.last_label = None
        if players == 2 and lay.piles:
            for place in lay.piles:
                x, y = lay.piles[place]
                pile = (sheet.tile(BACK, x, y), sheet.tile(BACK, x + 3, y + 3))
                for t in pile:
                    t.hidden = True
                    g.append(t)
                self.piles[place] = pile
        if players == 2 and lay.last:
            self.last_label = ui.text("", lay.last[4], lay.last[5], ui.SOFT, 1, 15)
            g.append(self.last_label.view)
        # a short word in each seat's trick place (its bid while bidding)
        self.seat_labels = [None] * 4
        if seat_labels:
            for p, xy in enumerate(lay.places[players]):
                if xy is not None:
                    lab = ui.text("", xy[0] + 1, xy[1] + 16, ui.GOLD, 1, 5)
                    self.seat_labels[p] = lab
                    g.append(lab.view)
        px, py = lay.panel
        self.panel = [ui.text("", px, py + i * ui.LINE_H, ui.WHITE, 1, lay.panel_chars)
                      for i in range(5)]
        for lab in self.panel:
            g.append(lab.view)
        self.msg = ui.text("", lay.msg[0], lay.msg[1], ui.GOLD, 1, lay.msg_chars)
        g.append(self.msg.view)
        # cards[c] is card c's TileGrid (None if c is not in this pack), place[c] its spot
        # on the table or None while hidden
        self.cards = [None] * 32
        self.place = [None] * 32
        for c in range(32):
            if pack_mask >> c & 1:
                t = sheet.tile(c)
                t.hidden = True
                self.cards[c] = t
                g.append(t)
        sheet.done()
        self.queue = []
        self.moves = None       # the step in progress: moves running
        self.waiting = None     # ... and moves still to start
        self.hurrying = False

    # ---- immediate changes -------------------------------------------------------

    def to_front(self, t):
        self.group.remove(t)
        self.group.append(t)

    def set_card(self, c, xy, dim=False):
        """Put card c at xy (or hide it with None) at once."""
        t = self.cards[c]
        self.place[c] = xy
        if xy is None:
            t.hidden = True
            return
        shader = self.sheet.dim if dim else self.sheet.palette
        if t.pixel_shader is not shader:
            t.pixel_shader = shader
        if t.x != xy[0]:
            t.x = xy[0]
        if t.y != xy[1]:
            t.y = xy[1]
        if t.hidden:
            t.hidden = False

    def set_talon(self, backs, label, cpu_cards, trump_down=False):
        """Talon (or widow) back and its label, the turn-up face down (closed talon); the
        computer's backs where they show."""
        self.talon.hidden = backs <= 0
        self.trump_back.hidden = not trump_down
        ui.set_text(self.talon_label, label)
        for i, t in enumerate(self.backs):
            hide = i >= cpu_cards
            if t.hidden != hide:
                t.hidden = hide

    def set_piles(self, counts, last_words):
        """Show each place's pile as big as its won tricks (counts by place): one back,
        two from the second trick on."""
        for place, pile in enumerate(self.piles):
            if pile is not None:
                for i, t in enumerate(pile):
                    if t.hidden != (counts[place] <= i):
                        t.hidden = counts[place] <= i
        if self.last_label is not None:
            ui.set_text(self.last_label, last_words)

    def set_panel(self, lines):
        for i, lab in enumerate(self.panel):
            ui.set_text(lab, lines[i] if i < len(lines) else "")

    def message(self, s):
        ui.set_text(self.msg, ui.fit(s, self.lay.msg_chars))

    # ---- animation -------------------------------------------------------------------

    def goto(self, targets, frames=FRAMES):
        """Queue one animated step: a list of (card, to_xy, dim, via).

        A card not on the table yet flies in from `via` (or appears at to_xy when via
        is None); to_xy None sends a card off towards `via` and hides it there.
        """
        self.queue.append((targets, frames))

    def pause(self, frames=PAUSE):
        self.queue.append(((), frames))

    def call(self, fn):
        """Queue a function to run when the animation reaches this point."""
        self.queue.append((fn, 0))

    def busy(self):
        return self.moves is not None or bool(self.queue)

    def hurry(self):
        """A key was pressed: play what is queued quickly (pauses skipped, each move in
        one frame), still within each frame's pixel budget."""
        self.hurrying = True

    def _start(self):
        targets, frames = self.queue.pop(0)
        if callable(targets):
            targets()
            return
        if not targets:                            # a pause
            if frames and not self.hurrying:
                self.moves = []
                self.waiting = [None] * frames     # empty frames
            return
        cw, ch = self.lay.cw, self.lay.ch
        moves = []
        for c, to_xy, dim, via in targets:
            t = self.cards[c]
            if to_xy is None:                      # leave the table, towards `via`
                if self.place[c] is None:
                    continue
                start = (t.x, t.y)
                self.place[c] = None
                end = via
            else:
                if self.place[c] is not None:
                    start = (t.x, t.y)
                else:
                    start = via if via is not None else to_xy
                self.set_card(c, start, dim)
                self.place[c] = to_xy
                end = to_xy
            if end is not None and end != start and frames:
                dx, dy = abs(end[0] - start[0]), abs(end[1] - start[1])
                flight = dx + dy >= ch
                n = frames if flight else min(frames, (dx + dy + SPEED - 1) // SPEED)
                step = (cw + dx // n + 1) * (ch + dy // n + 1)
                moves.append(Move(t, start[0], start[1], end[0], end[1], to_xy is None, n,
                                  flight, min(step, 2 * cw * ch)))
            elif to_xy is None:
                t.hidden = True
            else:
                self.set_card(c, end, dim)
        if moves:
            # flights first (in the order given: a dealt hand arrives left to right),
            # then the short moves
            self.moves = []
            self.waiting = [m for m in moves if m.flight] + [m for m in moves if not m.flight]

    def tick(self):
        """Play one frame; True while anything is still to come."""
        while self.moves is None:
            if not self.queue:
                self.hurrying = False
                return False
            self._start()
        waiting = self.waiting
        if self.hurrying:
            waiting[:] = [m for m in waiting if m is not None]
        jump = 2 * self.lay.cw * self.lay.ch       # a move done in one frame
        spent = 0
        for m in self.moves:
            spent += jump if self.hurrying else m.cost
        while waiting and (not self.moves or waiting[0] is None
                           or spent + (jump if self.hurrying else waiting[0].cost) <= ui.FRAME_PIXELS):
            m = waiting.pop(0)
            if m is None:                          # a pause frame
                break
            if m.flight:
                self.to_front(m.t)                 # flights pass over the other cards
            self.moves.append(m)
            spent += jump if self.hurrying else m.cost
        for m in self.moves:
            m.frame = m.frames if self.hurrying else m.frame + 1
            f, n = m.frame, m.frames
            m.t.x = m.x0 + (m.x1 - m.x0) * f // n
            m.t.y = m.y0 + (m.y1 - m.y0) * f // n
        done = [m for m in self.moves if m.frame >= m.frames]
        for m in done:
            if m.leaving:
                m.t.hidden = True
            self.moves.remove(m)
        if not self.moves and not waiting:
            self.moves = None
            self.waiting = None
        return self.busy()
