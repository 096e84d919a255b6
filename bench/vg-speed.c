/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * vg-speed — every algorithm of include/vg.h next to its peers (OpenSSL's libcrypto through EVP,
 * BearSSL's constant-time code, Intel's ipsec-mb where it is installed), in the same process, on the
 * same buffers.
 *
 * Method, for each cell (one row at one message size):
 *   1. every participant (vg once per implementation measured, then each peer that has the row) sets
 *      up its keys and contexts outside the timing, as a user who reuses them would;
 *   2. correctness, once: every participant does the operation on the same input and must produce
 *      the same bytes (ciphertext and tag; an open must accept the tag and return the plaintext).
 *      Any difference prints MISMATCH and the program exits 1. Times are never asserted;
 *   3. each participant is calibrated once to an iteration count that lasts about --ms milliseconds;
 *   4. --rounds rounds, the participants alternating within each round (vg, OpenSSL, BearSSL, vg, ...),
 *      so a slow phase of the machine (another process, a frequency change) hits all of them alike;
 *      each round is timed with CLOCK_MONOTONIC;
 *   5. each participant's median time per operation gives its figure: ns per call for key set-ups and
 *      messages of 64 bytes or less (what a short message costs is the call), GB/s (10^9 bytes per
 *      second) above that; ratio = the peer's time / vg's time (above 1: vg is faster).
 *
 * Output: a table (default), JSON (--json) and/or CSV (--csv FILE), the last two with the same fields
 * per cell. The header names the CPU and the features the AES code depends on, each peer's version
 * and, for OpenSSL, the AES-GCM code path it takes here (derived, see peer_openssl.c), and warns when
 * VG_IMPL was set but not honoured.
 *
 * The same file, compiled again with VG_SPEED_PEER_BORINGSSL or VG_SPEED_PEER_AWSLC and
 * peer_evp_aead.c, makes the optional vg-speed-boringssl and vg-speed-awslc (bench/CMakeLists.txt,
 * VG_SPEED_PEERS): vg next to that one library, by the same method, since two libcryptos cannot share
 * a process.
 *
 * Exit status: 0 success, 1 a correctness failure (MISMATCH or an operation that failed during the
 * check), 2 a usage error or an operation that failed while timed.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#if defined(__linux__)
#include <sys/auxv.h>
#endif
#include <time.h>
#include <unistd.h>

#include "speed.h"
#include "timing.h"
#include "vg.h"

#ifndef VG_SPEED_VERSION
#define VG_SPEED_VERSION "unknown"
#endif
#ifndef VG_SPEED_BUILD_TYPE
#define VG_SPEED_BUILD_TYPE "unknown"
#endif

/* ---------------------------------------------------------------------------------------------- */
/* What is measured                                                                                */

/* The TLS rows' sizes: short records, a 576-byte datagram, a full-MTU packet's payload (1350), the
   largest TLS record. The streaming rows': one TLS record's worth and 1 MiB (out of L2). */
static const size_t tls_sizes[] = {16, 64, 576, 1350, 16384, 0};
static const size_t stream_sizes[] = {16384, 1048576, 0};
#define TLS_AAD_LEN 13 /* TLS 1.2's additional data: sequence number, type, version, length */
/* The packet rows: one QUIC packet (1200 bytes, QUIC's smallest datagram size, RFC 9000 section 14;
   its 32-byte long header as AAD) and one TLS record that fills a 1500-byte MTU (1350 bytes, 13 of
   AAD). */
static const size_t quic_sizes[] = {1200, 0};
static const size_t tls_record_sizes[] = {1350, 0};
#define QUIC_AAD_LEN 32
/* The batch rows': 16 messages a call, short ones (where the two-message kernel applies, up to 96
   bytes on vaes256, and past it) and QUIC packets. */
static const size_t batch_sizes[] = {16, 64, 96, 128, 256, 0};
#define MAX_AAD_LEN 32

static const struct speed_row rows[] = {
    {"aes128-keysetup", "AES key set-up", SPEED_AES, SPEED_KEYSETUP, 16, 0, 0, NULL, 0},
    {"aes192-keysetup", "AES key set-up", SPEED_AES, SPEED_KEYSETUP, 24, 0, 0, NULL, 0},
    {"aes256-keysetup", "AES key set-up", SPEED_AES, SPEED_KEYSETUP, 32, 0, 0, NULL, 0},
    {"aes128-ecb-enc", "AES-ECB", SPEED_AES, SPEED_ECB_ENC, 16, 0, 0, NULL, 0},
    {"aes192-ecb-enc", "AES-ECB", SPEED_AES, SPEED_ECB_ENC, 24, 0, 0, NULL, 0},
    {"aes256-ecb-enc", "AES-ECB", SPEED_AES, SPEED_ECB_ENC, 32, 0, 0, NULL, 0},
    {"aes128-ecb-dec", "AES-ECB", SPEED_AES, SPEED_ECB_DEC, 16, 0, 0, NULL, 0},
    {"aes192-ecb-dec", "AES-ECB", SPEED_AES, SPEED_ECB_DEC, 24, 0, 0, NULL, 0},
    {"aes256-ecb-dec", "AES-ECB", SPEED_AES, SPEED_ECB_DEC, 32, 0, 0, NULL, 0},
    {"aes128-ctr", "AES-CTR", SPEED_AES, SPEED_CTR, 16, 0, 0, NULL, 0},
    {"aes192-ctr", "AES-CTR", SPEED_AES, SPEED_CTR, 24, 0, 0, NULL, 0},
    {"aes256-ctr", "AES-CTR", SPEED_AES, SPEED_CTR, 32, 0, 0, NULL, 0},
    {"aes128-gcm-keysetup", "AES-GCM", SPEED_GCM, SPEED_KEYSETUP, 16, 0, 0, NULL, 0},
    {"aes192-gcm-keysetup", "AES-GCM", SPEED_GCM, SPEED_KEYSETUP, 24, 0, 0, NULL, 0},
    {"aes256-gcm-keysetup", "AES-GCM", SPEED_GCM, SPEED_KEYSETUP, 32, 0, 0, NULL, 0},
    {"aes128-gcm-seal", "AES-GCM", SPEED_GCM, SPEED_SEAL, 16, 0, 0, NULL, 0},
    {"aes128-gcm-open", "AES-GCM", SPEED_GCM, SPEED_OPEN, 16, 0, 0, NULL, 0},
    {"aes192-gcm-seal", "AES-GCM", SPEED_GCM, SPEED_SEAL, 24, 0, 0, NULL, 0},
    {"aes192-gcm-open", "AES-GCM", SPEED_GCM, SPEED_OPEN, 24, 0, 0, NULL, 0},
    {"aes256-gcm-seal", "AES-GCM", SPEED_GCM, SPEED_SEAL, 32, 0, 0, NULL, 0},
    {"aes256-gcm-open", "AES-GCM", SPEED_GCM, SPEED_OPEN, 32, 0, 0, NULL, 0},
    {"aes128-gcm-aad13-seal", "AES-GCM, TLS", SPEED_GCM, SPEED_SEAL, 16, TLS_AAD_LEN, 0, tls_sizes, 0},
    {"aes128-gcm-aad13-open", "AES-GCM, TLS", SPEED_GCM, SPEED_OPEN, 16, TLS_AAD_LEN, 0, tls_sizes, 0},
    {"aes256-gcm-aad13-seal", "AES-GCM, TLS", SPEED_GCM, SPEED_SEAL, 32, TLS_AAD_LEN, 0, tls_sizes, 0},
    {"aes256-gcm-aad13-open", "AES-GCM, TLS", SPEED_GCM, SPEED_OPEN, 32, TLS_AAD_LEN, 0, tls_sizes, 0},
    {"aes128-gcm-quic1200-seal", "AES-GCM, packets", SPEED_GCM, SPEED_SEAL, 16, QUIC_AAD_LEN, 0, quic_sizes, 0},
    {"aes128-gcm-quic1200-open", "AES-GCM, packets", SPEED_GCM, SPEED_OPEN, 16, QUIC_AAD_LEN, 0, quic_sizes, 0},
    {"aes256-gcm-quic1200-seal", "AES-GCM, packets", SPEED_GCM, SPEED_SEAL, 32, QUIC_AAD_LEN, 0, quic_sizes, 0},
    {"aes256-gcm-quic1200-open", "AES-GCM, packets", SPEED_GCM, SPEED_OPEN, 32, QUIC_AAD_LEN, 0, quic_sizes, 0},
    {"aes128-gcm-tls1350-seal", "AES-GCM, packets", SPEED_GCM, SPEED_SEAL, 16, TLS_AAD_LEN, 0, tls_record_sizes, 0},
    {"aes128-gcm-tls1350-open", "AES-GCM, packets", SPEED_GCM, SPEED_OPEN, 16, TLS_AAD_LEN, 0, tls_record_sizes, 0},
    {"aes256-gcm-tls1350-seal", "AES-GCM, packets", SPEED_GCM, SPEED_SEAL, 32, TLS_AAD_LEN, 0, tls_record_sizes, 0},
    {"aes256-gcm-tls1350-open", "AES-GCM, packets", SPEED_GCM, SPEED_OPEN, 32, TLS_AAD_LEN, 0, tls_record_sizes, 0},
    {"aes128-gcm-stream1k-seal", "AES-GCM streaming", SPEED_GCM, SPEED_SEAL, 16, 0, 1024, stream_sizes, 0},
    {"aes128-gcm-stream1k-open", "AES-GCM streaming", SPEED_GCM, SPEED_OPEN, 16, 0, 1024, stream_sizes, 0},
    {"aes128-gcm-stream16k-seal", "AES-GCM streaming", SPEED_GCM, SPEED_SEAL, 16, 0, 16384, stream_sizes, 0},
    {"aes128-gcm-stream16k-open", "AES-GCM streaming", SPEED_GCM, SPEED_OPEN, 16, 0, 16384, stream_sizes, 0},
    {"aes256-gcm-stream1k-seal", "AES-GCM streaming", SPEED_GCM, SPEED_SEAL, 32, 0, 1024, stream_sizes, 0},
    {"aes256-gcm-stream1k-open", "AES-GCM streaming", SPEED_GCM, SPEED_OPEN, 32, 0, 1024, stream_sizes, 0},
    {"aes256-gcm-stream16k-seal", "AES-GCM streaming", SPEED_GCM, SPEED_SEAL, 32, 0, 16384, stream_sizes, 0},
    {"aes256-gcm-stream16k-open", "AES-GCM streaming", SPEED_GCM, SPEED_OPEN, 32, 0, 16384, stream_sizes, 0},
    {"aes128-gcm-siv-keysetup", "AES-GCM-SIV", SPEED_GCM_SIV, SPEED_KEYSETUP, 16, 0, 0, NULL, 0},
    {"aes256-gcm-siv-keysetup", "AES-GCM-SIV", SPEED_GCM_SIV, SPEED_KEYSETUP, 32, 0, 0, NULL, 0},
    {"aes128-gcm-siv-seal", "AES-GCM-SIV", SPEED_GCM_SIV, SPEED_SEAL, 16, 0, 0, NULL, 0},
    {"aes128-gcm-siv-open", "AES-GCM-SIV", SPEED_GCM_SIV, SPEED_OPEN, 16, 0, 0, NULL, 0},
    {"aes256-gcm-siv-seal", "AES-GCM-SIV", SPEED_GCM_SIV, SPEED_SEAL, 32, 0, 0, NULL, 0},
    {"aes256-gcm-siv-open", "AES-GCM-SIV", SPEED_GCM_SIV, SPEED_OPEN, 32, 0, 0, NULL, 0},
    {"aes128-ccm-keysetup", "AES-CCM", SPEED_CCM, SPEED_KEYSETUP, 16, 0, 0, NULL, 0},
    {"aes256-ccm-keysetup", "AES-CCM", SPEED_CCM, SPEED_KEYSETUP, 32, 0, 0, NULL, 0},
    {"aes128-ccm-seal", "AES-CCM", SPEED_CCM, SPEED_SEAL, 16, 0, 0, NULL, 0},
    {"aes128-ccm-open", "AES-CCM", SPEED_CCM, SPEED_OPEN, 16, 0, 0, NULL, 0},
    {"aes192-ccm-seal", "AES-CCM", SPEED_CCM, SPEED_SEAL, 24, 0, 0, NULL, 0},
    {"aes192-ccm-open", "AES-CCM", SPEED_CCM, SPEED_OPEN, 24, 0, 0, NULL, 0},
    {"aes256-ccm-seal", "AES-CCM", SPEED_CCM, SPEED_SEAL, 32, 0, 0, NULL, 0},
    {"aes256-ccm-open", "AES-CCM", SPEED_CCM, SPEED_OPEN, 32, 0, 0, NULL, 0},
    {"aes128-gcm-batch16-seal", "AES-GCM, batches", SPEED_GCM, SPEED_SEAL, 16, 0, 0, batch_sizes, 16},
    {"aes128-gcm-batch16-open", "AES-GCM, batches", SPEED_GCM, SPEED_OPEN, 16, 0, 0, batch_sizes, 16},
    {"aes128-gcm-quic1200-batch16-seal", "AES-GCM, batches", SPEED_GCM, SPEED_SEAL, 16, QUIC_AAD_LEN, 0, quic_sizes, 16},
    {"aes128-gcm-quic1200-batch16-open", "AES-GCM, batches", SPEED_GCM, SPEED_OPEN, 16, QUIC_AAD_LEN, 0, quic_sizes, 16},
};
#define NROWS (sizeof rows / sizeof rows[0])

