# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""spec_ccm.py -- CCM generation-encryption and decryption-verification (SP 800-38C §6.1, §6.2, with
the formatting and counter functions of its Appendix A) over the prover's bits.

Bits are in memory order (bits[8j + k] = bit k of byte j), as spec_gcm's. The block cipher is
spec_aes.cipher. Nonce N of n bytes, q = 15 - n, tag of t bytes, AAD of a bytes, payload of p bytes:

    B_0 = flags || N || [p]_8q,  flags = 64 * (a > 0) + 8 * ((t - 2) / 2) + (q - 1)     (A.2.1)
    then, if a > 0: enc(a) || A zero-padded to whole blocks, enc(a) = [a]_16 below 2^16 - 2^8,
    0xff 0xfe [a]_32 below 2^32, else 0xff 0xff [a]_64                                   (A.2.2)
    then P zero-padded to whole blocks                                                  (A.2.3)
    Y_0 = CIPH(B_0), Y_i = CIPH(B_i ^ Y_(i-1)), T = MSB_t(Y_r)                          (§6.1 steps 3-5)
    Ctr_j = (q - 1) || N || [j]_8q                                                       (A.3)
    S_j = CIPH(Ctr_j); C = P ^ MSB_p(S_1 || S_2 || ..), tag = T ^ MSB_t(S_0)             (§6.1 steps 6-8)

Decryption-verification (§6.2) computes the same from the recovered payload P = C ^ MSB_p(S_1 ..)
and compares the tag. Nothing here depends on vg's code: the counters are CCM's q-byte ones, not
the inc32 the kernels use (ccm.c argues the two agree while the low 32 bits do not wrap; the proofs
check that on the run, at the lengths they cover).
"""
from . import bits as B
from . import spec_aes as S


def _bytes(v, n):
    """[v]_8n: n bytes, big-endian, in memory-order bits."""
    out = []
    for i in range(n):
        out += B.const_bits((v >> (8 * (n - 1 - i))) & 0xff, 8)
    return out


def _blocks(bits):
    n = (len(bits) + 127) // 128
    pad = list(bits) + [B.ZERO] * (128 * n - len(bits))
    return [pad[128 * i:128 * (i + 1)] for i in range(n)]


def aad_length(a):
    """The encoding of a > 0 that starts the associated data (A.2.2)."""
    if a < (1 << 16) - (1 << 8):
        return _bytes(a, 2)
    if a < (1 << 32):
        return _bytes(0xfffe, 2) + _bytes(a, 4)
    return _bytes(0xffff, 2) + _bytes(a, 8)


def format_blocks(nonce, aad, payload, tag_len):
    """B_0, B_1, .., B_r: the formatting function of Appendix A.2 (bits, not bytes, in and out)."""
    n, a, p = len(nonce) // 8, len(aad) // 8, len(payload) // 8
    q = 15 - n
    flags = (64 if a else 0) + 8 * ((tag_len - 2) // 2) + (q - 1)
    b0 = B.const_bits(flags, 8) + list(nonce) + _bytes(p, q)
    out = [b0]
    if a:
        out += _blocks(aad_length(a) + list(aad))
    return out + _blocks(payload)


def counter_block(nonce, j):
    """Ctr_j (A.3): flags' = q - 1, then N, then [j]_8q."""
    q = 15 - len(nonce) // 8
    return B.const_bits(q - 1, 8) + list(nonce) + _bytes(j, q)


def cbc_mac(w, nr, blocks_):
    y = [B.ZERO] * 128
    for b in blocks_:
        y = S._block(S.cipher, w, nr, [u ^ v for u, v in zip(b, y)])
    return y


def ccm(key, key_len, nonce, aad, data, tag_len, decrypt=False):
    """(output, tag of tag_len bytes): the ciphertext and tag of §6.1 for data = P, or with decrypt the
    payload of §6.2 for data = C and the tag it expects."""
    w, nr = S.key_expansion(key, key_len)
    ks = []
    for j in range(1, (len(data) + 127) // 128 + 1):
        ks += S._block(S.cipher, w, nr, counter_block(nonce, j))
    out = [x ^ y for x, y in zip(data, ks)]
    payload = out if decrypt else data
    t = cbc_mac(w, nr, format_blocks(nonce, aad, payload, tag_len))[:8 * tag_len]
    s0 = S._block(S.cipher, w, nr, counter_block(nonce, 0))
    return out, [x ^ y for x, y in zip(t, s0)]
