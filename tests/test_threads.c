/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * test_threads.c — shared keys used from several threads at once, and the implementation selection
 * raced.
 *
 *   first use    before anything else, 4 threads make their first vg call at the same moment: two
 *                vg_impl_name(), whose lazily chosen default must come out the same in both and be a
 *                listed implementation, and two a key set-up (vg_aes_expand_key, vg_aes_ccm_init),
 *                which takes the choice through the placeholder table's schedule (impl.c) and must
 *                leave a key that works: its ECB block and CCM message are checked against the spec
 *   shared keys  one AES, one GCM, one GCM-SIV and one CCM key, set up once, then used by 4 threads at
 *                once (seal, open, forged open, ECB, CTR32, CTR stream, GCM stream), every answer
 *                compared with one precomputed by the spec before the threads started
 *   selection    a fifth thread keeps calling vg_impl_select / vg_impl_name / vg_impl_list over every
 *                available implementation meanwhile; workers also set up fresh keys in the middle of
 *                that (a key takes whichever implementation is selected; all must agree)
 * POSIX threads rather than C11 <threads.h>: ThreadSanitizer (clang 14) intercepts pthread_create
 * but not glibc's thrd_create, and every platform we build for has pthreads.
 * Threads only count mismatches (the harness's CHECK is not thread-safe); main checks the counts.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "spec.h"

#define NTHREADS 4
#define NMSG 12
#define MAX_LEN 2100

/* --- the race on the first call ---------------------------------------------------------------- */

static atomic_int first_go;
static const char *first_names[NTHREADS];
/* the key set-up threads' results: ECB of first_in under first_raw, CCM of first_in (16-byte tag);
   key and block are SP 800-38A's F.1.1 (any would do: the spec computes the expected values) */
static const uint8_t first_raw[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                      0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};
static const uint8_t first_in[16] = {0x6b, 0xc1, 0xbe, 0xe2, 0x2e, 0x40, 0x9f, 0x96,
                                     0xe9, 0x3d, 0x7e, 0x11, 0x73, 0x93, 0x17, 0x2a};
static const uint8_t first_nonce[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
static uint8_t first_ecb[16], first_ccm[16], first_ccm_tag[16];
static int first_rc[NTHREADS];

static void *first_use_thread(void *arg)
{
    int id = *(int *)arg;
    while (!atomic_load(&first_go)) sched_yield();
    if (id == 1) { /* the first call a key set-up: the schedule slot of vg_impl_choice's placeholder */
        vg_aes_key k;
        first_rc[id] = vg_aes_expand_key(&k, first_raw, 16);
        if (first_rc[id] == VG_OK) first_rc[id] = vg_aes_ecb_encrypt(&k, first_in, first_ecb, 1);
        vg_aes_key_wipe(&k);
    } else if (id == 3) {
        vg_aes_ccm_key k;
        first_rc[id] = vg_aes_ccm_init(&k, first_raw, 16);
        if (first_rc[id] == VG_OK)
            first_rc[id] = vg_aes_ccm_seal(&k, first_nonce, 13, NULL, 0, first_in, 16, first_ccm, first_ccm_tag, 16);
        vg_aes_ccm_key_wipe(&k);
    }
    first_names[id] = vg_impl_name();
    return NULL;
}

/* --- the shared keys and the precomputed answers ------------------------------------------------- */

struct message {
    size_t len, aad_len;
    uint8_t nonce[13], aad[40], pt[MAX_LEN];
    uint8_t gcm_ct[MAX_LEN], gcm_tag[16];
    uint8_t siv_ct[MAX_LEN], siv_tag[16];
    uint8_t ccm_ct[MAX_LEN], ccm_tag[16];
    uint8_t counter[16], ctr_out[MAX_LEN], ecb_out[MAX_LEN]; /* ctr_out over whole blocks, padded */
};

static struct message msgs[NMSG];
static uint8_t aes_raw[32], gcm_raw[32], siv_raw[32], ccm_raw[32];
static vg_aes_key aes_key;
static vg_aes_gcm_key gcm_key;
static vg_aes_gcm_siv_key siv_key;
static vg_aes_ccm_key ccm_key;

static void precompute(void)
{
    vgt_rand_bytes(aes_raw, 32);
    vgt_rand_bytes(gcm_raw, 24);
    vgt_rand_bytes(siv_raw, 32);
    vgt_rand_bytes(ccm_raw, 16);
    for (int i = 0; i < NMSG; i++) {
        struct message *m = &msgs[i];
        m->len = i == 0 ? 0 : i == 1 ? 2048 : vgt_rand_below(MAX_LEN - 16);
        m->aad_len = vgt_rand_below(41);
        vgt_rand_bytes(m->nonce, 13);
        vgt_rand_bytes(m->aad, 40);
        vgt_rand_bytes(m->pt, MAX_LEN); /* whole buffer random: the padded CTR/ECB use whole blocks */
        vgt_rand_bytes(m->counter, 16);
        if (i == 2) memset(m->counter + 12, 0xFF, 4); /* wraps in the first block */
        spec_aes_gcm_seal(gcm_raw, 24, m->nonce, 12, m->aad, m->aad_len, m->pt, m->len, m->gcm_ct, m->gcm_tag);
        spec_aes_gcm_siv_seal(siv_raw, 32, m->nonce, m->aad, m->aad_len, m->pt, m->len, m->siv_ct, m->siv_tag);
        spec_aes_ccm_seal(ccm_raw, 16, m->nonce, 13, m->aad, m->aad_len, m->pt, m->len, m->ccm_ct, m->ccm_tag, 16);
        uint8_t c[16];
        memcpy(c, m->counter, 16);
        size_t nb = (m->len + 15) / 16;
        spec_aes_ctr32(aes_raw, 32, c, m->pt, m->ctr_out, nb);
        spec_aes_ecb_encrypt(aes_raw, 32, m->pt, m->ecb_out, nb);
    }
    CHECK(vg_aes_expand_key(&aes_key, aes_raw, 32) == VG_OK, "expand_key");
    CHECK(vg_aes_gcm_init(&gcm_key, gcm_raw, 24) == VG_OK, "gcm_init");
    CHECK(vg_aes_gcm_siv_init(&siv_key, siv_raw, 32) == VG_OK, "gcm_siv_init");
    CHECK(vg_aes_ccm_init(&ccm_key, ccm_raw, 16) == VG_OK, "ccm_init");
}

/* --- the workers ---------------------------------------------------------------------------------- */

struct worker {
    int id;
    uint64_t rng;
    size_t ops, failures;
    char first_failure[160];
};

static atomic_int workers_running;
static atomic_int go;
static int iterations;

static uint64_t next_rand(uint64_t *s)
{
    /* xorshift64*: each worker its own, so nothing is shared but the keys under test */
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

static void fail(struct worker *w, const char *what, int i)
{
    if (w->failures++ == 0) snprintf(w->first_failure, sizeof w->first_failure, "%s (message %d)", what, i);
}

static void *worker_thread(void *arg)
{
    struct worker *w = arg;
    uint8_t *out = malloc(MAX_LEN), *buf = malloc(MAX_LEN);
    uint8_t tag[16], c[16];
    if (!out || !buf) {
        fail(w, "out of memory", -1);
        free(out);
        free(buf);
        atomic_fetch_sub(&workers_running, 1);
        return NULL;
    }
    while (!atomic_load(&go)) sched_yield();
    for (int it = 0; it < iterations; it++) {
        int i = (int)(next_rand(&w->rng) % NMSG);
        const struct message *m = &msgs[i];
        size_t nb = (m->len + 15) / 16;
        int op = (int)(next_rand(&w->rng) % 11);
        w->ops++;
        switch (op) {
        case 0:
            if (vg_aes_gcm_seal(&gcm_key, m->nonce, 12, m->aad, m->aad_len, m->pt, m->len, out, tag, 16) != VG_OK ||
                memcmp(out, m->gcm_ct, m->len) || memcmp(tag, m->gcm_tag, 16))
                fail(w, "gcm seal", i);
            break;
        case 1:
            if (vg_aes_gcm_open(&gcm_key, m->nonce, 12, m->aad, m->aad_len, m->gcm_ct, m->len, m->gcm_tag, 16, out) !=
                    VG_OK ||
                memcmp(out, m->pt, m->len))
                fail(w, "gcm open", i);
            break;
        case 2:
            memcpy(tag, m->gcm_tag, 16);
            tag[next_rand(&w->rng) % 16] ^= 0x10;
            memset(out, 0xAA, m->len);
            if (vg_aes_gcm_open(&gcm_key, m->nonce, 12, m->aad, m->aad_len, m->gcm_ct, m->len, tag, 16, out) !=
                    VG_ERR_AUTH ||
                !vgt_all_zero(out, m->len))
                fail(w, "gcm forged open", i);
            break;
        case 3:
            if (vg_aes_gcm_siv_seal(&siv_key, m->nonce, 12, m->aad, m->aad_len, m->pt, m->len, out, tag, 16) != VG_OK ||
                memcmp(out, m->siv_ct, m->len) || memcmp(tag, m->siv_tag, 16))
                fail(w, "gcm-siv seal", i);
            if (vg_aes_gcm_siv_open(&siv_key, m->nonce, 12, m->aad, m->aad_len, m->siv_ct, m->len, m->siv_tag, 16,
                                    out) != VG_OK ||
                memcmp(out, m->pt, m->len))
                fail(w, "gcm-siv open", i);
            break;
        case 4:
            if (vg_aes_ccm_seal(&ccm_key, m->nonce, 13, m->aad, m->aad_len, m->pt, m->len, out, tag, 16) != VG_OK ||
                memcmp(out, m->ccm_ct, m->len) || memcmp(tag, m->ccm_tag, 16))
                fail(w, "ccm seal", i);
            if (vg_aes_ccm_open(&ccm_key, m->nonce, 13, m->aad, m->aad_len, m->ccm_ct, m->len, m->ccm_tag, 16, out) !=
                    VG_OK ||
                memcmp(out, m->pt, m->len))
                fail(w, "ccm open", i);
            break;
        case 5:
            memcpy(c, m->counter, 16);
            CHECK(vg_aes_ctr32(&aes_key, c, m->pt, out, nb) == VG_OK, "ctr32");
            if (memcmp(out, m->ctr_out, nb * 16)) fail(w, "ctr32", i);
            break;
        case 6:
            memcpy(buf, m->pt, nb * 16);
            CHECK(vg_aes_ecb_encrypt(&aes_key, buf, buf, nb) == VG_OK, "ecb_encrypt");
            if (memcmp(buf, m->ecb_out, nb * 16)) fail(w, "ecb encrypt in place", i);
            CHECK(vg_aes_ecb_decrypt(&aes_key, buf, out, nb) == VG_OK, "ecb_decrypt");
            if (memcmp(out, m->pt, nb * 16)) fail(w, "ecb decrypt", i);
            break;
        case 7: {
            vg_aes_ctr_stream s;
            size_t done = 0;
            if (vg_aes_ctr_stream_init(&s, &aes_key, m->counter) != VG_OK) fail(w, "ctr_stream_init", i);
            while (done < m->len) {
                size_t chunk = (size_t)(next_rand(&w->rng) % 100);
                if (chunk > m->len - done) chunk = m->len - done;
                if (vg_aes_ctr_stream_xor(&s, m->pt + done, out + done, chunk) != VG_OK) fail(w, "ctr_stream_xor", i);
                done += chunk;
            }
            if (memcmp(out, m->ctr_out, m->len)) fail(w, "ctr stream", i);
            break;
        }
        case 8: {
            vg_aes_gcm_stream s;
            size_t cut = m->len ? (size_t)(next_rand(&w->rng) % m->len) : 0;
            if (vg_aes_gcm_stream_init(&s, &gcm_key, m->nonce, 12) != VG_OK) fail(w, "gcm_stream_init", i);
            if (vg_aes_gcm_stream_aad(&s, m->aad, m->aad_len) != VG_OK) fail(w, "gcm_stream_aad", i);
            if (vg_aes_gcm_stream_encrypt(&s, m->pt, cut, out) != VG_OK) fail(w, "gcm_stream_encrypt", i);
            if (vg_aes_gcm_stream_encrypt(&s, m->pt + cut, m->len - cut, out + cut) != VG_OK) fail(w, "gcm_stream_encrypt", i);
            if (vg_aes_gcm_stream_finish(&s, tag, 16) != VG_OK || memcmp(out, m->gcm_ct, m->len) ||
                memcmp(tag, m->gcm_tag, 16))
                fail(w, "gcm stream", i);
            break;
        }
        case 9: {
            /* a fresh key, set up while the selection is being changed under it */
            vg_aes_gcm_key k;
            if (vg_aes_gcm_init(&k, gcm_raw, 24) != VG_OK) fail(w, "gcm_init", i);
            if (vg_aes_gcm_seal(&k, m->nonce, 12, m->aad, m->aad_len, m->pt, m->len, out, tag, 16) != VG_OK ||
                memcmp(out, m->gcm_ct, m->len) || memcmp(tag, m->gcm_tag, 16))
                fail(w, "gcm seal with a key set up during the race", i);
            vg_aes_gcm_key_wipe(&k);
            break;
        }
        default: {
            vg_aes_key k;
            if (vg_aes_expand_key(&k, aes_raw, 32) != VG_OK) fail(w, "expand_key", i);
            memcpy(c, m->counter, 16);
            CHECK(vg_aes_ctr32(&k, c, m->pt, out, nb) == VG_OK, "ctr32");
            if (memcmp(out, m->ctr_out, nb * 16)) fail(w, "ctr32 with a key set up during the race", i);
            vg_aes_key_wipe(&k);
            break;
        }
        }
    }
    free(out);
    free(buf);
    atomic_fetch_sub(&workers_running, 1);
    return NULL;
}

/* --- the selection racer --------------------------------------------------------------------------- */

struct racer {
    size_t rounds, failures;
};

static void *racer_thread(void *arg)
{
    struct racer *r = arg;
    const char *names[16];
    size_t n = vg_impl_list(names, 16);
    if (n > 16) n = 16;
    while (!atomic_load(&go)) sched_yield();
    while (atomic_load(&workers_running) > 0) {
        const char *want = names[r->rounds % n];
        if (vg_impl_select(want) != VG_OK) r->failures++;
        const char *now = vg_impl_name();
        int listed = 0;
        for (size_t i = 0; i < n; i++) listed |= now != NULL && strcmp(now, names[i]) == 0;
        if (!listed) r->failures++;
        if (vg_impl_list(NULL, 0) != n) r->failures++;
        if (vg_impl_select("no-such") != VG_ERR_UNSUPPORTED) r->failures++;
        r->rounds++;
        if (r->rounds % 8 == 0) sched_yield();
    }
    return NULL;
}

int main(int argc, char **argv)
{
    /* The first-use race runs before vgt_init (which would make the first call itself). */
    pthread_t t[NTHREADS + 1];
    int ids[NTHREADS];
    int started = 0;
    for (int i = 0; i < NTHREADS; i++) {
        ids[i] = i;
        if (pthread_create(&t[i], NULL, first_use_thread, &ids[i]) == 0) started++;
    }
    atomic_store(&first_go, 1);
    for (int i = 0; i < started; i++) pthread_join(t[i], NULL);

    vgt_init(argc, argv);
    CHECK(started == NTHREADS, "started %d of %d first-use threads", started, NTHREADS);
    const char *names[16];
    size_t n = vg_impl_list(names, 16);
    for (int i = 0; i < started; i++) {
        CHECK(first_names[i] != NULL && strcmp(first_names[i], first_names[0]) == 0,
              "first use: thread %d saw %s, thread 0 saw %s", i, first_names[i] ? first_names[i] : "NULL", first_names[0]);
        int listed = 0;
        for (size_t j = 0; j < n && j < 16; j++) listed |= first_names[i] && strcmp(first_names[i], names[j]) == 0;
        CHECK(listed, "first use: %s is not listed", first_names[i] ? first_names[i] : "NULL");
    }
    uint8_t want[16], want_tag[16];
    spec_aes_ecb_encrypt(first_raw, 16, first_in, want, 1);
    CHECK(first_rc[1] == VG_OK && memcmp(first_ecb, want, 16) == 0, "first use: ECB after a first vg_aes_expand_key");
    spec_aes_ccm_seal(first_raw, 16, first_nonce, 13, NULL, 0, first_in, 16, want, want_tag, 16);
    CHECK(first_rc[3] == VG_OK && memcmp(first_ccm, want, 16) == 0 && memcmp(first_ccm_tag, want_tag, 16) == 0,
          "first use: CCM after a first vg_aes_ccm_init");
    const char *under_test = vgt_impl();

    precompute();
    iterations = vgt_quick() ? 150 : 1500;
    struct worker w[NTHREADS];
    struct racer r = {0, 0};
    atomic_store(&workers_running, NTHREADS);
    for (int i = 0; i < NTHREADS; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].id = i;
        w[i].rng = 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1) + vgt_rand64();
        if (w[i].rng == 0) w[i].rng = 1;
        if (pthread_create(&t[i], NULL, worker_thread, &w[i]) != 0) {
            printf("error: pthread_create failed\n");
            return 2;
        }
    }
    if (pthread_create(&t[NTHREADS], NULL, racer_thread, &r) != 0) {
        printf("error: pthread_create failed\n");
        return 2;
    }
    atomic_store(&go, 1);
    for (int i = 0; i <= NTHREADS; i++) pthread_join(t[i], NULL);

    for (int i = 0; i < NTHREADS; i++) {
        CHECK(w[i].ops == (size_t)iterations, "worker %d ran %zu of %d operations", i, w[i].ops, iterations);
        CHECK(w[i].failures == 0, "worker %d: %zu wrong answers, first: %s", i, w[i].failures, w[i].first_failure);
    }
    CHECK(r.failures == 0, "selection racer: %zu inconsistencies in %zu rounds", r.failures, r.rounds);
    printf("%d workers x %d operations, selection raced %zu times\n", NTHREADS, iterations, r.rounds);

    CHECK(vg_impl_select(under_test) == VG_OK, "restore selection");
    return vgt_finish();
}
