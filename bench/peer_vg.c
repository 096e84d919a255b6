/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * peer_vg.c — vg itself as a vg-speed participant, through the public API only (include/vg.h), the
 * way a user calls it: keys set up once (after vg_impl_select, so each key records the implementation
 * being measured), out-of-place calls, the row's AAD (none, or a 13-byte TLS record header). The
 * streaming rows go through vg_aes_gcm_stream_*: init, AAD, the message in row->chunk-byte updates,
 * finish (seal) or verify (open). The batch rows go through vg_aes_gcm_seal_batch / _open_batch,
 * row->batch copies of the job's message a call, each into its own output and tag; and vg1, a second
 * participant here, is the same library one call per message (the best implementation), the baseline
 * those rows are measured against.
 */
#include <stdlib.h>
#include <string.h>

#include "speed.h"
#include "vg.h"

struct vg_state {
    /* The keys first: they want 64-byte alignment, and the state is allocated 64-byte aligned. */
    union {
        vg_aes_key aes;
        vg_aes_gcm_key gcm;
        vg_aes_gcm_siv_key siv;
        vg_aes_ccm_key ccm;
    } k;
    vg_aes_gcm_stream stream; /* the streaming rows' per-message state */
    const struct speed_job *job;
    const char *impl;
    uint8_t counter[16]; /* the CTR stream's next counter block */
    uint8_t *out;        /* job->len bytes */
    uint8_t tag[SPEED_TAG_LEN];
    /* batch rows: row->batch messages, message i writing outs + i * len and tags + 16 i */
    vg_aes_gcm_batch_msg *msgs;
    int *results;
    uint8_t *outs, *tags;
    int single; /* vg1: one call per message even on a batch row */
};

static int vg_supports(const struct speed_row *row, const char **why)
{
    (void)row;
    *why = NULL;
    return 1;
}

/* Sets up the key of the row's algorithm with the currently selected implementation. */
static int vg_key_setup(struct vg_state *s)
{
    const struct speed_job *j = s->job;
    switch (j->row->alg) {
    case SPEED_AES: return vg_aes_expand_key(&s->k.aes, j->key, j->row->key_len);
    case SPEED_GCM: return vg_aes_gcm_init(&s->k.gcm, j->key, j->row->key_len);
    case SPEED_GCM_SIV: return vg_aes_gcm_siv_init(&s->k.siv, j->key, j->row->key_len);
    case SPEED_CCM: return vg_aes_ccm_init(&s->k.ccm, j->key, j->row->key_len);
    }
    return -1;
}

static void vg_close(void *state)
{
    struct vg_state *s = state;
    if (!s) return;
    free(s->out);
    free(s->msgs);
    free(s->results);
    free(s->outs);
    free(s->tags);
    free(s);
}

static void *vg_open(const struct speed_job *job, const char *impl)
{
    /* aligned_alloc wants a size that is a multiple of the alignment. */
    size_t size = (sizeof(struct vg_state) + 63) / 64 * 64;
    struct vg_state *s = aligned_alloc(64, size);
    if (!s) return NULL;
    memset(s, 0, sizeof *s);
    s->job = job;
    s->impl = impl;
    memcpy(s->counter, job->counter, 16);
    s->out = malloc(job->len ? job->len : 1);
    if (!s->out || vg_impl_select(impl) != VG_OK || vg_key_setup(s) != VG_OK) {
        vg_close(s);
        return NULL;
    }
    size_t n = job->row->batch;
    if (n) {
        s->msgs = calloc(n, sizeof *s->msgs);
        s->results = calloc(n, sizeof *s->results);
        s->outs = malloc(n * job->len + 1);
        s->tags = malloc(n * SPEED_TAG_LEN);
        if (!s->msgs || !s->results || !s->outs || !s->tags) {
            vg_close(s);
            return NULL;
        }
        int open = job->row->op == SPEED_OPEN;
        for (size_t i = 0; i < n; i++)
            s->msgs[i] = (vg_aes_gcm_batch_msg){ job->nonce, job->nonce_len, job->aad, job->aad_len,
                                                 open ? job->ct : job->pt, job->len, s->outs + i * job->len,
                                                 open ? (uint8_t *)(uintptr_t)job->tag : s->tags + i * SPEED_TAG_LEN,
                                                 SPEED_TAG_LEN };
    }
    return s;
}

/* One batch call of n (<= row->batch) messages; for the check, every message's output must be the
   first's, and that is copied to out (and, sealing, tag). */
static int vg_batch(struct vg_state *s, size_t n)
{
    int open = s->job->row->op == SPEED_OPEN;
    return open ? vg_aes_gcm_open_batch(&s->k.gcm, s->msgs, n, s->results)
                : vg_aes_gcm_seal_batch(&s->k.gcm, s->msgs, n, s->results);
}

