/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * fuzz_openssl — vg's GCM and CCM against OpenSSL's EVP interface (an independent implementation),
 * on every available vg implementation. Complements the spec targets: a misreading shared by vg and
 * its spec would show up here.
 *
 * Input layout (short inputs read as zeros):
 *   byte  mode   mode & 1: 0 GCM, 1 CCM;  (mode >> 1) % 3 picks the key length 16/24/32
 *   key_len      key
 *   byte  nb     nonce length: GCM 1 + nb % 64, CCM 7 + nb % 7
 *   nonce_len    nonce
 *   byte  t      tag length: GCM {16,15,14,13,12,8,4}[t % 7], CCM 4 + 2 * (t % 7)
 *   2     a      AAD length a % (FZ_MAX_AAD + 1)
 *   2     pos    which tag byte the forgery changes;  byte x: XOR mask (0 read as 1)
 *   aad_len      AAD;  rest: plaintext (at most FZ_MAX_MSG bytes)
 */
#include <openssl/evp.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const size_t gcm_tags[7] = {16, 15, 14, 13, 12, 8, 4};

static const EVP_CIPHER *gcm_cipher(size_t key_len)
{
    return key_len == 16 ? EVP_aes_128_gcm() : key_len == 24 ? EVP_aes_192_gcm() : EVP_aes_256_gcm();
}
static const EVP_CIPHER *ccm_cipher(size_t key_len)
{
    return key_len == 16 ? EVP_aes_128_ccm() : key_len == 24 ? EVP_aes_192_ccm() : EVP_aes_256_ccm();
}

#define OSSL(call) FZ_CHECK((call) > 0, "OpenSSL call failed: %s", #call)

/* OpenSSL GCM seal: full 16-byte tag written (callers compare tag_len bytes). */
static void ossl_gcm_seal(EVP_CIPHER_CTX *c, const uint8_t *key, size_t key_len, const uint8_t *nonce,
                          size_t nonce_len, const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                          uint8_t *out, uint8_t tag[16])
{
    int outl;
    uint8_t dummy[16];
    OSSL(EVP_EncryptInit_ex(c, gcm_cipher(key_len), NULL, NULL, NULL));
    OSSL(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, (int)nonce_len, NULL));
    OSSL(EVP_EncryptInit_ex(c, NULL, NULL, key, nonce));
    if (aad_len)
        OSSL(EVP_EncryptUpdate(c, NULL, &outl, aad, (int)aad_len));
    if (len) {
        OSSL(EVP_EncryptUpdate(c, out, &outl, in, (int)len));
        FZ_CHECK((size_t)outl == len, "OpenSSL GCM wrote %d of %zu bytes", outl, len);
    }
    OSSL(EVP_EncryptFinal_ex(c, dummy, &outl));
    OSSL(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, tag));
}

/* OpenSSL GCM open: 1 if the tag_len-byte tag verifies. */
static int ossl_gcm_open(EVP_CIPHER_CTX *c, const uint8_t *key, size_t key_len, const uint8_t *nonce,
                         size_t nonce_len, const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                         const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    int outl;
    uint8_t dummy[16], t[16];
    memcpy(t, tag, tag_len);
    OSSL(EVP_DecryptInit_ex(c, gcm_cipher(key_len), NULL, NULL, NULL));
    OSSL(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, (int)nonce_len, NULL));
    OSSL(EVP_DecryptInit_ex(c, NULL, NULL, key, nonce));
    if (aad_len)
        OSSL(EVP_DecryptUpdate(c, NULL, &outl, aad, (int)aad_len));
    if (len)
        OSSL(EVP_DecryptUpdate(c, out, &outl, in, (int)len));
    OSSL(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, (int)tag_len, t));
    return EVP_DecryptFinal_ex(c, dummy, &outl) > 0;
}

