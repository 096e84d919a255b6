/*
 * power8_gcm.c — the GCM kernels: CTR (inc32) and GHASH in one pass over the data, 4 KiB at a time.
 *
 * CPU features: ISA 2.07 vector crypto (VG_POWER8_TARGET).
 *
 * Each chunk of up to 256 blocks is encrypted by the 8-block CTR loop (power8_aes_ctr32) and hashed
 * by the 8-block aggregated GHASH loop (power8_ghash_update) while it is still in L1: seal encrypts
 * then hashes the ciphertext it wrote; open hashes the ciphertext, then decrypts it (so in == out
 * works). The per-call set-up of the two loops (round keys into registers, the accumulator's byte
 * order) is paid once per 256 blocks.
 *
 * Why not stitched round by round: the issue asks for the 8 AES chains interleaved with the GHASH
 * products of the previous 8 blocks inside one loop. Written with <altivec.h> built-ins, GCC 12 cannot
 * keep that loop in the 32 vector registers (11 round keys + 8 blocks + accumulator, 3 partial sums,
 * counter, masks, and 24 H-power vectors): it spills round keys and H powers to the stack inside the
 * loop. Measured with tools/qemu-insn-count (AES-128, 16 KiB, per block): stitched round by round 49.4
 * instructions, 8-block phases in one loop 41.8, this chunked composition 31-32 (docs/ppc64le.md).
 * A stitched loop that wins needs hand-allocated registers (a .S file); that is left to do.
 */
#include "power8.h"

/* Blocks per chunk: 4 KiB, inside L1 (64 KiB on POWER8), so the second pass reads cached data, and
   large enough that the two loops' per-call set-up (about 200 instructions each: round keys, the
   callee-saved vector registers) costs under 2 instructions per block. */
#define P8_GCM_CHUNK 256

VG_POWER8_TARGET
size_t P8_FN(gcm_seal_blocks)(const void *sched, const void *hkey, uint8_t counter[16], uint8_t acc[16],
                              const uint8_t *in, uint8_t *out, size_t nblocks)
{
    for (size_t done = 0; done < nblocks; done += P8_GCM_CHUNK) {
        size_t n = nblocks - done < P8_GCM_CHUNK ? nblocks - done : P8_GCM_CHUNK;
        P8_FN(aes_ctr32)(sched, counter, in + 16 * done, out + 16 * done, n);
        P8_FN(ghash_update)(hkey, acc, out + 16 * done, n);
    }
    return nblocks;
}

VG_POWER8_TARGET
size_t P8_FN(gcm_open_blocks)(const void *sched, const void *hkey, uint8_t counter[16], uint8_t acc[16],
                              const uint8_t *in, uint8_t *out, size_t nblocks)
{
    for (size_t done = 0; done < nblocks; done += P8_GCM_CHUNK) {
        size_t n = nblocks - done < P8_GCM_CHUNK ? nblocks - done : P8_GCM_CHUNK;
        P8_FN(ghash_update)(hkey, acc, in + 16 * done, n); /* before the chunk is overwritten */
        P8_FN(aes_ctr32)(sched, counter, in + 16 * done, out + 16 * done, n);
    }
    return nblocks;
}

/* ---------------------------------------------------------------------------------------------- */
/* Short one-shot messages: the whole of SP 800-38D §7.1/§7.2 in one call                          */
/*
 * For a 12-byte nonce, len <= POWER8_GCM_SHORT_MAX and aad_len <= POWER8_GCM_SHORT_MAX_AAD (the mode
 * checks both; they are public). The general path (stream state, staging buffer, a ctr32 call and one
 * or two ghash_update calls, each loading the round keys or setting up its loop) costs several times
 * the AES and GHASH of a 64-byte message. Here:
 *   AES:   the t = nd + 1 blocks inc32^1(J0) .. inc32^nd(J0) (the nd = ceil(len / 16) data blocks)
 *          and J0 itself, round keys loaded once, in groups of 8, 4, 2, 1 by the bits of t (t <= 15:
 *          one group of each size at most, so at most four serial chains). J0 is the last lane of the
 *          last group, so only that group differs from the others.
 *   GHASH: S = GHASH(A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64) over m = ceil(aad_len / 16)
 *          + nd + 1 blocks, aggregated as in power8_ghash.c section 3: cut into groups of 8 from the
 *          END (the first group has ((m - 1) mod 8) + 1 blocks), block j of a group of g taking H_(g-j),
 *          products summed unreduced and each group reduced once. Between groups the reduced
 *          accumulator joins the next group's first block, whose power is H_8: acc * H_8 starts the
 *          next sum (only when m > 8). A 64-byte message with up to 3 blocks of AAD is ONE reduction.
 *   Tag:   E(J0) ^ S, all 16 bytes (the mode truncates and, for open, compares in constant time).
 * The two run one after the other, not interleaved: AES (11 round keys, up to 8 blocks, the counters)
 * and GHASH (three partial sums, the H powers, the data) side by side need more than the 20
 * call-clobbered vector registers, and saving and restoring the callee-saved ones v20..v31 costs
 * about 100 instructions, more than the whole GHASH of a 64-byte message. So seal encrypts, then hashes
 * the ciphertext it wrote; open hashes the ciphertext, then decrypts (so in == out works).
 * Messages of t < 8 blocks (len < 112) take a copy of the code without the 8-block group, whose
 * registers then fit the call-clobbered ones; t >= 8 takes the copy with it.
 * A partial last block (and a partial AAD block) goes through a zeroed 16-byte stack copy, moved by
 * 8/4/2/1-byte pieces chosen by the bits of the public length.
 */

