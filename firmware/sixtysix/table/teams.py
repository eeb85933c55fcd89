"""The parts of the table only games of more players or with bidding need: score
columns per player or partnership, the bidding line (choose pass or a bid with
left/right, OK says it), the bids shown by each seat and what the table says of a team
deal's bids, trump and widow.

Loaded only for three-handed, four-handed and North American matches.
"""
from shared_rules import cards
from shared_rules.actions import BID, PASS


def columns(game):
    """Header, games and tricks, one column per score (player or partnership)."""
    m = game.match
    d = m.deal
    sides = m.sides()
    w = 9 // sides
    tricks = ["-"] * sides                 # three-handed: the dealer takes no tricks
    for s in range(len(d.tricks)):
        tricks[game.deal_side(s)] = d.tricks[s]
    return ["     " + "".join("%*s" % (w, h) for h in game.heads),       # right-aligned columns
            "Games" + "".join("%*s" % (w, v) for v in m.score),
            "Trick" + "".join("%*s" % (w, v) for v in tricks)]


def bid_line(game, pts):
    """Points of the human's side and the bid to make: "Pts  45 bid 3L"."""
    d = game.match.deal
    if not d.bid:
        return "Pts%4s no bid" % pts
    bidder = d.bidder if d.bidder >= 0 else d.bids.index(d.bid)
    word = " moon " if d.bid == 5 else " bid " + str(d.bid)
    return "Pts%4s" % pts + word + game.who(bidder)[0]


def bid_text(b):
    if b == 0:
        return "pass"
    return "moon" if b == 5 else "bid " + str(b)


def show_bids(game):
    """Each seat's bid in its trick place while bidding (the panel keeps the contract)."""
    d = game.match.deal
    labels = game.table.seat_labels
    said = [""] * 4
    if game.bidding():
        for s in range(d.n):
            if d.bids[s] >= 0:
                said[game.place(s)] = bid_text(d.bids[s])
    for p in range(4):
        if labels[p] is not None:
            labels[p].set(said[p])


def announce(game):
    """The first words of a team deal: the trump turned up, or who bids first."""
    d = game.match.deal
    if d.trump >= 0:
        dealer = game.who(d.n - 1)
        game.table.message("Trump " + cards.SUIT_WORDS[d.trump] + ": " + dealer +
                           " turned the " + cards.RANK_WORDS[d.first_trump & 7])
    else:
        game.table.message(game.who(0) + " bids first")


def bid_prompt(game):
    acts = game.match.deal.legal_actions()
    i = game.bid_choice % len(acts)
    b = acts[i] - BID
    say = "pass" if acts[i] == PASS else str(b) + (" moon" if b == 5 else " (" + str(33 * b) + ")")
    k = game.device.key
    game.table.message("Bid: < " + say + " >  " + k["ok"] + ": say, " + k["menu"] + ": hint")


def bid_key(game, role):
    """Left/right choose pass or a bid, OK says it, menu opens hint and main menu."""
    acts = game.match.deal.legal_actions()
    if role in ("left", "right", "up", "down"):
        step = 1 if role in ("right", "down") else -1
        game.bid_choice = (game.bid_choice + step) % len(acts)
        bid_prompt(game)
    elif role == "ok":
        a = acts[game.bid_choice % len(acts)]
        game.bid_choice = 0
        game.act(a, game.me())
    elif role == "menu":
        game.action_menu()
    return None


def said(game, seat, action, trump, took):
    """What the table says of a team deal's action other than a marriage, an exchange or
    a close (view.Game.acted), or None: a bid or a pass and the end of the bidding, the
    trump the first lead names, the widow the first trick takes. `trump`: the trump suit
    before the action; `took`: it ended a trick."""
    d = game.match.deal
    if action >= BID:
        msg = game.who(seat) + ": " + bid_text(action - BID)
        if d.ended:
            return "All passed: the deal is thrown in"
        if d.bidder >= 0:
            msg += ". " + game.who(d.bidder) + (" plays alone" if d.bid == 5 else " leads")
            if d.out == game.me():
                msg = "Partner bids the moon: you sit out"
        return msg
    if trump < 0 <= d.trump:
        return game.who(seat) + " leads: " + cards.SUIT_WORDS[d.trump] + " are trumps"
    if d.widow and d.trick_count == 1 and took:
        return game.who(d.last_trick[-1]) + " takes the widow: " + \
            str(cards.mask_points(d.widow)) + " points"
    return None
