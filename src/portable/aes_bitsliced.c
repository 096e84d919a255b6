/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * aes_bitsliced.c — constant-time AES by bitslicing: key schedule, ECB both ways, CTR32 with the
 * big-endian (SP 800-38D inc32) and the little-endian (RFC 8452) counter, CBC-MAC and the fused CCM
 * kernels. No table, no branch and no memory index depends on a key or on data.
 *
 * Techniques, all published (no code is taken from any project):
 *  - Bitslicing AES (Käsper & Schwabe, CHES 2009; Pornin's BearSSL "ct64" notes): the state of many
 *    blocks is held as 8 words, word b holding bit b of every byte, so that SubBytes becomes a Boolean
 *    circuit evaluated on whole words.
 *  - The S-box circuit of Boyar & Peralta, "A depth-16 circuit for the AES S-box" (SEC 2012; 128 gates,
 *    34 of them AND). The inverse S-box is computed as A^-1 ∘ S ∘ A^-1 (A = the linear part of the
 *    S-box's affine map), which needs no second circuit.
 *  - Fixslicing (Adomnicai & Peyrin, "Fixslicing AES-like ciphers", TCHES 2021/1): ShiftRows is never
 *    applied inside the rounds; the state drifts through the four representations SR^-k, MixColumns is
 *    replaced by its conjugate MC_k = SR^-k ∘ MC ∘ SR^k, and the round keys are pre-permuted.
 *  - The constant 0x63 of the S-box commutes with ShiftRows and MixColumns (MC maps a column of equal
 *    bytes c to c, since 2^3^1^1 = 1), so it is folded into round keys 1..Nr and the circuit has no NOT.
 *
 * ---------------------------------------------------------------------------------------------
 * The word and the layout. A word is 128 bits seen as eight 16-bit elements e = 0..7 (bs_word: a
 * GCC/clang vector of uint16_t, which compiles to SSE2, NEON, VSX or z/Vector, or — when __FRAMAC__ is
 * defined, the compiler has no vector extensions, or VG_AES_BITSLICED_SCALAR is defined — a pair of
 * plain uint64_t, element e at bits 16*(e%4) of half e/4). Elements are named by value, never by their
 * place in memory, so the layout below is the same on little- and big-endian CPUs.
 *
 * A batch is 8 blocks (j = 0..7). Word b holds bit b of byte (row, col) of block j at
 *      element e = (j & 1) + 2*r1 + 4*r0              (row = r0 + 2*r1)
 *      bit     i = (j >> 2) + 2*((j >> 1) & 1) + 4*col
 * so each element is 4 columns × 4 blocks, and the 32-bit unit u = e/2 = r1 + 2*r0 is one row:
 *  - moving every row up by one (row r takes row r+1) is one permutation of 32-bit units (pshufd);
 *  - moving every column by k is a rotation of each 16-bit element by 4k bits;
 *  - block j ("lane" j) is at element parity j & 1 and bit (j >> 2) + 2*((j >> 1) & 1) of each
 *    column nibble: lanes never mix, and any lane can be brought to lane 0 with one element shuffle
 *    and one shift.
 *
 * MixColumns in representation k (the state S stands for the true state T = SR^k(S), where
 * SR(T)(r,c) = T(r, c+r)):  MC_k(S)(r,c) = 2·S(r,c) + 3·S(r+1,c+k) + S(r+2,c+2k) + S(r+3,c+3k).
 * With a = Y1(S) = S(r+1, c+k) and t = S + a:  MC_k(S) = 2·t + a + Y2(t), Y2(t)(r,c) = t(r+2, c+2k)
 * (because Y2(t) = S(r+2,c+2k) + S(r+3,c+3k)). Y1 is a unit shuffle plus (k != 0) an element
 * rotation; Y2 is a unit shuffle plus (k odd) a rotation by 8. Round r uses k = r mod 4; after the last
 * round the state is in representation Nr mod 4 (2, 0 or 2 for 10, 12, 14 rounds), and SR^2 (rows 1
 * and 3, i.e. elements 4..7, rotated by 8 bits) brings it back.
 *
 * Round key r is stored as SR^-(r mod 4)(K_r) (+ 0x63 for r >= 1), bitsliced and already replicated
 * into all 8 lanes, so AddRoundKey is 8 XORs with no per-call expansion.
 *
 * Decryption runs the exact inverse of that encryption in the same representations, with the same
 * stored round keys: InvMixColumns = MC ∘ P where P(a)_r = 5·a_r + 4·a_(r+2) (because
 * (4x^2 + 5)(3x^3 + x^2 + x + 2) = 11x^3 + 13x^2 + 9x + 14 mod x^4 + 1), and in representation k the
 * row r+2 of P is taken at column c+2k like Y2. So want_decrypt costs nothing and is ignored.
 *
 * Throughput: a call costs the same whatever the number of live lanes, so CTR and ECB run 8 blocks per
 * call and the last 1..7 blocks go through the same kernel with partial loads and stores. CBC-MAC is
 * serial: its chaining value stays bitsliced in lane 0 between blocks (no transposition per block),
 * and the CCM kernels let the seven other lanes of a MAC call carry CTR blocks (one call in seven).
 */
#include "portable.h"

#include <stddef.h>

#if !defined(__FRAMAC__) && !defined(VG_AES_BITSLICED_SCALAR) && (defined(__GNUC__) || defined(__clang__))
#define BS_VECTOR 1
#else
#define BS_VECTOR 0
#endif

#if (defined(__GNUC__) || defined(__clang__)) && !defined(__FRAMAC__)
#define BS_INLINE static inline __attribute__((always_inline))
/* The loops over the 8 words must be unrolled so that the words live in registers (GCC at -O2 keeps
   some of them rolled, through memory). */
#define BS_UNROLL _Pragma("GCC unroll 8")
#else
#define BS_INLINE static inline
#define BS_UNROLL
#endif

/* ============================================================================================== */
/* The word type and its operations.                                                              */

#if BS_VECTOR

typedef uint16_t bs_word __attribute__((vector_size(16)));

#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define BS_SHUF(a, b, i0, i1, i2, i3, i4, i5, i6, i7) \
    __builtin_shufflevector(a, b, i0, i1, i2, i3, i4, i5, i6, i7)
#else
#define BS_SHUF(a, b, i0, i1, i2, i3, i4, i5, i6, i7) \
    __builtin_shuffle(a, b, (bs_word){i0, i1, i2, i3, i4, i5, i6, i7})
#endif

BS_INLINE bs_word w_xor(bs_word a, bs_word b) { return a ^ b; }
BS_INLINE bs_word w_and(bs_word a, bs_word b) { return a & b; }
BS_INLINE bs_word w_or(bs_word a, bs_word b) { return a | b; }
BS_INLINE bs_word w_andnot(bs_word a, bs_word b) { return a & ~b; } /* a & ~b */
BS_INLINE bs_word w_shl(bs_word a, unsigned s) { return a << s; }   /* each element, 0 < s < 16 */
BS_INLINE bs_word w_shr(bs_word a, unsigned s) { return a >> s; }
BS_INLINE bs_word w_times15(bs_word a) { return (a << 4) - a; }      /* each element; no carries */
BS_INLINE bs_word w_const(uint16_t c) { return (bs_word){c, c, c, c, c, c, c, c}; }
BS_INLINE bs_word w_zero(void) { return w_const(0); }
/* lane 0's bits: even elements, bit 0 of each column nibble */
BS_INLINE bs_word w_lane0_mask(void) { return (bs_word){0x1111, 0, 0x1111, 0, 0x1111, 0, 0x1111, 0}; }
/* row 0 (unit 0); rows 2 and 3 (units 1 and 3) */
BS_INLINE bs_word w_row0_mask(void) { return (bs_word){0xFFFF, 0xFFFF, 0, 0, 0, 0, 0, 0}; }
BS_INLINE bs_word w_rows23_mask(void) { return (bs_word){0, 0, 0xFFFF, 0xFFFF, 0, 0, 0xFFFF, 0xFFFF}; }

/* Element e = bytes 2e (low) and 2e+1 (high) of the block. */
BS_INLINE bs_word w_load(const uint8_t *p)
{
    bs_word v;
    memcpy(&v, p, 16);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = (v << 8) | (v >> 8);
#endif
    return v;
}
BS_INLINE void w_store(uint8_t *p, bs_word v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = (v << 8) | (v >> 8);
#endif
    memcpy(p, &v, 16);
}
/* Replace unit u (elements 2u, 2u+1) by the 32-bit value x (element 2u = its low half). */
BS_INLINE bs_word w_set_unit(bs_word v, unsigned u, uint32_t x)
{
    v[2 * u] = (uint16_t)x;
    v[2 * u + 1] = (uint16_t)(x >> 16);
    return v;
}
/* A word whose unit 0 is x, the rest zero; and unit 0 of a word. */
BS_INLINE bs_word w_from_u32(uint32_t x)
{
    return (bs_word){(uint16_t)x, (uint16_t)(x >> 16), 0, 0, 0, 0, 0, 0};
}
BS_INLINE uint32_t w_to_u32(bs_word v) { return (uint32_t)v[0] | ((uint32_t)v[1] << 16); }

/* Rows: unit u' of the result is unit p(u') of the input. */
BS_INLINE bs_word w_rows1(bs_word x) { return BS_SHUF(x, x, 4, 5, 6, 7, 2, 3, 0, 1); } /* row r <- r+1 */
BS_INLINE bs_word w_rows2(bs_word x) { return BS_SHUF(x, x, 2, 3, 0, 1, 6, 7, 4, 5); } /* row r <- r+2 */
/* Element shuffles for the transposition and the lanes. */
BS_INLINE bs_word w_swap_e0_e1(bs_word x) { return BS_SHUF(x, x, 0, 2, 1, 3, 4, 6, 5, 7); }
BS_INLINE bs_word w_dup_even(bs_word x) { return BS_SHUF(x, x, 0, 0, 2, 2, 4, 4, 6, 6); }
BS_INLINE bs_word w_dup_odd(bs_word x) { return BS_SHUF(x, x, 1, 1, 3, 3, 5, 5, 7, 7); }
/* Low 64 bits of a, high 64 bits of b. */
BS_INLINE bs_word w_lo_hi(bs_word a, bs_word b) { return BS_SHUF(a, b, 0, 1, 2, 3, 12, 13, 14, 15); }
/* (a, b) -> (low halves of a and b, high halves of a and b). */
BS_INLINE void w_exchange_halves(bs_word *a, bs_word *b)
{
    bs_word x = *a, y = *b;
    *a = BS_SHUF(x, y, 0, 1, 2, 3, 8, 9, 10, 11);
    *b = BS_SHUF(x, y, 4, 5, 6, 7, 12, 13, 14, 15);
}
/* 4x4 transposition of 32-bit units: unit n of word m <-> unit m of word n. */
BS_INLINE void w_transpose4(bs_word *x0, bs_word *x1, bs_word *x2, bs_word *x3)
{
    bs_word t0 = BS_SHUF(*x0, *x1, 0, 1, 8, 9, 2, 3, 10, 11);
    bs_word t1 = BS_SHUF(*x0, *x1, 4, 5, 12, 13, 6, 7, 14, 15);
    bs_word t2 = BS_SHUF(*x2, *x3, 0, 1, 8, 9, 2, 3, 10, 11);
    bs_word t3 = BS_SHUF(*x2, *x3, 4, 5, 12, 13, 6, 7, 14, 15);
    *x0 = BS_SHUF(t0, t2, 0, 1, 2, 3, 8, 9, 10, 11);
    *x1 = BS_SHUF(t0, t2, 4, 5, 6, 7, 12, 13, 14, 15);
    *x2 = BS_SHUF(t1, t3, 0, 1, 2, 3, 8, 9, 10, 11);
    *x3 = BS_SHUF(t1, t3, 4, 5, 6, 7, 12, 13, 14, 15);
}

#else /* plain uint64_t: elements 0..3 in lo, 4..7 in hi, element e at bits 16*(e % 4) */

typedef struct {
    uint64_t lo, hi;
} bs_word;

#define BS_REP16(c) ((uint64_t)(uint16_t)(c) * 0x0001000100010001u)

BS_INLINE bs_word w_mk(uint64_t lo, uint64_t hi) { bs_word r; r.lo = lo; r.hi = hi; return r; }
BS_INLINE bs_word w_xor(bs_word a, bs_word b) { return w_mk(a.lo ^ b.lo, a.hi ^ b.hi); }
BS_INLINE bs_word w_and(bs_word a, bs_word b) { return w_mk(a.lo & b.lo, a.hi & b.hi); }
BS_INLINE bs_word w_or(bs_word a, bs_word b) { return w_mk(a.lo | b.lo, a.hi | b.hi); }
BS_INLINE bs_word w_andnot(bs_word a, bs_word b) { return w_mk(a.lo & ~b.lo, a.hi & ~b.hi); }
BS_INLINE bs_word w_shl(bs_word a, unsigned s)
{
    uint64_t m = BS_REP16(0xFFFFu << s);
    return w_mk((a.lo << s) & m, (a.hi << s) & m);
}
BS_INLINE bs_word w_shr(bs_word a, unsigned s)
{
    uint64_t m = BS_REP16(0xFFFFu >> s);
    return w_mk((a.lo >> s) & m, (a.hi >> s) & m);
}
BS_INLINE bs_word w_times15(bs_word a) { return w_mk(a.lo * 15u, a.hi * 15u); } /* bits 4 apart: no carries */
BS_INLINE bs_word w_const(uint16_t c) { return w_mk(BS_REP16(c), BS_REP16(c)); }
BS_INLINE bs_word w_zero(void) { return w_mk(0, 0); }
BS_INLINE bs_word w_lane0_mask(void) { return w_mk(0x0000111100001111u, 0x0000111100001111u); }
BS_INLINE bs_word w_row0_mask(void) { return w_mk(0x00000000FFFFFFFFu, 0); }
BS_INLINE bs_word w_rows23_mask(void) { return w_mk(0xFFFFFFFF00000000u, 0xFFFFFFFF00000000u); }

BS_INLINE bs_word w_load(const uint8_t *p) { return w_mk(vg_load64_le(p), vg_load64_le(p + 8)); }
BS_INLINE void w_store(uint8_t *p, bs_word v)
{
    vg_store64_le(p, v.lo);
    vg_store64_le(p + 8, v.hi);
}
BS_INLINE uint32_t w_unit(bs_word v, unsigned u)
{
    uint64_t h = (u & 2) ? v.hi : v.lo;
    return (uint32_t)(h >> (32 * (u & 1)));
}
BS_INLINE bs_word w_units(uint32_t u0, uint32_t u1, uint32_t u2, uint32_t u3)
{
    return w_mk((uint64_t)u0 | ((uint64_t)u1 << 32), (uint64_t)u2 | ((uint64_t)u3 << 32));
}
BS_INLINE bs_word w_set_unit(bs_word v, unsigned u, uint32_t x)
{
    uint32_t n[4];
    for (unsigned i = 0; i < 4; i++) n[i] = w_unit(v, i);
    n[u] = x;
    return w_units(n[0], n[1], n[2], n[3]);
}
BS_INLINE bs_word w_from_u32(uint32_t x) { return w_mk(x, 0); }
BS_INLINE uint32_t w_to_u32(bs_word v) { return (uint32_t)v.lo; }

BS_INLINE uint64_t rot32_64(uint64_t x) { return (x >> 32) | (x << 32); }
BS_INLINE bs_word w_rows1(bs_word x) { return w_mk(x.hi, rot32_64(x.lo)); }           /* [u2 u3 u1 u0] */
BS_INLINE bs_word w_rows2(bs_word x) { return w_mk(rot32_64(x.lo), rot32_64(x.hi)); } /* [u1 u0 u3 u2] */
BS_INLINE uint64_t swap_e0_e1_64(uint64_t x)
{
    uint64_t t = ((x >> 16) ^ x) & 0x00000000FFFF0000u; /* exchange elements 1 and 2 */
    return x ^ t ^ (t << 16);
}
BS_INLINE bs_word w_swap_e0_e1(bs_word x) { return w_mk(swap_e0_e1_64(x.lo), swap_e0_e1_64(x.hi)); }
BS_INLINE uint64_t dup_even_64(uint64_t x)
{
    x &= 0x0000FFFF0000FFFFu;
    return x | (x << 16);
}
BS_INLINE uint64_t dup_odd_64(uint64_t x)
{
    x &= 0xFFFF0000FFFF0000u;
    return x | (x >> 16);
}
BS_INLINE bs_word w_dup_even(bs_word x) { return w_mk(dup_even_64(x.lo), dup_even_64(x.hi)); }
BS_INLINE bs_word w_dup_odd(bs_word x) { return w_mk(dup_odd_64(x.lo), dup_odd_64(x.hi)); }
BS_INLINE bs_word w_lo_hi(bs_word a, bs_word b) { return w_mk(a.lo, b.hi); }
BS_INLINE void w_exchange_halves(bs_word *a, bs_word *b)
{
    bs_word x = *a, y = *b;
    *a = w_mk(x.lo, y.lo);
    *b = w_mk(x.hi, y.hi);
}
BS_INLINE void w_transpose4(bs_word *x0, bs_word *x1, bs_word *x2, bs_word *x3)
{
    bs_word a = *x0, b = *x1, c = *x2, d = *x3;
    *x0 = w_units(w_unit(a, 0), w_unit(b, 0), w_unit(c, 0), w_unit(d, 0));
    *x1 = w_units(w_unit(a, 1), w_unit(b, 1), w_unit(c, 1), w_unit(d, 1));
    *x2 = w_units(w_unit(a, 2), w_unit(b, 2), w_unit(c, 2), w_unit(d, 2));
    *x3 = w_units(w_unit(a, 3), w_unit(b, 3), w_unit(c, 3), w_unit(d, 3));
}

#endif /* BS_VECTOR */

/* Each element rotated right by 4k bits: column c takes column c + k. */
BS_INLINE bs_word w_rotcol(bs_word x, unsigned k)
{
    k &= 3;
    if (k == 0) return x;
    return w_or(w_shr(x, 4 * k), w_shl(x, 16 - 4 * k));
}

/* ============================================================================================== */
/* Moving between blocks and bitsliced words.                                                     */

/* Exchanges the bits of a at positions mask << s with the bits of b at positions mask. */
BS_INLINE void swapmove(bs_word *a, bs_word *b, uint16_t mask, unsigned s)
{
    bs_word t = w_and(w_xor(w_shr(*a, s), *b), w_const(mask));
    *b = w_xor(*b, t);
    *a = w_xor(*a, w_shl(t, s));
}

/*
 * x[j] = block j as loaded by w_load  ->  s[b] = bit b of every byte, in the layout above.
 *
 * Think of every bit as addressed by 10 index bits: which word (V0 V1 V2), which element (E0 E1 E2),
 * which bit of the element (B0 B1 B2 B3). A loaded block has V = (k0 k1 h) = block j, E = (r1 c0 c1)
 * and B = (b0 b1 b2 r0), b being the bit number in the byte. The target is V = the bit number,
 * E = (k0 r1 r0), B = (h k1 c0 c1). Four cheap moves get there:
 *   a. 4x4 transposition of 32-bit units within each half batch: (V0 V1) <-> (E1 E2):
 *        V = (c0 c1 h), E = (r1 k0 k1)
 *   b. bit swaps between word pairs: V0 <-> B2, V1 <-> B3, V2 <-> B0:
 *        V = (b2 r0 b0), B = (h b1 c0 c1)
 *   c. 64-bit half exchange between word pairs: V1 <-> E2:   V = (b2 k1 b0), E = (r1 k0 r0)
 *   d. bit swap V1 <-> B1:                                 V = (b2 b1 b0), B = (h k1 c0 c1)
 *   e. element shuffle E0 <-> E1:                           E = (k0 r1 r0)
 * Each step is an involution, so bs_to_blocks runs them backwards.
 */
/* The word pairs that differ in V1 (words 0,2 1,3 4,6 5,7): a bit swap, or the 64-bit half exchange. */
BS_INLINE void swapmove_v1(bs_word x[8], uint16_t mask, unsigned s)
{
    swapmove(&x[0], &x[2], mask, s);
    swapmove(&x[1], &x[3], mask, s);
    swapmove(&x[4], &x[6], mask, s);
    swapmove(&x[5], &x[7], mask, s);
}
BS_INLINE void exchange_halves_v1(bs_word x[8])
{
    w_exchange_halves(&x[0], &x[2]);
    w_exchange_halves(&x[1], &x[3]);
    w_exchange_halves(&x[4], &x[6]);
    w_exchange_halves(&x[5], &x[7]);
}

BS_INLINE void bs_from_blocks(bs_word s[8], bs_word x[8])
{
    w_transpose4(&x[0], &x[1], &x[2], &x[3]);                               /* a */
    w_transpose4(&x[4], &x[5], &x[6], &x[7]);
    BS_UNROLL
    for (unsigned i = 0; i < 8; i += 2) swapmove(&x[i], &x[i + 1], 0x0F0F, 4); /* b: V0 <-> B2 */
    swapmove_v1(x, 0x00FF, 8);                                                /*    V1 <-> B3 */
    BS_UNROLL
    for (unsigned i = 0; i < 4; i++) swapmove(&x[i], &x[i + 4], 0x5555, 1);   /*    V2 <-> B0 */
    exchange_halves_v1(x);                                                    /* c: V1 <-> E2 */
    swapmove_v1(x, 0x3333, 2);                                                /* d: V1 <-> B1 */
    /* e, and word v = b2 + 2*b1 + 4*b0 holds bit b */
    s[0] = w_swap_e0_e1(x[0]);
    s[1] = w_swap_e0_e1(x[4]);
    s[2] = w_swap_e0_e1(x[2]);
    s[3] = w_swap_e0_e1(x[6]);
    s[4] = w_swap_e0_e1(x[1]);
    s[5] = w_swap_e0_e1(x[5]);
    s[6] = w_swap_e0_e1(x[3]);
    s[7] = w_swap_e0_e1(x[7]);
}

BS_INLINE void bs_to_blocks(bs_word x[8], const bs_word s[8])
{
    x[0] = w_swap_e0_e1(s[0]);
    x[4] = w_swap_e0_e1(s[1]);
    x[2] = w_swap_e0_e1(s[2]);
    x[6] = w_swap_e0_e1(s[3]);
    x[1] = w_swap_e0_e1(s[4]);
    x[5] = w_swap_e0_e1(s[5]);
    x[3] = w_swap_e0_e1(s[6]);
    x[7] = w_swap_e0_e1(s[7]);
    swapmove_v1(x, 0x3333, 2);
    exchange_halves_v1(x);
    BS_UNROLL
    for (unsigned i = 0; i < 4; i++) swapmove(&x[i], &x[i + 4], 0x5555, 1);
    swapmove_v1(x, 0x00FF, 8);
    BS_UNROLL
    for (unsigned i = 0; i < 8; i += 2) swapmove(&x[i], &x[i + 1], 0x0F0F, 4);
    w_transpose4(&x[0], &x[1], &x[2], &x[3]);
    w_transpose4(&x[4], &x[5], &x[6], &x[7]);
}

/* Lane j of x brought to lane 0 (the other lanes receive bits of other lanes: callers only read
   lane 0). j is public. */
BS_INLINE bs_word w_lane_to0(bs_word x, unsigned j)
{
    unsigned q = (j >> 2) + 2 * ((j >> 1) & 1);
    if (j & 1) x = w_dup_odd(x);
    return q ? w_shr(x, q) : x;
}

/* ============================================================================================== */
/* The round functions.                                                                           */

/* SubBytes and its inverse are functions of their own, never inlined: the equivalence prover
   (docs/proofs-equivalence.md, "portable") proves each once against the S-box tables on fresh inputs,
   then uses that result at every call, which it cannot rebuild from the gates when their inputs are a
   previous round's outputs. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__FRAMAC__)
#define BS_SBOX_FN static __attribute__((noinline))
#else
#define BS_SBOX_FN static
#endif

/*
 * SubBytes without its constant (S'(x) = A·x^-1, the 0x63 being in the round keys): the circuit of
 * Boyar & Peralta, "A depth-16 circuit for the AES S-box" (top linear layer T1..T27, shared middle
 * layer M1..M63 computing the inversion in GF(2^8) through GF(2^4), bottom linear layer L0..L29).
 * U0 is the most significant bit of the byte; the four XNORs of the published output layer (the
 * constant 0x63) are plain XORs here.
 */
BS_SBOX_FN void sub_bytes(bs_word s[8])
{
#define X(a, b) w_xor(a, b)
#define A(a, b) w_and(a, b)
    bs_word U0 = s[7], U1 = s[6], U2 = s[5], U3 = s[4], U4 = s[3], U5 = s[2], U6 = s[1], U7 = s[0];

    bs_word T1 = X(U0, U3), T2 = X(U0, U5), T3 = X(U0, U6), T4 = X(U3, U5), T5 = X(U4, U6);
    bs_word T6 = X(T1, T5), T7 = X(U1, U2), T8 = X(U7, T6), T9 = X(U7, T7), T10 = X(T6, T7);
    bs_word T11 = X(U1, U5), T12 = X(U2, U5), T13 = X(T3, T4), T14 = X(T6, T11), T15 = X(T5, T11);
    bs_word T16 = X(T5, T12), T17 = X(T9, T16), T18 = X(U3, U7), T19 = X(T7, T18), T20 = X(T1, T19);
    bs_word T21 = X(U6, U7), T22 = X(T7, T21), T23 = X(T2, T22), T24 = X(T2, T10), T25 = X(T20, T17);
    bs_word T26 = X(T3, T16), T27 = X(T1, T12);

    bs_word M1 = A(T13, T6), M2 = A(T23, T8), M3 = X(T14, M1), M4 = A(T19, U7), M5 = X(M4, M1);
    bs_word M6 = A(T3, T16), M7 = A(T22, T9), M8 = X(T26, M6), M9 = A(T20, T17), M10 = X(M9, M6);
    bs_word M11 = A(T1, T15), M12 = A(T4, T27), M13 = X(M12, M11), M14 = A(T2, T10), M15 = X(M14, M11);
    bs_word M16 = X(M3, M2), M17 = X(M5, T24), M18 = X(M8, M7), M19 = X(M10, M15), M20 = X(M16, M13);
    bs_word M21 = X(M17, M15), M22 = X(M18, M13), M23 = X(M19, T25), M24 = X(M22, M23);
    bs_word M25 = A(M22, M20), M26 = X(M21, M25), M27 = X(M20, M21), M28 = X(M23, M25);
    bs_word M29 = A(M28, M27), M30 = A(M26, M24), M31 = A(M20, M23), M32 = A(M27, M31);
    bs_word M33 = X(M27, M25), M34 = A(M21, M22), M35 = A(M24, M34), M36 = X(M24, M25);
    bs_word M37 = X(M21, M29), M38 = X(M32, M33), M39 = X(M23, M30), M40 = X(M35, M36);
    bs_word M41 = X(M38, M40), M42 = X(M37, M39), M43 = X(M37, M38), M44 = X(M39, M40), M45 = X(M42, M41);
    bs_word M46 = A(M44, T6), M47 = A(M40, T8), M48 = A(M39, U7), M49 = A(M43, T16), M50 = A(M38, T9);
    bs_word M51 = A(M37, T17), M52 = A(M42, T15), M53 = A(M45, T27), M54 = A(M41, T10), M55 = A(M44, T13);
    bs_word M56 = A(M40, T23), M57 = A(M39, T19), M58 = A(M43, T3), M59 = A(M38, T22), M60 = A(M37, T20);
    bs_word M61 = A(M42, T1), M62 = A(M45, T4), M63 = A(M41, T2);

    bs_word L0 = X(M61, M62), L1 = X(M50, M56), L2 = X(M46, M48), L3 = X(M47, M55), L4 = X(M54, M58);
    bs_word L5 = X(M49, M61), L6 = X(M62, L5), L7 = X(M46, L3), L8 = X(M51, M59), L9 = X(M52, M53);
    bs_word L10 = X(M53, L4), L11 = X(M60, L2), L12 = X(M48, M51), L13 = X(M50, L0), L14 = X(M52, M61);
    bs_word L15 = X(M55, L1), L16 = X(M56, L0), L17 = X(M57, L1), L18 = X(M58, L8), L19 = X(M63, L4);
    bs_word L20 = X(L0, L1), L21 = X(L1, L7), L22 = X(L3, L12), L23 = X(L18, L2), L24 = X(L15, L9);
    bs_word L25 = X(L6, L10), L26 = X(L7, L9), L27 = X(L8, L10), L28 = X(L11, L14), L29 = X(L11, L17);

    s[7] = X(L6, L24);
    s[6] = X(L16, L26);
    s[5] = X(L19, L28);
    s[4] = X(L6, L21);
    s[3] = X(L20, L22);
    s[2] = X(L25, L29);
    s[1] = X(L13, L27);
    s[0] = X(L6, L23);
#undef X
#undef A
}

/* The linear part of the inverse affine map: bit i = x_(i+2) + x_(i+5) + x_(i+7) (indices mod 8). */
BS_INLINE void inv_affine(bs_word s[8])
{
    bs_word t[8];
    BS_UNROLL
    for (unsigned i = 0; i < 8; i++) t[i] = w_xor(w_xor(s[(i + 2) & 7], s[(i + 5) & 7]), s[(i + 7) & 7]);
    BS_UNROLL
    for (unsigned i = 0; i < 8; i++) s[i] = t[i];
}

/* The inverse of S' from S' itself: S'(x) = A·x^-1 gives z^-1 = A^-1·S'(z) for any z, so
   S'^-1(y) = (A^-1·y)^-1 = A^-1·S'(A^-1·y). */
BS_SBOX_FN void inv_sub_bytes(bs_word s[8])
{
    inv_affine(s);
    sub_bytes(s);
    inv_affine(s);
}

/* MC_k (see the top of the file); k is a compile-time constant after inlining. */
BS_INLINE void mix_columns(bs_word s[8], unsigned k)
{
    bs_word a[8], t[8], u[8];
    BS_UNROLL
    for (unsigned b = 0; b < 8; b++) {
        a[b] = w_rotcol(w_rows1(s[b]), k);          /* S(r+1, c+k) */
        t[b] = w_xor(s[b], a[b]);                    /* S(r,c) + S(r+1,c+k) */
        u[b] = w_xor(a[b], w_rotcol(w_rows2(t[b]), 2 * k)); /* a + t(r+2, c+2k) */
    }
    /* result = x·t + u, x·t with x^8 = x^4 + x^3 + x + 1 */
    s[0] = w_xor(t[7], u[0]);
    s[1] = w_xor(w_xor(t[0], t[7]), u[1]);
    s[2] = w_xor(t[1], u[2]);
    s[3] = w_xor(w_xor(t[2], t[7]), u[3]);
    s[4] = w_xor(w_xor(t[3], t[7]), u[4]);
    s[5] = w_xor(t[4], u[5]);
    s[6] = w_xor(t[5], u[6]);
    s[7] = w_xor(t[6], u[7]);
}

/* MC_k^-1 = MC_k ∘ P_k with P_k(a)(r,c) = 5·a(r,c) + 4·a(r+2,c+2k) = a + x^2·(a + a(r+2,c+2k)). */
BS_INLINE void inv_mix_columns(bs_word s[8], unsigned k)
{
    bs_word u[8];
    BS_UNROLL
    for (unsigned b = 0; b < 8; b++) u[b] = w_xor(s[b], w_rotcol(w_rows2(s[b]), 2 * k));
    /* s += x^2·u, with x^8 = 0x1b and x^9 = 0x36 */
    s[0] = w_xor(s[0], u[6]);
    s[1] = w_xor(s[1], w_xor(u[6], u[7]));
    s[2] = w_xor(s[2], w_xor(u[0], u[7]));
    s[3] = w_xor(s[3], w_xor(u[1], u[6]));
    s[4] = w_xor(s[4], w_xor(w_xor(u[2], u[6]), u[7]));
    s[5] = w_xor(s[5], w_xor(u[3], u[7]));
    s[6] = w_xor(s[6], u[4]);
    s[7] = w_xor(s[7], u[5]);
    mix_columns(s, k);
}

BS_INLINE void add_round_key(bs_word s[8], const bs_word *rk)
{
    BS_UNROLL
    for (unsigned b = 0; b < 8; b++) s[b] = w_xor(s[b], rk[b]);
}

/* SR^2 (= SR^-2): rows 1 and 3 (units 2 and 3, elements 4..7) move by two columns. */
BS_INLINE void shift_rows2(bs_word s[8])
{
    BS_UNROLL
    for (unsigned b = 0; b < 8; b++) s[b] = w_lo_hi(s[b], w_rotcol(s[b], 2));
}

/* ============================================================================================== */
/* The schedule.                                                                                  */

struct bs_sched {
    /* rk[r][b]: bit b of SR^-(r mod 4)(K_r) (+ 0x63 for r >= 1), replicated into the 8 lanes */
    bs_word rk[15][8];
    uint32_t nrounds; /* 10, 12 or 14 */
};
_Static_assert(sizeof(bs_word) == 16, "a word is 128 bits");
_Static_assert(offsetof(struct bs_sched, rk) == 0, "round keys first");
_Static_assert(offsetof(struct bs_sched, nrounds) == 15 * 8 * 16, "layout");
_Static_assert(sizeof(struct bs_sched) <= VG_SCHED_SIZE, "schedule does not fit VG_SCHED_SIZE");
_Static_assert(_Alignof(struct bs_sched) <= 16, "sched is only 16-byte aligned (VG_CONTEXT_ALIGN)");

/* One full encryption of the 8 lanes of s (in place). */
static void bs_encrypt(const struct bs_sched *ks, bs_word s[8])
{
    unsigned nr = ks->nrounds, r = 1;
    add_round_key(s, ks->rk[0]);
    for (; r + 4 <= nr; r += 4) {
        sub_bytes(s); mix_columns(s, 1); add_round_key(s, ks->rk[r]);
        sub_bytes(s); mix_columns(s, 2); add_round_key(s, ks->rk[r + 1]);
        sub_bytes(s); mix_columns(s, 3); add_round_key(s, ks->rk[r + 2]);
        sub_bytes(s); mix_columns(s, 0); add_round_key(s, ks->rk[r + 3]);
    }
    /* r = 9, 9 or 13: one round (k = 1) left for 10 and 14 rounds, three (k = 1, 2, 3) for 12 */
    sub_bytes(s); mix_columns(s, 1); add_round_key(s, ks->rk[r]);
    if (nr == 12) { /* r = 9 = nr - 3; indexed from nr, which a reader (and Eva) ties to 12 here */
        sub_bytes(s); mix_columns(s, 2); add_round_key(s, ks->rk[nr - 2]);
        sub_bytes(s); mix_columns(s, 3); add_round_key(s, ks->rk[nr - 1]);
    }
    sub_bytes(s);
    add_round_key(s, ks->rk[nr]);
    if (nr != 12) shift_rows2(s); /* representation Nr mod 4 = 2 back to 0 */
}

static void bs_decrypt(const struct bs_sched *ks, bs_word s[8])
{
    unsigned nr = ks->nrounds;
    if (nr != 12) shift_rows2(s);
    add_round_key(s, ks->rk[nr]);
    inv_sub_bytes(s);
    for (unsigned r = nr - 1; r >= 1; r--) {
        add_round_key(s, ks->rk[r]);
        switch (r & 3) { /* the round number is public */
        case 0: inv_mix_columns(s, 0); break;
        case 1: inv_mix_columns(s, 1); break;
        case 2: inv_mix_columns(s, 2); break;
        default: inv_mix_columns(s, 3); break;
        }
        inv_sub_bytes(s);
    }
    add_round_key(s, ks->rk[0]);
}

/* Zeroes n bytes of key material on the stack in a way the compiler may not drop (best effort: what
   the compiler spilled elsewhere is out of reach of C). */
static void wipe_stack(void *p, size_t n)
{
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__FRAMAC__)
    memset(p, 0, n);
    __asm__ __volatile__("" : : "r"(p) : "memory");
#else
    vg_wipe(p, n);
#endif
}

/*
 * The key schedule (FIPS 197 §5.2) computed directly on bitsliced, replicated round keys, for
 * Nk = 4 and 8. Round key r is the words w[4r..4r+3] (its columns 0..3). Every word but the first of
 * each group of Nk is w[i] = w[i-Nk] + w[i-1], so column c of K_r is
 *      (columns 0..c of K_(r - Nk/4), summed) + T
 * with T = SubWord(RotWord(K_(r-1) column 3)) + Rcon for the rounds that start a group of Nk words,
 * T = SubWord(K_(r-1) column 3) for the others (Nk = 8 only). So one step is: the S-box on the whole
 * previous key (only column 3 is used), rows moved up by one for RotWord, column 3 copied into the
 * four column nibbles, plus the prefix sum of the older key along its columns. No word leaves the
 * bitsliced form, so nothing waits for a transposition.
 */
BS_INLINE void schedule_step(bs_word out[8], const bs_word older[8], const bs_word prev[8], int rotate,
                             unsigned rcon)
{
    bs_word t[8];
    BS_UNROLL
    for (unsigned b = 0; b < 8; b++) t[b] = prev[b];
    sub_bytes(t);
    BS_UNROLL
    for (unsigned b = 0; b < 8; b++) {
        bs_word x = rotate ? w_rows1(t[b]) : t[b];
        x = w_and(x, w_const(0xF000));                   /* column 3 */
        x = w_or(x, w_shr(x, 4));
        x = w_or(x, w_shr(x, 8));                         /* ... in every column */
        bs_word p = w_xor(older[b], w_shl(older[b], 4));
        p = w_xor(p, w_shl(p, 8));                        /* column c: columns 0..c summed */
        x = w_xor(x, p);
        if ((0x63u >> b) & 1) x = w_xor(x, w_const(0xFFFF)); /* the S-box constant, all rows */
        if ((rcon >> b) & 1) x = w_xor(x, w_row0_mask());    /* Rcon, row 0 (public) */
        out[b] = x;
    }
}

/* SR^-k of a bitsliced key: row r's column c takes column c - k*r, i.e. row r is rotated left by 4kr
   bits. Row 2 and row 3 take 8k (a rotation by 8 when k is odd), rows 1 and 3 (elements 4..7) 4k more. */
BS_INLINE bs_word w_inv_shift_rows(bs_word x, unsigned k)
{
    if (k == 0) return x;
    if (k == 2) return w_lo_hi(x, w_rotcol(x, 2));
    bs_word m = w_rows23_mask();
    x = w_or(w_andnot(x, m), w_and(w_rotcol(x, 2), m));
    return w_lo_hi(x, w_rotcol(x, k == 1 ? 3 : 1)); /* left by 4 = right by 12, and the converse */
}

/* Stores K_r as round key r: SR^-(r mod 4)(K_r) + 0x63 (r >= 1). */
BS_INLINE void store_round_key(struct bs_sched *ks, unsigned r, const bs_word k[8])
{
    BS_UNROLL
    for (unsigned b = 0; b < 8; b++) {
        bs_word x = w_inv_shift_rows(k[b], r & 3);
        if (r && ((0x63u >> b) & 1)) x = w_xor(x, w_const(0xFFFF));
        ks->rk[r][b] = x;
    }
}

static void expand_key_bitsliced(struct bs_sched *ks, const uint8_t *key, unsigned nk)
{
    bs_word x[8], s[8], k0[8], k1[8], k2[8];
    unsigned nr = nk + 6, rcon = 1;
    /* lanes with j even get the first 16 bytes, odd ones the last 16 (the same for Nk = 4) */
    BS_UNROLL
    for (unsigned j = 0; j < 8; j++) x[j] = w_load(key + (nk == 8 ? 16 * (j & 1) : 0));
    bs_from_blocks(s, x);
    BS_UNROLL
    for (unsigned b = 0; b < 8; b++) {
        k0[b] = w_dup_even(s[b]);
        k1[b] = w_dup_odd(s[b]);
    }
    store_round_key(ks, 0, k0);
    if (nk == 4) {
        for (unsigned r = 1; r <= nr; r++) {
            schedule_step(k1, k0, k0, 1, rcon);
            rcon = (rcon << 1) ^ (0x11bu & (0u - (rcon >> 7)));
            store_round_key(ks, r, k1);
            BS_UNROLL
            for (unsigned b = 0; b < 8; b++) k0[b] = k1[b];
        }
    } else {
        store_round_key(ks, 1, k1);
        for (unsigned r = 2; r <= nr; r++) {
            /* k0 = K_(r-2), k1 = K_(r-1) */
            if ((r & 1) == 0) {
                schedule_step(k2, k0, k1, 1, rcon);
                rcon <<= 1; /* at most 0x40 for Nk = 8 */
            } else {
                schedule_step(k2, k0, k1, 0, 0);
            }
            store_round_key(ks, r, k2);
            BS_UNROLL
            for (unsigned b = 0; b < 8; b++) {
                k0[b] = k1[b];
                k1[b] = k2[b];
            }
        }
    }
    wipe_stack(x, sizeof x);
}

/* SubWord for the word-based schedule: the 4 bytes (unit 0 of a word) go through the same circuit,
   word b holding bit b of each byte at bits 0 and 8 of elements 0 and 1; then 0x63 is added back. */
static uint32_t sub_word(uint32_t x)
{
    bs_word v = w_from_u32(x), s[8], y;
    BS_UNROLL
    for (unsigned b = 0; b < 8; b++) s[b] = w_and(w_shr(v, b), w_const(0x0101));
    sub_bytes(s);
    y = w_and(s[0], w_const(0x0101));
    BS_UNROLL
    for (unsigned b = 1; b < 8; b++) y = w_or(y, w_shl(w_and(s[b], w_const(0x0101)), b));
    return w_to_u32(y) ^ 0x63636363u;
}

/* Nk = 6, whose 6-word period does not line up with the 4-column round keys: the words of FIPS 197
   §5.2 one by one, then the round keys 8 at a time as the 8 lanes of one transposition, each lane then
   spread to all 8. */
static void expand_key_words(struct bs_sched *ks, const uint8_t *key, unsigned nk)
{
    unsigned nr = nk + 6, nw = 4 * (nr + 1);
    uint32_t w[60]; /* FIPS 197 words, byte 0 (row 0) most significant */
    uint8_t blk[16];
    bs_word x[8], s[8];

    for (unsigned i = 0; i < nk; i++) w[i] = vg_load32_be(key + 4 * i);
    uint32_t rcon = 1;
    for (unsigned i = nk, m = 0; i < nw; i++) {
        uint32_t t = w[i - 1];
        if (m == 0) {
            t = sub_word((t << 8) | (t >> 24)) ^ (rcon << 24);
            rcon = (rcon << 1) ^ (0x11bu & (0u - (rcon >> 7)));
        } else if (nk == 8 && m == 4) {
            t = sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
        m = (m + 1 == nk) ? 0 : m + 1;
    }

    for (unsigned r0 = 0; r0 <= nr; r0 += 8) {
        BS_UNROLL
        for (unsigned j = 0; j < 8; j++) {
            unsigned r = r0 + j, k = r & 3;
            if (r > nr) {
                x[j] = w_zero();
                continue;
            }
            /* SR^-k(K)(row, c) = K(row, c - k*row): column c takes row r of column c - k*r */
            uint32_t c63 = r ? 0x63636363u : 0;
            for (unsigned c = 0; c < 4; c++) {
                uint32_t col = (w[4 * r + c] & 0xFF000000u) | (w[4 * r + ((c - k) & 3)] & 0x00FF0000u) |
                               (w[4 * r + ((c - 2 * k) & 3)] & 0x0000FF00u) |
                               (w[4 * r + ((c - 3 * k) & 3)] & 0x000000FFu);
                vg_store32_be(blk + 4 * c, col ^ c63);
            }
            x[j] = w_load(blk);
        }
        bs_from_blocks(s, x);
        for (unsigned j = 0; j < 8 && r0 + j <= nr; j++) {
            /* lane j sits at element parity j & 1, bit q of each nibble */
            unsigned q = (j >> 2) + 2 * ((j >> 1) & 1);
            BS_UNROLL
            for (unsigned b = 0; b < 8; b++) {
                bs_word y = (j & 1) ? w_dup_odd(s[b]) : w_dup_even(s[b]);
                ks->rk[r0 + j][b] = w_times15(w_and(w_shr(y, q), w_const(0x1111)));
            }
        }
    }
    wipe_stack(w, sizeof w);
    wipe_stack(blk, sizeof blk);
}

int vg_portable_aes_expand_key(void *sched, const uint8_t *key, size_t key_len, int want_decrypt)
{
    struct bs_sched *ks = (struct bs_sched *)sched;
    unsigned nk = (unsigned)(key_len / 4);
    (void)want_decrypt; /* decryption uses the same round keys */
    if (nk == 6)
        expand_key_words(ks, key, nk);
    else
        expand_key_bitsliced(ks, key, nk);
    /* The round keys past Nr are never used; zero them so that no byte of the schedule is
       indeterminate (the Eva analysis, proofs/eva/, joins the three key sizes into one state). */
    for (unsigned r = nk + 7; r < 15; r++) {
        BS_UNROLL
        for (unsigned b = 0; b < 8; b++) ks->rk[r][b] = w_zero();
    }
    ks->nrounds = nk + 6;
    return VG_OK;
}

/* ============================================================================================== */
/* ECB.                                                                                           */

BS_INLINE void ecb_batch(const struct bs_sched *ks, const uint8_t *in, uint8_t *out, size_t n, int decrypt)
{
    bs_word x[8], s[8];
    BS_UNROLL
    for (size_t j = 0; j < 8; j++) x[j] = j < n ? w_load(in + 16 * j) : w_zero();
    bs_from_blocks(s, x);
    if (decrypt)
        bs_decrypt(ks, s);
    else
        bs_encrypt(ks, s);
    bs_to_blocks(x, s);
    for (size_t j = 0; j < n; j++) w_store(out + 16 * j, x[j]);
}

void vg_portable_aes_ecb_encrypt(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const struct bs_sched *ks = (const struct bs_sched *)sched;
    for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128) ecb_batch(ks, in, out, 8, 0);
    if (nblocks) ecb_batch(ks, in, out, nblocks, 0);
}

void vg_portable_aes_ecb_decrypt(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const struct bs_sched *ks = (const struct bs_sched *)sched;
    for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128) ecb_batch(ks, in, out, 8, 1);
    if (nblocks) ecb_batch(ks, in, out, nblocks, 1);
}

