/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * test_gcm_stream.c — streaming AES-GCM (vg_aes_gcm_stream_*) against one-shot GCM and the spec.
 *
 *   every split     short messages cut at every point of the AAD and at every point of the data
 *   random splits   many calls of random (zero included) lengths, long messages, nonces of many lengths,
 *                   every tag length, in place and at random offsets; decrypt + verify the same way
 *   order           AAD after data, encrypt/decrypt mixed, finish on the opening side and verify on the
 *                   sealing side, anything on a stream never initialised: VG_ERR_ARG and the stream
 *                   byte-for-byte unchanged (and it then finishes with the right tag)
 *   end of life     finish and verify (good or bad tag) wipe the stream: all zero, later calls VG_ERR_ARG
 *   bad args        NULL with len > 0, partial overlap, bad tag lengths (finish stays usable), init errors
 *   limits          data past 2^36 - 32 bytes and AAD past 2^61 - 1, in one call or added up over calls
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "spec.h"

#define MAX_LEN 5000
#define MAX_AAD 600

static const size_t tag_lens[7] = {16, 15, 14, 13, 12, 8, 4};

static uint8_t key[32], nonce[64], aad[MAX_AAD], pt[MAX_LEN], want_ct[MAX_LEN], want_tag[16];
static _Alignas(64) uint8_t out_arena[16 + 16 + MAX_LEN + 16];
static vg_aes_gcm_key gk;
static size_t key_len, nonce_len;

/* A fresh random key and nonce, the message (aad_len, len) and the spec's answer. */
static void new_message(size_t kl, size_t nl, size_t aad_len, size_t len)
{
    key_len = kl;
    nonce_len = nl;
    vgt_rand_bytes(key, kl);
    vgt_rand_bytes(nonce, nl);
    vgt_rand_bytes(aad, aad_len);
    vgt_rand_bytes(pt, len);
    spec_aes_gcm_seal(key, kl, nonce, nl, aad, aad_len, pt, len, want_ct, want_tag);
    CHECK(vg_aes_gcm_init(&gk, key, kl) == VG_OK, "gcm_init");
}

/* Runs one stream: AAD fed in the pieces between the positions acut[0..nac-1] (increasing, inside
   [0, aad_len]), data likewise with dcut; dec = 0 encrypts pt and finishes, dec = 1 decrypts want_ct
   and verifies `tag`. Returns the last code; *bad gets the first failing call's code. */
static int run_stream(int dec, size_t aad_len, const size_t *acut, size_t nac, size_t len, const size_t *dcut,
                      size_t ndc, uint8_t *out, int in_place, uint8_t *tag, size_t tl)
{
    vg_aes_gcm_stream s;
    int rc = vg_aes_gcm_stream_init(&s, &gk, nonce, nonce_len);
    if (rc) return rc;
    size_t prev = 0;
    for (size_t i = 0; i <= nac; i++) {
        size_t next = i < nac ? acut[i] : aad_len;
        rc = vg_aes_gcm_stream_aad(&s, aad + prev, next - prev);
        if (rc) return rc;
        prev = next;
    }
    const uint8_t *src = dec ? want_ct : pt;
    if (in_place) {
        memcpy(out, src, len);
        src = out;
    }
    prev = 0;
    for (size_t i = 0; i <= ndc; i++) {
        size_t next = i < ndc ? dcut[i] : len;
        rc = dec ? vg_aes_gcm_stream_decrypt(&s, src + prev, next - prev, out + prev)
                 : vg_aes_gcm_stream_encrypt(&s, src + prev, next - prev, out + prev);
        if (rc) return rc;
        prev = next;
    }
    rc = dec ? vg_aes_gcm_stream_verify(&s, tag, tl) : vg_aes_gcm_stream_finish(&s, tag, tl);
    /* finish and verify wipe the stream whatever the outcome */
    if (!vgt_all_zero((const uint8_t *)&s, sizeof s)) return 1000;
    return rc;
}

/* Seals and opens with the given cuts and checks both against the spec; the open is also tried with a
   corrupted tag (VG_ERR_AUTH). */
