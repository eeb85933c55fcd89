"""What the table shows of a match: where each card goes, the panel and the message
line, what an action did (its words, its tune, its cards moving), the prompts, the
person's keys, the boxes over the felt coming and going, and the frames of the
computer's turn.

A module apart from the match driver (sixtysix.table.driver), as a game's observers are
kept apart from its state: Game, the table screen App.start makes, is a Driver that
draws what the driver tells it (`acted`, `show`, `notice`, `human`) and reads the match
to lay it out; sixtysix.table.felt draws it (cards, texts, piles).

One Game serves every rule set: the two-handed deal (standard ... Schnapsen, Idiots',
three-handed, where the dealer sits out) and the team deals (four-handed, North
American), whose extra parts (bidding, partners) live in sixtysix.table.teams.
Pass-and-play and link play are sixtysix.table.passplay.PassPlay, a Game whose viewer
changes (several people take turns with the device), and sixtysix.link.table.Linked,
whose viewer is this device's player (the other device's moves come by cable). The
VIEWER's seat is at the bottom and only the viewer's hand is shown; the others sit by
`place`, around from there.
"""
import gc
import sixtysix
from shared_rules import cards
from shared_rules.actions import MARRY, EXCHANGE, CLOSE, BID
from sixtysix.core import ui
from sixtysix.table import boxes, driver
from sixtysix.table.felt import Table, PAUSE

PLACES = {2: (0, 2), 3: (0, 1, 3), 4: (0, 1, 2, 3)}    # bottom, left, top, right


