/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * gcm.c — AES-GCM (NIST SP 800-38D), one shot and streaming, written once over struct vg_impl.
 *
 * What SP 800-38D asks (§7.1, §7.2), and where it happens here:
 *   H   = E(0^128)                                       vg_aes_gcm_init, kept only inside hkey
 *   J0  = IV || 0^31 || 1 for a 12-byte IV, else
 *         GHASH(IV || 0^s || 0^64 || [len(IV)]_64)          gcm_start
 *   C_i = P_i ^ E(inc32^i(J0)), the last block truncated  gcm_data: the impl's ctr32 from inc32(J0)
 *   S   = GHASH(A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64)
 *                                                         gcm_aad, gcm_data, gcm_tag
 *   T   = MSB_t(E(J0) ^ S)                                gcm_tag
 *
 * The one-shot functions and the stream share one state (struct gcm_state, which is also the
 * stream's opaque layout) and the same four steps: start, AAD, data, tag. So the split of AAD and
 * data across stream calls cannot change the result, and the tests of one cover the other.
 *
 * Kernel calls. The portable AES encrypts several blocks per pass, so a call for one block costs
 * about as much as a call for four; short messages should make as few calls as possible:
 *   - E(J0) is made in the same ctr32 call as the first data blocks: J0, inc32(J0), inc32^2(J0), ...
 *     are consecutive counters, so a stack buffer [0^128][P_1]...[P_n*] run through ctr32 from J0
 *     yields [E(J0)][C_1]...[C_n*] (the zero padding of a partial last block becomes the keystream
 *     bytes a stream keeps for its next call).
 *   - The same buffer is GHASHed in one call: the slot that held E(J0) (saved first) takes the
 *     zero-padded last AAD block, which comes right before C_1 in GHASH's input; a one-shot call whose
 *     message fits also appends the zero-padded C_n* and the length block.
 *   So a one-shot seal or open of up to 14 blocks with a 12-byte nonce costs one ctr32 call and one
 *   or two ghash_update calls (two when the AAD has a whole block). Longer data goes straight from the
 *   caller's buffers in chunks (through gcm_seal_blocks / gcm_open_blocks when the impl has them);
 *   with such a fused kernel a message of 16 blocks or more skips the buffer altogether: E(J0) is
 *   made alone and every whole block goes to the kernel.
 *   A hardware impl may do better still: its gcm_seal_short / gcm_open_short take a whole short
 *   one-shot message with a 12-byte nonce in one call (short_path), and none of the above runs; from
 *   gcm_long_min bytes of data its gcm_seal_long / gcm_open_long, where it has them, take the call
 *   instead (seal_kernel, open_kernel).
 *
 * Opening: GHASH reads the ciphertext before ctr32 overwrites it, chunk by chunk, so in == out is
 * safe; the tag is compared with vg_ct_differ after all the data is decrypted, and vg_open_finish
 * declassifies the verdict (public once returned) and zeroes out with vg_wipe on a mismatch only.
 */
#include "internal.h"

/* SP 800-38D §5.2.1.1: len(P) <= 2^39 - 256 bits, len(A) <= 2^64 - 1 bits, len(IV) <= 2^64 - 1
   bits; in bytes (rounded down): */
#define GCM_MAX_DATA ((UINT64_C(1) << 36) - 32)
#define GCM_MAX_AAD ((UINT64_C(1) << 61) - 1)
#define GCM_MAX_NONCE ((UINT64_C(1) << 61) - 1)

#define GCM_STREAM_MAGIC 0x76674753u /* "vgGS": set by stream_init, cleared by the wipe */

/* The stack buffer of the first data call: the E(J0) slot, up to 14 data blocks, the length block. */
#define GCM_FIRST_BLOCKS 16
/* Bulk data goes through ctr32 and GHASH in chunks this size (bytes), so GHASH reads what ctr32
   wrote (or ctr32 reads what GHASH read) while it is still in L1. */
#define GCM_CHUNK 4096

enum gcm_phase { PHASE_AAD = 0, PHASE_ENCRYPT = 1, PHASE_DECRYPT = 2 };

struct gcm_state {
    const struct vg_aes_gcm_key_state *key;
    uint32_t magic;          /* GCM_STREAM_MAGIC while a stream is usable (unused by the one-shots) */
    uint32_t phase;          /* enum gcm_phase */
    uint64_t aad_len;        /* AAD bytes taken so far */
    uint64_t data_len;       /* data bytes taken so far */
    uint32_t used;           /* AAD phase: AAD bytes waiting in block[] for a whole block.
                                Data phases: bytes of the current keystream block already used; the
                                ciphertext of those bytes is in block[0..used), the keystream for
                                the next ones in ks[used..16). 0 = no block open. */
    uint32_t have_ekj0;      /* 0: counter holds J0 and E(J0) is still to be made */
    uint32_t lengths_hashed; /* the last partial block and the length block are already in acc */
    uint32_t nonce12;        /* the nonce was 12 bytes: the counter's last 32 bits are public */
    uint8_t counter[16];     /* J0, then the counter block of the next keystream block */
    uint8_t ekj0[16];        /* E(J0), once have_ekj0 */
    uint8_t acc[16];         /* the GHASH accumulator Y_i, in GCM's byte order */
    uint8_t ks[16];          /* keystream of the open block */
    uint8_t block[16];       /* pending AAD bytes, or ciphertext of the open block */
};
_Static_assert(sizeof(struct gcm_state) <= VG_AES_GCM_STREAM_SIZE, "vg_aes_gcm_stream too small");

/*@ logic boolean gcm_tag_len_ok(integer n) = n == 16 || n == 15 || n == 14 || n == 13 || n == 12 || n == 8 || n == 4;
    // The code a one-shot seal or open returns before it writes anything, in vg.h's order (VG_OK:
    // the arguments are accepted). key_ok: the key was set up.
    logic integer gcm_error(boolean key_ok, uint8_t *nonce, integer nonce_len, uint8_t *aad,
                            integer aad_len, uint8_t *in, integer len, uint8_t *out, uint8_t *tag,
                            integer tag_len) =
      !key_ok ? VG_ERR_ARG :
      (nonce_len == 0 || nonce_len > GCM_MAX_NONCE) ? VG_ERR_NONCE_LENGTH :
      !gcm_tag_len_ok(tag_len) ? VG_ERR_TAG_LENGTH :
      (len > GCM_MAX_DATA || aad_len > GCM_MAX_AAD) ? VG_ERR_LENGTH :
      (nonce == \null || tag == \null || (aad_len != 0 && aad == \null) ||
       (len != 0 && (in == \null || out == \null)) || vg_partial(in, out, len)) ? VG_ERR_ARG :
      VG_OK;
*/

/*@ assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 <==> gcm_tag_len_ok(n) == \true;
*/
static int tag_len_ok(size_t n)
{
    return n == 16 || n == 15 || n == 14 || n == 13 || n == 12 || n == 8 || n == 4;
}

/* n > max, with n widened first (a function, so that a 32-bit size_t draws no "always false"). */
/*@ assigns \nothing;
    ensures \result == 1 <==> n > max;
    ensures \result == 0 || \result == 1;
*/
static int exceeds(uint64_t n, uint64_t max)
{
    return n > max;
}

/*@ assigns \nothing;
    ensures \result == \null <==> !(k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_GCM_KEY));
*/
static const struct vg_aes_gcm_key_state *gcm_key_of(const vg_aes_gcm_key *k)
{
    /* the AES state is the first member and carries the GCM key's marker */
    if (!k || !vg_aes_key_state_of(k->opaque, VG_MAGIC_GCM_KEY)) return NULL;
    return (const struct vg_aes_gcm_key_state *)(const void *)k->opaque;
}

static void ghash(const struct gcm_state *st, uint8_t acc[16], const uint8_t *in, size_t nblocks)
{
    st->key->aes.impl->ghash_update(st->key->hkey, acc, in, nblocks);
}

static void ctr32(const struct gcm_state *st, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                  size_t nblocks)
{
    st->key->aes.impl->aes_ctr32(st->key->aes.sched, counter, in, out, nblocks);
}

/* [len(A)]_64 || [len(C)]_64, in bits, big-endian (§7.1 step 5). The bit counts are taken mod 2^64,
   as C computes them; within the limits every caller has checked they are exact. */
/*@ requires \valid_read(st);
    requires \valid(block + (0 .. 15));
    assigns block[0 .. 15];
    ensures vg_be64(block) == (st->aad_len * 8) % 0x10000000000000000;
    ensures vg_be64(block + 8) == (st->data_len * 8) % 0x10000000000000000;
    ensures st->aad_len <= GCM_MAX_AAD ==> vg_be64(block) == st->aad_len * 8;
    ensures st->data_len <= GCM_MAX_DATA ==> vg_be64(block + 8) == st->data_len * 8;
*/
static void put_lengths(const struct gcm_state *st, uint8_t block[16])
{
    vg_store64_be(block, st->aad_len * 8);
    vg_store64_be(block + 8, st->data_len * 8);
}

/* A fresh state for (key, nonce): §7.1 step 2. The caller has zeroed *st. */
static void gcm_start(struct gcm_state *st, const struct vg_aes_gcm_key_state *key, const uint8_t *nonce,
                      size_t nonce_len)
{
    st->key = key;
    st->phase = PHASE_AAD;
    if (nonce_len == 12) {
        st->nonce12 = 1;
        memcpy(st->counter, nonce, 12);
        vg_store32_be(st->counter + 12, 1);
        return;
    }
    /* J0 = GHASH(IV || 0^s || 0^64 || [len(IV)]_64): the blocks before the last straight from the
       nonce, then the last (zero-padded) block and the length block in one call. counter starts at
       0^128. */
    size_t before_last = (nonce_len - 1) / 16, last_len = nonce_len - 16 * before_last;
    uint8_t last[32] = { 0 };
    if (before_last) ghash(st, st->counter, nonce, before_last);
    memcpy(last, nonce + 16 * before_last, last_len);
    vg_store64_be(last + 24, (uint64_t)nonce_len * 8);
    ghash(st, st->counter, last, 2);
    vg_wipe(last, sizeof last);
}

/* Absorbs AAD (AAD phase only): whole blocks straight from aad, the rest kept in block[]. */
static void gcm_aad(struct gcm_state *st, const uint8_t *aad, size_t len)
{
    st->aad_len += len;
    if (len == 0) return;
    if (st->used) {
        size_t n = 16 - st->used < len ? 16 - st->used : len;
        memcpy(st->block + st->used, aad, n);
        st->used += (uint32_t)n;
        aad += n;
        len -= n;
        if (st->used < 16) return;
        ghash(st, st->acc, st->block, 1);
        st->used = 0;
    }
    size_t whole = len / 16, rest = len % 16;
    if (whole) ghash(st, st->acc, aad, whole);
    if (rest) {
        memcpy(st->block, aad + 16 * whole, rest);
        st->used = (uint32_t)rest;
    }
}

/* XORs len (<= 16 - st->used) bytes with the open keystream block, keeping the ciphertext bytes for
   GHASH; closes the block (hashes it) when it is full. in == out safe: each byte is read first. */
static void crypt_open_block(struct gcm_state *st, const uint8_t *in, uint8_t *out, size_t len, int decrypt)
{
    for (size_t i = 0; i < len; i++) {
        uint8_t x = in[i], y = (uint8_t)(x ^ st->ks[st->used + i]);
        st->block[st->used + i] = decrypt ? x : y; /* the ciphertext byte, whichever side it is on */
        out[i] = y;
    }
    st->used += (uint32_t)len;
    if (st->used == 16) {
        ghash(st, st->acc, st->block, 1);
        st->used = 0;
    }
}

/*
 * The first data of a message, while E(J0) is still to be made. pending_aad bytes of AAD are waiting
 * in st->block. Takes as much of the data as fits the stack buffer (all of it, or a whole number of
 * blocks) and returns how many bytes it took. With closing (one-shot, and all the data fits) it also
 * hashes the last partial block and the length block. Buffer layout, one block each:
 *     buf[0]        decrypt: the last AAD block, then 0^128 -> E(J0)
 *                   encrypt: 0^128 -> E(J0), then the last AAD block
 *     buf[1..nb]    the data, zero-padded: P -> C (encrypt) or C -> P (decrypt)
 *     buf[nb + 1]   [len(A)]_64 || [len(C)]_64 (closing only; outside the ctr32 range)
 * GHASH reads buf[first..end): the AAD block if there is one, the whole data blocks, and (closing)
 * the padded last block and the length block.
 */
static size_t gcm_first_blocks(struct gcm_state *st, const uint8_t *in, uint8_t *out, size_t len,
                               int decrypt, int final, size_t pending_aad)
{
    uint8_t buf[GCM_FIRST_BLOCKS * 16];
    size_t room = GCM_FIRST_BLOCKS - 1 - (final ? 1 : 0);
    size_t nb = len / 16 + (len % 16 != 0);
    int all = nb <= room;
    if (!all) nb = room;
    size_t take = all ? len : 16 * room;
    size_t whole = take / 16, rest = take % 16;
    int closing = final && all;
    uint8_t *slot = buf, *data = buf + 16, *tail = data + 16 * whole;
    size_t first = pending_aad ? 0 : 1;
    size_t end = 1 + whole + (closing ? (rest != 0) + 1 : 0);
    size_t touched = 16 * (1 + nb + (closing ? 1 : 0));

    memset(buf, 0, touched);
    if (take) memcpy(data, in, take);
    if (closing) put_lengths(st, data + 16 * nb);

    if (decrypt) {
        if (pending_aad) memcpy(slot, st->block, pending_aad);
        if (rest && !closing) memcpy(st->block, tail, rest); /* ciphertext of the open block */
        if (end > first) ghash(st, st->acc, buf + 16 * first, end - first);
        memset(slot, 0, 16);
        ctr32(st, st->counter, buf, buf, 1 + nb);
        memcpy(st->ekj0, slot, 16);
        if (take) memcpy(out, data, take);
        if (rest) memcpy(st->ks + rest, tail + rest, 16 - rest); /* padding became keystream */
    } else {
        ctr32(st, st->counter, buf, buf, 1 + nb);
        memcpy(st->ekj0, slot, 16);
        if (take) memcpy(out, data, take);
        memset(slot, 0, 16);
        if (pending_aad) memcpy(slot, st->block, pending_aad);
        if (rest) {
            memcpy(st->ks + rest, tail + rest, 16 - rest);
            if (!closing) memcpy(st->block, tail, rest);
            memset(tail + rest, 0, 16 - rest); /* GHASH takes C_n* || 0^u */
        }
        if (end > first) ghash(st, st->acc, buf + 16 * first, end - first);
    }
    st->have_ekj0 = 1;
    st->used = closing ? 0 : (uint32_t)rest;
    st->lengths_hashed = (uint32_t)closing;
    vg_wipe(buf, touched);
    return take;
}

/* n whole blocks from the caller's buffers: CTR and GHASH over one chunk, still in L1. */
static void gcm_chunk(struct gcm_state *st, const uint8_t *in, uint8_t *out, size_t n, int decrypt)
{
    if (decrypt) {
        ghash(st, st->acc, in, n); /* before ctr32: with in == out it overwrites the ciphertext */
        ctr32(st, st->counter, in, out, n);
    } else {
        ctr32(st, st->counter, in, out, n);
        ghash(st, st->acc, out, n);
    }
}

/*
 * Encrypts or decrypts len bytes (limits already checked). final: no more data will follow (the
 * one-shot functions), which lets a short message be finished in the first call.
 */
static void gcm_data(struct gcm_state *st, const uint8_t *in, uint8_t *out, size_t len, int decrypt,
                     int final)
{
    const struct vg_impl *impl = st->key->aes.impl;
    size_t pending_aad = 0;

    if (st->phase == PHASE_AAD) {
        st->phase = decrypt ? PHASE_DECRYPT : PHASE_ENCRYPT;
        pending_aad = st->used;
        st->used = 0;
    }
    st->data_len += len;

    if (!st->have_ekj0) {
        if (len == 0 && !final) {
            /* nothing to encrypt yet, but block[] is about to hold ciphertext: hash the AAD now */
            if (pending_aad) {
                memset(st->block + pending_aad, 0, 16 - pending_aad);
                ghash(st, st->acc, st->block, 1);
            }
            return;
        }
        if (len / 16 >= GCM_FIRST_BLOCKS && (decrypt ? impl->gcm_open_blocks : impl->gcm_seal_blocks)) {
            /* A long message and a fused kernel: the buffer below would send the first 14 blocks
               through ctr32, ghash and three copies, each costlier per block than the kernel (on
               armv8, 16 KiB paid 1.3 instructions per block for it). Here E(J0) is made alone
               (one block of ctr32 from J0, which leaves the counter at inc32(J0) as the buffer
               does), the pending AAD block is hashed alone, and every whole block goes to the
               kernel below. */
            if (pending_aad) {
                memset(st->block + pending_aad, 0, 16 - pending_aad);
                ghash(st, st->acc, st->block, 1);
            }
            memset(st->ekj0, 0, 16);
            ctr32(st, st->counter, st->ekj0, st->ekj0, 1);
            st->have_ekj0 = 1;
        } else {
            size_t took = gcm_first_blocks(st, in, out, len, decrypt, final, pending_aad);
            if (took == len) return; /* (in and out may be NULL when len is 0) */
            in += took;
            out += took;
            len -= took;
        }
    }
    if (len == 0) return;

    /* 1. the rest of the open keystream block */
    if (st->used) {
        size_t n = 16 - st->used < len ? 16 - st->used : len;
        crypt_open_block(st, in, out, n, decrypt);
        in += n;
        out += n;
        len -= n;
    }

    /* 2. whole blocks, from the caller's buffers; the fused kernel first if the impl has one */
    size_t whole = len / 16;
    if (whole) {
        size_t done = 0;
        if (decrypt && st->nonce12 && impl->gcm_open_blocks_n12)
            done = impl->gcm_open_blocks_n12(st->key->aes.sched, st->key->hkey, st->counter, st->acc, in, out, whole);
        else if (decrypt && impl->gcm_open_blocks)
            done = impl->gcm_open_blocks(st->key->aes.sched, st->key->hkey, st->counter, st->acc, in, out, whole);
        else if (!decrypt && st->nonce12 && impl->gcm_seal_blocks_n12)
            done = impl->gcm_seal_blocks_n12(st->key->aes.sched, st->key->hkey, st->counter, st->acc, in, out, whole);
        else if (!decrypt && impl->gcm_seal_blocks)
            done = impl->gcm_seal_blocks(st->key->aes.sched, st->key->hkey, st->counter, st->acc, in, out, whole);
        /* whole chunks with a constant step, then the rest: the shape Eva follows exactly */
        for (; whole - done >= GCM_CHUNK / 16; done += GCM_CHUNK / 16)
            gcm_chunk(st, in + 16 * done, out + 16 * done, GCM_CHUNK / 16, decrypt);
        if (done < whole) gcm_chunk(st, in + 16 * done, out + 16 * done, whole - done, decrypt);
        in += 16 * whole;
        out += 16 * whole;
        len -= 16 * whole;
    }

    /* 3. a partial last block: one keystream block, of which the rest is kept for the next call */
    if (len) {
        memset(st->ks, 0, 16);
        ctr32(st, st->counter, st->ks, st->ks, 1);
        crypt_open_block(st, in, out, len, decrypt);
    }
}

/* The full 16-byte tag E(J0) ^ S (§7.1 steps 5-6). Ends the message: the state is only wiped after. */
static void gcm_tag(struct gcm_state *st, uint8_t tag[16])
{
    if (!st->have_ekj0) {
        /* no data at all: E(J0) and the closing hash come from the same path as a short message */
        gcm_data(st, NULL, NULL, 0, st->phase == PHASE_DECRYPT, 1);
    } else if (!st->lengths_hashed) {
        uint8_t last[32] = { 0 };
        size_t n = 0;
        if (st->used) {
            memcpy(last, st->block, st->used); /* C_n* || 0^u */
            n = 1;
        }
        put_lengths(st, last + 16 * n);
        ghash(st, st->acc, last, n + 1);
        st->lengths_hashed = 1;
        vg_wipe(last, sizeof last);
    }
    vg_xor_bytes(tag, st->ekj0, st->acc, 16);
}

/* ---------------------------------------------------------------------------------------------- */
/* Keys                                                                                            */

/*@ behavior rejected:
      assumes k == \null || !(key_len == 16 || key_len == 24 || key_len == 32) || key == \null;
      assigns \nothing;
      ensures \result == (k == \null ? VG_ERR_ARG :
                          !(key_len == 16 || key_len == 24 || key_len == 32) ? VG_ERR_KEY_LENGTH : VG_ERR_ARG);
*/
static int vg_aes_gcm_init_body(vg_aes_gcm_key *k, const uint8_t *key, size_t key_len)
{
    if (!k) return VG_ERR_ARG;
    if (!vg_aes_key_len_ok(key_len)) return VG_ERR_KEY_LENGTH;
    if (!key) return VG_ERR_ARG;
    struct vg_aes_gcm_key_state *st = (struct vg_aes_gcm_key_state *)(void *)k->opaque;
    const struct vg_impl *impl = vg_current_impl();
    if (impl->gcm_key_setup) {
        /* the whole set-up in one call (internal.h): the same bytes as the four steps below */
        vg_aes_gcm_key_setup(st, impl, key, key_len);
        return VG_OK;
    }
    uint8_t h[16] = { 0 };
    (void)vg_aes_key_setup(&st->aes, impl, key, key_len, 0, 0); /* no marker until the hkey is written */
    impl->aes_ecb_encrypt(st->aes.sched, h, h, 1); /* H = E(0^128) */
    memset(st->hkey, 0, sizeof st->hkey);
    impl->ghash_init(st->hkey, h);
    vg_wipe(h, sizeof h);
    st->aes.magic = VG_MAGIC_GCM_KEY;
    return VG_OK;
}

int vg_aes_gcm_init(vg_aes_gcm_key *k, const uint8_t *key, size_t key_len)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_gcm_init_body(k, key, key_len);
    vg_arch_secret_exit(dit);
    return rc;
}

