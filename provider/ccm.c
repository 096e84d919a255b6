/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * ccm.c — AES-128/192/256-CCM for EVP, over vg's one-shot CCM.
 *
 * CCM needs the message length before anything else, and OpenSSL's EVP interface says so: the nonce
 * length ("ivlen", 7..13, default 7: L = 8), the tag length (EVP_CTRL_AEAD_SET_TAG with NULL data,
 * default 12), the total length (an update with NULL in and out), then at most one AAD update and one
 * data update of exactly that length. The AAD is kept until the data update, which runs
 * vg_aes_ccm_seal or vg_aes_ccm_open in one call. As in OpenSSL, a tag mismatch fails that update
 * (vg has zeroed the output); an AAD update replaces an earlier one (OpenSSL restarts the CBC-MAC for
 * each), and setting the length forgets the AAD.
 *
 * One message per IV set. Once a data update has run the message (sealed it, opened it, or failed at
 * its length or its tag), nothing but a new IV lets a length, AAD or data through: CCM's keystream and
 * its tag mask are functions of the nonce alone, so a second message under it gives away the XOR of the
 * plaintexts, and a second open under it is a free tag oracle. OpenSSL 3.0's default provider refuses
 * most such calls by accident of its CCM state (the length field it consumes) and takes others: a
 * length set again, a 0-byte update, a retry after a failed open, a new key with the old nonce; vg
 * refuses them all (test_provider_seq.c names each). Final follows 3.0.22: on a message not yet run it
 * runs the empty message (so it fails where that fails), and it fails after a message that failed.
 *
 * The nonce and tag lengths are those in force when the key was set: default builds its CCM state
 * from them at the key and refuses (or, for a longer nonce, seals under the old length) a message after
 * either changed; vg refuses such a message.
 *
 * TLS 1.2 records (EVP_CTRL_AEAD_TLS1_AAD, fixed IV of 4 bytes, explicit 8 bytes from the record's
 * sequence number when sealing) are one in-place update: explicit IV | payload | tag.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "vgprov.h"

#define UNSET ((size_t)-1)
#define TLS_AAD_LEN VGP_TLS1_AAD_LEN
#define TLS_FIXED_IV_LEN 4
#define TLS_EXPLICIT_IV_LEN VGP_TLS1_EXPLICIT_IV_LEN

/* The message under the current IV: none (no IV since the last message), ready (an IV set, the message
   not run yet), or run, with its verdict. */
enum ccm_msg { MSG_NONE, MSG_READY, MSG_DONE, MSG_FAILED };

struct ccm_ctx {
    vg_aes_ccm_key key;
    struct vgp_provctx *prov;
    struct vgp_buf aad; /* the AAD of the message under way */
    size_t keylen;
    size_t l;           /* length-field size L: the nonce has 15 - L bytes */
    size_t m;           /* tag length */
    size_t mlen;        /* message length, once len_set */
    size_t tls_aad_len; /* UNSET, or TLS records from now on */
    size_t tls_aad_pad;
    size_t key_l, key_m;  /* l and m when the key was set */
    size_t done_m;        /* sealing: the length of the tag in tag */
    int done_enc;         /* the message run under the current IV was a seal */
    enum ccm_msg msg;     /* where the message under the current IV is */
    /* tag_set: a tag is held, the caller's (opening) or the one sealed, as default's flag of that name
       (which outlives a change of direction). tag_ok: the tag held is the last message's and may be
       read: default reads its tag from its CBC-MAC state, which AAD, a failed message and an open
       overwrite. */
    int enc, key_set, tag_set, tag_ok, len_set;
    int tag_given; /* the caller set the tag in tag (and no open has used it) */
    /* A message failed at its length: default's CCM state has then lost its tag length and flags and
       seals nothing with a tag again until the next key. vg, whose state is sound, refuses the same. */
    int broken;
    /* A key was set after the length: the length must be set again before a message (as above). */
    int need_len;
    unsigned char iv[16];
    unsigned char tag[16];    /* the caller's, for opening */
    unsigned char sealed[16]; /* the last message's, sealed */
    unsigned char tls_aad[TLS_AAD_LEN];
};

