/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * vectors_ccm.c — AES-CCM through vg_aes_ccm_seal / vg_aes_ccm_open:
 *   NIST CAVP ccmtestvectors.zip (2,880 records; see tests/vectors/nist-cavp/ccm/Readme.txt):
 *     VADT, VNT, VPT, VTT   varying AAD, nonce, payload and tag lengths: seal must give CT, which is
 *                           ciphertext || tag, and open must give the Payload back;
 *     DVPT                  decryption-verification: Result = Pass -> open gives Payload (and seal
 *                           gives CT); Result = Fail -> VG_ERR_AUTH with the output zeroed.
 *   RFC 3610 §8 packet vectors #1-#24 (tests/vectors/rfc3610), plus each with its tag's last bit
 *   flipped, which open must refuse.
 * Format notes: lengths (Alen, Plen, Nlen, Tlen) are in bytes; "Adata = 00" and "Payload = 00" stand
 * for the empty string when the length is 0; Key and Nonce may be set outside records and carry over.
 * --quick: the first 2 records of each parameter group, and in DVPT also the first Pass and the
 * first Fail record of each group.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "vecfile.h"

struct ccm_file {
    const char *name;
    int dvpt;
    size_t key_len;
    size_t records;
    size_t passes;   /* DVPT: records with Result = Pass */
};

static const struct ccm_file files[] = {
    {"VADT128.rsp", 0, 16, 330, 0}, {"VADT192.rsp", 0, 24, 330, 0}, {"VADT256.rsp", 0, 32, 330, 0},
    {"VNT128.rsp", 0, 16, 70, 0},   {"VNT192.rsp", 0, 24, 70, 0},   {"VNT256.rsp", 0, 32, 70, 0},
    {"VPT128.rsp", 0, 16, 250, 0},  {"VPT192.rsp", 0, 24, 250, 0},  {"VPT256.rsp", 0, 32, 250, 0},
    {"VTT128.rsp", 0, 16, 70, 0},   {"VTT192.rsp", 0, 24, 70, 0},   {"VTT256.rsp", 0, 32, 70, 0},
    {"DVPT128.rsp", 1, 16, 240, 80}, {"DVPT192.rsp", 1, 24, 240, 80}, {"DVPT256.rsp", 1, 32, 240, 80},
};
#define CCM_TOTAL 2880
#define QUICK_PER_GROUP 2
#define RFC3610_RECORDS 24

/* "Adata"/"Payload" of a record, where "00" with a length parameter of 0 means the empty string. */
static const uint8_t *ccm_string(vf_file *f, const char *name, unsigned long want_len, size_t *len)
{
    const uint8_t *p = vf_bytes(f, name, len);
    if (!p) return NULL;
    if (want_len == 0) {
        if (!CHECK(*len == 1 && p[0] == 0, "%s: %s with length 0 should read \"00\"", vf_where(f), name))
            return NULL;
        *len = 0;
    }
    return p;
}

struct group_state {
    size_t group;
    int ran_pass, ran_fail;
};

