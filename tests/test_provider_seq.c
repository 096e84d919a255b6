/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * test_provider_seq.c — random EVP call sequences, vg's provider against OpenSSL's default, in lock step.
 *
 * test_provider_diff.c drives EVP the way a careful caller does. This drives it the way a careless or
 * hostile one might: each sequence is up to SEQ_OPS calls picked at random from every call an AEAD
 * context takes — init with or without cipher, key, IV and direction; ivlen; set and get tag (with
 * and without data, every length); AAD, length and data updates of any size, in place or not; Final;
 * every context parameter read back into buffers of several sizes; EVP_CIPHER_CTX_copy; and the TLS 1.2
 * record calls (tlsaad, fixed IV, in-place records; GCM's IV generation and inversion). One sequence in three starts with a
 * whole message made the careful way, so that opens succeed too. Each call runs on a vg context and a
 * default context with the same arguments; the verdicts, output lengths, output bytes, tags and
 * parameters must be equal after every call. Options: --alg NAME (one algorithm), --seed N;
 * VG_SEQ_TRACE=1 prints every call's two verdicts.
 *
 * Where vg deliberately refuses what default takes, deliberate() names the rule, the sequence ends
 * there (the contexts' states part) and the rule is counted. The rules (docs/openssl-provider.md):
 *   - One message per IV (CCM, GCM; GCM-SIV below). After a CCM data update or Final has run the
 *     message (sealed, opened, or failed), nothing but a new IV lets data, AAD or a length through.
 *     Default 3.0 takes a length set again and seals a second message under the same nonce, takes a
 *     0-byte update after a message, retries a failed open with a new tag, and, after a key set with a
 *     length held, seals under an all-zero nonce. GCM: after Final, with any verdict, nothing but a new
 *     IV; a key set in the middle of a message ends it.
 *   - CCM lengths fixed at the key: default builds its CCM state from the nonce and tag lengths in force
 *     when the key is set; a different length set after the key makes it refuse the message or, for a
 *     longer nonce, seal under the key-time length (not CCM for that nonce). vg refuses such a message.
 *   - After a CCM message that failed at its length, default's CCM state has lost its tag length and
 *     flags until the next key; vg refuses every message until then.
 *   - A CCM tag is read only as the last sealed message's: default returns its CBC-MAC state, whatever
 *     that holds after AAD, a failed message or a new key.
 *   - GCM: the direction changed in the middle of a message; decryption tags of 1-3, 5-7 and 9-11 bytes.
 * Where default's own state is wrong, the comparison stops short too (and counts it), never by
 * taking vg's word: default's AES-NI CCM runs the direction it had when the key was set (the other way
 * it seals with a tag over the ciphertext and refuses genuine messages) and keeps the nonce it set up
 * with the length when a new IV comes after it; its GCM open checks a tag buffer that a SET_TAG refused
 * while sealing, or a TLS header, has overwritten, and its bytes under a random IV (a GCM seal with no
 * IV, a fixed IV part set while sealing) are its own. Four calls corrupt default 3.0.22's memory and
 * are not made to it (vg must refuse them): see run_pair.
 * Anything else that differs fails the test, with the sequence printed.
 *
 * AES-GCM-SIV has no default provider in OpenSSL 3.0, so its sequences run on vg alone against a model
 * of the rules (OpenSSL 3.2's calls, one message per IV set): a data update or Final that makes a
 * message succeeds only with a key, an IV set since the last message and (opening) a tag; its bytes
 * and tag are vg_aes_gcm_siv_seal/open's over the AAD gathered since the last init; a failed open
 * leaves zeros; Final after the message gives its verdict.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "harness.h"
#include "provider_common.h"

#define SEQ_OPS 24
#define DATA_MAX 96
#define OUT_MAX (DATA_MAX + 8 + 16 + 16)
#define AAD_MAX 48
#define IV_MAX 128

enum family { GCM, CCM, SIV };

enum op_kind {
    OP_INIT,
    OP_IVLEN,
    OP_SET_TAG,
    OP_GET_TAG,
    OP_AAD,
    OP_LEN,
    OP_DATA,
    OP_FINAL,
    OP_GET,
    OP_COPY,
    OP_TLS_AAD,
    OP_IV_FIXED,
    OP_TLS_RECORD,
    OP_IV_GEN,
    OP_IV_INV,
    OP_KINDS
};
static const char *const op_names[OP_KINDS] = { "init",  "ivlen", "set_tag", "get_tag",   "aad",    "len",    "data", "final",
                                                "get",   "copy",  "tlsaad",  "iv_fixed", "record", "iv_gen", "iv_inv" };

/* One call and its arguments. INIT: a = pass the cipher, b = key (-1 none, else which), c = IV (-1
   none, else which), d = direction (-1 keep, 0, 1). SET_TAG: a = length, b = source (0 NULL, 1 the
   sequence's sealed tag, 2 the last tag read, 3 random). AAD: a = length, b = offset. DATA: a =
   length, b = source (0 plaintext, 1 the sequence's ciphertext, 2 the last output), c = in place.
   GET: a = which parameter, b = buffer size. TLS_AAD: a = the header's length field, b = header
   size. TLS_RECORD: a = payload length, b = source (0 fresh, 1 the last record). Otherwise a is a
   length. */
struct op {
    enum op_kind k;
    int a, b, c, d;
};

/* What one sequence works with: two keys, three IVs, and one message sealed by default (key 0, IV 0)
   so that opens can succeed. */
struct world {
    size_t keylen;
    uint8_t key[2][32];
    uint8_t iv[3][IV_MAX];
    uint8_t aad[AAD_MAX];
    uint8_t pt[DATA_MAX];
    uint8_t rnd[DATA_MAX + 32];
    size_t ivlen, taglen, aadlen, len; /* the sealed message's */
    uint8_t ct[DATA_MAX], tag[16];
};

struct side {
    EVP_CIPHER *cipher;
    EVP_CIPHER_CTX *ctx;
    uint8_t out[OUT_MAX];
    uint8_t tag[16];
    uint8_t rec[OUT_MAX]; /* the last TLS record */
    size_t reclen;
};

/* One call's result: the verdict (EVP's return value as an int, so tlsaad's pad is compared too), outl,
   and the bytes it produced (output, tag or parameter). */
struct res {
    int ret, outl;
    size_t n;
    uint8_t b[OUT_MAX];
};

static struct vgp_test g;

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

static void exec_get(EVP_CIPHER_CTX *ctx, const struct op *o, struct res *r)
{
    static const char *const keys[] = { OSSL_CIPHER_PARAM_IV, OSSL_CIPHER_PARAM_UPDATED_IV,
                                        OSSL_CIPHER_PARAM_IVLEN, OSSL_CIPHER_PARAM_AEAD_TAGLEN,
                                        OSSL_CIPHER_PARAM_KEYLEN, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD };
    OSSL_PARAM p[2];
    size_t v = 12345;

    if (o->a < 2) {
        memset(r->b, 0, sizeof r->b);
        p[0] = OSSL_PARAM_construct_octet_string(keys[o->a], r->b, (size_t)o->b);
    } else {
        p[0] = OSSL_PARAM_construct_size_t(keys[o->a], &v);
    }
    p[1] = OSSL_PARAM_construct_end();
    r->ret = EVP_CIPHER_CTX_get_params(ctx, p) > 0;
    if (r->ret && o->a < 2) {
        r->n = p[0].return_size;
    } else if (r->ret) {
        memcpy(r->b, &v, sizeof v);
        r->n = sizeof v;
    }
}

static void exec_tls_aad(EVP_CIPHER_CTX *ctx, const struct op *o, struct res *r)
{
    uint8_t hdr[14] = { 0, 0, 0, 0, 0, 0, 0, 1, 23, 3, 3, 0, 0, 0 };

    hdr[6] = (uint8_t)o->c; /* the sequence number: CCM's explicit nonce */
    hdr[11] = (uint8_t)(o->a >> 8);
    hdr[12] = (uint8_t)o->a;
    r->ret = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, o->b, hdr);
}

static void exec_record(struct side *s, const struct world *w, const struct op *o, struct res *r)
{
    uint8_t rec[OUT_MAX];
    size_t len = 8 + (size_t)o->a + 16;

    if (o->b == 1 && s->reclen > 0) {
        len = s->reclen;
        memcpy(rec, s->rec, len);
    } else {
        memcpy(rec, w->rnd, 8);
        memcpy(rec + 8, w->pt, (size_t)o->a);
        memset(rec + 8 + o->a, 0, 16);
    }
    r->ret = EVP_CipherUpdate(s->ctx, rec, &r->outl, rec, (int)len);
    if (r->ret > 0) {
        r->n = len;
        memcpy(r->b, rec, len);
        memcpy(s->rec, rec, len);
        s->reclen = len;
    }
}

/* Runs one call on one side. */
static void exec(struct side *s, const struct world *w, const struct op *o, struct res *r)
{
    static const uint8_t zero[IV_MAX];
    EVP_CIPHER_CTX *ctx = s->ctx;
    uint8_t buf[OUT_MAX];

    r->ret = 0;
    r->outl = -1;
    r->n = 0;
    switch (o->k) {
    case OP_INIT:
        r->ret = EVP_CipherInit_ex2(ctx, o->a ? s->cipher : NULL, o->b < 0 ? NULL : w->key[o->b],
                                    o->c < 0 ? NULL : w->iv[o->c], o->d, NULL);
        break;
    case OP_IVLEN:
        r->ret = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, o->a, NULL);
        break;
    case OP_SET_TAG: {
        const uint8_t *t = o->b == 0 ? NULL : o->b == 1 ? w->tag : o->b == 2 ? s->tag : w->rnd;
        memset(buf, 0, 32);
        if (t != NULL)
            memcpy(buf, t, 16);
        r->ret = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, o->a, t == NULL ? NULL : buf);
        break;
    }
    case OP_GET_TAG:
        memset(buf, 0, 32);
        r->ret = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, o->a, buf);
        if (r->ret > 0) {
            r->n = (size_t)o->a;
            memcpy(r->b, buf, r->n);
            memcpy(s->tag, buf, 16);
        }
        break;
    case OP_AAD:
        r->ret = EVP_CipherUpdate(ctx, NULL, &r->outl, w->aad + o->b, o->a);
        break;
    case OP_LEN:
        r->ret = EVP_CipherUpdate(ctx, NULL, &r->outl, NULL, o->a);
        break;
    case OP_DATA: {
        const uint8_t *src = o->b == 0 ? w->pt : o->b == 1 ? w->ct : s->out;
        /* In place, or from a copy (the source may be the last output, which this call overwrites). */
        memmove(o->c ? s->out : buf, src, (size_t)o->a);
        if (!o->c) /* so that what is read back below was written by this call */
            memset(s->out, 0xa5, sizeof s->out);
        r->ret = EVP_CipherUpdate(ctx, s->out, &r->outl, o->c ? s->out : buf, o->a);
        /* What was written, whatever the verdict: a refused or forged open must leave zeros or nothing. */
        r->n = (size_t)o->a;
        memcpy(r->b, s->out, r->n);
        break;
    }
    case OP_FINAL:
        r->ret = EVP_CipherFinal_ex(ctx, buf, &r->outl);
        break;
    case OP_GET:
        exec_get(ctx, o, r);
        break;
    case OP_COPY: {
        EVP_CIPHER_CTX *n = EVP_CIPHER_CTX_new();
        r->ret = EVP_CIPHER_CTX_copy(n, ctx);
        if (r->ret > 0) {
            EVP_CIPHER_CTX_free(ctx); /* the copy must not lean on the original */
            s->ctx = n;
        } else {
            EVP_CIPHER_CTX_free(n);
        }
        break;
    }
    case OP_TLS_AAD:
        exec_tls_aad(ctx, o, r);
        break;
    case OP_IV_FIXED:
        r->ret = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IV_FIXED, o->a, (void *)(o->b ? w->iv[1] : zero));
        break;
    case OP_TLS_RECORD:
        exec_record(s, w, o, r);
        break;
    case OP_IV_GEN:
        memset(buf, 0, 32);
        r->ret = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_IV_GEN, o->a, buf);
        if (r->ret > 0) {
            r->n = min_size((size_t)(o->a > 0 ? o->a : 16), 16);
            memcpy(r->b, buf, r->n);
        }
        break;
    case OP_IV_INV:
        r->ret = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IV_INV, o->a, (void *)w->iv[2]);
        break;
    default:
        break;
    }
    ERR_clear_error();
}

