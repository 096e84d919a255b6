/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* proofs/wp/batch.c — WP model of src/batch.h's VG_BLOCKS_8421: the macro expanded with a body that
   records, for every block it is handed, the how-many-th block that is. The contract says block i
   gets the number i + 1 and n blocks are handed out in all: every block is processed exactly once
   (each of the n positions is written, starting from 0, and n writes in all leave no room for a
   second write), and in order (block i is the (i + 1)-th). The body is a call whose own contract is
   proved here too, because a loop annotation cannot live inside the macro. */
#include <stddef.h>
#include "batch.h"

/* The tail tests the bits of a remainder below 8. WP leaves & between integers abstract (z3 and cvc4
   could not connect it to arithmetic even with the eight values spelled out as lemmas), so the bits of
   0..7 are an axiom, proved by exhaustion in check_axioms.c like the VgBytes axioms of internal.h. */
/*@ axiomatic VgBits8 {
      axiom vg_bits8: \forall integer r; 0 <= r < 8 ==>
        (r & 4) == (r >= 4 ? 4 : 0) && (r & 2) == (r % 4 >= 2 ? 2 : 0) && (r & 1) == r % 2;
    }
*/

/*@ requires pos + k <= n && k <= 8 && *seq == pos;
    requires \valid(order + (0 .. n - 1)) && \valid(seq) && \separated(seq, order + (0 .. n - 1));
    assigns order[pos .. pos + k - 1], *seq;
    ensures \forall integer j; pos <= j < pos + k ==> order[j] == j + 1;
    ensures *seq == pos + k;
*/
static void hand_out(size_t *order, size_t n, size_t pos, unsigned k, size_t *seq)
{
    /*@ loop invariant 0 <= j <= k && *seq == pos + j;
        loop invariant \forall integer i; pos <= i < pos + j ==> order[i] == i + 1;
        loop assigns j, *seq, order[pos .. pos + k - 1];
        loop variant k - j;
    */
    for (unsigned j = 0; j < k; j++) order[pos + j] = ++*seq;
}

/*@ requires \valid(order + (0 .. n - 1));
    requires \forall integer i; 0 <= i < n ==> order[i] == 0;
    assigns order[0 .. n - 1];
    ensures \forall integer i; 0 <= i < n ==> order[i] == i + 1;
    ensures \result == n;
*/
size_t vg_blocks_8421_model(size_t *order, size_t n)
{
    size_t left = n, pos = 0, seq = 0;
    /*@ loop invariant pos + left == n && seq == pos;
        loop invariant \forall integer i; 0 <= i < pos ==> order[i] == i + 1;
        loop invariant \forall integer i; pos <= i < n ==> order[i] == 0;
        loop assigns left, pos, seq, order[0 .. n - 1];
        loop variant left;
    */
    VG_BLOCKS_8421(left, k, {
        hand_out(order, n, pos, k, &seq);
        pos += k;
    })
    return seq;
}
