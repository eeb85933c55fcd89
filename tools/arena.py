"""Duplicate matches between two players, to measure strength.

    python -m tools.arena normal random --deals 2000 --rules standard --seed 1
    python -m tools.arena hard rdeep:16x4 --deals 2000 --json
    python -m tools.arena hard:budget=20000 normal --deals 500 --counting classic

Players: easy, normal, hard (options: hard:budget=N,solve_cards=N), random, bully,
rdeep (rdeep:SxD, e.g. rdeep:16x4 = 16 samples, rollouts 4 cards deep).

Each match seed is played twice with the players' places swapped: the deals come from the
match's own seeded shuffle, so the k-th deal of both matches holds the same cards with the
seats exchanged. Match pairs are played until --deals deal pairs are reached (both cores
by default). Reported for A: deals won, game points per deal (A minus B) with a 95%
interval (match pairs as clusters), and matches won.
"""
import argparse
import json
import math
import sys
import time
from multiprocessing import Pool

from shared_rules import ai
from shared_rules.actions import CLOSE
from shared_rules.match import Match
from shared_rules.rules import Rules
from tools import baselines


def make(spec, seed):
    """A player from its spec ("hard:budget=20000", "rdeep:16x4", "normal")."""
    name, _, opts = spec.partition(":")
    if name in ai.LEVELS:
        kw = {}
        for part in filter(None, opts.split(",")):
            k, _, v = part.partition("=")
            kw[k] = int(v)
        return ai.make_player(name, seed, **kw)
    if name == "rdeep":
        s, _, d = (opts or "16x4").partition("x")
        return baselines.RDeep(seed, int(s), int(d or 4))
    if name in baselines.BASELINES:
        return baselines.BASELINES[name](seed)
    raise SystemExit("unknown player " + repr(spec))


def play_match(rules, counting, seed, players):
    """Play one match; players[p] is match player p. Returns ([(gp0, gp1) per deal], winner)."""
    m = Match(rules, counting, seed)
    either = rules.closing == "either"
    deals = []
    while True:
        d = m.deal
        while not d.ended:
            if either and d.lead < 0 and not d.pending_draw:
                s = 1 - d.to_act
                if CLOSE in d.legal_actions(s):
                    a = players[m.player_at(s)].choose(d.view(s))
                    if a is not None:
                        m.apply(a, s)
                        continue
            s = d.to_act
            m.apply(players[m.player_at(s)].choose(d.view(s)), s)
        gp = d.result[1]
        deals.append((gp[m.seat_of(0)], gp[m.seat_of(1)]))
        if m.over:
            return deals, m.winner
        m.next_deal()


def match_pair(job):
    """Both halves of duplicate match j: A as player 0, then B as player 0."""
    a_spec, b_spec, rules_name, counting, seed, j = job
    rules = Rules(rules_name)
    mseed = seed * 100003 + j
    out = []
    for swap in (0, 1):
        pa = make(a_spec, mseed * 2 + 1)
        pb = make(b_spec, mseed * 2 + 2)
        players = [pb, pa] if swap else [pa, pb]
        deals, winner = play_match(rules, counting, mseed, players)
        a = 1 if swap else 0
        out.append(([(x[a], x[1 - a]) for x in deals], winner == a))
    return out


def _jobs(args):
    j = 0
    while True:
        yield (args.a, args.b, args.rules, args.counting, args.seed, j)
        j += 1


def run(args):
    start = time.time()
    pairs = []      # per match pair: (net game points of A, deals)
    deals = won = lost = 0
    gp_a = gp_b = 0
    matches = matches_won = 0
    with Pool(args.procs) as pool:
        for result in pool.imap(match_pair, _jobs(args), chunksize=1):
            net = 0
            n = 0
            for deal_list, a_won in result:
                matches += 1
                matches_won += a_won
                for x, y in deal_list:
                    n += 1
                    gp_a += x
                    gp_b += y
                    net += x - y
                    won += x > 0
                    lost += y > 0
            pairs.append((net, n))
            deals += n
            if deals >= 2 * args.deals:
                pool.terminate()
                break
    m = len(pairs)
    r = sum(p[0] for p in pairs) / deals
    nbar = deals / m
    var = sum((x - r * n) ** 2 for x, n in pairs) / (m * (m - 1)) if m > 1 else 0.0
    half = 1.96 * math.sqrt(var) / nbar
    return {
        "a": args.a, "b": args.b, "rules": args.rules, "counting": args.counting, "seed": args.seed,
        "deal_pairs": deals / 2, "deals": deals, "a_won": won, "b_won": lost, "no_score": deals - won - lost,
        "deals_won_pct": 100.0 * won / deals,
        "gp_per_deal": r, "gp_per_deal_ci95": [r - half, r + half],
        "a_gp_per_deal": gp_a / deals, "b_gp_per_deal": gp_b / deals,
        "matches": matches, "matches_won": matches_won, "matches_won_pct": 100.0 * matches_won / matches,
        "seconds": round(time.time() - start, 1),
    }


def report(res):
    return "\n".join([
        "%s vs %s, rules %s (%s), seed %d: %d deals (%.0f duplicate pairs) in %d duplicate match pairs, %.0f s"
        % (res["a"], res["b"], res["rules"], res["counting"], res["seed"], res["deals"], res["deal_pairs"],
           res["matches"] // 2, res["seconds"]),
        "  deals won by %s: %.1f%%  (won %d, lost %d, no score %d)"
        % (res["a"], res["deals_won_pct"], res["a_won"], res["b_won"], res["no_score"]),
        "  game points per deal, %s minus %s: %+.3f  (95%% interval %+.3f .. %+.3f; %.3f vs %.3f)"
        % (res["a"], res["b"], res["gp_per_deal"], res["gp_per_deal_ci95"][0], res["gp_per_deal_ci95"][1],
           res["a_gp_per_deal"], res["b_gp_per_deal"]),
        "  matches to %d won by %s: %d of %d (%.1f%%)"
        % (Rules(res["rules"]).target, res["a"], res["matches_won"], res["matches"], res["matches_won_pct"]),
    ])


def main(argv=None):
    ap = argparse.ArgumentParser(description="Duplicate matches between two players.")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--deals", type=int, default=2000, help="duplicate deal pairs to play (at least)")
    ap.add_argument("--rules", default="standard", choices=Rules.NAMES)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--counting", default="casual", choices=("casual", "classic"))
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    make(args.a, 0)
    make(args.b, 0)
    res = run(args)
    print(json.dumps(res) if args.json else report(res))


if __name__ == "__main__":
    sys.exit(main())
