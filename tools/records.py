"""Finished matches from a board's save area, as game records for `tools.review`.

    python -m tools.records list [--port PORT | --nvm FILE]
    python -m tools.records pull [--port PORT | --nvm FILE] [--out DIR]

The device keeps its last finished matches in microcontroller.nvm (docs/SAVES.md: the
archive, about 1 KB): against the computer, pass-and-play, and over the link cable (as
this device's person's). `list` numbers them, oldest first (the device has no clock), with
the rules, the final score and who won; `pull` writes each as one JSON file in DIR
(default: the current folder), a list of deal records (docs/RECORD_FORMAT.md) with
"people", the seats persons played: `python -m tools.review FILE` reviews it.

The records come over USB serial, as the deploy talks to a board (--port, or the only
board plugged in); there is no --drive: the nvm is flash outside the CIRCUITPY
filesystem, so the drive has no file that holds them, and CircuitPython keeps the drive
read-only to the game, so it cannot write them there either. The game stops while the
4 KB are read, then starts again where it was. --nvm FILE reads an nvm image instead
(the simulator's --save file).

A damaged archive entry or deal is skipped with a line that says so; the others still
come out. Exit codes: 0 done, 1 the save area holds no log this tool reads, 2 usage or
a file that cannot be read or written, 3 no board, 4 several boards, 11 the board does
not answer.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tools.sim import setup_paths  # noqa: E402

setup_paths()       # firmware/ on sys.path: the device's own readers of its save
from shared_rules.errors import IllegalMove  # noqa: E402
from shared_rules.record import to_record  # noqa: E402
from sixtysix.save import archive, savegame, format as saveformat, store  # noqa: E402


class RecordsError(Exception):
    """What went wrong, in one line, and the exit code (`code`)."""

    def __init__(self, message, code=1):
        Exception.__init__(self, message)
        self.code = code


# ---- the save area -> matches ------------------------------------------------------------


def deals(raw):
    """(every deal the save area `raw` holds as an ARCHIVED record, oldest first: the
    archive, then the log; notes on what was skipped). RecordsError when it holds no log."""
    st = store.Store(bytearray(raw))
    if not st.log_at:
        why = {saveformat.NEWER: "a newer firmware's save", saveformat.LOST: "a save cut short by a power cut",
               saveformat.DAMAGED: "a damaged save"}.get(st.problem, "no save log")
        raise RecordsError("the save area holds " + ("no save yet" if st.blank else why) + ": no matches in it")
    out = []
    notes = []
    for rec in archive.archived(raw, st.archive_at, st.log_at):
        if rec is None:
            notes.append("a damaged stretch of the archive: skipped")
        else:
            out.append(rec)
    out.extend(archive.logged(raw, st.first, st.archive_at, st.log_at, st.end))
    return out, notes


def person_seats(match, people):
    """The deal's seats of the match players whose bit is set in `people`, in player
    order; a player who sits the deal out (the three-handed dealer) has none."""
    seats = [match.seat_of(p) for p in range(match.players()) if people >> p & 1]
    return [s for s in seats if s < len(match.deal.hands)]


def linked_match(parts):
    """A finished linked match from its archive parts, as the device restores one
    (sixtysix.link.restore): its header, its moves replayed. The dict matches() gives;
    `people`: the player this device held; ValueError when it does not replay."""
    from sixtysix.link import restore
    from sixtysix.link.match import LinkedMatch
    s = LinkedMatch(Unplugged(), None)
    restore.load(s, archive.header(parts[0]), [], -1)
    m = s.match
    people = 1 << s.local_player()
    deals = []

    def ended(deal):
        r = to_record(deal)
        r["people"] = person_seats(m, people)
        deals.append(r)

    try:
        restore.replay(s, [a[:2] for p in parts for a in archive.actions(p)], ended)
    except IllegalMove as e:
        raise ValueError(str(e))
    return {"records": deals, "first": 1, "level": "linked", "people": people, "match": m, "linked": True}


class Unplugged:
    """What a LinkedMatch reads of its cable when it is only restored (never polled)."""
    ups = 0


def matches(raw):
    """(the finished matches in the save area, notes): each match a dict with its deal
    records (`records`), the match after its last deal (`match`), `level` ("linked" for a
    linked match), `people` (bits) and `first` (the number of its first deal kept: over
    1 when the archive kept only its last deals)."""
    found, notes = deals(raw)
    out = []
    current = None
    before = None
    parts = []          # a linked match's parts so far
    for rec in found:
        if archive.linked(rec):
            s = archive.summary(rec)
            parts = parts + [rec] if archive.follows(before, s) else [rec]
            before = s
            if s[1]:
                try:
                    if parts[0][2] & ~archive.LAST:
                        raise ValueError("its first part is gone")
                    out.append(linked_match(parts))
                except (ValueError, IndexError):
                    notes.append("a linked match that does not replay: skipped")
            continue
        try:
            m, level, people = savegame.restore(archive.header(rec), [a[:2] for a in archive.actions(rec)])
            s = archive.summary(rec)
        except (ValueError, IndexError):
            notes.append("a deal that does not replay: skipped")
            before = None
            continue
        if not archive.follows(before, s):
            current = {"records": [], "first": s[0], "level": level, "people": people}
            out.append(current)
        before = s
        r = to_record(m.deal)
        r["people"] = person_seats(m, people)
        current["records"].append(r)
        current["match"] = m
    unfinished = [x for x in out if not x["match"].over]
    if unfinished:
        notes.append("%d unfinished match%s (in progress or left): not listed"
                     % (len(unfinished), "" if len(unfinished) == 1 else "es"))
    return [x for x in out if x["match"].over], notes


# ---- words -----------------------------------------------------------------------------------


def file_name(found):
    """The match's file: its rule set and its last deal's generator state, so pulling
    again finds the same file (the archive drops a match's first deals, never its last)."""
    m = found["match"]
    return "%s-%08x.json" % (m.rules.name, m.deal_rng)


def winner(found):
    """Who won the match, as the person sees it against the computer or a friend."""
    m = found["match"]
    players = [p for p in range(m.players()) if p % m.sides() == m.winner]
    if found.get("linked"):
        return "you won" if found["people"] & sum(1 << p for p in players) else "you lost"
    if found["people"] == 1:
        return "you won" if 0 in players else "the computer won"
    if len(players) == 1:
        return "player %d won" % players[0]
    return "players %s won" % " and ".join(str(p) for p in players)


def line(n, found):
    """The listing's line of match number n."""
    m = found["match"]
    options = "".join(", %s %s" % (k, v) for k, v in sorted(m.rules.overrides.items()))
    who = "linked" if found.get("linked") else \
        "%s computer" % found["level"] if found["people"] == 1 else "pass-and-play"
    kept = "%d deals" % len(found["records"])
    if found["first"] > 1:
        kept += " (deals %d-%d: the first not kept)" % (found["first"], m.deals)
    score = list(m.score)
    if found.get("linked"):             # the person's side first, as against the computer
        mine = (found["people"].bit_length() - 1) % m.sides()
        score.insert(0, score.pop(mine))
    return "%d. %s%s, %s, %s: %s, %s; %s" % (n, m.rules.name, options, m.counting, who,
                                             "-".join(str(s) for s in score), winner(found), kept)


# ---- sources and commands ---------------------------------------------------------------------


def read_nvm_file(path):
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise RecordsError("cannot read %s: %s" % (path, e.strerror or e), 2)
    if len(raw) < 512 + store.RESERVED:
        raise RecordsError("%s holds %d bytes: not an nvm image (4096 bytes on the RP2040)" % (path, len(raw)), 2)
    return raw


def read_board(port):
    """The nvm of the board on `port` (None: the only board plugged in), over its REPL."""
    from tools.deploy import discover
    from tools.deploy.errors import DeployError, NoBoard
    from tools.deploy.serialboard import SerialTarget
    if port is None:
        ports = discover.board_ports()
        if len(ports) != 1:
            raise RecordsError("no board plugged in (a data USB cable?)" if not ports else
                               "several boards: choose one with --port (%s)"
                               % ", ".join(p.device for p in ports), 3 if not ports else 4)
        port = ports[0].device
    try:
        target = SerialTarget(port)
        try:
            return target.read_nvm()
        finally:
            target.finish(True, lambda text: None)      # the game starts again
            target.close()
    except NoBoard:
        raise RecordsError("no board on " + port, 3)
    except DeployError as e:        # the board does not answer: the deploy's words
        raise RecordsError(" ".join(x.strip() for x in str(e).splitlines()), e.exit_code)


def pull(found, out):
    """Write each match's file into `out`; lines saying what was written. A file already
    there is kept: it holds the same match, as many deals or more."""
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise RecordsError("cannot make %s: %s" % (out, e.strerror or e), 2)
    lines = []
    for n, f in enumerate(found, 1):
        path = os.path.join(out, file_name(f))
        if os.path.exists(path):
            lines.append(line(n, f) + " -> %s (already there: kept)" % path)
            continue
        try:
            with open(path + ".tmp", "w") as fh:
                json.dump(f["records"], fh, indent=1)
                fh.write("\n")
            os.replace(path + ".tmp", path)
        except OSError as e:
            raise RecordsError("cannot write %s: %s" % (path, e.strerror or e), 2)
        lines.append(line(n, f) + " -> " + path)
    return lines


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m tools.records", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="docs/REVIEW.md: from the device to the PC.")
    p.add_argument("command", choices=("list", "pull"), help="list the finished matches, or pull them into files")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--port", help="the board's serial port (default: the only board plugged in)")
    where.add_argument("--nvm", metavar="FILE", help="an nvm image instead of a board (tools.sim's --save file)")
    p.add_argument("--out", default=".", metavar="DIR", help="pull: the folder for the files (default: here)")
    args = p.parse_args(argv)
    try:
        raw = read_nvm_file(args.nvm) if args.nvm else read_board(args.port)
        found, notes = matches(raw)
        for note in notes:
            print("records: " + note, file=sys.stderr)
        if not found:
            print("No finished matches on the device.")
        elif args.command == "list":
            print("\n".join(line(n, f) for n, f in enumerate(found, 1)))
        else:
            print("\n".join(pull(found, args.out)))
    except RecordsError as e:
        print("records: " + str(e), file=sys.stderr)
        return e.code
    return 0


if __name__ == "__main__":
    sys.exit(main())
