/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * provider.c — the entry point of vg.so: the provider's parameters, its algorithm table and the
 * algorithm parameters every cipher shares.
 *
 * Names and aliases are OpenSSL's own, so "AES-128-GCM" fetched with "provider=vg" (or with
 * default_properties "?provider=vg") gets vg. AES-192-GCM-SIV is registered only if
 * vg_aes_gcm_siv_init accepts a 24-byte key (vg.h says 16 or 32 today): the check runs at init.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "vgprov.h"

#define VGP_PROPS "provider=vg"

#define ALG(names, fns) { names, VGP_PROPS, fns, NULL }
#define VGP_COMMON_ALGORITHMS                                                                     \
    ALG("AES-128-GCM:aes-128-gcm:id-aes128-GCM:2.16.840.1.101.3.4.1.6", vgp_aes128gcm_functions), \
    ALG("AES-192-GCM:aes-192-gcm:id-aes192-GCM:2.16.840.1.101.3.4.1.26", vgp_aes192gcm_functions),\
    ALG("AES-256-GCM:aes-256-gcm:id-aes256-GCM:2.16.840.1.101.3.4.1.46", vgp_aes256gcm_functions),\
    ALG("AES-128-CCM:aes-128-ccm:id-aes128-CCM:2.16.840.1.101.3.4.1.7", vgp_aes128ccm_functions), \
    ALG("AES-192-CCM:aes-192-ccm:id-aes192-CCM:2.16.840.1.101.3.4.1.27", vgp_aes192ccm_functions),\
    ALG("AES-256-CCM:aes-256-ccm:id-aes256-CCM:2.16.840.1.101.3.4.1.47", vgp_aes256ccm_functions),\
    ALG("AES-128-CTR", vgp_aes128ctr_functions),                                                  \
    ALG("AES-192-CTR", vgp_aes192ctr_functions),                                                  \
    ALG("AES-256-CTR", vgp_aes256ctr_functions),                                                  \
    ALG("AES-128-ECB:2.16.840.1.101.3.4.1.1", vgp_aes128ecb_functions),                           \
    ALG("AES-192-ECB:2.16.840.1.101.3.4.1.21", vgp_aes192ecb_functions),                          \
    ALG("AES-256-ECB:2.16.840.1.101.3.4.1.41", vgp_aes256ecb_functions),                          \
    ALG("AES-128-GCM-SIV", vgp_aes128gcmsiv_functions),                                           \
    ALG("AES-256-GCM-SIV", vgp_aes256gcmsiv_functions)

static const OSSL_ALGORITHM vgp_ciphers[] = {
    VGP_COMMON_ALGORITHMS,
    { NULL, NULL, NULL, NULL }
};
static const OSSL_ALGORITHM vgp_ciphers_with_siv192[] = {
    VGP_COMMON_ALGORITHMS,
    ALG("AES-192-GCM-SIV", vgp_aes192gcmsiv_functions),
    { NULL, NULL, NULL, NULL }
};

/* Set once at init, read-only afterwards: which of the two tables this instance offers. */
struct vgp_instance {
    struct vgp_provctx ctx;
    const OSSL_ALGORITHM *ciphers;
};

#define VGP_PARAM_CIPHER_OPS_NAME "vg-cipher-ops"
/* What became of VG_IMPL in this process: vg_impl_env_status(), VG_OK (0: unset, or it names an
   implementation this CPU runs) or VG_ERR_UNSUPPORTED (it names one this vg does not know or this CPU
   cannot run, and was ignored). vg itself says nothing in that case, and neither can a provider (it has
   no channel to the application but its parameters), so vg-provider-check reads this and warns. Not in
   the enum vgp_param walk: only the provider's get_params takes it, which is not on a hot path. */
#define VGP_PARAM_IMPL_ENV_STATUS_NAME "vg-impl-env-status"

