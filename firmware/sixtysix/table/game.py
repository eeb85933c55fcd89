"""The table screen: a match in progress, driven by role events.

The engine (shared_rules) owns the rules; this module turns its state into card
places for `table.Table`, asks the computer for its moves, offers the human only
the actions that are legal now, and saves the match after every action.

One Game serves every rule set: the two-handed deal (standard ... Schnapsen,
Idiots', three-handed, where the dealer sits out) and the team deals (four-handed,
North American), whose extra parts (bidding, partners) live in sixtysix.table.teams.

Against the computer the person is player 0; pass-and-play and link play are
sixtysix.table.passplay.PassPlay, a Game whose viewer changes (several people take turns with
the device), and sixtysix.link.table.Linked, whose viewer is this device's player (the
other device's moves come by cable). The VIEWER's seat is at the bottom and only the
viewer's hand is shown; the others sit by `place`, around from there.
"""
import gc
import sixtysix
from shared_rules import cards
from shared_rules.actions import MARRY, EXCHANGE, CLOSE, DECLARE, DRAW, BID
from shared_rules.errors import IllegalMove
from shared_rules.rules import TEAM_GAMES, marriage_points
from sixtysix.table import boxes
from sixtysix.core import ui
from sixtysix.table.boxes import HUMAN
from sixtysix.table.felt import Table, PAUSE

# Seconds the computer may think. Hard's 1.45: the frame that shows "Thinking..." and the
# move's first drawing add up to 80 ms on the real firmware, and "Thinking..." to the
# move stays within 1.55 s (1.5 let it reach 1,556 ms in three-handed Hard)
THINK = {"easy": 0.3, "normal": 1.0, "hard": 1.45}
# Names by place around the viewer (against the computer; computers in link play), and
# the panel's headings against the computer (a column per player, or per side). Lists:
# the names in them are interned, where a constant tuple's would be str objects of the
# .mpy, 32 bytes each (docs/DEPLOY.md): 320 bytes fewer resident in the VM
NAMES = {2: ["You", "CPU"], 3: ["You", "Left", "Right"], 4: ["You", "Left", "Partner", "Right"]}
HEADS = {2: NAMES[2], 3: ["You", "L", "R"], 4: ["Us", "Opp"]}
PLACES = {2: (0, 2), 3: (0, 1, 3), 4: (0, 1, 2, 3)}    # bottom, left, top, right


def greedy(deal):
    """A cheap, allocation-free move: the fallback when the AI runs out of memory.

    Leading: the card worth least. Following: the cheapest card that wins the
    trick, else the cheapest card.
    """
    if getattr(deal, "pending_draw", False):
        return DRAW
    if not deal.legal_plays():             # bidding: pass
        return deal.legal_actions()[0]
    if getattr(deal, "lead", 0) < 0 and deal.rules.declaring and deal.points(deal.to_act) >= 66:
        return DECLARE
    lead = on_table(deal)
    lead = lead[0][1] if lead else -1
    m = deal.legal_plays()
    best, best_key = -1, 1000
    while m:
        b = m & -m
        m ^= b
        c = cards.low_card(b)
        key = cards.POINTS[c & 7]
        if lead >= 0:
            wins = deal.rules.higher[lead & 7] >> (c & 7) & 1 if (c ^ lead) < 8 else c >> 3 == deal.trump
            if not wins:
                key += 100
        if key < best_key:
            best, best_key = c, key
    return best


def on_table(d):
    """The cards of the trick in progress as (seat, card), in the order played."""
    if hasattr(d, "lead"):
        return [(d.leader, d.lead)] if d.lead >= 0 else []
    out = []
    seat = d.leader
    for c in d.trick:
        out.append((seat, c))
        seat = d._next(seat)
    return out


