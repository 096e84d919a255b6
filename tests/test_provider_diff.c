/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * test_provider_diff.c — the vg provider against OpenSSL's default provider, in one process.
 *
 * Every case is run twice through EVP with the same plan (key, IV, lengths, where the updates split,
 * 0-byte updates, in place or not, whether and where the context is copied with
 * EVP_CIPHER_CTX_copy): once with ciphers fetched with "provider=vg", once with "provider=default".
 * Each EVP call's verdict (and outl, and the parameters read back) goes into a trace; the traces, the
 * outputs and the tags must be identical. Forged messages (a flipped bit in the tag, the ciphertext or
 * the AAD) must fail on both. Covered: AES-128/192/256 GCM (IV 1..64 bytes, every tag length),
 * CCM (nonce 7..13, tags 4..16), CTR (across the 2^32, 2^64 and 2^128 counter wraps), ECB (with and
 * without padding, bad padding), data 0..2100 bytes and a few of 1 MiB, AAD 0..100. AES-GCM-SIV
 * (not in OpenSSL 3.0) is checked against vg's own C API instead. TLS 1.2 records through the record
 * parameters (fixed IV, "tlsaad") are checked by tls_records.
 *
 * Documented differences (checked here, so a change on either side shows): vg refuses GCM
 * decryption tags of 1-3, 5-7 and 9-11 bytes, which OpenSSL accepts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "harness.h"
#include "provider_common.h"

#define MAXPIECES 8
#define MAXTRACE 800

enum family { GCM, CCM, CTR, ECB };

struct plan {
    size_t aad[MAXPIECES];
    int naad;
    size_t data[MAXPIECES];
    int ndata;
    int inplace;
    int copy_at;   /* the update step before which the context is copied (and the original freed); -1 */
    int tag_early; /* GCM decryption: the tag set before the data (else just before Final) */
};

struct result {
    uint8_t *out;
    size_t outlen;
    uint8_t tag[16];
    int trace[MAXTRACE];
    int nt;
    int ok; /* every call succeeded */
};

static struct vgp_test g;

static void T(struct result *r, int v)
{
    if (r->nt < MAXTRACE)
        r->trace[r->nt++] = v;
}

/* A call's verdict: into the trace and into r->ok. */
static void V(struct result *r, int ret)
{
    T(r, ret > 0);
    if (ret <= 0)
        r->ok = 0;
}

/* Cuts total into 1..5 pieces at random points (some of length 0), sometimes with an extra 0. */
static void make_pieces(size_t total, size_t *pieces, int *n, int many)
{
    size_t cuts[MAXPIECES];
    int k = many ? 1 + (int)vgt_rand_below(5) : 1;

    for (int i = 0; i < k - 1; i++)
        cuts[i] = vgt_rand_below(total + 1);
    for (int i = 1; i < k - 1; i++) /* insertion sort */
        for (int j = i; j > 0 && cuts[j - 1] > cuts[j]; j--) {
            size_t t = cuts[j];
            cuts[j] = cuts[j - 1];
            cuts[j - 1] = t;
        }
    size_t prev = 0;
    *n = 0;
    for (int i = 0; i < k - 1; i++) {
        pieces[(*n)++] = cuts[i] - prev;
        prev = cuts[i];
    }
    pieces[(*n)++] = total - prev;
    if (many && vgt_rand_below(4) == 0 && *n < MAXPIECES) {
        int at = (int)vgt_rand_below((size_t)*n + 1);
        memmove(pieces + at + 1, pieces + at, (size_t)(*n - at) * sizeof *pieces);
        pieces[at] = 0;
        (*n)++;
    }
}

static void maybe_copy(EVP_CIPHER_CTX **ctx, int step, const struct plan *pl, struct result *r)
{
    if (step != pl->copy_at)
        return;
    EVP_CIPHER_CTX *n = EVP_CIPHER_CTX_new();
    int ok = EVP_CIPHER_CTX_copy(n, *ctx);
    V(r, ok);
    if (ok) {
        /* The original is freed (and so wiped) at once: the copy must not depend on it. */
        EVP_CIPHER_CTX_free(*ctx);
        *ctx = n;
    } else {
        EVP_CIPHER_CTX_free(n);
    }
}

static void result_init(struct result *r, size_t cap)
{
    memset(r->out, 0xa5, cap);
    memset(r->tag, 0x5a, sizeof r->tag);
    r->nt = 0;
    r->ok = 1;
    r->outlen = 0;
}

/* GCM and CCM, the way a careful EVP caller does it. */
static void aead_run(EVP_CIPHER *cipher, int ccm, int enc, const uint8_t *key, const uint8_t *iv, size_t ivlen,
                     const uint8_t *aad, size_t aadlen, const uint8_t *in, size_t len, const uint8_t *tag,
                     size_t taglen, const struct plan *pl, struct result *r)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    uint8_t *out = r->out;
    const uint8_t *src = in;
    size_t off;
    int outl = -1, step = 0;

    (void)aadlen; /* the plan's pieces add up to it */
    result_init(r, len + 32);
    if (pl->inplace) {
        memcpy(out, in, len);
        src = out;
    }
    V(r, EVP_CipherInit_ex2(ctx, cipher, NULL, NULL, enc, NULL));
    V(r, EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)ivlen, NULL));
    if (ccm)
        V(r, EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen, enc ? NULL : (void *)tag));
    else if (!enc && pl->tag_early)
        V(r, EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen, (void *)tag));
    V(r, EVP_CipherInit_ex2(ctx, NULL, key, iv, enc, NULL));
    T(r, EVP_CIPHER_CTX_get_iv_length(ctx));
    T(r, EVP_CIPHER_CTX_get_key_length(ctx));
    {
        /* "iv" and "updated-iv" read back (into a buffer of exactly the IV's length) */
        uint8_t got[2][64];
        memset(got, 0, sizeof got);
        V(r, EVP_CIPHER_CTX_get_original_iv(ctx, got[0], ivlen));
        V(r, EVP_CIPHER_CTX_get_updated_iv(ctx, got[1], ivlen));
        for (size_t i = 0; i < ivlen; i++) {
            T(r, got[0][i]);
            T(r, got[1][i]);
        }
    }
    if (ccm) {
        V(r, EVP_CipherUpdate(ctx, NULL, &outl, NULL, (int)len));
        T(r, outl);
    }
    off = 0;
    for (int i = 0; i < pl->naad; i++) {
        maybe_copy(&ctx, step++, pl, r);
        V(r, EVP_CipherUpdate(ctx, NULL, &outl, aad + off, (int)pl->aad[i]));
        T(r, outl);
        off += pl->aad[i];
    }
    off = 0;
    for (int i = 0; i < pl->ndata; i++) {
        maybe_copy(&ctx, step++, pl, r);
        V(r, EVP_CipherUpdate(ctx, out + off, &outl, src + off, (int)pl->data[i]));
        T(r, outl);
        off += pl->data[i];
    }
    maybe_copy(&ctx, step++, pl, r);
    if (!ccm && !enc && !pl->tag_early)
        V(r, EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen, (void *)tag));
    V(r, EVP_CipherFinal_ex(ctx, out + len, &outl));
    T(r, outl);
    if (enc)
        V(r, EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)taglen, r->tag));
    r->outlen = len;
    EVP_CIPHER_CTX_free(ctx);
}