static const OSSL_PARAM vgp_param_types[] = {
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN(VGP_PARAM_CIPHER_OPS_NAME, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN(VGP_PARAM_IMPL_ENV_STATUS_NAME, OSSL_PARAM_INTEGER, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *vgp_gettable_params(void *provctx)
{
    (void)provctx;
    return vgp_param_types;
}

static int vgp_get_params(void *provctx, OSSL_PARAM params[])
{
    struct vgp_provctx *p = provctx;
    struct vgp_found f;
    OSSL_PARAM *q;

    vgp_params_find(params, &f);
    q = vgp_param(&f, VGP_PARAM_NAME);
    if (q != NULL && !OSSL_PARAM_set_utf8_ptr(q, "vg"))
        return 0;
    q = vgp_param(&f, VGP_PARAM_VERSION);
    if (q != NULL && !OSSL_PARAM_set_utf8_ptr(q, vg_version()))
        return 0;
    q = vgp_param(&f, VGP_PARAM_BUILDINFO);
    if (q != NULL && !OSSL_PARAM_set_utf8_ptr(q, vg_impl_name()))
        return 0;
    q = vgp_param(&f, VGP_PARAM_STATUS);
    if (q != NULL && !OSSL_PARAM_set_int(q, 1))
        return 0;
    q = vgp_param(&f, VGP_PARAM_CIPHER_OPS);
    if (q != NULL && !OSSL_PARAM_set_uint64(q, atomic_load_explicit(&p->cipher_ops, memory_order_relaxed)))
        return 0;
    q = OSSL_PARAM_locate(params, VGP_PARAM_IMPL_ENV_STATUS_NAME);
    if (q != NULL && !OSSL_PARAM_set_int(q, vg_impl_env_status()))
        return 0;
    return 1;
}

static const OSSL_ALGORITHM *vgp_query(void *provctx, int operation_id, int *no_cache)
{
    const struct vgp_instance *inst = provctx;

    *no_cache = 0;
    if (operation_id == OSSL_OP_CIPHER)
        return inst->ciphers;
    return NULL;
}

static void vgp_teardown(void *provctx)
{
    free(provctx);
}

static const OSSL_DISPATCH vgp_dispatch[] = {
    { OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))vgp_teardown },
    { OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))vgp_gettable_params },
    { OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))vgp_get_params },
    { OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))vgp_query },
    { 0, NULL }
};

/* 1 if this build of vg takes 24-byte AES-GCM-SIV keys. */
static int vgp_siv192_supported(void)
{
    static const uint8_t key[24];
    vg_aes_gcm_siv_key *k = aligned_alloc(16, sizeof *k);
    int ok;

    if (k == NULL)
        return 0;
    ok = vg_aes_gcm_siv_init(k, key, sizeof key) == VG_OK;
    vg_aes_gcm_siv_key_wipe(k);
    free(k);
    return ok;
}

/* The one exported symbol (the rest is hidden, and vg.map says so too). */
__attribute__((visibility("default"))) int OSSL_provider_init(const OSSL_CORE_HANDLE *handle,
                                                              const OSSL_DISPATCH *in,
                                                              const OSSL_DISPATCH **out, void **provctx);
int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                       const OSSL_DISPATCH **out, void **provctx)
{
    struct vgp_instance *inst;

    (void)in;
    inst = calloc(1, sizeof *inst);
    if (inst == NULL)
        return 0;
    inst->ctx.handle = handle;
    atomic_init(&inst->ctx.cipher_ops, 0);
    inst->ciphers = vgp_siv192_supported() ? vgp_ciphers_with_siv192 : vgp_ciphers;
    *out = vgp_dispatch;
    *provctx = inst; /* inst->ctx is its first member */
    return 1;
}

/* ---------------------------------------------------------------------------------------------- */

static const OSSL_PARAM vgp_cipher_param_types[] = {
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, NULL),
    OSSL_PARAM_END
};

const OSSL_PARAM *vgp_cipher_gettable_params(void *provctx)
{
    (void)provctx;
    return vgp_cipher_param_types;
}

/* As OpenSSL's: the AEAD modes say aead=1 and custom-iv=1 (EVP leaves the IV to the cipher). */
int vgp_cipher_get_params(OSSL_PARAM params[], unsigned int mode, size_t keylen, size_t ivlen,
                          size_t blocksize, int aead)
{
    struct vgp_found f;
    OSSL_PARAM *p;

    vgp_params_find(params, &f);
    p = vgp_param(&f, VGP_PARAM_MODE);
    if (p != NULL && !OSSL_PARAM_set_uint(p, mode))
        return 0;
    p = vgp_param(&f, VGP_PARAM_KEYLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, keylen))
        return 0;
    p = vgp_param(&f, VGP_PARAM_IVLEN);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, ivlen))
        return 0;
    p = vgp_param(&f, VGP_PARAM_BLOCK_SIZE);
    if (p != NULL && !OSSL_PARAM_set_size_t(p, blocksize))
        return 0;
    p = vgp_param(&f, VGP_PARAM_AEAD);
    if (p != NULL && !OSSL_PARAM_set_int(p, aead))
        return 0;
    p = vgp_param(&f, VGP_PARAM_CUSTOM_IV);
    if (p != NULL && !OSSL_PARAM_set_int(p, aead))
        return 0;
    p = vgp_param(&f, VGP_PARAM_CTS);
    if (p != NULL && !OSSL_PARAM_set_int(p, 0))
        return 0;
    p = vgp_param(&f, VGP_PARAM_TLS1_MULTIBLOCK);
    if (p != NULL && !OSSL_PARAM_set_int(p, 0))
        return 0;
    p = vgp_param(&f, VGP_PARAM_HAS_RAND_KEY);
    if (p != NULL && !OSSL_PARAM_set_int(p, 0))
        return 0;
    return 1;
}

