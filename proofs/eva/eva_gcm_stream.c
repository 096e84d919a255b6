/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * eva_gcm_stream.c — Eva entry point for streaming AES-GCM (src/modes/gcm.c): each stream is
 * init, two AAD calls, three data calls, then finish (encrypting side) or verify (decrypting side,
 * in place). The splits: the first AAD call of every length 0..17 (every number of pending AAD
 * bytes) with a second of 0 or 7; the first data call of every length 0..33 with a second of 17
 * or 1 then 16; first data calls around the 15-block staging buffer (239..241, 256, 257 bytes);
 * nonce lengths 1, 13, 16, 17, 33; every tag length 0..17; calls out of order.
 * Every data call is in place (in == out): with two separate buffers Eva cannot decide the overlap
 * check (vg_partial_overlap compares the addresses of two distinct objects), so it also follows the
 * VG_ERR_ARG return, joins that untouched stream with the advanced one and loses the relation
 * between the stream's fields. Separate buffers are covered by the one-shot runs, which share
 * gcm_data with the stream (docs/proofs-eva.md).
 * Kernels are their contracts (kernel_specs.h).
 */
#include "eva_common.h"
#include "kernel_specs.h"

static vg_aes_gcm_key key;

static void stream(size_t nonce_len, size_t a1, size_t a2, size_t d1, size_t d2, size_t d3,
                   size_t tag_len)
{
    vg_aes_gcm_stream s;
    uint8_t *nonce = eva_input(nonce_len), *x1 = eva_input(a1), *x2 = eva_input(a2);
    uint8_t *p1 = eva_input(d1), *p2 = eva_input(d2), *p3 = eva_input(d3);
    uint8_t *tag = eva_output(tag_len);

    vg_aes_gcm_stream_init(&s, &key, nonce, nonce_len);
    vg_aes_gcm_stream_aad(&s, x1, a1);
    vg_aes_gcm_stream_aad(&s, x2, a2);
    vg_aes_gcm_stream_encrypt(&s, p1, d1, p1);
    vg_aes_gcm_stream_encrypt(&s, p2, d2, p2);
    vg_aes_gcm_stream_encrypt(&s, p3, d3, p3);
    vg_aes_gcm_stream_finish(&s, tag, tag_len);

    free(tag);
    tag = eva_input(tag_len);
    vg_aes_gcm_stream_init(&s, &key, nonce, nonce_len);
    vg_aes_gcm_stream_aad(&s, x1, a1);
    vg_aes_gcm_stream_aad(&s, x2, a2);
    vg_aes_gcm_stream_decrypt(&s, p1, d1, p1);
    vg_aes_gcm_stream_decrypt(&s, p2, d2, p2);
    vg_aes_gcm_stream_decrypt(&s, p3, d3, p3);
    vg_aes_gcm_stream_verify(&s, tag, tag_len);
    vg_aes_gcm_stream_wipe(&s);
    free(nonce); free(x1); free(x2); free(p1); free(p2); free(p3); free(tag);
}

int main(void)
{
    EVA_SETUP_KEY(vg_aes_gcm_init, &key);

    //@ loop unroll 18;
    for (size_t a1 = 0; a1 <= 17; a1++) {
        stream(12, a1, 0, 20, 0, 0, 16);
        stream(12, a1, 7, 0, 0, 0, 16);
    }
    //@ loop unroll 34;
    for (size_t d1 = 0; d1 <= 33; d1++) {
        stream(12, 5, 0, d1, 17, 0, 16);
        stream(12, 0, 0, d1, 1, 16, 16);
    }
    stream(12, 3, 0, 239, 15, 2, 16);
    stream(12, 3, 0, 240, 15, 2, 16);
    stream(12, 3, 0, 241, 15, 2, 16);
    stream(12, 3, 0, 256, 15, 2, 16);
    stream(12, 3, 0, 257, 15, 2, 16);
    stream(1, 3, 0, 5, 0, 0, 16);
    stream(13, 3, 0, 5, 0, 0, 16);
    stream(16, 3, 0, 5, 0, 0, 16);
    stream(17, 3, 0, 5, 0, 0, 16);
    stream(33, 3, 0, 5, 0, 0, 16);
    //@ loop unroll 18;
    for (size_t tl = 0; tl <= 17; tl++) stream(12, 0, 0, 1, 0, 0, tl);

    /* out of order, or on a stream never set up / already finished: VG_ERR_ARG, nothing written */
    vg_aes_gcm_stream s;
    uint8_t n[12], b[16], t[16];
    Frama_C_make_unknown((char *)n, 12);
    Frama_C_make_unknown((char *)b, 16);
    vg_aes_gcm_stream_init(&s, &key, n, 12);
    vg_aes_gcm_stream_encrypt(&s, b, 16, b);
    vg_aes_gcm_stream_aad(&s, b, 1);
    vg_aes_gcm_stream_decrypt(&s, b, 16, b);
    vg_aes_gcm_stream_verify(&s, t, 16);
    vg_aes_gcm_stream_finish(&s, t, 16);
    vg_aes_gcm_stream_encrypt(&s, b, 16, b);
    vg_aes_gcm_stream_init(&s, &key, n, 0);
    vg_aes_gcm_stream_init(&s, &key, NULL, 12);
    vg_aes_gcm_stream_init(NULL, &key, n, 12);
    vg_aes_gcm_stream_wipe(NULL);
    return 0;
}
