/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * test_overlap.c — every overlap vg.h allows gives the bytes and verdict of separate buffers.
 *
 * vg.h: in == out or disjoint; any other overlap of an output with an input is allowed (out over the
 * AAD, the nonce or open's tag; seal's tag over the AAD, the nonce, in or out), and the call must act
 * as if the buffers were separate, seal's tag written last. Each case lays the inputs out in one
 * arena of random bytes, places one output over one input at a chosen offset, and compares the whole
 * arena afterwards with the image the call must leave: the separate-buffer result written over the
 * arena in the documented order (out, then tag). The return code must match too. Open is checked
 * with the genuine tag and with a forged one (output all zero).
 *
 * Lengths cross every implementation's whole-message limits (vaes ≤ 16 KiB, the GCM-SIV short
 * kernels, power8 ≤ 224 B, armv8 ≤ 192 B) and the 4 KiB chunks of the general paths, so the short
 * kernels and the bulk loops both meet every overlap.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "spec.h"

enum { GCM, SIV, CCM };
static const char *const aead_name[] = {"gcm", "gcm-siv", "ccm"};

typedef union {
    vg_aes_gcm_key gcm;
    vg_aes_gcm_siv_key siv;
    vg_aes_ccm_key ccm;
} any_key;

static int do_seal(int aead, const any_key *k, const uint8_t *nonce, size_t nl, const uint8_t *aad, size_t al,
                   const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag, size_t tl)
{
    switch (aead) {
    case GCM: return vg_aes_gcm_seal(&k->gcm, nonce, nl, aad, al, in, len, out, tag, tl);
    case SIV: return vg_aes_gcm_siv_seal(&k->siv, nonce, nl, aad, al, in, len, out, tag, tl);
    default: return vg_aes_ccm_seal(&k->ccm, nonce, nl, aad, al, in, len, out, tag, tl);
    }
}

static int do_open(int aead, const any_key *k, const uint8_t *nonce, size_t nl, const uint8_t *aad, size_t al,
                   const uint8_t *in, size_t len, const uint8_t *tag, size_t tl, uint8_t *out)
{
    switch (aead) {
    case GCM: return vg_aes_gcm_open(&k->gcm, nonce, nl, aad, al, in, len, tag, tl, out);
    case SIV: return vg_aes_gcm_siv_open(&k->siv, nonce, nl, aad, al, in, len, tag, tl, out);
    default: return vg_aes_ccm_open(&k->ccm, nonce, nl, aad, al, in, len, tag, tl, out);
    }
}

static int do_init(int aead, any_key *k, const uint8_t *key, size_t kl)
{
    switch (aead) {
    case GCM: return vg_aes_gcm_init(&k->gcm, key, kl);
    case SIV: return vg_aes_gcm_siv_init(&k->siv, key, kl);
    default: return vg_aes_ccm_init(&k->ccm, key, kl);
    }
}

/* Which buffer an output is placed over. */
enum target { T_AAD, T_NONCE, T_IN, T_OUT, T_TAG };
static const char *const target_name[] = {"aad", "nonce", "in", "out", "tag"};

#define MAX_LEN 20000
#define MAX_AAD 300
#define SLACK 64
/* nonce | aad | in | tag | out, each with room on both sides for an output to start before it or
   run past its end without reaching the next input. */
#define ARENA (8 * (MAX_LEN + SLACK) + 2 * (MAX_AAD + SLACK))

static uint8_t *arena, *image;
static size_t n_cases;

struct layout {
    size_t nonce, aad, in, tag, out; /* offsets into the arena */
};

/* The inputs never overlap each other: each gets its own region, and the output is placed relative
   to the target's region. */
static struct layout base_layout(size_t len)
{
    struct layout l;
    l.nonce = 2 * SLACK + MAX_LEN;                 /* room before it for out (len bytes) */
    l.aad = l.nonce + SLACK + MAX_LEN + SLACK;
    l.in = l.aad + MAX_AAD + SLACK + MAX_LEN;
    l.tag = l.in + MAX_LEN + SLACK + MAX_LEN;
    l.out = l.tag + SLACK + MAX_LEN + SLACK;       /* far from everything: the default */
    (void)len;
    return l;
}

static size_t target_offset(const struct layout *l, enum target t)
{
    switch (t) {
    case T_AAD: return l->aad;
    case T_NONCE: return l->nonce;
    case T_IN: return l->in;
    case T_OUT: return l->out;
    default: return l->tag;
    }
}

/* The deltas d (output = target + d) at which an output of olen bytes overlaps a target of tlen bytes:
   -olen < d < tlen. A few: both ends, the middle, and exact alignment. */
