/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * test_aes.c — the AES block functions against the executable spec, and their bad input.
 *
 *   differential   ECB both ways and CTR32 for every nblocks 0..300 and every key size (a fresh random
 *                  key each time), in place and out of place, in/out at every offset 0..15 from a
 *                  64-byte-aligned base, guard bytes around out checked untouched
 *   counter        inc32 wrap: the last word 0xFFFFFFF0.. so 2^32 is crossed inside an 8-block batch
 *                  and inside the tail, and 0xFFFFFFFF exactly; the written-back counter; nblocks 0
 *   key set-up     every wrong length -> VG_ERR_KEY_LENGTH with the key struct byte-for-byte
 *                  untouched; NULL struct / NULL key -> VG_ERR_ARG; re-keying; wipe zeroes
 *   misuse         ECB and CTR32 return VG_ERR_ARG with out and counter untouched for a NULL, zeroed,
 *                  garbage or wiped key, NULL buffers, NULL counter, nblocks * 16 overflowing, partly
 *                  overlapping in/out, a counter overlapping in or out; nblocks 0 is VG_OK
 *   selection      vg_impl_select / vg_impl_name / vg_impl_list agree; unknown names refused; a key
 *                  keeps the implementation that set it up whatever is selected later
 *   vg_strerror    every code has its own non-NULL sentence
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "internal.h" /* white-box: which implementation a key recorded */
#include "spec.h"

#define MAX_BLOCKS 300
#define GUARD 64
#define GUARD_BYTE 0xC3

static const size_t key_sizes[3] = {16, 24, 32};

/* Two arenas (in and out), each with room for the largest message at any offset and a guard region
   on both sides. Aligned so "offset k" really means k bytes past a 64-byte boundary. */
#define ARENA (GUARD + 16 + MAX_BLOCKS * 16 + GUARD)
static _Alignas(64) uint8_t in_arena[ARENA];
static _Alignas(64) uint8_t out_arena[ARENA];
static uint8_t msg[MAX_BLOCKS * 16];
static uint8_t want[MAX_BLOCKS * 16];

/* 1 if every byte of [p, p+n) is GUARD_BYTE. */
static int is_guard(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != GUARD_BYTE) return 0;
    return 1;
}

/* Checks the out arena outside [out, out+len) still holds the guard pattern. */
static void check_out_guards(const uint8_t *out, size_t len, const char *what, size_t nblocks)
{
    size_t before = (size_t)(out - out_arena);
    CHECK(is_guard(out_arena, before), "%s nblocks=%zu: wrote before out", what, nblocks);
    CHECK(is_guard(out + len, (size_t)(out_arena + ARENA - (out + len))), "%s nblocks=%zu: wrote past out",
          what, nblocks);
}

enum op { OP_ENC, OP_DEC, OP_CTR };
static const char *op_name[3] = {"ecb_encrypt", "ecb_decrypt", "ctr32"};

/* One call of op on nblocks random blocks with a fresh random key of key_len bytes. The input sits at
   in_off in the in arena; out at out_off in the out arena, or on the input itself (in place, the input
   copied to out_off first). Compares with the spec, checks the guards and, for CTR, the counter. */
