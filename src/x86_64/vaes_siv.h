/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * vaes_siv.h — whole-message AES-GCM-SIV (RFC 8452) for short messages, over the vector width of
 * vaes_body.h: vaes512.c and vaes256.c include it right after vaes_body.h (same VV_* / vv_* macros,
 * same target), and point gcm_siv_seal_short / gcm_siv_open_short of their tables at it.
 *
 * Why: GCM-SIV derives two keys per message (RFC 8452 §4), so the general path in gcm_siv.c pays, per
 * message, an ECB call for the derivation, a full key expansion into a 3 KiB state, all VV_GROUP powers
 * of the POLYVAL key, three POLYVAL calls, a one-block ECB call for the tag and a CTR call, then wipes
 * the state. At 1 KiB that set-up was two thirds of the time. Here one call does the whole message:
 *   1. Derivation: the 4 (AES-128) or 6 (AES-256) blocks LE32(i) || nonce through the master key side
 *      by side in xmm registers (one AES latency for all of them).
 *   2. From the derived halves, two independent chains that the out-of-order core overlaps because
 *      nothing orders them: the K_enc expansion (aesenclast as SubWord, as aesni.h does; the round
 *      keys stay in registers) and the POLYVAL key's powers, only as many as this message uses:
 *      min(VV_GROUP, blocks of AAD + data + 1), doubled LANES -> 2 -> 4 -> 8 vectors as far as needed
 *      (the same doubling as store_powers in vaes_body.h). The powers go to a stack copy in whole
 *      vectors (struct siv_pow), from which a run starting at any power is two aligned loads and a
 *      lane shift; only the vectors written are wiped. Past VV_SIV_OPEN_CTR_FIRST bytes all of them,
 *      by siv_powers_group, a call of its own (for the proofs, below).
 *   3. POLYVAL(A || P || L) as one sum when the message is at most VV_GROUP blocks in all (block q of m
 *      multiplied by H_(m - q), one reduction; the zero padding of A's and P's last blocks is the bytes
 *      a byte-granular load leaves zero), else in pieces of VV_GROUP blocks, one reduction each, acc
 *      XORed into each piece's first block (Horner over pieces: acc' = (acc ^ X_0) H^k ^ ... ).
 *   4. The tag block through K_enc in an xmm register, then CTR with RFC 8452's little-endian 32-bit
 *      counter (ctr_n of vaes_body.h, the partial last block one more xmm block).
 * Open runs CTR (counter from the received tag), then POLYVAL over the plaintext it wrote, then the tag:
 * up to VV_SIV_OPEN_CTR_FIRST bytes the whole CTR pass first (it needs K_enc only, so it overlaps the
 * powers), above that stitched as GCM's seal is (vaes_body.h's encrypt_hash_group without the byte
 * reversal): each piece of GROUP blocks decrypted beside the POLYVAL of the piece before it. Every
 * input block is read before its output block is written, so in == out is safe.
 *
 * Constant time: branches only on aad_len, len and key_len (public); the powers computed follow from
 * the lengths. Per-message secrets in memory are wiped here: the powers written (and the group copy
 * with their Karatsuba halves) and K_enc's round keys (xmm and broadcast copies). What the compiler spills besides (sums, states)
 * is not, as in every other kernel of vaes_body.h.
 */

/* Open runs the whole CTR pass before the powers up to this length, so its vaesenc overlap the powers'
   vpclmulqdq; longer messages decrypt and hash piece by piece (GROUP blocks), which keeps the two
   units busy together for the whole message. Measured (TSC cycles, AES-128, vaes512 / vaes256): at
   16 KiB the piecewise open took 2800 / 4520 against 3030 / 5070 for CTR-first; at 1 KiB CTR-first
   was ~3% faster, at 4 KiB the two were even. With the pieces stitched (2026-12-04: 16 KiB 16.1 ->
   22.5 GB/s, vaes512, Zen 5) a threshold of 1024 was tried: vaes512's 2 and 4 KiB opens gained ~6-9%,
   vaes256's lost ~8%, so it stays. */
#define VV_SIV_OPEN_CTR_FIRST 4096

/* FIPS 197 key expansion in registers; see aesni.h (aesni_expand_key) for the aesenclast-as-SubWord trick:
   aesenclast(v, rcon) with v = RotWord(w) broadcast to all four columns is SubWord(RotWord(w)) ^ Rcon
   in every column, since ShiftRows does nothing to four equal columns. */
