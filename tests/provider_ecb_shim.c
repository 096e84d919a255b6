/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * provider_ecb_shim.c — vectors_aes.c's AES calls (renamed by provider_ecb_shim.h) through EVP:
 * "expanding a key" makes an encrypting and a decrypting EVP_CIPHER_CTX of AES-128/192/256-ECB
 * fetched from vg.so ("provider=vg"), padding off, kept in the vg_aes_key's bytes; each ECB call is
 * one EVP_CipherUpdate of whole blocks (in place where vectors_aes.c asks for it). So the AESAVS
 * KAT, MMT (ECB, and CBC chained over single ECB blocks) and Monte Carlo records all go through
 * the provider.
 */
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "harness.h"
#include "provider_common.h"

int vgp_shim_expand_key(vg_aes_key *k, const uint8_t *key, size_t key_len);
int vgp_shim_ecb_encrypt(const vg_aes_key *k, const uint8_t *in, uint8_t *out, size_t nblocks);
int vgp_shim_ecb_decrypt(const vg_aes_key *k, const uint8_t *in, uint8_t *out, size_t nblocks);
void vgp_shim_key_wipe(vg_aes_key *k);

struct shim {
    EVP_CIPHER_CTX *enc, *dec;
};

static struct vgp_test g;
static EVP_CIPHER *ecb[3];

int vgp_shim_expand_key(vg_aes_key *k, const uint8_t *key, size_t key_len)
{
    struct shim s;

    if (g.lib == NULL) {
        vgp_open(&g);
        ecb[0] = vgp_fetch(&g, "AES-128-ECB", 1);
        ecb[1] = vgp_fetch(&g, "AES-192-ECB", 1);
        ecb[2] = vgp_fetch(&g, "AES-256-ECB", 1);
        printf("AES-ECB through EVP, provider=vg\n");
    }
    if (key_len != 16 && key_len != 24 && key_len != 32)
        return VG_ERR_KEY_LENGTH;
    EVP_CIPHER *c = ecb[(key_len - 16) / 8];
    s.enc = EVP_CIPHER_CTX_new();
    s.dec = EVP_CIPHER_CTX_new();
    if (EVP_CipherInit_ex2(s.enc, c, key, NULL, 1, NULL) <= 0 || EVP_CIPHER_CTX_set_padding(s.enc, 0) <= 0 ||
        EVP_CipherInit_ex2(s.dec, c, key, NULL, 0, NULL) <= 0 || EVP_CIPHER_CTX_set_padding(s.dec, 0) <= 0) {
        EVP_CIPHER_CTX_free(s.enc);
        EVP_CIPHER_CTX_free(s.dec);
        return VG_ERR_ARG;
    }
    memcpy(k->opaque, &s, sizeof s);
    return VG_OK;
}

static int run(EVP_CIPHER_CTX *ctx, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    int outl = -1;
    return EVP_CipherUpdate(ctx, out, &outl, in, (int)(16 * nblocks)) > 0 && outl == (int)(16 * nblocks) ? VG_OK
                                                                                                          : VG_ERR_ARG;
}

int vgp_shim_ecb_encrypt(const vg_aes_key *k, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    struct shim s;
    memcpy(&s, k->opaque, sizeof s);
    return run(s.enc, in, out, nblocks);
}

int vgp_shim_ecb_decrypt(const vg_aes_key *k, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    struct shim s;
    memcpy(&s, k->opaque, sizeof s);
    return run(s.dec, in, out, nblocks);
}

void vgp_shim_key_wipe(vg_aes_key *k)
{
    struct shim s;
    memcpy(&s, k->opaque, sizeof s);
    EVP_CIPHER_CTX_free(s.enc);
    EVP_CIPHER_CTX_free(s.dec);
    memset(k, 0, sizeof *k);
}
