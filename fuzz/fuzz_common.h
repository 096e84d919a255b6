/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * fuzz_common.h — shared helpers for the libFuzzer targets: splitting the input into parameters and
 * byte strings, iterating over every available implementation, and the checks every target repeats.
 *
 * Every byte of a fuzz input is consumed front to back by fz_byte/fz_bytes; when the input runs out the
 * readers return zeros / short strings, so any input (including the empty one) is a valid test case.
 * The same input always produces the same calls (no hidden randomness), so a crash reproduces.
 */
#ifndef VG_FUZZ_COMMON_H
#define VG_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vg.h"

typedef struct {
    const uint8_t *p;
    size_t n; /* bytes left */
} fz_in;

static inline uint8_t fz_byte(fz_in *in)
{
    if (in->n == 0)
        return 0;
    in->n--;
    return *in->p++;
}

static inline uint32_t fz_u16(fz_in *in)
{
    uint32_t hi = fz_byte(in);
    return (hi << 8) | fz_byte(in);
}

/* Up to want bytes; *got says how many were available. The pointer stays inside the fuzz input. */
static inline const uint8_t *fz_bytes(fz_in *in, size_t want, size_t *got)
{
    const uint8_t *r = in->p;
    if (want > in->n)
        want = in->n;
    in->p += want;
    in->n -= want;
    *got = want;
    return r;
}

/* Exactly len bytes into dst, zero-padded when the input is short (keys and nonces have fixed sizes). */
static inline void fz_fill(fz_in *in, uint8_t *dst, size_t len)
{
    size_t got;
    const uint8_t *s = fz_bytes(in, len, &got);
    memcpy(dst, s, got);
    memset(dst + got, 0, len - got);
}

/* A small deterministic generator seeded from the input, for chunk lengths of the streaming APIs:
   xorshift32 (Marsaglia 2003). The seed is forced odd so it is never the fixed point 0. */
static inline uint32_t fz_rng(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *s = x;
    return x;
}

/* Next chunk length in [0, left]: mostly short (0..47 bytes, to cross block boundaries in every
   way), sometimes all that is left, so both many-small-calls and one-big-call paths run. */
static inline size_t fz_chunk(uint32_t *s, size_t left)
{
    uint32_t r = fz_rng(s);
    size_t c = (r & 7) == 0 ? left : (size_t)((r >> 3) % 48);
    return c > left ? left : c;
}

#define FZ_FAIL(...)                                                                              \
    do {                                                                                          \
        fprintf(stderr, "FUZZ FAILURE %s:%d [impl %s]: ", __FILE__, __LINE__, vg_impl_name());      \
        fprintf(stderr, __VA_ARGS__);                                                             \
        fprintf(stderr, "\n");                                                                    \
        abort();                                                                                  \
    } while (0)

#define FZ_CHECK(cond, ...)                                                                       \
    do {                                                                                          \
        if (!(cond))                                                                              \
            FZ_FAIL(__VA_ARGS__);                                                                 \
    } while (0)

#define FZ_EQ(a, b, len, what) FZ_CHECK(memcmp((a), (b), (len)) == 0, "%s differs", (what))

static inline int fz_all(const uint8_t *p, size_t len, uint8_t v)
{
    for (size_t i = 0; i < len; i++)
        if (p[i] != v)
            return 0;
    return 1;
}

/* The implementations this CPU can run, fetched once. */
#define FZ_MAX_IMPLS 16
static inline size_t fz_impls(const char ***names)
{
    static const char *list[FZ_MAX_IMPLS];
    static size_t n;
    if (n == 0) {
        n = vg_impl_list(list, FZ_MAX_IMPLS);
        if (n > FZ_MAX_IMPLS)
            n = FZ_MAX_IMPLS;
        if (n == 0)
            FZ_FAIL("vg_impl_list returned no implementation");
    }
    *names = list;
    return n;
}

static inline void fz_select(const char *name)
{
    int rc = vg_impl_select(name);
    FZ_CHECK(rc == VG_OK, "vg_impl_select(%s) = %d for a listed implementation", name, rc);
}

/* Valid key lengths of AES and GCM/CCM; GCM-SIV takes only 16 and 32. */
static const size_t fz_aes_key_lens[3] = {16, 24, 32};

/* Sentinel a rejected call must leave in place (chosen so it is neither 0 nor a likely output). */
#define FZ_SENTINEL 0xA5

/* Largest message/AAD the targets build: the spec costs ~5-10 us per block, so keep executions fast
   while still covering several 8-block batches and every tail. */
#define FZ_MAX_MSG 1100
#define FZ_MAX_AAD 300

/*
 * The one-shot checks the three AEAD targets share. Their seal and open take the same arguments in the
 * same order, up to the key's type, so each target passes two thin wrappers taking the key as
 * const void *. A case is a message the spec sealed (want, want_tag) and one single-byte forgery of it
 * (noncem, aadm, mct, tagm) that the spec accepts exactly when forged_ok. got and pt hold FZ_MAX_MSG.
 */
