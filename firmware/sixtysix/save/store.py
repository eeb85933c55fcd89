"""The save store: an append-only log of small records in microcontroller.nvm.

The nvm is ONE 4 KB flash sector: writing into erased (0xFF) bytes only programs pages,
anything else erases the sector (100,000 times guaranteed). So nothing is rewritten:
records are appended, and only a full area is erased and rewritten as a compact image
(docs/SAVES.md: the format, the wear and the power-cut window, with figures). Bytes
len(nvm)-64 .. end belong to boot.py (docs/LAYOUT.md) and are never written here.

The records' bytes are sixtysix.save.format's. The newest complete record wins; a bad record
with only erased bytes after it was cut short by the power (dropped quietly), any other is
damage (reported). `nvm`: anything with len() and slice assignment (microcontroller.nvm,
tools.flashnvm.FlashNVM), or None.
"""
from sixtysix.save import format as saveformat     # (by attribute: no second name a kind in this module)

RESERVED = 64       # the end of the nvm: boot.py's deploy flag
# Room a deal's records need at most (its header, some 70 actions): with less left, the
# log is rewritten in a frame of its own while the game waits for a key (App.idle), not
# in the frame of an action or a deal
ROOM = 256


class Store:
    """The newest saved state, kept in RAM as the records that make it, and the log.

    After reading: `settings` (the newest settings payload or None; `settings_lost` if
    the newest was damaged), `counted` (flags of the deal ends counted after it:
    Settings.load folds them in and hands back the folded payload), `records` (the
    current match's records back to back in one bytearray: its DEAL or LINKED record,
    then its actions; a linked match keeps a whole match there, a list of records
    would cost ~40 bytes of heap a move), `over`, `slept` (the screen deep
    sleep began on, or -1), `problem` (None, DAMAGED, NEWER or LOST: what the title says)
    and `legacy` (an image in the old fixed-record format, for sixtysix.save.oldsave).
    """

    def __init__(self, nvm):
        self.nvm = nvm
        self.area = 0 if nvm is None else len(nvm) - RESERVED
        if self.area < 512:             # no room for the log: play without saving
            self.nvm = None
            self.area = 0
        self.settings = None
        self.counted = []
        self.records = bytearray()
        self.over = False
        self.slept = -1
        self.problem = None
        self.settings_lost = False
        self.broken = False
        self.legacy = None
        # Where the log's records are: first .. archive_at (the image), the archive up to
        # log_at, then what was logged since up to end; all 0 when the area holds no log
        # this version reads (nothing for a rewrite to archive)
        self.first = 0
        self.archive_at = 0
        self.log_at = 0
        self.end = 0
        self.blank = True       # every byte of the area erased: the next write only programs
        self.dirty = False      # the next write must rewrite the area (one erase)
        self.gathering = None   # a rewrite's archive being gathered (tidy): (records, kept, steps)
        if self.nvm is not None:
            import sixtysix
            from sixtysix.save import storeread
            storeread.read(self, self.nvm[0:self.area])
            sixtysix.forget("sixtysix.save", "storeread")    # (once a power-on: its code leaves the heap)

    def in_progress(self):
        """True if a match can be continued (as far as the log tells)."""
        return bool(self.records) and not self.over

    def header(self, kind=saveformat.DEAL):
        """The payload of the current match's first record if it is of `kind` (DEAL: a
        match against the computer, LINKED: a linked match), else None."""
        r = self.records
        return bytes(r[2:2 + r[1]]) if r and r[0] == kind else None

    def linked(self):
        """The header of the linked match to rebuild when link play is chosen (one set up
        or playing), else None: a finished one is not rebuilt (the link screen would only
        leave it, and the other device had its moves: sixtysix.link.session.drop)."""
        return None if self.over else self.header(saveformat.LINKED)

    def actions(self):
        """The current match's actions, oldest first, as (seat, action); seat -1: the
        seat to act. (A generator: a linked match's hundreds of moves are never a list.)"""
        r = self.records
        i = saveformat.size(r, 0) if r else 0
        while i < len(r):
            h = r[i]
            if h <= saveformat.LAST_ACTION:
                yield -1, h
            elif h < saveformat.DEAL:
                yield r[i + 1], r[i + 2]
            i += saveformat.size(r, i)

    # ---- writing ----------------------------------------------------------------------

    def start_deal(self, header, kind=saveformat.DEAL):
        """A new deal (DEAL), or a linked match's header (LINKED; empty: it was left)."""
        rec = saveformat.framed(kind, header)
        self.records = bytearray(rec if kind == saveformat.DEAL or header else b"")
        self.over = False
        return self.put(rec)

    def append(self, rec):
        """Log a record of the current match that only its module reads (sixtysix.link.match's
        ASKED)."""
        self.records.extend(rec)
        return self.put(rec)

    def action(self, seat, action, flags=0, settings=None):
        """Log an action; seat -1 when it was the seat to act's. With COUNTED in flags,
        `settings` is the settings payload that already counts this deal's end."""
        if seat < 0 and not flags:
            rec = saveformat.small(action)
        else:
            rec = saveformat.small(saveformat.FLAGGED | flags, seat, action)
        self.records.extend(rec)
        if flags & saveformat.OVER:
            self.over = True
        if flags & saveformat.COUNTED:
            self.settings = settings
        return self.put(rec)

    def save_settings(self, payload):
        self.settings = payload
        self.counted = []
        return self.put(saveformat.framed(saveformat.SETTINGS, payload))

    def sleep_on(self, screen):
        self.slept = screen
        return self.put(saveformat.small(saveformat.SLEPT, screen))

    def due(self):
        """True when the log should be rewritten now, before a deal's records run out of
        room (not a store that keeps a newer version's save: that waits for a write)."""
        return self.nvm is not None and not self.blank and not self.dirty and self.area - self.end < ROOM

    def tidy(self):
        """A frame's part of the rewrite that due() asks for (App.idle): the archive is
        gathered a few deals a frame (sixtysix.save.archive), then the erase and the write
        come in a frame of their own, so no key waits for the whole of it. The current
        deal is not archived (the image has it), so its actions logged meanwhile change
        nothing; a new deal starts the gathering over; a full area (put) rewrites at once."""
        if not self.log_at:
            return self.rewrite()
        from sixtysix.save import archive
        if self.gathering is None or self.gathering[0] is not self.records:
            kept = []
            self.gathering = (self.records, kept, archive.gather(self, kept))
        kept, steps = self.gathering[1], self.gathering[2]
        for _ in range(archive.DEALS_A_FRAME):
            try:
                next(steps)
            except StopIteration:
                return self.rewrite(archive.joined(kept))
        return True

    def put(self, rec):
        """Append a record into erased bytes, or rewrite the area when it is full."""
        if self.nvm is None:
            return False
        if rec[0] != saveformat.SLEPT:
            self.slept = -1
        if self.dirty or self.blank or self.end + len(rec) > self.area:
            return self.rewrite()
        self.nvm[self.end:self.end + len(rec)] = rec
        self.end += len(rec)
        return True

    def image(self):
        """The compact form of the state: header, settings, the current deal, sleep."""
        out = bytearray(saveformat.MAGIC + bytes((saveformat.VERSION, 0, 0, 0, 0)))
        if self.settings is not None:
            out += saveformat.framed(saveformat.SETTINGS, self.settings)
        r = self.records
        i = 0
        while i < len(r):
            n = saveformat.size(r, i)
            if saveformat.FLAGGED <= r[i] < saveformat.DEAL and r[i] & saveformat.COUNTED:    # counted now
                out += saveformat.small(r[i] & ~saveformat.COUNTED, r[i + 1], r[i + 2])
            else:
                out += r[i:i + n]
            i += n
        if self.slept >= 0:
            out += saveformat.small(saveformat.SLEPT, self.slept)
        out[3] = len(out) & 255
        out[4] = len(out) >> 8
        return out

    def rewrite(self, kept=None):
        """Write the image, then the archive (`kept`: gathered by tidy, else here), over
        the whole area: one sector erase (none when it is blank). The image comes first,
        in page 0: a power cut while the later pages are programmed loses archived deals,
        never the game."""
        self.gathering = None
        if self.nvm is None:
            return False
        data = self.image()
        n = len(data)
        if n > self.area:
            return False
        if self.log_at:             # the finished deals go on after the image (archive.py)
            import sixtysix
            from sixtysix.save import archive
            if kept is None:
                kept = archive.harvest(self)
            sixtysix.forget("sixtysix.save", "archive")      # its code leaves the heap until the next rewrite
            if n + len(kept) <= self.area:
                data[5] = len(kept) & 255
                data[6] = len(kept) >> 8
                data += kept
        if self.blank:
            self.nvm[0:len(data)] = data
        else:
            self.nvm[0:self.area] = erased(data, self.area)
        self.first = saveformat.HEAD
        self.archive_at = n
        self.log_at = self.end = len(data)
        self.blank = False
        self.dirty = False
        self.counted = []
        return True


def erased(data, size):
    """data followed by erased bytes (0xFF) up to size, built in one buffer: the rewrite
    comes when a match holds the heap, so no second 4 KB copy."""
    out = bytearray(size)
    ff = b"\xff" * 64
    for i in range(len(data), size, 64):
        k = min(64, size - i)
        out[i:i + k] = ff if k == 64 else ff[:k]
    out[0:len(data)] = data
    return out
