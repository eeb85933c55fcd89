"""The save: the log's record format (format: kinds, framing, CRCs, varints), the log in
the nvm (store) and its reader at power-on (storeread), a match's header and actions
(savegame), finished matches (archive), a save from before the log (oldsave) and the
settings.

May import: shared_rules, sixtysix itself (forget) and sixtysix.core. Nothing above it:
not sixtysix.table, .link, .screens nor the app. This file holds only this text: its
modules are imported one by one and each is forgotten by its own name.
"""
