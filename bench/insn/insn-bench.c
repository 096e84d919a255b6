/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * insn-bench.c — the operations whose executed instructions bench/insn/{ppc64le,aarch64}-insn.sh count
 * under qemu (tools/qemu-insn-count), ours and OpenSSL 3.0's own ppc64le or arm64 libcrypto in the same
 * process. One program for both architectures: only the bare key schedules differ (#if below).
 *
 * Each operation runs once unmarked (warm-up: lazy binding, OpenSSL's capability probe and context
 * set-up), then once between insn_begin() and insn_end(). The first pair is empty: the markers' own
 * overhead, which the script subtracts. One line "op <index> <label> <blocks>" per marked pair tells
 * the script what pair <index> measured and by how many 16-byte blocks to divide (0: per call).
 * A benchmark, not a test: it checks only that every call succeeded.
 *
 * Build (the scripts do it): <cross-gcc> -O2 -static insn-bench.c libvg.a -lcrypto
 * The key schedules are also counted bare: vg's kernel (hidden in libvg.so, but an ordinary symbol of
 * the static archive) against OpenSSL's assembly schedule.
 */
#include <openssl/aes.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vg.h"

#if defined(__aarch64__)
/* OpenSSL's ARMv8 key schedule (crypto/aes/asm/aesv8-armx.pl), exported by libcrypto.a but declared
   only in its internal headers. */
int aes_v8_set_encrypt_key(const unsigned char *user_key, const int bits, AES_KEY *key);
#define OSSL_SET_KEY aes_v8_set_encrypt_key
#define OSSL_SET_KEY_NAME "aes_v8_set_encrypt_key"
/* vg's armv8 kernel (src/aarch64/aarch64.h). */
int vg_armv8_aes_expand_key(void *sched, const uint8_t *key, size_t key_len, int want_decrypt);
#define VG_SET_KEY vg_armv8_aes_expand_key
#define VG_SET_KEY_NAME "vg_armv8_aes_expand_key"
#elif defined(__powerpc64__)
/* OpenSSL's POWER8 key schedule (crypto/aes/asm/aesp8-ppc.pl), exported by libcrypto.a but declared
   only in its internal headers. */
int aes_p8_set_encrypt_key(const unsigned char *user_key, const int bits, AES_KEY *key);
#define OSSL_SET_KEY aes_p8_set_encrypt_key
#define OSSL_SET_KEY_NAME "aes_p8_set_encrypt_key"
/* vg's power8 kernel (src/ppc64le/ppc64le.h). */
int vg_power8_aes_expand_key(void *sched, const uint8_t *key, size_t key_len, int want_decrypt);
/* called through a pointer, as the library does: the kernels address their constants from r12,
   which ELFv2 sets for an indirect call only (src/ppc64le/power8_aes.c) */
static int (*volatile vg_power8_kernel)(void *, const uint8_t *, size_t, int) = vg_power8_aes_expand_key;
#define VG_SET_KEY vg_power8_kernel
#define VG_SET_KEY_NAME "vg_power8_aes_expand_key"
/* and the power9 variant (ISA 3.0 loads), for the bare count under -cpu power9 */
int vg_power9_aes_expand_key(void *sched, const uint8_t *key, size_t key_len, int want_decrypt);
static int (*volatile vg_power9_kernel)(void *, const uint8_t *, size_t, int) = vg_power9_aes_expand_key;
#define VG_SET_KEY_2 vg_power9_kernel
#else
#error "insn-bench.c counts the ppc64le and aarch64 implementations"
#endif
static unsigned char sched[2048] __attribute__((aligned(64)));

__attribute__((noinline)) void insn_begin(void) { __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) void insn_end(void) { __asm__ volatile("" ::: "memory"); }

#define BIG 16384
static uint8_t key[32], nonce[12], counter[16], msg[BIG], out[BIG + 16], back[BIG], tag[16];
static vg_aes_key aes_key;
static vg_aes_gcm_key gcm_key;
static vg_aes_gcm_siv_key siv_key;
static vg_aes_ccm_key ccm_key;
static AES_KEY ossl_key;
static int pairs, failures;

static void fail(const char *what)
{
    fprintf(stderr, "insn-bench: %s failed\n", what);
    failures++;
}

/* Runs body twice, the second time marked, and names the pair. */
#define MEASURE(label, blocks, body)                                      \
    do {                                                                  \
        body;                                                             \
        insn_begin();                                                     \
        body;                                                             \
        insn_end();                                                       \
        printf("op %d %s %d\n", pairs++, (label), (int)(blocks));         \
    } while (0)

