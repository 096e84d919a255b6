/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* provider.vectors_aes: vectors_aes.c, unchanged, with vg's AES key and ECB calls renamed to
   provider_ecb_shim.c's, which run them through EVP's AES-*-ECB from vg.so. */
#include "provider_ecb_shim.h"
#include "vectors_aes.c"
