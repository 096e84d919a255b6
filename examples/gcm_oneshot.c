/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* AES-256-GCM in one shot: seal a message, open it, and see a tampered tag refused. */
#include <stdio.h>
#include <string.h>
#include <sys/random.h> /* getrandom: Linux (glibc 2.25+, musl) */
#include <vg.h>

static int fail(vg_aes_gcm_key *key, const char *why)
{
    fprintf(stderr, "error: %s\n", why);
    vg_aes_gcm_key_wipe(key);
    return 1;
}

int main(void)
{
    static const uint8_t msg[] = "attack at dawn";
    static const uint8_t aad[] = "to: HQ"; /* authenticated, sent in the clear */
    uint8_t key_bytes[32], nonce[VG_AES_GCM_NONCE_SIZE];
    uint8_t ct[sizeof msg], tag[VG_AES_GCM_TAG_SIZE], out[sizeof msg];
    vg_aes_gcm_key key;

    /* A nonce must never repeat under one key: a repeat reveals the XOR of the two messages and lets
       anyone forge tags. 12 random bytes per message are safe for up to 2^32 messages per key; a
       message counter (never reset while the key lives) is safe for any number. The key is random
       here too; a real one comes from a key exchange or a key store. */
    if (getrandom(key_bytes, sizeof key_bytes, 0) != (ssize_t)sizeof key_bytes ||
        getrandom(nonce, sizeof nonce, 0) != (ssize_t)sizeof nonce) {
        perror("getrandom");
        return 1;
    }
    int rc = vg_aes_gcm_init(&key, key_bytes, sizeof key_bytes);
    if (rc != VG_OK) return fail(&key, vg_strerror(rc));

    rc = vg_aes_gcm_seal(&key, nonce, sizeof nonce, aad, sizeof aad, msg, sizeof msg, ct, tag, sizeof tag);
    if (rc != VG_OK) return fail(&key, vg_strerror(rc));
    /* Send nonce, aad, ct and tag. The receiver, holding the same key: */
    rc = vg_aes_gcm_open(&key, nonce, sizeof nonce, aad, sizeof aad, ct, sizeof ct, tag, sizeof tag, out);
    if (rc != VG_OK) return fail(&key, vg_strerror(rc));
    if (memcmp(out, msg, sizeof msg) != 0) return fail(&key, "opened text differs from the message");
    printf("opened: %s\n", (const char *)out);

    tag[0] ^= 1; /* a forger's guess */
    rc = vg_aes_gcm_open(&key, nonce, sizeof nonce, aad, sizeof aad, ct, sizeof ct, tag, sizeof tag, out);
    if (rc != VG_ERR_AUTH) return fail(&key, "a tampered tag was not refused");
    printf("tampered tag: %s; out is now all zeros\n", vg_strerror(rc));

    vg_aes_gcm_key_wipe(&key);
    return 0;
}