/* ============================================================================================== */
/* CTR.                                                                                           */

/* The 32-bit counter c as the unit it occupies: bytes 12..15 big-endian (unit 3) or bytes 0..3
   little-endian (unit 0). Elements are little-endian byte pairs, so the big-endian counter is
   byte-reversed. */
BS_INLINE uint32_t counter_unit(uint32_t c, int little)
{
    if (little) return c;
    return (c >> 24) | ((c >> 8) & 0xFF00u) | ((c << 8) & 0xFF0000u) | (c << 24);
}

/* n <= 8 blocks of out = in ^ E(counter block with counter c + j). */
BS_INLINE void ctr_batch(const struct bs_sched *ks, bs_word base, uint32_t c, const uint8_t *in,
                         uint8_t *out, size_t n, int little)
{
    bs_word x[8], s[8];
    BS_UNROLL
    for (uint32_t j = 0; j < 8; j++) x[j] = w_set_unit(base, little ? 0 : 3, counter_unit(c + j, little));
    bs_from_blocks(s, x);
    bs_encrypt(ks, s);
    bs_to_blocks(x, s);
    for (size_t j = 0; j < n; j++) w_store(out + 16 * j, w_xor(x[j], w_load(in + 16 * j)));
}

BS_INLINE void ctr_run(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                       size_t nblocks, int little)
{
    const struct bs_sched *ks = (const struct bs_sched *)sched;
    bs_word base = w_load(counter);
    uint32_t c = little ? vg_load32_le(counter) : vg_load32_be(counter + 12);
    size_t total = nblocks;
    for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128, c += 8)
        ctr_batch(ks, base, c, in, out, 8, little);
    if (nblocks) ctr_batch(ks, base, c, in, out, nblocks, little);
    /* the write-back: counter + total mod 2^32 in its own byte order (proved in proofs/wp) */
    if (little)
        vg_ctr32_le_add(counter, total);
    else
        vg_inc32_add(counter, total);
}

