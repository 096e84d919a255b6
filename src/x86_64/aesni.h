/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * aesni.h — the "aesni" implementation's layouts, kernels and inline building blocks.
 *
 * CPU features: AES-NI, PCLMULQDQ, SSSE3 (pshufb), SSE4.1 — see VG_X86_AESNI_NEEDS. Every function
 * carries VG_AESNI_TARGET instead of a global -m flag, so the library still loads and runs (with the
 * portable implementation) on a CPU without them; vg_aesni_impl.available() gates every call.
 * Only 128-bit legacy-SSE encodings are used (no VEX), so Westmere-class CPUs without AVX run it.
 *
 * Files:
 *   aesni_aes.c    key expansion, ECB both ways, CTR32 (inc32, big-endian) and CTR32-LE (RFC 8452)
 *   aesni_ghash.c  GHASH and POLYVAL over one POLYVAL multiplier (the derivation is written there)
 *   aesni_gcm.c    the fused GCM kernels: CTR stitched with GHASH
 *   aesni_ccm.c    CBC-MAC and the fused CCM kernels: the MAC chain stitched with CTR
 *   aesni_impl.c   the vg_impl table
 *
 * Data never passes through host-order integers: blocks are loaded as bytes into XMM registers
 * (x86 is little-endian, so byte i of a block is byte i of the register; that is what the
 * instructions define, not an assumption about the host).
 */
#ifndef VG_X86_64_AESNI_H
#define VG_X86_64_AESNI_H

#include <immintrin.h>
#include <stddef.h>
#include <wmmintrin.h>

#include "x86_64.h"

#define VG_AESNI_TARGET __attribute__((target("aes,pclmul,sse4.1,ssse3")))
#define VG_AESNI_INLINE static inline __attribute__((always_inline)) VG_AESNI_TARGET

/* Pinning a GHASH loop's running sums: an empty asm that takes them in registers and gives them back.
   It changes no value; it stops gcc from reassociating the sums of a stitched loop, which it does by
   computing a whole group's products ahead of the AES rounds and spilling them to the stack (the
   products then no longer spread across the rounds). MemorySanitizer counts an asm's outputs as
   initialised, which would hide the sums' taint from the constant-time check (ct_valgrind under MSan,
   tests/ct_msan.cmake), so under MSan the pins are nothing: the same arithmetic, scheduled by the
   compiler. (valgrind sees machine code, where an empty asm is nothing anyway.) */
#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define VG_X86_NO_PIN 1
#endif
#endif
#ifdef VG_X86_NO_PIN
#define AESNI_PIN3(a, b, c) ((void)0)
#else
#define AESNI_PIN3(a, b, c) __asm__("" : "+x"(a), "+x"(b), "+x"(c))
#endif

/* ---------------------------------------------------------------------------------------------- */
/* Layouts                                                                                          */

/* The AES schedule inside the key's sched[VG_SCHED_SIZE]. Round keys are stored as the 16 bytes
   AddRoundKey XORs into the state (FIPS 197 order), which is exactly what aesenc/aesdec take. */
struct aesni_sched {
    unsigned char enc[15][16]; /* round keys 0..rounds of the Cipher (FIPS 197 §5.2) */
    unsigned char dec[15][16]; /* Equivalent Inverse Cipher (FIPS 197 §5.3.5): dec[0] = enc[rounds],
                                  dec[i] = InvMixColumns(enc[rounds - i]), dec[rounds] = enc[0];
                                  zero when the key was expanded without want_decrypt */
    uint32_t rounds;           /* 10, 12 or 14 (public: it follows from the key length) */
    uint32_t has_decrypt;
};
_Static_assert(offsetof(struct aesni_sched, enc) == 0, "aesni_sched layout");
_Static_assert(offsetof(struct aesni_sched, dec) == 240, "aesni_sched layout");
_Static_assert(offsetof(struct aesni_sched, rounds) == 480, "aesni_sched layout");
_Static_assert(sizeof(struct aesni_sched) <= VG_SCHED_SIZE, "aesni_sched too big for VG_SCHED_SIZE");

/* The GHASH/POLYVAL key inside hkey[VG_HKEY_SIZE]; the same layout for both (see aesni_ghash.c).
   pow[k-1] holds H_k = H • H • ... • H (k factors, • the POLYVAL product a*b*x^-128) as a
   little-endian 128-bit polynomial (bit i = coefficient of x^i); kara[k-1] holds lo64(H_k) ^
   hi64(H_k) in both halves, the Karatsuba middle operand, so it need not be recomputed per block. */
#define AESNI_HPOWERS 8
struct aesni_hkey {
    unsigned char pow[AESNI_HPOWERS][16];
    unsigned char kara[AESNI_HPOWERS][16];
};
_Static_assert(offsetof(struct aesni_hkey, pow) == 0, "aesni_hkey layout");
_Static_assert(offsetof(struct aesni_hkey, kara) == 128, "aesni_hkey layout");
_Static_assert(sizeof(struct aesni_hkey) <= VG_HKEY_SIZE, "aesni_hkey too big for VG_HKEY_SIZE");