VV_INLINE __m128i VV_NAME(siv_prefix_xor)(__m128i v)
{
    v = _mm_xor_si128(v, _mm_slli_si128(v, 4));
    return _mm_xor_si128(v, _mm_slli_si128(v, 8));
}
/* SubWord(RotWord(word 3 of v)) ^ rc, in every column: RotWord of bytes 12..15 is bytes 13,14,15,12 */
#define VV_SIV_SUBROT3(v, rc) \
    _mm_aesenclast_si128(_mm_shuffle_epi8((v), _mm_setr_epi8(13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, \
                                                             13, 14, 15, 12)), _mm_set1_epi32(rc))

/* k[0..rounds] = the round keys of the 16- or 32-byte key (lo || hi for 32 bytes); returns rounds. */
VV_INLINE unsigned VV_NAME(siv_expand)(__m128i *k, __m128i lo, __m128i hi, size_t key_len)
{
    static const uint8_t rc[10] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36};
    if (key_len == 16) {
        k[0] = lo;
        for (int i = 0; i < 10; i++) k[i + 1] = _mm_xor_si128(VV_NAME(siv_prefix_xor)(k[i]), VV_SIV_SUBROT3(k[i], rc[i]));
        return 10;
    }
    /* Nk = 8: a' = prefix_xor(a) ^ SubWord(RotWord(b[3])) ^ Rcon, b' = prefix_xor(b) ^ SubWord(a'[3]) */
    k[0] = lo;
    k[1] = hi;
    for (int j = 1; j <= 7; j++) {
        k[2 * j] = _mm_xor_si128(VV_NAME(siv_prefix_xor)(k[2 * j - 2]), VV_SIV_SUBROT3(k[2 * j - 1], rc[j - 1]));
        if (j == 7) break;
        k[2 * j + 1] = _mm_xor_si128(VV_NAME(siv_prefix_xor)(k[2 * j - 1]),
                                     _mm_aesenclast_si128(_mm_shuffle_epi32(k[2 * j], 0xff), _mm_setzero_si128()));
    }
    return 14;
}

/* One block through round keys k[0..rounds] (xmm). */
VV_INLINE __m128i VV_NAME(siv_encrypt1)(const __m128i *k, unsigned rounds, __m128i b)
{
    b = _mm_xor_si128(b, k[0]);
    for (unsigned r = 1; r < rounds; r++) b = _mm_aesenc_si128(b, k[r]);
    return _mm_aesenclast_si128(b, k[rounds]);
}

/* The powers this message uses, in the descending layout of vaes_body.h's hkey (entry t = H_(GROUP - t),
   entries GROUP.. zero) but kept as whole aligned vectors: vec[q] = entries LANES q .. LANES q + LANES.
   The hash wants runs starting at any entry, and an unaligned load over vectors stored a few cycles
   earlier cannot take its data from the store buffer (measured: a ~20-cycle stall per load, a third of
   the 64-byte seal), so siv_pow_at loads the two aligned vectors (forwarded) and shifts lanes across. */
struct VV_NAME(siv_pow) {
    vv_t vec[VV_NVEC + 1];
};

/* Entries t .. t + LANES - 1 (t <= GROUP - 1; a public position). */
VV_INLINE vv_t VV_NAME(siv_pow_at)(const struct VV_NAME(siv_pow) *hp, size_t t)
{
    size_t q = t / VV_LANES, r = t % VV_LANES;
    vv_t a = hp->vec[q];
    if (r == 0) return a;
    vv_t b = hp->vec[q + 1];
#if VV_LANES == 2
    return _mm256_permute2x128_si256(a, b, 0x21); /* [a.lane1, b.lane0] */
#else
    /* lanes r.. of a, then lanes 0.. of b: valignq over the 1024-bit b:a by 2r qwords */
    if (r == 1) return _mm512_alignr_epi64(b, a, 2);
    if (r == 2) return _mm512_alignr_epi64(b, a, 4);
    return _mm512_alignr_epi64(b, a, 6);
#endif
}

/* The powers H_1..H_(LANES * nv) (nv = 1, 2, 4 or 8 vectors, the fewest that cover need; a public
   count) into hp, and the zero vector after H_1. Returns nv. */
