/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * vaes256.c — the "vaes256" implementation: VAES + VPCLMULQDQ on 256-bit registers.
 *
 * CPU features (VG_X86_VAES256_NEEDS): VAES and VPCLMULQDQ with AVX2 (ymm registers, VEX encoding),
 * plus what "aesni" needs (its key schedule and CCM kernels are reused). No AVX-512: this is the tier
 * for CPUs without it (Intel client cores from Alder Lake, Zen 3) and for those that lower their clock
 * on zmm code. Every function carries VAES256_TARGET; nothing here runs unless available() said yes.
 *
 * Two blocks per ymm register, eight registers in flight = 16 blocks per iteration, one GHASH
 * reduction per 16 blocks (H_1..H_16; eight ymm states, three sums, the block being hashed and its
 * power fill the 16 ymm registers, round keys come from memory operands). A tail of r < 16 blocks
 * is r/2 ymm registers and, for an odd r, the last
 * block in the low half of one more (loaded and stored with 128-bit moves: AVX2's vpmaskmovq would do,
 * but MemorySanitizer does not track taint through it, and the constant-time check needs that).
 * The body is vaes_body.h, shared with vaes512.c.
 */
#include "aesni.h"

#define VAES256_TARGET __attribute__((target("vaes,vpclmulqdq,avx2,avx,aes,pclmul,sse4.1,ssse3")))
#define VV_TARGET VAES256_TARGET
#define VV_NAME(x) vaes256_##x
#define VV_LANES 2
#define VV_NVEC 8
/* vaes256's groups (16 blocks) go through the fused loop from the first: gcm_short's passes gained
   nothing there on Zen 4 (bench/ab: -3% to +4% for seals of 300-2100 B, opens -3% to -10%). */
#define VV_SHORT_GROUPS_SEAL 0
#define VV_SHORT_GROUPS_OPEN 0
typedef __m256i vv_t;

#define vv_bcast128(x) _mm256_broadcastsi128_si256(x)
#define vv_loadu(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define vv_storeu(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
/* only nb == 1 reaches these: one block in the low lane, zero in the high lane */
#define vv_load_partial(p, nb) \
    _mm256_inserti128_si256(_mm256_setzero_si256(), _mm_loadu_si128((const __m128i *)(const void *)(p)), 0)
#define vv_store_partial(p, v, nb) _mm_storeu_si128((__m128i *)(void *)(p), _mm256_castsi256_si128(v))
#define vv_xor(a, b) _mm256_xor_si256((a), (b))
#define vv_xor3(a, b, c) _mm256_xor_si256(_mm256_xor_si256((a), (b)), (c))
#define vv_unpacklo64(a, b) _mm256_unpacklo_epi64((a), (b))  /* per lane [a.q0, b.q0] */
#define vv_unpackhi64(a, b) _mm256_unpackhi_epi64((a), (b))  /* per lane [a.q1, b.q1] */
/* a with lane l (0 or 1, a constant) taken from b */
#define vv_blend_lanes(a, b, l) _mm256_blend_epi32((a), (b), 0x0f << (4 * (l)))
/* lanes l.. from b, the others from a: l is 1 here (the only lane past lane 0), and the immediate a
   literal, as clang requires */
