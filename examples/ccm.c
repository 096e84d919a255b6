/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/* AES-128-CCM (SP 800-38C, RFC 3610), as in many radio and IoT protocols. The nonce length n
   (7 to 13 bytes) sets the longest message: 2^(8 * (15 - n)) - 1 bytes, so a 13-byte nonce allows
   64 KiB - 1 and a 12-byte one 16 MiB - 1. Tags may be 4 to 16 bytes (even); short tags are weak. */
#include <stdio.h>
#include <string.h>
#include <sys/random.h> /* getrandom: Linux (glibc 2.25+, musl) */
#include <vg.h>

static int fail(vg_aes_ccm_key *key, const char *why)
{
    fprintf(stderr, "error: %s\n", why);
    vg_aes_ccm_key_wipe(key);
    return 1;
}

int main(void)
{
    static const uint8_t reading[] = "temperature=21.5C";
    static const uint8_t header[] = {0x01, 0x42}; /* device id: authenticated, not encrypted */
    uint8_t key_bytes[16], nonce[12];
    uint8_t ct[sizeof reading], tag[VG_AES_CCM_TAG_MAX_SIZE], out[sizeof reading];
    vg_aes_ccm_key key;

    /* As with GCM, a (key, nonce) pair must never seal two messages. Protocols usually build the
       nonce from a sender id and a message counter; random bytes are used here for brevity. */
    if (getrandom(key_bytes, sizeof key_bytes, 0) != (ssize_t)sizeof key_bytes ||
        getrandom(nonce, sizeof nonce, 0) != (ssize_t)sizeof nonce) {
        perror("getrandom");
        return 1;
    }
    int rc = vg_aes_ccm_init(&key, key_bytes, sizeof key_bytes);
    if (rc != VG_OK) return fail(&key, vg_strerror(rc));

    rc = vg_aes_ccm_seal(&key, nonce, sizeof nonce, header, sizeof header, reading, sizeof reading, ct, tag,
                         sizeof tag);
    if (rc != VG_OK) return fail(&key, vg_strerror(rc));
    rc = vg_aes_ccm_open(&key, nonce, sizeof nonce, header, sizeof header, ct, sizeof ct, tag, sizeof tag, out);
    if (rc != VG_OK) return fail(&key, vg_strerror(rc));
    if (memcmp(out, reading, sizeof reading) != 0) return fail(&key, "opened text differs from the message");
    printf("opened: %s\n", (const char *)out);

    /* A tag length CCM does not define is refused before anything is written. */
    rc = vg_aes_ccm_seal(&key, nonce, sizeof nonce, header, sizeof header, reading, sizeof reading, ct, tag, 5);
    if (rc != VG_ERR_TAG_LENGTH) return fail(&key, "a 5-byte tag was accepted");
    printf("5-byte tag: %s\n", vg_strerror(rc));

    tag[0] ^= 0x01; /* a forger's guess */
    rc = vg_aes_ccm_open(&key, nonce, sizeof nonce, header, sizeof header, ct, sizeof ct, tag, sizeof tag, out);
    if (rc != VG_ERR_AUTH) return fail(&key, "a tampered tag was not refused");
    printf("tampered tag: %s\n", vg_strerror(rc));

    vg_aes_ccm_key_wipe(&key);
    return 0;
}
