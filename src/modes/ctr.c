/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* ctr.c — AES-CTR (inc32) as a byte stream: whole blocks through the impl's ctr32, the partial last
   block's keystream kept for the next call. */
#include "internal.h"

#define CTR_STREAM_MAGIC 0x76674353u /* "vgCS" */

struct ctr_stream_state {
    const struct vg_aes_key_state *key;
    uint32_t magic;
    uint32_t used;          /* bytes of keystream already consumed (16 = none left) */
    uint8_t counter[16];    /* counter of the next keystream block to generate */
    uint8_t keystream[16];  /* E(counter - 1); bytes [used, 16) still unused */
};
_Static_assert(sizeof(struct ctr_stream_state) <= VG_AES_CTR_STREAM_SIZE, "vg_aes_ctr_stream too small");

/*
 * For the WP proofs (docs/proofs-wp.md): ctr_stream_usable reads the magic through a cast from the
 * caller's opaque bytes to struct ctr_stream_state, which WP's typed memory model cannot follow (as
 * for the key, vg_aes_key_state_of). "The stream is usable" is therefore named here, and tied to the
 * state only by ctr_stream_usable's assumed contract; the argument checks are proved against the name.
 */
/*@ axiomatic VgCtrStream {
      logic boolean ctr_stream_ready{L}(unsigned char *opaque);
    }
    logic boolean ctr_stream_ok{L}(vg_aes_ctr_stream *s) =
      s != \null && ctr_stream_ready((unsigned char *)s->opaque);
    // The codes in vg.h's order; VG_OK: accepted (for xor, len = 0 with a usable stream is accepted
    // whatever in and out are).
    logic integer ctr_stream_init_error(vg_aes_ctr_stream *s, boolean key_ok, uint8_t *counter) =
      (s == \null || !key_ok || counter == \null) ? VG_ERR_ARG : VG_OK;
    logic integer ctr_stream_xor_error{L}(vg_aes_ctr_stream *s, uint8_t *in, uint8_t *out, integer len) =
      !ctr_stream_ok(s) ? VG_ERR_ARG :
      (len != 0 && (in == \null || out == \null || vg_partial(in, out, len))) ? VG_ERR_ARG :
      VG_OK;
*/

/* 1 for an initialised stream (not wiped) whose key is still set up, else 0: the key is re-checked on
   every call, so a stream whose key was wiped is refused rather than calling through a zeroed table
   pointer. */
/*@ assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 <==> ctr_stream_ok(s);
*/
static int ctr_stream_usable(const vg_aes_ctr_stream *s)
{
    if (!s) return 0;
    const struct ctr_stream_state *st = (const struct ctr_stream_state *)(const void *)s->opaque;
    if (st->magic != CTR_STREAM_MAGIC) return 0;
    return vg_aes_key_state_of((const unsigned char *)(const void *)st->key, VG_MAGIC_AES_KEY) != NULL;
}

/*@ ensures \result == \old(ctr_stream_init_error(s, k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_AES_KEY),
                                   (uint8_t *)counter));
    behavior rejected:
      assumes ctr_stream_init_error(s, k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_AES_KEY),
                                   (uint8_t *)counter) != VG_OK;
      assigns \nothing;
*/
static int vg_aes_ctr_stream_init_body(vg_aes_ctr_stream *s, const vg_aes_key *k, const uint8_t counter[16])
{
    const struct vg_aes_key_state *key = vg_aes_key_state_of(k ? k->opaque : NULL, VG_MAGIC_AES_KEY);
    if (!s || !key || !counter) return VG_ERR_ARG;
    struct ctr_stream_state *st = (struct ctr_stream_state *)(void *)s->opaque;
    memset(s, 0, sizeof *s);
    st->key = key;
    st->used = 16;
    memcpy(st->counter, counter, 16);
    st->magic = CTR_STREAM_MAGIC;
    return VG_OK;
}

int vg_aes_ctr_stream_init(vg_aes_ctr_stream *s, const vg_aes_key *k, const uint8_t counter[16])
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_ctr_stream_init_body(s, k, counter);
    vg_arch_secret_exit(dit);
    return rc;
}

/*@ ensures \result == ctr_stream_xor_error{Pre}(s, (uint8_t *)in, out, len);
    behavior rejected:
      assumes ctr_stream_xor_error(s, (uint8_t *)in, out, len) != VG_OK;
      assigns \nothing;
*/
static int vg_aes_ctr_stream_xor_body(vg_aes_ctr_stream *s, const uint8_t *in, uint8_t *out, size_t len)
{
    if (!ctr_stream_usable(s)) return VG_ERR_ARG;
    struct ctr_stream_state *st = (struct ctr_stream_state *)(void *)s->opaque;
    if (len == 0) return VG_OK;
    if (!in || !out || vg_partial_overlap(in, out, len)) return VG_ERR_ARG;

    /* 1. what is left of the previous keystream block (a loop with a known count: the Eva
       analysis, proofs/eva/, follows it exactly) */
    if (st->used < 16) {
        size_t n = 16 - st->used < len ? 16 - st->used : len;
        for (size_t i = 0; i < n; i++) out[i] = in[i] ^ st->keystream[st->used + i];
        st->used += (uint32_t)n;
        in += n;
        out += n;
        len -= n;
    }
    /* 2. whole blocks straight through the kernel */
    size_t nblocks = len / 16;
    if (nblocks) {
        st->key->impl->aes_ctr32(st->key->sched, st->counter, in, out, nblocks);
        in += nblocks * 16;
        out += nblocks * 16;
        len -= nblocks * 16;
    }
    /* 3. a final partial block: make one keystream block and keep what is not used */
    if (len) {
        memset(st->keystream, 0, 16);
        st->key->impl->aes_ctr32(st->key->sched, st->counter, st->keystream, st->keystream, 1);
        for (size_t i = 0; i < len; i++) out[i] = in[i] ^ st->keystream[i];
        st->used = (uint32_t)len;
    }
    return VG_OK;
}

int vg_aes_ctr_stream_xor(vg_aes_ctr_stream *s, const uint8_t *in, uint8_t *out, size_t len)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_ctr_stream_xor_body(s, in, out, len);
    vg_arch_secret_exit(dit);
    return rc;
}

void vg_aes_ctr_stream_wipe(vg_aes_ctr_stream *s)
{
    if (s) vg_wipe(s, sizeof *s);
}
