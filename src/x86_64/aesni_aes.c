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

/* ---------------------------------------------------------------------------------------------- */
/* Key expansion (FIPS 197 §5.2)                                                                    */
/*
 * SubWord without aeskeygenassist: aesenclast(s, k) = SubBytes(ShiftRows(s)) ^ k. If all four
 * 32-bit columns of s are the same word w, ShiftRows (which moves bytes between columns within a row)
 * changes nothing, so the result is SubWord(w) in every column, XORed with k. We broadcast the word
 * (rotated when RotWord is wanted) with one pshufb and pass Rcon, broadcast, as k: the whole
 * "temp = SubWord(RotWord(w)) ^ Rcon" of FIPS 197 in one instruction, in every column at once.
 *
 * The next four words w[i..i+3] = w[i-Nk..i-Nk+3] ^ prefix-XORs: w[i] = w[i-Nk] ^ temp,
 * w[i+1] = w[i+1-Nk] ^ w[i] = w[i+1-Nk] ^ w[i-Nk] ^ temp, ... so new = prefix_xor(old) ^ temp in every
 * column, with prefix_xor(v)[j] = v[0] ^ ... ^ v[j].
 */

static const uint8_t rcon[10] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36};

VG_AESNI_INLINE __m128i prefix_xor(__m128i v)
{
    v = _mm_xor_si128(v, _mm_slli_si128(v, 4)); /* (v0, v0^v1, v1^v2, v2^v3) */
    return _mm_xor_si128(v, _mm_slli_si128(v, 8)); /* (v0, v0^v1, v0^v1^v2, v0^..^v3) */
}

/* SubWord(RotWord(word w of v)) ^ rc in every column, for the word whose bytes are 4w..4w+3.
   RotWord([a0 a1 a2 a3]) = [a1 a2 a3 a0]: bytes 4w+1, 4w+2, 4w+3, 4w. */
VG_AESNI_INLINE __m128i sub_rot_word(__m128i v, int w, uint8_t rc)
{
    const char b0 = (char)(4 * w), b1 = (char)(4 * w + 1), b2 = (char)(4 * w + 2), b3 = (char)(4 * w + 3);
    __m128i rot = _mm_shuffle_epi8(v, _mm_setr_epi8(b1, b2, b3, b0, b1, b2, b3, b0, b1, b2, b3, b0, b1,
                                                    b2, b3, b0));
    return _mm_aesenclast_si128(rot, _mm_set1_epi32(rc));
}

/* SubWord(word 3 of v) in every column (AES-256's extra step, no rotation, no Rcon). */
VG_AESNI_INLINE __m128i sub_word3(__m128i v)
{
    return _mm_aesenclast_si128(_mm_shuffle_epi32(v, 0xff), _mm_setzero_si128());
}

