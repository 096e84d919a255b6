/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* AES-256-GCM-SIV (RFC 8452): like GCM, but a repeated nonce does not break it. Sealing the same
   message twice under the same nonce gives the same ciphertext, so a repeat reveals only that the
   two messages were equal. Choose it when you cannot promise unique nonces (keys shared by many
   machines, random nonces from a doubtful source, restored snapshots). */
#include <stdio.h>
#include <string.h>
#include <sys/random.h> /* getrandom: Linux (glibc 2.25+, musl) */
#include <vg.h>

static int fail(vg_aes_gcm_siv_key *key, const char *why)
{
    fprintf(stderr, "error: %s\n", why);
    vg_aes_gcm_siv_key_wipe(key);
    return 1;
}

int main(void)
{
    static const uint8_t msg[] = "the launch code is 0000";
    static const uint8_t aad[] = "record 7";
    uint8_t key_bytes[32], nonce[VG_AES_GCM_SIV_NONCE_SIZE];
    uint8_t ct[sizeof msg], ct2[sizeof msg], tag[VG_AES_GCM_SIV_TAG_SIZE], tag2[VG_AES_GCM_SIV_TAG_SIZE];
    uint8_t out[sizeof msg];
    vg_aes_gcm_siv_key key;

    /* Still use a fresh random nonce per message: misuse resistance is the safety net, not the plan. */
    if (getrandom(key_bytes, sizeof key_bytes, 0) != (ssize_t)sizeof key_bytes ||
        getrandom(nonce, sizeof nonce, 0) != (ssize_t)sizeof nonce) {
        perror("getrandom");
        return 1;
    }
    int rc = vg_aes_gcm_siv_init(&key, key_bytes, sizeof key_bytes);
    if (rc != VG_OK) return fail(&key, vg_strerror(rc));

    rc = vg_aes_gcm_siv_seal(&key, nonce, sizeof nonce, aad, sizeof aad, msg, sizeof msg, ct, tag, sizeof tag);
    if (rc != VG_OK) return fail(&key, vg_strerror(rc));
    rc = vg_aes_gcm_siv_open(&key, nonce, sizeof nonce, aad, sizeof aad, ct, sizeof ct, tag, sizeof tag, out);
    if (rc != VG_OK) return fail(&key, vg_strerror(rc));
    if (memcmp(out, msg, sizeof msg) != 0) return fail(&key, "opened text differs from the message");
    printf("opened: %s\n", (const char *)out);

    /* The nonce misused: the same message under the same nonce seals to the same bytes. */
    rc = vg_aes_gcm_siv_seal(&key, nonce, sizeof nonce, aad, sizeof aad, msg, sizeof msg, ct2, tag2, sizeof tag2);
    if (rc != VG_OK) return fail(&key, vg_strerror(rc));
    if (memcmp(ct, ct2, sizeof ct) != 0 || memcmp(tag, tag2, sizeof tag) != 0)
        return fail(&key, "GCM-SIV is deterministic, but two seals differ");
    printf("sealed twice under one nonce: identical output, nothing else revealed\n");

    tag[15] ^= 0x80; /* a forger's guess */
    rc = vg_aes_gcm_siv_open(&key, nonce, sizeof nonce, aad, sizeof aad, ct, sizeof ct, tag, sizeof tag, out);
    if (rc != VG_ERR_AUTH) return fail(&key, "a tampered tag was not refused");
    printf("tampered tag: %s\n", vg_strerror(rc));

    vg_aes_gcm_siv_key_wipe(&key);
    return 0;
}