static size_t deltas(long *d, size_t olen, size_t tlen)
{
    size_t n = 0;
    if (olen == 0 || tlen == 0) return 0;
    long cand[] = {0, 1, (long)tlen - 1, -(long)olen + 1, -1, (long)tlen / 2, -(long)olen / 2};
    for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
        long c = cand[i];
        if (c <= -(long)olen || c >= (long)tlen) continue;
        int dup = 0;
        for (size_t j = 0; j < n; j++) dup |= d[j] == c;
        if (!dup) d[n++] = c;
    }
    return n;
}

struct msg {
    int aead;
    const any_key *k;
    const uint8_t *key;
    size_t kl, nl, al, len, tl;
    const uint8_t *nonce, *aad, *pt;
    uint8_t *ct, *tag; /* the separate-buffer seal */
};

static void fill_inputs(const struct msg *m, const struct layout *l, int open)
{
    vgt_rand_bytes(arena, ARENA);
    memcpy(arena + l->nonce, m->nonce, m->nl);
    memcpy(arena + l->aad, m->aad, m->al);
    memcpy(arena + l->in, open ? m->ct : m->pt, m->len);
    if (open) memcpy(arena + l->tag, m->tag, m->tl);
    memcpy(image, arena, ARENA);
}

static void seal_case(const struct msg *m, enum target t, int out_is_tag, long d)
{
    struct layout l = base_layout(m->len);
    size_t *moved = out_is_tag ? &l.tag : &l.out;
    *moved = (size_t)((long)target_offset(&l, t) + d);
    fill_inputs(m, &l, 0);
    /* the image: out, then the tag over it */
    memcpy(image + l.out, m->ct, m->len);
    memcpy(image + l.tag, m->tag, m->tl);
    int rc = do_seal(m->aead, m->k, arena + l.nonce, m->nl, arena + l.aad, m->al, arena + l.in, m->len,
                     arena + l.out, arena + l.tag, m->tl);
    n_cases++;
    int ok = CHECK(rc == VG_OK, "%s seal key=%zu len=%zu aad=%zu nonce=%zu tag=%zu, %s over %s %+ld: rc %d",
                   aead_name[m->aead], m->kl, m->len, m->al, m->nl, m->tl, out_is_tag ? "tag" : "out",
                   target_name[t], d, rc);
    if (ok)
        CHECK(memcmp(arena, image, ARENA) == 0, "%s seal key=%zu len=%zu aad=%zu nonce=%zu tag=%zu, %s over %s %+ld: "
              "bytes differ from separate buffers", aead_name[m->aead], m->kl, m->len, m->al, m->nl, m->tl,
              out_is_tag ? "tag" : "out", target_name[t], d);
}

static void open_case(const struct msg *m, enum target t, long d, int forge)
{
    struct layout l = base_layout(m->len);
    l.out = (size_t)((long)target_offset(&l, t) + d);
    fill_inputs(m, &l, 1);
    if (forge) arena[l.tag + m->tl - 1] ^= 0x80;
    memcpy(image, arena, ARENA);
    if (forge) memset(image + l.out, 0, m->len);
    else memcpy(image + l.out, m->pt, m->len);
    int rc = do_open(m->aead, m->k, arena + l.nonce, m->nl, arena + l.aad, m->al, arena + l.in, m->len,
                     arena + l.tag, m->tl, arena + l.out);
    n_cases++;
    int want = forge ? VG_ERR_AUTH : VG_OK;
    CHECK(rc == want, "%s open%s key=%zu len=%zu aad=%zu nonce=%zu tag=%zu, out over %s %+ld: rc %d, want %d",
          aead_name[m->aead], forge ? " (forged)" : "", m->kl, m->len, m->al, m->nl, m->tl, target_name[t], d, rc,
          want);
    CHECK(memcmp(arena, image, ARENA) == 0, "%s open%s key=%zu len=%zu aad=%zu nonce=%zu tag=%zu, out over %s "
          "%+ld: bytes differ from separate buffers", aead_name[m->aead], forge ? " (forged)" : "", m->kl, m->len,
          m->al, m->nl, m->tl, target_name[t], d);
}

/* in == out itself is test_aead.c's; here the inputs never overlap each other (with in == out, an
   AAD overlapping out would overlap in, two inputs with different contents). */

