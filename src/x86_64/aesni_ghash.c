/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * aesni_ghash.c — GHASH (SP 800-38D §6.4) and POLYVAL (RFC 8452 §3) with PCLMULQDQ, over ONE
 * multiplier: POLYVAL's.
 *
 * CPU features: PCLMULQDQ, SSSE3 (pshufb), SSE2 (VG_AESNI_TARGET).
 *
 * 1. POLYVAL is pclmulqdq's natural order
 * ----------------------------------------
 * POLYVAL reads a 16-byte block as a little-endian 128-bit integer whose bit i is the coefficient of
 * x^i, in GF(2^128) = GF(2)[x] / P, P = x^128 + x^127 + x^126 + x^121 + 1, and multiplies with
 *     dot(a, b) = a * b * x^-128 mod P.
 * An XMM register loaded from the block holds exactly that integer (bit i of the register is bit i of
 * the integer), and pclmulqdq multiplies 64-bit halves with bit i = coefficient of x^i in and out. So
 * for POLYVAL the register IS the polynomial; nothing is reflected.
 *
 * 2. GHASH through POLYVAL (RFC 8452 Appendix A)
 * ----------------------------------------------
 * GCM's bit order is the reverse: coefficient x^(8j+k) is bit 7-k of byte j, in the field mod
 * G = x^128 + x^7 + x^2 + x + 1. Byte-reverse the block (pshufb) and read it little-endian: byte j goes
 * to integer byte 15-j, so x^(8j+k) lands on integer bit 8(15-j) + 7-k = 127 - (8j+k). The register
 * then holds rev(a) = x^127 * a(1/x), the coefficient-reversed polynomial.
 * Products: for a, b of degree <= 127, let a*b = d + q*G with deg d <= 127 (d = a*b mod G) and
 * deg q <= 126. Then
 *     rev(a) * rev(b) = x^254 * (a*b)(1/x) = x^127 * rev(d) + [x^126 q(1/x)] * [x^128 G(1/x)],
 * and x^128 G(1/x) = 1 + x^121 + x^126 + x^127 + x^128 = P. So mod P,
 *     rev(a*b mod G) = rev(a) * rev(b) * x^-127 = dot(rev(a), rev(b) * x).
 * The reversal maps GHASH's field onto POLYVAL's, and one GHASH multiplication by H is one POLYVAL
 * dot by H' = rev(H) * x mod P (mulX_POLYVAL of ByteReverse(H), as RFC 8452 Appendix A states).
 * Applied to every step acc = (acc ^ X) * H, the GHASH accumulator is ByteReverse of a POLYVAL
 * accumulator keyed with H'. So ghash_init stores H' and ghash_update byte-reverses acc and every
 * block on the way in and acc on the way out; everything else is shared.
 *
 * 3. Aggregation: one reduction per 8 blocks
 * ------------------------------------------
 * With H_k = H dot H dot ... (k factors) = H^k x^(-128(k-1)), eight steps of acc = dot(acc ^ X_j, H)
 * unroll to
 *     acc' = dot(acc ^ X_1, H_8) ^ dot(X_2, H_7) ^ ... ^ dot(X_8, H_1)
 *          = [ (acc ^ X_1) H_8 + X_2 H_7 + ... + X_8 H_1 ] * x^-128 mod P,
 * and since reduction is linear we add the eight unreduced 256-bit products and reduce once.
 * hkey holds H_1..H_8 (struct aesni_hkey). A remainder of r < 8 blocks uses H_r..H_1 the same way.
 *
 * 4. Karatsuba
 * ------------
 * a * b = a1 b1 x^128 + [(a0 + a1)(b0 + b1) + a0 b0 + a1 b1] x^64 + a0 b0 (a = a1 x^64 + a0): three
 * pclmulqdq per block instead of four. (b0 + b1) is precomputed per power (kara[]); (a0 + a1) costs a
 * pshufd and a pxor, cheaper than a pclmulqdq on every CPU with AES-NI (pclmulqdq issues at most one
 * or two per cycle; the shuffle and XOR go to other ports). The three sums are recombined once per
 * reduction (aesni_gf_reduce). Measured on the AMD EPYC (Zen-class) development machine, where
 * pclmulqdq issues once per 2 cycles: GHASH over 16 KiB 8.8 GB/s with Karatsuba against 6.6 GB/s with
 * four multiplies per block, and the fused GCM seal 5.8 against 4.7 GB/s.
 *
 * 5. Montgomery reduction (aesni_gf_reduce)
 * -----------------------------------------
 * Wanted: T * x^-128 mod P for the 256-bit T = T1 x^128 + L1 x^64 + L0. Adding multiples of P does not
 * change T mod P; we add (L0 + M1 x^64) * P chosen so that the low 128 bits vanish, then divide
 * exactly by x^128. P = 1 + c * x^64 + x^128 with c = x^57 + x^62 + x^63 (0xc200000000000000):
 *   fold 1: L0 * P = L0 + (L0 c) x^64 + L0 x^128 clears bits 0..63 and leaves M1 = L1 ^ lo64(L0 c) at
 *           x^64 and L0 ^ hi64(L0 c) at x^128;
 *   fold 2: M1 x^64 * P = M1 x^64 + (M1 c) x^128 + M1 x^192 clears bits 64..127.
 * Two pclmulqdq of 64x64 bits each. The result has degree < 128 because T has degree <= 254 and we
 * divided by x^128, so it is fully reduced.
 *
 * Register use in the 8-block loop: acc, x (the block being multiplied), its Karatsuba half-sum, the
 * three partial sums lo/hi/mid, and H_k / kara_k loaded per block.
 */
