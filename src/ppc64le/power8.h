/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * power8.h — the "power8" implementation's layouts, kernels and inline building blocks.
 *
 * CPU features: POWER ISA 2.07 vector crypto (vcipher, vcipherlast, vncipher, vncipherlast, vsbox,
 * vpmsumd) and VSX loads/stores, i.e. a POWER8 or later CPU, detected at run time with
 * getauxval(AT_HWCAP2) & PPC_FEATURE2_VEC_CRYPTO (power8_impl.c). Every function carries
 * VG_POWER8_TARGET instead of a global -mcpu flag, so the library still builds and runs (with the
 * portable implementation) for a generic ppc64le target.
 *
 * Files:
 *   power8_aes.c    key expansion (four words per step, assembly), ECB both ways, CTR32 (inc32) and
 *                   CTR32-LE (RFC 8452), CBC-MAC
 *   power8_ghash.c  GHASH and POLYVAL over one POLYVAL multiplier with vpmsumd
 *   power8_gcm.c    the GCM kernels: bulk (the stitched CTR and GHASH loop, a copy per key size) and
 *                   whole-message short ones
 *   power8_ccm.c    the fused CCM kernels: the CBC-MAC chain beside the CTR keystream
 *   power8_impl.c   CPU detection and the vg_impl table
 *
 * Register layouts (little-endian ppc64le; the vector instructions number bytes big-endian):
 *   "AES order"  register byte i (big-endian numbering, byte 0 = most significant) holds byte i of
 *                the block in the standards' order. This is what vcipher & co. take, and read as a
 *                128-bit integer it is the block's big-endian value: exactly GHASH's operand in
 *                POLYVAL form (power8_ghash.c, section 2), so ciphertext in AES order feeds GHASH as is.
 *   "raw"        what lxvw4x leaves on a little-endian CPU: word i (big-endian numbering) holds
 *                bytes 4i..4i+3 as a little-endian number, i.e. AES order with the bytes of each word
 *                reversed. One lxvw4x/stxvw4x moves a block in or out in this layout; one vperm
 *                (vec_revb on words, its own inverse) converts between raw and AES order.
 * Bulk kernels never convert the data to AES order: they convert the keystream (AES order) to raw
 * with one vperm and XOR it with the raw input, so CTR costs one vperm per block. GHASH needs the
 * ciphertext in AES order, so the GCM kernels spend a second vperm on it.
 *
 * Element numbering in C: GCC numbers vector elements little-endian on ppc64le (element 0 of a
 * vector unsigned int is big-endian word 3, element 0 of a vector unsigned long long is the LOW 64
 * bits of the register read as a 128-bit integer). vec_sld is vsldoi as written (big-endian bytes).
 */
#ifndef VG_PPC64LE_POWER8_H
#define VG_PPC64LE_POWER8_H

#include <altivec.h>
#include <stddef.h>

#include "ppc64le.h"

/* The same sources make the "power9" implementation when compiled with P8_POWER9 defined
   (power9_impl.c includes them): kernels named power9_*, target POWER9, and the data moved with
   lxvb16x/stxvb16x, which load and store in byte order, so no vperm is left on the data path. */
#if defined(P8_POWER9)
#define P8_FN(name) vg_power9_##name
#if defined(__clang__)
#define VG_POWER8_TARGET __attribute__((target("altivec,vsx,power8-vector,crypto,power9-vector")))
#else
#define VG_POWER8_TARGET __attribute__((target("cpu=power9")))
#endif
#else
#define P8_FN(name) vg_power8_##name
#if defined(__clang__)
/* clang names the ISA 2.07 pieces as features (it has no target("cpu=...")) */
#define VG_POWER8_TARGET __attribute__((target("altivec,vsx,power8-vector,crypto")))
#else
#define VG_POWER8_TARGET __attribute__((target("cpu=power8")))
#endif
#endif
#define VG_POWER8_INLINE static inline __attribute__((always_inline)) VG_POWER8_TARGET

typedef __vector unsigned char p8_u8;
typedef __vector unsigned int p8_u32;
typedef __vector unsigned long long p8_u64;

