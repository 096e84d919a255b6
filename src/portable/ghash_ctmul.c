/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * ghash_ctmul.c — GHASH (SP 800-38D §6.4) and POLYVAL (RFC 8452 §3) in constant time and without
 * tables: one carry-less multiplier built from ordinary integer multiplications, one Montgomery-style
 * reduction, and two thin front ends that differ only in how they read bytes and in the key they
 * precompute.
 *
 * 1. The field and the one product we compute
 *
 *    POLYVAL works in GF(2^128) = GF(2)[x] / P(x), P(x) = x^128 + x^127 + x^126 + x^121 + 1, and a
 *    16-byte string is read little-endian: bit i of the 128-bit little-endian integer is the
 *    coefficient of x^i. On a host we hold an element as two 64-bit words, lo (x^0..x^63) and
 *    hi (x^64..x^127), loaded with vg_load64_le, so the layout is the same on every byte order.
 *    POLYVAL's product is dot(a, b) = a * b * x^-128 mod P (RFC 8452 §3), and
 *    POLYVAL(H, X_1..X_s) is S_s with S_0 = 0, S_j = dot(S_(j-1) ^ X_j, H).
 *
 * 2. GHASH is POLYVAL in a mirror (RFC 8452 Appendix A)
 *
 *    GHASH reads its bits the other way: the first bit of the string (the most significant bit of
 *    byte 0) is the coefficient of x^0, and its modulus is G(x) = x^128 + x^7 + x^2 + x + 1.
 *    Reversing the 16 bytes of a GHASH block and reading the result little-endian gives the
 *    integer whose bit i is GHASH's coefficient of x^(127-i): the polynomial rev(a) = x^127 a(1/x).
 *    (Reversing the bytes and loading little-endian is the same as loading big-endian, so we never
 *    move bytes: hi = vg_load64_be(block), lo = vg_load64_be(block + 8).)
 *    rev turns G into P: x^128 G(1/x) = 1 + x^121 + x^126 + x^127 + x^128 = P(x). So if
 *    a*b = q*G + c in GF(2)[x] (c = a • b, deg q <= 126), substituting 1/x and multiplying by x^254:
 *        rev(a) * rev(b) = x^254 (ab)(1/x) = [x^126 q(1/x)] * P(x) + x^127 * rev(c),
 *    i.e. rev(a) * rev(b) = x^127 * rev(c) (mod P), hence
 *        rev(a • b) = rev(a) * rev(b) * x^-127 = dot(rev(a) * x, rev(b)).
 *    So GHASH with key H is POLYVAL with key H' = mulX_POLYVAL(rev(H)) = rev(H) * x mod P on the
 *    byte-reversed blocks, with the result byte-reversed back (RFC 8452 Appendix A states exactly
 *    this). ghash_init computes H' once; after that, GHASH and POLYVAL run the same code.
 *
 * 3. Carry-less 64x64 -> 128 from integer multiplications ("holes")
 *
 *    An integer product a*b adds the shifted partial products where a carry-less product XORs them.
 *    Keep only every fourth bit of each operand (a_r = a & 0x1111..1 << r): then every bit of
 *    a_r * b_s sits at a position = r + s (mod 4), and the count of partial products landing on one
 *    such position p is summed into the 4-bit field p..p+3 (the three "holes" above p are free
 *    because no other term of this product lands there). Bit p of the product is then the parity of
 *    that count, which is exactly the carry-less result, as long as the count stays below 16: a count
 *    of 16 would carry into p + 4, a kept position. The sixteen products a_r * b_s are XORed into
 *    four classes t = r + s mod 4, and class t keeps only bits = t (mod 4). The technique is the one
 *    Thomas Pornin describes for BearSSL's ghash_ctmul64.
 *
 *    With 64-bit words each part has 16 bits, so up to 16 pairs can meet at one position. BearSSL
 *    only needs the low 64 bits of each product (where at most 16 pairs meet at bit 60, whose carry
 *    leaves the word) and gets the high half by multiplying bit-reversed operands. With a
 *    64x64 -> 128 multiply (`unsigned __int128`, one MUL on x86-64 / MUL+UMULH on AArch64) we get both
 *    halves at once, but the full product does meet 16 pairs at position 60 + r + s when all bits of
 *    a_r and b_s are set, and that carry lands on a kept bit. So the KEY word's parts lose their
 *    lowest bit (bits 0..3 of the key word are cleared: 15 bits per part, counts <= 15), and the
 *    product of the data word with those four key bits is added back with masks:
 *        a * (k & 0xF) = XOR over i < 4 of (a << i) & (all ones if bit i of k is set).
 *    (BoringSSL's gcm_nohw.c handles the same overflow the same way.) Without __int128 (32-bit
 *    targets, VG_GHASH_NO_INT128 for testing, and Frama-C, which has no 128-bit type: the Eva
 *    analysis of proofs/eva/ reads this variant) 32x32 -> 64 products with 8-bit parts (counts <= 8)
 *    and a Karatsuba step give the 64x64 product.
 *
 *    Integer multiplication is constant time on the CPUs this library targets (x86-64, AArch64,
 *    POWER8+, z/Architecture); on some small cores (e.g. ARM Cortex-M3) it is not, and this file is
 *    then not constant time either.
 *
 * 4. 128x128 -> 256 and the aggregated reduction
 *
 *    Karatsuba: with a = a1 x^64 + a0 and k = k1 x^64 + k0,
 *        a*k = a1k1 x^128 + [(a0^a1)(k0^k1) ^ a0k0 ^ a1k1] x^64 + a0k0,
 *    three 64x64 products. The key words k0, k1 and k0^k1 are split into parts at init.
 *    Four blocks at a time (the aggregated reduction of Gueron and Kounavis's Intel carry-less
 *    multiplication white paper, as in every fast GHASH):
 *        S' = dot(dot(dot(dot(S ^ X1, K) ^ X2, K) ^ X3, K) ^ X4, K)
 *           = dot(S ^ X1, K^4) ^ dot(X2, K^3) ^ dot(X3, K^2) ^ dot(X4, K)
 *    where K^i here are the powers for dot (K^2 = dot(K, K), K^3 = dot(K^2, K), ...): each dot adds
 *    a factor x^-128, and dot(X, K^i) carries the i factors x^-128 of the i dots it replaces. Since
 *    the unreduced products are linear, the four 256-bit products are XORed together (even before
 *    the "holes" masks are applied: the kept bits of each product are exact parities, and the XOR of
 *    parities is the parity of the sum) and reduced once. Measured over 16 KiB on an AMD EPYC
 *    (x86-64, -O2, best of 3000 interleaved runs in one process): 0.66 GB/s aggregated against
 *    0.62 (gcc 12) / 0.58 (clang 14) GB/s with one reduction per block, and 0.47 GB/s for BearSSL's
 *    br_ghash_ctmul64. The gain is modest because the multiplies, not the reductions, dominate; it
 *    comes from the four products not depending on each other (the one-block loop waits for each
 *    reduction before the next multiply) and from three reductions in four disappearing.
 *
 *    Montgomery reduction (why dot has the x^-128): for D = d3 x^192 + d2 x^128 + d1 x^64 + d0,
 *    P = 1 (mod x^64), so D + d0*P is divisible by x^64:
 *        d0 * P = d0 + d0 x^121 + d0 x^126 + d0 x^127 + d0 x^128,
 *    d0 cancels the low word, d0 * (x^57 + x^62 + x^63) * x^64 lands in words 1 (the shifted-left
 *    bits) and 2 (the bits shifted out: d0 >> 7, >> 2, >> 1), and d0 x^128 in word 2. Dividing by
 *    x^64 drops the zero word; doing it again with the new low word gives (D + Q*P) / x^128 with
 *    deg Q < 128, which has degree < 128: the reduced D * x^-128, in the two top words.
 *
 * Layout of hkey (VG_HKEY_SIZE bytes, written by *_init, read by *_update, native words: the key
 * never leaves this machine): struct ctmul_hkey below. hkey must be 8-byte aligned (the key states
 * of internal.h align it to 64).
 */
