"""Pass-and-play (sixtysix.table.seats): who holds the device, and when a pass screen is due."""
import random

import pytest

from tools.sim import setup_paths

setup_paths()
from shared_rules.actions import CLOSE  # noqa: E402
from shared_rules.family import new_match  # noqa: E402
from shared_rules.rules import Rules  # noqa: E402
from sixtysix.table.seats import Seats, PERSON, COMPUTER  # noqa: E402

P, C = PERSON, COMPUTER


def play_through(match, seats, rng, deals=3):
    """Play as the screens would: pass screens when due (the holder closing the talon on
    them now and then, where it may), people and computer at random. Returns [(player
    who acted, player holding the device)], the pass screens shown [(to, from)], each
    person who needed the device, in order, and the closes made on pass screens."""
    acted, passes, needs, closes = [], [], [], 0
    while match.deals <= deals and not match.over:
        d = match.deal
        if d.ended:
            match.next_deal()
            continue
        to = seats.pass_due(match)
        if to is not None:
            if seats.may_close(match) and rng.random() < 0.3:
                match.apply(CLOSE, match.seat_of(seats.holder))
                closes += 1
                continue
            passes.append((to, seats.holder))
            seats.handed(to)
        nxt = seats.next_person(match)
        if nxt is not None and (not needs or needs[-1] != nxt):
            needs.append(nxt)
        player = match.player_at(d.to_act)
        assert nxt == (player if seats.person(player) else None)
        acted.append((player, seats.holder))
        legal = d.legal_actions()
        match.apply(rng.choice([a for a in legal if a < 96] or legal), d.to_act)
    return acted, passes, needs, closes


@pytest.mark.parametrize("name,options,kinds", [
    ("standard", {}, (P, P)), ("russian", {}, (P, P)), ("three-handed", {}, (P, P, C)),
    ("four-handed", {}, (P, C, P, C)), ("american", {"players": 3}, (P, P, P)),
    ("american", {}, (C, P, P, C))])
def test_every_persons_move_is_made_while_they_hold_the_device(name, options, kinds):
    seats = Seats(kinds)
    acted, passes, needs, closes = play_through(new_match(Rules(name, **options), seed=3), seats,
                                                random.Random(3))
    assert all(holder == p for p, holder in acted if kinds[p] == P)
    assert passes and all(to != before for to, before in passes)
    # a pass screen exactly where the next person differs from the last one
    assert len(passes) == len(needs)
    if name == "russian":                   # offered on the pass screens, and taken
        assert closes + sum(play_through(new_match(Rules(name), seed=k), Seats(kinds), random.Random(k))[3]
                            for k in range(4, 8))


def test_one_person_against_the_computer_never_needs_a_pass_screen():
    seats = Seats((P, C))
    acted, passes, _, _ = play_through(new_match(Rules("standard"), seed=4), seats, random.Random(4))
    assert passes == [] and acted


def test_the_russian_close_is_offered_on_the_pass_screen_to_the_person_not_on_lead():
    for seed in range(20):
        m = new_match(Rules("russian"), seed=seed)
        d = m.deal
        if CLOSE in d.legal_actions(1 - d.to_act):
            break
    seats = Seats((P, P))
    leader, other = m.player_at(d.to_act), m.player_at(1 - d.to_act)
    assert seats.pass_due(m) == leader and not seats.may_close(m)     # nobody holds it yet
    seats.handed(other)
    assert seats.pass_due(m) == leader and seats.may_close(m)
    seats.handed(leader)
    assert seats.pass_due(m) is None and not seats.may_close(m)        # the leader closes in turn
    standard = new_match(Rules("standard"), seed=seed)
    seats.handed(standard.player_at(1 - standard.deal.to_act))
    assert not seats.may_close(standard)                               # only either-closing rules


def test_seat_kinds_are_checked_and_saved_in_a_byte():
    with pytest.raises(ValueError):
        Seats((P, "robot"))
    with pytest.raises(ValueError):
        Seats(())
    with pytest.raises(ValueError):
        Seats((C, C))
    s = Seats((C, P, C, P))
    assert s.to_byte() == 0b1010 and Seats.from_byte(0b1010, 4).kinds == s.kinds
