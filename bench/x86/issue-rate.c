/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * issue-rate.c — latency and throughput, in core cycles, of the instructions the VAES kernels are made
 * of: vaesenc and vpclmulqdq on ymm and on xmm (VEX forms), and the two mixed three to one (as 12 chains,
 * and with no dependencies at all, the form bench/x86/loop-bound.py times a kernel's loop in).
 *
 * Latency: one dependent chain (each instruction reads the result of the one before). Throughput: 12
 * independent chains over ymm/xmm0-11, round robin (more than latency x issue rate: on Zen 3 at most
 * 4 cycles x 2 a cycle = 8), as instructions per cycle. Only registers 0-15 and VEX
 * encodings: the program runs on an AVX2 + VAES + VPCLMULQDQ CPU without AVX-512.
 *
 * Cycles: the time stamp counter ticks at a fixed reference rate and a vCPU's core clock may change
 * between runs, so each measurement sits between two timings of a dependent chain of scalar `add`
 * (1 cycle latency on every x86-64 core) in the same thread, and is expressed in those add-cycles.
 * Times are thread CPU time; each figure is the median of 21 such rounds. The core clock the add
 * chain implies is printed too (its lowest and highest round, to show a clock change). Work on the
 * core's SMT sibling (another vCPU of the host) slows the vector instructions but not the adds: a
 * throughput well below the usual figure means that, and a second run tells.
 *
 *     gcc -O2 -o /tmp/issue-rate bench/x86/issue-rate.c && /tmp/issue-rate
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define R2(x) x x
#define R4(x) R2(R2(x))
#define R8(x) R2(R4(x))
#define R64(x) R8(R8(x))
#define CHAINS12(I) I(0) I(1) I(2) I(3) I(4) I(5) I(6) I(7) I(8) I(9) I(10) I(11)

/* one instruction on register r, its other source the constant register 15 */
#define VAESENC_Y(r) "vaesenc %%ymm15,%%ymm" #r ",%%ymm" #r "\n"
#define VAESENC_X(r) "vaesenc %%xmm15,%%xmm" #r ",%%xmm" #r "\n"
#define CLMUL_Y(r) "vpclmulqdq $0x01,%%ymm15,%%ymm" #r ",%%ymm" #r "\n"
#define CLMUL_X(r) "vpclmulqdq $0x01,%%xmm15,%%xmm" #r ",%%xmm" #r "\n"
/* three vaesenc to one vpclmulqdq, about a GCM loop's mix (80 to 26 for AES-128); then the same reading
   only the constant registers 14 and 15, as loop-bound.py's loop does */
#define MIXED_Y(r) VAESENC_Y(r) VAESENC_Y(r) VAESENC_Y(r) CLMUL_Y(r)
#define FREE_AES(r) "vaesenc %%ymm15,%%ymm14,%%ymm" #r "\n"
#define FREE_Y(r) FREE_AES(r) FREE_AES(r) FREE_AES(r) "vpclmulqdq $0x01,%%ymm15,%%ymm14,%%ymm" #r "\n"

#define CLOBBERS "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", \
                 "xmm11", "xmm14", "xmm15", "cc"
/* a loop of n trips over body; the loop counter is a separate chain of one dec a trip. The registers'
   values do not matter: neither instruction's timing depends on its data. */
#define KERNEL(name, body)                                                                         \
    static void name(long n)                                                                       \
    {                                                                                              \
        __asm__ volatile("1:\n" body "dec %0\njnz 1b\nvzeroupper\n"                                \
                         : "+r"(n)                                                                 \
                         :                                                                         \
                         : CLOBBERS);                                                              \
    }

KERNEL(lat_vaesenc_y, R64(VAESENC_Y(0)))
KERNEL(lat_vaesenc_x, R64(VAESENC_X(0)))
KERNEL(lat_clmul_y, R64(CLMUL_Y(0)))
KERNEL(lat_clmul_x, R64(CLMUL_X(0)))
KERNEL(thr_vaesenc_y, R8(CHAINS12(VAESENC_Y)))
KERNEL(thr_vaesenc_x, R8(CHAINS12(VAESENC_X)))
KERNEL(thr_clmul_y, R8(CHAINS12(CLMUL_Y)))
KERNEL(thr_clmul_x, R8(CHAINS12(CLMUL_X)))
KERNEL(thr_mixed_y, R4(CHAINS12(MIXED_Y)))
KERNEL(free_mixed_y, R4(CHAINS12(FREE_Y)))

/* the clock: 64 dependent adds a trip */
static void add_chain(long n)
{
    unsigned long x = 1, y = 3;
    __asm__ volatile("1:\n" R64("add %2,%1\n") "dec %0\njnz 1b\n" : "+r"(n), "+r"(x) : "r"(y) : "cc");
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double timed(void (*f)(long), long n)
{
    double t = now();
    f(n);
    return now() - t;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define ROUNDS 21
static const struct {
    const char *name;
    void (*f)(long);
    int per_trip, latency; /* instructions a trip; 1: a latency (one chain), 0: a throughput */
    const char *how;
} tests[] = {
    {"vaesenc ymm", lat_vaesenc_y, 64, 1, ""},
    {"vaesenc ymm", thr_vaesenc_y, 96, 0, "12 chains"},
    {"vaesenc xmm (VEX)", lat_vaesenc_x, 64, 1, ""},
    {"vaesenc xmm (VEX)", thr_vaesenc_x, 96, 0, "12 chains"},
    {"vpclmulqdq ymm", lat_clmul_y, 64, 1, ""},
    {"vpclmulqdq ymm", thr_clmul_y, 96, 0, "12 chains"},
    {"vpclmulqdq xmm (VEX)", lat_clmul_x, 64, 1, ""},
    {"vpclmulqdq xmm (VEX)", thr_clmul_x, 96, 0, "12 chains"},
    {"vaesenc ymm + vpclmulqdq ymm, 3:1", thr_mixed_y, 192, 0, "12 chains"},
    {"vaesenc ymm + vpclmulqdq ymm, 3:1", free_mixed_y, 192, 0, "no dependencies"},
};
#define NTESTS (sizeof tests / sizeof tests[0])

int main(void)
{
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("vaes") ||
        !__builtin_cpu_supports("vpclmulqdq")) {
        puts("issue-rate: UNAVAILABLE (needs AVX2, VAES and VPCLMULQDQ)");
        return 0;
    }
    const long add_trips = 100000, trips = 60000;
    static double cycles[NTESTS][ROUNDS], ns[NTESTS][ROUNDS], ghz[ROUNDS * NTESTS];
    int g = 0;
    add_chain(add_trips); /* warm up: clock and the upper vector halves */
    thr_mixed_y(trips);
    for (int r = 0; r < ROUNDS; r++)
        for (size_t k = 0; k < NTESTS; k++) {
            double a0 = timed(add_chain, add_trips), t = timed(tests[k].f, trips), a1 = timed(add_chain, add_trips);
            double cycle = (a0 + a1) / 2 / (double)(add_trips * 64); /* seconds per add */
            double per_insn = t / (double)(trips * tests[k].per_trip);
            cycles[k][r] = tests[k].latency ? per_insn / cycle : cycle / per_insn;
            ns[k][r] = tests[k].latency ? per_insn * 1e9 : 1e-9 / per_insn;
            ghz[g++] = 1e-9 / cycle;
        }
    qsort(ghz, (size_t)g, sizeof ghz[0], cmp);
    printf("core clock from the dependent add chain: median %.2f GHz (rounds %.2f-%.2f); medians of %d rounds\n",
           ghz[g / 2], ghz[0], ghz[g - 1], ROUNDS);
    for (size_t k = 0; k < NTESTS; k++) {
        qsort(cycles[k], ROUNDS, sizeof cycles[k][0], cmp);
        qsort(ns[k], ROUNDS, sizeof ns[k][0], cmp);
        if (tests[k].latency)
            printf("  %-36s latency    %5.2f cycles (%.3f ns)\n", tests[k].name, cycles[k][ROUNDS / 2],
                   ns[k][ROUNDS / 2]);
        else
            printf("  %-36s throughput %5.2f a cycle (%.2f G/s), %s\n", tests[k].name,
                   cycles[k][ROUNDS / 2], ns[k][ROUNDS / 2], tests[k].how);
    }
    return 0;
}
