/*
 * aesni_gcm.c — the fused GCM kernels: CTR (inc32) for 8 blocks stitched with GHASH of 8 ciphertext
 * blocks, so the AES units (aesenc) and the carry-less multiplier (pclmulqdq) work at the same time.
 *
 * CPU features: AES-NI, PCLMULQDQ, SSSE3, SSE4.1 (VG_AESNI_TARGET).
 *
 * Why stitch: CTR alone leaves the multiplier idle and GHASH alone leaves the AES units idle; issuing
 * one block's three GHASH multiplies between two AES rounds of the 8 counter blocks lets both run in
 * the same cycles. Rounds 1..8 each carry the GHASH of one block (every key size has at least 10
 * rounds), the remaining rounds carry the reduction.
 *
 * Register use in the loop: b[0..7] the counter blocks being encrypted, the GHASH accumulator acc
 * (POLYVAL form, see aesni_ghash.c section 2), lo/hi/mid the unreduced Karatsuba sums of this group,
 * x and its half-sum for the block being hashed; round keys and H powers are aligned stack operands.
 *
 * Speed (AES-128, 16 KiB, AMD EPYC dev machine at ~3.5 GHz): CTR alone runs at its bound of 40 cycles
 * per 8 blocks (80 aesenc, 2 per cycle) and GHASH alone at its bound of 52 (26 pclmulqdq, one per 2
 * cycles); this stitched loop takes ~72-76, against ~92 for the two run one after the other, and
 * beats OpenSSL 3.0's AES-NI GCM on the same machine by 10-25%. Not reached: the 52-cycle bound;
 * removing the reduction or a third of the multiplies barely moved it, so the limit is the sharing
 * of the vector pipes, not the multiply count.
 *
 * Both kernels take whole groups of 8 blocks only and return how many blocks they did (a multiple
 * of 8); the mode finishes a remainder with aes_ctr32 (4/2/1 tail) and ghash_update.
 *
 * Seal hashes ciphertext it has just written, so it runs one group behind: group g is encrypted while
 * group g-1's ciphertext (reloaded from out, still in L1) is hashed; the last group is hashed alone.
 * Open knows its ciphertext up front: group g is hashed while its own keystream is computed. All of a
 * group's ciphertext is read (for GHASH) before any of its plaintext is written, and each output block
 * is written after its input block is read again, so in == out works.
 */
#include "aesni.h"

/* Counter blocks ctr + 0..7 (ctr in arithmetic form, see aesni_aes.c) XORed with round key 0. */
VG_AESNI_INLINE void counters8(__m128i *b, __m128i *ctr, __m128i shuf, __m128i k0)
{
    for (int i = 0; i < 8; i++)
        b[i] = _mm_xor_si128(_mm_shuffle_epi8(_mm_add_epi32(*ctr, _mm_set_epi32(i, 0, 0, 0)), shuf), k0);
    *ctr = _mm_add_epi32(*ctr, _mm_set_epi32(8, 0, 0, 0));
}

/* Encrypts the 8 blocks b (already XORed with round key 0) and meanwhile returns acc after the 8
   ciphertext blocks at hash_in (acc' = sum X_j H_(8-j) with X_1 ^= acc, one reduction). */
VG_AESNI_INLINE __m128i encrypt8_hash8(const struct aesni_round_keys *rk, const struct aesni_hpowers *hp,
                                       __m128i *b, __m128i acc, const uint8_t *hash_in)
{
    const __m128i bswap = aesni_byte_reverse_mask();
    struct aesni_gf_sum s;
    aesni_gf_sum_zero(&s);
    for (int r = 1; r <= 8; r++) {
        __m128i k = rk->k[r];
        for (int i = 0; i < 8; i++) b[i] = _mm_aesenc_si128(b[i], k);
        /* Block j of the group times H_(8-j): blocks 1..7 first, block 0 (the one that needs acc,
           i.e. the previous group's reduction) last, so that reduction has a whole group's rounds
           to finish before anything waits for it. */
        int j = r & 7;
        __m128i x = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(hash_in + 16 * j)), bswap);
        if (j == 0) x = _mm_xor_si128(x, acc);
        aesni_gf_mul_add(&s, x, hp->pow[7 - j], hp->kara[7 - j]);
    }
    acc = aesni_gf_reduce(&s);
    for (unsigned r = 9; r < rk->rounds; r++) {
        __m128i k = rk->k[r];
        for (int i = 0; i < 8; i++) b[i] = _mm_aesenc_si128(b[i], k);
    }
    for (int i = 0; i < 8; i++) b[i] = _mm_aesenclast_si128(b[i], rk->k[rk->rounds]);
    return acc;
}

