/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * vgprov.h — what the files of the OpenSSL 3 provider module (vg.so) share.
 *
 * The provider sits above vg.h and uses nothing else of vg. Each cipher family has its own file:
 * gcm.c (AES-GCM, streaming, TLS 1.2 records), ccm.c (AES-CCM, TLS 1.2 records), block.c (AES-ECB with
 * PKCS#7 padding and AES-CTR with OpenSSL's 128-bit counter), gcm_siv.c (AES-GCM-SIV, OpenSSL 3.2's
 * names). provider.c holds the entry point, the algorithm table and the provider's own parameters.
 *
 * Parameters keep the meaning OpenSSL 3.0's default provider gives them (docs/openssl-provider.md
 * lists the few places where vg refuses what OpenSSL accepts). There is no global mutable state:
 * everything lives in the provider context (one per loaded instance) or in a cipher context.
 */
#ifndef VG_PROVIDER_H
#define VG_PROVIDER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>

#include "vg.h"

/* One per loaded instance of the provider (OSSL_provider_init allocates it). */
struct vgp_provctx {
    const OSSL_CORE_HANDLE *handle;
    /* Cipher operations served (every update and final of every cipher context): read through the
       provider parameter "vg-cipher-ops", which is how the tests prove vg served a TLS connection. */
    atomic_uint_least64_t cipher_ops;
};

static inline void vgp_count_op(struct vgp_provctx *p)
{
    atomic_fetch_add_explicit(&p->cipher_ops, 1, memory_order_relaxed);
}

/* The mode numbers EVP_CIPHER_get_mode reports (OpenSSL's EVP_CIPH_*_MODE values). */
#define VGP_MODE_ECB 0x1
#define VGP_MODE_CTR 0x5
#define VGP_MODE_GCM 0x6
#define VGP_MODE_CCM 0x7
#define VGP_MODE_GCM_SIV 0x10005 /* OpenSSL 3.2's EVP_CIPH_GCM_SIV_MODE */

/* Every parameter key the provider answers or takes (core_names.h's names; OSSL_CIPHER_PARAM_AEAD_IVLEN
   is "ivlen" too, so it is VGP_PARAM_IVLEN). */
enum vgp_param {
    VGP_PARAM_AEAD,
    VGP_PARAM_BLOCK_SIZE,
    VGP_PARAM_BUILDINFO,
    VGP_PARAM_CIPHER_OPS, /* "vg-cipher-ops", the provider's own */
    VGP_PARAM_CTS,
    VGP_PARAM_CUSTOM_IV,
    VGP_PARAM_HAS_RAND_KEY,
    VGP_PARAM_IV,
    VGP_PARAM_IVLEN,
    VGP_PARAM_KEYLEN,
    VGP_PARAM_MODE,
    VGP_PARAM_NAME,
    VGP_PARAM_NUM,
    VGP_PARAM_PADDING,
    VGP_PARAM_STATUS,
    VGP_PARAM_TAG,
    VGP_PARAM_TAGLEN,
    VGP_PARAM_TLS1_AAD,
    VGP_PARAM_TLS1_AAD_PAD,
    VGP_PARAM_TLS1_GET_IV_GEN,
    VGP_PARAM_TLS1_IV_FIXED,
    VGP_PARAM_TLS1_MULTIBLOCK,
    VGP_PARAM_TLS1_SET_IV_INV,
    VGP_PARAM_UPDATED_IV,
    VGP_PARAM_VERSION,
    VGP_PARAM_COUNT
};

/* What vgp_params_find found: at[k] is meaningful only where bit k of found is set, so a look-up
   starts by clearing one word (clearing all of at[] per call, a `rep stos`, cost more on Zen 5 than the
   look-up itself). */
struct vgp_found {
    uint32_t found;
    OSSL_PARAM *at[VGP_PARAM_COUNT];
};
_Static_assert(VGP_PARAM_COUNT <= 32, "one bit of vgp_found.found per key");

/* One pass over params (which may be NULL): records, for each key the provider knows, the first
   element with that key, the one OSSL_PARAM_locate would return; keys it does not know are skipped,
   as OpenSSL's providers ignore them. Why: EVP asks for one parameter at a time (the key and IV length
   on every EVP_CipherInit_ex, the padding, each ctrl), and locating each known key in turn cost a
   strcmp per key per element, about 8% of `openssl speed -evp AES-128-GCM` at 16 KiB. The callers then
   act in their own fixed order, so an array with several keys has the effects (and the failure point)
   it had with one OSSL_PARAM_locate per key. The pointers point into params: a set function's array is
   const, and set functions only read through them. */
