"""Fair shuffling for a linked match: neither device alone chooses the deal.

Each device draws a random VALUE (16 bytes) and first sends only its COMMITMENT,
SHA-256(value). A value is revealed only once the other device's commitment is held,
and every revealed value is checked against its commitment. The match seed is taken
from SHA-256(proposer's value + accepter's value), so it is random if either device's
value is, and neither could steer it after seeing the other's commitment.

What this does not protect (docs/LINK.md): once both values are revealed both devices
know the seed, so a modified device can compute every hand and the talon; and the
device that learns the seed first could walk away before the match starts.
"""
from sixtysix.link.sha256 import sha256

VALUE_BYTES = 16


def new_value(entropy):
    """A fresh random value; `entropy(n)` gives n random bytes (os.urandom on the board)."""
    value = bytes(entropy(VALUE_BYTES))
    if len(value) != VALUE_BYTES:
        raise ValueError("the random source gave " + str(len(value)) + " bytes")
    return value


def commitment(value):
    return sha256(value)


def opens(value, commit):
    """True when `value` is the one `commit` was made from."""
    return len(value) == VALUE_BYTES and sha256(value) == commit


def match_seed(proposer_value, accepter_value):
    """The match's 30-bit Rng seed, the same on both devices."""
    d = sha256(proposer_value + accepter_value)
    return (d[0] & 0x3F) << 24 | d[1] << 16 | d[2] << 8 | d[3]