void vg_aes_gcm_key_wipe(vg_aes_gcm_key *k)
{
    if (k) vg_wipe(k, sizeof *k);
}

/* ---------------------------------------------------------------------------------------------- */
/* One shot                                                                                        */

/* The checks seal and open share, in the documented order (vg.h). */
/*@ assigns \nothing;
    ensures \result == gcm_error(key != \null, (uint8_t *)nonce, nonce_len, (uint8_t *)aad, aad_len,
                                (uint8_t *)in, len, (uint8_t *)out, (uint8_t *)tag, tag_len);
*/
static inline __attribute__((always_inline)) int check_one_shot(const struct vg_aes_gcm_key_state *key, const uint8_t *nonce, size_t nonce_len,
                          const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                          const uint8_t *out, const uint8_t *tag, size_t tag_len)
{
    if (!key) return VG_ERR_ARG;
    if (nonce_len == 0 || exceeds(nonce_len, GCM_MAX_NONCE)) return VG_ERR_NONCE_LENGTH;
    if (!tag_len_ok(tag_len)) return VG_ERR_TAG_LENGTH;
    if (exceeds(len, GCM_MAX_DATA) || exceeds(aad_len, GCM_MAX_AAD)) return VG_ERR_LENGTH;
    if (!nonce || !tag || (aad_len && !aad) || (len && (!in || !out))) return VG_ERR_ARG;
    if (vg_partial_overlap(in, out, len)) return VG_ERR_ARG;
    return VG_OK;
}

