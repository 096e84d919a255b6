/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * vaes_body.h — the body of the "vaes512" and "vaes256" implementations, written once over the vector
 * width (as the Linux kernel's aes-gcm-vaes-avx512.S does with a macro parameter): vaes512.c includes
 * it with 512-bit zmm operations (4 blocks per register), vaes256.c with 256-bit ymm operations (2
 * blocks per register). Not a standalone header: the including file defines
 *
 *   VV_TARGET           the function attribute with the CPU features (see each .c file)
 *   vv_t                the vector type;  VV_LANES  16-byte blocks per vector (4 or 2)
 *   VV_NVEC             vectors in flight in the bulk loops (the group is VV_NVEC * VV_LANES blocks)
 *   VV_NAME(x)          the name prefix (vaes512_x or vaes256_x)
 *   vv_*                the lane-wise operations used below (load/store, xor, aesenc, clmul, ...)
 *
 * Every vector instruction used is "lane-wise": VAES and VPCLMULQDQ on a ymm/zmm register do the
 * 128-bit instruction independently in each 128-bit lane, and vpshufb shuffles within each lane. So a
 * register holds VV_LANES independent blocks, and everything aesni.h explains for one block holds per
 * lane.
 *
 * Register use in the bulk loops: VV_NVEC AES states (the group's counter blocks), the round keys
 * broadcast to every lane (15 registers for zmm: AVX-512 has 32, the rest become memory operands;
 * ymm takes them all from aligned stack memory), the three unreduced GHASH sums lo/hi/mid, the vector
 * being hashed and its (x0 ^ x1) half; the group's H powers and their Karatsuba halves are computed
 * once per call (struct group_powers) and read as memory operands.
 *
 * Constant time: no branch and no address depends on data. The only branches are on lengths (the
 * number of groups, the tail's size), and the tail's masked loads and stores take their mask from the
 * length. Checked by MemorySanitizer (tests/ct_msan.cmake), since valgrind cannot run these
 * instructions.
 *
 * What is shared with aesni (the key schedule, CBC-MAC and the CCM kernels): the CBC-MAC chain is
 * serial, one block at a time, so wider registers cannot help it; key expansion is 10-14 dependent
 * steps on one block. The aesni functions are pointed to by the tables.
 */

/* ---------------------------------------------------------------------------------------------- */
/* Layout of the GHASH/POLYVAL key                                                                  */

#define VV_GROUP (VV_NVEC * VV_LANES)
/* desc[i] = H_(GROUP - i) for i < GROUP (H_k = k-th POLYVAL power, aesni.h), so that block b of a
   batch of r <= GROUP blocks, multiplied by H_(r - b), finds its power at desc[GROUP - r + b]: the
   powers of VV_LANES consecutive blocks are one unaligned vector load. desc[GROUP..GROUP+3] stay zero:
   the last, partial vector of a short batch reads up to VV_LANES - 1 entries past H_1 (its data lanes
   there are zero, so these products vanish anyway). */
struct VV_NAME(hkey) {
    unsigned char desc[VV_GROUP + 4][16];
};
_Static_assert(VV_NVEC >= 1 && VV_NVEC <= 8, "VV_TAIL and the stitched rounds handle 1..8 vectors");
_Static_assert(sizeof(struct VV_NAME(hkey)) <= VG_HKEY_SIZE, "vaes hkey too big for VG_HKEY_SIZE");

#define VV_INLINE static inline __attribute__((always_inline)) VV_TARGET
/* The loops over the VV_NVEC vectors of a group must be unrolled so the states stay in registers:
   gcc does that at -O3 but not always at -O2 (measured: the fused GCM kernel 2.3 times slower in a
   -O2 build without this). clang honours the same pragma. */
#define VV_UNROLL _Pragma("GCC unroll 8")

/* ---------------------------------------------------------------------------------------------- */
/* AES                                                                                              */

struct VV_NAME(round_keys) {
    vv_t k[15]; /* round key r in every lane */
    unsigned rounds;
};

VV_INLINE void VV_NAME(load_keys)(struct VV_NAME(round_keys) *rk, const void *sched, int decrypt)
{
    const struct aesni_sched *s = (const struct aesni_sched *)sched;
    rk->rounds = s->rounds;
    for (unsigned i = 0; i <= rk->rounds; i++)
        rk->k[i] = vv_bcast128(_mm_loadu_si128((const __m128i *)(decrypt ? s->dec[i] : s->enc[i])));
}

/* Round key r of an encryption schedule in every lane. */
VV_INLINE vv_t VV_NAME(sched_key)(const struct aesni_sched *s, unsigned r)
{
    return vv_bcast128(_mm_loadu_si128((const __m128i *)s->enc[r]));
}

/* n (a constant after inlining, 1..VV_NVEC) vectors through rounds 1.. of the cipher (round key 0
   already added), round loop outermost so the n independent vaesenc of a round issue back to back
   (latency 3-5 cycles, 1-2 per cycle). */
VV_INLINE void VV_NAME(encrypt_rounds)(const struct VV_NAME(round_keys) *rk, vv_t *b, int n)
{
    for (unsigned r = 1; r < rk->rounds; r++) {
        vv_t k = rk->k[r];
        VV_UNROLL
        for (int i = 0; i < n; i++) b[i] = vv_aesenc(b[i], k);
    }
    VV_UNROLL
    for (int i = 0; i < n; i++) b[i] = vv_aesenclast(b[i], rk->k[rk->rounds]);
}

/* The same from the start: round key 0, then encrypt_rounds. */
VV_INLINE void VV_NAME(encrypt_n)(const struct VV_NAME(round_keys) *rk, vv_t *b, int n)
{
    VV_UNROLL
    for (int i = 0; i < n; i++) b[i] = vv_xor(b[i], rk->k[0]);
    VV_NAME(encrypt_rounds)(rk, b, n);
}

VV_INLINE void VV_NAME(decrypt_n)(const struct VV_NAME(round_keys) *rk, vv_t *b, int n)
{
    VV_UNROLL
    for (int i = 0; i < n; i++) b[i] = vv_xor(b[i], rk->k[0]);
    for (unsigned r = 1; r < rk->rounds; r++) {
        vv_t k = rk->k[r];
        VV_UNROLL
        for (int i = 0; i < n; i++) b[i] = vv_aesdec(b[i], k);
    }
    VV_UNROLL
    for (int i = 0; i < n; i++) b[i] = vv_aesdeclast(b[i], rk->k[rk->rounds]);
}

/* Vector i of a batch of n vectors whose last holds `last` (1..VV_LANES) blocks: full loads except
   the last, which loads only its blocks (zeros in the other lanes) and never reads past them. */
VV_INLINE vv_t VV_NAME(load_i)(const uint8_t *p, int i, int n, int last)
{
    if (i == n - 1 && last != VV_LANES) return vv_load_partial(p + 16 * VV_LANES * i, last);
    return vv_loadu(p + 16 * VV_LANES * i);
}

VV_INLINE void VV_NAME(store_i)(uint8_t *p, vv_t v, int i, int n, int last)
{
    if (i == n - 1 && last != VV_LANES)
        vv_store_partial(p + 16 * VV_LANES * i, v, last);
    else
        vv_storeu(p + 16 * VV_LANES * i, v);
}

VV_INLINE void VV_NAME(ecb_n)(const struct VV_NAME(round_keys) *rk, const uint8_t *in, uint8_t *out,
                              int n, int last, int decrypt)
{
    vv_t b[VV_NVEC];
    VV_UNROLL
    for (int i = 0; i < n; i++) b[i] = VV_NAME(load_i)(in, i, n, last);
    if (decrypt)
        VV_NAME(decrypt_n)(rk, b, n);
    else
        VV_NAME(encrypt_n)(rk, b, n);
    VV_UNROLL
    for (int i = 0; i < n; i++) VV_NAME(store_i)(out, b[i], i, n, last);
}

/* Calls body(n, last) for a tail of r (1..VV_GROUP-1) blocks with n and last as constants: n vectors,
   the last holding `last` blocks. The switch is on r, a public length. */
#define VV_TAIL(r, body)                                                                  \
    do {                                                                                  \
        size_t vv_nv_ = ((r) + VV_LANES - 1) / VV_LANES;                                  \
        int vv_last_ = (int)((r) - (vv_nv_ - 1) * VV_LANES);                              \
        switch (vv_nv_) {                                                                 \
        case 1: body(1, vv_last_); break;                                                 \
        case 2: if (VV_NVEC >= 2) { body(2, vv_last_); } break;                           \
        case 3: if (VV_NVEC >= 3) { body(3, vv_last_); } break;                           \
        case 4: if (VV_NVEC >= 4) { body(4, vv_last_); } break;                           \
        case 5: if (VV_NVEC >= 5) { body(5, vv_last_); } break;                           \
        case 6: if (VV_NVEC >= 6) { body(6, vv_last_); } break;                           \
        case 7: if (VV_NVEC >= 7) { body(7, vv_last_); } break;                           \
        default: if (VV_NVEC >= 8) { body(8, vv_last_); } break;                          \
        }                                                                                 \
    } while (0)

/* One block through the cipher in an xmm register, the keys read straight from the schedule: for a
   lone block (ECB's H = E(0), a GCM stream's E(J0) through CTR) this beats broadcasting every round key
   into a vector array first, which GCC keeps on the stack. */
VV_INLINE __m128i VV_NAME(block1)(const void *sched, __m128i b, int decrypt)
{
    const struct aesni_sched *ks = (const struct aesni_sched *)sched;
    b = _mm_xor_si128(b, _mm_loadu_si128((const __m128i *)(decrypt ? ks->dec[0] : ks->enc[0])));
    for (unsigned r = 1; r < ks->rounds; r++) {
        __m128i k = _mm_loadu_si128((const __m128i *)(decrypt ? ks->dec[r] : ks->enc[r]));
        b = decrypt ? _mm_aesdec_si128(b, k) : _mm_aesenc_si128(b, k);
    }
    __m128i k = _mm_loadu_si128((const __m128i *)(decrypt ? ks->dec[ks->rounds] : ks->enc[ks->rounds]));
    return decrypt ? _mm_aesdeclast_si128(b, k) : _mm_aesenclast_si128(b, k);
}

VV_INLINE void VV_NAME(ecb)(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks,
                            int decrypt)
{
    if (nblocks == 1) { /* GCM's H = E(0) at key set-up */
        _mm_storeu_si128((__m128i *)out, VV_NAME(block1)(sched, _mm_loadu_si128((const __m128i *)in), decrypt));
        return;
    }
    struct VV_NAME(round_keys) rk;
    VV_NAME(load_keys)(&rk, sched, decrypt);
    for (; nblocks >= VV_GROUP; nblocks -= VV_GROUP, in += 16 * VV_GROUP, out += 16 * VV_GROUP)
        VV_NAME(ecb_n)(&rk, in, out, VV_NVEC, VV_LANES, decrypt);
    if (nblocks) {
#define VV_ECB_TAIL(n, last) VV_NAME(ecb_n)(&rk, in, out, (n), (last), decrypt)
        VV_TAIL(nblocks, VV_ECB_TAIL);
#undef VV_ECB_TAIL
    }
}

VV_TARGET static void VV_NAME(aes_ecb_encrypt)(const void *sched, const uint8_t *in, uint8_t *out,
                                               size_t nblocks)
{
    VV_NAME(ecb)(sched, in, out, nblocks, 0);
}

VV_TARGET static void VV_NAME(aes_ecb_decrypt)(const void *sched, const uint8_t *in, uint8_t *out,
                                               size_t nblocks)
{
    VV_NAME(ecb)(sched, in, out, nblocks, 1);
}

/* ---------------------------------------------------------------------------------------------- */
/* CTR                                                                                              */
/*
 * The counter is kept in "arithmetic form" in every lane (aesni_aes.c): for inc32 the block with
 * bytes 12..15 reversed, so dword 3 of each lane is the counter as a number; for RFC 8452's counter
 * the block itself (dword 0). `base` holds counter + j in lane j; vector i of a group adds
 * i * VV_LANES to every lane. vpaddd wraps each dword mod 2^32 and never carries into the other
 * dwords: exactly inc32 (and the little-endian 32-bit counter). vpshufb with the per-lane mask turns
 * the arithmetic form back into blocks.
 */

/* step * (dword 3 or dword 0) in every lane */
VV_INLINE vv_t VV_NAME(ctr_step)(uint32_t step, int big_endian)
{
    return vv_bcast128(big_endian ? _mm_set_epi32((int)step, 0, 0, 0) : _mm_set_epi32(0, 0, 0, (int)step));
}

/* The counter (arithmetic form, 128 bits) + j in lane j. */
VV_INLINE vv_t VV_NAME(ctr_base)(__m128i c, int big_endian)
{
    vv_t v = vv_bcast128(c);
    return vv_add32(v, big_endian ? vv_lane_index_dword3() : vv_lane_index_dword0());
}

VV_INLINE void VV_NAME(ctr_n)(const struct VV_NAME(round_keys) *rk, vv_t base, vv_t shuf, int big_endian,
                              const uint8_t *in, uint8_t *out, int n, int last)
{
    vv_t b[VV_NVEC];
    VV_UNROLL
    for (int i = 0; i < n; i++) {
        vv_t c = i ? vv_add32(base, VV_NAME(ctr_step)((uint32_t)(i * VV_LANES), big_endian)) : base;
        b[i] = big_endian ? vv_shuffle8(c, shuf) : c;
    }
    VV_NAME(encrypt_n)(rk, b, n);
    /* the input is read after the keystream is made: in == out is safe */
    VV_UNROLL
    for (int i = 0; i < n; i++) VV_NAME(store_i)(out, vv_xor(b[i], VV_NAME(load_i)(in, i, n, last)), i, n, last);
}

VV_INLINE void VV_NAME(ctr)(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                            size_t nblocks, int big_endian)
{
    const __m128i shuf128 = aesni_swap_last_word_mask();
    if (nblocks == 1) {
        /* one block (a GCM stream's E(J0), every message through the OpenSSL provider), as ECB's: the
           general path's key broadcast was about 2% of `openssl speed -evp AES-128-GCM` at 16 KiB */
        __m128i c1 = _mm_loadu_si128((const __m128i *)counter);
        __m128i b = VV_NAME(block1)(sched, c1, 0);
        _mm_storeu_si128((__m128i *)out, _mm_xor_si128(b, _mm_loadu_si128((const __m128i *)in)));
        if (big_endian) c1 = _mm_shuffle_epi8(_mm_add_epi32(_mm_shuffle_epi8(c1, shuf128), _mm_set_epi32(1, 0, 0, 0)), shuf128);
        else c1 = _mm_add_epi32(c1, _mm_set_epi32(0, 0, 0, 1));
        _mm_storeu_si128((__m128i *)counter, c1);
        return;
    }
    struct VV_NAME(round_keys) rk;
    VV_NAME(load_keys)(&rk, sched, 0);
    const vv_t shuf = vv_bcast128(shuf128);
    __m128i c = _mm_loadu_si128((const __m128i *)counter);
    if (big_endian) c = _mm_shuffle_epi8(c, shuf128);
    vv_t base = VV_NAME(ctr_base)(c, big_endian);
    const vv_t group = VV_NAME(ctr_step)(VV_GROUP, big_endian);
    size_t left = nblocks;
    for (; left >= VV_GROUP; left -= VV_GROUP, in += 16 * VV_GROUP, out += 16 * VV_GROUP) {
        VV_NAME(ctr_n)(&rk, base, shuf, big_endian, in, out, VV_NVEC, VV_LANES);
        base = vv_add32(base, group);
    }
    if (left) {
#define VV_CTR_TAIL(n, last) VV_NAME(ctr_n)(&rk, base, shuf, big_endian, in, out, (n), (last))
        VV_TAIL(left, VV_CTR_TAIL);
#undef VV_CTR_TAIL
    }
    /* counter + nblocks mod 2^32 (the cast keeps nblocks mod 2^32, which is all inc32 sees) */
    c = _mm_add_epi32(c, big_endian ? _mm_set_epi32((int)(uint32_t)nblocks, 0, 0, 0)
                                    : _mm_set_epi32(0, 0, 0, (int)(uint32_t)nblocks));
    if (big_endian) c = _mm_shuffle_epi8(c, shuf128);
    _mm_storeu_si128((__m128i *)counter, c);
}

VV_TARGET static void VV_NAME(aes_ctr32)(const void *sched, uint8_t counter[16], const uint8_t *in,
                                         uint8_t *out, size_t nblocks)
{
    VV_NAME(ctr)(sched, counter, in, out, nblocks, 1);
}

VV_TARGET static void VV_NAME(aes_ctr32_le)(const void *sched, uint8_t counter[16], const uint8_t *in,
                                            uint8_t *out, size_t nblocks)
{
    VV_NAME(ctr)(sched, counter, in, out, nblocks, 0);
}

/* ---------------------------------------------------------------------------------------------- */
/* GF(2^128): POLYVAL products lane by lane (the maths: aesni_ghash.c)                             */
/*
 * The carry-less multiplier is the bottleneck here, not the AES units: measured on the development
 * machine (AMD Zen 5), independent vpclmulqdq issue at 1.6 G instructions/s whether ymm or zmm
 * (6.4 G 64x64 products/s on zmm), against 6 G zmm vaesenc/s (24 G block-rounds/s). So every product
 * counts:
 *   - Karatsuba, three products per block instead of four: lo = sum x0*h0, hi = sum x1*h1,
 *     mid = sum (x0^x1)*(h0^h1), and a*b = hi x^128 + (mid^lo^hi) x^64 + lo. (h0^h1) is computed
 *     once per call for the powers of a whole group (kara below); (x0^x1) costs a vpshufd and a vpxor
 *     per vector, which issue on other ports. Schoolbook (four products, as the Linux VAES code uses)
 *     measured 16.0 GB/s for the 16 KiB AES-128-GCM seal on this machine; Karatsuba: see
 *     docs/speed-x86_64.md.
 *   - One reduction per group (gf_finish): the three unreduced sums are recombined and reduced in
 *     every lane at once, and only the result is folded across the lanes (extracts and XORs, no
 *     multiplies): two vpclmulqdq a group, the same as reducing one xmm register.
 * Reduction is linear, so summing unreduced products over blocks and lanes first is exact.
 */
struct VV_NAME(gf_sum) {
    vv_t lo, hi, mid;
    /* gf_mul_add_paired: a vector's three products wait here (pend) for the next vector's, and both
       go into the sums with one vpternlogq each: 12 instructions a group of eight vectors where two
       vpxor each took 24. zero: lo, hi and mid are still zero (the first pair is a plain XOR). Both
       flags are constants where the paired form is used, as its calls are unrolled; gf_mul_add adds
       at once, for loops of any trip count, and leaves pend as it is. */
    vv_t plo, phi, pmid;
    int pend, zero;
};

VV_INLINE void VV_NAME(gf_zero)(struct VV_NAME(gf_sum) *s)
{
    s->lo = vv_zero();
    s->hi = vv_zero();
    s->mid = vv_zero();
    s->plo = s->phi = s->pmid = vv_zero(); /* (never read before written; stops gcc's warning) */
    s->pend = 0;
    s->zero = 1;
}

/* The sums' starting values when they are not zero */
VV_INLINE void VV_NAME(gf_start)(struct VV_NAME(gf_sum) *s, vv_t lo, vv_t hi, vv_t mid)
{
    s->lo = lo;
    s->hi = hi;
    s->mid = mid;
    s->plo = s->phi = s->pmid = vv_zero();
    s->pend = 0;
    s->zero = 0;
}

/* The sums with any waiting products in */
VV_INLINE void VV_NAME(gf_settle)(struct VV_NAME(gf_sum) *s)
{
    if (!s->pend) return;
    if (s->zero) {
        s->lo = s->plo;
        s->hi = s->phi;
        s->mid = s->pmid;
    } else {
        s->lo = vv_xor(s->lo, s->plo);
        s->hi = vv_xor(s->hi, s->phi);
        s->mid = vv_xor(s->mid, s->pmid);
    }
    s->pend = 0;
    s->zero = 0;
}

/* VV_PIN3: aesni.h's pin (AESNI_PIN3) for vectors of any width (zmm16-31 included). Here gcc computed
   all of a 32-block group's 24 products ahead of the AES rounds and spilled them (24 zmm stores and
   loads per group); pinned, each vector's three products are folded in between two AES rounds as the
   source orders them. Seal: vaes512 AES-128-GCM seal 16 KiB +4-6%, AES-256 +4%. Open, whose
   ciphertext is there from the start, gained nothing at 16 KiB and lost ~5% at 1 KiB with the general
   counters, so it is pinned only with gcm_counters' from_j0 form: there, unpinned, gcc moved the
   products ahead and spilled them again (16 KiB 15% slower), pinned it runs 3-6% faster than before
   (docs/speed-x86_64.md). */
#ifdef VG_X86_NO_PIN
#define VV_PIN3(a, b, c) ((void)0)
#define VV_TIE2(a, b) ((void)0)
#else
#define VV_PIN3(a, b, c) __asm__("" : "+v"(a), "+v"(b), "+v"(c))
/* the same kind of empty asm over two values, so that the compiler sees each depend on the other
   (encrypt_hash_piped) */
#define VV_TIE2(a, b) __asm__("" : "+v"(a), "+v"(b))
#endif

/* (h0 ^ h1) in the low qword of every lane (and in the high one) */
VV_INLINE vv_t VV_NAME(kara_of)(vv_t h) { return vv_xor(h, vv_swap64(h)); }

/* x * h's three products in every lane, hk = kara_of(h) */
VV_INLINE void VV_NAME(gf_products)(vv_t *lo, vv_t *hi, vv_t *mid, vv_t x, vv_t h, vv_t hk)
{
    vv_t xm = vv_xor(x, vv_swap64(x));                          /* x0 ^ x1 in the low qword */
    *lo = vv_clmul(x, h, 0x00);                                 /* x0 * h0 */
    *hi = vv_clmul(x, h, 0x11);                                 /* x1 * h1 */
    *mid = vv_clmul(xm, hk, 0x00);                              /* (x0^x1) * (h0^h1) */
}

/* s += x * h in every lane, at once: for loops whose trip count is not a constant */
VV_INLINE void VV_NAME(gf_mul_add)(struct VV_NAME(gf_sum) *s, vv_t x, vv_t h, vv_t hk)
{
    vv_t lo, hi, mid;
    VV_NAME(gf_products)(&lo, &hi, &mid, x, h, hk);
    s->lo = vv_xor(s->lo, lo);
    s->hi = vv_xor(s->hi, hi);
    s->mid = vv_xor(s->mid, mid);
    s->zero = 0;
}

/* The same in pairs (struct gf_sum): only where every call is unrolled, so pend stays a constant */
VV_INLINE void VV_NAME(gf_mul_add_paired)(struct VV_NAME(gf_sum) *s, vv_t x, vv_t h, vv_t hk)
{
    vv_t lo, hi, mid;
    VV_NAME(gf_products)(&lo, &hi, &mid, x, h, hk);
    if (!s->pend) {
        s->plo = lo;
        s->phi = hi;
        s->pmid = mid;
        s->pend = 1;
    } else if (s->zero) {
        s->lo = vv_xor(s->plo, lo);
        s->hi = vv_xor(s->phi, hi);
        s->mid = vv_xor(s->pmid, mid);
        s->pend = s->zero = 0;
    } else {
        s->lo = vv_xor3(s->lo, s->plo, lo);
        s->hi = vv_xor3(s->hi, s->phi, hi);
        s->mid = vv_xor3(s->mid, s->pmid, mid);
        s->pend = 0;
    }
}

/* Pins (VV_PIN3, above) whichever sums the last product went into */
#define VV_PIN_SUM(s) do { if ((s)->pend) VV_PIN3((s)->plo, (s)->phi, (s)->pmid); else VV_PIN3((s)->lo, (s)->hi, (s)->mid); } while (0)

/* sum over lanes and blocks, times x^-128 mod P. The Karatsuba recombination and the reduction
   (aesni_gf_reduce's, aesni_gf_fold's) are GF(2)-linear, so they run on the whole vectors and the
   lanes are folded after: one vector's fold instead of three (lo, hi, mid), 15 instructions in
   place of 25. The first multiply starts from lo, as aesni_gf_reduce's does: t0's low qword is
   lo's. */
VV_INLINE __m128i VV_NAME(gf_finish)(const struct VV_NAME(gf_sum) *sum)
{
    struct VV_NAME(gf_sum) all = *sum, *s = &all;
    VV_NAME(gf_settle)(s);
    const vv_t poly = vv_bcast128(_mm_set_epi64x((long long)0xc200000000000000ULL, 0));
    vv_t m = vv_xor3(s->mid, s->lo, s->hi);
    vv_t t0 = vv_xor(s->lo, vv_bslli8(m));
    vv_t t1 = vv_xor(s->hi, vv_bsrli8(m));
    vv_t t = vv_clmul(s->lo, poly, 0x10);   /* L0 c */
    t0 = vv_xor(vv_swap64(t0), t);          /* (L1 ^ t.lo, L0 ^ t.hi) */
    t = vv_clmul(t0, poly, 0x10);           /* M1 c */
    return vv_fold_lanes(vv_xor3(t1, vv_swap64(t0), t));
}

/* The power vector for vector i of a batch of r blocks (block b times H_(r-b)). */
VV_INLINE vv_t VV_NAME(powers)(const struct VV_NAME(hkey) *hk, size_t r, int i)
{
    return vv_loadu(hk->desc[VV_GROUP - r + (size_t)(VV_LANES * i)]);
}

/* A whole group's powers and their Karatsuba halves, computed once per call. */
struct VV_NAME(group_powers) {
    vv_t pow[VV_NVEC], kara[VV_NVEC];
};

VV_INLINE void VV_NAME(load_group_powers)(struct VV_NAME(group_powers) *gp, const struct VV_NAME(hkey) *hk)
{
    VV_UNROLL
    for (int i = 0; i < VV_NVEC; i++) {
        gp->pow[i] = VV_NAME(powers)(hk, VV_GROUP, i);
        gp->kara[i] = VV_NAME(kara_of)(gp->pow[i]);
    }
}

/* Loads n vectors of r blocks from in (byte-reversed per block for GHASH) with acc XORed into the
   first block. */
VV_INLINE void VV_NAME(gf_load)(vv_t *x, const uint8_t *in, __m128i acc, int n, int last, int reverse)
{
    const vv_t bswap = vv_bcast128(aesni_byte_reverse_mask());
    VV_UNROLL
    for (int i = 0; i < n; i++) {
        x[i] = VV_NAME(load_i)(in, i, n, last);
        if (reverse) x[i] = vv_shuffle8(x[i], bswap);
    }
    x[0] = vv_xor(x[0], vv_zext128(acc));
}

/* acc (POLYVAL form) after a whole group at in, one reduction: acc' = sum_b X_b * H_(GROUP-b) with
   X_0 ^= acc (aesni_ghash.c section 3). Vector 0, the one that waits for acc, is multiplied last. */
VV_INLINE __m128i VV_NAME(gf_hash_group)(const struct VV_NAME(group_powers) *gp, __m128i acc,
                                         const uint8_t *in, int reverse)
{
    vv_t x[VV_NVEC];
    VV_NAME(gf_load)(x, in, acc, VV_NVEC, VV_LANES, reverse);
    struct VV_NAME(gf_sum) s;
    VV_NAME(gf_zero)(&s);
    VV_UNROLL
    for (int i = VV_NVEC - 1; i >= 0; i--) VV_NAME(gf_mul_add_paired)(&s, x[i], gp->pow[i], gp->kara[i]);
    return VV_NAME(gf_finish)(&s);
}

/*
 * A seal's last group and GCM's length block L in one reduction: with acc' the group's sum reduced,
 * S = (acc' ^ L) H_1 is the group's blocks times H_(GROUP+1)..H_2 plus L times H_1. The powers one
 * block up are the group's own with each vector's lanes moved up by one (vv_align_lane), the lowest
 * taking the previous vector's highest, and H_(GROUP+1) = H_GROUP dot H_1 made here, off the data's
 * path. Against gf_hash_group and a separate step for L, one product and reduction fewer wait at the
 * end of the message (a 1 KiB seal without that step, its tag wrong, ran 11-13% faster).
 */
VV_INLINE __m128i VV_NAME(gf_hash_group_len)(const struct VV_NAME(group_powers) *gp, const struct VV_NAME(hkey) *hk,
                                             __m128i acc, const uint8_t *in, __m128i lengths)
{
    const vv_t hl = vv_loadu(hk->desc[VV_GROUP - 1]); /* H_1, then zero entries */
    const __m128i hg = _mm_loadu_si128((const __m128i *)hk->desc[0]); /* H_GROUP */
    const __m128i h1 = vv_cast128(hl);
    struct aesni_gf_sum t;
    aesni_gf_sum_zero(&t);
    aesni_gf_mul_add(&t, hg, h1, _mm_xor_si128(h1, _mm_shuffle_epi32(h1, 0x4e)));
    const vv_t top = vv_bcast128(aesni_gf_reduce(&t)); /* H_(GROUP+1) in every lane */
    vv_t x[VV_NVEC];
    VV_NAME(gf_load)(x, in, acc, VV_NVEC, VV_LANES, 1);
    struct VV_NAME(gf_sum) s;
    VV_NAME(gf_zero)(&s);
    VV_UNROLL
    for (int i = VV_NVEC - 1; i >= 0; i--) {
        vv_t p = vv_align_lane(gp->pow[i], i ? gp->pow[i - 1] : top);
        vv_t k = vv_align_lane(gp->kara[i], i ? gp->kara[i - 1] : VV_NAME(kara_of)(top));
        VV_NAME(gf_mul_add_paired)(&s, x[i], p, k);
    }
    VV_NAME(gf_mul_add_paired)(&s, vv_zext128(lengths), hl, VV_NAME(kara_of)(hl));
    return VV_NAME(gf_finish)(&s);
}

/* The same for a tail of r < GROUP blocks in n vectors (the last holding `last` blocks). */
VV_INLINE __m128i VV_NAME(gf_hash_n)(const struct VV_NAME(hkey) *hk, __m128i acc, const uint8_t *in, int n,
                                     int last, int reverse)
{
    vv_t x[VV_NVEC];
    VV_NAME(gf_load)(x, in, acc, n, last, reverse);
    size_t r = (size_t)(VV_LANES * (n - 1) + last);
    struct VV_NAME(gf_sum) s;
    VV_NAME(gf_zero)(&s);
    VV_UNROLL
    for (int i = n - 1; i >= 0; i--) {
        vv_t h = VV_NAME(powers)(hk, r, i);
        VV_NAME(gf_mul_add)(&s, x[i], h, VV_NAME(kara_of)(h));
    }
    return VV_NAME(gf_finish)(&s);
}

VV_INLINE void VV_NAME(gf_update)(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks,
                                  int reverse)
{
    const struct VV_NAME(hkey) *hk = (const struct VV_NAME(hkey) *)hkey;
    __m128i a = _mm_loadu_si128((const __m128i *)acc);
    if (reverse) a = _mm_shuffle_epi8(a, aesni_byte_reverse_mask());
    if (nblocks >= VV_GROUP) {
        struct VV_NAME(group_powers) gp;
        VV_NAME(load_group_powers)(&gp, hk);
        for (; nblocks >= VV_GROUP; nblocks -= VV_GROUP, in += 16 * VV_GROUP)
            a = VV_NAME(gf_hash_group)(&gp, a, in, reverse);
    }
    if (nblocks == 1) {
        /* one block (a stream's AAD or length block, every message through the OpenSSL provider):
           in an xmm register against H_1, without the vector path's lane folds */
        __m128i x = _mm_loadu_si128((const __m128i *)in);
        if (reverse) x = _mm_shuffle_epi8(x, aesni_byte_reverse_mask());
        __m128i h = _mm_loadu_si128((const __m128i *)hk->desc[VV_GROUP - 1]);
        struct aesni_gf_sum t;
        aesni_gf_sum_zero(&t);
        aesni_gf_mul_add(&t, _mm_xor_si128(x, a), h, _mm_xor_si128(h, _mm_shuffle_epi32(h, 0x4e)));
        a = aesni_gf_reduce(&t);
    } else if (nblocks) {
#define VV_GF_TAIL(n, last) a = VV_NAME(gf_hash_n)(hk, a, in, (n), (last), reverse)
        VV_TAIL(nblocks, VV_GF_TAIL);
#undef VV_GF_TAIL
    }
    if (reverse) a = _mm_shuffle_epi8(a, aesni_byte_reverse_mask());
    _mm_storeu_si128((__m128i *)acc, a);
}

VV_TARGET static void VV_NAME(ghash_update)(const void *hkey, uint8_t acc[16], const uint8_t *in,
                                            size_t nblocks)
{
    VV_NAME(gf_update)(hkey, acc, in, nblocks, 1);
}

VV_TARGET static void VV_NAME(polyval_update)(const void *hkey, uint8_t acc[16], const uint8_t *in,
                                              size_t nblocks)
{
    VV_NAME(gf_update)(hkey, acc, in, nblocks, 0);
}

/* ---------------------------------------------------------------------------------------------- */
/* The powers H_1..H_GROUP (key set-up, and every GCM-SIV message's POLYVAL key)                     */
/*
 * Where the time goes (Zen 5, docs/speed-x86_64.md): vpclmulqdq has 5 cycles of latency and issues
 * once per 2 cycles whatever the width, simple vector operations take 2 cycles and lane crossings 5.
 * The powers are a chain of dependent products whose multiplies also queue behind one another in the
 * one multiplier, so both the chain's length and the number of vpclmulqdq count. Two changes against
 * the Karatsuba product with a two-fold reduction (about 21-23 cycles a level, 5 multiplies):
 *
 * 1. Products with ONE fold. dot(v, b) = v b x^-128. With b' = b x^-64 mod P precomputed per
 *    multiplier, S = v0 b' + v1 b = (v0 + v1 x^64) b x^-64 = v b x^-64 (v = v1 x^64 + v0): four
 *    64x64 products, a 191-bit S, and S x^-64 needs one Montgomery fold, not two: adding s0 P
 *    (s0 = the low 64 bits of S; P = 1 + c x^64 + x^128, c = x^63 + x^62 + x^57) clears them, and
 *    (S + s0 P) / x^64 = (S >> 64) + s0 c + s0 x^64 has degree < 128, so it is fully reduced. Per
 *    lane, with S = P0 + P1 x^64: result = P1 ^ swap(P0) ^ lo64(P0) c. Five multiplies as before,
 *    but one fold on the chain (about 16 cycles a level). b' = (b + b0 P) / x^64 = swap(b) ^ b0 c
 *    (mult_of) costs one multiply per multiplier.
 * 2. Squarings (the multipliers H_4, H_8, H_16, broadcast) reduced with three multiplies whose chain
 *    is two deep after the square instead of two folds with XORs between them: with t = L0 c, the
 *    second fold multiplies M1 = L1 ^ lo64(t) by c, and M1 c = L1 c ^ lo64(t) c, so L1 c is made
 *    beside t and only lo64(t) c waits for it (17 cycles a squaring instead of 21).
 * The multipliers stay broadcast in zmm (squared there, no lane broadcast out of a vector, which
 * measured slower: 5 cycles a crossing on the chain), squared first so their multiplies are older than
 * the vectors' and go first. Tried and slower: the folds by shifts (Gueron's reduction, vpsllq/vpsrlq
 * and vpternlogq) instead of vpclmulqdq, and the multipliers from lane 0 of the last vector.
 */

/* c = x^63 + x^62 + x^57 in the high qword of every lane (aesni_gf_fold) */
VV_INLINE vv_t VV_NAME(poly)(void) { return vv_bcast128(_mm_set_epi64x((long long)0xc200000000000000ULL, 0)); }

/* a dot a in every lane: lo + hi x^128 = a0^2 + a1^2 x^128 (the cross terms cancel), times x^-128
   with t = L0 c, result = hi ^ lo ^ swap(t) ^ L1 c ^ lo64(t) c (aesni_gf_fold with the second fold's
   M1 c split in two; above) */
VV_INLINE vv_t VV_NAME(square_lanes)(vv_t a)
{
    const vv_t poly = VV_NAME(poly)();
    vv_t lo = vv_clmul(a, a, 0x00), hi = vv_clmul(a, a, 0x11);
    vv_t t = vv_clmul(lo, poly, 0x10);  /* L0 c */
    vv_t u = vv_clmul(lo, poly, 0x11);  /* L1 c, beside t */
    vv_t w = vv_clmul(t, poly, 0x10);   /* lo64(t) c: the only one after t */
    return vv_xor3(vv_xor3(hi, lo, u), vv_swap64(t), w);
}

/* A multiplier b in the form the one-fold product takes, per lane: lo = [b'0, b0], hi = [b'1, b1]
   with b' = b x^-64 mod P = swap(b) ^ b0 c (above), so one vpclmulqdq pairs v0 with b'_k and v1 with
   b_k. */
struct VV_NAME(mult) {
    vv_t lo, hi;
};

VV_INLINE struct VV_NAME(mult) VV_NAME(mult_of)(vv_t b)
{
    vv_t bs = vv_xor(vv_swap64(b), vv_clmul(b, VV_NAME(poly)(), 0x10));
    struct VV_NAME(mult) m = { vv_unpacklo64(bs, b), vv_unpackhi64(bs, b) };
    return m;
}

/* v dot b lane-wise (b in mult form): S = P0 + P1 x^64 = v0 b' + v1 b, then the one fold */
VV_INLINE vv_t VV_NAME(mul_lanes)(vv_t v, struct VV_NAME(mult) m)
{
    vv_t p0 = vv_xor(vv_clmul(v, m.lo, 0x00), vv_clmul(v, m.lo, 0x11)); /* v0 b'0 + v1 b0 */
    vv_t p1 = vv_xor(vv_clmul(v, m.hi, 0x00), vv_clmul(v, m.hi, 0x11)); /* v0 b'1 + v1 b1 */
    return vv_xor3(p1, vv_swap64(p0), vv_clmul(p0, VV_NAME(poly)(), 0x10)); /* + s0 c, s0 = lo64(P0) */
}

/* The first nv (1, 2, 4 or 8; public) vectors of powers of the POLYVAL key h1 (register form), lanes
   DESCENDING: v[c] = [H_(LANES (c + 1)), .., H_(LANES c + 1)], the order the tables keep them in. By
   doubling: H_(LANES c + j) = H_j dot H_(LANES c), so v[c..2c) = v[0..c) times H_(LANES c) broadcast:
   log2 of the count dependent products instead of one per power (this is on GCM's key set-up path and
   on every GCM-SIV message's). The multipliers H_(LANES 2^k) are a chain of squarings beside the
   vectors. Written out with constant indices: as a loop over c, gcc kept v[] on the stack and the
   set-up took twice as long. */
VV_INLINE void VV_NAME(power_vectors)(vv_t *v, __m128i h1, int nv)
{
    _Static_assert(VV_NVEC == 8, "power_vectors doubles 1 -> 2 -> 4 -> 8 vectors");
    const vv_t b1 = vv_bcast128(h1);
    const vv_t b2 = VV_NAME(square_lanes)(b1);
#if VV_LANES == 4
    /* multipliers H_4, H_8, H_16; v[0] = [H_4, H_3, H_2, H_1] from the squares and H_3 = H_2 dot H_1 */
    const vv_t m1 = VV_NAME(square_lanes)(b2);
    const vv_t m2 = nv >= 4 ? VV_NAME(square_lanes)(m1) : vv_zero();
    const vv_t m3 = nv >= 8 ? VV_NAME(square_lanes)(m2) : vv_zero();
    vv_t h3 = VV_NAME(mul_lanes)(b2, VV_NAME(mult_of)(b1));
    v[0] = vv_blend_lanes(vv_blend_lanes(vv_blend_lanes(b1, b2, 2), h3, 1), m1, 0);
#else
    /* multipliers H_2, H_4, H_8; v[0] = [H_2, H_1] */
    const vv_t m1 = b2;
    const vv_t m2 = nv >= 4 ? VV_NAME(square_lanes)(m1) : vv_zero();
    const vv_t m3 = nv >= 8 ? VV_NAME(square_lanes)(m2) : vv_zero();
    v[0] = vv_blend_lanes(b1, b2, 0);
#endif
    if (nv < 2) return;
    struct VV_NAME(mult) m = VV_NAME(mult_of)(m1);
    v[1] = VV_NAME(mul_lanes)(v[0], m);
    if (nv < 4) return;
    m = VV_NAME(mult_of)(m2);
    v[2] = VV_NAME(mul_lanes)(v[0], m);
    v[3] = VV_NAME(mul_lanes)(v[1], m);
    if (nv < 8) return;
    m = VV_NAME(mult_of)(m3);
    v[4] = VV_NAME(mul_lanes)(v[0], m);
    v[5] = VV_NAME(mul_lanes)(v[1], m);
    v[6] = VV_NAME(mul_lanes)(v[2], m);
    v[7] = VV_NAME(mul_lanes)(v[3], m);
}

/* The powers H_1..H_GROUP of h1 into the hkey layout. */
VV_INLINE void VV_NAME(store_powers)(struct VV_NAME(hkey) *hk, __m128i h1)
{
    vv_t v[VV_NVEC];
    VV_NAME(power_vectors)(v, h1, VV_NVEC);
    /* desc[LANES*q .. LANES*q + LANES) = H_(GROUP - LANES*q) .. downwards = v[NVEC-1-q] */
    VV_UNROLL
    for (int q = 0; q < VV_NVEC; q++) vv_storeu(hk->desc[VV_LANES * q], v[VV_NVEC - 1 - q]);
    VV_UNROLL
    for (int i = VV_GROUP; i < VV_GROUP + 4; i++) _mm_storeu_si128((__m128i *)hk->desc[i], _mm_setzero_si128());
}

/* H * x mod P (mulX_POLYVAL), branch-free: aesni_ghash.c */
VV_INLINE __m128i VV_NAME(mul_x)(__m128i h)
{
    __m128i top = _mm_shuffle_epi32(_mm_srai_epi32(h, 31), 0xff);
    __m128i shifted = _mm_or_si128(_mm_slli_epi64(h, 1), _mm_srli_epi64(_mm_slli_si128(h, 8), 63));
    const __m128i x128 = _mm_set_epi64x((long long)0xc200000000000000ULL, 1);
    return _mm_xor_si128(shifted, _mm_and_si128(top, x128));
}

VV_TARGET static void VV_NAME(polyval_init)(void *hkey, const uint8_t h[16])
{
    VV_NAME(store_powers)((struct VV_NAME(hkey) *)hkey, _mm_loadu_si128((const __m128i *)h));
}

VV_TARGET static void VV_NAME(ghash_init)(void *hkey, const uint8_t h[16])
{
    __m128i hrev = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)h), aesni_byte_reverse_mask());
    VV_NAME(store_powers)((struct VV_NAME(hkey) *)hkey, VV_NAME(mul_x)(hrev)); /* H' = rev(H) * x */
}

