/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * peer_openssl.c — OpenSSL's libcrypto as a vg-speed peer, through EVP as its manual says to use it.
 *
 * Fairness: one EVP_CIPHER_CTX per participant, bound to its cipher and keyed once outside the timed
 * loop; each AEAD message then only re-initialises the context with the nonce (EVP_*Init_ex with
 * NULL cipher and NULL key keeps the key schedule and GHASH key), which is what a user sealing many
 * messages under one key does. ECB and CTR are plain EVP_*Update calls on the keyed context. Key
 * set-up is timed as EVP_EncryptInit_ex with a key on a context already bound to its cipher.
 * AAD goes in as EVP's manual says (an Update with a NULL output). The streaming rows give the message
 * to EVP_*Update in row->chunk-byte pieces; every EVP AEAD call is a streaming call anyway, so the
 * one-shot rows are the same calls with one piece.
 *
 * OpenSSL 3.0 has no AES-GCM-SIV (3.2 added one): that row has no OpenSSL column.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>

#include "speed.h"

struct ossl_state {
    const struct speed_job *job;
    EVP_CIPHER_CTX *ctx;
    uint8_t *out;
    uint8_t tag[SPEED_TAG_LEN];
};

static const EVP_CIPHER *ossl_cipher(const struct speed_row *row)
{
    switch (row->alg) {
    case SPEED_AES:
        /* Key set-up and ECB share the ECB cipher (its key set-up is the bare AES schedule). */
        if (row->op == SPEED_CTR)
            return row->key_len == 16 ? EVP_aes_128_ctr() : row->key_len == 24 ? EVP_aes_192_ctr()
                                                                                : EVP_aes_256_ctr();
        return row->key_len == 16 ? EVP_aes_128_ecb() : row->key_len == 24 ? EVP_aes_192_ecb()
                                                                            : EVP_aes_256_ecb();
    case SPEED_GCM:
        return row->key_len == 16 ? EVP_aes_128_gcm() : row->key_len == 24 ? EVP_aes_192_gcm()
                                                                            : EVP_aes_256_gcm();
    case SPEED_CCM:
        return row->key_len == 16 ? EVP_aes_128_ccm() : row->key_len == 24 ? EVP_aes_192_ccm()
                                                                            : EVP_aes_256_ccm();
    case SPEED_GCM_SIV: break;
    }
    return NULL;
}

static int ossl_supports(const struct speed_row *row, const char **why)
{
    *why = NULL;
    if (row->alg == SPEED_GCM_SIV) {
        *why = "OpenSSL 3.0 has no AES-GCM-SIV";
        return 0;
    }
    if (row->alg == SPEED_CCM && row->chunk) {
        *why = "OpenSSL's CCM takes the message in one update";
        return 0;
    }
    return 1;
}

static void ossl_close(void *state)
{
    struct ossl_state *s = state;
    if (!s) return;
    EVP_CIPHER_CTX_free(s->ctx);
    free(s->out);
    free(s);
}

/* Decrypting contexts: ECB decryption and AEAD opening. */
static int ossl_decrypts(const struct speed_row *row)
{
    return row->op == SPEED_ECB_DEC || row->op == SPEED_OPEN;
}

static void *ossl_open(const struct speed_job *job, const char *impl)
{
    (void)impl;
    const struct speed_row *row = job->row;
    const EVP_CIPHER *cipher = ossl_cipher(row);
    struct ossl_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->job = job;
    s->out = malloc(job->len + 16);
    s->ctx = EVP_CIPHER_CTX_new();
    if (!cipher || !s->out || !s->ctx || job->len > INT_MAX - 16) goto fail;
    int dec = ossl_decrypts(row);
    /* Bind the cipher first, set the AEAD parameters, then the key. */
    if ((dec ? EVP_DecryptInit_ex(s->ctx, cipher, NULL, NULL, NULL)
             : EVP_EncryptInit_ex(s->ctx, cipher, NULL, NULL, NULL)) != 1)
        goto fail;
    if (row->alg == SPEED_GCM || row->alg == SPEED_CCM) {
        if (EVP_CIPHER_CTX_ctrl(s->ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)job->nonce_len, NULL) != 1) goto fail;
        /* CCM fixes the tag length before the key (for opening, the tag itself is set per message). */
        if (row->alg == SPEED_CCM &&
            EVP_CIPHER_CTX_ctrl(s->ctx, EVP_CTRL_AEAD_SET_TAG, SPEED_TAG_LEN, NULL) != 1)
            goto fail;
    }
    if ((dec ? EVP_DecryptInit_ex(s->ctx, NULL, NULL, job->key, NULL)
             : EVP_EncryptInit_ex(s->ctx, NULL, NULL, job->key, NULL)) != 1)
        goto fail;
    if (row->alg == SPEED_AES && row->op != SPEED_CTR && EVP_CIPHER_CTX_set_padding(s->ctx, 0) != 1) goto fail;
    if (row->op == SPEED_CTR && EVP_EncryptInit_ex(s->ctx, NULL, NULL, NULL, job->counter) != 1) goto fail;
    return s;