static int vg_batch_check(struct vg_state *s, uint8_t *out, uint8_t *tag)
{
    const struct speed_job *j = s->job;
    size_t n = j->row->batch;
    if (vg_batch(s, n) != VG_OK) return -1;
    for (size_t i = 1; i < n; i++)
        if (memcmp(s->outs + i * j->len, s->outs, j->len) != 0 ||
            (j->row->op == SPEED_SEAL && memcmp(s->tags + i * SPEED_TAG_LEN, s->tags, SPEED_TAG_LEN) != 0))
            return -1;
    memcpy(out, s->outs, j->len);
    if (j->row->op == SPEED_SEAL) memcpy(tag, s->tags, SPEED_TAG_LEN);
    return 0;
}

/* Streaming GCM: one message in j->row->chunk-byte updates, sealed (tag written) or opened (tag
   verified). The streaming open releases plaintext before it knows the verdict, so the one-shot open
   is the one to use when the whole message is at hand; these rows measure what a caller who must
   stream (as every EVP user does) pays. */
static int vg_stream(struct vg_state *s, const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag, int seal)
{
    const struct speed_job *j = s->job;
    int rc = vg_aes_gcm_stream_init(&s->stream, &s->k.gcm, j->nonce, j->nonce_len);
    if (rc == VG_OK && j->aad_len) rc = vg_aes_gcm_stream_aad(&s->stream, j->aad, j->aad_len);
    for (size_t done = 0; rc == VG_OK && done < len;) {
        size_t n = len - done < j->row->chunk ? len - done : j->row->chunk;
        rc = seal ? vg_aes_gcm_stream_encrypt(&s->stream, in + done, n, out + done)
                  : vg_aes_gcm_stream_decrypt(&s->stream, in + done, n, out + done);
        done += n;
    }
    if (rc == VG_OK)
        rc = seal ? vg_aes_gcm_stream_finish(&s->stream, tag, SPEED_TAG_LEN)
                  : vg_aes_gcm_stream_verify(&s->stream, j->tag, SPEED_TAG_LEN);
    if (rc != VG_OK) vg_aes_gcm_stream_wipe(&s->stream); /* finish and verify wipe it themselves */
    return rc;
}

static int vg_seal(struct vg_state *s, const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag)
{
    const struct speed_job *j = s->job;
    switch (j->row->alg) {
    case SPEED_GCM:
        if (j->row->chunk) return vg_stream(s, in, len, out, tag, 1);
        return vg_aes_gcm_seal(&s->k.gcm, j->nonce, j->nonce_len, j->aad, j->aad_len, in, len, out, tag,
                               SPEED_TAG_LEN);
    case SPEED_GCM_SIV:
        return vg_aes_gcm_siv_seal(&s->k.siv, j->nonce, j->nonce_len, j->aad, j->aad_len, in, len, out, tag,
                                   SPEED_TAG_LEN);
    case SPEED_CCM:
        return vg_aes_ccm_seal(&s->k.ccm, j->nonce, j->nonce_len, j->aad, j->aad_len, in, len, out, tag,
                               SPEED_TAG_LEN);
    case SPEED_AES: break;
    }
    return -1;
}

static int vg_open_msg(struct vg_state *s, uint8_t *out)
{
    const struct speed_job *j = s->job;
    switch (j->row->alg) {
    case SPEED_GCM:
        if (j->row->chunk) return vg_stream(s, j->ct, j->len, out, NULL, 0);
        return vg_aes_gcm_open(&s->k.gcm, j->nonce, j->nonce_len, j->aad, j->aad_len, j->ct, j->len, j->tag,
                               SPEED_TAG_LEN, out);
    case SPEED_GCM_SIV:
        return vg_aes_gcm_siv_open(&s->k.siv, j->nonce, j->nonce_len, j->aad, j->aad_len, j->ct, j->len,
                                   j->tag, SPEED_TAG_LEN, out);
    case SPEED_CCM:
        return vg_aes_ccm_open(&s->k.ccm, j->nonce, j->nonce_len, j->aad, j->aad_len, j->ct, j->len, j->tag,
                               SPEED_TAG_LEN, out);
    case SPEED_AES: break;
    }
    return -1;
}

