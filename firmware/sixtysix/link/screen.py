"""The link play screen: who is connected, what is offered, and the set-up of a linked match.

It shows the session's state (sixtysix.link.match) as it changes: "Connect the link
cable", "Connected to Fox", a clash of versions, an offer (the rule set, target,
counting and who plays which seat) with Accept and Decline, our own proposal while the
other device decides. OK on "Offer ..." proposes this device's settings. Once both have
agreed and the deal is shuffled, the table opens ("linkgame"). Loaded only for link play.
"""
import displayio
from sixtysix.link import match as lm
from sixtysix.core import ui

LINES = 2          # the state's message, wrapped
DETAILS = 3        # the offer (or ours), or a one-off notice


def describe(s, proposal):
    """The lines that say what a proposal is: the game, target and counting, the seats."""
    r = proposal.rules
    game = r.name + (" " + str(r.players) if r.name == "american" and r.players != 4 else "")
    mine = s.role if s.phase != lm.NONE else lm.ACCEPTER
    who = []
    for holder in proposal.seats:
        who.append("you" if holder == mine else ("CPU" if holder == lm.COMPUTER else s.link.peer_name))
    return ["Game: " + game, "To " + str(r.target) + ", " + proposal.counting + " counting",
            "Seats: " + ", ".join(who)]


class LinkScreen:
    """Link play's `session` (sixtysix.link.session.link_session; None: no link port, the
    device's notice says why) on the device."""

    def __init__(self, device, session):
        self.device = device
        self.group = g = ui.screen(device.layout, "Link play")
        lay = device.layout
        self.s = s = session
        if s is not None and s.phase == lm.PLAYING and s.match.over:
            s.leave()               # a finished match: this screen starts the next
        chars = (lay.w - 12) // ui.CHAR_W
        y = lay.body_y
        self.texts = []
        for i in range(LINES + DETAILS):
            lab = ui.Label("", 6, y + 2 * (i >= LINES) + i * ui.LINE_H, ui.WHITE if i < LINES else ui.SOFT, 1, chars)
            g.append(lab.view)
            self.texts.append(lab)
        self.menu_y = y + 2 + (LINES + DETAILS) * ui.LINE_H
        self.row = lay.menu[3]
        self.menu = None
        self.acts = None
        self.shown = None
        self.todo = []                  # changes to show, one a frame: (Label, text) or (choices, acts)
        self.doing = None               # "propose" or "accept" chosen, done in the next frame
        self.notice = device.notice        # why there is no link, or a damaged save
        device.notice = ""
        self.update()
        while self.todo:                # (not drawn yet: all at once)
            self.show_next()

    def items(self):
        """(labels, what each does) for the state now."""
        s = self.s
        if s is None:
            return ["Back"], ["title"]
        st = s.state()
        if st == lm.STOPPED or s.phase in (lm.ACCEPTED, lm.REVEALED):
            return ["Leave the match", "Back"], ["leave", "title"]
        if s.phase == lm.PROPOSED:
            return ["Withdraw the offer", "Back"], ["leave", "title"]
        if st == lm.OFFER:
            return ["Accept", "Decline", "Back"], ["accept", "leave", "title"]
        if st == lm.IDLE:
            return ["Offer: " + self.device.settings.get("rules"), "Back"], ["propose", "title"]
        return ["Back"], ["title"]

    def update(self):
        """What the screen should show now (the state, its details and its choices), when
        any of it changed: queued, and the first of it done (the menu, then a line a
        frame: on the real firmware all of it in one frame drew 89 ms)."""
        s = self.s
        chars = self.texts[0].chars
        if s is None:
            lines, details = ui.wrap(self.notice, chars), []
        else:
            if s.notice:
                self.notice = s.notice
                s.notice = None
            lines = ui.wrap(s.message(), chars)
            proposal = s.offer[2] if s.state() == lm.OFFER else s.proposal
            if proposal is not None:
                details = describe(s, proposal)
            else:
                details = ui.wrap(self.notice, chars)[:DETAILS - 1] if self.notice else []
                details.append("This device: " + s.link.name)
        labels, acts = self.items()
        shown = (lines, details, labels)
        if shown != self.shown:
            self.shown = shown
            texts = lines[:LINES] + [""] * (LINES - len(lines)) + details[:DETAILS] + [""] * DETAILS
            self.todo = [(lab, texts[i]) for i, lab in enumerate(self.texts) if lab.text != texts[i]]
            if labels != (self.menu.items if self.menu is not None else None):
                self.todo.insert(0, (labels, acts))
            else:
                self.acts = acts
        if self.todo:
            self.show_next()

    def show_next(self):
        """The next change queued: a line's text, or the menu made again for new choices."""
        what, then = self.todo.pop(0)
        if isinstance(what, ui.Label):
            what.set(then)
            return
        if self.menu is not None:
            ui.drop(self.group, self.menu_group)
        self.menu_group = displayio.Group()
        self.menu = ui.ListWidget(self.menu_group, what, 6, self.menu_y, self.device.layout.w // 2 + 20, self.row)
        self.group.append(self.menu_group)
        ui.arrive(self.menu_group)
        self.acts = then

    def tick(self, role):
        s = self.s
        if s is not None and s.phase == lm.PLAYING and not s.match.over:
            return "linkgame"
        if role == "menu":
            return "title"
        if self.menu is None:
            # an offer or acceptance chosen in the last frame, whose drawing was the menu
            # going: its SHA-256 commitment (~100 ms on the board) is this frame's work
            if self.doing == "propose":
                s.propose(self.device.settings.rules(), self.device.settings.get("counting"))
            else:
                s.accept()
            self.update()
            return None
        i = self.menu.handle(role)
        if i is not None:
            act = self.acts[i]
            if act == "title":
                return "title"
            self.notice = ""
            if act == "leave":
                s.leave()
            else:
                self.doing = act
                ui.drop(self.group, self.menu_group)
                self.menu = None
                return None
        self.update()
        return None
