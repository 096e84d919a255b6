/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * modes.c — the executable spec of the AEADs: GCM (NIST SP 800-38D, 2007), AES-GCM-SIV (RFC 8452) and
 * CCM (NIST SP 800-38C, 2004 with the 2007 errata).
 *
 * Written to be checked line by line against the documents, not for speed and NOT constant time. Each
 * step names its section. The only primitive used is the block cipher CIPH_K of aes.c; everything else
 * (GF(2^128) products, counters, length encodings) is done here, from the definitions, so that a test
 * comparing the library with this file checks the library's own derivations (e.g. that its POLYVAL is
 * GHASH in disguise) against an independent reading of each standard.
 *
 * The messages a test passes are small, so the formatted strings the standards define (GHASH's
 * A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64, CCM's B_0 || ... || B_r) are built in full in
 * a malloc'd buffer and then processed, exactly as the documents write them.
 */
#include "spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- shared helpers ---------------------------------------------------------------------------------- */

static void *spec_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "spec: out of memory\n");
        abort();
    }
    return p;
}

/* CIPH_K(X) of SP 800-38A/C/D, and AES(key, X) of RFC 8452: one forward block of FIPS 197. */
static void ciph(const uint8_t *key, size_t key_len, const uint8_t in[16], uint8_t out[16])
{
    spec_aes_encrypt_block(key, key_len, in, out);
}

/* Writes data then zero bytes up to the next multiple of 16 (nothing when len is already one), and
   returns where the next field goes: the "X || 0^s" of SP 800-38D §7.1 and the zero padding of
   RFC 8452 §4 and SP 800-38C Appendix A.2.2/A.2.3. */
static uint8_t *append_padded(uint8_t *p, const uint8_t *data, size_t len)
{
    if (len > 0)
        memcpy(p, data, len);
    size_t padded = (len + 15) / 16 * 16;
    memset(p + len, 0, padded - len);
    return p + padded;
}

static size_t padded_len(size_t len)
{
    return (len + 15) / 16 * 16;
}

/* [x]_64 of SP 800-38D (big-endian) and the encodings of SP 800-38C Appendix A (big-endian, n bytes). */
static void put_be(uint8_t *p, uint64_t x, size_t nbytes)
{
    for (size_t i = 0; i < nbytes; i++)
        p[nbytes - 1 - i] = (i < 8) ? (uint8_t)(x >> (8 * i)) : 0;
}

/* RFC 8452 §2 little-endian encodings. */
static void put_le(uint8_t *p, uint64_t x, size_t nbytes)
{
    for (size_t i = 0; i < nbytes; i++)
        p[i] = (uint8_t)(x >> (8 * i));
}

static uint32_t get_le32(const uint8_t p[4])
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* ====================================== GCM, SP 800-38D =============================================== */

/* §6.2 inc32(X): the rightmost 32 bits, read as a big-endian integer, plus 1 mod 2^32. */
static void gcm_inc32(uint8_t x[16])
{
    uint32_t n = ((uint32_t)x[12] << 24) | ((uint32_t)x[13] << 16) | ((uint32_t)x[14] << 8) | (uint32_t)x[15];
    n = (uint32_t)(n + 1u);
    put_be(x + 12, n, 4);
}

/* §6.3 Algorithm 1, X • Y in GF(2^128) for the polynomial 1 + x + x^2 + x^7 + x^128. A block is a bit
   string x_0 x_1 ... x_127 with x_0 the most significant bit of byte 0 (§6.1: the leftmost bit is the
   coefficient of x^0), so "V >> 1" moves every bit one place towards byte 15's least significant bit. */
static void gcm_multiply(const uint8_t x[16], const uint8_t y[16], uint8_t result[16])
{
    uint8_t z[16] = { 0 }; /* Z_0 = 0^128 */
    uint8_t v[16];         /* V_0 = Y */
    memcpy(v, y, 16);
    for (int i = 0; i < 128; i++) {
        int x_i = (x[i / 8] >> (7 - i % 8)) & 1;
        /* Z_(i+1) = Z_i if x_i = 0, else Z_i xor V_i */
        if (x_i)
            for (int j = 0; j < 16; j++)
                z[j] ^= v[j];
        /* V_(i+1) = V_i >> 1 if LSB_1(V_i) = 0, else (V_i >> 1) xor R, R = 11100001 || 0^120 */
        int lsb = v[15] & 1;
        for (int j = 15; j > 0; j--)
            v[j] = (uint8_t)((v[j] >> 1) | (v[j - 1] << 7));
        v[0] >>= 1;
        if (lsb)
            v[0] ^= 0xe1;
    }
    memcpy(result, z, 16);
}

