/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * power9_impl.c — the "power9" implementation: the power8 kernels compiled again for ISA 3.0, where
 * lxvb16x/stxvb16x move blocks in byte order, so the data path has no vperm left (CTR: 15 instructions
 * per block instead of 16; GHASH: one fewer per block). Everything else — the maths, the layouts of
 * the schedule and the H powers, the 8-block batches and 4/2/1 tails — is power8's (power8.h).
 *
 * CPU features: POWER ISA 3.0 (PPC_FEATURE2_ARCH_3_00) and the vector crypto of 2.07
 * (PPC_FEATURE2_VEC_CRYPTO), both from getauxval(AT_HWCAP2). Chosen only on such a CPU.
 */
#define P8_POWER9 1
#include "power8_aes.c"
#include "power8_ghash.c"
#include "power8_gcm.c"
#include "power8_ccm.c"

#include <sys/auxv.h>

#ifndef PPC_FEATURE2_ARCH_3_00
#define PPC_FEATURE2_ARCH_3_00 0x00800000 /* Linux uapi asm/cputable.h */
#endif
#ifndef PPC_FEATURE2_VEC_CRYPTO
#define PPC_FEATURE2_VEC_CRYPTO 0x02000000
#endif

static int power9_available(void)
{
    unsigned long need = PPC_FEATURE2_ARCH_3_00 | PPC_FEATURE2_VEC_CRYPTO;
    return (getauxval(AT_HWCAP2) & need) == need;
}

const struct vg_impl vg_power9_impl = {
    .name = "power9",
    .available = power9_available,
    .aes_expand_key = vg_power9_aes_expand_key,
    .aes_ecb_encrypt = vg_power9_aes_ecb_encrypt,
    .aes_ecb_decrypt = vg_power9_aes_ecb_decrypt,
    .aes_ctr32 = vg_power9_aes_ctr32,
    .aes_ctr32_le = vg_power9_aes_ctr32_le,
    .ghash_init = vg_power9_ghash_init,
    .ghash_update = vg_power9_ghash_update,
    .polyval_init = vg_power9_polyval_init,
    .polyval_update = vg_power9_polyval_update,
    .cbc_mac = vg_power9_cbc_mac,
    .gcm_seal_blocks = vg_power9_gcm_seal_blocks,
    .gcm_open_blocks = vg_power9_gcm_open_blocks,
    .ccm_seal_blocks = vg_power9_ccm_seal_blocks,
    .ccm_open_blocks = vg_power9_ccm_open_blocks,
    .gcm_seal_short = vg_power9_gcm_seal_short,
    .gcm_open_short = vg_power9_gcm_open_short,
    .gcm_short_max = POWER8_GCM_SHORT_MAX,
    .gcm_short_max_aad = POWER8_GCM_SHORT_MAX_AAD,
};
