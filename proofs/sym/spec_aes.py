# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""spec_aes.py -- spec/aes.c transcribed over bit forms: KeyExpansion (FIPS 197 §5.2), Cipher (§5.1),
InvCipher (§5.3), ECB and CTR with inc32 (SP 800-38A §6.1, §6.5; SP 800-38D §6.2).

Line for line spec/aes.c's steps, so that it can be read against it; proofs/tests/check_spec.py runs
both on random keys and blocks and compares every byte (ctest: prove.spec_transcription).
"""
from . import aes_model as A
from . import bits as B


_KEYS = {}
_BLOCKS = {}


def key_expansion(key, key_len):
    """key: a list of 8*key_len bits. The words w[0..4(Nr+1)-1], each 4 bytes of 8 bits. Computed once
    per key (the obligations all use the same named key bits)."""
    k = tuple(key)
    r = _KEYS.get(k)
    if r is None:
        r = _key_expansion(key, key_len)
        _KEYS[k] = r
    return r


def _key_expansion(key, key_len):
    nk = key_len // 4
    nr = nk + 6
    w = [[key[32 * i + 8 * j:32 * i + 8 * j + 8] for j in range(4)] for i in range(nk)]
    rcon = 0x01
    for i in range(nk, 4 * (nr + 1)):
        temp = list(w[i - 1])
        if i % nk == 0:
            rotated = [temp[1], temp[2], temp[3], temp[0]]                     # RotWord
            temp = [B.table(b, A.SBOX, 8) for b in rotated]                    # SubWord
            temp[0] = A.xor(temp[0], B.const_bits(rcon, 8))
            rcon = A._xtime_int(rcon)
        elif nk > 6 and i % nk == 4:
            temp = [B.table(b, A.SBOX, 8) for b in temp]                       # SubWord
        w.append([A.xor(w[i - nk][j], temp[j]) for j in range(4)])
    return w, nr


def round_key(w, r):
    """Round key r as a 128-bit state: column c is w[4r + c] (§5.1.4)."""
    out = []
    for c in range(4):
        for j in range(4):
            out += w[4 * r + c][j]
    return out


def cipher(w, nr, block):
    s = A.xor(block, round_key(w, 0))
    for r in range(1, nr):
        s = A.xor(A.round_f(s), round_key(w, r))  # MixColumns(ShiftRows(SubBytes(s)))
    return A.xor(A.round_last(s), round_key(w, nr))  # ShiftRows(SubBytes(s))


def inv_cipher(w, nr, block):
    s = A.xor(block, round_key(w, nr))
    for r in range(nr - 1, 0, -1):
        s = A.inv_mix_columns(A.xor(A.inv_sub_bytes(A.inv_shift_rows(s)), round_key(w, r)))
    return A.xor(A.inv_sub_bytes(A.inv_shift_rows(s)), round_key(w, 0))


def _block(f, w, nr, block):
    key = (f.__name__, A.OPAQUE, id(w), tuple(block))
    r = _BLOCKS.get(key)
    if r is None:
        r = f(w, nr, block)
        _BLOCKS[key] = r
    return r


def ecb(key, key_len, data, nblocks, decrypt=False):
    w, nr = key_expansion(key, key_len)
    f = inv_cipher if decrypt else cipher
    out = []
    for j in range(nblocks):
        out += _block(f, w, nr, data[128 * j:128 * (j + 1)])
    return out


def inc32(block):
    """The last 4 bytes as a big-endian number, plus 1 mod 2^32."""
    word = []
    for i in (15, 14, 13, 12):
        word += block[8 * i:8 * i + 8]                  # LSB first: byte 15 holds the low bits
    word = B.add(word, B.const_bits(1, 32))
    out = list(block[:96])
    for i in (12, 13, 14, 15):
        k = 15 - i
        out += word[8 * k:8 * k + 8]
    return out


def ctr32(key, key_len, counter, data, nblocks):
    """(output, counter after): O_j = CIPH(T_j), C_j = P_j ^ O_j, T_(j+1) = inc32(T_j)."""
    w, nr = key_expansion(key, key_len)
    out = []
    for j in range(nblocks):
        out += A.xor(data[128 * j:128 * (j + 1)], _block(cipher, w, nr, counter))
        counter = inc32(counter)
    return out, counter
