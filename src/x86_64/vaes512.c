/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * vaes512.c — the "vaes512" implementation: VAES + VPCLMULQDQ on 512-bit registers.
 *
 * CPU features (VG_X86_VAES512_NEEDS): VAES and VPCLMULQDQ with AVX-512F (zmm registers, masked
 * loads and stores for the tails), AVX-512BW (vpshufb, byte shifts on zmm), AVX-512VL, plus what
 * "aesni" needs (its key schedule and CCM kernels are reused). Every function carries VAES512_TARGET;
 * nothing here runs unless available() said yes.
 *
 * Why: one zmm vaesenc does four blocks' rounds and one zmm vpclmulqdq four blocks' products, so the
 * bulk loops issue a quarter of aesni's instructions. Eight zmm in flight = 32 blocks per iteration,
 * one GHASH reduction per 32 blocks (H_1..H_32 precomputed): the multiplier, not the AES units, is
 * this machine's bottleneck for GCM (vaes_body.h), and 8 rather than 4 registers per reduction took
 * the 16 KiB GCM seal from 13.7 to 16.0 GB/s (schoolbook products; Karatsuba came after). A tail of
 * r < 32 blocks is ceil(r/4) registers with the last one masked: never one block at a time, never
 * reading or writing past the caller's buffer. The body is vaes_body.h, shared with vaes256.c.
 */
#include "aesni.h"

#define VAES512_TARGET \
    __attribute__((target("vaes,vpclmulqdq,avx512f,avx512bw,avx512vl,avx2,avx,aes,pclmul,sse4.1,ssse3")))
#define VV_TARGET VAES512_TARGET
#define VV_NAME(x) vaes512_##x
#define VV_LANES 4
#define VV_NVEC 8
/* Messages of at most this many whole groups (with data after them; a seal of exactly one group too)
   take gcm_short's unstitched passes rather than the fused loop, whose fixed cost one or two 32-block
   groups do not earn back. Measured on Zen 4 (family 25 model 17, bench/ab, old and new in one
   process, 2026-12-07): AES-128 seal 512 B +15%, 576 B +23%, 1200 B +16%, 1700 B (three groups) +3%,
   2600 B -3%; open 512 B +21%, 800 B +17%, 1200 B +7%, 1350 B +5% (AES-256 +6%), three or four
   groups -1% to +1%. docs/speed.md, "Intel ipsec-mb". */
#define VV_SHORT_GROUPS_SEAL 2
#define VV_SHORT_GROUPS_OPEN 2
typedef __m512i vv_t;

#define vv_bcast128(x) _mm512_broadcast_i32x4(x)
#define vv_loadu(p) _mm512_loadu_si512((const void *)(p))
#define vv_storeu(p, v) _mm512_storeu_si512((void *)(p), (v))
/* nb (1..3) blocks = 2 * nb qwords: the masked-off lanes are neither read nor written (no fault past
   the buffer) and read as zero */
#define vv_load_partial(p, nb) _mm512_maskz_loadu_epi64((__mmask8)((1u << (2 * (nb))) - 1), (const void *)(p))
#define vv_store_partial(p, v, nb) \
    _mm512_mask_storeu_epi64((void *)(p), (__mmask8)((1u << (2 * (nb))) - 1), (v))
#define vv_xor(a, b) _mm512_xor_si512((a), (b))
/* a ^ b ^ c in one vpternlogq. MemorySanitizer (clang 14) does not model that intrinsic and reports
   any poisoned operand, which is every secret one in the constant-time check (tests/ct_msan.cmake), so
   under MSan it is two XORs: the same value. */
#ifdef VG_X86_NO_PIN
#define vv_xor3(a, b, c) _mm512_xor_si512(_mm512_xor_si512((a), (b)), (c))
#else
#define vv_xor3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0x96)
#endif
#define vv_unpacklo64(a, b) _mm512_unpacklo_epi64((a), (b))  /* per lane [a.q0, b.q0] */
#define vv_unpackhi64(a, b) _mm512_unpackhi_epi64((a), (b))  /* per lane [a.q1, b.q1] */
/* a with lane l (0..3, a constant) taken from b */
#define vv_blend_lanes(a, b, l) _mm512_mask_blend_epi64((__mmask8)(3u << (2 * (l))), (a), (b))
/* lanes l.. (l: 1..3, a constant) from b, the others from a (the mask is an operand, not an immediate) */
#define vv_blend_from_lane(a, b, l) _mm512_mask_blend_epi64((__mmask8)(0xffu << (2 * (l))), (a), (b))
#define vv_and(a, b) _mm512_and_si512((a), (b))
#define vv_aesenc(a, k) _mm512_aesenc_epi128((a), (k))
#define vv_aesenclast(a, k) _mm512_aesenclast_epi128((a), (k))
#define vv_aesdec(a, k) _mm512_aesdec_epi128((a), (k))
#define vv_aesdeclast(a, k) _mm512_aesdeclast_epi128((a), (k))
#define vv_clmul(a, b, imm) _mm512_clmulepi64_epi128((a), (b), (imm))
#define vv_shuffle8(a, m) _mm512_shuffle_epi8((a), (m))
#define vv_add32(a, b) _mm512_add_epi32((a), (b))
#define vv_zero() _mm512_setzero_si512()
#define vv_bslli8(a) _mm512_bslli_epi128((a), 8)
#define vv_bsrli8(a) _mm512_bsrli_epi128((a), 8)
#define vv_swap64(a) _mm512_shuffle_epi32((a), (_MM_PERM_ENUM)0x4e)
/* lane 0 = prev's highest lane, lanes 1..3 = cur's lanes 0..2 */
#define vv_align_lane(cur, prev) _mm512_alignr_epi64((cur), (prev), 6)
#define vv_zext128(x) _mm512_zextsi128_si512(x)
#define vv_lane_index_dword3() _mm512_set_epi32(3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0)
/* lane j: ((k + j) mod 32) << 24 in dword 3, i.e. (k + j) mod VV_GROUP in byte 15 of the block
   (k a constant: the vector is one) */
