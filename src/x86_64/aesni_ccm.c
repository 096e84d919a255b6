/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * aesni_ccm.c — CBC-MAC and the fused CCM kernels (SP 800-38C): the MAC chain with the CTR keystream
 * of the same or a later block riding along in the same rounds.
 *
 * CPU features: AES-NI, SSSE3, SSE4.1 (VG_AESNI_TARGET).
 *
 * Why: the CBC-MAC chain mac = E(mac ^ P_i) is serial, so each block costs the full latency of the
 * rounds (10-14 aesenc of 3-4 cycles each) while the AES units could start one or two aesenc per
 * cycle. The CTR keystream blocks are independent of the chain, so each round of the chain block is
 * paired with the same round of a keystream block: the keystream costs no extra time.
 *   seal: the MAC is over the plaintext, known up front: chain block i pairs with keystream block i.
 *   open: the MAC is over the plaintext P_i = C_i ^ E(ctr_i), so the keystream must run ahead: chain
 *         block i pairs with keystream block i+1, whose result is ready when chain block i+1 needs it.
 * Register use: the chain state, one keystream state, the counter (arithmetic form, aesni_aes.c), the
 * current round key, k_last ^ k_0 (see "Folding AddRoundKey" below).
 * Both kernels do all nblocks. Each input block is read before its output block is written, so
 * in == out works.
 */
#include "aesni.h"

/*
 * Folding AddRoundKey: one chain step is mac' = E(mac ^ P) = AddRoundKey(last rounds..., k_last), and
 * the next step starts with mac' ^ P' ^ k_0. aesenclast XORs its key operand last, so
 *     aesenclast(state, k_last ^ k_0 ^ P') = mac' ^ P' ^ k_0,
 * the next block's state after round 0, with the XORs computed off the chain (k_last ^ k_0 once per
 * call, ^ P' as soon as P' is known). The chain is then exactly `rounds` AES instructions per block;
 * only the very last block ends with the plain k_last.
 */

/* The middle rounds 1..rounds-1 of the chain state and of one keystream block, side by side. */
VG_AESNI_INLINE void middle_rounds2(const struct aesni_round_keys *rk, __m128i *m, __m128i *c)
{
    for (unsigned r = 1; r < rk->rounds; r++) {
        *m = _mm_aesenc_si128(*m, rk->k[r]);
        *c = _mm_aesenc_si128(*c, rk->k[r]);
    }
}

VG_AESNI_TARGET
void vg_aesni_cbc_mac(const void *sched, uint8_t mac[16], const uint8_t *in, size_t nblocks)
{
    if (nblocks == 0) return;
    struct aesni_round_keys rk;
    aesni_load_enc_keys(&rk, sched);
    const __m128i klast = rk.k[rk.rounds], kfold = _mm_xor_si128(rk.k[0], rk.k[rk.rounds]);
    /* state after round 0 of block 0 */
    __m128i m = _mm_xor_si128(_mm_xor_si128(_mm_loadu_si128((const __m128i *)mac), rk.k[0]),
                              _mm_loadu_si128((const __m128i *)in));
    for (size_t i = 0;; i++) {
        for (unsigned r = 1; r < rk.rounds; r++) m = _mm_aesenc_si128(m, rk.k[r]);
        if (i + 1 == nblocks) break;
        __m128i p = _mm_loadu_si128((const __m128i *)(in + 16 * (i + 1)));
        m = _mm_aesenclast_si128(m, _mm_xor_si128(kfold, p)); /* E(...) ^ P_(i+1) ^ k_0 */
    }
    _mm_storeu_si128((__m128i *)mac, _mm_aesenclast_si128(m, klast));
}

