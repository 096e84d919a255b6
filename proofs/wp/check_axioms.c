/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * check_axioms.c — the proof by exhaustion of the VgBytes axioms (src/internal.h): each is a
 * statement about all pairs of bytes, so running it on all 2^16 pairs proves it; and of the VgBits8
 * axiom (proofs/wp/batch.c), a statement about the eight integers 0..7. C's &, |, ^ on
 * non-negative ints are ACSL's on integers (both are bitwise on two's complement), so this is the
 * same statement. Exit status 0 when all hold.
 */
#include <stdio.h>

int main(void)
{
    long bad = 0;
    for (int x = 0; x <= 0xFF; x++) {
        if ((x & 0xFF) != x) bad++;                       /* vg_and_ff */
        for (int y = 0; y <= 0xFF; y++) {
            if ((x ^ y) < 0 || (x ^ y) > 0xFF) bad++;     /* vg_xor_byte */
            if ((x | y) < 0 || (x | y) > 0xFF) bad++;     /* vg_or_byte */
            if ((((unsigned)(x ^ y)) == 0) != (x == y)) bad++; /* vg_xor_zero */
        }
    }
    printf("VgBytes axioms: %s (%ld counterexamples over 65536 pairs)\n", bad ? "FALSE" : "hold", bad);
    long bad8 = 0;
    for (int r = 0; r < 8; r++) /* vg_bits8 */
        if ((r & 4) != (r >= 4 ? 4 : 0) || (r & 2) != (r % 4 >= 2 ? 2 : 0) || (r & 1) != r % 2) bad8++;
    printf("VgBits8 axiom: %s (%ld counterexamples over 0..7)\n", bad8 ? "FALSE" : "holds", bad8);
    return bad != 0 || bad8 != 0;
}