/* §6.4 Algorithm 2, GHASH_H(X) for X = X_1 || ... || X_m: Y_0 = 0^128, Y_i = (Y_(i-1) xor X_i) • H. */
void spec_ghash(const uint8_t h[16], const uint8_t *x, size_t m, uint8_t y[16])
{
    memset(y, 0, 16);
    for (size_t i = 0; i < m; i++) {
        uint8_t sum[16];
        for (int j = 0; j < 16; j++)
            sum[j] = y[j] ^ x[16 * i + j];
        gcm_multiply(sum, h, y);
    }
}

/* §6.5 Algorithm 3, GCTR_K(ICB, X): CB_1 = ICB, CB_i = inc32(CB_(i-1)), Y_i = X_i xor CIPH_K(CB_i), and
   the last, possibly partial, block X_n* is XORed with MSB_len(X_n*)(CIPH_K(CB_n)). An empty X gives an
   empty Y. y may equal x. */
static void gcm_gctr(const uint8_t *key, size_t key_len, const uint8_t icb[16], const uint8_t *x, size_t len,
                     uint8_t *y)
{
    uint8_t cb[16];
    memcpy(cb, icb, 16);
    for (size_t offset = 0; offset < len; offset += 16) {
        uint8_t keystream[16];
        size_t n = (len - offset < 16) ? len - offset : 16;
        ciph(key, key_len, cb, keystream);
        for (size_t j = 0; j < n; j++)
            y[offset + j] = x[offset + j] ^ keystream[j];
        gcm_inc32(cb);
    }
}

/* §7.1 step 2, the pre-counter block J_0:
   len(IV) = 96: J_0 = IV || 0^31 || 1;
   otherwise:    J_0 = GHASH_H(IV || 0^(s+64) || [len(IV)]_64), s = 128 * ceil(len(IV)/128) - len(IV). */
static void gcm_j0(const uint8_t h[16], const uint8_t *iv, size_t iv_len, uint8_t j0[16])
{
    if (iv_len == 12) {
        memcpy(j0, iv, 12);
        put_be(j0 + 12, 1, 4);
        return;
    }
    size_t total = padded_len(iv_len) + 16;
    uint8_t *buffer = spec_malloc(total);
    uint8_t *p = append_padded(buffer, iv, iv_len); /* IV || 0^s */
    put_be(p, 0, 8);                                 /* 0^64 */
    put_be(p + 8, (uint64_t)iv_len * 8, 8);          /* [len(IV)]_64, in bits */
    spec_ghash(h, buffer, total / 16, j0);
    free(buffer);
}

/* §7.1 steps 4-6 (and §7.2 steps 6-8): S = GHASH_H(A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64),
   T = MSB_t(GCTR_K(J_0, S)); the full 128-bit T is returned, callers take MSB_t. */
static void gcm_tag(const uint8_t *key, size_t key_len, const uint8_t h[16], const uint8_t j0[16],
                    const uint8_t *a, size_t a_len, const uint8_t *c, size_t c_len, uint8_t t[16])
{
    size_t total = padded_len(a_len) + padded_len(c_len) + 16;
    uint8_t *buffer = spec_malloc(total);
    uint8_t *p = append_padded(buffer, a, a_len); /* A || 0^v */
    p = append_padded(p, c, c_len);                /* C || 0^u */
    put_be(p, (uint64_t)a_len * 8, 8);             /* [len(A)]_64 */
    put_be(p + 8, (uint64_t)c_len * 8, 8);         /* [len(C)]_64 */
    uint8_t s[16];
    spec_ghash(h, buffer, total / 16, s);
    free(buffer);
    gcm_gctr(key, key_len, j0, s, 16, t);
}