static void one_call(enum op op, size_t key_len, size_t nblocks, size_t in_off, size_t out_off, int in_place,
                     int near_wrap)
{
    uint8_t key[32], ctr[16], ctr_spec[16];
    size_t len = nblocks * 16;
    vgt_rand_bytes(key, key_len);
    vgt_rand_bytes(msg, len);
    vgt_rand_bytes(ctr, 16);
    if (near_wrap) { /* last word within 20 below 2^32, so this call crosses the wrap for most nblocks */
        uint32_t w = 0xFFFFFFFFu - (uint32_t)vgt_rand_below(20);
        ctr[12] = (uint8_t)(w >> 24); ctr[13] = (uint8_t)(w >> 16); ctr[14] = (uint8_t)(w >> 8); ctr[15] = (uint8_t)w;
    }
    memcpy(ctr_spec, ctr, 16);

    if (op == OP_ENC) spec_aes_ecb_encrypt(key, key_len, msg, want, nblocks);
    else if (op == OP_DEC) spec_aes_ecb_decrypt(key, key_len, msg, want, nblocks);
    else spec_aes_ctr32(key, key_len, ctr_spec, msg, want, nblocks);

    vg_aes_key k;
    if (!CHECK(vg_aes_expand_key(&k, key, key_len) == VG_OK, "expand_key(%zu)", key_len)) return;

    memset(in_arena, 0x5A, sizeof in_arena);
    memset(out_arena, GUARD_BYTE, sizeof out_arena);
    uint8_t *in = in_arena + GUARD + in_off;
    uint8_t *out = out_arena + GUARD + out_off;
    memcpy(in_place ? out : in, msg, len);
    if (in_place) in = out;

    int rc;
    if (op == OP_ENC) rc = vg_aes_ecb_encrypt(&k, in, out, nblocks);
    else if (op == OP_DEC) rc = vg_aes_ecb_decrypt(&k, in, out, nblocks);
    else rc = vg_aes_ctr32(&k, ctr, in, out, nblocks);
    CHECK(rc == VG_OK, "%s nblocks=%zu returned %d", op_name[op], nblocks, rc);

    CHECK_BYTES(out, want, len, "%s key=%zu nblocks=%zu in+%zu out+%zu%s", op_name[op], key_len, nblocks, in_off,
                out_off, in_place ? " in place" : "");
    check_out_guards(out, len, op_name[op], nblocks);
    if (!in_place && len) CHECK_BYTES(in, msg, len, "%s nblocks=%zu: input changed", op_name[op], nblocks);
    if (op == OP_CTR)
        CHECK_BYTES(ctr, ctr_spec, 16, "ctr32 counter write-back, key=%zu nblocks=%zu", key_len, nblocks);
    vg_aes_key_wipe(&k);
}

static int quick_skip(size_t n)
{
    /* --quick: 0..40 whole, then every 7th, and the batch edges near the top. */
    if (!vgt_quick() || n <= 40) return 0;
    if (n % 7 == 0) return 0;
    return !(n == 127 || n == 128 || n == 129 || n == 255 || n == 256 || n == 257 || n == 299 || n == 300);
}

static void test_differential(void)
{
    for (int op = 0; op < 3; op++)
        for (size_t ks = 0; ks < 3; ks++)
            for (size_t n = 0; n <= MAX_BLOCKS; n++) {
                if (quick_skip(n)) continue;
                size_t in_off = n % 16, out_off = (n * 7 + 3) % 16;
                one_call((enum op)op, key_sizes[ks], n, in_off, out_off, n % 3 == 0, op == OP_CTR && n % 8 == 5);
            }
}

/* Every in/out offset pair, with block counts that land in different batch/tail shapes. */
static void test_offsets(void)
{
    for (size_t in_off = 0; in_off < 16; in_off++)
        for (size_t out_off = 0; out_off < 16; out_off++) {
            if (vgt_quick() && out_off != (in_off * 5 + 1) % 16 && out_off != 0) continue;
            size_t n = 1 + (in_off * 16 + out_off) % 19;
            for (int op = 0; op < 3; op++) {
                one_call((enum op)op, key_sizes[(in_off + out_off) % 3], n, in_off, out_off, 0, 0);
                if (in_off == out_off) one_call((enum op)op, key_sizes[in_off % 3], n + 8, in_off, out_off, 1, 0);
            }
        }
}

/* inc32 across 2^32: the last word starts at 0xFFFFFFFF - d, so the wrap happens after d + 1 blocks;
   nblocks 1..40 puts it inside the first 8-block batch, a later batch, and the tail after the batches.
   Each output block is also checked against E(counter block) built here by hand, so a spec error in
   the wrap would show too. */
