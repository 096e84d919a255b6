/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * x86_insn.c — runs the real x86-64 instructions the prover models (proofs/sym/intrinsics.py), for
 * validate_x86.py. Reads lines "OP A B C IMM" (operands as hex, 128 or 256 bits, lowest byte first),
 * prints the result the same way, or "UNAVAILABLE" when this CPU lacks the instruction.
 */
#include <cpuid.h>
#include <immintrin.h>
#include <stdio.h>
#include <string.h>

static int hex_in(const char *s, unsigned char *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1) return -1;
        out[i] = (unsigned char)v;
    }
    return 0;
}

static void hex_out(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
    printf("\n");
}

static int has_vaes(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (c >> 9) & 1 && (c >> 10) & 1 && (b >> 5) & 1;
}

static int has_avx512(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b >> 16) & 1 && (b >> 31) & 1;
}

__attribute__((target("aes,pclmul,sse4.1"))) static void run128(const char *op, const unsigned char *a,
                                                               const unsigned char *b, int imm)
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)a);
    __m128i y = _mm_loadu_si128((const __m128i *)(const void *)b);
    __m128i r;
    if (!strcmp(op, "aesenc")) r = _mm_aesenc_si128(x, y);
    else if (!strcmp(op, "aesenclast")) r = _mm_aesenclast_si128(x, y);
    else if (!strcmp(op, "aesdec")) r = _mm_aesdec_si128(x, y);
    else if (!strcmp(op, "aesdeclast")) r = _mm_aesdeclast_si128(x, y);
    else if (!strcmp(op, "aesimc")) r = _mm_aesimc_si128(x);
    else if (!strcmp(op, "pclmulqdq")) {
        switch (imm) {
        case 0x00: r = _mm_clmulepi64_si128(x, y, 0x00); break;
        case 0x01: r = _mm_clmulepi64_si128(x, y, 0x01); break;
        case 0x10: r = _mm_clmulepi64_si128(x, y, 0x10); break;
        default: r = _mm_clmulepi64_si128(x, y, 0x11); break;
        }
    } else {
        printf("BADOP\n");
        return;
    }
    unsigned char o[16];
    _mm_storeu_si128((__m128i *)(void *)o, r);
    hex_out(o, 16);
}

__attribute__((target("avx2,vaes,vpclmulqdq"))) static void run256(const char *op, const unsigned char *a,
                                                                  const unsigned char *b)
{
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)a);
    __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)b);
    __m256i r;
    if (!strcmp(op, "vaesenc256")) r = _mm256_aesenc_epi128(x, y);
    else if (!strcmp(op, "vaesenclast256")) r = _mm256_aesenclast_epi128(x, y);
    else if (!strcmp(op, "vaesdec256")) r = _mm256_aesdec_epi128(x, y);
    else if (!strcmp(op, "vaesdeclast256")) r = _mm256_aesdeclast_epi128(x, y);
    else {
        printf("BADOP\n");
        return;
    }
    unsigned char o[32];
    _mm256_storeu_si256((__m256i *)(void *)o, r);
    hex_out(o, 32);
}

__attribute__((target("avx512f,avx512vl"))) static void runtern(const unsigned char *a, const unsigned char *b,
                                                               const unsigned char *c, int imm)
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)a);
    __m128i y = _mm_loadu_si128((const __m128i *)(const void *)b);
    __m128i z = _mm_loadu_si128((const __m128i *)(const void *)c);
    __m128i r;
    /* the immediate must be a constant: one case per value */
#define T(k) case k: r = _mm_ternarylogic_epi64(x, y, z, k); break;
#define T8(k) T(k) T(k + 1) T(k + 2) T(k + 3) T(k + 4) T(k + 5) T(k + 6) T(k + 7)
#define T64(k) T8(k) T8(k + 8) T8(k + 16) T8(k + 24) T8(k + 32) T8(k + 40) T8(k + 48) T8(k + 56)
    switch (imm & 0xff) {
        T64(0) T64(64) T64(128) T64(192)
    default: r = x; break;
    }
    unsigned char o[16];
    _mm_storeu_si128((__m128i *)(void *)o, r);
    hex_out(o, 16);
}

int main(void)
{
    char line[512], op[32], ha[130], hb[130], hc[130];
    int imm;
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "%31s %129s %129s %129s %d", op, ha, hb, hc, &imm) != 5) continue;
        unsigned char a[32], b[32], c[32];
        size_t n = strlen(ha) / 2;
        if (hex_in(ha, a, n) || hex_in(hb, b, n) || hex_in(hc, c, n)) return 2;
        if (n == 32) {
            if (!has_vaes()) printf("UNAVAILABLE\n");
            else run256(op, a, b);
        } else if (!strcmp(op, "vpternlog")) {
            if (!has_avx512()) printf("UNAVAILABLE\n");
            else runtern(a, b, c, imm);
        } else {
            run128(op, a, b, imm);
        }
        fflush(stdout);
    }
    return 0;
}