/* What each group's heading says about its rows' parameters. */
static const struct {
    const char *group;
    const char *about;
} groups[] = {
    {"AES key set-up", "ns per key (lower is better); vg and ipsec-mb make encryption and decryption "
                       "round keys, OpenSSL and BearSSL encryption keys only"},
    {"AES-ECB", "whole blocks, out of place"},
    {"AES-CTR", "vg_aes_ctr32 (32-bit counter); each call goes on with the stream"},
    {"AES-GCM", "12-byte nonce, 16-byte tag, no AAD; key set-up includes the GHASH key"},
    {"AES-GCM, TLS", "a TLS 1.2 record: 12-byte nonce, 13 bytes of AAD, 16-byte tag; bytes and GB/s count "
                     "the message, not the AAD"},
    {"AES-GCM, packets", "one packet per call, 12-byte nonce, 16-byte tag: quic1200 = a QUIC packet, 1200 bytes "
                         "with a 32-byte header as AAD; tls1350 = a TLS record filling a 1500-byte MTU, 1350 bytes "
                         "with 13 bytes of AAD; bytes and GB/s count the message, not the AAD"},
    {"AES-GCM, batches", "vg_aes_gcm_seal_batch / _open_batch, 16 messages a call, each the row's message "
                         "(12-byte nonce, 16-byte tag; quic1200: 32 bytes of AAD) into its own output, in ns or "
                         "GB/s per message; every peer, and vg1 (vg's best implementation, one call per "
                         "message), makes one call per message"},
    {"AES-GCM streaming", "vg_aes_gcm_stream_* next to EVP_*Update, br_gcm_run and ipsec-mb's "
                          "GCM_*_UPDATE, the message in 1 KiB (stream1k) or 16 KiB (stream16k) updates; "
                          "12-byte nonce, 16-byte tag, no AAD"},
    {"AES-GCM-SIV", "12-byte nonce, 16-byte tag, no AAD; key set-up is the key-generating key's"},
    {"AES-CCM", "13-byte nonce, 16-byte tag, no AAD"},
};

/* The peers compiled in, in the order they run after vg. */
static const struct speed_peer *const peers[] = {
#ifdef VG_SPEED_HAVE_OPENSSL
    &speed_peer_openssl,
#endif
#ifdef VG_SPEED_HAVE_BEARSSL
    &speed_peer_bearssl,
#endif
#ifdef VG_SPEED_HAVE_IPSECMB
    &speed_peer_ipsecmb,
#endif
#ifdef VG_SPEED_PEER_BORINGSSL
    &speed_peer_boringssl,
#endif
#ifdef VG_SPEED_PEER_AWSLC
    &speed_peer_awslc,
#endif
    &speed_peer_vg_single,
    NULL,
};
#if defined(VG_SPEED_PEER_BORINGSSL) || defined(VG_SPEED_PEER_AWSLC)
#if defined(VG_SPEED_HAVE_OPENSSL) || defined(VG_SPEED_HAVE_BEARSSL) || \
    (defined(VG_SPEED_PEER_BORINGSSL) && defined(VG_SPEED_PEER_AWSLC))
#error "a peer binary links vg and one libcrypto only: their symbols collide"
#endif
#define VG_SPEED_PEER_BINARY 1
#ifdef VG_SPEED_PEER_BORINGSSL
#define VG_SPEED_PEERS_TEXT "BoringSSL (this build's only peer)"
#else
#define VG_SPEED_PEERS_TEXT "AWS-LC (this build's only peer)"
#endif
#elif defined(VG_SPEED_HAVE_IPSECMB)
#define VG_SPEED_PEERS_TEXT "OpenSSL, BearSSL and Intel's ipsec-mb"
#else
#define VG_SPEED_PEERS_TEXT "OpenSSL and BearSSL"
#endif
#define MAX_PEERS 4 /* three libraries and vg1 */

/* The sizes on x86-64 (the machine the targets are set on): short messages, the packet
   sizes, bulk, and 1 MiB (out of L1 and L2 per pass); elsewhere (qemu, slow machines) the short list. */
#if defined(__x86_64__)
static const size_t default_sizes[] = {16, 64, 256, 1024, 8192, 16384, 1048576};
#define DEFAULT_SIZES_TEXT "16,64,256,1k,8k,16k,1M"
#else
static const size_t default_sizes[] = {16, 64, 1024, 16384};
#define DEFAULT_SIZES_TEXT "16,64,1024,16384"
#endif
#define MAX_SIZES 32
#define MAX_SIZE ((size_t)64 << 20)
#define MAX_IMPLS 16
#define MAX_PARTICIPANTS (MAX_IMPLS + MAX_PEERS)
#define MAX_ROUNDS 99

/* The message sizes a row runs at: its own list unless --sizes was given. Returns how many. */
static size_t row_sizes(const struct speed_row *row, const size_t **sizes);

/* ---------------------------------------------------------------------------------------------- */
/* Options                                                                                         */

static struct {
    size_t sizes[MAX_SIZES];
    size_t nsizes;
    int sizes_given; /* --sizes: these sizes for every row, the TLS and streaming rows included */
    int rounds;
    double seconds_per_round;
    int json;
    int table;       /* the human-readable table on stdout: neither --json nor --csv - */
    FILE *csv;       /* --csv: one line per cell; NULL without it */
    int cpu_time; /* time with the thread's CPU clock instead of CLOCK_MONOTONIC */
    int no_limit; /* skip the machine-limit microbenchmark */
    const char *filter;
    const char *impls[MAX_IMPLS];
    size_t nimpls;
} opt;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: vg-speed [options]\n"
            "Times every algorithm of vg next to " VG_SPEED_PEERS_TEXT " in one process; prints medians.\n"
            "  --sizes LIST   message sizes in bytes, comma-separated (k and M suffixes: x1024);\n"
            "                 default " DEFAULT_SIZES_TEXT ", except the aad13 (TLS) rows: 16,64,576,1350,\n"
            "                 16k, the streaming rows: 16k,1M, and the packet rows: 1200 (quic1200) and\n"
            "                 1350 (tls1350) (--sizes applies to every row)\n"
            "  --rounds N     rounds per cell, participants alternating in each (default 7)\n"
            "  --ms N         milliseconds each participant runs per round (default 8)\n"
            "  --quick        smoke run: 3 rounds of 2 ms (a few seconds in all)\n"
            "  --filter LIST  only rows whose name contains one of these comma-separated strings\n"
            "                 (e.g. gcm, ccm-seal, aes256). An entry starting with '=' must equal a\n"
            "                 row's whole name: --filter =aes128-gcm-seal,=aes128-gcm-open is those\n"
            "                 two rows only, where aes128-gcm also selects the GCM-SIV, TLS and\n"
            "                 streaming rows of AES-128. --list shows the names\n"
            "  --impl NAME    vg implementation(s) to measure: a name, a comma-separated list, or\n"
            "                 'all' (every one this CPU runs); default: the one in use (VG_IMPL)\n"
            "  --cpu-time     time with the thread's CPU-time clock instead of CLOCK_MONOTONIC: on a\n"
            "                 busy machine it leaves out the time other processes hold the CPU\n"
            "  --json         the same results as a JSON array, one object per line\n"
            "  --csv FILE     also write the results as CSV to FILE: a header row, then one line per\n"
            "                 cell with the fields of the JSON results; FILE '-' is stdout, in place of\n"
            "                 the table (not with --json)\n"
            "  --no-limit     skip the machine-limit microbenchmark (x86-64: independent vaesenc and\n"
            "                 vpclmulqdq per second, turned into each row's bound)\n"
            "  --list         list the rows and the implementations, then exit\n"
            "  --help         this text\n"
            "Columns: messages of 64 bytes or less and key set-ups are in ns per call (lower is better),\n"
            "longer ones in GB/s (10^9 bytes/s, higher is better); vg/PEER = PEER's time / vg's time\n"
            "(above 1: vg is faster). 'of limit' (x86-64) = vg's speed as a percentage of the fastest any\n"
            "code could do that row on this machine, a bound measured at start-up: the issue rate of 12\n"
            "independent vaesenc and vpclmulqdq of the widest width the CPU runs (zmm, ymm or xmm)\n"
            "gives AES blocks/s (ECB, CTR), the two mixed as a stitched loop mixes them (each vector's\n"
            "rounds and 3 products) for GCM, both one after the other for GCM-SIV, and the latency of\n"
            "a dependent aesenc chain for CCM's CBC-MAC.\n"
            "It ignores loads, stores, key set-up and per-call costs, so short messages sit far below it.\n"
            "Exit status: 0 done; 1 MISMATCH (vg and a peer disagree) or a failed operation; 2 usage.\n");
}