VV_INLINE int VV_NAME(siv_powers)(struct VV_NAME(siv_pow) *hp, __m128i h1, size_t need)
{
    vv_t v[VV_NVEC];
    VV_UNROLL
    for (int j = 0; j < VV_NVEC; j++) v[j] = vv_zero(); /* (only the first nv are set and stored; gcc cannot tell) */
    int nv = need > 4 * VV_LANES ? 8 : need > 2 * VV_LANES ? 4 : need > VV_LANES ? 2 : 1;
    VV_NAME(power_vectors)(v, h1, nv);
    /* v[j] holds H_(LANES (j + 1)) .. H_(LANES j + 1), lanes descending: its top power comes first, at
       entry GROUP - LANES (j + 1): vector NVEC - 1 - j */
    VV_UNROLL
    for (int j = 0; j < VV_NVEC; j++)
        if (j < nv) hp->vec[VV_NVEC - 1 - j] = v[j];
    hp->vec[VV_NVEC] = vv_zero();
    return nv;
}

/* All GROUP powers, for messages past VV_SIV_OPEN_CTR_FIRST, in a function of its own that is never
   inlined. There the call is one in a message of over 4 KiB (noise beside its thousands of cycles), and
   it gives the proofs a function to prove once, on a symbolic H, and then take as that specification at
   its call: with true powers of H inside the stitched open, every POLYVAL product is a product of AES
   terms of degree popcount(k) in H's bits, which outgrew 20 GB (docs/proofs-equivalence.md). Shorter
   messages keep siv_powers inlined, making only the powers they use; their proofs take the true
   powers. */
__attribute__((noinline)) VV_TARGET static void VV_NAME(siv_powers_group)(struct VV_NAME(siv_pow) *hp, __m128i h1)
{
    (void)VV_NAME(siv_powers)(hp, h1, VV_GROUP);
}

/* s += X_q * H_(top - q) for the blocks q = 0, 1, .. of the nbytes (1..16*GROUP) bytes at p, the last
   block zero-padded, acc XORed into block 0 (POLYVAL: blocks as they are, no byte reversal). */
VV_INLINE void VV_NAME(siv_hash_bytes)(struct VV_NAME(gf_sum) *s, const struct VV_NAME(siv_pow) *hk,
                                       const uint8_t *p, size_t nbytes, size_t top, __m128i acc)
{
    for (size_t off = 0; off < nbytes; off += 16 * VV_LANES) {
        size_t k = nbytes - off < 16 * VV_LANES ? nbytes - off : 16 * VV_LANES;
        vv_t x = vv_load_bytes(p + off, k);
        if (off == 0) x = vv_xor(x, vv_zext128(acc));
        vv_t h = VV_NAME(siv_pow_at)(hk, VV_GROUP - top + off / 16);
        VV_NAME(gf_mul_add)(s, x, h, VV_NAME(kara_of)(h));
    }
}

/* out = in ^ keystream over len bytes, block i with the counter block ctr + i (RFC 8452: dword 0 is the
   little-endian counter, so the block is already in arithmetic form); rk = K_enc broadcast, k the same
   round keys in xmm for the partial last block. */
VV_INLINE void VV_NAME(siv_ctr)(const struct VV_NAME(round_keys) *rk, const __m128i *k, __m128i ctr,
                                const uint8_t *in, uint8_t *out, size_t len)
{
    size_t nblocks = len / 16, rest = len % 16;
    const vv_t shuf = vv_zero(); /* unused: little-endian counters need no shuffle */
    vv_t base = VV_NAME(ctr_base)(ctr, 0);
    const vv_t group = VV_NAME(ctr_step)(VV_GROUP, 0);
    size_t left = nblocks;
    for (; left >= VV_GROUP; left -= VV_GROUP, in += 16 * VV_GROUP, out += 16 * VV_GROUP) {
        VV_NAME(ctr_n)(rk, base, shuf, 0, in, out, VV_NVEC, VV_LANES);
        base = vv_add32(base, group);
    }
    if (left) {
#define VV_SIV_CTR_TAIL(n, last) VV_NAME(ctr_n)(rk, base, shuf, 0, in, out, (n), (last))
        VV_TAIL(left, VV_SIV_CTR_TAIL);
#undef VV_SIV_CTR_TAIL
    }
    if (rest) {
        /* counter + nblocks mod 2^32 on dword 0; one more block for the rest bytes */
        __m128i c = _mm_add_epi32(ctr, _mm_set_epi32(0, 0, 0, (int)(uint32_t)nblocks));
        __m128i ks = VV_NAME(siv_encrypt1)(k, rk->rounds, c);
        vv_t x = vv_xor(vv_load_bytes(in + 16 * left, rest), vv_zext128(ks));
        vv_store_bytes(out + 16 * left, x, rest);
    }
}

