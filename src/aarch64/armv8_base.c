/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* armv8_base.c — the key-expansion/CTR/GHASH/GCM kernels of armv8_kernels.inc with plain EOR:
   every ARMv8 CPU with AES and PMULL (Cortex-A53/A57/A72, Neoverse N1, Graviton 2, Ampere Altra). */
#include "armv8.h"

#define ARMV8_SUFFIX base
#define ARMV8_VARIANT_TARGET VG_ARMV8_TARGET
#define ARMV8_XOR3(a, b, c) veorq_u8(veorq_u8((a), (b)), (c))
/* the same in the text of an asm: d ^= a ^ b (d is also the first source, so no alias hazard) */
#define ARMV8_ASM_XOR3(d, a, b) "eor " d ".16b, " d ".16b, " a ".16b\n\teor " d ".16b, " d ".16b, " b ".16b\n\t"
#include "armv8_kernels.inc"