static int parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno) return -1;
    if (*end == 'k' || *end == 'K') {
        v *= 1024;
        end++;
    } else if (*end == 'm' || *end == 'M') {
        v *= 1024 * 1024;
        end++;
    }
    if (*end == 'i' && end[1] == 'B') end += 2; /* "16KiB" */
    if ((*end != '\0' && *end != ',') || v == 0 || v > MAX_SIZE) return -1;
    *out = (size_t)v;
    return 0;
}

static int parse_sizes(const char *list)
{
    opt.nsizes = 0;
    const char *p = list;
    for (;;) {
        if (opt.nsizes == MAX_SIZES || parse_size(p, &opt.sizes[opt.nsizes]) != 0) return -1;
        opt.nsizes++;
        p = strchr(p, ',');
        if (!p) return 0;
        p++;
    }
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi) return -1;
    *out = (int)v;
    return 0;
}

/* Whether row name contains one of the comma-separated strings of filter, or equals one of those
   that start with '='. */
static int row_selected(const char *name)
{
    if (!opt.filter) return 1;
    const char *p = opt.filter;
    while (*p) {
        size_t n = strcspn(p, ",");
        if (*p == '=') {
            if (n - 1 == strlen(name) && strncmp(name, p + 1, n - 1) == 0) return 1;
        } else {
            for (const char *q = name; n && strlen(q) >= n; q++)
                if (strncmp(q, p, n) == 0) return 1;
        }
        p += n;
        if (*p == ',') p++;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* The header                                                                                      */

static char cpu_model[256];
static char machine[sizeof ((struct utsname *)0)->machine + 1];
static char date[64];
static double load_average = -1; /* 1-minute, from /proc/loadavg; -1 if unknown */
static long online_cpus = -1;
static const char *available[MAX_IMPLS];
static size_t navailable;

/* The CPU's feature words as Linux lists them: /proc/cpuinfo's "flags" (x86) or "Features" (32-bit
   Arm), or on AArch64 and POWER the names of the AT_HWCAP / AT_HWCAP2 bits that matter (getauxval). */
static char cpu_flags[4096];
static int cpu_flags_known;

/* The features each architecture's AES and GHASH/POLYVAL code depends on, named as in cpu_flags. */
#if defined(__x86_64__) || defined(__i386__)
static const char *const relevant_flags[] = {"aes",     "pclmulqdq", "vaes",     "vpclmulqdq", "avx",  "avx2",
                                             "movbe",   "avx512f",   "avx512bw", "avx512dq",   "avx512vl"};
#elif defined(__aarch64__) || defined(__arm__)
static const char *const relevant_flags[] = {"asimd", "aes", "pmull", "dit", "sve", "sve2"};
#elif defined(__powerpc64__)
static const char *const relevant_flags[] = {"altivec", "vsx", "arch_2_07", "vcrypto", "arch_3_00", "arch_3_1"};
#else
static const char *const relevant_flags[] = {"(none known)"};
#endif
#define NRELEVANT (sizeof relevant_flags / sizeof relevant_flags[0])

int speed_cpu_has(const char *flag)
{
    if (!cpu_flags_known) return -1;
    size_t n = strlen(flag);
    for (const char *p = cpu_flags; *p;) {
        p += strspn(p, " \t");
        size_t w = strcspn(p, " \t");
        if (w == n && strncmp(p, flag, n) == 0) return 1;
        p += w;
    }
    return 0;
}

/* The value of a "key : value" line of /proc/cpuinfo whose key is exactly key, or NULL. */
static const char *cpuinfo_value(char *line, const char *key)
{
    size_t n = strlen(key);
    if (strncmp(line, key, n) != 0) return NULL;
    const char *v = line + n;
    while (*v == ' ' || *v == '\t') v++;
    if (*v != ':') return NULL;
    v++;
    while (*v == ' ' || *v == '\t') v++;
    line[strcspn(line, "\r\n")] = '\0';
    return v;
}

static void read_cpu_model(void)
{
    struct utsname u;
    snprintf(machine, sizeof machine, "%s", uname(&u) == 0 ? u.machine : "unknown");
    cpu_model[0] = '\0';
    char implementer[32] = "", part[32] = "", family[16] = "", model[16] = "";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[8192];
        int have_flags = 0;
        while (fgets(line, sizeof line, f)) {
            const char *v;
            /* "cpu" is POWER's model line, "Features" Arm's flags. */
            if (!cpu_model[0] && ((v = cpuinfo_value(line, "model name")) || (v = cpuinfo_value(line, "cpu"))))
                snprintf(cpu_model, sizeof cpu_model, "%s", v);
            else if (!have_flags &&
                     ((v = cpuinfo_value(line, "flags")) || (v = cpuinfo_value(line, "Features")))) {
                snprintf(cpu_flags, sizeof cpu_flags, "%s", v);
                have_flags = cpu_flags_known = 1;
            } else if (!implementer[0] && (v = cpuinfo_value(line, "CPU implementer")))
                snprintf(implementer, sizeof implementer, "%s", v);
            else if (!part[0] && (v = cpuinfo_value(line, "CPU part")))
                snprintf(part, sizeof part, "%s", v);
            else if (!family[0] && (v = cpuinfo_value(line, "cpu family")))
                snprintf(family, sizeof family, "%s", v);
            else if (!model[0] && (v = cpuinfo_value(line, "model")))
                snprintf(model, sizeof model, "%s", v);
        }
        fclose(f);
    }
    /* Arm's /proc/cpuinfo has no model name: the implementer and part numbers say which core it is. */
    if (!cpu_model[0] && implementer[0])
        snprintf(cpu_model, sizeof cpu_model, "CPU implementer %s, part %s", implementer, part);
    /* x86: a virtual machine's model name can be as short as "AMD EPYC"; family and model say which
       generation (AMD family 26 is Zen 5). */
    if (cpu_model[0] && family[0]) {
        size_t n = strlen(cpu_model);
        snprintf(cpu_model + n, sizeof cpu_model - n, ", family %s model %s", family, model);
    }
#if defined(__aarch64__) && defined(__linux__)
    {
        /* The kernel's AT_HWCAP / AT_HWCAP2 bits rather than /proc/cpuinfo's Features: under qemu-user
           (how the AArch64 build is tested here) /proc/cpuinfo is the host's, the hwcaps the guest's. */
        unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
        snprintf(cpu_flags, sizeof cpu_flags, "%s%s%s%s%s%s", hw & (1UL << 1) ? "asimd " : "",
                 hw & (1UL << 3) ? "aes " : "", hw & (1UL << 4) ? "pmull " : "", hw & (1UL << 24) ? "dit " : "",
                 hw & (1UL << 22) ? "sve " : "", hw2 & (1UL << 1) ? "sve2 " : "");
        cpu_flags_known = 1;
    }
#endif
#if defined(__powerpc64__) && defined(__linux__)
    {
        /* POWER's /proc/cpuinfo lists no features: name the AT_HWCAP / AT_HWCAP2 bits ourselves. */
        unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
        snprintf(cpu_flags, sizeof cpu_flags, "%s%s%s%s%s%s", hw & 0x10000000UL ? "altivec " : "",
                 hw & 0x00000080UL ? "vsx " : "", hw2 & 0x80000000UL ? "arch_2_07 " : "",
                 hw2 & 0x02000000UL ? "vcrypto " : "", hw2 & 0x00800000UL ? "arch_3_00 " : "",
                 hw2 & 0x00040000UL ? "arch_3_1 " : "");
        cpu_flags_known = 1;
    }
#endif
}

/* "aes pclmulqdq ... (absent: vaes)" for the header. */
static const char *relevant_flags_text(void)
{
    static char buf[512];
    if (!cpu_flags_known) return "unknown (no CPU feature list in /proc/cpuinfo)";
    char present[256] = "", absent[256] = "";
    for (size_t i = 0; i < NRELEVANT; i++) {
        char *list = speed_cpu_has(relevant_flags[i]) == 1 ? present : absent;
        size_t n = strlen(list);
        snprintf(list + n, 256 - n, "%s%s", n ? " " : "", relevant_flags[i]);
    }
    snprintf(buf, sizeof buf, "%s%s%s%s", present[0] ? present : "none", absent[0] ? " (absent: " : "",
             absent, absent[0] ? ")" : "");
    return buf;
}

/* How busy the machine is: the numbers of a run that shares its CPUs say less. */
static void read_load(void)
{
#ifdef _SC_NPROCESSORS_ONLN
    online_cpus = sysconf(_SC_NPROCESSORS_ONLN);
#endif
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f) return;
    if (fscanf(f, "%lf", &load_average) != 1) load_average = -1;
    fclose(f);
}