/* S = POLYVAL_H(A padded || D padded || lengths), register form = byte form (POLYVAL is little-endian).
   With decrypt, D (at d == out) is first made by CTR from in (counter block ctr) piece by piece, each piece hashed
   right after it is written: the hash of one piece (vpclmulqdq) overlaps the AES of the next (vaesenc),
   and it reads the plaintext back while it is in the store buffer or L1. */
VV_INLINE __m128i VV_NAME(siv_polyval)(const struct VV_NAME(siv_pow) *hk, const uint8_t *aad, size_t aad_len,
                                       const uint8_t *d, size_t len, const struct VV_NAME(round_keys) *rk,
                                       const __m128i *k, __m128i ctr, const uint8_t *in, uint8_t *out, int decrypt)
{
    const __m128i lengths = _mm_set_epi64x((long long)((uint64_t)len * 8), (long long)((uint64_t)aad_len * 8));
    const size_t ablocks = (aad_len + 15) / 16, dblocks = (len + 15) / 16;
    const vv_t h1 = VV_NAME(siv_pow_at)(hk, VV_GROUP - 1); /* H_1, then zero entries */
    struct VV_NAME(gf_sum) s;
    VV_NAME(gf_zero)(&s);
    if (ablocks + dblocks + 1 <= VV_GROUP) {
        /* one sum: A at positions 0.., D after it, the length block last (H_1) */
        size_t top = ablocks + dblocks + 1;
        if (decrypt && len) VV_NAME(siv_ctr)(rk, k, ctr, in, out, len);
        if (aad_len) VV_NAME(siv_hash_bytes)(&s, hk, aad, aad_len, top, _mm_setzero_si128());
        if (len) VV_NAME(siv_hash_bytes)(&s, hk, d, len, top - ablocks, _mm_setzero_si128());
        VV_NAME(gf_mul_add)(&s, vv_zext128(lengths), h1, VV_NAME(kara_of)(h1));
        return VV_NAME(gf_finish)(&s);
    }
    /* pieces of GROUP blocks, Horner over pieces (acc XORed into each piece's first block); whole
       pieces take vaes_body.h's group hash with the group's powers and Karatsuba halves made once */
    struct VV_NAME(group_powers) gp;
    VV_UNROLL
    for (int i = 0; i < VV_NVEC; i++) {
        gp.pow[i] = hk->vec[i];
        gp.kara[i] = VV_NAME(kara_of)(gp.pow[i]);
    }
    __m128i acc = _mm_setzero_si128();
    for (size_t off = 0; off < aad_len; off += 16 * VV_GROUP) {
        size_t n = aad_len - off < 16 * VV_GROUP ? aad_len - off : 16 * VV_GROUP;
        if (n == 16 * VV_GROUP) {
            acc = VV_NAME(gf_hash_group)(&gp, acc, aad + off, 0);
        } else {
            VV_NAME(gf_zero)(&s);
            VV_NAME(siv_hash_bytes)(&s, hk, aad + off, n, (n + 15) / 16, acc);
            acc = VV_NAME(gf_finish)(&s);
        }
    }
    int lengths_done = 0;
    size_t off0 = 0; /* the data bytes already decrypted and hashed */
    const size_t whole = len / (16 * VV_GROUP);
    if (decrypt && whole) {
        /* the whole pieces stitched, as vaes_body.h's GCM seal: piece p decrypted (CTR, counters in
           arithmetic form: RFC 8452's little-endian dword 0, no shuffle) beside the POLYVAL of piece
           p - 1's plaintext, written one piece earlier; the last whole piece hashed alone. Before
           (2026-12-04), CTR then POLYVAL piece by piece: 16 KiB open 16.1 GB/s (vaes512, Zen 5). */
        vv_t base = VV_NAME(ctr_base)(ctr, 0), b[VV_NVEC];
        const vv_t group = VV_NAME(ctr_step)(VV_GROUP, 0);
        for (size_t p = 0; p < whole; p++) {
            VV_UNROLL
            for (int i = 0; i < VV_NVEC; i++) b[i] = vv_add32(base, VV_NAME(ctr_step)((uint32_t)(i * VV_LANES), 0));
            base = vv_add32(base, group);
            if (p == 0)
                VV_NAME(encrypt_n)(rk, b, VV_NVEC);
            else
                acc = VV_NAME(encrypt_hash_group)(rk, &gp, b, acc, d + 16 * VV_GROUP * (p - 1), 1, 0, 0);
            VV_NAME(xor_store_group)(b, in + 16 * VV_GROUP * p, out + 16 * VV_GROUP * p);
        }
        acc = VV_NAME(gf_hash_group)(&gp, acc, d + 16 * VV_GROUP * (whole - 1), 0);
        off0 = 16 * VV_GROUP * whole;
    }
    for (size_t off = off0; off < len; off += 16 * VV_GROUP) {
        size_t n = len - off < 16 * VV_GROUP ? len - off : 16 * VV_GROUP;
        size_t nb = (n + 15) / 16;
        if (decrypt)
            VV_NAME(siv_ctr)(rk, k, _mm_add_epi32(ctr, _mm_set_epi32(0, 0, 0, (int)(uint32_t)(off / 16))),
                             in + off, out + off, n);
        if (n == 16 * VV_GROUP) {
            acc = VV_NAME(gf_hash_group)(&gp, acc, d + off, 0);
            continue;
        }
        /* the last, partial piece; the length block joins it when it fits (a piece of 16 GROUP - 15
           .. 16 GROUP - 1 bytes is GROUP blocks already) */
        int with_lengths = nb + 1 <= VV_GROUP;
        VV_NAME(gf_zero)(&s);
        VV_NAME(siv_hash_bytes)(&s, hk, d + off, n, nb + (size_t)with_lengths, acc);
        if (with_lengths) VV_NAME(gf_mul_add)(&s, vv_zext128(lengths), h1, VV_NAME(kara_of)(h1));
        acc = VV_NAME(gf_finish)(&s);
        lengths_done = with_lengths;
    }
    if (!lengths_done) {
        VV_NAME(gf_zero)(&s);
        VV_NAME(gf_mul_add)(&s, vv_zext128(_mm_xor_si128(lengths, acc)), h1, VV_NAME(kara_of)(h1));
        acc = VV_NAME(gf_finish)(&s);
    }
    vg_wipe(&gp, sizeof gp); /* the powers again, with their Karatsuba halves */
    return acc;
}