/* Reads one record and runs it if --quick allows. Returns 1 if it ran; *pass says Result = Pass. */
static int ccm_record(vf_file *f, const struct ccm_file *file, struct group_state *gs, int *pass)
{
    unsigned long alen = vf_uint(f, "Alen"), plen = vf_uint(f, "Plen");
    unsigned long nlen = vf_uint(f, "Nlen"), tlen = vf_uint(f, "Tlen");
    struct vt_aead_vector v;
    size_t ctl = 0, ptl = 0;
    v.key = vf_bytes(f, "Key", &v.key_len);
    v.nonce = vf_bytes(f, "Nonce", &v.nonce_len);
    v.aad = ccm_string(f, "Adata", alen, &v.aad_len);
    const uint8_t *ct = vf_bytes(f, "CT", &ctl);
    *pass = 1;
    if (file->dvpt) {
        const char *result = vf_str(f, "Result");
        if (result && strcmp(result, "Pass") == 0) {
            *pass = 1;
        } else if (result && strcmp(result, "Fail") == 0) {
            *pass = 0;
        } else if (result) {
            CHECK(0, "%s: Result = \"%s\" is neither Pass nor Fail", vf_where(f), result);
            return 0;
        }
    }
    v.pt = NULL;
    if (*pass) v.pt = ccm_string(f, "Payload", plen, &ptl);
    else CHECK(!vf_has(f, "Payload"), "%s: a Fail record with a Payload", vf_where(f));
    if (!vf_ok(f) || !v.aad || !ct || (*pass && !v.pt)) return 0;

    const char *w = vf_where(f);
    int ok = CHECK(v.key_len == file->key_len, "%s: key of %zu bytes in a file of %zu-byte keys", w,
                   v.key_len, file->key_len);
    ok &= CHECK(v.nonce_len == nlen, "%s: Nonce has %zu bytes, Nlen = %lu", w, v.nonce_len, nlen);
    ok &= CHECK(v.aad_len == alen, "%s: Adata has %zu bytes, Alen = %lu", w, v.aad_len, alen);
    ok &= CHECK(ctl == plen + tlen, "%s: CT has %zu bytes, Plen + Tlen = %lu", w, ctl, plen + tlen);
    if (*pass) ok &= CHECK(ptl == plen, "%s: Payload has %zu bytes, Plen = %lu", w, ptl, plen);
    if (!ok) return 0;
    v.ct = ct;
    v.len = plen;
    v.tag = ct + plen;
    v.tag_len = tlen;

    if (vf_group(f) != gs->group) {
        gs->group = vf_group(f);
        gs->ran_pass = gs->ran_fail = 0;
    }
    int run = !vgt_quick() || vf_index_in_group(f) < QUICK_PER_GROUP ||
              (file->dvpt && (*pass ? !gs->ran_pass : !gs->ran_fail));
    if (!run) return 0;
    if (*pass) gs->ran_pass = 1;
    else gs->ran_fail = 1;
    vt_check_aead(VT_CCM, &v, *pass ? VG_OK : VG_ERR_AUTH, w);
    return 1;
}

static void run_cavp(void)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/nist-cavp/ccm", vgt_vectors_dir());
    size_t sum = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        vf_file *f = vf_open(dir, files[i].name, VF_RSP);
        if (!f) continue;
        struct group_state gs = {0, 0, 0};
        size_t run = 0, passes = 0;
        while (vf_next(f)) {
            int pass = 0;
            run += (size_t)ccm_record(f, &files[i], &gs, &pass);
            passes += (size_t)(files[i].dvpt && pass);
        }
        size_t n = vf_close(f);
        vt_check_count(files[i].name, n, files[i].records, run);
        if (files[i].dvpt)
            CHECK(passes == files[i].passes, "%s: %zu records with Result = Pass, expected %zu",
                  files[i].name, passes, files[i].passes);
        sum += n;
    }
    printf("nist-cavp/ccm: %zu records in all (expected %d)\n", sum, CCM_TOTAL);
    CHECK(sum == CCM_TOTAL, "ccm: %zu records in all, expected %d", sum, CCM_TOTAL);
}

static void run_rfc3610(void)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/rfc3610", vgt_vectors_dir());
    vf_file *f = vf_open(dir, "aes_128_ccm.txt", VF_BLOCKS);
    if (!f) return;
    size_t run = 0;
    while (vf_next(f)) {
        struct vt_aead_vector v;
        size_t ctl, ptl;
        v.key = vf_bytes(f, "KEY", &v.key_len);
        v.nonce = vf_bytes(f, "NONCE", &v.nonce_len);
        v.aad = vf_bytes(f, "AD", &v.aad_len);
        v.pt = vf_bytes(f, "IN", &ptl);
        v.ct = vf_bytes(f, "CT", &ctl);
        v.tag = vf_bytes(f, "TAG", &v.tag_len);
        if (!vf_ok(f)) continue;
        const char *w = vf_where(f);
        if (!CHECK(ptl == ctl && v.tag_len >= 1 && v.tag_len <= 16, "%s: IN %zu bytes, CT %zu, TAG %zu", w,
                   ptl, ctl, v.tag_len))
            continue;
        v.len = ptl;
        vt_check_aead(VT_CCM, &v, VG_OK, w);
        /* The same packet with the tag's last bit flipped must be refused. */
        uint8_t forged[16];
        memcpy(forged, v.tag, v.tag_len);
        forged[v.tag_len - 1] ^= 1;
        v.tag = forged;
        vt_check_aead(VT_CCM, &v, VG_ERR_AUTH, w);
        run++;
    }
    size_t n = vf_close(f);
    vt_check_count("rfc3610/aes_128_ccm.txt", n, RFC3610_RECORDS, run);
}

int main(int argc, char **argv)
{
    vgt_init(argc, argv);
    run_cavp();
    run_rfc3610();
    return vgt_finish();
}