/* The gcm_key_setup slot (internal.h): the expansion with H = E(0) beside it (aesni.h), the powers
   from H in a register, and the rest of hkey zeroed by plain vector stores (the general path's memset
   of the whole 1 KiB, which store_powers then partly writes over, went through `rep stos`). */
VV_TARGET static void VV_NAME(gcm_key_setup)(void *sched, void *hkey, const uint8_t *key, size_t key_len)
{
    /* (inlined, so compiled for this target: VEX encoding, three-operand, no register copies) */
    __m128i h = aesni_expand_key(sched, key, key_len, 0, 1);
    VV_NAME(store_powers)((struct VV_NAME(hkey) *)hkey, VV_NAME(mul_x)(_mm_shuffle_epi8(h, aesni_byte_reverse_mask())));
    unsigned char *rest = (unsigned char *)hkey + sizeof(struct VV_NAME(hkey));
    _Static_assert((VG_HKEY_SIZE - sizeof(struct VV_NAME(hkey))) % sizeof(vv_t) == 0, "whole vectors");
    _Pragma("GCC unroll 32") /* all of it: partly unrolled, gcc made the loop `rep stos` */
    for (size_t i = 0; i < (VG_HKEY_SIZE - sizeof(struct VV_NAME(hkey))) / sizeof(vv_t); i++)
        vv_storeu(rest + sizeof(vv_t) * i, vv_zero());
}

