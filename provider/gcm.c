/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * gcm.c — AES-128/192/256-GCM for EVP, over vg's streaming GCM.
 *
 * EVP's calls map one to one onto vg_aes_gcm_stream_*: the stream starts at the first update (or at
 * Final for an empty message) with the buffered IV, AAD updates go to stream_aad, data updates to
 * stream_encrypt/decrypt straight from the caller's buffers (no copy), Final to stream_finish (the
 * full 16-byte tag, of which EVP_CTRL_AEAD_GET_TAG returns any prefix) or stream_verify (the tag
 * compare is vg's, constant time). Decryption releases plaintext before Final, as OpenSSL's GCM does.
 *
 * TLS 1.2 records (EVP_CTRL_AEAD_TLS1_AAD then one update over explicit IV | payload | tag, in place)
 * go through the one-shot vg_aes_gcm_seal/open, with the fixed IV from "tlsivfixed" and the explicit
 * part generated (sealing: random start, then +1 per record) or read from the record (opening).
 *
 * The expanded key lives in a reference-counted box shared by a context and its copies
 * (EVP_CIPHER_CTX_copy): a vg stream keeps a pointer to its key, so a copied stream must find the key
 * at the same address for as long as either context lives. Setting a key on a context whose box is
 * shared gives it a new box; the last context to let go of a box wipes it.
 *
 * The one refusal OpenSSL does not make: a decryption tag must have a length vg accepts (16, 15, 14,
 * 13, 12, 8 or 4 bytes; OpenSSL also takes 1-3, 5-7, 9-11).
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "vgprov.h"

#define UNSET ((size_t)-1)
#define GCM_IV_MAX 128       /* as OpenSSL: any IV length from 1 to 128 bytes */
#define GCM_IV_DEFAULT 12
#define GCM_TAG_MAX 16
#define TLS_AAD_LEN VGP_TLS1_AAD_LEN
#define TLS_FIXED_IV_LEN 4   /* EVP_GCM_TLS_FIXED_IV_LEN */
#define TLS_EXPLICIT_IV_LEN VGP_TLS1_EXPLICIT_IV_LEN

enum iv_state { IV_UNSET, IV_BUFFERED, IV_STARTED, IV_FINISHED };

struct gcm_keybox {
    vg_aes_gcm_key key;
    atomic_uint refs;
};

struct gcm_ctx {
    vg_aes_gcm_stream stream;
    struct vgp_provctx *prov;
    struct gcm_keybox *key; /* NULL until a key is set */
    size_t keylen, ivlen;
    size_t taglen;          /* UNSET until a tag is set (opening) or computed (sealing) */
    size_t tls_aad_len;     /* UNSET unless a TLS record is pending */
    size_t tls_aad_pad;
    uint64_t tls_enc_records;
    int enc;
    enum iv_state iv_state;
    int iv_gen;             /* a TLS fixed IV is set: explicit parts are generated/read */
    int tag_sealed;         /* tag holds a tag a Final sealed: the one EVP_CTRL_AEAD_GET_TAG reads */
    unsigned char iv[GCM_IV_MAX];
    unsigned char tag[GCM_TAG_MAX];
    unsigned char tls_aad[TLS_AAD_LEN];
};

static void keybox_release(struct gcm_keybox *kb)
{
    if (kb != NULL && atomic_fetch_sub_explicit(&kb->refs, 1, memory_order_acq_rel) == 1) {
        vg_aes_gcm_key_wipe(&kb->key);
        free(kb);
    }
}

static void *gcm_newctx(void *provctx, size_t keylen)
{
    struct gcm_ctx *c = aligned_alloc(16, sizeof *c);

    if (c == NULL)
        return NULL;
    memset(c, 0, sizeof *c);
    c->prov = provctx;
    c->keylen = keylen;
    c->ivlen = GCM_IV_DEFAULT;
    c->taglen = UNSET;
    c->tls_aad_len = UNSET;
    c->iv_state = IV_UNSET;
    return c;
}

static void gcm_freectx(void *vctx)
{
    struct gcm_ctx *c = vctx;

    if (c == NULL)
        return;
    vg_aes_gcm_stream_wipe(&c->stream);
    keybox_release(c->key);
    OPENSSL_cleanse(c, sizeof *c);
    free(c);
}

/* The copy's stream (a memcpy, as vg.h allows) continues from the same point with the same key box. */
static void *gcm_dupctx(void *vctx)
{
    const struct gcm_ctx *c = vctx;
    struct gcm_ctx *d = aligned_alloc(16, sizeof *d);

    if (d == NULL)
        return NULL;
    memcpy(d, c, sizeof *d);
    if (d->key != NULL)
        atomic_fetch_add_explicit(&d->key->refs, 1, memory_order_relaxed);
    return d;
}

static int gcm_set_key(struct gcm_ctx *c, const unsigned char *key)
{
    struct gcm_keybox *kb = c->key;
    int fresh = kb == NULL || atomic_load_explicit(&kb->refs, memory_order_acquire) != 1;

    if (fresh) {
        kb = aligned_alloc(16, sizeof *kb);
        if (kb == NULL)
            return 0;
        atomic_init(&kb->refs, 1);
    }
    if (vg_aes_gcm_init(&kb->key, key, c->keylen) != VG_OK) {
        if (fresh)
            free(kb);
        return 0;
    }
    if (fresh) {
        keybox_release(c->key);
        c->key = kb;
    }
    /* A message under way is over: restarting it from its IV would run the counter blocks it has used
       again (under the same key, if the caller set it again): one message per IV. (Default 3.0 carries
       on from a counter its key set-up zeroed.) A buffered IV not yet used stays for the new key. */
    if (c->iv_state == IV_STARTED)
        c->iv_state = IV_FINISHED;
    c->tls_enc_records = 0;
    return 1;
}

static int gcm_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int gcm_init(struct gcm_ctx *c, const unsigned char *key, size_t keylen, const unsigned char *iv,
                    size_t ivlen, const OSSL_PARAM params[], int enc)
{
    c->enc = enc;
    if (iv != NULL) {
        if (ivlen == 0 || ivlen > GCM_IV_MAX)
            return 0;
        c->ivlen = ivlen;
        memcpy(c->iv, iv, ivlen);
        c->iv_state = IV_BUFFERED;
    }
    if (key != NULL) {
        if (keylen != c->keylen || !gcm_set_key(c, key))
            return 0;
    }
    return gcm_set_ctx_params(c, params);
}

static int gcm_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[])
{
    return gcm_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int gcm_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[])
{
    return gcm_init(vctx, key, keylen, iv, ivlen, params, 0);
}