/* §7.1 Algorithm 4, GCM-AE_K(IV, P, A) = (C, T). */
void spec_aes_gcm_seal(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                       uint8_t *out, uint8_t tag[16])
{
    static const uint8_t zero[16] = { 0 };
    uint8_t h[16], j0[16], icb[16];
    ciph(key, key_len, zero, h);                       /* 1. H = CIPH_K(0^128) */
    gcm_j0(h, nonce, nonce_len, j0);                   /* 2. J_0 */
    memcpy(icb, j0, 16);
    gcm_inc32(icb);
    gcm_gctr(key, key_len, icb, in, len, out);         /* 3. C = GCTR_K(inc32(J_0), P) */
    gcm_tag(key, key_len, h, j0, aad, aad_len, out, len, tag); /* 4.-6. S and T */
}

/* §7.2 Algorithm 5, GCM-AD_K(IV, C, A, T): the tag is computed from C before P is written, so out may
   equal in. */
int spec_aes_gcm_open(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                      const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                      const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    static const uint8_t zero[16] = { 0 };
    uint8_t h[16], j0[16], icb[16], expected[16];
    ciph(key, key_len, zero, h);                       /* 2. H = CIPH_K(0^128) */
    gcm_j0(h, nonce, nonce_len, j0);                   /* 3. J_0 */
    gcm_tag(key, key_len, h, j0, aad, aad_len, in, len, expected); /* 5.-7. S and T' */
    memcpy(icb, j0, 16);
    gcm_inc32(icb);
    gcm_gctr(key, key_len, icb, in, len, out);         /* 4. P = GCTR_K(inc32(J_0), C) */
    return memcmp(expected, tag, tag_len) == 0;        /* 8. T = MSB_t(T')? (t = tag_len bytes) */
}

/* ================================== AES-GCM-SIV, RFC 8452 ============================================ */

/* §3: a 16-byte string is the polynomial whose coefficient of x^k is bit k mod 8 (least significant
   first) of byte k / 8 — little-endian, the reverse of GCM's bit order. */
static int polyval_bit(const uint8_t a[16], int k)
{
    return (a[k / 8] >> (k % 8)) & 1;
}

static void polyval_flip(uint8_t a[16], int k)
{
    a[k / 8] ^= (uint8_t)(1u << (k % 8));
}

/* a = a * x mod p(x), p(x) = x^128 + x^127 + x^126 + x^121 + 1: shift every coefficient up one degree;
   an x^128 term that falls out is replaced by x^127 + x^126 + x^121 + 1 (x^128 = that, mod p). */
static void polyval_times_x(uint8_t a[16])
{
    int top = polyval_bit(a, 127);
    for (int j = 15; j > 0; j--)
        a[j] = (uint8_t)((a[j] << 1) | (a[j - 1] >> 7));
    a[0] = (uint8_t)(a[0] << 1);
    if (top) {
        polyval_flip(a, 127);
        polyval_flip(a, 126);
        polyval_flip(a, 121);
        polyval_flip(a, 0);
    }
}

/* a = a * x^-1 mod p(x): if the constant term is 0, a is a multiple of x and a / x is a shift down; if
   it is 1, a + p(x) is a multiple of x (p has constant term 1) equal to a mod p, and
   (a + p(x)) / x = (a - 1) / x + x^127 + x^126 + x^125 + x^120. */
static void polyval_times_x_inverse(uint8_t a[16])
{
    int bottom = polyval_bit(a, 0);
    for (int j = 0; j < 15; j++)
        a[j] = (uint8_t)((a[j] >> 1) | (a[j + 1] << 7));
    a[15] = (uint8_t)(a[15] >> 1);
    if (bottom) {
        polyval_flip(a, 127);
        polyval_flip(a, 126);
        polyval_flip(a, 125);
        polyval_flip(a, 120);
    }
}

/* §3 dot(a, b) = a * b * x^-128 in GF(2)[x] / p(x): first the product a * b mod p by Horner's rule over
   a's coefficients from x^127 down, then 128 divisions by x. */
static void polyval_dot(const uint8_t a[16], const uint8_t b[16], uint8_t result[16])
{
    uint8_t r[16] = { 0 };
    for (int k = 127; k >= 0; k--) {
        polyval_times_x(r);
        if (polyval_bit(a, k))
            for (int j = 0; j < 16; j++)
                r[j] ^= b[j];
    }
    for (int k = 0; k < 128; k++)
        polyval_times_x_inverse(r);
    memcpy(result, r, 16);
}

