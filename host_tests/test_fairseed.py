"""The fair shuffle's pieces: our SHA-256 against CPython's, commitments and the seed."""
import hashlib
import random

import pytest

from tools.sim import setup_paths

setup_paths()
from sixtysix.link import fairseed  # noqa: E402
from sixtysix.link.sha256 import sha256  # noqa: E402


def test_sha256_matches_hashlib_at_every_padding_boundary():
    rng = random.Random(1)
    for n in list(range(0, 130)) + [1000, 4097]:
        data = bytes(rng.getrandbits(8) for _ in range(n))
        assert sha256(data) == hashlib.sha256(data).digest(), n
    assert sha256(b"abc").hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_a_commitment_opens_only_with_its_value():
    value = bytes(range(16))
    commit = fairseed.commitment(value)
    assert fairseed.opens(value, commit)
    assert not fairseed.opens(bytes(range(1, 17)), commit)
    assert not fairseed.opens(value[:15], commit)


def test_the_seed_is_30_bits_and_depends_on_both_values_in_order():
    rng = random.Random(2)
    seeds = set()
    for _ in range(200):
        a = bytes(rng.getrandbits(8) for _ in range(16))
        b = bytes(rng.getrandbits(8) for _ in range(16))
        s = fairseed.match_seed(a, b)
        assert 0 <= s < 1 << 30 and s == fairseed.match_seed(a, b)
        assert s != fairseed.match_seed(b, a)
        seeds.add(s)
    assert len(seeds) == 200


def test_a_random_source_that_gives_too_little_is_refused():
    assert len(fairseed.new_value(lambda n: bytes(n))) == 16
    with pytest.raises(ValueError):
        fairseed.new_value(lambda n: bytes(n - 1))
