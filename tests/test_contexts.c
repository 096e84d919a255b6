/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * test_contexts.c — keys and streams as a caller holds them: at any address malloc gives, copied
 * with memcpy, of the wrong type, wiped under a stream; the version and VG_IMPL reporting.
 *
 *   types      every key type passed (by a cast) to every function of every other type, each in a
 *              heap block of exactly its own size (ASan sees any read past it): VG_ERR_ARG, nothing
 *              written. Streams likewise (a GCM stream given to the CTR functions and back).
 *   wiped key  a CTR stream and a GCM stream whose key is wiped after stream_init: VG_ERR_ARG from
 *              every later call, no crash, nothing written.
 *   placement  every key and stream type at offsets 16, 32 and 48 of 64-byte-aligned blocks, inside
 *              a malloc'd struct after a char, and copied with memcpy to another offset: the spec's
 *              bytes on every implementation (the ASan+UBSan build checks the alignment).
 *   version    vg_version() == VG_VERSION_STRING == "MAJOR.MINOR.PATCH".
 *   VG_IMPL    vg_impl_env_status for unset, empty, available and unknown names.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, posix_memalign */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "spec.h"

/* ---------------------------------------------------------------------------------------------- */
/* Wrong types                                                                                     */

enum ktype { K_AES, K_GCM, K_SIV, K_CCM, K_CTR_STREAM, K_GCM_STREAM, K_N };
static const char *const ktype_name[] = {"vg_aes_key", "vg_aes_gcm_key", "vg_aes_gcm_siv_key", "vg_aes_ccm_key",
                                         "vg_aes_ctr_stream", "vg_aes_gcm_stream"};
static const size_t ktype_size[] = {sizeof(vg_aes_key), sizeof(vg_aes_gcm_key), sizeof(vg_aes_gcm_siv_key),
                                    sizeof(vg_aes_ccm_key), sizeof(vg_aes_ctr_stream), sizeof(vg_aes_gcm_stream)};

static vg_aes_key the_aes; /* the key the streams below refer to */
static vg_aes_gcm_key the_gcm;

/* A context of type t, set up, in a heap block of exactly its size (16-byte aligned by malloc). */
static void *make_context(enum ktype t, const uint8_t key[32])
{
    void *p = vgt_xmalloc(ktype_size[t]);
    static const uint8_t nonce[12] = {1, 2, 3}, counter[16] = {4, 5, 6};
    int rc = VG_ERR_ARG;
    switch (t) {
    case K_AES: rc = vg_aes_expand_key(p, key, 32); break;
    case K_GCM: rc = vg_aes_gcm_init(p, key, 32); break;
    case K_SIV: rc = vg_aes_gcm_siv_init(p, key, 32); break;
    case K_CCM: rc = vg_aes_ccm_init(p, key, 32); break;
    case K_CTR_STREAM: rc = vg_aes_ctr_stream_init(p, &the_aes, counter); break;
    case K_GCM_STREAM: rc = vg_aes_gcm_stream_init(p, &the_gcm, nonce, 12); break;
    default: break;
    }
    CHECK(rc == VG_OK, "set up %s", ktype_name[t]);
    return p;
}

#define BUF 96
/* Every function that takes a context of type want, called with ctx (of another type): each must
   return VG_ERR_ARG and leave out, tag, counter and the context byte-for-byte as they were. */