/* ---------------------------------------------------------------------------------------------- */
/* Layouts                                                                                          */

/* The AES schedule inside the key's sched[VG_SCHED_SIZE] (16-byte aligned, so lvx/stvx apply).
   rk[i] is round key i of the Cipher (FIPS 197 §5.2) as a register image in AES order, stored with
   stvx. vncipher adds the round key BEFORE InvMixColumns (ISA 2.07), so the straight Inverse Cipher
   uses the same keys in reverse order: the decryption schedule is rk[] read backwards and there is
   nothing extra to store for want_decrypt. */
struct power8_sched {
    _Alignas(16) unsigned char rk[15][16];
    /* 16, 24 or 32 (public), which gives the rounds (10, 12, 14): the key length rather than the
       rounds because the schedule kernel has it in a register already (r5), so it is stored
       without an li (2026-12-04, one instruction of every key set-up call) */
    uint32_t key_len;
};
_Static_assert(offsetof(struct power8_sched, rk) == 0, "power8_sched layout");
_Static_assert(offsetof(struct power8_sched, key_len) == 240, "power8_sched layout");
_Static_assert(sizeof(struct power8_sched) <= VG_SCHED_SIZE, "power8_sched too big for VG_SCHED_SIZE");

/* The GHASH/POLYVAL key inside hkey[VG_HKEY_SIZE] (16-byte aligned): for k = 1..8 and H_k the k-th
   POLYVAL power (power8_ghash.c, section 3) as a 128-bit integer h = h1 x^64 + h0,
     lo[k-1]  = (0, h0)    vpmsumd(X, lo)  = X0 h0          (the x^0 term)
     mid[k-1] = (h0, h1)   vpmsumd(X, mid) = X1 h0 ^ X0 h1  (the whole x^64 term in one instruction)
     hi[k-1]  = (h1, 0)    vpmsumd(X, hi)  = X1 h1          (the x^128 term)
   (pairs written (high 64 bits, low 64 bits)), register images stored with stvx. */
#define POWER8_HPOWERS 8
/* GHASH only (zero for POLYVAL): the stitched GCM loop's paired form of H_16..H_1 (power8_gcm.c).
   Blocks 2p and 2p+1 of a 16-block group take the powers a = H_(16-2p) and b = H_(15-2p); with
   a = a1 x^64 + a0 and b likewise,
     pair[p][0] = (a0, b0)    pair[p][1] = (a1, b1)
   so one vpmsumd of (Xa0, Xb0) or (Xa1, Xb1) against either covers two blocks. */
#define POWER8_PAIRS 8
struct power8_hkey {
    _Alignas(16) unsigned char lo[POWER8_HPOWERS][16];
    unsigned char mid[POWER8_HPOWERS][16];
    unsigned char hi[POWER8_HPOWERS][16];
    unsigned char pair[POWER8_PAIRS][2][16];
};
_Static_assert(offsetof(struct power8_hkey, mid) == 128, "power8_hkey layout");
_Static_assert(offsetof(struct power8_hkey, hi) == 256, "power8_hkey layout");
_Static_assert(offsetof(struct power8_hkey, pair) == 384, "power8_hkey layout (the stitched loop's addi 384)");
_Static_assert(sizeof(struct power8_hkey) <= VG_HKEY_SIZE, "power8_hkey too big for VG_HKEY_SIZE");

/* The short one-shot GCM kernels' limits (power8_gcm.c): 14 data blocks, so with J0 at most
   15 = 8 + 4 + 2 + 1 AES blocks, one group of each size; AAD up to four blocks. */
#define POWER8_GCM_SHORT_MAX 224
#define POWER8_GCM_SHORT_MAX_AAD 64

/* ---------------------------------------------------------------------------------------------- */
/* Kernels (contracts: struct vg_impl in internal.h)                                               */

