/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * peer_bearssl.c — BearSSL as a vg-speed peer for the portable implementation's rows: its
 * constant-time 64-bit bitsliced AES (aes_ct64) and its constant-time GHASH from integer multiplies
 * (ghash_ctmul64), the designs vg's portable code is measured against.
 *
 *   key set-up   br_aes_ct64_ctr_init (AES), + br_gcm_init (GCM: computes H), br_aes_ct64_ctrcbc_init
 *                + br_ccm_init (CCM)
 *   CTR          br_aes_ct64_ctr_run: 12-byte IV + 32-bit big-endian counter, vg's inc32
 *   GCM          br_gcm_* over br_aes_ct64_ctr_vtable and br_ghash_ctmul64
 *   CCM          br_ccm_* over br_aes_ct64_ctrcbc_vtable
 *   AAD          br_gcm_aad_inject / br_ccm_aad_inject; the streaming rows call br_gcm_run once per
 *                row->chunk bytes (BearSSL's AEAD interface is a streaming one)
 * BearSSL has no ECB API and no GCM-SIV: those rows have no BearSSL column.
 *
 * BearSSL only works in place. Sealing and CTR encrypt the work buffer over and over (the bytes do
 * not matter to the time); opening must start from the genuine ciphertext each time, so it first
 * copies it into the work buffer: a memcpy of len bytes per message, which costs well under 1% here.
 */
#include <stdlib.h>
#include <string.h>

#include <bearssl.h>

#include "speed.h"

struct bear_state {
    const struct speed_job *job;
    br_aes_ct64_ctr_keys ctr;       /* AES and GCM rows */
    br_aes_ct64_ctrcbc_keys ctrcbc; /* CCM rows */
    br_gcm_context gcm;             /* holds a pointer to ctr.vtable: the state must not move */
    br_ccm_context ccm;             /* holds a pointer to ctrcbc.vtable */
    uint32_t cc;                    /* the CTR stream's next block counter */
    uint8_t *work;                  /* job->len bytes, encrypted in place */
    uint8_t tag[SPEED_TAG_LEN];
};

static int bear_supports(const struct speed_row *row, const char **why)
{
    *why = NULL;
    if (row->alg == SPEED_GCM_SIV) {
        *why = "BearSSL has no AES-GCM-SIV";
        return 0;
    }
    if (row->op == SPEED_ECB_ENC || row->op == SPEED_ECB_DEC) {
        *why = "BearSSL has no ECB API";
        return 0;
    }
    return 1;
}

static void bear_key_setup(struct bear_state *s)
{
    const struct speed_job *j = s->job;
    switch (j->row->alg) {
    case SPEED_AES: br_aes_ct64_ctr_init(&s->ctr, j->key, j->row->key_len); break;
    case SPEED_GCM:
        br_aes_ct64_ctr_init(&s->ctr, j->key, j->row->key_len);
        br_gcm_init(&s->gcm, &s->ctr.vtable, br_ghash_ctmul64);
        break;
    case SPEED_CCM:
        br_aes_ct64_ctrcbc_init(&s->ctrcbc, j->key, j->row->key_len);
        br_ccm_init(&s->ccm, &s->ctrcbc.vtable);
        break;
    case SPEED_GCM_SIV: break;
    }
}

static void bear_close(void *state)
{
    struct bear_state *s = state;
    if (!s) return;
    free(s->work);
    free(s);
}

static void *bear_open(const struct speed_job *job, const char *impl)
{
    (void)impl;
    struct bear_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->job = job;
    s->work = malloc(job->len ? job->len : 1);
    if (!s->work) {
        bear_close(s);
        return NULL;
    }
    memcpy(s->work, job->pt, job->len);
    s->cc = speed_load32_be(job->counter + 12);
    bear_key_setup(s);
    return s;
}

/* The work buffer through br_gcm_run / br_ccm_run in row->chunk-byte pieces (all at once for the
   one-shot rows): BearSSL's AEAD calls are streaming calls. */
static void bear_run_data(struct bear_state *s, int encrypt)
{
    const struct speed_job *j = s->job;
    size_t piece = j->row->chunk ? j->row->chunk : j->len;
    for (size_t done = 0; done < j->len; done += piece) {
        size_t n = j->len - done < piece ? j->len - done : piece;
        if (j->row->alg == SPEED_GCM) br_gcm_run(&s->gcm, encrypt, s->work + done, n);
        else br_ccm_run(&s->ccm, encrypt, s->work + done, n);
    }
}

/* Resets the AEAD context for the job's nonce and injects its AAD. Returns 1, or 0 if br_ccm_reset
   refused the lengths. */
static int bear_start(struct bear_state *s)
{
    const struct speed_job *j = s->job;
    if (j->row->alg == SPEED_GCM) {
        br_gcm_reset(&s->gcm, j->nonce, j->nonce_len);
        if (j->aad_len) br_gcm_aad_inject(&s->gcm, j->aad, j->aad_len);
        br_gcm_flip(&s->gcm);
        return 1;
    }
    if (!br_ccm_reset(&s->ccm, j->nonce, j->nonce_len, j->aad_len, j->len, SPEED_TAG_LEN)) return 0;
    if (j->aad_len) br_ccm_aad_inject(&s->ccm, j->aad, j->aad_len);
    br_ccm_flip(&s->ccm);
    return 1;
}

/* Seals the work buffer in place; the tag goes to tag. Returns 1, or 0 on failure. */
static int bear_seal(struct bear_state *s, uint8_t *tag)
{
    if (!bear_start(s)) return 0;
    bear_run_data(s, 1);
    if (s->job->row->alg == SPEED_GCM) br_gcm_get_tag(&s->gcm, tag);
    else br_ccm_get_tag(&s->ccm, tag);
    return 1;
}

/* Opens the job's ciphertext into the work buffer; 1 if the tag matched. */
static int bear_open_msg(struct bear_state *s)
{
    const struct speed_job *j = s->job;
    memcpy(s->work, j->ct, j->len);
    if (!bear_start(s)) return 0;
    bear_run_data(s, 0);
    if (j->row->alg == SPEED_GCM) return (int)br_gcm_check_tag(&s->gcm, j->tag);
    return (int)br_ccm_check_tag(&s->ccm, j->tag);
}

static int bear_compute(void *state, uint8_t *out, uint8_t *tag)
{
    struct bear_state *s = state;
    const struct speed_job *j = s->job;
    switch (j->row->op) {
    case SPEED_KEYSETUP:
        bear_key_setup(s);
        if (j->row->alg == SPEED_AES) {
            /* E(counter block) as the keystream of one zero block. */
            memset(out, 0, 16);
            br_aes_ct64_ctr_run(&s->ctr, j->counter, speed_load32_be(j->counter + 12), out, 16);
            return 0;
        }
        memcpy(s->work, j->pt, j->len);
        if (!bear_seal(s, tag)) return -1;
        memcpy(out, s->work, j->len);
        return 0;
    case SPEED_CTR:
        memcpy(s->work, j->pt, j->len);
        br_aes_ct64_ctr_run(&s->ctr, j->counter, speed_load32_be(j->counter + 12), s->work, j->len);
        memcpy(out, s->work, j->len);
        return 0;
    case SPEED_SEAL:
        memcpy(s->work, j->pt, j->len);
        if (!bear_seal(s, tag)) return -1;
        memcpy(out, s->work, j->len);
        return 0;
    case SPEED_OPEN:
        if (!bear_open_msg(s)) return -1;
        memcpy(out, s->work, j->len);
        return 0;
    case SPEED_ECB_ENC:
    case SPEED_ECB_DEC: break;
    }
    return -1;
}

static int bear_run(void *state, uint64_t iterations)
{
    struct bear_state *s = state;
    const struct speed_job *j = s->job;
    int ok = 1;
    switch (j->row->op) {
    case SPEED_KEYSETUP:
        for (uint64_t i = 0; i < iterations; i++) bear_key_setup(s);
        break;
    case SPEED_CTR:
        for (uint64_t i = 0; i < iterations; i++)
            s->cc = br_aes_ct64_ctr_run(&s->ctr, j->counter, s->cc, s->work, j->len);
        break;
    case SPEED_SEAL:
        for (uint64_t i = 0; i < iterations; i++) ok &= bear_seal(s, s->tag);
        break;
    case SPEED_OPEN:
        for (uint64_t i = 0; i < iterations; i++) ok &= bear_open_msg(s);
        break;
    case SPEED_ECB_ENC:
    case SPEED_ECB_DEC: return -1;
    }
    return ok ? 0 : -1;
}

static const char *bear_describe(void)
{
    return "BearSSL (Debian libbearssl): aes_ct64, ghash_ctmul64";
}

const struct speed_peer speed_peer_bearssl = {
    .name = "BearSSL",
    .key = "bearssl",
    .supports = bear_supports,
    .open = bear_open,
    .compute = bear_compute,
    .run = bear_run,
    .close = bear_close,
    .describe = bear_describe,
};
