/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * provider_common.h — what the provider tests share: a library context with vg.so and OpenSSL's
 * default provider loaded side by side, and a check that the vg inside vg.so runs the implementation
 * under test.
 *
 * The module has its own copy of vg (linked statically), which picks its implementation from VG_IMPL
 * (ctest sets it per test, next to --impl for the test program's copy). vgp_open checks the module
 * reports the same implementation (provider parameter "buildinfo") and fails the run otherwise.
 * Options: --modules DIR (where vg.so is).
 */
#ifndef VG_TEST_PROVIDER_COMMON_H
#define VG_TEST_PROVIDER_COMMON_H

#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/provider.h>

struct vgp_test {
    OSSL_LIB_CTX *lib;
    OSSL_PROVIDER *vg, *deflt;
};

/* Loads vg and default into a new library context; exits 1 (after printing why) if it cannot. */
void vgp_open(struct vgp_test *t);
void vgp_close(struct vgp_test *t);
/* The provider's "vg-cipher-ops" counter. */
uint64_t vgp_cipher_ops(OSSL_PROVIDER *vg);
/* Fetches name from vg ("provider=vg") or default ("provider=default"); exits if it cannot. */
EVP_CIPHER *vgp_fetch(struct vgp_test *t, const char *name, int from_vg);

#endif
