/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * aes.c — the executable spec of AES (FIPS 197), ECB and CTR (SP 800-38A).
 *
 * Written to be checked line by line against the documents, not for speed and NOT constant time (the
 * S-box is a table indexed by secret bytes). Section, figure and equation numbers are those of FIPS 197
 * (November 2001), NIST SP 800-38A (2001) and SP 800-38D (2007).
 *
 * The state (FIPS 197 §3.4) is held as s[r][c], row r and column c, with s[r][c] = in[r + 4c].
 * A word w[i] of the key schedule (§5.2) is held as 4 bytes w[i][0..3], w[i][0] being the leftmost.
 * Nb = 4 always (AES fixes the block to 128 bits); Nk = 4, 6, 8 and Nr = Nk + 6 (§5, Figure 4).
 */
#include "spec.h"

#include <string.h>

#define NB 4 /* columns of the state, §5 */

/* --- §4.2 arithmetic in GF(2^8) modulo m(x) = x^8 + x^4 + x^3 + x + 1 (0x11b) ------------------ */

/* §4.2.1 xtime(): multiplication by x ({02}): shift left, and reduce by m(x) if b7 was set. */
static uint8_t xtime(uint8_t b)
{
    return (uint8_t)((b << 1) ^ ((b & 0x80) ? 0x1b : 0x00));
}

/* §4.2 the product a • b: a * b = sum over the bits b_i of b of (a * x^i), each a * x^i by repeated
   xtime(). */
static uint8_t gf_mul(uint8_t a, uint8_t b)
{
    uint8_t product = 0;
    for (int i = 0; i < 8; i++) {
        if (b & (1u << i))
            product ^= a;
        a = xtime(a);
    }
    return product;
}

/* --- §5.1.1 the S-box, computed from its definition ------------------------------------------------
 * S-box(b) = affine map of b^-1, where b^-1 is the multiplicative inverse in GF(2^8) (§4.2) and {00}
 * maps to itself. The inverse is found with logarithms: {03} generates the multiplicative group
 * (255 elements), so every b != 0 is {03}^i for one i in 0..254 and b^-1 = {03}^(255 - i).
 * §5.1.1's example, S-box({53}) = {ed}, and all of Figure 7 follow; the tests check the whole cipher
 * against FIPS 197 Appendix C and the CAVP known-answer files. */
struct sbox {
    uint8_t forward[256]; /* §5.1.1 S-box (Figure 7) */
    uint8_t inverse[256]; /* §5.3.2 inverse S-box (Figure 14) */
};

/* §5.1.1 equation (5.1): b'_i = b_i ^ b_(i+4 mod 8) ^ b_(i+5 mod 8) ^ b_(i+6 mod 8) ^ b_(i+7 mod 8) ^ c_i,
   with c = {63} = 01100011. Bit i of rotate_left(b, k) is b_(i-k mod 8) = b_(i+8-k mod 8), so the terms
   b_(i+4), b_(i+5), b_(i+6), b_(i+7) are bit i of b rotated left by 4, 3, 2 and 1: all eight bits at once. */
static uint8_t rotate_left(uint8_t b, int k)
{
    return (uint8_t)((b << k) | (b >> (8 - k)));
}

static uint8_t affine(uint8_t b)
{
    const uint8_t c = 0x63;
    return b ^ rotate_left(b, 4) ^ rotate_left(b, 3) ^ rotate_left(b, 2) ^ rotate_left(b, 1) ^ c;
}

static void sbox_build(struct sbox *sb)
{
    uint8_t power[255]; /* power[i] = {03}^i */
    uint8_t logarithm[256]; /* logarithm[{03}^i] = i; logarithm[0] unused */
    uint8_t p = 1;
    for (int i = 0; i < 255; i++) {
        power[i] = p;
        logarithm[p] = (uint8_t)i;
        p = (uint8_t)(xtime(p) ^ p); /* p * {03} = p * ({02} + {01}) */
    }
    for (int b = 0; b < 256; b++) {
        uint8_t b_inverse = (b == 0) ? 0 : power[(255 - logarithm[b]) % 255];
        sb->forward[b] = affine(b_inverse);
    }
    for (int b = 0; b < 256; b++)
        sb->inverse[sb->forward[b]] = (uint8_t)b;
}

/* --- §5.2 KeyExpansion ----------------------------------------------------------------------------- */
struct aes {
    struct sbox sbox;
    int nr;                          /* Nr, the number of rounds */
    uint8_t w[NB * (14 + 1)][4];     /* w[0 .. Nb*(Nr+1)-1], the key schedule */
};