static void test_counter_wrap(void)
{
    uint8_t key[32], ctr0[16], ctr[16], blk[16], expect_ctr[16];
    for (size_t d = 0; d <= 20; d++)
        for (size_t n = 0; n <= 40; n++) {
            if (vgt_quick() && d % 3 != 0 && n % 3 != 1) continue;
            size_t key_len = key_sizes[(d + n) % 3];
            vgt_rand_bytes(key, key_len);
            vgt_rand_bytes(ctr0, 12);
            uint32_t w0 = 0xFFFFFFFFu - (uint32_t)d;
            vg_store32_be(ctr0 + 12, w0);
            vgt_rand_bytes(msg, n * 16);

            vg_aes_key k;
            CHECK(vg_aes_expand_key(&k, key, key_len) == VG_OK, "expand_key");
            memset(out_arena, GUARD_BYTE, sizeof out_arena);
            uint8_t *out = out_arena + GUARD;
            memcpy(ctr, ctr0, 16);
            CHECK(vg_aes_ctr32(&k, ctr, msg, out, n) == VG_OK, "ctr32 wrap");
            check_out_guards(out, n * 16, "ctr32 wrap", n);

            for (size_t i = 0; i < n; i++) {
                uint8_t cb[16];
                memcpy(cb, ctr0, 12);
                vg_store32_be(cb + 12, (uint32_t)(w0 + (uint32_t)i)); /* mod 2^32 */
                spec_aes_encrypt_block(key, key_len, cb, blk);
                for (int j = 0; j < 16; j++) blk[j] ^= msg[16 * i + j];
                if (!CHECK_BYTES(out + 16 * i, blk, 16, "ctr32 wrap d=%zu nblocks=%zu block %zu", d, n, i)) break;
            }
            memcpy(expect_ctr, ctr0, 12);
            vg_store32_be(expect_ctr + 12, (uint32_t)(w0 + (uint32_t)n));
            CHECK_BYTES(ctr, expect_ctr, 16, "ctr32 wrap counter write-back d=%zu nblocks=%zu", d, n);
            vg_aes_key_wipe(&k);
        }

    /* 0xFFFFFFFF exactly, in place, over a long run: block 1 uses counter word 0. */
    for (size_t n = 1; n <= 70; n += vgt_quick() ? 23 : 1) {
        uint8_t key_b[16];
        vgt_rand_bytes(key_b, 16);
        memset(ctr0, 0xFF, 16);
        memcpy(ctr, ctr0, 16);
        vgt_rand_bytes(msg, n * 16);
        memcpy(want, msg, n * 16);
        uint8_t sc[16];
        memcpy(sc, ctr0, 16);
        spec_aes_ctr32(key_b, 16, sc, want, want, n);
        vg_aes_key k;
        CHECK(vg_aes_expand_key(&k, key_b, 16) == VG_OK, "expand_key");
        CHECK(vg_aes_ctr32(&k, ctr, msg, msg, n) == VG_OK, "ctr32 in place");
        CHECK_BYTES(msg, want, n * 16, "ctr32 from ffff..ff nblocks=%zu in place", n);
        memset(expect_ctr, 0xFF, 12);
        vg_store32_be(expect_ctr + 12, (uint32_t)(n - 1));
        CHECK_BYTES(ctr, expect_ctr, 16, "ctr32 from ffff..ff counter nblocks=%zu", n);
    }

    /* nblocks 0: nothing written, counter unchanged. */
    {
        uint8_t key_b[16] = {1};
        vg_aes_key k;
        CHECK(vg_aes_expand_key(&k, key_b, 16) == VG_OK, "expand_key");
        vgt_rand_bytes(ctr0, 16);
        memcpy(ctr, ctr0, 16);
        memset(out_arena, GUARD_BYTE, sizeof out_arena);
        CHECK(vg_aes_ctr32(&k, ctr, msg, out_arena + GUARD, 0) == VG_OK, "ctr32 nblocks=0 is VG_OK");
        CHECK_BYTES(ctr, ctr0, 16, "ctr32 nblocks=0 changed the counter");
        CHECK(is_guard(out_arena, sizeof out_arena), "ctr32 nblocks=0 wrote");
        CHECK(vg_aes_ctr32(&k, ctr, NULL, NULL, 0) == VG_OK, "ctr32 nblocks=0 NULL buffers is VG_OK");
        CHECK_BYTES(ctr, ctr0, 16, "ctr32 nblocks=0 NULL buffers changed the counter");
        CHECK(vg_aes_ecb_encrypt(&k, NULL, NULL, 0) == VG_OK, "ecb_encrypt nblocks=0 is VG_OK");
        CHECK(vg_aes_ecb_decrypt(&k, NULL, NULL, 0) == VG_OK, "ecb_decrypt nblocks=0 is VG_OK");
        CHECK(vg_aes_ctr32(&k, NULL, NULL, NULL, 0) == VG_ERR_ARG, "ctr32 NULL counter, nblocks=0");
    }
}

