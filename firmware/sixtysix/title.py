"""The title screen: the heading, a fan of cards and the menu (New match, Settings, ...).

Each menu screen (this, sixtysix.settingsscreen, sixtysix.textscreen) is a module of its
own, compiled in a frame of its own when it is opened (App.step), so no compile is
longer than a frame; none of them is kept while a match plays. A screen has a `group`
to show and `tick(role)`, which returns the name of the next screen ("title", "new",
"continue", "settings", "stats", "rules", "friend", ...) or None.
"""
from sixtysix import ui


class Title:
    """The heading, then (a step a frame, ui.Show) the fan of cards and a progress bar
    where the menu will be; while sixtysix.loading imports what the menu's choices need,
    the bar grows; then (`loaded`) the menu replaces it."""

    def __init__(self, app):
        self.app = app
        self.group = ui.screen(app, "Sixty-Six")
        self.steps = [self.add_fan, self.add_bar]
        self.bar = None
        self.total = 0

    def add_fan(self):
        """A small fan of cards: the ace and ten of trumps, the marriage."""
        app = self.app
        x0, y0, dx, dy = app.layout.fan
        for i, c in enumerate((18, 17, 16, 19)):
            self.group.append(app.sheet.tile(c, x0 + i * dx, y0 + (i % 2) * dy))
        app.sheet.done()

    def add_bar(self):
        """The progress bar: one rect, a pixel wide at first, under the menu's first line."""
        x, y, w, row = self.app.layout.menu
        self.bar = ui.rect(x, y + row // 2, 1, 2, ui.GOLD)
        self.group.append(self.bar)

    def progress(self, left):
        """A step of loading done, `left` to come: the bar grows (a few pixels)."""
        self.total = total = max(self.total, left)
        w = self.app.layout.menu[2]
        self.bar.width = max(1, w * (total - left) // total) if total else w

    def loaded(self):
        """Loading is done: the bar goes, the menu comes (the steps to build it)."""
        self.group.remove(self.bar)
        self.bar = None
        return [self.add_menu]

    def add_menu(self):
        app = self.app
        g = self.group
        lay = app.layout
        # what the log says; the engine is loaded (and the match checked) after this
        self.can_continue = app.store.in_progress()
        notice = app.notice
        self.names = []
        items = []
        if self.can_continue:
            items.append("Continue")
            self.names.append("continue")
        for label, name in (("New match", "new"), ("Settings", "settings"), ("Statistics", "stats"),
                            ("Rules", "rules"), ("Play a friend", "friend")):
            items.append(label)
            self.names.append(name)
        x, y, w, row = lay.menu
        self.menu = ui.ListWidget(g, items, x, y, w, row)
        self.notice_text = notice
        if notice:
            nx, ny, chars = lay.notice
            for i, line in enumerate(ui.wrap(notice, chars)[:3]):
                g.append(ui.Label(line, nx, ny + i * ui.LINE_H, ui.RED).view)
        app.notice = ""
        app.add_gauge(g, lay.title_battery)

    def tick(self, role):
        i = self.menu.handle(role)
        return None if i is None else self.names[i]
