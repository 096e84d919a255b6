/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * armv8_aes.c — AES with the AArch64 Cryptographic Extension: ECB both ways, the CBC-MAC chain and
 * the fused CCM kernels (SP 800-38C). (Key expansion is in armv8_kernels.inc: it uses EOR3.)
 *
 * CPU features: FEAT_AES (VG_ARMV8_TARGET). Bulk ECB keeps 8 blocks in flight with a 4/2/1 tail.
 */
#include "armv8.h"

/* ---------------------------------------------------------------------------------------------- */
/* ECB                                                                                              */

VG_ARMV8_INLINE void ecb_n(const struct armv8_round_keys *rk, const uint8_t *in, uint8_t *out, int n,
                           int decrypt, unsigned rounds)
{
    uint8x16_t b[8];
    for (int i = 0; i < n; i++) b[i] = vld1q_u8(in + 16 * i);
    if (decrypt)
        armv8_decrypt_n_open(rk, b, n, rounds);
    else
        armv8_encrypt_n_open(rk, b, n, rounds);
    for (int i = 0; i < n; i++) vst1q_u8(out + 16 * i, veorq_u8(b[i], rk->k[rounds]));
}

VG_ARMV8_INLINE void ecb(const unsigned char (*keys)[16], const uint8_t *in, uint8_t *out,
                         size_t nblocks, int decrypt, unsigned rounds)
{
    struct armv8_round_keys rk;
    armv8_load_keys(&rk, keys, rounds);
    VG_BLOCKS_8421(nblocks, k, { ecb_n(&rk, in, out, k, decrypt, rounds); in += 16 * k; out += 16 * k; })
}

VG_ARMV8_TARGET
void vg_armv8_aes_ecb_encrypt(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const struct armv8_sched *s = (const struct armv8_sched *)sched;
    ARMV8_FOR_ROUNDS(s->rounds, ecb(s->enc, in, out, nblocks, 0, ROUNDS));
}

VG_ARMV8_TARGET
void vg_armv8_aes_ecb_decrypt(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const struct armv8_sched *s = (const struct armv8_sched *)sched;
    ARMV8_FOR_ROUNDS(s->rounds, ecb(s->dec, in, out, nblocks, 1, ROUNDS));
}

/* ---------------------------------------------------------------------------------------------- */
/* CBC-MAC and CCM                                                                                  */
/*
 * The chain mac = E(mac ^ P_i) is serial: each block costs the whole latency of its rounds while the
 * AES unit could start a pair per cycle. The CTR keystream blocks are independent of the chain, so
 * each round of the chain block is paired with the same round of a keystream block, for free:
 *   seal: the MAC is over the plaintext, known up front: chain block i beside keystream block i;
 *   open: the MAC is over P_i = C_i ^ E(ctr_i), so the keystream runs one ahead: chain block i
 *         beside keystream block i+1, ready when chain block i+1 needs it.
 * Folding AddRoundKey: after the last AESE of block i the chain holds s with E = s ^ k_last, and the
 * next block starts AESE(E ^ P_(i+1), k_0) — AESE adds its key first. So the chain needs one EOR
 * with (k_last ^ P_(i+1)), computed off the chain as soon as P_(i+1) is known; the very last block
 * ends with the plain EOR k_last. In seal the same (k_last ^ P_i) also finishes C_i = P_i ^ k_last ^
 * s_ks, so each block costs one extra EOR. Both kernels do all nblocks. Input block i is read before
 * output block i is written, so in == out works.
 */

/* Counter (inc32) in arithmetic form: REV32 makes each 32-bit lane the big-endian word of the block
   as a number, so lane 3 is the counter and one 32-bit lane add is inc32 (mod 2^32, no carry into
   the first 96 bits). REV32 also converts back. */
VG_ARMV8_INLINE uint32x4_t ctr_load(const uint8_t *counter) { return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(counter))); }
VG_ARMV8_INLINE uint8x16_t ctr_block(uint32x4_t c) { return vrev32q_u8(vreinterpretq_u8_u32(c)); }
VG_ARMV8_INLINE uint32x4_t ctr_one(void)
{
    const uint32_t one[4] = {0, 0, 0, 1};
    return vld1q_u32(one);
}

VG_ARMV8_INLINE void cbc_mac(const unsigned char (*keys)[16], uint8_t mac[16], const uint8_t *in,
                             size_t nblocks, unsigned rounds)
{
    struct armv8_round_keys rk;
    armv8_load_keys(&rk, keys, rounds);
    uint8x16_t m = veorq_u8(vld1q_u8(mac), vld1q_u8(in));
    for (size_t i = 0;; i++) {
        uint8x16_t b[1] = {m};
        armv8_encrypt_n_open(&rk, b, 1, rounds);
        m = b[0];
        if (i + 1 == nblocks) break;
        m = veorq_u8(m, veorq_u8(rk.k[rounds], vld1q_u8(in + 16 * (i + 1))));
    }
    vst1q_u8(mac, veorq_u8(m, rk.k[rounds]));
}

