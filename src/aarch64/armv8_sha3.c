/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* armv8_sha3.c — the key-expansion/CTR/GHASH/GCM kernels of armv8_kernels.inc with EOR3
   (FEAT_SHA3: Neoverse V1/N2/V2 — Graviton 3/4, Grace, Cobalt 100 — Apple M1 and later). Reached
   only when HWCAP_SHA3 is set (armv8_impl.c). */
#include "armv8.h"

#define ARMV8_SUFFIX sha3
#define ARMV8_VARIANT_TARGET VG_ARMV8_SHA3_TARGET
#define ARMV8_XOR3(a, b, c) veor3q_u8((a), (b), (c))
/* the same in the text of an asm: d ^= a ^ b */
#define ARMV8_ASM_XOR3(d, a, b) "eor3 " d ".16b, " d ".16b, " a ".16b, " b ".16b\n\t"
#include "armv8_kernels.inc"
