"""The table's layers, made a step a frame while the table screen is built (ui.Show runs
the steps), in drawing order: the places and the talon, the computer's backs, the piles
and the texts (filled before they show), then the cards a few a step (a card's TileGrid
is dear to make: one tile of it set at a time). Compiled for each table and forgotten
once it is built: none of it stays in the heap while the match plays."""
from sixtysix import ui
from sixtysix.table import BACK, IMAGES, OFF, SLOT_COLOR

CARD_TILES = 600    # tiles of cards set in one frame: 8 cards of 70 tiles, 13 of 44


def steps(t, fill, then):
    """Make table t's places now (a light step: outlines, two backs, a label) and return
    the steps for the rest; `fill` sets its texts, `then` is the last."""
    places(t)
    pack = [c for c in range(32) if t.pack_mask >> c & 1]
    cells = t.sheet.map()
    n = -(-len(pack) * cells.width * (cells.height // IMAGES) // CARD_TILES)   # steps
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
    t.talon_label = ui.text("", lay.talon_text[0], lay.talon_text[1], ui.SOFT, 1, 8)
    g.append(t.talon_label.view)


def backs(t):
    """The computer's hand as backs, where the layout shows it (two-handed)."""
    lay = t.lay
    if lay.cpu_hand and t.players == 2:
        x, y, step = lay.cpu_hand
        for i in range(6):
            b = t.sheet.tile(BACK, x + i * step, y)
            b.hidden = True
            t.backs.append(b)
            t.group.append(b)


def texts(t, fill):
    """Won tricks as face-down piles by place (two-handed, where the layout shows them);
    the last trick's words, a short word in each seat's trick place (its bid while
    bidding), the score panel and the message line: filled before they show."""
    lay, sheet, g = t.lay, t.sheet, t.group
    players = t.players
    if players == 2 and lay.piles:
        for place in lay.piles:
            x, y = lay.piles[place]
            pile = (sheet.tile(BACK, x, y), sheet.tile(BACK, x + 3, y + 3))
            for b in pile:
                b.hidden = True
                g.append(b)
            t.piles[place] = pile
    if players == 2 and lay.last:
        t.last_label = ui.text("", lay.last[4], lay.last[5], ui.SOFT, 1, 15)
        g.append(t.last_label.view)
    if t.seat_words:
        for p, xy in enumerate(lay.places[players]):
            if xy is not None:
                lab = ui.text("", xy[0] + 1, xy[1] + 16, ui.GOLD, 1, 5)
                t.seat_labels[p] = lab
                g.append(lab.view)
    px, py = lay.panel
    t.panel = [ui.text("", px, py + i * ui.LINE_H, ui.WHITE, 1, lay.panel_chars) for i in range(5)]
    for lab in t.panel:
        g.append(lab.view)
    t.msg = ui.text("", lay.msg[0], lay.msg[1], ui.GOLD, 1, lay.msg_chars)
    g.append(t.msg.view)
    fill()


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
