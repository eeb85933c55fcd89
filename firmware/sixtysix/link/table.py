"""The table of a linked match (a sixtysix.table.view.Game): this device's player against or
beside the other device's, over the link cable (the session, sixtysix.link.match).

The other device's moves (and, on the proposing device, the computer players') are
played as they come; this device's player moves only when the session allows; what the
link says (the other device gone, another version, a stopped match) shows on the table.
Only the table: the link screen and the set-up (sixtysix.link.screen, sixtysix.screens.friends)
are dropped when it opens.
"""
from shared_rules.actions import CLOSE
from sixtysix.table import boxes
from sixtysix.core import ui
from sixtysix.link import match as lm
from sixtysix.table.driver import NAMES
from sixtysix.table.view import Game


class Linked(Game):
    """A linked match from this device's seat (`session`)."""

    status = None           # the link's state last shown

    def seat(self):
        """"You" (this device's player, whose results count), the other device's player
        by that device's name, computers by their place."""
        n = self.n
        sides = self.match.sides()
        s = self.session
        self.owner = self.viewer = v = s.local_player()
        names = [NAMES[n][(p - v) % n] for p in range(n)]
        for p in range(n):
            if p != v and s.proposal.seats[p] != lm.COMPUTER:
                names[p] = s.link.peer_name or "Other"
        self.names = names
        if sides < n:
            self.heads = ("Us", "Opp") if v % 2 == 0 else ("Opp", "Us")
        else:
            self.heads = [w if w == "You" else w[:3] if sides == 2 else w[0] for w in names]
        self.mover = s              # which checks the other device's moves and sends ours

    def react(self, role):
        """The link's news first, when no box is open."""
        if self.overlay is None and self.link_status():
            return None
        return Game.react(self, role)

    def move_on(self, role):
        """The deal goes on: the other device's move, the computer's, or the player's key."""
        s = self.session
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

    def prompt(self):
        d = self.match.deal
        if not d.ended and d.to_act != self.me() and not self.table.msg.text and not self.bidding():
            self.table.message(self.who(d.to_act) + " to play")
        else:
            Game.prompt(self)

    def log_deal(self):
        pass                        # a linked match's log runs on from deal to deal

    def link_status(self):
        """Say what the link says when it changes: the other device gone or catching up
        (the message line; its player's moves wait, this one's are refused), another
        version (a notice) or the match stopped (a box to leave it by). True when a box
        opened."""
        s = self.session
        st = s.state()
        if st == self.status:
            return False
        self.status = st
        if st == lm.STOPPED:
            w = boxes.box_width(self.lay)
            boxes.open_box(self, "Match stopped", ui.wrap(s.message(), (w - 12) // ui.CHAR_W),
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

    def action_menu(self):
        boxes.action_menu(self, self.menu_items, self.menu_item)

    def menu_items(self, turn, labels, acts):
        """Leaving the match, and out of turn in Russian rules, a close asked of the other
        device (this player not on lead, before the lead)."""
        d = self.match.deal
        me = self.me()
        if not turn and self.match.rules.closing == "either" and not d.ended and me != d.to_act \
                and me < len(d.hands) and CLOSE in d.legal_actions(me) and not self.session.close_requested():
            labels.insert(0, "Close the talon")
            acts.insert(0, "ask")
        labels.append("Leave the match")
        acts.append("leave")

    def menu_item(self, act):
        """What a link play item does: the next screen, or None."""
        s = self.session
        if act == "leave":
            s.leave()
            return "title"
        if s.request_close():
            self.table.message("Closing: waiting for " + self.who(self.match.deal.to_act))
        return None