VG_AESNI_TARGET
size_t vg_aesni_ccm_seal_blocks(const void *sched, uint8_t mac[16], uint8_t counter[16],
                             const uint8_t *in, uint8_t *out, size_t nblocks)
{
    if (nblocks == 0) return 0;
    struct aesni_round_keys rk;
    aesni_load_enc_keys(&rk, sched);
    const __m128i klast = rk.k[rk.rounds], kfold = _mm_xor_si128(rk.k[0], rk.k[rk.rounds]);
    const __m128i shuf = aesni_swap_last_word_mask();
    const __m128i one = _mm_set_epi32(1, 0, 0, 0);
    __m128i ctr = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)counter), shuf);
    __m128i p = _mm_loadu_si128((const __m128i *)in);
    __m128i m = _mm_xor_si128(_mm_xor_si128(_mm_loadu_si128((const __m128i *)mac), rk.k[0]), p);
    for (size_t i = 0;; i++) {
        /* chain block i (MAC over P_i) beside keystream block i */
        __m128i ks = _mm_xor_si128(_mm_shuffle_epi8(ctr, shuf), rk.k[0]);
        ctr = _mm_add_epi32(ctr, one);
        middle_rounds2(&rk, &m, &ks);
        ks = _mm_aesenclast_si128(ks, klast);
        _mm_storeu_si128((__m128i *)(out + 16 * i), _mm_xor_si128(p, ks));
        if (i + 1 == nblocks) break;
        p = _mm_loadu_si128((const __m128i *)(in + 16 * (i + 1)));
        m = _mm_aesenclast_si128(m, _mm_xor_si128(kfold, p));
    }
    _mm_storeu_si128((__m128i *)mac, _mm_aesenclast_si128(m, klast));
    _mm_storeu_si128((__m128i *)counter, _mm_shuffle_epi8(ctr, shuf));
    return nblocks;
}

VG_AESNI_TARGET
size_t vg_aesni_ccm_open_blocks(const void *sched, uint8_t mac[16], uint8_t counter[16],
                             const uint8_t *in, uint8_t *out, size_t nblocks)
{
    if (nblocks == 0) return 0;
    struct aesni_round_keys rk;
    aesni_load_enc_keys(&rk, sched);
    const __m128i klast = rk.k[rk.rounds], kfold = _mm_xor_si128(rk.k[0], rk.k[rk.rounds]);
    const __m128i shuf = aesni_swap_last_word_mask();
    const __m128i one = _mm_set_epi32(1, 0, 0, 0);
    __m128i ctr = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)counter), shuf);

    /* Keystream block 0 alone, then P_0 and the chain's first state. */
    __m128i ks[1] = {_mm_shuffle_epi8(ctr, shuf)};
    aesni_encrypt_n(&rk, ks, 1);
    ctr = _mm_add_epi32(ctr, one);
    __m128i p = _mm_xor_si128(_mm_loadu_si128((const __m128i *)in), ks[0]);
    _mm_storeu_si128((__m128i *)out, p);
    __m128i m = _mm_xor_si128(_mm_xor_si128(_mm_loadu_si128((const __m128i *)mac), rk.k[0]), p);
    for (size_t i = 0;; i++) {
        /* chain block i beside keystream block i+1 (on the last block that keystream block, for
           ctr + nblocks, is made and discarded: it costs no time beside the chain) */
        __m128i next = _mm_xor_si128(_mm_shuffle_epi8(ctr, shuf), rk.k[0]);
        middle_rounds2(&rk, &m, &next);
        if (i + 1 == nblocks) break;
        ctr = _mm_add_epi32(ctr, one);
        next = _mm_aesenclast_si128(next, klast);
        p = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(in + 16 * (i + 1))), next);
        _mm_storeu_si128((__m128i *)(out + 16 * (i + 1)), p);
        m = _mm_aesenclast_si128(m, _mm_xor_si128(kfold, p));
    }
    _mm_storeu_si128((__m128i *)mac, _mm_aesenclast_si128(m, klast));
    _mm_storeu_si128((__m128i *)counter, _mm_shuffle_epi8(ctr, shuf));
    return nblocks;
}