static void test_key_setup(void)
{
    static const size_t bad_lens[] = {0, 1, 2, 8, 15, 17, 20, 23, 25, 31, 33, 48, 64, 256, SIZE_MAX};
    uint8_t key[64], pattern[sizeof(vg_aes_key)];
    vgt_rand_bytes(key, sizeof key);
    vgt_rand_bytes(pattern, sizeof pattern);
    vg_aes_key k;

    for (size_t i = 0; i < sizeof bad_lens / sizeof bad_lens[0]; i++) {
        memcpy(&k, pattern, sizeof k);
        CHECK(vg_aes_expand_key(&k, key, bad_lens[i]) == VG_ERR_KEY_LENGTH, "expand_key len %zu", bad_lens[i]);
        CHECK(memcmp(&k, pattern, sizeof k) == 0, "expand_key len %zu touched the key", bad_lens[i]);
        /* The length is checked before the pointer: NULL key with a wrong length is a length error. */
        CHECK(vg_aes_expand_key(&k, NULL, bad_lens[i]) == VG_ERR_KEY_LENGTH, "expand_key NULL key len %zu",
              bad_lens[i]);
        CHECK(memcmp(&k, pattern, sizeof k) == 0, "expand_key NULL key len %zu touched the key", bad_lens[i]);
        CHECK(vg_aes_expand_key(NULL, key, bad_lens[i]) == VG_ERR_ARG, "expand_key NULL k len %zu", bad_lens[i]);
    }
    for (size_t ks = 0; ks < 3; ks++) {
        memcpy(&k, pattern, sizeof k);
        CHECK(vg_aes_expand_key(&k, NULL, key_sizes[ks]) == VG_ERR_ARG, "expand_key NULL key len %zu", key_sizes[ks]);
        CHECK(memcmp(&k, pattern, sizeof k) == 0, "expand_key NULL key touched the key");
        CHECK(vg_aes_expand_key(NULL, key, key_sizes[ks]) == VG_ERR_ARG, "expand_key NULL k");
        CHECK(vg_aes_expand_key(NULL, NULL, key_sizes[ks]) == VG_ERR_ARG, "expand_key NULL k, NULL key");
    }

    /* A failed re-key leaves the old key whole and working; a good one replaces it. */
    uint8_t blk[16], got[16], exp[16];
    vgt_rand_bytes(blk, 16);
    CHECK(vg_aes_expand_key(&k, key, 32) == VG_OK, "expand_key 32");
    uint8_t saved[sizeof k];
    memcpy(saved, &k, sizeof k);
    CHECK(vg_aes_expand_key(&k, key + 1, 31) == VG_ERR_KEY_LENGTH, "re-key 31");
    CHECK(memcmp(saved, &k, sizeof k) == 0, "failed re-key touched the key");
    CHECK(vg_aes_ecb_encrypt(&k, blk, got, 1) == VG_OK, "ecb");
    spec_aes_encrypt_block(key, 32, blk, exp);
    CHECK_BYTES(got, exp, 16, "key after failed re-key");
    CHECK(vg_aes_expand_key(&k, key + 7, 16) == VG_OK, "re-key 16");
    CHECK(vg_aes_ecb_encrypt(&k, blk, got, 1) == VG_OK, "ecb");
    spec_aes_encrypt_block(key + 7, 16, blk, exp);
    CHECK_BYTES(got, exp, 16, "key after re-key 32 -> 16");
    CHECK(vg_aes_ecb_decrypt(&k, exp, got, 1) == VG_OK, "ecb decrypt");
    CHECK_BYTES(got, blk, 16, "decrypt after re-key 32 -> 16");

    /* A key expanded from a key buffer that is then overwritten does not depend on the buffer. */
    uint8_t kb[24];
    vgt_rand_bytes(kb, 24);
    spec_aes_encrypt_block(kb, 24, blk, exp);
    CHECK(vg_aes_expand_key(&k, kb, 24) == VG_OK, "expand_key 24");
    memset(kb, 0, sizeof kb);
    CHECK(vg_aes_ecb_encrypt(&k, blk, got, 1) == VG_OK, "ecb");
    CHECK_BYTES(got, exp, 16, "key independent of the caller's key buffer");

    /* Wipe zeroes every byte; the wiped key is refused (nothing written). */
    vg_aes_key_wipe(&k);
    CHECK(vgt_all_zero((const uint8_t *)&k, sizeof k), "vg_aes_key_wipe left non-zero bytes");
    memset(got, 0x77, 16);
    CHECK(vg_aes_ecb_encrypt(&k, blk, got, 1) == VG_ERR_ARG, "ECB with a wiped key is VG_ERR_ARG");
    CHECK(got[0] == 0x77 && got[15] == 0x77, "ECB with a wiped key wrote");
    vg_aes_key_wipe(NULL);
    CHECK(1, "vg_aes_key_wipe(NULL) returned");
}

