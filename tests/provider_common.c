/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>

#include "harness.h"
#include "provider_common.h"

static void die(const char *what)
{
    printf("error: %s\n", what);
    ERR_print_errors_fp(stdout);
    exit(1);
}

void vgp_open(struct vgp_test *t)
{
    const char *dir = vgt_option("modules");
    const char *info = NULL;
    OSSL_PARAM params[2];

    memset(t, 0, sizeof *t);
    if (dir == NULL)
        die("--modules DIR (where vg.so is) is required");
    t->lib = OSSL_LIB_CTX_new();
    if (t->lib == NULL || !OSSL_PROVIDER_set_default_search_path(t->lib, dir))
        die("cannot make a library context");
    t->vg = OSSL_PROVIDER_load(t->lib, "vg");
    if (t->vg == NULL)
        die("cannot load the vg provider");
    t->deflt = OSSL_PROVIDER_load(t->lib, "default");
    if (t->deflt == NULL)
        die("cannot load the default provider");
    params[0] = OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, (char **)&info, 0);
    params[1] = OSSL_PARAM_construct_end();
    if (!OSSL_PROVIDER_get_params(t->vg, params) || info == NULL)
        die("the vg provider has no buildinfo");
    printf("vg.so runs %s\n", info);
    if (strcmp(info, vgt_impl()) != 0) {
        printf("error: vg.so runs %s, the test is for %s (is VG_IMPL set?)\n", info, vgt_impl());
        exit(1);
    }
}

void vgp_close(struct vgp_test *t)
{
    OSSL_PROVIDER_unload(t->vg);
    OSSL_PROVIDER_unload(t->deflt);
    OSSL_LIB_CTX_free(t->lib);
}

uint64_t vgp_cipher_ops(OSSL_PROVIDER *vg)
{
    uint64_t n = 0;
    OSSL_PARAM params[2];

    params[0] = OSSL_PARAM_construct_uint64("vg-cipher-ops", &n);
    params[1] = OSSL_PARAM_construct_end();
    if (!OSSL_PROVIDER_get_params(vg, params))
        die("the vg provider has no vg-cipher-ops");
    return n;
}

EVP_CIPHER *vgp_fetch(struct vgp_test *t, const char *name, int from_vg)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(t->lib, name, from_vg ? "provider=vg" : "provider=default");
    if (c == NULL) {
        printf("error: cannot fetch %s from %s\n", name, from_vg ? "vg" : "default");
        ERR_print_errors_fp(stdout);
        exit(1);
    }
    return c;
}
