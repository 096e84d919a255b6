/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * power8_aes.c — AES with the POWER8 vector crypto instructions: key expansion (four words per step,
 * in assembly; SubWord by vcipherlast on a broadcast word), ECB both ways, CTR32 with the inc32 counter and with RFC 8452's little-endian counter,
 * and the CBC-MAC chain.
 *
 * CPU features: ISA 2.07 vector crypto (VG_POWER8_TARGET). Bulk kernels keep 8 blocks in flight
 * (vcipher has a latency of 6-7 cycles on POWER8/9); a remainder of r < 8 blocks goes as 4, 2 and 1
 * blocks by the bits of r, so at most three serial groups, never a block-at-a-time loop.
 * Register use in the 8-block loops: b[0..7] the blocks, round keys 0..rounds (all of AES-128's 11
 * stay in registers), the counter, the raw input block being XORed, the vperm mask of vec_revb.
 */
#include "power8.h"

/* ---------------------------------------------------------------------------------------------- */
/* Key expansion (FIPS 197 §5.2)                                                                    */
/*
 * 16- and 32-byte keys: a whole round key (four words) per step, in vector registers. With the key
 * words in AES order (big-endian word j of the register = w[j]) and k = w[i-Nk..i-Nk+3]:
 *   temp      = SubWord(RotWord(w[i-1])) ^ Rcon[i/Nk], the same in all four words:
 *               vperm broadcasts RotWord(w[i-1]) (the previous key's word 3 rotated by a byte) to
 *               all four words, and ONE vcipherlast substitutes it and adds the round constant;
 *   w[i..i+3] = prefix_xor(k) ^ (temp, temp, temp, temp), because w[i] = w[i-Nk] ^ temp and
 *               w[i+j] = w[i+j-Nk] ^ w[i+j-1], so word j is w[i-Nk] ^ .. ^ w[i-Nk+j] ^ temp;
 *               prefix_xor(k) = (k0, k0^k1, k0^k1^k2, k0^..^k3) is two vsldoi and two vxor:
 *               y = k ^ (0, k0, k1, k2), prefix_xor(k) = y ^ (0, 0, y0, y1).
 *
 * Why vcipherlast and not vsbox: vcipherlast(x, r) = ShiftRows(SubBytes(x)) ^ r. ShiftRows moves
 * byte (row, column c) to column c - row; when the four columns (words) of x are equal -- the
 * broadcast word here -- every row is constant and ShiftRows changes nothing, so vcipherlast(x, r)
 * is SubBytes(x) ^ r = vsbox(x) ^ r: the same S-box on the same broadcast word, with the XOR of the
 * round constant for free (ten vxor fewer for AES-128). AES-256's odd steps (SubWord(w[i-1]), no
 * RotWord, no Rcon) have nothing to add and keep vsbox on a vspltw broadcast.
 *
 * Where Rcon enters: prefix_xor(k) ^ (rc, rc, rc, rc) in every word, as FIPS 197 has it, but the rc
 * vector R = (0, 0, 0, rc) (rc in the first byte of word 3 only) is used three times: as the
 * round-key operand of vcipherlast (rc into word 3 of temp) and as the fill of both vsldoi in place
 * of the zero vector: y = k ^ (rc, k0, k1, k2) puts rc into word 0, and (R2, R3, y0, y1) =
 * (0, rc, y0, y1) puts it into word 1 and, through y0, into word 2. So every word of the result gets
 * rc exactly once, and no zero register is needed. R doubles with vadduwm (xtime while rc < 0x80)
 * and is reloaded once, at 0x1b.
 *
 * Written in assembly (a leaf, no stack frame, volatile registers only) because every instruction
 * is counted (issue 5 asks <= 110 for AES-128 with the call; the C version, with vsbox, a separate
 * rc vxor, a zero vector and rounds computed from key_len, took 129; this takes 111, see
 * docs/ppc64le.md for where they go and why the last one is not found). The constants are one 64-byte table
 * in .text right after the function, addressed from r12 with one addi: ELFv2 has every caller through a
 * pointer put the function's own address in r12 (for the global entry's TOC computation), and the
 * library reaches this kernel only through its table (a direct call would not set r12; the bench
 * calls it through a pointer too). So there is no global entry and no TOC-relative address, four
 * instructions where this is one (2026-12-04); the function has one entry (.localentry 1: r2 is not
 * kept, the AES-192 path sets it from r12 for the C function it branches to). Round keys go out with stvx, which only has the (rA + rB) form and ignores
 * the low four bits of the address, so the index registers are 16 (key_len itself on the AES-128
 * path), 32, and -1 (key_len - 17, left by the length test: -1 lands on the 16-byte block BELOW the
 * base), and the bases sched, sched + 64, sched + 128 reach all eleven keys with three set-up
 * instructions. Branches depend on the key length only; no memory address depends on the key.
 *
 * AES-192 keeps FIPS 197's word loop in C (expand_192 below), its SubWord through a splatted vsbox.
 * Decryption needs no extra keys: vncipher adds the round key before InvMixColumns, so the Inverse
 * Cipher uses the encryption keys backwards.
 */

