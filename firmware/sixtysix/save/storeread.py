"""The save store read from flash at power-on (sixtysix.save.store.Store): the log walked
record by record, a torn last write told apart from damage. A module of its own that
the store forgets once it is read: its code is needed once a power-on.
"""
from sixtysix.save.format import CHECK1
from sixtysix.save.format import MAGIC, VERSION, HEAD, LOGGED, LAST_ACTION, FLAGGED, DEAL, SETTINGS, SLEPT, LINKED, \
    COUNTED, OVER, DAMAGED, NEWER, LOST, size, complete


def read(st, raw):
    """Fill store `st` from the bytes of its area (Store's docstring says what it holds after)."""
    end = len(raw)
    if raw[0:2] != MAGIC:
        if raw.count(b"\xff") == end:
            return
        st.blank = False
        st.dirty = True
        if raw[0:2] == b"66" or raw[0:2] == b"\xff\xff" and raw[64:66] == b"66":
            st.legacy = raw
        else:
            st.problem = LOST if raw[0] == MAGIC[0] and raw[1:].count(b"\xff") == end - 1 \
                else DAMAGED
        return
    st.blank = False
    version = raw[2]
    head = HEAD if version == VERSION else HEAD - 2
    if raw[head - 1] == 0xFF or version == 0xFF:    # the header itself was cut short
        st.dirty = True
        st.problem = LOST
        return
    if version != VERSION and version != LOGGED:
        st.dirty = True
        st.problem = NEWER if version > VERSION else DAMAGED
        return
    image = raw[3] | raw[4] << 8
    archive = raw[5] | raw[6] << 8 if version == VERSION else 0
    if image < head or image + archive > end:
        st.dirty = True
        st.problem = DAMAGED
        return
    st.first = i = head
    st.archive_at = image
    st.log_at = image + archive
    check = CHECK1
    while i < end and (raw[i] != 0xFF or i == image and archive):
        if i == image and archive:      # the archive: read only when a rewrite keeps it
            i += archive
            archive = 0
            continue
        h = raw[i]
        if h <= LAST_ACTION and i + 1 < end and check[h] == raw[i + 1] and st.records:
            st.records.append(h)                  # the common record, read fast
            st.records.append(raw[i + 1])
            st.slept = -1
            i += 2
            continue
        n = size(raw, i)
        known = n != 0 and i + n <= end
        if known and complete(raw, i, n) and take(st, raw[i:i + n]):
            i += n
            continue
        st.dirty = True
        if known and raw.count(b"\xff", i + n) == end - i - n:
            break                   # the last write, cut short by the power: dropped
        if not known:               # nothing after it can be read
            lose_match(st)
            break
        # damage: what this record held is lost, the records after it stand
        if raw[i] == SETTINGS:
            st.settings = None
            st.settings_lost = True
        elif raw[i] != SLEPT:
            lose_match(st)
        i += n
    else:
        if raw.count(b"\xff", i) != end - i:       # bytes after the end of the log
            st.dirty = True
            lose_match(st)
    st.end = i
    if i < image:                   # the image was cut short: write a whole one again
        st.dirty = True
        if st.problem is None:
            st.problem = LOST


def lose_match(st):
    """A damaged record of the match: the match is ignored until a new deal starts."""
    st.problem = DAMAGED
    st.records = bytearray()
    st.over = False
    st.broken = True


def take(st, rec):
    """Apply one complete record to the state; False if it cannot stand here."""
    h = rec[0]
    if h == SLEPT:
        st.slept = rec[1]
        return True
    st.slept = -1
    if h == SETTINGS:
        st.settings = bytes(rec[2:-2])
        st.settings_lost = False
        st.counted = []
    elif h == DEAL or h == LINKED:
        st.records = bytearray(rec if h == DEAL or rec[1] else b"")     # LINKED, n = 0: left
        st.over = False
        st.broken = False
    elif not st.records:
        return st.broken          # an action of a damaged deal, or before any deal
    else:
        st.records.extend(rec)
        if FLAGGED <= h < DEAL:
            if h & COUNTED:
                st.counted.append(h & 15)
            if h & OVER:
                st.over = True
    return True