#include "portable.h"

/* The two front ends must each get their own copy of the loop, with the byte order fixed. */
#define CTMUL_INLINE static inline __attribute__((always_inline))

#if defined(__SIZEOF_INT128__) && !defined(VG_GHASH_NO_INT128) && !defined(__FRAMAC__)
#define CTMUL_INT128 1
__extension__ typedef unsigned __int128 u128;
#else
#define CTMUL_INT128 0
#endif

/* Bits r, r + 4, r + 8, ... of a 64-bit word. */
#define HOLES0 UINT64_C(0x1111111111111111)
#define HOLES1 UINT64_C(0x2222222222222222)
#define HOLES2 UINT64_C(0x4444444444444444)
#define HOLES3 UINT64_C(0x8888888888888888)

/* One 64-bit word of a key element, prepared for multiplying data words by it. */
struct key_word {
    uint64_t part[4];     /* part[r] = word & HOLES_r with bits 0..3 cleared (15 bits each) */
    uint64_t low_mask[4]; /* low_mask[i] = all ones if bit i of the word is set, else 0 */
    uint64_t raw;         /* the word itself (the path without __int128 uses only this) */
};

/* One power of the key: its low word k0 (x^0..x^63), high word k1, and k0 ^ k1 for Karatsuba. */
struct key_power {
    struct key_word lo, hi, mid;
};

