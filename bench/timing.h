/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * timing.h — the clock and the median every timing program under bench/ uses (vg-speed, bench/ab,
 * bench/tls/provider-floor.c). The including file asks for POSIX (_POSIX_C_SOURCE 200809L) before its
 * first #include, for clock_gettime.
 */
#ifndef VG_BENCH_TIMING_H
#define VG_BENCH_TIMING_H

#include <stdlib.h>
#include <time.h>

/* clock's reading in seconds (CLOCK_THREAD_CPUTIME_ID: this thread's CPU time; CLOCK_MONOTONIC). */
static inline double bench_seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of the n (>= 1) values at v, which it sorts in place. */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
