/*
 * armv8.h — the "armv8" implementation (AArch64 Cryptographic Extension: AESE/AESD/AESMC/AESIMC and
 * PMULL/PMULL2), its layouts, kernels and inline building blocks.
 *
 * CPU features: FEAT_AES and FEAT_PMULL (getauxval(AT_HWCAP) & (HWCAP_AES | HWCAP_PMULL)), checked by
 * vg_armv8_impl.available(); FEAT_SHA3 (HWCAP_SHA3) optionally, for EOR3, chosen at run time (see
 * "Two builds of the hot kernels" below). Every function that uses them carries VG_ARMV8_TARGET (or
 * VG_ARMV8_SHA3_TARGET) instead of a global -march flag, so the rest of the library stays generic
 * armv8-a and runs on a CPU without the extension.
 *
 * Files:
 *   armv8_aes.c      key expansion (aese as SubWord), ECB both ways, CBC-MAC and the fused CCM kernels
 *   armv8_kernels.inc the EOR3-sensitive kernels: CTR32 (inc32), CTR32-LE (RFC 8452), GHASH/POLYVAL
 *                    update and the stitched GCM seal/open; included twice:
 *   armv8_base.c     ... with plain EOR (any ARMv8 CPU with AES+PMULL)
 *   armv8_sha3.c     ... with EOR3 (FEAT_SHA3: Neoverse N2/V1/V2, Apple M1+, Cortex-A510+)
 *   armv8_ghash.c    H powers for GHASH and POLYVAL (the maths is in docs/aarch64.md and aesni_ghash.c)
 *   armv8_impl.c     CPU detection, DIT (data-independent timing), the vg_impl table and the
 *                    base/EOR3 dispatch
 *
 * AES on AArch64: AESE(s, k) = ShiftRows(SubBytes(s ^ k)) and AESMC = MixColumns, so a round key is
 * XORed at the START of each AESE: AES-128 is 9 x (AESE k_r, AESMC) + AESE k_9 + EOR k_10. The
 * AESE/AESMC pairs are kept adjacent (compilers keep them so) because Cortex-A57 onwards fuse such a
 * pair into one macro-op. The last EOR k_rounds is folded with the data XOR of CTR: out = in ^ k_last ^
 * AESE(...), one EOR3, or two EORs of which the first (in ^ k_last) is off the AES chain.
 *
 * Byte order: blocks are loaded with vld1q_u8, which puts byte i of memory in byte lane i on either
 * endianness; the instructions define their operands in lanes, so AES needs no shuffles. The only
 * places that read lanes as wider integers (the CTR counter, PMULL's 64-bit lanes) assume the
 * little-endian AArch64 ABI; on big-endian AArch64 (aarch64_be, __AARCH64EB__) available() returns 0
 * and the portable implementation runs.
 *
 * Register use in the 8-block loops: round keys k_0..k_rounds in v-registers (AES-128: 11, AES-256:
 * 15 — the compiler reloads the ones that do not fit), eight blocks in flight, the counter vector and
 * its increment; the GCM loop adds the three GHASH partial sums and the H powers (reloaded per group
 * with four-register LD1s).
 */
#ifndef VG_AARCH64_ARMV8_H
#define VG_AARCH64_ARMV8_H

#include <arm_neon.h>
#include <stddef.h>

#include "aarch64.h"

#if defined(__clang__)
/* clang before 16 declares the AES/PMULL/EOR3 intrinsics only when the whole file is compiled with
   the feature; a target attribute does not make them visible. So under clang the kernel files get
   per-file -march flags (src/aarch64/aarch64.cmake) and the attributes are empty. armv8_impl.c, which
   runs before anything is known about the CPU, never includes this header and gets no flag. */
#if !defined(__ARM_FEATURE_AES)
#error "clang: compile src/aarch64 kernel files with -march=armv8-a+crypto (include src/aarch64/aarch64.cmake)"
#endif
#define VG_ARMV8_TARGET
#define VG_ARMV8_SHA3_TARGET
#else
#define VG_ARMV8_TARGET __attribute__((target("arch=armv8-a+crypto")))
#define VG_ARMV8_SHA3_TARGET __attribute__((target("arch=armv8.2-a+crypto+sha3")))
#endif
#define VG_ARMV8_INLINE static inline __attribute__((always_inline)) VG_ARMV8_TARGET

