/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * ccm.c — AES-CCM (SP 800-38C, RFC 3610), written once over struct vg_impl.
 *
 * Notation of SP 800-38C: nonce N of n bytes, q = L = 15 - n bytes of message length, tag of
 * t bytes, AAD of a bytes, payload of len bytes.
 *
 *   B0    = flags || N || [len]_8q, flags = 64*(a > 0) + 8*((t - 2)/2) + (q - 1)   (Appendix A.2.1)
 *   AAD   = enc(a) || AAD, zero-padded to whole blocks, where enc(a) is (A.2.2)
 *             [a]_16                 if a < 2^16 - 2^8
 *             0xff 0xfe || [a]_32    if a < 2^32
 *             0xff 0xff || [a]_64    otherwise
 *   MAC   = CBC-MAC_K(B0 || AAD blocks || payload zero-padded)
 *   A_i   = (q - 1) || N || [i]_8q                                                  (A.3)
 *   C     = payload ^ first len bytes of E(A_1) || E(A_2) || ...
 *   tag   = first t bytes of MAC ^ E(A_0)
 *
 * Kernels: cbc_mac chains B0 and the AAD (whole blocks straight from the caller's buffer, the
 * ragged edges through staging blocks, so the AAD is never copied as a whole); the payload's whole
 * blocks go to the impl's fused ccm_seal_blocks / ccm_open_blocks when it has them, and whatever
 * they leave (every block when they are NULL) to cbc_mac + aes_ctr32.
 *
 * E(A_0) costs a whole kernel call if it is made alone, which for a bitsliced kernel is the price
 * of a batch. A_0 is contiguous with the payload's counters, so a short payload ending in a partial
 * block (up to CCM_STAGED_MAX bytes) is staged behind a zero block and ONE aes_ctr32 call from A_0
 * yields E(A_0) and the whole keystream, partial block included. Other payloads go to the kernels
 * in place and E(A_0) is one extra block (CCM_STAGED_MAX has the measurements behind the choice).
 *
 * Counters: the kernels increment the last 4 bytes (inc32); CCM increments the last q bytes. They
 * agree until the low 32 bits wrap, which takes 2^32 blocks (a payload of 2^36 bytes, so q >= 5).
 * ccm_run_length cuts the work at that point and ccm_advance carries into the higher counter bytes;
 * the counter never overflows its q bytes because len < 2^(8q).
 */
#include "internal.h"

#define CCM_MIN_NONCE 7
#define CCM_MAX_NONCE 13

/* Which path a payload takes. Staged: one cbc_mac step per block and ONE aes_ctr32 call for E(A_0)
   and the keystream. In place: one fused step per whole block, E(A_0) alone, and for a partial last
   block one more cbc_mac and one more CTR call. Staging saves those two calls when the payload ends
   in a partial block and nothing when it is whole blocks; there the fused kernel (CTR hidden under
   the CBC-MAC chain) and an independent E(A_0) are faster on pipelined hardware. Staging also
   copies and wipes the payload, which grows with its length.
   Measured per seal with 13 bytes of AAD (aesni: ns, best of 200 x 5000; portable: instructions,
   callgrind), staging every payload up to 112 B vs none:
     aesni     1-15 B ~108 vs ~120;  16 B 108 vs 92;  32 B 126 vs 95;  64 B 159 vs 118;  100 B 214/182
     portable  1 B 18152 vs 22418;  17 B 21546 vs 27750;  64 B 28376 vs 29071;  100 B 38652 vs 44523
   so: staged for a payload ending in a partial block, up to 48 B (aesni loses beyond it). */
#define CCM_STAGED_MAX 48

/*@ logic boolean ccm_tag_ok(integer t) = 4 <= t <= 16 && t % 2 == 0;
    // The code a one-shot seal or open returns before it writes anything, in vg.h's order (VG_OK:
    // the arguments are accepted). key_ok: the key was set up.
    logic integer ccm_error(boolean key_ok, uint8_t *nonce, integer nonce_len, uint8_t *aad,
                            integer aad_len, uint8_t *in, integer len, uint8_t *out, uint8_t *tag,
                            integer tag_len) =
      !key_ok ? VG_ERR_ARG :
      (nonce_len < CCM_MIN_NONCE || nonce_len > CCM_MAX_NONCE) ? VG_ERR_NONCE_LENGTH :
      !ccm_tag_ok(tag_len) ? VG_ERR_TAG_LENGTH :
      (15 - nonce_len < 8 && len >= vg_pow256(15 - nonce_len)) ? VG_ERR_LENGTH :
      (nonce == \null || tag == \null || (aad_len != 0 && aad == \null) ||
       (len != 0 && (in == \null || out == \null)) || vg_partial(in, out, len)) ? VG_ERR_ARG :
      VG_OK;
*/

