/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * speed.h — what vg-speed's driver (vg-speed.c) and its participants (peer_vg.c, peer_openssl.c,
 * peer_bearssl.c, peer_ipsecmb.c, and peer_evp_aead.c for the optional BoringSSL and AWS-LC binaries)
 * share.
 *
 * A *row* is one operation on one key size ("aes128-gcm-seal"); a *cell* is a row at one message size.
 * For each cell the driver asks every participant (vg once per implementation measured, then each
 * peer that has the operation) to set up its keys, checks that all of them produce the same bytes, and
 * then times them in alternation. A participant knows how to do the operation; the driver knows
 * nothing about any library, it only times run().
 */
#ifndef VG_SPEED_H
#define VG_SPEED_H

#include <stddef.h>
#include <stdint.h>

enum speed_alg { SPEED_AES, SPEED_GCM, SPEED_GCM_SIV, SPEED_CCM };
enum speed_op {
    SPEED_KEYSETUP, /* time: one key set-up; check: encrypt one block (AES) or seal 16 bytes (AEADs) */
    SPEED_ECB_ENC,
    SPEED_ECB_DEC,  /* check: "decrypt" the random input; the outputs must agree */
    SPEED_CTR,      /* 32-bit big-endian counter in the last 4 bytes of the counter block */
    SPEED_SEAL,     /* out = ciphertext, tag = 16-byte tag */
    SPEED_OPEN      /* in = job->ct and job->tag (a valid pair); out = plaintext */
};

struct speed_row {
    const char *name;  /* "aes128-gcm-seal": what --filter matches */
    const char *group; /* "AES-GCM": rows of one group are printed under one heading */
    enum speed_alg alg;
    enum speed_op op;
    size_t key_len;    /* bytes */
    size_t aad_len;    /* bytes of AAD per message (13: a TLS record header); 0 for none */
    size_t chunk;      /* SEAL/OPEN: 0 for the one-shot call; else the message goes through the
                          library's streaming interface in updates of this many bytes (the last one
                          shorter) */
    const size_t *sizes; /* the row's own message sizes (0-terminated), used unless --sizes is given;
                            NULL: the default list */
    size_t batch;        /* SEAL/OPEN: 0 for one call per message; else vg seals or opens this many
                            messages (each the job's, into its own output) per vg_aes_gcm_*_batch
                            call, and every participant's time is per message */
};

/* The fixed inputs of one cell, shared read-only by every participant. */
struct speed_job {
    const struct speed_row *row;
    size_t len;               /* message bytes; for SPEED_KEYSETUP the length the check seals (16) */
    const uint8_t *key;       /* row->key_len bytes */
    const uint8_t *nonce;     /* nonce_len bytes: 12 for GCM and GCM-SIV, 13 for CCM */
    size_t nonce_len;
    const uint8_t *aad;       /* row->aad_len bytes (NULL when 0), for every AEAD operation */
    size_t aad_len;
    const uint8_t *counter;   /* 16 bytes: the initial counter block for CTR and the AES key check */
    const uint8_t *pt;        /* len bytes: the input of every operation except open */
    const uint8_t *ct;        /* len bytes and a 16-byte tag: a valid sealed message, for open */
    const uint8_t *tag;
};

#define SPEED_TAG_LEN 16
#define SPEED_GCM_NONCE_LEN 12
#define SPEED_CCM_NONCE_LEN 13

/*
 * One library under test. Every function that returns int returns 0 on success and anything else
 * on failure (an error from the library, a rejected tag, a failed allocation).
 */
struct speed_peer {
    const char *name;    /* "vg", "OpenSSL", "BearSSL", "ipsec-mb", "BoringSSL", "AWS-LC" */
    const char *key;     /* JSON key: "vg", "openssl", "bearssl", "ipsecmb", "boringssl", "awslc" */
    /* Whether the library has this row at all; if not, *why says so in a short phrase
       ("no ECB API"). */
    int (*supports)(const struct speed_row *row, const char **why);
    /* Optional (NULL: every cell of a supported row): whether the library can do this cell, for
       limits that depend on the message (a CCM variant whose length field holds 65535 bytes at
       most). A cell it cannot do has no column for this peer ("-"). */
    int (*supports_job)(const struct speed_job *job);
    /* Sets up keys and contexts for the job (impl: which vg implementation; NULL for peers).
       Returns NULL on failure. Nothing here is timed. */
    void *(*open)(const struct speed_job *job, const char *impl);
    /* Does the operation once on the job's input for the correctness check, from the job's initial
       state (CTR restarts at job->counter), writing len bytes to out (16 for an AES key check) and,
       for AEAD seals, 16 bytes to tag. For SPEED_KEYSETUP: sets up the key the timed way, then uses it. */
    int (*compute)(void *state, uint8_t *out, uint8_t *tag);
    /* The timed loop: the operation `iterations` times, as a user who reuses keys and contexts
       would. CTR continues its stream from call to call; the AEADs seal or open the same message
       with the same nonce each time (harmless here: the output is thrown away). */
    int (*run)(void *state, uint64_t iterations);
    void (*close)(void *state);
    /* One line about the library and its version, for the header. */
    const char *(*describe)(void);
    /* One line on the code path the library takes for AES-GCM on this CPU and how that was
       determined, or NULL if the peer has nothing to add. */
    const char *(*gcm_path)(void);
};

extern const struct speed_peer speed_peer_vg;
extern const struct speed_peer speed_peer_vg_single; /* vg one call per message: the batch rows' baseline */
#ifdef VG_SPEED_HAVE_OPENSSL
extern const struct speed_peer speed_peer_openssl;
#endif
#ifdef VG_SPEED_HAVE_BEARSSL
extern const struct speed_peer speed_peer_bearssl;
#endif
#ifdef VG_SPEED_HAVE_IPSECMB
extern const struct speed_peer speed_peer_ipsecmb;
#endif
/* The optional peer binaries (vg-speed-boringssl, vg-speed-awslc): vg-speed.c compiled again with
   one of these and no other peer, since a second libcrypto cannot share a process with the first. */
#ifdef VG_SPEED_PEER_BORINGSSL
extern const struct speed_peer speed_peer_boringssl;
#endif
#ifdef VG_SPEED_PEER_AWSLC
extern const struct speed_peer speed_peer_awslc;
#endif

/* Whether this CPU has a feature, by the name Linux gives it in /proc/cpuinfo ("aes", "vaes",
   "avx512f"; "pmull" on AArch64): 1 yes, 0 no, -1 unknown (no /proc/cpuinfo). Set by the driver
   before any peer describes itself. */
int speed_cpu_has(const char *flag);

/* Big-endian 32-bit load, for counters. */
static inline uint32_t speed_load32_be(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

#endif /* VG_SPEED_H */
