/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * eva_aes.c — Eva entry point for the block API and the CTR stream (src/modes/aes.c, ctr.c), the
 * implementation selection (src/impl.c, portable only) and the helpers (src/util.c):
 *   - vg_aes_expand_key with every key length 0..40, NULL key, NULL k;
 *   - ECB both ways and CTR32 for every block count 0..EVA_MAX_BLOCKS, separate and in place;
 *   - the CTR stream: every length 0..EVA_MAX_LEN in one call (separate buffers); a first call of
 *     every length 0..17 (in place, like every call of a split)
 *     (so every number of keystream bytes left over, 0..16) followed by one of 0, 1, 15, 16, 17 or 33
 *     bytes, in place, then 17 more;
 *   - vg_strerror for every code, vg_impl_name/select/list, the wipes.
 * Kernels are their contracts (kernel_specs.h).
 */
#include "eva_common.h"
#include "kernel_specs.h"

static vg_aes_key key;

static void stream3(size_t a, size_t b, size_t c)
{
    vg_aes_ctr_stream s;
    uint8_t *counter = eva_input(16);
    uint8_t *x = eva_input(a), *y = eva_input(b), *z = eva_input(c), *out = eva_output(a);
    vg_aes_ctr_stream_init(&s, &key, counter);
    if (b == 0 && c == 0)
        vg_aes_ctr_stream_xor(&s, x, out, a); /* one call: separate buffers */
    else
        vg_aes_ctr_stream_xor(&s, x, x, a);   /* a split: in place (see eva_gcm_stream.c for why) */
    vg_aes_ctr_stream_xor(&s, y, y, b);
    vg_aes_ctr_stream_xor(&s, z, z, c);
    vg_aes_ctr_stream_wipe(&s);
    free(counter); free(x); free(y); free(z); free(out);
}

int main(void)
{
    vg_aes_key scratch;
    //@ loop unroll 41;
    for (size_t kl = 0; kl <= 40; kl++) {
        uint8_t *k = eva_input(kl);
        vg_aes_expand_key(&scratch, k, kl);
        free(k);
    }
    vg_aes_expand_key(&scratch, NULL, 16);
    vg_aes_expand_key(NULL, NULL, 16);
    EVA_SETUP_KEY(vg_aes_expand_key, &key);

    //@ loop unroll EVA_MAX_BLOCKS + 1;
    for (size_t n = 0; n <= EVA_MAX_BLOCKS; n++) {
        uint8_t *in = eva_input(16 * n), *out = eva_output(16 * n), *counter = eva_input(16);
        vg_aes_ecb_encrypt(&key, in, out, n);
        vg_aes_ecb_encrypt(&key, in, in, n);
        vg_aes_ecb_decrypt(&key, in, out, n);
        vg_aes_ecb_decrypt(&key, in, in, n);
        vg_aes_ctr32(&key, counter, in, out, n);
        vg_aes_ctr32(&key, counter, in, in, n);
        free(in); free(out); free(counter);
    }
    uint8_t b[32], c[16];
    Frama_C_make_unknown((char *)b, sizeof b);
    Frama_C_make_unknown((char *)c, sizeof c);
    vg_aes_ecb_encrypt(&key, b, b + 1, 1);  /* partial overlap: VG_ERR_ARG, nothing written */
    vg_aes_ecb_encrypt(&key, NULL, b, 1);
    vg_aes_key_wipe(&scratch);
    vg_aes_ecb_decrypt(&scratch, b, b, 1);  /* a wiped key: VG_ERR_ARG */
    vg_aes_ctr32(&key, NULL, b, b, 1);
    vg_aes_ctr32(&key, c, b, b, SIZE_MAX);  /* nblocks * 16 overflows: VG_ERR_ARG */
    vg_aes_ctr32(&key, b + 8, b, b, 1);     /* the counter overlaps in and out: VG_ERR_ARG */

    //@ loop unroll EVA_MAX_LEN + 1;
    for (size_t n = 0; n <= EVA_MAX_LEN; n++) stream3(n, 0, 0);
    //@ loop unroll 18;
    for (size_t a = 0; a <= 17; a++) {
        stream3(a, 0, 17);
        stream3(a, 1, 17);
        stream3(a, 15, 17);
        stream3(a, 16, 17);
        stream3(a, 17, 17);
        stream3(a, 33, 17);
    }
    vg_aes_ctr_stream s;
    vg_aes_ctr_stream_init(&s, &scratch, c);
    vg_aes_ctr_stream_init(NULL, &key, c);
    vg_aes_ctr_stream_xor(NULL, b, b, 1);

    //@ loop unroll 10;
    for (int code = -8; code <= 1; code++) vg_strerror(code);
    vg_impl_name();
    vg_impl_select(NULL);
    vg_impl_select("portable");
    vg_impl_select("auto");
    vg_impl_select("aesni");
    const char *names[2];
    vg_impl_list(names, 2);
    vg_impl_list(NULL, 0);
    vg_aes_key_wipe(&scratch);
    vg_aes_key_wipe(NULL);
    vg_aes_key_wipe(&key);
    return 0;
}