/* The caller's view of a sequence, kept from default's verdicts: what the deliberate differences are
   judged by. */
struct model {
    int enc, keyed;
    size_t l, m, key_l, key_m; /* CCM: length-field size and tag length now, and when the key was set */
    int tag_given;             /* decrypting: a tag was set */
    int used;                  /* a message ran (or was tried) under the current IV */
    int iv_ever;               /* GCM: an IV was set since the context was made (else sealing makes one) */
    int random_iv;             /* GCM: the IV in use was generated at random (bytes cannot be compared) */
    int tag_clobbered;         /* GCM: default's tag buffer was overwritten by a refused SET_TAG or a header */
    int tls_pending;           /* GCM: a TLS header was taken and no update has used it yet */
    int started;               /* GCM: AAD or data went into the message under the current IV */
    int switched;              /* GCM: the direction changed after that */
    int tls_mode;              /* CCM: a TLS header was given (taken or not): every update is a record */
    int tls_clobbered;         /* CCM: default's header buffer was overwritten by a tag set after it */
    int sealed;                /* CCM: a message was sealed and its tag not read yet */
    int ccm_failed;            /* CCM: a message failed and no length was set since */
    int key_enc;               /* CCM: the direction when the key was set */
    int len_maybe;             /* CCM: default may hold a message length */
    int zero_nonce;            /* CCM: a key was set after it: default's nonce is zeroed */
    int nonce_stale;           /* CCM: an IV was set after it: default keeps the nonce it had */
    int random_tail;           /* GCM: a random IV was made; its bytes may linger past a shorter IV */
    int det_len;               /* GCM: how many leading IV bytes the caller set since (the rest may be random) */
    int gcm_sealed;            /* GCM: a Final sealed a message (its tag is the one to read) */
    int key_idx;               /* which of the world's keys was set last */
    struct op tls_hdr;         /* CCM: the last TLS header given (its length field and sequence number) */
    int tls_tainted;           /* CCM: default's IV and tag come from a record over its overwritten header */
};

