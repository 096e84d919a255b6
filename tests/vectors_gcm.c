/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * vectors_gcm.c — the NIST CAVP GCM vectors (gcmtestvectors.zip, 47,250 records) through
 * vg_aes_gcm_seal / vg_aes_gcm_open:
 *   gcmEncryptExtIV*.rsp  seal must give CT and the Taglen-bit tag; open must give PT back;
 *   gcmDecrypt*.rsp       records with PT: open must give it (and seal must give CT and the tag);
 *                         FAIL records: open must return VG_ERR_AUTH with the output zeroed.
 * Every [Keylen/IVlen/PTlen/AADlen/Taglen] parameter (in bits) is checked against the record's byte
 * strings; SP 800-38D allows IVs that are not whole bytes, vg's API does not, so a record with one
 * would fail here rather than be skipped (these files have none: IVlen is 8, 96 or 1024).
 * --quick: the first 3 records of every parameter group and every FAIL record.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "vecfile.h"

struct gcm_file {
    const char *name;
    int decrypt;
    size_t key_len;
    size_t records;
    size_t fails;
};

static const struct gcm_file files[] = {
    {"gcmEncryptExtIV128.rsp", 0, 16, 7875, 0},    {"gcmEncryptExtIV192.rsp", 0, 24, 7875, 0},
    {"gcmEncryptExtIV256.rsp", 0, 32, 7875, 0},    {"gcmDecrypt128.rsp", 1, 16, 7875, 4011},
    {"gcmDecrypt192.rsp", 1, 24, 7875, 3978},      {"gcmDecrypt256.rsp", 1, 32, 7875, 3919},
};
#define GCM_TOTAL 47250
#define QUICK_PER_GROUP 3

/* Checks that a byte string has the length in bits the parameter gives. */
static int bits_match(const char *where, const char *what, size_t bytes, unsigned long bits)
{
    return CHECK(bits % 8 == 0 && bytes * 8 == bits,
                 "%s: %s has %zu bytes but its parameter says %lu bits%s", where, what, bytes, bits,
                 bits % 8 ? " (not whole bytes: vg's API cannot express this record)" : "");
}

/* Reads one record; runs it if run. Returns 1 if it was a FAIL record. */
static int gcm_record(vf_file *f, const struct gcm_file *file, int *run)
{
    unsigned long keylen = vf_uint(f, "Keylen"), ivlen = vf_uint(f, "IVlen"), ptlen = vf_uint(f, "PTlen");
    unsigned long aadlen = vf_uint(f, "AADlen"), taglen = vf_uint(f, "Taglen");
    struct vt_aead_vector v;
    size_t ptl = 0, ctl = 0;
    v.key = vf_bytes(f, "Key", &v.key_len);
    v.nonce = vf_bytes(f, "IV", &v.nonce_len);
    v.aad = vf_bytes(f, "AAD", &v.aad_len);
    v.ct = vf_bytes(f, "CT", &ctl);
    v.tag = vf_bytes(f, "Tag", &v.tag_len);
    int fail = file->decrypt && vf_has(f, "FAIL");
    v.pt = fail ? NULL : vf_bytes(f, "PT", &ptl);
    if (fail && !CHECK(!vf_has(f, "PT"), "%s: a FAIL record with a PT", vf_where(f))) return fail;
    v.len = ctl;
    if (!vf_ok(f)) return fail;
    const char *w = vf_where(f);
    int ok = bits_match(w, "Key", v.key_len, keylen) & bits_match(w, "IV", v.nonce_len, ivlen) &
             bits_match(w, "CT", ctl, ptlen) & bits_match(w, "AAD", v.aad_len, aadlen) &
             bits_match(w, "Tag", v.tag_len, taglen);
    ok &= CHECK(v.key_len == file->key_len, "%s: key of %zu bytes in a file of %zu-byte keys", w, v.key_len,
                file->key_len);
    if (!fail) ok &= CHECK(ptl == ctl, "%s: PT has %zu bytes, CT %zu", w, ptl, ctl);
    if (!ok) return fail;

    *run = !vgt_quick() || vf_index_in_group(f) < QUICK_PER_GROUP || fail;
    if (*run) vt_check_aead(VT_GCM, &v, fail ? VG_ERR_AUTH : VG_OK, w);
    return fail;
}

int main(int argc, char **argv)
{
    vgt_init(argc, argv);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/nist-cavp/gcm", vgt_vectors_dir());
    size_t sum = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        vf_file *f = vf_open(dir, files[i].name, VF_RSP);
        if (!f) continue;
        size_t run = 0, fails = 0;
        while (vf_next(f)) {
            int ran = 0;
            fails += (size_t)gcm_record(f, &files[i], &ran);
            run += (size_t)ran;
        }
        size_t n = vf_close(f);
        vt_check_count(files[i].name, n, files[i].records, run);
        CHECK(fails == files[i].fails, "%s: %zu FAIL records, expected %zu", files[i].name, fails,
              files[i].fails);
        sum += n;
    }
    printf("nist-cavp/gcm: %zu records in all (expected %d)\n", sum, GCM_TOTAL);
    CHECK(sum == GCM_TOTAL, "gcm: %zu records in all, expected %d", sum, GCM_TOTAL);
    return vgt_finish();
}