static void check_cuts(size_t aad_len, const size_t *acut, size_t nac, size_t len, const size_t *dcut, size_t ndc,
                       size_t tl, int in_place, size_t off, const char *what)
{
    uint8_t tag[16];
    uint8_t *out = out_arena + 16 + off;
    memset(out_arena, 0xC3, sizeof out_arena);
    int rc = run_stream(0, aad_len, acut, nac, len, dcut, ndc, out, in_place, tag, tl);
    CHECK(rc == VG_OK, "%s: seal stream returned %d%s", what, rc, rc == 1000 ? " (finish did not wipe)" : "");
    CHECK_BYTES(out, want_ct, len, "%s: stream ciphertext", what);
    CHECK_BYTES(tag, want_tag, tl, "%s: stream tag (%zu bytes)", what, tl);
    CHECK(out[-1] == 0xC3 && out[len] == 0xC3, "%s: wrote outside out", what);

    memset(out_arena, 0xC3, sizeof out_arena);
    rc = run_stream(1, aad_len, acut, nac, len, dcut, ndc, out, in_place, want_tag, tl);
    CHECK(rc == VG_OK, "%s: open stream returned %d%s", what, rc, rc == 1000 ? " (verify did not wipe)" : "");
    CHECK_BYTES(out, pt, len, "%s: stream plaintext", what);

    uint8_t bad[16];
    memcpy(bad, want_tag, 16);
    bad[vgt_rand_below(tl)] ^= (uint8_t)(1u << vgt_rand_below(8));
    rc = run_stream(1, aad_len, acut, nac, len, dcut, ndc, out, in_place, bad, tl);
    CHECK(rc == VG_ERR_AUTH, "%s: verify of a bad tag returned %d%s", what, rc,
          rc == 1000 ? " (verify did not wipe)" : "");
}

static void test_every_split(void)
{
    int quick = vgt_quick();
    char what[128];
    /* every cut of the data, AAD whole */
    for (size_t len = 0; len <= 48; len++) {
        if (quick && len > 20 && len % 4) continue;
        new_message(16 + 8 * (len % 3), 12, len % 21, len);
        for (size_t c = 0; c <= len; c++) {
            snprintf(what, sizeof what, "len %zu cut at %zu", len, c);
            check_cuts(len % 21, NULL, 0, len, &c, 1, 16, c % 3 == 0, c % 16, what);
        }
    }
    /* every cut of the AAD, data whole */
    for (size_t al = 0; al <= 48; al++) {
        if (quick && al > 20 && al % 4) continue;
        new_message(16 + 8 * (al % 3), al % 5 ? 12 : 1 + al, al, al % 23);
        for (size_t c = 0; c <= al; c++) {
            snprintf(what, sizeof what, "aad %zu cut at %zu", al, c);
            check_cuts(al, &c, 1, al % 23, NULL, 0, tag_lens[c % 7], 0, 0, what);
        }
    }
    /* every pair of cuts in both for small sizes */
    if (!quick) {
        new_message(32, 12, 20, 20);
        for (size_t a = 0; a <= 20; a++)
            for (size_t d1 = 0; d1 <= 20; d1++)
                for (size_t d2 = d1; d2 <= 20; d2 += 3) {
                    size_t dc[2] = {d1, d2};
                    snprintf(what, sizeof what, "aad cut %zu data cuts %zu,%zu", a, d1, d2);
                    check_cuts(20, &a, 1, 20, dc, 2, 16, 0, 0, what);
                }
    }
}

/* Random increasing cut positions in [0, n]: zero-length pieces and repeated positions included. */
static size_t random_cuts(size_t *cuts, size_t max_cuts, size_t n)
{
    size_t k = 0, pos = 0;
    while (k < max_cuts) {
        size_t r = vgt_rand_below(10), step;
        if (r < 2) step = 0;
        else if (r < 7) step = vgt_rand_below(20);
        else if (r < 9) step = vgt_rand_below(100);
        else step = vgt_rand_below(n + 1);
        pos += step;
        if (pos > n) break;
        cuts[k++] = pos;
    }
    return k;
}

static void test_random_splits(void)
{
    static size_t acut[400], dcut[1000];
    char what[128];
    int trials = vgt_quick() ? 40 : 400;
    for (int t = 0; t < trials; t++) {
        size_t len = t < trials / 2 ? vgt_rand_below(600) : vgt_rand_below(MAX_LEN + 1);
        size_t al = t % 5 == 0 ? vgt_rand_below(MAX_AAD + 1) : vgt_rand_below(70);
        size_t nl = t % 3 == 0 ? 1 + vgt_rand_below(64) : 12;
        size_t tl = tag_lens[t % 7];
        new_message(16 + 8 * (size_t)(t % 3), nl, al, len);
        size_t nac = random_cuts(acut, 400, al);
        size_t ndc = random_cuts(dcut, 1000, len);
        snprintf(what, sizeof what, "trial %d: aad %zu in %zu pieces, len %zu in %zu pieces, nonce %zu, tag %zu", t, al,
                 nac + 1, len, ndc + 1, nl, tl);
        check_cuts(al, acut, nac, len, dcut, ndc, tl, t % 4 == 1, vgt_rand_below(16), what);
    }
}