static void model_reset(struct model *m, enum family fam)
{
    int enc = m->enc;
    memset(m, 0, sizeof *m);
    m->enc = enc;
    m->l = m->key_l = 8;
    m->m = m->key_m = fam == GCM ? 16 : 12;
}

/* Brings the model up to date after a call; ok is default's verdict. */
static void model_step(struct model *m, enum family fam, const struct op *o, int ok, EVP_CIPHER_CTX *dctx)
{
    int ivlen = EVP_CIPHER_CTX_get_iv_length(dctx);
    switch (o->k) {
    case OP_INIT:
        if (!ok)
            break;
        if (o->a)
            model_reset(m, fam);
        if (o->d >= 0 && o->d != m->enc && m->started && o->c < 0)
            m->switched = 1;
        if (o->d >= 0)
            m->enc = o->d;
        if (o->c >= 0) {
            m->used = 0;
            m->iv_ever = 1;
            m->random_iv = 0;
            m->det_len = EVP_CIPHER_CTX_get_iv_length(dctx);
        }
        if (o->b >= 0) {
            m->ccm_failed = 0;
            /* GCM: a key set while a message is under way ends it (default carries on from a reset
               counter) */
            if (fam == GCM && o->c < 0 && m->started)
                m->used = 1;
            m->keyed = 1;
            m->key_idx = o->b;
            m->zero_nonce |= m->len_maybe;
            m->sealed = 0; /* default reads its MAC state at the new key's tag length */
            m->key_enc = m->enc;
            m->key_l = m->l;
            m->key_m = m->m;
        }
        if (o->c >= 0)
            m->started = m->switched = 0;
        if (o->c >= 0 && fam == CCM && m->len_maybe)
            m->nonce_stale = 1;
        break;
    case OP_IVLEN:
        if (ok && fam == CCM)
            m->l = 15 - (size_t)ivlen;
        break;
    case OP_SET_TAG:
        if (ok) {
            m->m = (size_t)o->a;
            if (o->b != 0)
                m->tag_given = 1;
            /* default keeps the tag in the buffer that holds the TLS header */
            m->tls_clobbered |= o->b != 0 && m->tls_mode;
        }
        break;
    case OP_AAD:
    case OP_LEN:
    case OP_DATA:
    case OP_FINAL:
        /* GCM: the message starts (default sets up its counter from the IV) at any of these calls
           that finds a key, whatever its verdict; a sealed tag stays as the one an open would check. */
        if (fam == GCM && m->keyed && (o->a > 0 || o->k == OP_FINAL))
            m->started = 1;
        if (fam == GCM && ok && m->enc && (o->k == OP_FINAL || (o->k == OP_LEN && o->a > 0)))
            m->tag_given = 1;
        /* A message runs (CCM: a data update or Final; GCM: Final, or a length update, which EVP sends
           to Final) unless it stops for want of the tag. */
        if ((fam == CCM ? o->k == OP_DATA || o->k == OP_FINAL : o->k == OP_FINAL || o->k == OP_LEN) &&
            (m->enc || m->tag_given) && !m->tls_mode)
            m->used = 1;
        /* CCM: a sealed tag is held as the tag an open would check (tag_given, kept for good: an
           over-estimate, which only lets more calls count as second messages); Final runs a message
           only when no tag is held for sealing. */
        if (fam == CCM && ok && o->k == OP_DATA && !m->tls_mode) {
            m->sealed = m->enc;
            m->tag_given |= m->enc;
        }
        if (fam == CCM && ok && o->k == OP_FINAL && !m->tls_mode && !(m->enc && m->tag_given)) {
            m->sealed = m->enc;
            m->tag_given |= m->enc;
        }
        if (fam == CCM && ok && o->k == OP_AAD && o->a > 0) /* default's CBC-MAC, its tag, moves on */
            m->sealed = 0;
        if (fam == CCM && (o->k == OP_DATA || o->k == OP_FINAL || (o->k == OP_LEN && ok)))
            m->len_maybe = 1;
        if (fam == CCM && o->k == OP_LEN && ok)
            m->zero_nonce = m->nonce_stale = 0;
        if (fam == CCM && o->k == OP_DATA && ok && !m->enc && !m->tls_mode) /* default forgets the length */
            m->len_maybe = m->nonce_stale = 0;
        if (fam == CCM && !ok && (o->k == OP_DATA || o->k == OP_FINAL) && (m->enc || m->tag_given) && !m->tls_mode)
            m->ccm_failed = 1, m->sealed = 0;
        if (fam == CCM && !ok && o->k == OP_DATA && m->tls_mode) /* a record default ran and failed */
            m->sealed = 0;

        break;
    case OP_TLS_RECORD: /* without a TLS header, a data update */
        if (fam == CCM && !m->tls_mode)
            m->len_maybe = 1;
        if (fam == GCM && m->keyed && !m->tls_pending)
            m->started = 1;
        if (fam == CCM && m->tls_mode && !ok) /* default ran it over its MAC state */
            m->sealed = 0;
        if (!m->tls_mode && (m->enc || m->tag_given)) {
            m->used = 1;
            if (fam == CCM && !ok)
                m->ccm_failed = 1, m->sealed = 0;
            if (fam == CCM && ok) {
                m->sealed = m->enc;
                m->tag_given |= m->enc;
            }
        }
        break;
    case OP_TLS_AAD:
        if (fam == CCM && o->b == 13)
            m->tls_mode = 1, m->tls_clobbered = 0, m->tls_hdr = *o;
        break;
    case OP_IV_FIXED:
        if (ok && fam == CCM && m->len_maybe) /* the IV changes after the nonce was set up */
            m->nonce_stale = 1;
        if (ok && fam == GCM) {
            m->iv_ever = 1;
            m->used = 0;
            m->random_iv = o->a != -1 && m->enc; /* sealing fills the rest at random */
            m->random_tail |= m->random_iv;
            if (o->a == -1 || m->random_iv)
                m->det_len = o->a == -1 ? ivlen : o->a;
        }
        break;
    case OP_IV_INV: /* GCM: an IV completed, and its message started */
        if (ok && fam == GCM)
            m->used = 0, m->started = 1;
        break;
    case OP_IV_GEN: /* GCM: the message starts under the current IV */
        if (ok && fam == GCM)
            m->started = 1;
        break;
    case OP_GET_TAG: /* CCM forgets its tag (and the length) once read; GCM keeps it */
        if (ok && fam == CCM)
            m->sealed = m->len_maybe = m->nonce_stale = 0;
        break;
    default:
        break;
    }
}

