# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""spec_siv.py -- AES-GCM-SIV (RFC 8452 §4, §5) over the prover's bits.

Bits are in memory order (bits[8j + k] = bit k of byte j), as spec_gf's blocks: RFC 8452's byte
strings are little-endian integers, so LE32(i) is bits 0..31 of a block as they are, and "the most
significant bit of the last byte" is bit 127.

    derive_keys: block i = E_K(LE32(i) || nonce), i = 0 .. 1 + key_len / 8; the first 8 bytes of
                 blocks 0, 1 are the POLYVAL key H, those of blocks 2.. the encryption key K_enc (for
                 a 24-byte key blocks 2, 3, 4: the extension src/modes/gcm_siv.c and spec/modes.c
                 describe, OpenSSL 3.2's AES-192-GCM-SIV);
    S_s        = POLYVAL(H, A zero-padded || P zero-padded || LE64(8 len(A)) || LE64(8 len(P)));
    tag        = E_Kenc((S_s ^ (nonce || 0^32)) with bit 127 cleared);
    C          = P ^ the keystream E_Kenc(CB_i), CB_0 = tag with bit 127 set, CB_(i+1) = CB_i with
                 its first 4 bytes, a little-endian integer, plus 1 mod 2^32; the last block cut.
Open (§5) decrypts with CB_0 from the received tag, then computes the tag of the plaintext.

POLYVAL is written as spec_gcm writes GHASH: with the powers of H as given blocks (powers[j - 1]
standing for dot-power H^j) in the aggregated form of spec_gf.aggregated with the group sizes given.
A split into groups r_1 + r_2 + ... = m evaluates POLYVAL's Horner loop S_j = dot(S_(j-1) + X_j, H)
whatever the split (distributivity, and dot-powers multiply as H^a . H^b = H^(a+b) since dot is
associative and commutative), the paper step of spec_gcm. check_spec.py checks these functions
against spec/modes.c's spec_aes_gcm_siv_seal on random inputs with the true powers, in random splits.
"""
from . import bits as B
from . import spec_aes as S
from . import spec_gf as F

ZERO_BLOCK = [B.ZERO] * 128


def le32(v):
    return B.const_bits(v, 32)


def derive_keys(key, key_len, nonce):
    """(H, K_enc) of §4 derive_keys, as bits: H 128 bits, K_enc 8 * key_len bits."""
    w, nr = S.key_expansion(key, key_len)
    halves = []
    for i in range(2 + key_len // 8):
        halves.append(S._block(S.cipher, w, nr, le32(i) + list(nonce))[:64])
    return halves[0] + halves[1], sum(halves[2:], [])


def blocks(bits):
    """bits zero-padded to whole blocks, as a list of blocks."""
    n = (len(bits) + 127) // 128
    pad = list(bits) + [B.ZERO] * (128 * n - len(bits))
    return [pad[128 * i:128 * (i + 1)] for i in range(n)]


def polyval_input(aad, data):
    """A padded || P padded || LE64(8 len(A)) || LE64(8 len(P)) as blocks (lengths in bits here)."""
    return blocks(aad) + blocks(data) + [B.const_bits(len(aad), 64) + B.const_bits(len(data), 64)]


def polyval(xs, powers, groups):
    """POLYVAL(H, X_1, .., X_m) from the zero block, powers[j - 1] standing for H^j."""
    return F.aggregated(F.dot, ZERO_BLOCK, xs, powers, groups)


def inc_le32(block):
    """The first 4 bytes as a little-endian number, plus 1 mod 2^32."""
    return B.add(block[:32], le32(1)) + list(block[32:])


def ctr(w, nr, cb, data):
    """data ^ the keystream E(CB_0), E(CB_1), .. (CB by inc_le32), the last block cut."""
    out = []
    for i in range(0, len(data), 128):
        ks = S._block(S.cipher, w, nr, cb)
        out += [x ^ y for x, y in zip(data[i:i + 128], ks)]
        cb = inc_le32(cb)
    return out


def tag_of(w, nr, nonce, s):
    """E_Kenc((S_s ^ (nonce || 0^32)) with bit 127 cleared)."""
    t = [x ^ y for x, y in zip(s, list(nonce) + [B.ZERO] * 32)]
    t[127] = B.ZERO
    return S._block(S.cipher, w, nr, t)


def siv(key, key_len, nonce, aad, data, powers, groups, decrypt=False, tag=None):
    """(output, tag): the seal of §4 (data = P: ciphertext and tag) or with decrypt the open of §5
    (data = C, tag the received one: the plaintext and the tag it expects). powers: H^1..H^k (free
    blocks in the obligations, for H = derive_keys' H); groups: POLYVAL's split of the blocks."""
    _, kenc = derive_keys(key, key_len, nonce)
    w, nr = S.key_expansion(kenc, key_len)
    if decrypt:
        cb = list(tag[:127]) + [B.ONE]
        out = ctr(w, nr, cb, data)
        s = polyval(polyval_input(aad, out), powers, groups)
        return out, tag_of(w, nr, nonce, s)
    s = polyval(polyval_input(aad, data), powers, groups)
    t = tag_of(w, nr, nonce, s)
    return ctr(w, nr, t[:127] + [B.ONE], data), t
