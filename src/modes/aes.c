/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* aes.c — the AES key and the block-level public functions (ECB, CTR32), over the recorded impl. */
#include "internal.h"

void vg_aes_gcm_key_setup(struct vg_aes_gcm_key_state *st, const struct vg_impl *impl, const uint8_t *key,
                          size_t key_len)
{
    st->aes.magic = 0; /* the marker goes in once the hkey is written too */
    st->aes.impl = impl;
    st->aes.key_len = (uint32_t)key_len;
    impl->gcm_key_setup(st->aes.sched, st->hkey, key, key_len);
    st->aes.magic = VG_MAGIC_GCM_KEY;
}

/*@ behavior rejected:
      assumes k == \null || !(key_len == 16 || key_len == 24 || key_len == 32) || key == \null;
      assigns \nothing;
      ensures \result == (k == \null ? VG_ERR_ARG :
                          !(key_len == 16 || key_len == 24 || key_len == 32) ? VG_ERR_KEY_LENGTH : VG_ERR_ARG);
*/
static int vg_aes_expand_key_body(vg_aes_key *k, const uint8_t *key, size_t key_len)
{
    if (!k) return VG_ERR_ARG;
    if (!vg_aes_key_len_ok(key_len)) return VG_ERR_KEY_LENGTH;
    if (!key) return VG_ERR_ARG;
    return vg_aes_key_init((struct vg_aes_key_state *)(void *)k->opaque, key, key_len, 1, VG_MAGIC_AES_KEY);
}

/* No vg_arch_secret_enter here: the schedule kernel, the only code of this call that reads the key,
   sets DIT itself (struct vg_impl's aes_expand_key), and the kernel call stays a tail call. */
int vg_aes_expand_key(vg_aes_key *k, const uint8_t *key, size_t key_len)
{
    return vg_aes_expand_key_body(k, key, key_len);
}

void vg_aes_key_wipe(vg_aes_key *k)
{
    if (k) vg_wipe(k, sizeof *k);
}

/*@ // The code ECB and CTR32 return before they write anything, in vg.h's order (VG_OK: accepted;
    // nblocks == 0 with a usable key is accepted and writes nothing). CTR32 passes its counter.
    logic integer block_error(boolean key_ok, uint8_t *in, uint8_t *out, integer nblocks) =
      !key_ok ? VG_ERR_ARG :
      nblocks == 0 ? VG_OK :
      (in == \null || out == \null || nblocks > SIZE_MAX / 16 || vg_partial(in, out, nblocks * 16)) ?
        VG_ERR_ARG :
      VG_OK;
    logic integer ctr32_error(boolean key_ok, uint8_t *counter, uint8_t *in, uint8_t *out, integer nblocks) =
      (!key_ok || counter == \null) ? VG_ERR_ARG :
      block_error(key_ok, in, out, nblocks) != VG_OK ? block_error(key_ok, in, out, nblocks) :
      (nblocks != 0 && (vg_overlaps(counter, 16, in, nblocks * 16) ||
                        vg_overlaps(counter, 16, out, nblocks * 16))) ? VG_ERR_ARG :
      VG_OK;
*/

/* The checks the block functions share: a usable vg_aes_key, non-NULL buffers, no partial overlap.
   *st is the key's state when the key is usable. */
/*@ requires \valid(st);
    requires k == \null || \valid_read(k);
    assigns *st;
    ensures \result == block_error(k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_AES_KEY),
                                  (uint8_t *)in, (uint8_t *)out, nblocks);
    ensures (k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_AES_KEY)) ==> *st != \null;
*/
static int block_check(const vg_aes_key *k, const struct vg_aes_key_state **st, const uint8_t *in,
                       const uint8_t *out, size_t nblocks)
{
    *st = vg_aes_key_state_of(k ? k->opaque : NULL, VG_MAGIC_AES_KEY);
    if (!*st) return VG_ERR_ARG;
    if (nblocks == 0) return VG_OK;
    if (!in || !out || nblocks > SIZE_MAX / 16) return VG_ERR_ARG;
    if (vg_partial_overlap(in, out, nblocks * 16)) return VG_ERR_ARG;
    return VG_OK;
}

/*@ requires k == \null || \valid_read(k);
    behavior rejected:
      assumes block_error(k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_AES_KEY),
                          (uint8_t *)in, out, nblocks) != VG_OK;
      assigns \nothing;
      ensures \result == block_error(k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_AES_KEY),
                                    (uint8_t *)in, out, nblocks);
*/
static int vg_aes_ecb_encrypt_body(const vg_aes_key *k, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const struct vg_aes_key_state *st;
    int err = block_check(k, &st, in, out, nblocks);
    if (err) return err;
    if (nblocks) st->impl->aes_ecb_encrypt(st->sched, in, out, nblocks);
    return VG_OK;
}

int vg_aes_ecb_encrypt(const vg_aes_key *k, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_ecb_encrypt_body(k, in, out, nblocks);
    vg_arch_secret_exit(dit);
    return rc;
}

/*@ requires k == \null || \valid_read(k);
    behavior rejected:
      assumes block_error(k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_AES_KEY),
                          (uint8_t *)in, out, nblocks) != VG_OK;
      assigns \nothing;
      ensures \result == block_error(k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_AES_KEY),
                                    (uint8_t *)in, out, nblocks);
*/
static int vg_aes_ecb_decrypt_body(const vg_aes_key *k, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const struct vg_aes_key_state *st;
    int err = block_check(k, &st, in, out, nblocks);
    if (err) return err;
    /* every vg_aes_key is set up with its decryption round keys (vg_aes_expand_key); the AEADs'
       keys, which have none, carry other markers and never get here */
    if (nblocks) st->impl->aes_ecb_decrypt(st->sched, in, out, nblocks);
    return VG_OK;
}

int vg_aes_ecb_decrypt(const vg_aes_key *k, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_ecb_decrypt_body(k, in, out, nblocks);
    vg_arch_secret_exit(dit);
    return rc;
}

/*@ requires k == \null || \valid_read(k);
    behavior rejected:
      assumes ctr32_error(k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_AES_KEY),
                          counter, (uint8_t *)in, out, nblocks) != VG_OK;
      assigns \nothing;
      ensures \result == ctr32_error(k != \null && vg_key_ready((unsigned char *)k->opaque, VG_MAGIC_AES_KEY),
                                    counter, (uint8_t *)in, out, nblocks);
*/
static int vg_aes_ctr32_body(const vg_aes_key *k, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                             size_t nblocks)
{
    const struct vg_aes_key_state *st;
    if (!counter) return VG_ERR_ARG;
    int err = block_check(k, &st, in, out, nblocks);
    if (err) return err;
    if (nblocks == 0) return VG_OK;
    /* the counter is read first and written last by the kernel: an overlap with in or out would
       mix the two outputs */
    if (vg_overlap(counter, 16, in, nblocks * 16) || vg_overlap(counter, 16, out, nblocks * 16))
        return VG_ERR_ARG;
    st->impl->aes_ctr32(st->sched, counter, in, out, nblocks);
    return VG_OK;
}

int vg_aes_ctr32(const vg_aes_key *k, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                 size_t nblocks)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_ctr32_body(k, counter, in, out, nblocks);
    vg_arch_secret_exit(dit);
    return rc;
}