static void key_expansion(struct aes *aes, const uint8_t *key, size_t key_len)
{
    const int nk = (int)(key_len / 4);
    aes->nr = nk + 6;
    sbox_build(&aes->sbox);

    /* The first Nk words are the key itself. */
    for (int i = 0; i < nk; i++)
        for (int j = 0; j < 4; j++)
            aes->w[i][j] = key[4 * i + j];

    /* Rcon[i] = [x^(i-1), {00}, {00}, {00}]; rcon holds x^(i/Nk - 1) for the next i with i mod Nk == 0. */
    uint8_t rcon = 0x01;
    for (int i = nk; i < NB * (aes->nr + 1); i++) {
        uint8_t temp[4];
        memcpy(temp, aes->w[i - 1], 4);
        if (i % nk == 0) {
            /* temp = SubWord(RotWord(temp)) xor Rcon[i/Nk] */
            uint8_t rotated[4] = { temp[1], temp[2], temp[3], temp[0] }; /* RotWord */
            for (int j = 0; j < 4; j++)
                temp[j] = aes->sbox.forward[rotated[j]];                 /* SubWord */
            temp[0] ^= rcon;
            rcon = xtime(rcon);
        } else if (nk > 6 && i % nk == 4) {
            for (int j = 0; j < 4; j++)
                temp[j] = aes->sbox.forward[temp[j]];                    /* SubWord */
        }
        for (int j = 0; j < 4; j++)
            aes->w[i][j] = aes->w[i - nk][j] ^ temp[j];
    }
}

/* --- §5.1 Cipher ------------------------------------------------------------------------------------ */

/* §5.1.4 AddRoundKey: column c is XORed with the word w[round*Nb + c]. */
static void add_round_key(uint8_t s[4][NB], const struct aes *aes, int round)
{
    for (int c = 0; c < NB; c++)
        for (int r = 0; r < 4; r++)
            s[r][c] ^= aes->w[round * NB + c][r];
}

/* §5.1.1 SubBytes. */
static void sub_bytes(uint8_t s[4][NB], const struct sbox *sb)
{
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < NB; c++)
            s[r][c] = sb->forward[s[r][c]];
}

/* §5.1.2 ShiftRows: s'[r][c] = s[r][(c + shift(r, Nb)) mod Nb], with shift(r, 4) = r. */
static void shift_rows(uint8_t s[4][NB])
{
    for (int r = 1; r < 4; r++) {
        uint8_t row[NB];
        for (int c = 0; c < NB; c++)
            row[c] = s[r][(c + r) % NB];
        memcpy(s[r], row, NB);
    }
}

/* §5.1.3 MixColumns, equation (5.6): each column times a(x) = {03}x^3 + {01}x^2 + {01}x + {02}. */
static void mix_columns(uint8_t s[4][NB])
{
    for (int c = 0; c < NB; c++) {
        uint8_t s0 = s[0][c], s1 = s[1][c], s2 = s[2][c], s3 = s[3][c];
        s[0][c] = gf_mul(0x02, s0) ^ gf_mul(0x03, s1) ^ s2 ^ s3;
        s[1][c] = s0 ^ gf_mul(0x02, s1) ^ gf_mul(0x03, s2) ^ s3;
        s[2][c] = s0 ^ s1 ^ gf_mul(0x02, s2) ^ gf_mul(0x03, s3);
        s[3][c] = gf_mul(0x03, s0) ^ s1 ^ s2 ^ gf_mul(0x02, s3);
    }
}

/* §3.4: in[r + 4c] goes to s[r][c], and back out the same way. */
static void load_state(uint8_t s[4][NB], const uint8_t in[16])
{
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < NB; c++)
            s[r][c] = in[r + 4 * c];
}

static void store_state(uint8_t out[16], uint8_t s[4][NB])
{
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < NB; c++)
            out[r + 4 * c] = s[r][c];
}

/* §5.1 Figure 5, Cipher(). */
static void cipher(const struct aes *aes, const uint8_t in[16], uint8_t out[16])
{
    uint8_t s[4][NB];
    load_state(s, in);
    add_round_key(s, aes, 0);
    for (int round = 1; round <= aes->nr - 1; round++) {
        sub_bytes(s, &aes->sbox);
        shift_rows(s);
        mix_columns(s);
        add_round_key(s, aes, round);
    }
    sub_bytes(s, &aes->sbox);
    shift_rows(s);
    add_round_key(s, aes, aes->nr);
    store_state(out, s);
}

/* --- §5.3 InvCipher ---------------------------------------------------------------------------------- */

/* §5.3.1 InvShiftRows: s'[r][(c + shift(r, Nb)) mod Nb] = s[r][c]. */
static void inv_shift_rows(uint8_t s[4][NB])
{
    for (int r = 1; r < 4; r++) {
        uint8_t row[NB];
        for (int c = 0; c < NB; c++)
            row[(c + r) % NB] = s[r][c];
        memcpy(s[r], row, NB);
    }
}

