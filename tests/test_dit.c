/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * test_dit.c — AArch64 data-independent timing: every public function that touches secrets runs with
 * PSTATE.DIT = 1 and gives the caller back its own DIT value.
 *
 *   enter/exit     vg_arch_secret_enter sets DIT and vg_arch_secret_exit restores 0 and 1 alike
 *   restored       for a caller with DIT = 0 and with DIT = 1, DIT is unchanged after every public
 *                  function (key set-up, ECB, CTR, streams, GCM/GCM-SIV/CCM seal and open, failed
 *                  open, wipes)
 *   inside         DIT is 1 while a call runs: a 1 ms interval timer interrupts long GCM seals, and
 *                  the signal handler reads DIT from the interrupted context (uc_mcontext.pstate bit
 *                  24, which Linux and qemu-user save on signal entry). Samples taken while the
 *                  caller's code runs (DIT = 0) must see 0; samples inside the library must include 1.
 *
 * Needs FEAT_DIT: detected as the library does (HWCAP_DIT, or ID_AA64PFR0_EL1.DIT through
 * HWCAP_CPUID); without it the program prints UNAVAILABLE and exits 77 (-cpu cortex-a57).
 * DIT is a property of the CPU, not of the implementation: both --impl runs check it, since the
 * portable implementation's code must run with DIT too.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <ucontext.h>

#include "aarch64/aarch64.h" /* white-box: vg_aarch64_features, vg_arch_secret_enter/exit */
#include "harness.h"

#define DIT_BIT (UINT64_C(1) << 24)

static void set_dit(int on)
{
    uint64_t v = on ? DIT_BIT : 0;
    __asm__ volatile("msr s3_3_c4_c2_5, %0" : : "r"(v) : "memory");
}

static int get_dit(void)
{
    uint64_t v;
    __asm__ volatile("mrs %0, s3_3_c4_c2_5" : "=r"(v));
    return (v & DIT_BIT) != 0;
}

static void test_enter_exit(void)
{
    for (int caller = 0; caller <= 1; caller++) {
        set_dit(caller);
        uint64_t token = vg_arch_secret_enter();
        CHECK(get_dit() == 1, "DIT set by vg_arch_secret_enter (caller DIT %d)", caller);
        uint64_t inner = vg_arch_secret_enter(); /* nested: a public function calling another */
        CHECK(get_dit() == 1, "nested enter keeps DIT");
        vg_arch_secret_exit(inner);
        CHECK(get_dit() == 1, "nested exit keeps the outer DIT");
        vg_arch_secret_exit(token);
        CHECK(get_dit() == caller, "vg_arch_secret_exit restores DIT %d", caller);
        CHECK(vg_arch_dit_enabled() == caller, "vg_arch_dit_enabled agrees");
    }
    set_dit(0);
}

