/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * kernel_specs.h — ACSL contracts of the portable kernels (struct vg_impl's slots, src/portable/),
 * for the Eva analysis only: the entry points include this file, so the contracts attach to the
 * kernels' declarations without touching src/.
 *
 * Two uses (docs/proofs-eva.md):
 *  - eva_kernels.c runs the real kernels for every block count 0..EVA_MAX_BLOCKS on buffers of
 *    exactly 16 * nblocks bytes; Eva checks the preconditions at each call and the postconditions
 *    (outputs initialised) against the code.
 *  - the mode runs (eva_aes.c, eva_gcm*.c, eva_siv.c, eva_ccm.c) pass -eva-use-spec for these
 *    functions: each kernel call is replaced by its contract, whose preconditions Eva checks at the
 *    call. So every call a mode makes is shown to stay within what the kernel run proved: buffers
 *    valid for nblocks whole blocks, inputs initialised, nblocks <= EVA_MAX_BLOCKS.
 * The contracts speak only of memory (what is read, written, initialised), never of values: Eva
 * does not prove the AES or GHASH values right (the test vectors do that).
 */
#ifndef VG_EVA_KERNEL_SPECS_H
#define VG_EVA_KERNEL_SPECS_H

#include "portable/portable.h"
#include "eva_bounds.h"

/* The bytes of a schedule or hash key area the kernels may touch. */
#define EVA_SCHED(p) (((uint8_t *)(p)) + (0 .. VG_SCHED_SIZE - 1))
#define EVA_HKEY(p) (((uint8_t *)(p)) + (0 .. VG_HKEY_SIZE - 1))

/*@ requires key_len == 16 || key_len == 24 || key_len == 32;
    requires \valid_read(key + (0 .. key_len - 1)) && \initialized(key + (0 .. key_len - 1));
    requires \valid(EVA_SCHED(sched));
    assigns ((uint8_t *)sched)[0 .. VG_SCHED_SIZE - 1] \from key[0 .. key_len - 1], key_len;
    assigns \result \from \nothing;
    ensures \result == VG_OK;
*/
int vg_portable_aes_expand_key(void *sched, const uint8_t *key, size_t key_len, int want_decrypt);

/*@ requires nblocks <= EVA_MAX_BLOCKS;
    requires \valid_read(EVA_SCHED(sched));
    requires \valid_read(in + (0 .. 16 * nblocks - 1)) && \initialized(in + (0 .. 16 * nblocks - 1));
    requires \valid(out + (0 .. 16 * nblocks - 1));
    assigns out[0 .. 16 * nblocks - 1] \from in[0 .. 16 * nblocks - 1], ((uint8_t *)sched)[0 .. VG_SCHED_SIZE - 1];
    ensures \initialized(out + (0 .. 16 * nblocks - 1));
*/
void vg_portable_aes_ecb_encrypt(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks);

/*@ requires nblocks <= EVA_MAX_BLOCKS;
    requires \valid_read(EVA_SCHED(sched));
    requires \valid_read(in + (0 .. 16 * nblocks - 1)) && \initialized(in + (0 .. 16 * nblocks - 1));
    requires \valid(out + (0 .. 16 * nblocks - 1));
    assigns out[0 .. 16 * nblocks - 1] \from in[0 .. 16 * nblocks - 1], ((uint8_t *)sched)[0 .. VG_SCHED_SIZE - 1];
    ensures \initialized(out + (0 .. 16 * nblocks - 1));
*/
void vg_portable_aes_ecb_decrypt(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks);

/*@ requires nblocks <= EVA_MAX_BLOCKS;
    requires \valid_read(EVA_SCHED(sched));
    requires \valid(counter + (0 .. 15)) && \initialized(counter + (0 .. 15));
    requires \valid_read(in + (0 .. 16 * nblocks - 1)) && \initialized(in + (0 .. 16 * nblocks - 1));
    requires \valid(out + (0 .. 16 * nblocks - 1));
    assigns out[0 .. 16 * nblocks - 1] \from in[0 .. 16 * nblocks - 1], counter[0 .. 15], ((uint8_t *)sched)[0 .. VG_SCHED_SIZE - 1];
    assigns counter[12 .. 15] \from counter[12 .. 15], nblocks;
    ensures \initialized(out + (0 .. 16 * nblocks - 1));
    ensures \initialized(counter + (0 .. 15));
*/
void vg_portable_aes_ctr32(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                        size_t nblocks);

/*@ requires nblocks <= EVA_MAX_BLOCKS;
    requires \valid_read(EVA_SCHED(sched));
    requires \valid(counter + (0 .. 15)) && \initialized(counter + (0 .. 15));
    requires \valid_read(in + (0 .. 16 * nblocks - 1)) && \initialized(in + (0 .. 16 * nblocks - 1));
    requires \valid(out + (0 .. 16 * nblocks - 1));
    assigns out[0 .. 16 * nblocks - 1] \from in[0 .. 16 * nblocks - 1], counter[0 .. 15], ((uint8_t *)sched)[0 .. VG_SCHED_SIZE - 1];
    assigns counter[0 .. 3] \from counter[0 .. 3], nblocks;
    ensures \initialized(out + (0 .. 16 * nblocks - 1));
    ensures \initialized(counter + (0 .. 15));
*/
void vg_portable_aes_ctr32_le(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                           size_t nblocks);

/*@ requires nblocks <= EVA_MAX_BLOCKS;
    requires \valid_read(EVA_SCHED(sched));
    requires \valid(mac + (0 .. 15)) && \initialized(mac + (0 .. 15));
    requires \valid_read(in + (0 .. 16 * nblocks - 1)) && \initialized(in + (0 .. 16 * nblocks - 1));
    assigns mac[0 .. 15] \from mac[0 .. 15], in[0 .. 16 * nblocks - 1], ((uint8_t *)sched)[0 .. VG_SCHED_SIZE - 1];
    ensures \initialized(mac + (0 .. 15));
*/
void vg_portable_cbc_mac(const void *sched, uint8_t mac[16], const uint8_t *in, size_t nblocks);

/*@ requires nblocks <= EVA_MAX_BLOCKS;
    requires \valid_read(EVA_SCHED(sched));
    requires \valid(mac + (0 .. 15)) && \initialized(mac + (0 .. 15));
    requires \valid(counter + (0 .. 15)) && \initialized(counter + (0 .. 15));
    requires \valid_read(in + (0 .. 16 * nblocks - 1)) && \initialized(in + (0 .. 16 * nblocks - 1));
    requires \valid(out + (0 .. 16 * nblocks - 1));
    assigns out[0 .. 16 * nblocks - 1] \from in[0 .. 16 * nblocks - 1], counter[0 .. 15], ((uint8_t *)sched)[0 .. VG_SCHED_SIZE - 1];
    assigns mac[0 .. 15] \from mac[0 .. 15], in[0 .. 16 * nblocks - 1], ((uint8_t *)sched)[0 .. VG_SCHED_SIZE - 1];
    assigns counter[12 .. 15] \from counter[12 .. 15], nblocks;
    assigns \result \from nblocks;
    ensures \result == nblocks;
    ensures \initialized(out + (0 .. 16 * nblocks - 1));
    ensures \initialized(mac + (0 .. 15)) && \initialized(counter + (0 .. 15));
*/
size_t vg_portable_ccm_seal_blocks(const void *sched, uint8_t mac[16], uint8_t counter[16],
                                const uint8_t *in, uint8_t *out, size_t nblocks);

/*@ requires nblocks <= EVA_MAX_BLOCKS;
    requires \valid_read(EVA_SCHED(sched));
    requires \valid(mac + (0 .. 15)) && \initialized(mac + (0 .. 15));
    requires \valid(counter + (0 .. 15)) && \initialized(counter + (0 .. 15));
    requires \valid_read(in + (0 .. 16 * nblocks - 1)) && \initialized(in + (0 .. 16 * nblocks - 1));
    requires \valid(out + (0 .. 16 * nblocks - 1));
    assigns out[0 .. 16 * nblocks - 1] \from in[0 .. 16 * nblocks - 1], counter[0 .. 15], ((uint8_t *)sched)[0 .. VG_SCHED_SIZE - 1];
    assigns mac[0 .. 15] \from mac[0 .. 15], in[0 .. 16 * nblocks - 1], ((uint8_t *)sched)[0 .. VG_SCHED_SIZE - 1];
    assigns counter[12 .. 15] \from counter[12 .. 15], nblocks;
    assigns \result \from nblocks;
    ensures \result == nblocks;
    ensures \initialized(out + (0 .. 16 * nblocks - 1));
    ensures \initialized(mac + (0 .. 15)) && \initialized(counter + (0 .. 15));
*/
size_t vg_portable_ccm_open_blocks(const void *sched, uint8_t mac[16], uint8_t counter[16],
                                const uint8_t *in, uint8_t *out, size_t nblocks);

/*@ requires \valid(EVA_HKEY(hkey));
    requires \valid_read(h + (0 .. 15)) && \initialized(h + (0 .. 15));
    assigns ((uint8_t *)hkey)[0 .. VG_HKEY_SIZE - 1] \from h[0 .. 15];
*/
void vg_portable_ghash_init(void *hkey, const uint8_t h[16]);

/*@ requires nblocks <= EVA_MAX_BLOCKS;
    requires \valid_read(EVA_HKEY(hkey));
    requires \valid(acc + (0 .. 15)) && \initialized(acc + (0 .. 15));
    requires \valid_read(in + (0 .. 16 * nblocks - 1)) && \initialized(in + (0 .. 16 * nblocks - 1));
    assigns acc[0 .. 15] \from acc[0 .. 15], in[0 .. 16 * nblocks - 1], ((uint8_t *)hkey)[0 .. VG_HKEY_SIZE - 1];
    ensures \initialized(acc + (0 .. 15));
*/
void vg_portable_ghash_update(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks);

/*@ requires \valid(EVA_HKEY(hkey));
    requires \valid_read(h + (0 .. 15)) && \initialized(h + (0 .. 15));
    assigns ((uint8_t *)hkey)[0 .. VG_HKEY_SIZE - 1] \from h[0 .. 15];
*/
void vg_portable_polyval_init(void *hkey, const uint8_t h[16]);

/*@ requires nblocks <= EVA_MAX_BLOCKS;
    requires \valid_read(EVA_HKEY(hkey));
    requires \valid(acc + (0 .. 15)) && \initialized(acc + (0 .. 15));
    requires \valid_read(in + (0 .. 16 * nblocks - 1)) && \initialized(in + (0 .. 16 * nblocks - 1));
    assigns acc[0 .. 15] \from acc[0 .. 15], in[0 .. 16 * nblocks - 1], ((uint8_t *)hkey)[0 .. VG_HKEY_SIZE - 1];
    ensures \initialized(acc + (0 .. 15));
*/
void vg_portable_polyval_update(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks);

#endif
