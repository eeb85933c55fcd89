"""The table: the match driver and its table screen (game), the view (felt: cards,
texts, piles) and its build steps (build, parts), the boxes over it (boxes: action menu,
hints, results), the columns and bids of the games of more players (teams), and
pass-and-play (passplay, seats).

May import: shared_rules, sixtysix itself (forget), sixtysix.core and sixtysix.save.
Nothing above it: not sixtysix.link, .screens nor the app. This file holds only this
text: its modules are imported one by one and each is forgotten by its own name.
"""