/* Checks that a rejected call left the stream byte-for-byte as it was. */
#define UNCHANGED(s, snap, ...) CHECK(memcmp(&(s), &(snap), sizeof(s)) == 0, __VA_ARGS__)

static void finish_and_check(vg_aes_gcm_stream *s, const char *what)
{
    uint8_t tag[16];
    int rc = vg_aes_gcm_stream_finish(s, tag, 16);
    CHECK(rc == VG_OK, "%s: finish %d", what, rc);
    CHECK_BYTES(tag, want_tag, 16, "%s: tag after rejected calls", what);
}

static void test_order(void)
{
    uint8_t buf[64], out[64], tag[16];
    vg_aes_gcm_stream s, snap;
    /* message: aad 10 bytes, data 40 bytes */
    new_message(16, 12, 10, 40);

    /* AAD after data */
    CHECK(vg_aes_gcm_stream_init(&s, &gk, nonce, 12) == VG_OK, "gcm_stream_init");
    CHECK(vg_aes_gcm_stream_aad(&s, aad, 10) == VG_OK, "gcm_stream_aad");
    CHECK(vg_aes_gcm_stream_encrypt(&s, pt, 7, out) == VG_OK, "gcm_stream_encrypt");
    memcpy(&snap, &s, sizeof s);
    CHECK(vg_aes_gcm_stream_aad(&s, aad, 3) == VG_ERR_ARG, "aad after encrypt");
    CHECK(vg_aes_gcm_stream_aad(&s, aad, 0) == VG_ERR_ARG, "empty aad after encrypt");
    UNCHANGED(s, snap, "aad after encrypt changed the stream");
    /* decrypt on an encrypting stream, verify on the sealing side */
    memset(buf, 0x77, sizeof buf);
    CHECK(vg_aes_gcm_stream_decrypt(&s, want_ct + 7, 5, buf) == VG_ERR_ARG, "decrypt after encrypt");
    CHECK(buf[0] == 0x77, "decrypt after encrypt wrote");
    CHECK(vg_aes_gcm_stream_verify(&s, want_tag, 16) == VG_ERR_ARG, "verify on a sealing stream");
    UNCHANGED(s, snap, "wrong-side calls changed the stream");
    CHECK(vg_aes_gcm_stream_encrypt(&s, pt + 7, 33, out + 7) == VG_OK, "gcm_stream_encrypt");
    CHECK_BYTES(out, want_ct, 40, "ciphertext after rejected calls");
    finish_and_check(&s, "sealing side");

    /* the opening side: encrypt and finish refused once decrypting */
    CHECK(vg_aes_gcm_stream_init(&s, &gk, nonce, 12) == VG_OK, "gcm_stream_init");
    CHECK(vg_aes_gcm_stream_aad(&s, aad, 4) == VG_OK, "gcm_stream_aad");
    CHECK(vg_aes_gcm_stream_aad(&s, aad + 4, 6) == VG_OK, "gcm_stream_aad");
    CHECK(vg_aes_gcm_stream_decrypt(&s, want_ct, 21, out) == VG_OK, "gcm_stream_decrypt");
    memcpy(&snap, &s, sizeof s);
    memset(buf, 0x77, sizeof buf);
    CHECK(vg_aes_gcm_stream_encrypt(&s, pt, 5, buf) == VG_ERR_ARG, "encrypt after decrypt");
    CHECK(buf[0] == 0x77, "encrypt after decrypt wrote");
    CHECK(vg_aes_gcm_stream_aad(&s, aad, 1) == VG_ERR_ARG, "aad after decrypt");
    memset(tag, 0x77, 16);
    CHECK(vg_aes_gcm_stream_finish(&s, tag, 16) == VG_ERR_ARG, "finish on an opening stream");
    CHECK(tag[0] == 0x77 && tag[15] == 0x77, "finish on an opening stream wrote the tag");
    UNCHANGED(s, snap, "wrong-side calls changed the opening stream");
    CHECK(vg_aes_gcm_stream_decrypt(&s, want_ct + 21, 19, out + 21) == VG_OK, "gcm_stream_decrypt");
    CHECK_BYTES(out, pt, 40, "plaintext after rejected calls");
    CHECK(vg_aes_gcm_stream_verify(&s, want_tag, 16) == VG_OK, "verify after rejected calls");
    CHECK(vgt_all_zero((const uint8_t *)&s, sizeof s), "verify did not wipe");

    /* a stream never initialised, or finished/verified/wiped, refuses everything */
    vg_aes_gcm_stream bad[5];
    memset(&bad[0], 0, sizeof bad[0]);
    vgt_rand_bytes((uint8_t *)&bad[1], sizeof bad[1]);
    CHECK(vg_aes_gcm_stream_init(&bad[2], &gk, nonce, 12) == VG_OK, "gcm_stream_init");
    CHECK(vg_aes_gcm_stream_finish(&bad[2], tag, 16) == VG_OK, "gcm_stream_finish");
    CHECK(vg_aes_gcm_stream_init(&bad[3], &gk, nonce, 12) == VG_OK, "gcm_stream_init");
    CHECK(vg_aes_gcm_stream_verify(&bad[3], tag, 4) != VG_ERR_ARG, "gcm_stream_verify"); /* whatever the outcome, it ends the stream */
    CHECK(vg_aes_gcm_stream_init(&bad[4], &gk, nonce, 12) == VG_OK, "gcm_stream_init");
    vg_aes_gcm_stream_wipe(&bad[4]);
    static const char *bad_name[5] = {"zeroed", "garbage", "finished", "verified", "wiped"};
    CHECK(vgt_all_zero((const uint8_t *)&bad[2], sizeof bad[2]), "finish did not wipe");
    CHECK(vgt_all_zero((const uint8_t *)&bad[3], sizeof bad[3]), "verify did not wipe");
    CHECK(vgt_all_zero((const uint8_t *)&bad[4], sizeof bad[4]), "wipe did not zero");
    for (int b = 0; b < 5; b++) {
        memcpy(&snap, &bad[b], sizeof snap);
        memset(buf, 0x77, sizeof buf);
        memset(tag, 0x77, 16);
        CHECK(vg_aes_gcm_stream_aad(&bad[b], aad, 3) == VG_ERR_ARG, "aad on a %s stream", bad_name[b]);
        CHECK(vg_aes_gcm_stream_encrypt(&bad[b], pt, 3, buf) == VG_ERR_ARG, "encrypt on a %s stream", bad_name[b]);
        CHECK(vg_aes_gcm_stream_decrypt(&bad[b], pt, 3, buf) == VG_ERR_ARG, "decrypt on a %s stream", bad_name[b]);
        CHECK(vg_aes_gcm_stream_finish(&bad[b], tag, 16) == VG_ERR_ARG, "finish on a %s stream", bad_name[b]);
        CHECK(vg_aes_gcm_stream_verify(&bad[b], want_tag, 16) == VG_ERR_ARG, "verify on a %s stream", bad_name[b]);
        CHECK(buf[0] == 0x77 && tag[0] == 0x77, "calls on a %s stream wrote", bad_name[b]);
        UNCHANGED(bad[b], snap, "calls on a %s stream changed it", bad_name[b]);
    }
    CHECK(vg_aes_gcm_stream_aad(NULL, aad, 3) == VG_ERR_ARG, "aad on NULL");
    CHECK(vg_aes_gcm_stream_encrypt(NULL, pt, 3, buf) == VG_ERR_ARG, "encrypt on NULL");
    CHECK(vg_aes_gcm_stream_decrypt(NULL, pt, 3, buf) == VG_ERR_ARG, "decrypt on NULL");
    CHECK(vg_aes_gcm_stream_finish(NULL, tag, 16) == VG_ERR_ARG, "finish on NULL");
    CHECK(vg_aes_gcm_stream_verify(NULL, tag, 16) == VG_ERR_ARG, "verify on NULL");
    vg_aes_gcm_stream_wipe(NULL);
}

