"""A match: deals in a row, dealer rotation, game points, and the match winner.

Players are 0 and 1 for the whole match; in each deal the dealer sits in seat 1 and
the other player (the forehand) in seat 0.

The two-handed deal (shared_rules.deal) and the records (shared_rules.record) are
imported where they are used: a team match never loads the one, the device (which saves
its own way) never the other, so neither takes the board's heap while it plays.
"""
from shared_rules.cards import listed, pack
from shared_rules.actions import DECLARE
from shared_rules.rng import Rng
from shared_rules.rules import Rules

COUNTING = ("casual", "classic")


class Match:
    """`counting`: "casual" declares for a seat as soon as it is on lead with 66;
    "classic" leaves declaring to the players (a wrong call is punished)."""

    def __init__(self, rules, counting="casual", seed=1):
        if counting not in COUNTING:
            raise ValueError("counting must be casual or classic, not " + repr(counting))
        self.rules = rules
        self.counting = counting
        self.rng = Rng(seed)
        self.score = [0] * self.sides()
        self.carry = 0              # game points waiting for the winner of the next deal
        self.deals = 0
        self.over = False
        self.winner = None
        self.cut = None
        self.dealer = self._first_dealer()
        self.deal = None
        self.next_deal()

    def players(self):
        return 2

    def sides(self):
        """Scores kept: one per player, or per partnership in the team games."""
        return self.players()

    def _first_dealer(self):
        if self.rules.first_dealer == "lot":
            return self.rng.below(self.players())
        # Cut (seed 000): each player cuts a card and the highest deals; a tie for the
        # highest rank cuts again. `cut` keeps the cards, player by player.
        while True:
            left = listed(pack(self.rules.ranks))
            cut = [left.pop(self.rng.below(len(left))) for _ in range(self.players())]
            best = min(c & 7 for c in cut)             # a lower rank index is a higher card
            high = [p for p in range(len(cut)) if cut[p] & 7 == best]
            if len(high) == 1:
                self.cut = tuple(cut)
                return high[0]

    def seat_of(self, player):
        return 1 if player == self.dealer else 0

    def player_at(self, seat):
        return self.dealer if seat == 1 else 1 - self.dealer

    def next_deal(self):
        """Shuffle and deal the next deal (after the previous one has ended)."""
        if self.over:
            raise ValueError("the match is over")
        if self.deal is not None:
            if not self.deal.ended:
                raise ValueError("the deal is still in progress")
            self._rotate(self.deal.result)
        order = listed(pack(self.rules.ranks))
        self.deal_rng = self.rng.state      # deals this deal again (the device's saves)
        self.rng.permute(order)
        self.deal = self._dealt(order)
        self.deals += 1

    def _dealt(self, order):
        from shared_rules.deal import dealt
        return dealt(self.rules, order)

    def _rotate(self, result):
        """Choose the dealer of the next deal."""
        winner, _, reason = result
        if reason != "annulled":
            if self.rules.next_dealer == "winner":
                if winner is not None:
                    self.dealer = self.player_at(winner)
            else:
                self.dealer = 1 - self.dealer

    def apply(self, action, seat=None):
        """Apply an action to the current deal; scores the deal when it ends."""
        d = self.deal
        d.apply(action, seat)
        if not d.ended and self.counting == "casual" and self.rules.declaring and d.lead < 0 \
                and d.points(d.leader) >= 66:
            d.apply(DECLARE, d.leader)
        if d.ended:
            self._score(d.result)

    def _score(self, result):
        winner, gp, reason = result
        if reason == "no-score":
            self.carry += 1
            return
        if winner is None:
            return
        player = self.player_at(winner)
        self.score[player] += gp[winner] + self.carry
        self.carry = 0
        if self.score[player] >= self.rules.target:
            self.over = True
            self.winner = player

    def to_dict(self):
        """The whole match as JSON-able data (saved games, records of a match)."""
        from shared_rules import record
        return {"rules": self.rules.name, "options": dict(self.rules.overrides),
                "counting": self.counting, "score": self.score[:], "carry": self.carry,
                "dealer": self.dealer, "deals": self.deals, "rng": self.rng.state,
                "deal": record.to_record(self.deal)}

    @classmethod
    def from_dict(cls, data):
        """Rebuild a match saved by to_dict; ValueError (or IllegalMove) when it is corrupt."""
        try:
            return cls._from_dict(data)
        except (KeyError, TypeError, AttributeError, IndexError) as e:
            raise ValueError("not a saved match: " + ("missing " + str(e) if isinstance(e, KeyError) else str(e)))

    @classmethod
    def _from_dict(cls, data):
        from shared_rules import record
        if type(data["options"]) is not dict:
            raise ValueError("bad rule options")
        if data["counting"] not in COUNTING:
            raise ValueError("bad counting mode")
        # A fresh match (MicroPython has no cls.__new__), then the saved state over it.
        m = cls(Rules(data["rules"], **data["options"]), data["counting"])
        state = data["rng"]
        if not _whole(state) or not 0 < state < 1 << 30:   # the generator's states are 30-bit
            raise ValueError("bad random generator state")
        m.rng = Rng()
        m.rng.state = state
        score = data["score"]
        carry = data["carry"]
        # Only North American scores go below zero (a set bid is subtracted).
        low = -1000 if m.rules.game == "american" else 0
        if len(score) != m.sides() or not _whole(carry) or [x for x in score if type(x) is not int or x < low]:
            raise ValueError("bad score")
        m.score = list(score)
        m.carry = carry
        if data["dealer"] not in range(m.players()) or not _whole(data["deals"]) or data["deals"] < 1:
            raise ValueError("bad dealer or deal count")
        m.dealer = data["dealer"]
        m.deals = data["deals"]
        m.cut = None
        m.deal_rng = None       # unknown: a record keeps the deal's cards instead
        m.over = False
        m.winner = None
        for p in range(m.sides()):
            if m.score[p] >= m.rules.target:
                m.over = True
                m.winner = p
        # The saved score already counts the deal if it ended: replay the deal alone.
        rec = data["deal"]
        m.deal = record.deal_from_record(rec)
        if m.deal.rules.name != m.rules.name or m.deal.rules.overrides != m.rules.overrides:
            raise ValueError("the deal is not played by the match's rules")
        for entry in rec["actions"]:
            seat, action = record.parse_entry(entry, len(m.deal.hands))
            m.deal.apply(action, seat)
        return m


def _whole(x):
    """A non-negative int (JSON true/false are not scores)."""
    return type(x) is int and x >= 0
