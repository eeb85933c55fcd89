"""SHA-256 (FIPS 180-4) in plain Python, for the link's fair shuffle (sixtysix.link.fairseed).

CircuitPython's hashlib on the Raspberry Pi Pico build refuses "sha256" (ValueError:
Unsupported hash algorithm), and SHA-1 is no longer collision resistant, so the
commitments use this. Each 32-bit word is kept as two 16-bit halves, so no value
ever passes 2**30: on the board nothing becomes a heap-allocated big int. A link
match hashes three short messages (one 64-byte block each).
"""

# The constants as hex text: parsed into 16-bit halves, so no literal is a big int.
_K = (
    "428a2f98 71374491 b5c0fbcf e9b5dba5 3956c25b 59f111f1 923f82a4 ab1c5ed5 "
    "d807aa98 12835b01 243185be 550c7dc3 72be5d74 80deb1fe 9bdc06a7 c19bf174 "
    "e49b69c1 efbe4786 0fc19dc6 240ca1cc 2de92c6f 4a7484aa 5cb0a9dc 76f988da "
    "983e5152 a831c66d b00327c8 bf597fc7 c6e00bf3 d5a79147 06ca6351 14292967 "
    "27b70a85 2e1b2138 4d2c6dfc 53380d13 650a7354 766a0abb 81c2c92e 92722c85 "
    "a2bfe8a1 a81a664b c24b8b70 c76c51a3 d192e819 d6990624 f40e3585 106aa070 "
    "19a4c116 1e376c08 2748774c 34b0bcb5 391c0cb3 4ed8aa4a 5b9cca4f 682e6ff3 "
    "748f82ee 78a5636f 84c87814 8cc70208 90befffa a4506ceb bef9a3f7 c67178f2 ")
_H0 = "6a09e667 bb67ae85 3c6ef372 a54ff53a 510e527f 9b05688c 1f83d9ab 5be0cd19"
_M = 0xFFFF


def _halves(text):
    """(high halves, low halves) of the 32-bit words written in hex in `text`."""
    words = text.split()
    return [int(w[:4], 16) for w in words], [int(w[4:], 16) for w in words]


_KH, _KL = _halves(_K)


def _rot(h, l, n):
    """The high half of the 32-bit word (h, l) rotated right by n; with the halves
    swapped, (l, h), the low half: so nothing but small ints is ever made."""
    if n >= 16:
        h, l = l, h
        n -= 16
    if n == 0:
        return h
    return ((h >> n) | (l << (16 - n))) & _M


def _big(h, l, a, b, c):
    """High half of rotr(a) ^ rotr(b) ^ rotr(c): the rounds' two Sigma functions."""
    return _rot(h, l, a) ^ _rot(h, l, b) ^ _rot(h, l, c)


def _small_hi(h, l, a, b, c):
    """High half of rotr(a) ^ rotr(b) ^ (x >> c), the message schedule's sigma (c < 16)."""
    return _rot(h, l, a) ^ _rot(h, l, b) ^ (h >> c)


def _small_lo(h, l, a, b, c):
    return _rot(l, h, a) ^ _rot(l, h, b) ^ (((l >> c) | (h << (16 - c))) & _M)


def sha256(data):
    """The 32-byte SHA-256 digest of bytes `data`."""
    n = len(data)
    msg = bytearray(data)
    msg.append(0x80)
    while len(msg) % 64 != 56:
        msg.append(0)
    bits = n * 8
    for shift in (56, 48, 40, 32, 24, 16, 8, 0):
        msg.append((bits >> shift) & 255)
    hh, hl = _halves(_H0)
    wh = [0] * 64
    wl = [0] * 64
    for off in range(0, len(msg), 64):
        for i in range(16):
            j = off + 4 * i
            wh[i] = msg[j] << 8 | msg[j + 1]
            wl[i] = msg[j + 2] << 8 | msg[j + 3]
        for i in range(16, 64):
            h, l = wh[i - 15], wl[i - 15]
            s0h, s0l = _small_hi(h, l, 7, 18, 3), _small_lo(h, l, 7, 18, 3)
            h, l = wh[i - 2], wl[i - 2]
            s1h, s1l = _small_hi(h, l, 17, 19, 10), _small_lo(h, l, 17, 19, 10)
            lo = wl[i - 16] + s0l + wl[i - 7] + s1l
            wl[i] = lo & _M
            wh[i] = (wh[i - 16] + s0h + wh[i - 7] + s1h + (lo >> 16)) & _M
        ah, bh, ch, dh, eh, fh, gh, xh = hh
        al, bl, cl, dl, el, fl, gl, xl = hl
        for i in range(64):
            lo = xl + _big(el, eh, 6, 11, 25) + ((el & fl) ^ (~el & gl & _M)) + _KL[i] + wl[i]
            t1l = lo & _M
            t1h = (xh + _big(eh, el, 6, 11, 25) + ((eh & fh) ^ (~eh & gh & _M)) + _KH[i] + wh[i]
                   + (lo >> 16)) & _M
            lo = _big(al, ah, 2, 13, 22) + ((al & bl) ^ (al & cl) ^ (bl & cl))
            t2l = lo & _M
            t2h = (_big(ah, al, 2, 13, 22) + ((ah & bh) ^ (ah & ch) ^ (bh & ch)) + (lo >> 16)) & _M
            xh, xl = gh, gl
            gh, gl = fh, fl
            fh, fl = eh, el
            lo = dl + t1l
            el = lo & _M
            eh = (dh + t1h + (lo >> 16)) & _M
            dh, dl = ch, cl
            ch, cl = bh, bl
            bh, bl = ah, al
            lo = t1l + t2l
            al = lo & _M
            ah = (t1h + t2h + (lo >> 16)) & _M
        _add(hh, hl, 0, ah, al)
        _add(hh, hl, 1, bh, bl)
        _add(hh, hl, 2, ch, cl)
        _add(hh, hl, 3, dh, dl)
        _add(hh, hl, 4, eh, el)
        _add(hh, hl, 5, fh, fl)
        _add(hh, hl, 6, gh, gl)
        _add(hh, hl, 7, xh, xl)
    out = bytearray(32)
    for k in range(8):
        out[4 * k] = hh[k] >> 8
        out[4 * k + 1] = hh[k] & 255
        out[4 * k + 2] = hl[k] >> 8
        out[4 * k + 3] = hl[k] & 255
    return bytes(out)


def _add(hh, hl, k, h, l):
    """Word k of the state += (h, l), modulo 2**32."""
    lo = hl[k] + l
    hl[k] = lo & _M
    hh[k] = (hh[k] + h + (lo >> 16)) & _M
