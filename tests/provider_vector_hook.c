/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * provider_vector_hook.c — linked into the vector programs (vectors_gcm.c, vectors_ccm.c,
 * vectors_gcm_siv.c, vectors_wycheproof.c, unchanged) to make the provider's vector tests: it sets
 * vt_check_aead_hook, so every vector those programs read goes through EVP with ciphers fetched
 * from vg.so ("provider=vg") instead of vg's C API. The files, their counts and the strict readers
 * are the same.
 *
 * What each expectation means through EVP:
 *   VG_OK               sealing gives ct and the tag (EVP_CTRL_AEAD_GET_TAG of tag_len bytes);
 *                       opening (in place, tag set with EVP_CTRL_AEAD_SET_TAG) gives pt back.
 *   VG_ERR_AUTH         opening fails (GCM in Final, CCM in the data update, GCM-SIV in both), with
 *                       the output zeroed for CCM and GCM-SIV (EVP's GCM releases plaintext before
 *                       Final, as OpenSSL's own does); sealing pt, when known, gives another result.
 *   VG_ERR_KEY_LENGTH   vg offers no cipher for that key length (AES-192-GCM-SIV included).
 *   VG_ERR_NONCE_LENGTH opening and sealing fail (the IV length is refused).
 *   VG_ERR_TAG_LENGTH   opening and sealing fail, except GCM sealing: EVP_CTRL_AEAD_GET_TAG may ask
 *                       for any prefix of the 16-byte tag, as with OpenSSL's own GCM.
 * And one limit of EVP's, not vg's: GCM IVs over 128 bytes (Wycheproof has 257-byte ones) are
 * refused, by vg.so as by OpenSSL's default provider (both are checked).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "harness.h"
#include "provider_common.h"
#include "vecfile.h"

static struct vgp_test g;
static int opened;
static EVP_CIPHER *ciphers[3][3]; /* [alg][key 16/24/32], NULL where vg has none */

static void open_once(void)
{
    static const char *names[3][3] = {
        { "AES-128-GCM", "AES-192-GCM", "AES-256-GCM" },
        { "AES-128-GCM-SIV", "AES-192-GCM-SIV", "AES-256-GCM-SIV" },
        { "AES-128-CCM", "AES-192-CCM", "AES-256-CCM" },
    };
    if (opened)
        return;
    opened = 1;
    vgp_open(&g);
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < 3; k++)
            ciphers[a][k] = EVP_CIPHER_fetch(g.lib, names[a][k], "provider=vg");
    ERR_clear_error();
    printf("vectors through EVP, provider=vg%s\n", ciphers[1][1] ? "" : " (no AES-192-GCM-SIV: vg takes no 24-byte key)");
}

static EVP_CIPHER *cipher_for(enum vt_aead alg, size_t key_len)
{
    int a = alg == VT_GCM ? 0 : alg == VT_GCM_SIV ? 1 : 2;
    if (key_len != 16 && key_len != 24 && key_len != 32)
        return NULL;
    return ciphers[a][(key_len - 16) / 8];
}

/* One message through EVP; 1 if every call succeeded. tag: read (opening) or written (sealing). */
static int evp_run_with(EVP_CIPHER *c, enum vt_aead alg, int enc, const struct vt_aead_vector *v, const uint8_t *in,
                        uint8_t *out, uint8_t *tag)
{
    EVP_CIPHER_CTX *ctx;
    int outl, ok;

    if (c == NULL)
        return 0;
    ctx = EVP_CIPHER_CTX_new();
    ok = EVP_CipherInit_ex2(ctx, c, NULL, NULL, enc, NULL) > 0 &&
         EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)v->nonce_len, NULL) > 0;
    if (ok && alg == VT_CCM)
        ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)v->tag_len, enc ? NULL : tag) > 0;
    ok = ok && EVP_CipherInit_ex2(ctx, NULL, v->key, v->nonce, enc, NULL) > 0;
    if (ok && alg != VT_CCM && !enc)
        ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)v->tag_len, tag) > 0;
    if (ok && alg == VT_CCM)
        ok = EVP_CipherUpdate(ctx, NULL, &outl, NULL, (int)v->len) > 0;
    ok = ok && EVP_CipherUpdate(ctx, NULL, &outl, v->aad, (int)v->aad_len) > 0;
    int data_ok = ok && EVP_CipherUpdate(ctx, out, &outl, in, (int)v->len) > 0;
    ok = data_ok && outl == (int)v->len;
    ok = EVP_CipherFinal_ex(ctx, out + v->len, &outl) > 0 && ok;
    if (ok && enc)
        ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)v->tag_len, tag) > 0;
    EVP_CIPHER_CTX_free(ctx);
    ERR_clear_error();
    return ok;
}

