/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * aesni_gcm.c — the fused GCM kernels: CTR (inc32) for 8 blocks stitched with GHASH of 8 ciphertext
 * blocks, so the AES units (aesenc) and the carry-less multiplier (pclmulqdq) work at the same time.
 *
 * CPU features: AES-NI, PCLMULQDQ, SSSE3, SSE4.1 (VG_AESNI_TARGET).
 *
 * Why stitch: CTR alone leaves the multiplier idle and GHASH alone leaves the AES units idle; issuing
 * one block's three GHASH multiplies between two AES rounds of the 8 counter blocks lets both run in
 * the same cycles. Rounds 1..8 each carry the GHASH of one block (every key size has at least 10
 * rounds), the remaining rounds carry the reduction.
 *
 * Register use in the loop: b[0..7] the counter blocks being encrypted, the GHASH accumulator acc
 * (POLYVAL form, see aesni_ghash.c section 2), lo/hi/mid the unreduced Karatsuba sums of this group,
 * x and its half-sum for the block being hashed; round keys and H powers are aligned stack operands.
 *
 * Speed (AES-128, 16 KiB, AMD EPYC dev machine at ~3.5 GHz): CTR alone runs at its bound of 40 cycles
 * per 8 blocks (80 aesenc, 2 per cycle) and GHASH alone at its bound of 52 (26 pclmulqdq, one per 2
 * cycles); this stitched loop takes ~72-76, against ~92 for the two run one after the other, and
 * beats OpenSSL 3.0's AES-NI GCM on the same machine by 10-25%. Not reached: the 52-cycle bound;
 * removing the reduction or a third of the multiplies barely moved it, so the limit is the sharing
 * of the vector pipes, not the multiply count.
 *
 * Both kernels take whole groups of 8 blocks only and return how many blocks they did (a multiple
 * of 8); the mode finishes a remainder with aes_ctr32 (4/2/1 tail) and ghash_update.
 *
 * Seal hashes ciphertext it has just written, so it runs one group behind: group g is encrypted while
 * group g-1's ciphertext (reloaded from out, still in L1) is hashed; the last group is hashed alone.
 * Open knows its ciphertext up front: group g is hashed while its own keystream is computed. All of a
 * group's ciphertext is read (for GHASH) before any of its plaintext is written, and each output block
 * is written after its input block is read again, so in == out works.
 */
#include "aesni.h"

/* Counter blocks ctr + 0..7 (ctr in arithmetic form, see aesni_aes.c) XORed with round key 0. */
VG_AESNI_INLINE void counters8(__m128i *b, __m128i *ctr, __m128i shuf, __m128i k0)
{
    for (int i = 0; i < 8; i++)
        b[i] = _mm_xor_si128(_mm_shuffle_epi8(_mm_add_epi32(*ctr, _mm_set_epi32(i, 0, 0, 0)), shuf), k0);
    *ctr = _mm_add_epi32(*ctr, _mm_set_epi32(8, 0, 0, 0));
}

/* Encrypts the 8 blocks b (already XORed with round key 0) and meanwhile returns acc after the 8
   ciphertext blocks at hash_in (acc' = sum X_j H_(8-j) with X_1 ^= acc, one reduction). */
VG_AESNI_INLINE __m128i encrypt8_hash8(const struct aesni_round_keys *rk, const struct aesni_hpowers *hp,
                                       __m128i *b, __m128i acc, const uint8_t *hash_in)
{
    const __m128i bswap = aesni_byte_reverse_mask();
    struct aesni_gf_sum s;
    aesni_gf_sum_zero(&s);
    for (int r = 1; r <= 8; r++) {
        __m128i k = rk->k[r];
        for (int i = 0; i < 8; i++) b[i] = _mm_aesenc_si128(b[i], k);
        /* Block j of the group times H_(8-j): blocks 1..7 first, block 0 (the one that needs acc,
           i.e. the previous group's reduction) last, so that reduction has a whole group's rounds
           to finish before anything waits for it. */
        int j = r & 7;
        __m128i x = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(hash_in + 16 * j)), bswap);
        if (j == 0) x = _mm_xor_si128(x, acc);
        aesni_gf_mul_add(&s, x, hp->pow[7 - j], hp->kara[7 - j]);
        AESNI_PIN3(s.lo, s.hi, s.mid); /* aesni.h: seal and open 16 KiB +7% / +2.5% */
    }
    acc = aesni_gf_reduce(&s);
    for (unsigned r = 9; r < rk->rounds; r++) {
        __m128i k = rk->k[r];
        for (int i = 0; i < 8; i++) b[i] = _mm_aesenc_si128(b[i], k);
    }
    for (int i = 0; i < 8; i++) b[i] = _mm_aesenclast_si128(b[i], rk->k[rk->rounds]);
    return acc;
}

