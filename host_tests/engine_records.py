"""Helpers for tests that start from a scenario record (host_tests/records/NAME.json)."""
import json
import os

from shared_rules.record import deal_from_record, parse_entry

RECORDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "records")
def load(name):
    with open(os.path.join(RECORDS, name + ".json"), encoding="utf-8") as f:
        return json.load(f)


def deal_at(name, n=None):
    """The deal of record NAME after its first n actions (all by default)."""
    rec = load(name)["record"]
    deal = deal_from_record(rec)
    for entry in rec["actions"][:n]:
        seat, action = parse_entry(entry)
        deal.apply(action, seat)
    return deal


def entry_of(name, i):
    """(seat, action) of the i-th action of record NAME."""
    return parse_entry(load(name)["record"]["actions"][i])
