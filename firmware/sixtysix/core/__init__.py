"""The core every screen uses: drawing (ui, and bmp for the card sheet), the screen
sizes' layouts, the buttons (keys, keynames), the speaker (sound) and the battery.

May import: shared_rules and sixtysix itself (forget), and the board's own modules
(displayio, vectorio, ...). Nothing above it: not sixtysix.save, .table, .link, .screens
nor the app. This file holds only this text: its modules are imported one by one and
each is forgotten by its own name (sixtysix.forget), so nothing here stays in the heap.
"""
