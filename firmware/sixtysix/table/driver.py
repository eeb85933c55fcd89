"""The match driver: whose turn it is, a move checked, applied and saved, the computer's
moves, the next deal.

A module apart from the table's view (sixtysix.table.view), as a game's state is kept
apart from its observers: the driver knows the match (its rules are the engine's,
shared_rules), the players (the person, the computer, pass-and-play's people, the other
device's player) and the save, and draws nothing. The table is a Driver
(sixtysix.table.view.Game) told what to show by four methods of its own: `acted` (an
action applied and saved), `show(deal_in=True)` (the next deal), `notice` (a move of
this device's player the rules refuse) and `human` (the person's key on their turn).

One driver serves every table: against the computer the person is player 0;
pass-and-play (sixtysix.table.passplay) and the linked table (sixtysix.link.table) say
who sits at the bottom (`seat`), who moves next (`move_on`) and what a deal saves
(`log_deal`) of their own.
"""
import gc
from shared_rules import cards
from shared_rules.actions import CLOSE, DECLARE, DRAW
from shared_rules.errors import IllegalMove
from shared_rules.rules import TEAM_GAMES, marriage_points
from sixtysix.save import format as saveformat

HUMAN = 0           # the match's player index of the person against the computer
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


def state_seed(match):
    """A number that depends only on what a save keeps (not, e.g., on the action log,
    which a restored deal rebuilds without its automatic draws)."""
    d = match.deal
    seat = d.to_act if d.to_act >= 0 else 0
    won = 0
    for w in d.won:
        won |= w
    if hasattr(d, "trick"):         # a team deal: the trick so far and the bid stand in
        where = 31 * len(d.trick) + 131 * d.bid + d.trick_count
    else:
        where = 31 * d.talon_left + d.lead + 1
    return (match.rng.state + 7919 * cards.count(won) + where + d.hands[seat] % 65521) & 0x3FFFFFFF


class Driver:
    """One match and its players on a device (sixtysix.core.device): its store (the
    save), settings (the statistics), think_clock and sound (hushed while the computer
    thinks)."""

    def __init__(self, device, match, level, seats=None, session=None):
        self.device = device
        self.seats = seats         # pass-and-play's sixtysix.table.seats.Seats (PassPlay)
        self.session = session     # link play's sixtysix.link.match session (Linked)
        self.match = match
        self.level = level
        self.team = match.rules.game in TEAM_GAMES
        self.n = match.players()
        self.score_before = None   # the scores before the action that ended the deal
        self.asked = -1            # the log length at which the computer last passed on closing
        self.seat()

    # ---- the players -----------------------------------------------------------------

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

    def who(self, seat):
        return self.names[self.match.player_at(seat)]

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

    # ---- whose turn, and what may be done --------------------------------------------

    def bidding(self):
        d = self.match.deal
        return self.team and d.bidding and d.bidder < 0 and not d.ended

    def playing(self):
        """True when the human may play a card now."""
        d = self.match.deal
        return d.to_act == self.me() and not d.ended and not getattr(d, "pending_draw", False) \
            and not self.bidding()

    def meld_value(self, suit):
        """What a marriage in `suit` shown now is worth."""
        d = self.match.deal
        shown = 0
        for m in d.melds:
            shown += cards.count(m)
        return marriage_points(self.match.rules.game, suit, d.trump, shown)

    # ---- moving on -------------------------------------------------------------------

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

    def act(self, action, seat):
        """Check and apply an action (in link play through the session, which checks the
        other device's and sends this one's), save it, and tell the table what it did
        (`acted`). False when the rules refuse it (this device's player is told why)."""
        d = self.match.deal
        tricks = sum(d.tricks)
        was = (on_table(d), d.trump, getattr(d, "trump_card", -1), self.meld_value((action & 31) >> 3))
        score = self.match.score[:]
        implied = seat == d.to_act
        try:
            self.mover.apply(action, seat)
        except IllegalMove as e:
            if seat == self.me():
                self.notice("Not allowed", str(e.args[0]) if e.args else "not now")
            return False
        self.log_action(action, seat, implied)
        if d.ended:
            self.score_before = score
        self.acted(action, seat, sum(d.tricks) > tricks, was)
        return True

    def computer(self):
        """The computer's move: its choice, or the cheap one (greedy)."""
        d = self.match.deal
        seat = d.to_act
        action = self.decide(seat)
        if action is None:
            action = greedy(d)
        if not self.act(action, seat):
            self.act(greedy(d), seat)

    def adviser(self):
        """The computer player that moves and gives hints here (None: no AI), seeded from
        the match state, so a resumed match continues exactly as it would have."""
        try:
            from shared_rules import ai
        except ImportError:
            return None
        return ai.make_player(self.level, seed=state_seed(self.match))

    def decide(self, seat):
        """The computer's choice for `seat`, or None (no AI, out of memory, or a pass)."""
        d = self.match.deal
        dev = self.device
        if dev.sound is not None:
            dev.sound.hush()        # the loop stops while it thinks: no note may hang on
        action = None
        try:
            # a fresh player per decision, seeded from the state: a resumed match
            # continues exactly as it would have without the power cut
            player = self.adviser()
            if player is not None:
                deadline = None
                if dev.think_clock is not None:
                    deadline = dev.think_clock() + THINK.get(self.level, 1.0)
                action = player.choose(d.view(seat), clock=dev.think_clock, deadline=deadline)
            player = None
        except MemoryError:
            player = None
            gc.collect()
            action = None
        return action

    # ---- the save and the next deal --------------------------------------------------

    def next_deal(self):
        self.match.next_deal()
        self.score_before = None
        self.log_deal()
        self.show(deal_in=True)

    def log_deal(self):
        """Save a deal that has just been dealt (its header: no cards; who is a person:
        sixtysix.table.seats)."""
        from sixtysix.save import savegame
        savegame.log_deal(self.device.store, self.match, self.level,
                          1 if self.seats is None else self.seats.to_byte())

    def log_action(self, action, seat, implied):
        """Save an action just applied (`implied`: it was the seat to act's). The action
        that ends a deal also carries the deal's statistics, so both land together."""
        m = self.match
        st = self.device.settings
        flags = 0
        if m.deal.ended:
            flags = saveformat.COUNTED | (saveformat.WON if self.deal_won() else 0)
            if m.over:
                flags |= saveformat.OVER | (saveformat.MATCH_WON if self.mine(m.winner) else 0)
            st.count_flags(flags)
        elif m.over:
            flags = saveformat.OVER
        self.device.store.action(-1 if implied and not flags else seat, action, flags,
                                 st.to_bytes() if flags else None)