/* Every misuse is VG_ERR_ARG with nothing written: out (the whole arena) and counter untouched. */
static void test_block_misuse(void)
{
    uint8_t key[16], ctr0[16], ctr[16];
    vgt_rand_bytes(key, 16);
    vgt_rand_bytes(ctr0, 16);
    vg_aes_key good, zeroed, garbage, wiped;
    CHECK(vg_aes_expand_key(&good, key, 16) == VG_OK, "expand_key");
    memset(&zeroed, 0, sizeof zeroed);
    vgt_rand_bytes((uint8_t *)&garbage, sizeof garbage);
    CHECK(vg_aes_expand_key(&wiped, key, 16) == VG_OK, "expand_key");
    vg_aes_key_wipe(&wiped);
    const vg_aes_key *bad_keys[4] = {NULL, &zeroed, &garbage, &wiped};
    static const char *bad_key_name[4] = {"NULL", "zeroed", "garbage", "wiped"};
    uint8_t *in = in_arena + GUARD, *out = out_arena + GUARD;
    vgt_rand_bytes(in, 64);

    for (int b = 0; b < 4; b++)
        for (int op = 0; op < 3; op++) {
            memset(out_arena, GUARD_BYTE, sizeof out_arena);
            memcpy(ctr, ctr0, 16);
            int rc;
            if (op == OP_ENC) rc = vg_aes_ecb_encrypt(bad_keys[b], in, out, 4);
            else if (op == OP_DEC) rc = vg_aes_ecb_decrypt(bad_keys[b], in, out, 4);
            else rc = vg_aes_ctr32(bad_keys[b], ctr, in, out, 4);
            CHECK(rc == VG_ERR_ARG, "%s with %s key returned %d", op_name[op], bad_key_name[b], rc);
            CHECK(is_guard(out_arena, sizeof out_arena), "%s with %s key wrote", op_name[op], bad_key_name[b]);
            CHECK_BYTES(ctr, ctr0, 16, "%s with %s key changed the counter", op_name[op], bad_key_name[b]);
        }

    /* NULL in or out with nblocks > 0; NULL counter. */
    for (int op = 0; op < 3; op++) {
        memset(out_arena, GUARD_BYTE, sizeof out_arena);
        memcpy(ctr, ctr0, 16);
        int r1, r2, r3 = VG_ERR_ARG, r4 = VG_ERR_ARG, r5 = VG_ERR_ARG;
        if (op == OP_ENC) {
            r1 = vg_aes_ecb_encrypt(&good, NULL, out, 2);
            r2 = vg_aes_ecb_encrypt(&good, in, NULL, 2);
            r3 = vg_aes_ecb_encrypt(&good, in, out, SIZE_MAX / 8); /* nblocks * 16 overflows */
        } else if (op == OP_DEC) {
            r1 = vg_aes_ecb_decrypt(&good, NULL, out, 2);
            r2 = vg_aes_ecb_decrypt(&good, in, NULL, 2);
            r3 = vg_aes_ecb_decrypt(&good, in, out, SIZE_MAX / 8);
        } else {
            r1 = vg_aes_ctr32(&good, ctr, NULL, out, 2);
            r2 = vg_aes_ctr32(&good, ctr, in, NULL, 2);
            r3 = vg_aes_ctr32(&good, NULL, in, out, 2);
            r4 = vg_aes_ctr32(&good, ctr, in, out, SIZE_MAX / 8);
            /* the counter inside out or in: two outputs (or an input and the counter) would mix */
            memcpy(out + 16, ctr0, 16);
            r5 = vg_aes_ctr32(&good, out + 16, in, out, 2);
            CHECK_BYTES(out + 16, ctr0, 16, "ctr32 with the counter inside out changed it");
            memset(out + 16, GUARD_BYTE, 16);
            memcpy(in + 32 - 8, ctr0, 16); /* straddles the end of in (2 blocks) */
            CHECK(vg_aes_ctr32(&good, in + 24, in, out, 2) == VG_ERR_ARG, "ctr32 counter overlapping in");
            vgt_rand_bytes(in, 64);
        }
        CHECK(r1 == VG_ERR_ARG && r2 == VG_ERR_ARG && r3 == VG_ERR_ARG && r4 == VG_ERR_ARG && r5 == VG_ERR_ARG,
              "%s misuse codes %d %d %d %d %d", op_name[op], r1, r2, r3, r4, r5);
        CHECK(is_guard(out_arena, sizeof out_arena), "%s with a NULL buffer wrote", op_name[op]);
        CHECK_BYTES(ctr, ctr0, 16, "%s with a NULL buffer changed the counter", op_name[op]);
    }

    /* Partial overlap: out = in + d for every d in 1..nblocks*16-1, either way round. The buffer
       holds random bytes; nothing of it may change. in == out (d = 0) is legal and tested elsewhere;
       out right after in (d = len) is legal too and checked here to work. */
    const size_t nb = 3, len = nb * 16;
    uint8_t *buf = in_arena + GUARD, snap[2 * 3 * 16 + 16];
    for (size_t d = 1; d <= len; d++)
        for (int dir = 0; dir < 2; dir++)
            for (int op = 0; op < 3; op++) {
                vgt_rand_bytes(buf, 2 * len + 16);
                memcpy(snap, buf, 2 * len + 16);
                memcpy(ctr, ctr0, 16);
                const uint8_t *pi = dir ? buf + d : buf;
                uint8_t *po = dir ? buf : buf + d;
                int rc;
                if (op == OP_ENC) rc = vg_aes_ecb_encrypt(&good, pi, po, nb);
                else if (op == OP_DEC) rc = vg_aes_ecb_decrypt(&good, pi, po, nb);
                else rc = vg_aes_ctr32(&good, ctr, pi, po, nb);
                CHECK(rc == (d < len ? VG_ERR_ARG : VG_OK), "%s overlap d=%zu returned %d", op_name[op], d, rc);
                if (d < len) {
                    CHECK(memcmp(buf, snap, 2 * len + 16) == 0, "%s partial overlap %s%zu wrote", op_name[op],
                          dir ? "in=out+" : "out=in+", d);
                    CHECK_BYTES(ctr, ctr0, 16, "%s partial overlap changed the counter", op_name[op]);
                } else {
                    /* adjacent, not overlapping: must have run */
                    uint8_t exp[48], sc[16];
                    memcpy(sc, ctr0, 16);
                    if (op == OP_ENC) spec_aes_ecb_encrypt(key, 16, snap + (dir ? d : 0), exp, nb);
                    else if (op == OP_DEC) spec_aes_ecb_decrypt(key, 16, snap + (dir ? d : 0), exp, nb);
                    else spec_aes_ctr32(key, 16, sc, snap + (dir ? d : 0), exp, nb);
                    CHECK_BYTES(po, exp, len, "%s adjacent buffers (%s)", op_name[op], dir ? "out before in" : "in before out");
                }
            }
}

