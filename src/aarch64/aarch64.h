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
 * it (when the CPU has FEAT_DIT) and returns the caller's value; vg_arch_secret_exit() restores it.
 * Every public function that touches secrets calls the pair around its body, so the library's own
 * scalar code (tag compares, partial blocks, the portable implementation) runs with DIT too, and a
 * caller that had DIT set keeps it.
 */
#ifndef VG_AARCH64_H
#define VG_AARCH64_H

#include "../internal.h"

#define VG_AARCH64_AES   (1u << 0) /* HWCAP_AES (bit 3) */
#define VG_AARCH64_PMULL (1u << 1) /* HWCAP_PMULL (bit 4) */
#define VG_AARCH64_SHA3  (1u << 2) /* HWCAP_SHA3 (bit 17): EOR3 */
#define VG_AARCH64_DIT   (1u << 3) /* HWCAP_DIT (bit 24) or ID_AA64PFR0_EL1.DIT != 0 via HWCAP_CPUID */

/* The VG_AARCH64_* bits of this CPU and kernel (computed once, then cached). */
unsigned vg_aarch64_features(void) VG_INTERNAL;

/* Sets PSTATE.DIT if the CPU has FEAT_DIT and returns a token for vg_arch_secret_exit (the caller's
   DIT bit; 0 when there is no DIT, and then exit does nothing). */
uint64_t vg_arch_secret_enter(void) VG_INTERNAL;
/* Restores the DIT value that vg_arch_secret_enter saved in token. */
void vg_arch_secret_exit(uint64_t token) VG_INTERNAL;
/* The current PSTATE.DIT (0 or 1; 0 without FEAT_DIT). For tests. */
int vg_arch_dit_enabled(void) VG_INTERNAL;

/* ---------------------------------------------------------------------------------------------- */
/* armv8 kernels (contracts: struct vg_impl in internal.h; layouts in armv8.h)                      */

void vg_armv8_aes_expand_key(void *sched, const uint8_t *key, size_t key_len, int want_decrypt) VG_INTERNAL;
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
    void vg_armv8_aes_expand_key_##suffix(void *sched, const uint8_t *key, size_t key_len,                \
                                       int want_decrypt) VG_INTERNAL;                                  \
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
