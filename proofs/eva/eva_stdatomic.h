/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * <stdatomic.h> for the Eva analysis only: proofs/eva/run.sh force-includes this file (-include) and
 * it takes the include guard of Frama-C's own <stdatomic.h>, which then expands to nothing. That
 * header models the atomic operations as functions returning `unsigned long long`, which turns
 * impl.c's atomic pointer into an integer Eva cannot dereference.
 * Eva analyses one thread, so each operation is given its sequential meaning: a load reads, a store
 * writes, compare-exchange compares and then writes one side. What this does NOT model is the
 * concurrency impl.c's comment argues about (two threads racing on the first selection); Eva's claim
 * is about run-time errors in a single-threaded execution.
 */
#ifndef VG_EVA_STDATOMIC_H
#define VG_EVA_STDATOMIC_H
#define __FC_STDATOMIC 1

#define _Atomic(T) T
typedef int atomic_int;

typedef enum {
    memory_order_relaxed,
    memory_order_consume,
    memory_order_acquire,
    memory_order_release,
    memory_order_acq_rel,
    memory_order_seq_cst
} memory_order;

#define atomic_load_explicit(obj, order) (*(obj))
#define atomic_store_explicit(obj, value, order) ((void)(*(obj) = (value)))
/* true and *obj = desired when *obj == *expected, else false and *expected = *obj */
#define atomic_compare_exchange_strong(obj, expected, desired) \
    (*(obj) == *(expected) ? (*(obj) = (desired), 1) : (*(expected) = *(obj), 0))

#endif