static const char *compiler(void)
{
    static char buf[128];
#if defined(__clang__)
    snprintf(buf, sizeof buf, "clang %s", __clang_version__);
#elif defined(__GNUC__)
    snprintf(buf, sizeof buf, "gcc %s", __VERSION__);
#else
    snprintf(buf, sizeof buf, "unknown compiler");
#endif
    /* __clang_version__ ends with a space (or " (git sha)" in some builds). */
    size_t n = strlen(buf);
    while (n && buf[n - 1] == ' ') buf[--n] = '\0';
    return buf;
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20) printf("\\u%04x", c);
        else putchar(c);
    }
    putchar('"');
}

static void json_string_list(const char *const *list, size_t n)
{
    putchar('[');
    for (size_t i = 0; i < n; i++) {
        if (i) putchar(',');
        json_string(list[i]);
    }
    putchar(']');
}

/* VG_IMPL named an implementation this build does not know or this CPU cannot run: vg ignored it. */
static const char *impl_env_warning(void)
{
    static char buf[256];
    if (vg_impl_env_status() == VG_OK) return NULL;
    const char *v = getenv("VG_IMPL");
    snprintf(buf, sizeof buf,
             "VG_IMPL=%.64s was not honoured (unknown, or not available on this CPU): vg selected %s instead",
             v ? v : "?", vg_impl_name());
    return buf;
}

static void print_header(void)
{
    const char *not_built[3] = {NULL, NULL, NULL};
    size_t nnot = 0;
#ifdef VG_SPEED_PEER_BINARY
    /* Not a missing package: a second libcrypto cannot share this process. */
    not_built[nnot++] = "OpenSSL, BearSSL, ipsec-mb: in vg-speed (this binary is vg next to one libcrypto only)";
#else
#ifndef VG_SPEED_HAVE_OPENSSL
    not_built[nnot++] = "OpenSSL: not built in (install libssl-dev)";
#endif
#ifndef VG_SPEED_HAVE_BEARSSL
    not_built[nnot++] = "BearSSL: not built in (install libbearssl-dev)";
#endif
#if defined(__x86_64__) && !defined(VG_SPEED_HAVE_IPSECMB)
    not_built[nnot++] = "ipsec-mb: not built in (install libipsec-mb-dev)";
#endif
#endif
    const char *env_warning = impl_env_warning();
    if (env_warning && !opt.table) fprintf(stderr, "vg-speed: WARNING: %s\n", env_warning);
    if (opt.json) {
        printf("[\n{\"type\":\"header\",\"vg_version\":");
        json_string(VG_SPEED_VERSION);
        printf(",\"vg_library_version\":");
        json_string(vg_version());
        printf(",\"build_type\":");
        json_string(VG_SPEED_BUILD_TYPE);
        printf(",\"compiler\":");
        json_string(compiler());
        printf(",\"cpu\":");
        json_string(cpu_model[0] ? cpu_model : machine);
        printf(",\"machine\":");
        json_string(machine);
        printf(",\"cpu_flags\":");
        if (!cpu_flags_known) {
            printf("null");
        } else {
            putchar('{');
            for (size_t i = 0; i < NRELEVANT; i++) {
                printf("%s", i ? "," : "");
                json_string(relevant_flags[i]);
                printf(":%s", speed_cpu_has(relevant_flags[i]) == 1 ? "true" : "false");
            }
            putchar('}');
        }
        printf(",\"impls\":");
        json_string_list(opt.impls, opt.nimpls);
        printf(",\"available_impls\":");
        json_string_list(available, navailable);
        printf(",\"vg_impl_env_warning\":");
        if (env_warning) json_string(env_warning);
        else printf("null");
        printf(",\"peers\":[");
        for (size_t i = 0; peers[i]; i++) {
            printf("%s{\"name\":", i ? "," : "");
            json_string(peers[i]->name);
            printf(",\"version\":");
            json_string(peers[i]->describe());
            printf(",\"gcm_path\":");
            if (peers[i]->gcm_path) json_string(peers[i]->gcm_path());
            else printf("null");
            putchar('}');
        }
        printf("],\"not_built\":");
        json_string_list(not_built, nnot);
        printf(",\"filter\":");
        if (opt.filter) json_string(opt.filter);
        else printf("null");
        printf(",\"date\":");
        json_string(date);
        printf(",\"load_average\":%.2f,\"online_cpus\":%ld,\"clock\":\"%s\"", load_average, online_cpus,
               opt.cpu_time ? "thread-cpu-time" : "monotonic");
        printf(",\"rounds\":%d,\"ms_per_round\":%g,\"statistic\":\"median\",\"units\":{\"speed\":\"GB/s "
               "(1e9 bytes/s), messages over 64 bytes\",\"per_call\":\"ns per call: key set-up and messages "
               "of 64 bytes or less\"},\"ratio\":\"peer time / vg time (above 1: vg faster)\"",
               opt.rounds, opt.seconds_per_round * 1e3);
        printf(",\"gcm\":\"12-byte nonce, 16-byte tag, no AAD (aad13 and tls1350 rows: 13 bytes of AAD; "
               "quic1200 rows: 32 bytes; stream rows: the streaming interface)\",\"gcm_siv\":\"12-byte "
               "nonce, 16-byte tag, no AAD\",\"ccm\":\"13-byte nonce, 16-byte tag, no AAD\"}");
        return;
    }
    if (!opt.table) return;
    printf("vg-speed   vg %s (%s build; library %s), %s\n", VG_SPEED_VERSION, VG_SPEED_BUILD_TYPE, vg_version(),
           compiler());
    if (cpu_model[0]) printf("cpu        %s (%s)\n", cpu_model, machine);
    else printf("cpu        %s\n", machine);
    printf("features   %s\n", relevant_flags_text());
    printf("vg impl    ");
    for (size_t i = 0; i < opt.nimpls; i++) printf("%s%s", i ? ", " : "", opt.impls[i]);
    printf(" (available here: ");
    for (size_t i = 0; i < navailable; i++) printf("%s%s", i ? ", " : "", available[i]);
    printf(")\n");
    if (env_warning) printf("WARNING    %s\n", env_warning);
    for (size_t i = 0; peers[i]; i++) {
        printf("peer       %s\n", peers[i]->describe());
        if (peers[i]->gcm_path) {
            /* The path, then how it was derived (the part in brackets) on a line of its own. */
            const char *path = peers[i]->gcm_path(), *how = strstr(path, " [");
            if (how) printf("           %.*s\n           %s\n", (int)(how - path), path, how + 1);
            else printf("           %s\n", path);
        }
    }
    for (size_t i = 0; i < nnot; i++) printf("peer       %s\n", not_built[i]);
    printf("date       %s\n", date);
    if (load_average >= 0)
        printf("load       %.2f (1-minute average) on %ld online CPUs%s\n", load_average, online_cpus,
               online_cpus > 0 && load_average > 0.5 * (double)online_cpus
                   ? ": the CPUs are shared, expect noise (--cpu-time leaves out the others' time)"
                   : "");
    printf("method     median of %d rounds of ~%g ms per participant, vg and peers alternating in one "
           "process,\n           timed with %s; GB/s = 10^9 bytes/s; messages of 64 bytes or less and key "
           "set-ups in ns per call;\n           vg/PEER = PEER's time / vg's time (above 1: vg faster)\n",
           opt.rounds, opt.seconds_per_round * 1e3,
           opt.cpu_time ? "the thread's CPU-time clock" : "CLOCK_MONOTONIC");
    printf("modes      GCM, GCM-SIV: 12-byte nonce, 16-byte tag, no AAD (aad13 and tls1350 rows: 13 bytes, quic1200\n"
           "           rows: 32); CCM: 13-byte nonce, 16-byte tag, no AAD\n");
    if (strcmp(VG_SPEED_BUILD_TYPE, "Release") != 0 && strcmp(VG_SPEED_BUILD_TYPE, "RelWithDebInfo") != 0)
        printf("WARNING    not a Release build: these numbers say little about vg\n");
    fflush(stdout);
}

/* ---------------------------------------------------------------------------------------------- */
/* Timing                                                                                          */

/* The clock the measurements use. */
static double now(void) { return bench_seconds(opt.cpu_time ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC); }

struct participant {
    const struct speed_peer *peer;
    const char *impl; /* vg's implementation; NULL for a peer */
    void *state;
    uint64_t iterations;               /* per round, from the calibration */
    double per_op[MAX_ROUNDS];         /* seconds per operation, each round */
    double median;
    char label[48];
};

/* "vg (portable)" or the peer's name, for messages. */
static const char *who(struct participant *p)
{
    if (!p->label[0]) {
        if (p->impl) snprintf(p->label, sizeof p->label, "vg (%.32s)", p->impl);
        else snprintf(p->label, sizeof p->label, "%.32s", p->peer->name);
    }
    return p->label;
}

/* Seconds that `iterations` operations take; exits if the library reports a failure. */
static double time_run(const struct speed_row *row, struct participant *p, uint64_t iterations)
{
    double t0 = now();
    int rc = p->peer->run(p->state, iterations);
    double t = now() - t0;
    if (rc != 0) {
        fprintf(stderr, "ERROR %s: %s failed while timed (code %d)\n", row->name, who(p), rc);
        exit(2);
    }
    return t;
}

/* Finds an iteration count that lasts about opt.seconds_per_round: doubles until a run lasts a
   quarter of it, then scales linearly. The doubling runs double as the warm-up, after one untimed
   call. That call is needed because a participant's first call after set-up pays a one-time cost.
   On this VM a first 1 MiB seal took 2.8-3.3 ms, vg's and OpenSSL's alike, against 0.05 ms for a
   later one. The cost is the page faults of the first writes into the participant's new output
   buffer: in a test build that wrote vg's buffer once at set-up, vg's first call took 0.1 ms and
   OpenSSL's still 3.3 ms. Timed as the first doubling step, that call ended the calibration at n = 1
   with the default 8 ms rounds. Every round then made only two calls, each just after the other
   participants had evicted the buffers: vg's 1 MiB seal measured 19-21 GB/s that way, and 25 GB/s
   with this call (bench/ab: 23.5-24.4). */
