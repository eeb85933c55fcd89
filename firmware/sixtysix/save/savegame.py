"""The match in progress in the save store (sixtysix.save.store): a header when a deal starts,
then one record per action.

The header holds what the match carries from deal to deal, not the deal's cards: the
match's random generator state before the shuffle deals the same cards again. Payload:
    rule set index, counting index, computer level index, option count n, n pairs
    (option index, value index), dealer, generator state (4 bytes, little endian),
    then varints: deals (this one included), carry, one zigzag score per side, and, for
    pass-and-play, one byte more: bit p set when player p is a person (without it, only
    player 0 is: a match against the computer).
Every value the engine can produce fits (North American scores far below zero, any
carry). Restoring deals again and replays the actions through the engine, so the save
and the game can never disagree.
"""
from shared_rules import rules as rules_mod
from shared_rules.match import COUNTING
from sixtysix.save import format as saveformat

# The numbers saves use for levels, rule sets and options. Saves outlive firmware
# updates, so these only ever grow at the end (a test checks every rule set and option
# of shared_rules is here); an option's values are numbered by their place in
# rules.OPTIONS, which also only grows at the end.
LEVELS = ("easy", "normal", "hard")
SETS = ("standard", "hoyle", "russian", "schnapsen", "three-handed", "four-handed",
        "american", "idiots")
OPTION_NAMES = ("close_min_talon", "closer_fail", "closing", "declare_marriage", "declaring",
                "exchange", "exchange_rank", "first_dealer", "follow", "hand_size",
                "next_dealer", "pack", "phase2_marriages", "played_out", "players", "schwarz",
                "target", "ten_of_trumps")


def header(match, level, people=1):
    """The DEAL record's payload for the deal the match has just dealt; `people`: the
    persons' bits (sixtysix.table.seats)."""
    r = match.rules
    names = OPTION_NAMES
    out = bytearray((SETS.index(r.name), COUNTING.index(match.counting), LEVELS.index(level),
                     len(r.overrides)))
    for key in r.overrides:
        out.append(names.index(key))
        out.append(rules_mod.OPTIONS[key].index(r.overrides[key]))
    rng = match.deal_rng
    out.extend((match.dealer, rng & 255, (rng >> 8) & 255, (rng >> 16) & 255, rng >> 24))
    saveformat.put_uint(out, match.deals)
    saveformat.put_uint(out, match.carry)
    for s in match.score:
        saveformat.put_int(out, s)
    if people != 1:
        out.append(people)
    return bytes(out)


def opening(raw):
    """(rules, counting, level, index after them) from the bytes every save format of the
    match starts with (this one, and oldsave's); IndexError or KeyError when bad."""
    names = OPTION_NAMES
    options = {}
    i = 4
    for _ in range(raw[3]):
        key = names[raw[i]]
        options[key] = rules_mod.OPTIONS[key][raw[i + 1]]
        i += 2
    return rules_mod.Rules(SETS[raw[0]], **options), COUNTING[raw[1]], LEVELS[raw[2]], i


def deal_number(raw):
    """The deal's number in its match (1: the first) from a DEAL payload; IndexError when
    it is too short."""
    return saveformat.get_uint(raw, 4 + 2 * raw[3] + 5)[0]


def restore(raw, actions):
    """(match, level, people bits) from a DEAL payload and the deal's (seat, action)
    list; ValueError when they make no sense."""
    from shared_rules.errors import IllegalMove
    try:
        r, counting, level, i = opening(raw)
        if r.game in rules_mod.PLAIN:           # the family module only where it is needed
            from shared_rules.match import Match
            m = Match(r, counting)
        else:
            from shared_rules.family import new_match
            m = new_match(r, counting)
        dealer = raw[i]
        rng = raw[i + 1] | raw[i + 2] << 8 | raw[i + 3] << 16 | raw[i + 4] << 24
        deals, i = saveformat.get_uint(raw, i + 5)
        carry, i = saveformat.get_uint(raw, i)
        score = []
        for _ in range(m.sides()):
            s, i = saveformat.get_int(raw, i)
            score.append(s)
        people = 1
        if i == len(raw) - 1:
            people = raw[i]
            i += 1
        if i != len(raw) or dealer >= m.players() or deals < 1 or not 0 < rng < 1 << 30 \
                or not 0 < people < 1 << m.players():
            raise ValueError("bad match header")
        # The fresh match above, then the saved state over it and this deal dealt again.
        m.rng.state = rng
        m.dealer = dealer
        m.deals = deals - 1
        m.carry = carry
        m.score = score
        m.deal = None
        m.cut = None
        m.next_deal()
        for seat, action in actions:
            m.apply(action, None if seat < 0 else seat)
        return m, level, people
    except (IndexError, KeyError, TypeError, IllegalMove) as e:
        raise ValueError("bad save: " + repr(e))


def log_deal(st, match, level, people=1):
    return st.start_deal(header(match, level, people))


def load(st):
    """(match, level, people bits), or saveformat.EMPTY (no match against the computer or
    pass-and-play in progress) or saveformat.CORRUPT."""
    raw = st.header()
    if raw is None:
        return saveformat.EMPTY
    try:
        return restore(raw, st.actions())
    except Exception:  # noqa: BLE001 - any failure to rebuild means a bad save, never a crash
        return saveformat.CORRUPT
