/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * power8_ghash.c — GHASH (SP 800-38D §6.4) and POLYVAL (RFC 8452 §3) with vpmsumd, over ONE
 * multiplier: POLYVAL's.
 *
 * CPU features: ISA 2.07 vpmsumd and VSX loads (VG_POWER8_TARGET).
 *
 * 1. POLYVAL is vpmsumd's natural order
 * -------------------------------------
 * POLYVAL reads a block as a little-endian 128-bit integer (bit i = coefficient of x^i) in
 * GF(2^128) = GF(2)[x] / P, P = x^128 + x^127 + x^126 + x^121 + 1, and multiplies with
 * dot(a, b) = a b x^-128 mod P. vec_xl on little-endian ppc64le (lxvd2x + xxswapd) leaves the
 * register holding that integer (the register read big-endian as one 128-bit number), and vpmsumd
 * multiplies 64-bit integers carry-less with bit i = x^i in and out. Nothing is reflected.
 *
 * 2. GHASH through POLYVAL (RFC 8452 Appendix A)
 * ----------------------------------------------
 * GCM's bit order is reversed (x^(8j+k) is bit 7-k of byte j, field mod G = x^128 + x^7 + x^2 + x + 1).
 * Reading the block as a BIG-endian integer puts x^(8j+k) at integer bit 127 - (8j+k): the integer is
 * rev(a) = x^127 a(1/x). With a b = d + q G (deg d, q <= 127, 126),
 *     rev(a) rev(b) = x^254 (a b)(1/x) = x^127 rev(d) + [x^126 q(1/x)] [x^128 G(1/x)],
 * and x^128 G(1/x) = P, so rev(a b mod G) = rev(a) rev(b) x^-127 = dot(rev(a), rev(b) x).
 * One GHASH multiplication by H is one POLYVAL dot by H' = rev(H) x mod P. The big-endian integer of a
 * block is exactly the AES-order register (power8.h), so GHASH loads blocks as the AES kernels do,
 * and in GCM the ciphertext in AES order goes straight into vpmsumd.
 *
 * 3. Aggregation: one reduction per 8 blocks
 * ------------------------------------------
 * With H_k = H dot ... dot H (k factors) = H^k x^(-128(k-1)), eight steps acc = dot(acc ^ X_j, H) are
 *     acc' = [ (acc ^ X_1) H_8 + X_2 H_7 + ... + X_8 H_1 ] x^-128 mod P,
 * eight unreduced 256-bit products summed and reduced once (reduction is linear). A remainder of
 * r < 8 blocks uses H_r..H_1 the same way. Each product a h = a1 h1 x^128 + (a1 h0 + a0 h1) x^64 + a0 h0
 * is three vpmsumd against the precomputed (0, h0), (h0, h1), (h1, 0): vpmsumd XORs the products of
 * the two doubleword lanes, so the middle term is one instruction and needs no Karatsuba fix-up
 * (Karatsuba would save nothing: the middle product already costs one vpmsumd).
 *
 * 4. Montgomery reduction (p8_gf_reduce in power8.h)
 * --------------------------------------------------
 * The sums give T = hi x^128 + mid x^64 + lo; P = 1 + c x^64 + x^128 with c = x^63 + x^62 + x^57, so
 * x^-64 = x^64 + c mod P and, for a 64-bit u, u x^-64 = u x^64 + u c (degree < 128). Hence
 *     T x^-128 = hi + (mid + lo x^-64) x^-64,   lo x^-64 = l1 + l0 x^64 + l0 c,
 * and S = mid + lo x^-64 (degree < 128) is reduced the same way: S x^-64 = s1 + s0 x^64 + s0 c. Each
 * step is one vpmsumd against (0, c) and one doubleword swap (vsldoi 8); the result has degree < 128
 * with no further step. (Before 2026-12-03: the middle term split into lo and hi first, then two
 * folds of the low half: 11 instructions instead of 8, the same value.)
 */
#include "power8.h"

/* Stores H_1..H_8 in the three forms of struct power8_hkey, for the POLYVAL key (h1, h0); with
   pairs (GHASH), also H_1..H_16 in the paired form of the stitched GCM loop. */
VG_POWER8_TARGET
static void store_powers(struct power8_hkey *hk, uint64_t h1, uint64_t h0, int pairs)
{
    p8_u8 p = (p8_u8)(p8_u64){h0, h1};
    uint64_t lo[2 * POWER8_PAIRS + 1], hi[2 * POWER8_PAIRS + 1];
    int last = pairs ? 2 * POWER8_PAIRS : POWER8_HPOWERS;
    for (int k = 1; k <= last; k++) {
        if (k > 1) {
            struct power8_gf_sum s;
            p8_gf_sum_zero(&s);
            p8_gf_mul_add(&s, hk, p, 1); /* H_k = H_(k-1) dot H (H_1 is stored first) */
            p = p8_gf_reduce(&s);
        }
        uint64_t p0 = vec_extract((p8_u64)p, 0), p1 = vec_extract((p8_u64)p, 1);
        lo[k] = p0;
        hi[k] = p1;
        if (k > POWER8_HPOWERS) continue;
        p8_store_image((p8_u8)(p8_u64){p0, 0}, hk->lo[k - 1]);
        p8_store_image((p8_u8)(p8_u64){p1, p0}, hk->mid[k - 1]);
        p8_store_image((p8_u8)(p8_u64){0, p1}, hk->hi[k - 1]);
    }
    if (!pairs) return;
    /* (C element 0 is the low doubleword.) block 2q takes a = H_(16-2q), block 2q+1 b = H_(15-2q) */
    for (int q = 0; q < POWER8_PAIRS; q++) {
        int a = 16 - 2 * q, b = 15 - 2 * q;
        p8_store_image((p8_u8)(p8_u64){lo[b], lo[a]}, hk->pair[q][0]);
        p8_store_image((p8_u8)(p8_u64){hi[b], hi[a]}, hk->pair[q][1]);
    }
    vg_wipe(lo, sizeof lo);
    vg_wipe(hi, sizeof hi);
}

