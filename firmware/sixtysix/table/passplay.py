"""The pass-and-play table: several people share one device (a sixtysix.table.view.Game).

Before a person's turn, when someone else holds the device (sixtysix.table.seats), the hand
is hidden and a "Pass to <name>" box waits for the next person; then the table turns to
them (their seat at the bottom). The Menu key there opens the action menu, as at the
table, with what the person still holding the device may do (the hand stays hidden). The
players keep compass names, whoever holds the device, and nobody's results are counted
in the statistics.

Only the table: its set-up screen is sixtysix.screens.friends', dropped when the table opens, so
that Hard's search fits beside it.
"""
from shared_rules.actions import CLOSE
from sixtysix.table import boxes
from sixtysix.table.view import Game
from sixtysix.table.seats import COMPASS


class PassPlay(Game):
    """A match of people passing the device (`seats`) and the computer in other seats."""

    def seat(self):
        seats = self.seats
        self.owner = None
        self.viewer = seats.holder if seats.holder is not None else seats.people()[0]
        self.passing = seats.holder is None         # nobody has taken the device yet
        self.names = names = COMPASS[self.n]
        self.heads = ["N-S", "E-W"] if self.match.sides() < self.n else [w[0] for w in names]
        self.mover = self.match

    def move_on(self, role):
        """The deal goes on: a pass of the device, the computer's move, or the player's key."""
        to = self.seats.pass_due(self.match)
        if to is not None:
            self.pass_to(to)
        elif self.match.deal.to_act != self.me():
            self.computer()
        else:
            return self.my_turn(role)
        return None

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
        close = self.seats.may_close(self.match)
        if close:
            labels.append("Close the talon first")
            acts.append("close")
        labels.append("Main menu")
        acts.append("title")

        def chosen(role):
            if role == "menu":
                # the action menu (its Back: this box again), the hand hidden (passing):
                # none of the next person's moves, the holder's close if it is offered here
                def closing(turn, items, does):
                    items.insert(0, "Close the talon first")
                    does.insert(0, CLOSE)

                self.close_overlay()
                boxes.action_menu(self, closing if close else None)
                return None
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

        boxes.open_box(self, "Pass to " + name, ["Only " + name + " looks now."], labels, chosen)

    def handed(self, player):
        """The pass box was dismissed: `player` has the device; the table turns to them."""
        self.seats.handed(player)
        self.viewer = player
        self.passing = False
        self.refresh_texts()
        if self.team:
            from sixtysix.table import teams
            teams.show_bids(self)
        self.table.goto(self.targets(), self.lay.frames[0])
        self.table.call(self.prompt)