/*@ assigns \nothing;
    ensures \result == 1 <==> ccm_tag_ok(t) == \true;
    ensures \result == 0 || \result == 1;
*/
static int ccm_tag_len_ok(size_t t) { return t >= 4 && t <= 16 && t % 2 == 0; }

/* The checks seal and open share, in the header's order. */
/*@ requires \valid(st);
    assigns *st;
    ensures \result == ccm_error(k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_CCM_KEY), (uint8_t *)nonce,
                                nonce_len, (uint8_t *)aad, aad_len, (uint8_t *)in, len, (uint8_t *)out,
                                (uint8_t *)tag, tag_len);
*/
static int ccm_check(const vg_aes_ccm_key *k, const struct vg_aes_key_state **st,
                     const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                     const uint8_t *in, size_t len, const uint8_t *out, const uint8_t *tag,
                     size_t tag_len)
{
    *st = vg_aes_key_state_of(k ? k->opaque : NULL, VG_MAGIC_CCM_KEY);
    if (!*st) return VG_ERR_ARG;
    if (nonce_len < CCM_MIN_NONCE || nonce_len > CCM_MAX_NONCE) return VG_ERR_NONCE_LENGTH;
    if (!ccm_tag_len_ok(tag_len)) return VG_ERR_TAG_LENGTH;
    /* len < 2^(8q); q = 8 admits every size_t. */
    size_t q = 15 - nonce_len;
    //@ assert q < 8 ==> ((uint64_t)len >> (8 * q)) == len / vg_pow256(q);
    if (q < 8 && ((uint64_t)len >> (8 * q)) != 0) return VG_ERR_LENGTH;
    if (!nonce || !tag || (aad_len && !aad) || (len && (!in || !out))) return VG_ERR_ARG;
    if (vg_partial_overlap(in, out, len)) return VG_ERR_ARG;
    return VG_OK;
}

/* B0 and A0 from the parameters (Appendix A.2.1, A.3). The nonce is copied here, before anything is
   written, so later writes to out cannot change it.
   Byte loops rather than memcpy so that WP can follow every byte (with memcpy into b0 + 1 followed by
   stores into the same 16 bytes, the provers lost which bytes the copy had written). The flags byte
   is a sum of disjoint bit fields: 64·Adata (bit 6), 8·((t - 2)/2) <= 56 (bits 3..5), q - 1 <= 7
   (bits 0..2), so + and | give the same byte. */
/*@ // Byte i from the end of [len]_{8q}: (len >> 8i) mod 256.
    logic integer ccm_len_byte(integer len, integer i) = (len / vg_pow256(i)) % 0x100;
*/
/*@ requires CCM_MIN_NONCE <= nonce_len <= CCM_MAX_NONCE;
    requires ccm_tag_ok(tag_len);
    requires len < vg_pow256(15 - nonce_len);
    requires \valid(b0 + (0 .. 15)) && \valid(a0 + (0 .. 15));
    requires \valid_read(nonce + (0 .. nonce_len - 1));
    requires \separated(b0 + (0 .. 15), a0 + (0 .. 15), nonce + (0 .. nonce_len - 1));
    assigns b0[0 .. 15], a0[0 .. 15];
    ensures b0[0] == (aad_len != 0 ? 64 : 0) + 8 * ((tag_len - 2) / 2) + (14 - nonce_len);
    ensures a0[0] == 14 - nonce_len;
    ensures \forall integer i; 0 <= i < nonce_len ==> b0[1 + i] == nonce[i] && a0[1 + i] == nonce[i];
    ensures \forall integer i; 0 <= i < 15 - nonce_len ==>
              b0[15 - i] == ccm_len_byte(len, i) && a0[15 - i] == 0;
*/
static void ccm_format(uint8_t b0[16], uint8_t a0[16], const uint8_t *nonce, size_t nonce_len,
                       size_t aad_len, uint64_t len, size_t tag_len)
{
    size_t q = 15 - nonce_len;
    b0[0] = (uint8_t)((aad_len ? 0x40u : 0u) + 8 * ((tag_len - 2) / 2) + (q - 1));
    a0[0] = (uint8_t)(q - 1);
    /*@ loop invariant 0 <= i <= nonce_len;
        loop invariant b0[0] == \at(b0[0], LoopEntry) && a0[0] == \at(a0[0], LoopEntry);
        loop invariant \forall integer j; 0 <= j < i ==> b0[1 + j] == nonce[j] && a0[1 + j] == nonce[j];
        loop assigns i, b0[1 .. nonce_len], a0[1 .. nonce_len];
        loop variant nonce_len - i;
    */
    for (size_t i = 0; i < nonce_len; i++) {
        b0[1 + i] = nonce[i];
        a0[1 + i] = nonce[i];
    }
    /*@ loop invariant 0 <= i <= q;
        loop invariant b0[0] == \at(b0[0], LoopEntry) && a0[0] == \at(a0[0], LoopEntry);
        loop invariant \forall integer j; 1 <= j <= nonce_len ==>
                         b0[j] == \at(b0[j], LoopEntry) && a0[j] == \at(a0[j], LoopEntry);
        loop invariant \forall integer j; 0 <= j < i ==> b0[15 - j] == ccm_len_byte(len, j) && a0[15 - j] == 0;
        loop assigns i, b0[16 - q .. 15], a0[16 - q .. 15];
        loop variant q - i;
    */
    for (size_t i = 0; i < q; i++) {
        //@ assert (len >> (8 * i)) == len / vg_pow256(i);
        b0[15 - i] = (uint8_t)(len >> (8 * i));
        a0[15 - i] = 0;
    }
}

