/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * fuzz_gcm_siv — AES-GCM-SIV (RFC 8452) on every available implementation against the spec.
 *
 * Input layout (short inputs read as zeros):
 *   byte  k      key length 16/24/32 ((k & 0x7f) % 3); if k & 0x80 the bad-length checks run (bytes bn,
 *                bt below)
 *   key_len      key
 *   12           nonce
 *   byte  bn     bad nonce length bn % 32 (skipped when 12)
 *   byte  bt     bad tag length bt % 32 (skipped when 16); bad key length (bt >> 2) % 64 (skipped when
 *                16, 24 or 32)
 *   2     a      AAD length a % (FZ_MAX_AAD + 1)
 *   byte  m      what the forgery check mutates: m % 4 = ciphertext, tag, nonce, AAD
 *   2     pos    which byte;  byte x: XOR mask (0 read as 1)
 *   aad_len      AAD;  rest: plaintext (at most FZ_MAX_MSG bytes)
 */
#include "fuzz_common.h"
#include "spec.h"

/* seal and open with the key as const void *, for fz_check_aead. */
static int siv_seal(const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                   const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag, size_t tag_len)
{
    return vg_aes_gcm_siv_seal((const vg_aes_gcm_siv_key *)k, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
}
static int siv_open(const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                   const uint8_t *in, size_t len, const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    return vg_aes_gcm_siv_open((const vg_aes_gcm_siv_key *)k, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, out);
}
static const fz_aead siv_aead = {"GCM-SIV", siv_seal, siv_open};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Errors are checked in the order ARG, NONCE_LENGTH, TAG_LENGTH, LENGTH; a rejected call writes
   nothing. */
static void check_bad_lengths(const vg_aes_gcm_siv_key *k, const uint8_t *nonce, const uint8_t *aad,
                              size_t aad_len, const uint8_t *msg, size_t len, size_t bad_nonce,
                              size_t bad_tag, size_t bad_key)
{
    static uint8_t out[FZ_MAX_MSG];
    uint8_t tag[32], tagin[32], nbuf[32], key[64];
    int rc;
    memset(tagin, 0, sizeof tagin);
    memset(nbuf, 0, sizeof nbuf);
    memcpy(nbuf, nonce, 12);
    for (int which = 0; which < 2; which++) {
        size_t nl = which == 0 ? bad_nonce : 12;
        size_t tl = which == 0 ? (bad_tag != 16 ? bad_tag : 16) : bad_tag;
        int want = which == 0 ? VG_ERR_NONCE_LENGTH : VG_ERR_TAG_LENGTH;
        if (nl == 12 && tl == 16)
            continue;
        if (which == 0 && nl == 12)
            continue;
        memset(out, FZ_SENTINEL, sizeof out);
        memset(tag, FZ_SENTINEL, sizeof tag);
        rc = vg_aes_gcm_siv_seal(k, nbuf, nl, aad, aad_len, msg, len, out, tag, tl);
        FZ_CHECK(rc == want, "seal nonce_len %zu tag_len %zu = %d, want %d", nl, tl, rc, want);
        FZ_CHECK(fz_all(out, len, FZ_SENTINEL) && fz_all(tag, sizeof tag, FZ_SENTINEL),
                 "rejected seal (nonce_len %zu tag_len %zu) wrote output", nl, tl);
        rc = vg_aes_gcm_siv_open(k, nbuf, nl, aad, aad_len, msg, len, tagin, tl, out);
        FZ_CHECK(rc == want, "open nonce_len %zu tag_len %zu = %d, want %d", nl, tl, rc, want);
        FZ_CHECK(fz_all(out, len, FZ_SENTINEL), "rejected open (nonce_len %zu tag_len %zu) wrote output", nl, tl);
    }
    if (bad_key != 16 && bad_key != 24 && bad_key != 32) {
        static vg_aes_gcm_siv_key kk;
        memset(key, 0x33, sizeof key);
        memset(&kk, FZ_SENTINEL, sizeof kk);
        rc = vg_aes_gcm_siv_init(&kk, key, bad_key);
        FZ_CHECK(rc == VG_ERR_KEY_LENGTH, "vg_aes_gcm_siv_init(len %zu) = %d", bad_key, rc);
        FZ_CHECK(fz_all((const uint8_t *)&kk, sizeof kk, FZ_SENTINEL), "rejected GCM-SIV key length wrote the key");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    static vg_aes_gcm_siv_key k;
    static uint8_t want[FZ_MAX_MSG], got[FZ_MAX_MSG], pt[FZ_MAX_MSG], mct[FZ_MAX_MSG], aadm[FZ_MAX_AAD];
    uint8_t key[32], nonce[12], noncem[12], want_tag[16], tagm[16];

    uint8_t kb = fz_byte(&in);
    static const size_t key_lens[3] = {16, 24, 32};
    size_t key_len = key_lens[(kb & 0x7f) % 3];
    fz_fill(&in, key, key_len);
    fz_fill(&in, nonce, 12);
    size_t bad_nonce = fz_byte(&in) % 32;
    uint8_t bt = fz_byte(&in);
    size_t aad_want = fz_u16(&in) % (FZ_MAX_AAD + 1);
    unsigned what = fz_byte(&in) % 4;
    size_t pos = fz_u16(&in);
    uint8_t x = fz_byte(&in);
    if (x == 0)
        x = 1;
    size_t aad_len, len;
    const uint8_t *aad = fz_bytes(&in, aad_want, &aad_len);
    const uint8_t *msg = fz_bytes(&in, FZ_MAX_MSG, &len);

    spec_aes_gcm_siv_seal(key, key_len, nonce, aad, aad_len, msg, len, want, want_tag);

    memcpy(mct, want, len);
    memcpy(tagm, want_tag, 16);
    memcpy(noncem, nonce, 12);
    memcpy(aadm, aad, aad_len);
    if ((what == 0 && len == 0) || (what == 3 && aad_len == 0))
        what = 1;
    switch (what) {
    case 0: mct[pos % len] ^= x; break;
    case 1: tagm[pos % 16] ^= x; break;
    case 2: noncem[pos % 12] ^= x; break;
    default: aadm[pos % aad_len] ^= x; break;
    }
    int forged_ok = spec_aes_gcm_siv_open(key, key_len, noncem, aadm, aad_len, mct, len, tagm, pt);

    const char **names;
    size_t n = fz_impls(&names);
    for (size_t i = 0; i < n; i++) {
        fz_select(names[i]);
        int rc = vg_aes_gcm_siv_init(&k, key, key_len);
        FZ_CHECK(rc == VG_OK, "vg_aes_gcm_siv_init = %d", rc);

        const fz_aead_case c = {nonce, aad, msg, want, want_tag, 12, aad_len, len, 16,
                                noncem, aadm, mct, tagm, forged_ok, what};
        fz_check_aead(&siv_aead, &k, &c, got, pt);

        if (kb & 0x80)
            check_bad_lengths(&k, nonce, aad, aad_len, msg, len, bad_nonce, bt % 32, (size_t)(bt >> 2) % 64);
        vg_aes_gcm_siv_key_wipe(&k);
    }
    return 0;
}
