/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * provider-floor.c — what `openssl speed -evp AES-128-GCM -bytes N` asks of vg per message, done
 * through vg's C API alone, next to the one-shot seal: the floor under the provider's figure (a
 * benchmark, not a test; docs/openssl-provider.md). Per message `openssl speed` sets the key again,
 * then the IV, passes 13 bytes of AAD, the data, and finishes; the provider maps that onto
 * vg_aes_gcm_init and a stream. Times four cases alternately in one process (thread CPU time,
 * median of 15 rounds):
 *   one-shot seal; one-shot seal with 13 B of AAD; key set-up + stream (init, AAD, data, finish);
 *   the stream without the key set-up.
 *
 *   cc -O2 -Iinclude -Ibench bench/tls/provider-floor.c build/libvg.a -o provider-floor && ./provider-floor [N]
 * (VG_IMPL picks the implementation.)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"
#include "vg.h"

static vg_aes_gcm_key key_state;
static vg_aes_gcm_stream stream;
static const uint8_t key[16] = { 1 }, nonce[12] = { 2 }, aad[13] = { 3 };
static uint8_t *buf, tag[16];
static size_t len;

static int one(int mode)
{
    int rc = VG_OK;
    if (mode == 0) return vg_aes_gcm_seal(&key_state, nonce, 12, NULL, 0, buf, len, buf, tag, 16);
    if (mode == 1) return vg_aes_gcm_seal(&key_state, nonce, 12, aad, sizeof aad, buf, len, buf, tag, 16);
    if (mode == 2) rc |= vg_aes_gcm_init(&key_state, key, sizeof key);
    rc |= vg_aes_gcm_stream_init(&stream, &key_state, nonce, 12);
    rc |= vg_aes_gcm_stream_aad(&stream, aad, sizeof aad);
    rc |= vg_aes_gcm_stream_encrypt(&stream, buf, len, buf);
    rc |= vg_aes_gcm_stream_finish(&stream, tag, 16);
    return rc;
}

static double now(void) { return bench_seconds(CLOCK_THREAD_CPUTIME_ID); }

int main(int argc, char **argv)
{
    enum { ROUNDS = 15, MODES = 4 };
    static const char *names[MODES] = { "one-shot seal", "one-shot seal, 13 B AAD",
                                        "key set-up + stream (init, 13 B AAD, data, finish)",
                                        "stream without the key set-up" };
    static double t[MODES][ROUNDS];
    len = argc > 1 ? strtoul(argv[1], NULL, 0) : 16384;
    buf = aligned_alloc(64, len + 64);
    if (len == 0 || buf == NULL || vg_aes_gcm_init(&key_state, key, sizeof key) != VG_OK) return 1;
    memset(buf, 3, len);
    int reps = (int)(100000000 / (len + 200)) + 1;
    for (int r = 0; r < ROUNDS; r++)
        for (int m = 0; m < MODES; m++) {
            double t0 = now();
            for (int i = 0; i < reps; i++)
                if (one(m) != VG_OK) return 1;
            t[m][r] = (now() - t0) / reps;
        }
    printf("AES-128-GCM, %zu bytes, %s\n", len, vg_impl_name());
    double base = 0;
    for (int m = 0; m < MODES; m++) {
        double med = bench_median(t[m], ROUNDS);
        if (m == 0) base = med;
        printf("%-52s %8.1f ns  %6.2f GB/s  %5.1f%% of the one-shot seal\n", names[m], med * 1e9,
               (double)len / med / 1e9, 100 * base / med);
    }
    return 0;
}
