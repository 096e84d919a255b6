/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* util.c — the few helpers every mode needs: error strings, wiping, constant-time comparison. */
#include "internal.h"

const char *vg_version(void) { return VG_VERSION_STRING; }

const char *vg_strerror(int code)
{
    switch (code) {
    case VG_OK: return "success";
    case VG_ERR_KEY_LENGTH: return "invalid key length";
    case VG_ERR_NONCE_LENGTH: return "invalid nonce length";
    case VG_ERR_TAG_LENGTH: return "invalid tag length";
    case VG_ERR_LENGTH: return "message or AAD longer than the mode allows";
    case VG_ERR_AUTH: return "authentication failed (tag mismatch)";
    case VG_ERR_ARG: return "invalid argument (NULL with non-zero length, overlapping buffers, or misuse)";
    case VG_ERR_UNSUPPORTED: return "implementation not available on this CPU";
    default: return "unknown error code";
    }
}

void vg_wipe(void *p, size_t n)
{
    /* memset is fast (a GCM-SIV message wipes 3 KiB of per-message keys); the barrier after it tells
       the compiler that the zeroed memory may be read by code it cannot see, so the store is kept. */
    memset(p, 0, n);
#if !defined(__FRAMAC__)
    /* (Frama-C models this empty asm as writing unknown bytes to *p, which would undo the memset in
       its eyes; it writes nothing, so the analysis, proofs/eva/, goes without it.) */
    __asm__ __volatile__("" : : "r"(p) : "memory");
#endif
}

int vg_ct_differ(const uint8_t *a, const uint8_t *b, size_t n)
{
    /* OR of all byte differences, then fold to one bit without a branch: d is at most 0xFF, so
       d + 0xFF is below 0x100 exactly when d == 0, and its bit 8 is the verdict (the division is
       a shift by 8; written as a division because that is the arithmetic the WP provers know). */
    uint8_t d = 0; /* bytes, not words: the loop then vectorises to plain byte ORs, no widening */
    /*@ loop invariant 0 <= i <= n;
        loop invariant 0 <= d <= 0xFF;
        loop invariant d == 0 <==> (\forall integer k; 0 <= k < i ==> a[k] == b[k]);
        loop assigns i, d;
        loop variant n - i;
    */
    for (size_t i = 0; i < n; i++) d |= (uint8_t)(a[i] ^ b[i]);
    return (int)(((uint32_t)d + 0xFF) / 0x100);
}

int vg_open_finish(uint8_t *out, size_t len, int differ)
{
    /* The comparison that made differ was constant time; from here the verdict is the caller's
       public answer, so branching on it leaks nothing the return value does not. (Until 0.2 this
       kept or zeroed the output by a mask over every byte, which cost a store-bound pass over every
       genuine open's output.) */
    vg_declassify(&differ, sizeof differ);
    if (differ == 0) return VG_OK;
    /* vg_wipe's way, written out so that WP follows the bytes: zeroes (gcc and clang make the loop a
       memset), then a barrier that says the memory may be read by code the compiler cannot see, so
       the stores are kept. */
    /*@ loop invariant 0 <= i <= len;
        loop invariant \forall integer k; 0 <= k < i ==> out[k] == 0;
        loop assigns i, out[0 .. len - 1];
        loop variant len - i;
    */
    for (size_t i = 0; i < len; i++) out[i] = 0;
#if !defined(__FRAMAC__)
    __asm__ __volatile__("" : : "r"(out) : "memory");
#endif
    return VG_ERR_AUTH;
}