static void ctr_ecb_run(EVP_CIPHER *cipher, int ctr, int enc, int pad, const uint8_t *key, const uint8_t *iv,
                        const uint8_t *in, size_t len, const struct plan *pl, struct result *r)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    uint8_t *out = r->out;
    const uint8_t *src = in;
    size_t off = 0, total = 0;
    int outl = -1;

    result_init(r, len + 32);
    if (pl->inplace) {
        memcpy(out, in, len);
        src = out;
    }
    V(r, EVP_CipherInit_ex2(ctx, cipher, key, ctr ? iv : NULL, enc, NULL));
    if (!ctr)
        V(r, EVP_CIPHER_CTX_set_padding(ctx, pad));
    for (int i = 0; i < pl->ndata; i++) {
        maybe_copy(&ctx, i, pl, r);
        int ok = EVP_CipherUpdate(ctx, out + total, &outl, src + off, (int)pl->data[i]);
        V(r, ok);
        T(r, outl);
        if (ok > 0)
            total += (size_t)outl;
        off += pl->data[i];
        if (ctr) {
            uint8_t upd[16];
            T(r, EVP_CIPHER_CTX_get_num(ctx));
            V(r, EVP_CIPHER_CTX_get_updated_iv(ctx, upd, sizeof upd));
            for (int b = 0; b < 16; b++)
                T(r, upd[b]);
        }
    }
    int ok = EVP_CipherFinal_ex(ctx, out + total, &outl);
    V(r, ok);
    T(r, outl);
    if (ok > 0)
        total += (size_t)outl;
    r->outlen = total;
    EVP_CIPHER_CTX_free(ctx);
}

static int same(const struct result *a, const struct result *b, size_t cmp_len, size_t taglen, const char *what)
{
    int ok = CHECK(a->nt == b->nt && memcmp(a->trace, b->trace, (size_t)a->nt * sizeof(int)) == 0,
                   "%s: the EVP calls' verdicts differ (vg %d calls, default %d)", what, a->nt, b->nt);
    if (!ok) {
        printf("  vg:     ");
        for (int i = 0; i < a->nt; i++)
            printf("%d ", a->trace[i]);
        printf("\n  default:");
        for (int i = 0; i < b->nt; i++)
            printf("%d ", b->trace[i]);
        printf("\n");
    }
    ok &= CHECK(a->outlen == b->outlen, "%s: output lengths %zu and %zu", what, a->outlen, b->outlen);
    if (a->outlen == b->outlen && cmp_len <= a->outlen)
        ok &= CHECK_BYTES(a->out, b->out, cmp_len, "%s: output", what);
    if (taglen)
        ok &= CHECK_BYTES(a->tag, b->tag, taglen, "%s: tag", what);
    return ok;
}

static void random_plan(struct plan *pl, size_t aadlen, size_t len, int many_aad, int many_data, int steps_hint)
{
    make_pieces(aadlen, pl->aad, &pl->naad, many_aad);
    make_pieces(len, pl->data, &pl->ndata, many_data);
    pl->inplace = (int)vgt_rand_below(2);
    pl->copy_at = vgt_rand_below(3) == 0 ? (int)vgt_rand_below((size_t)steps_hint + 1) : -1;
    pl->tag_early = (int)vgt_rand_below(2);
}

static size_t random_len(size_t big)
{
    if (big)
        return ((size_t)1 << 20) + vgt_rand_below(17);
    switch (vgt_rand_below(4)) {
    case 0: return vgt_rand_below(48);
    case 1: return 16 * vgt_rand_below(20);
    default: return vgt_rand_below(2101);
    }
}

static const size_t gcm_dec_tags[] = { 4, 8, 12, 13, 14, 15, 16 };