static void *ccm_newctx(void *provctx, size_t keylen)
{
    struct ccm_ctx *c = aligned_alloc(16, sizeof *c);

    if (c == NULL)
        return NULL;
    memset(c, 0, sizeof *c);
    c->prov = provctx;
    c->keylen = keylen;
    c->l = 8;
    c->m = 12;
    c->tls_aad_len = UNSET;
    return c;
}

static void ccm_freectx(void *vctx)
{
    struct ccm_ctx *c = vctx;

    if (c == NULL)
        return;
    vgp_buf_free(&c->aad);
    vg_aes_ccm_key_wipe(&c->key);
    OPENSSL_cleanse(c, sizeof *c);
    free(c);
}

static void *ccm_dupctx(void *vctx)
{
    const struct ccm_ctx *c = vctx;
    struct ccm_ctx *d = aligned_alloc(16, sizeof *d);

    if (d == NULL)
        return NULL;
    memcpy(d, c, sizeof *d); /* the key by memcpy, as vg.h allows */
    if (!vgp_buf_dup(&d->aad, &c->aad)) {
        vg_aes_ccm_key_wipe(&d->key);
        OPENSSL_cleanse(d, sizeof *d);
        free(d);
        return NULL;
    }
    return d;
}

static size_t ccm_ivlen(const struct ccm_ctx *c)
{
    return 15 - c->l;
}

static int ccm_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int ccm_init(struct ccm_ctx *c, const unsigned char *key, size_t keylen, const unsigned char *iv,
                    size_t ivlen, const OSSL_PARAM params[], int enc)
{
    c->enc = enc;
    if (iv != NULL) {
        if (ivlen != ccm_ivlen(c))
            return 0;
        memcpy(c->iv, iv, ivlen);
        c->msg = MSG_READY;
    }
    if (key != NULL) {
        if (keylen != c->keylen || vg_aes_ccm_init(&c->key, key, keylen) != VG_OK)
            return 0;
        c->key_set = 1;
        c->broken = 0;
        /* Default's key set-up starts its CCM state afresh, nonce included, while its length stays
           "set": a message then runs under an all-zero nonce (empty) or fails and breaks the state.
           vg asks for the length again (need_len, see ccm_run); the AAD given so far is dropped, as
           default's CBC-MAC drops it. */
        c->need_len = c->len_set;
        c->tag_ok = 0; /* default reads its MAC state at the new key's tag length */
        vgp_buf_clear(&c->aad);
        c->key_l = c->l;
        c->key_m = c->m;
    }
    return ccm_set_ctx_params(c, params);
}

static int ccm_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[])
{
    return ccm_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int ccm_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[])
{
    return ccm_init(vctx, key, keylen, iv, ivlen, params, 0);
}

static void ccm_set_length(struct ccm_ctx *c, size_t mlen)
{
    c->mlen = mlen;
    c->len_set = 1;
    c->need_len = 0;
    vgp_buf_clear(&c->aad);
}

/* CCM takes its AAD in one update (the whole of it, as OpenSSL's does): it replaces any before. */
static int ccm_store_aad(struct ccm_ctx *c, const unsigned char *aad, size_t len)
{
    vgp_buf_clear(&c->aad);
    return vgp_buf_append(&c->aad, aad, len);
}

static int ccm_tls_record(struct ccm_ctx *c, unsigned char *out, size_t *outl, const unsigned char *in,
                          size_t len)
{
    if (in == NULL || out != in || len < TLS_EXPLICIT_IV_LEN + c->m)
        return 0;
    if (c->enc) /* the explicit IV is the record's sequence number, the start of the AAD */
        memcpy(out, c->tls_aad, TLS_EXPLICIT_IV_LEN);
    /* Taken before the checks below, as default does: the IV read back after a refused record is the
       record's. */
    memcpy(c->iv + TLS_FIXED_IV_LEN, in, TLS_EXPLICIT_IV_LEN);
    if (c->l != c->key_l || c->m != c->key_m || c->broken) {
        c->tag_ok = 0; /* default runs it, over its MAC state, and fails at the tag */
        return 0;
    }
    len -= TLS_EXPLICIT_IV_LEN + c->m;
    in += TLS_EXPLICIT_IV_LEN;
    out += TLS_EXPLICIT_IV_LEN;
    if (c->enc) {
        if (vg_aes_ccm_seal(&c->key, c->iv, ccm_ivlen(c), c->tls_aad, c->tls_aad_len, in, len, out, out + len,
                            c->m) != VG_OK)
            return 0;
        /* the tag a GET_TAG reads now (default's is its CCM state's, the record's) */
        memcpy(c->sealed, out + len, c->m);
        c->done_m = c->m;
        c->tag_ok = 1;
        *outl = len + TLS_EXPLICIT_IV_LEN + c->m;
    } else {
        c->tag_ok = 0; /* default's CBC-MAC state now holds this record's */
        if (vg_aes_ccm_open(&c->key, c->iv, ccm_ivlen(c), c->tls_aad, c->tls_aad_len, in, len, in + len, c->m,
                            out) != VG_OK)
            return 0;
        *outl = len;
    }
    return 1;
}

