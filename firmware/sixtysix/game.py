"""The table screen: a match in progress, driven by role events.

The engine (shared_rules) owns the rules; this module turns its state into card
places for `table.Table`, asks the computer for its moves, offers the human only
the actions that are legal now, and saves the match after every action.
"""
import gc
from shared_rules import cards
from shared_rules.actions import MARRY, DECLARE_MARRIAGE, EXCHANGE, CLOSE, DECLARE, DRAW
from shared_rules.errors import IllegalMove
from sixtysix import dialogs
from sixtysix.dialogs import HUMAN
from sixtysix.table import Table, FRAMES

THINK = {"easy": 0.3, "normal": 1.0, "hard": 2.0}   # seconds the computer may think



def short(c):
    """'K hearts': how messages name a card."""
    return cards.RANK_WORDS[c & 7] + " " + cards.SUIT_WORDS[c >> 3]


def greedy(deal):
    """A cheap, allocation-free move: the fallback when the AI runs out of memory.

    Leading: the card worth least. Following: the cheapest card that wins the
    trick, else the cheapest card.
    """
    if deal.pending_draw:
        return DRAW
    if deal.lead < 0 and deal.points(deal.to_act) >= 66:
        return DECLARE
    lead = deal.lead
    m = deal.legal_plays()
    best, best_key = -1, 1000
    while m:
        b = m & -m
        m ^= b
        c = cards.low_card(b)
        key = cards.POINTS[c & 7]
        if lead >= 0:
            wins = c < lead if (c ^ lead) < 8 else (c >> 3 == deal.trump)
            if not wins:
                key += 100
        if key < best_key:
            best, best_key = c, key
    return best


