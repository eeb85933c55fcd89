"""The table's layers, made a step a frame while the table screen is built (ui.Show runs
the steps), in drawing order: the places and the talon, the computer's backs, the piles
and the texts (sixtysix.table.parts), then the cards a few a step (a card's TileGrid is
dear to make: one tile of it set at a time). Compiled for each table (the title loads
both modules while it waits, one a frame: each compiles within a frame) and forgotten
once it is built: none of it stays in the heap while the match plays."""
from sixtysix.core import ui
from sixtysix.table.felt import BACK, IMAGES, OFF, SLOT_COLOR
from sixtysix.table.parts import backs, texts

CARD_TILES = 900    # tiles of cards set in one frame: 12 cards of 70 tiles, 20 of 44


def steps(t, fill, then):
    """Make table t's places now (a light step: outlines, two backs, a label) and return
    the steps for the rest; `fill` sets its texts, `then` is the last."""
    places(t)
    pack = [c for c in range(32) if t.pack_mask >> c & 1]
    _, cols, height, _ = t.sheet.map()
    n = -(-len(pack) * cols * (height // IMAGES) // CARD_TILES)     # steps
    n = -(-len(pack) // n)                          # cards a step, as even as they go
    out = [lambda: backs(t), lambda: texts(t, fill)]
    for i in range(0, len(pack), n):
        out.append(adder(t, pack[i:i + n], i + n >= len(pack)))
    out.append(then)
    return out


def places(t):
    """Empty places are outlines, not sheet tiles: nothing but a line to redraw when a
    card passes over them. The turn-up's, the talon and its words."""
    lay, sheet, g = t.lay, t.sheet, t.group
    slot = sheet.palette[SLOT_COLOR]
    turn_up = ui.outline(lay.trump[0], lay.trump[1], lay.cw, lay.ch, slot)
    turn_up.hidden = t.seat_words           # a team deal: no turn-up
    g.append(turn_up)
    t.trump_back = sheet.tile(BACK, *lay.trump)     # the turn-up once closed
    t.trump_back.hidden = True
    g.append(t.trump_back)
    for xy in lay.places[t.players]:
        if xy is not None:
            g.append(ui.outline(xy[0], xy[1], lay.cw, lay.ch, slot))
    t.talon = sheet.tile(BACK, *lay.talon)
    g.append(t.talon)
    t.talon_label = ui.Label("", lay.talon_text[0], lay.talon_text[1], ui.SOFT, 1, 8)
    g.append(t.talon_label.view)


def adder(t, some, last):
    """A step that makes cards `some`, hidden, off the screen (the `last`: then lets the
    sheet's map go)."""
    def add():
        for c in some:
            card = t.sheet.tile(c, OFF, OFF)
            card.hidden = True
            t.cards[c] = card
            t.group.append(card)
        if last:
            t.sheet.done()
    return add