/* FIPS 197 §5.2 word by word (Nk = 6, 52 words); words are big-endian values of 4 key bytes. SubWord
   of one word: splat, vsbox, take it back (byte order inside the word does not matter to a byte-wise
   substitution). Reached from the assembly below by a tail branch for 24-byte keys. */
VG_POWER8_INLINE uint32_t sub_word_scalar(uint32_t w)
{
    p8_u32 v = vec_splats(w);
    v = (p8_u32)p8_vsbox((p8_u8)v);
    return vec_extract(v, 0);
}

VG_POWER8_TARGET
int P8_FN(aes_expand_key_192)(void *sched, const uint8_t *key)
{
    static const uint8_t rcon[8] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80};
    struct power8_sched *s = (struct power8_sched *)sched;
    uint32_t w[52];
    s->key_len = 24;
    for (int i = 0; i < 6; i++) w[i] = vg_load32_be(key + 4 * i);
    for (int i = 6; i < 52; i++) {
        uint32_t t = w[i - 1];
        if (i % 6 == 0) t = sub_word_scalar((t << 8) | (t >> 24)) ^ ((uint32_t)rcon[i / 6 - 1] << 24);
        w[i] = w[i - 6] ^ t;
    }
    /* big-endian word j of the register is GCC element 3 - j */
    for (int r = 0; r <= 12; r++)
        p8_store_image((p8_u8)(p8_u32){w[4 * r + 3], w[4 * r + 2], w[4 * r + 1], w[4 * r]}, s->rk[r]);
    vg_wipe(w, sizeof w);
    return VG_OK;
}

/*
 * P8_FN(aes_expand_key)(sched = r3, key = r4, key_len = r5, want_decrypt = r6, unused) -> VG_OK in r3.
 * Registers: v1 the round key being built (AES-256: v1 the even keys, v7 the odd ones), v2 the rc
 * vector R, v3 the RotWord-broadcast mask, v4 temp, v5 the shifted copy, v6 the raw-to-AES mask,
 * v8 zero (AES-256's odd steps); r12 this function's address on entry, r7 the table, r9/r10/r12
 * sched + 64/128/192, r0/r5/r6/r8 indices. sched + 240 gets the key length (r5: 16 or 32; AES-192's
 * C stores 24), from which the other kernels take the rounds.
 *
 * The table (register images for lvx, which puts memory byte 15 - j in register byte j, so the
 * byte rows are written backwards; a .long row is word 3 first):
 *   +0   raw-to-AES mask: byte j selects byte j ^ 3 (lxvw4x leaves each word byte-reversed)
 *   +16  RotWord broadcast: byte j selects byte (13, 14, 15, 12)[j % 4] (w[3] rotated, 4 times)
 *   +32  R for rc = 0x01: (0, 0, 0, 0x01000000)
 *   +48  R for rc = 0x1b (0x80 doubled leaves the byte: x^8 = x^4 + x^3 + x + 1)
 * AES-128 addresses it from +16 with the indices -1, 0, 16, 32; AES-256 from +0 with 0, 16, 32.
 */
