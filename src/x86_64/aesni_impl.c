/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* aesni_impl.c — the "aesni" implementation's table: every mandatory kernel plus the fused GCM and CCM
   kernels (see aesni.h for the files and the CPU features it needs). */
#include "aesni.h"

static int aesni_available(void) { return vg_x86_has(VG_X86_AESNI_NEEDS); }

const struct vg_impl vg_aesni_impl = {
    .name = "aesni",
    .available = aesni_available,
    .aes_expand_key = vg_aesni_aes_expand_key,
    .aes_ecb_encrypt = vg_aesni_aes_ecb_encrypt,
    .aes_ecb_decrypt = vg_aesni_aes_ecb_decrypt,
    .aes_ctr32 = vg_aesni_aes_ctr32,
    .aes_ctr32_le = vg_aesni_aes_ctr32_le,
    .ghash_init = vg_aesni_ghash_init,
    .ghash_update = vg_aesni_ghash_update,
    .polyval_init = vg_aesni_polyval_init,
    .polyval_update = vg_aesni_polyval_update,
    .gcm_key_setup = vg_aesni_gcm_key_setup,
    .cbc_mac = vg_aesni_cbc_mac,
    .gcm_seal_blocks = vg_aesni_gcm_seal_blocks,
    .gcm_open_blocks = vg_aesni_gcm_open_blocks,
    .ccm_seal_blocks = vg_aesni_ccm_seal_blocks,
    .ccm_open_blocks = vg_aesni_ccm_open_blocks,
    .gcm_seal_short = vg_aesni_gcm_seal_short,
    .gcm_open_short = vg_aesni_gcm_open_short,
    .gcm_short_max = VG_X86_GCM_SHORT_MAX,
    .gcm_short_max_aad = VG_X86_GCM_SHORT_MAX_AAD,
};
