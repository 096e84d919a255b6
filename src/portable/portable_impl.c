/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* portable_impl.c — the portable implementation's table: every mandatory kernel, the CCM fused
   kernels (CBC-MAC and CTR share each bitsliced batch), no GCM fused kernel (the mode's composition of
   ctr32 and ghash_update is already as fast as fusing would be without SIMD). */
#include "portable.h"

static int portable_available(void) { return 1; }

#if defined(__aarch64__)
/* The public key set-up calls leave DIT to the schedule kernel (struct vg_impl's aes_expand_key). */
static int portable_expand_key_dit(void *sched, const uint8_t *key, size_t key_len, int want_decrypt)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_portable_aes_expand_key(sched, key, key_len, want_decrypt);
    vg_arch_secret_exit(dit);
    return rc;
}
#define PORTABLE_EXPAND_KEY portable_expand_key_dit
#else
#define PORTABLE_EXPAND_KEY vg_portable_aes_expand_key
#endif

const struct vg_impl vg_portable_impl = {
    .name = "portable",
    .available = portable_available,
    .aes_expand_key = PORTABLE_EXPAND_KEY,
    .aes_ecb_encrypt = vg_portable_aes_ecb_encrypt,
    .aes_ecb_decrypt = vg_portable_aes_ecb_decrypt,
    .aes_ctr32 = vg_portable_aes_ctr32,
    .aes_ctr32_le = vg_portable_aes_ctr32_le,
    .ghash_init = vg_portable_ghash_init,
    .ghash_update = vg_portable_ghash_update,
    .polyval_init = vg_portable_polyval_init,
    .polyval_update = vg_portable_polyval_update,
    .cbc_mac = vg_portable_cbc_mac,
    .gcm_seal_blocks = NULL,
    .gcm_open_blocks = NULL,
    .ccm_seal_blocks = vg_portable_ccm_seal_blocks,
    .ccm_open_blocks = vg_portable_ccm_open_blocks,
};