#define P8K_STR2(x) #x
#define P8K_STR(x) P8K_STR2(x)

/* the two key-load variants: power8 loads raw (lxvw4x) and permutes to AES order; power9's lxvb16x
   loads in byte order, which is AES order already */
#if defined(P8_POWER9)
#define P8K_MACHINE "power9"
#define P8K_LOAD128 "lxvb16x 33,0,4\n\t"
#define P8K_LOAD256 "lxvb16x 33,0,4\n\tlxvb16x 39,4,6\n\t"
#define P8K_MASK128 ""
#define P8K_MASK256 ""
#define P8K_TOAES128 ""
#define P8K_TOAES256 ""
#else
#define P8K_MACHINE "power8"
#define P8K_LOAD128 "lxvw4x 32,0,4\n\t"             /* v0 = the key, raw */
#define P8K_LOAD256 "lxvw4x 32,0,4\n\tlxvw4x 39,4,6\n\t"
#define P8K_MASK128 "lvx 6,7,0\n\t"                 /* the raw-to-AES mask at r7 - 16 (r0 = -1) */
#define P8K_MASK256 "lvx 6,0,7\n\t"
#define P8K_TOAES128 "vperm 1,0,0,6\n\t"
#define P8K_TOAES256 "vperm 1,0,0,6\n\tvperm 7,7,7,6\n\t"
#endif

/* One step of the 16-byte schedule, and the even steps of the 32-byte one (src = the register whose
   word 3 is w[i-1]): v1 = prefix_xor(v1) ^ SubWord(RotWord(w[i-1])) ^ rc in every word.
   next_rc runs after the last read of R. */
#define P8K_STEP_RC(src, next_rc, store)                                                            \
    "vperm 4," src "," src ",3\n\t" /* RotWord(w[i-1]) in all four words */                         \
    "vsldoi 5,2,1,12\n\t"           /* (rc, k0, k1, k2) */                                          \
    "vcipherlast 4,4,2\n\t"         /* temp = SubWord(RotWord(w[i-1])) in every word, ^ rc in word 3 */ \
    "vxor 1,1,5\n\t"                /* y = (k0^rc, k0^k1, k1^k2, k2^k3) */                          \
    "vsldoi 5,2,1,8\n\t"            /* (0, rc, y0, y1) */                                           \
    next_rc                                                                                          \
    "vxor 1,1,5\n\t"                /* prefix_xor(k) ^ rc in every word */                          \
    "vxor 1,1,4\n\t"                /* ^ temp: the new round key */                                 \
    store "\n\t"
/* AES-256's odd steps: v7 = prefix_xor(v7) ^ SubWord(w[i-1]) (w[i-1] = word 3 of v1), zero fill. */
#define P8K_STEP_ODD(store)                                                                         \
    "vspltw 4,1,3\n\t"                                                                               \
    "vsldoi 5,8,7,12\n\t"                                                                            \
    "vsbox 4,4\n\t"                                                                                  \
    "vxor 7,7,5\n\t"                                                                                 \
    "vsldoi 5,8,7,8\n\t"                                                                             \
    "vxor 7,7,5\n\t"                                                                                 \
    "vxor 7,7,4\n\t" store "\n\t"
#define P8K_DOUBLE "vadduwm 2,2,2\n\t" /* rc = xtime(rc) while rc < 0x80 */

