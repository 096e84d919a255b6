/*
 * fuzz_gcm_siv — AES-GCM-SIV (RFC 8452) on every available implementation against the spec.
 *
 * Input layout (short inputs read as zeros):
 *   byte  k      key length 16/32 (k % 2); if k & 0x80 the bad-length checks run (bytes bn, bt below)
 *   key_len      key
 *   12           nonce
 *   byte  bn     bad nonce length bn % 32 (skipped when 12)
 *   byte  bt     bad tag length bt % 32 (skipped when 16); bad key length (bt >> 2) % 64 (skipped when
 *                16 or 32)
 *   2     a      AAD length a % (FZ_MAX_AAD + 1)
 *   byte  m      what the forgery check mutates: m % 4 = ciphertext, tag, nonce, AAD
 *   2     pos    which byte;  byte x: XOR mask (0 read as 1)
 *   aad_len      AAD;  rest: plaintext (at most FZ_MAX_MSG bytes)
 */
#include "fuzz_common.h"
#include "spec.h"

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
    if (bad_key != 16 && bad_key != 32) {
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
    uint8_t key[32], nonce[12], noncem[12], want_tag[16], tag[16], tagm[16];

    uint8_t kb = fz_byte(&in);
    size_t key_len = (kb & 1) ? 32 : 16;
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

        rc = vg_aes_gcm_siv_seal(&k, nonce, 12, aad, aad_len, msg, len, got, tag, 16);
        FZ_CHECK(rc == VG_OK, "seal = %d", rc);
        FZ_EQ(got, want, len, "GCM-SIV ciphertext");
        FZ_EQ(tag, want_tag, 16, "GCM-SIV tag");
        memcpy(pt, msg, len);
        rc = vg_aes_gcm_siv_seal(&k, nonce, 12, aad, aad_len, pt, len, pt, tag, 16);
        FZ_CHECK(rc == VG_OK, "seal in place = %d", rc);
        FZ_EQ(pt, want, len, "GCM-SIV ciphertext in place");
        FZ_EQ(tag, want_tag, 16, "GCM-SIV tag in place");

        memset(pt, FZ_SENTINEL, sizeof pt);
        rc = vg_aes_gcm_siv_open(&k, nonce, 12, aad, aad_len, want, len, want_tag, 16, pt);
        FZ_CHECK(rc == VG_OK, "open of sealed output = %d", rc);
        FZ_EQ(pt, msg, len, "GCM-SIV open plaintext");
        memcpy(got, want, len);
        rc = vg_aes_gcm_siv_open(&k, nonce, 12, aad, aad_len, got, len, want_tag, 16, got);
        FZ_CHECK(rc == VG_OK, "open in place = %d", rc);
        FZ_EQ(got, msg, len, "GCM-SIV open plaintext in place");

        memset(got, FZ_SENTINEL, sizeof got);
        rc = vg_aes_gcm_siv_open(&k, noncem, 12, aadm, aad_len, mct, len, tagm, 16, got);
        if (forged_ok) {
            FZ_CHECK(rc == VG_OK, "open of a forgery the spec accepts = %d", rc);
        } else {
            FZ_CHECK(rc == VG_ERR_AUTH, "open of a forgery (mutated %u) = %d, want VG_ERR_AUTH", what, rc);
            FZ_CHECK(fz_all(got, len, 0), "failed open did not zero the output");
            FZ_CHECK(fz_all(got + len, sizeof got - len, FZ_SENTINEL), "failed open wrote past len");
        }
        /* The same forgery in place: the buffer holding the ciphertext is zeroed. */
        memcpy(got, mct, len);
        rc = vg_aes_gcm_siv_open(&k, noncem, 12, aadm, aad_len, got, len, tagm, 16, got);
        FZ_CHECK(forged_ok ? rc == VG_OK : (rc == VG_ERR_AUTH && fz_all(got, len, 0)),
                 "in-place open of a forgery = %d or output not zeroed", rc);

        if (kb & 0x80)
            check_bad_lengths(&k, nonce, aad, aad_len, msg, len, bad_nonce, bt % 32, (size_t)(bt >> 2) % 64);
        vg_aes_gcm_siv_key_wipe(&k);
    }
    return 0;
}