/* ---------------------------------------------------------------------------------------------- */
/* Kernels (contracts: struct vg_impl in internal.h)                                               */

int vg_aesni_aes_expand_key(void *sched, const uint8_t *key, size_t key_len, int want_decrypt) VG_INTERNAL;
void vg_aesni_gcm_key_setup(void *sched, void *hkey, const uint8_t *key, size_t key_len) VG_INTERNAL;
void vg_aesni_aes_ecb_encrypt(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;
void vg_aesni_aes_ecb_decrypt(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;
void vg_aesni_aes_ctr32(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                     size_t nblocks) VG_INTERNAL;
void vg_aesni_aes_ctr32_le(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                        size_t nblocks) VG_INTERNAL;
void vg_aesni_ghash_init(void *hkey, const uint8_t h[16]) VG_INTERNAL;
void vg_aesni_ghash_update(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks) VG_INTERNAL;
void vg_aesni_polyval_init(void *hkey, const uint8_t h[16]) VG_INTERNAL;
void vg_aesni_polyval_update(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks) VG_INTERNAL;
void vg_aesni_cbc_mac(const void *sched, uint8_t mac[16], const uint8_t *in, size_t nblocks) VG_INTERNAL;
size_t vg_aesni_gcm_seal_blocks(const void *sched, const void *hkey, uint8_t counter[16], uint8_t acc[16],
                             const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;
size_t vg_aesni_gcm_open_blocks(const void *sched, const void *hkey, uint8_t counter[16], uint8_t acc[16],
                             const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;
void vg_aesni_gcm_seal_short(const void *sched, const void *hkey, const uint8_t nonce[12], const uint8_t *aad,
                          size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16]) VG_INTERNAL;
void vg_aesni_gcm_open_short(const void *sched, const void *hkey, const uint8_t nonce[12], const uint8_t *aad,
                          size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16]) VG_INTERNAL;
size_t vg_aesni_ccm_seal_blocks(const void *sched, uint8_t mac[16], uint8_t counter[16],
                             const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;
size_t vg_aesni_ccm_open_blocks(const void *sched, uint8_t mac[16], uint8_t counter[16],
                             const uint8_t *in, uint8_t *out, size_t nblocks) VG_INTERNAL;

/* ---------------------------------------------------------------------------------------------- */
/* AES building blocks                                                                              */

/* Round keys copied to the stack once per call: 16-byte aligned, so the compiler may use them as
   memory operands of aesenc (legacy-SSE memory operands must be aligned; the schedule itself is
   read with unaligned loads so any placement of sched works). */
struct aesni_round_keys {
    __m128i k[15];
    unsigned rounds;
};

VG_AESNI_INLINE void aesni_load_enc_keys(struct aesni_round_keys *rk, const void *sched)
{
    const struct aesni_sched *s = (const struct aesni_sched *)sched;
    rk->rounds = s->rounds;
    for (unsigned i = 0; i <= rk->rounds; i++) rk->k[i] = _mm_loadu_si128((const __m128i *)s->enc[i]);
}

VG_AESNI_INLINE void aesni_load_dec_keys(struct aesni_round_keys *rk, const void *sched)
{
    const struct aesni_sched *s = (const struct aesni_sched *)sched;
    rk->rounds = s->rounds;
    for (unsigned i = 0; i <= rk->rounds; i++) rk->k[i] = _mm_loadu_si128((const __m128i *)s->dec[i]);
}

/* Encrypts n blocks (n a compile-time constant after inlining: 8, 4, 2 or 1) side by side: the
   round loop is outermost so the n independent aesenc of a round issue back to back and hide each
   other's latency (aesenc: latency 3-4 cycles, 1-2 per cycle; 8 in flight fill the pipe). */
VG_AESNI_INLINE void aesni_encrypt_n(const struct aesni_round_keys *rk, __m128i *b, int n)
{
    for (int i = 0; i < n; i++) b[i] = _mm_xor_si128(b[i], rk->k[0]);
    for (unsigned r = 1; r < rk->rounds; r++) {
        __m128i k = rk->k[r];
        for (int i = 0; i < n; i++) b[i] = _mm_aesenc_si128(b[i], k);
    }
    for (int i = 0; i < n; i++) b[i] = _mm_aesenclast_si128(b[i], rk->k[rk->rounds]);
}

/* The same for the Equivalent Inverse Cipher with dec keys. */
VG_AESNI_INLINE void aesni_decrypt_n(const struct aesni_round_keys *rk, __m128i *b, int n)
{
    for (int i = 0; i < n; i++) b[i] = _mm_xor_si128(b[i], rk->k[0]);
    for (unsigned r = 1; r < rk->rounds; r++) {
        __m128i k = rk->k[r];
        for (int i = 0; i < n; i++) b[i] = _mm_aesdec_si128(b[i], k);
    }
    for (int i = 0; i < n; i++) b[i] = _mm_aesdeclast_si128(b[i], rk->k[rk->rounds]);
}

/* Counters. An inc32 counter block (SP 800-38D: + 1 mod 2^32 on the last four bytes, big-endian)
   is kept "half swapped": pshufb with AESNI_SWAP_LAST_WORD reverses bytes 12..15 only, so dword 3
   of the register holds the counter as a number and paddd on that lane alone is inc32 (it wraps
   mod 2^32 and never carries into the first 96 bits). The same shuffle turns it back into a block.
   RFC 8452's counter is little-endian in bytes 0..3: dword 0 already holds it, no shuffle needed. */
VG_AESNI_INLINE __m128i aesni_swap_last_word_mask(void)
{
    return _mm_set_epi8(12, 13, 14, 15, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
}

/* ---------------------------------------------------------------------------------------------- */
/* GF(2^128) building blocks (the maths is in aesni_ghash.c)                                       */

VG_AESNI_INLINE __m128i aesni_byte_reverse_mask(void)
{
    return _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

/* Three unreduced 256-bit partial sums of Karatsuba products: sum a*b is
   hi * x^128 + (mid ^ lo ^ hi) * x^64 + lo, where over all products summed
     lo  = sum a0*b0,  hi = sum a1*b1,  mid = sum (a0^a1)*(b0^b1)
   (a = a1 x^64 + a0). Summing unreduced products and reducing once is right because reduction
   mod P is linear. */
struct aesni_gf_sum {
    __m128i lo, hi, mid;
};

VG_AESNI_INLINE void aesni_gf_sum_zero(struct aesni_gf_sum *s)
{
    s->lo = _mm_setzero_si128();
    s->hi = _mm_setzero_si128();
    s->mid = _mm_setzero_si128();
}

/* The powers as registers / aligned stack copies (copied once per call, like the round keys, so
   that pclmulqdq may take them as aligned memory operands). */
struct aesni_hpowers {
    __m128i pow[AESNI_HPOWERS];  /* H_1..H_8 */
    __m128i kara[AESNI_HPOWERS]; /* lo64 ^ hi64 of each, in both halves */
};

VG_AESNI_INLINE void aesni_load_hpowers(struct aesni_hpowers *hp, const void *hkey)
{
    const struct aesni_hkey *hk = (const struct aesni_hkey *)hkey;
    for (int i = 0; i < AESNI_HPOWERS; i++) {
        hp->pow[i] = _mm_loadu_si128((const __m128i *)hk->pow[i]);
        hp->kara[i] = _mm_loadu_si128((const __m128i *)hk->kara[i]);
    }
}

/* s += x * h, with hmid = (h0 ^ h1) in the low half (Karatsuba: three pclmulqdq instead of four). */
VG_AESNI_INLINE void aesni_gf_mul_add(struct aesni_gf_sum *s, __m128i x, __m128i h, __m128i hmid)
{
    /* x_lo ^ x_hi in the low half: x ^ (x with halves swapped) */
    __m128i xmid = _mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e));
    s->lo = _mm_xor_si128(s->lo, _mm_clmulepi64_si128(x, h, 0x00));          /* x0 * h0 */
    s->hi = _mm_xor_si128(s->hi, _mm_clmulepi64_si128(x, h, 0x11));          /* x1 * h1 */
    s->mid = _mm_xor_si128(s->mid, _mm_clmulepi64_si128(xmid, hmid, 0x00));  /* (x0^x1)(h0^h1) */
}

/* (t1 x^128 + t0) * x^-128 mod P, P = x^128 + x^127 + x^126 + x^121 + 1, for a 256-bit product whose
   Karatsuba parts are already recombined (t0 the low 128 bits, t1 the high ones). Derivation in
   aesni_ghash.c ("Montgomery reduction"). l0 is any register whose low qword is t0's: fold 1 reads
   only that qword, and passing the product it came from (lo, whose low qword the x^64 middle term
   leaves alone) lets the first pclmulqdq issue while the recombination is still running, a few
   cycles off every reduction's latency. */
VG_AESNI_INLINE __m128i aesni_gf_fold(__m128i t0, __m128i t1, __m128i l0)
{
    /* c = x^63 + x^62 + x^57 in the high half: (x^121 + x^126 + x^127) = c * x^64. */
    const __m128i poly = _mm_set_epi64x((long long)0xc200000000000000ULL, 0);
    /* Fold 1: kill bits 0..63 (L0) by adding L0 * P. L0 * 1 cancels them; L0 * c lands at x^64
       (a 128-bit product t), L0 * x^128 lands at bits 128..191. Swapping t0's halves moves L1 to
       the x^64 slot (lo) and L0 to the x^128 slot (hi), positions relative to x^64. */
    __m128i t = _mm_clmulepi64_si128(l0, poly, 0x10);                 /* L0 * c */
    t0 = _mm_xor_si128(_mm_shuffle_epi32(t0, 0x4e), t);              /* (L1 ^ t.lo, L0 ^ t.hi) @ x^64 */
    /* Fold 2: the same with M1 = t0.lo (bits 64..127): M1 * x^64 * P adds M1 * c at x^128 and
       M1 at x^192, and clears bits 64..127. What is left is all at or above x^128: the result. */
    t = _mm_clmulepi64_si128(t0, poly, 0x10);                         /* M1 * c, at x^128 */
    t0 = _mm_xor_si128(_mm_shuffle_epi32(t0, 0x4e), t);              /* (t0.hi ^ t.lo, M1 ^ t.hi) */
    return _mm_xor_si128(t1, t0);
}

/* Returns (sum) * x^-128 mod P: the POLYVAL product of the accumulated terms. */
VG_AESNI_INLINE __m128i aesni_gf_reduce(const struct aesni_gf_sum *s)
{
    /* Karatsuba recombination: middle coefficient block m = mid ^ lo ^ hi sits at x^64; split it
       between the low 128 bits (T0) and the high 128 bits (T1) of the 256-bit product. */
    __m128i m = _mm_xor_si128(s->mid, _mm_xor_si128(s->lo, s->hi));
    __m128i t0 = _mm_xor_si128(s->lo, _mm_slli_si128(m, 8));
    __m128i t1 = _mm_xor_si128(s->hi, _mm_srli_si128(m, 8));
    return aesni_gf_fold(t0, t1, s->lo);
}

/* acc (register form) after n <= 8 more blocks at in, with one reduction (aesni_ghash.c, section
   3). reverse = 1 for GHASH (blocks byte-reversed into POLYVAL form), 0 for POLYVAL. */
VG_AESNI_INLINE __m128i aesni_gf_hash_n(const struct aesni_hpowers *hp, __m128i acc, const uint8_t *in,
                                        int n, int reverse)
{
    struct aesni_gf_sum s;
    aesni_gf_sum_zero(&s);
    /* X_j * H_(n-j) for j = 1..n-1, then j = 0: the one product that waits for acc comes last. */
    for (int i = 1; i <= n; i++) {
        int j = i == n ? 0 : i;
        __m128i x = _mm_loadu_si128((const __m128i *)(in + 16 * j));
        if (reverse) x = _mm_shuffle_epi8(x, aesni_byte_reverse_mask());
        if (j == 0) x = _mm_xor_si128(x, acc);
        aesni_gf_mul_add(&s, x, hp->pow[n - j - 1], hp->kara[n - j - 1]);
    }
    return aesni_gf_reduce(&s);
}

/* ---------------------------------------------------------------------------------------------- */
/* Key expansion (FIPS 197 §5.2)                                                                    */
/*
 * SubWord without aeskeygenassist: aesenclast(s, k) = SubBytes(ShiftRows(s)) ^ k. If all four
 * 32-bit columns of s are the same word w, ShiftRows (which moves bytes between columns within a row)
 * changes nothing, so the result is SubWord(w) in every column, XORed with k. We broadcast the word
 * (rotated when RotWord is wanted) with one pshufb and pass Rcon, broadcast, as k: the whole
 * "temp = SubWord(RotWord(w)) ^ Rcon" of FIPS 197 in one instruction, in every column at once.
 *
 * The next four words w[i..i+3] = w[i-Nk..i-Nk+3] ^ prefix-XORs: w[i] = w[i-Nk] ^ temp,
 * w[i+1] = w[i+1-Nk] ^ w[i] = w[i+1-Nk] ^ w[i-Nk] ^ temp, ... so new = prefix_xor(old) ^ temp in every
 * column, with prefix_xor(v)[j] = v[0] ^ ... ^ v[j].
 */

static const uint8_t aesni_rcon[10] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36};

VG_AESNI_INLINE __m128i aesni_prefix_xor(__m128i v)
{
    v = _mm_xor_si128(v, _mm_slli_si128(v, 4)); /* (v0, v0^v1, v1^v2, v2^v3) */
    return _mm_xor_si128(v, _mm_slli_si128(v, 8)); /* (v0, v0^v1, v0^v1^v2, v0^..^v3) */
}

/* Word w of v, rotated r bytes (RotWord applied r times: byte b of the result is byte (b + r) mod 4
   of the word), in every column. r and w are constants after inlining: one pshufb. */
VG_AESNI_INLINE __m128i aesni_bcast_word_rot(__m128i v, int w, int r)
{
#define VG_BYTE(b) (char)(4 * w + (((b) + r) & 3))
    return _mm_shuffle_epi8(v, _mm_setr_epi8(VG_BYTE(0), VG_BYTE(1), VG_BYTE(2), VG_BYTE(3), VG_BYTE(0),
                                             VG_BYTE(1), VG_BYTE(2), VG_BYTE(3), VG_BYTE(0), VG_BYTE(1),
                                             VG_BYTE(2), VG_BYTE(3), VG_BYTE(0), VG_BYTE(1), VG_BYTE(2),
                                             VG_BYTE(3)));
#undef VG_BYTE
}

/* SubWord(RotWord(word w of v)) ^ rc in every column. */
VG_AESNI_INLINE __m128i aesni_sub_rot_word(__m128i v, int w, uint8_t rc)
{
    return _mm_aesenclast_si128(aesni_bcast_word_rot(v, w, 1), _mm_set1_epi32(rc));
}

/* SubWord(word 3 of v) in every column (AES-256's extra step, no rotation, no Rcon). */
VG_AESNI_INLINE __m128i aesni_sub_word3(__m128i v)
{
    return _mm_aesenclast_si128(_mm_shuffle_epi32(v, 0xff), _mm_setzero_si128());
}

/* rot^r of (x0 ^ x1 ^ x2 ^ x3), the XOR of v's four words, in every column. */
VG_AESNI_INLINE __m128i aesni_bcast_xorall_rot(__m128i v, int r)
{
    return _mm_xor_si128(_mm_xor_si128(aesni_bcast_word_rot(v, 0, r), aesni_bcast_word_rot(v, 1, r)),
                         _mm_xor_si128(aesni_bcast_word_rot(v, 2, r), aesni_bcast_word_rot(v, 3, r)));
}

/* rot^r of (x1 ^ x3) in every column: the XOR of the four words of prefix_xor(x) ^ (t, t, t, t),
   i.e. of the next round key's words, for any broadcast t (x0 appears in four prefixes, x1 in three,
   x2 in two, x3 in one; four equal words cancel). */
VG_AESNI_INLINE __m128i aesni_bcast_next_xorall_rot(__m128i x, int r)
{
    return _mm_xor_si128(aesni_bcast_word_rot(x, 1, r), aesni_bcast_word_rot(x, 3, r));
}

/* The aesenclast key that adds rot^g([rc, 0, 0, 0]) to every column: rc lands in byte (4 - g) mod 4. */
VG_AESNI_INLINE __m128i aesni_rcon_rot(uint8_t rc, int g)
{
    return _mm_set1_epi32((int)((uint32_t)rc << (8 * ((4 - g) & 3))));
}

/* The expansion as a latency chain, into registers, with H = E_K(0^128) beside it (round r of the
   zero block as soon as round key r exists): GCM's key set-up, where the H powers wait for H.

   AES-128: with t_i = SubWord(RotWord(k_i[3])) ^ Rcon_i, k_(i+1) = prefix_xor(k_i) ^ (t_i, t_i, t_i, t_i),
   so k_(i+1)[3] = w_i ^ t_i with w_i = k_i[0] ^ .. ^ k_i[3]. The next aesenclast input is rot(that
   word) broadcast, and aesenclast(x, key) = SubBytes(ShiftRows(x)) ^ key adds its key AFTER the
   S-box: so step i's aesenclast takes Rcon_i ^ w_i as its key and outputs the next step's input
   directly. The chain is the ten aesenclast alone, 4 cycles each on Zen 5 (before: an XOR between
   them, 6), and t_i = output ^ w_i leaves it. w_i must be ready a step early, and it is, from words
   known three steps back: the schedule's w[n] = w[n-1] ^ w[n-4] gives k_j[1] ^ k_j[2] = k_(j-1)[2]
   and k_j[2] ^ k_j[3] = k_(j-1)[3], and the XOR of the words of prefix_xor(x) ^ (t, t, t, t) is
   x1 ^ x3 (x0 appears in four prefixes, x1 in three, x2 in two, x3 in one; four equal t cancel), so
       w_i = k_(i-1)[1] ^ k_(i-1)[3] = k_(i-2)[2] ^ k_(i-2)[3] = k_(i-3)[3]
   (w_0 .. w_2 from the key's own words). The rotation stays off the chain by keeping t in rotated
   form: step i makes rot^g(t_i), g = (9 - i) mod 4, so its output rot^g(w_i ^ t_i) is the
   rot^(g_(i+1) + 1) form step i + 1 wants (SubBytes commutes with a byte rotation; Rcon and w are
   rotated with the word: aesni_rcon_rot, aesni_bcast_word_rot). The last step's form is 0.
   The round keys come off the chain two steps back, so they keep pace with it: prefix_xor applied
   twice is x ^ (x << 64), and prefix_xor of a broadcast (t, t, t, t) is (t, 0, t, 0), so
   k_(i+1) = k_(i-1) ^ (k_(i-1) << 64) ^ (t_(i-1), 0, t_(i-1), 0) ^ (t_i, t_i, t_i, t_i).

   It costs about twice the instructions of the plain loop (aesni_expand_key's), which is why that
   one stays for the expansion alone (and GCM-SIV's per-message key, vaes_siv.h): back-to-back
   expansions overlap in the core and are bound by instruction throughput, measured 0.5-1 ns slower
   with this chain, while a GCM key set-up (the powers wait for H) is bound by the chain. */
VG_AESNI_INLINE __m128i aesni_expand128_chain(__m128i k[11], __m128i key, uint8_t (*out)[16])
{
    __m128i h = key; /* E(0): round 0 of the zero block is the key */
    const __m128i even = _mm_setr_epi32(-1, 0, -1, 0);
    k[0] = key;
    _mm_storeu_si128((__m128i *)out[0], key);
    __m128i x = aesni_bcast_word_rot(key, 3, (9 + 1) & 3); /* input of step 0 (g = 1) */
    __m128i tprev = _mm_setzero_si128();
    _Pragma("GCC unroll 10")
    for (int i = 0; i < 10; i++) {
        const int g = (9 - i) & 3;
        __m128i t;
        if (i < 9) {
            /* w = rot^g(k_i[0] ^ .. ^ k_i[3]) broadcast, from words known steps ahead (above) */
            __m128i w = i == 0   ? aesni_bcast_xorall_rot(key, g)
                        : i == 1 ? aesni_bcast_next_xorall_rot(key, g)
                        : i == 2 ? _mm_xor_si128(aesni_bcast_word_rot(key, 2, g), aesni_bcast_word_rot(key, 3, g))
                                 : aesni_bcast_word_rot(k[i - 3], 3, g);
            /* the next step's input straight out of aesenclast: w rides in its key */
            __m128i xn = _mm_aesenclast_si128(x, _mm_xor_si128(aesni_rcon_rot(aesni_rcon[i], g), w));
            t = _mm_xor_si128(xn, w); /* rot^g(t_i) */
            x = xn;
        } else {
            t = _mm_aesenclast_si128(x, aesni_rcon_rot(aesni_rcon[i], g)); /* g = 0 */
        }
        __m128i tb = g ? aesni_bcast_word_rot(t, 0, 4 - g) : t; /* (t_i, t_i, t_i, t_i) */
        if (i == 0)
            k[1] = _mm_xor_si128(aesni_prefix_xor(key), tb);
        else
            k[i + 1] = _mm_xor_si128(_mm_xor_si128(_mm_xor_si128(k[i - 1], _mm_slli_si128(k[i - 1], 8)),
                                                   _mm_and_si128(tprev, even)),
                                     tb);
        tprev = tb;
        _mm_storeu_si128((__m128i *)out[i + 1], k[i + 1]);
        h = i < 9 ? _mm_aesenc_si128(h, k[i + 1]) : _mm_aesenclast_si128(h, k[i + 1]);
    }
    return h;
}

/* AES-256 the same way: a = w[8j..8j+3], b = w[8j+4..8j+7]; a' = prefix_xor(a) ^ T with
   t = SubWord(RotWord(b[3])) ^ Rcon, b' = prefix_xor(b) ^ S with s = SubWord(a'[3]) (FIPS 197: i mod
   Nk = 4 when Nk > 6). The chain is the thirteen aesenclast alone, back to back: a'[3] = (a[0] ^ .. ^
   a[3]) ^ t and b'[3] = (b[0] ^ .. ^ b[3]) ^ s, and each XOR of all four words rides in the key of the
   aesenclast before (as in aesni_expand128_chain), taken from the half two pairs back.
   Pair j works in form g = (7 - j) mod 4 (t and s both rot^g; t's input is rot^(g+1), s's rot^g),
   which is the form the next t's input needs; the last t is in form 0. Each half's prefix_xor has a
   whole pair of steps to finish, so the round keys keep pace without the two-back form. */
VG_AESNI_INLINE __m128i aesni_expand256_chain(__m128i k[15], __m128i lo, __m128i hi, uint8_t (*out)[16])
{
    __m128i h = _mm_aesenc_si128(lo, hi); /* E(0), rounds 0 and 1 */
    __m128i a = lo, b = hi;
    k[0] = lo;
    k[1] = hi;
    _mm_storeu_si128((__m128i *)out[0], lo);
    _mm_storeu_si128((__m128i *)out[1], hi);
    __m128i x = aesni_bcast_word_rot(b, 3, (6 + 1) & 3); /* t_1's input (g = 2) */
    __m128i wa = aesni_bcast_xorall_rot(a, 6 & 3);       /* rot^g(xorall(a)) for s_1 */
    __m128i wb = aesni_bcast_xorall_rot(b, 6 & 3);       /* rot^g(xorall(b)) for t_2's input */
    __m128i ap = a, bp = b;                              /* the halves a pair back */
    _Pragma("GCC unroll 7")
    for (int j = 1; j <= 7; j++) {
        const int g = (7 - j) & 3;
        __m128i t, u = _mm_setzero_si128();
        if (j < 7) {
            /* fused as in aesni_expand128_chain: each aesenclast's key carries the XOR that made the
               next one's input, so its output is that input: y = rot^g(t ^ xorall(a)), then x */
            __m128i y = _mm_aesenclast_si128(x, _mm_xor_si128(aesni_rcon_rot(aesni_rcon[j - 1], g), wa));
            t = _mm_xor_si128(y, wa);                                                  /* rot^g(t) */
            __m128i xn = _mm_aesenclast_si128(y, wb);                                 /* rot^g of bcast b'[3] */
            u = _mm_xor_si128(xn, wb);                                                 /* rot^g(s) */
            x = xn;
        } else {
            t = _mm_aesenclast_si128(x, aesni_rcon_rot(aesni_rcon[j - 1], g));
        }
        __m128i tb = g ? aesni_bcast_word_rot(t, 0, 4 - g) : t;
        __m128i a2 = _mm_xor_si128(aesni_prefix_xor(a), tb);
        k[2 * j] = a2;
        _mm_storeu_si128((__m128i *)out[2 * j], a2);
        if (j == 7) {
            h = _mm_aesenclast_si128(h, a2);
            break;
        }
        h = _mm_aesenc_si128(h, a2);
        __m128i ub = g ? aesni_bcast_word_rot(u, 0, 4 - g) : u;
        __m128i b2 = _mm_xor_si128(aesni_prefix_xor(b), ub);
        k[2 * j + 1] = b2;
        _mm_storeu_si128((__m128i *)out[2 * j + 1], b2);
        h = _mm_aesenc_si128(h, b2);
        /* for pair j + 1 (form g - 1): xorall(a') = a[1] ^ a[3] = (a before a)[2] ^ (a before a)[3],
           likewise for b (w[n] ^ w[n-1] = w[n-8] inside a half), words known a pair early */
        const int r = (6 - j) & 3;
        wa = j == 1 ? aesni_bcast_next_xorall_rot(a, r)
                    : _mm_xor_si128(aesni_bcast_word_rot(ap, 2, r), aesni_bcast_word_rot(ap, 3, r));
        wb = j == 1 ? aesni_bcast_next_xorall_rot(b, r)
                    : _mm_xor_si128(aesni_bcast_word_rot(bp, 2, r), aesni_bcast_word_rot(bp, 3, r));
        ap = a;
        bp = b;
        a = a2;
        b = b2;
    }
    return h;
}

/* The expansion; with want_h (a constant after inlining), also H = E_K(0^128) for GCM, each round of
   it as soon as its round key exists (round r needs round key r only), so H is ready one aesenclast
   after the last round key; with want_h the 16- and 32-byte keys take the latency chains above. */
VG_AESNI_INLINE __m128i aesni_expand_key(void *sched, const uint8_t *key, size_t key_len, int want_decrypt, int want_h)
{
    struct aesni_sched *s = (struct aesni_sched *)sched;
    unsigned rounds = (unsigned)(key_len / 4 + 6);
    /* The rows this key does not use are zeroed so no earlier key's round keys stay behind: rows 11..14
       of enc and dec first (the expansion below overwrites those it uses), and all of dec unless it is
       computed. Explicit sixteen-byte stores at constant rows rather than a memset or a loop: gcc
       turns both into `rep stos`, whose start-up alone was a quarter of the expansion's time. */
    const __m128i zero = _mm_setzero_si128();
#define ZERO_ROW(rows, i) _mm_storeu_si128((__m128i *)(void *)(rows)[i], zero)
    ZERO_ROW(s->enc, 11); ZERO_ROW(s->enc, 12); ZERO_ROW(s->enc, 13); ZERO_ROW(s->enc, 14);
    ZERO_ROW(s->dec, 11); ZERO_ROW(s->dec, 12); ZERO_ROW(s->dec, 13); ZERO_ROW(s->dec, 14);
    if (!want_decrypt) {
        ZERO_ROW(s->dec, 0); ZERO_ROW(s->dec, 1); ZERO_ROW(s->dec, 2); ZERO_ROW(s->dec, 3); ZERO_ROW(s->dec, 4);
        ZERO_ROW(s->dec, 5); ZERO_ROW(s->dec, 6); ZERO_ROW(s->dec, 7); ZERO_ROW(s->dec, 8); ZERO_ROW(s->dec, 9);
        ZERO_ROW(s->dec, 10);
    }
#undef ZERO_ROW
    s->rounds = rounds;
    s->has_decrypt = 0;
    __m128i h = _mm_setzero_si128(); /* E(0): the all-zero block, then each round as its key appears */
    int dec_done = 0; /* the 16- and 32-byte plain expansions make the decryption keys as they go */
    if (want_h && key_len == 16) {
        __m128i k[11];
        h = aesni_expand128_chain(k, _mm_loadu_si128((const __m128i *)key), s->enc);
    } else if (want_h && key_len == 32) {
        __m128i k[15];
        h = aesni_expand256_chain(k, _mm_loadu_si128((const __m128i *)key),
                                  _mm_loadu_si128((const __m128i *)(key + 16)), s->enc);
    } else if (key_len == 16) {
        /* the decryption keys as each round key comes out, from the register: dec[10 - r] =
           InvMixColumns(enc[r]) for r = 1..9 (FIPS 197 §5.3.5), the ends as they are. Made after the
           loop from the stored rows, they were loads and a tail of aesimc behind the last round key,
           and the expansion took 31 ns to ipsec-mb's 19 (docs/speed.md). */
        __m128i k = _mm_loadu_si128((const __m128i *)key);
        _mm_storeu_si128((__m128i *)s->enc[0], k);
        if (want_decrypt) _mm_storeu_si128((__m128i *)s->dec[10], k);
        for (int i = 0; i < 10; i++) {
            k = _mm_xor_si128(aesni_prefix_xor(k), aesni_sub_rot_word(k, 3, aesni_rcon[i]));
            _mm_storeu_si128((__m128i *)s->enc[i + 1], k);
            if (want_decrypt) _mm_storeu_si128((__m128i *)s->dec[9 - i], i < 9 ? _mm_aesimc_si128(k) : k);
        }
        dec_done = 1;
    } else if (key_len == 24) {
        /* Nk = 6: a = w[6j..6j+3], b = w[6j+4..6j+5] (low half). One step makes 6 words:
           a' = prefix_xor(a) ^ SubWord(RotWord(w[6j+5])) ^ Rcon, and b' = prefix_xor(b) ^ a'[3]
           (w[6j+10] = w[6j+4] ^ w[6j+9], w[6j+11] = w[6j+5] ^ w[6j+10]). Words are written in
           order as a flat array: 52 are needed, 8 steps write 54 (the two extra are in the unused
           bytes 208..215 of enc[] and are cleared afterwards). */
        uint8_t *w = (uint8_t *)&s->enc; /* the 15 rows as one byte array */
        __m128i a = _mm_loadu_si128((const __m128i *)key);
        __m128i b = _mm_loadl_epi64((const __m128i *)(key + 16));
        _mm_storeu_si128((__m128i *)w, a);
        _mm_storel_epi64((__m128i *)(w + 16), b);
        for (int j = 1; j <= 8; j++) {
            a = _mm_xor_si128(aesni_prefix_xor(a), aesni_sub_rot_word(b, 1, aesni_rcon[j - 1]));
            b = _mm_xor_si128(_mm_xor_si128(b, _mm_slli_si128(b, 4)), _mm_shuffle_epi32(a, 0xff));
            _mm_storeu_si128((__m128i *)(w + 24 * j), a);
            _mm_storel_epi64((__m128i *)(w + 24 * j + 16), b);
        }
        memset(w + 208, 0, 8);
        if (want_h) {
            /* round keys at 24-byte steps do not come out one per step: E(0) from the stored rows */
            h = _mm_loadu_si128((const __m128i *)s->enc[0]);
            for (int r = 1; r < 12; r++) h = _mm_aesenc_si128(h, _mm_loadu_si128((const __m128i *)s->enc[r]));
            h = _mm_aesenclast_si128(h, _mm_loadu_si128((const __m128i *)s->enc[12]));
        }
    } else {
        /* Nk = 8: a = w[8j..8j+3], b = w[8j+4..8j+7]; a' uses SubWord(RotWord(b[3])) ^ Rcon and
           b' uses SubWord(a'[3]) (FIPS 197: i mod Nk = 4 when Nk > 6). */
        __m128i a = _mm_loadu_si128((const __m128i *)key);
        __m128i b = _mm_loadu_si128((const __m128i *)(key + 16));
        _mm_storeu_si128((__m128i *)s->enc[0], a);
        _mm_storeu_si128((__m128i *)s->enc[1], b);
        if (want_decrypt) {
            /* as AES-128's: dec[14 - r] = InvMixColumns(enc[r]) for r = 1..13 */
            _mm_storeu_si128((__m128i *)s->dec[14], a);
            _mm_storeu_si128((__m128i *)s->dec[13], _mm_aesimc_si128(b));
        }
        for (int j = 1; j <= 7; j++) {
            a = _mm_xor_si128(aesni_prefix_xor(a), aesni_sub_rot_word(b, 3, aesni_rcon[j - 1]));
            _mm_storeu_si128((__m128i *)s->enc[2 * j], a);
            if (j == 7) {
                if (want_decrypt) _mm_storeu_si128((__m128i *)s->dec[0], a);
                break;
            }
            if (want_decrypt) _mm_storeu_si128((__m128i *)s->dec[14 - 2 * j], _mm_aesimc_si128(a));
            b = _mm_xor_si128(aesni_prefix_xor(b), aesni_sub_word3(a));
            _mm_storeu_si128((__m128i *)s->enc[2 * j + 1], b);
            if (want_decrypt) _mm_storeu_si128((__m128i *)s->dec[13 - 2 * j], _mm_aesimc_si128(b));
        }
        dec_done = 1;
    }
    if (want_decrypt) s->has_decrypt = 1;
    if (want_decrypt && !dec_done) {
        _mm_storeu_si128((__m128i *)s->dec[0], _mm_loadu_si128((const __m128i *)s->enc[rounds]));
        for (unsigned i = 1; i < rounds; i++)
            _mm_storeu_si128((__m128i *)s->dec[i],
                             _mm_aesimc_si128(_mm_loadu_si128((const __m128i *)s->enc[rounds - i])));
        _mm_storeu_si128((__m128i *)s->dec[rounds], _mm_loadu_si128((const __m128i *)s->enc[0]));
    }
    return h;
}

#endif /* VG_X86_64_AESNI_H */
