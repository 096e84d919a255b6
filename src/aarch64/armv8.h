/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
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
 *   armv8_aes.c      ECB both ways, CBC-MAC and the fused CCM kernels
 *   armv8_kernels.inc the EOR3-sensitive kernels: key expansion (aese as SubWord), CTR32 (inc32),
 *                    CTR32-LE (RFC 8452), GHASH/POLYVAL update, the stitched GCM seal/open and the
 *                    whole-message short GCM; included twice:
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
 * its increment; the GCM loop adds the three GHASH partial sums and the H powers (reloaded per group).
 * The wide GCM loop is one asm with its register plan written out, one body for the three key
 * sizes (gcm_loop in armv8_kernels.inc).
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
   Interleaved so that one four-register LD1 brings the keys of two blocks.
   The bulk loops use H_1..H_8 (ARMV8_HPOWERS). A GHASH key also holds H_9..H_16
   (ARMV8_GHASH_POWERS): the whole-message kernels for short GCM messages hash up to 16 blocks
   (AAD, ciphertext, lengths) with one reduction. A POLYVAL key (GCM-SIV makes one per message) stops
   at H_8. */
#define ARMV8_HPOWERS 8
#define ARMV8_GHASH_POWERS 16
struct armv8_hkey {
    unsigned char h[ARMV8_GHASH_POWERS][2][16];
};
_Static_assert(offsetof(struct armv8_hkey, h) == 0, "armv8_hkey layout");
_Static_assert(sizeof(struct armv8_hkey) == 512, "armv8_hkey layout");
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
/* One round, AESE then AESMC, and the last round's AESE alone. Written as asm because AESE's XOR
   is commutative and gcc 12 feels free to swap the intrinsic's operands: it then runs AESE on the
   round key's register, and spends a MOV per block and round keeping a copy of the key (and
   another to put the state back). The asm pins the state as the destination. Not volatile: gcc
   still schedules them, and the pair stays adjacent for the cores that fuse it. */
VG_ARMV8_INLINE uint8x16_t armv8_aes_round(uint8x16_t b, uint8x16_t k)
{
    __asm__("aese %0.16b, %1.16b\n\taesmc %0.16b, %0.16b" : "+w"(b) : "w"(k));
    return b;
}
VG_ARMV8_INLINE uint8x16_t armv8_aes_last(uint8x16_t b, uint8x16_t k)
{
    __asm__("aese %0.16b, %1.16b" : "+w"(b) : "w"(k));
    return b;
}

VG_ARMV8_INLINE void armv8_encrypt_n_open(const struct armv8_round_keys *rk, uint8x16_t *b, int n,
                                          unsigned rounds)
{
    for (unsigned r = 0; r + 1 < rounds; r++)
        for (int i = 0; i < n; i++) b[i] = armv8_aes_round(b[i], rk->k[r]);
    for (int i = 0; i < n; i++) b[i] = armv8_aes_last(b[i], rk->k[rounds - 1]);
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

/* ---------------------------------------------------------------------------------------------- */
/* Whole short GCM messages (armv8_kernels.inc, gcm_seal_short / gcm_open_short)                    */

/* The limits the table announces (ARMV8_SHORT_MAX_BLOCKS, aarch64.h): AAD blocks + data blocks + the
   length block must not exceed the H powers a GHASH key holds, since they are hashed with one
   reduction. */
_Static_assert(ARMV8_SHORT_MAX_BLOCKS + ARMV8_SHORT_MAX_AAD_BLOCKS + 1 <= ARMV8_GHASH_POWERS,
               "a short GCM message must fit the GHASH key's powers");

/* The r (1..15) bytes at p as a block, zero-padded. The caller's buffer may end at p + r, so no
   16-byte load can be used: pieces of 8, 4, 2 and 1 bytes (branches on the public length) gather
   it in a stack block, which is cleared again before return. */
VG_ARMV8_INLINE uint8x16_t armv8_load_partial(const uint8_t *p, size_t r)
{
    uint8_t b[16] = {0};
    size_t o = 0;
    if (r & 8) { memcpy(b, p, 8); o = 8; }
    if (r & 4) { memcpy(b + o, p + o, 4); o += 4; }
    if (r & 2) { memcpy(b + o, p + o, 2); o += 2; }
    if (r & 1) b[o] = p[o];
    uint8x16_t v = vld1q_u8(b);
    memset(b, 0, sizeof b);
    __asm__ volatile("" : : "r"(b) : "memory"); /* the clearing stores are kept */
    return v;
}

/* The first r (1..15) bytes of v to p, the same way. */
VG_ARMV8_INLINE void armv8_store_partial(uint8_t *p, uint8x16_t v, size_t r)
{
    uint8_t b[16];
    size_t o = 0;
    vst1q_u8(b, v);
    if (r & 8) { memcpy(p, b, 8); o = 8; }
    if (r & 4) { memcpy(p + o, b + o, 4); o += 4; }
    if (r & 2) { memcpy(p + o, b + o, 2); o += 2; }
    if (r & 1) p[o] = b[o];
    memset(b, 0, sizeof b);
    __asm__ volatile("" : : "r"(b) : "memory");
}

/* 16 bytes 0xff then 16 bytes 0: the 16 bytes at armv8_mask_table + 16 - r keep the first r bytes of
   a block (r = 1..16) and clear the rest. */
static const uint8_t armv8_mask_table[32] = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

/* AES-128 key expansion constants, one table so that one address reaches them all (three LD1s):
   rows 0..9 Rcon[i] = x^i in GF(2^8) in byte 0 of columns 0 and 1 of a block, zero elsewhere
   (armv8_kernels.inc folds it into the prefix XOR); row 10 the TBL index that broadcasts
   RotWord(word 3) into all four columns. */
#define ARMV8_RC(x) {(x), 0, 0, 0, (x)}
static const uint8_t armv8_key128_consts[11][16] = {
    ARMV8_RC(0x01), ARMV8_RC(0x02), ARMV8_RC(0x04), ARMV8_RC(0x08), ARMV8_RC(0x10),
    ARMV8_RC(0x20), ARMV8_RC(0x40), ARMV8_RC(0x80), ARMV8_RC(0x1b), ARMV8_RC(0x36),
    {13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12}};
#undef ARMV8_RC

/* Byte reversal of a whole block: GCM's bit order <-> POLYVAL's (aesni_ghash.c section 2). */
static const uint8_t armv8_reverse_idx[16] = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};

#endif /* VG_AARCH64_ARMV8_H */