/* Starts the vg stream with the buffered IV. */
static int gcm_start(struct gcm_ctx *c)
{
    if (vg_aes_gcm_stream_init(&c->stream, &c->key->key, c->iv, c->ivlen) != VG_OK)
        return 0;
    c->iv_state = IV_STARTED;
    return 1;
}

/* Sealing with no IV set: a random one (at least 96 bits), as OpenSSL does. */
static int gcm_iv_generate(struct gcm_ctx *c)
{
    if (c->ivlen < GCM_IV_DEFAULT || !vgp_random(c->iv, c->ivlen))
        return 0;
    c->iv_state = IV_BUFFERED;
    return 1;
}

/* Adds 1 to the last 8 bytes of the IV (the TLS explicit part), big-endian. */
static void ctr64_inc(unsigned char *p)
{
    unsigned int carry = 1;

    for (int i = 7; i >= 0; i--) {
        carry += p[i];
        p[i] = (unsigned char)carry;
        carry >>= 8;
    }
}

/* One TLS 1.2 record, in place: explicit IV (8) | payload | tag (16). */
static int gcm_tls_record(struct gcm_ctx *c, unsigned char *out, size_t *outl, const unsigned char *in,
                          size_t len)
{
    unsigned char nonce[GCM_IV_MAX];
    size_t plen = 0;
    int ok = 0;

    if (c->key == NULL || !c->iv_gen || c->ivlen < TLS_EXPLICIT_IV_LEN || in == NULL || out != in ||
        len < TLS_EXPLICIT_IV_LEN + GCM_TAG_MAX)
        goto done;
    if (c->enc) {
        if (++c->tls_enc_records == 0)
            goto done;
        memcpy(nonce, c->iv, c->ivlen);
        memcpy(out, c->iv + c->ivlen - TLS_EXPLICIT_IV_LEN, TLS_EXPLICIT_IV_LEN);
        ctr64_inc(c->iv + c->ivlen - 8);
    } else {
        memcpy(c->iv + c->ivlen - TLS_EXPLICIT_IV_LEN, in, TLS_EXPLICIT_IV_LEN);
        memcpy(nonce, c->iv, c->ivlen);
    }
    in += TLS_EXPLICIT_IV_LEN;
    out += TLS_EXPLICIT_IV_LEN;
    len -= TLS_EXPLICIT_IV_LEN + GCM_TAG_MAX;
    c->taglen = GCM_TAG_MAX; /* as default's one-shot record sets it (what "taglen" reads back) */
    if (c->enc) {
        if (vg_aes_gcm_seal(&c->key->key, nonce, c->ivlen, c->tls_aad, TLS_AAD_LEN, in, len, out, out + len,
                            GCM_TAG_MAX) != VG_OK)
            goto done;
        plen = len + TLS_EXPLICIT_IV_LEN + GCM_TAG_MAX;
    } else {
        /* On a forgery vg_aes_gcm_open has zeroed the payload. */
        if (vg_aes_gcm_open(&c->key->key, nonce, c->ivlen, c->tls_aad, TLS_AAD_LEN, in, len, in + len,
                            GCM_TAG_MAX, out) != VG_OK)
            goto done;
        plen = len;
    }
    ok = 1;
done:
    OPENSSL_cleanse(nonce, sizeof nonce);
    c->iv_state = IV_FINISHED;
    c->tls_aad_len = UNSET;
    *outl = plen;
    return ok;
}

