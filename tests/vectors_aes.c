/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * vectors_aes.c — the NIST CAVP AES vectors (AESAVS) through vg_aes_expand_key and the ECB calls:
 *   KAT   ECB GFSbox, KeySbox, VarKey, VarTxt x 128/192/256 (2,078 records), both directions each;
 *   MMT   ECB multi-block messages, and CBC ones with the chaining done here over single-block ECB
 *         encryption and multi-block ECB decryption (120 records);
 *   MCT   the ECB Monte Carlo test (AESAVS §6.4.1): 100 outer x 1000 inner iterations per direction
 *         and key size (600 records), with each record's key and input also checked against the
 *         chaining rule from the record before it.
 * --quick runs the KAT and MMT whole and the first 10 outer iterations of each MCT direction.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "vecfile.h"

struct rsp_file {
    const char *name;
    size_t key_len;   /* bytes */
    size_t records;   /* COUNT lines in the file, both directions */
};

static const struct rsp_file kat_files[] = {
    {"ECBGFSbox128.rsp", 16, 14},  {"ECBGFSbox192.rsp", 24, 12},  {"ECBGFSbox256.rsp", 32, 10},
    {"ECBKeySbox128.rsp", 16, 42}, {"ECBKeySbox192.rsp", 24, 48}, {"ECBKeySbox256.rsp", 32, 32},
    {"ECBVarKey128.rsp", 16, 256}, {"ECBVarKey192.rsp", 24, 384}, {"ECBVarKey256.rsp", 32, 512},
    {"ECBVarTxt128.rsp", 16, 256}, {"ECBVarTxt192.rsp", 24, 256}, {"ECBVarTxt256.rsp", 32, 256},
};
#define KAT_TOTAL 2078

static const struct rsp_file mmt_files[] = {
    {"ECBMMT128.rsp", 16, 20}, {"ECBMMT192.rsp", 24, 20}, {"ECBMMT256.rsp", 32, 20},
    {"CBCMMT128.rsp", 16, 20}, {"CBCMMT192.rsp", 24, 20}, {"CBCMMT256.rsp", 32, 20},
};
#define MMT_TOTAL 120

static const struct rsp_file mct_files[] = {
    {"ECBMCT128.rsp", 16, 200}, {"ECBMCT192.rsp", 24, 200}, {"ECBMCT256.rsp", 32, 200},
};
#define MCT_TOTAL 600
#define MCT_QUICK_OUTER 10

#define MAX_MSG 4096 /* the longest MMT message is 160 bytes */

/* The record's direction: 1 for [ENCRYPT], 0 for [DECRYPT], -1 (reported) for neither or both. */
static int direction(vf_file *f)
{
    int enc = vf_has(f, "ENCRYPT"), dec = vf_has(f, "DECRYPT");
    if (!CHECK(enc != dec, "%s: record is under %s", vf_where(f),
               enc ? "both [ENCRYPT] and [DECRYPT]" : "neither [ENCRYPT] nor [DECRYPT]"))
        return -1;
    return enc;
}

/* One KAT or MMT record: the stated direction is checked, and its inverse too (every record is a
   valid pair). ECB: out-of-place encryption, in-place decryption. CBC (SP 800-38A §6.2):
   C_i = E(P_i ^ C_{i-1}), P_i = D(C_i) ^ C_{i-1}, C_0 = IV. */
