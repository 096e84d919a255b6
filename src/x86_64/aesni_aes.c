/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * aesni_aes.c — AES with AES-NI: key expansion, ECB both ways, CTR32 with the inc32 counter and with
 * RFC 8452's little-endian counter.
 *
 * CPU features: AES-NI, SSSE3, SSE4.1 (VG_AESNI_TARGET). Bulk kernels keep 8 blocks in flight (each
 * aesenc has a latency of 3-4 cycles and up to 2 issue per cycle, so 8 independent blocks keep the AES
 * units busy); a remainder of r < 8 blocks is done as 4, 2 and 1 blocks by the bits of r, never one
 * block at a time. Register use in the 8-block loops: b[0..7] the blocks, one round key at a time
 * (the rest are aligned stack memory operands), the counter in a ninth register.
 */
#include "aesni.h"

/* Key expansion: aesni_expand_key in aesni.h (inline there so that the VAES implementations' GCM key
   set-up compiles it with their own target: VEX-encoded, no register copies). */

VG_AESNI_TARGET
int vg_aesni_aes_expand_key(void *sched, const uint8_t *key, size_t key_len, int want_decrypt)
{
    (void)aesni_expand_key(sched, key, key_len, want_decrypt, 0);
    return VG_OK;
}


/* ---------------------------------------------------------------------------------------------- */
/* ECB                                                                                              */

VG_AESNI_INLINE void ecb_n(const struct aesni_round_keys *rk, const uint8_t *in, uint8_t *out, int n,
                           int decrypt)
{
    __m128i b[8];
    for (int i = 0; i < n; i++) b[i] = _mm_loadu_si128((const __m128i *)(in + 16 * i));
    if (decrypt)
        aesni_decrypt_n(rk, b, n);
    else
        aesni_encrypt_n(rk, b, n);
    for (int i = 0; i < n; i++) _mm_storeu_si128((__m128i *)(out + 16 * i), b[i]);
}

VG_AESNI_INLINE void ecb(const struct aesni_round_keys *rk, const uint8_t *in, uint8_t *out,
                         size_t nblocks, int decrypt)
{
    VG_BLOCKS_8421(nblocks, k, { ecb_n(rk, in, out, k, decrypt); in += 16 * k; out += 16 * k; })
}

VG_AESNI_TARGET
void vg_aesni_aes_ecb_encrypt(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    struct aesni_round_keys rk;
    aesni_load_enc_keys(&rk, sched);
    ecb(&rk, in, out, nblocks, 0);
}

VG_AESNI_TARGET
void vg_aesni_aes_ecb_decrypt(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    struct aesni_round_keys rk;
    aesni_load_dec_keys(&rk, sched);
    ecb(&rk, in, out, nblocks, 1);
}

/* ---------------------------------------------------------------------------------------------- */
/* CTR                                                                                              */
/*
 * ctr holds the counter in "arithmetic" form: for inc32 the block with bytes 12..15 reversed (dword 3
 * is the counter), for the little-endian counter the block itself (dword 0 is the counter). `shuf`
 * is the shuffle between the two forms (its own inverse; skipped for little-endian). paddd wraps each
 * dword mod 2^32, which is exactly both standards' counter arithmetic.
 */
VG_AESNI_INLINE void ctr_n(const struct aesni_round_keys *rk, __m128i *ctr, __m128i shuf,
                           int big_endian, const uint8_t *in, uint8_t *out, int n)
{
    __m128i b[8];
    /* counter + i for each block from the same base (constants after unrolling), so the additions
       are independent rather than a chain */
    for (int i = 0; i < n; i++) {
        __m128i c = _mm_add_epi32(*ctr, big_endian ? _mm_set_epi32(i, 0, 0, 0) : _mm_set_epi32(0, 0, 0, i));
        b[i] = big_endian ? _mm_shuffle_epi8(c, shuf) : c;
    }
    *ctr = _mm_add_epi32(*ctr, big_endian ? _mm_set_epi32(n, 0, 0, 0) : _mm_set_epi32(0, 0, 0, n));
    aesni_encrypt_n(rk, b, n);
    /* Input is read only now, after the keystream: in == out is safe block by block. */
    for (int i = 0; i < n; i++)
        _mm_storeu_si128((__m128i *)(out + 16 * i),
                         _mm_xor_si128(b[i], _mm_loadu_si128((const __m128i *)(in + 16 * i))));
}

VG_AESNI_INLINE void ctr(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                         size_t nblocks, int big_endian)
{
    struct aesni_round_keys rk;
    aesni_load_enc_keys(&rk, sched);
    __m128i shuf = aesni_swap_last_word_mask();
    __m128i c = _mm_loadu_si128((const __m128i *)counter);
    if (big_endian) c = _mm_shuffle_epi8(c, shuf);
    VG_BLOCKS_8421(nblocks, k, { ctr_n(&rk, &c, shuf, big_endian, in, out, k); in += 16 * k; out += 16 * k; })
    if (big_endian) c = _mm_shuffle_epi8(c, shuf);
    _mm_storeu_si128((__m128i *)counter, c);
}

VG_AESNI_TARGET
void vg_aesni_aes_ctr32(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                     size_t nblocks)
{
    ctr(sched, counter, in, out, nblocks, 1);
}

VG_AESNI_TARGET
void vg_aesni_aes_ctr32_le(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                        size_t nblocks)
{
    ctr(sched, counter, in, out, nblocks, 0);
}