/* out[i] = in[i] ^ b[i]; each input block is loaded just before its output block is stored. */
VG_AESNI_INLINE void xor_store8(const __m128i *b, const uint8_t *in, uint8_t *out)
{
    for (int i = 0; i < 8; i++)
        _mm_storeu_si128((__m128i *)(out + 16 * i),
                         _mm_xor_si128(b[i], _mm_loadu_si128((const __m128i *)(in + 16 * i))));
}

VG_AESNI_TARGET
size_t vg_aesni_gcm_seal_blocks(const void *sched, const void *hkey, uint8_t counter[16], uint8_t acc[16],
                             const uint8_t *in, uint8_t *out, size_t nblocks)
{
    size_t n = nblocks & ~(size_t)7;
    if (n == 0) return 0;
    struct aesni_round_keys rk;
    struct aesni_hpowers hp;
    aesni_load_enc_keys(&rk, sched);
    aesni_load_hpowers(&hp, hkey);
    const __m128i shuf = aesni_swap_last_word_mask();
    const __m128i bswap = aesni_byte_reverse_mask();
    __m128i ctr = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)counter), shuf);
    __m128i a = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)acc), bswap);
    __m128i b[8];

    /* Group 0: nothing to hash yet. */
    counters8(b, &ctr, shuf, rk.k[0]);
    for (unsigned r = 1; r < rk.rounds; r++) {
        __m128i k = rk.k[r];
        for (int i = 0; i < 8; i++) b[i] = _mm_aesenc_si128(b[i], k);
    }
    for (int i = 0; i < 8; i++) b[i] = _mm_aesenclast_si128(b[i], rk.k[rk.rounds]);
    xor_store8(b, in, out);

    /* Group g >= 1, hashing group g-1's ciphertext. */
    for (size_t done = 8; done < n; done += 8) {
        counters8(b, &ctr, shuf, rk.k[0]);
        a = encrypt8_hash8(&rk, &hp, b, a, out + 16 * (done - 8));
        xor_store8(b, in + 16 * done, out + 16 * done);
    }
    a = aesni_gf_hash_n(&hp, a, out + 16 * (n - 8), 8, 1);

    _mm_storeu_si128((__m128i *)acc, _mm_shuffle_epi8(a, bswap));
    _mm_storeu_si128((__m128i *)counter, _mm_shuffle_epi8(ctr, shuf));
    return n;
}

VG_AESNI_TARGET
size_t vg_aesni_gcm_open_blocks(const void *sched, const void *hkey, uint8_t counter[16], uint8_t acc[16],
                             const uint8_t *in, uint8_t *out, size_t nblocks)
{
    size_t n = nblocks & ~(size_t)7;
    if (n == 0) return 0;
    struct aesni_round_keys rk;
    struct aesni_hpowers hp;
    aesni_load_enc_keys(&rk, sched);
    aesni_load_hpowers(&hp, hkey);
    const __m128i shuf = aesni_swap_last_word_mask();
    const __m128i bswap = aesni_byte_reverse_mask();
    __m128i ctr = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)counter), shuf);
    __m128i a = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)acc), bswap);
    __m128i b[8];

    for (size_t done = 0; done < n; done += 8) {
        counters8(b, &ctr, shuf, rk.k[0]);
        a = encrypt8_hash8(&rk, &hp, b, a, in + 16 * done);
        xor_store8(b, in + 16 * done, out + 16 * done);
    }

    _mm_storeu_si128((__m128i *)acc, _mm_shuffle_epi8(a, bswap));
    _mm_storeu_si128((__m128i *)counter, _mm_shuffle_epi8(ctr, shuf));
    return n;
}