void vg_portable_aes_ctr32(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                        size_t nblocks)
{
    ctr_run(sched, counter, in, out, nblocks, 0);
}

void vg_portable_aes_ctr32_le(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                           size_t nblocks)
{
    ctr_run(sched, counter, in, out, nblocks, 1);
}

/* ============================================================================================== */
/* CBC-MAC and the CCM kernels.                                                                   */

/* mac[16] into lane 0 of m (all lanes, in fact). */
BS_INLINE void mac_load(bs_word m[8], const uint8_t mac[16])
{
    bs_word x[8];
    BS_UNROLL
    for (unsigned j = 0; j < 8; j++) x[j] = w_load(mac);
    bs_from_blocks(m, x);
}

BS_INLINE void mac_store(uint8_t mac[16], const bs_word m[8])
{
    bs_word x[8];
    bs_to_blocks(x, m);
    w_store(mac, x[0]);
}

/* mac = E(mac ^ lane j of d): the chaining value never leaves lane 0 of m. */
BS_INLINE void mac_step(const struct bs_sched *ks, bs_word m[8], const bs_word d[8], unsigned j)
{
    BS_UNROLL
    for (unsigned b = 0; b < 8; b++) m[b] = w_xor(m[b], w_lane_to0(d[b], j));
    bs_encrypt(ks, m);
}

