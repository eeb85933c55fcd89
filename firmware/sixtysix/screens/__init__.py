"""The screens away from the table: the title and what its choices need, loaded while it
waits (title, loading), a list of choices (menu), Settings (settings), the text pages
(text, with the rules' words in rulestext), the ways to play a friend (friends) and the
lesson (lesson, lessondeal).

May import: shared_rules, sixtysix itself (forget), sixtysix.core, sixtysix.save,
sixtysix.table and sixtysix.link. Not the app. This file holds only this text: its
modules are imported one by one and each is forgotten by its own name.
"""
