/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* Included before vectors_aes.c by provider_vectors_aes.c: vg's AES key and ECB
   calls are renamed to provider_ecb_shim.c's, which run them through EVP's AES-*-ECB from vg.so. */
#define vg_aes_expand_key vgp_shim_expand_key
#define vg_aes_ecb_encrypt vgp_shim_ecb_encrypt
#define vg_aes_ecb_decrypt vgp_shim_ecb_decrypt
#define vg_aes_key_wipe vgp_shim_key_wipe