/* §3 POLYVAL(H, X_1, ..., X_s): S_0 = 0, S_j = dot(S_(j-1) + X_j, H). */
void spec_polyval(const uint8_t h[16], const uint8_t *x, size_t s, uint8_t result[16])
{
    uint8_t acc[16] = { 0 };
    for (size_t j = 0; j < s; j++) {
        uint8_t sum[16];
        for (int i = 0; i < 16; i++)
            sum[i] = acc[i] ^ x[16 * j + i];
        polyval_dot(sum, h, acc);
    }
    memcpy(result, acc, 16);
}

/* §4 derive_keys: AES(key_generating_key, LE32(i) || nonce) for i = 0, 1 (authentication key) and
   i = 2, 3 (and 4, 5 for a 256-bit key: encryption key), keeping the first 8 bytes of each. A 192-bit
   key (not in RFC 8452; OpenSSL 3.2's AES-192-GCM-SIV, which pyca/cryptography exposes) takes the
   same rule to its 24-byte encryption key: i = 2, 3, 4. */
static void siv_derive_keys(const uint8_t *key, size_t key_len, const uint8_t nonce[12],
                            uint8_t auth_key[16], uint8_t enc_key[32])
{
    size_t last = 1 + key_len / 8; /* 3, 4 or 5 */
    for (size_t i = 0; i <= last; i++) {
        uint8_t block[16], output[16];
        put_le(block, i, 4);
        memcpy(block + 4, nonce, 12);
        ciph(key, key_len, block, output);
        if (i < 2)
            memcpy(auth_key + 8 * i, output, 8);
        else
            memcpy(enc_key + 8 * (i - 2), output, 8);
    }
}

/* §4 aes_ctr(key, initial_counter_block, in): keystream block AES(key, block), then the first 4 bytes of
   block, as a little-endian 32-bit integer, are incremented mod 2^32 (the other 12 bytes never change).
   out may equal in. */
static void siv_ctr(const uint8_t *key, size_t key_len, const uint8_t initial_counter_block[16],
                    const uint8_t *in, size_t len, uint8_t *out)
{
    uint8_t block[16];
    memcpy(block, initial_counter_block, 16);
    for (size_t offset = 0; offset < len; offset += 16) {
        uint8_t keystream[16];
        size_t n = (len - offset < 16) ? len - offset : 16;
        ciph(key, key_len, block, keystream);
        for (size_t j = 0; j < n; j++)
            out[offset + j] = in[offset + j] ^ keystream[j];
        put_le(block, (uint32_t)(get_le32(block) + 1u), 4);
    }
}

/* §4 the tag: S_s = POLYVAL(auth key, padded AAD || padded plaintext || length_block), with
   length_block = LE64(bytelen(AAD) * 8) || LE64(bytelen(plaintext) * 8); then the nonce is XORed into
   the first 12 bytes of S_s, the most significant bit of the last byte is cleared, and
   tag = AES(encryption key, S_s). */
static void siv_tag(const uint8_t auth_key[16], const uint8_t *enc_key, size_t key_len, const uint8_t nonce[12],
                    const uint8_t *aad, size_t aad_len, const uint8_t *plaintext, size_t len, uint8_t tag[16])
{
    size_t total = padded_len(aad_len) + padded_len(len) + 16;
    uint8_t *buffer = spec_malloc(total);
    uint8_t *p = append_padded(buffer, aad, aad_len);
    p = append_padded(p, plaintext, len);
    put_le(p, (uint64_t)aad_len * 8, 8);
    put_le(p + 8, (uint64_t)len * 8, 8);
    uint8_t s_s[16];
    spec_polyval(auth_key, buffer, total / 16, s_s);
    free(buffer);
    for (int i = 0; i < 12; i++)
        s_s[i] ^= nonce[i];
    s_s[15] &= 0x7f;
    ciph(enc_key, key_len, s_s, tag);
}

