/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * armv8_impl.c — AArch64 CPU detection, DIT, and the "armv8" table (see aarch64.h and armv8.h).
 *
 * Nothing here uses the Cryptographic Extension: this file is plain armv8-a.
 */
#include <stdatomic.h>
#include <sys/auxv.h>

#include "aarch64.h"

/* Linux's AT_HWCAP bits (arch/arm64/include/uapi/asm/hwcap.h), spelled out so that older libc
   headers work. */
#define HWCAP_BIT_AES   (1ul << 3)
#define HWCAP_BIT_PMULL (1ul << 4)
#define HWCAP_BIT_CPUID (1ul << 11)
#define HWCAP_BIT_SHA3  (1ul << 17)
#define HWCAP_BIT_DIT   (1ul << 24)

#define DETECTED (1u << 31) /* set in the cache once detection ran, so "no features" is cached too */


static unsigned detect(void)
{
    unsigned long hw = getauxval(AT_HWCAP);
    unsigned f = 0;
    if (hw & HWCAP_BIT_AES) f |= VG_AARCH64_AES;
    if (hw & HWCAP_BIT_PMULL) f |= VG_AARCH64_PMULL;
    if (hw & HWCAP_BIT_SHA3) f |= VG_AARCH64_SHA3;
    if (hw & HWCAP_BIT_DIT) {
        f |= VG_AARCH64_DIT;
    } else if (hw & HWCAP_BIT_CPUID) {
        /* ID_AA64PFR0_EL1 (op0=3, op1=0, CRn=0, CRm=4, op2=0): the kernel emulates this MRS at EL0
           when it advertises HWCAP_CPUID (Documentation/arch/arm64/cpu-feature-registers.rst), with
           the DIT field [51:48] visible. */
        uint64_t pfr0;
        __asm__ volatile("mrs %0, s3_0_c0_c4_0" : "=r"(pfr0));
        if ((pfr0 >> 48) & 0xf) f |= VG_AARCH64_DIT;
    }
    return f;
}

atomic_uint vg_aarch64_feature_cache; /* detect() | DETECTED once detection ran, else 0 (aarch64.h) */

/* The first call's path, out of line: inlined, it would make every caller of vg_aarch64_features
   (vg_arch_secret_enter runs in every public call) save registers for a call it never makes. */
static __attribute__((noinline, cold)) unsigned detect_and_cache(void)
{
    unsigned f = detect() | DETECTED;
    atomic_store_explicit(&vg_aarch64_feature_cache, f, memory_order_relaxed);
    return f;
}

static inline unsigned features(void)
{
    unsigned f = atomic_load_explicit(&vg_aarch64_feature_cache, memory_order_relaxed);
    if (__builtin_expect(!(f & DETECTED), 0)) f = detect_and_cache();
    return f & ~DETECTED;
}

unsigned vg_aarch64_features(void)
{
    return features();
}

/* ---------------------------------------------------------------------------------------------- */
/* DIT                                                                                              */
/* The token and the work: vg_aarch64_dit_enter / _exit in aarch64.h. */
uint64_t vg_arch_secret_enter(void)
{
    return vg_aarch64_dit_enter(features());
}

void vg_arch_secret_exit(uint64_t token)
{
    vg_aarch64_dit_exit(token);
}

