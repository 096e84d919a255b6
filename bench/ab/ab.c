/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * ab.c — two builds of vg in one process: the "old" libvg.a with every global symbol renamed old_*
 * (bench/ab/ab.sh does that with objcopy) and the "new" one as is. Each case checks that both give the
 * same bytes, then times them alternately (the order swapped every round; thread CPU time; median of
 * the rounds), so both see the same machine state: on a shared VM whose speed moves between runs, a
 * change of a few percent is visible here when separate runs cannot show it. A benchmark, not a test.
 *
 *   ab ROUNDS KIND LEN KEY_BYTES    KIND: seal, open (one-shot), sstream, ostream (key set-up, stream
 *                                   init, 13 bytes of AAD, the data in one call, finish or verify),
 *                                   init (vg_aes_gcm_init alone, timed in ns; LEN is not used)
 * Environment: AAD=13 gives the one-shot calls TLS's 13 bytes of AAD; OFFSET=N puts the buffers N bytes
 * past a 64-byte boundary.
 * Prints one line: old and new GB/s, new/old (above 1: the new build is faster), and the median of the
 * rounds' own new/old ratios.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"
#include "vg.h"

#define OLD(f) old_##f
int OLD(vg_aes_gcm_init)(vg_aes_gcm_key *k, const uint8_t *key, size_t key_len);
int OLD(vg_aes_gcm_seal)(const vg_aes_gcm_key *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                         size_t aad_len, const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag, size_t tag_len);
int OLD(vg_aes_gcm_open)(const vg_aes_gcm_key *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                         size_t aad_len, const uint8_t *in, size_t len, const uint8_t *tag, size_t tag_len,
                         uint8_t *out);
int OLD(vg_aes_gcm_stream_init)(vg_aes_gcm_stream *s, const vg_aes_gcm_key *k, const uint8_t *nonce,
                                size_t nonce_len);
int OLD(vg_aes_gcm_stream_aad)(vg_aes_gcm_stream *s, const uint8_t *aad, size_t len);
int OLD(vg_aes_gcm_stream_encrypt)(vg_aes_gcm_stream *s, const uint8_t *in, size_t len, uint8_t *out);
int OLD(vg_aes_gcm_stream_decrypt)(vg_aes_gcm_stream *s, const uint8_t *in, size_t len, uint8_t *out);
int OLD(vg_aes_gcm_stream_finish)(vg_aes_gcm_stream *s, uint8_t *tag, size_t tag_len);
int OLD(vg_aes_gcm_stream_verify)(vg_aes_gcm_stream *s, const uint8_t *tag, size_t tag_len);

/* One build's entry points, so that the timed loop is written once. */
struct build {
    int (*init)(vg_aes_gcm_key *, const uint8_t *, size_t);
    int (*seal)(const vg_aes_gcm_key *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *, size_t,
                uint8_t *, uint8_t *, size_t);
    int (*open)(const vg_aes_gcm_key *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *, size_t,
                const uint8_t *, size_t, uint8_t *);
    int (*s_init)(vg_aes_gcm_stream *, const vg_aes_gcm_key *, const uint8_t *, size_t);
    int (*s_aad)(vg_aes_gcm_stream *, const uint8_t *, size_t);
    int (*s_enc)(vg_aes_gcm_stream *, const uint8_t *, size_t, uint8_t *);
    int (*s_dec)(vg_aes_gcm_stream *, const uint8_t *, size_t, uint8_t *);
    int (*s_fin)(vg_aes_gcm_stream *, uint8_t *, size_t);
    int (*s_ver)(vg_aes_gcm_stream *, const uint8_t *, size_t);
};
static const struct build builds[2] = {
    { OLD(vg_aes_gcm_init), OLD(vg_aes_gcm_seal), OLD(vg_aes_gcm_open), OLD(vg_aes_gcm_stream_init),
      OLD(vg_aes_gcm_stream_aad), OLD(vg_aes_gcm_stream_encrypt), OLD(vg_aes_gcm_stream_decrypt),
      OLD(vg_aes_gcm_stream_finish), OLD(vg_aes_gcm_stream_verify) },
    { vg_aes_gcm_init, vg_aes_gcm_seal, vg_aes_gcm_open, vg_aes_gcm_stream_init, vg_aes_gcm_stream_aad,
      vg_aes_gcm_stream_encrypt, vg_aes_gcm_stream_decrypt, vg_aes_gcm_stream_finish, vg_aes_gcm_stream_verify },
};

enum kind { SEAL, OPEN, SSTREAM, OSTREAM, INIT };
static const uint8_t key[32] = { 1 }, nonce[12] = { 2 }, aad[13] = { 3 };
static size_t aad_len; /* the one-shot calls' AAD: AAD=13 in the environment for TLS's, else none */
static vg_aes_gcm_key keys[2];
static vg_aes_gcm_stream stream;
static size_t key_len;