/* The encoding of the AAD length a (> 0) that starts the AAD blocks (Appendix A.2.2): [a]_16 if
   a < 2^16 - 2^8, 0xff 0xfe [a]_32 if a < 2^32, else 0xff 0xff [a]_64. Returns its length. */
/*@ requires \valid(enc + (0 .. 9));
    assigns enc[0 .. 9];
    behavior short:
      assumes a < 0xff00;
      ensures \result == 2 && enc[0] * 256 + enc[1] == a;
    behavior medium:
      assumes 0xff00 <= a < 0x100000000;
      ensures \result == 6 && enc[0] == 0xff && enc[1] == 0xfe && vg_be32(enc + 2) == a;
    behavior long:
      assumes 0x100000000 <= a;
      ensures \result == 10 && enc[0] == 0xff && enc[1] == 0xff && vg_be64(enc + 2) == a;
    complete behaviors;
    disjoint behaviors;
*/
static size_t ccm_aad_length(uint8_t enc[10], uint64_t a)
{
    if (a < 0xff00) {
        enc[0] = (uint8_t)(a >> 8);
        enc[1] = (uint8_t)a;
        return 2;
    }
    enc[0] = 0xff;
    if (a < ((uint64_t)1 << 32)) {
        enc[1] = 0xfe;
        vg_store32_be(enc + 2, (uint32_t)a);
        return 6;
    }
    enc[1] = 0xff;
    vg_store64_be(enc + 2, a);
    return 10;
}

/* mac = CBC-MAC over B0 and the formatted AAD. The first AAD block (length encoding and the AAD's
   first bytes) is staged next to B0 so both go in one cbc_mac call; the aligned middle runs from the
   caller's buffer; the last partial block is staged with zero padding. */
static void ccm_mac_header(const struct vg_aes_key_state *st, uint8_t mac[16], const uint8_t b0[16],
                           const uint8_t *aad, size_t aad_len)
{
    const struct vg_impl *impl = st->impl;
    uint8_t stage[32] = {0};
    memcpy(stage, b0, 16);
    size_t nstage = 1, used = 0;
    if (aad_len) {
        size_t enc_len = ccm_aad_length(stage + 16, (uint64_t)aad_len);
        used = aad_len < 16 - enc_len ? aad_len : 16 - enc_len;
        memcpy(stage + 16 + enc_len, aad, used);
        nstage = 2;
    }
    impl->cbc_mac(st->sched, mac, stage, nstage);

    /* What is left of the AAD starts on a block boundary of the formatted string. */
    size_t whole = (aad_len - used) / 16;
    if (whole) impl->cbc_mac(st->sched, mac, aad + used, whole);
    size_t rest = (aad_len - used) % 16;
    if (rest) {
        memset(stage, 0, 16);
        memcpy(stage, aad + used + 16 * whole, rest);
        impl->cbc_mac(st->sched, mac, stage, 1);
    }
    vg_wipe(stage, sizeof stage);
}