static void test_bad_args(void)
{
    uint8_t out[64], tag[16];
    vg_aes_gcm_stream s, snap;
    new_message(24, 12, 10, 40);
    uint8_t pattern[sizeof s];
    vgt_rand_bytes(pattern, sizeof pattern);

    /* init */
    vg_aes_gcm_key zeroed;
    memset(&zeroed, 0, sizeof zeroed);
    memcpy(&s, pattern, sizeof s);
    CHECK(vg_aes_gcm_stream_init(NULL, &gk, nonce, 12) == VG_ERR_ARG, "init NULL stream");
    CHECK(vg_aes_gcm_stream_init(&s, NULL, nonce, 12) == VG_ERR_ARG, "init NULL key");
    CHECK(vg_aes_gcm_stream_init(&s, &zeroed, nonce, 12) == VG_ERR_ARG, "init unset key");
    CHECK(vg_aes_gcm_stream_init(&s, &gk, NULL, 12) == VG_ERR_ARG, "init NULL nonce");
    CHECK(vg_aes_gcm_stream_init(&s, &gk, nonce, 0) == VG_ERR_NONCE_LENGTH, "init nonce_len 0");
    CHECK(memcmp(&s, pattern, sizeof s) == 0, "failed init touched the stream");

    CHECK(vg_aes_gcm_stream_init(&s, &gk, nonce, 12) == VG_OK, "gcm_stream_init");
    CHECK(vg_aes_gcm_stream_aad(&s, aad, 5) == VG_OK, "gcm_stream_aad");
    memcpy(&snap, &s, sizeof s);
    CHECK(vg_aes_gcm_stream_aad(&s, NULL, 5) == VG_ERR_ARG, "aad NULL, len 5");
    UNCHANGED(s, snap, "aad NULL changed the stream");
    CHECK(vg_aes_gcm_stream_aad(&s, NULL, 0) == VG_OK, "aad NULL, len 0");
    UNCHANGED(s, snap, "empty aad changed the stream");
    CHECK(vg_aes_gcm_stream_aad(&s, aad + 5, 5) == VG_OK, "gcm_stream_aad");
    CHECK(vg_aes_gcm_stream_encrypt(&s, pt, 9, out) == VG_OK, "gcm_stream_encrypt");
    memcpy(&snap, &s, sizeof s);
    memset(out + 9, 0x77, 55);
    CHECK(vg_aes_gcm_stream_encrypt(&s, NULL, 5, out + 9) == VG_ERR_ARG, "encrypt NULL in");
    CHECK(vg_aes_gcm_stream_encrypt(&s, pt + 9, 5, NULL) == VG_ERR_ARG, "encrypt NULL out");
    CHECK(vg_aes_gcm_stream_encrypt(&s, NULL, 0, NULL) == VG_OK, "encrypt NULL, len 0");
    UNCHANGED(s, snap, "rejected encrypt changed the stream");
    CHECK(out[9] == 0x77, "rejected encrypt wrote");
    /* partial overlap, every distance, both ways */
    static uint8_t region[128], rsnap[128];
    for (size_t d = 1; d < 31; d++)
        for (int dir = 0; dir < 2; dir++) {
            vgt_rand_bytes(region, sizeof region);
            memcpy(rsnap, region, sizeof region);
            int rc = vg_aes_gcm_stream_encrypt(&s, region + (dir ? d : 0), 31, region + (dir ? 0 : d));
            CHECK(rc == VG_ERR_ARG, "encrypt partial overlap %d/%zu: %d", dir, d, rc);
            CHECK(memcmp(region, rsnap, sizeof region) == 0, "encrypt partial overlap wrote");
        }
    UNCHANGED(s, snap, "rejected overlap changed the stream");
    /* bad tag lengths leave the stream usable for another finish; NULL tag refused */
    for (size_t t = 0; t <= 20; t++) {
        int ok = 0;
        for (int i = 0; i < 7; i++) ok |= tag_lens[i] == t;
        if (ok) continue;
        memset(tag, 0x77, 16);
        CHECK(vg_aes_gcm_stream_finish(&s, tag, t) == VG_ERR_TAG_LENGTH, "finish tag_len %zu", t);
        CHECK(tag[0] == 0x77 && tag[15] == 0x77, "finish tag_len %zu wrote", t);
    }
    CHECK(vg_aes_gcm_stream_finish(&s, tag, SIZE_MAX) == VG_ERR_TAG_LENGTH, "finish tag_len SIZE_MAX");
    CHECK(vg_aes_gcm_stream_finish(&s, NULL, 16) == VG_ERR_ARG, "finish NULL tag");
    UNCHANGED(s, snap, "rejected finish changed the stream");
    CHECK(vg_aes_gcm_stream_encrypt(&s, pt + 9, 31, out + 9) == VG_OK, "gcm_stream_encrypt");
    CHECK_BYTES(out, want_ct, 40, "ciphertext after rejected calls");
    finish_and_check(&s, "after rejected finish calls");

    /* verify: a bad tag length or NULL tag is an argument error, which writes nothing (vg.h's general
       rule), so the stream stays as it was and verifies afterwards */
    CHECK(vg_aes_gcm_stream_init(&s, &gk, nonce, 12) == VG_OK, "gcm_stream_init");
    CHECK(vg_aes_gcm_stream_aad(&s, aad, 10) == VG_OK, "gcm_stream_aad");
    CHECK(vg_aes_gcm_stream_decrypt(&s, want_ct, 40, out) == VG_OK, "gcm_stream_decrypt");
    memcpy(&snap, &s, sizeof s);
    CHECK(vg_aes_gcm_stream_verify(&s, want_tag, 11) == VG_ERR_TAG_LENGTH, "verify tag_len 11");
    CHECK(vg_aes_gcm_stream_verify(&s, want_tag, 0) == VG_ERR_TAG_LENGTH, "verify tag_len 0");
    CHECK(vg_aes_gcm_stream_verify(&s, NULL, 16) == VG_ERR_ARG, "verify NULL tag");
    UNCHANGED(s, snap, "rejected verify changed the stream");
    CHECK(vg_aes_gcm_stream_verify(&s, want_tag, 12) == VG_OK, "verify (12-byte prefix) after rejected calls");
}