/* ---------------------------------------------------------------------------------------------- */
/* Fused GCM: CTR of one group stitched with GHASH of a group                                       */
/* s += vector j of the group at hash_in (byte-reversed for GHASH), acc in its first block when j is 0,
   times the group's powers; pinned after (VV_PIN3) when asked. */
VV_INLINE void VV_NAME(hash_vector)(struct VV_NAME(gf_sum) *s, const struct VV_NAME(group_powers) *gp,
                                    const uint8_t *hash_in, int j, __m128i acc, int reverse, int pin)
{
    vv_t x = vv_loadu(hash_in + 16 * VV_LANES * j);
    if (reverse) x = vv_shuffle8(x, vv_bcast128(aesni_byte_reverse_mask()));
    if (j == 0) x = vv_xor(x, vv_zext128(acc));
    VV_NAME(gf_mul_add_paired)(s, x, gp->pow[j], gp->kara[j]);
    if (pin) VV_PIN_SUM(s);
}

/*
 * Each AES round of the group's VV_NVEC counter vectors is followed by the GHASH multiplies of one
 * vector of the group being hashed, so vaesenc and vpclmulqdq issue in the same cycles; the reduction
 * follows the multiplies. The vector holding acc (vector 0) is multiplied last, so the previous
 * group's reduction has the most time to finish before anything waits on it.
 * Seal hashes the ciphertext it wrote one group earlier (reloaded from out, still in L1); open hashes
 * the group it is decrypting, all of whose ciphertext is loaded before any plaintext is stored, so
 * in == out works for both. reverse = 1 for GHASH (blocks byte-reversed into POLYVAL form), 0 for
 * POLYVAL (GCM-SIV's open, vaes_siv.h, which hashes the plaintext it wrote one group earlier, as seal).
 */