int P8_FN(aes_expand_key)(void *sched, const uint8_t *key, size_t key_len, int want_decrypt) VG_INTERNAL;
/* the 24-byte case of aes_expand_key (power8_aes.c; reached from its assembly by a tail branch) */
int P8_FN(aes_expand_key_192)(void *sched, const uint8_t *key) VG_INTERNAL;
void P8_FN(aes_ecb_encrypt)(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;
void P8_FN(aes_ecb_decrypt)(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;
void P8_FN(aes_ctr32)(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                      size_t nblocks) VG_INTERNAL;
void P8_FN(aes_ctr32_le)(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                         size_t nblocks) VG_INTERNAL;
void P8_FN(ghash_init)(void *hkey, const uint8_t h[16]) VG_INTERNAL;
void P8_FN(ghash_update)(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks) VG_INTERNAL;
void P8_FN(polyval_init)(void *hkey, const uint8_t h[16]) VG_INTERNAL;
void P8_FN(polyval_update)(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks) VG_INTERNAL;
void P8_FN(cbc_mac)(const void *sched, uint8_t mac[16], const uint8_t *in, size_t nblocks) VG_INTERNAL;
size_t P8_FN(gcm_seal_blocks)(const void *sched, const void *hkey, uint8_t counter[16], uint8_t acc[16],
                              const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;
size_t P8_FN(gcm_open_blocks)(const void *sched, const void *hkey, uint8_t counter[16], uint8_t acc[16],
                              const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;
/* the stitched GCM loops (power8_gcm.c, assembly), one per key size (10, 12, 14 rounds): nblocks blocks,
   16 per iteration, the rest one by one */
#define P8_GCM_STITCHED(rounds)                                                                          \
    void P8_FN(gcm_seal_stitched_##rounds)(const void *sched, const void *hkey, uint8_t counter[16],     \
                                           uint8_t acc[16], const uint8_t *in, uint8_t *out,             \
                                           size_t nblocks) VG_INTERNAL;                                  \
    void P8_FN(gcm_open_stitched_##rounds)(const void *sched, const void *hkey, uint8_t counter[16],     \
                                           uint8_t acc[16], const uint8_t *in, uint8_t *out,             \
                                           size_t nblocks) VG_INTERNAL;
P8_GCM_STITCHED(10)
P8_GCM_STITCHED(12)
P8_GCM_STITCHED(14)
#undef P8_GCM_STITCHED
void P8_FN(gcm_seal_short)(const void *sched, const void *hkey, const uint8_t nonce[12], const uint8_t *aad,
                           size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16]) VG_INTERNAL;
void P8_FN(gcm_open_short)(const void *sched, const void *hkey, const uint8_t nonce[12], const uint8_t *aad,
                           size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16]) VG_INTERNAL;
size_t P8_FN(ccm_seal_blocks)(const void *sched, uint8_t mac[16], uint8_t counter[16],
                              const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;
size_t P8_FN(ccm_open_blocks)(const void *sched, uint8_t mac[16], uint8_t counter[16],
                              const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;

/* ---------------------------------------------------------------------------------------------- */
/* Loads, stores and byte orders                                                                    */

/* One lxvw4x: the block at p in raw layout (see the top of this file). */
VG_POWER8_INLINE p8_u8 p8_load_raw(const uint8_t *p)
{
    return (p8_u8)vec_xl_be(0, (unsigned int *)(uintptr_t)p);
}
/* One stxvw4x: the inverse of p8_load_raw. */
VG_POWER8_INLINE void p8_store_raw(p8_u8 v, uint8_t *p)
{
    vec_xst_be((p8_u32)v, 0, (unsigned int *)(uintptr_t)p);
}
/* Block offsets 0, 16, ..., 112 held in general registers for the whole call. lxvw4x/stxvw4x only
   address (rA + rB); with constant offsets GCC computes in + 16 i and out + 16 i with an addi per
   block and per direction, each iteration. Offsets hidden from it by an empty asm stay in registers
   (set up once), and the 8-block loops then advance two pointers only. */
struct p8_offsets {
    long o[8];
};
VG_POWER8_INLINE void p8_offsets_init(struct p8_offsets *off)
{
    for (int i = 0; i < 8; i++) {
        off->o[i] = 16 * i;
        __asm__("" : "+r"(off->o[i]));
    }
}
VG_POWER8_INLINE p8_u8 p8_load_raw_at(const uint8_t *p, long offset)
{
    return (p8_u8)vec_xl_be(offset, (unsigned int *)(uintptr_t)p);
}
VG_POWER8_INLINE void p8_store_raw_at(p8_u8 v, uint8_t *p, long offset)
{
    vec_xst_be((p8_u32)v, offset, (unsigned int *)(uintptr_t)p);
}

/* raw <-> AES order: reverse the bytes of each 32-bit word (one vperm; an involution). */
VG_POWER8_INLINE p8_u8 p8_swap_words(p8_u8 v) { return (p8_u8)vec_revb((p8_u32)v); }

/* The layout bulk data moves in ("data layout"), and the conversions to and from AES order.
   power8: raw (lxvw4x/stxvw4x), one vperm to AES order. power9: lxvb16x/stxvb16x load and store in
   byte order, so the data layout IS AES order and the conversions vanish. */
#if defined(P8_POWER9)
VG_POWER8_INLINE p8_u8 p8_load_data_at(const uint8_t *p, long offset)
{
    return vec_xl_be(offset, (unsigned char *)(uintptr_t)p);
}
VG_POWER8_INLINE void p8_store_data_at(p8_u8 v, uint8_t *p, long offset)
{
    vec_xst_be(v, offset, (unsigned char *)(uintptr_t)p);
}
VG_POWER8_INLINE p8_u8 p8_data_to_aes(p8_u8 v) { return v; }
VG_POWER8_INLINE p8_u8 p8_aes_to_data(p8_u8 v) { return v; }
#else
VG_POWER8_INLINE p8_u8 p8_load_data_at(const uint8_t *p, long offset) { return p8_load_raw_at(p, offset); }
VG_POWER8_INLINE void p8_store_data_at(p8_u8 v, uint8_t *p, long offset) { p8_store_raw_at(v, p, offset); }
VG_POWER8_INLINE p8_u8 p8_data_to_aes(p8_u8 v) { return p8_swap_words(v); }
VG_POWER8_INLINE p8_u8 p8_aes_to_data(p8_u8 v) { return p8_swap_words(v); }
#endif
VG_POWER8_INLINE p8_u8 p8_load_aes(const uint8_t *p) { return p8_data_to_aes(p8_load_data_at(p, 0)); }
VG_POWER8_INLINE void p8_store_aes(p8_u8 v, uint8_t *p) { p8_store_data_at(p8_aes_to_data(v), p, 0); }

/* The schedule's and the H powers' register images: lvx/stvx of 16-byte aligned memory. */
VG_POWER8_INLINE p8_u8 p8_load_image(const unsigned char *p) { return vec_ld(0, p); }
VG_POWER8_INLINE void p8_store_image(p8_u8 v, unsigned char *p) { vec_st(v, 0, p); }

/* ---------------------------------------------------------------------------------------------- */
/* AES building blocks                                                                              */

/* The instructions themselves. clang's altivec.h declares the __builtin_crypto_* names only when the
   whole file is compiled for POWER8, so with clang the raw builtins (gated by the target attribute
   instead) are used. */
#if defined(__clang__)
#define P8_BUILTIN(name) __builtin_altivec_crypto_##name
#else
#define P8_BUILTIN(name) __builtin_crypto_##name
#endif
VG_POWER8_INLINE p8_u8 p8_vcipher(p8_u8 s, p8_u8 k)
{
    return (p8_u8)P8_BUILTIN(vcipher)((p8_u64)s, (p8_u64)k);
}
VG_POWER8_INLINE p8_u8 p8_vcipherlast(p8_u8 s, p8_u8 k)
{
    return (p8_u8)P8_BUILTIN(vcipherlast)((p8_u64)s, (p8_u64)k);
}
VG_POWER8_INLINE p8_u8 p8_vncipher(p8_u8 s, p8_u8 k)
{
    return (p8_u8)P8_BUILTIN(vncipher)((p8_u64)s, (p8_u64)k);
}
VG_POWER8_INLINE p8_u8 p8_vncipherlast(p8_u8 s, p8_u8 k)
{
    return (p8_u8)P8_BUILTIN(vncipherlast)((p8_u64)s, (p8_u64)k);
}
VG_POWER8_INLINE p8_u8 p8_vsbox(p8_u8 s) { return (p8_u8)P8_BUILTIN(vsbox)((p8_u64)s); }

/* The round keys in registers for one call. rounds is a compile-time constant in every kernel body
   (P8_BY_ROUNDS below makes one copy per key size), so every round loop unrolls and the keys live in
   vector registers (all 11 of AES-128 fit beside 8 blocks in flight) instead of being reloaded from
   memory every round, with a branch per round, as a run-time round count makes GCC do. */
struct power8_round_keys {
    p8_u8 k[15];
    unsigned rounds;
};

VG_POWER8_INLINE void p8_load_keys(struct power8_round_keys *rk, const void *sched, unsigned rounds)
{
    const struct power8_sched *s = (const struct power8_sched *)sched;
    rk->rounds = rounds;
    for (unsigned i = 0; i <= rounds; i++) rk->k[i] = p8_load_image(s->rk[i]);
}

/* Calls body(args..., rounds) with rounds = 10, 12 or 14 as a constant (from the stored key length
   16, 24, 32): the branch depends on the key length only. */
#define P8_BY_ROUNDS(sched, body, ...)                                                  \
    switch (((const struct power8_sched *)(sched))->key_len) {                          \
    case 16: body(__VA_ARGS__, 10); break;                                              \
    case 24: body(__VA_ARGS__, 12); break;                                              \
    default: body(__VA_ARGS__, 14); break;                                              \
    }
#define P8_BY_ROUNDS_RET(sched, body, ...)                                              \
    switch (((const struct power8_sched *)(sched))->key_len) {                          \
    case 16: return body(__VA_ARGS__, 10);                                              \
    case 24: return body(__VA_ARGS__, 12);                                              \
    default: return body(__VA_ARGS__, 14);                                              \
    }

/* Rounds 1..last of n blocks (n a compile-time constant after inlining: 8, 4, 2 or 1) already
   XORed with round key 0; the round loop is outermost so n independent vcipher issue back to back
   (latency 6-7 cycles on POWER8/9, up to 2 per cycle on POWER9: 8 in flight hide it). */
VG_POWER8_INLINE void p8_encrypt_rounds(const struct power8_round_keys *rk, p8_u8 *b, int n)
{
    _Pragma("GCC unroll 14") for (unsigned r = 1; r < rk->rounds; r++) {
        p8_u8 k = rk->k[r];
        _Pragma("GCC unroll 8") for (int i = 0; i < n; i++) b[i] = p8_vcipher(b[i], k);
    }
    _Pragma("GCC unroll 8") for (int i = 0; i < n; i++) b[i] = p8_vcipherlast(b[i], rk->k[rk->rounds]);
}

/* inc32 on a counter block in AES order: big-endian word 3 (bytes 12..15) is GCC element 0, and
   vadduwm adds mod 2^32 per word, so no carry ever reaches the other 96 bits. */
VG_POWER8_INLINE p8_u8 p8_inc32(p8_u8 ctr) { return (p8_u8)vec_add((p8_u32)ctr, (p8_u32){1, 0, 0, 0}); }

/* ---------------------------------------------------------------------------------------------- */
/* GF(2^128) building blocks (the maths is in power8_ghash.c)                                      */

VG_POWER8_INLINE p8_u8 p8_pmsum(p8_u8 a, p8_u8 b)
{
    return (p8_u8)P8_BUILTIN(vpmsumd)((p8_u64)a, (p8_u64)b);
}

/* Unreduced partial sums: over all products summed, the 256-bit total is
   hi x^128 + mid x^64 + lo. Reduction is linear, so the sums of up to 8 products are reduced once. */
struct power8_gf_sum {
    p8_u8 lo, mid, hi;
};

/* s = 0 (the compiler folds the first XOR into it). */
VG_POWER8_INLINE void p8_gf_sum_zero(struct power8_gf_sum *s)
{
    s->lo = s->mid = s->hi = vec_splats((unsigned char)0);
}

/* s += x * H_(k): three vpmsumd, the middle one making the whole x^64 coefficient x1 h0 ^ x0 h1
   because vpmsumd XORs its two 64x64 products. The three H_k forms are loaded (lvx) where they are
   used: the 24 vectors of H_1..H_8 cannot stay in the 32 vector registers beside 8 AES blocks and the
   round keys, and reloading them costs less than the spill code GCC makes when they are preloaded. */
VG_POWER8_INLINE void p8_gf_mul_add(struct power8_gf_sum *s, const struct power8_hkey *hk, p8_u8 x, int k)
{
    s->lo = vec_xor(s->lo, p8_pmsum(x, p8_load_image(hk->lo[k - 1])));
    s->mid = vec_xor(s->mid, p8_pmsum(x, p8_load_image(hk->mid[k - 1])));
    s->hi = vec_xor(s->hi, p8_pmsum(x, p8_load_image(hk->hi[k - 1])));
}

/* The same with the H_k forms addressed as (row base + offset register), one lvx each, no addi. */
VG_POWER8_INLINE void p8_gf_mul_add_at(struct power8_gf_sum *s, const struct power8_hkey *hk,
                                       const struct p8_offsets *off, p8_u8 x, int k)
{
    s->lo = vec_xor(s->lo, p8_pmsum(x, vec_ld(off->o[k - 1], hk->lo[0])));
    s->mid = vec_xor(s->mid, p8_pmsum(x, vec_ld(off->o[k - 1], hk->mid[0])));
    s->hi = vec_xor(s->hi, p8_pmsum(x, vec_ld(off->o[k - 1], hk->hi[0])));
}

/* Returns sum * x^-128 mod P, P = x^128 + x^127 + x^126 + x^121 + 1 (Montgomery reduction,
   power8_ghash.c section 4): hi + (mid + lo x^-64) x^-64, where for a 64-bit u, u x^-64 = u x^64 + u c
   (c = x^63 + x^62 + x^57: P = x^128 + c x^64 + 1 = 0 gives x^-64 = x^64 + c). Two vpmsumd, two
   doubleword swaps, four vxor; the stitched GCM loop (power8_gcm.c) does the same in assembly. */
VG_POWER8_INLINE p8_u8 p8_gf_reduce(const struct power8_gf_sum *s)
{
    /* c in the LOW 64 bits: vpmsumd(t, poly) = lo64(t) * c */
    const p8_u8 poly = (p8_u8)(p8_u64){0xc200000000000000ULL, 0};
    /* lo x^-64 = l1 + l0 x^64 + l0 c: the swapped halves plus one product */
    p8_u8 s1 = vec_xor(vec_xor(s->mid, vec_sld(s->lo, s->lo, 8)), p8_pmsum(s->lo, poly));
    /* S x^-64 the same way, added to hi: degree < 128, fully reduced */
    return vec_xor(vec_xor(s->hi, vec_sld(s1, s1, 8)), p8_pmsum(s1, poly));
}

/* The head of a top-level asm function (power8_aes.c's key expansion, power8_gcm.c's stitched loops):
   a hidden global symbol with ELFv2's global entry (r2 = the TOC from r12) and its local entry after
   it, where this library's own calls enter. */
#define P8_ASM_ENTRY(name)                                                                          \
    ".globl " name "\n\t"                                                                            \
    ".hidden " name "\n\t"                                                                           \
    ".type " name ",@function\n\t"                                                                   \
    ".p2align 4\n" name ":\n"                                                                        \
    "0:\taddis 2,12,.TOC.-0b@ha\n\t"                                                                 \
    "addi 2,2,.TOC.-0b@l\n\t"                                                                        \
    ".localentry " name ",.-" name "\n\t"

#endif /* VG_PPC64LE_POWER8_H */