static void test_limits(void)
{
#if SIZE_MAX > 0xFFFFFFFFu
    uint8_t in[16] = {0}, out[16];
    vg_aes_gcm_stream s, snap;
    const size_t max_len = ((size_t)1 << 36) - 32, max_aad = ((size_t)1 << 61) - 1;
    new_message(16, 12, 10, 40);
    CHECK(vg_aes_gcm_stream_init(&s, &gk, nonce, 12) == VG_OK, "gcm_stream_init");
    memcpy(&snap, &s, sizeof s);
    CHECK(vg_aes_gcm_stream_aad(&s, in, max_aad + 1) == VG_ERR_LENGTH, "aad 2^61 in one call");
    CHECK(vg_aes_gcm_stream_aad(&s, in, SIZE_MAX) == VG_ERR_LENGTH, "aad SIZE_MAX");
    UNCHANGED(s, snap, "over-long aad changed the stream");
    CHECK(vg_aes_gcm_stream_aad(&s, aad, 10) == VG_OK, "gcm_stream_aad");
    memcpy(&snap, &s, sizeof s);
    CHECK(vg_aes_gcm_stream_aad(&s, in, max_aad - 10 + 1) == VG_ERR_LENGTH, "aad adding up to 2^61");
    UNCHANGED(s, snap, "over-long aad changed the stream");
    memset(out, 0x77, 16);
    CHECK(vg_aes_gcm_stream_encrypt(&s, in, max_len + 1, out) == VG_ERR_LENGTH, "data 2^36 - 31 in one call");
    CHECK(vg_aes_gcm_stream_encrypt(&s, in, SIZE_MAX, out) == VG_ERR_LENGTH, "data SIZE_MAX");
    CHECK(vg_aes_gcm_stream_decrypt(&s, in, max_len + 1, out) == VG_ERR_LENGTH, "decrypt 2^36 - 31 in one call");
    CHECK(out[0] == 0x77 && out[15] == 0x77, "over-long data wrote");
    UNCHANGED(s, snap, "over-long data changed the stream");
    CHECK(vg_aes_gcm_stream_encrypt(&s, pt, 40, out_arena) == VG_OK, "gcm_stream_encrypt");
    memcpy(&snap, &s, sizeof s);
    CHECK(vg_aes_gcm_stream_encrypt(&s, in, max_len - 40 + 1, out) == VG_ERR_LENGTH, "data adding up to 2^36 - 31");
    CHECK(out[0] == 0x77, "over-long data wrote");
    UNCHANGED(s, snap, "over-long data changed the stream");
    finish_and_check(&s, "after over-long calls");
#endif
}

int main(int argc, char **argv)
{
    vgt_init(argc, argv);
    test_every_split();
    test_random_splits();
    test_order();
    test_bad_args();
    test_limits();
    return vgt_finish();
}
