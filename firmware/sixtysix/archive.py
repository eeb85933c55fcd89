"""Finished matches kept in the save area, for `python -m tools.records` (docs/SAVES.md).

The log (sixtysix.store) holds the deals since its last rewrite; the rewrite keeps only
the current one in its image. So the rewrite also writes, after the image, an archive:
one ARCHIVED record per deal that left the log, oldest first, at most BUDGET bytes.

    ARCHIVED  [0x85, n, payload, check16]
    payload:  h, the deal's match header (sixtysix.savegame, h bytes), its actions as the
              log has them without their checks: a byte <= LAST_ACTION is the seat to
              act's action, FLAGGED | flags is followed by the seat and the action (the
              flags without COUNTED: the statistics counted it long ago)

Deals follow each other in a match (their header's deal numbers count up by one), and
the last deal of a match has the OVER flag. When the archive is full the oldest match
goes; a match that alone is over budget keeps its last deals; a match left unfinished
goes as soon as the next one's deal comes. The device reads nothing of this while it
plays: only the rewrite carries it over, a deal at a time; the PC turns it into game
records. All readers here take anything indexable (microcontroller.nvm, bytes).
"""
from sixtysix import store
from sixtysix.crc import CHECK1
from sixtysix.savegame import deal_number

BUDGET = 1024       # bytes: the last 3-4 standard matches, one four-handed one (docs/SAVES.md)
# Deals gathered in one idle frame (Store.tidy): about 8 ms each on the real firmware
DEALS_A_FRAME = 3


def entry(header, actions):
    """The ARCHIVED record of a deal: its header payload, its actions (archive bytes)."""
    payload = bytearray((len(header),))
    payload += header
    payload += actions
    return store.framed(store.ARCHIVED, payload)


def actions(rec):
    """(seat, action, flags) of each action of an ARCHIVED record; seat -1: the seat to
    act. IndexError when the record's bytes are not actions."""
    i = 3 + rec[2]
    end = len(rec) - 2
    while i < end:
        h = rec[i]
        if h <= store.LAST_ACTION:
            yield -1, h, 0
            i += 1
        elif store.FLAGGED <= h < store.DEAL and i + 3 <= end:
            yield rec[i + 1], rec[i + 2], h & 15
            i += 3
        else:
            raise IndexError("not an action")


def header(rec):
    return bytes(rec[3:3 + rec[2]])


def summary(rec):
    """(deal number in its match, True if the match ended in it); IndexError when bad.
    The action that ends a match is the deal's last, flagged: a record's third byte from
    its actions' end is FLAGGED | flags only then (seats and actions are all below)."""
    last = len(rec) - 5
    h = rec[last] if last >= 3 + rec[2] else 0
    return deal_number(header(rec)), store.FLAGGED <= h < store.DEAL and bool(h & store.OVER)


def follows(before, after):
    """True if the deal summed up by `after` continues the match of `before` (summaries)."""
    return before is not None and not before[1] and after[0] == before[0] + 1


def whole(raw, i, end):
    """The length of the whole ARCHIVED record at raw[i] (before end), else 0."""
    if raw[i] != store.ARCHIVED or i + 4 > end:
        return 0
    n = raw[i + 1] + 4
    return n if i + n <= end and store.complete(raw, i, n) else 0


def archived(raw, i, end):
    """The ARCHIVED records in raw[i:end], oldest first; None once for each damaged
    stretch (skipped up to the next whole record)."""
    bad = False
    while i < end:
        n = whole(raw, i, end)
        if n:
            if bad:
                bad = False
                yield None
            yield raw[i:i + n]
            i += n
        else:
            bad = True
            i += 1
    if bad:
        yield None


def logged(raw, i, gap, resume, end):
    """The ARCHIVED record of each deal in the log raw[i:end] (the part from gap to resume,
    the archive, left out), oldest first, the last one too. A deal with a damaged record
    is left out; a linked match is not archived."""
    head = None         # the deal being read: its DEAL record's payload (None: none)
    acts = bytearray()
    while i < end:
        if i == gap:
            i = resume
            gap = -1
            continue
        h = raw[i]
        if h <= store.LAST_ACTION and i + 1 < end and CHECK1[h] == raw[i + 1]:
            if head is not None:    # the common record, read fast
                acts.append(h)
            i += 2
            continue
        n = store.size(raw, i)
        if n == 0 or i + n > end:
            break                   # nothing after it can be read (Store.read said so)
        good = store.complete(raw, i, n)
        if h == store.DEAL or h == store.LINKED:
            rec = deal(head, acts)
            if rec is not None:
                yield rec
            head = raw[i + 2:i + n - 2] if good and h == store.DEAL else None
            acts = bytearray()
        elif not good:
            if h != store.SETTINGS and h != store.SLEPT:
                head = None         # the deal lost an action: not kept
        elif head is not None and store.FLAGGED <= h < store.DEAL:
            acts.append(h & ~store.COUNTED)
            acts.append(raw[i + 1])
            acts.append(raw[i + 2])
        i += n
    rec = deal(head, acts)
    if rec is not None:
        yield rec


def deal(head, acts):
    """The ARCHIVED record of a deal read from the log; None for none, or one too long
    for a record (some 250 actions: no rule set comes near)."""
    if head is None or 1 + len(head) + len(acts) > 254:
        return None
    return entry(head, acts)


def keep(kept, rec):
    """Add a deal's ARCHIVED record to `kept` ([record, summary, match] lists, oldest
    first), then drop the unfinished match before it and what is over budget."""
    try:
        s = summary(rec)
    except IndexError:
        return                      # (its check passed: written by a broken firmware)
    match = 0
    if kept:
        last = kept[-1]
        match = last[2]
        if not follows(last[1], s):
            match += 1
            if not last[1][1]:          # the match before was left unfinished
                while kept and kept[-1][2] == last[2]:
                    kept.pop()
    kept.append([rec, s, match])
    size = 0
    for k in kept:
        size += len(k[0])
    while size > BUDGET:
        oldest = kept[0][2]
        if oldest != match:             # the oldest match goes, whole
            while kept[0][2] == oldest:
                size -= len(kept.pop(0)[0])
        else:                           # one match over budget: its oldest deal goes
            size -= len(kept.pop(0)[0])


def gather(st, kept):
    """Fill `kept` (keep's list) with the archive a rewrite of the store `st` writes
    after its image: the archive read back, then the deals logged since but the current
    one (the image has it). A generator that pauses after each deal, so the rewrite can
    be spread over idle frames (Store.tidy)."""
    nvm = st.nvm
    for rec in archived(nvm, st.archive_at, st.log_at):
        if rec is not None:
            keep(kept, rec)
        yield
    last = None
    for rec in logged(nvm, st.first, st.archive_at, st.log_at, st.end):
        if last is not None:
            keep(kept, last)
        last = rec
        yield
    # (a rewrite for a new deal's record comes before that record is in the log)
    if last is not None and header(last) != st.header():
        keep(kept, last)


def joined(kept):
    """The archive's bytes from keep's list."""
    out = bytearray()
    for k in kept:
        out += k[0]
    return out


def harvest(st):
    """The archive a rewrite of `st` writes (bytes), gathered at once."""
    kept = []
    for _ in gather(st, kept):
        pass
    return joined(kept)
