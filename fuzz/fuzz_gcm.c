/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * fuzz_gcm — AES-GCM one-shot and streaming on every available implementation against the spec.
 *
 * Input layout (short inputs read as zeros):
 *   byte  k      key length 16/24/32 (k % 3); if k & 0x80 a bad key length (k >> 2) % 64 is tried too
 *   key_len      key
 *   byte  nb     nonce length 1 + nb % 64
 *   nonce_len    nonce
 *   byte  t      tag length {16,15,14,13,12,8,4}[t % 7]; if t & 0x80 the bad-length checks run with
 *                bad tag length (t >> 3) % 32 (skipped when that is valid) and nonce length 0
 *   2     a      AAD length a % (FZ_MAX_AAD + 1)
 *   byte  m      what the forgery check mutates: m % 4 = ciphertext, tag, nonce, AAD
 *   2     pos    which byte (mod the length of what is mutated)
 *   byte  x      XOR mask (0 read as 1, so the byte does change)
 *   4            seed of the streaming chunk lengths
 *   aad_len      AAD
 *   rest         plaintext (at most FZ_MAX_MSG bytes)
 */
#include "fuzz_common.h"
#include "spec.h"

/* seal and open with the key as const void *, for fz_check_aead. */
static int gcm_seal(const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                   const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag, size_t tag_len)
{
    return vg_aes_gcm_seal((const vg_aes_gcm_key *)k, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
}
static int gcm_open(const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                   const uint8_t *in, size_t len, const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    return vg_aes_gcm_open((const vg_aes_gcm_key *)k, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, out);
}
static const fz_aead gcm_aead = {"GCM", gcm_seal, gcm_open};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const size_t tag_lens[7] = {16, 15, 14, 13, 12, 8, 4};

static int tag_len_ok(size_t t)
{
    for (size_t i = 0; i < 7; i++)
        if (tag_lens[i] == t)
            return 1;
    return 0;
}

/* A rejected call writes nothing: out and tag keep the sentinel. */
static void check_bad_lengths(const vg_aes_gcm_key *k, const uint8_t *nonce, size_t nonce_len,
                              const uint8_t *aad, size_t aad_len, const uint8_t *msg, size_t len,
                              size_t tag_len, size_t bad_tag, size_t bad_key)
{
    static uint8_t out[FZ_MAX_MSG];
    uint8_t tag[32], tagin[32], key[64];
    int rc;

    memset(tagin, 0, sizeof tagin);
    if (!tag_len_ok(bad_tag)) {
        memset(out, FZ_SENTINEL, sizeof out);
        memset(tag, FZ_SENTINEL, sizeof tag);
        rc = vg_aes_gcm_seal(k, nonce, nonce_len, aad, aad_len, msg, len, out, tag, bad_tag);
        FZ_CHECK(rc == VG_ERR_TAG_LENGTH, "seal tag_len %zu = %d, want VG_ERR_TAG_LENGTH", bad_tag, rc);
        FZ_CHECK(fz_all(out, len, FZ_SENTINEL) && fz_all(tag, sizeof tag, FZ_SENTINEL),
                 "seal with bad tag_len %zu wrote output", bad_tag);
        rc = vg_aes_gcm_open(k, nonce, nonce_len, aad, aad_len, msg, len, tagin, bad_tag, out);
        FZ_CHECK(rc == VG_ERR_TAG_LENGTH, "open tag_len %zu = %d, want VG_ERR_TAG_LENGTH", bad_tag, rc);
        FZ_CHECK(fz_all(out, len, FZ_SENTINEL), "open with bad tag_len %zu wrote output", bad_tag);
    }
    /* Nonce length 0 is checked before the tag length: both bad gives VG_ERR_NONCE_LENGTH. */
    size_t tl = tag_len_ok(bad_tag) ? tag_len : bad_tag;
    memset(out, FZ_SENTINEL, sizeof out);
    memset(tag, FZ_SENTINEL, sizeof tag);
    rc = vg_aes_gcm_seal(k, nonce, 0, aad, aad_len, msg, len, out, tag, tl);
    FZ_CHECK(rc == VG_ERR_NONCE_LENGTH, "seal nonce_len 0 = %d, want VG_ERR_NONCE_LENGTH", rc);
    FZ_CHECK(fz_all(out, len, FZ_SENTINEL) && fz_all(tag, sizeof tag, FZ_SENTINEL),
             "seal with nonce_len 0 wrote output");
    rc = vg_aes_gcm_open(k, nonce, 0, aad, aad_len, msg, len, tagin, tl, out);
    FZ_CHECK(rc == VG_ERR_NONCE_LENGTH, "open nonce_len 0 = %d, want VG_ERR_NONCE_LENGTH", rc);
    FZ_CHECK(fz_all(out, len, FZ_SENTINEL), "open with nonce_len 0 wrote output");

    if (bad_key != 16 && bad_key != 24 && bad_key != 32) {
        static vg_aes_gcm_key kk;
        memset(key, 0x22, sizeof key);
        memset(&kk, FZ_SENTINEL, sizeof kk);
        rc = vg_aes_gcm_init(&kk, key, bad_key);
        FZ_CHECK(rc == VG_ERR_KEY_LENGTH, "vg_aes_gcm_init(len %zu) = %d", bad_key, rc);
        FZ_CHECK(fz_all((const uint8_t *)&kk, sizeof kk, FZ_SENTINEL), "rejected GCM key length wrote the key");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    static vg_aes_gcm_key k;
    static uint8_t want[FZ_MAX_MSG], got[FZ_MAX_MSG], pt[FZ_MAX_MSG], mct[FZ_MAX_MSG], aadm[FZ_MAX_AAD];
    uint8_t key[32], nonce[64], noncem[64], want_tag[16], tag[16], tagm[16];

    uint8_t kb = fz_byte(&in);
    size_t key_len = fz_aes_key_lens[kb % 3];
    fz_fill(&in, key, key_len);
    size_t nonce_len = 1 + fz_byte(&in) % 64;
    fz_fill(&in, nonce, nonce_len);
    uint8_t tb = fz_byte(&in);
    size_t tag_len = tag_lens[tb % 7];
    size_t aad_want = fz_u16(&in) % (FZ_MAX_AAD + 1);
    unsigned what = fz_byte(&in) % 4;
    size_t pos = fz_u16(&in);
    uint8_t x = fz_byte(&in);
    if (x == 0)
        x = 1;
    uint32_t seed = ((uint32_t)fz_u16(&in) << 16) | fz_u16(&in) | 1u;
    size_t aad_len, len;
    const uint8_t *aad = fz_bytes(&in, aad_want, &aad_len);
    const uint8_t *msg = fz_bytes(&in, FZ_MAX_MSG, &len);

    spec_aes_gcm_seal(key, key_len, nonce, nonce_len, aad, aad_len, msg, len, want, want_tag);

    /* The forgery: one byte of ciphertext, tag, nonce or AAD changed (the tag when the chosen one is
       empty). The spec decides whether it still verifies (a 4-byte tag collides with probability 2^-32,
       so "must fail" would be a flaky assertion); almost always it does not. */
    memcpy(mct, want, len);
    memcpy(tagm, want_tag, 16);
    memcpy(noncem, nonce, nonce_len);
    memcpy(aadm, aad, aad_len);
    if (what == 0 && len == 0)
        what = 1;
    if (what == 3 && aad_len == 0)
        what = 1;
    switch (what) {
    case 0: mct[pos % len] ^= x; break;
    case 1: tagm[pos % tag_len] ^= x; break;
    case 2: noncem[pos % nonce_len] ^= x; break;
    default: aadm[pos % aad_len] ^= x; break;
    }
    int forged_ok = spec_aes_gcm_open(key, key_len, noncem, nonce_len, aadm, aad_len, mct, len, tagm, tag_len, pt);
    FZ_CHECK(what == 1 ? !forged_ok : 1, "spec accepted a changed tag");

    const char **names;
    size_t n = fz_impls(&names);
    for (size_t i = 0; i < n; i++) {
        fz_select(names[i]);
        int rc = vg_aes_gcm_init(&k, key, key_len);
        FZ_CHECK(rc == VG_OK, "vg_aes_gcm_init = %d", rc);

        const fz_aead_case c = {nonce, aad, msg, want, want_tag, nonce_len, aad_len, len, tag_len,
                                noncem, aadm, mct, tagm, forged_ok, what};
        fz_check_aead(&gcm_aead, &k, &c, got, pt);

        /* Streaming seal with input-chosen AAD and data splits equals the one-shot. */
        vg_aes_gcm_stream st;
        uint32_t s = seed;
        rc = vg_aes_gcm_stream_init(&st, &k, nonce, nonce_len);
        FZ_CHECK(rc == VG_OK, "stream_init = %d", rc);
        for (size_t off = 0; off < aad_len;) {
            size_t ch = fz_chunk(&s, aad_len - off);
            rc = vg_aes_gcm_stream_aad(&st, aad + off, ch);
            FZ_CHECK(rc == VG_OK, "stream_aad = %d", rc);
            off += ch;
        }
        memset(got, FZ_SENTINEL, sizeof got);
        for (size_t off = 0; off < len;) {
            size_t ch = fz_chunk(&s, len - off);
            rc = vg_aes_gcm_stream_encrypt(&st, msg + off, ch, got + off);
            FZ_CHECK(rc == VG_OK, "stream_encrypt = %d", rc);
            off += ch;
        }
        FZ_EQ(got, want, len, "GCM streaming ciphertext");
        if (tb & 0x80) {
            size_t bad = (size_t)(tb >> 3) % 32;
            if (!tag_len_ok(bad)) {
                memset(tag, FZ_SENTINEL, sizeof tag);
                rc = vg_aes_gcm_stream_finish(&st, tag, bad);
                FZ_CHECK(rc == VG_ERR_TAG_LENGTH, "stream_finish(tag_len %zu) = %d", bad, rc);
                FZ_CHECK(fz_all(tag, sizeof tag, FZ_SENTINEL), "rejected stream_finish wrote the tag");
            }
        }
        rc = vg_aes_gcm_stream_finish(&st, tag, tag_len);
        FZ_CHECK(rc == VG_OK, "stream_finish = %d", rc);
        FZ_EQ(tag, want_tag, tag_len, "GCM streaming tag");

        /* Streaming open, in place, with fresh splits; then verify the right and a changed tag. */
        for (int bad_tag = 0; bad_tag < 2; bad_tag++) {
            rc = vg_aes_gcm_stream_init(&st, &k, nonce, nonce_len);
            FZ_CHECK(rc == VG_OK, "stream_init = %d", rc);
            for (size_t off = 0; off < aad_len;) {
                size_t ch = fz_chunk(&s, aad_len - off);
                rc = vg_aes_gcm_stream_aad(&st, aad + off, ch);
                FZ_CHECK(rc == VG_OK, "stream_aad = %d", rc);
                off += ch;
            }
            memcpy(got, want, len);
            for (size_t off = 0; off < len;) {
                size_t ch = fz_chunk(&s, len - off);
                rc = vg_aes_gcm_stream_decrypt(&st, got + off, ch, got + off);
                FZ_CHECK(rc == VG_OK, "stream_decrypt = %d", rc);
                off += ch;
            }
            FZ_EQ(got, msg, len, "GCM streaming plaintext");
            memcpy(tag, want_tag, 16);
            if (bad_tag)
                tag[pos % tag_len] ^= x;
            rc = vg_aes_gcm_stream_verify(&st, tag, tag_len);
            FZ_CHECK(rc == (bad_tag ? VG_ERR_AUTH : VG_OK), "stream_verify(bad=%d) = %d", bad_tag, rc);
            rc = vg_aes_gcm_stream_aad(&st, aad, 0);
            FZ_CHECK(rc == VG_ERR_ARG, "stream used after verify = %d, want VG_ERR_ARG", rc);
        }

        if (tb & 0x80)
            check_bad_lengths(&k, nonce, nonce_len, aad, aad_len, msg, len, tag_len, (size_t)(tb >> 3) % 32,
                              (size_t)(kb >> 2) % 64);
        vg_aes_gcm_key_wipe(&k);
    }
    return 0;
}