void vgp_params_find(const OSSL_PARAM params[], struct vgp_found *f);

/* The element found for key k, or NULL. */
static inline OSSL_PARAM *vgp_param(const struct vgp_found *f, enum vgp_param k)
{
    return (f->found >> k) & 1 ? f->at[k] : NULL;
}

/* Algorithm (not context) parameters, shared by every cipher: see provider.c. */
int vgp_cipher_get_params(OSSL_PARAM params[], unsigned int mode, size_t keylen, size_t ivlen,
                          size_t blocksize, int aead);
const OSSL_PARAM *vgp_cipher_gettable_params(void *provctx);

/* TLS 1.2 records (OSSL_CIPHER_PARAM_AEAD_TLS1_AAD), GCM's and CCM's alike. The record header is 13
   bytes (EVP_AEAD_TLS1_AAD_LEN) ending in the record's length, which counts the 8-byte explicit nonce
   sent before the payload and, on open, the tag after it. */
#define VGP_TLS1_AAD_LEN 13
#define VGP_TLS1_EXPLICIT_IV_LEN 8
/* Copies the header aad to out with its length field rewritten to the payload's: the AAD the record
   is sealed or opened under. Returns tag_len (what OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD then reports),
   or 0 when that length is too short to hold the explicit nonce (and, opening, the tag). */
size_t vgp_tls1_aad(unsigned char out[VGP_TLS1_AAD_LEN], const unsigned char aad[VGP_TLS1_AAD_LEN], int enc,
                    size_t tag_len);

/* A heap buffer whose contents are wiped whenever they are dropped: CCM's and GCM-SIV's AAD, held
   until their one-shot call. An all-zero struct is an empty buffer. */
struct vgp_buf {
    unsigned char *p;
    size_t len, cap;
};
/* Wipes the contents and empties the buffer; the memory stays for reuse. */
void vgp_buf_clear(struct vgp_buf *b);
/* Wipes and frees; the buffer is then empty. */
void vgp_buf_free(struct vgp_buf *b);
/* Appends n bytes: 1, or 0 (size overflow, no memory) with the buffer unchanged. */
int vgp_buf_append(struct vgp_buf *b, const unsigned char *data, size_t n);
/* d (whatever it held is ignored: a memcpy of s's context) becomes a copy of s: 1, or 0 with d empty. */
int vgp_buf_dup(struct vgp_buf *d, const struct vgp_buf *s);

/* Random bytes from the operating system (getrandom): 1 on success. */
int vgp_random(unsigned char *out, size_t len);

/* Constant-time: 0xff.. if a == b, else 0, for a, b < 2^63. */
static inline size_t vgp_ct_eq(size_t a, size_t b)
{
    size_t d = a ^ b;
    return (size_t)0 - (size_t)(1 ^ ((d | ((size_t)0 - d)) >> (sizeof(size_t) * 8 - 1)));
}

/* Constant-time: all ones if a < b, else 0, for a, b < 2^63. */
static inline size_t vgp_ct_lt(size_t a, size_t b)
{
    return (size_t)0 - ((a - b) >> (sizeof(size_t) * 8 - 1));
}

/* The dispatch tables of each family, one per key size (and the algorithm table's entries). */
extern const OSSL_DISPATCH vgp_aes128gcm_functions[], vgp_aes192gcm_functions[], vgp_aes256gcm_functions[];
extern const OSSL_DISPATCH vgp_aes128ccm_functions[], vgp_aes192ccm_functions[], vgp_aes256ccm_functions[];
extern const OSSL_DISPATCH vgp_aes128ctr_functions[], vgp_aes192ctr_functions[], vgp_aes256ctr_functions[];
extern const OSSL_DISPATCH vgp_aes128ecb_functions[], vgp_aes192ecb_functions[], vgp_aes256ecb_functions[];
extern const OSSL_DISPATCH vgp_aes128gcmsiv_functions[], vgp_aes192gcmsiv_functions[],
    vgp_aes256gcmsiv_functions[];

#endif
