/*
 * power8_aes.c — AES with the POWER8 vector crypto instructions: key expansion with vsbox (four words
 * per step), ECB both ways, CTR32 with the inc32 counter and with RFC 8452's little-endian counter,
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
 * A round key is computed whole. With the key words in AES order (big-endian word j = w[j]):
 *   temp  = SubWord(RotWord(w[i-1])) ^ Rcon: vperm broadcasts the rotated last word to all four
 *           words, vsbox substitutes all 16 bytes (no ShiftRows, unlike vcipherlast), and the round
 *           constant sits in the first byte of every word (rc << 24 as a big-endian word);
 *   w[i..i+3] = prefix_xor(w[i-Nk..i-Nk+3]) ^ temp in every word, because w[i] = w[i-Nk] ^ temp,
 *           w[i+1] = w[i+1-Nk] ^ w[i] = w[i+1-Nk] ^ w[i-Nk] ^ temp, and so on:
 *           prefix_xor(v) = (v0, v0^v1, v0^v1^v2, v0^..^v3) is two vsldoi and two vxor.
 * Branches depend on the key length only.
 */

/* (v0, v0^v1, v0^v1^v2, v0^v1^v2^v3), words in big-endian order. */
VG_POWER8_INLINE p8_u8 prefix_xor(p8_u8 v)
{
    const p8_u8 zero = vec_splats((unsigned char)0);
    v = vec_xor(v, vec_sld(zero, v, 12)); /* (v0, v0^v1, v1^v2, v2^v3) */
    return vec_xor(v, vec_sld(zero, v, 8));
}

/* vperm masks in GCC's little-endian element numbering: AES byte i is element 15 - i, so "result
   AES byte i = source AES byte s(i)" is mask[15 - i] = 15 - s(i). */
#define P8_AES_MASK(s0, s1, s2, s3) \
    (p8_u8){15 - (s3), 15 - (s2), 15 - (s1), 15 - (s0), 15 - (s3), 15 - (s2), 15 - (s1), 15 - (s0), \
            15 - (s3), 15 - (s2), 15 - (s1), 15 - (s0), 15 - (s3), 15 - (s2), 15 - (s1), 15 - (s0)}

/* SubWord(RotWord(w3)) ^ rcon in every word: RotWord([a0 a1 a2 a3]) = [a1 a2 a3 a0], bytes 13, 14,
   15, 12 of the block. */
VG_POWER8_INLINE p8_u8 sub_rot_word3(p8_u8 v, p8_u8 rcon)
{
    p8_u8 rot = vec_perm(v, v, P8_AES_MASK(13, 14, 15, 12));
    return vec_xor(p8_vsbox(rot), rcon);
}

/* SubWord(w3) in every word (AES-256's middle step: no rotation, no round constant). */
VG_POWER8_INLINE p8_u8 sub_word3(p8_u8 v)
{
    p8_u8 w = vec_perm(v, v, P8_AES_MASK(12, 13, 14, 15));
    return p8_vsbox(w);
}

/* rc in the first byte of every word; doubling with vadduwm is xtime while rc < 0x80. The empty asm
   hides the value from GCC, which would otherwise fold the doublings into ten constant-pool loads of
   four or five instructions each instead of one vadduwm. */
VG_POWER8_INLINE p8_u8 rcon_vector(uint32_t rc) { return (p8_u8)vec_splats(rc << 24); }
VG_POWER8_INLINE p8_u8 rcon_double(p8_u8 r)
{
    r = (p8_u8)vec_add((p8_u32)r, (p8_u32)r);
    __asm__("" : "+v"(r));
    return r;
}

/* SubWord of one 32-bit word (AES-192's word loop): splat, vsbox, take it back. Byte order inside
   the word does not matter to a byte-wise substitution. */
VG_POWER8_INLINE uint32_t sub_word_scalar(uint32_t w)
{
    p8_u32 v = vec_splats(w);
    v = (p8_u32)p8_vsbox((p8_u8)v);
    return vec_extract(v, 0);
}