/* The rule under which vg may refuse a call default took, or NULL. */
static const char *deliberate(const struct model *m, enum family fam, const struct op *o)
{
    int message = o->k == OP_AAD || o->k == OP_LEN || o->k == OP_DATA || o->k == OP_FINAL ||
                  (o->k == OP_TLS_RECORD && !m->tls_mode);

    if (message && m->used)
        return "one message per IV";
    if (fam == CCM && m->keyed && (message || o->k == OP_TLS_RECORD || o->k == OP_GET_TAG) &&
        (m->l != m->key_l || m->m != m->key_m))
        return "CCM nonce or tag length changed after the key";
    /* Default's CCM state after a message that failed at its length has lost its tag length, Adata
       flag and length field until the next key; vg refuses every message until then. */
    if (fam == CCM && (message || o->k == OP_TLS_RECORD || o->k == OP_GET_TAG) && m->ccm_failed)
        return "one message per IV (CCM: after a failed message, default's CCM state is broken until a new key)";
    if (fam == CCM && m->zero_nonce && (o->k == OP_DATA || o->k == OP_FINAL || o->k == OP_TLS_RECORD))
        return "one message per IV (CCM: after a key set with a length held, default seals under a zeroed nonce)";
    if (fam == CCM && o->k == OP_GET_TAG && !m->sealed)
        return "CCM tag read with no message sealed";
    if (fam == GCM && o->k == OP_GET_TAG && !m->gcm_sealed)
        return "GCM tag read with no message sealed by Final (default returns its tag buffer)";
    if (fam == GCM && message && m->switched)
        return "GCM direction changed in the middle of a message";
    if (fam == GCM && o->k == OP_SET_TAG && o->b != 0 && o->a >= 1 && o->a <= 11 && o->a != 4 && o->a != 8)
        return "GCM decryption tag length SP 800-38D does not allow";
    return NULL;
}

/* A sealed CCM TLS record of vg's (explicit nonce | payload | tag) checked on its own: it must open
   with vg's C API under the key set last, the IV vg reports (its first 15 - L bytes), and the header
   given last with its length field made the payload's. 1 if it does. */
static int ccm_record_opens(EVP_CIPHER_CTX *ctx, const struct world *w, const struct model *m, const uint8_t *rec,
                            size_t len)
{
    uint8_t iv[16], hdr[13] = { 0, 0, 0, 0, 0, 0, 0, 1, 23, 3, 3, 0, 0 }, pt[OUT_MAX];
    size_t ivlen = (size_t)EVP_CIPHER_CTX_get_iv_length(ctx), taglen = 0, plen;
    OSSL_PARAM p[2] = { OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, &taglen), OSSL_PARAM_construct_end() };
    vg_aes_ccm_key k;
    int ok;

    if (!EVP_CIPHER_CTX_get_params(ctx, p) || !EVP_CIPHER_CTX_get_updated_iv(ctx, iv, ivlen) ||
        len < 8 + taglen || (size_t)m->tls_hdr.a < 8)
        return 0;
    plen = len - 8 - taglen;
    hdr[6] = (uint8_t)m->tls_hdr.c;
    hdr[11] = (uint8_t)((m->tls_hdr.a - 8) >> 8);
    hdr[12] = (uint8_t)(m->tls_hdr.a - 8);
    ok = vg_aes_ccm_init(&k, w->key[m->key_idx], w->keylen) == VG_OK &&
         vg_aes_ccm_open(&k, iv, ivlen, hdr, 13, rec + 8, plen, rec + 8 + plen, taglen, pt) == VG_OK;
    vg_aes_ccm_key_wipe(&k);
    return ok;
}

/* Where vg takes a call default refuses because default's state is wrong, or NULL. */
static const char *default_wrong(const struct model *m, enum family fam, const struct op *o)
{
    /* GCM: an open's Final checks the tag buffer, which a SET_TAG refused while sealing has
       overwritten in default (vg checks the tag it computed, which is what such a caller holds). */
    if (fam == GCM && !m->enc && m->tag_clobbered && (o->k == OP_FINAL || (o->k == OP_LEN && o->a > 0)))
        return "default's GCM tag buffer overwritten by a refused SET_TAG";
    return NULL;
}

static void print_seq(const struct op *ops, int n, int fail_at)
{
    for (int i = 0; i < n; i++)
        printf("    %s%2d %-8s %d %d %d %d\n", i == fail_at ? ">" : " ", i, op_names[ops[i].k], ops[i].a, ops[i].b,
               ops[i].c, ops[i].d);
}

static int pick_len(const struct world *w, size_t max)
{
    switch (vgt_rand_below(4)) {
    case 0: return (int)w->len;
    case 1: return 0;
    default: return (int)vgt_rand_below(max + 1);
    }
}