/* The data update that runs the message (and Final's empty message, in == out == NULL with len 0). */
static int ccm_run(struct ccm_ctx *c, unsigned char *out, const unsigned char *in, size_t len)
{
    static unsigned char none;
    int rc;

    if (!c->len_set) {
        if (c->l > c->key_l) /* a nonce shorter than the key's: default's nonce set-up refuses it */
            return 0;
        ccm_set_length(c, len);
    }
    if (c->broken) {
        c->tag_ok = 0; /* default runs it over its MAC state */
        return 0;
    }
    if (!c->enc && !c->tag_set) /* not run: the tag may still come */
        return 0;
    /* Refused, but run by default: with lengths other than the key's (it seals a message whose tag it
       cannot give, or fails an open at the tag), or, after a key set, under its zeroed nonce. A length
       other than the one set breaks its state there, as below. */
    if (c->l != c->key_l || c->m != c->key_m || c->need_len) {
        c->tag_ok = 0;
        if (len != (c->need_len ? 0 : c->mlen)) {
            c->msg = MSG_FAILED;
            c->broken = 1;
            c->mlen = SIZE_MAX;
        } else if (!c->need_len) {
            c->msg = MSG_FAILED;
        }
        return 0;
    }
    /* From here the message has run, whatever its verdict. The length stays set, as in default,
       whose CCM state consumes it: a later message needs its own length (a data update alone is taken
       only if empty), and none at all after a wrong one until the length is set again. */
    c->msg = MSG_FAILED;
    if (len != c->mlen) {
        /* default's CCM state is broken until the next key (see broken), its last tag lost */
        c->mlen = SIZE_MAX;
        c->broken = 1;
        c->tag_ok = 0;
        return 0;
    }
    c->mlen = 0;
    if (in == NULL)
        in = out = &none;
    c->done_enc = c->enc;
    if (c->enc) {
        rc = vg_aes_ccm_seal(&c->key, c->iv, ccm_ivlen(c), c->aad.p, c->aad.len, in, len, out, c->sealed, c->m);
        c->tag_set = c->tag_ok = rc == VG_OK;
        c->done_m = c->m;
    } else {
        /* The tag held may be a sealed one (default's flag outlives a change of direction; default then
           checks a buffer that never held it): only a tag the caller gave opens, else the open fails. */
        if (c->tag_given) {
            rc = vg_aes_ccm_open(&c->key, c->iv, ccm_ivlen(c), c->aad.p, c->aad.len, in, len, c->tag, c->m, out);
        } else {
            rc = VG_ERR_AUTH;
            if (len > 0)
                memset(out, 0, len);
        }
        c->tag_given = 0;
        c->tag_set = 0;
        c->tag_ok = 0;
        c->len_set = rc != VG_OK; /* default forgets the length after an open that succeeds */
        c->need_len &= c->len_set;
    }
    if (rc != VG_OK)
        return 0;
    c->msg = MSG_DONE;
    return 1;
}

