/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * vectors_wycheproof.c — Project Wycheproof's AEAD vectors (C2SP/wycheproof testvectors_v1,
 * aead_test_schema_v1) for AES-GCM (316 tests), AES-GCM-SIV (202) and AES-CCM (552).
 *
 * What each test must do is decided from its result and its flags, then cross-checked against the
 * limits vg.h documents (vt_aead_param_error):
 *   valid       seal gives ct || tag and open gives msg. (A valid vector outside vg's documented
 *               limits would have to be refused with the parameter error; none is, in these files,
 *               and the count is printed.)
 *   invalid     the flags say why, and so which refusal is right:
 *                 ModifiedTag                                   open -> VG_ERR_AUTH, output zeroed
 *                 ZeroLengthIv, InvalidNonceSize, CVE-2017-18330 seal and open -> VG_ERR_NONCE_LENGTH
 *                 InvalidTagSize, InsecureTagSize               seal and open -> VG_ERR_TAG_LENGTH
 *               with nothing written on a parameter error. The flag's error must also be the one
 *               vg's documented limits give for the lengths, so a limit that drifted (say, CCM taking
 *               a 2-byte tag) fails here.
 *   acceptable  (none in these files) accepted if vg's documented limits allow the lengths, and then
 *               it must match like a valid one; otherwise refused with the limits' parameter error.
 * A flag this program does not know, a flag the file's notes do not describe, or flags that
 * disagree on the refusal fail the test: it never guesses. --quick runs everything.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "vecfile.h"

static const struct {
    const char *name;
    enum vt_aead alg;
    const char *algorithm;
    size_t tests;
} files[] = {
    {"aes_gcm_test.json", VT_GCM, "AES-GCM", 316},
    {"aes_gcm_siv_test.json", VT_GCM_SIV, "AES-GCM-SIV", 202},
    {"aes_ccm_test.json", VT_CCM, "AES-CCM", 552},
};

/* Every flag this program understands, and what a vector carrying it must get from vg. */
static const struct {
    const char *flag;
    int expect;
} flag_table[] = {
    /* Properties of vectors that must work. */
    {"Ktv", VG_OK},
    {"Pseudorandom", VG_OK},
    {"SmallIv", VG_OK},      /* GCM nonces of 1..11 bytes: vg takes any length >= 1 */
    {"LongIv", VG_OK},       /* GCM nonces over 12 bytes, hashed with GHASH */
    {"CounterWrap", VG_OK},  /* GCM inc32 wrapping mod 2^32 */
    {"SpecialCase", VG_OK},
    {"WrappedIv", VG_OK},    /* GCM-SIV's little-endian counter wrapping mod 2^32 */
    /* Why a vector is invalid. */
    {"ModifiedTag", VG_ERR_AUTH},
    {"ZeroLengthIv", VG_ERR_NONCE_LENGTH},
    {"InvalidNonceSize", VG_ERR_NONCE_LENGTH},
    {"CVE-2017-18330", VG_ERR_NONCE_LENGTH}, /* CCM nonces of 64+ bytes */
    {"InvalidTagSize", VG_ERR_TAG_LENGTH},
    {"InsecureTagSize", VG_ERR_TAG_LENGTH},  /* CCM 2-byte tags */
};
#define NFLAGS (sizeof flag_table / sizeof flag_table[0])

static int flag_index(const char *flag)
{
    for (size_t i = 0; i < NFLAGS; i++)
        if (strcmp(flag_table[i].flag, flag) == 0) return (int)i;
    return -1;
}

static const char *err_name(int rc)
{
    switch (rc) {
    case VG_OK: return "VG_OK";
    case VG_ERR_KEY_LENGTH: return "VG_ERR_KEY_LENGTH";
    case VG_ERR_NONCE_LENGTH: return "VG_ERR_NONCE_LENGTH";
    case VG_ERR_TAG_LENGTH: return "VG_ERR_TAG_LENGTH";
    case VG_ERR_AUTH: return "VG_ERR_AUTH";
    default: return "?";
    }
}

/* Tallies per file, by the outcome required. */
struct tally {
    size_t tests, ran, by_expect[8], valid_outside_limits, acceptable;
};

static size_t expect_slot(int rc) { return (size_t)(-rc) < 8 ? (size_t)(-rc) : 7; }

