"""Replay a game record and print how the deal ended (RECORD_FORMAT.md).

    python -m tools.replay FILE      (or - for standard input)

Prints one JSON object; exits 1 when the record or one of its actions is illegal or
malformed, 2 when the file cannot be read. Standard library only.
"""
import json
import sys
import os

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from shared_rules.record import replay  # noqa: E402


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        text = sys.stdin.read() if args[0] == "-" else open(args[0], encoding="utf-8").read()
    except OSError as e:
        print(json.dumps({"status": "error", "error_index": None, "error": "cannot read " + args[0] + ": " + e.strerror}))
        return 2
    try:
        rec = json.loads(text)
    except ValueError as e:
        print(json.dumps({"status": "error", "error_index": None, "error": "not JSON: " + str(e)}))
        return 1
    if not isinstance(rec, dict):
        print(json.dumps({"status": "error", "error_index": None, "error": "a record is a JSON object"}))
        return 1
    out = replay(rec)
    print(json.dumps(out))
    return 1 if out["status"] == "error" else 0


if __name__ == "__main__":
    sys.exit(main())