/* §5.3.2 InvSubBytes. */
static void inv_sub_bytes(uint8_t s[4][NB], const struct sbox *sb)
{
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < NB; c++)
            s[r][c] = sb->inverse[s[r][c]];
}

/* §5.3.3 InvMixColumns, equation (5.10): a^-1(x) = {0b}x^3 + {0d}x^2 + {09}x + {0e}. */
static void inv_mix_columns(uint8_t s[4][NB])
{
    for (int c = 0; c < NB; c++) {
        uint8_t s0 = s[0][c], s1 = s[1][c], s2 = s[2][c], s3 = s[3][c];
        s[0][c] = gf_mul(0x0e, s0) ^ gf_mul(0x0b, s1) ^ gf_mul(0x0d, s2) ^ gf_mul(0x09, s3);
        s[1][c] = gf_mul(0x09, s0) ^ gf_mul(0x0e, s1) ^ gf_mul(0x0b, s2) ^ gf_mul(0x0d, s3);
        s[2][c] = gf_mul(0x0d, s0) ^ gf_mul(0x09, s1) ^ gf_mul(0x0e, s2) ^ gf_mul(0x0b, s3);
        s[3][c] = gf_mul(0x0b, s0) ^ gf_mul(0x0d, s1) ^ gf_mul(0x09, s2) ^ gf_mul(0x0e, s3);
    }
}

/* §5.3 Figure 12, InvCipher() (not the Equivalent Inverse Cipher of §5.3.5). */
static void inv_cipher(const struct aes *aes, const uint8_t in[16], uint8_t out[16])
{
    uint8_t s[4][NB];
    load_state(s, in);
    add_round_key(s, aes, aes->nr);
    for (int round = aes->nr - 1; round >= 1; round--) {
        inv_shift_rows(s);
        inv_sub_bytes(s, &aes->sbox);
        add_round_key(s, aes, round);
        inv_mix_columns(s);
    }
    inv_shift_rows(s);
    inv_sub_bytes(s, &aes->sbox);
    add_round_key(s, aes, 0);
    store_state(out, s);
}

/* --- the API of spec.h ------------------------------------------------------------------------------ */

void spec_aes_encrypt_block(const uint8_t *key, size_t key_len, const uint8_t in[16], uint8_t out[16])
{
    struct aes aes;
    key_expansion(&aes, key, key_len);
    cipher(&aes, in, out);
}

void spec_aes_decrypt_block(const uint8_t *key, size_t key_len, const uint8_t in[16], uint8_t out[16])
{
    struct aes aes;
    key_expansion(&aes, key, key_len);
    inv_cipher(&aes, in, out);
}

/* SP 800-38A §6.1: C_j = CIPH_K(P_j) and P_j = CIPH^-1_K(C_j), block by block. cipher() reads the whole
   block into the state before writing, so in == out is fine. */
void spec_aes_ecb_encrypt(const uint8_t *key, size_t key_len, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    struct aes aes;
    key_expansion(&aes, key, key_len);
    for (size_t j = 0; j < nblocks; j++)
        cipher(&aes, in + 16 * j, out + 16 * j);
}

void spec_aes_ecb_decrypt(const uint8_t *key, size_t key_len, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    struct aes aes;
    key_expansion(&aes, key, key_len);
    for (size_t j = 0; j < nblocks; j++)
        inv_cipher(&aes, in + 16 * j, out + 16 * j);
}

/* SP 800-38D §6.2 inc32(X) = MSB_96(X) || [int(LSB_32(X)) + 1 mod 2^32]_32: the last four bytes are a
   big-endian counter that wraps without carrying into byte 11. */
static void inc32(uint8_t block[16])
{
    uint32_t counter = ((uint32_t)block[12] << 24) | ((uint32_t)block[13] << 16) |
                       ((uint32_t)block[14] << 8) | (uint32_t)block[15];
    counter = (uint32_t)(counter + 1u);
    block[12] = (uint8_t)(counter >> 24);
    block[13] = (uint8_t)(counter >> 16);
    block[14] = (uint8_t)(counter >> 8);
    block[15] = (uint8_t)counter;
}

/* SP 800-38A §6.5: O_j = CIPH_K(T_j), C_j = P_j xor O_j, with T_(j+1) = inc32(T_j) (the "standard
   incrementing function" of SP 800-38A Appendix B.1 with m = 32). On return counter holds T_(n+1). */
void spec_aes_ctr32(const uint8_t *key, size_t key_len, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                    size_t nblocks)
{
    struct aes aes;
    key_expansion(&aes, key, key_len);
    for (size_t j = 0; j < nblocks; j++) {
        uint8_t output_block[16];
        cipher(&aes, counter, output_block);
        for (int i = 0; i < 16; i++)
            out[16 * j + i] = in[16 * j + i] ^ output_block[i];
        inc32(counter);
    }
}