/* Whether a one-shot call goes to the impl's whole-message kernel: public lengths, and public
   addresses. A kernel may write out before it has hashed all of the AAD (power8's seal does), so an
   out that overlaps the AAD takes the general path, which hashes the AAD before it writes anything
   (vg.h: every allowed overlap gives the separate-buffer result). */
static int short_path(const struct vg_impl *impl, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                      const uint8_t *out, size_t len)
{
    return impl->gcm_seal_short && nonce_len == 12 && len <= impl->gcm_short_max &&
           aad_len <= impl->gcm_short_max_aad && !vg_overlap(out, len, aad, aad_len);
}

/* The whole-message kernel for a call short_path accepted: the impl's long form from gcm_long_min
   bytes of data on, below that its whole-groups seal where len is a multiple of
   gcm_seal_groups_bytes, where it has them (internal.h). A message shorter than
   gcm_seal_groups_bytes pays one compare, as it did for the long form alone. (Where there is no
   whole-groups kernel, gcm_seal_groups_bytes is 0 and its mask all ones: only len = 0 passes the
   mask, and len refuses it.) */
typedef void gcm_kernel(const void *sched, const void *hkey, const uint8_t nonce[12], const uint8_t *aad,
                        size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16]);
static gcm_kernel *seal_kernel(const struct vg_impl *impl, size_t len)
{
    if (len >= impl->gcm_seal_groups_bytes) {
        if (len >= impl->gcm_long_min && impl->gcm_seal_long) return impl->gcm_seal_long;
        if ((len & (impl->gcm_seal_groups_bytes - 1)) == 0 && len && impl->gcm_seal_groups)
            return impl->gcm_seal_groups;
    }
    return impl->gcm_seal_short;
}
static gcm_kernel *open_kernel(const struct vg_impl *impl, size_t len)
{
    return len >= impl->gcm_long_min && impl->gcm_open_long ? impl->gcm_open_long : impl->gcm_open_short;
}