static int evp_run(enum vt_aead alg, int enc, const struct vt_aead_vector *v, const uint8_t *in, uint8_t *out,
                   uint8_t *tag)
{
    return evp_run_with(cipher_for(alg, v->key_len), alg, enc, v, in, out, tag);
}

static size_t long_iv_refusals;

static int evp_check(enum vt_aead alg, const struct vt_aead_vector *v, int expect, const char *where)
{
    size_t before = vgt_failures();
    uint8_t *buf = vgt_xmalloc(v->len + 16);
    uint8_t tag[16];
    const char *name = vt_aead_name(alg);

    open_once();
    if (!CHECK(v->tag_len <= 16, "%s: tag of %zu bytes", where, v->tag_len))
        goto done;
    if (alg == VT_GCM && v->nonce_len > 128 && expect != VG_ERR_KEY_LENGTH) {
        /* OpenSSL's GCM takes IVs of at most 128 bytes (vg's C API has no limit): refused here, as
           by OpenSSL's default provider. */
        EVP_CIPHER *d = EVP_CIPHER_fetch(g.lib, EVP_CIPHER_get0_name(cipher_for(alg, v->key_len)), "provider=default");
        CHECK(!evp_run(alg, 1, v, v->pt, buf, tag), "%s: vg took a %zu-byte GCM IV", where, v->nonce_len);
        CHECK(d != NULL && !evp_run_with(d, alg, 1, v, v->pt, buf, tag), "%s: default took a %zu-byte GCM IV", where,
              v->nonce_len);
        EVP_CIPHER_free(d);
        if (long_iv_refusals++ == 0)
            printf("GCM IVs over 128 bytes are refused through EVP, by vg as by OpenSSL (%s)\n", where);
        goto done;
    }
    switch (expect) {
    case VG_OK:
        CHECK(evp_run(alg, 1, v, v->pt, buf, tag), "%s: %s EVP seal failed", where, name);
        CHECK_BYTES(buf, v->ct, v->len, "%s: %s EVP seal ciphertext", where, name);
        CHECK_BYTES(tag, v->tag, v->tag_len, "%s: %s EVP seal tag", where, name);
        memcpy(buf, v->ct, v->len);
        memcpy(tag, v->tag, v->tag_len);
        CHECK(evp_run(alg, 0, v, buf, buf, tag), "%s: %s EVP open failed", where, name);
        CHECK_BYTES(buf, v->pt, v->len, "%s: %s EVP open plaintext", where, name);
        break;
    case VG_ERR_AUTH:
        memcpy(buf, v->ct, v->len);
        memcpy(tag, v->tag, v->tag_len);
        CHECK(!evp_run(alg, 0, v, buf, buf, tag), "%s: %s EVP opened a forgery", where, name);
        if (alg != VT_GCM)
            CHECK(vgt_all_zero(buf, v->len), "%s: %s EVP open of a forgery left output", where, name);
        if (v->pt != NULL && evp_run(alg, 1, v, v->pt, buf, tag))
            CHECK(memcmp(buf, v->ct, v->len) != 0 || memcmp(tag, v->tag, v->tag_len) != 0,
                  "%s: %s sealing the plaintext gives the forged message", where, name);
        break;
    case VG_ERR_KEY_LENGTH:
        CHECK(cipher_for(alg, v->key_len) == NULL, "%s: vg offers %s with a %zu-byte key", where, name, v->key_len);
        break;
    default: /* VG_ERR_NONCE_LENGTH, VG_ERR_TAG_LENGTH */
        memcpy(buf, v->ct, v->len);
        memcpy(tag, v->tag, v->tag_len);
        CHECK(!evp_run(alg, 0, v, buf, buf, tag), "%s: %s EVP open took refused lengths (nonce %zu, tag %zu)",
              where, name, v->nonce_len, v->tag_len);
        if (!(alg == VT_GCM && expect == VG_ERR_TAG_LENGTH) && v->pt != NULL)
            CHECK(!evp_run(alg, 1, v, v->pt, buf, tag), "%s: %s EVP seal took refused lengths (nonce %zu, tag %zu)",
                  where, name, v->nonce_len, v->tag_len);
        break;
    }
done:
    free(buf);
    return vgt_failures() == before;
}

__attribute__((constructor)) static void install_hook(void)
{
    vt_check_aead_hook = evp_check;
}