static void aead_case(enum family fam, size_t keylen, EVP_CIPHER *cv, EVP_CIPHER *cd, size_t ivlen, size_t taglen,
                      size_t len, const char *name)
{
    uint8_t key[32], iv[64], aad[100], tagbuf[16];
    size_t aadlen = vgt_rand_below(101);
    uint8_t *pt = vgt_xmalloc(len + 1);
    struct result rv, rd;
    struct plan pl;
    char what[160];
    int ccm = fam == CCM;

    rv.out = vgt_xmalloc(len + 32);
    rd.out = vgt_xmalloc(len + 32);
    vgt_rand_bytes(key, keylen);
    vgt_rand_bytes(iv, ivlen);
    vgt_rand_bytes(aad, aadlen);
    vgt_rand_bytes(pt, len);
    random_plan(&pl, aadlen, len, !ccm, !ccm, ccm ? 2 : 6);
    if (ccm && aadlen >= 2 && vgt_rand_below(4) == 0) { /* two AAD updates: OpenSSL keeps the last */
        pl.aad[0] = 1 + vgt_rand_below(aadlen - 1);
        pl.aad[1] = aadlen - pl.aad[0];
        pl.naad = 2;
    }
    if (ccm && vgt_rand_below(4) == 0 && pl.naad < MAXPIECES) { /* a leading 0-byte AAD update */
        memmove(pl.aad + 1, pl.aad, (size_t)pl.naad * sizeof pl.aad[0]);
        pl.aad[0] = 0;
        pl.naad++;
    }
    snprintf(what, sizeof what, "%s len %zu aad %zu iv %zu tag %zu pieces %d/%d%s%s", name, len, aadlen, ivlen, taglen,
             pl.naad, pl.ndata, pl.inplace ? " in place" : "", pl.copy_at >= 0 ? " copied" : "");

    /* Seal. */
    aead_run(cv, ccm, 1, key, iv, ivlen, aad, aadlen, pt, len, NULL, taglen, &pl, &rv);
    aead_run(cd, ccm, 1, key, iv, ivlen, aad, aadlen, pt, len, NULL, taglen, &pl, &rd);
    CHECK(rd.ok, "%s: default failed to seal", what);
    same(&rv, &rd, len, taglen, what);

    /* Open what default sealed, with a tag length both accept. */
    uint8_t *ct = vgt_xmalloc(len + 1);
    memcpy(ct, rd.out, len);
    memcpy(tagbuf, rd.tag, 16);
    size_t dtag = taglen;
    if (!ccm && !(taglen == 4 || taglen == 8 || taglen >= 12))
        dtag = gcm_dec_tags[vgt_rand_below(7)];
    if (dtag != taglen) { /* reseal to get that tag length */
        aead_run(cd, ccm, 1, key, iv, ivlen, aad, aadlen, pt, len, NULL, dtag, &pl, &rd);
        memcpy(tagbuf, rd.tag, 16);
    }
    struct plan sealed = pl;
    random_plan(&pl, aadlen, len, !ccm, !ccm, ccm ? 2 : 6);
    if (ccm) { /* the same AAD updates: with two, only the last counts */
        memcpy(pl.aad, sealed.aad, sizeof pl.aad);
        pl.naad = sealed.naad;
    }
    aead_run(cv, ccm, 0, key, iv, ivlen, aad, aadlen, ct, len, tagbuf, dtag, &pl, &rv);
    aead_run(cd, ccm, 0, key, iv, ivlen, aad, aadlen, ct, len, tagbuf, dtag, &pl, &rd);
    if (CHECK(rv.ok && rd.ok, "%s: open failed (vg %d, default %d)", what, rv.ok, rd.ok))
        CHECK_BYTES(rv.out, pt, len, "%s: opened plaintext", what);
    same(&rv, &rd, len, 0, what);

    /* Forgeries: a flipped bit in the tag, the ciphertext or the AAD. */
    int where = (int)vgt_rand_below(3);
    if (where == 1 && len == 0)
        where = 0;
    if (where == 2 && aadlen == 0)
        where = 0;
    if (where == 0)
        tagbuf[vgt_rand_below(dtag)] ^= (uint8_t)(1u << vgt_rand_below(8));
    else if (where == 1)
        ct[vgt_rand_below(len)] ^= (uint8_t)(1u << vgt_rand_below(8));
    else /* in the last AAD update, the one CCM keeps */
        aad[aadlen - 1 - vgt_rand_below(ccm ? pl.aad[pl.naad - 1] : aadlen)] ^= (uint8_t)(1u << vgt_rand_below(8));
    aead_run(cv, ccm, 0, key, iv, ivlen, aad, aadlen, ct, len, tagbuf, dtag, &pl, &rv);
    aead_run(cd, ccm, 0, key, iv, ivlen, aad, aadlen, ct, len, tagbuf, dtag, &pl, &rd);
    CHECK(!rv.ok && !rd.ok, "%s: forgery (%s) accepted (vg ok %d, default ok %d)", what,
          where == 0 ? "tag" : where == 1 ? "ciphertext" : "aad", rv.ok, rd.ok);
    same(&rv, &rd, len, 0, what);

    free(ct);
    free(pt);
    free(rv.out);
    free(rd.out);
}

static void ctr_iv(uint8_t iv[16])
{
    vgt_rand_bytes(iv, 16);
    switch (vgt_rand_below(5)) {
    case 0: /* the low 32 bits about to wrap */
        memset(iv + 12, 0xff, 4);
        iv[15] = (uint8_t)(0xff - vgt_rand_below(140));
        break;
    case 1: /* the low 64 bits about to wrap: the carry crosses the 64-bit half */
        memset(iv + 8, 0xff, 8);
        iv[15] = (uint8_t)(0xff - vgt_rand_below(140));
        break;
    case 2: /* the whole 128-bit counter about to wrap */
        memset(iv, 0xff, 16);
        iv[15] = (uint8_t)(0xff - vgt_rand_below(140));
        break;
    default:
        break;
    }
}

static void block_case(enum family fam, size_t keylen, EVP_CIPHER *cv, EVP_CIPHER *cd, size_t len, const char *name)
{
    uint8_t key[32], iv[16];
    uint8_t *pt = vgt_xmalloc(len + 1);
    struct result rv, rd;
    struct plan pl;
    char what[160];
    int ctr = fam == CTR;
    int pad = ctr ? 1 : (int)vgt_rand_below(2);

    rv.out = vgt_xmalloc(len + 32);
    rd.out = vgt_xmalloc(len + 32);
    vgt_rand_bytes(key, keylen);
    ctr_iv(iv);
    vgt_rand_bytes(pt, len);
    random_plan(&pl, 0, len, 0, 1, 5);
    if (!ctr && pl.ndata > 1) /* in place only where out stays level with in: see docs */
        pl.inplace = 0;
    snprintf(what, sizeof what, "%s len %zu pad %d pieces %d%s%s", name, len, pad, pl.ndata,
             pl.inplace ? " in place" : "", pl.copy_at >= 0 ? " copied" : "");
    ctr_ecb_run(cv, ctr, 1, pad, key, iv, pt, len, &pl, &rv);
    ctr_ecb_run(cd, ctr, 1, pad, key, iv, pt, len, &pl, &rd);
    if (ctr || pad || len % 16 == 0)
        CHECK(rd.ok, "%s: default failed", what);
    same(&rv, &rd, rd.outlen, 0, what);

    /* Decrypt what default produced (or, without padding, any whole blocks; with padding, sometimes
       a ciphertext whose padding is bad). */
    size_t clen = rd.outlen;
    uint8_t *ct = vgt_xmalloc(clen + 1);
    memcpy(ct, rd.out, clen);
    if (!ctr && pad && clen >= 16 && vgt_rand_below(3) == 0)
        ct[clen - 1 - vgt_rand_below(16)] ^= (uint8_t)(1u << vgt_rand_below(8));
    random_plan(&pl, 0, clen, 0, 1, 5);
    if (!ctr && pl.ndata > 1)
        pl.inplace = 0;
    rv.out = realloc(rv.out, clen + 32);
    rd.out = realloc(rd.out, clen + 32);
    ctr_ecb_run(cv, ctr, 0, pad, key, iv, ct, clen, &pl, &rv);
    ctr_ecb_run(cd, ctr, 0, pad, key, iv, ct, clen, &pl, &rd);
    same(&rv, &rd, rd.outlen, 0, what);
    free(ct);
    free(pt);
    free(rv.out);
    free(rd.out);
}

