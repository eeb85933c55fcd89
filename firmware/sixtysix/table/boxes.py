"""Boxes over the table: the action menu, hints and notices, deal and match results.

Each opens with `open_box`, which hangs a Group on the table (shown a few layers a frame)
and tells the game which function gets the buttons until the box closes (game.overlay).
"""
import gc
import displayio
from shared_rules import cards
from shared_rules.actions import MARRY, DECLARE_MARRIAGE, EXCHANGE, CLOSE, DECLARE
from sixtysix.core import ui
from sixtysix.table.driver import HUMAN

REASONS = {"declared": "66 declared", "wrong-declaration": "wrong declaration",
           "last-trick": "last trick", "lone-66": "only one reached 66",
           "no-score": "nobody scored: 1 carried", "annulled": "deal annulled",
           "higher": "more points", "played-out": "more points", "made": "bid made",
           "set": "bid set"}
EXTRA = ("", "", " - schneider", " - schwarz", " - 4 points")


def open_box(game, title, lines, items, handler):
    """A framed box with a title, text lines and a menu; `handler(role)` gets the keys.

    The box is built as horizontal bands, one a line of text (its inside and its text)
    and one a menu row, with the menu (its bar and labels) over them, the box's two sides
    coming whole with the first: it appears a band or two a frame and leaves the same
    way, so no refresh draws the whole box. A band is made in the frame it appears in
    (the first with the key that opened the box: on the real firmware a box of nine
    lines made at once kept the key's answer waiting 40 ms more)."""
    lay = game.lay
    w = box_width(lay)
    row = 14 if len(items) <= 7 else 12
    h = 8 + (ui.LINE_H + 1) * (len(lines) + 1) + row * len(items)
    h = min(h, lay.h - 4)
    x = (lay.w - w) // 2
    y = max(2, (lay.h - h) // 2 - lay.box[1])
    chars = (w - 12) // ui.CHAR_W
    texts = [(title, ui.GOLD)] + [(s, ui.WHITE) for s in lines]
    menu_y = y + 5 + len(texts) * (ui.LINE_H + 1)
    cuts = [y + 4 + i * (ui.LINE_H + 1) for i in range(1, len(texts))]
    cuts += [menu_y + i * row for i in range(len(items))]
    cuts = [c for c in cuts if y < c < y + h] + [y + h]
    g = displayio.Group()

    def band(top, bottom):
        if top == y:        # the box's sides whole, each a layer of its own: 2 pixels wide,
            for side in (x, x + w - 2):     # cheap at once, and 2 shapes, not 2 a band
                s = displayio.Group()
                s.append(ui.rect(side, y, 2, h, ui.GOLD))
                g.append(s)
        b = displayio.Group()
        inner_top, inner_bottom = max(top, y + 2), min(bottom, y + h - 2)
        if inner_bottom > inner_top:
            b.append(ui.rect(x + 2, inner_top, w - 4, inner_bottom - inner_top, ui.FELT_DARK))
        if top < y + 2:
            b.append(ui.rect(x + 2, y, w - 4, 2, ui.GOLD))
        if bottom > y + h - 2:
            b.append(ui.rect(x + 2, y + h - 2, w - 4, 2, ui.GOLD))
        for i, (s, color) in enumerate(texts):
            ty = y + 4 + i * (ui.LINE_H + 1)
            if top <= ty < bottom:
                b.append(ui.Label(ui.fit(s, chars), x + 6, ty, color).view)
        g.append(b)

    steps = []
    top = y
    for bottom in cuts:
        steps.append(lambda top=top, bottom=bottom: band(top, bottom))
        top = bottom
    menu_group = displayio.Group()
    menu = ui.ListWidget(menu_group, items, x + 4, menu_y, w - 8, row, later=game.wipes)
    steps.append(lambda: g.append(menu_group))
    game.show_box(g, steps)
    game.overlay = (g, menu, handler)


def box_width(lay):
    return min(lay.w - 16, lay.box[0])


def notice(game, title, text, then=None):
    """A wrapped message; any button closes it (and calls `then`, if given: what it
    returns is the screen to go to, or None). A text too long for the screen goes on in
    a box of its own (the lesson's)."""
    lay = game.lay
    lines = ui.wrap(text, (box_width(lay) - 12) // ui.CHAR_W)
    rows = (lay.h - 26) // (ui.LINE_H + 1) - 1      # what open_box fits above one menu line
    if len(lines) > rows:
        rest = " ".join(lines[rows:])
        lines = lines[:rows]
        later = then
        then = (lambda: notice(game, title, rest, later))

    def close(role):
        game.close_overlay()
        return None if then is None else then()

    open_box(game, title, lines, ["OK"], close)


def action_menu(game, items=None, item=None):
    """What the player may do besides playing the raised card: only what is legal now,
    and nothing of a hand hidden for a pass (game.passing); `items(turn, labels, acts)`
    adds a kind of table's own (a linked table's: leaving, and out of turn the Russian
    close asked of the other device; pass-and-play's: the close before the lead), `item(act)`
    does one of them and gives the next screen or None."""
    d = game.match.deal
    me = game.me()
    hand = game.hand()
    sel = hand[game.cursor] if hand else -1
    labels = []
    acts = []
    married = 0
    session = game.session
    turn = not game.passing and (session is None or session.my_turn())
    for a in d.legal_actions() if turn else ():
        if MARRY <= a < DECLARE_MARRIAGE:
            s = (a & 31) >> 3
            if married >> s & 1:
                continue
            married |= 1 << s
            # lead the raised card if it is this marriage's K or Q, else the K
            c = sel if sel >= 0 and sel >> 3 == s and (sel & 7) in (2, 3) else (s << 3) | 2
            labels.append("Marry " + cards.SUIT_WORDS[s] + " (" + str(game.meld_value(s)) + "), lead "
                          + cards.RANK_WORDS[c & 7])
            acts.append(MARRY + c)
        elif DECLARE_MARRIAGE <= a < EXCHANGE:
            labels.append("Show " + cards.SUIT_WORDS[(a & 31) >> 3] + " K+Q, claim 66")
            acts.append(a)
        elif a == EXCHANGE:
            labels.append("Exchange " + cards.RANK_WORDS[d.exchange_card & 7] + " for "
                          + cards.RANK_WORDS[d.trump_card & 7] + " " + cards.SUIT_WORDS[d.trump])
            acts.append(a)
        elif a == CLOSE:
            labels.append("Close the talon")
            acts.append(a)
        elif a == DECLARE and game.match.counting == "classic":
            labels.append("Declare 66")
            acts.append(a)
    if turn and game.device.settings.get("hints") == "on":
        labels.append("Hint")
        acts.append("hint")
    labels.append("Main menu")
    acts.append("title")
    if items is not None:
        items(turn, labels, acts)
    labels.append("Back")
    acts.append("back")

    def chosen(role):
        if role == "menu":
            game.close_overlay()
            return None
        i = game.overlay[1].handle(role)
        if i is None:
            return None
        a = acts[i]
        if a == "title":
            game.overlay = None         # it leaves with the table (App.go): no wipe of its own
            return "title"
        game.close_overlay()
        if a == "hint":
            hint(game)
        elif a in ("ask", "leave"):
            return item(a)
        elif a != "back":
            game.table.call(lambda: game.act(a, me))    # once the box is gone
        return None

    open_box(game, "Your move" if turn else "Menu", [], labels, chosen)


def hint(game):
    """Ask the computer what it would do in the human's place, and why."""
    msg = "No hint available now."
    try:
        p = game.adviser()
        if p is not None:
            a, why = p.hint(game.match.deal.view(game.me()))
            game.point_at(a)
            msg = why[0].upper() + why[1:] + "."
        p = None
    except MemoryError:
        gc.collect()
    notice(game, "Hint", msg)


def won(game, column, what):
    """"You win the deal", "Fox wins the match", "N-S win the deal": the title of a result
    won by score column `column`."""
    if game.mine(column):
        return ("Your side wins the " if game.n == 4 else "You win the ") + what
    if game.n == 4:
        return ("They" if game.seats is None else game.side_name(column)) + " win the " + what
    if game.n == 2 and game.seats is None and game.session is None:
        return "The computer wins" + ("" if what == "deal" else " the match")
    return game.names[column] + " wins the " + what


def deal_result(game):
    if game.overlay is not None or game.shown_result:
        return
    game.shown_result = True
    m = game.match
    d = m.deal
    winner, gp, reason = d.result
    if winner is None:
        title = "Thrown in: all passed" if reason == "annulled" and game.team else "No winner this deal"
    else:
        title = won(game, game.deal_side(winner), "deal")
    pts = gp[winner] if winner is not None else 0
    sides = len(gp)
    if winner is not None and game.device.sound is not None:
        game.device.sound.cue("won" if game.deal_side(winner) == HUMAN else "lost")
    if reason == "closer-failed":
        why = game.who(d.closed) + " closed and failed"
    elif reason == "no-score" and game.team:
        why = "65-65: next deal +1"
    else:
        why = REASONS.get(reason, reason)
        if reason in ("declared", "last-trick", "lone-66", "higher") and sides == 2:
            why += EXTRA[pts]
    if game.team and reason in ("made", "set"):
        why = game.who(d.bidder) + ("'s moon: " if d.bid == 5 else " bid " + str(d.bid) + ": ") + reason
    points = [0] * m.sides()
    for s in range(sides):
        points[game.deal_side(s)] = d.points(s)
    skip = m.dealer if m.rules.game == "three" else -1
    lines = ["Points: " + listing(game, points, skip)]
    if game.n == 2 and not game.team:
        lines.append(why + ("  +" + str(pts) if pts else ""))
    else:
        lines.append(why)
        lines.append("Scored: " + listing(game, game.gained(), -1, True))
    lines.append("Match: " + listing(game, m.score))

    def done(role):
        if role != "ok":
            return None
        game.close_overlay()
        if m.over:
            match_result(game)
        else:
            game.table.call(game.next_deal)     # once the box is gone
        return None

    open_box(game, title, lines, ["Match result" if m.over else "Next deal"], done)


def listing(game, values, skip=-1, signed=False):
    """"you 3, left 2, right 1" (scores by column; `skip`: a column to leave out)."""
    out = []
    for s in range(len(values)):
        if s != skip:
            v = values[s]
            out.append(game.side_name(s) + " " + ("+" if signed and v > 0 else "") + str(v))
    return ", ".join(out)


def match_result(game):
    m = game.match
    lines = [listing(game, m.score), "after " + str(m.deals) + " deals"]
    title = won(game, m.winner, "match")
    if game.mine(m.winner):
        title += "!"

    def done(role):
        if role != "ok":
            return None
        game.close_overlay()
        return "title"

    open_box(game, title, lines, ["Back to the title"], done)

