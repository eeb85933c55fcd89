"""Finished matches kept in the save area, for `python -m tools.records` (docs/SAVES.md).

The log (sixtysix.save.store) holds the deals since its last rewrite; the rewrite keeps only
the current one in its image. So the rewrite also writes, after the image, an archive:
one ARCHIVED record per deal that left the log, oldest first, at most BUDGET bytes.

    ARCHIVED  [0x85, n, payload, check16]
    payload:  h, the deal's match header (sixtysix.save.savegame, h bytes), its actions as the
              log has them without their checks: a byte <= LAST_ACTION is the seat to
              act's action, FLAGGED | flags is followed by the seat and the action (the
              flags without COUNTED: the statistics counted it long ago)

A finished linked match (sixtysix.link.match: one header, then the whole match's moves,
which deal it again from its fair seed) is kept in parts, each a record:

    LINKED_PART  [0x86, n, payload, check16]
    payload:  k | LAST (the part's number in the match, 0 first; LAST on its last part),
              on part 0 h and link.match's header (h bytes), then moves as above

Deals follow each other in a match (their header's deal numbers count up by one), and
the last deal of a match has the OVER flag; a linked match's parts count up from 0 to
the one marked LAST. When the archive is full the oldest match goes; a match that alone
is over budget keeps its last deals (a linked match, whose header is in its first part:
none); a match left unfinished goes as soon as the next one's deal comes, and a linked
match is kept only once it is over. The device reads nothing of this while it plays:
only the rewrite carries it over, a deal or a linked match at a time; the PC turns it
into game records. All readers here take anything indexable (microcontroller.nvm,
bytes).
"""
from sixtysix.save import format as saveformat
from sixtysix.save.savegame import deal_number

BUDGET = 1024       # bytes: the last 3-4 standard matches, one four-handed one (docs/SAVES.md)
LAST = 0x80         # a linked match's last part (LINKED_PART's first payload byte)
# Deals gathered in one idle frame (Store.tidy): about 8 ms each on the real firmware
DEALS_A_FRAME = 3


def entry(header, actions):
    """The ARCHIVED record of a deal: its header payload, its actions (archive bytes)."""
    payload = bytearray((len(header),))
    payload += header
    payload += actions
    return saveformat.framed(saveformat.ARCHIVED, payload)


def linked(rec):
    """True for a part of a linked match (else a deal)."""
    return rec[0] == saveformat.LINKED_PART


def first(rec):
    """The index of a record's first action."""
    if not linked(rec):
        return 3 + rec[2]
    return 3 if rec[2] & ~LAST else 4 + rec[3]


def actions(rec):
    """(seat, action, flags) of each action of an ARCHIVED or LINKED_PART record; seat
    -1: the seat to act. IndexError when the record's bytes are not actions."""
    i = first(rec)
    end = len(rec) - 2
    while i < end:
        h = rec[i]
        if h <= saveformat.LAST_ACTION:
            yield -1, h, 0
            i += 1
        elif saveformat.FLAGGED <= h < saveformat.DEAL and i + 3 <= end:
            yield rec[i + 1], rec[i + 2], h & 15
            i += 3
        else:
            raise IndexError("not an action")


def header(rec):
    """A deal's match header, or a linked match's (its first part's; b"" on the others)."""
    if not linked(rec):
        return bytes(rec[3:3 + rec[2]])
    return b"" if rec[2] & ~LAST else bytes(rec[4:4 + rec[3]])


def summary(rec):
    """(deal or part number in its match, True if the match ended in it, linked(rec));
    IndexError when bad. The action that ends a match is the deal's last, flagged: a
    deal record's third byte from its actions' end is FLAGGED | flags only then (seats
    and actions are all below)."""
    if linked(rec):
        return rec[2] & ~LAST, bool(rec[2] & LAST), True
    last = len(rec) - 5
    h = rec[last] if last >= 3 + rec[2] else 0
    return deal_number(header(rec)), saveformat.FLAGGED <= h < saveformat.DEAL and bool(h & saveformat.OVER), False


def follows(before, after):
    """True if the deal or part summed up by `after` continues the match of `before`
    (summaries)."""
    return before is not None and not before[1] and after[0] == before[0] + 1 and after[2] == before[2]


def whole(raw, i, end):
    """The length of the whole ARCHIVED or LINKED_PART record at raw[i] (before end),
    else 0."""
    if (raw[i] != saveformat.ARCHIVED and raw[i] != saveformat.LINKED_PART) or i + 4 > end:
        return 0
    n = raw[i + 1] + 4
    return n if i + n <= end and saveformat.complete(raw, i, n) else 0