class Game(driver.Driver):
    """One match on screen. The device gives (besides the driver's): sheet, layout,
    settings, key, add_gauge()."""

    passing = False                # a pass box is due or showing: no hand shown
    # What a pixel costs to redraw while the table is taken off (App.go: ui.Clear): the
    # rectangle its first layers leave spans cards and text still to go
    UNDER = ui.TILE_US + ui.SHAPE_US

    def __init__(self, device, match, level, fresh_deal=True, seats=None, session=None):
        driver.Driver.__init__(self, device, match, level, seats, session)
        self.table = t = Table(device.sheet, device.layout, cards.pack(match.rules.ranks),
                               self.n, self.team)
        self.group = t.group
        self.lay = self.table.lay
        self.cursor = 0
        self.bid_choice = 0
        self.overlay = None        # (group, ListWidget, handler)
        self.wipes = []            # boxes coming (ui.Show, None) or going (ui.Clear, the box)
        self.pending = None        # a key pressed while cards moved, answered after them
        self.shown_last = None     # the last trick (lead, reply, winner) on show, if shown
        self.shown_result = False
        self.thinking = False      # "Thinking..." is shown: the computer thinks in the next frame
        self.fresh_deal = fresh_deal
        self.steps = [self.build]   # the screen is built a step a frame (ui.Show)

    def build(self):
        """The steps that make the table (sixtysix.table.build and its table.parts, which
        the title loads while it waits), then `begin`."""
        from sixtysix.table import build
        return build.steps(self.table, self.refresh_texts, self.begin)

    def begin(self):
        """The screen's last step: the building code leaves the heap; the battery, the
        deal (dealt or laid out)."""
        sixtysix.forget("sixtysix.table", "build", "parts")
        self.device.add_gauge(self.group, self.lay.battery)
        self.show(self.fresh_deal, False)     # (the texts were filled as they were made)

    # ---- seen from the viewer's seat ---------------------------------------------------

    def hand(self):
        if self.watching() or self.passing:
            return []
        return cards.ranked(self.match.deal.hands[self.me()], self.match.rules.higher)

    def place(self, seat):
        """Where the player in `seat` sits on the screen (0 bottom, 1 left, 2 top, 3 right)."""
        return PLACES[self.n][(self.match.player_at(seat) - self.viewer) % self.n]

    def side_name(self, side):
        """Name of a score column: a player ("you" for the viewer), or with partners "us"
        and "them" (pass-and-play: the partners' compass points)."""
        if self.match.sides() < self.n:
            if self.seats is not None:
                return self.heads[side]
            return "us" if side == self.viewer % 2 else "them"
        return "you" if side == self.viewer and self.seats is None else self.names[side]

    # ---- what goes where ---------------------------------------------------------------

    def targets(self, trick=None, collect_to=None, deal_in=False):
        """Card places for the current state.

        trick: (seat, card) pairs of a finished trick to keep on the table; collect_to:
        the exit point for cards leaving the table; deal_in: hand cards fly from the talon.
        """
        d = self.match.deal
        lay = self.lay
        out = []
        hand = self.hand()
        mine = self.playing()
        legal = d.legal_plays() if mine else -1
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
            out.append((c, (x, y), not (legal >> c & 1), lay.talon))
            placed |= 1 << c
        slots = lay.places[self.n]
        for seat, c in (trick if trick is not None else driver.on_table(d)):
            p = self.place(seat)
            via = lay.cpu_from if self.n == 2 and p == 2 else lay.offscreen(p)  # tall: its backs
            out.append((c, slots[p], False, None if trick else via))
            placed |= 1 << c
        turn_up = getattr(d, "trump_card", -1)
        if turn_up >= 0 and not placed >> turn_up & 1 and d.closed < 0:
            out.append((turn_up, lay.trump, False, None))      # (closed: a back shows)
            placed |= 1 << turn_up
        piles = self.table.piles
        if trick is None:
            self.shown_last = self.last_trick()
        last = self.shown_last          # (while a finished trick shows, the one before stays)
        if last:
            x, y, dx, dy = lay.last[:4]
            for i in range(2):
                out.append((last[i], (x + i * dx, y + i * dy), False, None))
                placed |= 1 << last[i]
        won = []                                    # (cards won, their pile's place)
        for seat in range(len(d.hands)):
            pile = piles[self.place(seat)]
            if pile is not None:
                won.append((d.won[seat], (pile[1].x, pile[1].y)))
        cards = self.table.cards
        for c in range(32):
            if cards[c] is not None and not placed >> c & 1:
                via = collect_to
                for mask, xy in won:                # won cards go onto their pile
                    if mask >> c & 1:
                        via = xy
                out.append((c, None, False, via))
        if deal_in:
            out = [(c, xy, dm, lay.talon if xy and xy[1] >= lay.hand_y - 10 else None)
                   for c, xy, dm, _ in out]
        return out

    def last_trick(self):
        """(lead, reply, winner seat) of the last trick where the layout shows it, else None."""
        if self.table.last_label is None:
            return None
        return getattr(self.match.deal, "last_trick", None)

    def dealing(self):
        """The deal as steps: the hand comes in packets of three (as the rules deal it),
        each flying from the talon as one card that then fans out into three. One card
        in flight costs a frame what one card costs, however many it stands for."""
        final = self.targets(deal_in=True)
        talon = self.lay.talon
        hand = [t for t in final if t[3] == talon]
        steps = [[t for t in final if t[3] != talon]]
        for k in range(0, len(hand), 3):
            packet = hand[k:k + 3]
            mid = packet[len(packet) // 2]
            steps[-1].append(mid)
            steps.append([(c, xy, dim, mid[1]) for c, xy, dim, _ in packet if c != mid[0]])
        return steps

    def panel(self):
        d = self.match.deal
        s = self.match.score
        me = self.me()
        if self.n == 2 and not self.team:
            h = self.heads
            seat = self.match.seat_of
            lines = ["      %3s %3s" % (h[0], h[1]),        # right-aligned columns
                     "Games %3s %3s" % (s[0], s[1]),
                     "Tricks%3s %3s" % (d.tricks[seat(0)], d.tricks[seat(1)])]
        else:
            from sixtysix.table import teams
            lines = teams.columns(self)
        pts = "-"
        if not self.watching() and not self.passing:
            pts = str(d.points(me if not self.team else d.side(me)))
        if self.match.counting == "classic" and not self.team:
            pts = "?"
        if self.team and d.bidding:
            from sixtysix.table import teams
            lines.append(teams.bid_line(self, pts))
        else:
            lines.append("Points%3s" % pts)
        lines.append("Trump " + (cards.SUIT_WORDS[d.trump] if d.trump >= 0 else "not yet"))
        return lines

    def refresh_texts(self):
        d = self.match.deal
        self.table.set_panel(self.panel())
        if self.team:
            widow = d.widow and not d.trick_count
            self.table.set_talon(1 if widow else 0, "widow" if widow else "", 0)
            return
        turn_up = 1 if d.trump_card >= 0 else 0
        s = "closed" if d.closed >= 0 else ("talon " + str(d.talon_left) if d.talon_left else "")
        backs = cards.count(d.hands[1 - self.me()]) if self.n == 2 else 0
        self.table.set_talon(d.talon_left - turn_up if d.closed < 0 else 1, s, backs,
                             turn_up and d.closed >= 0)
        if self.n == 2:
            counts = [0] * 4
            for seat in range(2):
                counts[self.place(seat)] = d.tricks[seat]
            last = self.last_trick()
            self.table.set_piles(counts, "Last trick: " + self.who(last[2]) if last else "")

    def show(self, deal_in=False, texts=True):
        """Lay out the current state (animated deal for a fresh deal, Driver.next_deal's
        and a new match's: no card raised yet, no bid chosen, its result to come; its new
        texts come in a frame of their own, after the frame that dealt; `texts` False:
        they are up to date already)."""
        if deal_in:
            self.cursor = self.bid_choice = 0
            self.shown_result = False
            if texts:
                self.table.call(self.refresh_texts)
        elif texts:
            self.refresh_texts()
        if deal_in:
            for step in self.dealing():
                self.table.goto(step, self.lay.frames[1])
        else:
            self.table.goto(self.targets(), 0)
        if self.team:
            from sixtysix.table import teams
            teams.show_bids(self)
            if deal_in:
                teams.announce(self)
        elif deal_in and self.watching():
            self.table.message("You deal and sit out this time")
        if deal_in and (self.team or self.watching()):
            self.table.pause()
            self.table.call(self.reprompt)
        else:
            self.prompt()

    def reprompt(self):
        self.table.message("")
        self.prompt()

    def prompt(self):
        """Say whose turn it is, unless a message is still showing."""
        d = self.match.deal
        if self.bidding() and d.to_act == self.me():
            from sixtysix.table import teams
            teams.bid_prompt(self)    # the bids so far stand by the seats
        elif d.ended or self.table.msg.text:
            return
        elif d.to_act == self.me():
            self.table.message("Your lead" if not driver.on_table(d) else "Your turn: follow")

    # ---- moving on -----------------------------------------------------------------------

    def tick(self, role):
        """One frame. Returns "title" to leave the table.

        A key pressed while cards move or a box comes or goes waits in `pending`, and
        the animation hurries; so does one pressed while the computer is about to think.
        The frame that answers a key shows what needs no frames (texts, the cursor) and
        its animation starts in the next: the answer's Python (the rules, the new places)
        is that frame's work. A box the key opens or closes starts to come or go in that
        frame (a menu's bar moves in the next: ui.ListWidget)."""
        t = self.table
        if role is not None and (self.wipes or t.busy() or self.thinking):
            self.pending = role
            t.hurry()
            role = None
        if self.wipes and not (self.wipe_frame() and t.busy()):
            return None
        if t.busy():
            t.tick()
            return None
        if role is None and not self.thinking:
            role, self.pending = self.pending, None
        nxt = self.react(role)
        if role is not None and nxt is None and self.wipes and \
                isinstance(self.wipes[0][0], (ui.Show, ui.Clear)):
            self.wipe_frame()   # the box the key opened or closed: its first band is the answer
        elif t.busy() and not self.wipes:
            t.tick(0)      # what needs no frames (the cursor); the frame is the answer's Python
        return nxt

    def react(self, role):
        """Whatever is next once nothing moves: the box's answer, the result, or the
        deal moving on."""
        if self.overlay is not None:
            return self.overlay[2](role) if role else None
        if self.match.deal.ended:
            self.result_overlay()
            return None
        return self.move_on(role)

    def busy(self):
        """True while anything is still to be drawn before the game waits for a key (the
        app's idle time starts when nothing is)."""
        return bool(self.wipes) or self.table.busy() or self.pending is not None or self.thinking

    def human(self, role):
        """The person's key on their turn (Driver.my_turn): the raised card moves or is
        played, or the action menu opens (bidding: teams.bid_key)."""
        if self.bidding():
            from sixtysix.table import teams
            return teams.bid_key(self, role)
        hand = self.hand()
        if role in ("left", "right"):
            legal = self.match.deal.legal_plays()
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

    def computer(self):
        """The computer's turn: "Thinking..." is drawn in a frame of its own, the thought
        and the move (Driver.computer) come in the next: no frame both redraws the
        message and applies the move (the thought is not a frame's work: keys wait
        through it)."""
        if self.device.warm:
            return          # App.idle does what it was given to do first (App.warm)
        if (self.level == "hard" or not self.team) and not self.watching() and not self.thinking:
            self.thinking = True
            self.table.message("Thinking...")
            return
        self.thinking = False
        driver.Driver.computer(self)

    def acted(self, action, seat, took, was):
        """Show what an action did, once applied and saved (Driver.act): its words, its
        tune, its cards moving. `took`: it ended a trick; `was`: before it, the trick on
        the table, the trump suit, the turned-up card and what a marriage was worth."""
        d = self.match.deal
        before, trump, trump_before, meld = was
        who = self.who(seat)
        msg = None
        if MARRY <= action < EXCHANGE:
            c = action & 31
            msg = who + ": " + str(meld) + "!"
            if self.match.rules.game == "idiots":
                msg += " " + cards.SUIT_WORDS[c >> 3] + " are trumps"
            elif meld == 40:
                msg = who + ": 40 in trumps!"
        elif action == EXCHANGE:
            msg = who + ": exchanged for " + cards.RANK_WORDS[trump_before & 7] + " " + \
                cards.SUIT_WORDS[trump_before >> 3]
        elif action == CLOSE:
            msg = who + ": talon closed"
        elif self.team:
            from sixtysix.table import teams
            msg = teams.said(self, seat, action, trump, took)
        if d.ended and d.result[2] == "declared":
            msg = self.who(d.result[0]) + ": 66!"
        elif d.ended and d.result[2] == "wrong-declaration":
            msg = self.who(1 - d.result[0]) + ": wrong call!"
        self.table.message(msg or "")
        if self.device.sound is not None:
            self.device.sound.acted(action, took and self.deal_side(d.last_trick[-1]) == driver.HUMAN)
        frames = self.lay.frames[0]
        if self.watching():
            frames //= 2
        if took:
            # a trick was completed: show it, then sweep it to the winner
            self.table.goto(self.targets(trick=before + [(seat, action & 31)]), frames)
            self.table.pause(frames * 2 if self.watching() else PAUSE)
            self.table.call(self.refresh_texts)
            exit_xy = self.lay.offscreen(self.place(d.last_trick[-1]))
            self.table.goto(self.targets(collect_to=exit_xy), frames)
        else:
            self.refresh_texts()
            if action >= BID:
                from sixtysix.table import teams
                teams.show_bids(self)
                self.table.pause(frames * 2)
            self.table.goto(self.targets(), frames)
        if not d.ended:
            self.table.call(self.prompt)

    # ---- boxes over the table (sixtysix.table.boxes) --------------------------------------

    def show_box(self, g, steps):
        """Hang box g on the table; `steps` make its bands, which appear over the next
        few frames (a box that comes before the computer's thought: "Thinking..." is
        shown again after it)."""
        self.thinking = False
        self.wipes.append((ui.Show(g, steps, cheap=True), None))
        self.group.append(g)

    def close_overlay(self):
        """Take the box off, a band or two a frame. A pixel it leaves costs at most a
        card's (a sheet tile): a band's text goes with it, in the same rectangle; priced
        as text over more layers (UNDER), a band on 320x240 went in three frames."""
        if self.overlay is not None:
            g = self.overlay[0]
            self.overlay = None
            self.wipes.append((ui.Clear(g, self.lay.w, self.lay.h, ui.TILE_US), g))

    def wipe_frame(self):
        """One frame of the first box coming or going. A box that has gone is taken off
        the table a frame later: its parts' last removals must be drawn first, or
        displayio would join them all into one rectangle. True when that was all: the
        frame drew nothing, so the table's next work (a queued deal) can have it."""
        wipe, gone = self.wipes[0]
        if wipe is None:
            self.group.remove(gone)              # empty and drawn: redraws nothing
            self.wipes.pop(0)
            gc.collect()
            if not self.wipes:
                return True
            wipe, gone = self.wipes[0]
        if not wipe.step():
            if gone is None:
                self.wipes.pop(0)
            else:
                self.wipes[0] = (None, gone)

    def action_menu(self):
        boxes.action_menu(self)

    def point_at(self, action):
        """Raise the card an action plays, or choose the bid (hints)."""
        if action is not None and action >= BID:
            self.bid_choice = self.match.deal.legal_actions().index(action)
            self.table.message("")
            self.prompt()
            return
        hand = self.hand()
        c = action & 31 if action is not None and action < EXCHANGE else -1
        if c in hand:
            self.cursor = hand.index(c)
            self.table.goto(self.targets(), 0)

    def notice(self, title, text):
        boxes.notice(self, title, text)

    def result_overlay(self):
        boxes.deal_result(self)
