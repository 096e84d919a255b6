/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * aarch64.h — what the AArch64 implementation shares with the rest of the library: CPU feature
 * detection, DIT (data-independent timing) and the implementation table. Safe to include from any
 * file compiled for AArch64 (nothing here needs the Cryptographic Extension).
 *
 * Feature detection (armv8_impl.c)
 * --------------------------------
 * vg_aarch64_features() returns VG_AARCH64_* bits from getauxval(AT_HWCAP), which the kernel sets
 * only for features it supports for user space. DIT has a second source: qemu 7.2 (-cpu max)
 * implements PSTATE.DIT but does not advertise HWCAP_DIT, and older kernels never did; where the
 * kernel advertises HWCAP_CPUID, user space may read ID_AA64PFR0_EL1 (the kernel traps and emulates
 * the MRS with its sanitised view), whose DIT field [51:48] != 0 means FEAT_DIT. Detection runs once
 * per process and is cached in an atomic.
 *
 * DIT
 * ---
 * Arm guarantees data-independent timing of the AES, PMULL and most integer/NEON instructions only
 * while PSTATE.DIT = 1 (Arm ARM, "About PSTATE.DIT"; FEAT_DIT, Armv8.4). vg_arch_secret_enter() sets
 * it (when the CPU has FEAT_DIT) and returns a token; vg_arch_secret_exit() restores the caller's value.
 * Every public function that touches secrets calls the pair around its body, so the library's own
 * scalar code (tag compares, partial blocks, the portable implementation) runs with DIT too, and a
 * caller that had DIT set keeps it. The key set-up calls that only run the schedule leave it to the
 * schedule kernel (both variants of vg_armv8_aes_expand_key, and the portable table's wrapper), the
 * only code of theirs that reads the key.
 */
#ifndef VG_AARCH64_H
#define VG_AARCH64_H

#include <stdatomic.h>

#include "../internal.h"

#define VG_AARCH64_AES   (1u << 0) /* HWCAP_AES (bit 3) */
#define VG_AARCH64_PMULL (1u << 1) /* HWCAP_PMULL (bit 4) */
#define VG_AARCH64_SHA3  (1u << 2) /* HWCAP_SHA3 (bit 17): EOR3 */
#define VG_AARCH64_DIT   (1u << 3) /* HWCAP_DIT (bit 24) or ID_AA64PFR0_EL1.DIT != 0 via HWCAP_CPUID */

/* The VG_AARCH64_* bits of this CPU and kernel (computed once, then cached). */
unsigned vg_aarch64_features(void) VG_INTERNAL;
/* The cache itself (armv8_impl.c): those bits with bit 31 set once detection ran, else 0. Kernels read
   it directly: they are reached only through the armv8 table, after its available() ran detection. */
extern atomic_uint vg_aarch64_feature_cache VG_INTERNAL;

/* PSTATE.DIT through its system-register form: DIT is op0=3, op1=3, CRn=4, CRm=2, op2=5 (Arm ARM
   C5.2.5); the generic name assembles without -march=armv8.4-a. The bit is bit 24 of the register
   (it is read and written there, and MSR DIT, #imm is the same write). */
#define VG_AARCH64_DIT_SYSREG "s3_3_c4_c2_5"
#define VG_AARCH64_DIT_BIT (UINT64_C(1) << 24)

/* MSR DIT, #1 and MSR DIT, #0 (the immediate form: no register for the value), as instruction words
   (MSR immediate, op1 = 3, op2 = 2, CRm = the bit) so that they assemble without -march=armv8.4-a. */
#define VG_AARCH64_SET_DIT ".inst 0xd503415f"
#define VG_AARCH64_CLEAR_DIT ".inst 0xd503405f"

/* vg_arch_secret_enter / _exit's work, inline, for features f (also used by a kernel that sets DIT
   itself: the key schedule, whose public calls make no other use of the key). The token is 1 when
   exit must clear DIT again (this CPU has FEAT_DIT and the caller ran without it), else 0: a caller
   that had DIT set keeps it, one that had not gets it back clear. Without FEAT_DIT the register does
   not exist (MRS would be UNDEFINED): enter returns 0 and exit does nothing. The branch is on a CPU
   feature, and on the caller's DIT, the same on every call. */
static inline uint64_t vg_aarch64_dit_enter(unsigned f)
{
    if (!(f & VG_AARCH64_DIT)) return 0;
    uint64_t saved;
    __asm__ volatile("mrs %0, " VG_AARCH64_DIT_SYSREG "\n\t" VG_AARCH64_SET_DIT : "=r"(saved) : : "memory");
    return !(saved & VG_AARCH64_DIT_BIT);
}

static inline void vg_aarch64_dit_exit(uint64_t token)
{
    if (token) __asm__ volatile(VG_AARCH64_CLEAR_DIT : : : "memory");
}

/* Sets PSTATE.DIT if the CPU has FEAT_DIT and returns a token for vg_arch_secret_exit (1: clear DIT
   again; 0: leave it, because the caller had it set or there is no DIT): vg_aarch64_dit_enter above. */
uint64_t vg_arch_secret_enter(void) VG_INTERNAL;
/* Gives the caller back the DIT value it had before vg_arch_secret_enter (token from it). */
void vg_arch_secret_exit(uint64_t token) VG_INTERNAL;
/* The current PSTATE.DIT (0 or 1; 0 without FEAT_DIT). For tests. */
int vg_arch_dit_enabled(void) VG_INTERNAL;

/* ---------------------------------------------------------------------------------------------- */
/* armv8 kernels (contracts: struct vg_impl in internal.h; layouts in armv8.h)                      */

int vg_armv8_aes_expand_key(void *sched, const uint8_t *key, size_t key_len, int want_decrypt) VG_INTERNAL;
void vg_armv8_aes_ecb_encrypt(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;
void vg_armv8_aes_ecb_decrypt(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;
void vg_armv8_ghash_init(void *hkey, const uint8_t h[16]) VG_INTERNAL;
void vg_armv8_polyval_init(void *hkey, const uint8_t h[16]) VG_INTERNAL;
void vg_armv8_cbc_mac(const void *sched, uint8_t mac[16], const uint8_t *in, size_t nblocks) VG_INTERNAL;
size_t vg_armv8_ccm_seal_blocks(const void *sched, uint8_t mac[16], uint8_t counter[16],
                             const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;
size_t vg_armv8_ccm_open_blocks(const void *sched, uint8_t mac[16], uint8_t counter[16],
                             const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;

/* Whole short GCM messages (gcm_seal_short / gcm_open_short): the table announces gcm_short_max =
   16 * ARMV8_SHORT_MAX_BLOCKS bytes of data and gcm_short_max_aad = 16 * ARMV8_SHORT_MAX_AAD_BLOCKS
   bytes of AAD (their sum + 1 blocks are hashed with the 16 H powers of a GHASH key, armv8.h). */
#define ARMV8_SHORT_MAX_BLOCKS 12
#define ARMV8_SHORT_MAX_AAD_BLOCKS 3

/* The kernels built twice (armv8_kernels.inc): _base with EOR, _sha3 with EOR3. */
#define ARMV8_DECLARE_VARIANT(suffix)                                                                  \
    int vg_armv8_aes_expand_key_##suffix(void *sched, const uint8_t *key, size_t key_len,                 \
                                         int want_decrypt, unsigned features) VG_INTERNAL;               \
    void vg_armv8_aes_ctr32_##suffix(const void *sched, uint8_t counter[16], const uint8_t *in,           \
                                  uint8_t *out, size_t nblocks) VG_INTERNAL;                           \
    void vg_armv8_aes_ctr32_le_##suffix(const void *sched, uint8_t counter[16], const uint8_t *in,        \
                                     uint8_t *out, size_t nblocks) VG_INTERNAL;                        \
    void vg_armv8_ghash_update_##suffix(const void *hkey, uint8_t acc[16], const uint8_t *in,             \
                                     size_t nblocks) VG_INTERNAL;                                      \
    void vg_armv8_polyval_update_##suffix(const void *hkey, uint8_t acc[16], const uint8_t *in,           \
                                       size_t nblocks) VG_INTERNAL;                                    \
    size_t vg_armv8_gcm_seal_blocks_##suffix(const void *sched, const void *hkey, uint8_t counter[16],    \
                                          uint8_t acc[16], const uint8_t *in, uint8_t *out,            \
                                          size_t nblocks) VG_INTERNAL;                                 \
    size_t vg_armv8_gcm_open_blocks_##suffix(const void *sched, const void *hkey, uint8_t counter[16],    \
                                          uint8_t acc[16], const uint8_t *in, uint8_t *out,            \
                                          size_t nblocks) VG_INTERNAL;                                 \
    void vg_armv8_gcm_seal_short_##suffix(const void *sched, const void *hkey, const uint8_t nonce[12],   \
                                       const uint8_t *aad, size_t aad_len, const uint8_t *in,          \
                                       uint8_t *out, size_t len, uint8_t tag[16]) VG_INTERNAL;         \
    void vg_armv8_gcm_open_short_##suffix(const void *sched, const void *hkey, const uint8_t nonce[12],   \
                                       const uint8_t *aad, size_t aad_len, const uint8_t *in,          \
                                       uint8_t *out, size_t len, uint8_t tag[16]) VG_INTERNAL;
ARMV8_DECLARE_VARIANT(base)
ARMV8_DECLARE_VARIANT(sha3)

/* "armv8": AES + PMULL (EOR3 used when FEAT_SHA3 is there). */
extern const struct vg_impl vg_armv8_impl VG_INTERNAL;

#endif /* VG_AARCH64_H */
