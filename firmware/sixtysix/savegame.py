"""The match in progress <-> the compact bytes of its save record.

Payload (version 1), all single bytes unless noted:
    rule set index, counting index, computer level index,
    override count n, then n pairs (option index, value index),
    score[0], score[1], carry, dealer, deals (2 bytes), rng state (4 bytes),
    the deal's cards as dealt (hand 0, hand 1, turn-up, talon top first),
    action count (2 bytes), then one byte per action: seat << 7 | action.
It is Match.to_dict() squeezed: the engine rebuilds the match from that dict, so
the save and the game record can never disagree. A standard deal is ~60 bytes.
"""
from shared_rules import rules as rules_mod
from shared_rules.match import Match, COUNTING
from shared_rules.cards import parse, name
from shared_rules.actions import text
from shared_rules.record import parse_entry
from sixtysix import store

KIND = 77       # "M"
VERSION = 1
LEVELS = ("easy", "normal", "hard")


def _option_names():
    return sorted(rules_mod.OPTIONS)


def pack(match, level):
    d = match.to_dict()
    names = _option_names()
    out = bytearray((rules_mod.NAMES.index(d["rules"]), COUNTING.index(d["counting"]),
                     LEVELS.index(level), len(d["options"])))
    for key in d["options"]:
        out.append(names.index(key))
        out.append(rules_mod.OPTIONS[key].index(d["options"][key]))
    rng = d["rng"]
    out.extend((d["score"][0], d["score"][1], d["carry"], d["dealer"],
                d["deals"] & 255, d["deals"] >> 8,
                rng & 255, (rng >> 8) & 255, (rng >> 16) & 255, rng >> 24))
    rec = d["deal"]
    for c in rec["hands"][0] + rec["hands"][1] + [rec["trump_card"]] + rec["talon"]:
        out.append(parse(c))
    acts = rec["actions"]
    out.append(len(acts) & 255)
    out.append(len(acts) >> 8)
    for a in acts:
        seat, action = parse_entry(a)
        out.append(seat << 7 | action)
    return bytes(out)


def unpack(raw):
    """(match, level) from a payload; ValueError when it makes no sense."""
    try:
        names = _option_names()
        set_name = rules_mod.NAMES[raw[0]]
        counting = COUNTING[raw[1]]
        level = LEVELS[raw[2]]
        options = {}
        i = 4
        for _ in range(raw[3]):
            key = names[raw[i]]
            options[key] = rules_mod.OPTIONS[key][raw[i + 1]]
            i += 2
        r = rules_mod.Rules(set_name, **options)
        score = [raw[i], raw[i + 1]]
        carry, dealer = raw[i + 2], raw[i + 3]
        deals = raw[i + 4] | raw[i + 5] << 8
        rng = raw[i + 6] | raw[i + 7] << 8 | raw[i + 8] << 16 | raw[i + 9] << 24
        i += 10
        n = r.hand_size
        cards = [name(c) for c in raw[i:i + r.pack]]
        if len(cards) != r.pack:
            raise ValueError("short pack")
        i += r.pack
        count = raw[i] | raw[i + 1] << 8
        i += 2
        if len(raw) != i + count:
            raise ValueError("bad length")
        actions = [str(b >> 7) + " " + text(b & 127) for b in raw[i:i + count]]
        d = {"rules": set_name, "options": options, "counting": counting,
             "score": score, "carry": carry, "dealer": dealer, "deals": deals, "rng": rng,
             "deal": {"rules": set_name, "options": options,
                      "hands": [cards[0:n], cards[n:2 * n]], "trump_card": cards[2 * n],
                      "talon": cards[2 * n + 1:], "actions": actions}}
        return Match.from_dict(d), level
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