VV_INLINE void VV_NAME(siv_short)(const void *sched, size_t key_len, const uint8_t nonce[12], const uint8_t *aad,
                                  size_t aad_len, const uint8_t *in, uint8_t *out, size_t len,
                                  const uint8_t received[16], uint8_t tag[16], int decrypt)
{
    /* 1. derivation: block i = LE32(i) || nonce, all through the master key at once. The block is
       put together in registers (a 16-byte load over narrower stores would stall on store forwarding). */
    uint64_t n01;
    uint32_t n2;
    memcpy(&n01, nonce, 8);
    memcpy(&n2, nonce + 8, 4);
    const __m128i nonce_lo = _mm_insert_epi32(_mm_cvtsi64_si128((long long)n01), (int)n2, 2); /* nonce || 0^32 */
    const __m128i nblk = _mm_slli_si128(nonce_lo, 4);                                          /* 0^32 || nonce */
    const struct aesni_sched *ms = (const struct aesni_sched *)sched;
    const unsigned mrounds = ms->rounds;
    const int nd = key_len == 16 ? 4 : 6;
    __m128i d[6];
    __m128i k0 = _mm_loadu_si128((const __m128i *)ms->enc[0]);
    for (int i = 0; i < 6; i++) d[i] = _mm_xor_si128(_mm_insert_epi32(nblk, i, 0), k0);
    for (unsigned r = 1; r < mrounds; r++) {
        __m128i kr = _mm_loadu_si128((const __m128i *)ms->enc[r]);
        d[0] = _mm_aesenc_si128(d[0], kr);
        d[1] = _mm_aesenc_si128(d[1], kr);
        d[2] = _mm_aesenc_si128(d[2], kr);
        d[3] = _mm_aesenc_si128(d[3], kr);
        if (nd == 6) {
            d[4] = _mm_aesenc_si128(d[4], kr);
            d[5] = _mm_aesenc_si128(d[5], kr);
        }
    }
    __m128i kl = _mm_loadu_si128((const __m128i *)ms->enc[mrounds]);
    for (int i = 0; i < 6; i++) d[i] = _mm_aesenclast_si128(d[i], kl);
    /* H = the first 8 bytes of blocks 0 and 1; K_enc those of blocks 2..3 (or 2..5) */
    __m128i h1 = _mm_unpacklo_epi64(d[0], d[1]);
    __m128i klo = _mm_unpacklo_epi64(d[2], d[3]);
    __m128i khi = key_len == 16 ? _mm_setzero_si128() : _mm_unpacklo_epi64(d[4], d[5]);

    /* 2. two independent chains: K_enc's round keys, and the powers this message uses */
    __m128i k[15];
    unsigned rounds = VV_NAME(siv_expand)(k, klo, khi, key_len);
    struct VV_NAME(round_keys) rk;
    rk.rounds = rounds;
    for (unsigned i = 0; i <= rounds; i++) rk.k[i] = vv_bcast128(k[i]);
    const __m128i clear127 = _mm_set_epi32(0x7fffffff, -1, -1, -1), set127 = _mm_set_epi32((int)0x80000000, 0, 0, 0);
    if (decrypt && len <= VV_SIV_OPEN_CTR_FIRST) {
        /* open: the CTR pass needs K_enc only, not the powers; written before them, its vaesenc run
           beside their vpclmulqdq */
        __m128i rt = _mm_loadu_si128((const __m128i *)(const void *)received);
        VV_NAME(siv_ctr)(&rk, k, _mm_or_si128(rt, set127), in, out, len);
    }
    size_t total = (aad_len + 15) / 16 + (len + 15) / 16 + 1;
    struct VV_NAME(siv_pow) hk;
    int nv = VV_NVEC;
    if (len > VV_SIV_OPEN_CTR_FIRST) /* (then total > GROUP: every power) */
        VV_NAME(siv_powers_group)(&hk, h1);
    else
        nv = VV_NAME(siv_powers)(&hk, h1, total < VV_GROUP ? total : VV_GROUP);

    /* 3./4. tag = E_Kenc((S ^ nonce) with bit 127 cleared); CTR from the tag with bit 127 set */
    __m128i s, t;
    if (decrypt && len <= VV_SIV_OPEN_CTR_FIRST) {
        s = VV_NAME(siv_polyval)(&hk, aad, aad_len, out, len, &rk, k, set127, NULL, NULL, 0);
        t = VV_NAME(siv_encrypt1)(k, rounds, _mm_and_si128(_mm_xor_si128(s, nonce_lo), clear127));
    } else if (!decrypt) {
        s = VV_NAME(siv_polyval)(&hk, aad, aad_len, in, len, &rk, k, set127, NULL, NULL, 0);
        t = VV_NAME(siv_encrypt1)(k, rounds, _mm_and_si128(_mm_xor_si128(s, nonce_lo), clear127));
        VV_NAME(siv_ctr)(&rk, k, _mm_or_si128(t, set127), in, out, len);
    } else {
        __m128i rt = _mm_loadu_si128((const __m128i *)(const void *)received);
        s = VV_NAME(siv_polyval)(&hk, aad, aad_len, out, len, &rk, k, _mm_or_si128(rt, set127), in, out, 1);
        t = VV_NAME(siv_encrypt1)(k, rounds, _mm_and_si128(_mm_xor_si128(s, nonce_lo), clear127));
    }
    _mm_storeu_si128((__m128i *)(void *)tag, t);

    /* wipe the per-message secrets stored: the powers and K_enc's round keys (xmm and broadcast) */
    vg_wipe(&hk.vec[VV_NVEC - nv], sizeof(vv_t) * (size_t)nv); /* the powers written (not the zero vector) */
    vg_wipe(k, sizeof(__m128i) * (rounds + 1));
    vg_wipe(rk.k, sizeof(vv_t) * (rounds + 1));
}

VV_TARGET static void VV_NAME(gcm_siv_seal_short)(const void *sched, size_t key_len, const uint8_t nonce[12],
                                                  const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                                  uint8_t *out, size_t len, uint8_t tag[16])
{
    VV_NAME(siv_short)(sched, key_len, nonce, aad, aad_len, in, out, len, NULL, tag, 0);
}

VV_TARGET static void VV_NAME(gcm_siv_open_short)(const void *sched, size_t key_len, const uint8_t nonce[12],
                                                  const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                                  uint8_t *out, size_t len, const uint8_t received[16],
                                                  uint8_t tag[16])
{
    VV_NAME(siv_short)(sched, key_len, nonce, aad, aad_len, in, out, len, received, tag, 1);
}