/* out[i] = in[i] ^ b[i]; each input block is loaded just before its output block is stored. */
VG_AESNI_INLINE void xor_store8(const __m128i *b, const uint8_t *in, uint8_t *out)
{
    for (int i = 0; i < 8; i++)
        _mm_storeu_si128((__m128i *)(out + 16 * i),
                         _mm_xor_si128(b[i], _mm_loadu_si128((const __m128i *)(in + 16 * i))));
}

VG_AESNI_TARGET
size_t aesni_gcm_seal_blocks(const void *sched, const void *hkey, uint8_t counter[16], uint8_t acc[16],
                             const uint8_t *in, uint8_t *out, size_t nblocks)
{
    size_t n = nblocks & ~(size_t)7;
    if (n == 0) return 0;
    struct aesni_round_keys rk;
    struct aesni_hpowers hp;
    aesni_load_enc_keys(&rk, sched);
    aesni_load_hpowers(&hp, hkey);
    const __m128i shuf = aesni_swap_last_word_mask();
    const __m128i bswap = aesni_byte_reverse_mask();
    __m128i ctr = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)counter), shuf);
    __m128i a = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)acc), bswap);
    __m128i b[8];

    /* Group 0: nothing to hash yet. */
    counters8(b, &ctr, shuf, rk.k[0]);
    for (unsigned r = 1; r < rk.rounds; r++) {
        __m128i k = rk.k[r];
        for (int i = 0; i < 8; i++) b[i] = _mm_aesenc_si128(b[i], k);
    }
    for (int i = 0; i < 8; i++) b[i] = _mm_aesenclast_si128(b[i], rk.k[rk.rounds]);
    xor_store8(b, in, out);

    /* Group g >= 1, hashing group g-1's ciphertext. */
    for (size_t done = 8; done < n; done += 8) {
        counters8(b, &ctr, shuf, rk.k[0]);
        a = encrypt8_hash8(&rk, &hp, b, a, out + 16 * (done - 8));
        xor_store8(b, in + 16 * done, out + 16 * done);
    }
    a = aesni_gf_hash_n(&hp, a, out + 16 * (n - 8), 8, 1);

    _mm_storeu_si128((__m128i *)acc, _mm_shuffle_epi8(a, bswap));
    _mm_storeu_si128((__m128i *)counter, _mm_shuffle_epi8(ctr, shuf));
    return n;
}

VG_AESNI_TARGET
size_t aesni_gcm_open_blocks(const void *sched, const void *hkey, uint8_t counter[16], uint8_t acc[16],
                             const uint8_t *in, uint8_t *out, size_t nblocks)
{
    size_t n = nblocks & ~(size_t)7;
    if (n == 0) return 0;
    struct aesni_round_keys rk;
    struct aesni_hpowers hp;
    aesni_load_enc_keys(&rk, sched);
    aesni_load_hpowers(&hp, hkey);
    const __m128i shuf = aesni_swap_last_word_mask();
    const __m128i bswap = aesni_byte_reverse_mask();
    __m128i ctr = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)counter), shuf);
    __m128i a = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)acc), bswap);
    __m128i b[8];

    for (size_t done = 0; done < n; done += 8) {
        counters8(b, &ctr, shuf, rk.k[0]);
        a = encrypt8_hash8(&rk, &hp, b, a, in + 16 * done);
        xor_store8(b, in + 16 * done, out + 16 * done);
    }

    _mm_storeu_si128((__m128i *)acc, _mm_shuffle_epi8(a, bswap));
    _mm_storeu_si128((__m128i *)counter, _mm_shuffle_epi8(ctr, shuf));
    return n;
}