/* Copies n < 16 bytes in at most four moves (8, 4, 2, 1 by the bits of the public n). */
VG_POWER8_INLINE void copy_partial(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (n & 8) { memcpy(dst, src, 8); dst += 8; src += 8; }
    if (n & 4) { memcpy(dst, src, 4); dst += 4; src += 4; }
    if (n & 2) { memcpy(dst, src, 2); dst += 2; src += 2; }
    if (n & 1) *dst = *src;
}

/* buf (16 bytes, aligned) = the n < 16 bytes at src, zero-padded. */
VG_POWER8_INLINE void pad_partial(uint8_t *buf, const uint8_t *src, size_t n)
{
    vec_st(vec_splats((unsigned char)0), 0, buf);
    copy_partial(buf, src, n);
}

/* Bytes 0..n-1 all ones, the rest zero (AES order), for 0 < n < 16: masks a partial ciphertext block
   to C_n* || 0^u before GHASH. */
VG_POWER8_INLINE p8_u8 partial_mask(size_t n)
{
    static const uint8_t ones_then_zeros[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                                0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    return p8_load_aes(ones_then_zeros + 16 - n);
}

/* ---- AES: the keystream and the data ---- */

struct short_aes {
    struct power8_round_keys rk;
    p8_u8 ctr;  /* the counter block of the next data block (AES order) */
    p8_u8 j0;   /* J0 = nonce || 0^31 || 1 (AES order) */
    p8_u8 ekj0; /* E(J0), from the last group */
    const uint8_t *in;
    uint8_t *out;
    size_t rem;   /* bytes in the partial last data block, 0 if none (public) */
    size_t left;  /* data blocks not yet done (public) */
    uint8_t *buf; /* the zero-padded partial input block (aligned stack); seal leaves C_n* || 0^u there */
};

/* One group of n AES blocks (n = 8, 4, 2, 1 and last: constants after inlining). last = 0: n data
   blocks. last = 1: the message's last group: n - 1 data blocks and J0 in lane n - 1. The message's
   last data block (partial if rem) ends the last group or, when that group is J0 alone, the group
   before: st->left (data blocks not yet done) tells which. */
VG_POWER8_INLINE void short_group(struct short_aes *st, int n, int last, int decrypt)
{
    const struct power8_round_keys *rk = &st->rk;
    const int nd = n - last;
    p8_u8 b[8];
    for (int i = 0; i < nd; i++) {
        b[i] = vec_xor(st->ctr, rk->k[0]);
        st->ctr = p8_inc32(st->ctr);
        __asm__("" : "+v"(st->ctr)); /* a chain of single vadduwm, not n constants */
    }
    if (last) b[n - 1] = vec_xor(st->j0, rk->k[0]);
    p8_encrypt_rounds(rk, b, n);
    if (last) st->ekj0 = b[n - 1];
    if (nd == 0) return;
    /* data: raw in, keystream to raw (power8: one vperm; power9: none), XOR, raw out */
    for (int i = 0; i < nd - 1; i++)
        p8_store_data_at(vec_xor(p8_aes_to_data(b[i]), p8_load_data_at(st->in, 16 * i)), st->out, 16 * i);
    const int i = nd - 1;
    if (st->rem && st->left == (size_t)nd) {
        p8_u8 y = vec_xor(p8_load_aes(st->buf), b[i]);
        /* seal: the keystream beyond the message must not reach GHASH, which reads C_n* || 0^u
           from buf afterwards; open: GHASH has already read buf */
        if (!decrypt) y = vec_and(y, partial_mask(st->rem));
        p8_store_aes(y, st->buf);
        copy_partial(st->out + 16 * i, st->buf, st->rem);
    } else {
        p8_store_data_at(vec_xor(p8_aes_to_data(b[i]), p8_load_data_at(st->in, 16 * i)), st->out, 16 * i);
    }
    st->left -= (size_t)nd;
    st->in += 16 * nd;
    st->out += 16 * nd;
}

/* ---- GHASH over AAD, ciphertext and lengths ---- */

/* The running sum: s = the unreduced sum of the current aggregation group, hoff = 16 (k - 1) where
   H_k is the power the next block takes (a byte offset into the lo/mid/hi rows). */
struct short_hash {
    struct power8_gf_sum s;
    long hoff;
};

/* s += x * H_k; the next block takes H_(k-1). After H_1 (and another group follows: the length block
   is fed by short_hash_last) the group is reduced and the next sum starts as acc * H_8. */
VG_POWER8_INLINE void short_hash_block(struct short_hash *h, const struct power8_hkey *hk, p8_u8 x)
{
    h->s.lo = vec_xor(h->s.lo, p8_pmsum(x, vec_ld(h->hoff, hk->lo[0])));   /* x0 h0 */
    h->s.mid = vec_xor(h->s.mid, p8_pmsum(x, vec_ld(h->hoff, hk->mid[0]))); /* x1 h0 ^ x0 h1 */
    h->s.hi = vec_xor(h->s.hi, p8_pmsum(x, vec_ld(h->hoff, hk->hi[0])));   /* x1 h1 */
    h->hoff -= 16;
    if (h->hoff < 0) { /* public: depends on the lengths only */
        p8_u8 acc = p8_gf_reduce(&h->s);
        p8_gf_sum_zero(&h->s);
        p8_gf_mul_add(&h->s, hk, acc, 8);
        h->hoff = 16 * 7;
    }
}

/* n whole blocks at p. */
VG_POWER8_INLINE void short_hash_blocks(struct short_hash *h, const struct power8_hkey *hk, const uint8_t *p,
                                        size_t n)
{
    for (size_t i = 0; i < n; i++) short_hash_block(h, hk, p8_data_to_aes(p8_load_data_at(p, (long)(16 * i))));
}

/* S = GHASH_H(A || 0^v || C || 0^u || lengths); cbuf holds C_n* || 0^u when len % 16. */
VG_POWER8_INLINE p8_u8 short_ghash(const struct power8_hkey *hk, const uint8_t *aad, size_t aad_len,
                                   const uint8_t *c, size_t len, const uint8_t *cbuf, uint8_t *abuf)
{
    size_t aad_whole = aad_len / 16, aad_rem = aad_len % 16, c_whole = len / 16, c_rem = len % 16;
    size_t m = aad_whole + (aad_rem != 0) + c_whole + (c_rem != 0) + 1;
    struct short_hash h;
    p8_gf_sum_zero(&h.s);
    h.hoff = (long)(16 * ((m - 1) % 8)); /* the first group has ((m - 1) mod 8) + 1 blocks */
    short_hash_blocks(&h, hk, aad, aad_whole);
    if (aad_rem) {
        pad_partial(abuf, aad + 16 * aad_whole, aad_rem);
        short_hash_block(&h, hk, p8_load_aes(abuf));
    }
    short_hash_blocks(&h, hk, c, c_whole);
    if (c_rem) short_hash_block(&h, hk, p8_load_aes(cbuf));
    /* [len(A)]_64 || [len(C)]_64 in bits, the high doubleword len(A) (GCC element 0 is the low one);
       always at H_1, then the last reduction */
    p8_gf_mul_add(&h.s, hk, (p8_u8)(p8_u64){(uint64_t)len * 8, (uint64_t)aad_len * 8}, 1);
    return p8_gf_reduce(&h.s);
}

/* ---- the whole message ---- */

VG_POWER8_INLINE void gcm_short_body(const void *sched, const void *hkey, const uint8_t nonce[12],
                                     const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                                     size_t len, uint8_t tag[16], int decrypt, unsigned rounds, int large)
{
    _Alignas(16) uint8_t buf[16], abuf[16];
    const struct power8_hkey *hk = (const struct power8_hkey *)hkey;
    struct short_aes st;
    st.in = in;
    st.out = out;
    st.rem = len % 16;
    st.buf = buf;
    st.ekj0 = vec_splats((unsigned char)0); /* set by the last group (t >= 1 always) */
    size_t nd = len / 16 + (st.rem != 0), t = nd + 1;
    st.left = nd;
    if (st.rem) pad_partial(buf, in + 16 * (nd - 1), st.rem);

    p8_u8 s = vec_splats((unsigned char)0);
    if (decrypt) s = short_ghash(hk, aad, aad_len, in, len, buf, abuf); /* before out is written */

    p8_load_keys(&st.rk, sched, rounds);
    /* J0 = nonce || 0^31 || 1: as a 128-bit big-endian integer (the AES-order register) the high 64
       bits are nonce bytes 0..7, the low 64 bits nonce bytes 8..11 then 1 */
    uint64_t n_hi = vg_load64_be(nonce), n_lo = ((uint64_t)vg_load32_be(nonce + 8) << 32) | 1;
    st.j0 = (p8_u8)(p8_u64){n_lo, n_hi};
    st.ctr = p8_inc32(st.j0);
    /* the groups by the bits of t; the last one (lowest set bit) carries J0 */
    if (large) {
        if (t & 7) short_group(&st, 8, 0, decrypt);
        else short_group(&st, 8, 1, decrypt);
    }
    if (t & 4) {
        if (t & 3) short_group(&st, 4, 0, decrypt);
        else short_group(&st, 4, 1, decrypt);
    }
    if (t & 2) {
        if (t & 1) short_group(&st, 2, 0, decrypt);
        else short_group(&st, 2, 1, decrypt);
    }
    if (t & 1) short_group(&st, 1, 1, decrypt);

    if (!decrypt) s = short_ghash(hk, aad, aad_len, out, len, buf, abuf);
    p8_store_aes(vec_xor(st.ekj0, s), tag);
    /* the stack blocks held plaintext (and AAD) bytes */
    vec_st(vec_splats((unsigned char)0), 0, buf);
    vec_st(vec_splats((unsigned char)0), 0, abuf);
    __asm__ __volatile__("" : : "r"(buf), "r"(abuf) : "memory");
}

/* One function per (direction, key size, with or without the 8-block group), so that each gets only
   the registers its own path needs. */
#define P8_SHORT_FN(name, decrypt, rounds, large)                                                        \
    __attribute__((noinline)) VG_POWER8_TARGET static void name(                                        \
        const void *sched, const void *hkey, const uint8_t nonce[12], const uint8_t *aad, size_t aad_len, \
        const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16])                                    \
    {                                                                                                    \
        gcm_short_body(sched, hkey, nonce, aad, aad_len, in, out, len, tag, decrypt, rounds, large);    \
    }
