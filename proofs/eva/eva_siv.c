/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * eva_siv.c — Eva entry point for AES-GCM-SIV (src/modes/gcm_siv.c): init with every key length
 * 0..40; seal and open (separate, then in place) for every message length 0..EVA_MAX_LEN and EVA_LONG with each
 * AAD length of EVA_SIDE and every AAD length 0..EVA_MAX_AAD with each message length of EVA_SIDE;
 * every nonce and tag length 0..17; the error paths. Kernels are their contracts (kernel_specs.h).
 */
#include "eva_common.h"
#include "kernel_specs.h"

static vg_aes_gcm_siv_key key;

static void one(size_t nonce_len, size_t aad_len, size_t len, size_t tag_len)
{
    uint8_t *nonce = eva_input(nonce_len), *aad = eva_input(aad_len);
    uint8_t *in = eva_input(len), *out = eva_output(len), *tag = eva_output(tag_len);
    vg_aes_gcm_siv_seal(&key, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
    free(tag);
    tag = eva_input(tag_len);
    vg_aes_gcm_siv_open(&key, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, out);
    vg_aes_gcm_siv_seal(&key, nonce, nonce_len, aad, aad_len, in, len, in, tag, tag_len);
    vg_aes_gcm_siv_open(&key, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, in);
    free(nonce); free(aad); free(in); free(out); free(tag);
}

static const size_t side[] = { EVA_SIDE };
#define NSIDE (sizeof side / sizeof side[0]) /* at most 8: the loops below unroll 8 */

int main(void)
{
    vg_aes_gcm_siv_key scratch;
    //@ loop unroll 41;
    for (size_t kl = 0; kl <= 40; kl++) {
        uint8_t *k = eva_input(kl);
        vg_aes_gcm_siv_init(&scratch, k, kl);
        free(k);
    }
    vg_aes_gcm_siv_init(&scratch, NULL, 16);
    vg_aes_gcm_siv_init(NULL, NULL, 16);
    /* GCM-SIV takes 16-, 24- and 32-byte keys. The three sizes stay in separate states (split): the
       per-message key derivation encrypts 4, 5 or 6 blocks by key size, and a joined state would
       lose which blocks were written. */
    int size = Frama_C_interval(0, 2);
    //@ split size;
    if (size == 2)
        vg_aes_gcm_siv_init(&key, eva_input(32), 32);
    else if (size == 1)
        vg_aes_gcm_siv_init(&key, eva_input(24), 24);
    else
        vg_aes_gcm_siv_init(&key, eva_input(16), 16);

    //@ loop unroll EVA_MAX_LEN + 1;
    for (size_t n = 0; n <= EVA_MAX_LEN; n++) {
        //@ loop unroll 8;
        for (size_t i = 0; i < NSIDE; i++) one(12, side[i], n, 16);
    }
    static const size_t long_len[] = { EVA_LONG };
    //@ loop unroll 16;
    for (size_t j = 0; j < sizeof long_len / sizeof long_len[0]; j++) {
        //@ loop unroll 8;
        for (size_t i = 0; i < NSIDE; i++) one(12, side[i], long_len[j], 16);
    }
    //@ loop unroll EVA_MAX_AAD + 1;
    for (size_t n = 0; n <= EVA_MAX_AAD; n++) {
        //@ loop unroll 8;
        for (size_t i = 0; i < NSIDE; i++) one(12, n, side[i], 16);
    }
    //@ loop unroll 18;
    for (size_t l = 0; l <= 17; l++) {
        one(l, 1, 1, 16);
        one(12, 1, 1, l);
    }

    uint8_t b[32], t[16];
    Frama_C_make_unknown((char *)b, sizeof b);
    Frama_C_make_unknown((char *)t, sizeof t);
    vg_aes_gcm_siv_seal(&key, b, 12, NULL, 0, NULL, SIZE_MAX, NULL, t, 16);
    vg_aes_gcm_siv_seal(&key, b, 12, NULL, SIZE_MAX, NULL, 0, NULL, t, 16);
    vg_aes_gcm_siv_seal(&key, b, 12, NULL, 1, NULL, 0, NULL, t, 16);
    vg_aes_gcm_siv_seal(&key, b, 12, NULL, 0, b, 16, b + 1, t, 16);
    vg_aes_gcm_siv_open(&key, NULL, 12, NULL, 0, NULL, 0, t, 16, NULL);
    vg_aes_gcm_siv_open(NULL, b, 12, NULL, 0, NULL, 0, t, 16, NULL);
    vg_aes_gcm_siv_key_wipe(&scratch);
    vg_aes_gcm_siv_key_wipe(NULL);
    vg_aes_gcm_siv_key_wipe(&key);
    return 0;
}
