/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * portable.h — the portable, constant-time implementation's kernels (see struct vg_impl for each
 * contract). Runs on every CPU, little- or big-endian; no table indexed by a secret, no branch on one.
 *
 *   aes_bitsliced.c   AES by bitslicing (Boyar–Peralta S-box circuit), key schedule included,
 *                     ECB both ways, CTR32 (big- and little-endian counters), the CCM kernels
 *   ghash_ctmul.c     GHASH and POLYVAL over one carry-less multiplier built from integer multiplies
 *                     with "holes" (no tables)
 *   portable_impl.c   the vg_impl table
 */
#ifndef VG_PORTABLE_H
#define VG_PORTABLE_H

#include "../internal.h"

int vg_portable_aes_expand_key(void *sched, const uint8_t *key, size_t key_len, int want_decrypt) VG_INTERNAL;
void vg_portable_aes_ecb_encrypt(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;
void vg_portable_aes_ecb_decrypt(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;
void vg_portable_aes_ctr32(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                        size_t nblocks) VG_INTERNAL;
void vg_portable_aes_ctr32_le(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                           size_t nblocks) VG_INTERNAL;
void vg_portable_cbc_mac(const void *sched, uint8_t mac[16], const uint8_t *in, size_t nblocks) VG_INTERNAL;
size_t vg_portable_ccm_seal_blocks(const void *sched, uint8_t mac[16], uint8_t counter[16],
                                const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;
size_t vg_portable_ccm_open_blocks(const void *sched, uint8_t mac[16], uint8_t counter[16],
                                const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;

void vg_portable_ghash_init(void *hkey, const uint8_t h[16]) VG_INTERNAL;
void vg_portable_ghash_update(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks) VG_INTERNAL;
void vg_portable_polyval_init(void *hkey, const uint8_t h[16]) VG_INTERNAL;
void vg_portable_polyval_update(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks) VG_INTERNAL;

#endif
