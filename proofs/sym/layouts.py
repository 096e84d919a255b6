# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""layouts.py -- each implementation's AES schedule read back as FIPS 197 round keys.

A key object holds struct vg_aes_key_state (src/internal.h): the schedule starts at byte 64 of it,
for vg_aes_key and for the AEAD keys alike (their AES state comes first). The layouts are those
documented beside each schedule's struct; a misread layout makes the proof fail, never pass.
"""
from . import aes_model as A
from . import bits as B
from . import spec_aes as S

SCHED = 64


def aesni(mem, kobj, w, nr, decrypt):
    """aesni, vaes256, vaes512 (src/x86_64/aesni.h struct aesni_sched): enc[r] = K_r at 16r; with
    decryption keys, dec[0] = K_nr, dec[i] = InvMixColumns(K_(nr-i)), dec[nr] = K_0 at 240 + 16i."""
    got, want = [], []
    for r in range(nr + 1):
        got += mem.load(kobj + SCHED + 16 * r, 16)
        want += S.round_key(w, r)
    if decrypt:
        for i in range(nr + 1):
            got += mem.load(kobj + SCHED + 240 + 16 * i, 16)
            k = S.round_key(w, nr - i)
            want += k if i in (0, nr) else A.inv_mix_columns(k)
    return got, want


def portable(mem, kobj, w, nr, decrypt):
    """portable (src/portable/aes_bitsliced.c struct bs_sched): rk[r][b] is bit b of
    SR^-(r mod 4)(K_r) (+ {63} for r >= 1) in every one of the 8 lanes; lane j's byte (row, col) is at
    element e = (j & 1) + 2*r1 + 4*r0 (row = r0 + 2*r1), bit (j >> 2) + 2*((j >> 1) & 1) + 4*col of
    it. SR^-k(T)(row, col) = T(row, col - k*row). Decryption uses the same keys."""
    got, want = [], []
    for r in range(nr + 1):
        key = S.round_key(w, r)
        k = r % 4
        for b in range(8):
            word = mem.load(kobj + SCHED + (8 * r + b) * 16, 16)
            for j in range(8):
                for row in range(4):
                    for col in range(4):
                        r0, r1 = row % 2, row // 2
                        e = (j & 1) + 2 * r1 + 4 * r0
                        i = (j >> 2) + 2 * ((j >> 1) & 1) + 4 * col
                        got.append(word[16 * e + i])
                        src = row + 4 * ((col - k * row) % 4)
                        bit = key[8 * src + b]
                        if r >= 1 and (0x63 >> b) & 1:
                            bit = B.bnot(bit)
                        want.append(bit)
    return got, want


def armv8(mem, kobj, w, nr, decrypt):
    """armv8 and armv8-noeor3 (src/aarch64/armv8.h struct armv8_sched): the same layout as aesni's,
    enc[r] = K_r at 16r (the bytes AddRoundKey XORs, which AESE takes), dec[0] = K_nr, dec[i] =
    InvMixColumns(K_(nr-i)) (AESIMC), dec[nr] = K_0 at 240 + 16i; rounds at 480 (public)."""
    got, want = aesni(mem, kobj, w, nr, decrypt)
    got += mem.load(kobj + SCHED + 480, 4)
    want += B.const_bits(nr, 32)
    return got, want


READERS = {"portable": portable, "aesni": aesni, "vaes256": aesni, "vaes512": aesni}
READERS.update({"armv8": armv8, "armv8-noeor3": armv8})


def power8(mem, kobj, w, nr, decrypt):
    """power8, power9 (src/ppc64le/power8.h struct power8_sched): rk[r] = K_r at 16r as a register
    image in AES order stored with stvx, i.e. (little-endian) memory byte 15 - i holds byte i of K_r;
    key_len (16, 24, 32), from which the kernels take the rounds, at 240. No decryption keys: vncipher
    takes the encryption keys backwards, so the layout is the same with or without them."""
    got, want = [], []
    for r in range(nr + 1):
        got += mem.load(kobj + SCHED + 16 * r, 16)
        k = S.round_key(w, r)
        want += A.from_bytes(A.byte(k, 15 - i) for i in range(16))
    got += mem.load(kobj + SCHED + 240, 4)
    want += B.const_bits(4 * (nr - 6), 32)
    return got, want


READERS.update({"power8": power8, "power9": power8})


# ---- the GHASH/POLYVAL key (hkey, VG_HKEY_SIZE bytes): the powers' layout -------------------------
# Each writer maps the powers E_1..E_k (E_j the POLYVAL-field element the kernels multiply by for
# H^j: dot-powers of H for POLYVAL, of phi(H) for GHASH; spec_gf.to_polyval) to the whole hkey's
# bits. What an init leaves and what an update reads are both stated through this one function, so a
# wrong layout fails one of the two obligations, never both pass.
HKEY_SIZE = 1024  # src/internal.h VG_HKEY_SIZE


def _swap64(e):
    return e[64:] + e[:64]


def hkey_aesni(powers):
    """src/x86_64/aesni.h struct aesni_hkey: pow[j] = H_(j+1) at 16j, kara[j] = pow[j] ^ (its halves
    swapped) at 128 + 16j; the rest zero (the mode zeroes hkey before an init)."""
    assert len(powers) == 8
    out = []
    for e in powers:
        out += e
    for e in powers:
        out += [x ^ y for x, y in zip(e, _swap64(e))]
    return out + [B.ZERO] * (8 * HKEY_SIZE - len(out))


def _hkey_vaes(group):
    def write(powers):
        """src/x86_64/vaes_body.h struct hkey: desc[i] = H_(GROUP - i) at 16i for i < GROUP, then
        four zero entries; the rest zero."""
        assert len(powers) == group
        out = []
        for i in range(group):
            out += powers[group - 1 - i]
        return out + [B.ZERO] * (8 * HKEY_SIZE - len(out))
    return write


def _hkey_armv8(powers):
    """src/aarch64/armv8.h struct armv8_hkey: h[k-1][0] = H_k at 32(k-1), h[k-1][1] = H_k with its
    64-bit halves exchanged at 32(k-1) + 16; H_1..H_16 for GHASH, H_1..H_8 for POLYVAL; the rest zero."""
    out = []
    for e in powers:
        out += e + _swap64(e)
    return out + [B.ZERO] * (8 * HKEY_SIZE - len(out))


def _hkey_power8(powers):
    """src/ppc64le/power8.h struct power8_hkey, E_k = e1 x^64 + e0 (e0 the first 8 bytes: a register
    image stored with stvx is the little-endian 128-bit integer): for k = 1..8, lo[k-1] = e0 (the high
    half zero) at 16(k-1), mid[k-1] = e1 + e0 x^64 at 128 + 16(k-1), hi[k-1] = e1 x^64 at
    256 + 16(k-1); with 16 powers (GHASH), pair[q][0] = b0 + a0 x^64 and pair[q][1] = b1 + a1 x^64 at
    384 + 32q (+ 16), a = H_(16-2q), b = H_(15-2q). The rest zero (pair too, for POLYVAL)."""
    z = [B.ZERO] * 64
    lo = [e[:64] + z for e in powers[:8]]
    mid = [_swap64(e) for e in powers[:8]]
    hi = [z + e[64:] for e in powers[:8]]
    out = sum(lo + mid + hi, [])
    if len(powers) == 16:
        for q in range(8):
            a, b = powers[15 - 2 * q], powers[14 - 2 * q]
            out += b[:64] + a[:64] + b[64:] + a[64:]
    return out + [B.ZERO] * (8 * HKEY_SIZE - len(out))


def _hkey_portable(powers):
    """src/portable/ghash_ctmul.c struct ctmul_hkey (native little-endian words): pow[k-1] = E_k as
    three key words, lo = e0, hi = e1, mid = e0 ^ e1, at 216(k-1) + 72 * (0, 1, 2); a key word w is
    part[r] = w & HOLES_r with bits 0..3 cleared (8 bytes each), low_mask[i] = bit i of w spread to 64
    bits (i < 4), raw = w. The rest zero."""
    out = []
    for e in powers:
        e0, e1 = e[:64], e[64:]
        for w in (e0, e1, [x ^ y for x, y in zip(e0, e1)]):
            for r in range(4):
                out += [w[i] if i % 4 == r and i >= 4 else B.ZERO for i in range(64)]
            for i in range(4):
                out += [w[i]] * 64
            out += w
    return out + [B.ZERO] * (8 * HKEY_SIZE - len(out))


# implementation -> {field: number of powers}, writer of the whole hkey from E_1..E_k
HKEY = {"aesni": ({"ghash": 8, "polyval": 8}, hkey_aesni),
        "vaes256": ({"ghash": 16, "polyval": 16}, _hkey_vaes(16)),
        "vaes512": ({"ghash": 32, "polyval": 32}, _hkey_vaes(32))}
# the GHASH key holds H_9..H_16 as well, for the short whole-message GCM kernels and (power8) the
# stitched loop's pairs; POLYVAL's stops at H_8
for _impl in ("armv8", "armv8-noeor3"):
    HKEY[_impl] = ({"ghash": 16, "polyval": 8}, _hkey_armv8)
for _impl in ("power8", "power9"):
    HKEY[_impl] = ({"ghash": 16, "polyval": 8}, _hkey_power8)


HKEY["portable"] = ({"ghash": 4, "polyval": 4}, _hkey_portable)
HKEY["portable-noint128"] = HKEY["portable"]  # the same struct ctmul_hkey (its raw words are what that path reads)


def hkey(impl, field):
    """(k, writer): the number of powers impl's <field>_init stores, and the layout's writer."""
    counts, writer = HKEY[impl]
    return counts[field], writer