#include "aesni.h"

/* H * x mod P (mulX_POLYVAL): shift left one bit across 128 bits; if bit 127 fell off, add
   x^128 mod P = x^127 + x^126 + x^121 + 1 (0xc2000000000000000000000000000001). Branch-free: the
   mask is the sign of the top dword broadcast. */
VG_AESNI_INLINE __m128i mul_x(__m128i h)
{
    __m128i top = _mm_shuffle_epi32(_mm_srai_epi32(h, 31), 0xff); /* all ones iff bit 127 set */
    __m128i shifted = _mm_or_si128(_mm_slli_epi64(h, 1), _mm_srli_epi64(_mm_slli_si128(h, 8), 63));
    const __m128i x128 = _mm_set_epi64x((long long)0xc200000000000000ULL, 1);
    return _mm_xor_si128(shifted, _mm_and_si128(top, x128));
}

/* a dot b (one POLYVAL product, reduced) */
VG_AESNI_INLINE __m128i dot(__m128i a, __m128i b)
{
    struct aesni_gf_sum s;
    aesni_gf_sum_zero(&s);
    aesni_gf_mul_add(&s, a, b, _mm_xor_si128(b, _mm_shuffle_epi32(b, 0x4e)));
    return aesni_gf_reduce(&s);
}

/* a dot a with the second fold's product split in two, so the chain after the square is three
   multiplies deep with no XOR between them (vaes_body.h, square_lanes: 17 cycles instead of 21 on
   Zen 5): with t = L0 c, result = hi ^ lo ^ swap(t) ^ L1 c ^ lo64(t) c. */
VG_AESNI_INLINE __m128i square(__m128i a)
{
    const __m128i poly = _mm_set_epi64x((long long)0xc200000000000000ULL, 0);
    __m128i lo = _mm_clmulepi64_si128(a, a, 0x00), hi = _mm_clmulepi64_si128(a, a, 0x11);
    __m128i t = _mm_clmulepi64_si128(lo, poly, 0x10); /* L0 c */
    __m128i u = _mm_clmulepi64_si128(lo, poly, 0x11); /* L1 c */
    __m128i w = _mm_clmulepi64_si128(t, poly, 0x10);  /* lo64(t) c */
    return _mm_xor_si128(_mm_xor_si128(_mm_xor_si128(hi, lo), _mm_xor_si128(u, _mm_shuffle_epi32(t, 0x4e))), w);
}