/* pow[i] holds K^(i+1) in the dot sense (K^2 = dot(K, K) = K*K*x^-128, ...), where K is H for
   POLYVAL and rev(H) * x for GHASH. */
struct ctmul_hkey {
    struct key_power pow[4];
};
_Static_assert(sizeof(struct ctmul_hkey) <= VG_HKEY_SIZE, "hkey area too small for ctmul key");

/* An element in POLYVAL's representation: bit i of lo is the coefficient of x^i, bit i of hi of
   x^(64+i). */
struct elem {
    uint64_t lo, hi;
};

static void key_word_set(struct key_word *kw, uint64_t w)
{
    const uint64_t top = ~UINT64_C(0xF);
    kw->part[0] = w & HOLES0 & top;
    kw->part[1] = w & HOLES1 & top;
    kw->part[2] = w & HOLES2 & top;
    kw->part[3] = w & HOLES3 & top;
    for (int i = 0; i < 4; i++) kw->low_mask[i] = (uint64_t)0 - ((w >> i) & 1);
    kw->raw = w;
}

static void key_power_set(struct key_power *kp, struct elem k)
{
    key_word_set(&kp->lo, k.lo);
    key_word_set(&kp->hi, k.hi);
    key_word_set(&kp->mid, k.lo ^ k.hi);
}

#if CTMUL_INT128

/* Unreduced product(s) being summed: for each of the three Karatsuba products (lo = a0*k0,
   hi = a1*k1, mid = (a0^a1)*(k0^k1)), the four classes of integer products before their masks, and
   the exact (mask-free) product with the key's four low bits. */
struct product_sum {
    u128 lo[4], hi[4], mid[4];
    u128 lo_fix, hi_fix, mid_fix;
};

/* Adds the integer products of data word a with key word k into the class sums z[0..3] and the
   low-bit correction into *fix. Class t collects a_r * k_s with r + s = t (mod 4). */
static inline void mul64_add(u128 z[4], u128 *fix, uint64_t a, const struct key_word *k)
{
    uint64_t a0 = a & HOLES0, a1 = a & HOLES1, a2 = a & HOLES2, a3 = a & HOLES3;
    u128 k0 = k->part[0], k1 = k->part[1], k2 = k->part[2], k3 = k->part[3];
    z[0] ^= (a0 * k0) ^ (a1 * k3) ^ (a2 * k2) ^ (a3 * k1);
    z[1] ^= (a0 * k1) ^ (a1 * k0) ^ (a2 * k3) ^ (a3 * k2);
    z[2] ^= (a0 * k2) ^ (a1 * k1) ^ (a2 * k0) ^ (a3 * k3);
    z[3] ^= (a0 * k3) ^ (a1 * k2) ^ (a2 * k1) ^ (a3 * k0);
    /* a * (bits 0..3 of k), carry-less, by masks: no carries here, so no holes needed */
    *fix ^= (u128)(a & k->low_mask[0]) ^ ((u128)(a & k->low_mask[1]) << 1) ^
            ((u128)(a & k->low_mask[2]) << 2) ^ ((u128)(a & k->low_mask[3]) << 3);
}

/* The carry-less product from the class sums: class t keeps its bits = t (mod 4); the other bits
   of class t hold the carries of its counts and are dropped. */
static inline u128 gather(const u128 z[4], u128 fix)
{
    const u128 m0 = ((u128)HOLES0 << 64) | HOLES0, m1 = ((u128)HOLES1 << 64) | HOLES1;
    const u128 m2 = ((u128)HOLES2 << 64) | HOLES2, m3 = ((u128)HOLES3 << 64) | HOLES3;
    return ((z[0] & m0) | (z[1] & m1) | (z[2] & m2) | (z[3] & m3)) ^ fix;
}

static inline void product_sum_zero(struct product_sum *s)
{
    for (int t = 0; t < 4; t++) s->lo[t] = s->hi[t] = s->mid[t] = 0;
    s->lo_fix = s->hi_fix = s->mid_fix = 0;
}

/* s += a * k (unreduced, 256 bits), Karatsuba over the three prepared key words. */
static inline void product_add(struct product_sum *s, struct elem a, const struct key_power *k)
{
    mul64_add(s->lo, &s->lo_fix, a.lo, &k->lo);
    mul64_add(s->hi, &s->hi_fix, a.hi, &k->hi);
    mul64_add(s->mid, &s->mid_fix, a.lo ^ a.hi, &k->mid);
}

