/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* eva_bounds.h — the bounds of the Eva analysis (docs/proofs-eva.md). */
#ifndef VG_EVA_BOUNDS_H
#define VG_EVA_BOUNDS_H

/* Message lengths: every value 0..EVA_MAX_LEN bytes, each against every AAD length of EVA_SIDE
   (every byte tail, CCM's staged payloads up to their 48-byte limit), then the lengths of EVA_LONG:
   across 4 blocks, GCM's 14/15-block staging limit into its direct path, 17 blocks. */
#ifndef EVA_MAX_LEN
#define EVA_MAX_LEN 48
#endif
#ifndef EVA_LONG
#define EVA_LONG 63, 64, 65, 223, 224, 225, 239, 240, 241, 255, 256, 257, 272
#endif
/* AAD lengths: every value 0..EVA_MAX_AAD bytes, each against every message length of EVA_SIDE
   (GCM's pending AAD bytes, CCM's three first-block layouts up to several blocks, ...). */
#ifndef EVA_MAX_AAD
#define EVA_MAX_AAD 24
#endif
/* The kernel run covers every block count 0..EVA_MAX_BLOCKS: five 8-block batches and every 4/2/1
   tail, five 7-block CCM groups and every tail. The modes hand a kernel at most 19 blocks for
   lengths up to EVA_MAX_LEN (17 data blocks plus the E(J0)/A_0 slot and the length block). the kernel contracts (kernel_specs.h) require
   nblocks <= EVA_MAX_BLOCKS at every call the mode runs make, so an over-long call is an alarm. */
/* The lengths the other dimension takes while one runs over 0..EVA_MAX_LEN: no bytes, a partial
   block, one whole block, a whole block and a partial one. */
#ifndef EVA_SIDE
#define EVA_SIDE 0, 23
#endif
/* GCM nonces: every length 1..EVA_MAX_NONCE (12 is the fast path; the others go through GHASH). */
#ifndef EVA_MAX_NONCE
#define EVA_MAX_NONCE 33
#endif
#ifndef EVA_MAX_BLOCKS
#define EVA_MAX_BLOCKS 40
#endif

#endif