static int gcm_seal_checked(const struct vg_aes_gcm_key_state *key, const uint8_t *nonce, size_t nonce_len,
                            const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                            uint8_t *out, uint8_t *tag, size_t tag_len);
static int gcm_open_checked(const struct vg_aes_gcm_key_state *key, const uint8_t *nonce, size_t nonce_len,
                            const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                            const uint8_t *tag, size_t tag_len, uint8_t *out);

/*@ behavior rejected:
      assumes gcm_error(k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_GCM_KEY), (uint8_t *)nonce, nonce_len,
                        (uint8_t *)aad, aad_len, (uint8_t *)in, len, (uint8_t *)out, (uint8_t *)tag,
                        tag_len) != VG_OK;
      assigns \nothing;
      ensures \result == gcm_error(k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_GCM_KEY), (uint8_t *)nonce,
                                  nonce_len, (uint8_t *)aad, aad_len, (uint8_t *)in, len, (uint8_t *)out,
                                  (uint8_t *)tag, tag_len);
*/
static int vg_aes_gcm_seal_body(const vg_aes_gcm_key *k, const uint8_t *nonce, size_t nonce_len,
                    const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                    uint8_t *out, uint8_t *tag, size_t tag_len)
{
    const struct vg_aes_gcm_key_state *key = gcm_key_of(k);
    int err = check_one_shot(key, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
    if (err) return err;
    return gcm_seal_checked(key, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
}

/* Seal once the arguments are accepted (a function of its own so that the proof of the rejected
   path above sees one call, not the whole message). The usual short call, a 16-byte tag the kernel
   writes last, is handled here; everything else is gcm_seal_general's, out of line, so that this path
   builds no frame for the general path's state (on x86-64 GCC had pushed six registers and reserved
   168 bytes of stack on every call for it). */
static __attribute__((noinline)) int gcm_seal_general(const struct vg_aes_gcm_key_state *key, const uint8_t *nonce,
                                                      size_t nonce_len, const uint8_t *aad, size_t aad_len,
                                                      const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag,
                                                      size_t tag_len);
static int gcm_seal_checked(const struct vg_aes_gcm_key_state *key, const uint8_t *nonce, size_t nonce_len,
                            const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                            uint8_t *out, uint8_t *tag, size_t tag_len)
{
    const struct vg_impl *impl = key->aes.impl;
    if (tag_len == 16 && short_path(impl, nonce_len, aad, aad_len, out, len)) {
        seal_kernel(impl, len)(key->aes.sched, key->hkey, nonce, aad, aad_len, in, out, len, tag);
        return VG_OK;
    }
    return gcm_seal_general(key, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
}

static __attribute__((noinline)) int gcm_seal_general(const struct vg_aes_gcm_key_state *key, const uint8_t *nonce,
                                                      size_t nonce_len, const uint8_t *aad, size_t aad_len,
                                                      const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag,
                                                      size_t tag_len)
{
    uint8_t full[16];
    const struct vg_impl *impl = key->aes.impl;
    if (short_path(impl, nonce_len, aad, aad_len, out, len)) { /* a shorter tag: through full */
        seal_kernel(impl, len)(key->aes.sched, key->hkey, nonce, aad, aad_len, in, out, len, full);
        memcpy(tag, full, tag_len);
        vg_wipe16(full);
        return VG_OK;
    }

    struct gcm_state st;
    memset(&st, 0, sizeof st);
    gcm_start(&st, key, nonce, nonce_len);
    gcm_aad(&st, aad, aad_len);
    gcm_data(&st, in, out, len, 0, 1);
    gcm_tag(&st, full);
    memcpy(tag, full, tag_len);
    vg_wipe(&st, sizeof st);
    vg_wipe16(full);
    return VG_OK;
}

int vg_aes_gcm_seal(const vg_aes_gcm_key *k, const uint8_t *nonce, size_t nonce_len,
                    const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                    uint8_t *out, uint8_t *tag, size_t tag_len)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_gcm_seal_body(k, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
    vg_arch_secret_exit(dit);
    return rc;
}

/*@ behavior rejected:
      assumes gcm_error(k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_GCM_KEY), (uint8_t *)nonce, nonce_len,
                        (uint8_t *)aad, aad_len, (uint8_t *)in, len, (uint8_t *)out, (uint8_t *)tag,
                        tag_len) != VG_OK;
      assigns \nothing;
      ensures \result == gcm_error(k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_GCM_KEY), (uint8_t *)nonce,
                                  nonce_len, (uint8_t *)aad, aad_len, (uint8_t *)in, len, (uint8_t *)out,
                                  (uint8_t *)tag, tag_len);
*/
static int vg_aes_gcm_open_body(const vg_aes_gcm_key *k, const uint8_t *nonce, size_t nonce_len,
                    const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                    const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    const struct vg_aes_gcm_key_state *key = gcm_key_of(k);
    int err = check_one_shot(key, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
    if (err) return err;
    return gcm_open_checked(key, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, out);
}

/* Open once the arguments are accepted: the usual short call with a 16-byte tag here, the rest in
   gcm_open_general, out of line for the same reason as seal's. The caller's tag may sit in out, so it
   is copied before out is written; a 16-byte tag by a constant-length copy, one 16-byte store that the
   comparison's loads can be forwarded from (a variable-length memcpy writes it in overlapping pieces,
   and those loads then stall). */
static __attribute__((noinline)) int gcm_open_general(const struct vg_aes_gcm_key_state *key, const uint8_t *nonce,
                                                      size_t nonce_len, const uint8_t *aad, size_t aad_len,
                                                      const uint8_t *in, size_t len, const uint8_t *tag,
                                                      size_t tag_len, uint8_t *out);
static int gcm_open_checked(const struct vg_aes_gcm_key_state *key, const uint8_t *nonce, size_t nonce_len,
                            const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                            const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    const struct vg_impl *impl = key->aes.impl;
    if (tag_len == 16 && short_path(impl, nonce_len, aad, aad_len, out, len)) {
        uint8_t full[16], expected[16];
        memcpy(expected, tag, 16);
        open_kernel(impl, len)(key->aes.sched, key->hkey, nonce, aad, aad_len, in, out, len, full);
        int differ = vg_ct_differ16(full, expected);
        vg_wipe16(full);
        vg_wipe16(expected);
        return vg_open_finish(out, len, differ);
    }
    return gcm_open_general(key, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, out);
}

static __attribute__((noinline)) int gcm_open_general(const struct vg_aes_gcm_key_state *key, const uint8_t *nonce,
                                                      size_t nonce_len, const uint8_t *aad, size_t aad_len,
                                                      const uint8_t *in, size_t len, const uint8_t *tag,
                                                      size_t tag_len, uint8_t *out)
{
    uint8_t full[16], expected[16];
    memcpy(expected, tag, tag_len);
    const struct vg_impl *impl = key->aes.impl;
    if (short_path(impl, nonce_len, aad, aad_len, out, len)) { /* a shorter tag */
        open_kernel(impl, len)(key->aes.sched, key->hkey, nonce, aad, aad_len, in, out, len, full);
        int differ = vg_ct_differ(full, expected, tag_len);
        vg_wipe16(full);
        vg_wipe16(expected);
        return vg_open_finish(out, len, differ);
    }

    struct gcm_state st;
    memset(&st, 0, sizeof st);
    gcm_start(&st, key, nonce, nonce_len);
    gcm_aad(&st, aad, aad_len);
    gcm_data(&st, in, out, len, 1, 1);
    gcm_tag(&st, full);
    int differ = tag_len == 16 ? vg_ct_differ16(full, expected) : vg_ct_differ(full, expected, tag_len);
    vg_wipe(&st, sizeof st);
    vg_wipe16(full);
    vg_wipe16(expected);
    return vg_open_finish(out, len, differ);
}

int vg_aes_gcm_open(const vg_aes_gcm_key *k, const uint8_t *nonce, size_t nonce_len,
                    const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                    const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_gcm_open_body(k, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, out);
    vg_arch_secret_exit(dit);
    return rc;
}

/* ---------------------------------------------------------------------------------------------- */
/* Batches                                                                                         */

/*
 * vg.h's contract is the loop `results[i] = vg_aes_gcm_seal(k, msgs[i]...)` for i = 0, 1, ..: every
 * descriptor read, every input read and every write (results[i] included) happens in that order.
 * Taken one at a time, each message is the one-shot call's path below check_one_shot. Where the impl
 * has a two-message kernel (internal.h, gcm_seal_short2), two consecutive like messages go through
 * it together: a short message's call is one chain of dependent steps (counter, AES rounds, XOR,
 * products, reduction, tag) that leaves the AES units and the multiplier idle most of the time, and
 * a second message's chain fills them. The kernel reads message i+1's descriptor and inputs before
 * it writes message i's outputs, and results[i] is written after message i+1's outputs, so a pair is
 * taken only when neither reordering can show: message i writes nothing that message i+1 reads or
 * writes (its descriptor included), and results[i] is none of message i+1's bytes either. Every
 * other layout is the loop's, one message at a time.
 */

/* Whether [a, a+an) and [b, b+bn) share a byte, with no branch: a pair costs up to 18 such tests, and
   as vg_overlap's branches they cost more than the kernel saved. With d = b - a mod 2^64 the ranges
   meet iff -bn < d < an, that is iff d + bn - 1 < an + bn - 1 as unsigned numbers (both lengths
   nonzero; no object wraps the address space, and these lengths are far below 2^63: GCM's limits). */
static inline int batch_ov(const void *a, size_t an, const void *b, size_t bn)
{
    uintptr_t d = (uintptr_t)b - (uintptr_t)a;
    return (an != 0) & (bn != 0) & (d + bn - 1 < an + bn - 1);
}

/* Whether msgs[i] (accepted) and msgs[i + 1] go through the two-message kernel: both on the short path
   with a 16-byte tag, the same lengths, one sum each, msgs[i + 1] accepted, and the layout rule above.
   An open's tags are copied before the kernel runs and a forged message's out is zeroed after it, so
   they count among message i+1's reads and message i's writes. Lengths and addresses are public. */
/* noinline: inlined into the batch loop, whose many live values left no registers for it, gcc kept
   the running OR of the tests in a stack byte, each test a store and a reload: 18 tests cost 23 ns a
   message there (vaes256, 64-byte messages), more than the kernel saves. */
static __attribute__((noinline)) int batch_pair_ok(const struct vg_aes_gcm_key_state *key, const vg_aes_gcm_batch_msg *msgs, size_t i,
                         const int *results, int open)
{
    const struct vg_impl *impl = key->aes.impl;
    const vg_aes_gcm_batch_msg *a = &msgs[i], *b = &msgs[i + 1];
    size_t len = a->len, alen = a->aad_len;
    if (!impl->gcm_seal_short2 || b->len != len || b->aad_len != alen || a->tag_len != 16 || b->tag_len != 16 ||
        a->nonce_len != 12 || b->nonce_len != 12 || len > impl->gcm_short2_max_len ||
        (alen + 15) / 16 + (len + 15) / 16 + 1 > impl->gcm_short2_max_blocks)
        return 0;
    if (!short_path(impl, 12, a->aad, alen, a->out, len) || !short_path(impl, 12, b->aad, alen, b->out, len) ||
        check_one_shot(key, b->nonce, 12, b->aad, alen, b->in, len, b->out, b->tag, 16) != VG_OK)
        return 0;
    const int *r = &results[i];
    int bad = batch_ov(a->out, len, b, sizeof *b) | batch_ov(a->out, len, b->nonce, 12) |
              batch_ov(a->out, len, b->aad, alen) | batch_ov(a->out, len, b->in, len) |
              batch_ov(a->out, len, b->out, len) | batch_ov(a->out, len, b->tag, 16) |
              batch_ov(r, sizeof *r, b, sizeof *b) | batch_ov(r, sizeof *r, b->nonce, 12) |
              batch_ov(r, sizeof *r, b->aad, alen) | batch_ov(r, sizeof *r, b->in, len) |
              batch_ov(r, sizeof *r, b->out, len) | batch_ov(r, sizeof *r, b->tag, 16);
    if (!open)
        bad |= batch_ov(a->tag, 16, b, sizeof *b) | batch_ov(a->tag, 16, b->nonce, 12) |
               batch_ov(a->tag, 16, b->aad, alen) | batch_ov(a->tag, 16, b->in, len) |
               batch_ov(a->tag, 16, b->out, len) | batch_ov(a->tag, 16, b->tag, 16);
    return !bad;
}

/* Two messages batch_pair_ok accepted, through the two-message kernel: each message's out, tag and
   code are the one-shot's (gcm_seal_checked / gcm_open_checked on their short path). */
static void batch_pair(const struct vg_aes_gcm_key_state *key, const vg_aes_gcm_batch_msg *m, int rc[2], int open)
{
    const struct vg_impl *impl = key->aes.impl;
    struct vg_gcm_short_msg p[2];
    uint8_t full[2][16], expected[2][16];
    for (int q = 0; q < 2; q++) {
        p[q] = (struct vg_gcm_short_msg){ m[q].nonce, m[q].aad, m[q].in, m[q].out, open ? full[q] : m[q].tag };
        if (open) memcpy(expected[q], m[q].tag, 16); /* before any out is written, as the one-shot's */
    }
    if (!open) {
        impl->gcm_seal_short2(key->aes.sched, key->hkey, p, m[0].aad_len, m[0].len);
        rc[0] = rc[1] = VG_OK;
        return;
    }
    impl->gcm_open_short2(key->aes.sched, key->hkey, p, m[0].aad_len, m[0].len);
    for (int q = 0; q < 2; q++) {
        int differ = vg_ct_differ16(full[q], expected[q]);
        vg_wipe16(full[q]);
        vg_wipe16(expected[q]);
        rc[q] = vg_open_finish(m[q].out, m[q].len, differ);
    }
}

static int gcm_batch(const vg_aes_gcm_key *k, const vg_aes_gcm_batch_msg *msgs, size_t n, int *results, int open)
{
    const struct vg_aes_gcm_key_state *key = gcm_key_of(k);
    if (!key || (n && (!msgs || !results))) return VG_ERR_ARG;
    int first = VG_OK;
    /* the longest message a pair takes (none without a two-message kernel), tested here so that other
       messages pay one compare for pairs */
    const size_t pair_max = key->aes.impl->gcm_seal_short2 ? key->aes.impl->gcm_short2_max_len : 0;
    const int pairs = key->aes.impl->gcm_seal_short2 != NULL;
    for (size_t i = 0; i < n;) {
        const vg_aes_gcm_batch_msg *m = &msgs[i];
        int rc = check_one_shot(key, m->nonce, m->nonce_len, m->aad, m->aad_len, m->in, m->len, m->out, m->tag,
                                m->tag_len);
        if (rc == VG_OK && pairs && m->len <= pair_max && i + 1 < n && batch_pair_ok(key, msgs, i, results, open)) {
            int two[2];
            batch_pair(key, m, two, open);
            results[i] = two[0];
            results[i + 1] = two[1];
            if (first == VG_OK) first = two[0] != VG_OK ? two[0] : two[1];
            i += 2;
            continue;
        }
        if (rc == VG_OK)
            rc = open ? gcm_open_checked(key, m->nonce, m->nonce_len, m->aad, m->aad_len, m->in, m->len, m->tag,
                                         m->tag_len, m->out)
                      : gcm_seal_checked(key, m->nonce, m->nonce_len, m->aad, m->aad_len, m->in, m->len, m->out,
                                         m->tag, m->tag_len);
        results[i] = rc;
        if (first == VG_OK) first = rc;
        i++;
    }
    return first;
}

int vg_aes_gcm_seal_batch(const vg_aes_gcm_key *k, const vg_aes_gcm_batch_msg *msgs, size_t n, int *results)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = gcm_batch(k, msgs, n, results, 0);
    vg_arch_secret_exit(dit);
    return rc;
}

int vg_aes_gcm_open_batch(const vg_aes_gcm_key *k, const vg_aes_gcm_batch_msg *msgs, size_t n, int *results)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = gcm_batch(k, msgs, n, results, 1);
    vg_arch_secret_exit(dit);
    return rc;
}

/* ---------------------------------------------------------------------------------------------- */
/* Streaming                                                                                       */

/*
 * What the WP proofs (docs/proofs-wp.md) take as given about a stream: stream_of reads the magic and
 * the key through a cast from the caller's opaque bytes to struct gcm_state, which WP's typed memory
 * model cannot follow (as for the key, vg_aes_key_state_of). So a usable stream, its phase and the
 * AAD and data bytes it has taken are named here and related to the state only by stream_of's
 * (assumed) contract; the argument checks below are proved against these names.
 */
/*@ axiomatic VgGcmStream {
      logic boolean gcm_stream_ready{L}(unsigned char *opaque);
      logic integer gcm_stream_phase{L}(unsigned char *opaque);
      logic integer gcm_stream_aad_len{L}(unsigned char *opaque);
      logic integer gcm_stream_data_len{L}(unsigned char *opaque);
    }
    logic boolean gcm_stream_ok{L}(vg_aes_gcm_stream *s) =
      s != \null && gcm_stream_ready((unsigned char *)s->opaque);
    // The code each stream call returns before it writes anything, in vg.h's order (VG_OK: accepted).
    // The room left is computed as C computes it, (uint64_t)(max - taken); while taken <= max, which
    // stream_init (0) and these checks maintain, that is exactly "taken + len > max".
    logic integer gcm_stream_init_error(vg_aes_gcm_stream *s, boolean key_ok, uint8_t *nonce,
                                        integer nonce_len) =
      (s == \null || !key_ok) ? VG_ERR_ARG :
      (nonce_len == 0 || nonce_len > GCM_MAX_NONCE) ? VG_ERR_NONCE_LENGTH :
      nonce == \null ? VG_ERR_ARG :
      VG_OK;
    logic integer gcm_stream_aad_error{L}(vg_aes_gcm_stream *s, uint8_t *aad, integer len) =
      (!gcm_stream_ok(s) || gcm_stream_phase((unsigned char *)s->opaque) != PHASE_AAD) ? VG_ERR_ARG :
      len > (uint64_t)(GCM_MAX_AAD - gcm_stream_aad_len((unsigned char *)s->opaque)) ? VG_ERR_LENGTH :
      (len != 0 && aad == \null) ? VG_ERR_ARG :
      VG_OK;
    logic integer gcm_stream_data_error{L}(vg_aes_gcm_stream *s, uint8_t *in, integer len, uint8_t *out,
                                           integer decrypt) =
      (!gcm_stream_ok(s) ||
       (gcm_stream_phase((unsigned char *)s->opaque) != PHASE_AAD &&
        gcm_stream_phase((unsigned char *)s->opaque) != (decrypt != 0 ? PHASE_DECRYPT : PHASE_ENCRYPT))) ?
        VG_ERR_ARG :
      len > (uint64_t)(GCM_MAX_DATA - gcm_stream_data_len((unsigned char *)s->opaque)) ? VG_ERR_LENGTH :
      ((len != 0 && (in == \null || out == \null)) || vg_partial(in, out, len)) ? VG_ERR_ARG :
      VG_OK;
    // finish (wrong_phase = PHASE_DECRYPT) and verify (wrong_phase = PHASE_ENCRYPT)
    logic integer gcm_stream_tag_error{L}(vg_aes_gcm_stream *s, uint8_t *tag, integer tag_len,
                                          integer wrong_phase) =
      (!gcm_stream_ok(s) || gcm_stream_phase((unsigned char *)s->opaque) == wrong_phase) ? VG_ERR_ARG :
      !gcm_tag_len_ok(tag_len) ? VG_ERR_TAG_LENGTH :
      tag == \null ? VG_ERR_ARG :
      VG_OK;
*/

/* The state of a usable stream (initialised, not finished, its key still set up), else NULL. */
/*@ assigns \nothing;
    ensures \result == \null <==> !gcm_stream_ok(s);
    ensures \result != \null ==> \result->phase == gcm_stream_phase((unsigned char *)s->opaque) &&
                                 \result->aad_len == gcm_stream_aad_len((unsigned char *)s->opaque) &&
                                 \result->data_len == gcm_stream_data_len((unsigned char *)s->opaque);
*/
static struct gcm_state *stream_of(vg_aes_gcm_stream *s)
{
    if (!s) return NULL;
    struct gcm_state *st = (struct gcm_state *)(void *)s->opaque;
    if (st->magic != GCM_STREAM_MAGIC || !vg_aes_key_state_of((const unsigned char *)(const void *)&st->key->aes, VG_MAGIC_GCM_KEY))
        return NULL;
    return st;
}

/*@ ensures \result == \old(gcm_stream_init_error(s, k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_GCM_KEY),
                                    (uint8_t *)nonce, nonce_len));
    behavior rejected:
      assumes gcm_stream_init_error(s, k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_GCM_KEY),
                                    (uint8_t *)nonce, nonce_len) != VG_OK;
      assigns \nothing;
*/
static int vg_aes_gcm_stream_init_body(vg_aes_gcm_stream *s, const vg_aes_gcm_key *k, const uint8_t *nonce,
                           size_t nonce_len)
{
    const struct vg_aes_gcm_key_state *key = gcm_key_of(k);
    if (!s || !key) return VG_ERR_ARG;
    if (nonce_len == 0 || exceeds(nonce_len, GCM_MAX_NONCE)) return VG_ERR_NONCE_LENGTH;
    if (!nonce) return VG_ERR_ARG;
    struct gcm_state *st = (struct gcm_state *)(void *)s->opaque;
    memset(s, 0, sizeof *s);
    gcm_start(st, key, nonce, nonce_len);
    st->magic = GCM_STREAM_MAGIC;
    return VG_OK;
}

int vg_aes_gcm_stream_init(vg_aes_gcm_stream *s, const vg_aes_gcm_key *k, const uint8_t *nonce,
                           size_t nonce_len)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_gcm_stream_init_body(s, k, nonce, nonce_len);
    vg_arch_secret_exit(dit);
    return rc;
}

/*@ ensures \result == gcm_stream_aad_error{Pre}(s, (uint8_t *)aad, len);
    behavior rejected:
      assumes gcm_stream_aad_error(s, (uint8_t *)aad, len) != VG_OK;
      assigns \nothing;
*/
static int vg_aes_gcm_stream_aad_body(vg_aes_gcm_stream *s, const uint8_t *aad, size_t len)
{
    struct gcm_state *st = stream_of(s);
    if (!st || st->phase != PHASE_AAD) return VG_ERR_ARG;
    if (exceeds(len, GCM_MAX_AAD - st->aad_len)) return VG_ERR_LENGTH;
    if (len && !aad) return VG_ERR_ARG;
    gcm_aad(st, aad, len);
    return VG_OK;
}

int vg_aes_gcm_stream_aad(vg_aes_gcm_stream *s, const uint8_t *aad, size_t len)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_gcm_stream_aad_body(s, aad, len);
    vg_arch_secret_exit(dit);
    return rc;
}