/* GCM-SIV: EVP (vg provider) against vg_aes_gcm_siv_seal/open. */
static void siv_case(size_t keylen, EVP_CIPHER *cv, size_t len, const char *name)
{
    uint8_t key[32], nonce[12], aad[100], tag[16], want_tag[16];
    size_t aadlen = vgt_rand_below(101);
    uint8_t *pt = vgt_xmalloc(len + 1), *want = vgt_xmalloc(len + 1), *got = vgt_xmalloc(len + 16);
    vg_aes_gcm_siv_key k;
    struct plan pl;
    int outl, ok = 1;
    char what[120];

    vgt_rand_bytes(key, keylen);
    vgt_rand_bytes(nonce, 12);
    vgt_rand_bytes(aad, aadlen);
    vgt_rand_bytes(pt, len);
    make_pieces(aadlen, pl.aad, &pl.naad, 1);
    snprintf(what, sizeof what, "%s len %zu aad %zu pieces %d", name, len, aadlen, pl.naad);
    if (!CHECK(vg_aes_gcm_siv_init(&k, key, keylen) == VG_OK, "%s: vg init", what))
        return;
    CHECK(vg_aes_gcm_siv_seal(&k, nonce, 12, aad, aadlen, pt, len, want, want_tag, 16) == VG_OK, "%s: vg seal", what);

    for (int forge = 0; forge < 3; forge++) {
        int enc = forge == 0;
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        size_t off = 0;
        const uint8_t *in = enc ? pt : want;

        int tag_first = !enc && vgt_rand_below(2); /* the tag set before the key and nonce, or after */
        memcpy(tag, want_tag, 16);
        if (forge == 2)
            tag[vgt_rand_below(16)] ^= 1;
        if (tag_first)
            ok = EVP_CipherInit_ex2(ctx, cv, NULL, NULL, 0, NULL) > 0 &&
                 EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag) > 0 &&
                 EVP_CipherInit_ex2(ctx, NULL, key, nonce, 0, NULL) > 0;
        else
            ok = EVP_CipherInit_ex2(ctx, cv, key, nonce, enc, NULL) > 0 &&
                 (enc || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag) > 0);
        for (int i = 0; i < pl.naad; i++) {
            ok &= EVP_CipherUpdate(ctx, NULL, &outl, aad + off, (int)pl.aad[i]) > 0;
            off += pl.aad[i];
        }
        int upd = 1;
        if (len > 0 || vgt_rand_below(2))
            upd = EVP_CipherUpdate(ctx, got, &outl, in, (int)len) > 0;
        int fin = EVP_CipherFinal_ex(ctx, got + len, &outl) > 0;
        if (forge == 2) {
            CHECK(ok && !fin, "%s: forged tag: update %d, final %d", what, upd, fin);
            CHECK(vgt_all_zero(got, len), "%s: forged tag: output not zeroed", what);
        } else {
            CHECK(ok && upd && fin, "%s: %s failed", what, enc ? "seal" : "open");
            CHECK_BYTES(got, enc ? want : pt, len, "%s: %s output", what, enc ? "seal" : "open");
            if (enc) {
                CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0, "%s: get tag", what);
                CHECK_BYTES(tag, want_tag, 16, "%s: tag", what);
            }
        }
        EVP_CIPHER_CTX_free(ctx);
    }
    vg_aes_gcm_siv_key_wipe(&k);
    free(pt);
    free(want);
    free(got);
}

/* CCM: one message per IV set (the nonce-reuse bug of issue 31), step by step on vg and default. Each
   step's verdict must be default's where default refuses; where default takes a second message under
   the same IV (its own nonce reuse), vg must refuse, and the step says so. A second message with a new
   IV, its length set, must give default's bytes. */
static int ccm_step(EVP_CIPHER_CTX *ctx, int what, uint8_t *out, const uint8_t *in, size_t len, uint8_t *tag)
{
    int outl;
    switch (what) {
    case 0: return EVP_CipherUpdate(ctx, NULL, &outl, NULL, (int)len) > 0;     /* the length */
    case 1: return EVP_CipherUpdate(ctx, NULL, &outl, in, (int)len) > 0;       /* AAD */
    case 2: return EVP_CipherUpdate(ctx, out, &outl, in, (int)len) > 0;        /* data */
    case 3: return EVP_CipherFinal_ex(ctx, out, &outl) > 0;
    case 4: return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 8, tag) > 0;
    case 5: return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 8, tag) > 0;
    case 6: return EVP_CipherInit_ex2(ctx, NULL, NULL, NULL, -1, NULL) > 0;    /* init, all NULL */
    default: return 0;
    }
}

