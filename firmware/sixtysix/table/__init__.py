"""The table: the match driver (driver: turns, moves checked, applied and saved, the
computer) and the table screen that shows it (view), drawn on the felt (felt: cards,
texts, piles) made by its build steps (build, parts), the boxes over it (boxes: action
menu, hints, results), the columns and bids of the games of more players (teams), and
pass-and-play (passplay, seats).

May import: shared_rules, sixtysix itself (forget), sixtysix.core and sixtysix.save.
Nothing above it: not sixtysix.link, .screens nor the app. This file holds only this
text: its modules are imported one by one and each is forgotten by its own name.
"""