#define P8K_ASM(name, name192)                                                                      \
    __asm__(".text\n\t"                                                                              \
            ".machine push\n\t" /* ISA 2.07 (3.0) instructions, whatever CPU the assembler was */    \
            ".machine " P8K_MACHINE "\n\t" /* told: GCC 12 passes -many, not every compiler does */ \
            ".globl " name "\n\t"                                                                   \
            ".hidden " name "\n\t"                                                                  \
            ".type " name ",@function\n\t"                                                          \
            ".p2align 4\n" name ":\n\t"                                                             \
            ".localentry " name ",1\n\t" /* one entry; r2 not kept (the AES-192 path sets it) */     \
            "addic. 0,5,-17\n\t" /* cr0.lt iff key_len = 16; r0 = -1 then, an index of -16 */       \
            "bge 1f\n\t"                                                                             \
            /* ---- 16-byte key: 10 steps ---- */                                                    \
            "addi 7,12,.L" name "_c-" name "\n\t" /* r7 = table + 16 (r12 = this function) */      \
            P8K_LOAD128                                                                              \
            "li 8,32\n\t"                                                                            \
            P8K_MASK128                                                                              \
            "lvx 3,0,7\n\t"    /* RotWord broadcast mask */                                         \
            "lvx 2,7,5\n\t"    /* R = (0, 0, 0, 0x01000000) (r5 = 16) */                            \
            "addi 9,3,64\n\t"                                                                        \
            "addi 10,3,128\n\t"                                                                      \
            "stw 5,240(3)\n\t" /* the key length (16), which gives the rounds */                     \
            P8K_TOAES128                                                                             \
            "stvx 1,0,3\n\t"                                                                         \
            P8K_STEP_RC("1", P8K_DOUBLE, "stvx 1,3,5")    /* key 1: sched + 16 */                    \
            P8K_STEP_RC("1", P8K_DOUBLE, "stvx 1,3,8")    /* key 2: + 32 */                          \
            P8K_STEP_RC("1", P8K_DOUBLE, "stvx 1,9,0")    /* key 3: + 64 - 1 -> + 48 */              \
            P8K_STEP_RC("1", P8K_DOUBLE, "stvx 1,0,9")    /* key 4: + 64 */                          \
            P8K_STEP_RC("1", P8K_DOUBLE, "stvx 1,9,5")    /* key 5: + 80 */                          \
            P8K_STEP_RC("1", P8K_DOUBLE, "stvx 1,9,8")    /* key 6: + 96 */                          \
            P8K_STEP_RC("1", P8K_DOUBLE, "stvx 1,10,0")   /* key 7: + 128 - 1 -> + 112 */            \
            P8K_STEP_RC("1", "lvx 2,7,8\n\t", "stvx 1,0,10") /* key 8: + 128; R = 0x1b */            \
            P8K_STEP_RC("1", P8K_DOUBLE, "stvx 1,10,5")   /* key 9: + 144 */                         \
            P8K_STEP_RC("1", "", "stvx 1,10,8")           /* key 10: + 160 */                        \
            "li 3,0\n\t"       /* VG_OK */                                                           \
            "blr\n"                                                                                  \
            /* ---- 24 bytes: the C word loop; 32 bytes: 7 even and 6 odd steps ---- */              \
            "1:\tcmpldi 5,24\n\t"                                                                    \
            "bne 2f\n\t"                                                                             \
            "addis 2,12,.TOC.-" name "@ha\n\t" /* the C function's TOC pointer, from r12 */         \
            "addi 2,2,.TOC.-" name "@l\n\t"                                                         \
            "b " name192 "\n"                                                                        \
            "2:\taddi 7,12,.L" name "_t-" name "\n\t" /* r7 = table */                              \
            "li 6,16\n\t"                                                                            \
            P8K_LOAD256                                                                              \
            "li 8,48\n\t"                                                                            \
            P8K_MASK256                                                                              \
            "lvx 3,7,6\n\t"                                                                          \
            "lvx 2,7,5\n\t"    /* R for rc = 1 (r5 = 32) */                                         \
            "vspltisw 8,0\n\t"                                                                       \
            "addi 9,3,64\n\t"                                                                        \
            "addi 10,3,128\n\t"                                                                      \
            "addi 12,3,192\n\t"                                                                      \
            "stw 5,240(3)\n\t" /* the key length (32) */                                             \
            P8K_TOAES256                                                                             \
            "stvx 1,0,3\n\t"                                                                         \
            "stvx 7,3,6\n\t"                                                                         \
            P8K_STEP_RC("7", P8K_DOUBLE, "stvx 1,3,5") P8K_STEP_ODD("stvx 7,3,8")    /* keys 2, 3 */   \
            P8K_STEP_RC("7", P8K_DOUBLE, "stvx 1,0,9") P8K_STEP_ODD("stvx 7,9,6")    /* keys 4, 5 */   \
            P8K_STEP_RC("7", P8K_DOUBLE, "stvx 1,9,5") P8K_STEP_ODD("stvx 7,9,8")    /* keys 6, 7 */   \
            P8K_STEP_RC("7", P8K_DOUBLE, "stvx 1,0,10") P8K_STEP_ODD("stvx 7,10,6")  /* keys 8, 9 */   \
            P8K_STEP_RC("7", P8K_DOUBLE, "stvx 1,10,5") P8K_STEP_ODD("stvx 7,10,8")  /* keys 10, 11 */ \
            P8K_STEP_RC("7", P8K_DOUBLE, "stvx 1,0,12") P8K_STEP_ODD("stvx 7,12,6")  /* keys 12, 13 */ \
            P8K_STEP_RC("7", "", "stvx 1,12,5")                                      /* key 14 */      \
            "li 3,0\n\t"                                                                            \
            "blr\n\t"                                                                                \
            ".size " name ",.-" name "\n\t"                                                          \
            ".p2align 4\n" /* the table, in .text within 32 KB of r12 (lvx ignores the low 4 bits) */ \
            ".L" name "_t:\n\t"                                                                      \
            ".byte 12,13,14,15,8,9,10,11,4,5,6,7,0,1,2,3\n"                                          \
            ".L" name "_c:\n\t"                                                                      \
            ".byte 12,15,14,13,12,15,14,13,12,15,14,13,12,15,14,13\n\t"                              \
            ".long 0x01000000,0,0,0\n\t"                                                             \
            ".long 0x1b000000,0,0,0\n\t"                                                             \
            ".machine pop\n")