/* The 256-bit sum as words d[0] (x^0..x^63) .. d[3] (x^192..x^255). */
static inline void product_words(const struct product_sum *s, uint64_t d[4])
{
    u128 lo = gather(s->lo, s->lo_fix), hi = gather(s->hi, s->hi_fix);
    u128 mid = gather(s->mid, s->mid_fix) ^ lo ^ hi; /* a0k1 ^ a1k0, the x^64 term */
    d[0] = (uint64_t)lo;
    d[1] = (uint64_t)(lo >> 64) ^ (uint64_t)mid;
    d[2] = (uint64_t)hi ^ (uint64_t)(mid >> 64);
    d[3] = (uint64_t)(hi >> 64);
}

#else /* !CTMUL_INT128 */

/* 32x32 -> 64 carry-less: 8-bit parts, at most 8 pairs meet at one position, counts < 16. */
static inline uint64_t clmul32(uint32_t a, uint32_t b)
{
    const uint32_t h0 = 0x11111111u, h1 = 0x22222222u, h2 = 0x44444444u, h3 = 0x88888888u;
    uint64_t a0 = a & h0, a1 = a & h1, a2 = a & h2, a3 = a & h3;
    uint64_t b0 = b & h0, b1 = b & h1, b2 = b & h2, b3 = b & h3;
    uint64_t z0 = (a0 * b0) ^ (a1 * b3) ^ (a2 * b2) ^ (a3 * b1);
    uint64_t z1 = (a0 * b1) ^ (a1 * b0) ^ (a2 * b3) ^ (a3 * b2);
    uint64_t z2 = (a0 * b2) ^ (a1 * b1) ^ (a2 * b0) ^ (a3 * b3);
    uint64_t z3 = (a0 * b3) ^ (a1 * b2) ^ (a2 * b1) ^ (a3 * b0);
    return (z0 & HOLES0) | (z1 & HOLES1) | (z2 & HOLES2) | (z3 & HOLES3);
}

/* 64x64 -> 128 carry-less by Karatsuba over 32-bit halves; r[0] low word, r[1] high word. */
static inline void clmul64(uint64_t a, uint64_t b, uint64_t r[2])
{
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32), b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint64_t lo = clmul32(a0, b0), hi = clmul32(a1, b1);
    uint64_t mid = clmul32(a0 ^ a1, b0 ^ b1) ^ lo ^ hi;
    r[0] = lo ^ (mid << 32);
    r[1] = hi ^ (mid >> 32);
}

struct product_sum {
    uint64_t lo[2], hi[2], mid[2];
};

static inline void product_sum_zero(struct product_sum *s)
{
    s->lo[0] = s->lo[1] = s->hi[0] = s->hi[1] = s->mid[0] = s->mid[1] = 0;
}

static inline void product_add(struct product_sum *s, struct elem a, const struct key_power *k)
{
    uint64_t r[2];
    clmul64(a.lo, k->lo.raw, r);
    s->lo[0] ^= r[0]; s->lo[1] ^= r[1];
    clmul64(a.hi, k->hi.raw, r);
    s->hi[0] ^= r[0]; s->hi[1] ^= r[1];
    clmul64(a.lo ^ a.hi, k->mid.raw, r);
    s->mid[0] ^= r[0]; s->mid[1] ^= r[1];
}

static inline void product_words(const struct product_sum *s, uint64_t d[4])
{
    uint64_t mid0 = s->mid[0] ^ s->lo[0] ^ s->hi[0], mid1 = s->mid[1] ^ s->lo[1] ^ s->hi[1];
    d[0] = s->lo[0];
    d[1] = s->lo[1] ^ mid0;
    d[2] = s->hi[0] ^ mid1;
    d[3] = s->hi[1];
}

#endif /* CTMUL_INT128 */

/* D * x^-128 mod P for the 256-bit D = d[3]:d[2]:d[1]:d[0] (two Montgomery steps of 64 bits; see
   the header comment for why each shift is there). */
static inline struct elem reduce(const uint64_t d[4])
{
    uint64_t w0 = d[0], w1 = d[1], w2 = d[2], w3 = d[3];
    /* step 1: add w0 * P, which clears word 0; w1, w2 take w0 * (x^121 + x^126 + x^127 + x^128) */
    w1 ^= (w0 << 57) ^ (w0 << 62) ^ (w0 << 63);
    w2 ^= w0 ^ (w0 >> 7) ^ (w0 >> 2) ^ (w0 >> 1);
    /* step 2: the same with the new low word w1, one word higher; w2 and w3 take its multiple */
    w2 ^= (w1 << 57) ^ (w1 << 62) ^ (w1 << 63);
    w3 ^= w1 ^ (w1 >> 7) ^ (w1 >> 2) ^ (w1 >> 1);
    struct elem r = { w2, w3 };
    return r;
}

