/* armv8_base.c — the key-expansion/CTR/GHASH/GCM kernels of armv8_kernels.inc with plain EOR:
   every ARMv8 CPU with AES and PMULL (Cortex-A53/A57/A72, Neoverse N1, Graviton 2, Ampere Altra). */
#include "armv8.h"

#define ARMV8_SUFFIX base
#define ARMV8_VARIANT_TARGET VG_ARMV8_TARGET
#define ARMV8_XOR3(a, b, c) veorq_u8(veorq_u8((a), (b)), (c))
#include "armv8_kernels.inc"
