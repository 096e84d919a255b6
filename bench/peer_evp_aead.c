/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * peer_evp_aead.c — BoringSSL's or AWS-LC's libcrypto as a vg-speed peer, through EVP_AEAD, the
 * interface both document as the one to use for AEADs (and their fastest: no per-message context
 * re-initialisation, no streaming state, the key schedule and GHASH key set up once in
 * EVP_AEAD_CTX_init).
 *
 * The file is compiled once per peer binary, with exactly one of VG_SPEED_PEER_BORINGSSL or
 * VG_SPEED_PEER_AWSLC defined, against that library's headers (bench/CMakeLists.txt, VG_SPEED_PEERS):
 * two libcryptos, or one of them and the system's OpenSSL, export the same symbols and cannot share
 * a process, so each gets its own vg-speed-boringssl / vg-speed-awslc built from the same driver.
 *
 * What each row uses:
 *   AES key set-up   AES_set_encrypt_key (check: AES_encrypt of the counter block)
 *   ECB              EVP_aes_*_ecb through EVP_CipherUpdate, padding off
 *   CTR              AES_ctr128_encrypt (hardware AES when the CPU has it; 32-bit counter blocks
 *                    with a carry into the upper 96 bits, which the check never reaches)
 *   GCM              EVP_aead_aes_{128,192,256}_gcm, EVP_AEAD_CTX_seal / EVP_AEAD_CTX_open
 *   GCM-SIV          EVP_aead_aes_{128,256}_gcm_siv, the same calls
 *   CCM              EVP_aead_aes_128_ccm_matter: AES-128 with M = 16 and L = 2, i.e. the 13-byte
 *                    nonce and 16-byte tag of vg-speed's CCM rows (the Bluetooth variants have 4- and
 *                    8-byte tags: not the same computation). No AES-192/256 CCM AEAD exists, and L = 2
 *                    limits a message to 65535 bytes: larger cells have no column for this peer.
 *   key set-up rows  EVP_AEAD_CTX_init on a context that already holds a key. Both libraries keep the
 *                    AES-GCM, GCM-SIV and CCM state inside EVP_AEAD_CTX (no allocation), so re-keying
 *                    without EVP_AEAD_CTX_cleanup leaks nothing, and the time is the key set-up alone
 *                    (a cleanup would add a wipe of the context to the peer's time).
 * EVP_AEAD_CTX_seal writes the ciphertext and the tag contiguously; open takes them contiguously: the
 * ciphertext and vg's tag are copied into one buffer once, outside the timing. EVP_AEAD has no
 * streaming interface, so the streaming rows have no column for this peer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/aead.h>
#include <openssl/aes.h>
#include <openssl/cipher.h>
#include <openssl/crypto.h>

#include "speed.h"

#if defined(VG_SPEED_PEER_BORINGSSL) == defined(VG_SPEED_PEER_AWSLC)
#error "define exactly one of VG_SPEED_PEER_BORINGSSL and VG_SPEED_PEER_AWSLC"
#endif
#if defined(VG_SPEED_PEER_AWSLC) && !defined(OPENSSL_IS_AWSLC)
#error "VG_SPEED_PEER_AWSLC, but these headers are not AWS-LC's"
#endif
#if defined(VG_SPEED_PEER_BORINGSSL) && (!defined(OPENSSL_IS_BORINGSSL) || defined(OPENSSL_IS_AWSLC))
#error "VG_SPEED_PEER_BORINGSSL, but these headers are not BoringSSL's"
#endif

#ifndef VG_SPEED_PEER_COMMIT
#define VG_SPEED_PEER_COMMIT "commit unknown"
#endif

struct aead_state {
    const struct speed_job *job;
    const EVP_AEAD *aead;       /* AEAD rows */
    EVP_AEAD_CTX ctx;
    int ctx_ready;              /* ctx holds a key (and must be cleaned up) */
    EVP_CIPHER_CTX *cipher_ctx; /* ECB rows */
    AES_KEY aes;                /* AES key set-up and CTR rows */
    uint8_t ivec[16], ecount[16];
    unsigned num;               /* AES_ctr128_encrypt's position in the current key-stream block */
    uint8_t *out;               /* len + 16 bytes: the ciphertext and the tag */
    uint8_t *sealed;            /* open rows: job->ct and job->tag, contiguous */
};

static const EVP_AEAD *aead_of(const struct speed_row *row)
{
    switch (row->alg) {
    case SPEED_GCM:
        return row->key_len == 16 ? EVP_aead_aes_128_gcm() : row->key_len == 24 ? EVP_aead_aes_192_gcm()
                                                                                : EVP_aead_aes_256_gcm();
    case SPEED_GCM_SIV:
        return row->key_len == 16 ? EVP_aead_aes_128_gcm_siv() : row->key_len == 32 ? EVP_aead_aes_256_gcm_siv()
                                                                                    : NULL;
    case SPEED_CCM: return row->key_len == 16 ? EVP_aead_aes_128_ccm_matter() : NULL;
    case SPEED_AES: break;
    }
    return NULL;
}

static int aead_supports(const struct speed_row *row, const char **why)
{
    *why = NULL;
    if (row->chunk) {
        *why = "EVP_AEAD has no streaming interface";
        return 0;
    }
    if (row->alg == SPEED_CCM && row->key_len != 16) {
        *why = "no EVP_AEAD CCM with a 16-byte tag at AES-192 or AES-256";
        return 0;
    }
    if (row->alg == SPEED_GCM_SIV && row->key_len == 24) {
        *why = "no AES-192-GCM-SIV";
        return 0;
    }
    return 1;
}

/* ccm_matter's L = 2: a 13-byte nonce and messages up to 65535 bytes; vg-speed shortens the nonce for
   longer CCM messages, which this AEAD cannot take. */
static int aead_supports_job(const struct speed_job *job)
{
    return job->row->alg != SPEED_CCM || job->nonce_len == 13;
}

static void aead_close(void *state)
{
    struct aead_state *s = state;
    if (!s) return;
    if (s->ctx_ready) EVP_AEAD_CTX_cleanup(&s->ctx);
    EVP_CIPHER_CTX_free(s->cipher_ctx);
    free(s->out);
    free(s->sealed);
    free(s);
}

static const EVP_CIPHER *ecb_cipher(size_t key_len)
{
    return key_len == 16 ? EVP_aes_128_ecb() : key_len == 24 ? EVP_aes_192_ecb() : EVP_aes_256_ecb();
}

static void *aead_open(const struct speed_job *job, const char *impl)
{
    (void)impl;
    const struct speed_row *row = job->row;
    struct aead_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->job = job;
    EVP_AEAD_CTX_zero(&s->ctx);
    s->out = malloc(job->len + SPEED_TAG_LEN);
    if (!s->out) goto fail;
    if (row->alg == SPEED_AES) {
        if (row->op == SPEED_ECB_ENC || row->op == SPEED_ECB_DEC) {
            int enc = row->op == SPEED_ECB_ENC;
            s->cipher_ctx = EVP_CIPHER_CTX_new();
            if (!s->cipher_ctx ||
                EVP_CipherInit_ex(s->cipher_ctx, ecb_cipher(row->key_len), NULL, job->key, NULL, enc) != 1 ||
                EVP_CIPHER_CTX_set_padding(s->cipher_ctx, 0) != 1)
                goto fail;
        } else if (AES_set_encrypt_key(job->key, (unsigned)(row->key_len * 8), &s->aes) != 0) {
            goto fail;
        }
        memcpy(s->ivec, job->counter, 16);
        return s;
    }
    s->aead = aead_of(row);
    if (!s->aead ||
        EVP_AEAD_CTX_init(&s->ctx, s->aead, job->key, row->key_len, SPEED_TAG_LEN, NULL) != 1)
        goto fail;
    s->ctx_ready = 1;
    if (row->op == SPEED_OPEN) {
        s->sealed = malloc(job->len + SPEED_TAG_LEN);
        if (!s->sealed) goto fail;
        memcpy(s->sealed, job->ct, job->len);
        memcpy(s->sealed + job->len, job->tag, SPEED_TAG_LEN);
    }
    return s;
fail:
    aead_close(s);
    return NULL;
}

/* One message sealed into out (ciphertext, then the tag). Returns 1 on success. */
static int seal(struct aead_state *s, uint8_t *out)
{
    const struct speed_job *j = s->job;
    size_t out_len = 0;
    return EVP_AEAD_CTX_seal(&s->ctx, out, &out_len, j->len + SPEED_TAG_LEN, j->nonce, j->nonce_len, j->pt,
                             j->len, j->aad, j->aad_len) == 1 &&
           out_len == j->len + SPEED_TAG_LEN;
}

/* vg's sealed message opened into out. Returns 1 if the tag was accepted. */
static int open_msg(struct aead_state *s, uint8_t *out)
{
    const struct speed_job *j = s->job;
    size_t out_len = 0;
    return EVP_AEAD_CTX_open(&s->ctx, out, &out_len, j->len, j->nonce, j->nonce_len, s->sealed,
                             j->len + SPEED_TAG_LEN, j->aad, j->aad_len) == 1 &&
           out_len == j->len;
}

static int rekey(struct aead_state *s)
{
    const struct speed_job *j = s->job;
    return EVP_AEAD_CTX_init(&s->ctx, s->aead, j->key, j->row->key_len, SPEED_TAG_LEN, NULL) == 1;
}

static int aead_compute(void *state, uint8_t *out, uint8_t *tag)
{
    struct aead_state *s = state;
    const struct speed_job *j = s->job;
    int n = 0;
    switch (j->row->op) {
    case SPEED_KEYSETUP:
        if (j->row->alg == SPEED_AES) {
            if (AES_set_encrypt_key(j->key, (unsigned)(j->row->key_len * 8), &s->aes) != 0) return -1;
            AES_encrypt(j->counter, out, &s->aes);
            return 0;
        }
        if (!rekey(s) || !seal(s, s->out)) return -1;
        memcpy(out, s->out, j->len);
        memcpy(tag, s->out + j->len, SPEED_TAG_LEN);
        return 0;
    case SPEED_ECB_ENC:
    case SPEED_ECB_DEC:
        return EVP_CipherUpdate(s->cipher_ctx, out, &n, j->pt, (int)j->len) == 1 && (size_t)n == j->len ? 0 : -1;
    case SPEED_CTR: {
        /* The check starts the stream afresh at the job's counter block. */
        uint8_t ivec[16], ecount[16] = {0};
        unsigned num = 0;
        memcpy(ivec, j->counter, 16);
        AES_ctr128_encrypt(j->pt, out, j->len, &s->aes, ivec, ecount, &num);
        return 0;
    }
    case SPEED_SEAL:
        if (!seal(s, s->out)) return -1;
        memcpy(out, s->out, j->len);
        memcpy(tag, s->out + j->len, SPEED_TAG_LEN);
        return 0;
    case SPEED_OPEN: return open_msg(s, out) ? 0 : -1;
    }
    return -1;
}

static int aead_run(void *state, uint64_t iterations)
{
    struct aead_state *s = state;
    const struct speed_job *j = s->job;
    int ok = 1, n = 0;
    switch (j->row->op) {
    case SPEED_KEYSETUP:
        if (j->row->alg == SPEED_AES) {
            for (uint64_t i = 0; i < iterations; i++)
                ok &= AES_set_encrypt_key(j->key, (unsigned)(j->row->key_len * 8), &s->aes) == 0;
        } else {
            for (uint64_t i = 0; i < iterations; i++) ok &= rekey(s);
        }
        break;
    case SPEED_ECB_ENC:
    case SPEED_ECB_DEC:
        for (uint64_t i = 0; i < iterations; i++)
            ok &= EVP_CipherUpdate(s->cipher_ctx, s->out, &n, j->pt, (int)j->len) == 1;
        break;
    case SPEED_CTR:
        for (uint64_t i = 0; i < iterations; i++)
            AES_ctr128_encrypt(j->pt, s->out, j->len, &s->aes, s->ivec, s->ecount, &s->num);
        break;
    case SPEED_SEAL:
        for (uint64_t i = 0; i < iterations; i++) ok &= seal(s, s->out);
        break;
    case SPEED_OPEN:
        for (uint64_t i = 0; i < iterations; i++) ok &= open_msg(s, s->out);
        break;
    }
    return ok ? 0 : -1;
}

/*
 * Which AES-GCM code the library runs here, derived from its own source and its own run-time view of
 * the CPU. Both libraries keep the CPUID words they decided on in OPENSSL_ia32cap_P[4] (word 0: CPUID
 * 1 EDX; 1: CPUID 1 ECX; 2: CPUID 7 EBX; 3: CPUID 7 ECX; already masked by XCR0 and by the
 * OPENSSL_ia32cap environment variable). Neither exports it in a public header, but it is an
 * ordinary global of libcrypto.a (BoringSSL reads it through bssl::OPENSSL_get_ia32cap(idx), which
 * also runs the CPUID probe if it has not run). The conditions below are those of the library's GCM
 * set-up at the commits measured (BoringSSL a0689af, AWS-LC v5.5.0-30-g3bda7bae9); if a later commit
 * changes them, this function must follow. Both builds contain the 512-bit code (build-peers.sh sets
 * none of the MY_ASSEMBLER_IS_TOO_OLD_* options).
 *
 * BoringSSL (crypto/fipsmodule/aes/gcm.cc.inc, CRYPTO_ghash_init and CRYPTO_gcm128_init_aes_key):
 *   clmul = PCLMULQDQ && SSSE3
 *   clmul && VPCLMULQDQ && AVX2 && AVX512BW && AVX512VL && BMI2 && !avoid_zmm (word 2 bit 14, set for
 *     Intel parts that downclock on zmm) -> GHASH vpclmulqdq_avx512; with VAES too: gcm_x86_vaes_avx512
 *     (aes_gcm_{enc,dec}_update_vaes_avx512, 512-bit)
 *   clmul && VPCLMULQDQ && AVX2 otherwise -> vpclmulqdq_avx2; with VAES: gcm_x86_vaes_avx2 (256-bit)
 *   clmul && AVX && MOVBE -> ghash_avx; with AES-NI: gcm_x86_aesni (the stitched aesni_gcm, xmm)
 * AWS-LC (crypto/fipsmodule/modes/gcm.c, CRYPTO_ghash_init, crypto_gcm_avx512_enabled, and the
 *   use_hw_gcm_crypt flag of CRYPTO_gcm128_init_key):
 *   clmul = FXSR && PCLMULQDQ
 *   VAES && AVX512 F+DQ+BW+VL && VPCLMULQDQ, and AES-NI -> aes_gcm_{en,de}crypt_avx512 (512-bit)
 *   clmul && AVX && MOVBE, and AES-NI -> aesni_gcm_{en,de}crypt (stitched, xmm)
 *   clmul otherwise -> AES-NI CTR with ghash_clmul, unstitched
 */
#if defined(__x86_64__)
#ifdef VG_SPEED_PEER_BORINGSSL
/* crypto/internal.h declares it inside namespace bssl (BoringSSL is C++ now), so from C it is reached
   by its mangled name: bssl::OPENSSL_get_ia32cap(int). Not in a public header. */
uint32_t bssl_get_ia32cap(int idx) __asm__("_ZN4bssl19OPENSSL_get_ia32capEi");
static uint32_t cap_word(int i) { return bssl_get_ia32cap(i); }
#else
extern uint32_t OPENSSL_ia32cap_P[4]; /* crypto/fipsmodule/cpucap/internal.h; not in a public header */
static uint32_t cap_word(int i) { return OPENSSL_ia32cap_P[i]; }
#endif
#define CAP(word, bit) ((cap_word(word) >> (bit)) & 1u)
#endif

static const char *aead_gcm_path(void)
{
    static char buf[768];
    const char *path = "code path not derived on this architecture";
#if defined(__x86_64__)
    CRYPTO_library_init(); /* the CPUID probe, if the library has not run it yet */
    int aesni = CAP(1, 25), pclmul = CAP(1, 1), ssse3 = CAP(1, 9), movbe = CAP(1, 22), avx = CAP(1, 28);
    int avx2 = CAP(2, 5), bmi2 = CAP(2, 8), avx512f = CAP(2, 16), avx512dq = CAP(2, 17);
    int avx512bw = CAP(2, 30), avx512vl = CAP(2, 31), vaes = CAP(3, 9), vpclmul = CAP(3, 10);
    char caps[160];
    snprintf(caps, sizeof caps, "ia32cap %08x:%08x:%08x:%08x", cap_word(0), cap_word(1), cap_word(2),
             cap_word(3));
#ifdef VG_SPEED_PEER_BORINGSSL
    int avoid_zmm = CAP(2, 14);
    int clmul = pclmul && ssse3;
    (void)avx512f, (void)avx512dq;
    if (clmul && vpclmul && avx2 && avx512bw && avx512vl && bmi2 && !avoid_zmm)
        path = vaes ? "gcm_x86_vaes_avx512: VAES + VPCLMULQDQ, 512-bit (aes_gcm_*_update_vaes_avx512)"
                    : "no VAES: AES-NI CTR, GHASH vpclmulqdq_avx512, not stitched";
    else if (clmul && vpclmul && avx2)
        path = vaes ? "gcm_x86_vaes_avx2: VAES + VPCLMULQDQ, 256-bit (aes_gcm_*_update_vaes_avx2)"
                    : "no VAES: AES-NI CTR, GHASH vpclmulqdq_avx2, not stitched";
    else if (clmul && avx && movbe)
        path = aesni ? "gcm_x86_aesni: AES-NI + PCLMULQDQ stitched (aesni_gcm_*crypt, xmm)"
                     : "no AES-NI: GHASH avx, AES without hardware";
    else if (clmul) path = "AES-NI CTR, GHASH clmul, not stitched";
    else path = "no PCLMULQDQ: GHASH ssse3 or nohw";
#else
    (void)ssse3, (void)bmi2, (void)avx2;
    int clmul = CAP(0, 24) && pclmul;
    if (vaes && avx512f && avx512dq && avx512bw && avx512vl && vpclmul && aesni)
        path = "aes_gcm_*crypt_avx512: VAES + VPCLMULQDQ, 512-bit";
    else if (clmul && avx && movbe && aesni)
        path = "aesni_gcm_*crypt: AES-NI + PCLMULQDQ stitched (xmm)";
    else if (clmul) path = "AES-NI or not, GHASH clmul, not stitched";
    else path = "no PCLMULQDQ: GHASH ssse3 or nohw";
#endif
    const char *mask = getenv("OPENSSL_ia32cap");
    snprintf(buf, sizeof buf,
             "AES-GCM: %s [derived: the library's own GCM dispatch conditions (see peer_evp_aead.c) "
             "evaluated on the CPU words it exports at run time, %s%s%.40s]",
             path, caps, mask ? "; OPENSSL_ia32cap=" : "", mask ? mask : "");
#else
    snprintf(buf, sizeof buf, "AES-GCM: %s", path);
#endif
    return buf;
}

static const char *aead_describe(void)
{
    static char buf[256];
#ifdef VG_SPEED_PEER_AWSLC
    snprintf(buf, sizeof buf, "AWS-LC %s (%s), libcrypto.a, EVP_AEAD", AWSLC_VERSION_NUMBER_STRING,
             VG_SPEED_PEER_COMMIT);
#else
    snprintf(buf, sizeof buf, "BoringSSL (API version %d, %s), libcrypto.a, EVP_AEAD", BORINGSSL_API_VERSION,
             VG_SPEED_PEER_COMMIT);
#endif
    return buf;
}

#ifdef VG_SPEED_PEER_AWSLC
const struct speed_peer speed_peer_awslc = {
    .name = "AWS-LC",
    .key = "awslc",
#else
const struct speed_peer speed_peer_boringssl = {
    .name = "BoringSSL",
    .key = "boringssl",
#endif
    .supports = aead_supports,
    .supports_job = aead_supports_job,
    .open = aead_open,
    .compute = aead_compute,
    .run = aead_run,
    .close = aead_close,
    .describe = aead_describe,
    .gcm_path = aead_gcm_path,
};