static void ccm_one_message_per_iv(EVP_CIPHER *cv, EVP_CIPHER *cd, const char *name)
{
    /* Each script: direction, then steps {what, length, want_vg, want_default} (-1: as default). */
    static const struct {
        const char *what;
        int enc;
        int steps[10][4];
        int n;
    } scripts[] = {
        { "seal, then data again (no new IV)", 1, { { 0, 32, 1, 1 }, { 2, 32, 1, 1 }, { 2, 32, 0, 0 } }, 3 },
        { "seal, then a 0-byte update", 1, { { 0, 32, 1, 1 }, { 2, 32, 1, 1 }, { 2, 0, 0, 1 } }, 3 },
        { "seal, length again, data again", 1, { { 0, 32, 1, 1 }, { 2, 32, 1, 1 }, { 0, 32, 0, 1 }, { 2, 32, 0, 1 } }, 4 },
        { "seal, Final, init(NULL...), a new message", 1,
          { { 0, 16, 1, 1 }, { 2, 16, 1, 1 }, { 3, 0, 1, 1 }, { 6, 0, 1, 1 }, { 0, 16, 0, 1 }, { 2, 16, 0, 1 } }, 6 },
        { "seal, Final, get tag, init(NULL...), a new message", 1,
          { { 2, 16, 1, 1 }, { 3, 0, 1, 1 }, { 4, 0, 1, 1 }, { 6, 0, 1, 1 }, { 0, 16, 0, 0 }, { 2, 16, 0, 0 } }, 6 },
        { "a data update of the wrong length, then Final", 1, { { 0, 32, 1, 1 }, { 2, 31, 0, 0 }, { 3, 0, 0, 0 } }, 3 },
        { "a failed open, a new tag, the length again, data again", 0,
          { { 5, 0, 1, 1 }, { 0, 32, 1, 1 }, { 2, 32, 0, 0 }, { 5, 1, 1, 1 }, { 0, 32, 0, 1 }, { 2, 32, 0, -1 } }, 6 },
        { "a failed open, then Final", 0, { { 5, 0, 1, 1 }, { 2, 32, 0, 0 }, { 3, 0, 0, 0 } }, 3 },
    };
    uint8_t key[32] = { 1 }, iv[16] = { 2 }, pt[32] = { 4 }, good[32], goodtag[16];
    EVP_CIPHER *cs[2] = { cv, cd };
    int outl;

    /* The message and its 8-byte tag, from default. */
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    CHECK(EVP_EncryptInit_ex2(c, cd, NULL, NULL, NULL) > 0 && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 8, NULL) > 0 &&
              EVP_EncryptInit_ex2(c, NULL, key, iv, NULL) > 0 && EVP_EncryptUpdate(c, good, &outl, pt, 32) > 0 &&
              EVP_EncryptFinal_ex(c, good, &outl) > 0 && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 8, goodtag) > 0,
          "%s: default seals", name);
    EVP_CIPHER_CTX_free(c);
    for (size_t k = 0; k < sizeof scripts / sizeof scripts[0]; k++) {
        uint8_t out[2][64];
        for (int i = 0; i < 2; i++) {
            EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
            uint8_t tag[16];
            memset(out[i], 0, sizeof out[i]);
            CHECK(EVP_CipherInit_ex2(ctx, cs[i], NULL, NULL, scripts[k].enc, NULL) > 0 &&
                      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 8, NULL) > 0 &&
                      EVP_CipherInit_ex2(ctx, NULL, key, iv, scripts[k].enc, NULL) > 0,
                  "%s: %s: set-up", name, scripts[k].what);
            for (int j = 0; j < scripts[k].n; j++) {
                const int *st = scripts[k].steps[j];
                int what = st[0];
                size_t len = (size_t)st[1];
                memcpy(tag, goodtag, 16);
                if (what == 5) /* the length field of a SET_TAG step: 0 a wrong tag, 1 the right one */
                    tag[0] ^= (uint8_t)(len == 0);
                int got = ccm_step(ctx, what, out[i], scripts[k].enc ? pt : good, len, tag);
                int want = st[2 + i];
                if (want >= 0)
                    CHECK(got == want, "%s: %s: step %d: %s %d (want %d)", name, scripts[k].what, j,
                          i ? "default" : "vg", got, want);
            }
            EVP_CIPHER_CTX_free(ctx);
            ERR_clear_error();
        }
    }
}

/* The algorithm-level numbers EVP caches (mode, lengths, flags) must be the same. */
static void same_constants(EVP_CIPHER *cv, EVP_CIPHER *cd, const char *name)
{
    CHECK(EVP_CIPHER_get_mode(cv) == EVP_CIPHER_get_mode(cd), "%s: mode", name);
    CHECK(EVP_CIPHER_get_iv_length(cv) == EVP_CIPHER_get_iv_length(cd), "%s: iv length", name);
    CHECK(EVP_CIPHER_get_key_length(cv) == EVP_CIPHER_get_key_length(cd), "%s: key length", name);
    CHECK(EVP_CIPHER_get_block_size(cv) == EVP_CIPHER_get_block_size(cd), "%s: block size", name);
    CHECK(EVP_CIPHER_get_flags(cv) == EVP_CIPHER_get_flags(cd), "%s: flags %lx and %lx", name,
          EVP_CIPHER_get_flags(cv), EVP_CIPHER_get_flags(cd));
}

/* GCM decryption tags vg refuses and OpenSSL takes (docs/openssl-provider.md). */
static void gcm_short_tags(EVP_CIPHER *cv, EVP_CIPHER *cd, const char *name)
{
    static const uint8_t key[32], iv[12], tag[16];
    for (int t = 1; t <= 16; t++) {
        int vg_takes = t == 4 || t == 8 || t >= 12;
        EVP_CIPHER *c[2] = { cv, cd };
        int got[2];
        for (int i = 0; i < 2; i++) {
            EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
            got[i] = EVP_CipherInit_ex2(ctx, c[i], key, iv, 0, NULL) > 0 &&
                     EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, t, (void *)tag) > 0;
            EVP_CIPHER_CTX_free(ctx);
        }
        CHECK(got[1] == 1 && got[0] == vg_takes, "%s: a %d-byte decryption tag: vg %d (want %d), default %d", name,
              t, got[0], vg_takes, got[1]);
    }
}

/* TLS 1.2 records through the record parameters (fixed IV, "tlsaad", one in-place update), as
   libssl drives them. CCM's explicit IV is the sequence number, so vg's records must equal default's
   byte for byte; GCM's starts at random, so each side must open the other's, and vg's explicit IVs
   must count up by one per record (a repeated nonce would open fine and is caught only here). */
static int tls_record(EVP_CIPHER_CTX *ctx, int enc, uint64_t seq, uint8_t *rec, size_t payload, size_t taglen,
                      int *outl)
{
    uint8_t aad[13];
    size_t len = 8 + payload + (enc ? 0 : taglen);
    for (int i = 0; i < 8; i++)
        aad[i] = (uint8_t)(seq >> (56 - 8 * i));
    aad[8] = 23;
    aad[9] = 3;
    aad[10] = 3;
    aad[11] = (uint8_t)(len >> 8);
    aad[12] = (uint8_t)len;
    if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, 13, aad) != (int)taglen)
        return 0;
    return EVP_CipherUpdate(ctx, rec, outl, rec, (int)(8 + payload + taglen)) > 0;
}

static EVP_CIPHER_CTX *tls_ctx(EVP_CIPHER *c, int ccm, int enc, const uint8_t *key, const uint8_t *fixed,
                               size_t taglen)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int ok = EVP_CipherInit_ex2(ctx, c, NULL, NULL, enc, NULL) > 0;
    if (ccm)
        ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) > 0 &&
             EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)taglen, NULL) > 0 &&
             EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_CCM_SET_IV_FIXED, 4, (void *)fixed) > 0 &&
             EVP_CipherInit_ex2(ctx, NULL, key, NULL, -1, NULL) > 0;
    else
        ok = ok && EVP_CipherInit_ex2(ctx, NULL, key, NULL, -1, NULL) > 0 &&
             EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IV_FIXED, 4, (void *)fixed) > 0;
    CHECK(ok, "TLS record context set-up (ccm %d, enc %d)", ccm, enc);
    return ctx;
}