static void run_message(struct msg *m)
{
    long d[8];
    /* seal: out over aad, nonce; tag over aad, nonce, in, out */
    static const enum target seal_out_targets[] = {T_AAD, T_NONCE};
    for (size_t i = 0; i < 2; i++) {
        enum target t = seal_out_targets[i];
        size_t tlen = t == T_AAD ? m->al : m->nl;
        size_t nd = deltas(d, m->len, tlen);
        for (size_t j = 0; j < nd; j++) seal_case(m, t, 0, d[j]);
    }
    static const enum target seal_tag_targets[] = {T_AAD, T_NONCE, T_IN, T_OUT};
    for (size_t i = 0; i < 4; i++) {
        enum target t = seal_tag_targets[i];
        size_t tlen = t == T_AAD ? m->al : t == T_NONCE ? m->nl : m->len;
        size_t nd = deltas(d, m->tl, tlen);
        for (size_t j = 0; j < nd; j++) seal_case(m, t, 1, d[j]);
    }
    /* open: out over aad, nonce, tag; genuine and forged */
    static const enum target open_targets[] = {T_AAD, T_NONCE, T_TAG};
    for (size_t i = 0; i < 3; i++) {
        enum target t = open_targets[i];
        size_t tlen = t == T_AAD ? m->al : t == T_NONCE ? m->nl : m->tl;
        size_t nd = deltas(d, m->len, tlen);
        for (size_t j = 0; j < nd; j++)
            for (int forge = 0; forge < 2; forge++) open_case(m, t, d[j], forge);
    }
}

static void spec_seal(int aead, const uint8_t *key, size_t kl, const uint8_t *nonce, size_t nl, const uint8_t *aad,
                      size_t al, const uint8_t *pt, size_t len, uint8_t *ct, uint8_t *tag, size_t tl)
{
    uint8_t full[16];
    switch (aead) {
    case GCM:
        spec_aes_gcm_seal(key, kl, nonce, nl, aad, al, pt, len, ct, full);
        memcpy(tag, full, tl);
        break;
    case SIV: spec_aes_gcm_siv_seal(key, kl, nonce, aad, al, pt, len, ct, tag); break;
    default: spec_aes_ccm_seal(key, kl, nonce, nl, aad, al, pt, len, ct, tag, tl); break;
    }
}

int main(int argc, char **argv)
{
    vgt_init(argc, argv);
    arena = vgt_xmalloc(ARENA);
    image = vgt_xmalloc(ARENA);
    static const size_t lens_full[] = {0, 1, 15, 16, 64, 100, 192, 193, 224, 225, 1000, 4096, 4097, 5000,
                                       16384, 16385, MAX_LEN};
    static const size_t lens_quick[] = {0, 15, 64, 193, 225, 4097, 16385};
    static const size_t aads[] = {0, 13, 49, MAX_AAD};
    const size_t *lens = vgt_quick() ? lens_quick : lens_full;
    size_t n_lens = vgt_quick() ? sizeof lens_quick / sizeof lens_quick[0] : sizeof lens_full / sizeof lens_full[0];
    uint8_t *pt = vgt_xmalloc(MAX_LEN), *ct = vgt_xmalloc(MAX_LEN), aad[MAX_AAD], nonce[32], tag[16], key[32];

    for (int aead = GCM; aead <= CCM; aead++) {
        static const size_t key_lens[] = {16, 24, 32};
        for (size_t ki = 0; ki < 3; ki++) {
            size_t kl = key_lens[ki];
            vgt_rand_bytes(key, kl);
            any_key k;
            if (!CHECK(do_init(aead, &k, key, kl) == VG_OK, "%s init %zu", aead_name[aead], kl)) continue;
            /* nonce and tag lengths: the usual one and one more that takes another path */
            size_t nls[2], tls[2];
            if (aead == GCM) { nls[0] = 12; nls[1] = 20; tls[0] = 16; tls[1] = 12; }
            else if (aead == SIV) { nls[0] = nls[1] = 12; tls[0] = tls[1] = 16; }
            else { nls[0] = 13; nls[1] = 7; tls[0] = 16; tls[1] = 8; }
            for (size_t li = 0; li < n_lens; li++)
                for (size_t ai = 0; ai < sizeof aads / sizeof aads[0]; ai++)
                    for (size_t v = 0; v < (aead == SIV ? 1u : 2u); v++) {
                        /* the second variant only at a few lengths: it changes the nonce/tag path */
                        if (v && li % 3) continue;
                        struct msg m = {aead, &k, key, kl, nls[v], aads[ai], lens[li], tls[v],
                                        nonce, aad, pt, ct, tag};
                        vgt_rand_bytes(nonce, m.nl);
                        vgt_rand_bytes(aad, m.al);
                        vgt_rand_bytes(pt, m.len);
                        spec_seal(aead, key, kl, nonce, m.nl, aad, m.al, pt, m.len, ct, tag, m.tl);
                        run_message(&m);
                    }
        }
    }
    printf("%zu overlap cases\n", n_cases);
    free(arena);
    free(image);
    free(pt);
    free(ct);
    return vgt_finish();
}