/* One transposition of n <= 8 blocks, then their n chained MAC steps. */
BS_INLINE void cbc_mac_group(const struct bs_sched *ks, bs_word m[8], const uint8_t *in, unsigned n)
{
    bs_word d[8], x[8];
    BS_UNROLL
    for (unsigned j = 0; j < 8; j++) x[j] = j < n ? w_load(in + 16 * j) : w_zero();
    bs_from_blocks(d, x);
    for (unsigned j = 0; j < n; j++) mac_step(ks, m, d, j);
}

/* Whole groups of 8, then the 1..7 left: a loop with a constant step and a tail, like ctr_run, so
   that the Eva analysis (proofs/eva/) follows the pointer and the count together. */
void vg_portable_cbc_mac(const void *sched, uint8_t mac[16], const uint8_t *in, size_t nblocks)
{
    const struct bs_sched *ks = (const struct bs_sched *)sched;
    bs_word m[8];
    if (nblocks == 0) return;
    mac_load(m, mac);
    for (; nblocks >= 8; nblocks -= 8, in += 128) cbc_mac_group(ks, m, in, 8);
    if (nblocks) cbc_mac_group(ks, m, in, (unsigned)nblocks);
    mac_store(mac, m);
}

/*
 * The fused kernels work in groups of up to 7 blocks. The group's data sits in lanes 1..n of d and
 * its counters in lanes 1..n of s; the first call of the group also carries one CBC-MAC step in lane
 * 0, and the other MAC steps of the group run alone (the chain allows one block per call). So a group
 * of 7 costs 7 calls and three transpositions (data in, counters in, result out); the MAC steps only
 * move a lane of the already transposed data into lane 0.
 */