static void calibrate(const struct speed_row *row, struct participant *p)
{
    double target = opt.seconds_per_round;
    uint64_t n = 1;
    double t;
    (void)time_run(row, p, 1);
    for (;;) {
        t = time_run(row, p, n);
        if (t >= target / 4 || n >= ((uint64_t)1 << 40)) break;
        n *= t < target / 256 ? 16 : 2;
    }
    double scaled = (double)n * target / (t > 1e-9 ? t : 1e-9);
    p->iterations = scaled < 1 ? 1 : (uint64_t)scaled;
}

/* The median of v's n values, v left as it is. */
static double median(const double *v, int n)
{
    double s[MAX_ROUNDS];
    memcpy(s, v, (size_t)n * sizeof *v);
    return bench_median(s, n);
}

/* ---------------------------------------------------------------------------------------------- */
/* The machine's limit                                                                             */
/*
 * How fast could any AES code go here? A microbenchmark of the AES and carry-less-multiply units on
 * their own: 12 independent chains of the widest vaesenc (and vpclmulqdq) the CPU runs, so the
 * instruction latency is hidden and only the issue rate counts, reported as block-rounds per second
 * (one AES round of one 16-byte block; a zmm vaesenc is 4) and 64x64-bit products per second (a zmm
 * vpclmulqdq is 4). Turned into bounds per row:
 *   ECB, CTR         rounds block-rounds per block (10, 12, 14: aesenc + aesenclast)
 *   GCM              a fully stitched loop's mix timed as it is: 12 chains of `rounds` vaesenc and
 *                    3 vpclmulqdq each (Karatsuba's products for one vector; the reductions, a few
 *                    products per 8-32 blocks, are left out). Where the two units issue side by side
 *                    that is the slower of the AES and multiplier bounds; where they share ports (Zen 4
 *                    runs a zmm mix of 11 and 3 in 15.4 cycles, not max(11, 6)) it is lower, and it is
 *                    the bound that core gives
 *   GCM-SIV          POLYVAL and CTR run one after the other: 1 / (1/AES bound + 1/multiply bound)
 *   CCM              the CBC-MAC chain is serial: one block per `rounds` x the latency of one
 *                    aesenc (measured as a dependent chain); the CTR half hides beside it
 * The widest unit is picked from the implementations the library reports (vaes512: zmm; vaes256:
 * ymm; aesni: xmm); other architectures print no limit. The rows' "of limit" column is vg's
 * speed over that bound.
 */
struct machine_limit {
    int have;
    const char *unit;        /* "zmm", "ymm", "xmm" */
    double block_rounds;     /* per second */
    double products;         /* 64x64 carry-less products per second */
    double aes_latency;      /* seconds per dependent aesenc (xmm) */
    double gcm_blocks[3];    /* blocks per second of the GCM mix, 10, 12 and 14 rounds */
};
static struct machine_limit limit;

#if defined(__x86_64__)
#include <immintrin.h>
#define LIMIT_T512 __attribute__((target("vaes,vpclmulqdq,avx512f,avx512bw,avx512vl,avx2,avx,aes,pclmul")))
#define LIMIT_T256 __attribute__((target("vaes,vpclmulqdq,avx2,avx,aes,pclmul")))
#define LIMIT_T128 __attribute__((target("aes,pclmul,sse2")))
#define CHAINS12(op)                                                                                 \
    do {                                                                                             \
        x0 = op(x0); x1 = op(x1); x2 = op(x2); x3 = op(x3); x4 = op(x4); x5 = op(x5);               \
        x6 = op(x6); x7 = op(x7); x8 = op(x8); x9 = op(x9); x10 = op(x10); x11 = op(x11);           \
    } while (0)
/* One function per (width, instruction): n iterations of 12 independent instructions; returns a value
   built from every chain so none is optimised away. */
#define LIMIT_KERNEL(name, T, vt, set1, xor, op, tos)                                               \
    T __attribute__((noinline)) static unsigned name(uint64_t n, unsigned seed)                     \
    {                                                                                                \
        const vt k = set1((int)seed);                                                                \
        vt x0 = set1(1), x1 = set1(2), x2 = set1(3), x3 = set1(4), x4 = set1(5), x5 = set1(6);      \
        vt x6 = set1(7), x7 = set1(8), x8 = set1(9), x9 = set1(10), x10 = set1(11), x11 = set1(12); \
        for (uint64_t i = 0; i < n; i++) {                                                           \
            _Pragma("GCC unroll 1") CHAINS12(op);                                                    \
        }                                                                                            \
        vt r = xor(xor(xor(x0, x1), xor(x2, x3)), xor(xor(x4, x5), xor(x6, x7)));                  \
        r = xor(r, xor(xor(x8, x9), xor(x10, x11)));                                                \
        return (unsigned)tos(r);                                                                     \
    }
#define AES512(v) _mm512_aesenc_epi128((v), k)
#define CLMUL512(v) _mm512_clmulepi64_epi128((v), k, 0x01)
#define AES256(v) _mm256_aesenc_epi128((v), k)
#define CLMUL256(v) _mm256_clmulepi64_epi128((v), k, 0x01)
#define AES128(v) _mm_aesenc_si128((v), k)
#define CLMUL128(v) _mm_clmulepi64_si128((v), k, 0x01)
#define TOS512(r) _mm_cvtsi128_si32(_mm512_castsi512_si128(r))
#define TOS256(r) _mm_cvtsi128_si32(_mm256_castsi256_si128(r))
LIMIT_KERNEL(limit_aes512, LIMIT_T512, __m512i, _mm512_set1_epi32, _mm512_xor_si512, AES512, TOS512)
LIMIT_KERNEL(limit_clmul512, LIMIT_T512, __m512i, _mm512_set1_epi32, _mm512_xor_si512, CLMUL512, TOS512)
LIMIT_KERNEL(limit_aes256, LIMIT_T256, __m256i, _mm256_set1_epi32, _mm256_xor_si256, AES256, TOS256)
LIMIT_KERNEL(limit_clmul256, LIMIT_T256, __m256i, _mm256_set1_epi32, _mm256_xor_si256, CLMUL256, TOS256)
LIMIT_KERNEL(limit_aes128, LIMIT_T128, __m128i, _mm_set1_epi32, _mm_xor_si128, AES128, _mm_cvtsi128_si32)
LIMIT_KERNEL(limit_clmul128, LIMIT_T128, __m128i, _mm_set1_epi32, _mm_xor_si128, CLMUL128, _mm_cvtsi128_si32)

/* GCM's mix: per iteration, each of 12 chains takes nr vaesenc, then 3 vpclmulqdq (one vector's
   Karatsuba products), round-major as the stitched loops issue them */
#define LIMIT_MIX(name, T, vt, set1, xor, aes, clmul, tos, nr)                                      \
    T __attribute__((noinline)) static unsigned name(uint64_t n, unsigned seed)                     \
    {                                                                                                \
        const vt k = set1((int)seed);                                                                \
        vt x0 = set1(1), x1 = set1(2), x2 = set1(3), x3 = set1(4), x4 = set1(5), x5 = set1(6);      \
        vt x6 = set1(7), x7 = set1(8), x8 = set1(9), x9 = set1(10), x10 = set1(11), x11 = set1(12); \
        for (uint64_t i = 0; i < n; i++) {                                                           \
            _Pragma("GCC unroll 16") for (int r = 0; r < (nr); r++) CHAINS12(aes);                  \
            _Pragma("GCC unroll 3") for (int r = 0; r < 3; r++) CHAINS12(clmul);                    \
        }                                                                                            \
        vt r = xor(xor(xor(x0, x1), xor(x2, x3)), xor(xor(x4, x5), xor(x6, x7)));                  \
        r = xor(r, xor(xor(x8, x9), xor(x10, x11)));                                                \
        return (unsigned)tos(r);                                                                     \
    }