VV_INLINE __m128i VV_NAME(encrypt_hash_group)(const struct VV_NAME(round_keys) *rk,
                                              const struct VV_NAME(group_powers) *gp, vv_t *b, __m128i acc,
                                              const uint8_t *hash_in, int pin, int reverse, int whitened)
{
    struct VV_NAME(gf_sum) s;
    VV_NAME(gf_zero)(&s);
    if (!whitened) {
        VV_UNROLL
        for (int i = 0; i < VV_NVEC; i++) b[i] = vv_xor(b[i], rk->k[0]);
    }
    /* rounds 1..NVEC (every key size has at least 10, and VV_NVEC <= 8) carry the multiplies; each
       vector to hash is loaded where it is used, so only one is live at a time */
    VV_UNROLL
    for (int r = 1; r <= VV_NVEC; r++) {
        vv_t k = rk->k[r];
        VV_UNROLL
        for (int i = 0; i < VV_NVEC; i++) b[i] = vv_aesenc(b[i], k);
        VV_NAME(hash_vector)(&s, gp, hash_in, r % VV_NVEC, acc, reverse, pin); /* vectors 1..NVEC-1, then 0 */
    }
    acc = VV_NAME(gf_finish)(&s);
    for (unsigned r = VV_NVEC + 1; r < rk->rounds; r++) {
        vv_t k = rk->k[r];
        VV_UNROLL
        for (int i = 0; i < VV_NVEC; i++) b[i] = vv_aesenc(b[i], k);
    }
    VV_UNROLL
    for (int i = 0; i < VV_NVEC; i++) b[i] = vv_aesenclast(b[i], rk->k[rk->rounds]);
    return acc;
}