VG_ARMV8_TARGET
void vg_armv8_cbc_mac(const void *sched, uint8_t mac[16], const uint8_t *in, size_t nblocks)
{
    if (nblocks == 0) return;
    const struct armv8_sched *s = (const struct armv8_sched *)sched;
    ARMV8_FOR_ROUNDS(s->rounds, cbc_mac(s->enc, mac, in, nblocks, ROUNDS));
}

VG_ARMV8_INLINE void ccm_seal(const unsigned char (*keys)[16], uint8_t mac[16], uint8_t counter[16],
                              const uint8_t *in, uint8_t *out, size_t nblocks, unsigned rounds)
{
    struct armv8_round_keys rk;
    armv8_load_keys(&rk, keys, rounds);
    const uint32x4_t one = ctr_one();
    uint32x4_t ctr = ctr_load(counter);
    uint8x16_t p = vld1q_u8(in);
    uint8x16_t t = veorq_u8(p, rk.k[rounds]); /* P_i ^ k_last */
    uint8x16_t b[2] = {veorq_u8(vld1q_u8(mac), p), ctr_block(ctr)};
    for (size_t i = 0;; i++) {
        /* b[0]: chain block i (MAC over P_i); b[1]: keystream block i */
        ctr = vaddq_u32(ctr, one);
        armv8_encrypt_n_open(&rk, b, 2, rounds);
        vst1q_u8(out + 16 * i, veorq_u8(b[1], t)); /* C_i = P_i ^ E(ctr_i) */
        if (i + 1 == nblocks) break;
        p = vld1q_u8(in + 16 * (i + 1));
        t = veorq_u8(p, rk.k[rounds]);
        b[0] = veorq_u8(b[0], t); /* E(chain) ^ P_(i+1), k_0 follows in AESE */
        b[1] = ctr_block(ctr);
    }
    vst1q_u8(mac, veorq_u8(b[0], rk.k[rounds]));
    vst1q_u8(counter, ctr_block(ctr));
}

VG_ARMV8_INLINE void ccm_open(const unsigned char (*keys)[16], uint8_t mac[16], uint8_t counter[16],
                              const uint8_t *in, uint8_t *out, size_t nblocks, unsigned rounds)
{
    struct armv8_round_keys rk;
    armv8_load_keys(&rk, keys, rounds);
    const uint32x4_t one = ctr_one();
    uint32x4_t ctr = ctr_load(counter);
    /* keystream block 0 alone, then P_0 and the chain's first state */
    uint8x16_t b[2] = {ctr_block(ctr)};
    armv8_encrypt_n_open(&rk, b, 1, rounds);
    ctr = vaddq_u32(ctr, one);
    uint8x16_t p = veorq_u8(veorq_u8(vld1q_u8(in), rk.k[rounds]), b[0]);
    vst1q_u8(out, p);
    b[0] = veorq_u8(vld1q_u8(mac), p);
    for (size_t i = 0;; i++) {
        /* b[0]: chain block i; b[1]: keystream block i+1 (on the last block it is made for
           ctr + nblocks and discarded: it costs no time beside the chain) */
        b[1] = ctr_block(ctr);
        armv8_encrypt_n_open(&rk, b, 2, rounds);
        if (i + 1 == nblocks) break;
        ctr = vaddq_u32(ctr, one);
        /* P_(i+1) = C_(i+1) ^ k_last ^ s_ks; the chain needs P_(i+1) ^ k_last: one EOR less */
        uint8x16_t pk = veorq_u8(vld1q_u8(in + 16 * (i + 1)), b[1]);
        vst1q_u8(out + 16 * (i + 1), veorq_u8(pk, rk.k[rounds]));
        b[0] = veorq_u8(b[0], pk);
    }
    vst1q_u8(mac, veorq_u8(b[0], rk.k[rounds]));
    vst1q_u8(counter, ctr_block(ctr));
}

VG_ARMV8_TARGET
size_t vg_armv8_ccm_seal_blocks(const void *sched, uint8_t mac[16], uint8_t counter[16],
                             const uint8_t *in, uint8_t *out, size_t nblocks)
{
    if (nblocks == 0) return 0;
    const struct armv8_sched *s = (const struct armv8_sched *)sched;
    ARMV8_FOR_ROUNDS(s->rounds, ccm_seal(s->enc, mac, counter, in, out, nblocks, ROUNDS));
    return nblocks;
}

VG_ARMV8_TARGET
size_t vg_armv8_ccm_open_blocks(const void *sched, uint8_t mac[16], uint8_t counter[16],
                             const uint8_t *in, uint8_t *out, size_t nblocks)
{
    if (nblocks == 0) return 0;
    const struct armv8_sched *s = (const struct armv8_sched *)sched;
    ARMV8_FOR_ROUNDS(s->rounds, ccm_open(s->enc, mac, counter, in, out, nblocks, ROUNDS));
    return nblocks;
}