/* The CTR counter of the in-place path. The kernels read and advance `block`; the mode decides where
   a run stops from `index` alone, the block number A_index, a public function of the length. It never
   reads the block for that: when q < 4 the low 32 bits the kernels increment hold nonce bytes. */
struct ccm_counter {
    uint8_t block[16];
    uint64_t index;
    size_t q;
};

/* How many of nblocks an inc32 kernel may take before its low 32 bits wrap. For q <= 4 they never
   do: the q-byte counter field cannot overflow (index <= len/16 + 1 < 2^(8q)), so inc32 never
   carries out of it and agrees with CCM's increment. For q >= 5 the low 32 bits are all counter
   field and wrap every 2^32 blocks. */
static size_t ccm_run_length(const struct ccm_counter *c, size_t nblocks)
{
    if (c->q <= 4) return nblocks;
    uint64_t room = ((uint64_t)1 << 32) - (uint32_t)c->index;
    return (uint64_t)nblocks < room ? nblocks : (size_t)room;
}

/* After a run: the kernel advanced the low 32 bits (mod 2^32); the counter bytes above them, which
   only change when those wrap, are rewritten from the index (big-endian, counter field only). */
static void ccm_advance(struct ccm_counter *c, size_t run)
{
    c->index += run;
    for (size_t i = 4; i < c->q; i++) c->block[15 - i] = (uint8_t)(c->index >> (8 * i));
}

/* out = in ^ E(A_index ...) over nblocks whole blocks, counter advanced CCM's way. */
static void ccm_ctr(const struct vg_aes_key_state *st, struct ccm_counter *c, const uint8_t *in,
                    uint8_t *out, size_t nblocks)
{
    /* (nblocks >= 1.) Written so that the usual single run (no 32-bit wrap inside) returns from the
       first pass: the Eva analysis, proofs/eva/, then never merges passes. */
    for (;;) {
        size_t run = ccm_run_length(c, nblocks);
        st->impl->aes_ctr32(st->sched, c->block, in, out, run);
        ccm_advance(c, run);
        if (run == nblocks) return;
        in += 16 * run;
        out += 16 * run;
        nblocks -= run;
    }
}

typedef size_t (*ccm_fused_fn)(const void *sched, uint8_t mac[16], uint8_t counter[16],
                               const uint8_t *in, uint8_t *out, size_t nblocks);

/* The fused kernel over up to nblocks whole blocks, cut at counter wraps; returns how many it did
   (it may stop early: the caller finishes the rest). */
static size_t ccm_fused(const struct vg_aes_key_state *st, ccm_fused_fn kernel, uint8_t mac[16],
                        struct ccm_counter *c, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    size_t done = 0;
    if (!kernel || nblocks == 0) return 0;
    for (;;) { /* the usual single run returns from the first pass, as in ccm_ctr */
        size_t run = ccm_run_length(c, nblocks - done);
        size_t got = kernel(st->sched, mac, c->block, in + 16 * done, out + 16 * done, run);
        ccm_advance(c, got);
        done += got;
        if (got < run || done == nblocks) return done;
    }
}

/* Staged path, both directions: stage = 0^16 || payload zero-padded (len <= CCM_STAGED_MAX). */
static void ccm_staged(const struct vg_aes_key_state *st, uint8_t mac[16], const uint8_t a0[16],
                       uint8_t s0[16], const uint8_t *in, uint8_t *out, size_t len, int sealing)
{
    const struct vg_impl *impl = st->impl;
    uint8_t stage[16 + CCM_STAGED_MAX];
    uint8_t counter[16];
    size_t nb = (len + 15) / 16, used = 16 * (1 + nb); /* only these bytes are touched (and wiped) */
    memset(stage, 0, used);
    if (len) memcpy(stage + 16, in, len); /* in may be NULL when len is 0 */
    memcpy(counter, a0, 16);
    if (sealing) {
        /* MAC the padded plaintext, then one CTR call: block 0 becomes E(A_0), the rest the
           ciphertext. */
        if (nb) impl->cbc_mac(st->sched, mac, stage + 16, nb);
        impl->aes_ctr32(st->sched, counter, stage, stage, 1 + nb);
    } else {
        /* One CTR call gives E(A_0) and the plaintext; the padding became keystream and must be zero
           again before the MAC sees it. */
        impl->aes_ctr32(st->sched, counter, stage, stage, 1 + nb);
        memset(stage + 16 + len, 0, 16 * nb - len);
        if (nb) impl->cbc_mac(st->sched, mac, stage + 16, nb);
    }
    memcpy(s0, stage, 16);
    if (len) memcpy(out, stage + 16, len);
    vg_wipe(stage, used);
    vg_wipe(counter, sizeof counter);
}