/* §4 encryption (the tag is computed from the plaintext before it is overwritten: out may equal in). */
void spec_aes_gcm_siv_seal(const uint8_t *key, size_t key_len, const uint8_t nonce[12],
                           const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                           uint8_t *out, uint8_t tag[16])
{
    uint8_t auth_key[16], enc_key[32], counter_block[16];
    siv_derive_keys(key, key_len, nonce, auth_key, enc_key);
    siv_tag(auth_key, enc_key, key_len, nonce, aad, aad_len, in, len, tag);
    memcpy(counter_block, tag, 16);
    counter_block[15] |= 0x80;            /* the most significant bit of the last byte set */
    siv_ctr(enc_key, key_len, counter_block, in, len, out);
}

/* §5 decryption: decrypt with the counter block derived from the received tag, then recompute the tag
   over the plaintext and compare. out may equal in. */
int spec_aes_gcm_siv_open(const uint8_t *key, size_t key_len, const uint8_t nonce[12],
                          const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                          const uint8_t tag[16], uint8_t *out)
{
    uint8_t auth_key[16], enc_key[32], counter_block[16], expected[16];
    siv_derive_keys(key, key_len, nonce, auth_key, enc_key);
    memcpy(counter_block, tag, 16);
    counter_block[15] |= 0x80;
    siv_ctr(enc_key, key_len, counter_block, in, len, out);
    siv_tag(auth_key, enc_key, key_len, nonce, aad, aad_len, out, len, expected);
    return memcmp(expected, tag, 16) == 0;
}

/* ==================================== CCM, SP 800-38C ================================================= */

/* Appendix A.2, the formatting function: B = B_0 || [a encoded || A || pad] || [P || pad]; returns a
   malloc'd buffer and its length in blocks (r + 1). n = nonce_len, q = 15 - n, t = tag_len (bytes). */
static uint8_t *ccm_format(const uint8_t *nonce, size_t n, const uint8_t *a, size_t a_len,
                           const uint8_t *p, size_t p_len, size_t t, size_t *nblocks)
{
    size_t q = 15 - n;
    size_t a_encoding_len;       /* A.2.2: 2, 6 or 10 bytes, or 0 when there is no associated data */
    if (a_len == 0)
        a_encoding_len = 0;
    else if ((uint64_t)a_len < 65536u - 256u)
        a_encoding_len = 2;
    else if ((uint64_t)a_len < ((uint64_t)1 << 32))
        a_encoding_len = 6;
    else
        a_encoding_len = 10;

    size_t total = 16 + padded_len(a_encoding_len + a_len) + padded_len(p_len);
    uint8_t *b = spec_malloc(total);

    /* A.2.1 B_0 = Flags || N || Q. Flags: bit 7 reserved (0), bit 6 Adata, bits 5-3 [(t-2)/2]_3,
       bits 2-0 [q-1]_3. Q = [p_len]_8q. */
    b[0] = (uint8_t)((((a_len > 0) ? 1u : 0u) << 6) | (((t - 2) / 2) << 3) | (q - 1));
    memcpy(b + 1, nonce, n);
    put_be(b + 1 + n, (uint64_t)p_len, q);

    /* A.2.2 the associated data: its length encoded, then A, then zero padding to a block boundary.
       0 < a < 2^16 - 2^8:  [a]_16;   2^16 - 2^8 <= a < 2^32: 0xff || 0xfe || [a]_32;
       2^32 <= a < 2^64:    0xff || 0xff || [a]_64. */
    uint8_t *cursor = b + 16;
    if (a_len > 0) {
        if (a_encoding_len == 2) {
            put_be(cursor, (uint64_t)a_len, 2);
        } else if (a_encoding_len == 6) {
            cursor[0] = 0xff;
            cursor[1] = 0xfe;
            put_be(cursor + 2, (uint64_t)a_len, 4);
        } else {
            cursor[0] = 0xff;
            cursor[1] = 0xff;
            put_be(cursor + 2, (uint64_t)a_len, 8);
        }
        memcpy(cursor + a_encoding_len, a, a_len);
        size_t used = a_encoding_len + a_len;
        memset(cursor + used, 0, padded_len(used) - used);
        cursor += padded_len(used);
    }

    /* A.2.3 the payload, zero-padded to a block boundary. */
    cursor = append_padded(cursor, p, p_len);
    *nblocks = (size_t)(cursor - b) / 16;
    return b;
}

