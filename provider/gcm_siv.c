/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * gcm_siv.c — AES-128/256-GCM-SIV (RFC 8452) for EVP under OpenSSL 3.2's names, over vg's one-shot
 * GCM-SIV. (AES-192-GCM-SIV is registered only where vg takes 24-byte keys; see provider.c.)
 *
 * GCM-SIV cannot stream: the tag is computed over the whole plaintext before the first byte of
 * ciphertext. So, as in OpenSSL 3.2: a 12-byte nonce, AAD updates (any number, concatenated) before
 * one data update that seals or opens the whole message; Final handles an empty message when no data
 * update came. Sealing: the 16-byte tag is read after the data update; a tag set before it (OpenSSL
 * 3.2's evp_test sets one, EVP_CTRL_AEAD_SET_TAG with 16 and NULL) is taken and ignored, as 3.2 does.
 * Opening: the 16-byte tag must be set before the data update; a mismatch fails that update, with the
 * output zeroed by vg, and Final.
 *
 * One message per IV set, as for GCM and CCM (docs/openssl-provider.md): OpenSSL 3.2 lets an init
 * without an IV start another message under the same nonce; GCM-SIV survives that better than GCM
 * (equal messages give equal ciphertexts, nothing more), but vg refuses it all the same.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "vgprov.h"

#define SIV_NONCE 12
#define SIV_TAG 16

struct siv_ctx {
    vg_aes_gcm_siv_key key;
    struct vgp_provctx *prov;
    struct vgp_buf aad; /* the message's AAD, gathered over the updates */
    size_t keylen;
    int enc, key_set, iv_set, done, verified;
    int fresh; /* the IV was set since the last message: a message may run */
    int tag_set; /* opening: the caller's tag is in tag; sealing: the computed tag is */
    unsigned char iv[SIV_NONCE];
    unsigned char tag[SIV_TAG];
};

static void *siv_newctx(void *provctx, size_t keylen)
{
    struct siv_ctx *c = aligned_alloc(16, sizeof *c);

    if (c == NULL)
        return NULL;
    memset(c, 0, sizeof *c);
    c->prov = provctx;
    c->keylen = keylen;
    return c;
}

static void siv_freectx(void *vctx)
{
    struct siv_ctx *c = vctx;

    if (c == NULL)
        return;
    vgp_buf_free(&c->aad);
    vg_aes_gcm_siv_key_wipe(&c->key);
    OPENSSL_cleanse(c, sizeof *c);
    free(c);
}

static void *siv_dupctx(void *vctx)
{
    const struct siv_ctx *c = vctx;
    struct siv_ctx *d = aligned_alloc(16, sizeof *d);

    if (d == NULL)
        return NULL;
    memcpy(d, c, sizeof *d);
    if (!vgp_buf_dup(&d->aad, &c->aad)) {
        vg_aes_gcm_siv_key_wipe(&d->key);
        OPENSSL_cleanse(d, sizeof *d);
        free(d);
        return NULL;
    }
    return d;
}

static int siv_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int siv_init(struct siv_ctx *c, const unsigned char *key, size_t keylen, const unsigned char *iv,
                    size_t ivlen, const OSSL_PARAM params[], int enc)
{
    if (iv != NULL) {
        if (ivlen != SIV_NONCE)
            return 0;
        memcpy(c->iv, iv, SIV_NONCE);
        c->iv_set = 1;
        c->fresh = 1;
    }
    if (key != NULL) {
        if (keylen != c->keylen || vg_aes_gcm_siv_init(&c->key, key, keylen) != VG_OK)
            return 0;
        c->key_set = 1;
    }
    /* A new message: forget the last one's AAD and verdict, and a computed tag. A tag the caller
       set for opening stays (EVP lets it be set before or after the key and IV). */
    if (enc != c->enc || enc)
        c->tag_set = 0;
    c->enc = enc;
    vgp_buf_clear(&c->aad);
    c->done = 0;
    c->verified = 0;
    return siv_set_ctx_params(c, params);
}

static int siv_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[])
{
    return siv_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int siv_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[])
{
    return siv_init(vctx, key, keylen, iv, ivlen, params, 0);
}

/* The whole message at once. */
static int siv_run(struct siv_ctx *c, const unsigned char *in, unsigned char *out, size_t len)
{
    int rc;

    if (!c->fresh || (!c->enc && !c->tag_set)) /* not run: the tag may still come */
        return 0;
    c->done = 1;
    c->fresh = 0;
    if (c->enc) {
        rc = vg_aes_gcm_siv_seal(&c->key, c->iv, SIV_NONCE, c->aad.p, c->aad.len, in, len, out, c->tag, SIV_TAG);
        c->tag_set = rc == VG_OK;
    } else {
        rc = vg_aes_gcm_siv_open(&c->key, c->iv, SIV_NONCE, c->aad.p, c->aad.len, in, len, c->tag, SIV_TAG, out);
        c->verified = rc == VG_OK;
    }
    return rc == VG_OK;
}

