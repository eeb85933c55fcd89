"""Duplicate matches between two players, to measure strength.

    python -m tools.arena normal random --deals 2000 --rules standard --seed 1
    python -m tools.arena hard rdeep:16x4 --deals 2000 --json
    python -m tools.arena hard:budget=8000 normal --deals 500 --counting classic

Players: easy, normal, hard (at the board's effort: shared_rules.ai.hard.HARD_BUDGET; options
hard:budget=N,solve_cards=N), random, bully,
rdeep (rdeep:SxD, the VU Amsterdam Schnapsen platform's RdeepBot: rdeep:16x4 = 16 worlds per
move, each played out at random for 4 tricks, scored by the share of points; docs/AI.md).

    python -m tools.arena normal random --rules four-handed --deals 1000
    python -m tools.arena normal random --rules american --players 3

Each match seed is played once with A in each team's place (twice in a two-sided game,
with the places swapped; three times in a three-player game), B in every other place:
the deals come from the match's own seeded shuffle, so the k-th deal of these matches
holds the same cards. Matches are played until 2 x --deals deals are reached (both cores
by default). Reported for A: deals won (A's score rose), game points per deal (A minus
the mean of the others) with a 95% interval (duplicate matches as clusters), and matches
won. Every game of the family is played; the team games use shared_rules.ai.team_greedy at
every AI level.
"""
import argparse
import json
import math
import sys
import time
from multiprocessing import Pool

from shared_rules import ai
from shared_rules.actions import CLOSE
from shared_rules.family import new_match
from shared_rules.rules import Rules, FAMILY
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


def play_match(rules, counting, seed, players, max_deals=300):
    """Play one match of any rule set; players[p] is match player p. Returns (the change of
    every team's score in each deal, the winning team or None if max_deals ran out)."""
    m = new_match(rules, counting, seed)
    either = rules.closing == "either"
    deals = []
    while True:
        d = m.deal
        before = m.score[:]
        while not d.ended and not m.over:
            if either and d.lead < 0 and not d.pending_draw:
                s = 1 - d.to_act
                if CLOSE in d.legal_actions(s):
                    a = players[m.player_at(s)].choose(d.view(s))
                    if a is not None:
                        m.apply(a, s)
                        continue
            s = d.to_act
            m.apply(players[m.player_at(s)].choose(d.view(s)), s)
        deals.append([m.score[t] - before[t] for t in range(m.sides())])
        if m.over or len(deals) >= max_deals:
            return deals, m.winner
        m.next_deal()


def match_pair(job):
    """Duplicate match j: the same seed played once with A in each team's place (two
    places in a two-sided game, three in a three-player game); B takes the others."""
    a_spec, b_spec, rules_name, options, counting, seed, j = job
    rules = Rules(rules_name, **options)
    mseed = seed * 100003 + j
    n = new_match(rules, counting, mseed).players()
    sides = 2 if n == 4 else n
    out = []
    for a_team in range(sides):
        players = [make(a_spec if p % sides == a_team else b_spec, mseed * 8 + p + 1) for p in range(n)]
        deals, winner = play_match(rules, counting, mseed, players)
        rows = []
        for delta in deals:
            others = [delta[t] for t in range(sides) if t != a_team]
            a = delta[a_team]
            # A won (scored, and no less than anyone), lost (someone scored more), or neither
            outcome = 1 if a > 0 and a >= max(others) else (-1 if max(others) > a else 0)
            rows.append((a, sum(others) / len(others), outcome))
        out.append((rows, winner == a_team))
    return out


def _jobs(args):
    j = 0
    while True:
        yield (args.a, args.b, args.rules, args.options, args.counting, args.seed, j)
        j += 1


def run(args):
    start = time.time()
    pairs = []      # per match pair: (net game points of A, deals)
    deals = won = lost = 0
    gp_a = gp_b = 0
    matches = matches_won = 0
    pool = Pool(args.procs) if args.procs > 1 else None     # --procs 1: in this process
    results = pool.imap(match_pair, _jobs(args), chunksize=1) if pool else map(match_pair, _jobs(args))
    try:
        for result in results:
            net = 0
            n = 0
            for deal_list, a_won in result:
                matches += 1
                matches_won += a_won
                for x, y, outcome in deal_list:
                    n += 1
                    gp_a += x
                    gp_b += y
                    net += x - y
                    won += outcome > 0
                    lost += outcome < 0
            pairs.append((net, n))
            deals += n
            if deals >= 2 * args.deals:
                break
    finally:
        if pool:
            pool.terminate()
    m = len(pairs)
    r = sum(p[0] for p in pairs) / deals
    nbar = deals / m
    var = sum((x - r * n) ** 2 for x, n in pairs) / (m * (m - 1)) if m > 1 else 0.0
    half = 1.96 * math.sqrt(var) / nbar
    return {
        "a": args.a, "b": args.b, "rules": args.rules, "options": args.options,
        "target": Rules(args.rules, **args.options).target, "counting": args.counting, "seed": args.seed,
        "deal_pairs": deals / 2, "deals": deals, "a_won": won, "b_won": lost, "no_score": deals - won - lost,
        "deals_won_pct": 100.0 * won / deals,
        "gp_per_deal": r, "gp_per_deal_ci95": [r - half, r + half],
        "a_gp_per_deal": gp_a / deals, "b_gp_per_deal": gp_b / deals,
        "matches": matches, "matches_won": matches_won, "matches_won_pct": 100.0 * matches_won / matches,
        "seconds": round(time.time() - start, 1),
    }


def report(res):
    return "\n".join([
        "%s vs %s, rules %s%s (%s), seed %d: %d deals in %d matches, %.0f s"
        % (res["a"], res["b"], res["rules"], "".join(" %s=%s" % kv for kv in res["options"].items()),
           res["counting"], res["seed"], res["deals"], res["matches"], res["seconds"]),
        "  deals won by %s: %.1f%%  (won %d, lost %d, no score %d)"
        % (res["a"], res["deals_won_pct"], res["a_won"], res["b_won"], res["no_score"]),
        "  game points per deal, %s minus %s: %+.3f  (95%% interval %+.3f .. %+.3f; %.3f vs %.3f)"
        % (res["a"], res["b"], res["gp_per_deal"], res["gp_per_deal_ci95"][0], res["gp_per_deal_ci95"][1],
           res["a_gp_per_deal"], res["b_gp_per_deal"]),
        "  matches to %d won by %s: %d of %d (%.1f%%)"
        % (res["target"], res["a"], res["matches_won"], res["matches"], res["matches_won_pct"]),
    ])


def main(argv=None):
    ap = argparse.ArgumentParser(description="Duplicate matches between two players.")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--deals", type=int, default=2000, help="duplicate deal pairs to play (at least)")
    ap.add_argument("--rules", default="standard", choices=Rules.NAMES + FAMILY)
    ap.add_argument("--players", type=int, choices=(2, 3, 4), help="North American: 2, 3 (cut-throat) or 4")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--counting", default="casual", choices=("casual", "classic"))
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    args.options = {"players": args.players} if args.players else {}
    Rules(args.rules, **args.options)
    make(args.a, 0)
    make(args.b, 0)
    res = run(args)
    print(json.dumps(res) if args.json else report(res))


if __name__ == "__main__":
    sys.exit(main())
