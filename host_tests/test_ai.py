"""Computer players (shared_rules.ai): legal, view-only, deterministic, bounded, explained."""
import pytest

from shared_rules import ai
from shared_rules.actions import MARRY, DECLARE_MARRIAGE, CLOSE, DECLARE, DRAW
from shared_rules.cards import parse, mask_of, listed, pack, words
from shared_rules.deal import Deal, dealt
from shared_rules.family import new_match
from shared_rules.match import Match
from shared_rules.rng import Rng
from shared_rules.rules import Rules
from tools.solver_check import random_endgame, brute, solve, TWO_HANDED
from shared_rules.ai.solver import Solver
from shared_rules.ai.search import Search

LEVELS = ("easy", "normal", "hard")


def player(level, seed=0):
    # A small Hard budget keeps the legality sweeps fast; strength is the arena's job.
    return ai.make_player(level, seed, budget=400) if level == "hard" else ai.make_player(level, seed)


def play_match(players, rules, counting, seed, deals=2, check=None):
    """Play up to `deals` deals; every action must be in the acting seat's legal list."""
    m = Match(Rules(rules), counting, seed)
    for _ in range(deals):
        d = m.deal
        while not d.ended:
            if d.lead < 0 and not d.pending_draw:
                s = 1 - d.to_act
                v = d.view(s)
                a = players[m.player_at(s)].choose(v)
                if a is not None:
                    assert a == CLOSE and a in v.legal
                    m.apply(a, s)
                    continue
            s = d.to_act
            v = d.view(s)
            a = players[m.player_at(s)].choose(v)
            assert a in v.legal, (a, v.legal)
            if check:
                check(v, a)
            m.apply(a, s)
        if m.over:
            return m
        m.next_deal()
    return m


@pytest.mark.parametrize("rules", Rules.NAMES)
@pytest.mark.parametrize("counting", ("casual", "classic"))
def test_every_level_plays_only_legal_actions(rules, counting):
    for seed in range(4):
        for a, b in (("easy", "normal"), ("normal", "hard"), ("hard", "easy")):
            play_match([player(a, seed), player(b, seed + 1)], Rules(rules).name, counting, seed * 31 + 7)


def test_players_never_touch_the_deal(monkeypatch):
    """Deal attribute access raises while a player decides: they read only the View."""
    m = Match(Rules("standard"), "casual", 5)
    players = [player(lv, 3) for lv in LEVELS]
    turns = 0
    while not m.over and turns < 120:
        d = m.deal
        if d.ended:
            m.next_deal()
            continue
        v = d.view(d.to_act)
        with monkeypatch.context() as mp:
            def poisoned(self, name):
                raise AssertionError("an AI read Deal." + name)
            mp.setattr(Deal, "__getattribute__", poisoned)
            actions = [p.choose(v) for p in players] + [ai.fallback(v)]
            for p in players:
                p.hint(v)
        m.apply(actions[turns % 3], d.to_act)
        turns += 1


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_game(level):
    logs = []
    for _ in range(2):
        m = play_match([player(level, 9), player("normal", 4)], "standard", "casual", 77, deals=3)
        logs.append(m.deal.log[:])
    assert logs[0] == logs[1]


def test_solver_agrees_with_brute_force_minimax():
    rng = Rng(2024)
    solver = Solver(256)
    names = TWO_HANDED
    done = 0
    while done < 300:
        rules = Rules(names[done % len(names)])
        d = random_endgame(rng, rules, 4)
        if d is None:
            continue
        assert solve(solver, d) == brute(d, d.to_act), (rules.name, d.hands, d.lead, d.leader)
        done += 1


def first_view(seed, rules="standard"):
    order = listed(pack(6))
    Rng(seed).permute(order)
    return dealt(Rules(rules), order).view(0)


def test_hard_honours_its_work_budget():
    for budget in (1, 300, 2000):
        p = ai.make_player("hard", 1, budget=budget)
        for seed in range(5):
            v = first_view(seed)
            assert p.choose(v) in v.legal
            assert p.work <= budget + 40


def test_hard_honours_its_deadline_on_an_injected_clock():
    now = [0.0]
    calls = [0]

    def clock():
        calls[0] += 1
        now[0] += 0.25
        return now[0]

    p = ai.make_player("hard", 1, budget=1 << 29)
    v = first_view(3)
    a = p.choose(v, clock, 2.0)
    assert a in v.legal
    assert calls[0] <= 10                 # stops within a few looks at the clock
    # A deadline already past: the greedy move at once.
    now[0] = 100.0
    assert p.choose(v, clock, 1.0) == ai.make_player("normal").choose(v)