typedef int (*fz_seal_fn)(const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                          size_t aad_len, const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag,
                          size_t tag_len);
typedef int (*fz_open_fn)(const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                          size_t aad_len, const uint8_t *in, size_t len, const uint8_t *tag,
                          size_t tag_len, uint8_t *out);
typedef struct {
    const char *name; /* "GCM", "GCM-SIV", "CCM": for the messages */
    fz_seal_fn seal;
    fz_open_fn open;
} fz_aead;
typedef struct {
    const uint8_t *nonce, *aad, *msg, *want, *want_tag;
    size_t nonce_len, aad_len, len, tag_len;
    const uint8_t *noncem, *aadm, *mct, *tagm;
    int forged_ok;
    unsigned what; /* which input the forgery changed: 0 ct, 1 tag, 2 nonce, 3 AAD */
} fz_aead_case;

static inline void fz_check_aead(const fz_aead *a, const void *k, const fz_aead_case *c, uint8_t *got,
                                 uint8_t *pt)
{
    uint8_t tag[16];
    size_t len = c->len, tag_len = c->tag_len;
    /* Seal, separate buffers then in place: the spec's bytes, nothing written past tag_len. */
    memset(tag, FZ_SENTINEL, sizeof tag);
    int rc = a->seal(k, c->nonce, c->nonce_len, c->aad, c->aad_len, c->msg, len, got, tag, tag_len);
    FZ_CHECK(rc == VG_OK, "%s seal = %d", a->name, rc);
    FZ_CHECK(memcmp(got, c->want, len) == 0, "%s ciphertext differs", a->name);
    FZ_CHECK(memcmp(tag, c->want_tag, tag_len) == 0, "%s tag differs", a->name);
    FZ_CHECK(fz_all(tag + tag_len, 16 - tag_len, FZ_SENTINEL), "%s seal wrote past tag_len", a->name);
    memcpy(pt, c->msg, len);
    rc = a->seal(k, c->nonce, c->nonce_len, c->aad, c->aad_len, pt, len, pt, tag, tag_len);
    FZ_CHECK(rc == VG_OK, "%s seal in place = %d", a->name, rc);
    FZ_CHECK(memcmp(pt, c->want, len) == 0, "%s ciphertext in place differs", a->name);
    FZ_CHECK(memcmp(tag, c->want_tag, tag_len) == 0, "%s tag in place differs", a->name);

    /* Open of the sealed output, separate then in place. */
    memset(pt, FZ_SENTINEL, FZ_MAX_MSG);
    rc = a->open(k, c->nonce, c->nonce_len, c->aad, c->aad_len, c->want, len, c->want_tag, tag_len, pt);
    FZ_CHECK(rc == VG_OK, "%s open of sealed output = %d", a->name, rc);
    FZ_CHECK(memcmp(pt, c->msg, len) == 0, "%s open plaintext differs", a->name);
    memcpy(got, c->want, len);
    rc = a->open(k, c->nonce, c->nonce_len, c->aad, c->aad_len, got, len, c->want_tag, tag_len, got);
    FZ_CHECK(rc == VG_OK, "%s open in place = %d", a->name, rc);
    FZ_CHECK(memcmp(got, c->msg, len) == 0, "%s open plaintext in place differs", a->name);

    /* Open of the forgery: VG_ERR_AUTH and all len bytes of out zeroed, nothing past them; then the
       same forgery in place, where the buffer holding the ciphertext is zeroed. */
    memset(got, FZ_SENTINEL, FZ_MAX_MSG);
    rc = a->open(k, c->noncem, c->nonce_len, c->aadm, c->aad_len, c->mct, len, c->tagm, tag_len, got);
    if (c->forged_ok) {
        FZ_CHECK(rc == VG_OK, "%s open of a forgery the spec accepts = %d", a->name, rc);
    } else {
        FZ_CHECK(rc == VG_ERR_AUTH, "%s open of a forgery (mutated %u) = %d, want VG_ERR_AUTH", a->name,
                 c->what, rc);
        FZ_CHECK(fz_all(got, len, 0), "%s failed open did not zero the output", a->name);
        FZ_CHECK(fz_all(got + len, FZ_MAX_MSG - len, FZ_SENTINEL), "%s failed open wrote past len", a->name);
    }
    memcpy(got, c->mct, len);
    rc = a->open(k, c->noncem, c->nonce_len, c->aadm, c->aad_len, got, len, c->tagm, tag_len, got);
    FZ_CHECK(c->forged_ok ? rc == VG_OK : (rc == VG_ERR_AUTH && fz_all(got, len, 0)),
             "%s in-place open of a forgery = %d or output not zeroed", a->name, rc);
}

#endif