/* The white-box name of the implementation a key recorded. */
static const char *key_impl_name(const vg_aes_key *k)
{
    const struct vg_aes_key_state *st = (const struct vg_aes_key_state *)(const void *)k->opaque;
    return st->impl ? st->impl->name : "(none)";
}

static void check_key_works(const vg_aes_key *k, const uint8_t *key, size_t key_len, const char *what)
{
    uint8_t in[16 * 20], got[16 * 20], exp[16 * 20], c1[16], c2[16];
    vgt_rand_bytes(in, sizeof in);
    vgt_rand_bytes(c1, 16);
    memcpy(c2, c1, 16);
    CHECK(vg_aes_ecb_encrypt(k, in, got, 20) == VG_OK, "%s: ecb_encrypt rc", what);
    spec_aes_ecb_encrypt(key, key_len, in, exp, 20);
    CHECK_BYTES(got, exp, sizeof got, "%s: ecb_encrypt", what);
    CHECK(vg_aes_ecb_decrypt(k, in, got, 20) == VG_OK, "%s: ecb_decrypt rc", what);
    spec_aes_ecb_decrypt(key, key_len, in, exp, 20);
    CHECK_BYTES(got, exp, sizeof got, "%s: ecb_decrypt", what);
    CHECK(vg_aes_ctr32(k, c1, in, got, 20) == VG_OK, "%s: ctr32 rc", what);
    spec_aes_ctr32(key, key_len, c2, in, exp, 20);
    CHECK_BYTES(got, exp, sizeof got, "%s: ctr32", what);
}