static void call_all(enum ktype want, void *ctx, const char *what)
{
    uint8_t in[BUF], out[BUF], out0[BUF], tag[16], tag0[16], ctr[16], ctr0[16], nonce[13] = {0};
    vgt_rand_bytes(in, BUF);
    vgt_rand_bytes(out0, BUF);
    vgt_rand_bytes(tag0, 16);
    vgt_rand_bytes(ctr0, 16);
    int rc[8];
    size_t n = 0;
    memcpy(out, out0, BUF);
    memcpy(tag, tag0, 16);
    memcpy(ctr, ctr0, 16);
    switch (want) {
    case K_AES:
        rc[n++] = vg_aes_ecb_encrypt(ctx, in, out, BUF / 16);
        rc[n++] = vg_aes_ecb_decrypt(ctx, in, out, BUF / 16);
        rc[n++] = vg_aes_ctr32(ctx, ctr, in, out, BUF / 16);
        { vg_aes_ctr_stream s; rc[n++] = vg_aes_ctr_stream_init(&s, ctx, ctr); }
        break;
    case K_GCM:
        rc[n++] = vg_aes_gcm_seal(ctx, nonce, 12, in, 20, in, BUF, out, tag, 16);
        rc[n++] = vg_aes_gcm_open(ctx, nonce, 12, in, 20, in, BUF, tag0, 16, out);
        { vg_aes_gcm_stream s; rc[n++] = vg_aes_gcm_stream_init(&s, ctx, nonce, 12); }
        {
            vg_aes_gcm_batch_msg m = {nonce, 12, in, 20, in, BUF, out, tag, 16};
            int r = 1;
            rc[n++] = vg_aes_gcm_seal_batch(ctx, &m, 1, &r);
            m.tag = tag0;
            rc[n++] = vg_aes_gcm_open_batch(ctx, &m, 1, &r);
            CHECK(r == 1, "a refused batch wrote its results");
        }
        break;
    case K_SIV:
        rc[n++] = vg_aes_gcm_siv_seal(ctx, nonce, 12, in, 20, in, BUF, out, tag, 16);
        rc[n++] = vg_aes_gcm_siv_open(ctx, nonce, 12, in, 20, in, BUF, tag0, 16, out);
        break;
    case K_CCM:
        rc[n++] = vg_aes_ccm_seal(ctx, nonce, 13, in, 20, in, BUF, out, tag, 16);
        rc[n++] = vg_aes_ccm_open(ctx, nonce, 13, in, 20, in, BUF, tag0, 16, out);
        break;
    case K_CTR_STREAM:
        rc[n++] = vg_aes_ctr_stream_xor(ctx, in, out, BUF);
        rc[n++] = vg_aes_ctr_stream_xor(ctx, in, out, 5);
        break;
    case K_GCM_STREAM:
        rc[n++] = vg_aes_gcm_stream_aad(ctx, in, 20);
        rc[n++] = vg_aes_gcm_stream_encrypt(ctx, in, BUF, out);
        rc[n++] = vg_aes_gcm_stream_decrypt(ctx, in, BUF, out);
        rc[n++] = vg_aes_gcm_stream_finish(ctx, tag, 16);
        rc[n++] = vg_aes_gcm_stream_verify(ctx, tag0, 16);
        break;
    default: break;
    }
    for (size_t i = 0; i < n; i++)
        CHECK(rc[i] == VG_ERR_ARG, "%s as %s: call %zu returned %d, want VG_ERR_ARG", what, ktype_name[want], i, rc[i]);
    CHECK(memcmp(out, out0, BUF) == 0, "%s as %s: out written", what, ktype_name[want]);
    CHECK(memcmp(tag, tag0, 16) == 0, "%s as %s: tag written", what, ktype_name[want]);
    CHECK(memcmp(ctr, ctr0, 16) == 0, "%s as %s: counter written", what, ktype_name[want]);
}

static void test_wrong_types(void)
{
    uint8_t key[32];
    vgt_rand_bytes(key, 32);
    CHECK(vg_aes_expand_key(&the_aes, key, 32) == VG_OK, "aes key");
    CHECK(vg_aes_gcm_init(&the_gcm, key, 32) == VG_OK, "gcm key");
    for (int have = 0; have < K_N; have++)
        for (int want = 0; want < K_N; want++) {
            if (have == want) continue;
            uint8_t *ctx = make_context((enum ktype)have, key);
            /* a context smaller than the type it is passed as: give the callee only the bytes that
               exist (the block is exactly ktype_size[have]); a larger one is passed as it is */
            uint8_t *snap = vgt_xmalloc(ktype_size[have]);
            memcpy(snap, ctx, ktype_size[have]);
            call_all((enum ktype)want, ctx, ktype_name[have]);
            CHECK(memcmp(snap, ctx, ktype_size[have]) == 0, "%s as %s: the context changed", ktype_name[have],
                  ktype_name[want]);
            free(snap);
            free(ctx);
        }
}

/* ---------------------------------------------------------------------------------------------- */
/* A stream whose key is wiped                                                                     */