/* OpenSSL CCM (one-shot style: total length first, then AAD, then all the data in one update). */
static void ossl_ccm_seal(EVP_CIPHER_CTX *c, const uint8_t *key, size_t key_len, const uint8_t *nonce,
                          size_t nonce_len, const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                          uint8_t *out, uint8_t *tag, size_t tag_len)
{
    int outl;
    uint8_t dummy[16];
    OSSL(EVP_EncryptInit_ex(c, ccm_cipher(key_len), NULL, NULL, NULL));
    OSSL(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_CCM_SET_IVLEN, (int)nonce_len, NULL));
    OSSL(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_CCM_SET_TAG, (int)tag_len, NULL));
    OSSL(EVP_EncryptInit_ex(c, NULL, NULL, key, nonce));
    OSSL(EVP_EncryptUpdate(c, NULL, &outl, NULL, (int)len));
    if (aad_len)
        OSSL(EVP_EncryptUpdate(c, NULL, &outl, aad, (int)aad_len));
    OSSL(EVP_EncryptUpdate(c, out, &outl, in, (int)len));
    OSSL(EVP_EncryptFinal_ex(c, dummy, &outl));
    OSSL(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_CCM_GET_TAG, (int)tag_len, tag));
}

static int ossl_ccm_open(EVP_CIPHER_CTX *c, const uint8_t *key, size_t key_len, const uint8_t *nonce,
                         size_t nonce_len, const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                         const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    int outl;
    uint8_t t[16];
    memcpy(t, tag, tag_len);
    OSSL(EVP_DecryptInit_ex(c, ccm_cipher(key_len), NULL, NULL, NULL));
    OSSL(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_CCM_SET_IVLEN, (int)nonce_len, NULL));
    OSSL(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_CCM_SET_TAG, (int)tag_len, t));
    OSSL(EVP_DecryptInit_ex(c, NULL, NULL, key, nonce));
    OSSL(EVP_DecryptUpdate(c, NULL, &outl, NULL, (int)len));
    if (aad_len)
        OSSL(EVP_DecryptUpdate(c, NULL, &outl, aad, (int)aad_len));
    /* For CCM the data update is where OpenSSL verifies the tag. */
    return EVP_DecryptUpdate(c, out, &outl, in, (int)len) > 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static EVP_CIPHER_CTX *c;
    static vg_aes_gcm_key gk;
    static vg_aes_ccm_key ck;
    static uint8_t want[FZ_MAX_MSG + 16], got[FZ_MAX_MSG + 16], pt[FZ_MAX_MSG + 16], msgb[FZ_MAX_MSG + 16],
        aadb[FZ_MAX_AAD + 16];
    uint8_t key[32], nonce[64], want_tag[16], tag[16], tagm[16];
    fz_in in = {data, size};

    if (c == NULL) {
        c = EVP_CIPHER_CTX_new();
        FZ_CHECK(c != NULL, "EVP_CIPHER_CTX_new");
    }
    uint8_t mode = fz_byte(&in);
    int ccm = mode & 1;
    size_t key_len = fz_aes_key_lens[(mode >> 1) % 3];
    fz_fill(&in, key, key_len);
    uint8_t nb = fz_byte(&in);
    size_t nonce_len = ccm ? 7 + nb % 7 : 1 + nb % 64;
    fz_fill(&in, nonce, nonce_len);
    uint8_t tb = fz_byte(&in);
    size_t tag_len = ccm ? 4 + 2 * (size_t)(tb % 7) : gcm_tags[tb % 7];
    size_t aad_want = fz_u16(&in) % (FZ_MAX_AAD + 1);
    size_t pos = fz_u16(&in) % tag_len;
    uint8_t x = fz_byte(&in);
    if (x == 0)
        x = 1;
    size_t aad_len, len;
    const uint8_t *aadp = fz_bytes(&in, aad_want, &aad_len);
    const uint8_t *msgp = fz_bytes(&in, FZ_MAX_MSG, &len);
    /* Copies in non-NULL buffers: OpenSSL wants real pointers even for zero lengths. */
    memcpy(aadb, aadp, aad_len);
    memcpy(msgb, msgp, len);

    memset(want_tag, 0, sizeof want_tag);
    if (ccm)
        ossl_ccm_seal(c, key, key_len, nonce, nonce_len, aadb, aad_len, msgb, len, want, want_tag, tag_len);
    else
        ossl_gcm_seal(c, key, key_len, nonce, nonce_len, aadb, aad_len, msgb, len, want, want_tag);
    memcpy(tagm, want_tag, 16);
    tagm[pos] ^= x;

    const char **names;
    size_t n = fz_impls(&names);
    for (size_t i = 0; i < n; i++) {
        fz_select(names[i]);
        int rc;
        if (ccm) {
            rc = vg_aes_ccm_init(&ck, key, key_len);
            FZ_CHECK(rc == VG_OK, "vg_aes_ccm_init = %d", rc);
            rc = vg_aes_ccm_seal(&ck, nonce, nonce_len, aadb, aad_len, msgb, len, got, tag, tag_len);
        } else {
            rc = vg_aes_gcm_init(&gk, key, key_len);
            FZ_CHECK(rc == VG_OK, "vg_aes_gcm_init = %d", rc);
            rc = vg_aes_gcm_seal(&gk, nonce, nonce_len, aadb, aad_len, msgb, len, got, tag, tag_len);
        }
        FZ_CHECK(rc == VG_OK, "seal = %d", rc);
        FZ_EQ(got, want, len, ccm ? "CCM ciphertext vs OpenSSL" : "GCM ciphertext vs OpenSSL");
        FZ_EQ(tag, want_tag, tag_len, ccm ? "CCM tag vs OpenSSL" : "GCM tag vs OpenSSL");

        memset(pt, FZ_SENTINEL, sizeof pt);
        rc = ccm ? vg_aes_ccm_open(&ck, nonce, nonce_len, aadb, aad_len, want, len, want_tag, tag_len, pt)
                 : vg_aes_gcm_open(&gk, nonce, nonce_len, aadb, aad_len, want, len, want_tag, tag_len, pt);
        FZ_CHECK(rc == VG_OK, "open of OpenSSL's output = %d", rc);
        FZ_EQ(pt, msgb, len, "plaintext of OpenSSL's output");

        /* A changed tag: both libraries must reject it (the true tag is unique, so no collision). */
        memset(pt, FZ_SENTINEL, sizeof pt);
        rc = ccm ? vg_aes_ccm_open(&ck, nonce, nonce_len, aadb, aad_len, want, len, tagm, tag_len, pt)
                 : vg_aes_gcm_open(&gk, nonce, nonce_len, aadb, aad_len, want, len, tagm, tag_len, pt);
        FZ_CHECK(rc == VG_ERR_AUTH && fz_all(pt, len, 0), "open with a changed tag = %d or output not zeroed", rc);

        /* vg's output opened by OpenSSL (a second direction of the same check). */
        rc = ccm ? vg_aes_ccm_seal(&ck, nonce, nonce_len, aadb, aad_len, msgb, len, got, tag, tag_len)
                 : vg_aes_gcm_seal(&gk, nonce, nonce_len, aadb, aad_len, msgb, len, got, tag, tag_len);
        FZ_CHECK(rc == VG_OK, "seal = %d", rc);
        int ok = ccm ? ossl_ccm_open(c, key, key_len, nonce, nonce_len, aadb, aad_len, got, len, tag, tag_len, pt)
                     : ossl_gcm_open(c, key, key_len, nonce, nonce_len, aadb, aad_len, got, len, tag, tag_len, pt);
        FZ_CHECK(ok, "OpenSSL rejected vg's output");
        FZ_EQ(pt, msgb, len, "OpenSSL's plaintext of vg's output");
    }
    return 0;
}
