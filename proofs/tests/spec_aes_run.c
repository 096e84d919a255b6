/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * spec_aes_run.c — spec/aes.c on the inputs check_spec.py gives it, so that the prover's transcription
 * (proofs/sym/spec_aes.py) is checked against the spec itself. Lines "OP KEY IN [COUNTER]" (hex, IN
 * "-" when empty);
 * OP is enc, dec or ctr; prints the output (and for ctr the counter after) in hex. OP ghash or polyval
 * takes H as KEY and prints the 16-byte GHASH or POLYVAL of IN (spec/modes.c). "gcm KEY NONCE AAD IN"
 * prints GCM-AE's ciphertext and full tag (spec/modes.c spec_aes_gcm_seal); "ccm KEY NONCE AAD IN T" the
 * CCM ciphertext and T-byte tag (spec_aes_ccm_seal); "siv KEY NONCE AAD IN" the AES-GCM-SIV seal's
 * ciphertext and tag (spec_aes_gcm_siv_seal, a 12-byte nonce).
 */
#include <stdio.h>
#include <string.h>

#include "spec.h"

static size_t hex_in(const char *s, uint8_t *out, size_t max)
{
    size_t n = strlen(s) / 2;
    if (n > max) return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1) return 0;
        out[i] = (uint8_t)v;
    }
    return n;
}

static void hex_out(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
}

int main(void)
{
    static char line[8192], op[8], hk[80], hi[4096], hc[40];
    static uint8_t key[32], in[2048], out[2048], ctr[16];
    while (fgets(line, sizeof line, stdin)) {
        if (!strncmp(line, "gcm ", 4) || !strncmp(line, "siv ", 4)) {
            static char hn[520], ha[520];
            static uint8_t nonce[256], aad[256], tag[16];
            if (sscanf(line, "%7s %79s %519s %519s %4095s", op, hk, hn, ha, hi) != 5) return 2;
            size_t kl = hex_in(hk, key, sizeof key), nl = hex_in(hn, nonce, sizeof nonce);
            size_t al = strcmp(ha, "-") ? hex_in(ha, aad, sizeof aad) : 0;
            size_t n = strcmp(hi, "-") ? hex_in(hi, in, sizeof in) : 0;
            if (line[0] == 's') {
                if (nl != 12) return 2;
                spec_aes_gcm_siv_seal(key, kl, nonce, aad, al, in, n, out, tag);
            } else {
                spec_aes_gcm_seal(key, kl, nonce, nl, aad, al, in, n, out, tag);
            }
            hex_out(out, n);
            printf(" ");
            hex_out(tag, 16);
            printf("\n");
            continue;
        }
        if (!strncmp(line, "ccm ", 4)) {
            static char hn[520], ha[520];
            static uint8_t nonce[256], aad[256], tag[16];
            unsigned t;
            if (sscanf(line, "%7s %79s %519s %519s %4095s %u", op, hk, hn, ha, hi, &t) != 6 || t > 16) return 2;
            size_t kl = hex_in(hk, key, sizeof key), nl = hex_in(hn, nonce, sizeof nonce);
            size_t al = strcmp(ha, "-") ? hex_in(ha, aad, sizeof aad) : 0;
            size_t n = strcmp(hi, "-") ? hex_in(hi, in, sizeof in) : 0;
            spec_aes_ccm_seal(key, kl, nonce, nl, aad, al, in, n, out, tag, t);
            hex_out(out, n);
            printf(" ");
            hex_out(tag, t);
            printf("\n");
            continue;
        }
        int f = sscanf(line, "%7s %79s %4095s %39s", op, hk, hi, hc);
        if (f < 3) continue;
        size_t kl = hex_in(hk, key, sizeof key), n = strcmp(hi, "-") ? hex_in(hi, in, sizeof in) : 0;
        if (!strcmp(op, "enc")) spec_aes_ecb_encrypt(key, kl, in, out, n / 16);
        else if (!strcmp(op, "dec")) spec_aes_ecb_decrypt(key, kl, in, out, n / 16);
        else if (!strcmp(op, "ctr") && f == 4 && hex_in(hc, ctr, sizeof ctr) == 16)
            spec_aes_ctr32(key, kl, ctr, in, out, n / 16);
        else if (!strcmp(op, "ghash") && kl == 16) {
            spec_ghash(key, in, n / 16, out);
            n = 16;
        } else if (!strcmp(op, "polyval") && kl == 16) {
            spec_polyval(key, in, n / 16, out);
            n = 16;
        } else return 2;
        hex_out(out, n);
        if (!strcmp(op, "ctr")) {
            printf(" ");
            hex_out(ctr, 16);
        }
        printf("\n");
    }
    return 0;
}
