/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * fuzz_aes — the block cipher, ECB, CTR32 and the CTR byte stream on every available implementation,
 * compared with the executable spec (spec/spec.h).
 *
 * Input layout (fuzz_common.h readers; short inputs read as zeros):
 *   byte  k     key length: k % 3 picks 16/24/32; if k & 0x80 a bad length (k >> 2) % 64 is also tried
 *   key_len     key bytes
 *   16          initial counter block
 *   byte  w     if w & 1 the counter's last word is set to 2^32 - 1 - ((w >> 1) % 16), so the batch
 *               crosses the inc32 wrap (the first 96 bits must stay unchanged)
 *   4           seed of the chunk lengths for the CTR stream
 *   rest        data (at most FZ_MAX_MSG bytes); ECB/CTR32 use its whole blocks, the stream all of it
 */
#include "fuzz_common.h"
#include "spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_bad_key_length(size_t bad)
{
    static vg_aes_key k;
    uint8_t key[64];
    if (bad == 16 || bad == 24 || bad == 32)
        return;
    memset(key, 0x11, sizeof key);
    memset(&k, FZ_SENTINEL, sizeof k);
    int rc = vg_aes_expand_key(&k, key, bad);
    FZ_CHECK(rc == VG_ERR_KEY_LENGTH, "vg_aes_expand_key(len %zu) = %d, want VG_ERR_KEY_LENGTH", bad, rc);
    FZ_CHECK(fz_all((const uint8_t *)&k, sizeof k, FZ_SENTINEL), "rejected key length %zu wrote the key", bad);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    static vg_aes_key k;
    /* want_ctr holds the data rounded up to whole blocks: one block more than FZ_MAX_MSG. */
    static uint8_t want_ecb[FZ_MAX_MSG], want_dec[FZ_MAX_MSG], want_ctr[FZ_MAX_MSG + 16];
    static uint8_t got[FZ_MAX_MSG], got2[FZ_MAX_MSG];
    uint8_t key[32], ctr0[16], want_ctr_end[16], c[16];

    uint8_t kb = fz_byte(&in);
    size_t key_len = fz_aes_key_lens[kb % 3];
    fz_fill(&in, key, key_len);
    fz_fill(&in, ctr0, 16);
    uint8_t w = fz_byte(&in);
    if (w & 1) {
        uint32_t last = 0xFFFFFFFFu - (uint32_t)((w >> 1) % 16);
        ctr0[12] = (uint8_t)(last >> 24);
        ctr0[13] = (uint8_t)(last >> 16);
        ctr0[14] = (uint8_t)(last >> 8);
        ctr0[15] = (uint8_t)last;
    }
    uint32_t seed = (uint32_t)fz_u16(&in) << 16;
    seed |= fz_u16(&in);
    seed |= 1;
    size_t len;
    const uint8_t *msg = fz_bytes(&in, FZ_MAX_MSG, &len);
    size_t nblocks = len / 16;

    if (kb & 0x80)
        check_bad_key_length((size_t)(kb >> 2) % 64);

    /* The spec's answers, computed once: every implementation must reproduce them. The CTR32
       keystream is computed over the data rounded up to whole blocks so the byte stream can use it. */
    spec_aes_ecb_encrypt(key, key_len, msg, want_ecb, nblocks);
    spec_aes_ecb_decrypt(key, key_len, msg, want_dec, nblocks);
    size_t sblocks = (len + 15) / 16;
    memset(want_ctr, 0, sizeof want_ctr);
    memcpy(want_ctr, msg, len);
    memcpy(want_ctr_end, ctr0, 16);
    spec_aes_ctr32(key, key_len, want_ctr_end, want_ctr, want_ctr, sblocks);
    /* want_ctr_end is cb + sblocks; the whole-block CTR32 call below ends at cb + nblocks. */
    uint8_t want_ctr_blk_end[16];
    memcpy(want_ctr_blk_end, ctr0, 16);
    {
        uint32_t last = ((uint32_t)ctr0[12] << 24) | ((uint32_t)ctr0[13] << 16) | ((uint32_t)ctr0[14] << 8) | ctr0[15];
        last += (uint32_t)nblocks; /* inc32: mod 2^32 by unsigned wrap-around */
        want_ctr_blk_end[12] = (uint8_t)(last >> 24);
        want_ctr_blk_end[13] = (uint8_t)(last >> 16);
        want_ctr_blk_end[14] = (uint8_t)(last >> 8);
        want_ctr_blk_end[15] = (uint8_t)last;
    }
    FZ_EQ(want_ctr_end, ctr0, 12, "spec counter prefix"); /* the spec itself must keep 96 bits */

    const char **names;
    size_t n = fz_impls(&names);
    for (size_t i = 0; i < n; i++) {
        fz_select(names[i]);
        int rc = vg_aes_expand_key(&k, key, key_len);
        FZ_CHECK(rc == VG_OK, "vg_aes_expand_key(%zu) = %d", key_len, rc);

        /* ECB, separate buffers then in place. */
        if (vg_aes_ecb_encrypt(&k, msg, got, nblocks) != VG_OK) __builtin_trap();
        FZ_EQ(got, want_ecb, nblocks * 16, "ECB encrypt");
        if (vg_aes_ecb_decrypt(&k, got, got, nblocks) != VG_OK) __builtin_trap();
        FZ_EQ(got, msg, nblocks * 16, "ECB decrypt(encrypt(x)) in place");
        if (vg_aes_ecb_decrypt(&k, msg, got2, nblocks) != VG_OK) __builtin_trap();
        FZ_EQ(got2, want_dec, nblocks * 16, "ECB decrypt");
        if (vg_aes_ecb_encrypt(&k, got2, got2, nblocks) != VG_OK) __builtin_trap();
        FZ_EQ(got2, msg, nblocks * 16, "ECB encrypt(decrypt(x)) in place");

        /* CTR32 over the whole blocks, counter near the wrap when w says so. */
        memcpy(c, ctr0, 16);
        if (vg_aes_ctr32(&k, c, msg, got, nblocks) != VG_OK) __builtin_trap();
        FZ_EQ(got, want_ctr, nblocks * 16, "CTR32");
        FZ_EQ(c, want_ctr_blk_end, 16, "CTR32 counter write-back");
        memcpy(got2, msg, nblocks * 16);
        memcpy(c, ctr0, 16);
        if (vg_aes_ctr32(&k, c, got2, got2, nblocks) != VG_OK) __builtin_trap();
        FZ_EQ(got2, want_ctr, nblocks * 16, "CTR32 in place");
        FZ_EQ(c, want_ctr_blk_end, 16, "CTR32 in-place counter write-back");

        /* The byte stream over all len bytes in input-chosen chunks, alternately in place. */
        vg_aes_ctr_stream st;
        rc = vg_aes_ctr_stream_init(&st, &k, ctr0);
        FZ_CHECK(rc == VG_OK, "vg_aes_ctr_stream_init = %d", rc);
        uint32_t s = seed;
        size_t off = 0, calls = 0;
        memcpy(got2, msg, len);
        while (off < len || calls == 0) {
            size_t ch = fz_chunk(&s, len - off);
            if (calls & 1)
                rc = vg_aes_ctr_stream_xor(&st, got2 + off, got2 + off, ch);
            else
                rc = vg_aes_ctr_stream_xor(&st, msg + off, got + off, ch);
            FZ_CHECK(rc == VG_OK, "vg_aes_ctr_stream_xor = %d", rc);
            if (calls & 1)
                memcpy(got + off, got2 + off, ch);
            off += ch;
            calls++;
        }
        FZ_EQ(got, want_ctr, len, "CTR stream");
        vg_aes_ctr_stream_wipe(&st);
        vg_aes_key_wipe(&k);
    }
    return 0;
}
