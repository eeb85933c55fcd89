"""Playing people, not only the computer: pass-and-play and link play, a table of their
own (Friends, a sixtysix.game.Game) and their part of the app.

Pass-and-play (`seats`, sixtysix.seats): before a person's turn when someone else
holds the device, the hand is hidden and a "Pass to <name>" box waits for the next
person; then the table turns to them (their seat at the bottom). The players keep
compass names, whoever holds the device.

Link play (`session`, sixtysix.linkmatch): the other device's moves (and, on the
proposing device, the computer players') are played as they come; this device's player
moves only when the session allows; what the link says (the other device gone, another
version, a stopped match) shows on the table. The app keeps the session from the first
time link play is chosen, so the link is polled on every screen.

And the screens on the way there: "Play a friend" (link cable or pass-and-play) and
pass-and-play's set-up (who is a person); link play's own is sixtysix.linkscreen.

Loaded only for these two ways of playing, as sixtysix.teams is only for team games.
"""
from shared_rules.actions import CLOSE
from sixtysix import dialogs, ui
from sixtysix.game import Game, NAMES

# Pass-and-play: each player keeps one name whoever holds the device
COMPASS = {2: ("South", "North"), 3: ("South", "West", "East"), 4: ("South", "West", "North", "East")}


class Friends(Game):
    """A match of people: pass-and-play (`seats`) or link play (`session`)."""

    def __init__(self, app, match, level, fresh_deal, seats=None, session=None):
        self.status = None         # the link's state last shown
        Game.__init__(self, app, match, level, fresh_deal, seats, session)

    def seat(self):
        """Pass-and-play: compass names, the viewer the person holding the device, nobody's
        results counted. Link play: "You" (this device's player, whose results count),
        the other device's player by that device's name, computers by their place."""
        n = self.n
        sides = self.match.sides()
        seats, s = self.seats, self.session
        if seats is not None:
            self.owner = None
            self.viewer = seats.holder if seats.holder is not None else seats.people()[0]
            self.passing = seats.holder is None         # nobody has taken the device yet
            self.names = names = COMPASS[n]
            self.heads = ("N-S", "E-W") if sides < n else [w[0] for w in names]
            self.mover = self.match
            return
        from sixtysix.linkmatch import COMPUTER
        self.owner = self.viewer = v = s.local_player()
        names = [NAMES[n][(p - v) % n] for p in range(n)]
        for p in range(n):
            if p != v and s.proposal.seats[p] != COMPUTER:
                names[p] = s.link.peer_name or "Other"
        self.names = names
        if sides < n:
            self.heads = ("Us", "Opp") if v % 2 == 0 else ("Opp", "Us")
        else:
            self.heads = [w if w == "You" else w[:3] if sides == 2 else w[0] for w in names]
        self.mover = s              # which checks the other device's moves and sends ours

    def react(self, role):
        """Whatever is next once nothing moves: the box's answer, the link's news, the
        result, the other device's move, the computer's, a pass of the device, or the
        player's key."""
        if self.overlay is not None:
            return self.overlay[2](role) if role else None
        s = self.session
        if s is not None and self.link_status():
            return None
        d = self.match.deal
        if d.ended:
            self.result_overlay()
            return None
        if s is not None:
            got = s.incoming()
            if got is not None:
                self.act(got[1], got[0])
            elif s.computer_turn():
                self.computer()
            elif s.my_turn():
                return self.my_turn(role)
            elif role in ("menu", "up"):        # the menu opens out of turn too
                self.action_menu()
            return None
        to = self.seats.pass_due(self.match)
        if to is not None:
            self.pass_to(to)
        elif d.to_act != self.me():
            self.computer()
        else:
            return self.my_turn(role)
        return None

    def prompt(self):
        d = self.match.deal
        if self.session is not None and not d.ended and d.to_act != self.me() \
                and not self.table.msg.text and not self.bidding():
            self.table.message(self.who(d.to_act) + " to play")
        else:
            Game.prompt(self)

    def log_deal(self):
        if self.session is None:    # (a linked match's log runs on from deal to deal)
            self.app.log_deal(self.match, self.level, self.seats.to_byte())

    # ---- pass-and-play -----------------------------------------------------------------

    def pass_to(self, player):
        """Hide the hand and show the pass box; the next person takes the device."""
        if not self.passing:
            self.passing = True
            self.refresh_texts()
            self.table.goto(self.targets(), 0)
        self.table.message("")
        name = self.names[player]
        labels = [name + ": show my hand"]
        acts = ["show"]
        if self.seats.may_close(self.match):
            labels.append("Close the talon first")
            acts.append("close")
        labels.append("Main menu")
        acts.append("title")

        def chosen(role):
            i = self.overlay[1].handle(role)
            if i is None:
                return None
            self.close_overlay()
            if acts[i] == "title":
                return "title"
            if acts[i] == "close":
                self.table.call(lambda: self.act(CLOSE, self.me()))
            else:
                self.table.call(lambda: self.handed(player))
            return None

        dialogs.open_box(self, "Pass to " + name, ["Only " + name + " looks now."], labels, chosen)

    def handed(self, player):
        """The pass box was dismissed: `player` has the device; the table turns to them."""
        self.seats.handed(player)
        self.viewer = player
        self.passing = False
        self.refresh_texts()
        if self.team:
            from sixtysix import teams
            teams.show_bids(self)
        self.table.goto(self.targets(), self.lay.frames[0])
        self.table.call(self.prompt)

    # ---- link play ----------------------------------------------------------------------

    def link_status(self):
        """Say what the link says when it changes: the other device gone or catching up
        (the message line; its player's moves wait, this one's are refused), another
        version (a notice) or the match stopped (a box to leave it by). True when a box
        opened."""
        from sixtysix import linkmatch as lm
        s = self.session
        st = s.state()
        if st == self.status:
            return False
        self.status = st
        if st == lm.STOPPED:
            w = dialogs.box_width(self.lay)
            dialogs.open_box(self, "Match stopped", ui.wrap(s.message(), (w - 12) // ui.CHAR_W),
                             ["Leave the match", "Main menu"], self.stopped)
            return True
        if st == lm.VERSION:
            self.notice("Link", s.message())
            return True
        self.table.message("" if st in (lm.PLAYING_NOW, lm.OVER) else s.message())
        self.prompt()
        return False

    def stopped(self, role):
        """The stopped match's box: leave it, or go to the title (it stays saved)."""
        i = self.overlay[1].handle(role)
        if i is None:
            return None
        self.close_overlay()
        if i == 0:
            self.session.leave()
        return "title"


def menu(game, turn, labels, acts):
    """The action menu's link play items: leaving the match, and out of turn in Russian
    rules, a close asked of the other device (this player not on lead, before the lead)."""
    d = game.match.deal
    me = game.me()
    if not turn and game.match.rules.closing == "either" and not d.ended and me != d.to_act \
            and me < len(d.hands) and CLOSE in d.legal_actions(me) and not game.session.close_requested():
        labels.insert(0, "Close the talon")
        acts.insert(0, "ask")
    labels.append("Leave the match")
    acts.append("leave")


def chosen(game, act):
    """What a link play item of the action menu does; the next screen or None."""
    s = game.session
    if act == "leave":
        s.leave()
        return "title"
    if s.request_close():
        game.table.message("Closing: waiting for " + game.who(game.match.deal.to_act))
    return None


def open(app, name):
    """App.open for the ways to play a friend: their screens ("friend", "pass", "link")
    and their matches ("passgame" a new one, "linkgame" the one just agreed, "linked"
    the one saved)."""
    if name == "passgame":
        if app.session is not None and app.session.in_match():
            app.session.leave()     # this match replaces the linked one: the other device is told
        app.start(app.new_match(), app.settings.get("level"), True, app.people)
    elif name in ("linkgame", "linked"):
        start_linked(app, name == "linkgame")
    else:
        app.clear()
        app.name = name
        if name == "link":
            from sixtysix.linkscreen import LinkScreen as make
        else:
            make = Friend if name == "friend" else PassSetup
        app.set_screen(make(app))


def link_session(app):
    """The app's link play session: made the first time link play is chosen or a linked
    match continued (the port is built then), and kept while the app runs. None when
    this device has no link port (app.notice says why). The first time ever, the device
    draws its id, and a name by it unless one was chosen in the settings."""
    if app.session is None:
        port = None
        try:
            port = app.link_port() if app.link_port is not None else None
        except (ValueError, RuntimeError, OSError) as e:
            app.notice = "Link port: " + str(e)
        if port is None:
            if not app.notice:
                app.notice = "This device has no link cable port"
            return None
        from sixtysix import linkmatch
        from sixtysix.link import Link
        from sixtysix.store import CORRUPT
        from sixtysix.app import NOTICES
        from sixtysix.settings import CHOICES, DEFAULTS, NAME
        if app.entropy is None:
            app.entropy = random_bytes
        st = app.settings
        if not st.device_id:
            st.device_id = linkmatch.random_id(app.entropy)
            if st.index[NAME] == DEFAULTS[NAME]:
                st.index[NAME] = st.device_id % len(CHOICES[NAME][2])
            st.save(app.store)
        link = Link(port, st.device_id, st.get("name"), app.entropy)
        try:
            app.session = linkmatch.restore(app.store, link, app.entropy)
        except ValueError:
            app.session = linkmatch.LinkedMatch(link, app.entropy)
            app.store.records = bytearray()
            app.notice = NOTICES[CORRUPT]
        app.sync = linkmatch.sync
    app.session.link.name = app.settings.get("name")
    return app.session


def random_bytes(n):
    """n bytes from the random module, where the app was given no random source
    (CircuitPython seeds it from the hardware at start)."""
    import random
    return bytes(random.getrandbits(8) for _ in range(n))


def start_linked(app, fresh):
    """The table of the linked match (the title when there is none to show)."""
    from sixtysix.linkmatch import PLAYING
    s = link_session(app)
    if s is None or s.phase != PLAYING:
        app.back_to_title()
        return
    level = app.settings.get("level")
    # Hard's search needs the ~36 KB link play keeps resident (docs/LINK.md): the
    # computer players of a linked match play Normal at most
    app.start(s.match, "normal" if level == "hard" else level, fresh and not s.count(), session=s)


# ---- the screens on the way ---------------------------------------------------------

class Menu:
    """A heading and a list of choices; OK opens the chosen one's screen, menu goes back."""

    def __init__(self, app, title, items, names):
        from sixtysix.screens import _screen        # (not kept: screens go when a match starts)
        self.group = g = _screen(app, title)
        lay = app.layout
        self.names = names
        self.menu = ui.ListWidget(g, items, 6, lay.body_y + 4, app.width // 2, lay.menu[3])

    def tick(self, role):
        if role == "menu":
            return "title"
        i = self.menu.handle(role) if role is not None else None
        return None if i is None else self.names[i]


def Friend(app):
    return Menu(app, "Play a friend", ["Link cable", "Pass and play", "Back"], ["link", "pass", "title"])


class PassSetup:
    """Pass-and-play: each player of the chosen rule set is a person or the computer (two
    people at least); the names are the seats' compass points."""

    def __init__(self, app):
        from sixtysix.screens import _screen
        self.app = app
        self.group = g = _screen(app, "Pass and play")
        lay = app.layout
        n = app.settings.rules().players
        self.names = COMPASS[n]
        self.people = [True, True, False, False][:n] if n < 4 else [True, False, True, False]
        items = [self.line(p) for p in range(n)] + ["Start", "Back"]
        self.menu = ui.ListWidget(g, items, 6, lay.body_y, app.width - 12, lay.settings_row,
                                  longest=[15] * len(items))
        chars = (app.width - 12) // ui.CHAR_W
        self.hint = ui.text("", 6, lay.body_y + len(items) * lay.settings_row + 4, ui.SOFT, 1, chars)
        g.append(self.hint.view)
        self.say("Rules: " + app.settings.get("rules") + " (Settings)")

    def line(self, p):
        return self.names[p] + ": " + ("person" if self.people[p] else "computer")

    def say(self, text):
        ui.set_text(self.hint, ui.fit(text, self.hint.chars))

    def tick(self, role):
        if role == "menu":
            return "title"
        i = self.menu.handle(role) if role is not None else None
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
        self.app.people = sum(1 << p for p in range(n) if self.people[p])
        return "passgame"