int vg_arch_dit_enabled(void)
{
    if (!(vg_aarch64_features() & VG_AARCH64_DIT)) return 0;
    uint64_t v;
    __asm__ volatile("mrs %0, " VG_AARCH64_DIT_SYSREG : "=r"(v));
    return (v & VG_AARCH64_DIT_BIT) != 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* The table                                                                                        */

static int armv8_available(void)
{
#if defined(__AARCH64EB__)
    return 0; /* the counter and PMULL lanes are read little-endian (armv8.h) */
#else
    unsigned need = VG_AARCH64_AES | VG_AARCH64_PMULL;
    return (vg_aarch64_features() & need) == need;
#endif
}

/* The EOR3 kernels where the CPU has FEAT_SHA3. The cache is read directly, without running detection:
   a kernel is reached only through this table after available() ran detection, and if it had not,
   the answer would be "no SHA3" and the plain-EOR kernels, right on every CPU that has AES and PMULL.
   So the dispatch wrappers are one load and a branch that goes the same way on every call, with no
   call inside that would make them save the nine arguments (and tail calls stay tail calls). */
static int use_sha3(void)
{
    return (atomic_load_explicit(&vg_aarch64_feature_cache, memory_order_relaxed) & VG_AARCH64_SHA3) != 0;
}

/* Not static: bench/insn/insn-bench.c counts it by this name. Each variant sets DIT around its
   schedule itself (the public key set-up calls leave it to this kernel: struct vg_impl), so that both
   calls here stay tail calls; it gets the feature word read here for that. */
int vg_armv8_aes_expand_key(void *sched, const uint8_t *key, size_t key_len, int want_decrypt)
{
    unsigned f = atomic_load_explicit(&vg_aarch64_feature_cache, memory_order_relaxed);
    return (f & VG_AARCH64_SHA3) ? vg_armv8_aes_expand_key_sha3(sched, key, key_len, want_decrypt, f)
                                 : vg_armv8_aes_expand_key_base(sched, key, key_len, want_decrypt, f);
}

static void vg_armv8_aes_ctr32(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                            size_t nblocks)
{
    if (use_sha3())
        vg_armv8_aes_ctr32_sha3(sched, counter, in, out, nblocks);
    else
        vg_armv8_aes_ctr32_base(sched, counter, in, out, nblocks);
}

static void vg_armv8_aes_ctr32_le(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                               size_t nblocks)
{
    if (use_sha3())
        vg_armv8_aes_ctr32_le_sha3(sched, counter, in, out, nblocks);
    else
        vg_armv8_aes_ctr32_le_base(sched, counter, in, out, nblocks);
}

static void vg_armv8_ghash_update(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks)
{
    if (use_sha3())
        vg_armv8_ghash_update_sha3(hkey, acc, in, nblocks);
    else
        vg_armv8_ghash_update_base(hkey, acc, in, nblocks);
}

static void vg_armv8_polyval_update(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks)
{
    if (use_sha3())
        vg_armv8_polyval_update_sha3(hkey, acc, in, nblocks);
    else
        vg_armv8_polyval_update_base(hkey, acc, in, nblocks);
}

static size_t vg_armv8_gcm_seal_blocks(const void *sched, const void *hkey, uint8_t counter[16],
                                    uint8_t acc[16], const uint8_t *in, uint8_t *out, size_t nblocks)
{
    return use_sha3() ? vg_armv8_gcm_seal_blocks_sha3(sched, hkey, counter, acc, in, out, nblocks)
                      : vg_armv8_gcm_seal_blocks_base(sched, hkey, counter, acc, in, out, nblocks);
}

static size_t vg_armv8_gcm_open_blocks(const void *sched, const void *hkey, uint8_t counter[16],
                                    uint8_t acc[16], const uint8_t *in, uint8_t *out, size_t nblocks)
{
    return use_sha3() ? vg_armv8_gcm_open_blocks_sha3(sched, hkey, counter, acc, in, out, nblocks)
                      : vg_armv8_gcm_open_blocks_base(sched, hkey, counter, acc, in, out, nblocks);
}

static void vg_armv8_gcm_seal_short(const void *sched, const void *hkey, const uint8_t nonce[12],
                                 const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                                 size_t len, uint8_t tag[16])
{
    if (use_sha3())
        vg_armv8_gcm_seal_short_sha3(sched, hkey, nonce, aad, aad_len, in, out, len, tag);
    else
        vg_armv8_gcm_seal_short_base(sched, hkey, nonce, aad, aad_len, in, out, len, tag);
}

static void vg_armv8_gcm_open_short(const void *sched, const void *hkey, const uint8_t nonce[12],
                                 const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                                 size_t len, uint8_t tag[16])
{
    if (use_sha3())
        vg_armv8_gcm_open_short_sha3(sched, hkey, nonce, aad, aad_len, in, out, len, tag);
    else
        vg_armv8_gcm_open_short_base(sched, hkey, nonce, aad, aad_len, in, out, len, tag);
}

const struct vg_impl vg_armv8_impl = {
    .name = "armv8",
    .available = armv8_available,
    .aes_expand_key = vg_armv8_aes_expand_key,
    .aes_ecb_encrypt = vg_armv8_aes_ecb_encrypt,
    .aes_ecb_decrypt = vg_armv8_aes_ecb_decrypt,
    .aes_ctr32 = vg_armv8_aes_ctr32,
    .aes_ctr32_le = vg_armv8_aes_ctr32_le,
    .ghash_init = vg_armv8_ghash_init,
    .ghash_update = vg_armv8_ghash_update,
    .polyval_init = vg_armv8_polyval_init,
    .polyval_update = vg_armv8_polyval_update,
    .cbc_mac = vg_armv8_cbc_mac,
    .gcm_seal_blocks = vg_armv8_gcm_seal_blocks,
    .gcm_open_blocks = vg_armv8_gcm_open_blocks,
    .ccm_seal_blocks = vg_armv8_ccm_seal_blocks,
    .ccm_open_blocks = vg_armv8_ccm_open_blocks,
    .gcm_seal_short = vg_armv8_gcm_seal_short,
    .gcm_open_short = vg_armv8_gcm_open_short,
    .gcm_short_max = 16 * ARMV8_SHORT_MAX_BLOCKS,
    .gcm_short_max_aad = 16 * ARMV8_SHORT_MAX_AAD_BLOCKS,
};
