"""A tiny seeded PRNG dealing the same cards on CPython and on the board.

Park-Miller style Lehmer generator modulo the prime 2**30 - 35, multiplier 40003 (a
primitive root), stepped with Schrage's method so no intermediate exceeds 30 bits:
on CircuitPython nothing allocates.
"""

_M = 1073741789
_A = 40003
_Q = _M // _A
_R = _M % _A


class Rng:
    def __init__(self, seed=1):
        self.reseed(seed)

    def reseed(self, seed):
        """Start again as Rng(seed) would (the searches: one sequence per decision)."""
        self.state = seed % (_M - 1) + 1

    def next(self):
        x = self.state
        x = _A * (x % _Q) - _R * (x // _Q)
        if x <= 0:
            x += _M
        self.state = x
        return x

    def below(self, n):
        """A number in range(n)."""
        return self.next() % n

    def permute(self, items, n=-1):
        """Put a list (its first n items) in random order, in place (Fisher-Yates), the
        same on every platform."""
        i = (len(items) if n < 0 else n) - 1
        while i > 0:
            j = self.next() % (i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1