/* A.3 the counter blocks: Ctr_i = Flags || N || [i]_8q, Flags = [q-1]_3 (every other bit 0). */
static void ccm_counter_block(const uint8_t *nonce, size_t n, uint64_t i, uint8_t ctr[16])
{
    size_t q = 15 - n;
    ctr[0] = (uint8_t)(q - 1);
    memcpy(ctr + 1, nonce, n);
    put_be(ctr + 1 + n, i, q);
}

/* §6.1 steps 2-4: the CBC-MAC, Y_0 = CIPH_K(B_0), Y_i = CIPH_K(B_i xor Y_(i-1)); T = MSB_Tlen(Y_r) (the
   full Y_r is returned). */
static void ccm_cbc_mac(const uint8_t *key, size_t key_len, const uint8_t *b, size_t nblocks, uint8_t y[16])
{
    ciph(key, key_len, b, y);
    for (size_t i = 1; i < nblocks; i++) {
        uint8_t x[16];
        for (int j = 0; j < 16; j++)
            x[j] = b[16 * i + j] ^ y[j];
        ciph(key, key_len, x, y);
    }
}

/* §6.1 steps 5-8 (and §6.2 steps 2-5) for the payload: S_j = CIPH_K(Ctr_j) for j = 1..m, and
   out = in xor MSB_len(S_1 || ... || S_m). out may equal in. */
static void ccm_ctr(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t n,
                    const uint8_t *in, size_t len, uint8_t *out)
{
    uint64_t j = 1;
    for (size_t offset = 0; offset < len; offset += 16, j++) {
        uint8_t ctr[16], s_j[16];
        size_t count = (len - offset < 16) ? len - offset : 16;
        ccm_counter_block(nonce, n, j, ctr);
        ciph(key, key_len, ctr, s_j);
        for (size_t i = 0; i < count; i++)
            out[offset + i] = in[offset + i] ^ s_j[i];
    }
}

/* S_0 = CIPH_K(Ctr_0), which masks the tag. */
static void ccm_s0(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t n, uint8_t s0[16])
{
    uint8_t ctr0[16];
    ccm_counter_block(nonce, n, 0, ctr0);
    ciph(key, key_len, ctr0, s0);
}

/* §6.1 Generation-Encryption: C = (P xor MSB_Plen(S)) || (T xor MSB_Tlen(S_0)); the second part is
   returned separately as tag. out may equal in: P is copied into B before it is overwritten. */
void spec_aes_ccm_seal(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                       uint8_t *out, uint8_t *tag, size_t tag_len)
{
    size_t nblocks;
    uint8_t y_r[16], s0[16];
    uint8_t *b = ccm_format(nonce, nonce_len, aad, aad_len, in, len, tag_len, &nblocks); /* 1. */
    ccm_cbc_mac(key, key_len, b, nblocks, y_r);                                            /* 2.-4. */
    free(b);
    ccm_s0(key, key_len, nonce, nonce_len, s0);                                            /* 5.-6. */
    ccm_ctr(key, key_len, nonce, nonce_len, in, len, out);                                 /* 5.-8. */
    for (size_t i = 0; i < tag_len; i++)
        tag[i] = y_r[i] ^ s0[i];                                                           /* 8. */
}

/* §6.2 Decryption-Verification: P = C xor MSB_Clen(S), T = received tag xor MSB_Tlen(S_0); the MAC is
   recomputed over (N, A, P) and compared with T. Step 1 and 7's validity checks are the caller's (the
   spec trusts lengths). out may equal in: the MAC is computed from out, after P is written. */
int spec_aes_ccm_open(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                      const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                      const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    size_t nblocks;
    uint8_t y_r[16], s0[16];
    int valid = 1;
    ccm_s0(key, key_len, nonce, nonce_len, s0);                                            /* 2.-3. */
    ccm_ctr(key, key_len, nonce, nonce_len, in, len, out);                                 /* 4.-5. P */
    uint8_t *b = ccm_format(nonce, nonce_len, aad, aad_len, out, len, tag_len, &nblocks);  /* 7. */
    ccm_cbc_mac(key, key_len, b, nblocks, y_r);                                            /* 8. */
    free(b);
    for (size_t i = 0; i < tag_len; i++)                                                   /* 6., 9. */
        if ((uint8_t)(tag[i] ^ s0[i]) != y_r[i])
            valid = 0;
    return valid;
}
