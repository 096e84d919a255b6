/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * peer_ipsecmb.c — Intel's Multi-Buffer Crypto for IPsec (intel-ipsec-mb, Debian's libipsec-mb-dev)
 * as a vg-speed peer, through its manager (IMB_MGR) as its header documents it. x86-64 only.
 *
 *   manager      one IMB_MGR for the process: alloc_mb_mgr, then the arch VG_SPEED_IPSECMB_ARCH names
 *                (sse, avx, avx2, avx512, or auto: init_mb_mgr_auto, ipsec-mb's own choice). Unset, it
 *                is auto, except that a CPU with AVX2 but not AVX-512 gets avx where auto would pick
 *                avx2: on AMD EPYC family 25 (Zen 3) 1.3's avx GCM kernel (avx_gen2) was 5-10% faster
 *                than avx2's (avx_gen4) at 1 KiB and 16 KiB and a few per cent on the packet rows;
 *                avx2 was faster only at 64 bytes (docs/speed.md, "Intel ipsec-mb"). The header
 *                prints the arch the manager reports.
 *   key set-up   AES and CCM: IMB_AES_KEYEXP_128/192/256, which makes encryption and decryption round
 *                keys as vg does (the manager has no encryption-only expansion);
 *                GCM: the manager's gcm128/192/256_pre (IMB_AESxxx_GCM_PRE): the round keys and the
 *                GHASH key's powers
 *   GCM          the direct API, one call per message: gcmxxx_enc / gcmxxx_dec (IMB_AESxxx_GCM_ENC /
 *                _DEC) with the 12-byte IV, the row's AAD and a 16-byte tag; the streaming rows
 *                gcmxxx_init, one enc/dec_update per row->chunk bytes, enc/dec_finalize. The functions
 *                are taken from the manager once per key size, which is all the macros do per call.
 *                ipsec-mb's open only computes the tag: comparing it is the caller's job, done here
 *                in constant time and timed with the call
 *   CTR, ECB     the job API (IMB_CIPHER_CNTR with a 16-byte IV, IMB_CIPHER_ECB), one job per call
 *   CCM          the job API (IMB_CIPHER_CCM with IMB_AUTH_AES_CCM), one job per message
 * Jobs go through IMB_SUBMIT_JOB, which validates each one (IMB_SUBMIT_JOB_NOCHECK skips that; a user
 * who validates nothing elsewhere should not), then IMB_FLUSH_JOB if the manager held the job back to
 * fill more lanes: CCM is a multi-buffer kernel, and one message at a time leaves its other lanes
 * empty. That is what a caller with one message to seal pays; a gateway with many in flight pays less.
 *
 * What ipsec-mb 1.3 lacks for vg-speed's rows: AES-GCM-SIV, and CCM with a 192-bit key. Its job checks
 * refuse CCM messages over 65535 bytes (the 13-byte nonce's limit anyway), so the larger CCM cells
 * have no ipsec-mb column.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <intel-ipsec-mb.h>

#include "speed.h"

/* Round keys for up to 14 rounds, as IMB_AES_KEYEXP_* writes them (16-byte aligned). */
#define IMB_ROUND_KEY_BYTES (16 * 15)
/* ECB jobs over 65535 bytes fail 1.3's job check ("Invalid cipher message length"): a longer call is
   split into jobs of this many bytes, the largest whole number of blocks allowed. */
#define IMB_ECB_MAX_JOB 65520u
#define IMB_CCM_MAX_LEN 65535u

/* The manager's GCM functions for one key size: what the IMB_AES128/192/256_GCM_* macros call. */
struct imb_gcm_calls {
    aes_gcm_pre_t pre;
    aes_gcm_enc_dec_t enc, dec;
    aes_gcm_init_t init;
    aes_gcm_enc_dec_update_t enc_update, dec_update;
    aes_gcm_enc_dec_finalize_t enc_finalize, dec_finalize;
};

struct imb_state {
    struct gcm_key_data gcm; /* 64-byte aligned (the header says so): the state is allocated so */
    _Alignas(16) uint8_t enc_keys[IMB_ROUND_KEY_BYTES];
    _Alignas(16) uint8_t dec_keys[IMB_ROUND_KEY_BYTES];
    struct gcm_context_data ctx; /* per message; kept here so a call's stack stays small */
    struct imb_gcm_calls calls;
    const struct speed_job *job;
    uint8_t counter[16]; /* the CTR stream's next counter block */
    uint8_t *out;        /* job->len bytes */
    uint8_t tag[SPEED_TAG_LEN];
};

/* ---------------------------------------------------------------------------------------------- */
/* The manager                                                                                     */

static IMB_MGR *mgr;
static char arch_note[160]; /* how the arch was chosen, for the header */

static const char *arch_name(uint32_t arch)
{
    switch (arch) {
    case IMB_ARCH_NOAESNI: return "noaesni";
    case IMB_ARCH_SSE: return "sse";
    case IMB_ARCH_AVX: return "avx";
    case IMB_ARCH_AVX2: return "avx2";
    case IMB_ARCH_AVX512: return "avx512";
    default: return "unknown";
    }
}

static int manager_failed;

static void free_manager(void) { free_mb_mgr(mgr); }

/* mgr after its init call, or NULL (then and from now on) if ipsec-mb reported an error. */
static IMB_MGR *manager_ready(void)
{
    if (imb_get_errno(mgr) != 0) manager_failed = 1;
    return manager_failed ? NULL : mgr;
}

/* The process's manager, made on first use. The arch named by VG_SPEED_IPSECMB_ARCH is used only if
   the CPU has every feature ipsec-mb lists for it (IMB_CPUFLAGS_*), so a name cannot make the library
   run instructions this CPU lacks; otherwise ipsec-mb chooses, and the header says why. */
static IMB_MGR *manager(void)
{
    if (manager_failed) return NULL;
    if (mgr) return mgr;
    mgr = alloc_mb_mgr(0);
    if (!mgr) {
        manager_failed = 1;
        return NULL;
    }
    atexit(free_manager);
    static const struct {
        const char *name;
        void (*init)(IMB_MGR *);
        uint64_t needs;
    } archs[] = {
        {"sse", init_mb_mgr_sse, IMB_CPUFLAGS_SSE},
        {"avx", init_mb_mgr_avx, IMB_CPUFLAGS_AVX},
        {"avx2", init_mb_mgr_avx2, IMB_CPUFLAGS_AVX2},
        {"avx512", init_mb_mgr_avx512, IMB_CPUFLAGS_AVX512},
    };
    const char *want = getenv("VG_SPEED_IPSECMB_ARCH");
    uint64_t have = imb_get_feature_flags();
    /* The measured default (this file's opening comment): avx where auto would pick avx2. */
    if ((!want || !*want) && (have & IMB_CPUFLAGS_AVX2) == IMB_CPUFLAGS_AVX2 &&
        (have & IMB_CPUFLAGS_AVX512) != IMB_CPUFLAGS_AVX512) {
        init_mb_mgr_avx(mgr);
        snprintf(arch_note, sizeof arch_note,
                 "init_mb_mgr_avx: the default where auto would pick avx2; VG_SPEED_IPSECMB_ARCH="
                 "auto|sse|avx|avx2|avx512 picks one");
        return manager_ready();
    }
    if (want && *want && strcmp(want, "auto") != 0) {
        for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++) {
            if (strcmp(want, archs[i].name) != 0) continue;
            if ((have & archs[i].needs) != archs[i].needs) break;
            archs[i].init(mgr);
            snprintf(arch_note, sizeof arch_note, "init_mb_mgr_%s, from VG_SPEED_IPSECMB_ARCH", archs[i].name);
            return manager_ready();
        }
        snprintf(arch_note, sizeof arch_note,
                 "init_mb_mgr_auto: VG_SPEED_IPSECMB_ARCH=%.24s is not sse, avx, avx2 or avx512, or this CPU "
                 "lacks a feature it needs",
                 want);
    } else {
        snprintf(arch_note, sizeof arch_note, "init_mb_mgr_auto; VG_SPEED_IPSECMB_ARCH=sse|avx|avx2|avx512 picks one");
    }
    init_mb_mgr_auto(mgr, NULL);
    return manager_ready();
}

/* ---------------------------------------------------------------------------------------------- */
/* Keys and jobs                                                                                   */

static int imb_supports(const struct speed_row *row, const char **why)
{
    *why = NULL;
    if (row->alg == SPEED_GCM_SIV) {
        *why = "ipsec-mb 1.3 has no AES-GCM-SIV";
        return 0;
    }
    if (row->alg == SPEED_CCM && row->key_len == 24) {
        *why = "ipsec-mb 1.3's CCM takes 128- and 256-bit keys only";
        return 0;
    }
    return 1;
}

static int imb_supports_job(const struct speed_job *job)
{
    return job->row->alg != SPEED_CCM || job->len <= IMB_CCM_MAX_LEN;
}

static void imb_key_setup(struct imb_state *s)
{
    const struct speed_job *j = s->job;
    size_t key_len = j->row->key_len;
    if (j->row->alg == SPEED_GCM) {
        s->calls.pre(j->key, &s->gcm);
        return;
    }
    if (key_len == 16) IMB_AES_KEYEXP_128(mgr, j->key, s->enc_keys, s->dec_keys);
    else if (key_len == 24) IMB_AES_KEYEXP_192(mgr, j->key, s->enc_keys, s->dec_keys);
    else IMB_AES_KEYEXP_256(mgr, j->key, s->enc_keys, s->dec_keys);
}

/* A job slot with every field this file relies on set: slots are reused and keep what the last job
   left in them. */
static IMB_JOB *imb_job(struct imb_state *s, IMB_CIPHER_MODE mode, IMB_CIPHER_DIRECTION dir, const uint8_t *in,
                        uint8_t *out, size_t len)
{
    IMB_JOB *job = IMB_GET_NEXT_JOB(mgr);
    job->enc_keys = s->enc_keys;
    job->dec_keys = s->dec_keys;
    job->key_len_in_bytes = s->job->row->key_len;
    job->src = in;
    job->dst = out;
    job->cipher_start_src_offset_in_bytes = 0;
    job->msg_len_to_cipher_in_bytes = len;
    job->hash_start_src_offset_in_bytes = 0;
    job->msg_len_to_hash_in_bytes = 0;
    job->iv = s->counter; /* ECB's check wants a non-NULL IV of length 0 */
    job->iv_len_in_bytes = 0;
    job->auth_tag_output = NULL;
    job->auth_tag_output_len_in_bytes = 0;
    job->cipher_mode = mode;
    job->cipher_direction = dir;
    job->hash_alg = IMB_AUTH_NULL;
    job->chain_order = IMB_ORDER_CIPHER_HASH;
    return job;
}

/* Submits the job the last imb_job returned and waits for it: 0 if it completed. Nothing else is in
   flight, so the job that comes back is that one. */
static int imb_finish(void)
{
    IMB_JOB *done = IMB_SUBMIT_JOB(mgr);
    if (!done) done = IMB_FLUSH_JOB(mgr);
    return done && done->status == IMB_STATUS_COMPLETED ? 0 : -1;
}

static int imb_ecb(struct imb_state *s, IMB_CIPHER_DIRECTION dir, const uint8_t *in, uint8_t *out, size_t len)
{
    for (size_t done = 0; done < len;) {
        size_t n = len - done < IMB_ECB_MAX_JOB ? len - done : IMB_ECB_MAX_JOB;
        imb_job(s, IMB_CIPHER_ECB, dir, in + done, out + done, n);
        if (imb_finish() != 0) return -1;
        done += n;
    }
    return 0;
}

/*
 * len bytes of CTR from s->counter, which then holds the next block's counter. With a 16-byte IV,
 * ipsec-mb's CNTR counts in the IV's last 32 bits and wraps them, as vg_aes_ctr32 does: on 1.3, a job
 * started at a block ending in ffffffff continues with the same first 12 bytes and 00000000 (no carry
 * into them), so one job per call is vg-speed's stream exactly.
 */
static int imb_ctr(struct imb_state *s, const uint8_t *in, uint8_t *out, size_t len)
{
    IMB_JOB *job = imb_job(s, IMB_CIPHER_CNTR, IMB_DIR_ENCRYPT, in, out, len);
    job->iv = s->counter;
    job->iv_len_in_bytes = 16;
    if (imb_finish() != 0) return -1;
    uint32_t c = speed_load32_be(s->counter + 12) + (uint32_t)((len + 15) / 16);
    s->counter[12] = (uint8_t)(c >> 24);
    s->counter[13] = (uint8_t)(c >> 16);
    s->counter[14] = (uint8_t)(c >> 8);
    s->counter[15] = (uint8_t)c;
    return 0;
}

/* CCM: one job does the CBC-MAC and CTR; the tag goes to tag (open: the tag it computes). */
static int imb_ccm(struct imb_state *s, IMB_CIPHER_DIRECTION dir, const uint8_t *in, uint8_t *out, uint8_t *tag)
{
    const struct speed_job *j = s->job;
    IMB_JOB *job = imb_job(s, IMB_CIPHER_CCM, dir, in, out, j->len);
    job->hash_alg = IMB_AUTH_AES_CCM;
    /* Seal: MAC the plaintext, then encrypt; open: decrypt, then MAC. */
    job->chain_order = dir == IMB_DIR_ENCRYPT ? IMB_ORDER_HASH_CIPHER : IMB_ORDER_CIPHER_HASH;
    job->msg_len_to_hash_in_bytes = j->len;
    job->iv = j->nonce;
    job->iv_len_in_bytes = j->nonce_len;
    job->u.CCM.aad = j->aad;
    job->u.CCM.aad_len_in_bytes = j->aad_len;
    job->auth_tag_output = tag;
    job->auth_tag_output_len_in_bytes = SPEED_TAG_LEN;
    return imb_finish();
}

/* ---------------------------------------------------------------------------------------------- */
/* AEAD messages                                                                                   */

static int tags_equal(const uint8_t *a, const uint8_t *b)
{
    unsigned diff = 0;
    for (size_t i = 0; i < SPEED_TAG_LEN; i++) diff |= (unsigned)(a[i] ^ b[i]);
    return diff == 0;
}

static struct imb_gcm_calls imb_gcm_calls(size_t key_len)
{
    if (key_len == 16)
        return (struct imb_gcm_calls){mgr->gcm128_pre, mgr->gcm128_enc, mgr->gcm128_dec, mgr->gcm128_init,
                                      mgr->gcm128_enc_update, mgr->gcm128_dec_update, mgr->gcm128_enc_finalize,
                                      mgr->gcm128_dec_finalize};
    if (key_len == 24)
        return (struct imb_gcm_calls){mgr->gcm192_pre, mgr->gcm192_enc, mgr->gcm192_dec, mgr->gcm192_init,
                                      mgr->gcm192_enc_update, mgr->gcm192_dec_update, mgr->gcm192_enc_finalize,
                                      mgr->gcm192_dec_finalize};
    return (struct imb_gcm_calls){mgr->gcm256_pre, mgr->gcm256_enc, mgr->gcm256_dec, mgr->gcm256_init,
                                  mgr->gcm256_enc_update, mgr->gcm256_dec_update, mgr->gcm256_enc_finalize,
                                  mgr->gcm256_dec_finalize};
}

/* The one-shot GCM call, or the streaming ones when the row has a chunk size. The tag goes to tag. */
static void imb_gcm(struct imb_state *s, int seal, const uint8_t *in, uint8_t *out, uint8_t *tag)
{
    const struct speed_job *j = s->job;
    const struct imb_gcm_calls *f = &s->calls;
    const struct gcm_key_data *k = &s->gcm;
    struct gcm_context_data *ctx = &s->ctx;
    size_t chunk = j->row->chunk;
    if (!chunk) {
        (seal ? f->enc : f->dec)(k, ctx, out, in, j->len, j->nonce, j->aad, j->aad_len, tag, SPEED_TAG_LEN);
        return;
    }
    f->init(k, ctx, j->nonce, j->aad, j->aad_len);
    for (size_t done = 0; done < j->len;) {
        size_t n = j->len - done < chunk ? j->len - done : chunk;
        (seal ? f->enc_update : f->dec_update)(k, ctx, out + done, in + done, n);
        done += n;
    }
    (seal ? f->enc_finalize : f->dec_finalize)(k, ctx, tag, SPEED_TAG_LEN);
}

static int imb_seal(struct imb_state *s, const uint8_t *in, uint8_t *out, uint8_t *tag)
{
    if (s->job->row->alg == SPEED_CCM) return imb_ccm(s, IMB_DIR_ENCRYPT, in, out, tag);
    imb_gcm(s, 1, in, out, tag);
    return 0;
}

/* Opens the job's ciphertext into out: 0 if the tag matched. */
static int imb_open_msg(struct imb_state *s, uint8_t *out)
{
    const struct speed_job *j = s->job;
    uint8_t tag[SPEED_TAG_LEN];
    if (j->row->alg == SPEED_CCM) {
        if (imb_ccm(s, IMB_DIR_DECRYPT, j->ct, out, tag) != 0) return -1;
    } else {
        imb_gcm(s, 0, j->ct, out, tag);
    }
    return tags_equal(tag, j->tag) ? 0 : -1;
}

/* ---------------------------------------------------------------------------------------------- */
/* The participant                                                                                 */

static void imb_close(void *state)
{
    struct imb_state *s = state;
    if (!s) return;
    free(s->out);
    free(s);
}

static void *imb_open(const struct speed_job *job, const char *impl)
{
    (void)impl;
    if (!manager()) return NULL;
    size_t size = (sizeof(struct imb_state) + 63) / 64 * 64;
    struct imb_state *s = aligned_alloc(64, size);
    if (!s) return NULL;
    memset(s, 0, sizeof *s);
    s->job = job;
    s->calls = imb_gcm_calls(job->row->key_len);
    memcpy(s->counter, job->counter, 16);
    s->out = malloc(job->len ? job->len : 1);
    if (!s->out) {
        imb_close(s);
        return NULL;
    }
    imb_key_setup(s);
    return s;
}

static int imb_compute(void *state, uint8_t *out, uint8_t *tag)
{
    struct imb_state *s = state;
    const struct speed_job *j = s->job;
    switch (j->row->op) {
    case SPEED_KEYSETUP:
        imb_key_setup(s);
        if (j->row->alg == SPEED_AES) return imb_ecb(s, IMB_DIR_ENCRYPT, j->counter, out, 16);
        return imb_seal(s, j->pt, out, tag);
    case SPEED_ECB_ENC: return imb_ecb(s, IMB_DIR_ENCRYPT, j->pt, out, j->len);
    case SPEED_ECB_DEC: return imb_ecb(s, IMB_DIR_DECRYPT, j->pt, out, j->len);
    case SPEED_CTR:
        memcpy(s->counter, j->counter, 16);
        return imb_ctr(s, j->pt, out, j->len);
    case SPEED_SEAL: return imb_seal(s, j->pt, out, tag);
    case SPEED_OPEN: return imb_open_msg(s, out);
    }
    return -1;
}

static int imb_run(void *state, uint64_t iterations)
{
    struct imb_state *s = state;
    const struct speed_job *j = s->job;
    int rc = 0;
    switch (j->row->op) {
    case SPEED_KEYSETUP:
        for (uint64_t i = 0; i < iterations; i++) imb_key_setup(s);
        break;
    case SPEED_ECB_ENC:
        for (uint64_t i = 0; i < iterations; i++) rc |= imb_ecb(s, IMB_DIR_ENCRYPT, j->pt, s->out, j->len);
        break;
    case SPEED_ECB_DEC:
        for (uint64_t i = 0; i < iterations; i++) rc |= imb_ecb(s, IMB_DIR_DECRYPT, j->pt, s->out, j->len);
        break;
    case SPEED_CTR:
        for (uint64_t i = 0; i < iterations; i++) rc |= imb_ctr(s, j->pt, s->out, j->len);
        break;
    case SPEED_SEAL:
        for (uint64_t i = 0; i < iterations; i++) rc |= imb_seal(s, j->pt, s->out, s->tag);
        break;
    case SPEED_OPEN:
        for (uint64_t i = 0; i < iterations; i++) rc |= imb_open_msg(s, s->out);
        break;
    }
    return rc ? -1 : 0;
}

static const char *imb_describe(void)
{
    static char buf[320];
    if (!manager()) {
        snprintf(buf, sizeof buf, "Intel ipsec-mb %s: the manager could not be set up (%s)", imb_get_version_str(),
                 arch_note);
        return buf;
    }
    snprintf(buf, sizeof buf, "Intel ipsec-mb %s (library; header %s), arch %s (%s)", imb_get_version_str(),
             IMB_VERSION_STR, arch_name(mgr->used_arch), arch_note);
    return buf;
}

/*
 * Which AES-GCM kernel the manager calls: its gcm128_enc pointer, compared with the kernels the
 * header declares (sse, avx_gen2 for the avx arch, avx_gen4 for avx2). 1.3's AVX-512 arch has two more
 * (avx512, and vaes_avx512 with VAES and VPCLMULQDQ) that the header does not declare; it has no VAES
 * kernel without AVX-512, so on this kind of CPU its GCM runs on 128-bit registers whatever the arch.
 */
static const char *imb_gcm_path(void)
{
    static char buf[320];
    if (!manager()) return "ipsec-mb AES-GCM: no manager";
    const char *kernel = "an AVX-512 kernel the header does not declare (avx512 or vaes_avx512)";
    if (mgr->gcm128_enc == aes_gcm_enc_128_sse) kernel = "aes_gcm_enc_128_sse (AES-NI + PCLMULQDQ, xmm)";
    else if (mgr->gcm128_enc == aes_gcm_enc_128_avx_gen2)
        kernel = "aes_gcm_enc_128_avx_gen2 (AES-NI + PCLMULQDQ, AVX, xmm)";
    else if (mgr->gcm128_enc == aes_gcm_enc_128_avx_gen4)
        kernel = "aes_gcm_enc_128_avx_gen4 (AES-NI + PCLMULQDQ, AVX2, xmm)";
    snprintf(buf, sizeof buf,
             "ipsec-mb AES-GCM: %s [read from the manager: its gcm128_enc against the kernels intel-ipsec-mb.h "
             "declares; 1.3 has VAES GCM only in its AVX-512 arch]",
             kernel);
    return buf;
}

const struct speed_peer speed_peer_ipsecmb = {
    .name = "ipsec-mb",
    .key = "ipsecmb",
    .supports = imb_supports,
    .supports_job = imb_supports_job,
    .open = imb_open,
    .compute = imb_compute,
    .run = imb_run,
    .close = imb_close,
    .describe = imb_describe,
    .gcm_path = imb_gcm_path,
};