P8K_ASM(P8K_STR(P8_FN(aes_expand_key)), P8K_STR(P8_FN(aes_expand_key_192)));

/* ---------------------------------------------------------------------------------------------- */
/* ECB                                                                                              */

/* n blocks in, AES, out (n = 8, 4, 2, 1 after inlining). The data must enter vcipher in AES order,
   so ECB pays a vperm in and a vperm out per block. */
VG_POWER8_INLINE void ecb_encrypt_n(const struct power8_round_keys *rk, const struct p8_offsets *off,
                                    const uint8_t *in, uint8_t *out, int n)
{
    p8_u8 b[8];
    for (int i = 0; i < n; i++) b[i] = vec_xor(p8_data_to_aes(p8_load_data_at(in, off->o[i])), rk->k[0]);
    p8_encrypt_rounds(rk, b, n);
    for (int i = 0; i < n; i++) p8_store_data_at(p8_aes_to_data(b[i]), out, off->o[i]);
}

/* The Inverse Cipher (FIPS 197 §5.3): vncipher = InvShiftRows, InvSubBytes, AddRoundKey,
   InvMixColumns, so the round keys are the encryption ones from last to first. */
VG_POWER8_INLINE void ecb_decrypt_n(const struct power8_round_keys *rk, const struct p8_offsets *off,
                                    const uint8_t *in, uint8_t *out, int n)
{
    p8_u8 b[8];
    for (int i = 0; i < n; i++)
        b[i] = vec_xor(p8_data_to_aes(p8_load_data_at(in, off->o[i])), rk->k[rk->rounds]);
    for (unsigned r = rk->rounds - 1; r >= 1; r--) {
        p8_u8 k = rk->k[r];
        for (int i = 0; i < n; i++) b[i] = p8_vncipher(b[i], k);
    }
    for (int i = 0; i < n; i++) b[i] = p8_vncipherlast(b[i], rk->k[0]);
    for (int i = 0; i < n; i++) p8_store_data_at(p8_aes_to_data(b[i]), out, off->o[i]);
}

