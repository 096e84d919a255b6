/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * provider_vectors_evp.c — OpenSSL's own evp_test vectors for AES-GCM-SIV, through EVP and vg.so.
 *
 * tests/vectors/openssl/evpciph_aes_gcm_siv.txt is OpenSSL 3.5.5's file (PROVENANCE.md): 50 "Cipher"
 * stanzas of RFC 8452's vectors. OpenSSL 3.0's default provider has no GCM-SIV, so these run against
 * the bytes in the file. Each stanza runs the calls OpenSSL's evp_test makes for an AEAD cipher, in its
 * order: init with the cipher and the direction; the IV length; EVP_CTRL_AEAD_SET_TAG with the tag's
 * length and no data when sealing (vg refused that call until issue 31, so every stanza failed) or
 * with the tag when opening; the key length; init with key and IV; a copy of the context, which the
 * rest runs on; the AAD (in one update, or in two for every other stanza); the data; Final; and, when
 * sealing, EVP_CTRL_AEAD_GET_TAG. Both directions, and an open with one tag bit flipped, which must
 * fail and leave zeros.
 *
 * The reader is strict: a key it does not know, a key given twice, bad hex or a stanza without its
 * fields fails the run, and so does a stanza count other than the file's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "harness.h"
#include "provider_common.h"

#define FIELD_MAX 1024
#define WANT_STANZAS 50

enum field { F_CIPHER, F_KEY, F_IV, F_AAD, F_TAG, F_PT, F_CT, F_FIPS, F_COUNT };
static const char *const field_names[F_COUNT] = { "Cipher", "Key", "IV", "AAD", "Tag", "Plaintext", "Ciphertext",
                                                  "FIPSversion" };

struct stanza {
    int line, has[F_COUNT];
    char cipher[64];
    uint8_t v[F_COUNT][FIELD_MAX];
    size_t len[F_COUNT];
};

static struct vgp_test g;

/* One run of the stanza through EVP. mode: 1 seal, 0 open, 2 open with a forged tag. */
static void run(const struct stanza *s, EVP_CIPHER *c, int mode, int split_aad)
{
    int enc = mode == 1, outl, ok;
    const uint8_t *in = enc ? s->v[F_PT] : s->v[F_CT];
    const uint8_t *want = enc ? s->v[F_CT] : s->v[F_PT];
    size_t len = s->len[F_PT], aad = s->len[F_AAD], cut = split_aad && aad > 1 ? aad / 2 : aad;
    uint8_t out[FIELD_MAX + 16], tag[16];
    EVP_CIPHER_CTX *base = EVP_CIPHER_CTX_new(), *ctx = EVP_CIPHER_CTX_new();

    memcpy(tag, s->v[F_TAG], 16);
    if (mode == 2)
        tag[s->line % 16] ^= 0x10;
    memset(out, 0xa5, sizeof out);
    ok = EVP_CipherInit_ex2(base, c, NULL, NULL, enc, NULL) > 0;
    if (ok && (size_t)EVP_CIPHER_CTX_get_iv_length(base) != s->len[F_IV])
        ok = EVP_CIPHER_CTX_ctrl(base, EVP_CTRL_AEAD_SET_IVLEN, (int)s->len[F_IV], NULL) > 0;
    ok = ok && CHECK(EVP_CIPHER_CTX_ctrl(base, EVP_CTRL_AEAD_SET_TAG, (int)s->len[F_TAG], enc ? NULL : tag) > 0,
                     "line %d: EVP_CTRL_AEAD_SET_TAG(%zu, %s) refused", s->line, s->len[F_TAG], enc ? "NULL" : "tag");
    ok = ok && EVP_CIPHER_CTX_set_key_length(base, (int)s->len[F_KEY]) > 0 &&
         EVP_CipherInit_ex(base, NULL, NULL, s->v[F_KEY], s->v[F_IV], -1) > 0 && EVP_CIPHER_CTX_copy(ctx, base) > 0;
    EVP_CIPHER_CTX_free(base); /* the copy must stand alone */
    if (ok && aad > 0)
        ok = EVP_CipherUpdate(ctx, NULL, &outl, s->v[F_AAD], (int)cut) > 0 &&
             (cut == aad || EVP_CipherUpdate(ctx, NULL, &outl, s->v[F_AAD] + cut, (int)(aad - cut)) > 0);
    CHECK(ok, "line %d (%s, %s): set-up or AAD refused", s->line, s->cipher, mode == 1 ? "seal" : "open");
    int upd = EVP_CipherUpdate(ctx, out, &outl, in, (int)len) > 0;
    int fin = EVP_CipherFinal_ex(ctx, out + len, &outl) > 0;
    if (mode == 2) {
        CHECK(!fin, "line %d: a forged tag was accepted", s->line);
        CHECK(vgt_all_zero(out, len), "line %d: a forged open left its output", s->line);
    } else {
        CHECK(upd && fin, "line %d (%s, %s): update %d, final %d", s->line, s->cipher, enc ? "seal" : "open", upd,
              fin);
        CHECK_BYTES(out, want, len, "line %d (%s, %s): output", s->line, s->cipher, enc ? "seal" : "open");
        CHECK(out[len] == 0xa5, "line %d: written past the output", s->line);
        if (enc) {
            uint8_t got[16] = { 0 };
            CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)s->len[F_TAG], got) > 0, "line %d: get tag",
                  s->line);
            CHECK_BYTES(got, s->v[F_TAG], s->len[F_TAG], "line %d (%s): tag", s->line, s->cipher);
        }
    }
    EVP_CIPHER_CTX_free(ctx);
    ERR_clear_error();
}