BS_INLINE void ccm_counters(bs_word s[8], bs_word base, uint32_t c)
{
    bs_word x[8];
    BS_UNROLL
    for (uint32_t j = 0; j < 8; j++) /* lane j: counter c + j - 1 (lane 0's is never used) */
        x[j] = w_set_unit(base, 3, counter_unit(c + j - 1, 0));
    bs_from_blocks(s, x);
}

BS_INLINE void ccm_data(bs_word d[8], const uint8_t *in, unsigned n)
{
    bs_word x[8];
    x[0] = w_zero();
    BS_UNROLL
    for (unsigned j = 1; j < 8; j++) x[j] = j <= n ? w_load(in + 16 * (j - 1)) : w_zero();
    bs_from_blocks(d, x);
}

/* Lane 0 of s replaced by lane 0 of (m + lane j of d). */
BS_INLINE void ccm_put_mac_lane(bs_word s[8], const bs_word m[8], const bs_word d[8], unsigned j)
{
    bs_word lane0 = w_lane0_mask();
    BS_UNROLL
    for (unsigned b = 0; b < 8; b++)
        s[b] = w_or(w_andnot(s[b], lane0), w_and(w_xor(m[b], w_lane_to0(d[b], j)), lane0));
}

BS_INLINE void ccm_store(uint8_t *out, const bs_word v[8], unsigned n)
{
    bs_word x[8];
    bs_to_blocks(x, v);
    for (unsigned j = 1; j <= n; j++) w_store(out + 16 * (j - 1), x[j]);
}