static int ccm_cipher_internal(struct ccm_ctx *c, unsigned char *out, size_t *outl, const unsigned char *in,
                               size_t len)
{
    vgp_count_op(c->prov);
    *outl = 0;
    if (!c->key_set)
        return 0;
    if (c->tls_aad_len != UNSET)
        return ccm_tls_record(c, out, outl, in, len);
    if (c->msg != MSG_READY) {
        /* Refused: one message per IV. Default, whose IV stays set after a seal or a failed open, runs
           such an update and, its length field consumed, fails it and loses its tag length: a tag
           read after it fails there, and so it does here. */
        if (out != NULL && (c->msg == MSG_FAILED || (c->msg == MSG_DONE && c->enc)) && c->len_set &&
            len != c->mlen) {
            c->broken = 1;
            c->tag_ok = 0; /* default's CBC-MAC state, which its tag is read from, is overwritten */
        }
        return 0;
    }
    if (out == NULL) {
        if (in == NULL) {
            /* The length: refused with a nonce shorter than the key's, as default's nonce set-up
               refuses it. (Other lengths changed after the key refuse the message, in ccm_run.) */
            if (c->l > c->key_l)
                return 0;
            ccm_set_length(c, len);
        } else {
            if (!c->len_set && len > 0)
                return 0;
            if (len > 0 && !ccm_store_aad(c, in, len))
                return 0;
            if (len > 0)
                c->tag_ok = 0;
        }
    } else if (!ccm_run(c, out, in, len)) {
        return 0;
    }
    *outl = len;
    return 1;
}

static int ccm_stream_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                             const unsigned char *in, size_t inl)
{
    if (outsize < inl)
        return 0;
    return ccm_cipher_internal(vctx, out, outl, in, inl);
}

/* Final writes nothing. A message not run yet runs now, empty (3.0.22 does the same: an empty seal, or
   an open of the empty message with the tag set); one that failed fails Final too. */
static int ccm_stream_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    struct ccm_ctx *c = vctx;

    (void)out;
    (void)outsize;
    vgp_count_op(c->prov);
    *outl = 0;
    if (!c->key_set)
        return 0;
    /* A record is one in-place update, never a Final: with a header pending, 3.0.22's Final fails
       where it would have run a message: its IV still set (it stays set after a seal, until the tag is
       read, and after a failed message) and no tag sealed yet. */
    int iv_held = c->msg == MSG_READY || c->msg == MSG_FAILED || (c->msg == MSG_DONE && c->done_enc);
    if (c->tls_aad_len != UNSET)
        return !iv_held || (c->enc && c->tag_set);
    if (c->msg == MSG_READY)
        return (c->enc && c->tag_set) || ccm_run(c, NULL, NULL, 0);
    /* After a seal, a Final that decrypts would open a second message under the IV: refused. */
    return c->msg != MSG_FAILED && !(c->msg == MSG_DONE && c->done_enc && !c->enc);
}

static int ccm_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                      size_t inl)
{
    if (in == NULL)
        return ccm_stream_final(vctx, out, outl, outsize);
    if (outsize < inl || !ccm_cipher_internal(vctx, out, outl, in, inl))
        return 0;
    *outl = inl;
    return 1;
}

static size_t ccm_tls_init(struct ccm_ctx *c, const unsigned char *aad, size_t alen)
{
    if (aad == NULL || alen != TLS_AAD_LEN)
        return 0;
    c->tls_aad_len = alen;
    return vgp_tls1_aad(c->tls_aad, aad, c->enc, c->m);
}

static int ccm_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    struct ccm_ctx *c = vctx;
    struct vgp_found f;
    const OSSL_PARAM *p;
    size_t sz;

    if (params == NULL)
        return 1;
    vgp_params_find(params, &f);
    p = vgp_param(&f, VGP_PARAM_TAG);
    if (p != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING)
            return 0;
        if ((p->data_size & 1) || p->data_size < 4 || p->data_size > 16)
            return 0;
        if (p->data != NULL) {
            if (c->enc)
                return 0;
            memcpy(c->tag, p->data, p->data_size);
            c->tag_given = 1;
            c->tag_set = 1;
        }
        c->m = p->data_size;
    }
    p = vgp_param(&f, VGP_PARAM_IVLEN);
    if (p != NULL) {
        if (!OSSL_PARAM_get_size_t(p, &sz) || sz < 7 || sz > 13)
            return 0;
        if (c->l != 15 - sz) { /* an IV of the old length is no IV (as 3.0.22) */
            c->l = 15 - sz;
            c->msg = MSG_NONE;
        }
    }
    p = vgp_param(&f, VGP_PARAM_TLS1_AAD);
    if (p != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING)
            return 0;
        sz = ccm_tls_init(c, p->data, p->data_size);
        if (sz == 0)
            return 0;
        c->tls_aad_pad = sz;
    }
    p = vgp_param(&f, VGP_PARAM_TLS1_IV_FIXED);
    if (p != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL || p->data_size != TLS_FIXED_IV_LEN)
            return 0;
        memcpy(c->iv, p->data, TLS_FIXED_IV_LEN);
    }
    return 1;
}

