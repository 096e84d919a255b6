/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * test_gcm_batch.c — vg_aes_gcm_seal_batch and vg_aes_gcm_open_batch against the one-shot calls.
 *
 * vg.h promises that a batch is exactly the loop
 *     for (i = 0; i < n; i++) results[i] = vg_aes_gcm_seal(k, msgs[i].nonce, ..., msgs[i].tag_len);
 * every read and write in that order, results[i] and the descriptors included. So the oracle is that
 * loop, written out here. A trial lays its messages out in an arena, copies the arena, runs the
 * loop on one copy and the batch on the other, and compares the two arenas whole (every byte either
 * side wrote, or failed to zero), every results[i] and the return code (the first code other than
 * VG_OK). results[] is outside the arena in some trials and inside it in others (the oracle's at the
 * same offset of its copy), where it is compared as arena bytes: a later message may read what an
 * earlier results[i] wrote. msgs[] stays outside the arena in the random trials (a random write over
 * a descriptor would make wild pointers); the descriptor tests put it inside on purpose.
 *
 * The trials:
 *   - mixed, separate: every length (0 .. 1350 bytes), nonce and tag length (some invalid), some NULL
 *     pointers, each message's buffers of their own, in == out at random;
 *   - mixed, tangled: the same messages at random offsets of the arena's first 1 KiB, results[] too,
 *     so messages overlap each other and themselves;
 *   - runs: runs of like messages (12-byte nonce, 16-byte tag, the same small len and aad_len), the
 *     layout the two-message kernel takes (vaes256), broken by messages that are refused or unlike
 *     (another nonce or tag length), in place or not, some with in and out partly overlapping (that
 *     message VG_ERR_ARG), and made adversarial pair by pair: message i's out or tag over exactly one
 *     of message i+1's nonce, aad, in, out or tag, results[i] over one of message i+1's buffers or
 *     one of message i's own. Each such layout is the loop's only if the batch does not take the pair
 *     through the kernel (or takes it where that cannot show).
 * Open trials seal their messages first and then tamper with some (a ciphertext, tag, AAD or nonce bit).
 * Then the descriptor tests (msgs[] inside the arena: a forged open's out zeroing the next descriptor,
 * an authentic open writing it anew, a seal's tag over it, results[0] over it), and the batch-wide
 * errors, each VG_ERR_ARG (or VG_OK for an empty batch) with nothing written, results[] included.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define ARENA 131072
#define TANGLED_ARENA 1024
#define MAX_MSGS 40
#define NO_RESULTS_IN_ARENA ((size_t)-1)

static size_t trial_number; /* printed with a failure, to find the trial again under --seed */

/* ---------------------------------------------------------------------------------------------- */
/* Picking lengths and places                                                                      */

static size_t pick_len(void)
{
    static const size_t edge[] = { 0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256, 257, 300, 1350 };
    if (vgt_rand_below(3) == 0) return vgt_rand_below(400);
    return edge[vgt_rand_below(sizeof edge / sizeof edge[0])];
}

/* The lengths of a run of like messages: small, so that a pair fits the two-message kernel (at most
   ceil(aad_len/16) + ceil(len/16) + 1 blocks; 16 on vaes256 now, perhaps 7 later), and now and then
   one past it, so that like messages also take the one-at-a-time path. */
static size_t pick_small_len(void)
{
    static const size_t edge[] = { 0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 49, 64, 72, 80, 96 };
    if (vgt_rand_below(12) == 0) return 97 + vgt_rand_below(200);
    if (vgt_rand_below(3) == 0) return vgt_rand_below(97);
    return edge[vgt_rand_below(sizeof edge / sizeof edge[0])];
}

static size_t pick_small_aad_len(void)
{
    static const size_t edge[] = { 0, 0, 1, 12, 13, 16, 17, 20, 32, 40 };
    if (vgt_rand_below(3) == 0) return vgt_rand_below(41);
    return edge[vgt_rand_below(sizeof edge / sizeof edge[0])];
}

static size_t pick_tag_len(void)
{
    static const size_t valid[] = { 16, 16, 16, 16, 16, 16, 15, 14, 13, 12, 8, 4 };
    static const size_t invalid[] = { 0, 1, 5, 11, 17, 32 };
    if (vgt_rand_below(20) == 0) return invalid[vgt_rand_below(sizeof invalid / sizeof invalid[0])];
    return valid[vgt_rand_below(sizeof valid / sizeof valid[0])];
}

static size_t pick_nonce_len(void)
{
    if (vgt_rand_below(8)) return 12;
    return vgt_rand_below(25); /* 0 is VG_ERR_NONCE_LENGTH */
}

/* Places n bytes in the arena: after *top (separate) or anywhere in the first TANGLED_ARENA bytes. */
static uint8_t *place(uint8_t *arena, size_t *top, size_t n, int tangled)
{
    if (tangled) return arena + vgt_rand_below(TANGLED_ARENA - (n < TANGLED_ARENA ? n : 0) + 1);
    *top += vgt_rand_below(3) * 8; /* gaps, and so different alignments */
    uint8_t *p = arena + *top;
    *top += n;
    if (*top > ARENA) {
        printf("test_gcm_batch: layout past the arena (%zu bytes)\n", *top);
        exit(2);
    }
    return p;
}

/* An int-aligned offset for results[] after *top. */
static size_t place_results(size_t *top, size_t n)
{
    *top = (*top + sizeof(int) - 1) / sizeof(int) * sizeof(int) + sizeof(int) * vgt_rand_below(3);
    size_t off = *top;
    *top += n * sizeof(int);
    if (*top > ARENA) {
        printf("test_gcm_batch: results past the arena\n");
        exit(2);
    }
    return off;
}

static uint8_t *writable(const uint8_t *p)
{
    return (uint8_t *)(uintptr_t)p;
}

/* A message's five buffers by number, to pick one at random. */
enum { BUF_NONCE, BUF_AAD, BUF_IN, BUF_OUT, BUF_TAG, BUF_COUNT };

static uint8_t *buffer_of(const vg_aes_gcm_batch_msg *m, int which, size_t *n)
{
    switch (which) {
    case BUF_NONCE: *n = m->nonce_len; return writable(m->nonce);
    case BUF_AAD: *n = m->aad_len; return writable(m->aad);
    case BUF_IN: *n = m->len; return writable(m->in);
    case BUF_OUT: *n = m->len; return m->out;
    default: *n = m->tag_len; return m->tag;
    }
}

/* Moves one buffer; an in-place message (in == out) stays in place. */
static void move_buffer(vg_aes_gcm_batch_msg *m, int which, uint8_t *p)
{
    int in_place = m->in == m->out;
    switch (which) {
    case BUF_NONCE: m->nonce = p; break;
    case BUF_AAD: m->aad = p; break;
    case BUF_IN: m->in = p; if (in_place) m->out = p; break;
    case BUF_OUT: m->out = p; if (in_place) m->in = p; break;
    default: m->tag = p; break;
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* The oracle and the comparison                                                                   */

static int one_shot(const vg_aes_gcm_key *k, const vg_aes_gcm_batch_msg *m, int open)
{
    if (open)
        return vg_aes_gcm_open(k, m->nonce, m->nonce_len, m->aad, m->aad_len, m->in, m->len, m->tag, m->tag_len,
                               m->out);
    return vg_aes_gcm_seal(k, m->nonce, m->nonce_len, m->aad, m->aad_len, m->in, m->len, m->out, m->tag,
                           m->tag_len);
}

/* vg.h's loop, read for read and write for write: the descriptor is read when its message starts (as
   the call's arguments are), results[i] written when it returns. Returns the first code other than
   VG_OK. */
static int loop_of_one_shots(const vg_aes_gcm_key *k, const vg_aes_gcm_batch_msg *msgs, size_t n, int *results,
                             int open)
{
    int first = VG_OK;
    for (size_t i = 0; i < n; i++) {
        vg_aes_gcm_batch_msg m;
        memcpy(&m, &msgs[i], sizeof m);
        int rc = one_shot(k, &m, open);
        results[i] = rc;
        if (first == VG_OK) first = rc;
    }
    return first;
}

static int batch(const vg_aes_gcm_key *k, const vg_aes_gcm_batch_msg *msgs, size_t n, int *results, int open)
{
    return open ? vg_aes_gcm_open_batch(k, msgs, n, results) : vg_aes_gcm_seal_batch(k, msgs, n, results);
}

/* One check of n bytes of memory, which on a mismatch shows where the first difference is. */
static void check_memory(const uint8_t *got, const uint8_t *want, size_t n, const char *what)
{
    if (memcmp(got, want, n) == 0) {
        CHECK(1, "%s", what);
        return;
    }
    size_t off = 0;
    while (got[off] == want[off]) off++;
    size_t from = off >= 16 ? off - 16 : 0, show = n - from < 48 ? n - from : 48;
    CHECK_BYTES(got + from, want + from, show, "%s (trial %zu): memory differs from byte %zu on (shown from %zu)",
                what, trial_number, off, from);
}

static const uint8_t *rebase(const uint8_t *p, const uint8_t *from, uint8_t *to)
{
    return p ? to + (p - from) : NULL;
}

/* The arena differential. msgs (outside the arena) point into arena a; results[] is at results_off
   in the arena or, for NO_RESULTS_IN_ARENA, in arrays of the test's own. The oracle runs on b, a
   copy of a made here, with the descriptors rebased. */
static void differential(const vg_aes_gcm_key *k, uint8_t *a, uint8_t *b, const vg_aes_gcm_batch_msg *msgs,
                         size_t n, size_t results_off, int open, const char *kind)
{
    static vg_aes_gcm_batch_msg mb[MAX_MSGS];
    static int own_a[MAX_MSGS], own_b[MAX_MSGS];
    memcpy(b, a, ARENA);
    for (size_t i = 0; i < n; i++) {
        mb[i] = msgs[i];
        mb[i].nonce = rebase(msgs[i].nonce, a, b);
        mb[i].aad = rebase(msgs[i].aad, a, b);
        mb[i].in = rebase(msgs[i].in, a, b);
        mb[i].out = writable(rebase(msgs[i].out, a, b));
        mb[i].tag = writable(rebase(msgs[i].tag, a, b));
    }
    int *ra = own_a, *rb = own_b;
    if (results_off != NO_RESULTS_IN_ARENA) {
        ra = (int *)(void *)(a + results_off);
        rb = (int *)(void *)(b + results_off);
    } else {
        memset(own_a, 0x5a, sizeof own_a);
        memset(own_b, 0x5a, sizeof own_b);
    }
    const char *op = open ? "open" : "seal";
    int want = loop_of_one_shots(k, mb, n, rb, open);
    int got = batch(k, msgs, n, ra, open);

    CHECK(got == want, "%s batch (%s, %zu messages, trial %zu): returned %d, the loop's first code is %d", op, kind,
          n, trial_number, got, want);
    for (size_t i = 0; i < n; i++) {
        int x, y;
        memcpy(&x, &ra[i], sizeof x);
        memcpy(&y, &rb[i], sizeof y);
        CHECK(x == y,
              "%s batch (%s, trial %zu) message %zu of %zu (len %zu, aad %zu, nonce %zu, tag %zu): results[i] %d, "
              "the loop's %d",
              op, kind, trial_number, i, n, msgs[i].len, msgs[i].aad_len, msgs[i].nonce_len, msgs[i].tag_len, x, y);
    }
    char what[96];
    snprintf(what, sizeof what, "%s batch (%s, %zu messages, results %s the arena)", op, kind, n,
             results_off == NO_RESULTS_IN_ARENA ? "outside" : "inside");
    check_memory(a, b, ARENA, what);
}

/* Open trials: seal each message in place (its ciphertext into in, its tag into tag), then tamper. */
static void seal_for_open(const vg_aes_gcm_key *k, const vg_aes_gcm_batch_msg *m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        vg_aes_gcm_batch_msg s = m[i];
        s.out = writable(m[i].in);
        (void)one_shot(k, &s, 0); /* refused ones stay random: their open is refused the same way */
        if (vgt_rand_below(4)) continue;
        size_t vn;
        uint8_t *victim = buffer_of(&m[i], (int[]){ BUF_IN, BUF_TAG, BUF_AAD, BUF_NONCE }[vgt_rand_below(4)], &vn);
        if (victim && vn) victim[vgt_rand_below(vn)] ^= (uint8_t)(1u << vgt_rand_below(8));
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Random trials                                                                                   */

static void mixed_trial(const vg_aes_gcm_key *k, uint8_t *a, uint8_t *b, int open, int tangled, size_t n)
{
    static vg_aes_gcm_batch_msg m[MAX_MSGS];
    vgt_rand_bytes(a, ARENA);
    size_t top = 0;
    for (size_t i = 0; i < n; i++) {
        memset(&m[i], 0, sizeof m[i]);
        m[i].nonce_len = pick_nonce_len();
        m[i].aad_len = vgt_rand_below(4) ? vgt_rand_below(70) : 0;
        m[i].len = pick_len();
        if (tangled && m[i].len > 600) m[i].len = vgt_rand_below(600);
        m[i].tag_len = pick_tag_len();
        m[i].nonce = place(a, &top, m[i].nonce_len, tangled);
        m[i].aad = place(a, &top, m[i].aad_len, tangled);
        m[i].in = place(a, &top, m[i].len, tangled);
        m[i].out = vgt_rand_below(3) == 0 ? writable(m[i].in) : place(a, &top, m[i].len, tangled);
        m[i].tag = place(a, &top, m[i].tag_len, tangled);
        /* a few NULLs: accepted with a zero length, VG_ERR_ARG otherwise */
        if (vgt_rand_below(40) == 0) m[i].aad = NULL;
        if (vgt_rand_below(60) == 0) m[i].in = NULL;
        if (vgt_rand_below(60) == 0) m[i].out = NULL;
        if (vgt_rand_below(80) == 0) m[i].tag = NULL;
        if (vgt_rand_below(80) == 0) m[i].nonce = NULL;
    }
    size_t results_off = NO_RESULTS_IN_ARENA;
    if (vgt_rand_below(2))
        results_off = tangled ? sizeof(int) * vgt_rand_below(TANGLED_ARENA / sizeof(int)) : place_results(&top, n);
    if (open) seal_for_open(k, m, n);
    differential(k, a, b, m, n, results_off, open, tangled ? "mixed, tangled" : "mixed, separate");
}

/* Makes message w's writer (its out, or its tag) overlap exactly one buffer of message r = w + 1:
   that buffer moves to a fresh zone of the arena, and the writer to a random overlapping spot in it. */
static void writer_over_next(vg_aes_gcm_batch_msg *w, vg_aes_gcm_batch_msg *r, uint8_t *a, size_t *top)
{
    int use_tag = (int)vgt_rand_below(2);
    size_t wn = use_tag ? w->tag_len : w->len, xn;
    int which = (int)vgt_rand_below(BUF_COUNT);
    if (!buffer_of(r, which, &xn) || xn == 0 || wn == 0) return;
    uint8_t *zone = place(a, top, wn + xn + wn, 0);
    move_buffer(r, which, zone + wn);
    uint8_t *spot = zone + 1 + vgt_rand_below(wn + xn - 1); /* [zone + 1, zone + wn + xn - 1]: overlaps */
    if (use_tag) {
        w->tag = spot;
    } else {
        if (w->in == w->out && vgt_rand_below(2)) w->in = spot; /* stays in place half the time */
        w->out = spot;
    }
}

static void runs_trial(const vg_aes_gcm_key *k, uint8_t *a, uint8_t *b, int open, size_t n)
{
    static vg_aes_gcm_batch_msg m[MAX_MSGS];
    vgt_rand_bytes(a, ARENA);
    size_t top = 0, run_left = 0, len = 0, aad_len = 0;
    for (size_t i = 0; i < n; i++) {
        if (run_left == 0) {
            len = pick_small_len();
            aad_len = pick_small_aad_len();
            run_left = 2 + vgt_rand_below(6);
        }
        run_left--;
        m[i] = (vg_aes_gcm_batch_msg){ .nonce_len = 12, .aad_len = aad_len, .len = len, .tag_len = 16 };
        switch (vgt_rand_below(16)) { /* one unlike message breaks the pairing there */
        case 0: m[i].nonce_len = vgt_rand_below(2) ? 0 : 8; break; /* refused, or another nonce length */
        case 1: m[i].tag_len = vgt_rand_below(2) ? 5 : 12; break; /* refused, or a shorter tag */
        case 2: m[i].len += 1 + vgt_rand_below(16); break;
        default: break;
        }
        m[i].nonce = place(a, &top, m[i].nonce_len, 0);
        m[i].aad = place(a, &top, m[i].aad_len, 0);
        m[i].in = place(a, &top, m[i].len, 0);
        m[i].out = vgt_rand_below(3) == 0 ? writable(m[i].in) : place(a, &top, m[i].len, 0);
        m[i].tag = place(a, &top, m[i].tag_len, 0);
        if (m[i].len >= 2 && vgt_rand_below(16) == 0) { /* in and out partly overlapping: VG_ERR_ARG */
            uint8_t *zone = place(a, &top, 2 * m[i].len, 0);
            size_t d = 1 + vgt_rand_below(m[i].len - 1);
            int out_first = (int)vgt_rand_below(2);
            m[i].in = out_first ? zone + d : zone;
            m[i].out = out_first ? zone : zone + d;
        }
    }
    for (size_t i = 0; i + 1 < n; i++)
        if (vgt_rand_below(3) == 0) writer_over_next(&m[i], &m[i + 1], a, &top);

    /* results[]: outside, apart, or results[i] over a byte of one of message i + 1's buffers (now
       and then message i's own), results[] then starting 4 i bytes before it, if that fits */
    size_t results_off = NO_RESULTS_IN_ARENA;
    switch (vgt_rand_below(4)) {
    case 0: break;
    case 1: results_off = place_results(&top, n); break;
    default:
        results_off = place_results(&top, n);
        if (n >= 2) {
            size_t i = vgt_rand_below(n - 1), xn;
            const vg_aes_gcm_batch_msg *victim = &m[vgt_rand_below(4) == 0 ? i : i + 1];
            uint8_t *x = buffer_of(victim, (int)vgt_rand_below(BUF_COUNT), &xn);
            if (x && xn) {
                size_t byte = (size_t)(x - a) + vgt_rand_below(xn);
                size_t at = byte / sizeof(int) * sizeof(int);
                if (at >= i * sizeof(int) && at - i * sizeof(int) + n * sizeof(int) <= ARENA)
                    results_off = at - i * sizeof(int);
            }
        }
        break;
    }
    if (open) seal_for_open(k, m, n);
    differential(k, a, b, m, n, results_off, open, "runs");
}

/* ---------------------------------------------------------------------------------------------- */
/* msgs[] inside the arena                                                                         */

/* Two like messages, pair-eligible as far as lengths go: 12-byte nonce, 16-byte tag, len 72 (the
   descriptor's size, so that an out can cover a descriptor exactly), no AAD (the pair then needs 6
   blocks). Buffers from base on, in place: nonce, in (= out), tag. */
static vg_aes_gcm_batch_msg like_message(uint8_t *base)
{
    return (vg_aes_gcm_batch_msg){ .nonce = base, .nonce_len = 12, .aad = NULL, .aad_len = 0, .in = base + 16,
                                   .len = sizeof(vg_aes_gcm_batch_msg), .out = base + 16,
                                   .tag = base + 16 + sizeof(vg_aes_gcm_batch_msg), .tag_len = 16 };
}

_Static_assert(sizeof(vg_aes_gcm_batch_msg) == 72, "the descriptor tests size an out to cover a descriptor");

/* A message reads a descriptor an earlier one wrote, deterministically: message 0 is an open with a
   forged tag whose out is msgs[1] exactly, so the loop zeroes msgs[1] before message 1 is read, and
   message 1 (nonce NULL, nonce_len 0) gets VG_ERR_NONCE_LENGTH. Otherwise the two are a pair the
   kernel would take. The oracle is the loop on arena b with its own descriptors there. */
static void forged_open_zeroes_next_descriptor(const vg_aes_gcm_key *k, uint8_t *a, uint8_t *b)
{
    const size_t msgs_off = 4096, results_off = 4096 + 3 * sizeof(vg_aes_gcm_batch_msg);
    vgt_rand_bytes(a, ARENA);
    vg_aes_gcm_batch_msg m[3] = { like_message(a + 256), like_message(a + 512), like_message(a + 768) };
    for (int i = 0; i < 3; i++) /* authentic */
        CHECK(one_shot(k, &m[i], 0) == VG_OK, "descriptor test: sealing message %d", i);
    m[0].tag[3] ^= 0x10; /* forged */
    memcpy(b, a, ARENA);
    vg_aes_gcm_batch_msg *da = (vg_aes_gcm_batch_msg *)(void *)(a + msgs_off);
    vg_aes_gcm_batch_msg *db = (vg_aes_gcm_batch_msg *)(void *)(b + msgs_off);
    for (int i = 0; i < 3; i++) {
        da[i] = m[i];
        db[i] = (vg_aes_gcm_batch_msg){ rebase(m[i].nonce, a, b), 12, NULL, 0, rebase(m[i].in, a, b), m[i].len,
                                        writable(rebase(m[i].out, a, b)), writable(rebase(m[i].tag, a, b)), 16 };
    }
    da[0].out = (uint8_t *)&da[1];
    db[0].out = (uint8_t *)&db[1];
    vg_aes_gcm_batch_msg da0 = da[0], da2 = da[2], db0 = db[0], db2 = db[2];
    int *ra = (int *)(void *)(a + results_off), *rb = (int *)(void *)(b + results_off);

    int want = loop_of_one_shots(k, db, 3, rb, 1);
    int got = vg_aes_gcm_open_batch(k, da, 3, ra);
    /* what the loop must have done, so that this test tests what it says */
    CHECK(want == VG_ERR_AUTH && rb[0] == VG_ERR_AUTH && rb[1] == VG_ERR_NONCE_LENGTH && rb[2] == VG_OK &&
              vgt_all_zero((const uint8_t *)&db[1], sizeof db[1]),
          "descriptor test: the loop gave %d (%d %d %d)", want, rb[0], rb[1], rb[2]);
    CHECK(got == want, "forged open over the next descriptor: batch returned %d, the loop %d", got, want);
    for (int i = 0; i < 3; i++)
        CHECK(ra[i] == rb[i], "forged open over the next descriptor: results[%d] %d, the loop's %d", i, ra[i], rb[i]);
    CHECK(vgt_all_zero((const uint8_t *)&da[1], sizeof da[1]), "forged open over the next descriptor: msgs[1] zeroed");
    /* msgs[0] and msgs[2] differ between the arenas (pointers into each): each compared to what it
       was, and the rest of the arenas whole */
    CHECK(memcmp(&da[0], &da0, sizeof da0) == 0 && memcmp(&db[0], &db0, sizeof db0) == 0 &&
              memcmp(&da[2], &da2, sizeof da2) == 0 && memcmp(&db[2], &db2, sizeof db2) == 0,
          "forged open over the next descriptor: msgs[0] and msgs[2] unchanged");
    const size_t size = sizeof(vg_aes_gcm_batch_msg);
    check_memory(a, b, msgs_off, "forged open over the next descriptor: the arena before msgs[]");
    check_memory(a + msgs_off + size, b + msgs_off + size, size, "forged open over the next descriptor: msgs[1]");
    check_memory(a + msgs_off + 3 * size, b + msgs_off + 3 * size, ARENA - msgs_off - 3 * size,
                 "forged open over the next descriptor: the arena after msgs[]");
}

/* The differential with msgs[] and results[] inside the first `region` bytes of arena a, and the
   oracle run on a itself (pointers stay valid): a is saved to snapshot, the loop runs, its memory is
   kept in loop_memory, a is restored and the batch runs. */
static void in_place_differential(const vg_aes_gcm_key *k, uint8_t *a, uint8_t *snapshot, uint8_t *loop_memory,
                                  size_t region, const vg_aes_gcm_batch_msg *msgs, size_t n, int *results, int open,
                                  const char *what)
{
    memcpy(snapshot, a, region);
    int want = loop_of_one_shots(k, msgs, n, results, open);
    memcpy(loop_memory, a, region);
    memcpy(a, snapshot, region);
    int got = batch(k, msgs, n, results, open);
    CHECK(got == want, "%s: batch returned %d, the loop %d", what, got, want);
    check_memory(a, loop_memory, region, what);
}

/* Three descriptor layouts the loop resolves by order, each checked against the loop on the same
   memory: message 0 an authentic open whose plaintext is a new descriptor for message 1 (other
   buffers, same lengths) and whose out is msgs[1]; message 0 a seal whose tag lands on msgs[1]'s
   tag pointer and tag_len (a random tag_len: message 1 is refused before it reads the tag, save with
   odds of 2^-61 of a valid length); results[0] over
   msgs[1].nonce_len (on a little-endian machine message 0's VG_OK makes it 0). */
static void descriptors_written_by_earlier_messages(const vg_aes_gcm_key *k, uint8_t *a, uint8_t *b, uint8_t *c)
{
    const size_t region = 8192, msgs_off = 4096;
    vg_aes_gcm_batch_msg *d = (vg_aes_gcm_batch_msg *)(void *)(a + msgs_off);
    int *results = (int *)(void *)(a + msgs_off + 3 * sizeof *d);
    /* an authentic open writes message 1's descriptor anew */
    vgt_rand_bytes(a, region);
    vg_aes_gcm_batch_msg m[3] = { like_message(a + 256), like_message(a + 512), like_message(a + 768) };
    vg_aes_gcm_batch_msg renewed = like_message(a + 1024);
    for (int i = 1; i < 3; i++) CHECK(one_shot(k, &m[i], 0) == VG_OK, "descriptor tests: sealing %d", i);
    CHECK(one_shot(k, &renewed, 0) == VG_OK, "descriptor tests: sealing the renewed message 1");
    memcpy(writable(m[0].in), &renewed, sizeof renewed); /* message 0's plaintext: the new descriptor */
    CHECK(one_shot(k, &m[0], 0) == VG_OK, "descriptor tests: sealing message 0");
    memcpy(d, m, sizeof m);
    d[0].in = a + 1280; /* not in place: its ciphertext moves, so that its out is msgs[1] alone */
    memcpy(a + 1280, m[0].in, m[0].len);
    d[0].out = (uint8_t *)&d[1];
    in_place_differential(k, a, b, c, region, d, 3, results, 1, "an authentic open writes the next descriptor");
    CHECK(results[0] == VG_OK && results[1] == VG_OK && memcmp(&d[1], &renewed, sizeof renewed) == 0,
          "an authentic open writes the next descriptor: message 0 wrote it (%d), message 1 used it (%d)",
          results[0], results[1]);

    /* a seal's tag over msgs[1].tag and msgs[1].tag_len, its last 16 bytes */
    vgt_rand_bytes(a, region);
    m[0] = like_message(a + 256);
    m[1] = like_message(a + 512);
    m[2] = like_message(a + 768);
    memcpy(d, m, sizeof m);
    d[0].tag = (uint8_t *)&d[1] + offsetof(vg_aes_gcm_batch_msg, tag);
    in_place_differential(k, a, b, c, region, d, 3, results, 0, "a seal's tag over the next descriptor");
    CHECK(results[0] == VG_OK && results[1] == VG_ERR_TAG_LENGTH && results[2] == VG_OK,
          "a seal's tag over the next descriptor: %d %d %d", results[0], results[1], results[2]);

    /* results[0] over msgs[1].nonce_len */
    for (int open = 0; open < 2; open++) {
        vgt_rand_bytes(a, region);
        vg_aes_gcm_batch_msg mm[3] = { like_message(a + 256), like_message(a + 512), like_message(a + 768) };
        if (open)
            for (int i = 0; i < 3; i++) CHECK(one_shot(k, &mm[i], 0) == VG_OK, "descriptor tests: sealing %d", i);
        memcpy(d, mm, sizeof mm);
        int *over = (int *)(void *)((uint8_t *)&d[1] + offsetof(vg_aes_gcm_batch_msg, nonce_len));
        in_place_differential(k, a, b, c, region, d, 3, over, open, "results[0] over the next descriptor");
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Batch-wide errors                                                                               */

/* VG_ERR_ARG, and nothing written: the arena (results[] in it) as it was. */
static void batch_errors(const vg_aes_gcm_key *k, uint8_t *a, uint8_t *b)
{
    static vg_aes_gcm_batch_msg m[4];
    for (int open = 0; open < 2; open++) {
        const char *op = open ? "open" : "seal";
        vgt_rand_bytes(a, ARENA);
        size_t top = 0;
        for (size_t i = 0; i < 4; i++) {
            m[i] = (vg_aes_gcm_batch_msg){ .nonce_len = 12, .aad_len = 5, .len = 40, .tag_len = 16 };
            m[i].nonce = place(a, &top, 12, 0);
            m[i].aad = place(a, &top, 5, 0);
            m[i].in = place(a, &top, 40, 0);
            m[i].out = place(a, &top, 40, 0);
            m[i].tag = place(a, &top, 16, 0);
        }
        int *r = (int *)(void *)(a + place_results(&top, 4));
        memcpy(b, a, ARENA);

        vg_aes_gcm_key zeroed, wiped;
        memset(&zeroed, 0, sizeof zeroed);
        memcpy(&wiped, k, sizeof wiped);
        vg_aes_gcm_key_wipe(&wiped);
        int rc;
        rc = batch(NULL, m, 4, r, open);
        CHECK(rc == VG_ERR_ARG, "%s batch with no key: %d", op, rc);
        rc = batch(NULL, NULL, 0, NULL, open);
        CHECK(rc == VG_ERR_ARG, "%s batch of nothing with no key: %d", op, rc);
        rc = batch(&zeroed, m, 4, r, open);
        CHECK(rc == VG_ERR_ARG, "%s batch with a zeroed key: %d", op, rc);
        rc = batch(&wiped, m, 4, r, open);
        CHECK(rc == VG_ERR_ARG, "%s batch with a wiped key: %d", op, rc);
        rc = batch(k, NULL, 4, r, open);
        CHECK(rc == VG_ERR_ARG, "%s batch with msgs NULL: %d", op, rc);
        rc = batch(k, m, 4, NULL, open);
        CHECK(rc == VG_ERR_ARG, "%s batch with results NULL: %d", op, rc);
        rc = batch(k, NULL, 1, NULL, open);
        CHECK(rc == VG_ERR_ARG, "%s batch of one with both arrays NULL: %d", op, rc);
        rc = batch(k, NULL, 0, NULL, open);
        CHECK(rc == VG_OK, "%s batch of nothing, NULL arrays: %d", op, rc);
        rc = batch(k, m, 0, r, open);
        CHECK(rc == VG_OK, "%s batch of nothing: %d", op, rc);
        check_memory(a, b, ARENA, open ? "open batch: memory (results[] included) after refused or empty calls"
                                       : "seal batch: memory (results[] included) after refused or empty calls");
    }
}

int main(int argc, char **argv)
{
    vgt_init(argc, argv);
    uint8_t *a = vgt_xmalloc(ARENA), *b = vgt_xmalloc(ARENA), *c = vgt_xmalloc(ARENA);
    static const size_t key_lens[] = { 16, 24, 32 };
    size_t mixed_trials = vgt_quick() ? 40 : 300, runs_trials = vgt_quick() ? 120 : 1000;
    for (size_t kl = 0; kl < 3; kl++) {
        uint8_t key[32];
        vgt_rand_bytes(key, sizeof key);
        vg_aes_gcm_key k;
        CHECK(vg_aes_gcm_init(&k, key, key_lens[kl]) == VG_OK, "gcm init");
        for (size_t t = 0; t < mixed_trials; t++, trial_number++) {
            size_t n = t % 7 == 0 ? vgt_rand_below(3) : vgt_rand_below(MAX_MSGS + 1);
            mixed_trial(&k, a, b, (int)(t & 1), t % 4 >= 2, n);
        }
        for (size_t t = 0; t < runs_trials; t++, trial_number++)
            runs_trial(&k, a, b, (int)(t & 1), t % 5 == 0 ? 2 + vgt_rand_below(3) : 2 + vgt_rand_below(MAX_MSGS - 1));
        forged_open_zeroes_next_descriptor(&k, a, b);
        descriptors_written_by_earlier_messages(&k, a, b, c);
        batch_errors(&k, a, b);
        vg_aes_gcm_key_wipe(&k);
    }
    free(a);
    free(b);
    free(c);
    return vgt_finish();
}