/*@ ensures \result == gcm_stream_data_error{Pre}(s, (uint8_t *)in, len, out, decrypt);
    behavior rejected:
      assumes gcm_stream_data_error(s, (uint8_t *)in, len, out, decrypt) != VG_OK;
      assigns \nothing;
*/
static int stream_data(vg_aes_gcm_stream *s, const uint8_t *in, size_t len, uint8_t *out, int decrypt)
{
    struct gcm_state *st = stream_of(s);
    uint32_t phase = decrypt ? PHASE_DECRYPT : PHASE_ENCRYPT;
    if (!st || (st->phase != PHASE_AAD && st->phase != phase)) return VG_ERR_ARG;
    if (exceeds(len, GCM_MAX_DATA - st->data_len)) return VG_ERR_LENGTH;
    if (len && (!in || !out)) return VG_ERR_ARG;
    if (vg_partial_overlap(in, out, len)) return VG_ERR_ARG;
    gcm_data(st, in, out, len, decrypt, 0);
    return VG_OK;
}

/*@ ensures \result == gcm_stream_data_error{Pre}(s, (uint8_t *)in, len, out, 0);
    behavior rejected:
      assumes gcm_stream_data_error(s, (uint8_t *)in, len, out, 0) != VG_OK;
      assigns \nothing;
*/
static int vg_aes_gcm_stream_encrypt_body(vg_aes_gcm_stream *s, const uint8_t *in, size_t len, uint8_t *out)
{
    return stream_data(s, in, len, out, 0);
}