/*
 * The long messages' form of encrypt_hash_group, software-pipelined over groups, for an nr-round key
 * (nr a constant after inlining: gcm_loop is instantiated once per key size). Between groups *s holds
 * the three unreduced sums of the group hashed last:
 *   - their lane folding and reduction come right after round 1 of the next group, beside its AES
 *     rounds, instead of at the end of their own group, where only the last rounds and the stores
 *     were left to issue beside them;
 *   - the eight vectors' products are spread over rounds 2..nr-1 (the p-th after round
 *     2 + p (nr - 2) / NVEC) instead of rounds 1..NVEC: for AES-256 the last five rounds used to run
 *     with no product beside them.
 * The multiplier issues one zmm vpclmulqdq per two cycles, and the core's window does not reach far
 * enough to even out a loop that bunches them: encrypt_hash_group's loop, its multiplies moved to even
 * intervals and timed without dependencies, ran 6-11% faster (bench/x86/loop-bound.py --spread,
 * docs/speed-x86_64.md).
 * Vector 0, which waits for acc, is multiplied last, seven or more rounds after the reduction began.
 */
VV_INLINE void VV_NAME(encrypt_hash_piped)(const struct VV_NAME(round_keys) *rk,
                                           const struct VV_NAME(group_powers) *gp, vv_t *b,
                                           struct VV_NAME(gf_sum) *s, const uint8_t *hash_in, int pin,
                                           int whitened, const unsigned nr)
{
    struct VV_NAME(gf_sum) t;
    __m128i acc = _mm_setzero_si128();
    VV_NAME(gf_zero)(&t);
    /* seal hashes what the group before stored: hidden from gcc, which otherwise kept those eight
       vectors in registers from their store to here instead of loading them again, and spilled the
       AES states to make room */
    __asm__("" : "+r"(hash_in));
    if (!whitened) {
        VV_UNROLL
        for (int i = 0; i < VV_NVEC; i++) b[i] = vv_xor(b[i], rk->k[0]);
    }
    _Pragma("GCC unroll 16")
    for (unsigned r = 1; r < nr; r++) {
        vv_t k = rk->k[r];
        VV_UNROLL
        for (int i = 0; i < VV_NVEC; i++) b[i] = vv_aesenc(b[i], k);
        if (r == 1) {
            acc = VV_NAME(gf_finish)(s);
            /* ties the hash chain to the AES states: without it gcc 12.2 (Release) split the loop
               in two, all the groups' AES rounds first and all their GHASH after, since the two
               meet only through memory */
            VV_TIE2(b[0], acc);
            continue;
        }
        VV_UNROLL
        for (int p = 0; p < VV_NVEC; p++) {
            if (2 + (unsigned)p * (nr - 2) / VV_NVEC != r) continue;
            VV_NAME(hash_vector)(&t, gp, hash_in, (p + 1) % VV_NVEC, acc, 1, pin); /* 1..NVEC-1, then 0 */
        }
    }
    VV_UNROLL
    for (int i = 0; i < VV_NVEC; i++) b[i] = vv_aesenclast(b[i], rk->k[nr]);
    *s = t;
}

/*
 * The counter blocks of successive groups. In general (from_j0 = 0) vector i of a group is the
 * vpshufb of base + i * LANES (base: arithmetic form, lane j = counter + j), whitened later with
 * round key 0.
 *
 * from_j0: the first block is data block 0 of a 12-byte nonce, whose counter word is 2 (J0 ends in
 * 0^31 || 1). Then group g's blocks have counter words V_g + m, V_g = GROUP * g, m = 2 .. GROUP + 1:
 * V_g + m = V_g ^ m for m < GROUP (V_g has its low log2(GROUP) bits clear, so nothing carries), and
 * = V_(g+1) ^ (m - GROUP) for the last one or two blocks. The word's low byte is byte 15 of the block,
 * so in block form X_g = bytes(V_g) ^ round key 0 is made once per group (one add, one vpshufb, one
 * XOR), and each vector is X_g (lanes past the group: X_(g+1)) XORed with a constant holding m in
 * byte 15: the per-vector add and vpshufb and the whitening XOR become one XOR. Exact for every g,
 * the 32-bit wrap included (V_g comes from the arithmetic form), and branch-free: only the constant
 * 2 and public group counts decide anything.
 */
struct VV_NAME(ctr_gen) {
    vv_t base, shuf, step, group;
    vv_t k0, xnext; /* from_j0 only */
};

VV_INLINE void VV_NAME(ctr_gen_init)(struct VV_NAME(ctr_gen) *g, __m128i c, vv_t k0, int from_j0)
{
    g->shuf = vv_bcast128(aesni_swap_last_word_mask());
    g->group = VV_NAME(ctr_step)(VV_GROUP, 1);
    if (!from_j0) {
        g->base = VV_NAME(ctr_base)(c, 1);
        g->step = VV_NAME(ctr_step)(VV_LANES, 1);
        return;
    }
    g->k0 = k0;
    g->base = vv_bcast128(_mm_sub_epi32(c, _mm_set_epi32(2, 0, 0, 0))); /* V_0, every lane */
    g->xnext = vv_xor(vv_shuffle8(g->base, g->shuf), k0);
}

VV_INLINE void VV_NAME(gcm_counters)(struct VV_NAME(ctr_gen) *g, vv_t *b, int from_j0)
{
    if (!from_j0) {
        vv_t c = g->base;
        VV_UNROLL
        for (int i = 0; i < VV_NVEC; i++) {
            b[i] = vv_shuffle8(c, g->shuf);
            c = vv_add32(c, g->step);
        }
        g->base = vv_add32(g->base, g->group);
        return;
    }
    vv_t x = g->xnext;
    g->base = vv_add32(g->base, g->group);
    g->xnext = vv_xor(vv_shuffle8(g->base, g->shuf), g->k0);
    VV_UNROLL
    for (int i = 0; i < VV_NVEC; i++) {
        const int cross = VV_GROUP - 2 - VV_LANES * i; /* the first lane of vector i past the group */
        vv_t t = cross <= 0 ? g->xnext : cross < VV_LANES ? vv_blend_from_lane(x, g->xnext, cross) : x;
        b[i] = vv_xor(t, vv_ctr_offsets(2 + VV_LANES * i)); /* m mod GROUP in byte 15 of each lane */
    }
}

VV_INLINE void VV_NAME(xor_store_group)(const vv_t *b, const uint8_t *in, uint8_t *out)
{
    VV_UNROLL
    for (int i = 0; i < VV_NVEC; i++)
        vv_storeu(out + 16 * VV_LANES * i, vv_xor(b[i], vv_loadu(in + 16 * VV_LANES * i)));
}

/* A seal's group 0, which has nothing to hash yet: its counters, the whole cipher, the output. */
VV_INLINE void VV_NAME(seal_first_group)(const struct VV_NAME(round_keys) *rk, struct VV_NAME(ctr_gen) *g,
                                         vv_t *b, const uint8_t *in, uint8_t *out, int from_j0)
{
    VV_NAME(gcm_counters)(g, b, from_j0);
    if (from_j0) VV_NAME(encrypt_rounds)(rk, b, VV_NVEC);
    else VV_NAME(encrypt_n)(rk, b, VV_NVEC);
    VV_NAME(xor_store_group)(b, in, out);
}

/* The n / GROUP whole groups of gcm_blocks for an nr-round key through encrypt_hash_piped, acc
   updated. Open hashes each group as it decrypts it; seal hashes group i - 1 while it encrypts group
   i, and its last group after. The sums start as acc itself (lo = 0, hi = mid = acc reduce to
   acc x^128 x^-128 = acc): one reduction more than the groups need, and the last group's reduction
   after the loop with nothing beside it. Those are the fixed cost that keeps this loop to long
   messages (gcm_piped). */
VV_INLINE void VV_NAME(gcm_loop)(const struct VV_NAME(round_keys) *rk, const struct VV_NAME(group_powers) *gp,
                                 struct VV_NAME(ctr_gen) *g, __m128i *acc, const uint8_t *in, uint8_t *out,
                                 size_t n, int decrypt, int from_j0, const unsigned nr)
{
    const size_t G = 16 * VV_GROUP; /* bytes per group */
    const int pin = decrypt ? from_j0 : 1;
    vv_t b[VV_NVEC];
    struct VV_NAME(gf_sum) s;
    VV_NAME(gf_start)(&s, vv_zero(), vv_zext128(*acc), vv_zext128(*acc));
    if (decrypt) {
        for (size_t done = 0; done < 16 * n; done += G) {
            VV_NAME(gcm_counters)(g, b, from_j0);
            VV_NAME(encrypt_hash_piped)(rk, gp, b, &s, in + done, pin, from_j0, nr);
            VV_NAME(xor_store_group)(b, in + done, out + done);
        }
        *acc = VV_NAME(gf_finish)(&s);
        return;
    }
    VV_NAME(seal_first_group)(rk, g, b, in, out, from_j0);
    for (size_t done = G; done < 16 * n; done += G) {
        VV_NAME(gcm_counters)(g, b, from_j0);
        VV_NAME(encrypt_hash_piped)(rk, gp, b, &s, out + done - G, pin, from_j0, nr);
        VV_NAME(xor_store_group)(b, in + done, out + done);
    }
    *acc = VV_NAME(gf_hash_group)(gp, VV_NAME(gf_finish)(&s), out + 16 * n - G, 1);
}