P8_SHORT_FN(P8_FN(seal_short_10), 0, 10, 0)
P8_SHORT_FN(P8_FN(seal_short_12), 0, 12, 0)
P8_SHORT_FN(P8_FN(seal_short_14), 0, 14, 0)
P8_SHORT_FN(P8_FN(seal_short_10_large), 0, 10, 1)
P8_SHORT_FN(P8_FN(seal_short_12_large), 0, 12, 1)
P8_SHORT_FN(P8_FN(seal_short_14_large), 0, 14, 1)
P8_SHORT_FN(P8_FN(open_short_10), 1, 10, 0)
P8_SHORT_FN(P8_FN(open_short_12), 1, 12, 0)
P8_SHORT_FN(P8_FN(open_short_14), 1, 14, 0)
P8_SHORT_FN(P8_FN(open_short_10_large), 1, 10, 1)
P8_SHORT_FN(P8_FN(open_short_12_large), 1, 12, 1)
P8_SHORT_FN(P8_FN(open_short_14_large), 1, 14, 1)

/* t = ceil(len / 16) + 1 >= 8 exactly when len > 96. Branches on the key length and len only. */
#define P8_SHORT_DISPATCH(dir)                                                                             \
    unsigned rounds = ((const struct power8_sched *)sched)->rounds;                                        \
    if (len > 96) {                                                                                        \
        if (rounds == 10) P8_FN(dir##_short_10_large)(sched, hkey, nonce, aad, aad_len, in, out, len, tag);      \
        else if (rounds == 12) P8_FN(dir##_short_12_large)(sched, hkey, nonce, aad, aad_len, in, out, len, tag); \
        else P8_FN(dir##_short_14_large)(sched, hkey, nonce, aad, aad_len, in, out, len, tag);                   \
    } else {                                                                                               \
        if (rounds == 10) P8_FN(dir##_short_10)(sched, hkey, nonce, aad, aad_len, in, out, len, tag);            \
        else if (rounds == 12) P8_FN(dir##_short_12)(sched, hkey, nonce, aad, aad_len, in, out, len, tag);       \
        else P8_FN(dir##_short_14)(sched, hkey, nonce, aad, aad_len, in, out, len, tag);                         \
    }

VG_POWER8_TARGET
void P8_FN(gcm_seal_short)(const void *sched, const void *hkey, const uint8_t nonce[12], const uint8_t *aad,
                           size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16])
{
    P8_SHORT_DISPATCH(seal)
}

VG_POWER8_TARGET
void P8_FN(gcm_open_short)(const void *sched, const void *hkey, const uint8_t nonce[12], const uint8_t *aad,
                           size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16])
{
    P8_SHORT_DISPATCH(open)
}
