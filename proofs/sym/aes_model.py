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


# ---- rounds as uninterpreted functions ------------------------------------------------------------
# The rounds without their keys, F = MixColumns o SubBytes o ShiftRows (AESENC's and vcipher's, and
# FIPS 197's round: SubBytes is bytewise, so it commutes with the byte permutation ShiftRows) and
# L = SubBytes o ShiftRows (the last round's, and AESE's after its EOR). Normally they are computed.
# With OPAQUE set (obligations.opaque_rounds), each is one uninterpreted word node of its input
# (bits.opaque): the instruction models and the spec's cipher then build the same terms from the same
# round keys and blocks, and an identity of those terms holds for every F and L, so for AES's. That is
# what makes thousands of chained blocks affordable (CCM's CBC-MAC over 2^16 - 2^8 bytes of AAD and
# more), where each S-box of every round is otherwise a lut of its own.
OPAQUE = False


def round_f(s):
    if OPAQUE:
        return B.opaque("aes_round", [s], 128)
    return mix_columns(sub_bytes(shift_rows(s)))


def round_last(s):
    if OPAQUE:
        return B.opaque("aes_round_last", [s], 128)
    return sub_bytes(shift_rows(s))


def mix_columns_of(s):
    """AESMC: MixColumns; with OPAQUE, of an AESE's output L(x), F(x) (MixColumns o L = F), else
    the linear map itself."""
    if OPAQUE:
        n = B.word_node_of(s)
        if n is not None and n[0] == "aes_round_last":
            return round_f(list(n[1][0]))
    return mix_columns(s)


# Their values on integers (byte i of the state = bits 8i..8i+7), for bits.evaluate: the same steps on
# bytes, as fast as a counterexample over thousands of rounds needs (tests/test_bits.py checks them
# against the functions above).
def _xt(b):
    return ((b << 1) ^ (0x1b if b & 0x80 else 0)) & 0xff


def _int_last(v):
    s = v.to_bytes(16, "little")
    return bytes(SBOX[s[(i % 4) + 4 * (((i // 4) + (i % 4)) % 4)]] for i in range(16))


def _int_round(v):
    s = _int_last(v)
    out = bytearray(16)
    for c in range(4):
        a = s[4 * c:4 * c + 4]
        t = a[0] ^ a[1] ^ a[2] ^ a[3]
        for r in range(4):  # 2 a_r + 3 a_(r+1) + a_(r+2) + a_(r+3) = a_r + t + 2 (a_r + a_(r+1))
            out[4 * c + r] = a[r] ^ t ^ _xt(a[r] ^ a[(r + 1) % 4])
    return int.from_bytes(out, "little")


B.GENERIC_FNS["aes_round"] = _int_round
B.GENERIC_FNS["aes_round_last"] = lambda v: int.from_bytes(_int_last(v), "little")


def xor(a, b):
    return [x ^ y for x, y in zip(a, b)]