/* ---------------------------------------------------------------------------------------------- */
/* Short one-shot GCM (gcm_seal_short / gcm_open_short)                                             */
/*
 * The same plan as vaes_body.h's short kernels, one block per register and H_1..H_8: E(J0) made in
 * the same AES rounds as the data's keystream, GHASH(A || C || L) as one sum of X_q * H_(m - q) reduced
 * once when the message has at most 8 blocks in all (AAD, data and the length block), else the AAD in
 * pieces of 8, the whole groups of 8 data blocks through the fused loop above, and the rest (at most 8
 * blocks) with the length block in one sum. A partial last block goes through a 16-byte stack copy.
 */

/* The first n (0..16) bytes at p, zero-padded; nothing past p + n is read. */
VG_AESNI_INLINE __m128i load_bytes(const uint8_t *p, size_t n)
{
    if (n >= 16) return _mm_loadu_si128((const __m128i *)(const void *)p);
    uint8_t t[16] = { 0 };
    memcpy(t, p, n);
    return _mm_loadu_si128((const __m128i *)(const void *)t);
}

VG_AESNI_INLINE void store_bytes(uint8_t *p, __m128i v, size_t n)
{
    if (n >= 16) {
        _mm_storeu_si128((__m128i *)(void *)p, v);
        return;
    }
    uint8_t t[16];
    _mm_storeu_si128((__m128i *)(void *)t, v);
    memcpy(p, t, n);
}

/* v with bytes n..15 cleared (byte i kept iff n > i) */
VG_AESNI_INLINE __m128i keep_bytes(__m128i v, size_t n)
{
    return _mm_and_si128(v, _mm_cmpgt_epi8(_mm_set1_epi8((char)n),
                                           _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)));
}

/* s += X * H_k, H_k read straight from the key (a short message uses each power once) */
VG_AESNI_INLINE void mul_add_power(struct aesni_gf_sum *s, const struct aesni_hkey *hk, __m128i x, size_t k)
{
    aesni_gf_mul_add(s, x, _mm_loadu_si128((const __m128i *)(const void *)hk->pow[k - 1]),
                     _mm_loadu_si128((const __m128i *)(const void *)hk->kara[k - 1]));
}

/* s += X_q * H_(top - q) for the blocks of the nbytes (1..128) bytes at p, the last zero-padded, with
   acc (POLYVAL form) XORed into block 0. */
VG_AESNI_INLINE void hash_bytes(struct aesni_gf_sum *s, const struct aesni_hkey *hk, const uint8_t *p,
                                size_t nbytes, size_t top, __m128i acc)
{
    const __m128i bswap = aesni_byte_reverse_mask();
    for (size_t off = 0; off < nbytes; off += 16) {
        __m128i x = _mm_shuffle_epi8(load_bytes(p + off, nbytes - off), bswap);
        if (off == 0) x = _mm_xor_si128(x, acc);
        mul_add_power(s, hk, x, top - off / 16);
    }
}

/* The last pass: rb bytes of data in n blocks (n a constant after inlining, 0..8), counters from ctr
   (arithmetic form), E(J0) from j0 beside them; data block i takes GHASH position pos0 + i of a sum
   with powers from top, acc XORed into data block 0. */