def archived(raw, i, end):
    """The ARCHIVED and LINKED_PART records in raw[i:end], oldest first; None once for
    each damaged stretch (skipped up to the next whole record)."""
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


def logged(raw, i, gap, resume, end, skip=None):
    """The ARCHIVED record of each deal in the log raw[i:end] (the part from gap to resume,
    the archive, left out), and the LINKED_PART records of each linked match that is
    over, oldest first, the last ones too, but the deal or linked match whose header is
    `skip`. A deal or a linked match with a damaged record is left out."""
    head = None         # the deal or linked match being read: its header (None: none)
    kind = saveformat.DEAL
    acts = bytearray()
    while i < end:
        if i == gap:
            i = resume
            gap = -1
            continue
        h = raw[i]
        if h <= saveformat.LAST_ACTION and i + 1 < end and saveformat.CHECK1[h] == raw[i + 1]:
            if head is not None:    # the common record, read fast
                acts.append(h)
            i += 2
            continue
        n = saveformat.size(raw, i)
        if n == 0 or i + n > end:
            break                   # nothing after it can be read (Store.read said so)
        good = saveformat.complete(raw, i, n)
        if h == saveformat.DEAL or h == saveformat.LINKED:
            for rec in kept_of(kind, head, acts, skip):
                yield rec
            head = bytes(raw[i + 2:i + n - 2]) if good and n > 4 else None     # (a linked match left)
            kind = h
            acts = bytearray()
        elif not good:
            if h != saveformat.SETTINGS and h != saveformat.SLEPT:
                head = None         # the deal lost an action: not kept
        elif head is not None and saveformat.FLAGGED <= h < saveformat.DEAL:
            acts.append(h & ~saveformat.COUNTED)
            acts.append(raw[i + 1])
            acts.append(raw[i + 2])
        i += n
    for rec in kept_of(kind, head, acts, skip):
        yield rec


def kept_of(kind, head, acts, skip=None):
    """What the archive keeps of a deal or a linked match read from the log: the deal's
    record, the linked match's parts once it is over (none: a left one, or the one whose
    header is `skip`)."""
    if head is None or head == skip:
        return ()
    if kind == saveformat.DEAL:
        rec = deal(head, acts)
        return () if rec is None else (rec,)
    over = len(acts) >= 3 and saveformat.FLAGGED <= acts[-3] < saveformat.DEAL and acts[-3] & saveformat.OVER
    return parts(head, acts) if over else ()


def parts(head, acts):
    """The LINKED_PART records of a linked match: its header, then its moves, cut between
    moves so that each record holds what it can."""
    out = []
    payload = bytearray((0, len(head)))
    payload += head
    i = 0
    while True:
        j = i
        while j < len(acts):
            n = 1 if acts[j] <= saveformat.LAST_ACTION else 3       # a move's bytes
            if len(payload) + j - i + n > 254:
                break
            j += n
        payload += acts[i:j]
        i = j
        if i >= len(acts):
            payload[0] |= LAST
            out.append(saveformat.framed(saveformat.LINKED_PART, payload))
            return out
        out.append(saveformat.framed(saveformat.LINKED_PART, payload))
        payload = bytearray((len(out),))


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
    if s[2] and s[0] and not (kept and follows(kept[-1][1], s)):
        return                      # a linked match's part whose first went: none of it
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
        if oldest != match or s[2]:     # the oldest match goes, whole (a linked one alone too)
            while kept and kept[0][2] == oldest:
                size -= len(kept.pop(0)[0])
        else:                           # one match over budget: its oldest deal goes
            size -= len(kept.pop(0)[0])


def gather(st, kept):
    """Fill `kept` (keep's list) with the archive a rewrite of the store `st` writes
    after its image: the archive read back, then the deals and linked matches logged
    since but the current one (the image has it). A generator that pauses after each
    record, so the rewrite can be spread over idle frames (Store.tidy)."""
    nvm = st.nvm
    for rec in archived(nvm, st.archive_at, st.log_at):
        if rec is not None:
            keep(kept, rec)
        yield
    # (a rewrite for a new deal's record comes before that record is in the log: then the
    # current header is the new deal's)
    current = st.header()
    if current is None:
        current = st.header(saveformat.LINKED)
    for rec in logged(nvm, st.first, st.archive_at, st.log_at, st.end, current):
        keep(kept, rec)
        yield


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
