"""The way to playing people, not only the computer: the "Play a friend" menu (link
cable or pass-and-play), pass-and-play's set-up (who is a person), and what each way
needs loaded before its screen opens (load: one module a frame). Link play's session
and the start of a linked match are sixtysix.link.session's, its screen
sixtysix.link.screen's.

None of it is needed at the table (sixtysix.table.passplay, sixtysix.link.table): App.start
drops this module, so that Hard's search fits beside pass-and-play.

The app's work for these screens, kept out of its always-loaded module, is given the
device and what it uses by name (the root group its loading dots go on, whether a
screen is still shown), and says what the app is to do by what it returns (open).
"""
import displayio
from sixtysix.core import ui

# What pass-and-play's set-up needs beyond this module, loaded one a frame before it opens
# (App.before): its table, so that Start compiles nothing.
OPENS = {"pass": ("sixtysix.table.passplay",)}


def open(device, name, root, shown):
    """What App.open does for the ways to play a friend: their screens ("friend", "pass",
    "link") and their matches ("passgame" a new one, "linkgame" the one just agreed,
    "linked" the one saved). `shown`: the screen before is still up (its heap goes first,
    in a frame of its own: load). Returns True while it loads (the app comes back in the
    next frame, having dropped the screen shown, if any), the function that makes the
    screen from the device (the app makes it once the old one is gone), the match to
    start (App.start's arguments), or None: no linked match to show, the title."""
    if load(device, name, root, shown):
        return True
    if name == "passgame":
        from sixtysix.screens.loading import new_game
        return new_game(device, device.people)
    if name in ("linkgame", "linked"):
        from sixtysix.link.session import start_linked
        return start_linked(device, name == "linkgame")
    if name == "link":
        return link_screen
    return Friend if name == "friend" else PassSetup


def link_screen(device):
    """The link screen with link play's session (made the first time: its port, ...)."""
    from sixtysix.link.screen import LinkScreen
    from sixtysix.link.session import link_session
    return LinkScreen(device, link_session(device))


# What link play's screens need, dependencies first (load compiles one a frame
# while the screen loads): the session, and on the link screen the engine of every game
# an offer may name (the match starts as soon as both have revealed, in a frame that
# answers a key or waits for one); at a linked match's table, the table and the match's
# own engine and computer (sixtysix.screens.loading.needs, as the title loads them; start_linked
# forgets what that match does not use). The package sixtysix.link comes in a frame of its
# own, as shared_rules.ai does (link.session.drop forgets it with its modules).
SESSION = ("sixtysix.save.format", "sixtysix.link", "sixtysix.link.cable", "shared_rules.match",
           "sixtysix.link.terms", "sixtysix.link.play", "sixtysix.link.heard", "sixtysix.link.match",
           "sixtysix.link.session")
# The set-up's steps and the fair seed: the link screen's, and a session's that is made
# or rebuilt; an agreed match's table loads without them (drop_set_up).
SETUP = ("sixtysix.link.sha256", "sixtysix.link.fairseed", "sixtysix.link.handshake")
SCREEN = ("sixtysix.link.screen", "shared_rules.family", "shared_rules.view", "shared_rules.deal",
          "shared_rules.team")
# What a linked table loads that the link screen does not, in groups in import order:
# loaded once a power-on after the session's modules, a group at a time, each forgotten
# once it is in (but what SCREEN loads next), so that its names are made here.
# MicroPython keeps every name a module brings for good, in pools each twice the last
# (docs/SCREENS.md, "Identifiers"): on the real firmware a pool of 1,280 names fell due
# as a linked table loaded beside the link screen's leftovers, with 29.6 KB free and no
# block over 4.6 KB.
AHEAD = (("sixtysix.table.driver", "sixtysix.table.boxes", "sixtysix.table.view", "sixtysix.table.teams",
          "sixtysix.link.table"),
         ("sixtysix.table.parts", "sixtysix.table.build"),
         ("shared_rules.ai", "shared_rules.ai.greedy", "shared_rules.ai.normal", "shared_rules.ai.solver",
          "shared_rules.team", "shared_rules.ai.team_greedy"))


def load(device, name, root, shown):
    """Compile the next module screen `name` needs (missing), if any, and come back in
    the next frame (True: the app's going, App.step calls open again, and reads no key
    meanwhile), so that each frame compiles one module, and none compiles while a screen
    waits for a key or answers one; the old screen's heap goes first, in a frame of its
    own (`shown`: the app drops it). While the screen loads, a dot more a frame where its
    text will be, in `root`. False: all is loaded."""
    m = missing(device, name)
    dots = getattr(device, "dots", None)   # (the device's: a simulator may run two)
    if m is None:
        if dots is not None:
            ui.drop(root, dots)
            device.dots = None
        return False
    if shown:
        if name == "link":
            drop_match()
        else:
            drop_set_up(device)
        return True
    __import__(m)
    group = ahead(device, name)
    if m in group[-1:]:             # the group's names are made: its modules go
        device.named += 1
        import sixtysix
        for n in group:
            if n not in SCREEN:
                sixtysix.forget(n)
    if dots is None:
        dots = device.dots = displayio.Group()
        root.append(dots)
    dots.append(ui.rect(6 + 6 * len(dots), device.layout.body_y + 4, 4, 4, ui.SOFT))
    ui.arrive(dots[-1])
    return True


