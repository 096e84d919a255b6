/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * fuzz_ccm — AES-CCM (SP 800-38C) on every available implementation against the spec.
 *
 * Input layout (short inputs read as zeros):
 *   byte  k      key length 16/24/32 (k % 3); if k & 0x80 the bad-length checks run (bytes bn, bt)
 *   key_len      key
 *   byte  nb     nonce length 7 + nb % 7 (L = 15 - nonce_len bytes of length field)
 *   nonce_len    nonce
 *   byte  t      tag length 4 + 2 * (t % 7)
 *   byte  bn     bad nonce length bn % 32 (skipped when 7..13); bit 5: also try 2^16 bytes (VG_ERR_LENGTH)
 *   byte  bt     bad tag length bt % 32 (skipped when valid); bad key length (bt >> 2) % 64
 *   2     a      AAD length a % (FZ_MAX_AAD + 1)
 *   byte  m      what the forgery check mutates: m % 4 = ciphertext, tag, nonce, AAD
 *   2     pos    which byte;  byte x: XOR mask (0 read as 1)
 *   aad_len      AAD;  rest: plaintext (at most FZ_MAX_MSG bytes)
 */
#include "fuzz_common.h"
#include "spec.h"

/* seal and open with the key as const void *, for fz_check_aead. */
static int ccm_seal(const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                   const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag, size_t tag_len)
{
    return vg_aes_ccm_seal((const vg_aes_ccm_key *)k, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
}
static int ccm_open(const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                   const uint8_t *in, size_t len, const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    return vg_aes_ccm_open((const vg_aes_ccm_key *)k, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, out);
}
static const fz_aead ccm_aead = {"CCM", ccm_seal, ccm_open};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int tag_ok(size_t t) { return t >= 4 && t <= 16 && (t & 1) == 0; }
static int nonce_ok(size_t n) { return n >= 7 && n <= 13; }

#define BIG (1u << 16)

/* A message too long for the length field: with a 13-byte nonce L = 2, so 2^16 bytes is one too many.
   VG_ERR_LENGTH, nothing written. Untouched is checked with memcmp against a sentinel copy (fast). */
static void check_too_long(const vg_aes_ccm_key *k, const uint8_t *nbuf, size_t tag_len, const uint8_t *aad,
                           size_t aad_len)
{
    static uint8_t out[BIG], big_in[BIG], sent[BIG];
    uint8_t tag[32], tagin[32];
    int rc;
    memset(tagin, 0, sizeof tagin);
    if (sent[0] != FZ_SENTINEL)
        memset(sent, FZ_SENTINEL, BIG);
    memset(out, FZ_SENTINEL, BIG);
    memset(tag, FZ_SENTINEL, sizeof tag);
    rc = vg_aes_ccm_seal(k, nbuf, 13, aad, aad_len, big_in, BIG, out, tag, tag_len);
    FZ_CHECK(rc == VG_ERR_LENGTH, "seal of 2^16 bytes with a 13-byte nonce = %d, want VG_ERR_LENGTH", rc);
    FZ_CHECK(memcmp(out, sent, BIG) == 0 && fz_all(tag, sizeof tag, FZ_SENTINEL), "seal over the length limit wrote output");
    rc = vg_aes_ccm_open(k, nbuf, 13, aad, aad_len, big_in, BIG, tagin, tag_len, out);
    FZ_CHECK(rc == VG_ERR_LENGTH, "open of 2^16 bytes with a 13-byte nonce = %d, want VG_ERR_LENGTH", rc);
    FZ_CHECK(memcmp(out, sent, BIG) == 0, "open over the length limit wrote output");
}

static void check_bad_lengths(const vg_aes_ccm_key *k, const uint8_t *nonce, size_t nonce_len,
                              size_t tag_len, const uint8_t *aad, size_t aad_len, const uint8_t *msg,
                              size_t len, size_t bad_nonce, size_t bad_tag, size_t bad_key)
{
    static uint8_t out[FZ_MAX_MSG];
    uint8_t tag[32], tagin[32], nbuf[32], key[64];
    int rc;
    memset(tagin, 0, sizeof tagin);
    memset(nbuf, 0, sizeof nbuf);
    memcpy(nbuf, nonce, nonce_len);
    if (bad_nonce & 0x20)
        check_too_long(k, nbuf, tag_len, aad, aad_len);
    for (int which = 0; which < 2; which++) {
        /* which 0: bad nonce (whatever the tag: nonce is checked first); 1: good nonce, bad tag. */
        size_t nl = which == 0 ? bad_nonce % 32 : nonce_len;
        size_t tl = which == 0 ? (tag_ok(bad_tag) ? tag_len : bad_tag) : bad_tag;
        int want = which == 0 ? VG_ERR_NONCE_LENGTH : VG_ERR_TAG_LENGTH;
        if ((which == 0 && nonce_ok(nl)) || (which == 1 && tag_ok(tl)))
            continue;
        memset(out, FZ_SENTINEL, len);
        memset(tag, FZ_SENTINEL, sizeof tag);
        rc = vg_aes_ccm_seal(k, nbuf, nl, aad, aad_len, msg, len, out, tag, tl);
        FZ_CHECK(rc == want, "seal nonce_len %zu tag_len %zu = %d, want %d", nl, tl, rc, want);
        FZ_CHECK(fz_all(out, len, FZ_SENTINEL) && fz_all(tag, sizeof tag, FZ_SENTINEL),
                 "rejected seal (nonce_len %zu tag_len %zu) wrote output", nl, tl);
        rc = vg_aes_ccm_open(k, nbuf, nl, aad, aad_len, msg, len, tagin, tl, out);
        FZ_CHECK(rc == want, "open nonce_len %zu tag_len %zu = %d, want %d", nl, tl, rc, want);
        FZ_CHECK(fz_all(out, len, FZ_SENTINEL), "rejected open (nonce_len %zu tag_len %zu) wrote output", nl, tl);
    }
    if (bad_key != 16 && bad_key != 24 && bad_key != 32) {
        static vg_aes_ccm_key kk;
        memset(key, 0x44, sizeof key);
        memset(&kk, FZ_SENTINEL, sizeof kk);
        rc = vg_aes_ccm_init(&kk, key, bad_key);
        FZ_CHECK(rc == VG_ERR_KEY_LENGTH, "vg_aes_ccm_init(len %zu) = %d", bad_key, rc);
        FZ_CHECK(fz_all((const uint8_t *)&kk, sizeof kk, FZ_SENTINEL), "rejected CCM key length wrote the key");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    static vg_aes_ccm_key k;
    static uint8_t want[FZ_MAX_MSG], got[FZ_MAX_MSG], pt[FZ_MAX_MSG], mct[FZ_MAX_MSG], aadm[FZ_MAX_AAD];
    uint8_t key[32], nonce[13], noncem[13], want_tag[16], tagm[16];

    uint8_t kb = fz_byte(&in);
    size_t key_len = fz_aes_key_lens[kb % 3];
    fz_fill(&in, key, key_len);
    size_t nonce_len = 7 + fz_byte(&in) % 7;
    fz_fill(&in, nonce, nonce_len);
    size_t tag_len = 4 + 2 * (size_t)(fz_byte(&in) % 7);
    size_t bad_nonce = fz_byte(&in) % 64; /* bit 5: also the over-length check */
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

    memset(want_tag, 0, sizeof want_tag);
    spec_aes_ccm_seal(key, key_len, nonce, nonce_len, aad, aad_len, msg, len, want, want_tag, tag_len);

    memcpy(mct, want, len);
    memcpy(tagm, want_tag, 16);
    memcpy(noncem, nonce, nonce_len);
    memcpy(aadm, aad, aad_len);
    if ((what == 0 && len == 0) || (what == 3 && aad_len == 0))
        what = 1;
    switch (what) {
    case 0: mct[pos % len] ^= x; break;
    case 1: tagm[pos % tag_len] ^= x; break;
    case 2: noncem[pos % nonce_len] ^= x; break;
    default: aadm[pos % aad_len] ^= x; break;
    }
    int forged_ok = spec_aes_ccm_open(key, key_len, noncem, nonce_len, aadm, aad_len, mct, len, tagm, tag_len, pt);

    const char **names;
    size_t n = fz_impls(&names);
    for (size_t i = 0; i < n; i++) {
        fz_select(names[i]);
        int rc = vg_aes_ccm_init(&k, key, key_len);
        FZ_CHECK(rc == VG_OK, "vg_aes_ccm_init = %d", rc);

        const fz_aead_case c = {nonce, aad, msg, want, want_tag, nonce_len, aad_len, len, tag_len,
                                noncem, aadm, mct, tagm, forged_ok, what};
        fz_check_aead(&ccm_aead, &k, &c, got, pt);

        if (kb & 0x80)
            check_bad_lengths(&k, nonce, nonce_len, tag_len, aad, aad_len, msg, len, bad_nonce, bt % 32,
                              (size_t)(bt >> 2) % 64);
        vg_aes_ccm_key_wipe(&k);
    }
    return 0;
}