/* ---------------------------------------------------------------------------------------------- */
/* Layouts                                                                                          */

/* The AES schedule inside the key's sched[VG_SCHED_SIZE]: round keys as the 16 bytes AddRoundKey
   XORs into the state (FIPS 197 order), which is what AESE/AESD take. */
struct armv8_sched {
    unsigned char enc[15][16]; /* round keys 0..rounds of the Cipher (FIPS 197 §5.2) */
    unsigned char dec[15][16]; /* Equivalent Inverse Cipher (FIPS 197 §5.3.5): dec[0] = enc[rounds],
                                  dec[i] = InvMixColumns(enc[rounds - i]) (AESIMC), dec[rounds] =
                                  enc[0]; not written when the key was expanded without want_decrypt */
    uint32_t rounds;           /* 10, 12 or 14 (public: it follows from the key length) */
    uint32_t has_decrypt;
};
_Static_assert(offsetof(struct armv8_sched, enc) == 0, "armv8_sched layout");
_Static_assert(offsetof(struct armv8_sched, dec) == 240, "armv8_sched layout");
_Static_assert(offsetof(struct armv8_sched, rounds) == 480, "armv8_sched layout");
_Static_assert(sizeof(struct armv8_sched) <= VG_SCHED_SIZE, "armv8_sched too big for VG_SCHED_SIZE");

/* The GHASH/POLYVAL key inside hkey[VG_HKEY_SIZE], the same layout for both (GHASH is computed as
   POLYVAL of byte-reversed blocks under H' = rev(H) * x, RFC 8452 Appendix A; derivation in
   src/x86_64/aesni_ghash.c sections 1-2 and docs/aarch64.md).
   h[k-1][0] = H_k = H dot ... dot H (k factors, dot(a, b) = a b x^-128 mod P) as the little-endian
   128-bit polynomial (byte lane i holds coefficients 8i..8i+7, bit j of the byte = x^(8i+j)), which
   is PMULL's own bit order; h[k-1][1] = H_k with its two 64-bit halves exchanged, so that PMULL
   (low lanes) and PMULL2 (high lanes) against it give the cross products x0 h1 and x1 h0.
   Interleaved so that one four-register LD1 brings the keys of two blocks. */
#define ARMV8_HPOWERS 8
struct armv8_hkey {
    unsigned char h[ARMV8_HPOWERS][2][16];
};
_Static_assert(offsetof(struct armv8_hkey, h) == 0, "armv8_hkey layout");
_Static_assert(sizeof(struct armv8_hkey) == 256, "armv8_hkey layout");
_Static_assert(sizeof(struct armv8_hkey) <= VG_HKEY_SIZE, "armv8_hkey too big for VG_HKEY_SIZE");


/* ---------------------------------------------------------------------------------------------- */
/* AES building blocks                                                                              */

/* Round keys as registers; `rounds` is a compile-time constant wherever these are inlined (each
   kernel is instantiated for 10, 12 and 14 rounds), so the loops unroll and the keys stay in
   registers. */
struct armv8_round_keys {
    uint8x16_t k[15];
};

VG_ARMV8_INLINE void armv8_load_keys(struct armv8_round_keys *rk, const unsigned char (*keys)[16],
                                     unsigned rounds)
{
    /* four keys per LD1 (rounds + 1 = 11, 13 or 15 keys: three or four loads) */
    unsigned i = 0;
    for (; i + 4 <= rounds + 1; i += 4) {
        uint8x16x4_t q = vld1q_u8_x4(keys[i]);
        rk->k[i] = q.val[0]; rk->k[i + 1] = q.val[1]; rk->k[i + 2] = q.val[2]; rk->k[i + 3] = q.val[3];
    }
    if (rounds + 1 - i == 3) {
        uint8x16x3_t q = vld1q_u8_x3(keys[i]);
        rk->k[i] = q.val[0]; rk->k[i + 1] = q.val[1]; rk->k[i + 2] = q.val[2];
    } else if (rounds + 1 - i == 1) {
        rk->k[i] = vld1q_u8(keys[i]);
    }
}