/* One group of n <= 7 blocks of the seal kernel, counters c..c+n-1. */
BS_INLINE void ccm_seal_group(const struct bs_sched *ks, bs_word m[8], bs_word base, uint32_t c,
                              const uint8_t *in, uint8_t *out, unsigned n)
{
    bs_word d[8], s[8];
    ccm_data(d, in, n);                 /* plaintext in lanes 1..n */
    ccm_counters(s, base, c);           /* counters c..c+n-1 in lanes 1..n */
    ccm_put_mac_lane(s, m, d, 1);       /* lane 0: mac + first plaintext block */
    bs_encrypt(ks, s);
    BS_UNROLL
    for (unsigned b = 0; b < 8; b++) {
        m[b] = s[b];                    /* lane 0: the new chaining value */
        s[b] = w_xor(s[b], d[b]);       /* lanes 1..n: ciphertext */
    }
    ccm_store(out, s, n);
    for (unsigned j = 2; j <= n; j++) mac_step(ks, m, d, j);
}

/* Groups of 7 with a constant step, then the 1..6 left (see vg_portable_cbc_mac for why). */
size_t vg_portable_ccm_seal_blocks(const void *sched, uint8_t mac[16], uint8_t counter[16], const uint8_t *in,
                                uint8_t *out, size_t nblocks)
{
    const struct bs_sched *ks = (const struct bs_sched *)sched;
    bs_word m[8], base;
    size_t total = nblocks;
    uint32_t c;
    if (nblocks == 0) return 0;
    mac_load(m, mac);
    base = w_load(counter);
    c = vg_load32_be(counter + 12);
    for (; nblocks >= 7; nblocks -= 7, in += 112, out += 112, c += 7)
        ccm_seal_group(ks, m, base, c, in, out, 7);
    if (nblocks) {
        ccm_seal_group(ks, m, base, c, in, out, (unsigned)nblocks);
        c += (uint32_t)nblocks;
    }
    mac_store(mac, m);
    vg_inc32_add(counter, total); /* c - its start, mod 2^32: the blocks done */
    return total;
}

