/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * eva_kernels.c — Eva entry point for the portable kernels (src/portable/): the key schedule for each
 * key size, then every kernel for every block count 0..EVA_MAX_BLOCKS, on buffers of exactly
 * 16 * nblocks bytes, separate and in place. Data, keys and counters are unknown bytes.
 * The contracts of kernel_specs.h are checked here against the code (preconditions at each call,
 * postconditions on return); the mode runs then rely on them.
 */
#include "eva_common.h"
#include "kernel_specs.h"

static _Alignas(64) unsigned char sched[VG_SCHED_SIZE];
static _Alignas(64) unsigned char hkey_gcm[VG_HKEY_SIZE];
static _Alignas(64) unsigned char hkey_siv[VG_HKEY_SIZE];

int main(void)
{
    /* One schedule per key size, analysed separately; the three are then joined, which covers
       every size at once below (the schedule has the same 15-round-key layout for all three). */
    switch (Frama_C_interval(0, 2)) {
    case 0: vg_portable_aes_expand_key(sched, eva_input(16), 16, 1); break;
    case 1: vg_portable_aes_expand_key(sched, eva_input(24), 24, 1); break;
    default: vg_portable_aes_expand_key(sched, eva_input(32), 32, 1); break;
    }
    vg_portable_ghash_init(hkey_gcm, eva_input(16));
    vg_portable_polyval_init(hkey_siv, eva_input(16));

    uint8_t *counter = eva_input(16), *mac = eva_input(16), *acc = eva_input(16);

    //@ loop unroll EVA_MAX_BLOCKS + 1;
    for (size_t n = 0; n <= EVA_MAX_BLOCKS; n++) {
        uint8_t *in = eva_input(16 * n), *out = eva_output(16 * n), *io = eva_input(16 * n);
        vg_portable_aes_ecb_encrypt(sched, in, out, n);
        vg_portable_aes_ecb_encrypt(sched, io, io, n);
        vg_portable_aes_ecb_decrypt(sched, in, out, n);
        vg_portable_aes_ecb_decrypt(sched, io, io, n);
        vg_portable_aes_ctr32(sched, counter, in, out, n);
        vg_portable_aes_ctr32(sched, counter, io, io, n);
        vg_portable_aes_ctr32_le(sched, counter, in, out, n);
        vg_portable_aes_ctr32_le(sched, counter, io, io, n);
        vg_portable_cbc_mac(sched, mac, in, n);
        vg_portable_ccm_seal_blocks(sched, mac, counter, in, out, n);
        vg_portable_ccm_seal_blocks(sched, mac, counter, io, io, n);
        vg_portable_ccm_open_blocks(sched, mac, counter, in, out, n);
        vg_portable_ccm_open_blocks(sched, mac, counter, io, io, n);
        vg_portable_ghash_update(hkey_gcm, acc, in, n);
        vg_portable_polyval_update(hkey_siv, acc, in, n);
        free(in);
        free(out);
        free(io);
    }
    return 0;
}