/* The notes object: every flag it describes must be one this program knows. Returns it. */
static vj_value *read_notes(vj_value *root, const char *file)
{
    int ok = 1;
    vj_value *notes = vj_get_object(root, "notes", file, &ok);
    if (!notes) return NULL;
    for (size_t i = 0; i < vj_count(notes); i++) {
        const char *flag = vj_member_name(notes, i);
        char ctx[256];
        snprintf(ctx, sizeof ctx, "%s notes.%s", file, flag);
        CHECK(flag_index(flag) >= 0, "%s: flag \"%s\" is not one this test knows how to judge", file, flag);
        vj_value *note = vj_member(notes, flag);
        if (!CHECK(vj_type_of(note) == VJ_OBJECT, "%s: not an object", ctx)) continue;
        vj_get_string(note, "bugType", ctx, &ok);
        vj_get_string(note, "description", ctx, &ok);
        /* Optional documentation. */
        vj_member(note, "effect");
        vj_member(note, "links");
        vj_member(note, "cves");
        vj_check_all_read(note, ctx);
    }
    return notes;
}

static void run_test(enum vt_aead alg, vj_value *t, vj_value *notes, const char *file, long long key_bits,
                     long long iv_bits, long long tag_bits, struct tally *tl)
{
    char ctx[256];
    int ok = 1;
    long long id = vj_get_int(t, "tcId", file, &ok);
    snprintf(ctx, sizeof ctx, "%s tcId %lld", file, id);
    const char *comment = vj_get_string(t, "comment", ctx, &ok);
    struct vt_aead_vector v;
    size_t ctl = 0, msgl = 0;
    v.key = vj_get_hex(t, "key", &v.key_len, ctx, &ok);
    v.nonce = vj_get_hex(t, "iv", &v.nonce_len, ctx, &ok);
    v.aad = vj_get_hex(t, "aad", &v.aad_len, ctx, &ok);
    v.pt = vj_get_hex(t, "msg", &msgl, ctx, &ok);
    v.ct = vj_get_hex(t, "ct", &ctl, ctx, &ok);
    v.tag = vj_get_hex(t, "tag", &v.tag_len, ctx, &ok);
    const char *result = vj_get_string(t, "result", ctx, &ok);
    vj_value *flags = vj_get_array(t, "flags", ctx, &ok);
    vj_check_all_read(t, ctx);
    if (!ok) return;
    if (comment && comment[0]) {
        size_t n = strlen(ctx);
        snprintf(ctx + n, sizeof ctx - n, " (%.80s)", comment);
    }

    ok &= CHECK((long long)v.key_len * 8 == key_bits, "%s: key of %zu bytes, keySize %lld", ctx, v.key_len,
                key_bits);
    ok &= CHECK((long long)v.nonce_len * 8 == iv_bits, "%s: iv of %zu bytes, ivSize %lld", ctx, v.nonce_len,
                iv_bits);
    ok &= CHECK((long long)v.tag_len * 8 == tag_bits, "%s: tag of %zu bytes, tagSize %lld", ctx, v.tag_len,
                tag_bits);
    ok &= CHECK(msgl == ctl, "%s: msg %zu bytes, ct %zu", ctx, msgl, ctl);
    v.len = ctl;

    /* What the flags say vg must do; they must agree on any refusal. */
    int flag_expect = VG_OK;
    for (size_t i = 0; i < vj_count(flags); i++) {
        const char *flag = vj_string(vj_index(flags, i), NULL);
        if (!CHECK(flag != NULL, "%s: flags[%zu] is not a string", ctx, i)) {
            ok = 0;
            continue;
        }
        int fi = flag_index(flag);
        if (!CHECK(fi >= 0, "%s: unknown flag \"%s\": this test cannot judge it", ctx, flag) ||
            !CHECK(notes && vj_member(notes, flag), "%s: flag \"%s\" is not described in the file's notes",
                   ctx, flag)) {
            ok = 0;
            continue;
        }
        int e = flag_table[fi].expect;
        if (e == VG_OK) continue;
        if (!CHECK(flag_expect == VG_OK || flag_expect == e, "%s: flags ask for both %s and %s", ctx,
                   err_name(flag_expect), err_name(e))) {
            ok = 0;
            continue;
        }
        flag_expect = e;
    }
    if (!ok) return;

    int limits = vt_aead_param_error(alg, v.key_len, v.nonce_len, v.tag_len);
    int expect;
    if (strcmp(result, "valid") == 0) {
        if (!CHECK(flag_expect == VG_OK, "%s: a valid vector flagged as %s", ctx, err_name(flag_expect)))
            return;
        expect = limits;
        if (limits != VG_OK) tl->valid_outside_limits++;
    } else if (strcmp(result, "invalid") == 0) {
        if (!CHECK(flag_expect != VG_OK,
                   "%s: invalid, but no flag says why: cannot tell which refusal is right", ctx))
            return;
        if (flag_expect == VG_ERR_AUTH) {
            /* A forgery: refused by authentication, or earlier by a parameter vg does not take. */
            expect = limits != VG_OK ? limits : VG_ERR_AUTH;
        } else {
            CHECK(limits == flag_expect,
                  "%s: flagged %s, but vg's documented limits give %s for key %zu, nonce %zu, tag %zu bytes",
                  ctx, err_name(flag_expect), err_name(limits), v.key_len, v.nonce_len, v.tag_len);
            expect = flag_expect;
        }
    } else if (strcmp(result, "acceptable") == 0) {
        expect = limits;
        tl->acceptable++;
    } else {
        CHECK(0, "%s: result \"%s\" is not valid, invalid or acceptable", ctx, result);
        return;
    }
    tl->by_expect[expect_slot(expect)]++;
    tl->ran++;
    vt_check_aead(alg, &v, expect, ctx);
}