/* One group of n <= 7 blocks of the open kernel. p holds the previous group's plaintext, of which
   lane *pending (0: none) is not yet in the MAC; it goes into this group's lane 0. */
BS_INLINE void ccm_open_group(const struct bs_sched *ks, bs_word m[8], bs_word p[8], unsigned *pending,
                              bs_word base, uint32_t c, const uint8_t *in, uint8_t *out, unsigned n)
{
    bs_word d[8], s[8];
    ccm_data(d, in, n);                 /* ciphertext in lanes 1..n */
    ccm_counters(s, base, c);
    if (*pending) ccm_put_mac_lane(s, m, p, *pending); /* the previous group's last block */
    bs_encrypt(ks, s);
    BS_UNROLL
    for (unsigned b = 0; b < 8; b++) {
        if (*pending) m[b] = s[b];
        p[b] = w_xor(s[b], d[b]);       /* lanes 1..n: plaintext */
    }
    ccm_store(out, p, n);
    for (unsigned j = 1; j < n; j++) mac_step(ks, m, p, j);
    *pending = n;
}

size_t vg_portable_ccm_open_blocks(const void *sched, uint8_t mac[16], uint8_t counter[16], const uint8_t *in,
                                uint8_t *out, size_t nblocks)
{
    const struct bs_sched *ks = (const struct bs_sched *)sched;
    bs_word m[8], p[8], base;
    unsigned pending = 0; /* lane of p whose plaintext is not yet in the MAC (0: none) */
    size_t total = nblocks;
    uint32_t c;
    if (nblocks == 0) return 0;
    mac_load(m, mac);
    base = w_load(counter);
    c = vg_load32_be(counter + 12);
    BS_UNROLL
    for (unsigned b = 0; b < 8; b++) p[b] = w_zero(); /* read only once pending != 0 */
    for (; nblocks >= 7; nblocks -= 7, in += 112, out += 112, c += 7)
        ccm_open_group(ks, m, p, &pending, base, c, in, out, 7);
    if (nblocks) {
        ccm_open_group(ks, m, p, &pending, base, c, in, out, (unsigned)nblocks);
        c += (uint32_t)nblocks;
    }
    mac_step(ks, m, p, pending);
    mac_store(mac, m);
    vg_inc32_add(counter, total); /* c - its start, mod 2^32: the blocks done */
    return total;
}