/* update (in != NULL: AAD when out is NULL, else data) and Final (in == NULL). */
static int gcm_cipher_internal(struct gcm_ctx *c, unsigned char *out, size_t *outl, const unsigned char *in,
                               size_t len)
{
    int rc;

    vgp_count_op(c->prov);
    *outl = 0;
    if (c->tls_aad_len != UNSET)
        return gcm_tls_record(c, out, outl, in, len);
    if (c->key == NULL || c->iv_state == IV_FINISHED)
        return 0;
    if (c->iv_state == IV_UNSET && (!c->enc || !gcm_iv_generate(c)))
        return 0;
    if (c->iv_state == IV_BUFFERED && !gcm_start(c))
        return 0;
    if (in != NULL) {
        if (out == NULL)
            rc = vg_aes_gcm_stream_aad(&c->stream, in, len);
        else if (c->enc)
            rc = vg_aes_gcm_stream_encrypt(&c->stream, in, len, out);
        else
            rc = vg_aes_gcm_stream_decrypt(&c->stream, in, len, out);
        if (rc != VG_OK)
            return 0;
        *outl = len;
        return 1;
    }
    if (c->enc) {
        rc = vg_aes_gcm_stream_finish(&c->stream, c->tag, GCM_TAG_MAX);
        if (rc != VG_OK)
            return 0;
        c->taglen = GCM_TAG_MAX;
        c->tag_sealed = 1;
    } else {
        if (c->taglen == UNSET)
            return 0;
        rc = vg_aes_gcm_stream_verify(&c->stream, c->tag, c->taglen);
    }
    c->iv_state = IV_FINISHED; /* never the same IV twice */
    return rc == VG_OK;
}

static int gcm_stream_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                             const unsigned char *in, size_t inl)
{
    if (inl == 0) {
        *outl = 0;
        return 1;
    }
    if (outsize < inl)
        return 0;
    return gcm_cipher_internal(vctx, out, outl, in, inl);
}

static int gcm_stream_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    (void)outsize;
    if (!gcm_cipher_internal(vctx, out, outl, NULL, 0))
        return 0;
    *outl = 0;
    return 1;
}

static int gcm_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                      size_t inl)
{
    if (outsize < inl || !gcm_cipher_internal(vctx, out, outl, in, inl))
        return 0;
    *outl = inl;
    return 1;
}