/* Stores H_1..H_8 and their Karatsuba halves for the POLYVAL key h (register form). The powers are
   made in three dependent steps rather than seven (H_k = H_(k-1) dot H one after the other was the
   slowest part of GCM's key set-up): H_2 = H_1 H_1; then H_3 = H_2 H_1 and H_4 = H_2 H_2; then
   H_(4+j) = H_4 H_j for j = 1..4, independent products that overlap in the multiplier. */
VG_AESNI_INLINE void store_powers(struct aesni_hkey *hk, __m128i h)
{
    __m128i p[AESNI_HPOWERS];
    p[0] = h;
    p[1] = square(h);
    p[2] = dot(p[1], h);
    p[3] = square(p[1]);
    for (int j = 0; j < 4; j++) p[4 + j] = dot(p[3], p[j]);
    for (int k = 0; k < AESNI_HPOWERS; k++) {
        _mm_storeu_si128((__m128i *)hk->pow[k], p[k]);
        /* h0 ^ h1 in both halves */
        _mm_storeu_si128((__m128i *)hk->kara[k], _mm_xor_si128(p[k], _mm_shuffle_epi32(p[k], 0x4e)));
    }
}

VG_AESNI_TARGET
void vg_aesni_polyval_init(void *hkey, const uint8_t h[16])
{
    struct aesni_hkey *hk = (struct aesni_hkey *)hkey;
    store_powers(hk, _mm_loadu_si128((const __m128i *)h));
}

VG_AESNI_TARGET
void vg_aesni_ghash_init(void *hkey, const uint8_t h[16])
{
    struct aesni_hkey *hk = (struct aesni_hkey *)hkey;
    __m128i hrev = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)h), aesni_byte_reverse_mask());
    store_powers(hk, mul_x(hrev)); /* H' = rev(H) * x, section 2 */
}

VG_AESNI_TARGET
void vg_aesni_gcm_key_setup(void *sched, void *hkey, const uint8_t *key, size_t key_len)
{
    __m128i h = aesni_expand_key(sched, key, key_len, 0, 1); /* H = E(0) beside the expansion */
    store_powers((struct aesni_hkey *)hkey, mul_x(_mm_shuffle_epi8(h, aesni_byte_reverse_mask())));
    /* the rest of hkey zero, as the mode's general path leaves it (explicit stores at constant
       offsets: gcc makes a memset or a loop `rep stos`, slow to start) */
    unsigned char *rest = (unsigned char *)hkey + sizeof(struct aesni_hkey);
    _Static_assert((VG_HKEY_SIZE - sizeof(struct aesni_hkey)) % 64 == 0, "whole 64-byte rows");
    _Pragma("GCC unroll 64")
    for (size_t i = 0; i < VG_HKEY_SIZE - sizeof(struct aesni_hkey); i += 16)
        _mm_storeu_si128((__m128i *)(void *)(rest + i), _mm_setzero_si128());
}

VG_AESNI_INLINE void update(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks,
                            int reverse)
{
    struct aesni_hpowers hp;
    aesni_load_hpowers(&hp, hkey);
    __m128i a = _mm_loadu_si128((const __m128i *)acc);
    if (reverse) a = _mm_shuffle_epi8(a, aesni_byte_reverse_mask());
    for (; nblocks >= 8; nblocks -= 8, in += 128) a = aesni_gf_hash_n(&hp, a, in, 8, reverse);
    if (nblocks) a = aesni_gf_hash_n(&hp, a, in, (int)nblocks, reverse);
    if (reverse) a = _mm_shuffle_epi8(a, aesni_byte_reverse_mask());
    _mm_storeu_si128((__m128i *)acc, a);
}

VG_AESNI_TARGET
void vg_aesni_polyval_update(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks)
{
    update(hkey, acc, in, nblocks, 0);
}

VG_AESNI_TARGET
void vg_aesni_ghash_update(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks)
{
    update(hkey, acc, in, nblocks, 1);
}
