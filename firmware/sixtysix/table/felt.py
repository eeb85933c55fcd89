"""The card table: one TileGrid per card that moves between hand, trick and talon.

Every card of the pack owns a TileGrid showing its face (backs are TileGrids of their
own: talon, the closed trump, the computer's hand, piles), so drawing a state is "put
each card where it belongs". `goto(targets, 0)` jumps to a state, `goto(targets, n)`
queues a step animated over n frames, `tick()` plays one frame.

What a frame costs on the board is what displayio redraws: each moving card dirties the
rectangle it leaves and the one it enters (tools/devicecost.py turns that into time).
So a step does not move every card at once: its moves start one after another as the
frame's budget (ui.FRAME_US) allows, long flights first, and a short move
(a card closing a gap in the hand: from the gap outwards) goes a card's step a frame.
"""
import displayio
import sixtysix
from sixtysix.core import bmp, ui

BACK = 32           # card images on a sheet: 0-31 faces, then the back
IMAGES = 33
SLOT_COLOR = 7      # the sheet's palette entry for an empty place's outline (tools/sprites.py)
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

    def map(self):
        """(tile numbers, columns, rows of the whole map, row stride): bmp.rows."""
        if self.cells is None:
            self.cells = bmp.rows(self.map_path)
        return self.cells

    def tile(self, image, x=0, y=0):
        """A new TileGrid showing card image `image` (a card or BACK) at x, y."""
        cells, cols, height, stride = self.map()
        rows = height // IMAGES
        t = displayio.TileGrid(self.bitmap, pixel_shader=self.palette, width=cols,
                               height=rows, tile_width=self.w // cols,
                               tile_height=self.h // rows, x=x, y=y)
        i = 0
        at = (height - 1 - image * rows) * stride       # the image's top row (bottom-up)
        for _ in range(rows):
            for k in range(at, at + cols):
                t[i] = cells[k]
                i += 1
            at -= stride
        return t

    def done(self):
        """The screen's cards are made: let the map go."""
        self.cells = None


class Layout:
    """The screen's description (sixtysix.core.layouts) as attributes, and the hand's arithmetic;
    it sets the frame budget for the display's SPI clock (spi_khz)."""

    def __init__(self, width, height, spi_khz=ui.SPI_KHZ):
        self.w = width
        self.h = height
        # A frame's drawing budget on this display: a pixel's 16 bits take 16000/spi_khz
        # ns to send, more than at ui.SPI_KHZ on a slower clock, so fewer pixels fit (a
        # sheet pixel, the dearer kind, sets the share)
        extra = max(0, 16000000 // spi_khz - 16000000 // ui.SPI_KHZ)        # ns a pixel more
        ui.FRAME_US = ui.FRAME * ui.TILE_US * 1000 // (ui.TILE_US * 1000 + extra)
        from sixtysix.core import layouts
        d = layouts.for_screen(width, height)
        sixtysix.forget("sixtysix.core", "layouts")                 # read once, at power-on
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


OFF = -2000         # hidden cards wait here: off the screen, where redrawing costs nothing


class Move:
    """Card c's way from (x0, y0) to (x1, y1) over `frames` frames; it shows (dimmed or
    not) at (x0, y0) when the move starts, and hides at the end if it is `leaving`. A card
    that only changes its look is a one-frame move that stays where it is."""

    def __init__(self, c, x0, y0, x1, y1, dim, leaving, frames, flight, cost):
        self.c = c
        self.x0, self.y0, self.x1, self.y1 = x0, y0, x1, y1
        self.dim = dim
        self.leaving = leaving
        self.frames = frames
        self.frame = 0
        self.flight = flight    # across the table (over other cards), not a short shift
        self.cost = cost        # us of drawing a frame (what it leaves and enters)


class Table:
    """The table's state and animation. Its layers are made a step a frame while its
    screen is built (sixtysix.table.build)."""

    def __init__(self, sheet, lay, pack_mask, players=2, seat_labels=False):
        self.sheet = sheet
        self.lay = lay
        self.players = players
        self.group = displayio.Group()     # over the app's felt
        self.backs = []
        self.piles = [None] * 4
        self.last_label = None
        self.seat_labels = [None] * 4
        # cards[c] is card c's TileGrid (None if c is not in this pack), place[c] its spot
        # on the table or None while hidden
        self.cards = [None] * 32
        self.place = [None] * 32
        self.pack_mask = pack_mask
        self.seat_words = seat_labels       # (a team deal: its bids by the seats)
        self.queue = []
        self.looks = []         # (TileGrid, hide it?, park it off the screen?) to do
        self.moves = None       # the step in progress: moves running
        self.waiting = None     # ... and moves still to start
        self.hurrying = False

    # ---- immediate changes -------------------------------------------------------

    def to_front(self, t):
        g = self.group
        if g[len(g) - 1] is not t:
            g.remove(t)
            g.append(t)

    def set_card(self, c, xy, dim=False, show=True):
        """Put card c at xy (or hide it with None) at once (`show` False: there, still
        hidden)."""
        t = self.cards[c]
        self.place[c] = xy
        self.look(t, t.hidden)                    # (drops a look still to come)
        if xy is None:
            t.hidden = True
            xy = (OFF, OFF)                       # so showing it later redraws nothing here
        elif show:
            ui.set_hidden(t, False)
        shader = self.sheet.dim if dim else self.sheet.palette
        if t.pixel_shader is not shader:
            t.pixel_shader = shader
        if t.x != xy[0]:
            t.x = xy[0]
        if t.y != xy[1]:
            t.y = xy[1]

    def set_talon(self, backs, label, cpu_cards, trump_down=False):
        """Talon (or widow) back and its label, the turn-up face down (closed talon); the
        computer's backs where they show."""
        self.look(self.talon, backs <= 0)
        self.look(self.trump_back, not trump_down)
        self.talon_label.set(label)
        for i, t in enumerate(self.backs):
            self.look(t, i >= cpu_cards)

    def set_piles(self, counts, last_words):
        """Show each place's pile as big as its won tricks (counts by place): one back,
        two from the second trick on."""
        for place, pile in enumerate(self.piles):
            if pile is not None:
                for i, t in enumerate(pile):
                    self.look(t, counts[place] <= i)
        if self.last_label is not None:
            self.last_label.set(last_words)

    def look(self, t, hide, park=False):
        """Show or hide t from the next frame on, within the frames' budget (a deal's
        fresh backs appear a few a frame)."""
        for i, (u, _, _) in enumerate(self.looks):
            if u is t:
                self.looks.pop(i)
                break
        if t.hidden != hide or park:
            self.looks.append((t, hide, park))

    def set_panel(self, lines):
        for i, lab in enumerate(self.panel):
            lab.set(lines[i] if i < len(lines) else "")

    def message(self, s):
        self.msg.set(ui.fit(s, self.lay.msg_chars))

    # ---- animation -------------------------------------------------------------------

    def goto(self, targets, frames):
        """Queue one animated step: a list of (card, to_xy, dim, via) over `frames` frames
        (a flight's; shorter moves take fewer).

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
        return self.moves is not None or bool(self.queue) or bool(self.looks)

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
        ch = self.lay.ch
        moves = []
        for c, to_xy, dim, via in targets:
            t = self.cards[c]
            here = self.place[c]
            if to_xy is None:                      # leave the table, towards `via`
                if here is None:
                    continue
                self.place[c] = None
                if via is None or not frames:
                    self.look(t, True, True)
                    continue
                start, end = (t.x, t.y), via
            else:
                self.place[c] = to_xy
                start = (t.x, t.y) if here is not None else (via if via is not None else to_xy)
                end = to_xy
                shader = self.sheet.dim if dim else self.sheet.palette
                if not frames or end == start and here is not None and t.pixel_shader is shader:
                    self.set_card(c, end, dim, here is not None)    # at once (or nothing changes)
                    if here is None:
                        self.look(t, False)     # a card laid out appears within the budget
                    continue
            dx, dy = abs(end[0] - start[0]), abs(end[1] - start[1])
            flight = dx + dy >= ch
            # a short move (the hand closing up, a dealt packet fanning out) goes a card's
            # step (the layout's stride) a frame: fewer pixels than two half steps
            stride = self.lay.stride
            n = frames if flight else max(1, min(frames, (dx + dy + stride - 1) // stride))
            moves.append(Move(c, start[0], start[1], end[0], end[1], dim, to_xy is None, n, flight, 0))
        if moves:
            # flights first (in the order given: a dealt hand arrives left to right),
            # then the short moves and new looks, nearest the first flight's start first:
            # a hand closes up over the gap a played card left from the gap outwards
            flights = [m for m in moves if m.flight]
            gap = (flights[0].x0, flights[0].y0) if flights else None
            short = [m for m in moves if not m.flight]
            if gap is not None:
                # (ties by card: MicroPython's sort is not stable, and the benchmark's
                # replay in its VM must take the simulator's path)
                short.sort(key=lambda m: (abs(m.x0 - gap[0]) + abs(m.y0 - gap[1])) * 32 + m.c)
            for m in moves:
                m.cost = self.move_cost(m, gap)
            self.moves = []
            self.waiting = flights + short

    def move_cost(self, m, gap):
        """Microseconds a frame of move m draws: the card where it arrives and what it
        uncovers (one rectangle around both while that is small, else the two places
        apart). A flight uncovers felt, but one from the player's hand (lifted or not) its
        neighbours there (which close up under it meanwhile) and one that leaves (a trick
        swept off) the trick's other cards it lay on or passes over, and the hand on its
        way to the player; a card closing up towards a
        gap uncovers felt (its neighbour on the far side moves after it), any other short
        move its neighbours. A card that comes from off the screen in one frame (one
        fanning out of its dealt packet) draws only where it arrives."""
        cw, ch = self.lay.cw, self.lay.ch
        card = cw * ch
        if m.frames == 1 and self.cards[m.c].hidden:
            return card * ui.TILE_US
        dx, dy = m.x1 - m.x0, m.y1 - m.y0
        step = min((cw + abs(dx) // m.frames + 1) * (ch + abs(dy) // m.frames + 1), 2 * card)
        if m.flight:
            felt = (m.y0 + ch <= self.lay.hand_y or m.y0 >= self.lay.h) and not m.leaving
        else:
            felt = gap is not None and (gap[0] - m.x0) * dx > 0
        return card * ui.TILE_US + (step - card) * (ui.SHAPE_US if felt else ui.TILE_US)

    def tick(self, budget=None):
        """Play one frame within `budget` (us of drawing; None: a whole frame's, which
        always lets something happen; 0 starts nothing new, only what needs no frames);
        True while anything is still to come."""
        queue = self.queue
        if self.moves is None and queue and callable(queue[0][0]):
            self._start()           # its Python (a new deal, an action) is the frame's work
            return self.busy()
        while self.moves is None and queue and not callable(queue[0][0]):
            self._start()
        if not self.hurrying and not (self.moves or self.waiting) and not self.looks:
            return self.busy()
        card = self.lay.cw * self.lay.ch
        jump = card * (ui.TILE_US + ui.SHAPE_US)        # a move done in one frame
        free = budget is None                           # the first thing fits, whatever it costs
        if free:
            budget = ui.FRAME_US
        spent = 0
        for m in self.moves or ():                       # cards already on their way
            spent += jump if self.hurrying else m.cost
        waiting = self.waiting or []
        if self.hurrying:
            waiting[:] = [m for m in waiting if m is not None]
        fronted = 0                                 # 1: hidden cards came to the front, 2: one on show
        while waiting:
            m = waiting[0]
            if m is None:                          # a pause frame
                waiting.pop(0)
                break
            # flights pass over the other cards, so they go to the front. Taking a card
            # out of the group redraws where it was; displayio joins all that leaves a
            # group in a frame into one rectangle, so a card on show goes to the front
            # one a frame, and not with hidden ones: they wait off the screen, where a
            # hidden card may have been drawn last (the rectangle would reach the corner)
            front = m.flight and not m.leaving
            shown = front and not self.cards[m.c].hidden
            cost = (jump if self.hurrying else m.cost) + (card * ui.TILE_US if shown else 0)
            if front and (fronted == 2 or shown and fronted) or \
                    spent + cost > budget and not (free and spent == 0):
                break
            waiting.pop(0)
            if front:
                self.to_front(self.cards[m.c])
                fronted = max(fronted, 2 if shown else 1)
            if not m.leaving:
                self.set_card(m.c, (m.x0, m.y0), m.dim)
                self.place[m.c] = (m.x1, m.y1)
            self.moves.append(m)
            spent += cost
        looks = self.looks                         # what shows or hides: with what is left
        while looks:
            t, hide, park = looks[0]
            # a card or a back: where it shows, its own tiles; where it hides, what it
            # covered, which may be other cards (a hand that overlaps, a pile): tiles too
            cost = ui.area(t) * ui.TILE_US
            if spent + cost > budget and not (free and spent == 0):
                break
            looks.pop(0)
            ui.set_hidden(t, hide)
            if park:
                t.x = t.y = OFF
            spent += cost
        for m in self.moves or ():
            m.frame = m.frames if self.hurrying else m.frame + 1
            f, n = m.frame, m.frames
            t = self.cards[m.c]
            t.x = m.x0 + (m.x1 - m.x0) * f // n
            t.y = m.y0 + (m.y1 - m.y0) * f // n
        if self.moves is not None:
            for m in [m for m in self.moves if m.frame >= m.frames]:
                if m.leaving:
                    self.set_card(m.c, None)
                self.moves.remove(m)
            if not self.moves and not waiting:
                self.moves = None
                self.waiting = None
        if self.moves is None and not queue and not looks:
            self.hurrying = False
        return self.busy()