fail:
    ossl_close(s);
    return NULL;
}

/* The message through EVP_*Update, in row->chunk-byte pieces (one piece for the one-shot rows).
   Returns the bytes written, or -1. */
static long ossl_update(EVP_CIPHER_CTX *ctx, const struct speed_job *j, int enc, const uint8_t *in, size_t len,
                        uint8_t *out)
{
    size_t piece = j->row->chunk ? j->row->chunk : len, done = 0, written = 0;
    do {
        size_t n = len - done < piece ? len - done : piece;
        int w = 0;
        if ((enc ? EVP_EncryptUpdate(ctx, out + written, &w, in + done, (int)n)
                 : EVP_DecryptUpdate(ctx, out + written, &w, in + done, (int)n)) != 1)
            return -1;
        done += n;
        written += (size_t)w;
    } while (done < len);
    return (long)written;
}

/* AAD: an Update with a NULL output. CCM wants the message length before it. */
static int ossl_aad(EVP_CIPHER_CTX *ctx, const struct speed_job *j, int enc, size_t len)
{
    int n = 0, ok = 1;
    if (j->row->alg == SPEED_CCM)
        ok &= (enc ? EVP_EncryptUpdate(ctx, NULL, &n, NULL, (int)len)
                   : EVP_DecryptUpdate(ctx, NULL, &n, NULL, (int)len)) == 1;
    if (j->aad_len)
        ok &= (enc ? EVP_EncryptUpdate(ctx, NULL, &n, j->aad, (int)j->aad_len)
                   : EVP_DecryptUpdate(ctx, NULL, &n, j->aad, (int)j->aad_len)) == 1;
    return ok;
}

/* One AEAD message sealed: nonce in, ciphertext and tag out. Returns 1 on success. */
static int ossl_seal(EVP_CIPHER_CTX *ctx, const struct speed_job *j, const uint8_t *in, size_t len,
                     uint8_t *out, uint8_t *tag)
{
    int fin = 0, ok = 1;
    ok &= EVP_EncryptInit_ex(ctx, NULL, NULL, NULL, j->nonce) == 1;
    ok &= ossl_aad(ctx, j, 1, len);
    long n = ossl_update(ctx, j, 1, in, len, out);
    ok &= n >= 0;
    ok &= EVP_EncryptFinal_ex(ctx, out + (n > 0 ? n : 0), &fin) == 1;
    ok &= EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, SPEED_TAG_LEN, tag) == 1;
    return ok;
}

/* One AEAD message opened; returns 1 if the tag was accepted. */
static int ossl_open_msg(EVP_CIPHER_CTX *ctx, const struct speed_job *j, uint8_t *out)
{
    int n = 0, fin = 0, ok = 1;
    /* EVP's SET_TAG takes a non-const pointer but only reads it. */
    uint8_t tag[SPEED_TAG_LEN];
    memcpy(tag, j->tag, SPEED_TAG_LEN);
    ok &= EVP_DecryptInit_ex(ctx, NULL, NULL, NULL, j->nonce) == 1;
    ok &= EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, SPEED_TAG_LEN, tag) == 1;
    ok &= ossl_aad(ctx, j, 0, j->len);
    if (j->row->alg == SPEED_CCM) {
        /* CCM checks the tag in the one Update that takes the whole ciphertext: no Final. */
        ok &= EVP_DecryptUpdate(ctx, out, &n, j->ct, (int)j->len) > 0;
    } else {
        long w = ossl_update(ctx, j, 0, j->ct, j->len, out);
        ok &= w >= 0;
        ok &= EVP_DecryptFinal_ex(ctx, out + (w > 0 ? w : 0), &fin) > 0;
    }
    return ok;
}

static int ossl_compute(void *state, uint8_t *out, uint8_t *tag)
{
    struct ossl_state *s = state;
    const struct speed_job *j = s->job;
    int n = 0;
    switch (j->row->op) {
    case SPEED_KEYSETUP:
        if (EVP_EncryptInit_ex(s->ctx, NULL, NULL, j->key, NULL) != 1) return -1;
        if (j->row->alg == SPEED_AES) return EVP_EncryptUpdate(s->ctx, out, &n, j->counter, 16) == 1 ? 0 : -1;
        return ossl_seal(s->ctx, j, j->pt, j->len, out, tag) ? 0 : -1;
    case SPEED_ECB_ENC: return EVP_EncryptUpdate(s->ctx, out, &n, j->pt, (int)j->len) == 1 ? 0 : -1;
    case SPEED_ECB_DEC: return EVP_DecryptUpdate(s->ctx, out, &n, j->pt, (int)j->len) == 1 ? 0 : -1;
    case SPEED_CTR:
        /* Restart the stream at the job's counter block for the check. */
        if (EVP_EncryptInit_ex(s->ctx, NULL, NULL, NULL, j->counter) != 1) return -1;
        return EVP_EncryptUpdate(s->ctx, out, &n, j->pt, (int)j->len) == 1 ? 0 : -1;
    case SPEED_SEAL: return ossl_seal(s->ctx, j, j->pt, j->len, out, tag) ? 0 : -1;
    case SPEED_OPEN: return ossl_open_msg(s->ctx, j, out) ? 0 : -1;
    }
    return -1;
}

