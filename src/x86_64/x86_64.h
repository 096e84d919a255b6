/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * x86_64.h — what the x86-64 implementations share with the rest of the library: CPU feature
 * detection (cpu.c) and the implementation tables (one per instruction-set tier).
 *
 * Feature detection
 * -----------------
 * vg_x86_features() returns a bitmask of VG_X86_* bits. A bit is set only when BOTH hold:
 *   - CPUID reports the instructions, and
 *   - the operating system saves the registers they use across context switches (XCR0, read with
 *     XGETBV, which is itself only usable when CPUID.1:ECX.OSXSAVE[27] is set).
 * So VG_X86_AVX means "AVX instructions present and YMM state enabled", VG_X86_AVX512F means "present
 * and opmask + ZMM_Hi256 + Hi16_ZMM state enabled", and so on. VG_X86_VAES / VG_X86_VPCLMULQDQ are set
 * when CPUID reports them and the YMM state is enabled (enough for their VEX 256-bit forms); code
 * using the 512-bit (EVEX) forms must also require VG_X86_AVX512F (and BW/VL as it needs).
 * The SSE-era bits (SSSE3, SSE4.1, AES, PCLMULQDQ) need only the XMM state, which every x86-64 OS
 * saves.
 *
 * Detection runs once per process; the result is cached in an atomic (the computation is a pure
 * function of the CPU, so threads racing on the first call store the same value). Under valgrind,
 * CPUID may report fewer features than the hardware has; the library then simply picks a lower tier.
 */
#ifndef VG_X86_64_H
#define VG_X86_64_H

#include "../internal.h"

#define VG_X86_SSSE3      (1u << 0)  /* CPUID.1:ECX[9] */
#define VG_X86_SSE41      (1u << 1)  /* CPUID.1:ECX[19] */
#define VG_X86_PCLMULQDQ  (1u << 2)  /* CPUID.1:ECX[1] */
#define VG_X86_AES        (1u << 3)  /* CPUID.1:ECX[25] */
#define VG_X86_AVX        (1u << 4)  /* CPUID.1:ECX[28], XCR0 XMM|YMM */
#define VG_X86_AVX2       (1u << 5)  /* CPUID.7.0:EBX[5], plus AVX */
#define VG_X86_BMI2       (1u << 6)  /* CPUID.7.0:EBX[8] (scalar, no OS state) */
#define VG_X86_AVX512F    (1u << 7)  /* CPUID.7.0:EBX[16], XCR0 XMM|YMM|opmask|ZMM_Hi256|Hi16_ZMM */
#define VG_X86_AVX512BW   (1u << 8)  /* CPUID.7.0:EBX[30], plus AVX512F */
#define VG_X86_AVX512VL   (1u << 9)  /* CPUID.7.0:EBX[31], plus AVX512F */
#define VG_X86_VAES       (1u << 10) /* CPUID.7.0:ECX[9], plus AVX */
#define VG_X86_VPCLMULQDQ (1u << 11) /* CPUID.7.0:ECX[10], plus AVX */

/* The VG_X86_* bits this CPU and OS support (computed once, then cached). */
unsigned vg_x86_features(void) VG_INTERNAL;

/* 1 if every bit of mask is in vg_x86_features(). */
static inline int vg_x86_has(unsigned mask) { return (vg_x86_features() & mask) == mask; }

/* "aesni": AES-NI + PCLMULQDQ with SSSE3/SSE4.1, 128-bit registers (Westmere and later, every
   AMD since Bulldozer/Jaguar). */
#define VG_X86_AESNI_NEEDS (VG_X86_SSSE3 | VG_X86_SSE41 | VG_X86_PCLMULQDQ | VG_X86_AES)
extern const struct vg_impl vg_aesni_impl VG_INTERNAL;

/* "vaes256": VAES + VPCLMULQDQ on 256-bit registers (AVX2), for CPUs without AVX-512 or that slow
   down on zmm; "vaes512": the same on 512-bit registers with AVX-512F/BW/VL (vaes*.c). Both reuse
   the aesni key schedule and CBC-MAC/CCM kernels, so they need everything aesni needs too. */
#define VG_X86_VAES256_NEEDS \
    (VG_X86_AESNI_NEEDS | VG_X86_AVX | VG_X86_AVX2 | VG_X86_VAES | VG_X86_VPCLMULQDQ)
#define VG_X86_VAES512_NEEDS \
    (VG_X86_VAES256_NEEDS | VG_X86_AVX512F | VG_X86_AVX512BW | VG_X86_AVX512VL)
extern const struct vg_impl vg_vaes256_impl VG_INTERNAL;
extern const struct vg_impl vg_vaes512_impl VG_INTERNAL;

/* The short one-shot GCM kernels (gcm_seal_short / gcm_open_short of all three tables) take messages
   up to these lengths (see docs/speed-x86_64.md for the measurements behind them). */
#ifndef VG_X86_GCM_SHORT_MAX
#define VG_X86_GCM_SHORT_MAX 16384
#endif
#ifndef VG_X86_GCM_SHORT_MAX_AAD
#define VG_X86_GCM_SHORT_MAX_AAD 256
#endif

/* The whole-message GCM-SIV kernels (gcm_siv_seal_short / gcm_siv_open_short of vaes512 and vaes256,
   vaes_siv.h): up to 16 KiB the plaintext of open is still in L1 when it is hashed after the CTR pass;
   longer messages take the mode's general path, which interleaves the two passes in 4 KiB chunks. */
#ifndef VG_X86_GCM_SIV_SHORT_MAX
#define VG_X86_GCM_SIV_SHORT_MAX 16384
#endif
#ifndef VG_X86_GCM_SIV_SHORT_MAX_AAD
#define VG_X86_GCM_SIV_SHORT_MAX_AAD 16384
#endif

#endif /* VG_X86_64_H */