static void random_op(struct op *o, const struct world *w, enum family fam, int first)
{
    static const int gcm_ivlens[] = { 0, 1, 8, 12, 12, 13, 16, 64, 128, 129 };
    memset(o, 0, sizeof *o);
    o->k = first ? OP_INIT : (enum op_kind)vgt_rand_below(OP_KINDS);
    if (fam == SIV && o->k >= OP_TLS_AAD) /* GCM-SIV has no TLS calls */
        o->k = OP_DATA;
    switch (o->k) {
    case OP_INIT:
        o->a = first || vgt_rand_below(8) == 0;
        o->b = vgt_rand_below(3) == 0 ? -1 : (int)vgt_rand_below(5) / 4;    /* key 0 mostly */
        o->c = vgt_rand_below(3) == 0 ? -1 : (int)(vgt_rand_below(9) / 4); /* IV 0 mostly */
        o->d = first ? (int)vgt_rand_below(2) : (int)vgt_rand_below(4) - 1;
        if (o->d > 1)
            o->d = -1;
        break;
    case OP_IVLEN:
        if (fam == GCM)
            o->a = vgt_rand_below(2) ? (int)w->ivlen : gcm_ivlens[vgt_rand_below(10)];
        else if (fam == CCM)
            o->a = vgt_rand_below(2) ? (int)w->ivlen : 6 + (int)vgt_rand_below(9);
        else
            o->a = vgt_rand_below(2) ? 12 : (int)vgt_rand_below(17);
        break;
    case OP_SET_TAG:
        o->a = vgt_rand_below(2) ? (int)w->taglen : (int)vgt_rand_below(18);
        o->b = (int)vgt_rand_below(4);
        break;
    case OP_GET_TAG:
        o->a = vgt_rand_below(2) ? (int)w->taglen : (int)vgt_rand_below(18);
        break;
    case OP_AAD:
        o->a = vgt_rand_below(2) ? (int)w->aadlen : (int)vgt_rand_below(AAD_MAX / 2 + 1);
        o->b = vgt_rand_below(4) ? 0 : (int)vgt_rand_below(AAD_MAX / 2);
        break;
    case OP_LEN:
        o->a = pick_len(w, DATA_MAX);
        break;
    case OP_DATA:
        o->a = pick_len(w, DATA_MAX);
        o->b = (int)vgt_rand_below(3);
        o->c = (int)vgt_rand_below(2);
        break;
    case OP_GET:
        o->a = (int)vgt_rand_below(6);
        o->b = vgt_rand_below(2) ? (int)w->ivlen : (int)vgt_rand_below(IV_MAX + 1);
        break;
    case OP_TLS_AAD:
        o->a = (int)vgt_rand_below(4) ? 8 + (int)vgt_rand_below(40) + (vgt_rand_below(2) ? 16 : 0)
                                     : (int)vgt_rand_below(30);
        o->b = vgt_rand_below(6) ? 13 : 12 + 2 * (int)vgt_rand_below(2);
        o->c = (int)vgt_rand_below(4);
        break;
    case OP_IV_FIXED:
        o->a = vgt_rand_below(3) == 0 ? -1 : vgt_rand_below(4) ? 4 : (int)vgt_rand_below(14);
        o->b = (int)vgt_rand_below(2);
        break;
    case OP_TLS_RECORD:
        o->a = (int)vgt_rand_below(40);
        o->b = (int)vgt_rand_below(2);
        break;
    case OP_IV_GEN:
    case OP_IV_INV:
        o->a = vgt_rand_below(2) ? 8 : (int)vgt_rand_below(14);
        break;
    default:
        break;
    }
}

/* One sequence in three starts the way a careful caller does, with the world's message (sealed, or
   opened with its tag), and goes on at random from there: random calls alone seldom make a message
   an open accepts. */
static void proper_start(struct op *ops, int *n, const struct world *w, enum family fam)
{
    struct op p[8];
    int k = 0, enc = (int)vgt_rand_below(2);

    if (vgt_rand_below(3) != 0)
        return;
    p[k++] = (struct op){ OP_INIT, 1, -1, -1, enc };
    p[k++] = (struct op){ OP_IVLEN, (int)w->ivlen, 0, 0, 0 };
    if (fam == CCM || !enc)
        p[k++] = (struct op){ OP_SET_TAG, (int)w->taglen, enc ? 0 : 1, 0, 0 };
    p[k++] = (struct op){ OP_INIT, 0, 0, 0, -1 };
    if (fam == CCM)
        p[k++] = (struct op){ OP_LEN, (int)w->len, 0, 0, 0 };
    p[k++] = (struct op){ OP_AAD, (int)w->aadlen, 0, 0, 0 };
    p[k++] = (struct op){ OP_DATA, (int)w->len, enc ? 0 : 1, (int)vgt_rand_below(2), 0 };
    p[k++] = enc && vgt_rand_below(2) ? (struct op){ OP_FINAL, 0, 0, 0, 0 } : (struct op){ OP_GET_TAG, (int)w->taglen, 0, 0, 0 };
    int keep = *n - k < SEQ_OPS - k ? *n - k : SEQ_OPS - k;
    if (keep < 0)
        keep = 0;
    memmove(ops + k, ops + (*n - keep), (size_t)keep * sizeof *ops);
    memcpy(ops, p, (size_t)k * sizeof *ops);
    *n = k + keep;
}

/* The sequence's world: the keys and IVs, and a message default seals with key 0 and IV 0. */
static void make_world(struct world *w, enum family fam, size_t keylen, EVP_CIPHER *cd)
{
    static const size_t gcm_tags[] = { 4, 8, 12, 13, 14, 15, 16 };
    memset(w, 0, sizeof *w);
    w->keylen = keylen;
    vgt_rand_bytes(&w->key[0][0], sizeof w->key);
    vgt_rand_bytes(&w->iv[0][0], sizeof w->iv);
    vgt_rand_bytes(w->aad, sizeof w->aad);
    vgt_rand_bytes(w->pt, sizeof w->pt);
    vgt_rand_bytes(w->rnd, sizeof w->rnd);
    if (vgt_rand_below(4) == 0) /* IV 1 equal to IV 0: the same nonce given again is still a new IV set */
        memcpy(w->iv[1], w->iv[0], IV_MAX);
    w->len = vgt_rand_below(DATA_MAX / 2 + 1);
    w->aadlen = vgt_rand_below(AAD_MAX / 2 + 1);
    if (fam == GCM) {
        w->ivlen = vgt_rand_below(2) ? 12 : 1 + vgt_rand_below(20);
        w->taglen = gcm_tags[vgt_rand_below(7)];
    } else if (fam == CCM) {
        w->ivlen = 7 + vgt_rand_below(7);
        w->taglen = 4 + 2 * vgt_rand_below(7);
    } else {
        w->ivlen = 12;
        w->taglen = 16;
        vg_aes_gcm_siv_key k;
        int ok = vg_aes_gcm_siv_init(&k, w->key[0], keylen) == VG_OK &&
                 vg_aes_gcm_siv_seal(&k, w->iv[0], 12, w->aad, w->aadlen, w->pt, w->len, w->ct, w->tag, 16) == VG_OK;
        CHECK(ok, "GCM-SIV: the sequence's message");
        vg_aes_gcm_siv_key_wipe(&k);
        return;
    }
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int outl, ok = EVP_EncryptInit_ex2(c, cd, NULL, NULL, NULL) > 0 &&
                   EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, (int)w->ivlen, NULL) > 0 &&
                   (fam == GCM || EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, (int)w->taglen, NULL) > 0) &&
                   EVP_EncryptInit_ex2(c, NULL, w->key[0], w->iv[0], NULL) > 0 &&
                   (fam == GCM || EVP_EncryptUpdate(c, NULL, &outl, NULL, (int)w->len) > 0) &&
                   EVP_EncryptUpdate(c, NULL, &outl, w->aad, (int)w->aadlen) > 0 &&
                   EVP_EncryptUpdate(c, w->ct, &outl, w->pt, (int)w->len) > 0 &&
                   EVP_EncryptFinal_ex(c, w->ct + w->len, &outl) > 0 &&
                   EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, (int)w->taglen, w->tag) > 0;
    CHECK(ok, "the sequence's message: default could not seal it");
    EVP_CIPHER_CTX_free(c);
}