/* In-place path for every other payload: fused kernel, then cbc_mac + aes_ctr32 for what it left,
   then the partial last block through a staging block, then E(A_0) alone. */
static void ccm_direct(const struct vg_aes_key_state *st, uint8_t mac[16], const uint8_t a0[16],
                       uint8_t s0[16], const uint8_t *in, uint8_t *out, size_t len, size_t q,
                       int sealing)
{
    const struct vg_impl *impl = st->impl;
    struct ccm_counter c;
    uint8_t block[16];
    size_t whole = len / 16, rest = len % 16;

    memcpy(c.block, a0, 16);
    c.block[15] = 1; /* A_1: the counter field of A_0 is all zero */
    c.index = 1;
    c.q = q;
    size_t done = ccm_fused(st, sealing ? impl->ccm_seal_blocks : impl->ccm_open_blocks, mac, &c,
                            in, out, whole);
    if (done < whole) {
        const uint8_t *pin = in + 16 * done;
        uint8_t *pout = out + 16 * done;
        size_t n = whole - done;
        /* The MAC reads plaintext: before encrypting (in may be out), after decrypting. */
        if (sealing) impl->cbc_mac(st->sched, mac, pin, n);
        ccm_ctr(st, &c, pin, pout, n);
        if (!sealing) impl->cbc_mac(st->sched, mac, pout, n);
    }
    if (rest) {
        /* block = keystream E(A_m); the plaintext tail is then staged zero-padded for the MAC. */
        const uint8_t *pin = in + 16 * whole;
        uint8_t *pout = out + 16 * whole;
        uint8_t padded[16] = {0};
        memset(block, 0, 16);
        ccm_ctr(st, &c, block, block, 1);
        if (sealing) {
            memcpy(padded, pin, rest);
            vg_xor_bytes(pout, padded, block, rest);
        } else {
            vg_xor_bytes(padded, pin, block, rest);
            memcpy(pout, padded, rest);
        }
        impl->cbc_mac(st->sched, mac, padded, 1);
        vg_wipe(padded, sizeof padded);
    }
    memset(block, 0, 16);
    memcpy(c.block, a0, 16);
    impl->aes_ctr32(st->sched, c.block, block, s0, 1);
    vg_wipe(block, sizeof block);
    vg_wipe(&c, sizeof c);
}

/* mac and s0 from B0, the AAD and the payload; out gets the other direction's payload. */
static void ccm_run(const struct vg_aes_key_state *st, const uint8_t *nonce, size_t nonce_len,
                    const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
                    size_t tag_len, uint8_t mac[16], uint8_t s0[16], int sealing)
{
    uint8_t b0[16], a0[16];
    ccm_format(b0, a0, nonce, nonce_len, aad_len, (uint64_t)len, tag_len);
    memset(mac, 0, 16);
    ccm_mac_header(st, mac, b0, aad, aad_len);
    if (len % 16 != 0 && len <= CCM_STAGED_MAX)
        ccm_staged(st, mac, a0, s0, in, out, len, sealing);
    else
        ccm_direct(st, mac, a0, s0, in, out, len, 15 - nonce_len, sealing);
    vg_wipe(b0, sizeof b0);
    vg_wipe(a0, sizeof a0);
}

/*@ behavior rejected:
      assumes k == \null || !(key_len == 16 || key_len == 24 || key_len == 32) || key == \null;
      assigns \nothing;
      ensures \result == (k == \null ? VG_ERR_ARG :
                          !(key_len == 16 || key_len == 24 || key_len == 32) ? VG_ERR_KEY_LENGTH : VG_ERR_ARG);
*/
static int vg_aes_ccm_init_body(vg_aes_ccm_key *k, const uint8_t *key, size_t key_len)
{
    if (!k) return VG_ERR_ARG;
    if (!vg_aes_key_len_ok(key_len)) return VG_ERR_KEY_LENGTH;
    if (!key) return VG_ERR_ARG;
    _Static_assert(sizeof(struct vg_aes_key_state) <= sizeof(vg_aes_ccm_key), "key too small");
    struct vg_aes_key_state *st = (struct vg_aes_key_state *)(void *)k->opaque;
    return vg_aes_key_init(st, key, key_len, 0, VG_MAGIC_CCM_KEY); /* the AEADs never decrypt blocks */
}