static void test_selection(void)
{
    const char *under_test = vgt_impl();
    size_t n = vg_impl_list(NULL, 0);
    CHECK(n >= 1, "vg_impl_list counts %zu implementations", n);
    if (n == 0 || n > 16) return;

    /* max smaller than the count: only max entries written, the count still returned */
    const char *sentinel = "sentinel";
    const char *names[20];
    for (int i = 0; i < 20; i++) names[i] = sentinel;
    CHECK(vg_impl_list(names, 1) == n, "vg_impl_list(names, 1) returns the full count");
    CHECK(names[0] != sentinel && names[1] == sentinel, "vg_impl_list(names, 1) wrote exactly one name");
    for (int i = 0; i < 20; i++) names[i] = sentinel;
    CHECK(vg_impl_list(names, 20) == n, "vg_impl_list(names, 20)");
    CHECK(names[n] == sentinel, "vg_impl_list wrote past the count");
    CHECK(vg_impl_list(names, 0) == n && names[n] == sentinel, "vg_impl_list(names, 0)");

    int has_portable = 0, has_current = 0;
    for (size_t i = 0; i < n; i++) {
        if (!CHECK(names[i] != NULL && names[i] != sentinel && names[i][0], "vg_impl_list name %zu", i)) return;
        has_portable |= strcmp(names[i], "portable") == 0;
        has_current |= strcmp(names[i], under_test) == 0;
        for (size_t j = 0; j < i; j++) CHECK(strcmp(names[i], names[j]) != 0, "vg_impl_list repeats %s", names[i]);
    }
    CHECK(has_portable, "\"portable\" is listed");
    CHECK(has_current, "the implementation under test (%s) is listed", under_test);

    for (size_t i = 0; i < n; i++) {
        CHECK(vg_impl_select(names[i]) == VG_OK, "select %s", names[i]);
        CHECK(strcmp(vg_impl_name(), names[i]) == 0, "after select %s, vg_impl_name = %s", names[i], vg_impl_name());
    }
    CHECK(vg_impl_select("auto") == VG_OK, "select auto");
    CHECK(strcmp(vg_impl_name(), names[0]) == 0, "auto selects the best (%s), got %s", names[0], vg_impl_name());

    /* Refused names leave the selection as it was. */
    CHECK(vg_impl_select(under_test) == VG_OK, "select %s", under_test);
    static const char *bogus[] = {"no-such", "", "portable ", "Portable", "autox", "portable\n"};
    for (size_t i = 0; i < sizeof bogus / sizeof bogus[0]; i++) {
        CHECK(vg_impl_select(bogus[i]) == VG_ERR_UNSUPPORTED, "select \"%s\" refused", bogus[i]);
        CHECK(strcmp(vg_impl_name(), under_test) == 0, "refused select changed the selection");
    }
    CHECK(vg_impl_select(NULL) == VG_ERR_ARG, "select NULL");
    CHECK(strcmp(vg_impl_name(), under_test) == 0, "select NULL changed the selection");

    /* A key keeps its implementation: set up under the implementation under test, then every other
       one selected in turn; the key must still give the spec's answers and still name its own. */
    uint8_t key[32];
    for (size_t ks = 0; ks < 3; ks++) {
        vg_aes_key k;
        vgt_rand_bytes(key, key_sizes[ks]);
        CHECK(vg_impl_select(under_test) == VG_OK, "impl_select");
        CHECK(vg_aes_expand_key(&k, key, key_sizes[ks]) == VG_OK, "expand_key");
        CHECK(strcmp(key_impl_name(&k), under_test) == 0, "key set up under %s records %s", under_test,
              key_impl_name(&k));
        for (size_t i = 0; i < n; i++) {
            CHECK(vg_impl_select(names[i]) == VG_OK, "impl_select");
            char what[96];
            snprintf(what, sizeof what, "key from %s used while %s selected", under_test, names[i]);
            check_key_works(&k, key, key_sizes[ks], what);
            CHECK(strcmp(key_impl_name(&k), under_test) == 0, "%s: key now records %s", what, key_impl_name(&k));
            /* and a key made now takes the new selection */
            vg_aes_key k2;
            CHECK(vg_aes_expand_key(&k2, key, key_sizes[ks]) == VG_OK, "expand_key");
            CHECK(strcmp(key_impl_name(&k2), names[i]) == 0, "key set up under %s records %s", names[i],
                  key_impl_name(&k2));
            snprintf(what, sizeof what, "key from %s", names[i]);
            check_key_works(&k2, key, key_sizes[ks], what);
        }
    }
    CHECK(vg_impl_select(under_test) == VG_OK && strcmp(vg_impl_name(), under_test) == 0, "restore selection");
}