VG_AESNI_INLINE __m128i short_pass(const struct aesni_round_keys *rk, const struct aesni_hkey *hk,
                                   struct aesni_gf_sum *s, __m128i ctr, __m128i j0, const uint8_t *in,
                                   uint8_t *out, size_t rb, int n, size_t pos0, size_t top, __m128i acc,
                                   int decrypt)
{
    const __m128i shuf = aesni_swap_last_word_mask(), bswap = aesni_byte_reverse_mask();
    const size_t last = n ? rb - (size_t)(16 * (n - 1)) : 0;
    __m128i b[9], x[9];
    for (int i = 0; i < n; i++) {
        b[i] = _mm_xor_si128(_mm_shuffle_epi8(_mm_add_epi32(ctr, _mm_set_epi32(i, 0, 0, 0)), shuf), rk->k[0]);
        x[i] = _mm_setzero_si128(); /* (set below for open; gcc -O2 cannot see that) */
    }
    if (decrypt) {
        for (int i = 0; i < n; i++) {
            x[i] = i == n - 1 ? load_bytes(in + 16 * i, last) : _mm_loadu_si128((const __m128i *)(in + 16 * i));
            __m128i y = _mm_shuffle_epi8(x[i], bswap);
            if (i == 0) y = _mm_xor_si128(y, acc);
            mul_add_power(s, hk, y, top - pos0 - (size_t)i);
        }
    }
    __m128i e = _mm_xor_si128(j0, rk->k[0]);
    for (unsigned r = 1; r < rk->rounds; r++) {
        __m128i k = rk->k[r];
        for (int i = 0; i < n; i++) b[i] = _mm_aesenc_si128(b[i], k);
        e = _mm_aesenc_si128(e, k);
    }
    for (int i = 0; i < n; i++) b[i] = _mm_aesenclast_si128(b[i], rk->k[rk->rounds]);
    e = _mm_aesenclast_si128(e, rk->k[rk->rounds]);
    for (int i = 0; i < n; i++) {
        if (decrypt) {
            __m128i p = _mm_xor_si128(b[i], x[i]);
            if (i == n - 1) store_bytes(out + 16 * i, p, last);
            else _mm_storeu_si128((__m128i *)(out + 16 * i), p);
        } else {
            __m128i c;
            if (i == n - 1) {
                c = keep_bytes(_mm_xor_si128(b[i], load_bytes(in + 16 * i, last)), last); /* C_n* || 0^u */
                store_bytes(out + 16 * i, c, last);
            } else {
                c = _mm_xor_si128(b[i], _mm_loadu_si128((const __m128i *)(in + 16 * i)));
                _mm_storeu_si128((__m128i *)(out + 16 * i), c);
            }
            __m128i y = _mm_shuffle_epi8(c, bswap);
            if (i == 0) y = _mm_xor_si128(y, acc);
            mul_add_power(s, hk, y, top - pos0 - (size_t)i);
        }
    }
    return e;
}

