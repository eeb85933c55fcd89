"""Learn to play (Title > Rules > Learn to play): a guided deal on the real table.

The deal and the computer's moves are sixtysix.screens.lessondeal's record. Before each step a
box says what matters now: the rules in the rules screen's words (sixtysix.screens.rulestext)
and the person's move in the hint's (shared_rules.ai.hints), with the key that makes it.
A move off the script is not played: a box says the rule (the engine's own words when
the move is not allowed) and the person tries again, nothing lost. Nothing is saved or
counted: a saved match stays as it was. Loaded only for the lesson (the rules menu's
sixtysix.screens.text.OPENS), and forgotten with its words when the lesson is left.
"""
import sixtysix
from shared_rules.actions import MARRY, EXCHANGE, CLOSE, DECLARE, DRAW
from shared_rules.errors import IllegalMove
from sixtysix.table import boxes
from sixtysix.screens import rulestext
from sixtysix.table.view import Game
from sixtysix.screens.lessondeal import RECORD, STEPS, END

# The action menu's line for each move made from it (sixtysix.table.boxes.action_menu)
LINES = {MARRY: "Marry", EXCHANGE: "Exchange", CLOSE: "Close the talon", DECLARE: "Declare 66"}


class Lesson(Game):
    """The lesson's deal against the scripted computer; `at` is the script's next action."""

    def __init__(self, device):
        """The rules menu's modules go, and the computer's that the title loaded for a
        match (the lesson's moves are scripted and its hints the hint's words alone;
        beside Hard's modules the VM model had 16 KB free at the table, too little for
        the lesson's boxes), before the lesson's table comes (App.open)."""
        import sys
        sixtysix.forget("sixtysix.screens", "title", "loading", "text", "menu")
        for n in [n for n in sys.modules if n.startswith("shared_rules.ai.")
                  and n not in ("shared_rules.ai.greedy", "shared_rules.ai.hints")]:
            sixtysix.forget(n)
        from shared_rules.match import Match
        from shared_rules.record import deal_from_record, parse_entry
        from shared_rules.rules import Rules
        m = Match(Rules(RECORD["rules"]), "classic")    # the person declares
        m.dealer = 1                                    # the computer deals: you lead
        m.deal = deal_from_record(RECORD)
        self.script = [parse_entry(e) for e in RECORD["actions"]]
        sixtysix.forget("shared_rules", "record")
        self.at = 0
        self.told = -1          # the last step whose box was shown
        Game.__init__(self, device, m, "easy")

    def tick(self, role):
        nxt = Game.tick(self, role)
        if nxt is not None:             # left: the lesson's own modules go
            sixtysix.forget("sixtysix.screens", "lesson", "lessondeal", "rulestext")
            sixtysix.forget("shared_rules.ai", "hints")
        return nxt

    def due(self):
        """True when the next step's box is still to come (after the draws)."""
        d = self.match.deal
        return self.told < self.at and not d.ended and not d.pending_draw and STEPS[self.at] is not None

    def busy(self):
        return Game.busy(self) or self.due()

    def move_on(self, role):
        """The step's box first; then the deal goes on."""
        if self.due():
            self.told = self.at
            step = STEPS[self.at]
            self.tell(step[0], rulestext.say(step[1]) + (" " + self.how() if self.person() else ""))
            return None
        return Game.move_on(self, role)

    def person(self):
        """True when the script's next action is the person's."""
        return self.script[self.at][0] == self.me()

    def tell(self, title, text, then=None):
        """A box of text (boxes.notice; `then` when it is read); the person's card is
        raised meanwhile."""
        boxes.notice(self, title, text, then)
        if self.at < len(self.script) and self.person():
            self.point_at(self.script[self.at][1])

    def how(self):
        """The person's next move in the hint's words, and the key that makes it."""
        a, why = self.hint(self.match.deal.view(self.me()))
        k = self.device.key
        if a < MARRY:
            keys = k["ok"] + " plays the raised card."
        else:
            keys = "Menu (" + rulestext.menu_key(k) + "): " + LINES[a if a >= EXCHANGE else MARRY] + "."
        return why[0].upper() + why[1:] + ". " + keys

    def hint(self, view):
        """(the script's move, why) for a seat's view: the lesson's hint (boxes.hint)."""
        from shared_rules.ai.hints import reason
        a = self.script[self.at][1]
        return a, reason(view, a)

    def adviser(self):
        """The lesson itself gives the hints (its `hint`): no computer player is loaded."""
        return self

    def decide(self, seat):
        """The computer's move: the script's (its draws as they come)."""
        return DRAW if self.match.deal.pending_draw else self.script[self.at][1]

    def act(self, action, seat):
        """The script's action goes on as in a match; the person's other moves are
        explained instead (wrong)."""
        if seat == self.me() and action != DRAW and action != self.script[self.at][1]:
            self.wrong(action)
            return False
        done = Game.act(self, action, seat)
        if done and action != DRAW:
            self.at += 1
        return done

    def wrong(self, action):
        """Say why not: the engine's words for a move the rules refuse, the points for a
        declaration short of 66, then the step's rules; the card to play is raised
        again once the box is read."""
        d = self.match.deal
        me = self.me()
        names = STEPS[self.at][1]
        if action == DECLARE:
            why = "You have " + str(d.points(me)) + " points."
            names = ("WRONG",)
        elif action not in d.legal_actions():
            try:
                d.apply(action, me)         # refused, the deal left as it was
            except IllegalMove as e:
                why = str(e.args[0])
            why = why[0].upper() + why[1:] + "."
        else:
            why = "Allowed, but the lesson goes another way."
        want = self.script[self.at][1]
        self.tell("Try again", why + " " + rulestext.say(names) + " " + self.how(),
                  lambda: self.point_at(want))

    def result_overlay(self):
        """The deal's result as in a match; its button goes on to what a deal scores."""
        Game.result_overlay(self)
        if self.overlay is not None:
            self.overlay[1].relabel(0, "Go on")

    def next_deal(self):
        """After the result: what a deal scores, then the Rules menu again."""
        self.tell(END[0], rulestext.say(END[1]), lambda: "rules")

    def log_action(self, action, seat, implied):
        """Nothing is saved or counted."""