/* Every public function with a secret, once, for a caller whose DIT is `caller`. */
static void test_restored(int caller)
{
    static vg_aes_key aes;
    static vg_aes_gcm_key gcm;
    static vg_aes_gcm_siv_key siv;
    static vg_aes_ccm_key ccm;
    static vg_aes_ctr_stream cs;
    static vg_aes_gcm_stream gs;
    uint8_t key[32], nonce[12], ctr[16], tag[16], buf[300], out[300], back[300];
    vgt_rand_bytes(key, sizeof key);
    vgt_rand_bytes(nonce, sizeof nonce);
    vgt_rand_bytes(buf, sizeof buf);
    memset(ctr, 0, sizeof ctr);
#define AFTER(what) CHECK(get_dit() == caller, "DIT %d after %s", caller, what)
    set_dit(caller);
    CHECK(vg_aes_expand_key(&aes, key, 32) == VG_OK, "vg_aes_expand_key"); AFTER("vg_aes_expand_key");
    CHECK(vg_aes_ecb_encrypt(&aes, buf, out, 16) == VG_OK, "ecb_encrypt"); AFTER("vg_aes_ecb_encrypt");
    CHECK(vg_aes_ecb_decrypt(&aes, out, back, 16) == VG_OK, "ecb_decrypt"); AFTER("vg_aes_ecb_decrypt");
    CHECK(vg_aes_ctr32(&aes, ctr, buf, out, 16) == VG_OK, "ctr32"); AFTER("vg_aes_ctr32");
    CHECK(vg_aes_ctr_stream_init(&cs, &aes, ctr) == VG_OK, "vg_aes_ctr_stream_init"); AFTER("vg_aes_ctr_stream_init");
    CHECK(vg_aes_ctr_stream_xor(&cs, buf, out, 77) == VG_OK, "vg_aes_ctr_stream_xor"); AFTER("vg_aes_ctr_stream_xor");
    vg_aes_ctr_stream_wipe(&cs); AFTER("vg_aes_ctr_stream_wipe");
    vg_aes_key_wipe(&aes); AFTER("vg_aes_key_wipe");

    CHECK(vg_aes_gcm_init(&gcm, key, 16) == VG_OK, "vg_aes_gcm_init"); AFTER("vg_aes_gcm_init");
    CHECK(vg_aes_gcm_seal(&gcm, nonce, 12, buf, 20, buf, 300, out, tag, 16) == VG_OK, "vg_aes_gcm_seal"); AFTER("vg_aes_gcm_seal");
    CHECK(vg_aes_gcm_open(&gcm, nonce, 12, buf, 20, out, 300, tag, 16, back) == VG_OK, "vg_aes_gcm_open"); AFTER("vg_aes_gcm_open");
    tag[0] ^= 1;
    CHECK(vg_aes_gcm_open(&gcm, nonce, 12, buf, 20, out, 300, tag, 16, back) == VG_ERR_AUTH, "vg_aes_gcm_open"); AFTER("vg_aes_gcm_open (forged)");
    {
        uint8_t t2[8];
        vg_aes_gcm_batch_msg m[2] = {{nonce, 12, buf, 20, buf, 64, out, tag, 16}, {nonce, 12, buf, 20, buf + 64, 100, out + 64, t2, 8}};
        int r[2];
        CHECK(vg_aes_gcm_seal_batch(&gcm, m, 2, r) == VG_OK, "vg_aes_gcm_seal_batch"); AFTER("vg_aes_gcm_seal_batch");
        m[0].in = out; m[0].out = back; m[1].in = out + 64; m[1].out = back + 64;
        CHECK(vg_aes_gcm_open_batch(&gcm, m, 2, r) == VG_OK, "vg_aes_gcm_open_batch"); AFTER("vg_aes_gcm_open_batch");
    }
    CHECK(vg_aes_gcm_stream_init(&gs, &gcm, nonce, 12) == VG_OK, "vg_aes_gcm_stream_init"); AFTER("vg_aes_gcm_stream_init");
    CHECK(vg_aes_gcm_stream_aad(&gs, buf, 20) == VG_OK, "vg_aes_gcm_stream_aad"); AFTER("vg_aes_gcm_stream_aad");
    CHECK(vg_aes_gcm_stream_encrypt(&gs, buf, 300, out) == VG_OK, "vg_aes_gcm_stream_encrypt"); AFTER("vg_aes_gcm_stream_encrypt");
    CHECK(vg_aes_gcm_stream_finish(&gs, tag, 16) == VG_OK, "vg_aes_gcm_stream_finish"); AFTER("vg_aes_gcm_stream_finish");
    CHECK(vg_aes_gcm_stream_init(&gs, &gcm, nonce, 12) == VG_OK, "vg_aes_gcm_stream_init");
    CHECK(vg_aes_gcm_stream_aad(&gs, buf, 20) == VG_OK, "vg_aes_gcm_stream_aad");
    CHECK(vg_aes_gcm_stream_decrypt(&gs, out, 300, back) == VG_OK, "vg_aes_gcm_stream_decrypt"); AFTER("vg_aes_gcm_stream_decrypt");
    CHECK(vg_aes_gcm_stream_verify(&gs, tag, 16) == VG_OK, "vg_aes_gcm_stream_verify"); AFTER("vg_aes_gcm_stream_verify");
    vg_aes_gcm_stream_wipe(&gs); AFTER("vg_aes_gcm_stream_wipe");
    vg_aes_gcm_key_wipe(&gcm); AFTER("vg_aes_gcm_key_wipe");

    CHECK(vg_aes_gcm_siv_init(&siv, key, 32) == VG_OK, "vg_aes_gcm_siv_init"); AFTER("vg_aes_gcm_siv_init");
    CHECK(vg_aes_gcm_siv_seal(&siv, nonce, 12, buf, 20, buf, 300, out, tag, 16) == VG_OK, "vg_aes_gcm_siv_seal"); AFTER("vg_aes_gcm_siv_seal");
    CHECK(vg_aes_gcm_siv_open(&siv, nonce, 12, buf, 20, out, 300, tag, 16, back) == VG_OK, "vg_aes_gcm_siv_open"); AFTER("vg_aes_gcm_siv_open");
    vg_aes_gcm_siv_key_wipe(&siv); AFTER("vg_aes_gcm_siv_key_wipe");

    CHECK(vg_aes_ccm_init(&ccm, key, 24) == VG_OK, "vg_aes_ccm_init"); AFTER("vg_aes_ccm_init");
    CHECK(vg_aes_ccm_seal(&ccm, nonce, 12, buf, 20, buf, 300, out, tag, 16) == VG_OK, "vg_aes_ccm_seal"); AFTER("vg_aes_ccm_seal");
    CHECK(vg_aes_ccm_open(&ccm, nonce, 12, buf, 20, out, 300, tag, 16, back) == VG_OK, "vg_aes_ccm_open"); AFTER("vg_aes_ccm_open");
    vg_aes_ccm_key_wipe(&ccm); AFTER("vg_aes_ccm_key_wipe");
#undef AFTER
    set_dit(0);
}