static void tls_records(EVP_CIPHER *cv, EVP_CIPHER *cd, int ccm, size_t keylen, const char *name)
{
    uint8_t key[32], fixed[4], first_explicit[8] = { 0 };
    size_t taglens[2] = { 16, 8 };
    for (int t = 0; t < (ccm ? 2 : 1); t++) {
        size_t taglen = taglens[t];
        vgt_rand_bytes(key, keylen);
        vgt_rand_bytes(fixed, 4);
        EVP_CIPHER_CTX *seal_v = tls_ctx(cv, ccm, 1, key, fixed, taglen), *seal_d = tls_ctx(cd, ccm, 1, key, fixed, taglen);
        EVP_CIPHER_CTX *open_v = tls_ctx(cv, ccm, 0, key, fixed, taglen), *open_d = tls_ctx(cd, ccm, 0, key, fixed, taglen);
        for (uint64_t seq = 0; seq < 20; seq++) {
            size_t payload = seq == 0 ? 0 : vgt_rand_below(1500);
            size_t n = 8 + payload + taglen;
            uint8_t *pt = vgt_xmalloc(payload + 1), *rv = vgt_xmalloc(n), *rd = vgt_xmalloc(n), *x = vgt_xmalloc(n);
            int ol = -1, od = -1;
            vgt_rand_bytes(pt, payload);
            memcpy(rv + 8, pt, payload);
            memcpy(rd + 8, pt, payload);
            CHECK(tls_record(seal_v, 1, seq, rv, payload, taglen, &ol) && ol == (int)n, "%s TLS seal %llu (vg)", name,
                  (unsigned long long)seq);
            CHECK(tls_record(seal_d, 1, seq, rd, payload, taglen, &od) && od == (int)n, "%s TLS seal %llu (default)",
                  name, (unsigned long long)seq);
            if (ccm) {
                CHECK_BYTES(rv, rd, n, "%s TLS record %llu: vg and default", name, (unsigned long long)seq);
            } else {
                uint8_t want[8];
                uint64_t carry = seq;
                if (seq == 0)
                    memcpy(first_explicit, rv, 8);
                memcpy(want, first_explicit, 8);
                for (int i = 7; i >= 0 && carry; i--) {
                    carry += want[i];
                    want[i] = (uint8_t)carry;
                    carry >>= 8;
                }
                CHECK_BYTES(rv, want, 8, "%s TLS record %llu: vg's explicit IV is the first plus %llu", name,
                            (unsigned long long)seq, (unsigned long long)seq);
            }
            /* Each side opens the other's record; the payload comes back. */
            memcpy(x, rv, n);
            CHECK(tls_record(open_d, 0, seq, x, payload, taglen, &od) && od == (int)payload &&
                      memcmp(x + 8, pt, payload) == 0, "%s TLS record %llu: default opens vg's", name, (unsigned long long)seq);
            memcpy(x, rd, n);
            CHECK(tls_record(open_v, 0, seq, x, payload, taglen, &ol) && ol == (int)payload &&
                      memcmp(x + 8, pt, payload) == 0, "%s TLS record %llu: vg opens default's", name, (unsigned long long)seq);
            /* A flipped bit anywhere after the explicit IV fails both, and vg zeroes the payload. */
            size_t at = 8 + vgt_rand_below(payload + taglen);
            uint8_t bit = (uint8_t)(1u << vgt_rand_below(8));
            memcpy(x, rd, n);
            x[at] ^= bit;
            CHECK(!tls_record(open_v, 0, seq, x, payload, taglen, &ol) && vgt_all_zero(x + 8, payload),
                  "%s TLS record %llu: vg opened a forgery", name, (unsigned long long)seq);
            memcpy(x, rd, n);
            x[at] ^= bit;
            CHECK(!tls_record(open_d, 0, seq, x, payload, taglen, &od), "%s TLS record %llu: default opened a forgery",
                  name, (unsigned long long)seq);
            free(pt);
            free(rv);
            free(rd);
            free(x);
        }
        EVP_CIPHER_CTX_free(seal_v);
        EVP_CIPHER_CTX_free(seal_d);
        EVP_CIPHER_CTX_free(open_v);
        EVP_CIPHER_CTX_free(open_d);
    }
}

/* The record header's length field against what it must hold (the 8-byte explicit IV, and the tag
   when opening): every length from 0 to one past the least valid, and headers of 12 and 14 bytes,
   set on a fresh context each. vg's verdict and pad (the tag length) must be default's. */
static void tls_aad_lengths(EVP_CIPHER *cv, EVP_CIPHER *cd, int ccm, size_t keylen, const char *name)
{
    uint8_t key[32], fixed[4], aad[14] = { 0, 0, 0, 0, 0, 0, 0, 7, 23, 3, 3, 0, 0, 0 };
    size_t taglens[2] = { 16, 8 };
    vgt_rand_bytes(key, keylen);
    vgt_rand_bytes(fixed, 4);
    for (int t = 0; t < (ccm ? 2 : 1); t++)
        for (int enc = 0; enc < 2; enc++)
            for (size_t len = 0; len <= 8 + taglens[t] + 1 + 2; len++) {
                /* the last two rounds: a valid length in a header one byte short, then one long */
                size_t alen = len <= 8 + taglens[t] + 1 ? 13 : len == 8 + taglens[t] + 2 ? 12 : 14;
                int got[2];
                aad[11] = (uint8_t)(len >> 8);
                aad[12] = (uint8_t)len;
                for (int i = 0; i < 2; i++) {
                    EVP_CIPHER_CTX *ctx = tls_ctx(i ? cd : cv, ccm, enc, key, fixed, taglens[t]);
                    got[i] = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_TLS1_AAD, (int)alen, aad);
                    got[i] = got[i] > 0 ? got[i] : 0;
                    EVP_CIPHER_CTX_free(ctx);
                }
                CHECK(got[0] == got[1], "%s TLS header of %zu bytes, length %zu, tag %zu, enc %d: vg %d, default %d",
                      name, alen, len, taglens[t], enc, got[0], got[1]);
            }
}

/* Parameter arrays holding several keys, a repeated key and an unknown one, with the keys in the
   order opposite to the one providers act in. vg finds all its keys in one pass over the array and
   then acts in a fixed order (tag before ivlen; padding before num), as default acts with one
   OSSL_PARAM_locate per key: the verdicts and every value read back must be default's, the first of
   a repeated key must be the one used, an unknown key must be ignored, and a set that fails on its
   first key must not have applied a later one. */
