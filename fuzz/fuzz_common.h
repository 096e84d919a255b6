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

#endif