@pytest.mark.parametrize("rules", ["standard", "four-handed"])
def test_hard_ends_by_its_deadline_though_it_reads_the_clock_seldom(rules):
    """The clock is read every CHECK_EVERY units (about 20 ms of board time): a clock that
    moves 20 ms between reads must still see the decision end by the deadline."""
    now = [0.0]
    reads = []

    def clock():
        now[0] += 0.02
        reads.append(now[0])
        return now[0]

    if rules == "standard":
        v = first_view(3)
    else:
        d = new_match(Rules(rules), "casual", 5).deal
        v = d.view(d.to_act)
    p = ai.make_player("hard", 1, budget=1 << 29)
    assert p.choose(v, clock, 0.5) in v.legal
    assert len(reads) > 5 and reads[-1] <= 0.5


def test_exact_endgame_found_by_normal_and_hard():
    """Phase 2, every card known: both pick a move the brute-force minimax rates best."""
    rng = Rng(8)
    n = 0
    while n < 40:
        rules = Rules("standard")
        d = random_endgame(rng, rules, 3)
        if d is None or d.closed >= 0 or d.talon_left:
            continue
        v = d.view(d.to_act)
        values = {}
        for a in v.legal:
            if a >= DECLARE_MARRIAGE:
                continue
            c = d.clone()
            c.apply(a)
            values[a] = brute(c, d.to_act)
        best = max(values.values())
        for level in ("normal", "hard"):
            assert values[ai.make_player(level).choose(v)] == best
        n += 1


def test_greedy_declares_at_66_in_classic():
    seen = []

    def check(v, a):
        if v.to_act == v.seat and v.lead < 0 and not v.pending_draw and v.points >= 66:
            seen.append(a)

    for seed in range(6):
        play_match([ai.make_player("normal", seed), ai.make_player("easy", seed)], "standard", "classic", seed,
                   deals=4, check=check)
    assert seen and all(a == DECLARE for a in seen)


def test_declare_marriage_when_it_reaches_66():
    d = Deal(Rules("standard"), [mask_of([parse(c) for c in ("KH", "QH", "9C", "JC", "JS", "9S")]),
                                 mask_of([parse(c) for c in ("AC", "TC", "KC", "QC", "AS", "TS")])],
             parse("AD"), [parse(c) for c in ("KS", "QS", "JH", "9H", "TD", "KD", "QD", "JD", "9D", "AH", "TH")])
    d.tricks[0] = 1
    d.card_points[0] = 47
    d.won[0] = mask_of([parse(c) for c in ("KS", "QS", "AH", "TH")])
    for level in LEVELS:
        a, why = ai.make_player(level).hint(d.view(0))
        assert a == DECLARE_MARRIAGE + parse("KH")
        assert "marriage in hearts (20)" in why


def test_hint_names_the_card_and_the_meld():
    hand = mask_of([parse(c) for c in ("KD", "QD", "9C", "JC", "JS", "9S")])
    opp = mask_of([parse(c) for c in ("AC", "TC", "KC", "QC", "AS", "TS")])
    talon = [parse(c) for c in ("KS", "QS", "JH", "9H", "TD", "KH", "QH", "JD", "9D", "AH", "TH")]
    d = Deal(Rules("standard"), [hand, opp], parse("AD"), talon)
    for level in LEVELS:
        a, why = ai.make_player(level).hint(d.view(0))
        assert MARRY <= a < DECLARE_MARRIAGE
        assert why == "lead " + words(a & 31) + " and meld 40"


def test_hints_are_one_sensible_line():
    for level in LEVELS:
        p = player(level, 2)

        def check(v, a):
            b, why = p.hint(v)
            assert b in v.legal and why and "\n" not in why and len(why) < 90
            if a < 32 and b == a:
                assert words(a) in why
            if b == DRAW:
                assert "draw" in why

        play_match([p, player("normal", 5)], "standard", "casual", 12, deals=2, check=check)


def test_pending_draw_and_russian_closing_by_the_follower():
    """With a draw pending the player draws or closes; off turn it may only close or pass."""
    got = set()

    def check(v, a):
        if v.pending_draw:
            assert a in (DRAW, CLOSE)
            got.add("pending")

    for seed in range(4):
        play_match([player("normal", seed), player("hard", seed)], "russian", "casual", seed, deals=3, check=check)
    assert "pending" in got
    # Off turn: never anything but CLOSE or None.
    m = Match(Rules("russian"), "casual", 3)
    d = m.deal
    v = d.view(1 - d.to_act)
    for level in LEVELS:
        assert ai.make_player(level).choose(v) in (None, CLOSE)