static void param_arrays(EVP_CIPHER *cv, EVP_CIPHER *cd, enum family fam, const char *name)
{
    static const uint8_t key[32], iv[16], tag[17];
    EVP_CIPHER *c[2] = { cv, cd };
    struct {
        int ok[6];
        size_t sz[8];
        unsigned int u[4];
        int flags[5];
        uint8_t ivb[16];
    } got[2];
    int aead = fam == GCM || fam == CCM;
    for (int i = 0; i < 2; i++) {
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        size_t *sz = got[i].sz, unknown = 77, dup = 99;
        unsigned int *u = got[i].u;
        memset(&got[i], 0, sizeof got[i]);
        /* The algorithm's parameters, all in one array. */
        OSSL_PARAM alg[] = { OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, &got[i].flags[0]),
                             OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, &got[i].flags[1]),
                             OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_CTS, &got[i].flags[2]),
                             OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_CUSTOM_IV, &got[i].flags[3]),
                             OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_AEAD, &got[i].flags[4]),
                             OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, &sz[0]),
                             OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &sz[1]),
                             OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &sz[2]),
                             OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_MODE, &u[0]),
                             OSSL_PARAM_construct_end() };
        got[i].ok[0] = EVP_CIPHER_get_params(c[i], alg) > 0;
        got[i].ok[1] = EVP_EncryptInit_ex2(ctx, c[i], key, fam == ECB ? NULL : iv, NULL) > 0;
        /* Reading: an unknown key and a repeated keylen (its second element must stay untouched). */
        OSSL_PARAM get[] = { OSSL_PARAM_construct_size_t("vg-no-such-key", &unknown),
                             OSSL_PARAM_construct_size_t(aead ? OSSL_CIPHER_PARAM_AEAD_TAGLEN : "taglen-not-here", &sz[3]),
                             OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, got[i].ivb, sizeof got[i].ivb),
                             OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &sz[4]),
                             OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &sz[5]),
                             OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &dup),
                             OSSL_PARAM_construct_end() };
        if (fam == ECB)
            get[2] = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &u[1]);
        got[i].ok[2] = EVP_CIPHER_CTX_get_params(ctx, get) > 0 && unknown == 77 && dup == 99;
        if (aead) {
            /* Decrypting: ivlen then a tag too long for either mode fails at the tag, before the IV
               length; then a repeated ivlen takes the first. */
            size_t want = fam == GCM ? 16 : 13, other = 8;
            OSSL_PARAM bad[] = { OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &want),
                                 OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, (void *)tag, sizeof tag),
                                 OSSL_PARAM_construct_end() };
            OSSL_PARAM twice[] = { OSSL_PARAM_construct_size_t("vg-no-such-key", &unknown),
                                   OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &want),
                                   OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &other),
                                   OSSL_PARAM_construct_end() };
            got[i].ok[3] = EVP_DecryptInit_ex2(ctx, NULL, key, NULL, NULL) > 0;
            got[i].ok[4] = EVP_CIPHER_CTX_set_params(ctx, bad) > 0;
            sz[6] = (size_t)EVP_CIPHER_CTX_get_iv_length(ctx);
            got[i].ok[5] = EVP_CIPHER_CTX_set_params(ctx, twice) > 0;
            sz[7] = (size_t)EVP_CIPHER_CTX_get_iv_length(ctx);
        } else {
            /* num of the wrong type after padding 0: padding applies, then num fails; then a
               repeated padding takes the first, and num applies (3 with ECB; with CTR 0, the only num
               3.0.22 takes there: num_values). */
            unsigned int zero = 0, one = 1, num = fam == ECB ? 3 : 0;
            char notanumber[] = "x";
            OSSL_PARAM bad[] = { OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_NUM, notanumber, 0),
                                 OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &zero),
                                 OSSL_PARAM_construct_end() };
            OSSL_PARAM twice[] = { OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num),
                                   OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &one),
                                   OSSL_PARAM_construct_uint("vg-no-such-key", &zero),
                                   OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &zero),
                                   OSSL_PARAM_construct_end() };
            OSSL_PARAM read[] = { OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &u[2]),
                                  OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &u[3]),
                                  OSSL_PARAM_construct_end() };
            got[i].ok[4] = EVP_CIPHER_CTX_set_params(ctx, bad) > 0;
            sz[6] = (size_t)(EVP_CIPHER_CTX_get_params(ctx, read) > 0) << 8 | u[3];
            got[i].ok[5] = EVP_CIPHER_CTX_set_params(ctx, twice) > 0;
            got[i].ok[3] = EVP_CIPHER_CTX_get_params(ctx, read) > 0;
        }
        EVP_CIPHER_CTX_free(ctx);
        ERR_clear_error();
    }
    CHECK(memcmp(&got[0], &got[1], sizeof got[0]) == 0, "%s: parameter arrays: vg and default differ", name);
    CHECK(got[0].ok[0] && got[0].ok[1] && got[0].ok[2] && !got[0].ok[4] && got[0].ok[5] &&
              got[0].sz[4] == (size_t)EVP_CIPHER_get_key_length(cv),
          "%s: parameter arrays: verdicts %d %d %d %d %d", name, got[0].ok[0], got[0].ok[1], got[0].ok[2], got[0].ok[4],
          got[0].ok[5]);
    if (aead)
        CHECK(got[0].sz[6] == (fam == GCM ? 12 : 7) && got[0].sz[7] == (fam == GCM ? 16 : 13),
              "%s: parameter arrays: ivlen %zu then %zu", name, got[0].sz[6], got[0].sz[7]);
    else
        CHECK(got[0].sz[6] == 0x100 && got[0].ok[3] && got[0].u[2] == (fam == ECB ? 3 : 0) && got[0].u[3] == 1,
              "%s: parameter arrays: padding %zx, then num %u padding %u", name, got[0].sz[6], got[0].u[2], got[0].u[3]);
}

/* num set to 0..19 on a fresh context: the verdicts and the value read back must be default's (3.0.22
   takes num below the cipher's block size: 16 for ECB, 1 for CTR, where it refuses even 1..15). */