/* The key of each enum vgp_param, padded with NULs to a fixed size so that vgp_param_id's final
   compare never reads past a name, whichever id it guessed. */
#define VGP_PARAM_KEY_MAX 13 /* "vg-cipher-ops" */
static const char vgp_param_names[VGP_PARAM_COUNT][VGP_PARAM_KEY_MAX + 1] = {
    [VGP_PARAM_AEAD] = OSSL_CIPHER_PARAM_AEAD,
    [VGP_PARAM_BLOCK_SIZE] = OSSL_CIPHER_PARAM_BLOCK_SIZE,
    [VGP_PARAM_BUILDINFO] = OSSL_PROV_PARAM_BUILDINFO,
    [VGP_PARAM_CIPHER_OPS] = VGP_PARAM_CIPHER_OPS_NAME,
    [VGP_PARAM_CTS] = OSSL_CIPHER_PARAM_CTS,
    [VGP_PARAM_CUSTOM_IV] = OSSL_CIPHER_PARAM_CUSTOM_IV,
    [VGP_PARAM_HAS_RAND_KEY] = OSSL_CIPHER_PARAM_HAS_RAND_KEY,
    [VGP_PARAM_IV] = OSSL_CIPHER_PARAM_IV,
    [VGP_PARAM_IVLEN] = OSSL_CIPHER_PARAM_IVLEN,
    [VGP_PARAM_KEYLEN] = OSSL_CIPHER_PARAM_KEYLEN,
    [VGP_PARAM_MODE] = OSSL_CIPHER_PARAM_MODE,
    [VGP_PARAM_NAME] = OSSL_PROV_PARAM_NAME,
    [VGP_PARAM_NUM] = OSSL_CIPHER_PARAM_NUM,
    [VGP_PARAM_PADDING] = OSSL_CIPHER_PARAM_PADDING,
    [VGP_PARAM_STATUS] = OSSL_PROV_PARAM_STATUS,
    [VGP_PARAM_TAG] = OSSL_CIPHER_PARAM_AEAD_TAG,
    [VGP_PARAM_TAGLEN] = OSSL_CIPHER_PARAM_AEAD_TAGLEN,
    [VGP_PARAM_TLS1_AAD] = OSSL_CIPHER_PARAM_AEAD_TLS1_AAD,
    [VGP_PARAM_TLS1_AAD_PAD] = OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD,
    [VGP_PARAM_TLS1_GET_IV_GEN] = OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN,
    [VGP_PARAM_TLS1_IV_FIXED] = OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED,
    [VGP_PARAM_TLS1_MULTIBLOCK] = OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK,
    [VGP_PARAM_TLS1_SET_IV_INV] = OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV,
    [VGP_PARAM_UPDATED_IV] = OSSL_CIPHER_PARAM_UPDATED_IV,
    [VGP_PARAM_VERSION] = OSSL_PROV_PARAM_VERSION,
};

/* The key's enum, or VGP_PARAM_COUNT for a key the provider does not know. The length and at most two
   characters narrow the 25 names to one candidate, and one compare confirms it (so a wrong guess here
   can only make a key unknown, never match the wrong one; the differential test asks for every key).
   The length is counted here, not by strlen: keys are short, and the call cost more than the count. */
static enum vgp_param vgp_param_id(const char *key)
{
    enum vgp_param id;
    size_t n = 0;

