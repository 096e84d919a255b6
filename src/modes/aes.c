/* aes.c — the AES key and the block-level public functions (ECB, CTR32), over the recorded impl. */
#include "internal.h"

static void key_header(struct vg_aes_key_state *st, const struct vg_impl *impl, size_t key_len, int want_decrypt)
{
    st->magic = 0;
    st->impl = impl;
    st->key_len = (uint32_t)key_len;
    st->rounds = (uint32_t)(key_len / 4 + 6);
    st->has_decrypt = (uint32_t)(want_decrypt != 0);
    memset(st->pad, 0, sizeof st->pad);
}

void vg_aes_key_setup(struct vg_aes_key_state *st, const struct vg_impl *impl, const uint8_t *key,
                      size_t key_len, int want_decrypt)
{
    key_header(st, impl, key_len, want_decrypt);
    impl->aes_expand_key(st->sched, key, key_len, want_decrypt);
    st->magic = VG_KEY_MAGIC;
}

void vg_aes_gcm_key_setup(struct vg_aes_gcm_key_state *st, const struct vg_impl *impl, const uint8_t *key,
                          size_t key_len)
{
    key_header(&st->aes, impl, key_len, 0);
    impl->gcm_key_setup(st->aes.sched, st->hkey, key, key_len);
    st->aes.magic = VG_KEY_MAGIC;
}

const struct vg_aes_key_state *vg_aes_key_state_of(const unsigned char *opaque)
{
    const struct vg_aes_key_state *st = (const struct vg_aes_key_state *)(const void *)opaque;
    if (!st || st->magic != VG_KEY_MAGIC || !st->impl) return NULL;
    return st;
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
    vg_aes_key_setup((struct vg_aes_key_state *)(void *)k->opaque, vg_current_impl(), key, key_len, 1);
    return VG_OK;
}

int vg_aes_expand_key(vg_aes_key *k, const uint8_t *key, size_t key_len)
{
    uint64_t dit = vg_arch_secret_enter();
    int rc = vg_aes_expand_key_body(k, key, key_len);
    vg_arch_secret_exit(dit);
    return rc;
}

void vg_aes_key_wipe(vg_aes_key *k)
{
    if (k) vg_wipe(k, sizeof *k);
}

/* The checks the void block functions share: a usable key, non-NULL buffers, no partial overlap. */
/*@ requires k == \null || \valid_read(k);
    assigns \nothing;
    ensures \result == \null <==> (k == \null || !vg_key_ready((unsigned char *)k->opaque) || nblocks == 0 ||
                                   in == \null || out == \null || nblocks > SIZE_MAX / 16 ||
                                   vg_partial((uint8_t *)in, (uint8_t *)out, nblocks * 16));
*/
static const struct vg_aes_key_state *block_call_ok(const vg_aes_key *k, const uint8_t *in,
                                                    const uint8_t *out, size_t nblocks)
{
    const struct vg_aes_key_state *st = vg_aes_key_state_of(k ? k->opaque : NULL);
    if (!st || nblocks == 0) return NULL;
    if (!in || !out || nblocks > SIZE_MAX / 16) return NULL;
    if (vg_partial_overlap(in, out, nblocks * 16)) return NULL;
    return st;
}

/*@ requires k == \null || \valid_read(k);
    behavior rejected:
      assumes k == \null || !vg_key_ready((unsigned char *)k->opaque) || nblocks == 0 || in == \null ||
              out == \null || nblocks > SIZE_MAX / 16 || vg_partial((uint8_t *)in, out, nblocks * 16);
      assigns \nothing;
*/
static void vg_aes_ecb_encrypt_body(const vg_aes_key *k, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const struct vg_aes_key_state *st = block_call_ok(k, in, out, nblocks);
    if (st) st->impl->aes_ecb_encrypt(st->sched, in, out, nblocks);
}

void vg_aes_ecb_encrypt(const vg_aes_key *k, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    uint64_t dit = vg_arch_secret_enter();
    vg_aes_ecb_encrypt_body(k, in, out, nblocks);
    vg_arch_secret_exit(dit);
}

/*@ requires k == \null || \valid_read(k);
    behavior rejected:
      assumes k == \null || !vg_key_ready((unsigned char *)k->opaque) || nblocks == 0 || in == \null ||
              out == \null || nblocks > SIZE_MAX / 16 || vg_partial((uint8_t *)in, out, nblocks * 16);
      assigns \nothing;
*/
static void vg_aes_ecb_decrypt_body(const vg_aes_key *k, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const struct vg_aes_key_state *st = block_call_ok(k, in, out, nblocks);
    if (st && st->has_decrypt) st->impl->aes_ecb_decrypt(st->sched, in, out, nblocks);
}

void vg_aes_ecb_decrypt(const vg_aes_key *k, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    uint64_t dit = vg_arch_secret_enter();
    vg_aes_ecb_decrypt_body(k, in, out, nblocks);
    vg_arch_secret_exit(dit);
}

/*@ requires k == \null || \valid_read(k);
    behavior rejected:
      assumes k == \null || !vg_key_ready((unsigned char *)k->opaque) || nblocks == 0 || in == \null ||
              out == \null || nblocks > SIZE_MAX / 16 || vg_partial((uint8_t *)in, out, nblocks * 16) ||
              counter == \null;
      assigns \nothing;
*/
static void vg_aes_ctr32_body(const vg_aes_key *k, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                  size_t nblocks)
{
    const struct vg_aes_key_state *st = block_call_ok(k, in, out, nblocks);
    if (st && counter) st->impl->aes_ctr32(st->sched, counter, in, out, nblocks);
}

void vg_aes_ctr32(const vg_aes_key *k, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                  size_t nblocks)
{
    uint64_t dit = vg_arch_secret_enter();
    vg_aes_ctr32_body(k, counter, in, out, nblocks);
    vg_arch_secret_exit(dit);
}