#define vv_blend_from_lane(a, b, l) ((void)(l), _mm256_blend_epi32((a), (b), 0xf0))
#define vv_and(a, b) _mm256_and_si256((a), (b))
#define vv_aesenc(a, k) _mm256_aesenc_epi128((a), (k))
#define vv_aesenclast(a, k) _mm256_aesenclast_epi128((a), (k))
#define vv_aesdec(a, k) _mm256_aesdec_epi128((a), (k))
#define vv_aesdeclast(a, k) _mm256_aesdeclast_epi128((a), (k))
#define vv_clmul(a, b, imm) _mm256_clmulepi64_epi128((a), (b), (imm))
#define vv_shuffle8(a, m) _mm256_shuffle_epi8((a), (m))
#define vv_add32(a, b) _mm256_add_epi32((a), (b))
#define vv_zero() _mm256_setzero_si256()
#define vv_bslli8(a) _mm256_bslli_epi128((a), 8)
#define vv_bsrli8(a) _mm256_bsrli_epi128((a), 8)
#define vv_swap64(a) _mm256_shuffle_epi32((a), 0x4e)
/* lane 0 = prev's high lane, lane 1 = cur's low lane */
#define vv_align_lane(cur, prev) _mm256_permute2x128_si256((prev), (cur), 0x21)
#define vv_zext128(x) _mm256_inserti128_si256(_mm256_setzero_si256(), (x), 0)
#define vv_lane_index_dword3() _mm256_set_epi32(1, 0, 0, 0, 0, 0, 0, 0)
/* lane j: ((k + j) mod 16) << 24 in dword 3, i.e. (k + j) mod VV_GROUP in byte 15 of the block */
#define vv_ctr_offsets(k)                                                                             \
    _mm256_set_epi32((int)((((unsigned)(k) + 1) & 15u) << 24), 0, 0, 0, (int)(((unsigned)(k) & 15u) << 24), 0, 0, 0)
#define vv_lane_index_dword0() _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0)
#define vv_fold_lanes(v) _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256((v), 1))

/* Byte-granular partial vectors for the short GCM kernels: the first n (0..32) bytes. AVX2 has no
   byte-masked load (and MSan does not follow vpmaskmov), and a stack copy costs a stall: the vector
   load from it spans the copy's stores and cannot take its data from them (it waits for them to reach
   the cache), which a 13-byte TLS header or a 1350-byte record's last 6 bytes paid on every message.
   So the bytes are read with loads inside [p, p + n) only, two of them overlapping where n is not a
   load size: with a = the first w bytes and b = the last w bytes (w = 8, 4, 1 by n), the value is
   a | b << 8 (n - w), since bytes both cover are the same bytes. n is a public length: the shifts
   by it and the choice of loads give nothing away. */
static inline __attribute__((always_inline)) uint64_t vv_load_upto8(const uint8_t *p, size_t n)
{
    uint64_t a, b;
    uint32_t a4, b4;
    if (n >= 8) { /* 8 only here: the caller takes longer runs 8 bytes at a time */
        memcpy(&a, p, 8);
        return a;
    }
    if (n >= 4) {
        memcpy(&a4, p, 4);
        memcpy(&b4, p + n - 4, 4);
        return (uint64_t)a4 | (uint64_t)b4 << (8 * (n - 4));
    }
    if (n == 0) return 0;
    a = p[0];
    b = p[n - 1];
    return a | (uint64_t)p[n / 2] << (8 * (n / 2)) | b << (8 * (n - 1));
}
/* the first n (0..16) bytes of p in the low bytes, zero above */
static inline __attribute__((always_inline)) VAES256_TARGET __m128i vv_load_upto16(const uint8_t *p, size_t n)
{
    if (n == 16) return _mm_loadu_si128((const __m128i *)(const void *)p);
    if (n <= 8) return _mm_cvtsi64_si128((long long)vv_load_upto8(p, n));
    /* 9..15: the first 8 bytes, and the last 8 shifted so that they end at byte n */
    uint64_t a, b;
    memcpy(&a, p, 8);
    memcpy(&b, p + n - 8, 8);
    uint64_t hi = b >> (8 * (16 - n)); /* bytes 8..n-1 */
    return _mm_set_epi64x((long long)hi, (long long)a);
}
static inline __attribute__((always_inline)) VAES256_TARGET __m256i vv_load_bytes(const uint8_t *p, size_t n)
{
    if (n >= 32) return _mm256_loadu_si256((const __m256i *)(const void *)p);
    if (n <= 16) return _mm256_zextsi128_si256(vv_load_upto16(p, n));
    return _mm256_inserti128_si256(_mm256_zextsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)p)),
                                   vv_load_upto16(p + 16, n - 16), 1);
}
static inline __attribute__((always_inline)) VAES256_TARGET void vv_store_bytes(uint8_t *p, __m256i v, size_t n)
{
    if (n >= 32) {
        _mm256_storeu_si256((__m256i *)(void *)p, v);
        return;
    }
    if (n == 16) {
        _mm_storeu_si128((__m128i *)(void *)p, _mm256_castsi256_si128(v));
        return;
    }
    uint8_t t[32];
    _mm256_storeu_si256((__m256i *)(void *)t, v);
    memcpy(p, t, n);
}
/* bytes 0..n-1 of v, the rest zero: byte i is kept iff n > i (n <= 32 fits a signed byte) */
#define vv_keep_bytes(v, n)                                                                          \
    _mm256_and_si256((v), _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(n)),                              \
                                            _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, \
                                                             13, 14, 15, 16, 17, 18, 19, 20, 21, 22, \
                                                             23, 24, 25, 26, 27, 28, 29, 30, 31)))
