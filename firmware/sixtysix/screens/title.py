"""The title screen: the heading, a fan of cards and the menu (New match, Settings, ...).

Each menu screen (this, sixtysix.screens.settings, sixtysix.screens.text) is a module of its
own, compiled in a frame of its own when it is opened (App.step), so no compile is
longer than a frame; none of them is kept while a match plays. A screen has a `group`
to show and `tick(role)`, which returns the name of the next screen ("title", "new",
"continue", "settings", "stats", "rules", "friend", ...) or None.
"""
from sixtysix.core import ui

# What the title needs beyond this module, loaded one a frame before it opens (App.before):
# what it loads while it waits.
OPENS = {"title": ("sixtysix.screens.loading",)}


class Title:
    """The heading, then (a step a frame, ui.Show) the fan of cards and the menu; what
    the menu's choices need comes while it waits for a key (sixtysix.screens.loading)."""

    def __init__(self, device):
        self.device = device
        self.group = ui.screen(device.layout, "Sixty-Six")
        self.steps = [self.add_fan, self.add_menu]

    def add_fan(self):
        """A small fan of cards: the ace and ten of trumps, the marriage."""
        device = self.device
        x0, y0, dx, dy = device.layout.fan
        for i, c in enumerate((18, 17, 16, 19)):
            self.group.append(device.sheet.tile(c, x0 + i * dx, y0 + (i % 2) * dy))
        device.sheet.done()

    def add_menu(self):
        device = self.device
        g = self.group
        lay = device.layout
        # what the log says (a damaged match is found when continued: App.damaged)
        self.can_continue = device.store.in_progress()
        notice = device.notice
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
        device.notice = ""
        device.add_gauge(g, lay.title_battery)

    def tick(self, role):
        i = self.menu.handle(role)
        return None if i is None else self.names[i]
