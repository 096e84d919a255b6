# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""aes_model.py -- the AES round operations of FIPS 197 on 16-byte states of bit forms.

Used twice: by the spec transcription (spec_aes.py) and by the instruction models (x86.py), because
Intel's pseudo-code for AESENC & co. is written in exactly these FIPS 197 steps (SDM vol. 2, "AESENC":
ShiftRows, SubBytes, MixColumns, XOR RoundKey). The instruction models are validated against the
real instructions (proofs/tests/), the spec transcription against spec/aes.c; both run this code.

A state is a list of 128 bits: byte i is bits [8i, 8i+8), and byte i is s[r][c] with i = r + 4c
(FIPS 197 §3.4, and the byte order of an XMM register loaded from the block).
"""
from . import bits as B


def _xtime_int(b):
    return ((b << 1) ^ (0x1b if b & 0x80 else 0)) & 0xff


def _make_sbox():
    # §5.1.1 from its definition: the inverse in GF(2^8) (by logarithms to the generator {03}), then
    # the affine map with c = {63}
    power = []
    log = [0] * 256
    p = 1
    for i in range(255):
        power.append(p)
        log[p] = i
        p = _xtime_int(p) ^ p
    fwd = []
    for b in range(256):
        inv = 0 if b == 0 else power[(255 - log[b]) % 255]
        s = inv
        for k in (1, 2, 3, 4):
            s ^= ((inv << k) | (inv >> (8 - k))) & 0xff
        fwd.append(s ^ 0x63)
    invs = [0] * 256
    for b, s in enumerate(fwd):
        invs[s] = b
    return tuple(fwd), tuple(invs)


SBOX, INV_SBOX = _make_sbox()
assert SBOX[0x53] == 0xED and SBOX[0x00] == 0x63  # FIPS 197 §5.1.1's example, Figure 7


def byte(s, i):
    return s[8 * i:8 * i + 8]


def from_bytes(bs):
    out = []
    for b in bs:
        out += b
    return out


def sub_bytes(s):
    return from_bytes(B.table(byte(s, i), SBOX, 8) for i in range(16))


def inv_sub_bytes(s):
    return from_bytes(B.table(byte(s, i), INV_SBOX, 8) for i in range(16))


def shift_rows(s):
    # s'[r][c] = s[r][(c + r) mod 4]
    return from_bytes(byte(s, (i % 4) + 4 * (((i // 4) + (i % 4)) % 4)) for i in range(16))


def inv_shift_rows(s):
    # s'[r][(c + r) mod 4] = s[r][c]
    out = [None] * 16
    for i in range(16):
        r, c = i % 4, i // 4
        out[r + 4 * ((c + r) % 4)] = byte(s, i)
    return from_bytes(out)


def xtime(b):
    # §4.2.1 multiplication by {02}: bit i of the result is b_(i-1), plus b_7 where {1b} has a 1
    b7 = b[7]
    return [b7, b[0] ^ b7, b[1], b[2] ^ b7, b[3] ^ b7, b[4], b[5], b[6]]


def gf_mul(b, c):
    """b * c for a constant c, §4.2: the sum of b * x^i over the bits of c."""
    out = [B.ZERO] * 8
    for i in range(8):
        if (c >> i) & 1:
            out = [x ^ y for x, y in zip(out, b)]
        b = xtime(b)
    return out


def _mix(s, m):
    out = []
    for c in range(4):
        col = [byte(s, 4 * c + r) for r in range(4)]
        for r in range(4):
            acc = [B.ZERO] * 8
            for k in range(4):
                acc = [x ^ y for x, y in zip(acc, gf_mul(col[k], m[(k - r) % 4]))]
            out += acc
    return out


def mix_columns(s):
    # §5.1.3: a(x) = {03}x^3 + {01}x^2 + {01}x + {02}; row r of the result is sum_k a_(k-r) s_k
    return _mix(s, [0x02, 0x03, 0x01, 0x01])


def inv_mix_columns(s):
    # §5.3.3: a^-1(x) = {0b}x^3 + {0d}x^2 + {09}x + {0e}
    return _mix(s, [0x0e, 0x0b, 0x0d, 0x09])


def xor(a, b):
    return [x ^ y for x, y in zip(a, b)]
