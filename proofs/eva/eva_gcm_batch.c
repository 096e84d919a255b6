/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * eva_gcm_batch.c — Eva entry point for the GCM batches (vg_aes_gcm_seal_batch, vg_aes_gcm_open_batch
 * in src/modes/gcm.c).
 *   - batches of every count 0..EVA_BATCH_MAX whose messages take every path of the loop (vg.h: a batch
 *     is the one-shot calls in array order): short ones with 12-byte nonces, a longer one and one
 *     with a 13-byte nonce, one with a tag length refused, one with a NULL buffer; every data length
 *     0..EVA_MAX_LEN and each of EVA_LONG in the first message, AAD of 0 and 23;
 *   - in place, and with the results array over a refused message's buffer and over an accepted
 *     message's out (both the loop's business now: results[i] is written after message i);
 *   - the batch-wide errors: no key, NULL arrays with a count.
 * The kernels are their contracts (kernel_specs.h). Eva's build has the portable implementation
 * only, which has no two-message kernel: the pair path (batch_pair_ok, batch_pair) is the vaes256
 * table's, and is tested, not analysed here (docs/proofs-eva.md).
 */
#include "eva_common.h"
#include "kernel_specs.h"

#define EVA_BATCH_MAX 9

static vg_aes_gcm_key key;

/* Message i of a batch whose first message has len0 bytes of data. */
static void fill(vg_aes_gcm_batch_msg *m, size_t i, size_t len0, size_t aad_len, int in_place)
{
    static const size_t lens[EVA_BATCH_MAX] = { 0, 17, 256, 1, 300, 16, 40, 255, 33 };
    size_t len = i == 0 ? len0 : lens[i], nonce_len = i == 4 ? 13 : 12, tag_len = i == 5 ? 5 : i == 6 ? 12 : 16;
    m->nonce_len = nonce_len;
    m->nonce = eva_input(nonce_len);
    m->aad_len = aad_len;
    m->aad = eva_input(aad_len);
    m->len = len;
    m->in = eva_input(len);
    m->out = in_place ? (uint8_t *)(uintptr_t)m->in : eva_output(len);
    m->tag_len = tag_len;
    m->tag = eva_input(tag_len);
    if (i == 7) m->in = NULL; /* VG_ERR_ARG for this message only */
}

static void run(size_t n, size_t len0, size_t aad_len, int in_place)
{
    vg_aes_gcm_batch_msg m[EVA_BATCH_MAX];
    int results[EVA_BATCH_MAX];
    //@ loop unroll EVA_BATCH_MAX;
    for (size_t i = 0; i < n; i++) fill(&m[i], i, len0, aad_len, in_place);
    vg_aes_gcm_seal_batch(&key, m, n, results);
    vg_aes_gcm_open_batch(&key, m, n, results);
    //@ loop unroll EVA_BATCH_MAX;
    for (size_t i = 0; i < n; i++) {
        free((void *)(uintptr_t)m[i].nonce);
        free((void *)(uintptr_t)m[i].aad);
        if (!in_place) free(m[i].out);
        free((void *)(uintptr_t)m[i].in);
        free(m[i].tag);
    }
}

int main(void)
{
    EVA_SETUP_KEY(vg_aes_gcm_init, &key);
    //@ loop unroll EVA_BATCH_MAX + 1;
    for (size_t n = 0; n <= EVA_BATCH_MAX; n++) run(n, 64, 23, n & 1);
    //@ loop unroll EVA_MAX_LEN + 1;
    for (size_t len = 0; len <= EVA_MAX_LEN; len++) run(3, len, 0, 0);
    static const size_t long_len[] = { EVA_LONG };
    //@ loop unroll 16;
    for (size_t j = 0; j < sizeof long_len / sizeof long_len[0]; j++) run(3, long_len[j], 23, 1);

    /* results over a refused message's (7's) buffers: allowed */
    {
        vg_aes_gcm_batch_msg m[8];
        //@ loop unroll 8;
        for (size_t i = 0; i < 8; i++) fill(&m[i], i, 16, 0, 0);
        int *r = malloc(8 * sizeof(int));
        m[7].in = NULL;
        m[7].out = (uint8_t *)r;
        m[7].len = 8 * sizeof(int);
        vg_aes_gcm_seal_batch(&key, m, 8, r);
        /* and over message 0's out (accepted): message 0 writes it, then results[0] is written */
        const uint8_t *in0 = eva_input(8 * sizeof(int));
        m[0].in = in0;
        m[0].out = (uint8_t *)r;
        m[0].len = 8 * sizeof(int);
        vg_aes_gcm_seal_batch(&key, m, 8, r);
        free((void *)(uintptr_t)in0);
        free(r);
    }
    /* the batch-wide errors */
    {
        vg_aes_gcm_batch_msg m[2];
        int r[2];
        fill(&m[0], 1, 16, 0, 0);
        fill(&m[1], 2, 16, 0, 0);
        vg_aes_gcm_seal_batch(NULL, m, 2, r);
        vg_aes_gcm_seal_batch(&key, NULL, 2, r);
        vg_aes_gcm_open_batch(&key, m, 2, NULL);
        vg_aes_gcm_open_batch(&key, NULL, 0, NULL);
    }
    return 0;
}
