# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""spec_gf.py -- GHASH's and POLYVAL's field products, over the prover's bits, from the documents.

A block is 16 bytes, 128 bits, bits[8j + k] = bit k (LSB = 0) of byte j, as the executor loads memory.

GHASH (SP 800-38D §6.3): the block is x_0 .. x_127 with x_0 the most significant bit of byte 0, and x_i
is the coefficient of x^i in GF(2)[x] / G, G = x^128 + x^7 + x^2 + x + 1. X • Y is the product mod G.
POLYVAL (RFC 8452 §3): the coefficient of x^i is bit i % 8 of byte i / 8, in GF(2)[x] / P,
P = x^128 + x^127 + x^126 + x^121 + 1, and dot(a, b) = a * b * x^-128 mod P.

Each product is the polynomial product (bits.clmul: bit k is XOR_{i+j=k} a_i b_j, the definition) and
then a fixed linear map, the reduction: coefficient k of the product contributes x^k mod G (GHASH) or
x^k * x^-128 mod P (POLYVAL) to the result. The constants below are computed from those definitions
with Python integers. spec/modes.c computes the same products bit-serially (Algorithm 1; Horner and
128 divisions by x); prove.spec_transcription checks these against it on random blocks.
"""
from . import bits as B

G_POLY = (1 << 128) | 0x87                                       # x^128 + x^7 + x^2 + x + 1
P_POLY = (1 << 128) | (1 << 127) | (1 << 126) | (1 << 121) | 1   # x^128 + x^127 + x^126 + x^121 + 1


def _mod(v, m):
    top = m.bit_length() - 1
    while v.bit_length() - 1 >= top:
        v ^= m << (v.bit_length() - 1 - top)
    return v


def _times_x_inverse(v):
    """v * x^-1 mod P (v reduced): P has constant term 1, so v + P is divisible by x when v is not."""
    if v & 1:
        v ^= P_POLY
    return v >> 1


def _polyval_column(k):
    v = _mod(1 << k, P_POLY)
    for _ in range(128):
        v = _times_x_inverse(v)
    return v


# column k: what coefficient k of a 255-coefficient product becomes, as a 128-bit mask
GHASH_RED = [_mod(1 << k, G_POLY) for k in range(256)]
POLYVAL_RED = [_polyval_column(k) for k in range(256)]


def _reduce(c, columns):
    out = [set() for _ in range(128)]
    for k, ck in enumerate(c):
        if not ck:
            continue
        col = columns[k]
        while col:
            t = (col & -col).bit_length() - 1
            out[t] ^= ck
            col &= col - 1
    return [frozenset(s) for s in out]


def _ghash_order(block):
    """block bits (memory order) -> coefficients x^0..x^127 in GCM's order (and back: an involution)."""
    return [block[8 * (i // 8) + 7 - i % 8] for i in range(128)]


def ghash_mul(x, y):
    """X • Y (SP 800-38D §6.3) of two blocks."""
    return _ghash_order(_reduce(B.clmul(_ghash_order(x), _ghash_order(y)), GHASH_RED))


def dot(a, b):
    """dot(a, b) = a * b * x^-128 mod P (RFC 8452 §3) of two blocks."""
    return _reduce(B.clmul(a, b), POLYVAL_RED)


def xor(a, b):
    return [x ^ y for x, y in zip(a, b)]


def horner(mul, acc, blocks, h):
    """GHASH's Algorithm 2 and POLYVAL's §3 loop from a given accumulator: acc = (acc + X_i) * h."""
    for x in blocks:
        acc = mul(xor(acc, x), h)
    return acc


def aggregated(mul, acc, blocks, powers, groups):
    """The same update written the way the kernels compute it, with powers[j - 1] standing for h^j
    (free symbols in the update obligations): per group of r blocks X_1..X_r,
        acc' = (acc + X_1) h^r + X_2 h^(r-1) + ... + X_r h,
    which is r steps of horner() by distributivity, given powers[j - 1] = h^j (which the init
    obligations prove of the table). groups: the group sizes in order, summing to len(blocks)."""
    assert sum(groups) == len(blocks)
    i = 0
    for r in groups:
        s = [set() for _ in range(128)]  # summed in place: a group's sum is large, copies are not cheap
        for j in range(r):
            x = blocks[i + j] if j else xor(acc, blocks[i])
            for t, pt in zip(s, mul(x, powers[r - j - 1])):
                t ^= pt
        acc = [frozenset(t) for t in s]
        i += r
    return acc


def power(mul, h, k, memo, linear=False):
    """h^k by the chain h^k = h^(2^a) * h^(k - 2^a), 2^a the highest power of two below k (h^(2^a) by
    squaring), or with linear by h^k = h^(k-1) * h. Any chain gives the same field element (the
    product is associative), so the choice is free; it is made to meet the kernel's own chain, because
    the normal form (sym/bits.py, products) decides equal chains, not associativity: the x86 inits
    square (each factor a square chain, which is linear in h's bits, or a smaller power), the armv8,
    power8 and portable inits multiply by H each step (obligations.GF_LINEAR_INIT)."""
    r = memo.get(k)
    if r is None:
        if k == 1:
            r = h
        elif linear:
            r = mul(power(mul, h, k - 1, memo, True), h)
        elif k & (k - 1) == 0:
            half = power(mul, h, k // 2, memo)
            r = mul(half, half)
        else:
            top = 1 << (k.bit_length() - 1)
            r = mul(power(mul, h, top, memo), power(mul, h, k - top, memo))
        memo[k] = r
    return r


def mul_x_polyval(h):
    """h * x mod P (RFC 8452 Appendix A's mulX_POLYVAL)."""
    out = [B.ZERO] + list(h[:127])
    top = h[127]
    for t in (0, 121, 126, 127):
        out[t] = out[t] ^ top
    return out


def byte_reverse(block):
    return [block[8 * (15 - i // 8) + i % 8] for i in range(128)]


def to_polyval(g):
    """The POLYVAL-field element that stands for the GHASH-field element g: phi(g) =
    mulX_POLYVAL(ByteReverse(g)) (RFC 8452 Appendix A). phi is a field isomorphism onto POLYVAL's
    field with dot as its product: ByteReverse(a • b) = dot(ByteReverse(a), phi(b)), so
    phi(a • b) = dot(phi(a), phi(b)). The x86 kernels keep H' = phi(H) and its dot-powers."""
    return mul_x_polyval(byte_reverse(g))