static void run_block_record(vf_file *f, size_t key_len, int cbc)
{
    int enc = direction(f);
    size_t kl, pl, cl, ivl = 0;
    const uint8_t *key = vf_bytes(f, "KEY", &kl);
    const uint8_t *iv = cbc ? vf_bytes(f, "IV", &ivl) : NULL;
    const uint8_t *pt = vf_bytes(f, "PLAINTEXT", &pl);
    const uint8_t *ct = vf_bytes(f, "CIPHERTEXT", &cl);
    if (!vf_ok(f) || enc < 0) return;
    const char *w = vf_where(f);
    if (!CHECK(kl == key_len, "%s: key of %zu bytes in a file of %zu-byte keys", w, kl, key_len) ||
        !CHECK(pl == cl && pl % 16 == 0 && pl > 0 && pl <= MAX_MSG,
               "%s: plaintext %zu and ciphertext %zu bytes: not equal whole blocks", w, pl, cl) ||
        !CHECK(!cbc || ivl == 16, "%s: IV of %zu bytes", w, ivl))
        return;
    const char *dir = enc ? "encrypt record" : "decrypt record";
    size_t nblocks = pl / 16;

    vg_aes_key k;
    int rc = vg_aes_expand_key(&k, key, kl);
    if (!CHECK(rc == VG_OK, "%s: vg_aes_expand_key(%zu bytes) returned %d", w, kl, rc)) return;

    uint8_t out[MAX_MSG + 16];
    memset(out, 0xa5, sizeof out);
    if (!cbc) {
        CHECK(vg_aes_ecb_encrypt(&k, pt, out, nblocks) == VG_OK, "ecb_encrypt");
        CHECK_BYTES(out, ct, pl, "%s (%s): ECB encryption of %zu blocks", w, dir, nblocks);
        CHECK(out[pl] == 0xa5, "%s: ECB encryption wrote past the end", w);
        memcpy(out, ct, pl);
        CHECK(vg_aes_ecb_decrypt(&k, out, out, nblocks) == VG_OK, "ecb_decrypt");
        CHECK_BYTES(out, pt, pl, "%s (%s): ECB decryption in place of %zu blocks", w, dir, nblocks);
        CHECK(out[pl] == 0xa5, "%s: ECB decryption wrote past the end", w);
    } else {
        uint8_t x[16];
        const uint8_t *prev = iv;
        for (size_t i = 0; i < nblocks; i++) {
            for (int j = 0; j < 16; j++) x[j] = (uint8_t)(pt[16 * i + j] ^ prev[j]);
            CHECK(vg_aes_ecb_encrypt(&k, x, out + 16 * i, 1) == VG_OK, "ecb_encrypt");
            prev = out + 16 * i;
        }
        CHECK_BYTES(out, ct, pl, "%s (%s): CBC encryption of %zu blocks (chained ECB)", w, dir, nblocks);
        CHECK(vg_aes_ecb_decrypt(&k, ct, out, nblocks) == VG_OK, "ecb_decrypt");
        for (size_t i = 0; i < nblocks; i++)
            for (int j = 0; j < 16; j++) out[16 * i + j] ^= i ? ct[16 * (i - 1) + j] : iv[j];
        CHECK_BYTES(out, pt, pl, "%s (%s): CBC decryption of %zu blocks (ECB then XOR)", w, dir, nblocks);
        CHECK(out[pl] == 0xa5, "%s: ECB decryption wrote past the end", w);
    }
    vg_aes_key_wipe(&k);
}

static void run_block_files(const struct rsp_file *files, size_t nfiles, const char *subdir, size_t total)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", vgt_vectors_dir(), subdir);
    size_t sum = 0;
    for (size_t i = 0; i < nfiles; i++) {
        vf_file *f = vf_open(dir, files[i].name, VF_RSP);
        if (!f) continue;
        int cbc = strncmp(files[i].name, "CBC", 3) == 0;
        while (vf_next(f)) run_block_record(f, files[i].key_len, cbc);
        size_t n = vf_close(f);
        vt_check_count(files[i].name, n, files[i].records, n);
        sum += n;
    }
    printf("%s: %zu records in all (expected %zu)\n", subdir, sum, total);
    CHECK(sum == total, "%s: %zu records in all, expected %zu", subdir, sum, total);
}

/*
 * ECB Monte Carlo (AESAVS §6.4.1), for one record, encryption shown (decryption swaps the roles of
 * PLAINTEXT and CIPHERTEXT and uses the inverse cipher):
 *     for j = 0..999:  CT[j] = AES(Key[i], PT[j]);  PT[j+1] = CT[j]
 *     record:          KEY = Key[i], PLAINTEXT = PT[0], CIPHERTEXT = CT[999]
 *     next record:     PT[0] = CT[999];  Key[i+1] = Key[i] ^ tail, where tail is
 *                      CT[999] (128-bit keys), the last 64 bits of CT[998] || CT[999] (192),
 *                      CT[998] || CT[999] (256).
 * The key and input the rule predicts for the next record are compared with the file.
 */