void P8_FN(polyval_init)(void *hkey, const uint8_t h[16])
{
    struct power8_hkey *hk = (struct power8_hkey *)hkey;
    memset(hk, 0, sizeof *hk);
    store_powers(hk, vg_load64_le(h + 8), vg_load64_le(h), 0);
}

void P8_FN(ghash_init)(void *hkey, const uint8_t h[16])
{
    struct power8_hkey *hk = (struct power8_hkey *)hkey;
    memset(hk, 0, sizeof *hk);
    /* rev(H) is H's big-endian value; H' = rev(H) x mod P (section 2): shift left one bit and, if
       x^127 fell off, add x^128 mod P = x^127 + x^126 + x^121 + 1, through a mask, not a branch. */
    uint64_t hi = vg_load64_be(h), lo = vg_load64_be(h + 8);
    uint64_t mask = (uint64_t)0 - (hi >> 63);
    hi = (hi << 1) | (lo >> 63);
    lo <<= 1;
    hi ^= mask & 0xc200000000000000ULL;
    lo ^= mask & 1;
    store_powers(hk, hi, lo, 1);
}

/* acc after n <= 8 more blocks at in (reverse = 1: GHASH, blocks read big-endian; 0: POLYVAL). */
VG_POWER8_INLINE p8_u8 hash_n(const struct power8_hkey *hp, const struct p8_offsets *off, p8_u8 acc,
                              const uint8_t *in, int n, int ghash)
{
    struct power8_gf_sum s;
    p8_gf_sum_zero(&s);
    /* X_j H_(n-j) for j = 1..n-1, then j = 0: the product that waits for acc comes last. */
    for (int i = 1; i <= n; i++) {
        int j = i == n ? 0 : i;
        /* GHASH: AES order (power8: lxvw4x + vperm; power9: lxvb16x); POLYVAL: the little-endian
           integer (power8: lxvd2x + xxswapd; power9: lxvx) */
        p8_u8 x = ghash ? p8_data_to_aes(p8_load_data_at(in, off->o[j])) : vec_xl(off->o[j], in);
        if (j == 0) x = vec_xor(x, acc);
        p8_gf_mul_add_at(&s, hp, off, x, n - j);
    }
    return p8_gf_reduce(&s);
}

VG_POWER8_INLINE void update(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks,
                             int ghash)
{
    const struct power8_hkey *hp = (const struct power8_hkey *)hkey;
    struct p8_offsets off;
    p8_offsets_init(&off);
    p8_u8 a = ghash ? p8_load_aes(acc) : vec_xl(0, acc);
    for (; nblocks >= 8; nblocks -= 8, in += 128) a = hash_n(hp, &off, a, in, 8, ghash);
    switch (nblocks) { /* public length: one aggregated step for the remainder */
    case 7: a = hash_n(hp, &off, a, in, 7, ghash); break;
    case 6: a = hash_n(hp, &off, a, in, 6, ghash); break;
    case 5: a = hash_n(hp, &off, a, in, 5, ghash); break;
    case 4: a = hash_n(hp, &off, a, in, 4, ghash); break;
    case 3: a = hash_n(hp, &off, a, in, 3, ghash); break;
    case 2: a = hash_n(hp, &off, a, in, 2, ghash); break;
    case 1: a = hash_n(hp, &off, a, in, 1, ghash); break;
    default: break;
    }
    if (ghash) p8_store_aes(a, acc);
    else vec_xst(a, 0, acc);
}

VG_POWER8_TARGET
void P8_FN(polyval_update)(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks)
{
    update(hkey, acc, in, nblocks, 0);
}

/* As for CTR (power8_aes.c): fewer than 8 blocks (GCM's length block, a partial block) take a
   function without the 8-block loop and its callee-saved registers. */
VG_POWER8_TARGET __attribute__((noinline))
static void ghash_update_short(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks)
{
    update(hkey, acc, in, nblocks & 7, 1);
}

VG_POWER8_TARGET __attribute__((noinline))
static void ghash_update_long(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks)
{
    update(hkey, acc, in, nblocks, 1);
}

/* One block (GCM's length block): acc = (acc ^ X) dot H, straight. */
VG_POWER8_TARGET __attribute__((noinline))
static void ghash_update_one(const void *hkey, uint8_t acc[16], const uint8_t *in)
{
    struct power8_gf_sum s;
    p8_gf_sum_zero(&s);
    p8_gf_mul_add(&s, (const struct power8_hkey *)hkey, vec_xor(p8_load_aes(acc), p8_load_aes(in)), 1);
    p8_store_aes(p8_gf_reduce(&s), acc);
}

VG_POWER8_TARGET
void P8_FN(ghash_update)(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks)
{
    if (nblocks == 1) ghash_update_one(hkey, acc, in); /* public length */
    else if (nblocks < 8) ghash_update_short(hkey, acc, in, nblocks); /* public length */
    else ghash_update_long(hkey, acc, in, nblocks);
}
