/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * vectors_gcm_siv.c — AES-GCM-SIV through vg_aes_gcm_siv_seal / vg_aes_gcm_siv_open, on the RFC 8452
 * vectors (tests/vectors/rfc8452): the §8 example and Appendix C.1 (AEAD_AES_128_GCM_SIV, 25 blocks)
 * and C.2 (AEAD_AES_256_GCM_SIV, 24 blocks); and AES-192-GCM-SIV, which RFC 8452 does not define, on
 * 24 records made by pyca/cryptography 48 (tests/vectors/cryptography, OpenSSL's AES-192-GCM-SIV;
 * the script that made them is beside them). Seal must give CT and TAG, open must give IN back, and
 * the same message with the tag's last bit flipped must be refused (VG_ERR_AUTH, output zeroed).
 * The Wycheproof GCM-SIV file runs in vectors_wycheproof. --quick runs everything (73 records).
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "vecfile.h"

static const struct {
    const char *dir, *name;
    size_t key_len;
    size_t records;
} files[] = {
    {"rfc8452", "aes_128_gcm_siv.txt", 16, 25},
    {"rfc8452", "aes_256_gcm_siv.txt", 32, 24},
    {"cryptography", "aes_192_gcm_siv.txt", 24, 24},
};

int main(int argc, char **argv)
{
    vgt_init(argc, argv);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/%s", vgt_vectors_dir(), files[i].dir);
        vf_file *f = vf_open(dir, files[i].name, VF_BLOCKS);
        if (!f) continue;
        size_t run = 0;
        while (vf_next(f)) {
            struct vt_aead_vector v;
            size_t ctl, ptl;
            v.key = vf_bytes(f, "KEY", &v.key_len);
            v.nonce = vf_bytes(f, "NONCE", &v.nonce_len);
            v.pt = vf_bytes(f, "IN", &ptl);
            v.aad = vf_bytes(f, "AD", &v.aad_len);
            v.ct = vf_bytes(f, "CT", &ctl);
            v.tag = vf_bytes(f, "TAG", &v.tag_len);
            if (!vf_ok(f)) continue;
            const char *w = vf_where(f);
            if (!CHECK(v.key_len == files[i].key_len && ptl == ctl && v.nonce_len == 12 && v.tag_len == 16,
                       "%s: KEY %zu bytes (file: %zu), IN %zu, CT %zu, NONCE %zu, TAG %zu", w, v.key_len,
                       files[i].key_len, ptl, ctl, v.nonce_len, v.tag_len))
                continue;
            v.len = ptl;
            vt_check_aead(VT_GCM_SIV, &v, VG_OK, w);
            uint8_t forged[16];
            memcpy(forged, v.tag, 16);
            forged[15] ^= 1;
            v.tag = forged;
            vt_check_aead(VT_GCM_SIV, &v, VG_ERR_AUTH, w);
            run++;
        }
        size_t n = vf_close(f);
        char what[64];
        snprintf(what, sizeof what, "%s/%s", files[i].dir, files[i].name);
        vt_check_count(what, n, files[i].records, run);
    }
    return vgt_finish();
}
