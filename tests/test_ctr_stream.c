/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * test_ctr_stream.c — AES-CTR as a byte stream (vg_aes_ctr_stream_*).
 *
 * The reference is one-shot vg_aes_ctr32 (itself checked against the spec in test_aes, and here
 * against spec_aes_ctr32 too) over the message padded with zeros to whole blocks: the stream must give
 * the same bytes however the message is cut into calls.
 *
 *   every split     for each length 0..MAX_SPLIT_LEN, one cut at every offset (two calls)
 *   multi-splits    random cuts into many calls (zero-length calls included), in place and not,
 *                   at random offsets from an aligned base
 *   wrap            a counter just below 2^32 carried across calls
 *   bad args        NULL stream/key/counter, key never set up, uninitialised or wiped stream,
 *                   NULL buffer with len > 0, partial overlap: VG_ERR_ARG and nothing written
 *                   (the stream goes on exactly as if the bad call had not been made)
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "spec.h"

#define MAX_LEN 4096
#define GUARD 32
#define GUARD_BYTE 0xC3

static _Alignas(64) uint8_t arena[GUARD + 16 + MAX_LEN + GUARD];
static uint8_t msg[MAX_LEN + 16], want[MAX_LEN + 16];

/* want = msg XOR keystream from counter, via the spec (the padded one-shot); also checks the library's
   one-shot vg_aes_ctr32 gives the same. */
static void reference(const vg_aes_key *k, const uint8_t *key, size_t key_len, const uint8_t counter[16],
                      size_t len)
{
    size_t nb = (len + 15) / 16;
    static uint8_t padded[MAX_LEN + 16], lib[MAX_LEN + 16];
    memset(padded, 0, nb * 16);
    memcpy(padded, msg, len);
    uint8_t c1[16], c2[16];
    memcpy(c1, counter, 16);
    memcpy(c2, counter, 16);
    spec_aes_ctr32(key, key_len, c1, padded, want, nb);
    CHECK(vg_aes_ctr32(k, c2, padded, lib, nb) == VG_OK, "ctr32");
    CHECK_BYTES(lib, want, nb * 16, "one-shot vg_aes_ctr32 vs spec, len %zu", len);
}

static int guards_ok(const uint8_t *out, size_t len)
{
    size_t before = (size_t)(out - arena);
    for (size_t i = 0; i < before; i++)
        if (arena[i] != GUARD_BYTE) return 0;
    for (const uint8_t *p = out + len; p < arena + sizeof arena; p++)
        if (*p != GUARD_BYTE) return 0;
    return 1;
}

#define MAX_SPLIT_LEN 100

static void test_every_split(void)
{
    static const size_t key_sizes[3] = {16, 24, 32};
    uint8_t key[32], ctr[16];
    vg_aes_key k;
    for (size_t len = 0; len <= MAX_SPLIT_LEN; len++) {
        if (vgt_quick() && len > 40 && len % 5 != 0) continue;
        size_t key_len = key_sizes[len % 3];
        vgt_rand_bytes(key, key_len);
        vgt_rand_bytes(ctr, 16);
        vgt_rand_bytes(msg, len);
        CHECK(vg_aes_expand_key(&k, key, key_len) == VG_OK, "expand_key");
        reference(&k, key, key_len, ctr, len);
        for (size_t cut = 0; cut <= len; cut++) {
            vg_aes_ctr_stream s;
            memset(arena, GUARD_BYTE, sizeof arena);
            uint8_t *out = arena + GUARD + (cut % 16);
            CHECK(vg_aes_ctr_stream_init(&s, &k, ctr) == VG_OK, "stream init");
            CHECK(vg_aes_ctr_stream_xor(&s, msg, out, cut) == VG_OK, "xor first part");
            CHECK(vg_aes_ctr_stream_xor(&s, msg + cut, out + cut, len - cut) == VG_OK, "xor second part");
            CHECK_BYTES(out, want, len, "len %zu cut at %zu", len, cut);
            CHECK(guards_ok(out, len), "len %zu cut at %zu: wrote outside out", len, cut);
            vg_aes_ctr_stream_wipe(&s);
        }
        /* every pair of cuts for the short ones: three calls */
        if (len <= 40 && !vgt_quick())
            for (size_t c1 = 0; c1 <= len; c1++)
                for (size_t c2 = c1; c2 <= len; c2++) {
                    vg_aes_ctr_stream s;
                    uint8_t out[64];
                    CHECK(vg_aes_ctr_stream_init(&s, &k, ctr) == VG_OK, "ctr_stream_init");
                    CHECK(vg_aes_ctr_stream_xor(&s, msg, out, c1) == VG_OK, "ctr_stream_xor");
                    CHECK(vg_aes_ctr_stream_xor(&s, msg + c1, out + c1, c2 - c1) == VG_OK, "ctr_stream_xor");
                    CHECK(vg_aes_ctr_stream_xor(&s, msg + c2, out + c2, len - c2) == VG_OK, "ctr_stream_xor");
                    CHECK_BYTES(out, want, len, "len %zu cuts at %zu, %zu", len, c1, c2);
                }
    }
}