def test_unknown_level_is_refused():
    with pytest.raises(ValueError):
        ai.make_player("expert")


# ---- the search's playouts follow the engine's rules --------------------------------------

def reference_playout(d, seat, action):
    """Play a world Deal out with the same greedy policy the search uses, through the engine."""
    from shared_rules.ai import greedy
    from shared_rules.actions import EXCHANGE
    d.apply(action)
    full = pack(d.rules.ranks)
    while not d.ended:
        if d.lead < 0 and d.rules.declaring and d.points(d.leader) >= 66:
            d.apply(DECLARE, d.leader)
            break
        if d.pending_draw:
            d.apply(DRAW)
            continue
        s = d.to_act
        hand = d.hands[s]
        played = d.won[0] | d.won[1]
        if d.lead < 0:
            legal = d.legal_actions()
            if EXCHANGE in legal and d.rules.exchange != "off" and not d.phase2:
                d.apply(EXCHANGE)
                continue
            if not d.phase2 or d.rules.phase2_marriages:
                order = [x for x in range(4) if x == d.trump] + [x for x in range(4) if x != d.trump]
                k = next((x * 8 + 2 for x in order if hand >> (x * 8 + 2) & 3 == 3), -1)
                if k >= 0:
                    meld = 40 if k >> 3 == d.trump else 20
                    if d.rules.declare_marriage and d.tricks[s] and d.points(s) + meld >= 66:
                        d.apply(DECLARE_MARRIAGE + k)
                    else:
                        d.apply(MARRY + k + 1)
                    continue
            out = full & ~played & ~hand
            if d.trump_card >= 0:
                out &= ~(1 << d.trump_card)
            if not d.phase2:
                d.apply(greedy.lead_phase1(hand, out, d.trump))
            else:
                d.apply(greedy.lead_phase2(hand, out, d.trump, d.talon_left == 0 or d.closed < 0, d.rules.higher))
        else:
            out = full & ~played & ~hand & ~(1 << d.lead)
            d.apply(greedy.follow(hand, d.legal_plays(), d.lead, d.trump, out, d.phase2, d.rules.higher,
                                  d.card_points[s] + d.meld_points[s], d.card_points[1 - s] + d.meld_points[1 - s]))
    gp = d.result[1]
    return (gp[seat] - gp[1 - seat]) * 32 + ((d.points(seat) - d.points(1 - seat)) >> 3)


def test_search_playouts_score_like_the_engine():
    """Greedy playouts on masks (no solver) end exactly as the same play through Deal, in
    every two-handed deal of the family (Idiots': trump moving with each marriage, no
    declaring, the higher total wins)."""
    from tools.baselines import world_deal
    rng = Rng(99)
    checked = idiots_marriages = 0
    names = TWO_HANDED
    for n in range(240):
        rules = Rules(names[n % len(names)])
        order = listed(pack(rules.ranks))
        rng.permute(order)
        d = dealt(rules, order)
        stop = rng.below(16)
        for _ in range(stop):
            if d.ended or (d.lead < 0 and rules.declaring and d.points(d.leader) >= 66):
                break
            acts = [a for a in d.legal_actions() if a < 64 or a in (DRAW, CLOSE)]
            d.apply(acts[rng.below(len(acts))])
        if d.ended or (d.lead < 0 and rules.declaring and d.points(d.leader) >= 66):
            continue
        v = d.view(d.to_act)
        s = Search(n, 1 << 20, 0, 256)
        first = ai.make_player("normal").choose(v)
        if first is None or s._candidates(v, first) < 1:
            continue
        s._prepare(v)
        s.units = 0
        s.next_check = 1 << 29
        s._sample(rng)
        talon = [s.stock[i] for i in range(s.nstock - (s.trump_card >= 0))]
        for i in range(s._candidates(v, first)):
            a = s.cands[i]
            w = world_deal(v, s.w_opp_hand, talon)
            w.closed_opp_tricks = d.closed_opp_tricks
            s.cot = d.closed_opp_tricks
            assert s.rollout(a) == reference_playout(w, v.seat, a), (rules.name, a)
            checked += 1
            idiots_marriages += rules.game == "idiots" and MARRY <= a < DECLARE_MARRIAGE
    assert checked > 400 and idiots_marriages