VG_POWER8_TARGET
static void expand_192(struct power8_sched *s, const uint8_t *key)
{
    /* FIPS 197 §5.2 word by word (Nk = 6, 52 words); words are big-endian values of 4 key bytes. */
    static const uint8_t rcon[8] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80};
    uint32_t w[52];
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
}

/* The constants of the 16- and 32-byte key schedules, in one 16-byte aligned table so that one
   address (two instructions) reaches them all. The two vperm masks are applied with an asm vperm
   (asm_vperm), which takes the mask as the instruction does: register byte j (big-endian) selects
   source byte mask[j]; lvx puts memory byte 15 - j in register byte j, so the table holds each mask
   backwards. Given a constant-pool mask through vec_perm, GCC on little-endian would complement it
   with an extra xxlnor every time.
     raw_to_aes  mask[j] = 4 (j / 4) + 3 - j % 4 (reverse each word: lxvw4x's raw layout to AES order)
     rot_word3   mask[j] = (13, 14, 15, 12)[j % 4] (RotWord(w[3]) in every word)
     rc1, rc1b   the round constants 0x01 and 0x1b in the first byte of every word */
struct expand_consts {
    unsigned char raw_to_aes[16], rot_word3[16];
    p8_u32 rc1, rc1b;
};
static const struct expand_consts expand_consts = {
    {12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3},
    {12, 15, 14, 13, 12, 15, 14, 13, 12, 15, 14, 13, 12, 15, 14, 13},
    {1u << 24, 1u << 24, 1u << 24, 1u << 24},
    {0x1bu << 24, 0x1bu << 24, 0x1bu << 24, 0x1bu << 24}};
_Static_assert(offsetof(struct expand_consts, rot_word3) == 16 && offsetof(struct expand_consts, rc1) == 32 &&
                   offsetof(struct expand_consts, rc1b) == 48, "expand_consts layout");

VG_POWER8_INLINE p8_u8 asm_vperm(p8_u8 x, p8_u8 mask)
{
    p8_u8 r;
    __asm__("vperm %0,%1,%1,%2" : "=v"(r) : "v"(x), "v"(mask));
    return r;
}

/* Round keys go out with stvx, which only has the (rA + rB) form: the offsets 16, 32, 48 are held in
   registers (hidden from GCC, which would otherwise make one addi per store) and the base moves by 64
   every four keys, so eleven stores cost five address instructions instead of ten. */
struct key_store {
    unsigned char *base;
    long o16, o32, o48;
};
VG_POWER8_INLINE void key_store_init(struct key_store *ks, struct power8_sched *s)
{
    ks->base = s->rk[0];
    ks->o16 = 16, ks->o32 = 32, ks->o48 = 48;
    __asm__("" : "+r"(ks->o16), "+r"(ks->o32), "+r"(ks->o48));
}
/* round key i (a constant after unrolling) */
VG_POWER8_INLINE void key_store(struct key_store *ks, p8_u8 v, int i)
{
    switch (i % 4) {
    case 0: vec_st(v, 0, ks->base); break;
    case 1: vec_st(v, ks->o16, ks->base); break;
    case 2: vec_st(v, ks->o32, ks->base); break;
    default: vec_st(v, ks->o48, ks->base); ks->base += 64; break;
    }
}