static int ccm_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    struct ccm_ctx *c = vctx;
    struct vgp_found f;
    OSSL_PARAM *p;

    vgp_params_find(params, &f);
    p = vgp_param(&f, VGP_PARAM_IVLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, ccm_ivlen(c)))
        return 0;
    p = vgp_param(&f, VGP_PARAM_TAGLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->m))
        return 0;
    const enum vgp_param iv_keys[] = { VGP_PARAM_IV, VGP_PARAM_UPDATED_IV };
    for (size_t i = 0; i < 2; i++) {
        p = vgp_param(&f, iv_keys[i]);
        if (p != NULL) {
            if (ccm_ivlen(c) > p->data_size)
                return 0;
            if (!OSSL_PARAM_set_octet_string(p, c->iv, ccm_ivlen(c)) &&
                !OSSL_PARAM_set_octet_ptr(p, c->iv, ccm_ivlen(c)))
                return 0;
        }
    }
    p = vgp_param(&f, VGP_PARAM_KEYLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->keylen))
        return 0;
    p = vgp_param(&f, VGP_PARAM_TLS1_AAD_PAD);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, c->tls_aad_pad))
        return 0;
    p = vgp_param(&f, VGP_PARAM_TAG);
    if (p != NULL) {
        if (!c->enc || !c->tag_set || !c->tag_ok || c->broken || p->data_type != OSSL_PARAM_OCTET_STRING ||
            p->data == NULL || p->data_size != c->done_m)
            return 0;
        memcpy(p->data, c->sealed, c->done_m);
        p->return_size = c->done_m;
        c->tag_set = c->tag_ok = 0;
        c->msg = MSG_NONE;
        c->len_set = c->need_len = 0;
    }
    return 1;
}

static const OSSL_PARAM ccm_gettable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, NULL),
    OSSL_PARAM_END
};
static const OSSL_PARAM ccm_settable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *ccm_gettable_ctx_params(void *cctx, void *provctx)
{
    (void)cctx;
    (void)provctx;
    return ccm_gettable;
}

static const OSSL_PARAM *ccm_settable_ctx_params(void *cctx, void *provctx)
{
    (void)cctx;
    (void)provctx;
    return ccm_settable;
}

#define VGP_CCM(bits)                                                                             \
    static void *ccm##bits##_newctx(void *provctx) { return ccm_newctx(provctx, (bits) / 8); }     \
    static int ccm##bits##_get_params(OSSL_PARAM params[])                                        \
    {                                                                                             \
        return vgp_cipher_get_params(params, VGP_MODE_CCM, (bits) / 8, 12, 1, 1);                 \
    }                                                                                             \
    const OSSL_DISPATCH vgp_aes##bits##ccm_functions[] = {                                         \
        { OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))ccm##bits##_newctx },                          \
        { OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))ccm_freectx },                                \
        { OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))ccm_dupctx },                                  \
        { OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))ccm_einit },                             \
        { OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))ccm_dinit },                             \
        { OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))ccm_stream_update },                           \
        { OSSL_FUNC_CIPHER_FINAL, (void (*)(void))ccm_stream_final },                             \
        { OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))ccm_cipher },                                  \
        { OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))ccm##bits##_get_params },                  \
        { OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))vgp_cipher_gettable_params },         \
        { OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))ccm_get_ctx_params },                  \
        { OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))ccm_set_ctx_params },                  \
        { OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))ccm_gettable_ctx_params },        \
        { OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))ccm_settable_ctx_params },        \
        { 0, NULL }                                                                               \
    };

VGP_CCM(128)
VGP_CCM(192)
VGP_CCM(256)