static void num_values(EVP_CIPHER *cv, EVP_CIPHER *cd, const char *name)
{
    static const unsigned char key[32], iv[16];
    EVP_CIPHER *const cs[2] = { cv, cd };
    for (unsigned int v = 0; v < 20; v++) {
        int ok[2] = { 0, 0 };
        unsigned int got[2] = { 99, 99 };
        for (int i = 0; i < 2; i++) {
            EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
            unsigned int num = v;
            OSSL_PARAM set[] = { OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num), OSSL_PARAM_construct_end() };
            OSSL_PARAM read[] = { OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &got[i]),
                                  OSSL_PARAM_construct_end() };
            CHECK(ctx != NULL && EVP_EncryptInit_ex2(ctx, cs[i], key, iv, NULL) > 0, "%s: num: init", name);
            ok[i] = EVP_CIPHER_CTX_set_params(ctx, set) > 0;
            CHECK(EVP_CIPHER_CTX_get_params(ctx, read) > 0, "%s: num: get", name);
            EVP_CIPHER_CTX_free(ctx);
            ERR_clear_error();
        }
        CHECK(ok[0] == ok[1] && got[0] == got[1], "%s: num %u: vg %d (reads %u), default %d (reads %u)", name, v,
              ok[0], got[0], ok[1], got[1]);
    }
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        enum family fam;
        size_t keylen;
    } algs[] = {
        { "AES-128-GCM", GCM, 16 }, { "AES-192-GCM", GCM, 24 }, { "AES-256-GCM", GCM, 32 },
        { "AES-128-CCM", CCM, 16 }, { "AES-192-CCM", CCM, 24 }, { "AES-256-CCM", CCM, 32 },
        { "AES-128-CTR", CTR, 16 }, { "AES-192-CTR", CTR, 24 }, { "AES-256-CTR", CTR, 32 },
        { "AES-128-ECB", ECB, 16 }, { "AES-192-ECB", ECB, 24 }, { "AES-256-ECB", ECB, 32 },
    };
    vgt_init(argc, argv);
    vgp_open(&g);
    {
        /* The provider's own parameters (buildinfo was checked by vgp_open), all in one array with
           an unknown key and a repeated name (whose second element must stay untouched). */
        const char *name = NULL, *version = NULL, *buildinfo = NULL, *name2 = "untouched";
        int status = 0, unknown = 77;
        uint64_t ops = UINT64_MAX;
        OSSL_PARAM params[] = { OSSL_PARAM_construct_uint64("vg-cipher-ops", &ops),
                                OSSL_PARAM_construct_int("vg-no-such-key", &unknown),
                                OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_NAME, (char **)&name, 0),
                                OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, (char **)&buildinfo, 0),
                                OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_VERSION, (char **)&version, 0),
                                OSSL_PARAM_construct_int(OSSL_PROV_PARAM_STATUS, &status),
                                OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_NAME, (char **)&name2, 0),
                                OSSL_PARAM_construct_end() };
        CHECK(OSSL_PROVIDER_get_params(g.vg, params) && name && version && buildinfo && strcmp(name, "vg") == 0 &&
                  strcmp(version, vg_version()) == 0 && strcmp(buildinfo, vgt_impl()) == 0 && status == 1 &&
                  ops == vgp_cipher_ops(g.vg) && unknown == 77 && strcmp(name2, "untouched") == 0,
              "provider parameters: name %s, version %s, status %d", name ? name : "-", version ? version : "-", status);
    }
    size_t iters = vgt_quick() ? 40 : 150;

    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++) {
        EVP_CIPHER *cv = vgp_fetch(&g, algs[a].name, 1), *cd = vgp_fetch(&g, algs[a].name, 0);
        size_t before = vgt_failures();
        same_constants(cv, cd, algs[a].name);
        param_arrays(cv, cd, algs[a].fam, algs[a].name);
        if (algs[a].fam == CTR || algs[a].fam == ECB)
            num_values(cv, cd, algs[a].name);
        if (algs[a].fam == GCM)
            gcm_short_tags(cv, cd, algs[a].name);
        if (algs[a].fam == CCM)
            ccm_one_message_per_iv(cv, cd, algs[a].name);
        if (algs[a].fam == GCM || algs[a].fam == CCM) {
            tls_records(cv, cd, algs[a].fam == CCM, algs[a].keylen, algs[a].name);
            tls_aad_lengths(cv, cd, algs[a].fam == CCM, algs[a].keylen, algs[a].name);
        }
        size_t n = iters + (algs[a].fam == GCM ? 64 : 0);
        for (size_t i = 0; i < n + 2; i++) {
            int big = i >= n;
            size_t len = random_len(big);
            if (algs[a].fam == GCM) {
                size_t ivlen = i < 64 ? i + 1 : (vgt_rand_below(2) ? 12 : 1 + vgt_rand_below(64));
                aead_case(GCM, algs[a].keylen, cv, cd, ivlen, 1 + vgt_rand_below(16), len, algs[a].name);
            } else if (algs[a].fam == CCM) {
                size_t ivlen = big ? 7 + vgt_rand_below(6) : 7 + vgt_rand_below(7);
                aead_case(CCM, algs[a].keylen, cv, cd, ivlen, 4 + 2 * vgt_rand_below(7), len, algs[a].name);
            } else {
                block_case(algs[a].fam, algs[a].keylen, cv, cd, len, algs[a].name);
            }
        }
        printf("%s: %zu cases, %s\n", algs[a].name, n + 2, vgt_failures() == before ? "identical" : "DIFFERENT");
        EVP_CIPHER_free(cv);
        EVP_CIPHER_free(cd);
    }

    static const struct {
        const char *name;
        size_t keylen;
    } sivs[] = { { "AES-128-GCM-SIV", 16 }, { "AES-256-GCM-SIV", 32 } };
    for (size_t a = 0; a < 2; a++) {
        EVP_CIPHER *cv = vgp_fetch(&g, sivs[a].name, 1);
        for (size_t i = 0; i < iters + 1; i++)
            siv_case(sivs[a].keylen, cv, random_len(i == iters), sivs[a].name);
        printf("%s: %zu cases against vg's C API\n", sivs[a].name, iters + 1);
        EVP_CIPHER_free(cv);
    }
    /* AES-192-GCM-SIV: offered exactly when vg takes 24-byte GCM-SIV keys. */
    {
        static const uint8_t key[24];
        vg_aes_gcm_siv_key k;
        int vg_takes = vg_aes_gcm_siv_init(&k, key, 24) == VG_OK;
        EVP_CIPHER *c = EVP_CIPHER_fetch(g.lib, "AES-192-GCM-SIV", "provider=vg");
        CHECK((c != NULL) == vg_takes, "AES-192-GCM-SIV offered: %d, vg takes 24-byte keys: %d", c != NULL, vg_takes);
        if (c) {
            for (size_t i = 0; i < iters + 1; i++) siv_case(24, c, random_len(i == iters), "AES-192-GCM-SIV");
            printf("AES-192-GCM-SIV: %zu cases against vg's C API\n", iters + 1);
        }
        EVP_CIPHER_free(c);
        ERR_clear_error();
    }
    vgp_close(&g);
    return vgt_finish();
}