VG_AESNI_INLINE void gcm_short(const void *sched, const void *hkey, const uint8_t nonce[12], const uint8_t *aad,
                               size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16],
                               int decrypt)
{
    const struct aesni_hkey *hk = (const struct aesni_hkey *)hkey;
    struct aesni_round_keys rk;
    aesni_load_enc_keys(&rk, sched);
    const __m128i shuf = aesni_swap_last_word_mask(), bswap = aesni_byte_reverse_mask();
    uint32_t n2;
    memcpy(&n2, nonce + 8, 4);
    /* J0 = nonce || 0^31 || 1 */
    __m128i j0 = _mm_insert_epi32(_mm_insert_epi32(_mm_loadl_epi64((const __m128i *)(const void *)nonce),
                                                   (int)n2, 2), 0x01000000, 3);
    __m128i ctr = _mm_add_epi32(_mm_shuffle_epi8(j0, shuf), _mm_set_epi32(1, 0, 0, 0)); /* inc32(J0) */
    const __m128i lengths = _mm_set_epi64x((long long)((uint64_t)aad_len * 8), (long long)((uint64_t)len * 8));
    size_t ablocks = (aad_len + 15) / 16, nblocks = (len + 15) / 16;
    struct aesni_gf_sum s;
    aesni_gf_sum_zero(&s);
    __m128i acc = _mm_setzero_si128();
    size_t pos0 = 0, done = 0;

    if (ablocks + nblocks + 1 <= AESNI_HPOWERS) {
        pos0 = ablocks;
        if (aad_len) hash_bytes(&s, hk, aad, aad_len, ablocks + nblocks + 1, acc);
    } else {
        for (size_t off = 0; off < aad_len; off += 16 * AESNI_HPOWERS) {
            size_t k = aad_len - off < 16 * AESNI_HPOWERS ? aad_len - off : 16 * AESNI_HPOWERS;
            aesni_gf_sum_zero(&s);
            hash_bytes(&s, hk, aad + off, k, (k + 15) / 16, acc);
            acc = aesni_gf_reduce(&s);
        }
        aesni_gf_sum_zero(&s);
        size_t bulk = (len / 16) & ~(size_t)7;
        if (bulk) {
            uint8_t ctr_bytes[16], acc_bytes[16];
            _mm_storeu_si128((__m128i *)(void *)ctr_bytes, _mm_shuffle_epi8(ctr, shuf));
            _mm_storeu_si128((__m128i *)(void *)acc_bytes, _mm_shuffle_epi8(acc, bswap));
            if (decrypt)
                vg_aesni_gcm_open_blocks(sched, hkey, ctr_bytes, acc_bytes, in, out, bulk);
            else
                vg_aesni_gcm_seal_blocks(sched, hkey, ctr_bytes, acc_bytes, in, out, bulk);
            acc = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)acc_bytes), bswap);
            ctr = _mm_add_epi32(ctr, _mm_set_epi32((int)(uint32_t)bulk, 0, 0, 0));
            done = 16 * bulk;
        }
    }

    size_t rest = nblocks - done / 16; /* 0..8 */
    int with_lengths = pos0 + rest + 1 <= AESNI_HPOWERS;
    size_t top = pos0 + rest + (size_t)with_lengths;
    size_t rb = len - done;
    /* (in and out may be NULL when len is 0, and then done is 0: no offset is applied to them) */
    const uint8_t *pin = done ? in + done : in;
    uint8_t *pout = done ? out + done : out;
    __m128i acc_data = rest ? acc : _mm_setzero_si128(), acc_len = rest ? _mm_setzero_si128() : acc;
    __m128i e;
#define SHORT_PASS(nb) e = short_pass(&rk, hk, &s, ctr, j0, pin, pout, rb, (nb), pos0, top, acc_data, decrypt)
    switch (rest) {
    case 0: SHORT_PASS(0); break;
    case 1: SHORT_PASS(1); break;
    case 2: SHORT_PASS(2); break;
    case 3: SHORT_PASS(3); break;
    case 4: SHORT_PASS(4); break;
    case 5: SHORT_PASS(5); break;
    case 6: SHORT_PASS(6); break;
    case 7: SHORT_PASS(7); break;
    default: SHORT_PASS(8); break;
    }
#undef SHORT_PASS
    __m128i hash;
    if (with_lengths) {
        mul_add_power(&s, hk, _mm_xor_si128(lengths, acc_len), 1);
        hash = aesni_gf_reduce(&s);
    } else {
        /* rest == 8: the data's sum reduced, then one more step for the length block */
        struct aesni_gf_sum t;
        hash = aesni_gf_reduce(&s);
        aesni_gf_sum_zero(&t);
        mul_add_power(&t, hk, _mm_xor_si128(hash, lengths), 1);
        hash = aesni_gf_reduce(&t);
    }
    _mm_storeu_si128((__m128i *)(void *)tag, _mm_xor_si128(e, _mm_shuffle_epi8(hash, bswap)));
}

VG_AESNI_TARGET
void vg_aesni_gcm_seal_short(const void *sched, const void *hkey, const uint8_t nonce[12], const uint8_t *aad,
                          size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16])
{
    gcm_short(sched, hkey, nonce, aad, aad_len, in, out, len, tag, 0);
}

VG_AESNI_TARGET
void vg_aesni_gcm_open_short(const void *sched, const void *hkey, const uint8_t nonce[12], const uint8_t *aad,
                          size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16])
{
    gcm_short(sched, hkey, nonce, aad, aad_len, in, out, len, tag, 1);
}