VG_POWER8_TARGET
void P8_FN(aes_expand_key)(void *sched, const uint8_t *key, size_t key_len, int want_decrypt)
{
    (void)want_decrypt; /* vncipher uses the encryption round keys in reverse (power8.h) */
    struct power8_sched *s = (struct power8_sched *)sched;
    s->rounds = (uint32_t)(key_len / 4 + 6);
    if (key_len == 24) {
        expand_192(s, key);
        return;
    }
    const struct expand_consts *c = &expand_consts;
    __asm__("" : "+r"(c)); /* one address for the table, not one constant-pool load per member */
    struct key_store ks;
    key_store_init(&ks, s);
    /* the table's rows at the store offsets already in registers: no addi */
    const p8_u8 raw_to_aes = vec_ld(0, c->raw_to_aes), rot_word3 = vec_ld(ks.o16, c->raw_to_aes);
    p8_u8 rc = vec_ld(ks.o32, c->raw_to_aes);
    if (key_len == 16) {
        p8_u8 k = asm_vperm(p8_load_raw(key), raw_to_aes);
        key_store(&ks, k, 0);
        _Pragma("GCC unroll 10") for (int i = 1; i <= 10; i++) {
            if (i == 9) rc = vec_ld(ks.o48, c->raw_to_aes); /* 0x80 doubled overflows the byte: x^8 = 0x1b */
            /* SubWord(RotWord(w3)) ^ Rcon in every word, XORed into the prefix XORs of k */
            k = vec_xor(prefix_xor(k), vec_xor(p8_vsbox(asm_vperm(k, rot_word3)), rc));
            if (i < 8 || i == 9) rc = rcon_double(rc); /* not after 8 (reloaded) or 10 (last) */
            key_store(&ks, k, i);
        }
    } else {
        /* a = w[8j..8j+3] (even round keys), b = w[8j+4..8j+7] (odd ones):
           a' = prefix_xor(a) ^ SubWord(RotWord(b[3])) ^ Rcon, b' = prefix_xor(b) ^ SubWord(a'[3])
           (w[3] splatted with vspltw: no mask). */
        p8_u8 a = asm_vperm(p8_load_raw(key), raw_to_aes), b = asm_vperm(p8_load_raw(key + 16), raw_to_aes);
        key_store(&ks, a, 0);
        key_store(&ks, b, 1);
        _Pragma("GCC unroll 7") for (int i = 1; i <= 7; i++) {
            a = vec_xor(prefix_xor(a), vec_xor(p8_vsbox(asm_vperm(b, rot_word3)), rc));
            if (i < 7) rc = rcon_double(rc);
            key_store(&ks, a, 2 * i);
            if (i == 7) break;
            b = vec_xor(prefix_xor(b), p8_vsbox((p8_u8)vec_splat((p8_u32)a, 0))); /* GCC element 0 = word 3 */
            key_store(&ks, b, 2 * i + 1);
        }
    }
}

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
    for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128) ecb_encrypt_n(&rk, &off, in, out, 8);
    if (nblocks & 4) { ecb_encrypt_n(&rk, &off, in, out, 4); in += 64; out += 64; }
    if (nblocks & 2) { ecb_encrypt_n(&rk, &off, in, out, 2); in += 32; out += 32; }
    if (nblocks & 1) ecb_encrypt_n(&rk, &off, in, out, 1);
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
    for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128) ecb_decrypt_n(&rk, &off, in, out, 8);
    if (nblocks & 4) { ecb_decrypt_n(&rk, &off, in, out, 4); in += 64; out += 64; }
    if (nblocks & 2) { ecb_decrypt_n(&rk, &off, in, out, 2); in += 32; out += 32; }
    if (nblocks & 1) ecb_decrypt_n(&rk, &off, in, out, 1);
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

VG_POWER8_TARGET
void P8_FN(aes_ctr32)(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                      size_t nblocks)
{
    P8_BY_ROUNDS(sched, aes_ctr32_body, sched, counter, in, out, nblocks)
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
    for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128) ctr32_le_n(&rk, &off, &ctr, in, out, 8);
    if (nblocks & 4) { ctr32_le_n(&rk, &off, &ctr, in, out, 4); in += 64; out += 64; }
    if (nblocks & 2) { ctr32_le_n(&rk, &off, &ctr, in, out, 2); in += 32; out += 32; }
    if (nblocks & 1) ctr32_le_n(&rk, &off, &ctr, in, out, 1);
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