/* Random cuts: chunk lengths mostly small (0..40), sometimes a few blocks, sometimes large. */
static size_t random_chunk(size_t left)
{
    size_t r = vgt_rand_below(10), c;
    if (r < 6) c = vgt_rand_below(41);
    else if (r < 9) c = vgt_rand_below(200);
    else c = vgt_rand_below(MAX_LEN);
    return c < left ? c : left;
}

static void test_multi_split(void)
{
    uint8_t key[32], ctr[16];
    vg_aes_key k;
    int trials = vgt_quick() ? 60 : 600;
    for (int t = 0; t < trials; t++) {
        size_t key_len = 16 + 8 * vgt_rand_below(3);
        size_t len = t < 50 ? vgt_rand_below(300) : vgt_rand_below(MAX_LEN + 1);
        int in_place = t % 3 == 0;
        size_t off = vgt_rand_below(16);
        vgt_rand_bytes(key, key_len);
        vgt_rand_bytes(ctr, 16);
        if (t % 4 == 1) { ctr[12] = ctr[13] = ctr[14] = 0xFF; ctr[15] = (uint8_t)(0xFF - vgt_rand_below(8)); }
        vgt_rand_bytes(msg, len);
        CHECK(vg_aes_expand_key(&k, key, key_len) == VG_OK, "expand_key");
        reference(&k, key, key_len, ctr, len);

        memset(arena, GUARD_BYTE, sizeof arena);
        uint8_t *out = arena + GUARD + off;
        const uint8_t *in = msg;
        if (in_place) { memcpy(out, msg, len); in = out; }
        vg_aes_ctr_stream s;
        CHECK(vg_aes_ctr_stream_init(&s, &k, ctr) == VG_OK, "ctr_stream_init");
        size_t done = 0, calls = 0;
        while (done < len || calls == 0) {
            size_t c = random_chunk(len - done);
            int rc = vg_aes_ctr_stream_xor(&s, in + done, out + done, c);
            if (!CHECK(rc == VG_OK, "xor chunk %zu at %zu: %d", c, done, rc)) break;
            done += c;
            calls++;
            if (calls > 100000) break;
        }
        CHECK_BYTES(out, want, len, "trial %d: len %zu in %zu calls%s off %zu", t, len, calls,
                    in_place ? " in place" : "", off);
        CHECK(guards_ok(out, len), "trial %d: wrote outside out", t);
        vg_aes_ctr_stream_wipe(&s);
    }
}

/* The counter crosses 2^32 in the middle of a call, at a call boundary, and inside a partial block
   kept across calls. Reference blocks are built by hand here: E(prefix || (w0 + i mod 2^32)). */
