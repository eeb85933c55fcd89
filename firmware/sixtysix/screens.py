"""The menu screens: title, settings, statistics, rules, and the buttons page a board with
few buttons shows the first time it starts. (Those that set up a match with people are
sixtysix.friends' and sixtysix.linkscreen's.)

Each screen has a `group` to show and `tick(role)`, which returns the name of the next
screen ("title", "new", "continue", "settings", "stats", "rules", "friend", "pass",
"passgame", "link") or None. Hints name the board's own buttons (app.key: "X", "hold", ...).
"""
import displayio
from sixtysix import ui
from sixtysix.settings import CHOICES, SOUND, STATS


def _screen(app, title):
    """A screen's group (over the app's felt) with its heading."""
    g = displayio.Group()
    x, y, scale = app.layout.heading
    g.append(ui.heading(title, x, y, scale))
    return g


class Title:
    """The heading, then (a step a frame, ui.Show) the fan of cards and the menu."""

    def __init__(self, app):
        self.app = app
        self.group = _screen(app, "Sixty-Six")
        self.steps = [self.add_fan, self.add_menu]

    def add_fan(self):
        """A small fan of cards: the ace and ten of trumps, the marriage."""
        app = self.app
        x0, y0, dx, dy = app.layout.fan
        for i, c in enumerate((18, 17, 16, 19)):
            self.group.append(app.sheet.tile(c, x0 + i * dx, y0 + (i % 2) * dy))
        app.sheet.done()

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
                g.append(ui.text(line, nx, ny + i * ui.LINE_H, ui.RED).view)
        app.notice = ""
        app.add_gauge(g, lay.title_battery)

    def tick(self, role):
        if role is None:
            return None
        i = self.menu.handle(role)
        return None if i is None else self.names[i]


class SettingsScreen:
    """The heading, then (the next frame, ui.Show) the list of settings."""

    def __init__(self, app):
        self.app = app
        self.group = _screen(app, "Settings")
        self.s = app.settings
        self.dirty = False
        self.steps = [self.add_menu]

    def add_menu(self):
        app = self.app
        g = self.group
        lay = app.layout
        # the settings this board has (Sound only where there is a speaker), by CHOICES index
        self.shown = [i for i in range(len(CHOICES)) if i != SOUND or app.sound is not None]
        items = [self.line(i) for i in self.shown]
        longest = [len(CHOICES[i][1]) + 2 + max(len(v) for v in CHOICES[i][2]) for i in self.shown]
        hx, hy = lay.settings_hint
        bottom = hy if hy > lay.body_y else app.height
        if lay.body_y + (len(items) + 1) * lay.settings_row <= bottom:
            items.append("Back")            # where it fits (the menu key goes back anyway)
            longest.append(4)
        self.menu = ui.ListWidget(g, items, 6, lay.body_y, app.width - 12, lay.settings_row,
                                  longest=longest)
        k = app.key
        g.append(ui.text(k["ok"] + ": change, " + k["menu"] + ": back", hx, hy, ui.SOFT).view)

    def line(self, i):
        key, title, values = CHOICES[i]
        return title + ": " + values[self.app.settings.index[i]]

    def tick(self, role):
        if role is None:
            return None
        if role == "menu":
            return self.leave()
        row = self.menu.handle(role)
        if row is None:
            return None
        if row == len(self.shown):
            return self.leave()
        i = self.shown[row]
        self.s.cycle(i)
        self.menu.relabel(row, self.line(i))
        if CHOICES[i][0] == "light":
            self.app.set_light(self.app.lit)
        self.dirty = True
        return None

    def leave(self):
        self.flush()
        return "title"

    def flush(self):
        """Save the changes (leaving, or before the device sleeps)."""
        if self.dirty:
            self.s.save(self.app.store)
            self.dirty = False


class TextScreen:
    """Pages of text; left/right turn pages, ok the next page, menu leaves. The heading,
    then (a step a frame, ui.Show) the pages made (`pages`: a function that makes them),
    laid out in lines, and the lines shown."""

    def __init__(self, app, title, pages):
        self.app = app
        self.page = 0
        self.group = _screen(app, title)
        top = app.layout.body_y + 1
        self.rows = (app.height - top - 14) // ui.LINE_H
        self.pages = pages
        self.steps = [self.make, self.lay_out, self.add_lines]

    def make(self):
        self.pages = self.pages()

    def lay_out(self):
        chars = (self.app.width - 12) // ui.CHAR_W
        self.flat = []
        for p in self.pages:                      # long pages spill onto the next screen
            page = ui.wrap(p, chars)
            for i in range(0, len(page), self.rows):
                self.flat.append(page[i:i + self.rows])

    def add_lines(self):
        app = self.app
        g = self.group
        top = app.layout.body_y + 1
        self.labels = []
        for i in range(self.rows):
            lab = ui.text("", 6, top + i * ui.LINE_H, ui.WHITE, 1, (app.width - 12) // ui.CHAR_W)
            g.append(lab.view)
            self.labels.append(lab)
        self.footer = ui.text("", 6, app.height - 13, ui.SOFT, 1, 38)
        g.append(self.footer.view)
        self.draw()

    def draw(self):
        lines = self.flat[self.page]
        for i, lab in enumerate(self.labels):
            ui.set_text(lab, lines[i] if i < len(lines) else "")
        n = len(self.flat)
        k = self.app.key
        move = k["left"] + "/" + k["right"] if "left" in k else k["right"]
        hint = move + " pages, " + k["menu"] + ": back" if n > 1 else k["ok"] + ": back"
        ui.set_text(self.footer, str(self.page + 1) + "/" + str(n) + "  " + hint)

    def tick(self, role):
        if role is None:
            return None
        n = len(self.flat)
        if role == "menu" or (role == "ok" and self.page == n - 1):
            return "title"
        if role in ("right", "down", "ok"):
            self.page = (self.page + 1) % n
        elif role in ("left", "up"):
            self.page = (self.page - 1) % n
        self.draw()
        return None


def Stats(app):
    st = app.settings.stats
    v = dict(zip(STATS, st))
    text = ("Matches played: " + str(v["matches"]) + "\nMatches won: " + str(v["matches_won"]) +
            "\nDeals played: " + str(v["deals"]) + "\nDeals won: " + str(v["deals_won"]))
    if v["deals"]:
        text += "\nShare of deals won: " + str(100 * v["deals_won"] // v["deals"]) + "%"
    return TextScreen(app, "Statistics", lambda: [text])


def RulesScreen(app):
    def pages():
        from sixtysix import rulestext
        return rulestext.pages(app.settings.get("rules"), app.key, app.board)
    return TextScreen(app, "Rules", pages)


def KeysScreen(app):
    """The buttons page on its own: what a board with few buttons shows the first time."""
    def pages():
        from sixtysix import rulestext
        return [rulestext.buttons(app.key)]
    return TextScreen(app, "Buttons", pages)