static void test_wiped_key_under_stream(void)
{
    uint8_t key[16], ctr[16] = {0}, in[64], out[64], out0[64], tag[16], tag0[16], nonce[12] = {9};
    vgt_rand_bytes(key, 16);
    vgt_rand_bytes(in, 64);
    vgt_rand_bytes(out0, 64);
    vgt_rand_bytes(tag0, 16);

    vg_aes_key k;
    vg_aes_ctr_stream cs;
    CHECK(vg_aes_expand_key(&k, key, 16) == VG_OK, "expand");
    CHECK(vg_aes_ctr_stream_init(&cs, &k, ctr) == VG_OK, "ctr stream init");
    CHECK(vg_aes_ctr_stream_xor(&cs, in, out, 7) == VG_OK, "ctr stream xor before the wipe");
    vg_aes_key_wipe(&k);
    memcpy(out, out0, 64);
    CHECK(vg_aes_ctr_stream_xor(&cs, in, out, 64) == VG_ERR_ARG, "ctr stream over a wiped key: VG_ERR_ARG");
    CHECK(vg_aes_ctr_stream_xor(&cs, in, out, 3) == VG_ERR_ARG, "ctr stream over a wiped key (partial block)");
    CHECK(memcmp(out, out0, 64) == 0, "ctr stream over a wiped key wrote");
    vg_aes_ctr_stream_wipe(&cs);

    vg_aes_gcm_key g;
    vg_aes_gcm_stream gs;
    CHECK(vg_aes_gcm_init(&g, key, 16) == VG_OK, "gcm init");
    CHECK(vg_aes_gcm_stream_init(&gs, &g, nonce, 12) == VG_OK, "gcm stream init");
    CHECK(vg_aes_gcm_stream_aad(&gs, in, 5) == VG_OK, "gcm stream aad");
    vg_aes_gcm_key_wipe(&g);
    memcpy(out, out0, 64);
    memcpy(tag, tag0, 16);
    CHECK(vg_aes_gcm_stream_aad(&gs, in, 5) == VG_ERR_ARG, "gcm stream aad over a wiped key");
    CHECK(vg_aes_gcm_stream_encrypt(&gs, in, 64, out) == VG_ERR_ARG, "gcm stream encrypt over a wiped key");
    CHECK(vg_aes_gcm_stream_finish(&gs, tag, 16) == VG_ERR_ARG, "gcm stream finish over a wiped key");
    CHECK(memcmp(out, out0, 64) == 0 && memcmp(tag, tag0, 16) == 0, "gcm stream over a wiped key wrote");
    vg_aes_gcm_stream_wipe(&gs);
}

/* ---------------------------------------------------------------------------------------------- */
/* Placement and copies                                                                            */

struct in_struct_gcm { char c; vg_aes_gcm_key k; };
struct in_struct_siv { char c; vg_aes_gcm_siv_key k; };
struct in_struct_ccm { char c; vg_aes_ccm_key k; };
struct in_struct_aes { char c; vg_aes_key k; vg_aes_ctr_stream s; };
struct in_struct_stream { char c; vg_aes_gcm_stream s; };