static void run_file(size_t fi)
{
    const char *file = files[fi].name;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/wycheproof", vgt_vectors_dir());
    vj_value *root = vj_parse_file(dir, file);
    if (!root) return;
    int ok = 1;
    struct tally tl;
    memset(&tl, 0, sizeof tl);
    const char *algorithm = vj_get_string(root, "algorithm", file, &ok);
    const char *schema = vj_get_string(root, "schema", file, &ok);
    long long declared = vj_get_int(root, "numberOfTests", file, &ok);
    vj_get_array(root, "header", file, &ok); /* prose */
    vj_value *notes = read_notes(root, file);
    vj_value *groups = vj_get_array(root, "testGroups", file, &ok);
    vj_check_all_read(root, file);
    if (!ok || !notes) {
        vj_free(root);
        return;
    }
    CHECK(strcmp(algorithm, files[fi].algorithm) == 0, "%s: algorithm \"%s\", expected \"%s\"", file,
          algorithm, files[fi].algorithm);
    CHECK(strcmp(schema, "aead_test_schema_v1.json") == 0,
          "%s: schema \"%s\" is not aead_test_schema_v1.json", file, schema);

    for (size_t g = 0; g < vj_count(groups); g++) {
        vj_value *grp = vj_index(groups, g);
        char ctx[128];
        snprintf(ctx, sizeof ctx, "%s testGroups[%zu]", file, g);
        if (!CHECK(vj_type_of(grp) == VJ_OBJECT, "%s: not an object", ctx)) continue;
        int gok = 1;
        const char *type = vj_get_string(grp, "type", ctx, &gok);
        long long key_bits = vj_get_int(grp, "keySize", ctx, &gok);
        long long iv_bits = vj_get_int(grp, "ivSize", ctx, &gok);
        long long tag_bits = vj_get_int(grp, "tagSize", ctx, &gok);
        vj_value *source = vj_get_object(grp, "source", ctx, &gok);
        if (source) {
            vj_get_string(source, "name", ctx, &gok);
            vj_get_string(source, "version", ctx, &gok);
            vj_check_all_read(source, ctx);
        }
        vj_value *tests = vj_get_array(grp, "tests", ctx, &gok);
        vj_check_all_read(grp, ctx);
        if (!gok || !CHECK(strcmp(type, "AeadTest") == 0, "%s: type \"%s\" is not AeadTest", ctx, type))
            continue;
        for (size_t i = 0; i < vj_count(tests); i++) {
            vj_value *t = vj_index(tests, i);
            tl.tests++;
            if (!CHECK(vj_type_of(t) == VJ_OBJECT, "%s tests[%zu]: not an object", ctx, i)) continue;
            run_test(files[fi].alg, t, notes, file, key_bits, iv_bits, tag_bits, &tl);
        }
    }
    vt_check_count(file, tl.tests, files[fi].tests, tl.ran);
    CHECK(declared == (long long)tl.tests, "%s: numberOfTests says %lld, the file holds %zu", file,
          declared, tl.tests);
    printf("  required outcome: %zu match, %zu VG_ERR_AUTH, %zu VG_ERR_NONCE_LENGTH, %zu VG_ERR_TAG_LENGTH, "
           "%zu VG_ERR_KEY_LENGTH; %zu acceptable, %zu valid outside vg's limits\n",
           tl.by_expect[0], tl.by_expect[expect_slot(VG_ERR_AUTH)],
           tl.by_expect[expect_slot(VG_ERR_NONCE_LENGTH)], tl.by_expect[expect_slot(VG_ERR_TAG_LENGTH)],
           tl.by_expect[expect_slot(VG_ERR_KEY_LENGTH)], tl.acceptable, tl.valid_outside_limits);
    vj_free(root);
}

int main(int argc, char **argv)
{
    vgt_init(argc, argv);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) run_file(i);
    return vgt_finish();
}