static void test_wrap(void)
{
    uint8_t key[16], ctr[16], blk[16];
    vgt_rand_bytes(key, 16);
    vg_aes_key k;
    CHECK(vg_aes_expand_key(&k, key, 16) == VG_OK, "expand_key");
    for (uint32_t d = 0; d < 4; d++)
        for (size_t first = 0; first <= 40; first += vgt_quick() ? 7 : 1) {
            size_t len = 100;
            vgt_rand_bytes(ctr, 12);
            uint32_t w0 = 0xFFFFFFFFu - d;
            ctr[12] = (uint8_t)(w0 >> 24); ctr[13] = (uint8_t)(w0 >> 16); ctr[14] = (uint8_t)(w0 >> 8); ctr[15] = (uint8_t)w0;
            vgt_rand_bytes(msg, len);
            for (size_t i = 0; i * 16 < len; i++) {
                uint8_t cb[16];
                uint32_t w = w0 + (uint32_t)i;
                memcpy(cb, ctr, 12);
                cb[12] = (uint8_t)(w >> 24); cb[13] = (uint8_t)(w >> 16); cb[14] = (uint8_t)(w >> 8); cb[15] = (uint8_t)w;
                spec_aes_encrypt_block(key, 16, cb, blk);
                for (size_t j = 0; j < 16 && 16 * i + j < len; j++) want[16 * i + j] = msg[16 * i + j] ^ blk[j];
            }
            vg_aes_ctr_stream s;
            uint8_t out[100];
            CHECK(vg_aes_ctr_stream_init(&s, &k, ctr) == VG_OK, "ctr_stream_init");
            CHECK(vg_aes_ctr_stream_xor(&s, msg, out, first) == VG_OK, "ctr_stream_xor");
            CHECK(vg_aes_ctr_stream_xor(&s, msg + first, out + first, 7) == VG_OK, "ctr_stream_xor");
            CHECK(vg_aes_ctr_stream_xor(&s, msg + first + 7, out + first + 7, len - first - 7) == VG_OK, "ctr_stream_xor");
            CHECK_BYTES(out, want, len, "wrap d=%u first call %zu", (unsigned)d, first);
        }
}

