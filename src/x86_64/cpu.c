/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * cpu.c — x86-64 CPU feature detection for every x86-64 implementation (see x86_64.h for what each
 * bit promises). Needs nothing beyond the x86-64 baseline: CPUID is always there, and XGETBV is only
 * executed once CPUID says the OS has enabled it (OSXSAVE).
 */
#include <cpuid.h>
#include <stdatomic.h>

#include "x86_64.h"

/* XCR0 bits (Intel SDM vol. 1 §13.1): which register states the OS saves on a context switch. */
#define XCR0_XMM       (1u << 1)
#define XCR0_YMM       (1u << 2)
#define XCR0_OPMASK    (1u << 5)
#define XCR0_ZMM_HI256 (1u << 6)
#define XCR0_HI16_ZMM  (1u << 7)

/* Set in the cached word once detection has run, so that "no features" (0) is still cached. */
#define DETECTED (1u << 31)

static uint32_t read_xcr0(void)
{
    uint32_t lo, hi;
    /* XGETBV with ECX = 0 reads XCR0 (written as raw asm: the _xgetbv intrinsic would need a
       target("xsave") attribute, and the instruction is only reached when OSXSAVE is set). */
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    return lo;
}

static unsigned detect(void)
{
    unsigned a, b, c, d;
    unsigned f = 0;
    if (__get_cpuid_max(0, NULL) < 1) return 0;
    __cpuid(1, a, b, c, d);
    if (c & (1u << 9)) f |= VG_X86_SSSE3;
    if (c & (1u << 19)) f |= VG_X86_SSE41;
    if (c & (1u << 1)) f |= VG_X86_PCLMULQDQ;
    if (c & (1u << 25)) f |= VG_X86_AES;

    /* The OS-state checks: without OSXSAVE we may not even run XGETBV, and then no AVX state is
       usable. */
    uint32_t xcr0 = 0;
    if (c & (1u << 27)) xcr0 = read_xcr0();
    int ymm_ok = (xcr0 & (XCR0_XMM | XCR0_YMM)) == (XCR0_XMM | XCR0_YMM);
    uint32_t zmm_state = XCR0_XMM | XCR0_YMM | XCR0_OPMASK | XCR0_ZMM_HI256 | XCR0_HI16_ZMM;
    int zmm_ok = (xcr0 & zmm_state) == zmm_state;
    if (ymm_ok && (c & (1u << 28))) f |= VG_X86_AVX;

    unsigned b7 = 0, c7 = 0;
    if (__get_cpuid_max(0, NULL) >= 7) __cpuid_count(7, 0, a, b7, c7, d);
    if (b7 & (1u << 8)) f |= VG_X86_BMI2;
    if (f & VG_X86_AVX) {
        if (b7 & (1u << 5)) f |= VG_X86_AVX2;
        if (c7 & (1u << 9)) f |= VG_X86_VAES;
        if (c7 & (1u << 10)) f |= VG_X86_VPCLMULQDQ;
        if (zmm_ok && (b7 & (1u << 16))) {
            f |= VG_X86_AVX512F;
            if (b7 & (1u << 30)) f |= VG_X86_AVX512BW;
            if (b7 & (1u << 31)) f |= VG_X86_AVX512VL;
        }
    }
    return f;
}

unsigned vg_x86_features(void)
{
    static atomic_uint cached;
    unsigned f = atomic_load_explicit(&cached, memory_order_relaxed);
    if (!(f & DETECTED)) {
        f = detect() | DETECTED;
        atomic_store_explicit(&cached, f, memory_order_relaxed);
    }
    return f & ~DETECTED;
}