/* TLS: the record header's length is the plaintext's (vgp_tls1_aad). */
static size_t gcm_tls_init(struct gcm_ctx *c, const unsigned char *aad, size_t aad_len)
{
    if (aad == NULL || aad_len != TLS_AAD_LEN)
        return 0;
    c->tls_aad_len = aad_len;
    return vgp_tls1_aad(c->tls_aad, aad, c->enc, GCM_TAG_MAX);
}

static int gcm_tls_iv_set_fixed(struct gcm_ctx *c, const unsigned char *iv, size_t len)
{
    if (iv == NULL)
        return 0;
    if (len == (size_t)-1) { /* the whole IV */
        memcpy(c->iv, iv, c->ivlen);
        c->iv_gen = 1;
        c->iv_state = IV_BUFFERED;
        return 1;
    }
    if (len < TLS_FIXED_IV_LEN || len > c->ivlen || c->ivlen - len < TLS_EXPLICIT_IV_LEN)
        return 0;
    memcpy(c->iv, iv, len);
    if (c->enc && !vgp_random(c->iv + len, c->ivlen - len))
        return 0;
    c->iv_gen = 1;
    c->iv_state = IV_BUFFERED;
    return 1;
}

/* "tlsivgen": starts the message with the current IV, hands out its last olen bytes, then adds 1. */
static int gcm_get_iv_gen(struct gcm_ctx *c, unsigned char *out, size_t olen)
{
    if (!c->iv_gen || c->key == NULL || c->ivlen < TLS_EXPLICIT_IV_LEN || !gcm_start(c))
        return 0;
    if (olen == 0 || olen > c->ivlen)
        olen = c->ivlen;
    memcpy(out, c->iv + c->ivlen - olen, olen);
    ctr64_inc(c->iv + c->ivlen - 8);
    return 1;
}

/* "tlsivinv": the opening side's explicit part. */
static int gcm_set_iv_inv(struct gcm_ctx *c, const unsigned char *in, size_t inl)
{
    if (!c->iv_gen || c->key == NULL || c->enc || inl > c->ivlen)
        return 0;
    memcpy(c->iv + c->ivlen - inl, in, inl);
    return gcm_start(c);
}

static int vg_gcm_tag_length_ok(size_t n)
{
    return n == 4 || n == 8 || (n >= 12 && n <= GCM_TAG_MAX);
}

/* The keys are acted on in this order whatever their order in the array (tag, ivlen, tlsaad,
   tlsivfixed, tlsivinv): ivlen before tlsivfixed and tlsivinv, which use the IV length. */
static int gcm_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    struct gcm_ctx *c = vctx;
    struct vgp_found f;
    const OSSL_PARAM *p;
    size_t sz;

    if (params == NULL)
        return 1;
    vgp_params_find(params, &f);
    p = vgp_param(&f, VGP_PARAM_TAG);
    if (p != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL || p->data_size > GCM_TAG_MAX)
            return 0;
        sz = p->data_size;
        if (c->enc || sz == 0 || !vg_gcm_tag_length_ok(sz))
            return 0;
        memcpy(c->tag, p->data, sz);
        c->taglen = sz;
        c->tag_sealed = 0; /* the buffer now holds the caller's tag, never to be handed back */
    }
    p = vgp_param(&f, VGP_PARAM_IVLEN); /* OSSL_CIPHER_PARAM_AEAD_IVLEN */
    if (p != NULL) {
        if (!OSSL_PARAM_get_size_t(p, &sz) || sz == 0 || sz > GCM_IV_MAX)
            return 0;
        if (c->ivlen != sz) {
            /* An IV already set (or generated) is not valid any more. */
            if (c->iv_state != IV_UNSET)
                c->iv_state = IV_FINISHED;
            c->ivlen = sz;
        }
    }
    p = vgp_param(&f, VGP_PARAM_TLS1_AAD);
    if (p != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING)
            return 0;
        sz = gcm_tls_init(c, p->data, p->data_size);
        if (sz == 0)
            return 0;
        c->tls_aad_pad = sz;
    }
    p = vgp_param(&f, VGP_PARAM_TLS1_IV_FIXED);
    if (p != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || !gcm_tls_iv_set_fixed(c, p->data, p->data_size))
            return 0;
    }
    p = vgp_param(&f, VGP_PARAM_TLS1_SET_IV_INV);
    if (p != NULL) {
        if (p->data == NULL || p->data_type != OSSL_PARAM_OCTET_STRING ||
            !gcm_set_iv_inv(c, p->data, p->data_size))
            return 0;
    }
    return 1;
}

