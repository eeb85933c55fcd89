"""Play over the link cable: its frames (cable), the messages, phases and proposal both
devices agree on (terms), the set-up and its fair seed (handshake, fairseed, sha256),
the moves checked and sent (play) and heard (heard), the session that is the linked
match (match) and its restore from the save (restore), the session made for the app
(session), the link screen (screen) and the linked table (table).

May import: shared_rules, sixtysix itself (forget), sixtysix.core, sixtysix.save and
sixtysix.table. Nothing above it: not sixtysix.screens nor the app. This file holds only
this text: its modules are imported one by one and each is forgotten by its own name.
"""