/* One message; the plaintext is pt, its sealing ct and tag (open and verify succeed). */
static int one(const struct build *b, vg_aes_gcm_key *k, enum kind kind, const uint8_t *pt, const uint8_t *ct,
               const uint8_t *tag, uint8_t *out, uint8_t *tag_out, size_t len)
{
    switch (kind) {
    case SEAL: return b->seal(k, nonce, 12, aad, aad_len, pt, len, out, tag_out, 16);
    case OPEN: return b->open(k, nonce, 12, aad, aad_len, ct, len, tag, 16, out);
    case INIT: return b->init(k, key, key_len);
    default: break;
    }
    /* (each call in its own statement: the operands of | are not sequenced) */
    int rc = b->init(k, key, key_len);
    rc |= b->s_init(&stream, k, nonce, 12);
    rc |= b->s_aad(&stream, aad, sizeof aad);
    rc |= kind == SSTREAM ? b->s_enc(&stream, pt, len, out) : b->s_dec(&stream, ct, len, out);
    rc |= kind == SSTREAM ? b->s_fin(&stream, tag_out, 16) : b->s_ver(&stream, tag, 16);
    return rc;
}

static double now(void) { return bench_seconds(CLOCK_THREAD_CPUTIME_ID); }

int main(int argc, char **argv)
{
    static const char *names[] = { "seal", "open", "sstream", "ostream", "init" };
    if (argc != 5) {
        fprintf(stderr, "usage: ab ROUNDS seal|open|sstream|ostream|init LEN KEY_BYTES\n");
        return 2;
    }
    int rounds = atoi(argv[1]);
    enum kind kind = SEAL;
    while (kind <= INIT && strcmp(argv[2], names[kind]) != 0) kind++;
    size_t len = strtoul(argv[3], NULL, 0);
    key_len = strtoul(argv[4], NULL, 0);
    if (rounds < 1 || rounds > 999 || kind > INIT || len == 0) {
        fprintf(stderr, "ab: bad arguments\n");
        return 2;
    }
    /* buffers at 64-byte boundaries plus OFFSET (environment, default 0): what a zmm load meets */
    size_t off = getenv("OFFSET") ? strtoul(getenv("OFFSET"), NULL, 0) % 64 : 0;
    aad_len = getenv("AAD") && strcmp(getenv("AAD"), "13") == 0 ? sizeof aad : 0;
    uint8_t *buf = aligned_alloc(64, 4 * (len + 128)), tag[2][16], t[16];
    if (!buf) return 1;
    uint8_t *pt = buf + off, *ct[2] = { pt + len + 128, pt + 2 * (len + 128) }, *out = pt + 3 * (len + 128);
    double *times[2] = { malloc(sizeof(double) * (size_t)rounds), malloc(sizeof(double) * (size_t)rounds) };
    if (!times[0] || !times[1]) return 1;
    for (size_t i = 0; i < len; i++) pt[i] = (uint8_t)(i * 7 + 1);
    /* both builds must agree before anything is timed: seal, then each build's open and stream of it */
    for (int w = 0; w < 2; w++)
        if (builds[w].init(&keys[w], key, key_len) != VG_OK ||
            builds[w].seal(&keys[w], nonce, 12, aad, aad_len, pt, len, ct[w], tag[w], 16) != VG_OK) {
            fprintf(stderr, "ab: set-up failed\n");
            return 1;
        }
    if (memcmp(ct[0], ct[1], len) != 0 || memcmp(tag[0], tag[1], 16) != 0) {
        fprintf(stderr, "ab: the two builds' ciphertexts differ\n");
        return 1;
    }
    /* the streams hash 13 bytes of AAD: their tag is the sealing stream's */
    uint8_t *want_tag = tag[0];
    if (kind == OSTREAM) {
        if (one(&builds[0], &keys[0], SSTREAM, pt, ct[0], tag[0], out, tag[1], len) != VG_OK) return 1;
        want_tag = tag[1];
    }
    for (int w = 0; w < 2; w++)
        if (one(&builds[w], &keys[w], kind, pt, ct[0], want_tag, out, t, len) != VG_OK ||
            (kind != INIT && memcmp(out, kind == SEAL || kind == SSTREAM ? ct[0] : pt, len) != 0)) {
            fprintf(stderr, "ab: %s build gives wrong bytes\n", w ? "new" : "old");
            return 1;
        }
    int reps = (int)(100000000 / (len + 200)) + 1; /* about 5 ms a round at 20 GB/s */
    for (int r = 0; r < 2 * rounds; r++) {
        int w = (r & 1) ^ ((r >> 1) & 1); /* old new new old old new ... */
        double t0 = now();
        for (int i = 0; i < reps; i++)
            if (one(&builds[w], &keys[w], kind, pt, ct[0], want_tag, out, t, len) != VG_OK) abort();
        times[w][r / 2] = (now() - t0) / reps;
    }
    /* the median of the per-round ratios as well: a round's two timings are adjacent in time, so a
       change of the host's speed between rounds moves both */
    double *ratio = malloc(sizeof(double) * (size_t)rounds);
    if (!ratio) return 1;
    for (int r = 0; r < rounds; r++) ratio[r] = times[0][r] / times[1][r];
    double o = bench_median(times[0], rounds), n = bench_median(times[1], rounds), q = bench_median(ratio, rounds);
    if (kind == INIT)
        printf("AES-%zu-GCM init: old %7.2f ns  new %7.2f ns  new/old speed %.3f  (per round %.3f)\n", key_len * 8,
               o * 1e9, n * 1e9, o / n, q);
    else
        printf("AES-%zu-GCM %-7s %7zu B%s: old %7.3f GB/s  new %7.3f GB/s  new/old %.3f  (per round %.3f)\n", key_len * 8,
               names[kind], len, aad_len ? " + 13 B AAD" : "", (double)len / o / 1e9, (double)len / n / 1e9, o / n, q);
    return 0;
}