/* In a fixed order, as for setting: the IV is read before tlsivgen moves it on. */
static int gcm_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    struct gcm_ctx *c = vctx;
    struct vgp_found f;
    OSSL_PARAM *p;

    vgp_params_find(params, &f);
    p = vgp_param(&f, VGP_PARAM_IVLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->ivlen))
        return 0;
    p = vgp_param(&f, VGP_PARAM_KEYLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->keylen))
        return 0;
    p = vgp_param(&f, VGP_PARAM_TAGLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->taglen != UNSET ? c->taglen : GCM_TAG_MAX))
        return 0;
    const enum vgp_param iv_keys[] = { VGP_PARAM_IV, VGP_PARAM_UPDATED_IV };
    for (size_t i = 0; i < 2; i++) {
        p = vgp_param(&f, iv_keys[i]);
        if (p != NULL) {
            if (c->iv_state == IV_UNSET || c->ivlen > p->data_size)
                return 0;
            if (!OSSL_PARAM_set_octet_string(p, c->iv, c->ivlen) && !OSSL_PARAM_set_octet_ptr(p, c->iv, c->ivlen))
                return 0;
        }
    }
    p = vgp_param(&f, VGP_PARAM_TLS1_AAD_PAD);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->tls_aad_pad))
        return 0;
    p = vgp_param(&f, VGP_PARAM_TAG);
    if (p != NULL) {
        size_t sz = p->data_size;
        if (sz == 0 || sz > GCM_TAG_MAX || !c->enc || !c->tag_sealed)
            return 0;
        if (!OSSL_PARAM_set_octet_string(p, c->tag, sz))
            return 0;
    }
    p = vgp_param(&f, VGP_PARAM_TLS1_GET_IV_GEN);
    if (p != NULL) {
        if (p->data == NULL || p->data_type != OSSL_PARAM_OCTET_STRING || !gcm_get_iv_gen(c, p->data, p->data_size))
            return 0;
    }
    return 1;
}

static const OSSL_PARAM gcm_gettable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN, NULL, 0),
    OSSL_PARAM_END
};
static const OSSL_PARAM gcm_settable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *gcm_gettable_ctx_params(void *cctx, void *provctx)
{
    (void)cctx;
    (void)provctx;
    return gcm_gettable;
}

static const OSSL_PARAM *gcm_settable_ctx_params(void *cctx, void *provctx)
{
    (void)cctx;
    (void)provctx;
    return gcm_settable;
}

#define VGP_GCM(bits)                                                                             \
    static void *gcm##bits##_newctx(void *provctx) { return gcm_newctx(provctx, (bits) / 8); }     \
    static int gcm##bits##_get_params(OSSL_PARAM params[])                                        \
    {                                                                                             \
        return vgp_cipher_get_params(params, VGP_MODE_GCM, (bits) / 8, GCM_IV_DEFAULT, 1, 1);      \
    }                                                                                             \
    const OSSL_DISPATCH vgp_aes##bits##gcm_functions[] = {                                         \
        { OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))gcm##bits##_newctx },                          \
        { OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))gcm_freectx },                                \
        { OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))gcm_dupctx },                                  \
        { OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))gcm_einit },                             \
        { OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))gcm_dinit },                             \
        { OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))gcm_stream_update },                           \
        { OSSL_FUNC_CIPHER_FINAL, (void (*)(void))gcm_stream_final },                             \
        { OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))gcm_cipher },                                  \
        { OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))gcm##bits##_get_params },                  \
        { OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))vgp_cipher_gettable_params },         \
        { OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))gcm_get_ctx_params },                  \
        { OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))gcm_set_ctx_params },                  \
        { OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))gcm_gettable_ctx_params },        \
        { OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))gcm_settable_ctx_params },        \
        { 0, NULL }                                                                               \
    };

VGP_GCM(128)
VGP_GCM(192)
VGP_GCM(256)