class Game:
    """One match on screen against the computer. `app` gives: sheet, layout, settings,
    log_action(), log_deal(), clocks."""

    passing = False                # a pass box is due or showing: no hand shown
    # What a pixel costs to redraw while the table is taken off (App.go: ui.Clear): the
    # rectangle its first layers leave spans cards and text still to go
    UNDER = ui.TILE_US + ui.SHAPE_US

    def __init__(self, app, match, level, fresh_deal=True, seats=None, session=None):
        self.app = app
        self.seats = seats         # pass-and-play's sixtysix.table.seats.Seats (PassPlay)
        self.session = session     # link play's sixtysix.link.match session (Linked)
        self.match = match
        self.level = level
        self.team = match.rules.game in TEAM_GAMES
        self.n = match.players()
        self.seat()
        self.table = t = Table(app.sheet, app.layout, cards.pack(match.rules.ranks),
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
        self.score_before = None   # the scores before the action that ended the deal
        self.asked = -1            # the log length at which the computer last passed on closing
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
        self.app.add_gauge(self.group, self.lay.battery)
        self.show(self.fresh_deal, False)     # (the texts were filled as they were made)

    # ---- seats ---------------------------------------------------------------------

    def seat(self):
        """Who sits at the bottom (the viewer), whose results this device counts (the
        owner), the players' names and the panel's headings (a column per player or side)."""
        self.owner = self.viewer = HUMAN
        self.names = NAMES[self.n]
        self.heads = HEADS[self.match.sides() if self.n < 4 else 4]
        self.mover = self.match     # what applies the moves

    def me(self):
        """The viewer's seat in this deal (2 in three-handed while dealing: sitting out)."""
        return self.match.seat_of(self.viewer)

    def watching(self):
        return self.me() >= len(self.match.deal.hands)

    def hand(self):
        if self.watching() or self.passing:
            return []
        return cards.ranked(self.match.deal.hands[self.me()], self.match.rules.higher)

    def place(self, seat):
        """Where the player in `seat` sits on the screen (0 bottom, 1 left, 2 top, 3 right)."""
        return PLACES[self.n][(self.match.player_at(seat) - self.viewer) % self.n]

    def who(self, seat):
        return self.names[self.match.player_at(seat)]

    def side_name(self, side):
        """Name of a score column: a player ("you" for the viewer), or with partners "us"
        and "them" (pass-and-play: the partners' compass points)."""
        if self.match.sides() < self.n:
            if self.seats is not None:
                return self.heads[side]
            return "us" if side == self.viewer % 2 else "them"
        return "you" if side == self.viewer and self.seats is None else self.names[side]

    def deal_side(self, w):
        """The score column of the deal's seat (two-handed) or side (team games) `w`."""
        return self.match.team_of_side(w) if self.team else self.match.player_at(w)

    def deal_won(self):
        w = self.match.deal.result[0]
        return w is not None and self.mine(self.deal_side(w))

    def mine(self, column):
        """True when score column `column` is this device's player's (or side's): what its
        results say "you" for and its statistics count (pass-and-play: nobody's)."""
        return self.owner is not None and column == self.owner % self.match.sides()

    def gained(self):
        """Game points of this deal per score column (from the scores before its last
        action; after a power cut, from the deal's result)."""
        m = self.match
        if self.score_before is not None:
            return [a - b for a, b in zip(m.score, self.score_before)]
        out = [0] * m.sides()
        gp = m.deal.result[1]
        for s in range(len(gp)):
            out[self.deal_side(s)] = gp[s]
        return out

    def bidding(self):
        d = self.match.deal
        return self.team and d.bidding and d.bidder < 0 and not d.ended

    def playing(self):
        """True when the human may play a card now."""
        d = self.match.deal
        return d.to_act == self.me() and not d.ended and not getattr(d, "pending_draw", False) \
            and not self.bidding()

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
        for seat, c in (trick if trick is not None else on_table(d)):
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
        """Lay out the current state (animated deal for a fresh deal: its new texts come
        in a frame of their own, after the frame that dealt; `texts` False: they are
        up to date already)."""
        if deal_in and texts:
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
            self.table.message("Your lead" if not on_table(d) else "Your turn: follow")

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

    def move_on(self, role):
        """The deal goes on: the computer's move, or the player's key."""
        d = self.match.deal
        if d.to_act != self.me():
            self.computer()
            return None
        if self.match.rules.closing == "either" and self.asked != len(d.log):
            self.asked = len(d.log)     # Russian rules: the computer may close before the lead
            cpu = 1 - self.me()
            if d.lead < 0 and CLOSE in d.legal_actions(cpu) and self.decide(cpu) == CLOSE \
                    and self.act(CLOSE, cpu):
                return None
        return self.my_turn(role)

    def my_turn(self, role):
        """The viewer is to act: draw (automatic), or answer the key."""
        if getattr(self.match.deal, "pending_draw", False):
            self.act(DRAW, self.me())
            return None
        if role is not None:
            return self.human(role)
        return None

    def busy(self):
        """True while anything is still to be drawn before the game waits for a key (the
        app's idle time starts when nothing is)."""
        return bool(self.wipes) or self.table.busy() or self.pending is not None or self.thinking

    def human(self, role):
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

    def meld_value(self, suit):
        """What a marriage in `suit` shown now is worth."""
        d = self.match.deal
        shown = 0
        for m in d.melds:
            shown += cards.count(m)
        return marriage_points(self.match.rules.game, suit, d.trump, shown)

    def act(self, action, seat):
        """Apply an action (in link play through the session, which checks the other
        device's and sends this one's), save, and animate what it changed."""
        d = self.match.deal
        before = on_table(d)
        tricks = sum(d.tricks)
        trump = d.trump
        trump_before = getattr(d, "trump_card", -1)
        meld = self.meld_value((action & 31) >> 3)
        score = self.match.score[:]
        implied = seat == d.to_act
        try:
            self.mover.apply(action, seat)
        except IllegalMove as e:
            if seat == self.me():
                self.notice("Not allowed", str(e.args[0]) if e.args else "not now")
            return False
        self.log_action(action, seat, implied)
        took = sum(d.tricks) > tricks       # the action ended a trick
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
        if self.app.sound is not None:
            self.app.sound.acted(action, took and self.deal_side(d.last_trick[-1]) == HUMAN)
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
        if d.ended:
            self.score_before = score
        else:
            self.table.call(self.prompt)
        return True

    def computer(self):
        """The computer's turn. "Thinking..." is drawn in a frame of its own, the thought
        and the move come in the next: no frame both redraws the message and applies the
        move (the thought is not a frame's work: keys wait through it)."""
        if self.app.warm:
            return          # App.idle does what it was given to do first (App.warm)
        if (self.level == "hard" or not self.team) and not self.watching() and not self.thinking:
            self.thinking = True
            self.table.message("Thinking...")
            return
        self.thinking = False
        d = self.match.deal
        seat = d.to_act
        action = self.decide(seat)
        if action is None:
            action = greedy(d)
        if not self.act(action, seat):
            self.act(greedy(d), seat)

    def adviser(self):
        """The computer player that moves and gives hints here (None: no AI)."""
        return self.app.make_player(self.level)

    def decide(self, seat):
        """The computer's choice for `seat`, or None (no AI, out of memory, or a pass)."""
        d = self.match.deal
        app = self.app
        if app.sound is not None:
            app.sound.hush()        # the loop stops while it thinks: no note may hang on
        action = None
        try:
            # a fresh player per decision, seeded from the state: a resumed match
            # continues exactly as it would have without the power cut
            player = self.adviser()
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

    def next_deal(self):
        self.match.next_deal()
        self.shown_result = False
        self.score_before = None
        self.log_deal()
        self.cursor = 0
        self.bid_choice = 0
        self.show(deal_in=True)

    def log_deal(self):
        self.app.log_deal(self.match, self.level, 1)

    def log_action(self, action, seat, implied):
        """Save an action just applied and count the deal it ends (App.log_action)."""
        self.app.log_action(self, action, seat, implied)

    def notice(self, title, text):
        boxes.notice(self, title, text)

    def result_overlay(self):
        boxes.deal_result(self)