struct tally {
    size_t seqs, calls, ok_calls, data_ok, opened, stopped[4], default_crash, default_wrong;
};

/* One sequence on vg and default in lock step. */
static void run_pair(enum family fam, size_t keylen, EVP_CIPHER *cv, EVP_CIPHER *cd, const char *name,
                     struct tally *t)
{
    struct world w;
    struct op ops[SEQ_OPS];
    struct side sv, sd;
    struct res rv, rd;
    struct model m;
    int n = 4 + (int)vgt_rand_below(SEQ_OPS - 3);

    make_world(&w, fam, keylen, cd);
    for (int i = 0; i < n; i++)
        random_op(&ops[i], &w, fam, i == 0);
    proper_start(ops, &n, &w, fam);
    memset(&sv, 0, sizeof sv);
    memset(&sd, 0, sizeof sd);
    sv.cipher = cv;
    sd.cipher = cd;
    sv.ctx = EVP_CIPHER_CTX_new();
    sd.ctx = EVP_CIPHER_CTX_new();
    memset(&m, 0, sizeof m);
    model_reset(&m, fam);
    t->seqs++;
    if (getenv("VG_SEQ_TRACE"))
        printf("  sequence %zu\n", t->seqs);
    for (int i = 0; i < n; i++) {
        const struct op *o = &ops[i];
        /* GCM seals with a random IV when none was ever set (both sides, each its own). */
        int random_now = fam == GCM && !m.iv_ever && m.enc &&
                         ((o->a > 0 && (o->k == OP_AAD || o->k == OP_LEN || o->k == OP_DATA)) ||
                          (o->k == OP_TLS_RECORD && !m.tls_pending));
        random_now |= fam == GCM && !m.iv_ever && m.enc && o->k == OP_FINAL;
        exec(&sv, &w, o, &rv);
        t->calls++;
        /* Four calls corrupt default 3.0's memory (3.0.22 included), so default is not called and vg
           must refuse: GCM's fixed IV part longer than the IV (default then fills "the rest", ivlen -
           len as an unsigned size, at random: a heap overflow); an update with no input and no output
           after a TLS header (default takes it for an in-place record at address NULL); IV generation
           with an IV shorter than 8 bytes (default adds 1 to the 8 bytes ending at the IV's end, before
           its start), an explicit part longer than the IV (copied to before its start), and a TLS
           record under an IV shorter than 8 bytes (both of those at once). */
        int dlen = EVP_CIPHER_CTX_get_iv_length(sd.ctx);
        if (fam == GCM && ((o->k == OP_IV_FIXED && o->a >= 0 && o->a > dlen) ||
                           (o->k == OP_LEN && m.tls_pending && o->a >= 24) || (o->k == OP_IV_GEN && dlen < 8) ||
                           (o->k == OP_IV_INV && o->a > dlen) ||
                           (((o->k == OP_DATA && o->a > 0) || o->k == OP_TLS_RECORD) && m.tls_pending && dlen < 8))) {
            t->default_crash++;
            if (!CHECK(rv.ret <= 0, "%s: call %d (%s): vg took what crashes default", name, i, op_names[o->k]))
                print_seq(ops, n, i);
            break;
        }
        /* Default's AES-NI CCM picks its bulk routine (which data the CBC-MAC reads) by the direction
           in force when the key was set: run the other way, it seals with a tag over the ciphertext
           and refuses genuine messages. And it keeps the nonce it set up with the length when a new IV
           comes after the length (a second message under the old nonce). vg's CCM is right in both;
           the sequence ends here. */
        if (fam == CCM && m.keyed && (m.enc != m.key_enc || (m.nonce_stale && !m.tls_mode)) &&
            (o->k == OP_DATA || o->k == OP_FINAL || o->k == OP_TLS_RECORD)) {
            t->default_wrong++;
            break;
        }
        exec(&sd, &w, o, &rd);
        if (getenv("VG_SEQ_TRACE"))
            printf("  %2d %-8s %3d %3d %3d %3d: vg %d default %d\n", i, op_names[o->k], o->a, o->b, o->c, o->d, rv.ret,
                   rd.ret);
        if (rv.ret != rd.ret) {
            const char *why = rv.ret <= 0 ? deliberate(&m, fam, o) : default_wrong(&m, fam, o);
            if (why != NULL) {
                int kind = strncmp(why, "one message", 11) == 0       ? 0
                           : strncmp(why, "CCM nonce", 9) == 0         ? 1
                           : strncmp(why, "GCM decryption", 14) == 0   ? 2
                                                                       : 3;
                t->stopped[kind]++;
                break;
            }
            CHECK(0, "%s: sequence %zu, call %d (%s): vg returned %d, default %d", name, t->seqs, i, op_names[o->k], rv.ret, rd.ret);
            print_seq(ops, n, i);
            break;
        }
        /* Default's CCM answers "iv" and "updated-iv" with as many bytes as the caller's buffer holds,
           read from its 16-byte IV field and past it; vg gives the IV. The IV's bytes must agree. */
        if (fam == CCM && o->k == OP_GET && o->a < 2 && rv.ret > 0 && rd.ret > 0 && rd.n > rv.n)
            rd.n = rv.n;
        int same = rv.outl == rd.outl && rv.n == rd.n;
        int data = o->k == OP_DATA || o->k == OP_TLS_RECORD;
        /* A refused update may leave its output untouched (vg: nothing written) or zeroed (default runs
           an open before it finds the lengths wrong): the verdicts are compared, and the output must
           not be the plaintext. */
        if (data && rv.ret <= 0 && rd.ret <= 0) {
            same = 1;
            /* default may have written part of a refused message: later calls that read the last
               output must read the same bytes on both sides */
            memcpy(sd.out, sv.out, sizeof sd.out);
            if (!m.enc && o->a >= 8 && (size_t)o->a <= w.len && o->k == OP_DATA && o->b == 1)
                CHECK(memcmp(rv.b, w.pt, (size_t)o->a) != 0, "%s: call %d: a refused open left plaintext", name, i);
        }
        /* Bytes under a randomly generated GCM IV differ by design (their lengths may not): the IV is
           random, or partly, when a random fill reaches past what the caller set since. */
        int iv_random = m.random_iv || random_now || (m.random_tail && dlen > m.det_len);
        if (same && !iv_random && !(o->k == OP_GET_TAG && m.tag_clobbered) &&
            !((data || o->k == OP_GET_TAG || o->k == OP_GET) && (m.tls_mode || m.tls_pending) && m.tls_clobbered) &&
            !(data && rv.ret <= 0) &&
            !((o->k == OP_GET_TAG || o->k == OP_GET) && m.tls_tainted))
            same = memcmp(rv.b, rd.b, rv.n) == 0;
        else if (data || o->k == OP_TLS_RECORD) {
            /* not compared: what later calls read back as the last output must still be one thing */
            memcpy(sd.out, sv.out, sizeof sd.out);
            memcpy(sd.rec, sv.rec, sizeof sd.rec);
            sd.reclen = sv.reclen;
        }
        if (!same && fam == CCM && m.tls_mode && m.enc && (data || o->k == OP_TLS_RECORD) && rv.ret > 0 &&
            ccm_record_opens(sv.ctx, &w, &m, rv.b, rv.n)) {
            t->default_wrong++; /* vg's record is right on its own; default's is not the same */
            break;
        }
        if (!same) {
            size_t at = 0;
            while (at < rv.n && at < rd.n && rv.b[at] == rd.b[at])
                at++;
            CHECK(0, "%s: sequence %zu, call %d (%s): vg and default produced different results (outl %d/%d, "
                  "%zu/%zu bytes, first difference at %zu)", name, t->seqs, i, op_names[o->k], rv.outl, rd.outl, rv.n,
                  rd.n, at);
            if (getenv("VG_SEQ_TRACE")) {
                printf("  vg:      ");
                vgt_print_hex(stdout, rv.b, rv.n);
                printf("\n  default: ");
                vgt_print_hex(stdout, rd.b, rd.n);
                printf("\n");
            }
            print_seq(ops, n, i);
            break;
        }
        if (rd.ret > 0) {
            t->ok_calls++;
            if (o->k == OP_DATA && o->a > 0) {
                t->data_ok++;
                t->opened += !m.enc;
            }
        }
        /* A GCM record that got as far as its one-shot leaves default's tag length set (so a later open's
           Final runs): taken as so for any record. */
        if (fam == GCM && m.tls_pending && ((o->k == OP_DATA && o->a > 0) || o->k == OP_TLS_RECORD))
            m.tag_given = 1;
        if (fam == GCM && o->k == OP_TLS_AAD && o->b == 13) /* default keeps a refused header too */
            m.tls_pending = 1, m.tls_clobbered = 0;
        else if (fam == GCM && (o->k == OP_FINAL || o->k == OP_TLS_RECORD ||
                                ((o->k == OP_AAD || o->k == OP_LEN || o->k == OP_DATA) && o->a > 0)))
            m.tls_pending = 0;
        /* default's GCM keeps the header in the buffer a SET_TAG writes, refused or not */
        if (fam == GCM && o->k == OP_SET_TAG && o->b != 0 && o->a <= 16 && m.tls_pending)
            m.tls_clobbered = 1;
        if (fam == GCM && rd.ret > 0 && m.enc && (o->k == OP_FINAL || (o->k == OP_LEN && o->a > 0)))
            m.gcm_sealed = 1;
        if (fam == GCM && rd.ret > 0 && o->k == OP_SET_TAG && o->b != 0) /* a tag given to open */
            m.gcm_sealed = 0;
        if (random_now && rd.ret > 0)
            m.iv_ever = m.random_iv = m.random_tail = 1;
        if (m.random_iv || iv_random) { /* what the next calls may read back must be the same on both sides */
            memcpy(sd.out, sv.out, sizeof sd.out);
            memcpy(sd.tag, sv.tag, sizeof sd.tag);
            memcpy(sd.rec, sv.rec, sizeof sd.rec);
            sd.reclen = sv.reclen;
        }
        /* Default 3.0's GCM keeps the tag it computed in the buffer that a SET_TAG (copied before it is
           refused when sealing) and a TLS header also write: a tag read after them is not the tag. */
        if (fam == GCM && ((o->k == OP_SET_TAG && o->b != 0 && o->a <= 16) || (o->k == OP_TLS_AAD && o->b == 13)))
            m.tag_clobbered = 1;
        if (fam == GCM && (o->k == OP_FINAL || (o->k == OP_LEN && o->a > 0)) && m.enc && rd.ret > 0)
            m.tag_clobbered = m.random_iv; /* a tag under a random IV cannot be compared either */
        /* A record (any update in TLS mode) over default's overwritten header leaves its explicit IV
           and its tag behind; a record over a sound header, or an IV set whole, clears that. */
        if (fam == CCM && m.tls_mode && (data || o->k == OP_TLS_RECORD))
            m.tls_tainted = m.tls_clobbered;
        if (o->k == OP_INIT && o->c >= 0 && rd.ret > 0)
            m.tls_tainted = 0;
        model_step(&m, fam, o, rd.ret > 0, sd.ctx);
    }
    EVP_CIPHER_CTX_free(sv.ctx);
    EVP_CIPHER_CTX_free(sd.ctx);
}