/* OpenSSL GCM as an application does it: new IV on a keyed context, (AAD,) data, final, tag. */
static void ossl_gcm_seal(EVP_CIPHER_CTX *c, const uint8_t *in, int len, uint8_t *o)
{
    int n = 0;
    if (!EVP_EncryptInit_ex(c, NULL, NULL, NULL, nonce) || !EVP_EncryptUpdate(c, o, &n, in, len) ||
        !EVP_EncryptFinal_ex(c, o + n, &n) || !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, tag))
        fail("EVP gcm seal");
}
static void ossl_gcm_open(EVP_CIPHER_CTX *c, const uint8_t *in, int len, uint8_t *o)
{
    int n = 0;
    if (!EVP_DecryptInit_ex(c, NULL, NULL, NULL, nonce) || !EVP_DecryptUpdate(c, o, &n, in, len) ||
        !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, 16, tag) || !EVP_DecryptFinal_ex(c, o + n, &n))
        fail("EVP gcm open");
}
static void ossl_gcm_seal_aad(EVP_CIPHER_CTX *c, const uint8_t *aad, int aad_len, const uint8_t *in, int len,
                              uint8_t *o)
{
    int n = 0;
    if (!EVP_EncryptInit_ex(c, NULL, NULL, NULL, nonce) || !EVP_EncryptUpdate(c, NULL, &n, aad, aad_len) ||
        !EVP_EncryptUpdate(c, o, &n, in, len) || !EVP_EncryptFinal_ex(c, o + n, &n) ||
        !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, tag))
        fail("EVP gcm seal (aad)");
}
static void ossl_gcm_open_aad(EVP_CIPHER_CTX *c, const uint8_t *aad, int aad_len, const uint8_t *in, int len,
                              uint8_t *o)
{
    int n = 0;
    if (!EVP_DecryptInit_ex(c, NULL, NULL, NULL, nonce) || !EVP_DecryptUpdate(c, NULL, &n, aad, aad_len) ||
        !EVP_DecryptUpdate(c, o, &n, in, len) || !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, 16, tag) ||
        !EVP_DecryptFinal_ex(c, o + n, &n))
        fail("EVP gcm open (aad)");
}
static void ossl_ccm_seal(EVP_CIPHER_CTX *c, const uint8_t *in, int len, uint8_t *o)
{
    int n = 0;
    if (!EVP_EncryptInit_ex(c, NULL, NULL, NULL, nonce) || !EVP_EncryptUpdate(c, NULL, &n, NULL, len) ||
        !EVP_EncryptUpdate(c, o, &n, in, len) || !EVP_EncryptFinal_ex(c, o + n, &n) ||
        !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_CCM_GET_TAG, 16, tag))
        fail("EVP ccm seal");
}