VG_AESNI_TARGET
void aesni_aes_expand_key(void *sched, const uint8_t *key, size_t key_len, int want_decrypt)
{
    struct aesni_sched *s = (struct aesni_sched *)sched;
    unsigned rounds = (unsigned)(key_len / 4 + 6);
    /* The rows this key does not use are zeroed so no earlier key's round keys stay behind: rows 11..14
       of enc and dec first (the expansion below overwrites those it uses), and all of dec unless it is
       computed. Explicit sixteen-byte stores at constant rows rather than a memset or a loop: gcc
       turns both into `rep stos`, whose start-up alone was a quarter of the expansion's time. */
    const __m128i zero = _mm_setzero_si128();
#define ZERO_ROW(rows, i) _mm_storeu_si128((__m128i *)(void *)(rows)[i], zero)
    ZERO_ROW(s->enc, 11); ZERO_ROW(s->enc, 12); ZERO_ROW(s->enc, 13); ZERO_ROW(s->enc, 14);
    ZERO_ROW(s->dec, 11); ZERO_ROW(s->dec, 12); ZERO_ROW(s->dec, 13); ZERO_ROW(s->dec, 14);
    if (!want_decrypt) {
        ZERO_ROW(s->dec, 0); ZERO_ROW(s->dec, 1); ZERO_ROW(s->dec, 2); ZERO_ROW(s->dec, 3); ZERO_ROW(s->dec, 4);
        ZERO_ROW(s->dec, 5); ZERO_ROW(s->dec, 6); ZERO_ROW(s->dec, 7); ZERO_ROW(s->dec, 8); ZERO_ROW(s->dec, 9);
        ZERO_ROW(s->dec, 10);
    }
#undef ZERO_ROW
    s->rounds = rounds;
    s->has_decrypt = 0;
    if (key_len == 16) {
        __m128i k = _mm_loadu_si128((const __m128i *)key);
        _mm_storeu_si128((__m128i *)s->enc[0], k);
        for (int i = 0; i < 10; i++) {
            k = _mm_xor_si128(prefix_xor(k), sub_rot_word(k, 3, rcon[i]));
            _mm_storeu_si128((__m128i *)s->enc[i + 1], k);
        }
    } else if (key_len == 24) {
        /* Nk = 6: a = w[6j..6j+3], b = w[6j+4..6j+5] (low half). One step makes 6 words:
           a' = prefix_xor(a) ^ SubWord(RotWord(w[6j+5])) ^ Rcon, and b' = prefix_xor(b) ^ a'[3]
           (w[6j+10] = w[6j+4] ^ w[6j+9], w[6j+11] = w[6j+5] ^ w[6j+10]). Words are written in
           order as a flat array: 52 are needed, 8 steps write 54 (the two extra are in the unused
           bytes 208..215 of enc[] and are cleared afterwards). */
        uint8_t *w = (uint8_t *)&s->enc; /* the 15 rows as one byte array */
        __m128i a = _mm_loadu_si128((const __m128i *)key);
        __m128i b = _mm_loadl_epi64((const __m128i *)(key + 16));
        _mm_storeu_si128((__m128i *)w, a);
        _mm_storel_epi64((__m128i *)(w + 16), b);
        for (int j = 1; j <= 8; j++) {
            a = _mm_xor_si128(prefix_xor(a), sub_rot_word(b, 1, rcon[j - 1]));
            b = _mm_xor_si128(_mm_xor_si128(b, _mm_slli_si128(b, 4)), _mm_shuffle_epi32(a, 0xff));
            _mm_storeu_si128((__m128i *)(w + 24 * j), a);
            _mm_storel_epi64((__m128i *)(w + 24 * j + 16), b);
        }
        memset(w + 208, 0, 8);
    } else {
        /* Nk = 8: a = w[8j..8j+3], b = w[8j+4..8j+7]; a' uses SubWord(RotWord(b[3])) ^ Rcon and
           b' uses SubWord(a'[3]) (FIPS 197: i mod Nk = 4 when Nk > 6). */
        __m128i a = _mm_loadu_si128((const __m128i *)key);
        __m128i b = _mm_loadu_si128((const __m128i *)(key + 16));
        _mm_storeu_si128((__m128i *)s->enc[0], a);
        _mm_storeu_si128((__m128i *)s->enc[1], b);
        for (int j = 1; j <= 7; j++) {
            a = _mm_xor_si128(prefix_xor(a), sub_rot_word(b, 3, rcon[j - 1]));
            _mm_storeu_si128((__m128i *)s->enc[2 * j], a);
            if (j == 7) break;
            b = _mm_xor_si128(prefix_xor(b), sub_word3(a));
            _mm_storeu_si128((__m128i *)s->enc[2 * j + 1], b);
        }
    }
    if (want_decrypt) {
        s->has_decrypt = 1;
        _mm_storeu_si128((__m128i *)s->dec[0], _mm_loadu_si128((const __m128i *)s->enc[rounds]));
        for (unsigned i = 1; i < rounds; i++)
            _mm_storeu_si128((__m128i *)s->dec[i],
                             _mm_aesimc_si128(_mm_loadu_si128((const __m128i *)s->enc[rounds - i])));
        _mm_storeu_si128((__m128i *)s->dec[rounds], _mm_loadu_si128((const __m128i *)s->enc[0]));
    }
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
void aesni_aes_ecb_encrypt(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    struct aesni_round_keys rk;
    aesni_load_enc_keys(&rk, sched);
    ecb(&rk, in, out, nblocks, 0);
}

VG_AESNI_TARGET
void aesni_aes_ecb_decrypt(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks)
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
void aesni_aes_ctr32(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                     size_t nblocks)
{
    ctr(sched, counter, in, out, nblocks, 1);
}

VG_AESNI_TARGET
void aesni_aes_ctr32_le(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                        size_t nblocks)
{
    ctr(sched, counter, in, out, nblocks, 0);
}