/* GCM-SIV: vg alone, against a model of the rules (one message per IV set; OpenSSL 3.2's calls). */
struct siv_model {
    int enc, keyed, key, iv, fresh, done, tag_given, sealed, verdict;
    uint8_t tag[16], sealed_tag[16];
    uint8_t aad[AAD_MAX * SEQ_OPS];
    size_t aadlen;
};

/* The message the model expects now, run through vg's C API: its verdict (VG_OK or not) and bytes. */
static int siv_expect(const struct siv_model *m, const struct world *w, size_t keylen, const uint8_t *in, size_t len,
                      uint8_t *out, uint8_t tag[16])
{
    vg_aes_gcm_siv_key k;
    int rc;
    if (vg_aes_gcm_siv_init(&k, w->key[m->key], keylen) != VG_OK)
        return VG_ERR_ARG;
    if (m->enc)
        rc = vg_aes_gcm_siv_seal(&k, w->iv[m->iv], 12, m->aad, m->aadlen, in, len, out, tag, 16);
    else
        rc = vg_aes_gcm_siv_open(&k, w->iv[m->iv], 12, m->aad, m->aadlen, in, len, m->tag, 16, out);
    vg_aes_gcm_siv_key_wipe(&k);
    return rc;
}

static void run_siv(size_t keylen, EVP_CIPHER *cv, const char *name, struct tally *t)
{
    struct world w;
    struct op ops[SEQ_OPS];
    struct side s;
    struct res r;
    struct siv_model m;
    int n = 4 + (int)vgt_rand_below(SEQ_OPS - 3);

    make_world(&w, SIV, keylen, NULL);
    for (int i = 0; i < n; i++)
        random_op(&ops[i], &w, SIV, i == 0);
    proper_start(ops, &n, &w, SIV);
    memset(&s, 0, sizeof s);
    memset(&m, 0, sizeof m);
    m.iv = -1;
    s.cipher = cv;
    s.ctx = EVP_CIPHER_CTX_new();
    t->seqs++;
    for (int i = 0; i < n; i++) {
        const struct op *o = &ops[i];
        uint8_t in[DATA_MAX], want[DATA_MAX], tag[16];
        memcpy(in, o->b == 0 ? w.pt : o->b == 1 ? w.ct : s.out, DATA_MAX); /* before the call writes */
        exec(&s, &w, o, &r);
        t->calls++;
        t->ok_calls += r.ret > 0;
        /* A message runs at a data update (of any length but 0) or at Final before one ran, with a key, an
           IV set since the last message, and (opening) a tag. */
        int runs = ((o->k == OP_DATA && o->a > 0) || (o->k == OP_FINAL && !m.done)) && m.keyed && m.iv >= 0 &&
                   m.fresh && (m.enc || m.tag_given);
        int ok = 1;
        if (runs) {
            size_t len = o->k == OP_DATA ? (size_t)o->a : 0;
            int rc = siv_expect(&m, &w, keylen, in, len, want, tag);
            ok &= CHECK((r.ret > 0) == (rc == VG_OK), "%s: call %d (%s): EVP %d, C API %d", name, i, op_names[o->k],
                        r.ret, rc);
            if (rc == VG_OK && len > 0)
                ok &= CHECK_BYTES(r.b, want, len, "%s: call %d (data): output", name, i);
            else if (rc != VG_OK && len > 0)
                ok &= CHECK(vgt_all_zero(r.b, len), "%s: call %d: a failed open left its output", name, i);
            m.done = 1;
            m.fresh = 0;
            m.verdict = rc == VG_OK;
            if (m.enc && rc == VG_OK) {
                m.sealed = 1;
                memcpy(m.sealed_tag, tag, 16);
            }
            if (r.ret > 0 && len > 0) {
                t->data_ok++;
                t->opened += !m.enc;
            }
        } else if (o->k == OP_DATA && o->a > 0) {
            ok &= CHECK(r.ret <= 0, "%s: call %d (data) made a message with no key, no new IV or no tag", name, i);
        } else if (o->k == OP_FINAL) {
            /* after the message: its verdict; before one could run: refused */
            int want_ok = m.done && m.keyed && m.iv >= 0 && m.verdict;
            ok &= CHECK((r.ret > 0) == want_ok, "%s: call %d (final): %d, the model says %d", name, i, r.ret, want_ok);
        } else if (o->k == OP_GET_TAG) {
            int want_ok = m.enc && m.sealed && o->a == 16;
            ok &= CHECK((r.ret > 0) == want_ok, "%s: call %d (get_tag): %d, the model says %d", name, i, r.ret, want_ok);
            if (r.ret > 0 && want_ok)
                ok &= CHECK_BYTES(r.b, m.sealed_tag, 16, "%s: call %d: the tag", name, i);
        }
        if (!ok) {
            print_seq(ops, n, i);
            break;
        }
        if (r.ret <= 0)
            continue;
        switch (o->k) {
        case OP_INIT:
            if (o->a) {
                int enc = m.enc;
                memset(&m, 0, sizeof m);
                m.iv = -1;
                m.enc = enc;
            }
            if (o->d >= 0) {
                if (o->d != m.enc || o->d) /* vg forgets a tag it was given on a change of direction */
                    m.tag_given = 0;
                m.enc = o->d;
            }
            if (o->b >= 0) {
                m.keyed = 1;
                m.key = o->b;
            }
            if (o->c >= 0) {
                m.iv = o->c;
                m.fresh = 1;
            }
            /* every init starts a new message: the AAD and the last verdict go, a sealed tag too */
            m.aadlen = 0;
            m.done = 0;
            m.sealed = 0;
            break;
        case OP_SET_TAG:
            if (o->b != 0 && !m.enc) {
                m.tag_given = 1;
                memcpy(m.tag, o->b == 1 ? w.tag : o->b == 2 ? s.tag : w.rnd, 16);
            }
            break;
        case OP_AAD:
            memcpy(m.aad + m.aadlen, w.aad + o->b, (size_t)o->a);
            m.aadlen += (size_t)o->a;
            break;
        default:
            break;
        }
    }
    EVP_CIPHER_CTX_free(s.ctx);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        enum family fam;
        size_t keylen;
    } algs[] = {
        { "AES-128-GCM", GCM, 16 },     { "AES-256-GCM", GCM, 32 },     { "AES-192-GCM", GCM, 24 },
        { "AES-128-CCM", CCM, 16 },     { "AES-256-CCM", CCM, 32 },     { "AES-192-CCM", CCM, 24 },
        { "AES-128-GCM-SIV", SIV, 16 }, { "AES-256-GCM-SIV", SIV, 32 },
    };
    vgt_init(argc, argv);
    vgp_open(&g);
    size_t per_alg = vgt_quick() ? 600 : 3000;

    const char *only = vgt_option("alg"); /* --alg NAME: one algorithm (for a rerun by hand) */
    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++) {
        if (only != NULL && strcmp(only, algs[a].name) != 0)
            continue;
        EVP_CIPHER *cv = vgp_fetch(&g, algs[a].name, 1);
        EVP_CIPHER *cd = algs[a].fam == SIV ? NULL : vgp_fetch(&g, algs[a].name, 0);
        struct tally t;
        size_t before = vgt_failures();
        memset(&t, 0, sizeof t);
        for (size_t i = 0; i < per_alg && vgt_failures() - before < 5; i++) {
            if (algs[a].fam == SIV)
                run_siv(algs[a].keylen, cv, algs[a].name, &t);
            else
                run_pair(algs[a].fam, algs[a].keylen, cv, cd, algs[a].name, &t);
        }
        printf("%s: %zu sequences, %zu calls (%zu accepted), %zu messages made (%zu opened); "
               "ended at a deliberate refusal: %zu one message per IV, %zu CCM lengths after the key, "
               "%zu GCM tag lengths, %zu other (direction changes, tags read with none sealed); %zu calls that "
               "would corrupt default skipped, %zu where default's CCM runs its key's direction or a stale nonce: "
               "%s\n",
               algs[a].name, t.seqs, t.calls, t.ok_calls, t.data_ok, t.opened, t.stopped[0], t.stopped[1],
               t.stopped[2], t.stopped[3], t.default_crash, t.default_wrong,
               vgt_failures() == before ? "identical" : "DIFFERENT");
        /* The generator must reach what it is for: messages made and opened, and each rule hit. */
        CHECK(t.data_ok > per_alg / 20 && t.opened > per_alg / 200, "%s: too few messages made (%zu, %zu opened)",
              algs[a].name, t.data_ok, t.opened);
        if (algs[a].fam != SIV)
            CHECK(t.stopped[0] > 0, "%s: no sequence reached a second message under one IV", algs[a].name);
        EVP_CIPHER_free(cv);
        EVP_CIPHER_free(cd);
    }
    vgp_close(&g);
    return vgt_finish();
}