int vg_aes_gcm_stream_encrypt(vg_aes_gcm_stream *s, const uint8_t *in, size_t len, uint8_t *out)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_gcm_stream_encrypt_body(s, in, len, out);
    vg_arch_secret_exit(dit);
    return rc;
}

/*@ ensures \result == gcm_stream_data_error{Pre}(s, (uint8_t *)in, len, out, 1);
    behavior rejected:
      assumes gcm_stream_data_error(s, (uint8_t *)in, len, out, 1) != VG_OK;
      assigns \nothing;
*/
static int vg_aes_gcm_stream_decrypt_body(vg_aes_gcm_stream *s, const uint8_t *in, size_t len, uint8_t *out)
{
    return stream_data(s, in, len, out, 1);
}

int vg_aes_gcm_stream_decrypt(vg_aes_gcm_stream *s, const uint8_t *in, size_t len, uint8_t *out)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_gcm_stream_decrypt_body(s, in, len, out);
    vg_arch_secret_exit(dit);
    return rc;
}

/*@ ensures \result == gcm_stream_tag_error{Pre}(s, (uint8_t *)tag, tag_len, PHASE_DECRYPT);
    behavior rejected:
      assumes gcm_stream_tag_error(s, (uint8_t *)tag, tag_len, PHASE_DECRYPT) != VG_OK;
      assigns \nothing;
*/
static int vg_aes_gcm_stream_finish_body(vg_aes_gcm_stream *s, uint8_t *tag, size_t tag_len)
{
    struct gcm_state *st = stream_of(s);
    if (!st || st->phase == PHASE_DECRYPT) return VG_ERR_ARG;
    if (!tag_len_ok(tag_len)) return VG_ERR_TAG_LENGTH;
    if (!tag) return VG_ERR_ARG;
    uint8_t full[16];
    gcm_tag(st, full);
    memcpy(tag, full, tag_len);
    vg_wipe16(full);
    vg_wipe(s, sizeof *s);
    return VG_OK;
}