/* Whether nblocks go through the pipelined loop. Measured on Zen 5 (bench/ab, old and new in one
   process): against the group-by-group loop its fixed cost (above) outweighs its gain below 4 KiB,
   and for an AES-128 open, whose loop ran at 91% of its bound already, at every length (+1% at
   16 KiB, -5% at 4 KiB). A seal gains 0-3% (AES-128) and 5% (AES-256) at 4 KiB, 3-5% and 9-11% at
   16 KiB; an AES-256 open 3% and 6%. */
#define VV_PIPED_MIN_BLOCKS 256 /* 4 KiB; the tables' gcm_long_min is the same length in bytes */
VV_INLINE int VV_NAME(gcm_piped)(const void *sched, size_t nblocks, int decrypt)
{
    return nblocks >= VV_PIPED_MIN_BLOCKS && (!decrypt || ((const struct aesni_sched *)sched)->rounds > 10);
}

/* The whole groups of nblocks: the fused loop on in -> out, counter and acc (GCM byte order) advanced;
   returns the blocks done (a multiple of GROUP). The groups are stitched one at a time
   (encrypt_hash_group, a reduction in each) or, with piped (a constant after inlining, gcm_piped's
   verdict), through the pipelined loop (gcm_loop). lengths (a seal group by group only, for
   gcm_seal_groups; NULL otherwise): the length block goes into the last group's sum, and acc comes
   back as GHASH's result. */
VV_INLINE size_t VV_NAME(gcm_blocks)(const void *sched, const void *hkey, uint8_t counter[16],
                                     uint8_t acc[16], const uint8_t *in, uint8_t *out, size_t nblocks,
                                     int decrypt, int from_j0, int piped, const __m128i *lengths)
{
    size_t n = nblocks - nblocks % VV_GROUP;
    if (n == 0) return 0;
    const struct VV_NAME(hkey) *hk = (const struct VV_NAME(hkey) *)hkey;
    struct VV_NAME(round_keys) rk;
    struct VV_NAME(group_powers) gp;
    VV_NAME(load_keys)(&rk, sched, 0);
    VV_NAME(load_group_powers)(&gp, hk);
    const __m128i shuf128 = aesni_swap_last_word_mask(), bswap128 = aesni_byte_reverse_mask();
    __m128i c = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)counter), shuf128);
    struct VV_NAME(ctr_gen) g;
    VV_NAME(ctr_gen_init)(&g, c, rk.k[0], from_j0);
    __m128i a = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)acc), bswap128);

    if (piped && !lengths) {
        switch (rk.rounds) {
        case 10: VV_NAME(gcm_loop)(&rk, &gp, &g, &a, in, out, n, decrypt, from_j0, 10); break;
        case 12: VV_NAME(gcm_loop)(&rk, &gp, &g, &a, in, out, n, decrypt, from_j0, 12); break;
        default: VV_NAME(gcm_loop)(&rk, &gp, &g, &a, in, out, n, decrypt, from_j0, 14); break;
        }
    } else if (decrypt) {
        vv_t b[VV_NVEC];
        for (size_t done = 0; done < n; done += VV_GROUP) {
            VV_NAME(gcm_counters)(&g, b, from_j0);
            a = VV_NAME(encrypt_hash_group)(&rk, &gp, b, a, in + 16 * done, from_j0, 1, from_j0);
            VV_NAME(xor_store_group)(b, in + 16 * done, out + 16 * done);
        }
    } else {
        vv_t b[VV_NVEC];
        VV_NAME(seal_first_group)(&rk, &g, b, in, out, from_j0);
        for (size_t done = VV_GROUP; done < n; done += VV_GROUP) {
            VV_NAME(gcm_counters)(&g, b, from_j0);
            a = VV_NAME(encrypt_hash_group)(&rk, &gp, b, a, out + 16 * (done - VV_GROUP), 1, 1, from_j0);
            VV_NAME(xor_store_group)(b, in + 16 * done, out + 16 * done);
        }
        a = lengths ? VV_NAME(gf_hash_group_len)(&gp, hk, a, out + 16 * (n - VV_GROUP), *lengths)
                    : VV_NAME(gf_hash_group)(&gp, a, out + 16 * (n - VV_GROUP), 1);
    }

    c = _mm_add_epi32(c, _mm_set_epi32((int)(uint32_t)n, 0, 0, 0));
    _mm_storeu_si128((__m128i *)counter, _mm_shuffle_epi8(c, shuf128));
    _mm_storeu_si128((__m128i *)acc, _mm_shuffle_epi8(a, bswap128));
    return n;
}

VV_TARGET static size_t VV_NAME(gcm_seal_blocks)(const void *sched, const void *hkey, uint8_t counter[16],
                                                 uint8_t acc[16], const uint8_t *in, uint8_t *out,
                                                 size_t nblocks)
{
    if (VV_NAME(gcm_piped)(sched, nblocks, 0))
        return VV_NAME(gcm_blocks)(sched, hkey, counter, acc, in, out, nblocks, 0, 0, 1, NULL);
    return VV_NAME(gcm_blocks)(sched, hkey, counter, acc, in, out, nblocks, 0, 0, 0, NULL);
}

VV_TARGET static size_t VV_NAME(gcm_open_blocks)(const void *sched, const void *hkey, uint8_t counter[16],
                                                 uint8_t acc[16], const uint8_t *in, uint8_t *out,
                                                 size_t nblocks)
{
    if (VV_NAME(gcm_piped)(sched, nblocks, 1))
        return VV_NAME(gcm_blocks)(sched, hkey, counter, acc, in, out, nblocks, 1, 0, 1, NULL);
    return VV_NAME(gcm_blocks)(sched, hkey, counter, acc, in, out, nblocks, 1, 0, 0, NULL);
}

/* A 12-byte nonce's counter (internal.h): its word is public, and when it is 2 + a multiple of GROUP
   (a stream's first data, or data after whole groups) the groups take gcm_counters' from_j0 form. */
VV_INLINE size_t VV_NAME(gcm_blocks_n12)(const void *sched, const void *hkey, uint8_t counter[16],
                                         uint8_t acc[16], const uint8_t *in, uint8_t *out, size_t nblocks,
                                         int decrypt)
{
    uint32_t word = (uint32_t)counter[12] << 24 | (uint32_t)counter[13] << 16 | (uint32_t)counter[14] << 8 |
                    counter[15];
    int from_j0 = (word - 2) % VV_GROUP == 0;
    if (VV_NAME(gcm_piped)(sched, nblocks, decrypt))
        return from_j0 ? VV_NAME(gcm_blocks)(sched, hkey, counter, acc, in, out, nblocks, decrypt, 1, 1, NULL)
                       : VV_NAME(gcm_blocks)(sched, hkey, counter, acc, in, out, nblocks, decrypt, 0, 1, NULL);
    return from_j0 ? VV_NAME(gcm_blocks)(sched, hkey, counter, acc, in, out, nblocks, decrypt, 1, 0, NULL)
                   : VV_NAME(gcm_blocks)(sched, hkey, counter, acc, in, out, nblocks, decrypt, 0, 0, NULL);
}

VV_TARGET static size_t VV_NAME(gcm_seal_blocks_n12)(const void *sched, const void *hkey, uint8_t counter[16],
                                                     uint8_t acc[16], const uint8_t *in, uint8_t *out,
                                                     size_t nblocks)
{
    return VV_NAME(gcm_blocks_n12)(sched, hkey, counter, acc, in, out, nblocks, 0);
}

VV_TARGET static size_t VV_NAME(gcm_open_blocks_n12)(const void *sched, const void *hkey, uint8_t counter[16],
                                                     uint8_t acc[16], const uint8_t *in, uint8_t *out,
                                                     size_t nblocks)
{
    return VV_NAME(gcm_blocks_n12)(sched, hkey, counter, acc, in, out, nblocks, 1);
}

/* ---------------------------------------------------------------------------------------------- */
/* Short one-shot GCM: the whole message in one call (gcm_seal_short / gcm_open_short)             */
/*
 * The mode's general path costs more than the AES and GHASH of a 64-byte message (a state, a staging
 * buffer, a ctr32 call and two ghash calls, each loading the round keys and powers again). Here the
 * whole message is one pass:
 *   - E(J0) and the data's keystream in the same AES rounds: the data counters J0+1.. fill the vectors,
 *     J0 itself rides along in an xmm register (its aesenc issue beside the vector ones, so it adds no
 *     latency); the partial last block is a byte-masked load and store (zmm: vmovdqu8 with a mask from
 *     the length; ymm: a stack copy of the last vector), never touching a byte past either buffer.
 *   - GHASH(A || C || L) as ONE sum: block q of m blocks is multiplied by H_(m - q), read from desc at
 *     GROUP - m + q (an unaligned vector load serves any position, so AAD, ciphertext and the length
 *     block each start wherever they fall), and the sum is reduced once (aesni_ghash.c, section 3).
 *     The zero padding of the AAD's and the ciphertext's last block is the masked-off bytes.
 *   - The length block needs no shuffle: byte-reversed, [len(A)]_64 || [len(C)]_64 in bits is the
 *     register with len(C)*8 in the low qword and len(A)*8 in the high one.
 * Open hashes the ciphertext as it loads it, before the AES rounds (so GHASH and AES overlap, and
 * in == out is safe: every input vector is loaded before any output is stored).
 *
 * Longer messages (more than GROUP blocks in all): the AAD is hashed first (one reduction per GROUP
 * blocks), the whole groups of data go through the fused loop above (gcm_blocks), and the rest (at
 * most GROUP blocks) plus the length block take the one-sum pass; only when that rest is exactly
 * GROUP blocks does the length block get a reduction of its own (H_(GROUP + 1) is not stored).
 */

/* s += X_q * H_(top - q) for the blocks q = 0, 1, .. of the nbytes (1..16*GROUP) bytes at p, the last
   block zero-padded, with acc (POLYVAL form) XORed into block 0. */
VV_INLINE void VV_NAME(hash_bytes)(struct VV_NAME(gf_sum) *s, const struct VV_NAME(hkey) *hk, const uint8_t *p,
                                   size_t nbytes, size_t top, __m128i acc)
{
    const vv_t bswap = vv_bcast128(aesni_byte_reverse_mask());
    for (size_t off = 0; off < nbytes; off += 16 * VV_LANES) {
        size_t k = nbytes - off < 16 * VV_LANES ? nbytes - off : 16 * VV_LANES;
        vv_t x = vv_shuffle8(vv_load_bytes(p + off, k), bswap);
        if (off == 0) x = vv_xor(x, vv_zext128(acc));
        vv_t h = vv_loadu(hk->desc[VV_GROUP - top + off / 16]);
        VV_NAME(gf_mul_add)(s, x, h, VV_NAME(kara_of)(h));
    }
}

/* The last pass of qn messages at once (qn a constant after inlining: 1 for gcm_short, 2 for
   gcm_short2), each with rb bytes of data in n vectors (n a constant after inlining, 0..VV_NVEC; the
   last holding 1..16*LANES bytes), from the counter base[q] (arithmetic form, lane j = data block j),
   E(J0) from j0[q] (block form) beside them. Message q's data blocks take positions pos0.. of its own
   GHASH sum s[q], whose powers start at top (H_(top - q) for position q); acc[q] is XORed into its
   first data block. The messages' rounds run side by side: one message's AES is a chain of rounds
   whose latency leaves the AES units idle between them, and a second, independent chain fills them
   (and the same for the carry-less products). E(J0) of message q comes back in e[q].
   decrypt: 0 seal; 1 open, the ciphertext hashed before the rounds (a lone pass: its products fill
   the AES chain's gaps); 2 open, hashed after them (a pass followed by another: its products then
   meet the next pass's rounds, which the core reaches sooner with them last). */