static void test_bad_args(void)
{
    uint8_t key[16], ctr[16], pattern[sizeof(vg_aes_ctr_stream)];
    vgt_rand_bytes(key, 16);
    vgt_rand_bytes(ctr, 16);
    vgt_rand_bytes(pattern, sizeof pattern);
    vg_aes_key k, zeroed, wiped;
    CHECK(vg_aes_expand_key(&k, key, 16) == VG_OK, "expand_key");
    memset(&zeroed, 0, sizeof zeroed);
    CHECK(vg_aes_expand_key(&wiped, key, 16) == VG_OK, "expand_key");
    vg_aes_key_wipe(&wiped);
    vg_aes_ctr_stream s;

    /* init: VG_ERR_ARG and the stream untouched */
    const vg_aes_key *bad_keys[3] = {NULL, &zeroed, &wiped};
    for (int b = 0; b < 3; b++) {
        memcpy(&s, pattern, sizeof s);
        CHECK(vg_aes_ctr_stream_init(&s, bad_keys[b], ctr) == VG_ERR_ARG, "init with bad key %d", b);
        CHECK(memcmp(&s, pattern, sizeof s) == 0, "init with bad key %d touched the stream", b);
    }
    memcpy(&s, pattern, sizeof s);
    CHECK(vg_aes_ctr_stream_init(&s, &k, NULL) == VG_ERR_ARG, "init NULL counter");
    CHECK(memcmp(&s, pattern, sizeof s) == 0, "init NULL counter touched the stream");
    CHECK(vg_aes_ctr_stream_init(NULL, &k, ctr) == VG_ERR_ARG, "init NULL stream");

    /* xor on a stream never initialised (zeroed, garbage), on NULL, on a wiped stream */
    uint8_t in[64], out[64], snap[64];
    vgt_rand_bytes(in, 64);
    memset(out, 0x11, 64);
    memset(&s, 0, sizeof s);
    CHECK(vg_aes_ctr_stream_xor(&s, in, out, 20) == VG_ERR_ARG, "xor on a zeroed stream");
    memcpy(&s, pattern, sizeof s);
    CHECK(vg_aes_ctr_stream_xor(&s, in, out, 20) == VG_ERR_ARG, "xor on a garbage stream");
    CHECK(vg_aes_ctr_stream_xor(NULL, in, out, 20) == VG_ERR_ARG, "xor on NULL");
    CHECK(out[0] == 0x11 && out[19] == 0x11, "xor on a bad stream wrote");
    CHECK(vg_aes_ctr_stream_init(&s, &k, ctr) == VG_OK, "ctr_stream_init");
    vg_aes_ctr_stream_wipe(&s);
    CHECK(vgt_all_zero((const uint8_t *)&s, sizeof s), "wipe left non-zero bytes");
    CHECK(vg_aes_ctr_stream_xor(&s, in, out, 20) == VG_ERR_ARG, "xor on a wiped stream");
    CHECK(out[0] == 0x11 && out[19] == 0x11, "xor on a wiped stream wrote");
    vg_aes_ctr_stream_wipe(NULL);

    /* Bad calls in the middle of a stream change nothing: the stream then continues exactly as the
       reference. 5 bytes in, so a partial keystream block is pending. */
    memcpy(msg, in, 64);
    reference(&k, key, 16, ctr, 64);
    CHECK(vg_aes_ctr_stream_init(&s, &k, ctr) == VG_OK, "ctr_stream_init");
    uint8_t got[64];
    CHECK(vg_aes_ctr_stream_xor(&s, in, got, 5) == VG_OK, "ctr_stream_xor");
    vg_aes_ctr_stream before;
    memcpy(&before, &s, sizeof s);
    memset(out, 0x11, 64);
    CHECK(vg_aes_ctr_stream_xor(&s, NULL, out, 3) == VG_ERR_ARG, "xor NULL in");
    CHECK(vg_aes_ctr_stream_xor(&s, in, NULL, 3) == VG_ERR_ARG, "xor NULL out");
    CHECK(out[0] == 0x11 && out[2] == 0x11, "xor NULL in wrote");
    CHECK(memcmp(&before, &s, sizeof s) == 0, "rejected xor changed the stream");
    /* NULL with len 0 is fine and changes nothing either */
    CHECK(vg_aes_ctr_stream_xor(&s, NULL, NULL, 0) == VG_OK, "xor NULL, len 0");
    CHECK(memcmp(&before, &s, sizeof s) == 0, "empty xor changed the stream");
    /* partial overlap, both directions, every distance 1..len-1 */
    uint8_t buf[128];
    for (size_t d = 1; d < 40; d++)
        for (int dir = 0; dir < 2; dir++) {
            vgt_rand_bytes(buf, sizeof buf);
            memcpy(snap, buf, 64);
            const uint8_t *pi = dir ? buf + d : buf;
            uint8_t *po = dir ? buf : buf + d;
            CHECK(vg_aes_ctr_stream_xor(&s, pi, po, 40) == VG_ERR_ARG, "partial overlap %d/%zu", dir, d);
            CHECK(memcmp(buf, snap, 64) == 0, "partial overlap %d/%zu wrote", dir, d);
        }
    CHECK(memcmp(&before, &s, sizeof s) == 0, "rejected overlap changed the stream");
    CHECK(vg_aes_ctr_stream_xor(&s, in + 5, got + 5, 59) == VG_OK, "ctr_stream_xor");
    CHECK_BYTES(got, want, 64, "stream after rejected calls");

    /* The stream does not keep the caller's counter array: changing it after init does nothing. */
    uint8_t c2[16];
    memcpy(c2, ctr, 16);
    CHECK(vg_aes_ctr_stream_init(&s, &k, c2) == VG_OK, "ctr_stream_init");
    memset(c2, 0, 16);
    CHECK(vg_aes_ctr_stream_xor(&s, in, got, 64) == VG_OK, "ctr_stream_xor");
    CHECK_BYTES(got, want, 64, "stream independent of the counter array after init");
}

int main(int argc, char **argv)
{
    vgt_init(argc, argv);
    test_every_split();
    test_multi_split();
    test_wrap();
    test_bad_args();
    return vgt_finish();
}
