"""Replay a game record and print how the deal ended (docs/RECORD_FORMAT.md).

    python -m tools.replay FILE      (or - for standard input)

Prints one JSON object; exits 1 when the record or one of its actions is illegal or
malformed (not UTF-8, not JSON, ...), 2 when the file cannot be read. Standard library only.
"""
import json
import sys
import os

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from shared_rules.report import replay  # noqa: E402


def _read(arg):
    """The bytes of FILE or of standard input; OSError when there are none to read."""
    if arg != "-":
        with open(arg, "rb") as f:
            return f.read()
    if sys.stdin is None:                         # started with standard input closed
        raise OSError(9, "it is closed")
    return sys.stdin.buffer.read()


def _text(data):
    """The record's text: UTF-8, a byte-order mark allowed; ValueError saying what it is otherwise."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise ValueError("not UTF-8 text: it is UTF-16 (save it as UTF-8)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ValueError("not UTF-8 text: byte 0x%02x at offset %d" % (data[e.start], e.start))


class BadInput(Exception):
    """Input that holds no JSON: the message, and the exit code (`code`)."""

    def __init__(self, message, code):
        Exception.__init__(self, message)
        self.code = code


def load(arg):
    """The JSON value in FILE or '-'; BadInput when it cannot be read (exit code 2) or is
    not UTF-8 JSON (1). tools.review reads its records this way too."""
    try:
        data = _read(arg)
    except OSError as e:
        where = "standard input" if arg == "-" else arg
        raise BadInput("cannot read " + where + ": " + (e.strerror or str(e)), 2)
    try:
        text = _text(data)
    except ValueError as e:
        raise BadInput(str(e), 1)
    try:
        return json.loads(text)
    except RecursionError:
        raise BadInput("not JSON: nested too deeply", 1)
    except ValueError as e:
        raise BadInput("not JSON: " + str(e), 1)


def _error(message):
    return {"status": "error", "error_index": None, "error": message}


def report(arg):
    """(the JSON report, exit code) for FILE or '-'."""
    try:
        rec = load(arg)
    except BadInput as e:
        return _error(str(e)), e.code
    if not isinstance(rec, dict):
        return _error("a record is a JSON object"), 1
    out = replay(rec)
    return out, 1 if out["status"] == "error" else 0


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out, code = report(args[0])
    print(json.dumps(out))
    return code


if __name__ == "__main__":
    sys.exit(main())
