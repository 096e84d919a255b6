/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * armv8_ghash.c — the GHASH and POLYVAL keys: H_1..H_16 (GHASH) or H_1..H_8 (POLYVAL) and their
 * half-swapped forms (struct armv8_hkey), computed once per key with PMULL. The updates are in
 * armv8_kernels.inc, whose header derives the product and the reduction used here.
 *
 * CPU features: FEAT_PMULL (VG_ARMV8_TARGET).
 */
#include "armv8.h"

/* dot(a, b) = a * b * x^-128 mod P (POLYVAL form); the reduction of armv8_kernels.inc. */
VG_ARMV8_INLINE uint8x16_t dot(uint8x16_t a, uint8x16_t b)
{
    const uint8x16_t c = vreinterpretq_u8_u64(vdupq_n_u64(0xc200000000000000ULL));
    uint8x16_t bs = vextq_u8(b, b, 8);
    uint8x16_t lo = armv8_pmull_lo(a, b), hi = armv8_pmull_hi(a, b);
    uint8x16_t mid = veorq_u8(armv8_pmull_lo(a, bs), armv8_pmull_hi(a, bs));
    uint8x16_t z = veorq_u8(veorq_u8(vextq_u8(lo, lo, 8), armv8_pmull_lo(lo, c)), mid);
    return veorq_u8(veorq_u8(hi, vextq_u8(z, z, 8)), armv8_pmull_lo(z, c));
}

/* h * x mod P (mulX_POLYVAL, RFC 8452 Appendix A): a one-bit shift across 128 bits, and if bit 127
   fell off, + x^128 mod P = x^127 + x^126 + x^121 + 1. Branch-free: the mask is bit 127 spread by
   an arithmetic shift. */
VG_ARMV8_INLINE uint8x16_t mul_x(uint8x16_t h)
{
    uint64x2_t v = vreinterpretq_u64_u8(h);
    uint64x2_t carry = vshrq_n_u64(v, 63); /* (bit 63, bit 127) at bit 0 of each lane */
    uint64x2_t shifted = vorrq_u64(vshlq_n_u64(v, 1), vextq_u64(vdupq_n_u64(0), carry, 1)); /* bit 63 -> 64 */
    int64x2_t top = vshrq_n_s64(vreinterpretq_s64_u64(v), 63);                               /* lane 1: -bit127 */
    uint64x2_t mask = vreinterpretq_u64_s64(vdupq_laneq_s64(top, 1));
    const uint64_t x128[2] = {1, 0xc200000000000000ULL};
    return vreinterpretq_u8_u64(veorq_u64(shifted, vandq_u64(mask, vld1q_u64(x128))));
}

VG_ARMV8_INLINE void store_powers(struct armv8_hkey *hk, uint8x16_t h, int npowers)
{
    uint8x16_t p = h;
    for (int k = 1; k <= npowers; k++) {
        if (k > 1) p = dot(p, h); /* H_k = H_(k-1) dot H */
        vst1q_u8(hk->h[k - 1][0], p);
        vst1q_u8(hk->h[k - 1][1], vextq_u8(p, p, 8));
    }
}

VG_ARMV8_TARGET
void vg_armv8_polyval_init(void *hkey, const uint8_t h[16])
{
    store_powers((struct armv8_hkey *)hkey, vld1q_u8(h), ARMV8_HPOWERS);
}

VG_ARMV8_TARGET
void vg_armv8_ghash_init(void *hkey, const uint8_t h[16])
{
    /* H' = rev(H) * x (RFC 8452 Appendix A; aesni_ghash.c section 2) */
    store_powers((struct armv8_hkey *)hkey, mul_x(vqtbl1q_u8(vld1q_u8(h), vld1q_u8(armv8_reverse_idx))),
                 ARMV8_GHASH_POWERS);
}