    while (n <= VGP_PARAM_KEY_MAX && key[n] != '\0')
        n++;
    switch (n) {
    case 2: /* iv */
        id = VGP_PARAM_IV;
        break;
    case 3: /* cts num tag */
        id = key[0] == 'c' ? VGP_PARAM_CTS : key[0] == 'n' ? VGP_PARAM_NUM : VGP_PARAM_TAG;
        break;
    case 4: /* aead mode name */
        id = key[0] == 'a' ? VGP_PARAM_AEAD : key[0] == 'm' ? VGP_PARAM_MODE : VGP_PARAM_NAME;
        break;
    case 5: /* ivlen */
        id = VGP_PARAM_IVLEN;
        break;
    case 6: /* keylen status taglen tlsaad */
        if (key[0] == 'k')
            id = VGP_PARAM_KEYLEN;
        else if (key[0] == 's')
            id = VGP_PARAM_STATUS;
        else
            id = key[1] == 'a' ? VGP_PARAM_TAGLEN : VGP_PARAM_TLS1_AAD;
        break;
    case 7: /* padding version */
        id = key[0] == 'p' ? VGP_PARAM_PADDING : VGP_PARAM_VERSION;
        break;
    case 8: /* tlsivgen tlsivinv */
        id = key[5] == 'g' ? VGP_PARAM_TLS1_GET_IV_GEN : VGP_PARAM_TLS1_SET_IV_INV;
        break;
    case 9: /* blocksize buildinfo custom-iv tls-multi tlsaadpad */
        if (key[0] == 'b')
            id = key[1] == 'l' ? VGP_PARAM_BLOCK_SIZE : VGP_PARAM_BUILDINFO;
        else if (key[0] == 'c')
            id = VGP_PARAM_CUSTOM_IV;
        else
            id = key[3] == '-' ? VGP_PARAM_TLS1_MULTIBLOCK : VGP_PARAM_TLS1_AAD_PAD;
        break;
    case 10: /* tlsivfixed updated-iv */
        id = key[0] == 'u' ? VGP_PARAM_UPDATED_IV : VGP_PARAM_TLS1_IV_FIXED;
        break;
    case 11: /* has-randkey */
        id = VGP_PARAM_HAS_RAND_KEY;
        break;
    case 13: /* vg-cipher-ops */
        id = VGP_PARAM_CIPHER_OPS;
        break;
    default:
        return VGP_PARAM_COUNT;
    }
    /* n <= VGP_PARAM_KEY_MAX: the terminating NUL is compared too, within both arrays. */
    for (size_t i = 0; i <= n; i++)
        if (key[i] != vgp_param_names[id][i])
            return VGP_PARAM_COUNT;
    return id;
}

void vgp_params_find(const OSSL_PARAM params[], struct vgp_found *f)
{
    f->found = 0;
    if (params == NULL)
        return;
    for (const OSSL_PARAM *p = params; p->key != NULL; p++) {
        enum vgp_param id = vgp_param_id(p->key);

        /* Only the first of a repeated key counts, as with OSSL_PARAM_locate. */
        if (id != VGP_PARAM_COUNT && ((f->found >> id) & 1) == 0) {
            f->found |= (uint32_t)1 << id;
            f->at[id] = (OSSL_PARAM *)p;
        }
    }
}

size_t vgp_tls1_aad(unsigned char out[VGP_TLS1_AAD_LEN], const unsigned char aad[VGP_TLS1_AAD_LEN], int enc,
                    size_t tag_len)
{
    size_t len;

    memcpy(out, aad, VGP_TLS1_AAD_LEN);
    len = (size_t)out[VGP_TLS1_AAD_LEN - 2] << 8 | out[VGP_TLS1_AAD_LEN - 1];
    if (len < VGP_TLS1_EXPLICIT_IV_LEN)
        return 0;
    len -= VGP_TLS1_EXPLICIT_IV_LEN;
    if (!enc) {
        if (len < tag_len)
            return 0;
        len -= tag_len;
    }
    out[VGP_TLS1_AAD_LEN - 2] = (unsigned char)(len >> 8);
    out[VGP_TLS1_AAD_LEN - 1] = (unsigned char)len;
    return tag_len;
}

void vgp_buf_clear(struct vgp_buf *b)
{
    if (b->p != NULL)
        OPENSSL_cleanse(b->p, b->cap);
    b->len = 0;
}

void vgp_buf_free(struct vgp_buf *b)
{
    vgp_buf_clear(b);
    free(b->p);
    b->p = NULL;
    b->cap = 0;
}

int vgp_buf_append(struct vgp_buf *b, const unsigned char *data, size_t n)
{
    size_t need = b->len + n;

    if (need < n)
        return 0;
    if (need > b->cap) {
        /* grow geometrically (AAD may come in many small updates), moving and wiping the old copy */
        size_t cap = need;
        unsigned char *np;

        if (b->cap <= SIZE_MAX / 2 && 2 * b->cap > cap)
            cap = 2 * b->cap;
        np = malloc(cap);
        if (np == NULL)
            return 0;
        if (b->len > 0)
            memcpy(np, b->p, b->len);
        if (b->p != NULL)
            OPENSSL_cleanse(b->p, b->cap);
        free(b->p);
        b->p = np;
        b->cap = cap;
    }
    if (n > 0)
        memcpy(b->p + b->len, data, n);
    b->len = need;
    return 1;
}

int vgp_buf_dup(struct vgp_buf *d, const struct vgp_buf *s)
{
    d->p = NULL;
    d->len = d->cap = 0;
    if (s->cap == 0)
        return 1;
    d->p = malloc(s->cap);
    if (d->p == NULL)
        return 0;
    d->cap = s->cap;
    if (s->len > 0)
        memcpy(d->p, s->p, s->len);
    d->len = s->len;
    return 1;
}

int vgp_random(unsigned char *out, size_t len)
{
    while (len > 0) {
        ssize_t n = getrandom(out, len, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return 0;
        }
        out += n;
        len -= (size_t)n;
    }
    return 1;
}