static int ossl_run(void *state, uint64_t iterations)
{
    struct ossl_state *s = state;
    const struct speed_job *j = s->job;
    int ok = 1, n = 0;
    switch (j->row->op) {
    case SPEED_KEYSETUP:
        for (uint64_t i = 0; i < iterations; i++) ok &= EVP_EncryptInit_ex(s->ctx, NULL, NULL, j->key, NULL) == 1;
        break;
    case SPEED_ECB_ENC:
    case SPEED_CTR:
        for (uint64_t i = 0; i < iterations; i++) ok &= EVP_EncryptUpdate(s->ctx, s->out, &n, j->pt, (int)j->len) == 1;
        break;
    case SPEED_ECB_DEC:
        for (uint64_t i = 0; i < iterations; i++) ok &= EVP_DecryptUpdate(s->ctx, s->out, &n, j->pt, (int)j->len) == 1;
        break;
    case SPEED_SEAL:
        for (uint64_t i = 0; i < iterations; i++) ok &= ossl_seal(s->ctx, j, j->pt, j->len, s->out, s->tag);
        break;
    case SPEED_OPEN:
        for (uint64_t i = 0; i < iterations; i++) ok &= ossl_open_msg(s->ctx, j, s->out);
        break;
    }
    return ok ? 0 : -1;
}

static const char *ossl_describe(void) { return OpenSSL_version(OPENSSL_VERSION); }

/*
 * Which AES-GCM code this OpenSSL runs here. Debian's libcrypto does not export OPENSSL_ia32cap_P, so
 * nothing is read from inside the library: the answer is derived from the version the library
 * reports and the CPU's flags, following what OpenSSL's source of that version does. 3.0 and 3.1 use
 * AES-NI for the cipher and PCLMULQDQ for GHASH, and with AVX and MOVBE the stitched aesni_gcm kernel
 * (AES and GHASH interleaved, 128-bit registers); they have no VAES code for GCM. 3.2 added a
 * VAES + VPCLMULQDQ AVX-512 GCM path for CPUs with those and AVX-512 F/BW/DQ/VL. The environment
 * variable OPENSSL_ia32cap can mask CPU features from OpenSSL: if it is set the line says so.
 */
static const char *ossl_gcm_path(void)
{
    static char buf[512];
    unsigned major = OPENSSL_version_major(), minor = OPENSSL_version_minor();
    const char *path = "code path not derived on this architecture";
#if defined(__x86_64__) || defined(__i386__)
    int aes = speed_cpu_has("aes"), clmul = speed_cpu_has("pclmulqdq");
    int stitched = speed_cpu_has("avx") == 1 && speed_cpu_has("movbe") == 1;
    int vaes512 = speed_cpu_has("vaes") == 1 && speed_cpu_has("vpclmulqdq") == 1 &&
                  speed_cpu_has("avx512f") == 1 && speed_cpu_has("avx512bw") == 1 &&
                  speed_cpu_has("avx512dq") == 1 && speed_cpu_has("avx512vl") == 1;
    int before_vaes = major < 3 || (major == 3 && minor < 2);
    if (aes < 0) path = "code path unknown (the CPU flags could not be read)";
    else if (!aes) path = "no AES-NI on this CPU: OpenSSL's constant-time vector-permute AES (vpaes) or tables";
    else if (clmul != 1) path = "AES-NI, GHASH without PCLMULQDQ";
    else if (before_vaes)
        path = stitched ? "AES-NI + PCLMULQDQ (the AVX+MOVBE stitched aesni_gcm kernel, xmm), no VAES: "
                          "OpenSSL before 3.2 has no VAES GCM code"
                        : "AES-NI + PCLMULQDQ, no VAES: OpenSSL before 3.2 has no VAES GCM code";
    else if (vaes512)
        path = "VAES + VPCLMULQDQ AVX-512 (3.2 and later have that path and this CPU has the flags it needs)";
    else path = "AES-NI + PCLMULQDQ, no VAES (this CPU lacks VAES, VPCLMULQDQ or AVX-512 F/BW/DQ/VL)";
#endif
    const char *mask = getenv("OPENSSL_ia32cap");
    snprintf(buf, sizeof buf,
             "OpenSSL %u.%u.%u AES-GCM: %s [derived from OpenSSL_version_major/minor() and this CPU's flags, "
             "not read from libcrypto%s%.40s%s]",
             major, minor, OPENSSL_version_patch(), path,
             mask ? "; OPENSSL_ia32cap=" : "; OPENSSL_ia32cap unset", mask ? mask : "",
             mask ? " is set and may mask features, so OpenSSL may take a slower path" : "");
    return buf;
}

const struct speed_peer speed_peer_openssl = {
    .name = "OpenSSL",
    .key = "openssl",
    .supports = ossl_supports,
    .open = ossl_open,
    .compute = ossl_compute,
    .run = ossl_run,
    .close = ossl_close,
    .describe = ossl_describe,
    .gcm_path = ossl_gcm_path,
};