static int vg_compute(void *state, uint8_t *out, uint8_t *tag)
{
    struct vg_state *s = state;
    const struct speed_job *j = s->job;
    size_t nblocks = j->len / 16;
    switch (j->row->op) {
    case SPEED_KEYSETUP:
        if (vg_impl_select(s->impl) != VG_OK || vg_key_setup(s) != VG_OK) return -1;
        if (j->row->alg == SPEED_AES) {
            return vg_aes_ecb_encrypt(&s->k.aes, j->counter, out, 1) == VG_OK ? 0 : -1;
        }
        return vg_seal(s, j->pt, j->len, out, tag);
    case SPEED_ECB_ENC: return vg_aes_ecb_encrypt(&s->k.aes, j->pt, out, nblocks) == VG_OK ? 0 : -1;
    case SPEED_ECB_DEC: return vg_aes_ecb_decrypt(&s->k.aes, j->pt, out, nblocks) == VG_OK ? 0 : -1;
    case SPEED_CTR: {
        uint8_t counter[16];
        memcpy(counter, j->counter, 16);
        return vg_aes_ctr32(&s->k.aes, counter, j->pt, out, nblocks) == VG_OK ? 0 : -1;
    }
    case SPEED_SEAL:
        if (j->row->batch && !s->single) return vg_batch_check(s, out, tag);
        return vg_seal(s, j->pt, j->len, out, tag);
    case SPEED_OPEN:
        if (j->row->batch && !s->single) return vg_batch_check(s, out, tag);
        return vg_open_msg(s, out);
    }
    return -1;
}

static int vg_run(void *state, uint64_t iterations)
{
    struct vg_state *s = state;
    const struct speed_job *j = s->job;
    size_t nblocks = j->len / 16;
    int bad = 0; /* ORed error codes: checked once after the loop, not per call */
    if (j->row->batch && !s->single && (j->row->op == SPEED_SEAL || j->row->op == SPEED_OPEN)) {
        /* iterations messages, row->batch a call: the driver's time is per message */
        uint64_t calls = iterations / j->row->batch, rest = iterations % j->row->batch;
        for (uint64_t i = 0; i < calls; i++) bad |= vg_batch(s, j->row->batch);
        if (rest) bad |= vg_batch(s, (size_t)rest);
        return bad;
    }
    switch (j->row->op) {
    case SPEED_KEYSETUP:
        /* The key set-up uses the implementation selected now: select it (once, not per key). */
        if (vg_impl_select(s->impl) != VG_OK) return -1;
        for (uint64_t i = 0; i < iterations; i++) bad |= vg_key_setup(s);
        break;
    case SPEED_ECB_ENC:
        for (uint64_t i = 0; i < iterations; i++) bad |= vg_aes_ecb_encrypt(&s->k.aes, j->pt, s->out, nblocks);
        break;
    case SPEED_ECB_DEC:
        for (uint64_t i = 0; i < iterations; i++) bad |= vg_aes_ecb_decrypt(&s->k.aes, j->pt, s->out, nblocks);
        break;
    case SPEED_CTR:
        for (uint64_t i = 0; i < iterations; i++) bad |= vg_aes_ctr32(&s->k.aes, s->counter, j->pt, s->out, nblocks);
        break;
    case SPEED_SEAL:
        for (uint64_t i = 0; i < iterations; i++) bad |= vg_seal(s, j->pt, j->len, s->out, s->tag);
        break;
    case SPEED_OPEN:
        for (uint64_t i = 0; i < iterations; i++) bad |= vg_open_msg(s, s->out);
        break;
    }
    return bad;
}

static const char *vg_describe(void) { return "vg"; }

const struct speed_peer speed_peer_vg = {
    .name = "vg",
    .key = "vg",
    .supports = vg_supports,
    .open = vg_open,
    .compute = vg_compute,
    .run = vg_run,
    .close = vg_close,
    .describe = vg_describe,
};

/* vg1: the batch rows' baseline, vg one call per message with the best implementation here (the
   first vg_impl_list names is the one a process gets without VG_IMPL or vg_impl_select). */
static int vg_single_supports(const struct speed_row *row, const char **why)
{
    *why = row->batch ? NULL : "the batch rows' baseline only";
    return row->batch != 0;
}

static void *vg_single_open(const struct speed_job *job, const char *impl)
{
    const char *best = NULL;
    (void)impl;
    if (vg_impl_list(&best, 1) == 0) return NULL;
    struct vg_state *s = vg_open(job, best);
    if (s) s->single = 1;
    return s;
}

static const char *vg_single_describe(void) { return "vg1 (vg, one call per message, best implementation)"; }

const struct speed_peer speed_peer_vg_single = {
    .name = "vg1",
    .key = "vg1",
    .supports = vg_single_supports,
    .open = vg_single_open,
    .compute = vg_compute,
    .run = vg_run,
    .close = vg_close,
    .describe = vg_single_describe,
};
