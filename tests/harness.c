/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* harness.c — see harness.h. */
#include "harness.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#ifndef VG_TEST_VECTORS_DIR
#define VG_TEST_VECTORS_DIR "tests/vectors"
#endif

static int g_argc;
static char **g_argv;
static const char *g_impl;
static int g_quick;
static size_t g_passed, g_failed;
static uint64_t g_rng[4];

const char *vgt_option(const char *name)
{
    for (int i = 1; i + 1 < g_argc; i++)
        if (g_argv[i][0] == '-' && g_argv[i][1] == '-' && strcmp(g_argv[i] + 2, name) == 0)
            return g_argv[i + 1];
    return NULL;
}

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void vgt_init(int argc, char **argv)
{
    g_argc = argc;
    g_argv = argv;
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--quick") == 0) g_quick = 1;
    const char *q = getenv("VG_TEST_QUICK");
    if (q && strcmp(q, "1") == 0) g_quick = 1;
    const char *seed_s = vgt_option("seed");
    uint64_t seed = seed_s ? strtoull(seed_s, NULL, 0) : 1;
    for (int i = 0; i < 4; i++) g_rng[i] = splitmix(&seed);

    const char *impl = vgt_option("impl");
    if (impl) {
        int rc = vg_impl_select(impl);
        if (rc == VG_ERR_UNSUPPORTED) {
            printf("UNAVAILABLE: implementation \"%s\" cannot run on this CPU (or is not in this build)\n", impl);
            exit(77);
        }
        if (rc != VG_OK) {
            printf("error: vg_impl_select(\"%s\") = %d\n", impl, rc);
            exit(2);
        }
    }
    /* VG_IMPL steers programs that do not pass --impl; when it names something this CPU or build
       lacks, the library ignored it, and the run must not be taken for that implementation's. */
    if (vg_impl_env_status() != VG_OK)
        printf("warning: VG_IMPL=\"%s\" is not an implementation available here: the library ignored it\n",
               getenv("VG_IMPL"));
    g_impl = vg_impl_name();
    if (impl && strcmp(impl, "auto") != 0 && strcmp(g_impl, impl) != 0) {
        printf("error: asked for %s, library reports %s\n", impl, g_impl);
        exit(2);
    }
    printf("impl: %s%s\n", g_impl, g_quick ? " (quick)" : "");
}

const char *vgt_impl(void) { return g_impl; }
int vgt_quick(void) { return g_quick; }

const char *vgt_vectors_dir(void)
{
    const char *d = vgt_option("vectors");
    return d ? d : VG_TEST_VECTORS_DIR;
}

int vgt_check(int ok, const char *file, int line, const char *fmt, ...)
{
    if (ok) {
        g_passed++;
        return 1;
    }
    if (g_failed++ < 50) {
        va_list ap;
        va_start(ap, fmt);
        printf("FAIL %s:%d [%s]: ", file, line, g_impl ? g_impl : "?");
        vprintf(fmt, ap);
        printf("\n");
        va_end(ap);
    }
    return 0;
}

void vgt_print_hex(FILE *f, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) fprintf(f, "%02x", p[i]);
}

int vgt_check_bytes(const uint8_t *got, const uint8_t *want, size_t n, const char *file, int line,
                    const char *fmt, ...)
{
    int ok = n == 0 || memcmp(got, want, n) == 0;
    if (ok) {
        g_passed++;
        return 1;
    }
    if (g_failed++ < 50) {
        va_list ap;
        va_start(ap, fmt);
        printf("FAIL %s:%d [%s]: ", file, line, g_impl ? g_impl : "?");
        vprintf(fmt, ap);
        va_end(ap);
        size_t show = n > 64 ? 64 : n;
        printf("\n  got  ");
        vgt_print_hex(stdout, got, show);
        printf("%s\n  want ", n > show ? "..." : "");
        vgt_print_hex(stdout, want, show);
        printf("%s\n", n > show ? "..." : "");
    }
    return 0;
}

int vgt_all_zero(const uint8_t *p, size_t n)
{
    uint8_t d = 0;
    for (size_t i = 0; i < n; i++) d |= p[i];
    return d == 0;
}

size_t vgt_failures(void) { return g_failed; }

int vgt_finish(void)
{
    printf("%zu passed, %zu failed\n", g_passed, g_failed);
    if (g_failed) return 1;
    if (g_passed == 0) {
        printf("error: no check ran\n");
        return 1;
    }
    return 0;
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t vgt_rand64(void)
{
    uint64_t *s = g_rng;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

void vgt_rand_bytes(uint8_t *p, size_t n)
{
    while (n) {
        uint64_t r = vgt_rand64();
        for (int i = 0; i < 8 && n; i++, n--) { *p++ = (uint8_t)r; r >>= 8; }
    }
}

size_t vgt_rand_below(size_t n) { return (size_t)(vgt_rand64() % n); }

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

size_t vgt_hex_decode(const char *hex, uint8_t *out, size_t max)
{
    size_t len = strlen(hex);
    if (len % 2 || len / 2 > max) return (size_t)-1;
    for (size_t i = 0; i < len / 2; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return (size_t)-1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return len / 2;
}

void *vgt_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        printf("error: out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return p;
}