/* Signal samples of the interrupted context's DIT, split by whether the main loop was inside a
   library call. */
static volatile sig_atomic_t in_call;
static volatile unsigned long samples[2][2]; /* [in_call][dit] */

static void on_alarm(int sig, siginfo_t *info, void *context)
{
    (void)sig;
    (void)info;
    const ucontext_t *uc = (const ucontext_t *)context;
    samples[in_call ? 1 : 0][(uc->uc_mcontext.pstate & DIT_BIT) ? 1 : 0]++;
}

static void test_inside(void)
{
    static vg_aes_gcm_key gcm;
    enum { LEN = 64 * 1024 };
    uint8_t *buf = vgt_xmalloc(LEN), *out = vgt_xmalloc(LEN);
    uint8_t key[16], nonce[12], tag[16];
    vgt_rand_bytes(key, sizeof key);
    vgt_rand_bytes(nonce, sizeof nonce);
    vgt_rand_bytes(buf, LEN);
    CHECK(vg_aes_gcm_init(&gcm, key, 16) == VG_OK, "vg_aes_gcm_init");

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_alarm;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 1000}, {0, 1000}};
    setitimer(ITIMER_REAL, &it, NULL);

    set_dit(0);
    uint64_t spin = 0;
    for (int round = 0; round < 300 && samples[1][1] < 50; round++) {
        in_call = 1;
        CHECK(vg_aes_gcm_seal(&gcm, nonce, 12, NULL, 0, buf, LEN, out, tag, 16) == VG_OK, "vg_aes_gcm_seal");
        in_call = 0;
        for (int i = 0; i < 20000; i++) {
            spin += (uint64_t)i; /* caller code, DIT = 0 */
            __asm__ volatile("" : "+r"(spin));
        }
    }
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    signal(SIGALRM, SIG_DFL);

    printf("samples: caller code DIT=0 %lu DIT=1 %lu; inside calls DIT=0 %lu DIT=1 %lu\n", samples[0][0],
           samples[0][1], samples[1][0], samples[1][1]);
    CHECK(samples[1][1] > 0, "DIT seen set inside vg_aes_gcm_seal");
    CHECK(samples[1][1] > samples[1][0], "inside calls, DIT is mostly 1 (0 only at entry and exit)");
    CHECK(samples[0][1] == 0, "the caller's code never ran with the library's DIT");
    vg_aes_gcm_key_wipe(&gcm);
    free(buf);
    free(out);
}

int main(int argc, char **argv)
{
    vgt_init(argc, argv);
    if (!(vg_aarch64_features() & VG_AARCH64_DIT)) {
        printf("UNAVAILABLE: this CPU has no FEAT_DIT (neither HWCAP_DIT nor ID_AA64PFR0_EL1.DIT)\n");
        return 77;
    }
    test_enter_exit();
    test_restored(0);
    test_restored(1);
    test_inside();
    return vgt_finish();
}