static void finish_stanza(struct stanza *s, size_t *count)
{
    if (!s->has[F_CIPHER])
        return;
    (*count)++;
    if (!CHECK(s->has[F_KEY] && s->has[F_IV] && s->has[F_TAG] && s->has[F_PT] && s->has[F_CT] &&
                   s->len[F_PT] == s->len[F_CT] && s->len[F_TAG] == 16,
               "line %d: a stanza without its key, IV, 16-byte tag or texts of one length", s->line))
        return;
    EVP_CIPHER *c = vgp_fetch(&g, s->cipher, 1);
    run(s, c, 1, (int)(*count & 1));
    run(s, c, 0, (int)(~*count & 1));
    run(s, c, 2, 0);
    EVP_CIPHER_free(c);
}

int main(int argc, char **argv)
{
    char path[4096], line[4 * FIELD_MAX];
    struct stanza s;
    size_t count = 0;
    int n = 0;

    vgt_init(argc, argv);
    vgp_open(&g);
    snprintf(path, sizeof path, "%s/openssl/evpciph_aes_gcm_siv.txt", vgt_vectors_dir());
    FILE *f = fopen(path, "r");
    if (!CHECK(f != NULL, "cannot open %s", path))
        return vgt_finish();
    memset(&s, 0, sizeof s);
    while (fgets(line, sizeof line, f)) {
        char *eq, *k, *v, *end;
        n++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#')
            continue;
        if (line[0] == '\0') {
            finish_stanza(&s, &count);
            memset(&s, 0, sizeof s);
            continue;
        }
        eq = strchr(line, '=');
        if (!CHECK(eq != NULL, "%s:%d: not a 'key = value' line", path, n))
            break;
        for (end = eq; end > line && end[-1] == ' '; end--)
            ;
        *end = '\0';
        k = line;
        for (v = eq + 1; *v == ' '; v++)
            ;
        if (strcmp(k, "Title") == 0)
            continue;
        int fi = 0;
        while (fi < F_COUNT && strcmp(k, field_names[fi]) != 0)
            fi++;
        if (!CHECK(fi < F_COUNT, "%s:%d: unknown key '%s'", path, n, k) ||
            !CHECK(!s.has[fi], "%s:%d: '%s' given twice", path, n, k))
            break;
        if (s.line == 0)
            s.line = n;
        s.has[fi] = 1;
        if (fi == F_CIPHER) {
            snprintf(s.cipher, sizeof s.cipher, "%s", v);
        } else if (fi == F_FIPS) {
            /* the FIPS provider's version gate: nothing for vg.so */
        } else {
            s.len[fi] = *v ? vgt_hex_decode(v, s.v[fi], FIELD_MAX) : 0;
            if (!CHECK(s.len[fi] != (size_t)-1, "%s:%d: bad hex for '%s'", path, n, k))
                break;
        }
    }
    finish_stanza(&s, &count);
    fclose(f);
    CHECK(count == WANT_STANZAS, "%s: %zu stanzas, the file has %d", path, count, WANT_STANZAS);
    printf("OpenSSL 3.5.5's evpciph_aes_gcm_siv.txt: %zu stanzas, each sealed, opened and forged through vg.so\n",
           count);
    vgp_close(&g);
    return vgt_finish();
}
