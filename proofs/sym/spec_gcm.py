# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""spec_gcm.py -- GCM-AE and GCM-AD (SP 800-38D §7.1, §7.2) over the prover's bits.

Bits are in memory order (bits[8j + k] = bit k of byte j), as spec_gf's blocks. The block cipher is
spec_aes.cipher; GHASH_H is written with the powers of H as given blocks, in the aggregated form of
spec_gf.aggregated with the group sizes given:

    GHASH over X_1..X_m = sum_i X_i * H^(m + 1 - i)   (Algorithm 2, unrolled),

and a split into groups r_1 + r_2 + ... = m evaluates the same sum as
    acc_g = acc_(g-1) * H^(r_g) + sum_(j <= r_g) X_(s + j) * H^(r_g + 1 - j)
whatever the split (distributivity and H^a H^b = H^(a+b)), which is the paper step the obligations
rest on for the AEADs: the kernels' group sizes are public functions of the lengths, taken from the
run (obligations.ob_gcm) or from each kernel's documented shape, and the powers are free symbols
that the key set-up obligations (gf.<impl>.gcm_key) prove to be H^1..H^k. check_spec.py checks
these functions against spec/modes.c on random inputs with the true powers.
"""
from . import bits as B
from . import spec_aes as S
from . import spec_gf as F

ZERO_BLOCK = [B.ZERO] * 128


def blocks(bits):
    """bits zero-padded to whole blocks (the 0^v and 0^u of §7.1 step 5), as a list of blocks."""
    n = (len(bits) + 127) // 128
    pad = list(bits) + [B.ZERO] * (128 * n - len(bits))
    return [pad[128 * i:128 * (i + 1)] for i in range(n)]


def be64(v):
    """[v]_64 as 8 bytes, big-endian, in memory-order bits."""
    out = []
    for i in range(8):
        out += B.const_bits((v >> (8 * (7 - i))) & 0xff, 8)
    return out


def ghash(xs, powers, groups):
    """GHASH_H(X_1 || ... || X_m) from the zero block, with powers[j - 1] standing for H^j."""
    if not xs:
        return list(ZERO_BLOCK)
    if groups and max(groups) == len(powers) + 1:
        # a group one block longer than the table: H^(k+1) = H^k * H, made from the table as VAES's
        # whole-groups seal makes it (vaes_body.h gf_hash_group_len: its last group and the length
        # block in one sum)
        powers = list(powers) + [F.ghash_mul(powers[-1], powers[0])]
    return F.aggregated(F.ghash_mul, ZERO_BLOCK, xs, powers, groups)


def j0(w, nr, iv, powers, groups):
    """§7.1 step 2: IV || 0^31 || 1 for a 96-bit IV, else GHASH_H(IV || 0^(s+64) || [len(IV)]_64)."""
    if len(iv) == 96:
        return list(iv) + B.const_bits(0, 24) + B.const_bits(1, 8)
    xs = blocks(iv) + [be64(0) + be64(len(iv))]
    return ghash(xs, powers, groups)


def gctr(w, nr, icb, data):
    """GCTR_K(ICB, X) (§6.5): X xor the keystream CIPH(ICB), CIPH(inc32(ICB)), .., last block cut."""
    out = []
    cb = icb
    for i in range(0, len(data), 128):
        ks = S._block(S.cipher, w, nr, cb)
        chunk = data[i:i + 128]
        out += [x ^ y for x, y in zip(chunk, ks)]
        cb = S.inc32(cb)
    return out


def tag_input(aad, c):
    """A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64 as blocks (§7.1 step 5)."""
    return blocks(aad) + blocks(c) + [be64(len(aad)) + be64(len(c))]


def gcm(key, key_len, iv, aad, data, powers, j0_groups, s_groups, decrypt=False):
    """(output, the full 128-bit tag): GCM-AE_K(IV, P, A) with data = P, or with decrypt the
    plaintext of GCM-AD_K(IV, C, A, T) with data = C and the tag it expects (§7.2 steps 3-8)."""
    w, nr = S.key_expansion(key, key_len)
    j = j0(w, nr, iv, powers, j0_groups)
    out = gctr(w, nr, S.inc32(j), data)
    c = data if decrypt else out
    s = ghash(tag_input(aad, c), powers, s_groups)
    t = [x ^ y for x, y in zip(S._block(S.cipher, w, nr, j), s)]
    return out, t
