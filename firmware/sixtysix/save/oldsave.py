"""Saves of the firmware before the log (save formats 1 and 2): read once, kept as a log.

The old layout rewrote two fixed records in place (a flash erase per action): settings at
offset 0, the match at 64. A record: b"66", kind, version, payload length (2 bytes LE),
payload, CRC-16/CCITT-FALSE (2 bytes LE).
    settings (kind 83, version 1): six setting indexes, four 16-bit statistics
    match (kind 77, version 2): Match.to_dict() squeezed, the deal's cards and actions
    included; version 1 (two-handed only) is refused as too old.
Imported only when such an image is found, so the device pays for it once.
"""
from sixtysix.save import format as saveformat
from sixtysix.save.format import crc16

# Inverse of the generator's multiplier (shared_rules.rng) modulo its prime: one step back.
_BACK = 412259084


def record(raw, at, kind):
    """(version, payload) of the old record at raw[at], or None; ValueError if damaged."""
    if raw[at:at + 2] != b"66" or raw[at + 2] != kind:
        return None
    end = at + 6 + (raw[at + 4] | raw[at + 5] << 8)
    if end + 2 > len(raw) or crc16(raw[at:end]) != raw[end] | raw[end + 1] << 8:
        raise ValueError("damaged old record")
    return raw[at + 3], raw[at + 6:end]


def settings_of(payload, settings):
    from sixtysix.save.settings import CHOICES
    if len(payload) != 14:
        raise ValueError("old settings of the wrong size")
    for i in range(6):
        if payload[i] >= len(CHOICES[i][2]):
            raise ValueError("old setting out of range")
        settings.index[i] = payload[i]
    settings.stats = [payload[6 + 2 * i] | payload[7 + 2 * i] << 8 for i in range(4)]


def match_of(raw):
    """(match, level) from a version 2 payload."""
    from shared_rules.cards import name
    from shared_rules.record import action_text, _hand_sizes
    from sixtysix.save.savegame import opening
    r, counting, level, i = opening(raw)
    set_name = r.name
    options = dict(r.overrides)
    sizes = _hand_sizes(r)
    sides = len(sizes) if r.game in ("two", "idiots") else (2 if r.players == 4 else r.players)
    score = [b - 128 for b in raw[i:i + sides]]
    i += sides
    rng = raw[i + 4] | raw[i + 5] << 8 | raw[i + 6] << 16 | raw[i + 7] << 24
    d = {"rules": set_name, "options": options, "counting": counting, "score": score,
         "carry": raw[i], "dealer": raw[i + 1], "deals": raw[i + 2] | raw[i + 3] << 8, "rng": rng}
    winner = None if raw[i + 8] == 255 else raw[i + 8]
    i += 9
    cards = [name(c) for c in raw[i:i + r.pack]]
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
    if len(sizes) == 2:
        actions = [str(b >> 7) + " " + action_text(b & 127) for b in raw[i:i + count]]
    else:
        actions = [str(raw[j]) + " " + action_text(raw[j + 1]) for j in range(i, i + 2 * count, 2)]
    deal = {"rules": set_name, "options": options, "hands": hands, "trump_card": turn_up,
            "talon": [], "actions": actions}
    if r.game in ("four", "american"):
        if k < len(cards):
            deal["widow"] = cards[k:]
        d["winner"] = winner
    else:
        deal["talon"] = cards[k:]
    d["deal"] = deal
    from shared_rules.family import match_from_dict
    return match_from_dict(d), level


def convert(st, settings):
    """Read the store's old image into `settings` and the store's match state, then
    rewrite the nvm as a log. Returns the store's word for a problem, or None."""
    raw = st.legacy
    st.legacy = None
    notice = None
    try:
        got = record(raw, 0, 83)
        if got is not None and got[0] == 1:
            settings_of(got[1], settings)
    except (ValueError, IndexError):
        notice = saveformat.DAMAGED
    st.settings = settings.to_bytes()
    try:
        got = record(raw, 64, 77)
        if got is not None:
            if got[0] != 2:
                notice = saveformat.OLD if got[0] < 2 else saveformat.NEWER
            else:
                old, level = match_of(got[1])
                if not old.over:
                    keep(st, old, level)
    except Exception:  # noqa: BLE001 - an old save we cannot read is reported, never a crash
        st.records = bytearray()
        notice = saveformat.DAMAGED
    st.rewrite()
    return notice


def keep(st, old, level):
    """Log the old match: its deal's header, then its actions as the firmware applies them
    (Match.apply; casual counting's automatic declarations are not actions of their own).
    A finished deal is kept as the next one. ValueError unless the log rebuilds it exactly."""
    from sixtysix.save import savegame
    from shared_rules.rng import _M
    d = old.deal
    if d.ended:
        old.next_deal()
        d = old.deal
        log = []
    else:
        log = d.log
        state = old.rng.state
        for _ in range(old.rules.pack - 1):     # undo the shuffle's generator steps
            state = state * _BACK % _M
        old.deal_rng = state
    st.records = bytearray(saveformat.framed(saveformat.DEAL, savegame.header(old, level)))
    m = savegame.restore(st.header(), [])[0]
    for entry in log:
        seat, action = entry >> 8, entry & 255
        if m.deal.ended:
            break
        st.records.extend(saveformat.small(action) if seat == m.deal.to_act
                          else saveformat.small(saveformat.FLAGGED, seat, action))
        m.apply(action, seat)
    if m.to_dict() != old.to_dict():
        raise ValueError("the old match does not replay")
