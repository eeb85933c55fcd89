"""The short rules shown on the device (the full rules are in the repository): the
two-handed game, and a few pages more for the family game chosen in the settings."""

# The two-handed rules in short, a sentence or two each: the rules pages and the lesson
# (sixtysix.screens.lesson, which names them) say them in these words.
GOAL = "Sixty-Six: be first to 66 card points in a deal. A 11, 10 10, K 4, Q 3, J 2, 9 0."
MATCH = "Win deals to score game points; first to 7 wins the match."
DEAL = "Each player has 6 cards; the face-up card is trump."
TRICK = "Win a trick with the higher card of the suit led, or with a trump."
DRAW = "The winner draws first, then leads."
OPEN = "While the talon is open you may play any card."
STRICT = ("Once the talon is used up or closed you must follow suit and beat the card led if "
          "you can, else trump.")
MARRIAGE = ("Marriage: on lead, show K and Q of a suit and lead one: 20 points, 40 in trumps. "
            "They count once you have won a trick.")
EXCHANGE = "On lead, after winning a trick, you may swap the trump 9 for the face-up trump."
CLOSE = "On lead you may close the talon: then no more drawing; reach 66 or lose 2-3 game points."
DECLARE = "Declare when you have 66 (casual mode does it for you)."
SCORE = ("Game points: 1; 2 if the loser has under 33 (schneider); 3 if the loser took no "
         "trick (schwarz).")
WRONG = "Declare with less than 66 and the other player gets 2 (3 if they have no trick)."
PAGES = (("GOAL", "MATCH"), ("DEAL", "TRICK", "DRAW"), ("OPEN", "STRICT"), ("MARRIAGE",),
         ("EXCHANGE", "CLOSE"), ("DECLARE", "SCORE", "WRONG"))

FAMILY = {
    "three-handed": (
        "Three-handed: the dealer sits out and scores what the deal's winner scores (1 if "
        "nobody scores), but never the last point of the match. The other two play the "
        "two-handed game by Hoyle's rules: exchange any time, follow suit only. The "
        "highest cut card deals first.",),
    "four-handed": (
        "Four-handed: you and your partner (top) against Left and Right. 32 cards, 8 each; "
        "the dealer's last card is trump. No talon, no marriages, last trick 10.",
        "Follow suit and win the trick if you can; void, trump, over a trump already "
        "played if you can. 66-99 points: 1 game point, 100-129: 2, every trick: 3. "
        "65-65: the next deal's winners get 1 more.",),
    "american": (
        "North American: all 24 cards dealt (2, 3 with a 3-card widow for the first "
        "trick, or 4 players with partners). Bid once each, from the left of the dealer "
        "(overbid by your partner, once more): 1 = 33 points, 2 = 66 ... 5 = the moon "
        "(take every trick, partner sits out).",
        "The bidder leads; the first card led is trump. Cards rank A K Q J 10 9 (the 10 "
        "below the J; points as below). Follow suit and beat if you can; "
        "void, trump, over a trump already played if you can. Lead a K or Q with its "
        "partner to marry: 40 in trumps, else 20. One game point per 33 points; a side "
        "that misses its bid loses it. Match to 15 (two players: 10).",),
    "idiots": (
        "Idiots' Sixty-six: no trump until the first marriage; each marriage (lead its K "
        "or Q from the menu while the talon lasts) makes its suit trump and scores 20, "
        "40, 60, 80 in turn. No closing, no declaring: every deal is played out.",
        "Once the talon is gone: follow suit and win if you can; void, trump. The last "
        "trick is worth 10; the higher total wins 1, 2 or 3 game points.",),
}


def pages(game, keys, board=None):
    """The pages for the game chosen in the settings ("american 3" reads "american"), the
    board's buttons (`keys`: App.key) and the board itself (its profile, if known)."""
    out = FAMILY.get(game.split()[0], ()) + tuple(say(p) for p in PAGES) + (buttons(keys),)
    return out if board is None else out + (about(board),)


def say(names):
    """The rules `names` (this module's, as PAGES and the lesson name them) as one text."""
    g = globals()
    return " ".join(g[n] for n in names)


def about(p):
    """The board's page: its name, and the link cable's pins or that it has none."""
    if p.LINK_TX is None:
        link = "It has no link cable port (no free serial pins): no play over a cable."
    else:
        link = ("Link cable (play a friend): " + p.LINK_TX + " to the other device's RX, " +
                p.LINK_RX + " to its TX, GND to GND.")
    return "This board: " + p.NAME + ". " + link


def buttons(k):
    """What the board's buttons do, named as printed on them (k: role -> "X", "hold", ...)."""
    move = k["left"] + "/" + k["right"] + " move" if "left" in k else k["right"] + " moves on"
    return ("Buttons: " + move + " (cards, menu lines, bids, pages); " + k["ok"] +
            " plays the raised card or chooses; " + menu_key(k) + " opens the actions (marry, "
            "exchange, close, declare, hint) and the main menu, and goes back.")


def menu_key(k):
    """What opens the actions' menu, named as on the board ("A", "holding a button")."""
    return "holding a button" if k["menu"] == "hold" else k["menu"]