#define vv_cast128(v) _mm256_castsi256_si128(v)

#include "vaes_body.h"
#include "vaes_siv.h"

static int vaes256_available(void) { return vg_x86_has(VG_X86_VAES256_NEEDS); }

const struct vg_impl vg_vaes256_impl = {
    .name = "vaes256",
    .available = vaes256_available,
    .aes_expand_key = vg_aesni_aes_expand_key,
    .aes_ecb_encrypt = vaes256_aes_ecb_encrypt,
    .aes_ecb_decrypt = vaes256_aes_ecb_decrypt,
    .aes_ctr32 = vaes256_aes_ctr32,
    .aes_ctr32_le = vaes256_aes_ctr32_le,
    .ghash_init = vaes256_ghash_init,
    .ghash_update = vaes256_ghash_update,
    .polyval_init = vaes256_polyval_init,
    .polyval_update = vaes256_polyval_update,
    .gcm_key_setup = vaes256_gcm_key_setup,
    .cbc_mac = vg_aesni_cbc_mac,
    .gcm_seal_blocks = vaes256_gcm_seal_blocks,
    .gcm_open_blocks = vaes256_gcm_open_blocks,
    .gcm_seal_blocks_n12 = vaes256_gcm_seal_blocks_n12,
    .gcm_open_blocks_n12 = vaes256_gcm_open_blocks_n12,
    .ccm_seal_blocks = vg_aesni_ccm_seal_blocks,
    .ccm_open_blocks = vg_aesni_ccm_open_blocks,
    .gcm_seal_short = vaes256_gcm_seal_short,
    .gcm_open_short = vaes256_gcm_open_short,
    .gcm_short_max = VG_X86_GCM_SHORT_MAX,
    .gcm_short_max_aad = VG_X86_GCM_SHORT_MAX_AAD,
    .gcm_seal_long = vaes256_gcm_seal_long,
    .gcm_open_long = vaes256_gcm_open_long,
    .gcm_long_min = 16 * VV_PIPED_MIN_BLOCKS, /* vaes_body.h gcm_piped */
    .gcm_seal_groups = vaes256_gcm_seal_groups_short,
    .gcm_seal_groups_bytes = 16 * VV_GROUP,
    .gcm_seal_short2 = vaes256_gcm_seal_short2,
    .gcm_open_short2 = vaes256_gcm_open_short2,
    .gcm_short2_max_blocks = VV_GROUP,
    /* three vectors a message: at four (128 B) the pair spills and runs slower than two single calls
       (docs/design.md) */
    .gcm_short2_max_len = 3 * 32,
    .gcm_siv_seal_short = vaes256_gcm_siv_seal_short,
    .gcm_siv_open_short = vaes256_gcm_siv_open_short,
    .gcm_siv_short_max = VG_X86_GCM_SIV_SHORT_MAX,
    .gcm_siv_short_max_aad = VG_X86_GCM_SIV_SHORT_MAX_AAD,
};
