/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* power8_impl.c — the "power8" implementation's table (every mandatory kernel and the fused GCM and
   CCM kernels) and its run-time CPU check (see power8.h for
   the files and the instructions it needs). */
#include <sys/auxv.h>

#include "power8.h"

/* The kernel reports ISA 2.07 vector crypto in AT_HWCAP2 (value from the Linux uapi header
   asm/cputable.h, defined here in case the libc headers predate it). */
#ifndef PPC_FEATURE2_VEC_CRYPTO
#define PPC_FEATURE2_VEC_CRYPTO 0x02000000
#endif

static int power8_available(void) { return (getauxval(AT_HWCAP2) & PPC_FEATURE2_VEC_CRYPTO) != 0; }

const struct vg_impl vg_power8_impl = {
    .name = "power8",
    .available = power8_available,
    .aes_expand_key = vg_power8_aes_expand_key,
    .aes_ecb_encrypt = vg_power8_aes_ecb_encrypt,
    .aes_ecb_decrypt = vg_power8_aes_ecb_decrypt,
    .aes_ctr32 = vg_power8_aes_ctr32,
    .aes_ctr32_le = vg_power8_aes_ctr32_le,
    .ghash_init = vg_power8_ghash_init,
    .ghash_update = vg_power8_ghash_update,
    .polyval_init = vg_power8_polyval_init,
    .polyval_update = vg_power8_polyval_update,
    .cbc_mac = vg_power8_cbc_mac,
    .gcm_seal_blocks = vg_power8_gcm_seal_blocks,
    .gcm_open_blocks = vg_power8_gcm_open_blocks,
    .ccm_seal_blocks = vg_power8_ccm_seal_blocks,
    .ccm_open_blocks = vg_power8_ccm_open_blocks,
    .gcm_seal_short = vg_power8_gcm_seal_short,
    .gcm_open_short = vg_power8_gcm_open_short,
    .gcm_short_max = POWER8_GCM_SHORT_MAX,
    .gcm_short_max_aad = POWER8_GCM_SHORT_MAX_AAD,
};
