/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * eva_common.h — helpers shared by the Eva entry points (proofs/eva/eva_*.c). Not part of the library.
 *
 * Every buffer handed to the library is exactly as long as the length passed with it: it comes from
 * malloc of that exact size (Eva's `fresh` allocation builtin gives each call its own base whose
 * validity is exactly that size), so one byte read or written past the end — or before the start —
 * is an alarm. Inputs are filled with unknown bytes (Frama_C_make_unknown); outputs are left
 * uninitialised, so reading an output byte before the library wrote it is an alarm too.
 */
#ifndef VG_EVA_COMMON_H
#define VG_EVA_COMMON_H

#include <stdlib.h>
#include <stdint.h>
#include "__fc_builtin.h"
#include "vg.h"
#include "eva_bounds.h"

/* n unknown bytes in a fresh block of exactly n bytes (n = 0: a valid zero-sized block). */
static uint8_t *eva_input(size_t n)
{
    uint8_t *p = malloc(n);
    Frama_C_make_unknown((char *)p, n);
    return p;
}

/* n uninitialised bytes in a fresh block of exactly n bytes. */
static uint8_t *eva_output(size_t n)
{
    return malloc(n);
}

/* Sets up *k with a 16-, 24- or 32-byte key in three separate states, which Eva then joins: what
   follows is analysed once for all three sizes (the schedule has one layout for all of them). */
#define EVA_SETUP_KEY(init, k)                                  \
    do {                                                        \
        switch (Frama_C_interval(0, 2)) {                       \
        case 0: init(k, eva_input(16), 16); break;              \
        case 1: init(k, eva_input(24), 24); break;              \
        default: init(k, eva_input(32), 32); break;             \
        }                                                       \
    } while (0)

#endif
