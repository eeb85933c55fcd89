"""Matches of the family games beyond two players (docs/RULES.md 5-7), and the one way to
start or restore a match of any rule set: `new_match` and `match_from_dict`.

Players keep their numbers for the whole match; in each deal the seats number
clockwise from the player left of the dealer, so seat s is player (dealer + 1 + s) % n.
"""
from shared_rules.match import Match
from shared_rules.errors import IllegalMove
from shared_rules.rules import Rules, TEAM_GAMES


class ThreeMatch(Match):
    """Three-handed (RULES.md 5): the dealer sits out while the other two play a Hoyle
    deal in seats 0 and 1; the dealer scores what either of them wins (1 when neither
    scores) but can never reach the target as dealer."""

    def players(self):
        return 3

    def seat_of(self, player):
        """Seat 0 or 1 for the active players; 2 for the dealer, who sits out."""
        return (player - self.dealer - 1) % 3

    def player_at(self, seat):
        return (self.dealer + 1 + seat) % 3

    def _rotate(self, result):
        self.dealer = (self.dealer + 1) % 3

    def _score(self, result):
        winner, gp, _ = result
        target = self.rules.target
        dealer_gets = 1 if winner is None else gp[winner]
        self.score[self.dealer] = min(self.score[self.dealer] + dealer_gets, max(target - 1, self.score[self.dealer]))
        if winner is not None:
            player = self.player_at(winner)
            self.score[player] += gp[winner]
            if self.score[player] >= target:
                self.over = True
                self.winner = player


class TeamMatch(Match):
    """Four-handed (RULES.md 6) and North American (RULES.md 7) matches. Scores are kept
    per team: players 0 and 2 against 1 and 3 with four players, else per player."""

    def players(self):
        return self.rules.players

    def sides(self):
        return 2 if self.rules.players == 4 else self.rules.players

    def seat_of(self, player):
        return (player - self.dealer - 1) % self.players()

    def player_at(self, seat):
        return (self.dealer + 1 + seat) % self.players()

    def team_of_side(self, side):
        """The match team of a deal's side (seats change with the dealer, teams do not)."""
        return self.player_at(side) % self.sides()

    def _dealt(self, order):
        from shared_rules.team import dealt      # here: three-handed never loads it
        return dealt(self.rules, order)

    def _rotate(self, result):
        self.dealer = (self.dealer + 1) % self.players()

    def apply(self, action, seat=None):
        """Apply an action to the current deal; scores the deal when it ends. Refused once
        the match is over (the ten of trumps can end it in the middle of a deal)."""
        if self.over:
            raise IllegalMove("the match is over")
        d = self.deal
        d.apply(action, seat)
        # Four-handed option: a team on target - 1 that wins the ten of trumps wins at once,
        # even on the last trick (before the deal itself is scored).
        if d.ten_side >= 0 and self.score[self.team_of_side(d.ten_side)] == self.rules.target - 1:
            team = self.team_of_side(d.ten_side)
            self.score[team] = self.rules.target
            self.over = True
            self.winner = team
        elif d.ended:
            self._score(d.result)

    def _score(self, result):
        winner, gp, reason = result
        for side in range(self.sides()):
            self.score[self.team_of_side(side)] += gp[side]
        if reason == "no-score":             # four-handed 65-65: a point for the next winners
            self.carry += 1
        elif winner is not None and self.carry:
            self.score[self.team_of_side(winner)] += self.carry
            self.carry = 0
        target = self.rules.target
        over = [t for t in range(self.sides()) if self.score[t] >= target]
        if not over:
            return
        if winner is not None and self.team_of_side(winner) in over:
            self.winner = self.team_of_side(winner)   # "bidders out"; four-handed: the deal's winner
        else:
            best = max(self.score[t] for t in over)
            leaders = [t for t in over if self.score[t] == best]
            if len(leaders) > 1:
                return                               # level past the target: play on
            self.winner = leaders[0]
        self.over = True


    def to_dict(self):
        data = Match.to_dict(self)
        data["winner"] = self.winner       # "bidders out" is not readable from the scores
        return data

    @classmethod
    def _from_dict(cls, data):
        m = super()._from_dict(data)
        if "winner" in data:
            winner = data["winner"]
            if winner is not None and (type(winner) is not int or winner not in range(m.sides())
                                       or m.score[winner] < m.rules.target):
                raise ValueError("bad winner")
            m.winner = winner
            m.over = winner is not None
        return m


def match_class(rules):
    if rules.game == "three":
        return ThreeMatch
    if rules.game in TEAM_GAMES:
        return TeamMatch
    return Match


def new_match(rules, counting="casual", seed=1):
    """A match of any rule set (two-handed, Idiots', three-handed or a team game)."""
    return match_class(rules)(rules, counting, seed)


def match_from_dict(data):
    """Restore any match saved with to_dict(); ValueError when the data is corrupt."""
    try:
        cls = match_class(Rules(data["rules"], **data["options"]))
    except (KeyError, TypeError) as e:
        raise ValueError("not a saved match: " + str(e))
    return cls.from_dict(data)