int vg_aes_gcm_stream_finish(vg_aes_gcm_stream *s, uint8_t *tag, size_t tag_len)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_gcm_stream_finish_body(s, tag, tag_len);
    vg_arch_secret_exit(dit);
    return rc;
}

/*@ // accepted calls return the verdict (VG_OK or VG_ERR_AUTH)
    ensures \result == gcm_stream_tag_error{Pre}(s, (uint8_t *)tag, tag_len, PHASE_ENCRYPT) ||
            (gcm_stream_tag_error{Pre}(s, (uint8_t *)tag, tag_len, PHASE_ENCRYPT) == VG_OK &&
             \result == VG_ERR_AUTH);
    behavior rejected:
      assumes gcm_stream_tag_error(s, (uint8_t *)tag, tag_len, PHASE_ENCRYPT) != VG_OK;
      assigns \nothing;
*/
static int vg_aes_gcm_stream_verify_body(vg_aes_gcm_stream *s, const uint8_t *tag, size_t tag_len)
{
    struct gcm_state *st = stream_of(s);
    if (!st || st->phase == PHASE_ENCRYPT) return VG_ERR_ARG;
    if (!tag_len_ok(tag_len)) return VG_ERR_TAG_LENGTH;
    if (!tag) return VG_ERR_ARG;
    uint8_t full[16];
    gcm_tag(st, full);
    int differ = tag_len == 16 ? vg_ct_differ16(full, tag) : vg_ct_differ(full, tag, tag_len);
    vg_wipe16(full);
    vg_wipe(s, sizeof *s);
    return vg_open_finish(NULL, 0, differ); /* the verdict, declassified; nothing to zero */
}

int vg_aes_gcm_stream_verify(vg_aes_gcm_stream *s, const uint8_t *tag, size_t tag_len)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_gcm_stream_verify_body(s, tag, tag_len);
    vg_arch_secret_exit(dit);
    return rc;
}

void vg_aes_gcm_stream_wipe(vg_aes_gcm_stream *s)
{
    if (s) vg_wipe(s, sizeof *s);
}
