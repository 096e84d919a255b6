/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * chain-latency.c — latency of the two dependent steps GCM-SIV's per-message chain is made of, on
 * this machine: one vpclmulqdq, and one whole GF(2^128) multiply with its reduction (Karatsuba and a
 * two-fold POLYVAL reduction like src/x86_64/aesni.h's, written out here so the program stands alone).
 * Each is timed as a dependent chain (every step waits for the one before), thread CPU time, the
 * fastest of 9 runs. docs/speed-x86_64.md uses the figures for GCM-SIV's floor at 1 KiB.
 *
 *     gcc -O2 -o /tmp/chain-latency bench/x86/chain-latency.c && /tmp/chain-latency
 */
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

#define TARGET __attribute__((target("pclmul,sse4.1"), noinline))

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* x * h * x^-128 mod x^128 + x^127 + x^126 + x^121 + 1: three products, then two folds by the
   constant (each a product and a swap of halves) */
TARGET static __m128i mul_reduce(__m128i x, __m128i h, __m128i hk)
{
    __m128i lo = _mm_clmulepi64_si128(x, h, 0x00), hi = _mm_clmulepi64_si128(x, h, 0x11);
    __m128i mid = _mm_clmulepi64_si128(_mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e)), hk, 0x00);
    mid = _mm_xor_si128(mid, _mm_xor_si128(lo, hi));
    lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
    hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
    const __m128i poly = _mm_set_epi64x((long long)0xc200000000000000ULL, 0);
    lo = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e), _mm_clmulepi64_si128(lo, poly, 0x10));
    lo = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e), _mm_clmulepi64_si128(lo, poly, 0x10));
    return _mm_xor_si128(lo, hi);
}

static volatile int sink;

TARGET static double multiply_chain(long n)
{
    __m128i x = _mm_set1_epi32(3), h = _mm_set1_epi32(5), hk = _mm_xor_si128(h, _mm_shuffle_epi32(h, 0x4e));
    double t = now();
    for (long i = 0; i < n; i++) x = mul_reduce(x, h, hk);
    t = now() - t;
    sink = _mm_cvtsi128_si32(x);
    return t / (double)n * 1e9;
}

TARGET static double clmul_chain(long n)
{
    __m128i x = _mm_set1_epi32(3), h = _mm_set1_epi32(5);
    double t = now();
    for (long i = 0; i < n; i++) {
        x = _mm_clmulepi64_si128(x, h, 0x00);
        x = _mm_clmulepi64_si128(x, h, 0x00);
        x = _mm_clmulepi64_si128(x, h, 0x00);
        x = _mm_clmulepi64_si128(x, h, 0x00);
    }
    t = now() - t;
    sink = _mm_cvtsi128_si32(x);
    return t / (double)n / 4 * 1e9;
}

int main(void)
{
    double mul = 1e9, clmul = 1e9;
    for (int r = 0; r < 9; r++) {
        double m = multiply_chain(2000000), c = clmul_chain(2000000);
        if (m < mul) mul = m;
        if (c < clmul) clmul = c;
    }
    printf("dependent GF(2^128) multiply with reduction: %.2f ns; dependent vpclmulqdq: %.2f ns\n", mul, clmul);
    return 0;
}
