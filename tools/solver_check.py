"""Check the exact solver against brute-force minimax over the engine's own Deal.

    python -m tools.solver_check --positions 10000 --cards 5 --seed 1

Random endgames of every two-handed deal (the four rule sets, three-handed and Idiots'),
talon used up or closed, both hands known, at most --cards cards per hand, on lead or
mid-trick, are solved twice: by shared_rules.ai.solver
and by a plain minimax that plays every legal action through Deal.apply and reads
Deal.result. The minimax also tries NOT declaring when a player could, so it checks the
solver's assumption that declaring at 66 at once is never worse. Wrong declarations
are left out: they never beat playing on.
"""
import argparse
import sys
import time
from multiprocessing import Pool

from shared_rules.actions import DECLARE_MARRIAGE, DECLARE, CLOSE
from shared_rules.cards import listed, pack, count
from shared_rules.deal import dealt
from shared_rules.rng import Rng
from shared_rules.rules import Rules
from shared_rules.ai.solver import Solver

TWO_HANDED = Rules.NAMES + ("three-handed", "idiots")     # every game the solver plays


def random_endgame(rng, rules, max_cards):
    """A deal played at random into phase 2 (exhausted or closed) with at most max_cards
    per hand, nobody on lead holding 66; None if this shuffle does not get there."""
    order = listed(pack(rules.ranks))
    rng.permute(order)
    d = dealt(rules, order)
    close_at = rng.below(3)     # 0: play the talon out; else close when it is possible
    while not d.ended:
        if d.phase2 and d.lead < 0 and count(d.hands[d.to_act]) <= max_cards and rng.below(2):
            break
        if d.phase2 and d.lead >= 0 and count(d.hands[d.to_act]) <= max_cards and rng.below(3) == 0:
            break
        if d.lead < 0 and d.rules.declaring and d.points(d.leader) >= 66:
            return None
        acts = d.legal_actions()
        if close_at and d.to_act == d.leader and CLOSE in acts and rng.below(4) == 0:
            d.apply(CLOSE)
            continue
        plays = [a for a in acts if a < 64 and not (a >= 32 and rng.below(2))]
        if d.pending_draw:
            d.apply(acts[0])
        else:
            d.apply(plays[rng.below(len(plays))])
    if d.ended or not d.phase2 or (d.lead < 0 and d.rules.declaring and d.points(d.to_act) >= 66):
        return None
    return d


def brute(d, seat):
    """Game points of `seat` minus the opponent's, both playing perfectly (full minimax)."""
    if d.ended:
        gp = d.result[1]
        return gp[seat] - gp[1 - seat]
    me = d.to_act
    best = None
    for a in d.legal_actions():
        if a == DECLARE and d.points(me) < 66:
            continue
        if DECLARE_MARRIAGE <= a < 96:
            meld = 40 if (a & 31) >> 3 == d.trump else 20
            if not d.tricks[me] or d.points(me) + meld < 66:
                continue
        if a >= 96 and a != DECLARE:
            continue
        c = d.clone()
        c.apply(a)
        v = brute(c, seat)
        if best is None or (v > best if me == seat else v < best):
            best = v
    return best


def solve(solver, d):
    """The solver's value for the seat to act."""
    ls = d.leader
    fs = 1 - ls
    solver.setup(d.rules, d.trump, d.closed, d.closed_opp_tricks)
    solver.budget(1 << 29)
    v = solver.lead(d.hands[ls], d.hands[fs], ls, d.card_points[ls], d.card_points[fs],
                    d.tricks[ls], d.tricks[fs], d.meld_points[ls], d.meld_points[fs], -9, 9, d.lead)
    return v if d.to_act == ls else -v


def check(args):
    """(positions, mismatches, first mismatch) for one chunk of seeds."""
    seed, n, max_cards = args
    rng = Rng(seed)
    solver = Solver(512)
    done = 0
    bad = 0
    first_bad = None
    names = TWO_HANDED
    while done < n:
        rules = Rules(names[rng.below(len(names))])
        d = random_endgame(rng, rules, max_cards)
        if d is None:
            continue
        want = brute(d, d.to_act)
        got = solve(solver, d)
        done += 1
        if want != got:
            bad += 1
            if first_bad is None:
                first_bad = (rules.name, d.hands[:], d.lead, d.leader, want, got)
    return done, bad, first_bad


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=10000)
    ap.add_argument("--cards", type=int, default=5, help="most cards per hand")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--procs", type=int, default=2)
    a = ap.parse_args(argv)
    chunks = 40
    per = -(-a.positions // chunks)
    jobs = [(a.seed * 1000 + i, per, a.cards) for i in range(chunks)]
    start = time.time()
    with Pool(a.procs) as pool:
        results = pool.map(check, jobs)
    done = sum(r[0] for r in results)
    bad = sum(r[1] for r in results)
    print("positions %d, hands up to %d cards, all rule sets: solver == minimax on %d, mismatches %d (%.0f s)"
          % (done, a.cards, done - bad, bad, time.time() - start))
    for r in results:
        if r[2]:
            print("first mismatch:", r[2])
            break
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