static void test_strerror(void)
{
    const char *s[8];
    for (int c = 0; c >= -7; c--) {
        s[-c] = vg_strerror(c);
        CHECK(s[-c] != NULL && s[-c][0] != 0, "vg_strerror(%d) empty or NULL", c);
        if (!s[-c]) return;
        for (int d = 0; d > c; d--) CHECK(strcmp(s[-c], s[-d]) != 0, "vg_strerror(%d) == vg_strerror(%d)", c, d);
    }
    static const int unknown[] = {1, 2, -8, -100, 1000, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        const char *u = vg_strerror(unknown[i]);
        CHECK(u != NULL && u[0] != 0, "vg_strerror(%d) empty or NULL", unknown[i]);
        if (!u) continue;
        for (int c = 0; c < 8; c++) CHECK(strcmp(u, s[c]) != 0, "vg_strerror(%d) reads as a known code", unknown[i]);
    }
    CHECK(VG_ERR_KEY_LENGTH != VG_ERR_ARG && VG_ERR_AUTH < 0 && VG_OK == 0, "error codes");
}

int main(int argc, char **argv)
{
    vgt_init(argc, argv);
    test_strerror();
    test_key_setup();
    test_differential();
    test_offsets();
    test_counter_wrap();
    test_block_misuse();
    test_selection();
    return vgt_finish();
}
