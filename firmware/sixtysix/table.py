"""The card table: one TileGrid per card that moves between hand, trick and talon.

Every card of the pack owns a TileGrid from the sprite sheet (tile n = card n),
so drawing a state is just "put each card where it belongs"; moving a card is
animated by changing its x/y a few pixels per frame, which makes displayio
redraw only two small rectangles per frame. `goto(places, 0)` jumps to a
state, `goto(places)` queues an animated step, `tick()` plays one frame.
"""
import displayio
from sixtysix import ui

CARD_W = 32
CARD_H = 44
BACK = 32
SLOT = 33
COLUMNS = 17
FRAMES = 6          # frames per card move
PAUSE = 14          # frames a finished trick stays on the table


def _dimmed(color):
    """Half way to the felt: an unplayable card fades but keeps its suit colour."""
    r, g, b = color >> 16, (color >> 8) & 255, color & 255
    return (((r + 0x0B) // 2) << 16) | (((g + 0x5D) // 2) << 8) | ((b + 0x2A) // 2)


class Sheet:
    """The sprite sheet on flash (OnDiskBitmap: no RAM for pixels) and its palettes."""

    def __init__(self, path):
        self.bitmap = displayio.OnDiskBitmap(path)
        self.palette = self.bitmap.pixel_shader
        self.palette.make_transparent(0)
        n = len(self.palette)
        self.dim = displayio.Palette(n)
        for i in range(n):
            self.dim[i] = _dimmed(self.palette[i])
        self.dim.make_transparent(0)

    def tile(self, index, x=0, y=0):
        t = displayio.TileGrid(self.bitmap, pixel_shader=self.palette, width=1, height=1,
                               tile_width=CARD_W, tile_height=CARD_H, x=x, y=y)
        t[0] = index
        return t


class Layout:
    """Where things go on a WIDTH x HEIGHT screen (240x135 compact, 240x240 tall)."""

    def __init__(self, width, height):
        self.w = width
        self.h = height
        self.tall = height >= 200
        if self.tall:
            self.hand_y = height - CARD_H - 8
            self.raise_px = 8
            self.stride = 38
            self.trump = (10, 90)
            self.talon = (30, 86)
            self.talon_text = (10, 138)
            self.cpu_trick = (96, 78)
            self.my_trick = (138, 96)
            self.cpu_from = (40, 8)
            self.cpu_hand = (6, 8, 20)          # x, y, stride of the computer's backs
            self.panel = (150, 8)
            self.msg = (4, 160)
            self.msg_chars = 39
            # trick cards by place (bottom = you, left, top, right) for 3 and 4 players
            self.places = {3: ((112, 110), (80, 70), None, (144, 70)),
                           4: ((104, 112), (60, 86), (104, 60), (148, 86))}
        else:
            self.hand_y = height - CARD_H - 2
            self.raise_px = 6
            self.stride = 34
            self.trump = (3, 18)
            self.talon = (21, 14)
            self.talon_text = (2, 2)
            self.cpu_trick = (76, 4)
            self.my_trick = (112, 14)
            self.cpu_from = (width // 2 - CARD_W // 2, -CARD_H)
            self.cpu_hand = None
            self.panel = (152, 2)
            self.msg = (2, 70)
            self.msg_chars = 39
            # a tilted diamond: no card ever covers another's corner index
            self.places = {3: ((86, 24), (54, 2), None, (118, 2)),
                           4: ((80, 26), (10, 14), (50, 0), (116, 14))}
        self.places[2] = (self.my_trick, None, self.cpu_trick, None)

    def hand_xy(self, i, n):
        """Card i of n in the hand; more cards than fit side by side overlap (8 or 12)."""
        stride = self.stride
        if n > 1:
            stride = min(stride, (self.w - 4 - CARD_W) // (n - 1))
        left = (self.w - (n - 1) * stride - CARD_W) // 2
        return left + i * stride, self.hand_y

    def offscreen(self, place):
        """Where a card enters from or leaves towards the player at `place`."""
        if place == 0:
            return (self.w // 2 - CARD_W // 2, self.h)
        if place == 2:
            return (self.w // 2 - CARD_W // 2, -CARD_H)
        x = -CARD_W if place == 1 else self.w
        return (x, 10)


class Table:
    def __init__(self, sheet, width, height, pack_mask, players=2, seat_labels=False):
        self.sheet = sheet
        self.lay = lay = Layout(width, height)
        self.group = displayio.Group()
        self.group.append(ui.rect(0, 0, width, height, ui.FELT))
        g = self.group
        self.trump_slot = sheet.tile(SLOT, *lay.trump)
        g.append(self.trump_slot)
        for xy in lay.places[players]:
            if xy is not None:
                g.append(sheet.tile(SLOT, *xy))
        self.talon = sheet.tile(BACK, *lay.talon)
        g.append(self.talon)
        self.talon_label = ui.text("", lay.talon_text[0], lay.talon_text[1], ui.SOFT, 1, 8)
        g.append(self.talon_label.view)
        self.backs = []
        if lay.cpu_hand:
            x, y, step = lay.cpu_hand
            for i in range(6):
                t = sheet.tile(BACK, x + i * step, y)
                t.hidden = True
                self.backs.append(t)
                g.append(t)
        # a short word in each seat's trick place (its bid while bidding)
        self.seat_labels = [None] * 4
        if seat_labels:
            for p, xy in enumerate(lay.places[players]):
                if xy is not None:
                    lab = ui.text("", xy[0] + 1, xy[1] + 16, ui.GOLD, 1, 5)
                    self.seat_labels[p] = lab
                    g.append(lab.view)
        px, py = lay.panel
        self.panel = [ui.text("", px, py + i * ui.LINE_H, ui.WHITE, 1, 14) for i in range(5)]
        for lab in self.panel:
            g.append(lab.view)
        self.msg = ui.text("", lay.msg[0], lay.msg[1], ui.GOLD, 1, lay.msg_chars)
        g.append(self.msg.view)
        # cards[c] is card c's TileGrid (None if c is not in this pack); place[c] its
        # spot on the table, or None while hidden
        self.pack_mask = pack_mask
        self.cards = [None] * 32
        self.place = [None] * 32
        for c in range(32):
            if pack_mask >> c & 1:
                t = sheet.tile(c)
                t.hidden = True
                self.cards[c] = t
                g.append(t)
        self.queue = []
        self.moves = None
        self.frame = 0

    # ---- immediate changes -------------------------------------------------------

    def to_front(self, t):
        self.group.remove(t)
        self.group.append(t)

    def set_card(self, c, xy, face=True, dim=False):
        """Put card c at xy (or hide it with None) at once."""
        t = self.cards[c]
        self.place[c] = xy
        if xy is None:
            t.hidden = True
            return
        idx = c if face else BACK
        if t[0] != idx:
            t[0] = idx
        shader = self.sheet.dim if dim else self.sheet.palette
        if t.pixel_shader is not shader:
            t.pixel_shader = shader
        if t.x != xy[0]:
            t.x = xy[0]
        if t.y != xy[1]:
            t.y = xy[1]
        if t.hidden:
            t.hidden = False

    def set_talon(self, backs, label, cpu_cards):
        """Talon (or widow) back and its label; the computer's backs on tall screens."""
        self.talon.hidden = backs <= 0
        ui.set_text(self.talon_label, label)
        for i, t in enumerate(self.backs):
            hide = i >= cpu_cards
            if t.hidden != hide:
                t.hidden = hide

    def set_panel(self, lines):
        for i, lab in enumerate(self.panel):
            ui.set_text(lab, lines[i] if i < len(lines) else "")

    def message(self, s):
        ui.set_text(self.msg, ui.fit(s, self.lay.msg_chars))

    # ---- animation -------------------------------------------------------------------

    def goto(self, targets, frames=FRAMES):
        """Queue one animated step: a list of (card, to_xy, face, dim, via).

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

    def _start(self):
        targets, frames = self.queue.pop(0)
        if callable(targets):
            targets()
            return
        moves = []
        for c, to_xy, face, dim, via in targets:
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
                self.set_card(c, start, face, dim)
                self.place[c] = to_xy
                end = to_xy
            if end is not None and end != start and frames:
                self.to_front(t)
                moves.append((t, start[0], start[1], end[0], end[1], to_xy is None))
            elif to_xy is None:
                t.hidden = True
            else:
                self.set_card(c, end, face, dim)
        if not moves and targets:
            return                                 # nothing moves: no need to wait
        self.moves = moves
        self.frames = frames
        self.frame = 0

    def tick(self):
        """Play one frame; True while anything is still to come."""
        if self.moves is None:
            if not self.queue:
                return False
            self._start()
            if self.moves is None:
                return bool(self.queue)
        self.frame += 1
        f, n = self.frame, self.frames
        for t, x0, y0, x1, y1, _ in self.moves:
            t.x = x0 + (x1 - x0) * f // n
            t.y = y0 + (y1 - y0) * f // n
        if f >= n:
            for t, _, _, _, _, leaving in self.moves:
                if leaving:
                    t.hidden = True
            self.moves = None
        return self.busy()

    def finish(self):
        """Skip to the end of everything queued (a key was pressed)."""
        while self.tick():
            pass
