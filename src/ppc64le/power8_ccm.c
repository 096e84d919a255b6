/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * power8_ccm.c — the fused CCM kernels (SP 800-38C): the CBC-MAC chain with the CTR keystream of the
 * same or a later block riding along in the same rounds.
 *
 * CPU features: ISA 2.07 vector crypto (VG_POWER8_TARGET).
 *
 * Why: the chain mac = E(mac ^ P_i) is serial, so each block costs the whole latency of its rounds
 * (10-14 vcipher of 6-7 cycles) while the unit could start a vcipher every cycle. The keystream
 * blocks do not depend on the chain, so each round of the chain block is paired with the same round
 * of a keystream block, which then costs no time.
 *   seal: the MAC is over the plaintext, known up front: chain block i pairs with keystream block i.
 *   open: the MAC is over P_i = C_i ^ E(ctr_i), so the keystream runs one block ahead: chain block i
 *         pairs with keystream block i+1, ready when chain block i+1 needs it.
 * Register use: the chain state m, one keystream state, the counter (AES order, vadduwm for inc32),
 * the round keys, k_last ^ k_0 (the AddRoundKey fold of vg_power8_cbc_mac).
 * Both kernels do all nblocks. Each input block is read before its output block is written, so
 * in == out works.
 */
#include "power8.h"

/* Rounds 1..rounds-1 of the chain state and of one keystream block, side by side. */
VG_POWER8_INLINE void middle_rounds2(const struct power8_round_keys *rk, p8_u8 *m, p8_u8 *c)
{
    for (unsigned r = 1; r < rk->rounds; r++) {
        *m = p8_vcipher(*m, rk->k[r]);
        *c = p8_vcipher(*c, rk->k[r]);
    }
}

VG_POWER8_INLINE size_t ccm_seal_blocks_body(const void *sched, uint8_t mac[16], uint8_t counter[16],
                                             const uint8_t *in, uint8_t *out, size_t nblocks,
                                             unsigned rounds)
{
    if (nblocks == 0) return 0;
    struct power8_round_keys rk;
    p8_load_keys(&rk, sched, rounds);
    const p8_u8 klast = rk.k[rk.rounds], kfold = vec_xor(rk.k[0], klast);
    p8_u8 ctr = p8_load_aes(counter);
    p8_u8 p = p8_load_aes(in);
    p8_u8 m = vec_xor(vec_xor(p8_load_aes(mac), rk.k[0]), p);
    for (size_t i = 0;; i++) {
        /* chain block i (MAC over P_i) beside keystream block i */
        p8_u8 ks = vec_xor(ctr, rk.k[0]);
        ctr = p8_inc32(ctr);
        middle_rounds2(&rk, &m, &ks);
        ks = p8_vcipherlast(ks, klast);
        p8_store_aes(vec_xor(p, ks), out + 16 * i);
        if (i + 1 == nblocks) break;
        p = p8_load_aes(in + 16 * (i + 1));
        m = p8_vcipherlast(m, vec_xor(kfold, p)); /* E(...) ^ P_(i+1) ^ k_0 */
    }
    p8_store_aes(p8_vcipherlast(m, klast), mac);
    p8_store_aes(ctr, counter);
    return nblocks;
}

VG_POWER8_TARGET
size_t P8_FN(ccm_seal_blocks)(const void *sched, uint8_t mac[16], uint8_t counter[16],
                              const uint8_t *in, uint8_t *out, size_t nblocks)
{
    P8_BY_ROUNDS_RET(sched, ccm_seal_blocks_body, sched, mac, counter, in, out, nblocks)
}

VG_POWER8_INLINE size_t ccm_open_blocks_body(const void *sched, uint8_t mac[16], uint8_t counter[16],
                                             const uint8_t *in, uint8_t *out, size_t nblocks,
                                             unsigned rounds)
{
    if (nblocks == 0) return 0;
    struct power8_round_keys rk;
    p8_load_keys(&rk, sched, rounds);
    const p8_u8 klast = rk.k[rk.rounds], kfold = vec_xor(rk.k[0], klast);
    p8_u8 ctr = p8_load_aes(counter);

    /* Keystream block 0 alone, then P_0 and the chain's first state. */
    p8_u8 ks[1] = {vec_xor(ctr, rk.k[0])};
    p8_encrypt_rounds(&rk, ks, 1);
    ctr = p8_inc32(ctr);
    p8_u8 p = vec_xor(p8_load_aes(in), ks[0]);
    p8_store_aes(p, out);
    p8_u8 m = vec_xor(vec_xor(p8_load_aes(mac), rk.k[0]), p);
    for (size_t i = 0;; i++) {
        /* chain block i beside keystream block i+1 (after the last block that one, for
           ctr + nblocks, is made and dropped: it costs no time beside the chain) */
        p8_u8 next = vec_xor(ctr, rk.k[0]);
        middle_rounds2(&rk, &m, &next);
        if (i + 1 == nblocks) break;
        ctr = p8_inc32(ctr);
        next = p8_vcipherlast(next, klast);
        p = vec_xor(p8_load_aes(in + 16 * (i + 1)), next);
        p8_store_aes(p, out + 16 * (i + 1));
        m = p8_vcipherlast(m, vec_xor(kfold, p));
    }
    p8_store_aes(p8_vcipherlast(m, klast), mac);
    p8_store_aes(ctr, counter);
    return nblocks;
}

VG_POWER8_TARGET
size_t P8_FN(ccm_open_blocks)(const void *sched, uint8_t mac[16], uint8_t counter[16],
                              const uint8_t *in, uint8_t *out, size_t nblocks)
{
    P8_BY_ROUNDS_RET(sched, ccm_open_blocks_body, sched, mac, counter, in, out, nblocks)
}