VG_POWER8_INLINE void aes_ecb_encrypt_body(const void *sched, const uint8_t *in, uint8_t *out,
                                           size_t nblocks, unsigned rounds)
{
    struct power8_round_keys rk;
    struct p8_offsets off;
    p8_load_keys(&rk, sched, rounds);
    p8_offsets_init(&off);
    VG_BLOCKS_8421(nblocks, k, { ecb_encrypt_n(&rk, &off, in, out, k); in += 16 * k; out += 16 * k; })
}

VG_POWER8_TARGET
void P8_FN(aes_ecb_encrypt)(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    P8_BY_ROUNDS(sched, aes_ecb_encrypt_body, sched, in, out, nblocks)
}

VG_POWER8_INLINE void aes_ecb_decrypt_body(const void *sched, const uint8_t *in, uint8_t *out,
                                           size_t nblocks, unsigned rounds)
{
    struct power8_round_keys rk;
    struct p8_offsets off;
    p8_load_keys(&rk, sched, rounds);
    p8_offsets_init(&off);
    VG_BLOCKS_8421(nblocks, k, { ecb_decrypt_n(&rk, &off, in, out, k); in += 16 * k; out += 16 * k; })
}

VG_POWER8_TARGET
void P8_FN(aes_ecb_decrypt)(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    P8_BY_ROUNDS(sched, aes_ecb_decrypt_body, sched, in, out, nblocks)
}

/* ---------------------------------------------------------------------------------------------- */
/* CTR                                                                                              */

/* n counter blocks (AES order, each a copy of ctr and one vadduwm), encrypted, keystream turned to
   raw layout with one vperm and XORed with the raw input: one vperm per block in all. */
VG_POWER8_INLINE void ctr32_n(const struct power8_round_keys *rk, const struct p8_offsets *off, p8_u8 *ctr,
                              const uint8_t *in, uint8_t *out, int n)
{
    p8_u8 b[8];
    for (int i = 0; i < n; i++) {
        b[i] = vec_xor(*ctr, rk->k[0]);
        *ctr = p8_inc32(*ctr);
        /* a chain of single vadduwm, not eight ctr + i constants (registers, and a copy per loop) */
        __asm__("" : "+v"(*ctr));
    }
    p8_encrypt_rounds(rk, b, n);
    for (int i = 0; i < n; i++)
        p8_store_data_at(vec_xor(p8_aes_to_data(b[i]), p8_load_data_at(in, off->o[i])), out, off->o[i]);
}

/* The 8-block loop's addressing: lxvw4x / stxvw4x (lxvb16x / stxvb16x) take (rA + rB), so each
   block j has its own input and output base in + 16 j and out + 16 j (sixteen registers, set once,
   hidden from GCC), and ONE index advances by 128 per iteration: one addi per 8 blocks instead of two
   (in and out). */
struct ctr_bases {
    const uint8_t *in[8];
    uint8_t *out[8];
};

VG_POWER8_INLINE void ctr32_8_indexed(const struct power8_round_keys *rk, const struct ctr_bases *bs, p8_u8 *ctr,
                                      long idx)
{
    p8_u8 b[8];
    for (int i = 0; i < 8; i++) {
        b[i] = vec_xor(*ctr, rk->k[0]);
        *ctr = p8_inc32(*ctr);
        __asm__("" : "+v"(*ctr));
    }
    p8_encrypt_rounds(rk, b, 8);
    for (int i = 0; i < 8; i++)
        p8_store_data_at(vec_xor(p8_aes_to_data(b[i]), p8_load_data_at(bs->in[i], idx)), bs->out[i], idx);
}