class Game:
    """One match on screen. `app` gives: sheet, width, height, settings, save(), clocks."""

    def __init__(self, app, match, level, fresh_deal=True):
        self.app = app
        self.match = match
        self.level = level
        self.table = Table(app.sheet, app.width, app.height, match.deal.pack_mask)
        self.group = self.table.group
        self.lay = self.table.lay
        self.cursor = 0
        self.overlay = None        # (group, ListWidget or None, handler)
        self.shown_result = False
        self.asked = -1            # the log length at which the computer last passed on closing
        self.show(deal_in=fresh_deal)

    # ---- seats ---------------------------------------------------------------------

    def me(self):
        return self.match.seat_of(HUMAN)

    def hand(self):
        return cards.listed(self.match.deal.hands[self.me()])

    # ---- what goes where ---------------------------------------------------------------

    def targets(self, trick=None, collect_to=None, deal_in=False):
        """Card places for the current state.

        trick: (cards by seat) of a finished trick to keep on the table; collect_to:
        the exit point for cards leaving the table; deal_in: hand cards fly from the talon.
        """
        d = self.match.deal
        lay = self.lay
        me = self.me()
        out = []
        hand = self.hand()
        mine = d.to_act == me and not d.ended and not d.pending_draw
        legal = d.legal_plays() if mine and d.phase2 else -1
        if self.cursor >= len(hand):
            self.cursor = max(0, len(hand) - 1)
        if hand and not legal >> hand[self.cursor] & 1:
            for i, c in enumerate(hand):        # start on a card that may be played
                if legal >> c & 1:
                    self.cursor = i
                    break
        placed = 0
        for i, c in enumerate(hand):
            x, y = lay.hand_xy(i, len(hand))
            if mine and i == self.cursor:
                y -= lay.raise_px
            out.append((c, (x, y), True, not (legal >> c & 1), lay.talon))
            placed |= 1 << c
        slots = (lay.my_trick, lay.cpu_trick) if me == 0 else (lay.cpu_trick, lay.my_trick)
        if trick is not None:
            for seat in (0, 1):
                out.append((trick[seat], slots[seat], True, False, None))
                placed |= 1 << trick[seat]
        elif d.lead >= 0:
            out.append((d.lead, slots[d.leader], True, False, lay.cpu_from))
            placed |= 1 << d.lead
        if d.trump_card >= 0 and not placed >> d.trump_card & 1:
            out.append((d.trump_card, lay.trump, d.closed < 0, False, None))
            placed |= 1 << d.trump_card
        for c in range(32):
            if self.table.cards[c] is not None and not placed >> c & 1:
                out.append((c, None, True, False, collect_to))
        if deal_in:
            out = [(c, xy, f, dm, lay.talon if xy and xy[1] >= lay.hand_y - 10 else None)
                   for c, xy, f, dm, _ in out]
        return out

    def panel(self):
        d = self.match.deal
        me, cpu = self.me(), 1 - self.me()
        s = self.match.score
        lines = ["      You CPU",
                 "Games " + pad(s[HUMAN]) + " " + pad(s[1 - HUMAN]),
                 "Tricks" + pad(d.tricks[me]) + " " + pad(d.tricks[cpu])]
        if self.match.counting == "casual":
            lines.append("Points" + pad(d.points(me)))
        else:
            lines.append("Points  ?")
        lines.append("Trump " + cards.SUIT_WORDS[d.trump])
        return lines

    def refresh_texts(self):
        d = self.match.deal
        self.table.set_panel(self.panel())
        self.table.set_talon(d.talon_left, d.closed, cards.count(d.hands[1 - self.me()]))

    def show(self, deal_in=False):
        """Lay out the current state (animated deal for a fresh deal)."""
        self.refresh_texts()
        if deal_in:
            self.table.goto(self.targets(deal_in=True), FRAMES + 2)
        else:
            self.table.goto(self.targets(), 0)
        self.prompt()

    def prompt(self):
        """Say whose turn it is, unless a message is still showing."""
        d = self.match.deal
        if d.ended or self.table.msg.text:
            return
        if d.to_act == self.me():
            self.table.message("Your lead" if d.lead < 0 else "Your turn: follow")

    # ---- moving on -----------------------------------------------------------------------

    def tick(self, role):
        """One frame. Returns "title" to leave the table."""
        t = self.table
        if t.busy():
            if role is None:
                t.tick()
                return None
            t.finish()
        if self.overlay is not None:
            return self.overlay[2](role) if role else None
        d = self.match.deal
        if d.ended:
            if not self.shown_result:
                self.result_overlay()
            return None
        if d.to_act != self.me():
            self.computer()
            return None
        if self.match.rules.closing == "either" and self.asked != len(d.log):
            self.asked = len(d.log)
            if self.computer_closes():
                return None
        if d.pending_draw:
            self.act(DRAW, self.me())
            return None
        if role is not None:
            return self.human(role)
        return None

    def human(self, role):
        hand = self.hand()
        if role in ("left", "right"):
            d = self.match.deal
            legal = d.legal_plays() if d.phase2 else -1
            step = 1 if role == "right" else -1
            for _ in hand:                  # the cursor stops on playable cards only
                self.cursor = (self.cursor + step) % len(hand)
                if legal >> hand[self.cursor] & 1:
                    break
            self.table.goto(self.targets(), 0)
        elif role == "ok":
            if hand:
                self.act(hand[self.cursor], self.me())
        elif role in ("menu", "up"):
            self.action_menu()
        return None

    def act(self, action, seat):
        """Apply an action, save, and animate what it changed."""
        d = self.match.deal
        leader = d.leader
        lead = d.lead
        trump_before = d.trump_card
        try:
            self.match.apply(action, seat)
        except IllegalMove as e:
            if seat == self.me():
                self.notice("Not allowed", str(e.args[0]) if e.args else "not now")
            return False
        self.app.save_match(self)
        who = "You" if seat == self.me() else "CPU"
        msg = None
        kind = action & 0xE0 if action < 96 else action
        if kind == MARRY or kind == DECLARE_MARRIAGE:
            c = action & 31
            msg = who + ": " + ("40 in trumps!" if c >> 3 == d.trump else "20!")
        elif action == EXCHANGE:
            msg = who + ": exchanged for " + short(trump_before)
        elif action == CLOSE:
            msg = who + ": talon closed"
        if d.ended and d.result[2] == "declared":
            msg = ("You" if d.result[0] == self.me() else "CPU") + ": 66!"
        elif d.ended and d.result[2] == "wrong-declaration":
            msg = ("CPU" if d.result[0] == self.me() else "You") + ": wrong call!"
        self.table.message(msg or "")
        if lead >= 0 and d.lead < 0 and action < 96:
            # a trick was completed: show it, then sweep it to the winner
            played = [0, 0]
            played[leader] = lead
            played[1 - leader] = action & 31
            self.table.goto(self.targets(trick=played), FRAMES)
            self.table.pause()
            win = d.last_trick[2]
            exit_xy = (self.lay.w // 2 - 16, self.lay.h if win == self.me() else -50)
            self.table.call(self.refresh_texts)
            self.table.goto(self.targets(collect_to=exit_xy), FRAMES)
        else:
            self.refresh_texts()
            self.table.goto(self.targets(), FRAMES)
        if d.ended:
            self.app.deal_ended(self.match)
        else:
            self.table.call(self.prompt)
        return True

    def computer_closes(self):
        """Russian rules: the computer may close before the human leads."""
        d = self.match.deal
        cpu = 1 - self.me()
        if d.lead >= 0 or CLOSE not in d.legal_actions(cpu):
            return False
        if self.decide(cpu) != CLOSE:
            return False
        return self.act(CLOSE, cpu)

    def computer(self):
        d = self.match.deal
        seat = d.to_act
        self.table.message("Thinking...")
        self.app.show_now()
        action = self.decide(seat)
        if action is None:
            action = greedy(d)
        if not self.act(action, seat):
            self.act(greedy(d), seat)

    def decide(self, seat):
        """The computer's choice for `seat`, or None (no AI, out of memory, or a pass)."""
        d = self.match.deal
        app = self.app
        action = None
        try:
            # a fresh player per decision, seeded from the state: a resumed match
            # continues exactly as it would have without the power cut
            player = app.make_player(self.level)
            if player is not None:
                deadline = None
                if app.think_clock is not None:
                    deadline = app.think_clock() + THINK.get(self.level, 1.0)
                action = player.choose(d.view(seat), clock=app.think_clock, deadline=deadline)
            player = None
        except MemoryError:
            player = None
            gc.collect()
            action = None
        return action

    # ---- boxes over the table (sixtysix.dialogs) --------------------------------------

    def close_overlay(self):
        if self.overlay is not None:
            self.group.remove(self.overlay[0])
            self.overlay = None
            gc.collect()

    def action_menu(self):
        dialogs.action_menu(self)

    def point_at(self, action):
        """Raise the card an action plays (hints)."""
        hand = self.hand()
        c = action & 31 if action is not None and action < EXCHANGE else -1
        if c in hand:
            self.cursor = hand.index(c)
            self.table.goto(self.targets(), 0)

    def next_deal(self):
        self.match.next_deal()
        self.shown_result = False
        self.app.save_match(self)
        self.cursor = 0
        self.show(deal_in=True)

    def notice(self, title, text):
        dialogs.notice(self, title, text)

    def result_overlay(self):
        dialogs.deal_result(self)


def pad(n):
    s = str(n)
    return " " * (3 - len(s)) + s


