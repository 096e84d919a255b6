/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * gcm_siv.c — AES-GCM-SIV (RFC 8452), written once over struct vg_impl.
 *
 * Per message (RFC 8452 §4):
 *   1. Key derivation. Block i (i = 0..3 for a 16-byte key, 0..5 for a 32-byte key, and 0..4 for a
 *      24-byte key, an extension of RFC 8452 that OpenSSL 3.2 and pyca/cryptography define the same
 *      way: K_enc is the first halves of blocks 2, 3 and 4) is
 *      E_K(LE32(i) || nonce); the first 8 bytes of blocks 0,1 form the POLYVAL key H, those of blocks
 *      2..5 the message-encryption key K_enc. The 4 or 6 blocks go through ONE aes_ecb_encrypt call:
 *      this is on every message's path, and a bitsliced or pipelined kernel encrypts a batch of
 *      blocks for little more than the price of one.
 *   2. S = POLYVAL_H(AAD zero-padded || plaintext zero-padded || LE64(8 * aad_len) || LE64(8 * len)).
 *   3. tag = E_Kenc((S ^ (nonce || 0^32)) with bit 127 cleared), i.e. byte 15's top bit cleared: the
 *      RFC's byte strings are little-endian integers, so the "most significant bit of the last byte"
 *      is bit 7 of byte 15.
 *   4. CTR from the tag with byte 15's top bit set; the counter is the first 4 bytes read as a
 *      little-endian integer, incremented mod 2^32 (the impl's aes_ctr32_le). The top bit split keeps
 *      tag inputs and counter blocks of the same key in disjoint halves of the block space.
 * Open (§5) inverts the order: decrypt with the counter taken from the received tag, POLYVAL the
 * plaintext just produced, recompute the tag, compare in constant time; on mismatch zero the output.
 *
 * Every per-message secret (derived key bytes, expanded K_enc, POLYVAL key, accumulator, partial
 * keystream) lives on the stack of seal or open and is wiped before they return.
 *
 * Short path: an impl with gcm_siv_seal_short / gcm_siv_open_short (internal.h) does all of the above
 * for a message within its gcm_siv_short_max / _max_aad in one call, without the 3 KiB siv_message
 * (the x86-64 VAES kernels: derivation, K_enc expansion and only the H powers the message needs, in
 * registers). The mode still checks the arguments, copies the nonce and the received tag first, and
 * for open compares the tags in constant time and finishes with vg_open_finish.
 *
 * Limits: plaintext and AAD <= 2^36 bytes (RFC 8452 §6). 2^36 bytes is 2^32 blocks, exactly the
 * period of the 32-bit counter, so the keystream never repeats within a message.
 */
#include "internal.h"

#define SIV_NONCE_LEN 12
#define SIV_TAG_LEN 16
#define SIV_MAX_LEN ((uint64_t)1 << 36)

/* Open decrypts and hashes in chunks of this many bytes, so the plaintext POLYVAL reads is still in
   L1 cache from the CTR pass that wrote it (4 KiB of input plus 4 KiB of output sit well inside every
   L1 data cache we target, next to the round keys and H powers). A multiple of 16; the value only
   moves the pass boundaries, never the result. */
#define SIV_OPEN_CHUNK 4096

_Static_assert(SIV_OPEN_CHUNK % 16 == 0, "chunks are whole blocks");

/* The per-message state: the expanded message-encryption key and the POLYVAL key. */
struct siv_message {
    struct vg_aes_key_state enc;                 /* K_enc expanded by the master key's impl */
    _Alignas(16) unsigned char hkey[VG_HKEY_SIZE]; /* H in the layout polyval_init chose */
};

/* RFC 8452 §4 derive_keys: fills msg from the master key and nonce. */
static void siv_derive(struct siv_message *msg, const struct vg_aes_key_state *master,
                       const uint8_t nonce[SIV_NONCE_LEN])
{
    const struct vg_impl *impl = master->impl;
    const size_t nblocks = 2 + master->key_len / 8; /* 4, 5 or 6 */
    /* blocks[i] = LE32(i) || nonce, encrypted in place. */
    uint8_t blocks[6 * 16];
    for (size_t i = 0; i < nblocks; i++) {
        vg_store32_le(blocks + 16 * i, (uint32_t)i);
        memcpy(blocks + 16 * i + 4, nonce, SIV_NONCE_LEN);
    }
    impl->aes_ecb_encrypt(master->sched, blocks, blocks, nblocks);

    /* keys[0..16) = H, keys[16..16 + key_len) = K_enc: the first halves of the blocks, in order. */
    uint8_t keys[16 + 32];
    for (size_t i = 0; i < nblocks; i++) memcpy(keys + 8 * i, blocks + 16 * i, 8);

    impl->polyval_init(msg->hkey, keys);
    (void)vg_aes_key_setup(&msg->enc, impl, keys + 16, master->key_len, 0, VG_MAGIC_SIV_MESSAGE);

    vg_wipe(blocks, sizeof blocks);
    vg_wipe(keys, sizeof keys);
}

/* acc = POLYVAL over n bytes of data zero-padded to whole blocks (whole blocks straight from the
   caller's buffer, the tail through a zeroed staging block). */
static void siv_polyval_padded(const struct vg_impl *impl, const void *hkey, uint8_t acc[16],
                               const uint8_t *data, size_t n)
{
    size_t whole = n / 16;
    if (whole) impl->polyval_update(hkey, acc, data, whole);
    size_t rest = n % 16;
    if (rest) {
        uint8_t block[16] = {0};
        memcpy(block, data + 16 * whole, rest);
        impl->polyval_update(hkey, acc, block, 1);
        vg_wipe(block, sizeof block);
    }
}

/* The length block LE64(8 * aad_len) || LE64(8 * len) closes the POLYVAL input. Both lengths are at
   most 2^36 (checked), so the bit counts fit in 64 bits. */
static void siv_polyval_lengths(const struct vg_impl *impl, const void *hkey, uint8_t acc[16],
                                size_t aad_len, size_t len)
{
    uint8_t block[16];
    vg_store64_le(block, (uint64_t)aad_len * 8);
    vg_store64_le(block + 8, (uint64_t)len * 8);
    impl->polyval_update(hkey, acc, block, 1);
}

/* tag = E_Kenc((S ^ nonce) with bit 127 cleared); S is consumed (overwritten). */
static void siv_tag(const struct siv_message *msg, uint8_t s[16], const uint8_t nonce[SIV_NONCE_LEN],
                    uint8_t tag[16])
{
    for (size_t i = 0; i < SIV_NONCE_LEN; i++) s[i] ^= nonce[i];
    s[15] &= 0x7f;
    msg->enc.impl->aes_ecb_encrypt(msg->enc.sched, s, tag, 1);
}

/* out = in ^ keystream over n bytes, the counter advanced past every block used. The tail goes
   through a staging block so the kernel only ever sees whole blocks. */
static void siv_ctr(const struct siv_message *msg, uint8_t counter[16], const uint8_t *in,
                    uint8_t *out, size_t n)
{
    const struct vg_impl *impl = msg->enc.impl;
    size_t whole = n / 16;
    if (whole) impl->aes_ctr32_le(msg->enc.sched, counter, in, out, whole);
    size_t rest = n % 16;
    if (rest) {
        uint8_t block[16] = {0};
        memcpy(block, in + 16 * whole, rest);
        impl->aes_ctr32_le(msg->enc.sched, counter, block, block, 1);
        memcpy(out + 16 * whole, block, rest);
        vg_wipe(block, sizeof block);
    }
}

/* 1 if the impl's whole-message kernels take this message (lengths are public). They derive 16- and
   32-byte keys only: a 24-byte master key takes the general path. */
static int siv_short_path(const struct vg_impl *impl, size_t key_len, size_t aad_len, size_t len)
{
    return impl->gcm_siv_seal_short && key_len != 24 && len <= impl->gcm_siv_short_max &&
           aad_len <= impl->gcm_siv_short_max_aad;
}

/*@ // The key was set up, with 16, 24 or 32 bytes.
    logic boolean siv_key_ok{L}(vg_aes_gcm_siv_key *k) =
      k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_SIV_KEY) &&
      (vg_key_len((unsigned char *)k->opaque) == 16 || vg_key_len((unsigned char *)k->opaque) == 24 ||
       vg_key_len((unsigned char *)k->opaque) == 32);
    // The code a one-shot seal or open returns before it writes anything, in vg.h's order (VG_OK:
    // the arguments are accepted). key_ok: the key was set up with 16, 24 or 32 bytes.
    logic integer siv_error(boolean key_ok, uint8_t *nonce, integer nonce_len, uint8_t *aad,
                            integer aad_len, uint8_t *in, integer len, uint8_t *out, uint8_t *tag,
                            integer tag_len) =
      !key_ok ? VG_ERR_ARG :
      nonce_len != SIV_NONCE_LEN ? VG_ERR_NONCE_LENGTH :
      tag_len != SIV_TAG_LEN ? VG_ERR_TAG_LENGTH :
      (len > SIV_MAX_LEN || aad_len > SIV_MAX_LEN) ? VG_ERR_LENGTH :
      (nonce == \null || tag == \null || (aad_len != 0 && aad == \null) ||
       (len != 0 && (in == \null || out == \null)) || vg_partial(in, out, len)) ? VG_ERR_ARG :
      VG_OK;
*/

/* The checks seal and open share, in the header's order. Returns the master key state through *st. */
/*@ requires \valid(st);
    assigns *st;
    ensures \result == siv_error(siv_key_ok(k), (uint8_t *)nonce, nonce_len, (uint8_t *)aad, aad_len,
                                (uint8_t *)in, len, (uint8_t *)out, (uint8_t *)tag, tag_len);
*/
static int siv_check(const vg_aes_gcm_siv_key *k, const struct vg_aes_key_state **st,
                     const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                     const uint8_t *in, size_t len, const uint8_t *out, const uint8_t *tag,
                     size_t tag_len)
{
    *st = vg_aes_key_state_of(k ? k->opaque : NULL, VG_MAGIC_SIV_KEY);
    if (!*st || !vg_aes_key_len_ok((*st)->key_len)) return VG_ERR_ARG;
    if (nonce_len != SIV_NONCE_LEN) return VG_ERR_NONCE_LENGTH;
    if (tag_len != SIV_TAG_LEN) return VG_ERR_TAG_LENGTH;
    if ((uint64_t)len > SIV_MAX_LEN || (uint64_t)aad_len > SIV_MAX_LEN) return VG_ERR_LENGTH;
    if (!nonce || !tag || (aad_len && !aad) || (len && (!in || !out))) return VG_ERR_ARG;
    if (vg_partial_overlap(in, out, len)) return VG_ERR_ARG;
    return VG_OK;
}

/*@ behavior rejected:
      assumes k == \null || !(key_len == 16 || key_len == 24 || key_len == 32) || key == \null;
      assigns \nothing;
      ensures \result == (k == \null ? VG_ERR_ARG : !(key_len == 16 || key_len == 24 || key_len == 32) ? VG_ERR_KEY_LENGTH :
                          VG_ERR_ARG);
*/
static int vg_aes_gcm_siv_init_body(vg_aes_gcm_siv_key *k, const uint8_t *key, size_t key_len)
{
    if (!k) return VG_ERR_ARG;
    if (!vg_aes_key_len_ok(key_len)) return VG_ERR_KEY_LENGTH;
    if (!key) return VG_ERR_ARG;
    _Static_assert(sizeof(struct vg_aes_key_state) <= sizeof(vg_aes_gcm_siv_key), "key too small");
    struct vg_aes_key_state *st = (struct vg_aes_key_state *)(void *)k->opaque;
    return vg_aes_key_init(st, key, key_len, 0, VG_MAGIC_SIV_KEY); /* the AEADs never decrypt blocks */
}

/* DIT: set by the schedule kernel itself (as in vg_aes_expand_key, aes.c). */
int vg_aes_gcm_siv_init(vg_aes_gcm_siv_key *k, const uint8_t *key, size_t key_len)
{
    return vg_aes_gcm_siv_init_body(k, key, key_len);
}

static int siv_seal_checked(const struct vg_aes_key_state *st, const uint8_t *nonce, const uint8_t *aad,
                            size_t aad_len, const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag);
static int siv_open_checked(const struct vg_aes_key_state *st, const uint8_t *nonce, const uint8_t *aad,
                            size_t aad_len, const uint8_t *in, size_t len, const uint8_t *tag, uint8_t *out);

/*@ behavior rejected:
      assumes siv_error(siv_key_ok(k), (uint8_t *)nonce, nonce_len, (uint8_t *)aad, aad_len,
                      (uint8_t *)in, len, (uint8_t *)out, (uint8_t *)tag, tag_len) != VG_OK;
      assigns \nothing;
      ensures \result == siv_error(siv_key_ok(k), (uint8_t *)nonce, nonce_len, (uint8_t *)aad, aad_len,
                                (uint8_t *)in, len, (uint8_t *)out, (uint8_t *)tag, tag_len);
*/
static int vg_aes_gcm_siv_seal_body(const vg_aes_gcm_siv_key *k, const uint8_t *nonce, size_t nonce_len,
                        const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                        uint8_t *out, uint8_t *tag, size_t tag_len)
{
    const struct vg_aes_key_state *st;
    int rc = siv_check(k, &st, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
    if (rc != VG_OK) return rc;
    return siv_seal_checked(st, nonce, aad, aad_len, in, len, out, tag);
}

/* Seal once the arguments are accepted (its own function so that the proof of the rejected path
   above sees one call, not the whole message). */
static int siv_seal_checked(const struct vg_aes_key_state *st, const uint8_t *nonce, const uint8_t *aad,
                            size_t aad_len, const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag)
{
    const struct vg_impl *impl = st->impl;

    /* Copy the nonce: nothing then depends on caller memory that out or tag might overlap. */
    uint8_t n[SIV_NONCE_LEN];
    memcpy(n, nonce, SIV_NONCE_LEN);

    if (siv_short_path(impl, st->key_len, aad_len, len)) {
        /* one kernel call; the tag goes through a local block since the kernel reads in after
           computing it (in, out and tag may overlap however the caller likes) */
        uint8_t t[16];
        impl->gcm_siv_seal_short(st->sched, st->key_len, n, aad, aad_len, in, out, len, t);
        memcpy(tag, t, 16);
        vg_wipe(t, sizeof t);
        return VG_OK;
    }

    struct siv_message msg;
    siv_derive(&msg, st, n);

    /* acc = S_s; all the input is read before anything is written, so the plaintext may share its
       buffer with out (in == out) or lie after it. */
    uint8_t acc[16] = {0};
    siv_polyval_padded(impl, msg.hkey, acc, aad, aad_len);
    siv_polyval_padded(impl, msg.hkey, acc, in, len);
    siv_polyval_lengths(impl, msg.hkey, acc, aad_len, len);

    uint8_t t[16], counter[16];
    siv_tag(&msg, acc, n, t);
    memcpy(counter, t, 16);
    counter[15] |= 0x80;
    siv_ctr(&msg, counter, in, out, len);
    memcpy(tag, t, 16);

    vg_wipe(&msg, sizeof msg);
    vg_wipe(acc, sizeof acc);
    vg_wipe(counter, sizeof counter);
    vg_wipe(t, sizeof t);
    return VG_OK;
}

int vg_aes_gcm_siv_seal(const vg_aes_gcm_siv_key *k, const uint8_t *nonce, size_t nonce_len,
                        const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                        uint8_t *out, uint8_t *tag, size_t tag_len)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_gcm_siv_seal_body(k, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
    vg_arch_secret_exit(dit);
    return rc;
}

/*@ behavior rejected:
      assumes siv_error(siv_key_ok(k), (uint8_t *)nonce, nonce_len, (uint8_t *)aad, aad_len,
                      (uint8_t *)in, len, (uint8_t *)out, (uint8_t *)tag, tag_len) != VG_OK;
      assigns \nothing;
      ensures \result == siv_error(siv_key_ok(k), (uint8_t *)nonce, nonce_len, (uint8_t *)aad, aad_len,
                                (uint8_t *)in, len, (uint8_t *)out, (uint8_t *)tag, tag_len);
*/
static int vg_aes_gcm_siv_open_body(const vg_aes_gcm_siv_key *k, const uint8_t *nonce, size_t nonce_len,
                        const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                        const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    const struct vg_aes_key_state *st;
    int rc = siv_check(k, &st, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
    if (rc != VG_OK) return rc;
    return siv_open_checked(st, nonce, aad, aad_len, in, len, tag, out);
}

/* Open once the arguments are accepted. */
static int siv_open_checked(const struct vg_aes_key_state *st, const uint8_t *nonce, const uint8_t *aad,
                            size_t aad_len, const uint8_t *in, size_t len, const uint8_t *tag, uint8_t *out)
{
    const struct vg_impl *impl = st->impl;

    /* The received tag and the nonce are copied before out is written: they may sit in memory the
       decryption overwrites. */
    uint8_t n[SIV_NONCE_LEN], received[16], counter[16];
    memcpy(n, nonce, SIV_NONCE_LEN);
    memcpy(received, tag, 16);
    memcpy(counter, received, 16);
    counter[15] |= 0x80;

    /* The whole-message kernels may write plaintext before they have hashed all of the AAD, so an out
       that overlaps the AAD takes the general path, which hashes the AAD before it writes anything
       (vg.h: every allowed overlap gives the separate-buffer result). Addresses are public. */
    if (siv_short_path(impl, st->key_len, aad_len, len) && !vg_overlap(out, len, aad, aad_len)) {
        uint8_t expected[16];
        impl->gcm_siv_open_short(st->sched, st->key_len, n, aad, aad_len, in, out, len, received, expected);
        int rc_short = vg_open_finish(out, len, vg_ct_differ16(expected, received));
        vg_wipe16(expected);
        vg_wipe16(counter);
        return rc_short;
    }

    struct siv_message msg;
    siv_derive(&msg, st, n);

    uint8_t acc[16] = {0};
    siv_polyval_padded(impl, msg.hkey, acc, aad, aad_len);
    /* Decrypt a chunk, then hash the plaintext it produced while it is still in cache. Every chunk
       but the last is whole blocks, so the zero padding only ever applies to the message's end, as
       the RFC wants; the counter carries across chunks. */
    size_t done = 0;
    for (; len - done > SIV_OPEN_CHUNK; done += SIV_OPEN_CHUNK) { /* constant step, then the rest */
        siv_ctr(&msg, counter, in + done, out + done, SIV_OPEN_CHUNK);
        siv_polyval_padded(impl, msg.hkey, acc, out + done, SIV_OPEN_CHUNK);
    }
    if (done < len) {
        siv_ctr(&msg, counter, in + done, out + done, len - done);
        siv_polyval_padded(impl, msg.hkey, acc, out + done, len - done);
    }
    siv_polyval_lengths(impl, msg.hkey, acc, aad_len, len);

    uint8_t expected[16];
    siv_tag(&msg, acc, n, expected);
    int rc_auth = vg_open_finish(out, len, vg_ct_differ16(expected, received));

    vg_wipe(&msg, sizeof msg);
    vg_wipe(acc, sizeof acc);
    vg_wipe(counter, sizeof counter);
    vg_wipe(expected, sizeof expected);
    return rc_auth;
}

int vg_aes_gcm_siv_open(const vg_aes_gcm_siv_key *k, const uint8_t *nonce, size_t nonce_len,
                        const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                        const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_gcm_siv_open_body(k, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, out);
    vg_arch_secret_exit(dit);
    return rc;
}

void vg_aes_gcm_siv_key_wipe(vg_aes_gcm_siv_key *k)
{
    if (k) vg_wipe(k, sizeof *k);
}