def drop_match():
    """The computer's and the table's modules, which the title loaded for its game and
    level, go before link play's come: a linked match loads what it needs once it is
    agreed (missing, "linkgame"), and on the real firmware the link screen beside them
    left 4 KB free with Hard's (the GC running every frame, no key answered) and 11 KB
    without. sixtysix.save.savegame too: a linked table saves through its session."""
    import sys
    import sixtysix
    for n in [n for n in sys.modules if n.startswith("shared_rules.ai")]:
        sixtysix.forget(n)
    sixtysix.forget("sixtysix.table", "passplay", "teams", "view", "driver", "build", "parts", "boxes")
    sixtysix.forget("sixtysix.save", "savegame")


def ahead(device, name):
    """The group of AHEAD that screen `name` loads next (none: not the link screen, or
    all made)."""
    return AHEAD[device.named] if name == "link" and device.named < len(AHEAD) else ()


def drop_set_up(device):
    """Before a linked match's table modules come: the link screen's module, the set-up's
    steps and the fair seed once the match is agreed, and the engine of the games the
    agreed one is not (the link screen loaded every game's). On the real firmware, beside
    them the table's loading left 6.5 KB free. (The match's own engine stays: its deal
    holds it.) The title's and the menus' modules go now too, not as the table starts
    (App.start): the table's loading is link play's tightest moment."""
    import sixtysix
    s = device.session
    sixtysix.forget("sixtysix.link", "screen")
    sixtysix.forget("sixtysix.screens", "title", "menu")
    if s is not None and s.match is not None:
        for n in SETUP:
            sixtysix.forget(n)
        if hasattr(s.match.deal, "trick"):
            sixtysix.forget("shared_rules", "view", "deal")
        else:
            sixtysix.forget("shared_rules", "team")


def missing(device, name):
    """The next module screen `name` needs that is not loaded (dependencies first), or
    None."""
    import sys
    if name == "pass":
        return None if "sixtysix.table.seats" in sys.modules else "sixtysix.table.seats"
    if name not in ("link", "linkgame", "linked"):
        return None
    setup = SETUP if name == "link" or device.session is None else ()
    want = SESSION + setup + ahead(device, name) + (SCREEN if name == "link" else ("sixtysix.screens.loading",))
    if device.link_port is None and device.port is None:
        want = SESSION + SCREEN[:1]         # no link port: no match to play, the screen says so
    if device.session is None:
        if device.store.linked() is not None:
            want += ("sixtysix.link.restore",)   # a saved linked match to rebuild
    for m in want:
        if m not in sys.modules:
            return m
    if name == "link":
        return None
    from sixtysix.link.session import match_rules, level
    rules = match_rules(device)
    if rules is None:
        return None                 # no match to show: start_linked says the title
    from sixtysix.screens.loading import needs
    more = needs(rules.game, level(device), True) + ["sixtysix.link.table"]
    for m in more:
        if m not in sys.modules:
            return m
    return None


# ---- the screens on the way ---------------------------------------------------------

def Friend(device):
    from sixtysix.screens.menu import Menu      # (compiled in a frame of its own: the screen's)
    return Menu(device, "Play a friend", ["Link cable", "Pass and play", "Back"], ["link", "pass", "title"])


class PassSetup:
    """Pass-and-play: each player of the chosen rule set is a person or the computer (two
    people at least); the names are the seats' compass points."""

    def __init__(self, device):
        from sixtysix.table.seats import COMPASS      # (loaded: friends.load)
        self.device = device
        self.group = g = ui.screen(device.layout, "Pass and play")
        lay = device.layout
        n = device.settings.rules().players
        self.names = COMPASS[n]
        self.people = [True, True, False, False][:n] if n < 4 else [True, False, True, False]
        items = [self.line(p) for p in range(n)] + ["Start", "Back"]
        self.menu = ui.ListWidget(g, items, 6, lay.body_y, lay.w - 12, lay.settings_row,
                                  longest=[15] * len(items))
        chars = (lay.w - 12) // ui.CHAR_W
        self.hint = ui.Label("", 6, lay.body_y + len(items) * lay.settings_row + 4, ui.SOFT, 1, chars)
        g.append(self.hint.view)
        self.say("Rules: " + device.settings.get("rules") + " (Settings)")

    def line(self, p):
        return self.names[p] + ": " + ("person" if self.people[p] else "computer")

    def say(self, text):
        self.hint.set(ui.fit(text, self.hint.chars))

    def tick(self, role):
        if role == "menu":
            return "title"
        i = self.menu.handle(role)
        n = len(self.names)
        if i is None:
            return None
        if i < n:
            self.people[i] = not self.people[i]
            self.menu.relabel(i, self.line(i))
            return None
        if i > n:
            return "title"
        if self.people.count(True) < 2:
            self.say("Two people at least")
            return None
        self.device.people = sum(1 << p for p in range(n) if self.people[p])
        return "passgame"