/* All four key types and both streams at base (16-byte aligned), checked against the spec. */
static void use_everything_at(uint8_t *base, size_t key_len, const char *where)
{
    uint8_t key[32], nonce[13], aad[29], pt[200], ct[200], got[200], tag[16], exp_tag[16], ctr[16], ctr2[16];
    vgt_rand_bytes(key, key_len);
    vgt_rand_bytes(nonce, 13);
    vgt_rand_bytes(aad, sizeof aad);
    vgt_rand_bytes(pt, sizeof pt);
    vgt_rand_bytes(ctr, 16);

    vg_aes_gcm_key *g = (vg_aes_gcm_key *)(void *)base;
    if (CHECK(vg_aes_gcm_init(g, key, key_len) == VG_OK, "%s: gcm init", where)) {
        CHECK(vg_aes_gcm_seal(g, nonce, 12, aad, sizeof aad, pt, sizeof pt, got, tag, 16) == VG_OK, "%s: gcm seal", where);
        spec_aes_gcm_seal(key, key_len, nonce, 12, aad, sizeof aad, pt, sizeof pt, ct, exp_tag);
        CHECK_BYTES(got, ct, sizeof pt, "%s: gcm ciphertext", where);
        CHECK_BYTES(tag, exp_tag, 16, "%s: gcm tag", where);
        /* a stream right after the key, at the next 16-byte boundary */
        vg_aes_gcm_stream *s = (vg_aes_gcm_stream *)(void *)(base + sizeof *g);
        CHECK(vg_aes_gcm_stream_init(s, g, nonce, 12) == VG_OK, "%s: gcm stream init", where);
        CHECK(vg_aes_gcm_stream_aad(s, aad, sizeof aad) == VG_OK, "%s: gcm stream aad", where);
        CHECK(vg_aes_gcm_stream_encrypt(s, pt, sizeof pt, got) == VG_OK, "%s: gcm stream", where);
        CHECK(vg_aes_gcm_stream_finish(s, tag, 16) == VG_OK, "%s: gcm stream finish", where);
        CHECK_BYTES(got, ct, sizeof pt, "%s: gcm stream ciphertext", where);
        CHECK_BYTES(tag, exp_tag, 16, "%s: gcm stream tag", where);
        vg_aes_gcm_key_wipe(g);
    }
    vg_aes_gcm_siv_key *v = (vg_aes_gcm_siv_key *)(void *)base;
    if (key_len != 24 && CHECK(vg_aes_gcm_siv_init(v, key, key_len) == VG_OK, "%s: siv init", where)) {
        CHECK(vg_aes_gcm_siv_seal(v, nonce, 12, aad, sizeof aad, pt, sizeof pt, got, tag, 16) == VG_OK, "%s: siv", where);
        spec_aes_gcm_siv_seal(key, key_len, nonce, aad, sizeof aad, pt, sizeof pt, ct, exp_tag);
        CHECK_BYTES(got, ct, sizeof pt, "%s: siv ciphertext", where);
        CHECK_BYTES(tag, exp_tag, 16, "%s: siv tag", where);
        vg_aes_gcm_siv_key_wipe(v);
    }
    vg_aes_ccm_key *c = (vg_aes_ccm_key *)(void *)base;
    if (CHECK(vg_aes_ccm_init(c, key, key_len) == VG_OK, "%s: ccm init", where)) {
        CHECK(vg_aes_ccm_seal(c, nonce, 13, aad, sizeof aad, pt, sizeof pt, got, tag, 16) == VG_OK, "%s: ccm", where);
        spec_aes_ccm_seal(key, key_len, nonce, 13, aad, sizeof aad, pt, sizeof pt, ct, exp_tag, 16);
        CHECK_BYTES(got, ct, sizeof pt, "%s: ccm ciphertext", where);
        CHECK_BYTES(tag, exp_tag, 16, "%s: ccm tag", where);
        vg_aes_ccm_key_wipe(c);
    }
    vg_aes_key *a = (vg_aes_key *)(void *)base;
    if (CHECK(vg_aes_expand_key(a, key, key_len) == VG_OK, "%s: aes key", where)) {
        CHECK(vg_aes_ecb_encrypt(a, pt, got, 12) == VG_OK, "%s: ecb", where);
        spec_aes_ecb_encrypt(key, key_len, pt, ct, 12);
        CHECK_BYTES(got, ct, 192, "%s: ecb", where);
        CHECK(vg_aes_ecb_decrypt(a, ct, got, 12) == VG_OK, "%s: ecb decrypt", where);
        CHECK_BYTES(got, pt, 192, "%s: ecb decrypt", where);
        vg_aes_ctr_stream *s = (vg_aes_ctr_stream *)(void *)(base + sizeof *a);
        memcpy(ctr2, ctr, 16);
        CHECK(vg_aes_ctr_stream_init(s, a, ctr) == VG_OK, "%s: ctr stream", where);
        CHECK(vg_aes_ctr_stream_xor(s, pt, got, 77) == VG_OK && vg_aes_ctr_stream_xor(s, pt + 77, got + 77, 123) == VG_OK,
              "%s: ctr stream xor", where);
        spec_aes_ctr32(key, key_len, ctr2, pt, ct, 12); /* 192 of the 200 bytes: whole blocks */
        CHECK_BYTES(got, ct, 192, "%s: ctr stream", where);
        vg_aes_key_wipe(a);
    }
}