static int siv_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                      size_t inl)
{
    struct siv_ctx *c = vctx;

    vgp_count_op(c->prov);
    *outl = 0;
    if (inl == 0)
        return 1;
    if (!c->key_set || !c->fresh || c->done || in == NULL) /* fresh: an IV is set, unused */
        return 0;
    if (out == NULL)
        return vgp_buf_append(&c->aad, in, inl) ? (*outl = inl, 1) : 0;
    if (outsize < inl || !siv_run(c, in, out, inl))
        return 0;
    *outl = inl;
    return 1;
}

static int siv_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    struct siv_ctx *c = vctx;
    (void)out;
    (void)outsize;
    vgp_count_op(c->prov);
    *outl = 0;
    if (!c->key_set || !c->iv_set)
        return 0;
    if (!c->done && !siv_run(c, NULL, NULL, 0))
        return 0;
    return c->enc ? c->tag_set : c->verified;
}

static int siv_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                      size_t inl)
{
    if (in == NULL)
        return siv_final(vctx, out, outl, outsize);
    return siv_update(vctx, out, outl, outsize, in, inl);
}

static int siv_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    struct siv_ctx *c = vctx;
    struct vgp_found f;
    const OSSL_PARAM *p;
    size_t sz;

    if (params == NULL)
        return 1;
    vgp_params_find(params, &f);
    p = vgp_param(&f, VGP_PARAM_TAG);
    if (p != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size != SIV_TAG)
            return 0;
        if (!c->enc) { /* sealing: taken and ignored, as OpenSSL 3.2 does */
            if (p->data == NULL)
                return 0;
            memcpy(c->tag, p->data, SIV_TAG);
            c->tag_set = 1;
        }
    }
    p = vgp_param(&f, VGP_PARAM_KEYLEN);
    if (p != NULL) {
        if (!OSSL_PARAM_get_size_t(p, &sz) || sz != c->keylen)
            return 0;
    }
    p = vgp_param(&f, VGP_PARAM_IVLEN); /* 12 bytes, the only length */
    if (p != NULL) {
        if (!OSSL_PARAM_get_size_t(p, &sz) || sz != SIV_NONCE)
            return 0;
    }
    return 1;
}

static int siv_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    struct siv_ctx *c = vctx;
    struct vgp_found f;
    OSSL_PARAM *p;

    vgp_params_find(params, &f);
    p = vgp_param(&f, VGP_PARAM_IVLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, SIV_NONCE))
        return 0;
    p = vgp_param(&f, VGP_PARAM_KEYLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->keylen))
        return 0;
    p = vgp_param(&f, VGP_PARAM_TAGLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, SIV_TAG))
        return 0;
    p = vgp_param(&f, VGP_PARAM_TAG);
    if (p != NULL) {
        if (!c->enc || !c->tag_set || p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size != SIV_TAG ||
            !OSSL_PARAM_set_octet_string(p, c->tag, SIV_TAG))
            return 0;
    }
    return 1;
}

static const OSSL_PARAM siv_gettable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_END
};
static const OSSL_PARAM siv_settable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *siv_gettable_ctx_params(void *cctx, void *provctx)
{
    (void)cctx;
    (void)provctx;
    return siv_gettable;
}

static const OSSL_PARAM *siv_settable_ctx_params(void *cctx, void *provctx)
{
    (void)cctx;
    (void)provctx;
    return siv_settable;
}

#define VGP_SIV(bits)                                                                             \
    static void *siv##bits##_newctx(void *provctx) { return siv_newctx(provctx, (bits) / 8); }     \
    static int siv##bits##_get_params(OSSL_PARAM params[])                                        \
    {                                                                                             \
        return vgp_cipher_get_params(params, VGP_MODE_GCM_SIV, (bits) / 8, SIV_NONCE, 1, 1);       \
    }                                                                                             \
    const OSSL_DISPATCH vgp_aes##bits##gcmsiv_functions[] = {                                      \
        { OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))siv##bits##_newctx },                          \
        { OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))siv_freectx },                                \
        { OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))siv_dupctx },                                  \
        { OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))siv_einit },                             \
        { OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))siv_dinit },                             \
        { OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))siv_update },                                  \
        { OSSL_FUNC_CIPHER_FINAL, (void (*)(void))siv_final },                                    \
        { OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))siv_cipher },                                  \
        { OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))siv##bits##_get_params },                  \
        { OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))vgp_cipher_gettable_params },         \
        { OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))siv_get_ctx_params },                  \
        { OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))siv_set_ctx_params },                  \
        { OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))siv_gettable_ctx_params },        \
        { OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))siv_settable_ctx_params },        \
        { 0, NULL }                                                                               \
    };

VGP_SIV(128)
VGP_SIV(192)
VGP_SIV(256)