int main(int argc, char **argv)
{
    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t)(i * 7 + 1);
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 13);
    memset(nonce, 0xa5, sizeof nonce);
    /* "keysched N R": each bare key schedule called R times for an N-byte key and nothing else. The
       counter's per-function count (-f) of a run with R = 2 minus that of R = 1 is one steady-state
       call's own instructions (a first call may pay one-time work, e.g. armv8's feature probe),
       without the caller's argument set-up: the "asm only" measure of OpenSSL's schedule in
       tools/qemu-insn-count/README.md. */
    if (argc == 4 && strcmp(argv[1], "keysched") == 0) {
        int len = atoi(argv[2]), reps = atoi(argv[3]);
        /* the library's one-time set-up (implementation choice, armv8's EOR3/DIT probe, which also
           picks the variant of the schedule the kernel dispatches to), as in the marked runs */
        if (vg_aes_expand_key(&aes_key, key, (size_t)len)) fail("vg key");
        for (int r = 0; r < reps; r++) {
            VG_SET_KEY(sched, key, (size_t)len, 0);
#if defined(VG_SET_KEY_2)
            VG_SET_KEY_2(sched, key, (size_t)len, 0);
#endif
            if (OSSL_SET_KEY(key, 8 * len, &ossl_key) != 0) fail("openssl key schedule");
        }
        return failures != 0;
    }
    printf("impl %s\n", vg_impl_name());

    MEASURE("markers", 0, (void)0);

    /* ---- ours ---- */
    MEASURE("vg aes256 key expansion", 0, if (vg_aes_expand_key(&aes_key, key, 32)) fail("key256"));
    MEASURE("vg aes128 key expansion", 0, if (vg_aes_expand_key(&aes_key, key, 16)) fail("key128"));
    MEASURE("vg aes128 key schedule (" VG_SET_KEY_NAME ")", 0, VG_SET_KEY(sched, key, 16, 0));
    MEASURE("vg aes256 key schedule (" VG_SET_KEY_NAME ")", 0, VG_SET_KEY(sched, key, 32, 0));
    MEASURE("vg aes128 ecb encrypt 16KiB", 1024, if (vg_aes_ecb_encrypt(&aes_key, msg, out, 1024)) fail("ecb"));
    MEASURE("vg aes128 ecb decrypt 16KiB", 1024, if (vg_aes_ecb_decrypt(&aes_key, msg, out, 1024)) fail("ecb"));
    MEASURE("vg aes128 ctr32 16KiB", 1024, if (vg_aes_ctr32(&aes_key, counter, msg, out, 1024)) fail("ctr"));
    if (vg_aes_gcm_init(&gcm_key, key, 16)) fail("gcm init");
    MEASURE("vg aes128 gcm key setup", 0, if (vg_aes_gcm_init(&gcm_key, key, 16)) fail("gcm init"));
    MEASURE("vg aes128 gcm seal 16KiB", 1024,
            if (vg_aes_gcm_seal(&gcm_key, nonce, 12, NULL, 0, msg, BIG, out, tag, 16)) fail("gcm seal"));
    MEASURE("vg aes128 gcm open 16KiB", 1024,
            if (vg_aes_gcm_open(&gcm_key, nonce, 12, NULL, 0, out, BIG, tag, 16, back)) fail("gcm open"));
    MEASURE("vg aes128 gcm seal 64B", 0,
            if (vg_aes_gcm_seal(&gcm_key, nonce, 12, NULL, 0, msg, 64, out, tag, 16)) fail("gcm seal"));
    MEASURE("vg aes128 gcm open 64B", 0,
            if (vg_aes_gcm_open(&gcm_key, nonce, 12, NULL, 0, out, 64, tag, 16, back)) fail("gcm open"));
    MEASURE("vg aes128 gcm seal 192B", 0,
            if (vg_aes_gcm_seal(&gcm_key, nonce, 12, NULL, 0, msg, 192, out, tag, 16)) fail("gcm seal"));
    MEASURE("vg aes128 gcm open 192B", 0,
            if (vg_aes_gcm_open(&gcm_key, nonce, 12, NULL, 0, out, 192, tag, 16, back)) fail("gcm open"));
    /* Every key size at 16 KiB with a 13-byte AAD (a TLS record's), and AES-256's short seal. */
    static const uint8_t aad13[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
    static const size_t key_lens[3] = {16, 24, 32};
    static const char *const seal_labels[3] = {"vg aes128 gcm seal 16KiB aad13", "vg aes192 gcm seal 16KiB aad13",
                                               "vg aes256 gcm seal 16KiB aad13"};
    static const char *const open_labels[3] = {"vg aes128 gcm open 16KiB aad13", "vg aes192 gcm open 16KiB aad13",
                                               "vg aes256 gcm open 16KiB aad13"};
    for (int k = 0; k < 3; k++) {
        if (vg_aes_gcm_init(&gcm_key, key, key_lens[k])) fail("gcm init");
        MEASURE(seal_labels[k], 1024,
                if (vg_aes_gcm_seal(&gcm_key, nonce, 12, aad13, 13, msg, BIG, out, tag, 16)) fail("gcm seal"));
        MEASURE(open_labels[k], 1024,
                if (vg_aes_gcm_open(&gcm_key, nonce, 12, aad13, 13, out, BIG, tag, 16, back)) fail("gcm open"));
    }
    MEASURE("vg aes256 gcm seal 64B", 0,
            if (vg_aes_gcm_seal(&gcm_key, nonce, 12, NULL, 0, msg, 64, out, tag, 16)) fail("gcm seal"));
    MEASURE("vg aes256 gcm open 64B", 0,
            if (vg_aes_gcm_open(&gcm_key, nonce, 12, NULL, 0, out, 64, tag, 16, back)) fail("gcm open"));
    /* The whole public key set-up calls (what a per-message key costs an application). */
    MEASURE("vg aes128 ccm init, public call", 0, if (vg_aes_ccm_init(&ccm_key, key, 16)) fail("ccm init"));
    MEASURE("vg aes256 ccm init, public call", 0, if (vg_aes_ccm_init(&ccm_key, key, 32)) fail("ccm init"));
    MEASURE("vg aes128 gcm-siv init, public call", 0, if (vg_aes_gcm_siv_init(&siv_key, key, 16)) fail("siv init"));
    MEASURE("vg aes256 gcm-siv init, public call", 0, if (vg_aes_gcm_siv_init(&siv_key, key, 32)) fail("siv init"));
    MEASURE("vg aes256 gcm key setup", 0, if (vg_aes_gcm_init(&gcm_key, key, 32)) fail("gcm init"));
    if (vg_aes_gcm_init(&gcm_key, key, 16)) fail("gcm init");
    if (vg_aes_gcm_siv_init(&siv_key, key, 16)) fail("siv init");
    MEASURE("vg aes128 gcm-siv seal 64B", 0,
            if (vg_aes_gcm_siv_seal(&siv_key, nonce, 12, NULL, 0, msg, 64, out, tag, 16)) fail("siv seal"));
    MEASURE("vg aes128 gcm-siv seal 1KiB", 64,
            if (vg_aes_gcm_siv_seal(&siv_key, nonce, 12, NULL, 0, msg, 1024, out, tag, 16)) fail("siv seal"));
    MEASURE("vg aes128 gcm-siv open 1KiB", 64,
            if (vg_aes_gcm_siv_open(&siv_key, nonce, 12, NULL, 0, out, 1024, tag, 16, back)) fail("siv open"));
    if (vg_aes_ccm_init(&ccm_key, key, 16)) fail("ccm init");
    MEASURE("vg aes128 ccm seal 1KiB", 64,
            if (vg_aes_ccm_seal(&ccm_key, nonce, 12, NULL, 0, msg, 1024, out, tag, 16)) fail("ccm seal"));
    MEASURE("vg aes128 ccm open 1KiB", 64,
            if (vg_aes_ccm_open(&ccm_key, nonce, 12, NULL, 0, out, 1024, tag, 16, back)) fail("ccm open"));

    /* ---- OpenSSL ---- */
    MEASURE("openssl aes128 key schedule (" OSSL_SET_KEY_NAME ")", 0,
            if (OSSL_SET_KEY(key, 128, &ossl_key)) fail("asm key128"));
    MEASURE("openssl aes256 key schedule (" OSSL_SET_KEY_NAME ")", 0,
            if (OSSL_SET_KEY(key, 256, &ossl_key)) fail("asm key256"));
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int n = 0;
    if (!c || !EVP_EncryptInit_ex(c, EVP_aes_128_ecb(), NULL, key, NULL)) fail("EVP ecb init");
    EVP_CIPHER_CTX_set_padding(c, 0);
    MEASURE("openssl aes128 ecb encrypt 16KiB", 1024, if (!EVP_EncryptUpdate(c, out, &n, msg, BIG)) fail("ecb"));
    if (!EVP_EncryptInit_ex(c, EVP_aes_128_ctr(), NULL, key, counter)) fail("EVP ctr init");
    MEASURE("openssl aes128 ctr 16KiB", 1024, if (!EVP_EncryptUpdate(c, out, &n, msg, BIG)) fail("ctr"));
    if (!EVP_EncryptInit_ex(c, EVP_aes_128_gcm(), NULL, key, nonce)) fail("EVP gcm init");
    MEASURE("openssl aes128 gcm key setup", 0,
            if (!EVP_EncryptInit_ex(c, NULL, NULL, key, NULL)) fail("gcm key"));
    MEASURE("openssl aes128 gcm seal 16KiB", 1024, ossl_gcm_seal(c, msg, BIG, out));
    MEASURE("openssl aes128 gcm seal 64B", 0, ossl_gcm_seal(c, msg, 64, out));
    MEASURE("openssl aes128 gcm seal 192B", 0, ossl_gcm_seal(c, msg, 192, out));
    EVP_CIPHER_CTX *d = EVP_CIPHER_CTX_new();
    if (!d || !EVP_DecryptInit_ex(d, EVP_aes_128_gcm(), NULL, key, nonce)) fail("EVP gcm init");
    ossl_gcm_seal(c, msg, BIG, out);
    MEASURE("openssl aes128 gcm open 16KiB", 1024, ossl_gcm_open(d, out, BIG, back));
    ossl_gcm_seal(c, msg, 64, out);
    MEASURE("openssl aes128 gcm open 64B", 0, ossl_gcm_open(d, out, 64, back));
    /* AES-256-GCM at 16 KiB with a 13-byte AAD, as the vg rows above. */
    if (!EVP_EncryptInit_ex(c, EVP_aes_256_gcm(), NULL, key, nonce) ||
        !EVP_DecryptInit_ex(d, EVP_aes_256_gcm(), NULL, key, nonce))
        fail("EVP gcm-256 init");
    MEASURE("openssl aes256 gcm seal 16KiB aad13", 1024, ossl_gcm_seal_aad(c, aad13, 13, msg, BIG, out));
    MEASURE("openssl aes256 gcm open 16KiB aad13", 1024, ossl_gcm_open_aad(d, aad13, 13, out, BIG, back));
    if (!EVP_EncryptInit_ex(c, EVP_aes_128_ccm(), NULL, NULL, NULL) ||
        !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) ||
        !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, NULL) || !EVP_EncryptInit_ex(c, NULL, NULL, key, NULL))
        fail("EVP ccm init");
    MEASURE("openssl aes128 ccm seal 1KiB", 64, ossl_ccm_seal(c, msg, 1024, out));
    EVP_CIPHER_CTX_free(c);
    EVP_CIPHER_CTX_free(d);
    return failures ? 1 : 0;
}