VV_INLINE void VV_NAME(short_pass)(const struct aesni_sched *ks, const struct VV_NAME(hkey) *hk,
                                   struct VV_NAME(gf_sum) *s, const vv_t *base, const __m128i *j0,
                                   const uint8_t *const *in, uint8_t *const *out, size_t rb, int n, size_t pos0,
                                   size_t top, const __m128i *acc, __m128i *e, int qn, int decrypt)
{
    const vv_t shuf = vv_bcast128(aesni_swap_last_word_mask());
    const vv_t bswap = vv_bcast128(aesni_byte_reverse_mask());
    const size_t last = n ? rb - (size_t)(16 * VV_LANES * (n - 1)) : 0; /* bytes in vector n-1 */
    vv_t b[2][VV_NVEC + 1], x[2][VV_NVEC + 1];
    VV_UNROLL
    for (int q = 0; q < qn; q++) {
        VV_UNROLL
        for (int i = 0; i < n; i++) {
            vv_t c = i ? vv_add32(base[q], VV_NAME(ctr_step)((uint32_t)(i * VV_LANES), 1)) : base[q];
            b[q][i] = vv_xor(vv_shuffle8(c, shuf), VV_NAME(sched_key)(ks, 0));
            x[q][i] = vv_zero(); /* (set below for open; gcc -O2 cannot see that) */
        }
    }
    if (decrypt) {
        /* the ciphertext, loaded and hashed before anything is written */
        VV_UNROLL
        for (int q = 0; q < qn; q++) {
            VV_UNROLL
            for (int i = 0; i < n; i++) {
                x[q][i] = i == n - 1 ? vv_load_bytes(in[q] + 16 * VV_LANES * i, last)
                                     : vv_loadu(in[q] + 16 * VV_LANES * i);
                if (decrypt == 2) continue;
                vv_t y = vv_shuffle8(x[q][i], bswap);
                if (i == 0) y = vv_xor(y, vv_zext128(acc[q]));
                vv_t h = vv_loadu(hk->desc[VV_GROUP - top + pos0 + (size_t)(VV_LANES * i)]);
                VV_NAME(gf_mul_add)(&s[q], y, h, VV_NAME(kara_of)(h));
            }
        }
    }
    VV_UNROLL
    for (int q = 0; q < qn; q++) e[q] = _mm_xor_si128(j0[q], _mm_loadu_si128((const __m128i *)ks->enc[0]));
    for (unsigned r = 1; r < ks->rounds; r++) {
        vv_t k = VV_NAME(sched_key)(ks, r);
        VV_UNROLL
        for (int q = 0; q < qn; q++) {
            VV_UNROLL
            for (int i = 0; i < n; i++) b[q][i] = vv_aesenc(b[q][i], k);
            e[q] = _mm_aesenc_si128(e[q], vv_cast128(k));
        }
    }
    VV_UNROLL
    for (int q = 0; q < qn; q++) {
        VV_UNROLL
        for (int i = 0; i < n; i++) b[q][i] = vv_aesenclast(b[q][i], VV_NAME(sched_key)(ks, ks->rounds));
        e[q] = _mm_aesenclast_si128(e[q], _mm_loadu_si128((const __m128i *)ks->enc[ks->rounds]));
    }
    VV_UNROLL
    for (int q = 0; q < qn; q++) {
        VV_UNROLL
        for (int i = 0; i < n; i++) {
            if (decrypt) {
                vv_t p = vv_xor(b[q][i], x[q][i]);
                if (i == n - 1) vv_store_bytes(out[q] + 16 * VV_LANES * i, p, last);
                else vv_storeu(out[q] + 16 * VV_LANES * i, p);
                if (decrypt == 2) {
                    vv_t y = vv_shuffle8(x[q][i], bswap);
                    if (i == 0) y = vv_xor(y, vv_zext128(acc[q]));
                    vv_t h = vv_loadu(hk->desc[VV_GROUP - top + pos0 + (size_t)(VV_LANES * i)]);
                    VV_NAME(gf_mul_add)(&s[q], y, h, VV_NAME(kara_of)(h));
                }
            } else {
                vv_t c;
                if (i == n - 1) {
                    /* the keystream past the data must not reach GHASH: C_n* || 0^u */
                    c = vv_keep_bytes(vv_xor(b[q][i], vv_load_bytes(in[q] + 16 * VV_LANES * i, last)), last);
                    vv_store_bytes(out[q] + 16 * VV_LANES * i, c, last);
                } else {
                    c = vv_xor(b[q][i], vv_loadu(in[q] + 16 * VV_LANES * i));
                    vv_storeu(out[q] + 16 * VV_LANES * i, c);
                }
                vv_t y = vv_shuffle8(c, bswap);
                if (i == 0) y = vv_xor(y, vv_zext128(acc[q]));
                vv_t h = vv_loadu(hk->desc[VV_GROUP - top + pos0 + (size_t)(VV_LANES * i)]);
                VV_NAME(gf_mul_add)(&s[q], y, h, VV_NAME(kara_of)(h));
            }
        }
    }
}

/* The last pass with its vector count a constant, for every count a length of rb bytes can need
   (1..VV_NVEC vectors; 0 for no data): VV_SHORT_PASS(n), defined where it is used, makes the pass. */
#define VV_SHORT_SWITCH(rb)                                                      \
    switch (((rb) + 16 * VV_LANES - 1) / (16 * VV_LANES)) {                      \
    case 0: VV_SHORT_PASS(0); break;                                             \
    case 1: VV_SHORT_PASS(1); break;                                             \
    case 2: if (VV_NVEC >= 2) { VV_SHORT_PASS(2); } break;                       \
    case 3: if (VV_NVEC >= 3) { VV_SHORT_PASS(3); } break;                       \
    case 4: if (VV_NVEC >= 4) { VV_SHORT_PASS(4); } break;                       \
    case 5: if (VV_NVEC >= 5) { VV_SHORT_PASS(5); } break;                       \
    case 6: if (VV_NVEC >= 6) { VV_SHORT_PASS(6); } break;                       \
    case 7: if (VV_NVEC >= 7) { VV_SHORT_PASS(7); } break;                       \
    default: if (VV_NVEC >= 8) { VV_SHORT_PASS(8); } break;                      \
    }

/* J0 = nonce || 0^31 || 1 (SP 800-38D §7.1 step 2), read without touching a byte past the nonce */
VV_INLINE __m128i VV_NAME(gcm_j0)(const uint8_t nonce[12])
{
    uint32_t n2;
    memcpy(&n2, nonce + 8, 4);
    return _mm_insert_epi32(_mm_insert_epi32(_mm_loadl_epi64((const __m128i *)(const void *)nonce), (int)n2, 2),
                            0x01000000, 3);
}

/* GHASH of the AAD alone (POLYVAL form), in pieces of GROUP blocks, one reduction each */
VV_INLINE __m128i VV_NAME(hash_aad)(const struct VV_NAME(hkey) *hk, const uint8_t *aad, size_t aad_len)
{
    __m128i acc = _mm_setzero_si128();
    for (size_t off = 0; off < aad_len; off += 16 * VV_GROUP) {
        size_t k = aad_len - off < 16 * VV_GROUP ? aad_len - off : 16 * VV_GROUP;
        struct VV_NAME(gf_sum) s;
        VV_NAME(gf_zero)(&s);
        VV_NAME(hash_bytes)(&s, hk, aad + off, k, (k + 15) / 16, acc);
        acc = VV_NAME(gf_finish)(&s);
    }
    return acc;
}

/*
 * A seal of whole groups only (len a nonzero multiple of 16 GROUP bytes; gcm_short otherwise): the
 * last group's sum takes the length block too (gf_hash_group_len), acc comes back as GHASH's
 * result, and the tag is E(J0) ^ it. A slot of its own that the mode chooses (internal.h): inside
 * gcm_short, a second copy of gcm_blocks made gcc allocate the other lengths' registers worse (a
 * 1000-byte seal ran 22 instructions more, a 64-byte one 7), and a choice inside the kernels cost
 * gcc's copy of three stack arguments and a jump (9 instructions).
 */
VV_INLINE void VV_NAME(gcm_seal_groups)(const void *sched, const void *hkey, const uint8_t nonce[12],
                                        const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                                        size_t len, uint8_t tag[16])
{
    const __m128i shuf128 = aesni_swap_last_word_mask(), bswap128 = aesni_byte_reverse_mask();
    const __m128i j0 = VV_NAME(gcm_j0)(nonce);
    const __m128i lengths = _mm_set_epi64x((long long)((uint64_t)aad_len * 8), (long long)((uint64_t)len * 8));
    uint8_t ctr_bytes[16], acc_bytes[16];
    /* the counter of data block 0, inc32(J0) */
    _mm_storeu_si128((__m128i *)(void *)ctr_bytes,
                     _mm_shuffle_epi8(_mm_add_epi32(_mm_shuffle_epi8(j0, shuf128), _mm_set_epi32(1, 0, 0, 0)), shuf128));
    _mm_storeu_si128((__m128i *)(void *)acc_bytes,
                     _mm_shuffle_epi8(VV_NAME(hash_aad)((const struct VV_NAME(hkey) *)hkey, aad, aad_len), bswap128));
    VV_NAME(gcm_blocks)(sched, hkey, ctr_bytes, acc_bytes, in, out, len / 16, 0, 1, 0, &lengths);
    const __m128i e = VV_NAME(block1)(sched, j0, 0); /* E(J0) */
    _mm_storeu_si128((__m128i *)(void *)tag, _mm_xor_si128(e, _mm_loadu_si128((const __m128i *)(const void *)acc_bytes)));
}

