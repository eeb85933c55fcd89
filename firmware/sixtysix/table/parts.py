"""The table's steps between its places and its cards (sixtysix.table.build): the
computer's backs, the piles and the texts. A module of its own so that neither half of
the table's building code takes longer than a frame to compile."""
from sixtysix.core import ui
from sixtysix.table.felt import BACK

# An object constant: without one, the end of this module's compiled constants points at
# the next heap block and keeps whatever lands there alive (a whole search: 5.7 KB)
# (host_tests/test_firmware_memory.py, test_no_module_pins_the_heap_block_after_its_constants)
HEAP_ANCHOR = "ends in its own block"


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
        t.last_label = ui.Label("", lay.last[4], lay.last[5], ui.SOFT, 1, 15)
        g.append(t.last_label.view)
    if t.seat_words:
        for p, xy in enumerate(lay.places[players]):
            if xy is not None:
                lab = ui.Label("", xy[0] + 1, xy[1] + 16, ui.GOLD, 1, 5)
                t.seat_labels[p] = lab
                g.append(lab.view)
    px, py = lay.panel
    t.panel = [ui.Label("", px, py + i * ui.LINE_H, ui.WHITE, 1, lay.panel_chars) for i in range(5)]
    for lab in t.panel:
        g.append(lab.view)
    t.msg = ui.Label("", lay.msg[0], lay.msg[1], ui.GOLD, 1, lay.msg_chars)
    g.append(t.msg.view)
    fill()