/* dot(a, k) = a * k * x^-128 mod P for a prepared key power. */
static inline struct elem dot(struct elem a, const struct key_power *k)
{
    struct product_sum s;
    uint64_t d[4];
    product_sum_zero(&s);
    product_add(&s, a, k);
    product_words(&s, d);
    return reduce(d);
}

/* Byte strings <-> elements. POLYVAL reads little-endian; GHASH reads the byte-reversed block
   little-endian, which is the block itself read big-endian with the two words swapped. */
CTMUL_INLINE struct elem load_elem(const uint8_t *p, int ghash_order)
{
    struct elem e;
    if (ghash_order) {
        e.hi = vg_load64_be(p);
        e.lo = vg_load64_be(p + 8);
    } else {
        e.lo = vg_load64_le(p);
        e.hi = vg_load64_le(p + 8);
    }
    return e;
}

CTMUL_INLINE void store_elem(uint8_t *p, struct elem e, int ghash_order)
{
    if (ghash_order) {
        vg_store64_be(p, e.hi);
        vg_store64_be(p + 8, e.lo);
    } else {
        vg_store64_le(p, e.lo);
        vg_store64_le(p + 8, e.hi);
    }
}

/* K, K^2, K^3, K^4 (dot powers) into the key area. */
static void hkey_set(void *hkey, struct elem k)
{
    struct ctmul_hkey *hk = (struct ctmul_hkey *)hkey;
    struct elem p = k;
    key_power_set(&hk->pow[0], k);
    for (int i = 1; i < 4; i++) {
        p = dot(p, &hk->pow[0]);
        key_power_set(&hk->pow[i], p);
    }
    vg_wipe(&p, sizeof p);
}

/* The loop both front ends share: acc = dot(acc ^ X_i, K) for each block, four blocks per
   reduction. ghash_order is a constant at each call site, so the compiler emits two loops. */
CTMUL_INLINE void hash_blocks(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks,
                               int ghash_order)
{
    const struct ctmul_hkey *hk = (const struct ctmul_hkey *)hkey;
    struct elem y = load_elem(acc, ghash_order);
    struct product_sum s;
    uint64_t d[4];

    for (; nblocks >= 4; nblocks -= 4, in += 64) {
        struct elem x1 = load_elem(in, ghash_order), x2 = load_elem(in + 16, ghash_order);
        struct elem x3 = load_elem(in + 32, ghash_order), x4 = load_elem(in + 48, ghash_order);
        x1.lo ^= y.lo;
        x1.hi ^= y.hi;
        product_sum_zero(&s);
        product_add(&s, x1, &hk->pow[3]);
        product_add(&s, x2, &hk->pow[2]);
        product_add(&s, x3, &hk->pow[1]);
        product_add(&s, x4, &hk->pow[0]);
        product_words(&s, d);
        y = reduce(d);
    }
    for (; nblocks > 0; nblocks--, in += 16) {
        struct elem x = load_elem(in, ghash_order);
        x.lo ^= y.lo;
        x.hi ^= y.hi;
        y = dot(x, &hk->pow[0]);
    }
    store_elem(acc, y, ghash_order);
}

void vg_portable_polyval_init(void *hkey, const uint8_t h[16])
{
    hkey_set(hkey, load_elem(h, 0));
}

void vg_portable_polyval_update(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks)
{
    hash_blocks(hkey, acc, in, nblocks, 0);
}

void vg_portable_ghash_init(void *hkey, const uint8_t h[16])
{
    /* K = rev(H) * x mod P: shift left one bit; the bit shifted out of x^127 becomes x^128, which is
       x^127 + x^126 + x^121 + 1 mod P (bits 63, 62, 57 of hi and bit 0 of lo). */
    struct elem k = load_elem(h, 1);
    uint64_t carry = (uint64_t)0 - (k.hi >> 63);
    k.hi = (k.hi << 1) | (k.lo >> 63);
    k.lo = k.lo << 1;
    k.hi ^= carry & UINT64_C(0xC200000000000000);
    k.lo ^= carry & 1;
    hkey_set(hkey, k);
    vg_wipe(&k, sizeof k);
}

void vg_portable_ghash_update(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks)
{
    hash_blocks(hkey, acc, in, nblocks, 1);
}