VG_POWER8_INLINE void aes_ctr32_body(const void *sched, uint8_t counter[16], const uint8_t *in,
                                     uint8_t *out, size_t nblocks, unsigned rounds)
{
    struct power8_round_keys rk;
    struct p8_offsets off;
    p8_load_keys(&rk, sched, rounds);
    p8_u8 ctr = p8_load_aes(counter);
    if (nblocks >= 8) {
        struct ctr_bases bs;
        for (int j = 0; j < 8; j++) {
            bs.in[j] = in + 16 * j;
            bs.out[j] = out + 16 * j;
            __asm__("" : "+r"(bs.in[j]), "+r"(bs.out[j]));
        }
        long idx = 0;
        for (; nblocks >= 8; nblocks -= 8, idx += 128) ctr32_8_indexed(&rk, &bs, &ctr, idx);
        in += idx;
        out += idx;
    }
    p8_offsets_init(&off);
    if (nblocks & 4) { ctr32_n(&rk, &off, &ctr, in, out, 4); in += 64; out += 64; }
    if (nblocks & 2) { ctr32_n(&rk, &off, &ctr, in, out, 2); in += 32; out += 32; }
    if (nblocks & 1) ctr32_n(&rk, &off, &ctr, in, out, 1);
    p8_store_aes(ctr, counter);
}

/* Fewer than 8 blocks (GCM's E(J0) and a stream's last keystream block, for instance): only the
   4/2/1 groups, in a function of its own, so the 8-block loop's register set (and GCC's saving of the
   callee-saved registers it takes, about 60 instructions) stays out of the short calls. */
VG_POWER8_INLINE void aes_ctr32_short_body(const void *sched, uint8_t counter[16], const uint8_t *in,
                                           uint8_t *out, size_t nblocks, unsigned rounds)
{
    struct power8_round_keys rk;
    struct p8_offsets off;
    p8_load_keys(&rk, sched, rounds);
    p8_offsets_init(&off);
    p8_u8 ctr = p8_load_aes(counter);
    if (nblocks & 4) { ctr32_n(&rk, &off, &ctr, in, out, 4); in += 64; out += 64; }
    if (nblocks & 2) { ctr32_n(&rk, &off, &ctr, in, out, 2); in += 32; out += 32; }
    if (nblocks & 1) ctr32_n(&rk, &off, &ctr, in, out, 1);
    p8_store_aes(ctr, counter);
}

VG_POWER8_TARGET __attribute__((noinline))
static void aes_ctr32_short(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                            size_t nblocks)
{
    P8_BY_ROUNDS(sched, aes_ctr32_short_body, sched, counter, in, out, nblocks)
}

VG_POWER8_TARGET __attribute__((noinline))
static void aes_ctr32_long(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                           size_t nblocks)
{
    P8_BY_ROUNDS(sched, aes_ctr32_body, sched, counter, in, out, nblocks)
}

/* One block (GCM's E(J0), a stream's keystream block): each round key loaded where it is used, no
   round-key struct for GCC to copy to the stack. */
VG_POWER8_INLINE void aes_ctr32_one_body(const void *sched, uint8_t counter[16], const uint8_t *in,
                                         uint8_t *out, unsigned rounds)
{
    const struct power8_sched *s = (const struct power8_sched *)sched;
    p8_u8 ctr = p8_load_aes(counter);
    p8_u8 b = vec_xor(ctr, p8_load_image(s->rk[0]));
    _Pragma("GCC unroll 14") for (unsigned r = 1; r < rounds; r++) b = p8_vcipher(b, p8_load_image(s->rk[r]));
    b = p8_vcipherlast(b, p8_load_image(s->rk[rounds]));
    p8_store_data_at(vec_xor(p8_aes_to_data(b), p8_load_data_at(in, 0)), out, 0);
    p8_store_aes(p8_inc32(ctr), counter);
}

VG_POWER8_TARGET __attribute__((noinline))
static void aes_ctr32_one(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out)
{
    P8_BY_ROUNDS(sched, aes_ctr32_one_body, sched, counter, in, out)
}

