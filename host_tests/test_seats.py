"""Pass-and-play (sixtysix.seats): who holds the device, and when a pass screen is due."""
import random

import pytest

from tools.sim import setup_paths

setup_paths()
from shared_rules.actions import CLOSE  # noqa: E402
from shared_rules.family import new_match  # noqa: E402
from shared_rules.rules import Rules  # noqa: E402
from sixtysix.seats import Seats, PERSON, COMPUTER, ACT, OFFER_CLOSE  # noqa: E402

P, C = PERSON, COMPUTER


def play_through(match, seats, rng, deals=3):
    """Play as the screens would: pass screens when due, people and computer at random.
    Returns [(player who acted, player holding the device)], the pass screens shown
    [(to, from)], and each person who needed the device, in order."""
    acted, passes, needs = [], [], []
    while match.deals <= deals and not match.over:
        d = match.deal
        if d.ended:
            match.next_deal()
            continue
        to = seats.pass_due(match)
        if to is not None:
            passes.append((to, seats.holder))
            seats.handed(to)
        nxt = seats.next_person(match)
        if nxt is not None:
            needs.append(nxt[0])
        if nxt is not None and nxt[1] == OFFER_CLOSE:
            assert seats.holder == nxt[0]
            if rng.random() < 0.2:
                match.apply(CLOSE, 1 - d.to_act)
            else:
                seats.close_answered(match)
            continue
        player = match.player_at(d.to_act)
        if nxt is not None:
            assert nxt == (player, ACT)
        acted.append((player, seats.holder))
        legal = d.legal_actions()
        match.apply(rng.choice([a for a in legal if a < 96] or legal), d.to_act)
    return acted, passes, needs


@pytest.mark.parametrize("name,options,kinds", [
    ("standard", {}, (P, P)), ("russian", {}, (P, P)), ("three-handed", {}, (P, P, C)),
    ("four-handed", {}, (P, C, P, C)), ("american", {"players": 3}, (P, P, P)),
    ("american", {}, (C, P, P, C))])
def test_every_persons_move_is_made_while_they_hold_the_device(name, options, kinds):
    seats = Seats(kinds)
    acted, passes, needs = play_through(new_match(Rules(name, **options), seed=3), seats, random.Random(3))
    assert all(holder == p for p, holder in acted if kinds[p] == P)
    assert passes and all(to != before for to, before in passes)
    # a pass screen exactly where the next person differs from the last one
    assert len(passes) == 1 + sum(1 for i in range(1, len(needs)) if needs[i] != needs[i - 1])
    if name == "russian":
        assert len(needs) > len([p for p, _ in acted if kinds[p] == P])    # close offers too


def test_one_person_against_the_computer_never_needs_a_pass_screen():
    seats = Seats((P, C))
    acted, passes, _ = play_through(new_match(Rules("standard"), seed=4), seats, random.Random(4))
    assert passes == [] and acted


def test_the_russian_close_is_offered_to_the_person_not_on_lead_first():
    for seed in range(20):
        m = new_match(Rules("russian"), seed=seed)
        d = m.deal
        if CLOSE in d.legal_actions(1 - d.to_act):
            break
    seats = Seats((P, P))
    other = m.player_at(1 - d.to_act)
    assert seats.next_person(m) == (other, OFFER_CLOSE)
    assert seats.pass_due(m) == other
    seats.handed(other)
    seats.close_answered(m)
    assert seats.next_person(m) == (m.player_at(d.to_act), ACT)
    assert seats.pass_due(m) == m.player_at(d.to_act)
    seats = Seats((P, C) if other == 1 else (C, P))      # the computer not on lead: no offer
    assert seats.next_person(m)[1] == ACT


def test_seat_kinds_are_checked_and_saved_in_a_byte():
    with pytest.raises(ValueError):
        Seats((P, "robot"))
    with pytest.raises(ValueError):
        Seats(())
    s = Seats((C, P, C, P))
    assert s.to_byte() == 0b1010 and Seats.from_byte(0b1010, 4).kinds == s.kinds
