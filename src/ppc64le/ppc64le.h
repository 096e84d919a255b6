/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * ppc64le.h — what the ppc64le implementations share with the rest of the library: the
 * implementation tables (one per instruction-set tier) listed in impl.c.
 */
#ifndef VG_PPC64LE_H
#define VG_PPC64LE_H

#include "../internal.h"

/* "power8": POWER ISA 2.07 vector crypto (vcipher, vncipher, vsbox, vpmsumd), chosen when
   getauxval(AT_HWCAP2) has PPC_FEATURE2_VEC_CRYPTO. */
extern const struct vg_impl vg_power8_impl VG_INTERNAL;
/* "power9": the same kernels with ISA 3.0's byte-order vector loads and stores (no vperm on the data),
   chosen when AT_HWCAP2 also has PPC_FEATURE2_ARCH_3_00. */
extern const struct vg_impl vg_power9_impl VG_INTERNAL;

#endif /* VG_PPC64LE_H */