VG_POWER8_TARGET
void P8_FN(aes_ctr32)(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                      size_t nblocks)
{
    if (nblocks == 1) aes_ctr32_one(sched, counter, in, out); /* public length */
    else if (nblocks < 8) aes_ctr32_short(sched, counter, in, out, nblocks);
    else aes_ctr32_long(sched, counter, in, out, nblocks);
}

/* RFC 8452's counter: bytes 0..3 little-endian. In raw layout big-endian word 0 (GCC element 3)
   holds exactly that number, so the counter is kept raw, vadduwm'ed on element 3 (mod 2^32, the
   other 12 bytes untouched), and turned to AES order with one vperm per block; the keystream takes a
   second vperm back to raw. GCM-SIV's CTR is one pass after POLYVAL, so this is not its bottleneck. */
VG_POWER8_INLINE void ctr32_le_n(const struct power8_round_keys *rk, const struct p8_offsets *off,
                                 p8_u8 *ctr, const uint8_t *in, uint8_t *out, int n)
{
    p8_u8 b[8];
    for (int i = 0; i < n; i++) {
        b[i] = vec_xor(p8_swap_words(*ctr), rk->k[0]);
        *ctr = (p8_u8)vec_add((p8_u32)*ctr, (p8_u32){0, 0, 0, 1});
    }
    p8_encrypt_rounds(rk, b, n);
    for (int i = 0; i < n; i++)
        p8_store_data_at(vec_xor(p8_aes_to_data(b[i]), p8_load_data_at(in, off->o[i])), out, off->o[i]);
}

VG_POWER8_INLINE void aes_ctr32_le_body(const void *sched, uint8_t counter[16], const uint8_t *in,
                                        uint8_t *out, size_t nblocks, unsigned rounds)
{
    struct power8_round_keys rk;
    struct p8_offsets off;
    p8_load_keys(&rk, sched, rounds);
    p8_offsets_init(&off);
    p8_u8 ctr = p8_load_raw(counter);
    VG_BLOCKS_8421(nblocks, k, { ctr32_le_n(&rk, &off, &ctr, in, out, k); in += 16 * k; out += 16 * k; })
    p8_store_raw(ctr, counter);
}

VG_POWER8_TARGET
void P8_FN(aes_ctr32_le)(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                         size_t nblocks)
{
    P8_BY_ROUNDS(sched, aes_ctr32_le_body, sched, counter, in, out, nblocks)
}

/* ---------------------------------------------------------------------------------------------- */
/* CBC-MAC                                                                                          */
/*
 * Folding AddRoundKey (as in the aesni backend): the next chain step starts with E(...) ^ P' ^ k_0,
 * and vcipherlast XORs its key operand last, so vcipherlast(state, k_last ^ k_0 ^ P') is already the
 * next block's state after round 0; the chain is exactly `rounds` instructions per block.
 */
VG_POWER8_INLINE void cbc_mac_body(const void *sched, uint8_t mac[16], const uint8_t *in, size_t nblocks,
                                   unsigned rounds)
{
    if (nblocks == 0) return;
    struct power8_round_keys rk;
    p8_load_keys(&rk, sched, rounds);
    const p8_u8 klast = rk.k[rk.rounds], kfold = vec_xor(rk.k[0], klast);
    p8_u8 m = vec_xor(vec_xor(p8_load_aes(mac), rk.k[0]), p8_load_aes(in));
    for (size_t i = 0;; i++) {
        for (unsigned r = 1; r < rk.rounds; r++) m = p8_vcipher(m, rk.k[r]);
        if (i + 1 == nblocks) break;
        m = p8_vcipherlast(m, vec_xor(kfold, p8_load_aes(in + 16 * (i + 1))));
    }
    p8_store_aes(p8_vcipherlast(m, klast), mac);
}

VG_POWER8_TARGET
void P8_FN(cbc_mac)(const void *sched, uint8_t mac[16], const uint8_t *in, size_t nblocks)
{
    P8_BY_ROUNDS(sched, cbc_mac_body, sched, mac, in, nblocks)
}