/* DIT: set by the schedule kernel itself (as in vg_aes_expand_key, aes.c). */
int vg_aes_ccm_init(vg_aes_ccm_key *k, const uint8_t *key, size_t key_len)
{
    return vg_aes_ccm_init_body(k, key, key_len);
}

static int ccm_seal_checked(const struct vg_aes_key_state *st, const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                       uint8_t *out, uint8_t *tag, size_t tag_len);
static int ccm_open_checked(const struct vg_aes_key_state *st, const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                       const uint8_t *tag, size_t tag_len, uint8_t *out);

/*@ behavior rejected:
      assumes ccm_error(k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_CCM_KEY), (uint8_t *)nonce, nonce_len, (uint8_t *)aad, aad_len,
                      (uint8_t *)in, len, (uint8_t *)out, (uint8_t *)tag, tag_len) != VG_OK;
      assigns \nothing;
      ensures \result == ccm_error(k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_CCM_KEY), (uint8_t *)nonce, nonce_len, (uint8_t *)aad, aad_len,
                                (uint8_t *)in, len, (uint8_t *)out, (uint8_t *)tag, tag_len);
*/
static int vg_aes_ccm_seal_body(const vg_aes_ccm_key *k, const uint8_t *nonce, size_t nonce_len,
                    const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                    uint8_t *out, uint8_t *tag, size_t tag_len)
{
    const struct vg_aes_key_state *st;
    int rc = ccm_check(k, &st, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
    if (rc != VG_OK) return rc;
    return ccm_seal_checked(st, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
}

/* Seal once the arguments are accepted (its own function so that the proof of the rejected path
   above sees one call, not the whole message). */
static int ccm_seal_checked(const struct vg_aes_key_state *st, const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                       uint8_t *out, uint8_t *tag, size_t tag_len)
{
    uint8_t mac[16], s0[16];
    ccm_run(st, nonce, nonce_len, aad, aad_len, in, len, out, tag_len, mac, s0, 1);
    vg_xor_bytes(tag, mac, s0, tag_len);
    vg_wipe(mac, sizeof mac);
    vg_wipe(s0, sizeof s0);
    return VG_OK;
}

int vg_aes_ccm_seal(const vg_aes_ccm_key *k, const uint8_t *nonce, size_t nonce_len,
                    const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                    uint8_t *out, uint8_t *tag, size_t tag_len)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_ccm_seal_body(k, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
    vg_arch_secret_exit(dit);
    return rc;
}

/*@ behavior rejected:
      assumes ccm_error(k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_CCM_KEY), (uint8_t *)nonce, nonce_len, (uint8_t *)aad, aad_len,
                      (uint8_t *)in, len, (uint8_t *)out, (uint8_t *)tag, tag_len) != VG_OK;
      assigns \nothing;
      ensures \result == ccm_error(k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_CCM_KEY), (uint8_t *)nonce, nonce_len, (uint8_t *)aad, aad_len,
                                (uint8_t *)in, len, (uint8_t *)out, (uint8_t *)tag, tag_len);
*/
static int vg_aes_ccm_open_body(const vg_aes_ccm_key *k, const uint8_t *nonce, size_t nonce_len,
                    const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                    const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    const struct vg_aes_key_state *st;
    int rc = ccm_check(k, &st, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
    if (rc != VG_OK) return rc;
    return ccm_open_checked(st, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, out);
}

/* Open once the arguments are accepted. */
static int ccm_open_checked(const struct vg_aes_key_state *st, const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                       const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    /* The received tag is copied before out is written: it may sit in memory out overlaps. */
    uint8_t received[16], mac[16], s0[16], expected[16];
    memcpy(received, tag, tag_len);
    ccm_run(st, nonce, nonce_len, aad, aad_len, in, len, out, tag_len, mac, s0, 0);
    vg_xor_bytes(expected, mac, s0, tag_len);
    int rc_auth = vg_open_finish(out, len, vg_ct_differ(expected, received, tag_len));
    vg_wipe(mac, sizeof mac);
    vg_wipe(s0, sizeof s0);
    vg_wipe(expected, sizeof expected);
    return rc_auth;
}

int vg_aes_ccm_open(const vg_aes_ccm_key *k, const uint8_t *nonce, size_t nonce_len,
                    const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                    const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_ccm_open_body(k, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, out);
    vg_arch_secret_exit(dit);
    return rc;
}

void vg_aes_ccm_key_wipe(vg_aes_ccm_key *k)
{
    if (k) vg_wipe(k, sizeof *k);
}