struct mct_chain {
    int have;             /* key/input hold the prediction for the next record */
    uint8_t key[32];
    uint8_t input[16];
};

static void run_mct_record(vf_file *f, size_t key_len, struct mct_chain *chain, int run)
{
    int enc = direction(f);
    size_t kl, pl, cl;
    const uint8_t *key = vf_bytes(f, "KEY", &kl);
    const uint8_t *pt = vf_bytes(f, "PLAINTEXT", &pl);
    const uint8_t *ct = vf_bytes(f, "CIPHERTEXT", &cl);
    if (!vf_ok(f) || enc < 0) {
        chain->have = 0;
        return;
    }
    const char *w = vf_where(f);
    if (!CHECK(kl == key_len && pl == 16 && cl == 16, "%s: lengths key %zu, plaintext %zu, ciphertext %zu",
               w, kl, pl, cl)) {
        chain->have = 0;
        return;
    }
    const uint8_t *input = enc ? pt : ct, *output = enc ? ct : pt;
    if (chain->have) {
        CHECK_BYTES(key, chain->key, kl, "%s: KEY is not what the MCT key update rule gives", w);
        CHECK_BYTES(input, chain->input, 16, "%s: input is not the previous record's output", w);
    }
    chain->have = 0;
    if (!run) return;

    vg_aes_key k;
    int rc = vg_aes_expand_key(&k, key, kl);
    if (!CHECK(rc == VG_OK, "%s: vg_aes_expand_key returned %d", w, rc)) return;
    uint8_t cur[16], prev[16];
    memcpy(cur, input, 16);
    for (int j = 0; j < 1000; j++) {
        memcpy(prev, cur, 16);
        if (enc) CHECK(vg_aes_ecb_encrypt(&k, prev, cur, 1) == VG_OK, "ecb_encrypt");
        else CHECK(vg_aes_ecb_decrypt(&k, prev, cur, 1) == VG_OK, "ecb_decrypt");
    }
    /* Here cur = output[999]; prev = input[999] = output[998]. */
    CHECK_BYTES(cur, output, 16, "%s: Monte Carlo %s after 1000 iterations", w,
                enc ? "encryption" : "decryption");
    vg_aes_key_wipe(&k);

    memcpy(chain->key, key, kl);
    uint8_t tail[32];
    memcpy(tail, prev, 16);
    memcpy(tail + 16, cur, 16);
    /* tail holds output[998] || output[999]; the key absorbs its last kl bytes. */
    for (size_t j = 0; j < kl; j++) chain->key[j] ^= tail[32 - kl + j];
    memcpy(chain->input, cur, 16);
    chain->have = 1;
}

static void run_mct_files(void)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/nist-cavp/aes-mct", vgt_vectors_dir());
    size_t sum = 0;
    for (size_t i = 0; i < sizeof mct_files / sizeof mct_files[0]; i++) {
        vf_file *f = vf_open(dir, mct_files[i].name, VF_RSP);
        if (!f) continue;
        struct mct_chain chain = {0, {0}, {0}};
        size_t group = 0, run = 0;
        while (vf_next(f)) {
            if (vf_group(f) != group) { /* [ENCRYPT] -> [DECRYPT]: a new chain */
                group = vf_group(f);
                chain.have = 0;
            }
            int go = !vgt_quick() || vf_index_in_group(f) < MCT_QUICK_OUTER;
            run += (size_t)go;
            run_mct_record(f, mct_files[i].key_len, &chain, go);
        }
        size_t n = vf_close(f);
        vt_check_count(mct_files[i].name, n, mct_files[i].records, run);
        sum += n;
    }
    printf("nist-cavp/aes-mct: %zu records in all (expected %d)\n", sum, MCT_TOTAL);
    CHECK(sum == MCT_TOTAL, "aes-mct: %zu records in all, expected %d", sum, MCT_TOTAL);
}

int main(int argc, char **argv)
{
    vgt_init(argc, argv);
    run_block_files(kat_files, sizeof kat_files / sizeof kat_files[0], "nist-cavp/aes-kat", KAT_TOTAL);
    run_block_files(mmt_files, sizeof mmt_files / sizeof mmt_files[0], "nist-cavp/aes-mmt", MMT_TOTAL);
    run_mct_files();
    return vgt_finish();
}