/* An optimisation barrier on a value: the compiler must assume v changed, so it can neither fold
   a chain of additions into per-block constants (each then loaded from memory) nor hoist loads
   through a laundered pointer out of a loop (where they would be spilled and reloaded one by one
   instead of reloaded four at a time). Emits no instruction. */
#define ARMV8_OPAQUE(v) __asm__("" : "+w"(v))
#define ARMV8_OPAQUE_PTR(p) __asm__("" : "+r"(p))

/* Rounds 0..rounds-1 of n blocks side by side, WITHOUT the final AddRoundKey k_rounds (the caller
   folds it into its next XOR). The round loop is outermost so the n independent AESE/AESMC pairs of
   a round issue back to back (AESE+AESMC: ~2-3 cycles latency, 1-2 per cycle: 8 in flight). */
VG_ARMV8_INLINE void armv8_encrypt_n_open(const struct armv8_round_keys *rk, uint8x16_t *b, int n,
                                          unsigned rounds)
{
    for (unsigned r = 0; r + 1 < rounds; r++)
        for (int i = 0; i < n; i++) b[i] = vaesmcq_u8(vaeseq_u8(b[i], rk->k[r]));
    for (int i = 0; i < n; i++) b[i] = vaeseq_u8(b[i], rk->k[rounds - 1]);
}

/* The same with AESD/AESIMC and the Equivalent Inverse Cipher's keys. */
VG_ARMV8_INLINE void armv8_decrypt_n_open(const struct armv8_round_keys *rk, uint8x16_t *b, int n,
                                          unsigned rounds)
{
    for (unsigned r = 0; r + 1 < rounds; r++)
        for (int i = 0; i < n; i++) b[i] = vaesimcq_u8(vaesdq_u8(b[i], rk->k[r]));
    for (int i = 0; i < n; i++) b[i] = vaesdq_u8(b[i], rk->k[rounds - 1]);
}

/* Runs BODY (a statement using the compile-time constant ROUNDS) with ROUNDS = rounds. */
#define ARMV8_FOR_ROUNDS(rounds, BODY)                                                                 \
    do {                                                                                               \
        if ((rounds) == 10) { enum { ROUNDS = 10 }; BODY; }                                            \
        else if ((rounds) == 12) { enum { ROUNDS = 12 }; BODY; }                                       \
        else { enum { ROUNDS = 14 }; BODY; }                                                           \
    } while (0)

/* ---------------------------------------------------------------------------------------------- */
/* GF(2^128) building blocks (POLYVAL form; see armv8_kernels.inc for the reduction's derivation)  */

static inline VG_ARMV8_TARGET uint8x16_t armv8_pmull_lo(uint8x16_t a, uint8x16_t b)
{
    /* a.lo64 * b.lo64, carry-less, 128-bit result (PMULL). Written as asm because the intrinsic
       (vmull_p64 of two scalar lanes) makes gcc 12 load an operand that comes from memory twice, a
       64-bit copy for PMULL beside the 128-bit one for PMULL2. Not volatile: the compiler still
       schedules it, and removes it if unused. */
    uint8x16_t r;
    __asm__("pmull %0.1q, %1.1d, %2.1d" : "=w"(r) : "w"(a), "w"(b));
    return r;
}
static inline VG_ARMV8_TARGET uint8x16_t armv8_pmull_hi(uint8x16_t a, uint8x16_t b)
{
    /* a.hi64 * b.hi64 (PMULL2) */
    return vreinterpretq_u8_p128(vmull_high_p64(vreinterpretq_p64_u8(a), vreinterpretq_p64_u8(b)));
}

/* Byte reversal of a whole block: GCM's bit order <-> POLYVAL's (aesni_ghash.c section 2). */
static const uint8_t armv8_reverse_idx[16] = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};

#endif /* VG_AARCH64_ARMV8_H */