VV_INLINE void VV_NAME(gcm_short)(const void *sched, const void *hkey, const uint8_t nonce[12],
                                  const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                                  size_t len, uint8_t tag[16], int decrypt, int piped)
{
    const struct VV_NAME(hkey) *hk = (const struct VV_NAME(hkey) *)hkey;
    /* the round keys straight from the schedule, each broadcast where the pass uses it: copied into a
       round_keys array first, they went through the stack (eleven zmm stores and reloads a call, the
       array indexed by the run-time round count), which a 64-byte seal paid in full */
    const struct aesni_sched *ks = (const struct aesni_sched *)sched;
    const __m128i shuf128 = aesni_swap_last_word_mask(), bswap128 = aesni_byte_reverse_mask();
    __m128i j0 = VV_NAME(gcm_j0)(nonce);
    /* the counter of data block 0, inc32(J0), in arithmetic form (dword 3 = 2) */
    __m128i c = _mm_add_epi32(_mm_shuffle_epi8(j0, shuf128), _mm_set_epi32(1, 0, 0, 0));
    const __m128i lengths = _mm_set_epi64x((long long)((uint64_t)aad_len * 8), (long long)((uint64_t)len * 8));
    size_t ablocks = (aad_len + 15) / 16, nblocks = (len + 15) / 16;
    struct VV_NAME(gf_sum) s;
    VV_NAME(gf_zero)(&s);
    __m128i acc = _mm_setzero_si128();
    size_t pos0 = 0, done = 0;

    if (ablocks + nblocks + 1 <= VV_GROUP) {
        /* one sum: A at positions 0..ablocks-1, C after it, L last */
        pos0 = ablocks;
        if (aad_len) VV_NAME(hash_bytes)(&s, hk, aad, aad_len, ablocks + nblocks + 1, acc);
    } else {
        acc = VV_NAME(hash_aad)(hk, aad, aad_len);
        VV_NAME(gf_zero)(&s);
        /* the whole groups of data; at most GROUP blocks are left */
        size_t bulk = (len / 16) / VV_GROUP * VV_GROUP;
        if (bulk && !piped && bulk <= VV_GROUP * (size_t)(decrypt ? VV_SHORT_GROUPS_OPEN : VV_SHORT_GROUPS_SEAL)) {
            /* A few groups as passes of their own (VV_SHORT_GROUPS_*): each is the last pass's form,
               GROUP blocks with acc in block 0 times H_GROUP..H_1, reduced, as the fused loop sums
               them. The fused loop pays a fixed cost that one or two groups do not earn back (its
               first group's AES and its last group's products run with nothing beside them). Here the next pass's AES rounds depend
               on nothing this pass hashes, so the core overlaps them by itself (an open's pass
               hashes after its rounds for that: short_pass's decrypt = 2). */
            vv_t gbase = VV_NAME(ctr_base)(c, 1);
            const vv_t gstep = VV_NAME(ctr_step)(VV_GROUP, 1);
            for (; done < 16 * bulk; done += 16 * VV_GROUP) {
                const uint8_t *gin = in + done;
                uint8_t *gout = out + done;
                __m128i ge; /* E(J0) again: the final pass's comes back in e */
                VV_NAME(short_pass)(ks, hk, &s, &gbase, &j0, &gin, &gout, 16 * VV_GROUP, VV_NVEC, 0, VV_GROUP,
                                    &acc, &ge, 1, decrypt ? 2 : 0);
                acc = VV_NAME(gf_finish)(&s);
                VV_NAME(gf_zero)(&s);
                gbase = vv_add32(gbase, gstep);
            }
            c = _mm_add_epi32(c, _mm_set_epi32((int)(uint32_t)bulk, 0, 0, 0));
        } else if (bulk) {
            /* more groups: the fused loop */
            uint8_t ctr_bytes[16], acc_bytes[16];
            _mm_storeu_si128((__m128i *)(void *)ctr_bytes, _mm_shuffle_epi8(c, shuf128));
            _mm_storeu_si128((__m128i *)(void *)acc_bytes, _mm_shuffle_epi8(acc, bswap128));
            VV_NAME(gcm_blocks)(sched, hkey, ctr_bytes, acc_bytes, in, out, bulk, decrypt, 1, piped, NULL);
            acc = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)acc_bytes), bswap128);
            c = _mm_add_epi32(c, _mm_set_epi32((int)(uint32_t)bulk, 0, 0, 0));
            done = 16 * bulk;
        }
    }

    size_t rest = nblocks - done / 16;          /* 0..GROUP data blocks left */
    int with_lengths = pos0 + rest + 1 <= VV_GROUP; /* the length block fits the same sum */
    size_t top = pos0 + rest + (size_t)with_lengths;
    size_t rb = len - done;
    vv_t base = VV_NAME(ctr_base)(c, 1);
    __m128i e;
    /* (in and out may be NULL when len is 0, and then done is 0: no offset is applied to them) */
    const uint8_t *pin = done ? in + done : in;
    uint8_t *pout = done ? out + done : out;
    /* acc goes into the first data block if there is one, else into the length block */
    __m128i acc_data = rest ? acc : _mm_setzero_si128(), acc_len = rest ? _mm_setzero_si128() : acc;
#define VV_SHORT_PASS(nv) VV_NAME(short_pass)(ks, hk, &s, &base, &j0, &pin, &pout, rb, (nv), pos0, top, &acc_data, &e, 1, decrypt)
    VV_SHORT_SWITCH(rb);
#undef VV_SHORT_PASS
    __m128i hash;
    vv_t h1 = vv_loadu(hk->desc[VV_GROUP - 1]); /* H_1, then zero entries */
    if (with_lengths) {
        VV_NAME(gf_mul_add)(&s, vv_zext128(_mm_xor_si128(lengths, acc_len)), h1, VV_NAME(kara_of)(h1));
        hash = VV_NAME(gf_finish)(&s);
    } else {
        /* rest == GROUP: the data's sum reduced, then one more step for the length block */
        struct aesni_gf_sum t;
        __m128i h = vv_cast128(h1);
        hash = VV_NAME(gf_finish)(&s);
        aesni_gf_sum_zero(&t);
        aesni_gf_mul_add(&t, _mm_xor_si128(hash, lengths), h, _mm_xor_si128(h, _mm_shuffle_epi32(h, 0x4e)));
        hash = aesni_gf_reduce(&t);
    }
    /* T = E(J0) ^ S, S back in GCM's byte order */
    _mm_storeu_si128((__m128i *)(void *)tag, _mm_xor_si128(e, _mm_shuffle_epi8(hash, bswap128)));
}

/*
 * gcm_seal_short2 / gcm_open_short2 (internal.h): two messages of the same public lengths, each of
 * which fits one sum (its AAD, data and length blocks at most GROUP), for the batch calls. One short
 * message is a chain: the counter, the AES rounds, the XOR, the products, the reduction, the tag,
 * each waiting on the one before; the AES units and the multiplier sit idle most of the call. Two
 * independent chains side by side fill them, and the round keys, the powers and the masks are
 * loaded once for both. Each message's bytes are gcm_short's: the same blocks, the same sum.
 */
VV_INLINE void VV_NAME(gcm_short2)(const void *sched, const void *hkey, const struct vg_gcm_short_msg *m,
                                   size_t aad_len, size_t len, int decrypt)
{
    const struct VV_NAME(hkey) *hk = (const struct VV_NAME(hkey) *)hkey;
    const struct aesni_sched *ks = (const struct aesni_sched *)sched;
    const __m128i shuf128 = aesni_swap_last_word_mask(), bswap128 = aesni_byte_reverse_mask();
    const __m128i lengths = _mm_set_epi64x((long long)((uint64_t)aad_len * 8), (long long)((uint64_t)len * 8));
    const size_t ablocks = (aad_len + 15) / 16, top = ablocks + (len + 15) / 16 + 1;
    struct VV_NAME(gf_sum) s[2];
    __m128i j0[2], acc[2], e[2];
    vv_t base[2];
    const uint8_t *in[2];
    uint8_t *out[2];
    VV_UNROLL
    for (int q = 0; q < 2; q++) {
        j0[q] = VV_NAME(gcm_j0)(m[q].nonce);
        base[q] = VV_NAME(ctr_base)(_mm_add_epi32(_mm_shuffle_epi8(j0[q], shuf128), _mm_set_epi32(1, 0, 0, 0)), 1);
        acc[q] = _mm_setzero_si128();
        in[q] = m[q].in;
        out[q] = m[q].out;
        VV_NAME(gf_zero)(&s[q]);
        if (aad_len) VV_NAME(hash_bytes)(&s[q], hk, m[q].aad, aad_len, top, acc[q]);
    }
#define VV_SHORT_PASS(nv) VV_NAME(short_pass)(ks, hk, s, base, j0, in, out, len, (nv), ablocks, top, acc, e, 2, decrypt)
    VV_SHORT_SWITCH(len);
#undef VV_SHORT_PASS
    vv_t h1 = vv_loadu(hk->desc[VV_GROUP - 1]); /* H_1, then zero entries */
    __m128i t[2];
    VV_UNROLL
    for (int q = 0; q < 2; q++) {
        VV_NAME(gf_mul_add)(&s[q], vv_zext128(lengths), h1, VV_NAME(kara_of)(h1));
        t[q] = _mm_xor_si128(e[q], _mm_shuffle_epi8(VV_NAME(gf_finish)(&s[q]), bswap128));
    }
    /* the tags last, after every read and every other write of both messages (internal.h) */
    VV_UNROLL
    for (int q = 0; q < 2; q++) _mm_storeu_si128((__m128i *)(void *)m[q].tag, t[q]);
}

/* vaes256 only: on Zen 4, vaes512's pair made batches of 16-192-byte seals 3-6% faster and of opens
   3-15% slower than one message at a time, which is how it takes them (docs/design.md). */
#if VV_LANES == 2
__attribute__((noinline)) VV_TARGET static void VV_NAME(gcm_seal_short2)(const void *sched, const void *hkey,
                                                                       const struct vg_gcm_short_msg *m,
                                                                       size_t aad_len, size_t len)
{
    VV_NAME(gcm_short2)(sched, hkey, m, aad_len, len, 0);
}
__attribute__((noinline)) VV_TARGET static void VV_NAME(gcm_open_short2)(const void *sched, const void *hkey,
                                                                       const struct vg_gcm_short_msg *m,
                                                                       size_t aad_len, size_t len)
{
    VV_NAME(gcm_short2)(sched, hkey, m, aad_len, len, 1);
}
#endif

/* The gcm_*_short slots group by group; the gcm_*_long slots (internal.h: from gcm_long_min = 4 KiB of
   data, where gcm_piped says yes to the seal) through the pipelined loop. Kept as separate functions:
   inlined into one, the pipelined loop made gcc allocate the short path's registers worse (a 1 KiB open
   ran 30 more instructions, spills among them, with its own code unchanged). noinline: so that
   gcm_open_long calls them rather than growing into such a function itself. */
#define VV_GCM_KERNEL(name, decrypt, piped)                                                                 \
    __attribute__((noinline)) VV_TARGET static void VV_NAME(name)(const void *sched, const void *hkey,      \
                                                                  const uint8_t nonce[12], const uint8_t *aad, \
                                                                  size_t aad_len, const uint8_t *in,          \
                                                                  uint8_t *out, size_t len, uint8_t tag[16])  \
    {                                                                                                       \
        VV_NAME(gcm_short)(sched, hkey, nonce, aad, aad_len, in, out, len, tag, (decrypt), (piped));        \
    }
VV_GCM_KERNEL(gcm_seal_short, 0, 0)
VV_GCM_KERNEL(gcm_open_short, 1, 0)
VV_GCM_KERNEL(gcm_seal_long, 0, 1)
VV_GCM_KERNEL(gcm_open_piped, 1, 1)
#undef VV_GCM_KERNEL

/* The gcm_seal_groups slot (internal.h; gcm_seal_groups_bytes = 16 GROUP), below gcm_long_min: group
   by group. From 4 KiB on the mode takes gcm_seal_long: there the reduction saved is worth about 1%,
   and a copy of the pipelined loop in this function ran 4% slower at 16 KiB (the same instructions,
   scheduled otherwise). */
__attribute__((noinline)) VV_TARGET static void VV_NAME(gcm_seal_groups_short)(const void *sched, const void *hkey,
                                                                             const uint8_t nonce[12],
                                                                             const uint8_t *aad, size_t aad_len,
                                                                             const uint8_t *in, uint8_t *out,
                                                                             size_t len, uint8_t tag[16])
{
    /* one group alone takes gcm_short's passes (VV_SHORT_GROUPS_SEAL) */
    if (VV_SHORT_GROUPS_SEAL && len == 16 * VV_GROUP)
        VV_NAME(gcm_seal_short)(sched, hkey, nonce, aad, aad_len, in, out, len, tag);
    else
        VV_NAME(gcm_seal_groups)(sched, hkey, nonce, aad, aad_len, in, out, len, tag);
}

/* An AES-128 open stays group by group at every length (gcm_piped). */
VV_TARGET static void VV_NAME(gcm_open_long)(const void *sched, const void *hkey, const uint8_t nonce[12],
                                             const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                             uint8_t *out, size_t len, uint8_t tag[16])
{
    if (VV_NAME(gcm_piped)(sched, len / 16, 1))
        VV_NAME(gcm_open_piped)(sched, hkey, nonce, aad, aad_len, in, out, len, tag);
    else
        VV_NAME(gcm_open_short)(sched, hkey, nonce, aad, aad_len, in, out, len, tag);
}