#define LIMIT_MIXES(w, T, vt, set1, xor, tos)                                                              \
    LIMIT_MIX(limit_gcm##w##_10, T, vt, set1, xor, AES##w, CLMUL##w, tos, 10)                              \
    LIMIT_MIX(limit_gcm##w##_12, T, vt, set1, xor, AES##w, CLMUL##w, tos, 12)                              \
    LIMIT_MIX(limit_gcm##w##_14, T, vt, set1, xor, AES##w, CLMUL##w, tos, 14)
LIMIT_MIXES(512, LIMIT_T512, __m512i, _mm512_set1_epi32, _mm512_xor_si512, TOS512)
LIMIT_MIXES(256, LIMIT_T256, __m256i, _mm256_set1_epi32, _mm256_xor_si256, TOS256)
LIMIT_MIXES(128, LIMIT_T128, __m128i, _mm_set1_epi32, _mm_xor_si128, _mm_cvtsi128_si32)

/* n dependent aesenc: the latency the CBC-MAC chain pays per round */
LIMIT_T128 __attribute__((noinline)) static unsigned limit_aes_chain(uint64_t n, unsigned seed)
{
    __m128i k = _mm_set1_epi32((int)seed), x = k;
    for (uint64_t i = 0; i < n; i++) x = _mm_aesenc_si128(x, k);
    return (unsigned)_mm_cvtsi128_si32(x);
}

static volatile unsigned limit_sink;

/* Seconds per iteration of f: calibrated to ~opt.seconds_per_round, the fastest of 5 runs (a limit is
   what the units can do, so the least disturbed run is the estimate; the rows themselves use medians,
   so on a busy machine "of limit" errs low, not high). */
static double limit_time(unsigned (*f)(uint64_t, unsigned))
{
    uint64_t n = 1024;
    double t;
    for (;;) {
        t = now();
        limit_sink = f(n, 7);
        t = now() - t;
        if (t >= opt.seconds_per_round / 4 || n >= ((uint64_t)1 << 40)) break;
        n *= 2;
    }
    n = (uint64_t)((double)n * opt.seconds_per_round / (t > 1e-9 ? t : 1e-9)) + 1;
    double runs[5];
    for (int r = 0; r < 5; r++) {
        t = now();
        limit_sink = f(n, (unsigned)r);
        runs[r] = (now() - t) / (double)n;
    }
    double best = runs[0];
    for (int r = 1; r < 5; r++)
        if (runs[r] < best) best = runs[r];
    return best;
}

static int impl_available_here(const char *name)
{
    for (size_t i = 0; i < navailable; i++)
        if (strcmp(available[i], name) == 0) return 1;
    return 0;
}

static void measure_limit(void)
{
    unsigned (*aes)(uint64_t, unsigned), (*clmul)(uint64_t, unsigned), (*gcm[3])(uint64_t, unsigned);
    double lanes;
    if (impl_available_here("vaes512")) {
        aes = limit_aes512, clmul = limit_clmul512, lanes = 4, limit.unit = "zmm";
        gcm[0] = limit_gcm512_10, gcm[1] = limit_gcm512_12, gcm[2] = limit_gcm512_14;
    } else if (impl_available_here("vaes256")) {
        aes = limit_aes256, clmul = limit_clmul256, lanes = 2, limit.unit = "ymm";
        gcm[0] = limit_gcm256_10, gcm[1] = limit_gcm256_12, gcm[2] = limit_gcm256_14;
    } else if (impl_available_here("aesni")) {
        aes = limit_aes128, clmul = limit_clmul128, lanes = 1, limit.unit = "xmm";
        gcm[0] = limit_gcm128_10, gcm[1] = limit_gcm128_12, gcm[2] = limit_gcm128_14;
    } else {
        return;
    }
    limit.block_rounds = 12 * lanes / limit_time(aes);
    limit.products = 12 * lanes / limit_time(clmul);
    for (int i = 0; i < 3; i++) limit.gcm_blocks[i] = 12 * lanes / limit_time(gcm[i]);
    limit.aes_latency = limit_time(limit_aes_chain);
    limit.have = 1;
}
#else
static void measure_limit(void) {}
#endif

/* The bound for a row (bytes per second), or 0 if none applies. */
static double row_limit(const struct speed_row *row)
{
    if (!limit.have || row->op == SPEED_KEYSETUP) return 0;
    double rounds = (double)(row->key_len / 4 + 6);
    double aes = limit.block_rounds / rounds * 16;
    double mul = limit.products / 3 * 16;
    switch (row->alg) {
    case SPEED_AES: return aes;
    case SPEED_GCM: {
        /* the mix as timed; never above either unit alone (it is not, but a noisy timing could say so) */
        double mix = limit.gcm_blocks[row->key_len == 16 ? 0 : row->key_len == 24 ? 1 : 2] * 16;
        double b = aes < mul ? aes : mul;
        return mix < b ? mix : b;
    }
    case SPEED_GCM_SIV: return 1 / (1 / aes + 1 / mul);
    case SPEED_CCM: return 16 / (rounds * limit.aes_latency);
    }
    return 0;
}

static void print_limit(void)
{
    if (!limit.have) return;
    static const struct speed_row probe[] = {
        {"aes128-ctr", "", SPEED_AES, SPEED_CTR, 16, 0, 0, NULL, 0},
        {"aes256-ctr", "", SPEED_AES, SPEED_CTR, 32, 0, 0, NULL, 0},
        {"aes128-gcm", "", SPEED_GCM, SPEED_SEAL, 16, 0, 0, NULL, 0},
        {"aes256-gcm", "", SPEED_GCM, SPEED_SEAL, 32, 0, 0, NULL, 0},
        {"aes128-gcm-siv", "", SPEED_GCM_SIV, SPEED_SEAL, 16, 0, 0, NULL, 0},
        {"aes256-gcm-siv", "", SPEED_GCM_SIV, SPEED_SEAL, 32, 0, 0, NULL, 0},
        {"aes128-ccm", "", SPEED_CCM, SPEED_SEAL, 16, 0, 0, NULL, 0},
        {"aes256-ccm", "", SPEED_CCM, SPEED_SEAL, 32, 0, 0, NULL, 0},
    };
    if (opt.json) {
        printf(",\n{\"type\":\"limit\",\"unit\":\"%s\",\"block_rounds_per_s\":%.6g,\"clmul_products_per_s\":%.6g,"
               "\"aesenc_latency_ns\":%.4g,\"bounds_gbps\":{",
               limit.unit, limit.block_rounds, limit.products, limit.aes_latency * 1e9);
        for (size_t i = 0; i < sizeof probe / sizeof probe[0]; i++)
            printf("%s\"%s\":%.4g", i ? "," : "", probe[i].name, row_limit(&probe[i]) / 1e9);
        printf("}}");
        return;
    }
    if (!opt.table) return;
    printf("limit      %s vaesenc: %.1f G block-rounds/s; %s vpclmulqdq: %.1f G 64x64 products/s; "
           "aesenc latency %.2f ns\n           bounds (GB/s):",
           limit.unit, limit.block_rounds / 1e9, limit.unit, limit.products / 1e9, limit.aes_latency * 1e9);
    for (size_t i = 0; i < sizeof probe / sizeof probe[0]; i++)
        printf("%s %s %.1f", i == 4 ? "\n                         " : (i ? "," : ""), probe[i].name,
               row_limit(&probe[i]) / 1e9);
    printf("\n           (\"of limit\" = vg / that bound; --help and vg-speed.c say how each is derived)\n");
    fflush(stdout);
}

/* ---------------------------------------------------------------------------------------------- */
/* Correctness: the same bytes from everyone                                                       */

/* Index of the first differing byte, or -1. */
static long first_difference(const uint8_t *a, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return (long)i;
    return -1;
}

static void mismatch(const struct speed_row *row, size_t len, const char *what)
{
    if (opt.json) {
        printf(",\n{\"type\":\"mismatch\",\"row\":");
        json_string(row->name);
        printf(",\"bytes\":%zu,\"text\":", len);
        json_string(what);
        printf("}\n]\n");
    } else if (opt.table) {
        printf("MISMATCH %s, %zu bytes: %s\n", row->name, len, what);
    }
    fflush(stdout);
    fprintf(stderr, "MISMATCH %s, %zu bytes: %s\n", row->name, len, what);
    exit(1);
}

/* Checks every participant against the first (vg) and, for open, against the plaintext. */
static void check_cell(const struct speed_job *job, struct participant *parts, size_t nparts,
                       uint8_t *outs, uint8_t *tags)
{
    const struct speed_row *row = job->row;
    size_t stride = job->len + 16;
    int has_tag = row->alg != SPEED_AES && (row->op == SPEED_SEAL || row->op == SPEED_KEYSETUP);
    /* An AES key check encrypts one block whatever job->len is. */
    size_t n = row->alg == SPEED_AES && row->op == SPEED_KEYSETUP ? 16 : job->len;
    char what[256];
    for (size_t i = 0; i < nparts; i++) {
        uint8_t *out = outs + i * stride, *tag = tags + i * SPEED_TAG_LEN;
        memset(out, 0, stride);
        memset(tag, 0, SPEED_TAG_LEN);
        if (parts[i].peer->compute(parts[i].state, out, tag) != 0) {
            snprintf(what, sizeof what, "%s failed%s", who(&parts[i]),
                     row->op == SPEED_OPEN ? " (rejected the tag of vg's seal)" : "");
            mismatch(row, job->len, what);
        }
        const uint8_t *want = row->op == SPEED_OPEN ? job->pt : outs; /* participant 0's output */
        long at = first_difference(out, want, n);
        if (at >= 0) {
            snprintf(what, sizeof what, "%s %s differs from %s at byte %ld", who(&parts[i]),
                     row->op == SPEED_OPEN ? "plaintext" : "output",
                     row->op == SPEED_OPEN ? "the original" : who(&parts[0]), at);
            mismatch(row, job->len, what);
        }
        if (has_tag && (at = first_difference(tag, tags, SPEED_TAG_LEN)) >= 0) {
            snprintf(what, sizeof what, "%s tag differs from %s at byte %ld", who(&parts[i]),
                     who(&parts[0]), at);
            mismatch(row, job->len, what);
        }
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Output                                                                                          */

static size_t npeer_columns(void)
{
    size_t n = 0;
    while (peers[n]) n++;
    return n;
}

/* Whether a cell is reported in ns per call (key set-up, messages of 64 bytes or less) rather than
   in GB/s: for short messages the cost of a call is what a user sees. */
static int per_call(const struct speed_row *row, size_t len)
{
    return row->op == SPEED_KEYSETUP || len <= 64;
}

/* A median time per operation as the cell's value: ns per call, or GB/s. */
static double cell_value(const struct speed_row *row, size_t len, double seconds_per_op)
{
    return per_call(row, len) ? seconds_per_op * 1e9 : (double)len / seconds_per_op / 1e9;
}

/* A speed (GB/s) or a time (ns) with its unit, in a 12-character column. */
static void print_value(double v, int ns)
{
    char buf[32];
    if (ns) snprintf(buf, sizeof buf, v >= 1000 ? "%.0f ns" : "%.1f ns", v);
    else snprintf(buf, sizeof buf, v >= 100 ? "%.1f GB/s" : v >= 10 ? "%.2f GB/s" : "%.3f GB/s", v);
    printf(" %12s", buf);
}

static const char *last_group;

static void print_group_heading(const struct speed_row *row)
{
    if (last_group && strcmp(last_group, row->group) == 0) return;
    last_group = row->group;
    if (!opt.table) return;
    const char *about = "";
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
        if (strcmp(groups[i].group, row->group) == 0) about = groups[i].about;
    printf("\n%s: %s\n", row->group, about);
    /* Which peers sit out the whole group, and why. */
    for (size_t i = 0; peers[i]; i++) {
        const char *why = NULL;
        int all_out = 1;
        for (size_t r = 0; r < NROWS; r++) {
            const char *w;
            if (strcmp(rows[r].group, row->group) != 0) continue;
            if (peers[i]->supports(&rows[r], &w)) all_out = 0;
            else why = w;
        }
        if (why) printf("  (%s%s)\n", why, all_out ? "" : " for some rows");
    }
    printf("%-25s %8s  %-9s %12s", "row", "bytes", "impl", "vg");
    if (limit.have) printf(" %8s", "of limit");
    for (size_t i = 0; peers[i]; i++) {
        char ratio[32];
        snprintf(ratio, sizeof ratio, "vg/%s", peers[i]->name);
        printf(" %12s %11s", peers[i]->name, ratio);
    }
    printf("\n");
}

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static void csv_string(const char *v)
{
    if (!strpbrk(v, ",\"\r\n")) {
        fputs(v, opt.csv);
        return;
    }
    fputc('"', opt.csv);
    for (; *v; v++) {
        if (*v == '"') fputc('"', opt.csv);
        fputc(*v, opt.csv);
    }
    fputc('"', opt.csv);
}

/* The CSV header: the fields of the JSON "result" objects, in the same order. */
static void csv_header(void)
{
    fputs("row,group,key_bits,bytes,unit,impl,nonce_len,tag_len,aad_len,chunk,vg,limit_gbps,vg_over_limit",
          opt.csv);
    for (size_t i = 0; peers[i]; i++) fprintf(opt.csv, ",%s,vg_over_%s", peers[i]->key, peers[i]->key);
    fputc('\n', opt.csv);
}

/* Prints one line per vg implementation: its median, then each peer's and the ratio (the peer's time
   over vg's: a speed ratio, the same whatever the unit). */
static void print_cell(const struct speed_job *job, size_t len, const struct participant *parts,
                       size_t nvg, const struct participant *const *by_peer)
{
    const struct speed_row *row = job->row;
    int keysetup = row->op == SPEED_KEYSETUP, ns = per_call(row, len), aead = row->alg != SPEED_AES;
    const char *unit = ns ? "ns" : "GB/s";
    double bound = row_limit(row); /* bytes per second, or 0 */
    for (size_t v = 0; v < nvg; v++) {
        double vg_value = cell_value(row, len, parts[v].median);
        double over_limit = bound > 0 ? (double)len / parts[v].median / bound : 0;
        if (opt.json) {
            printf(",\n{\"type\":\"result\",\"row\":");
            json_string(row->name);
            printf(",\"group\":");
            json_string(row->group);
            printf(",\"key_bits\":%zu,", row->key_len * 8);
            if (keysetup) printf("\"bytes\":null");
            else printf("\"bytes\":%zu", len);
            printf(",\"unit\":\"%s\",\"impl\":", unit);
            json_string(parts[v].impl);
            if (aead)
                printf(",\"nonce_len\":%zu,\"tag_len\":%d,\"aad_len\":%zu,\"chunk\":%zu", job->nonce_len,
                       SPEED_TAG_LEN, job->aad_len, row->chunk);
            printf(",\"vg\":%.6g", vg_value);
            if (bound > 0) printf(",\"limit_gbps\":%.6g,\"vg_over_limit\":%.4g", bound / 1e9, over_limit);
            for (size_t i = 0; peers[i]; i++) {
                const struct participant *p = by_peer[i];
                if (!p) {
                    printf(",\"%s\":null,\"vg_over_%s\":null", peers[i]->key, peers[i]->key);
                    continue;
                }
                printf(",\"%s\":%.6g,\"vg_over_%s\":%.6g", peers[i]->key, cell_value(row, len, p->median),
                       peers[i]->key, p->median / parts[v].median);
            }
            putchar('}');
        }
        if (opt.csv) {
            csv_string(row->name);
            fputc(',', opt.csv);
            csv_string(row->group);
            fprintf(opt.csv, ",%zu,", row->key_len * 8);
            if (!keysetup) fprintf(opt.csv, "%zu", len);
            fprintf(opt.csv, ",%s,", unit);
            csv_string(parts[v].impl);
            if (aead)
                fprintf(opt.csv, ",%zu,%d,%zu,%zu", job->nonce_len, SPEED_TAG_LEN, job->aad_len, row->chunk);
            else fputs(",,,,", opt.csv);
            fprintf(opt.csv, ",%.6g", vg_value);
            if (bound > 0) fprintf(opt.csv, ",%.6g,%.4g", bound / 1e9, over_limit);
            else fputs(",,", opt.csv);
            for (size_t i = 0; peers[i]; i++) {
                const struct participant *p = by_peer[i];
                if (p)
                    fprintf(opt.csv, ",%.6g,%.6g", cell_value(row, len, p->median), p->median / parts[v].median);
                else fputs(",,", opt.csv);
            }
            fputc('\n', opt.csv);
        }
        if (opt.table) {
            char bytes[32];
            snprintf(bytes, sizeof bytes, keysetup ? "-" : "%zu", len);
            printf("%-25s %8s  %-9s", row->name, bytes, parts[v].impl);
            print_value(vg_value, ns);
            if (limit.have) {
                if (bound > 0) printf(" %7.0f%%", 100 * over_limit);
                else printf(" %8s", "-");
            }
            for (size_t i = 0; peers[i]; i++) {
                const struct participant *p = by_peer[i];
                if (!p) {
                    printf(" %12s %11s", "-", "-");
                    continue;
                }
                print_value(cell_value(row, len, p->median), ns);
                printf(" %10.2fx", p->median / parts[v].median);
            }
            printf("\n");
        }
    }
    fflush(stdout);
    if (opt.csv) fflush(opt.csv);
}

/* ---------------------------------------------------------------------------------------------- */
/* One cell                                                                                        */

static uint8_t *buf_pt, *buf_ct, *buf_outs, *buf_tags;
static int ccm_long_nonce_shortened; /* a CCM message too long for a 13-byte nonce was measured */

/* CCM's nonce leaves 15 - nonce_len bytes to encode the message length: 13 bytes (the usual choice,
   and the one the table announces) carry at most 65535 bytes. Longer messages get the longest nonce
   whose length field holds them. */
static size_t ccm_nonce_len(size_t len)
{
    size_t nonce_len = SPEED_CCM_NONCE_LEN;
    while (nonce_len > 7 && (uint64_t)len >> (8 * (15 - nonce_len)) != 0) nonce_len--;
    return nonce_len;
}
static uint8_t ct_tag[SPEED_TAG_LEN];

/* Deterministic inputs: the bytes do not matter to the time, only that everyone gets the same. */
static void fill(uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15u + 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = (uint8_t)(x >> 32);
    }
}

static void close_all(struct participant *parts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (parts[i].state) parts[i].peer->close(parts[i].state);
}

static void run_cell(const struct speed_row *row, size_t len)
{
    static const uint8_t key[32] = {
        0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
        0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f};
    static const uint8_t nonce[13] = {0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce, 0xdb, 0xad,
                                      0xde, 0xca, 0xf8, 0x88, 0x42};
    /* Counter block: 12 bytes of nonce, then a 32-bit counter far from wrapping (vg and BearSSL
       wrap the last 32 bits, OpenSSL carries into the nonce: the check must not cross 2^32). */
    static const uint8_t counter[16] = {0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce, 0xdb, 0xad,
                                        0xde, 0xca, 0xf8, 0x88, 0x00, 0x00, 0x00, 0x01};
    /* A TLS 1.2 record header as AAD: sequence number, type 23 (application data), version 3.3,
       the record's length. The quic1200 rows' 32 bytes are a QUIC Handshake packet's long header: type
       byte, version 1, a 10-byte and a 9-byte connection ID after their lengths, the 2-byte length of
       what follows (packet number, message, tag), a 4-byte packet number. */
    static const uint8_t tls_aad[TLS_AAD_LEN] = {0, 0, 0, 0, 0, 0, 0, 42, 23, 3, 3};
    static const uint8_t quic_aad[QUIC_AAD_LEN] = {0xe3, 0, 0, 0, 1, 10, 0xd0, 0xd1, 0xd2, 0xd3, 0xd4,
                                                   0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 9, 0x50, 0x51, 0x52, 0x53,
                                                   0x54, 0x55, 0x56, 0x57, 0x58};
    uint8_t aad[MAX_AAD_LEN];
    if (row->aad_len == QUIC_AAD_LEN) {
        size_t follows = 4 + len + SPEED_TAG_LEN;
        memcpy(aad, quic_aad, QUIC_AAD_LEN);
        aad[26] = (uint8_t)(0x40 | ((follows >> 8) & 0x3f)); /* a 2-byte variable-length integer */
        aad[27] = (uint8_t)follows;
        aad[31] = 7; /* packet number */
    } else {
        memcpy(aad, tls_aad, TLS_AAD_LEN);
        aad[11] = (uint8_t)(len >> 8);
        aad[12] = (uint8_t)len;
    }
    struct speed_job job = {
        .row = row,
        .len = row->op == SPEED_KEYSETUP ? 16 : len,
        .key = key,
        .nonce = nonce,
        .nonce_len = row->alg == SPEED_CCM ? ccm_nonce_len(len) : SPEED_GCM_NONCE_LEN,
        .aad = row->aad_len ? aad : NULL,
        .aad_len = row->aad_len,
        .counter = counter,
        .pt = buf_pt,
        .ct = buf_ct,
        .tag = ct_tag,
    };
    struct participant parts[MAX_PARTICIPANTS];
    const struct participant *by_peer[MAX_PEERS + 1] = {NULL};
    if (row->alg == SPEED_CCM && job.nonce_len != SPEED_CCM_NONCE_LEN) ccm_long_nonce_shortened = 1;
    size_t nparts = 0;
    memset(parts, 0, sizeof parts);

    if (row->op == SPEED_OPEN) {
        /* A valid sealed message to open: vg seals it (the seal rows check vg's seal against the
           peers; here each participant must accept it and give back the plaintext). */
        struct speed_row seal_row = *row;
        seal_row.op = SPEED_SEAL;
        struct speed_job seal_job = job;
        seal_job.row = &seal_row;
        void *st = speed_peer_vg.open(&seal_job, opt.impls[0]);
        if (!st || speed_peer_vg.compute(st, buf_ct, ct_tag) != 0) {
            if (st) speed_peer_vg.close(st);
            mismatch(row, len, "vg could not seal the message to open");
        }
        speed_peer_vg.close(st);
    }

    for (size_t i = 0; i < opt.nimpls; i++) {
        parts[nparts].peer = &speed_peer_vg;
        parts[nparts].impl = opt.impls[i];
        nparts++;
    }
    size_t nvg = nparts;
    for (size_t i = 0; peers[i]; i++) {
        const char *why;
        if (!peers[i]->supports(row, &why)) continue;
        if (peers[i]->supports_job && !peers[i]->supports_job(&job)) continue;
        parts[nparts].peer = peers[i];
        nparts++;
    }
    for (size_t i = 0; i < nparts; i++) {
        parts[i].state = parts[i].peer->open(&job, parts[i].impl);
        if (!parts[i].state) {
            char what[128];
            snprintf(what, sizeof what, "%s could not set up its key", who(&parts[i]));
            close_all(parts, nparts);
            mismatch(row, len, what);
        }
    }

    check_cell(&job, parts, nparts, buf_outs, buf_tags);

    for (size_t i = 0; i < nparts; i++) calibrate(row, &parts[i]);
    for (int r = 0; r < opt.rounds; r++)
        for (size_t i = 0; i < nparts; i++)
            parts[i].per_op[r] = time_run(row, &parts[i], parts[i].iterations) / (double)parts[i].iterations;
    for (size_t i = 0; i < nparts; i++) parts[i].median = median(parts[i].per_op, opt.rounds);

    for (size_t i = nvg; i < nparts; i++)
        for (size_t k = 0; peers[k]; k++)
            if (parts[i].peer == peers[k]) by_peer[k] = &parts[i];
    print_cell(&job, len, parts, nvg, by_peer);
    close_all(parts, nparts);
}

/* ---------------------------------------------------------------------------------------------- */

static size_t row_sizes(const struct speed_row *row, const size_t **sizes)
{
    if (row->op == SPEED_KEYSETUP) {
        static const size_t none[] = {0};
        *sizes = none;
        return 1;
    }
    if (!row->sizes || opt.sizes_given) {
        *sizes = opt.sizes;
        return opt.nsizes;
    }
    size_t n = 0;
    while (row->sizes[n]) n++;
    *sizes = row->sizes;
    return n;
}

static int choose_impls(const char *arg)
{
    navailable = vg_impl_list(available, MAX_IMPLS);
    if (navailable > MAX_IMPLS) navailable = MAX_IMPLS;
    opt.nimpls = 0;
    if (!arg) {
        opt.impls[opt.nimpls++] = vg_impl_name();
        return 0;
    }
    if (strcmp(arg, "all") == 0) {
        for (size_t i = 0; i < navailable; i++) opt.impls[opt.nimpls++] = available[i];
        return 0;
    }
    const char *p = arg;
    while (*p) {
        size_t n = strcspn(p, ",");
        size_t i;
        for (i = 0; i < navailable; i++)
            if (strlen(available[i]) == n && strncmp(available[i], p, n) == 0) break;
        if (i == navailable) {
            fprintf(stderr, "vg-speed: implementation '%.*s' is not available here (available:", (int)n, p);
            for (i = 0; i < navailable; i++) fprintf(stderr, " %s", available[i]);
            fprintf(stderr, ")\n");
            return -1;
        }
        if (opt.nimpls == MAX_IMPLS) return -1;
        opt.impls[opt.nimpls++] = available[i];
        p += n;
        if (*p == ',') p++;
    }
    return opt.nimpls ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *impl_arg = NULL, *csv_path = NULL;
    int quick = 0, rounds = -1, ms = -1, list = 0;
    opt.nsizes = sizeof default_sizes / sizeof default_sizes[0];
    for (size_t i = 0; i < opt.nsizes; i++) opt.sizes[i] = default_sizes[i];

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--quick") == 0) {
            quick = 1;
        } else if (strcmp(a, "--cpu-time") == 0) {
            opt.cpu_time = 1;
        } else if (strcmp(a, "--no-limit") == 0) {
            opt.no_limit = 1;
        } else if (strcmp(a, "--json") == 0) {
            opt.json = 1;
        } else if (v && strcmp(a, "--csv") == 0) {
            csv_path = v;
            i++;
        } else if (strcmp(a, "--list") == 0) {
            list = 1;
        } else if (v && strcmp(a, "--sizes") == 0) {
            if (parse_sizes(v) != 0) {
                fprintf(stderr, "vg-speed: bad --sizes '%s' (1 byte .. 64 MiB each, at most %d)\n", v, MAX_SIZES);
                return 2;
            }
            opt.sizes_given = 1;
            i++;
        } else if (v && strcmp(a, "--rounds") == 0) {
            if (parse_int(v, 1, MAX_ROUNDS, &rounds) != 0) {
                fprintf(stderr, "vg-speed: bad --rounds '%s' (1..%d)\n", v, MAX_ROUNDS);
                return 2;
            }
            i++;
        } else if (v && strcmp(a, "--ms") == 0) {
            if (parse_int(v, 1, 10000, &ms) != 0) {
                fprintf(stderr, "vg-speed: bad --ms '%s' (1..10000)\n", v);
                return 2;
            }
            i++;
        } else if (v && strcmp(a, "--filter") == 0) {
            opt.filter = v;
            i++;
        } else if (v && strcmp(a, "--impl") == 0) {
            impl_arg = v;
            i++;
        } else {
            fprintf(stderr, "vg-speed: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    opt.rounds = rounds > 0 ? rounds : quick ? 3 : 7;
    opt.seconds_per_round = (ms > 0 ? ms : quick ? 2 : 8) * 1e-3;
    if (choose_impls(impl_arg) != 0) return 2;
    if (csv_path && strcmp(csv_path, "-") == 0 && opt.json) {
        fprintf(stderr, "vg-speed: --csv - and --json both want stdout\n");
        return 2;
    }
    opt.table = !opt.json && !(csv_path && strcmp(csv_path, "-") == 0);

    if (list) {
        for (size_t r = 0; r < NROWS; r++) {
            if (!row_selected(rows[r].name)) continue;
            const size_t *sizes;
            size_t n = row_sizes(&rows[r], &sizes);
            if (rows[r].op == SPEED_KEYSETUP) {
                printf("%-25s %s\n", rows[r].name, rows[r].group);
                continue;
            }
            printf("%-25s %-18s bytes", rows[r].name, rows[r].group);
            for (size_t i = 0; i < n; i++) printf("%s%zu", i ? "," : " ", sizes[i]);
            printf("\n");
        }
        printf("implementations:");
        for (size_t i = 0; i < navailable; i++) printf(" %s", available[i]);
        printf("\n");
        return 0;
    }
    size_t selected = 0;
    for (size_t r = 0; r < NROWS; r++) selected += (size_t)row_selected(rows[r].name);
    if (!selected) {
        fprintf(stderr, "vg-speed: --filter '%s' matches no row (see --list)\n", opt.filter);
        return 2;
    }

    size_t max = 16;
    for (size_t r = 0; r < NROWS; r++) {
        const size_t *sizes;
        size_t n = row_sizes(&rows[r], &sizes);
        if (!row_selected(rows[r].name)) continue;
        for (size_t i = 0; i < n; i++)
            if (sizes[i] > max) max = sizes[i];
    }
    size_t nparts_max = opt.nimpls + npeer_columns();
    buf_pt = malloc(max);
    buf_ct = malloc(max);
    buf_outs = malloc((max + 16) * nparts_max);
    buf_tags = malloc(SPEED_TAG_LEN * nparts_max);
    if (!buf_pt || !buf_ct || !buf_outs || !buf_tags) {
        fprintf(stderr, "vg-speed: out of memory\n");
        return 2;
    }
    fill(buf_pt, max, 1);
    if (csv_path) {
        opt.csv = strcmp(csv_path, "-") == 0 ? stdout : fopen(csv_path, "w");
        if (!opt.csv) {
            fprintf(stderr, "vg-speed: cannot write --csv '%s': %s\n", csv_path, strerror(errno));
            return 2;
        }
    }

    read_cpu_model();
    read_load();
    time_t t = time(NULL);
    struct tm tm;
    if (gmtime_r(&t, &tm)) strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &tm);
    print_header();
    if (opt.csv) csv_header();
    if (!opt.no_limit) {
        measure_limit();
        print_limit();
    }

    double start = bench_seconds(CLOCK_MONOTONIC); /* wall time of the whole run, whatever --cpu-time says */
    int skipped_unaligned = 0;
    for (size_t r = 0; r < NROWS; r++) {
        const struct speed_row *row = &rows[r];
        if (!row_selected(row->name)) continue;
        print_group_heading(row);
        const size_t *sizes;
        size_t n = row_sizes(row, &sizes);
        for (size_t i = 0; i < n; i++) {
            /* ECB and CTR (vg_aes_ctr32) take whole blocks only. */
            if (row->alg == SPEED_AES && row->op != SPEED_KEYSETUP && sizes[i] % 16) {
                skipped_unaligned = 1;
                continue;
            }
            run_cell(row, sizes[i]);
        }
    }
    double took = bench_seconds(CLOCK_MONOTONIC) - start;

    const char *notes[5];
    size_t nnotes = 0;
    if (skipped_unaligned) notes[nnotes++] = "ECB and CTR rows skip sizes that are not a multiple of 16";
    if (ccm_long_nonce_shortened)
        notes[nnotes++] = "CCM messages of 64 KiB or more use a 12-byte nonce (11 from 16 MiB): a 13-byte "
                          "nonce leaves a 2-byte length field, 65535 bytes at most";
#ifdef VG_SPEED_HAVE_BEARSSL
    notes[nnotes++] = "BearSSL works in place: its open timings include copying the ciphertext in";
#endif
#ifdef VG_SPEED_HAVE_IPSECMB
    notes[nnotes++] = "ipsec-mb's GCM and CCM opens return the tag they compute: its timings include "
                      "vg-speed's constant-time comparison with the message's tag";
#endif
    if (opt.json) {
        for (size_t i = 0; i < nnotes; i++) {
            printf(",\n{\"type\":\"note\",\"text\":");
            json_string(notes[i]);
            putchar('}');
        }
        printf(",\n{\"type\":\"end\",\"seconds\":%.1f}\n]\n", took);
    } else if (opt.table) {
        printf("\n");
        for (size_t i = 0; i < nnotes; i++) printf("note: %s\n", notes[i]);
        printf("(every correctness check passed; run took %.1f s)\n", took);
    }
    if (opt.csv && opt.csv != stdout && fclose(opt.csv) != 0) {
        fprintf(stderr, "vg-speed: writing --csv '%s' failed: %s\n", csv_path, strerror(errno));
        return 2;
    }
    free(buf_pt);
    free(buf_ct);
    free(buf_outs);
    free(buf_tags);
    return 0;
}
