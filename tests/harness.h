/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * harness.h — what every vg test program shares.
 *
 * Each test program runs on ONE implementation, named with --impl NAME (ctest registers one test per
 * implementation of the architecture, see tests/CMakeLists.txt). If this CPU cannot run it the program
 * prints "UNAVAILABLE" and exits 77, which ctest counts as skipped, never as passed.
 *
 * Options every program accepts:
 *   --impl NAME      the implementation under test (default: the library's own choice)
 *   --vectors DIR    where tests/vectors lives
 *   --seed N         seed of the deterministic PRNG (default 1)
 *   --quick          a smaller, still covering, subset: used under valgrind, MSan and qemu
 * The last line is "N passed, N failed"; the exit code is 0 only if nothing failed and something ran.
 */
#ifndef VG_TEST_HARNESS_H
#define VG_TEST_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vg.h"

void vgt_init(int argc, char **argv);   /* parses options, selects the implementation, prints it */
const char *vgt_impl(void);             /* the implementation under test */
const char *vgt_vectors_dir(void);      /* --vectors DIR, or the compiled-in default */
int vgt_quick(void);                    /* --quick given (or VG_TEST_QUICK=1 in the environment) */
const char *vgt_option(const char *name); /* value of another "--name VALUE" option, or NULL */

/* Records one check. Prints the first 50 failures with their message. Returns ok. */
int vgt_check(int ok, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define CHECK(cond, ...) vgt_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
/* Compares two byte strings; on mismatch prints both in hex. */
int vgt_check_bytes(const uint8_t *got, const uint8_t *want, size_t n, const char *file, int line,
                    const char *fmt, ...) __attribute__((format(printf, 6, 7)));
#define CHECK_BYTES(got, want, n, ...) vgt_check_bytes((got), (want), (n), __FILE__, __LINE__, __VA_ARGS__)
/* 1 if all n bytes are zero. */
int vgt_all_zero(const uint8_t *p, size_t n);

/* Prints "N passed, N failed" and returns the exit code (0 only if none failed and some passed). */
int vgt_finish(void);
size_t vgt_failures(void);

/* Deterministic PRNG (xoshiro256**), seeded by --seed. */
uint64_t vgt_rand64(void);
void vgt_rand_bytes(uint8_t *p, size_t n);
size_t vgt_rand_below(size_t n);        /* uniform enough for tests, n > 0 */

/* Hex: decodes an even-length hex string (whitespace not allowed) into out (at most max bytes);
   returns the number of bytes, or (size_t)-1 on a bad character, odd length or overflow. */
size_t vgt_hex_decode(const char *hex, uint8_t *out, size_t max);
void vgt_print_hex(FILE *f, const uint8_t *p, size_t n);

/* malloc that exits on failure (a zero-size request gets a 1-byte block). */
void *vgt_xmalloc(size_t n);

#endif