#define vv_ctr_offsets(k)                                                                            \
    _mm512_set_epi32((int)((((unsigned)(k) + 3) & 31u) << 24), 0, 0, 0, (int)((((unsigned)(k) + 2) & 31u) << 24), \
                     0, 0, 0, (int)((((unsigned)(k) + 1) & 31u) << 24), 0, 0, 0, (int)(((unsigned)(k) & 31u) << 24), \
                     0, 0, 0)
#define vv_lane_index_dword0() _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0)

/* XOR of the four 128-bit lanes */
static inline __attribute__((always_inline)) VAES512_TARGET __m128i vv_fold_lanes(__m512i v)
{
    __m256i y = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1));
}

/* Byte-granular partial vectors for the short GCM kernels: the first n (0..64) bytes, by a byte mask
   made from the length (public); masked-off bytes are neither read nor written, and read as zero.
   A whole vector (n = 64) takes a plain load or store: a masked store cannot forward its data to a
   later load, and the open's tag check and zeroing pass read out right after (measured: the 64-byte
   open 10-15% slower with the masked store). */
static inline __mmask64 vv_byte_mask(size_t n) { return n >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << n) - 1); }
static inline __attribute__((always_inline)) VAES512_TARGET __m512i vv_load_bytes(const uint8_t *p, size_t n)
{
    if (n >= 64) return _mm512_loadu_si512((const void *)p);
    return _mm512_maskz_loadu_epi8(vv_byte_mask(n), (const void *)p);
}
static inline __attribute__((always_inline)) VAES512_TARGET void vv_store_bytes(uint8_t *p, __m512i v, size_t n)
{
    if (n >= 64)
        _mm512_storeu_si512((void *)p, v);
    else
        _mm512_mask_storeu_epi8((void *)p, vv_byte_mask(n), v);
}
#define vv_keep_bytes(v, n) _mm512_maskz_mov_epi8(vv_byte_mask(n), (v))
#define vv_cast128(v) _mm512_castsi512_si128(v)

#include "vaes_body.h"
#include "vaes_siv.h"

static int vaes512_available(void) { return vg_x86_has(VG_X86_VAES512_NEEDS); }

const struct vg_impl vg_vaes512_impl = {
    .name = "vaes512",
    .available = vaes512_available,
    .aes_expand_key = vg_aesni_aes_expand_key,
    .aes_ecb_encrypt = vaes512_aes_ecb_encrypt,
    .aes_ecb_decrypt = vaes512_aes_ecb_decrypt,
    .aes_ctr32 = vaes512_aes_ctr32,
    .aes_ctr32_le = vaes512_aes_ctr32_le,
    .ghash_init = vaes512_ghash_init,
    .ghash_update = vaes512_ghash_update,
    .polyval_init = vaes512_polyval_init,
    .polyval_update = vaes512_polyval_update,
    .gcm_key_setup = vaes512_gcm_key_setup,
    .cbc_mac = vg_aesni_cbc_mac,
    .gcm_seal_blocks = vaes512_gcm_seal_blocks,
    .gcm_open_blocks = vaes512_gcm_open_blocks,
    .gcm_seal_blocks_n12 = vaes512_gcm_seal_blocks_n12,
    .gcm_open_blocks_n12 = vaes512_gcm_open_blocks_n12,
    .ccm_seal_blocks = vg_aesni_ccm_seal_blocks,
    .ccm_open_blocks = vg_aesni_ccm_open_blocks,
    .gcm_seal_short = vaes512_gcm_seal_short,
    .gcm_open_short = vaes512_gcm_open_short,
    .gcm_short_max = VG_X86_GCM_SHORT_MAX,
    .gcm_short_max_aad = VG_X86_GCM_SHORT_MAX_AAD,
    .gcm_seal_long = vaes512_gcm_seal_long,
    .gcm_open_long = vaes512_gcm_open_long,
    .gcm_long_min = 16 * VV_PIPED_MIN_BLOCKS, /* vaes_body.h gcm_piped */
    .gcm_seal_groups = vaes512_gcm_seal_groups_short,
    .gcm_seal_groups_bytes = 16 * VV_GROUP,
    .gcm_siv_seal_short = vaes512_gcm_siv_seal_short,
    .gcm_siv_open_short = vaes512_gcm_siv_open_short,
    .gcm_siv_short_max = VG_X86_GCM_SIV_SHORT_MAX,
    .gcm_siv_short_max_aad = VG_X86_GCM_SIV_SHORT_MAX_AAD,
};