static void test_placement(void)
{
    static const size_t key_lens[] = {16, 24, 32};
    const size_t need = sizeof(vg_aes_gcm_key) + sizeof(vg_aes_gcm_stream) + 64;
    for (size_t kl = 0; kl < 3; kl++) {
        void *block;
        if (posix_memalign(&block, 64, need + 64) != 0) { CHECK(0, "posix_memalign"); return; }
        for (size_t off = 0; off < 64; off += 16) {
            char where[64];
            snprintf(where, sizeof where, "key %zu at 64-byte block + %zu", key_lens[kl], off);
            use_everything_at((uint8_t *)block + off, key_lens[kl], where);
        }
        free(block);
    }

    /* In malloc'd structs after a char: the compiler puts the context at its (16-byte) alignment. */
    uint8_t key[32], nonce[12] = {7}, pt[100], a1[100], a2[100], t1[16], t2[16];
    vgt_rand_bytes(key, 32);
    vgt_rand_bytes(pt, sizeof pt);
    struct in_struct_gcm *sg = vgt_xmalloc(sizeof *sg);
    struct in_struct_siv *sv = vgt_xmalloc(sizeof *sv);
    struct in_struct_ccm *sc = vgt_xmalloc(sizeof *sc);
    struct in_struct_aes *sa = vgt_xmalloc(sizeof *sa);
    struct in_struct_stream *ss = vgt_xmalloc(sizeof *ss);
    CHECK(vg_aes_gcm_init(&sg->k, key, 32) == VG_OK && vg_aes_gcm_siv_init(&sv->k, key, 32) == VG_OK &&
              vg_aes_ccm_init(&sc->k, key, 32) == VG_OK && vg_aes_expand_key(&sa->k, key, 32) == VG_OK,
          "keys inside malloc'd structs");
    CHECK(vg_aes_gcm_seal(&sg->k, nonce, 12, NULL, 0, pt, sizeof pt, a1, t1, 16) == VG_OK, "gcm in struct");
    spec_aes_gcm_seal(key, 32, nonce, 12, NULL, 0, pt, sizeof pt, a2, t2);
    CHECK(memcmp(a1, a2, sizeof pt) == 0 && memcmp(t1, t2, 16) == 0, "gcm key inside a struct: wrong bytes");
    CHECK(vg_aes_gcm_stream_init(&ss->s, &sg->k, nonce, 12) == VG_OK &&
              vg_aes_gcm_stream_encrypt(&ss->s, pt, sizeof pt, a1) == VG_OK &&
              vg_aes_gcm_stream_finish(&ss->s, t1, 16) == VG_OK,
          "gcm stream inside a struct");
    CHECK(memcmp(a1, a2, sizeof pt) == 0 && memcmp(t1, t2, 16) == 0, "gcm stream inside a struct: wrong bytes");
    CHECK(vg_aes_gcm_siv_seal(&sv->k, nonce, 12, NULL, 0, pt, sizeof pt, a1, t1, 16) == VG_OK, "siv in struct");
    spec_aes_gcm_siv_seal(key, 32, nonce, NULL, 0, pt, sizeof pt, a2, t2);
    CHECK(memcmp(a1, a2, sizeof pt) == 0 && memcmp(t1, t2, 16) == 0, "siv key inside a struct: wrong bytes");
    CHECK(vg_aes_ccm_seal(&sc->k, nonce, 12, NULL, 0, pt, sizeof pt, a1, t1, 16) == VG_OK, "ccm in struct");
    spec_aes_ccm_seal(key, 32, nonce, 12, NULL, 0, pt, sizeof pt, a2, t2, 16);
    CHECK(memcmp(a1, a2, sizeof pt) == 0 && memcmp(t1, t2, 16) == 0, "ccm key inside a struct: wrong bytes");
    uint8_t ctr[16] = {1}, ctr2[16] = {1};
    CHECK(vg_aes_ctr_stream_init(&sa->s, &sa->k, ctr) == VG_OK && vg_aes_ctr_stream_xor(&sa->s, pt, a1, 96) == VG_OK,
          "ctr stream in struct");
    spec_aes_ctr32(key, 32, ctr2, pt, a2, 6);
    CHECK(memcmp(a1, a2, 96) == 0, "ctr stream inside a struct: wrong bytes");

    /* memcpy'd keys: to every other 16-byte offset, the original wiped; the copy is a whole key. */
    void *blk;
    if (posix_memalign(&blk, 64, sizeof(vg_aes_gcm_key) + 64) == 0) {
        for (size_t off = 0; off < 64; off += 16) {
            vg_aes_gcm_key *copy = (vg_aes_gcm_key *)(void *)((uint8_t *)blk + off);
            memcpy(copy, &sg->k, sizeof *copy);
            CHECK(vg_aes_gcm_seal(copy, nonce, 12, NULL, 0, pt, sizeof pt, a1, t1, 16) == VG_OK, "gcm copy +%zu", off);
            spec_aes_gcm_seal(key, 32, nonce, 12, NULL, 0, pt, sizeof pt, a2, t2);
            CHECK(memcmp(a1, a2, sizeof pt) == 0 && memcmp(t1, t2, 16) == 0, "memcpy'd gcm key at +%zu: wrong bytes", off);
            /* a stream copied mid-message continues like the original */
            vg_aes_gcm_stream s1, s2;
            CHECK(vg_aes_gcm_stream_init(&s1, copy, nonce, 12) == VG_OK && vg_aes_gcm_stream_encrypt(&s1, pt, 33, a1) == VG_OK,
                  "stream before copy");
            memcpy(&s2, &s1, sizeof s2);
            CHECK(vg_aes_gcm_stream_encrypt(&s2, pt + 33, sizeof pt - 33, a1 + 33) == VG_OK &&
                      vg_aes_gcm_stream_finish(&s2, t1, 16) == VG_OK,
                  "copied stream");
            CHECK(memcmp(a1, a2, sizeof pt) == 0 && memcmp(t1, t2, 16) == 0, "memcpy'd gcm stream: wrong bytes");
            vg_aes_gcm_stream_wipe(&s1);
            vg_aes_gcm_key_wipe(copy);
        }
        free(blk);
    }
    vg_aes_gcm_key_wipe(&sg->k);
    vg_aes_gcm_siv_key_wipe(&sv->k);
    vg_aes_ccm_key_wipe(&sc->k);
    vg_aes_key_wipe(&sa->k);
    free(sg); free(sv); free(sc); free(sa); free(ss);
}

