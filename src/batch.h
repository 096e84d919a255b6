/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * batch.h — the batch/tail split of the block kernels: whole batches of eight blocks, then the
 * remainder (0..7) by its bits, four, two, one. At most three serial chains after the wide loop, and
 * every block exactly once, in order: WP proves that of this very macro (proofs/wp/batch.c,
 * docs/proofs-wp.md), and the ECB and CTR kernels of aesni, power8/power9 and armv8 expand it.
 *
 *   VG_BLOCKS_8421(n, k, { kernel(in, out, k); in += 16 * k; out += 16 * k; })
 *
 * runs the body with k = 8 while n >= 8 (taking 8 off n each time), then once with k = 4, 2 and 1
 * for each bit set in what is left. k is a constant in each copy of the body, so an inlined kernel is
 * specialised to its width. n must be an unsigned lvalue; it is consumed. The body advances the
 * pointers itself (the split never touches data). The expansion starts with the loop statement, so
 * an ACSL loop annotation may stand right before it; use it where a statement list may stand.
 * The split depends on the block count only, which is public.
 */
#ifndef VG_BATCH_H
#define VG_BATCH_H

#define VG_BLOCKS_8421(n, k, ...)                                                                    \
    for (; (n) >= 8; (n) -= 8) { const unsigned k = 8; __VA_ARGS__ }                                 \
    if ((n) & 4) { const unsigned k = 4; __VA_ARGS__ }                                                \
    if ((n) & 2) { const unsigned k = 2; __VA_ARGS__ }                                                \
    if ((n) & 1) { const unsigned k = 1; __VA_ARGS__ }

#endif
