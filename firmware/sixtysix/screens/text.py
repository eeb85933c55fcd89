"""Screens of pages of text: statistics, the rules (and the Rules menu before them: the
lesson or the pages), and the buttons page a board with few buttons shows the first time
it starts. Hints name the board's own buttons (device.key)."""
from sixtysix.core import ui
from sixtysix.save.settings import STATS

# What the lesson (the rules menu's Learn to play) needs, loaded one a frame before it
# opens (App.before): its table, its words and its script, the lesson itself last.
OPENS = {"lesson": ("shared_rules.deal", "sixtysix.table.driver", "sixtysix.table.view",
                    "sixtysix.table.build", "sixtysix.screens.rulestext", "shared_rules.ai.hints",
                    "sixtysix.screens.lessondeal", "sixtysix.screens.lesson")}


class TextScreen:
    """Pages of text; left/right turn pages, ok the next page, menu leaves. The heading,
    then (a step a frame, ui.Show) the pages made (`pages`: a function that makes them),
    laid out in lines, and the lines shown."""

    def __init__(self, device, title, pages):
        self.device = device
        self.page = 0
        self.group = ui.screen(device.layout, title)
        lay = device.layout
        top = lay.body_y + 1
        self.rows = (lay.h - top - 14) // ui.LINE_H
        self.pages = pages
        self.labels = []
        self.steps = [self.make, self.lay_out, self.add_lines]

    def make(self):
        self.pages = self.pages()

    def lay_out(self):
        """The pages in lines, a page a frame (a game's rules wrapped at once take more
        than a frame on the board): the first before the screen takes keys, the others
        in frames that wait for a key (App.warm; on the real firmware four-handed's,
        laid before, kept a key pressed on its first page waiting 150 ms)."""
        self.flat = []
        self.laid = 0
        self.device.warm.extend([self.lay_page] * (len(self.pages) - 1))
        return [self.lay_page]

    def lay_page(self):
        if self.laid == len(self.pages):
            return                  # (laid already for a key, or the screen was left)
        p = self.pages[self.laid]
        self.laid += 1
        page = ui.wrap(p, (self.device.layout.w - 12) // ui.CHAR_W)
        for i in range(0, len(page), self.rows):    # a long page spills onto the next screen
            self.flat.append(page[i:i + self.rows])
        if self.laid == len(self.pages) and self.labels:
            self.draw()             # the footer's count of pages is now known

    def add_lines(self):
        lay = self.device.layout
        g = self.group
        top = lay.body_y + 1
        self.labels = []
        for i in range(self.rows):
            lab = ui.Label("", 6, top + i * ui.LINE_H, ui.WHITE, 1, (lay.w - 12) // ui.CHAR_W)
            g.append(lab.view)
            self.labels.append(lab)
        self.footer = ui.Label("", 6, lay.h - 13, ui.SOFT, 1, 38)
        g.append(self.footer.view)
        self.draw()
        while self.busy():          # the first page arrives with its lines (ui.Show)
            pass

    def draw(self):
        """Turn to the page: its lines come in busy(); the footer at once (the pages not
        laid yet counted one screen each)."""
        self.line = 0
        n = len(self.flat) + len(self.pages) - self.laid
        k = self.device.key
        move = k["left"] + "/" + k["right"] if "left" in k else k["right"]
        hint = move + " pages, " + k["menu"] + ": back" if n > 1 else k["ok"] + ": back"
        self.footer.set(str(self.page + 1) + "/" + str(n) + "  " + hint)

    def busy(self):
        """The page's lines, as many a frame as the board redraws in one (a whole page of
        text at once took 73-97 ms on the real firmware); True in a frame that drew."""
        lines = self.flat[self.page]
        labels = self.labels
        spent = 0
        while self.line < len(labels):
            lab = labels[self.line]
            s = lines[self.line] if self.line < len(lines) else ""
            us = ui.text_us(lab.text, s) if s != lab.text else 0
            if spent and spent + us > ui.FRAME_US:
                break
            lab.set(s)
            spent += us
            self.line += 1
        return spent > 0

    def tick(self, role):
        if role is None:
            return None
        while self.laid < len(self.pages) and (role in ("left", "up") or self.page + 1 >= len(self.flat)):
            self.lay_page()         # a key faster than the frames that lay the pages out
        n = len(self.flat)
        if role == "menu" or (role == "ok" and self.page == n - 1):
            return "title"
        if role in ("right", "down", "ok"):
            self.page = (self.page + 1) % n
        elif role in ("left", "up"):
            self.page = (self.page - 1) % n
        self.draw()
        return None


def Stats(device):
    st = device.settings.stats
    v = dict(zip(STATS, st))
    text = ("Matches played: " + str(v["matches"]) + "\nMatches won: " + str(v["matches_won"]) +
            "\nDeals played: " + str(v["deals"]) + "\nDeals won: " + str(v["deals_won"]))
    if v["deals"]:
        text += "\nShare of deals won: " + str(100 * v["deals_won"] // v["deals"]) + "%"
    return TextScreen(device, "Statistics", lambda: [text])


def RulesMenu(device):
    """Title > Rules: learn to play (sixtysix.screens.lesson, a guided deal) or read the rules."""
    from sixtysix.screens.menu import Menu
    return Menu(device, "Rules", ["Learn to play", "Read the rules", "Back"], ["lesson", "rulepages", "title"])


def RulesScreen(device):
    def pages():
        from sixtysix.screens import rulestext
        return rulestext.pages(device.settings.get("rules"), device.key, device.board)
    return TextScreen(device, "Rules", pages)


def KeysScreen(device):
    """The buttons page on its own: what a board with few buttons shows the first time."""
    def pages():
        from sixtysix.screens import rulestext
        return [rulestext.buttons(device.key)]
    return TextScreen(device, "Buttons", pages)