/* ---------------------------------------------------------------------------------------------- */
/* Version and VG_IMPL                                                                             */

static void test_version(void)
{
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", VG_VERSION_MAJOR, VG_VERSION_MINOR, VG_VERSION_PATCH);
    CHECK(strcmp(VG_VERSION_STRING, want) == 0, "VG_VERSION_STRING %s, parts say %s", VG_VERSION_STRING, want);
    CHECK(vg_version() && strcmp(vg_version(), VG_VERSION_STRING) == 0, "vg_version() %s, header %s",
          vg_version() ? vg_version() : "(null)", VG_VERSION_STRING);
}

static void test_impl_env(void)
{
    const char *saved = getenv("VG_IMPL");
    char *copy = saved ? strdup(saved) : NULL;
    CHECK(unsetenv("VG_IMPL") == 0 && vg_impl_env_status() == VG_OK, "VG_IMPL unset: VG_OK");
    CHECK(setenv("VG_IMPL", "", 1) == 0 && vg_impl_env_status() == VG_OK, "VG_IMPL empty: VG_OK");
    CHECK(setenv("VG_IMPL", "portable", 1) == 0 && vg_impl_env_status() == VG_OK, "VG_IMPL=portable: VG_OK");
    CHECK(setenv("VG_IMPL", "auto", 1) == 0 && vg_impl_env_status() == VG_OK, "VG_IMPL=auto: VG_OK");
    CHECK(setenv("VG_IMPL", "no-such-impl", 1) == 0 && vg_impl_env_status() == VG_ERR_UNSUPPORTED,
          "VG_IMPL=no-such-impl: VG_ERR_UNSUPPORTED");
    /* every name this build knows but this CPU cannot run is unsupported too */
    static const char *const all[] = {"vaes512", "vaes256", "aesni", "power9", "power8", "armv8"};
    const char *avail[16];
    size_t n = vg_impl_list(avail, 16);
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        int here = 0;
        for (size_t j = 0; j < n && j < 16; j++) here |= strcmp(avail[j], all[i]) == 0;
        CHECK(setenv("VG_IMPL", all[i], 1) == 0 && vg_impl_env_status() == (here ? VG_OK : VG_ERR_UNSUPPORTED),
              "VG_IMPL=%s (%s here)", all[i], here ? "available" : "not available");
    }
    if (copy) { CHECK(setenv("VG_IMPL", copy, 1) == 0, "restore VG_IMPL"); free(copy); }
    else CHECK(unsetenv("VG_IMPL") == 0, "restore VG_IMPL");
}

int main(int argc, char **argv)
{
    vgt_init(argc, argv);
    test_wrong_types();
    test_wiped_key_under_stream();
    test_placement();
    test_version();
    test_impl_env();
    return vgt_finish();
}
