"""The family games inside a real MicroPython VM must agree with CPython: every record of
host_tests/records_family replays to the same report, and random deals of every family
game dealt and played from the same seeds give the same records and results.

Four-handed deals use the 32-card pack, whose 8 and 7 of diamonds sit at bits 30 and 31:
past MicroPython's small ints (30 bits and a sign), so those masks are big ints there.
"""
import glob
import json
import os
from pathlib import Path

import mpvm
from family_oracle import play_out, play_match_for
from shared_rules import team
from shared_rules.cards import listed, pack
from shared_rules.deal import dealt
from shared_rules.family import new_match
from shared_rules.record import to_record
from shared_rules.report import replay
from shared_rules.rng import Rng
from shared_rules.rules import Rules

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = sorted(glob.glob(os.path.join(HERE, "records_family", "*.json")))
PACKAGES = ("shared_rules", Path(HERE) / "family_oracle.py")
GAMES = [["three-handed", {}], ["four-handed", {}], ["four-handed", {"ten_of_trumps": True}],
         ["american", {}], ["american", {"players": 3}], ["american", {"players": 2}], ["idiots", {}]]

VM_REPLAY = """
import json
from shared_rules.report import replay
for rec in json.loads(RECORDS):
    print(json.dumps(replay(rec)))
"""

VM_RANDOM = """
import json
from shared_rules import team
from shared_rules.cards import listed, pack
from shared_rules.deal import dealt
from shared_rules.record import to_record
from shared_rules.rng import Rng
from shared_rules.rules import Rules
from family_oracle import play_out, play_match_for
for name, options, seed in json.loads(CASES):
    rules = Rules(name, **options)
    order = listed(pack(rules.ranks))
    Rng(seed).permute(order)
    d = team.dealt(rules, order) if rules.game in ("four", "american") else dealt(rules, order)
    play_out(d, Rng(seed))
    print(json.dumps([to_record(d), list(d.result), [d.points(s) for s in range(len(d.tricks))]]))
"""

VM_BIG_MASKS = """
import json
from shared_rules.record import deal_from_record, parse_entry
rec = json.loads(REC)
d = deal_from_record(rec)
out = [d.hands[3] >> 31 & 1, d.hands[3] > (1 << 30)]
for entry in rec["actions"]:
    seat, action = parse_entry(entry, 4)
    d.apply(action, seat)
    m = d.won[0] | d.won[1] | d.hands[0] | d.hands[1] | d.hands[2] | d.hands[3]
    for c in d.trick:
        m |= 1 << c
    out.append(m)
print(json.dumps([out[0], out[1], [hex(m) for m in out[2:]]]))
"""


def _vm(script, name, value):
    return mpvm.run_json(name + " = " + repr(json.dumps(value)) + "\n" + script, packages=PACKAGES, timeout=120)


def test_family_records_replay_identically_in_the_vm():
    assert FILES
    records = [json.load(open(f))["record"] for f in FILES]
    got = _vm(VM_REPLAY, "RECORDS", records)
    assert len(got) == len(records)
    for f, g, r in zip(FILES, got, records):
        assert g == json.loads(json.dumps(replay(r))), os.path.basename(f)


def test_random_family_deals_match_cpython():
    cases = [[name, options, seed] for name, options in GAMES for seed in range(25)]
    got = _vm(VM_RANDOM, "CASES", cases)
    assert len(got) == len(cases)
    for (name, options, seed), row in zip(cases, got):
        rules = Rules(name, **options)
        order = listed(pack(rules.ranks))
        Rng(seed).permute(order)
        d = team.dealt(rules, order) if rules.game in ("four", "american") else dealt(rules, order)
        play_out(d, Rng(seed))
        want = [to_record(d), list(d.result), [d.points(s) for s in range(len(d.tricks))]]
        assert row == json.loads(json.dumps(want)), (name, options, seed)


def test_four_handed_big_int_masks_in_the_vm():
    """Seat 3 holds the 8 and 7 of diamonds (bits 30 and 31); after every action all 32
    cards are still in hands, the trick or won piles. Then a deal whose turn-up is the 7 of diamonds."""
    rec = json.load(open(os.path.join(HERE, "records_family", "four_every_trick_3.json")))["record"]
    [[bit, big, masks]] = _vm(VM_BIG_MASKS, "REC", rec)
    assert bit == 1 and big is True
    assert masks == [hex(0xFFFFFFFF)] * len(rec["actions"])
    rec = json.load(open(os.path.join(HERE, "records_family", "four_must_beat_partner_error.json")))["record"]
    assert rec["trump_card"] == "7D"
    rec = dict(rec, actions=rec["actions"][:2])
    [[bit, big, masks]] = _vm(VM_BIG_MASKS, "REC", rec)
    assert bit == 1 and big is True and masks == [hex(0xFFFFFFFF)] * 2


VM_MATCHES = """
import json
from shared_rules.family import new_match, match_from_dict
from shared_rules.rules import Rules
from shared_rules.rng import Rng
from family_oracle import play_match_for
for name, options, seed in json.loads(CASES):
    m = play_match_for(new_match(Rules(name, **options), "classic", seed), Rng(seed), seed * 5 + 3)
    saved = json.dumps(m.to_dict())
    print(json.dumps([json.loads(saved), match_from_dict(json.loads(saved)).to_dict()]))
"""


def test_family_matches_save_and_restore_in_the_vm():
    """Family matches played a while from the same seed give the same saved match in the
    VM as on CPython, and restoring it there gives it back unchanged."""
    cases = [[name, options, seed] for name, options in GAMES for seed in range(8)]
    got = _vm(VM_MATCHES, "CASES", cases)
    for (name, options, seed), (saved, restored) in zip(cases, got):
        m = play_match_for(new_match(Rules(name, **options), "classic", seed), Rng(seed), seed * 5 + 3)
        assert saved == json.loads(json.dumps(m.to_dict())), (name, options, seed)
        assert restored == saved
