"""The match in progress <-> the compact bytes of its save record.

Payload (version 2), all single bytes unless noted:
    rule set index (two-handed sets, then the family), counting index, computer level
    index, override count n, then n pairs (option index, value index),
    one score per side (+128: North American scores go below zero), carry, dealer,
    deals (2 bytes), rng state (4 bytes), match winner (255: none),
    the deal's cards as dealt (every hand in seat order, the turn-up if the game has
    one, then the talon top first or the cut-throat widow),
    action count (2 bytes), then per action: seat << 7 | action with two seats,
    else two bytes (seat, action).
It is Match.to_dict() squeezed: the engine rebuilds the match from that dict, so
the save and the game record can never disagree. A standard deal is ~60 bytes.
Version 1 saves (two-handed only, unsigned scores) are reported as old.
"""
from shared_rules import rules as rules_mod
from shared_rules.match import COUNTING
from shared_rules.cards import parse, name
from shared_rules.record import action_text as text
from shared_rules.record import parse_entry, _hand_sizes
from sixtysix import store

KIND = 77       # "M"
VERSION = 2
LEVELS = ("easy", "normal", "hard")
SETS = rules_mod.NAMES + rules_mod.FAMILY


def _option_names():
    return sorted(rules_mod.OPTIONS)


def pack(match, level):
    d = match.to_dict()
    names = _option_names()
    out = bytearray((SETS.index(d["rules"]), COUNTING.index(d["counting"]),
                     LEVELS.index(level), len(d["options"])))
    for key in d["options"]:
        out.append(names.index(key))
        out.append(rules_mod.OPTIONS[key].index(d["options"][key]))
    for s in d["score"]:
        out.append(s + 128)
    rng = d["rng"]
    winner = d.get("winner")
    out.extend((d["carry"], d["dealer"], d["deals"] & 255, d["deals"] >> 8,
                rng & 255, (rng >> 8) & 255, (rng >> 16) & 255, rng >> 24,
                255 if winner is None else winner))
    rec = d["deal"]
    dealt = []
    for h in rec["hands"]:
        dealt += h
    if rec["trump_card"] is not None:
        dealt.append(rec["trump_card"])
    for c in dealt + rec["talon"] + rec.get("widow", []):
        out.append(parse(c))
    acts = rec["actions"]
    two = len(rec["hands"]) == 2
    out.append(len(acts) & 255)
    out.append(len(acts) >> 8)
    for a in acts:
        seat, action = parse_entry(a, 4)
        if two:
            out.append(seat << 7 | action)
        else:
            out.append(seat)
            out.append(action)
    return bytes(out)


def unpack(raw):
    """(match, level) from a payload; ValueError when it makes no sense."""
    try:
        names = _option_names()
        set_name = SETS[raw[0]]
        counting = COUNTING[raw[1]]
        level = LEVELS[raw[2]]
        options = {}
        i = 4
        for _ in range(raw[3]):
            key = names[raw[i]]
            options[key] = rules_mod.OPTIONS[key][raw[i + 1]]
            i += 2
        r = rules_mod.Rules(set_name, **options)
        sizes = _hand_sizes(r)
        sides = len(sizes) if r.game in ("two", "idiots") else (2 if r.players == 4 else r.players)
        score = [b - 128 for b in raw[i:i + sides]]
        i += sides
        carry, dealer = raw[i], raw[i + 1]
        deals = raw[i + 2] | raw[i + 3] << 8
        rng = raw[i + 4] | raw[i + 5] << 8 | raw[i + 6] << 16 | raw[i + 7] << 24
        winner = None if raw[i + 8] == 255 else raw[i + 8]
        i += 9
        cards = [name(c) for c in raw[i:i + r.pack]]
        if len(cards) != r.pack:
            raise ValueError("short pack")
        i += r.pack
        hands = []
        k = 0
        for n in sizes:
            hands.append(cards[k:k + n])
            k += n
        turn_up = None
        if r.game in ("two", "three", "four"):
            turn_up = cards[k]
            k += 1
        count = raw[i] | raw[i + 1] << 8
        i += 2
        two = len(sizes) == 2
        if len(raw) != i + count * (1 if two else 2):
            raise ValueError("bad length")
        if two:
            actions = [str(b >> 7) + " " + text(b & 127) for b in raw[i:]]
        else:
            actions = [str(raw[j]) + " " + text(raw[j + 1]) for j in range(i, len(raw), 2)]
        deal = {"rules": set_name, "options": options, "hands": hands, "trump_card": turn_up,
                "talon": [], "actions": actions}
        if r.game in ("four", "american"):
            if k < len(cards):
                deal["widow"] = cards[k:]
        else:
            deal["talon"] = cards[k:]
        d = {"rules": set_name, "options": options, "counting": counting,
             "score": score, "carry": carry, "dealer": dealer, "deals": deals, "rng": rng,
             "deal": deal}
        if r.game in ("two", "idiots"):         # the family module only where it is needed
            from shared_rules.match import Match
            return Match.from_dict(d), level
        from shared_rules.family import match_from_dict
        if r.game in ("four", "american"):
            d["winner"] = winner            # "bidders out" is not readable from the scores
        return match_from_dict(d), level
    except (IndexError, KeyError) as e:
        raise ValueError("bad save: " + repr(e))


def save(st, match, level):
    return st.save(store.MATCH_AT, st.size() - store.MATCH_AT, KIND, VERSION, pack(match, level))


def load(st):
    """(match, level), or store.EMPTY / store.CORRUPT / store.OLD."""
    raw = st.load(store.MATCH_AT, st.size() - store.MATCH_AT, KIND, VERSION)
    if not isinstance(raw, bytes):
        return raw
    try:
        return unpack(raw)
    except Exception:  # noqa: BLE001 - any failure to rebuild means a bad save, never a crash
        return store.CORRUPT


def erase(st):
    st.erase(store.MATCH_AT, KIND)
