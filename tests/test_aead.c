/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * test_aead.c — AES-GCM, AES-GCM-SIV and AES-CCM against the executable spec, forgery and bad input.
 *
 * One table row per AEAD (allowed key, nonce and tag lengths, limits, library and spec entry points);
 * every check below runs over every row.
 *
 *   differential  every plaintext length 0..1100 (AAD length, nonce length, tag length, key size
 *                 rotating), every AAD length 0..80 (and CCM's AAD-length encoding edges 65279/65280),
 *                 every nonce length (GCM 1..64, CCM 7..13), every tag length, every key size, long
 *                 messages (16 KiB, 64 KiB + 17, ~70 KB), 16..47 whole blocks at every key size (the
 *                 fused bulk kernels' loop and every tail), in place and out of place, every buffer at a
 *                 random offset, inputs in exact-size heap blocks (so ASan sees any over-read), guard
 *                 bytes around out and tag; open of the sealed output gives the plaintext back
 *   forgery       each single bit of nonce, AAD, ciphertext and tag flipped (all bits for short
 *                 messages, a random sample for long ones): VG_ERR_AUTH and out all zero (in place too)
 *   bad input     every wrong key/nonce/tag length gets its own code; NULL with non-zero length,
 *                 partial overlap, unset key: VG_ERR_ARG; lengths just over each limit (huge len,
 *                 16-byte buffers): VG_ERR_LENGTH; the documented order of the checks; out and tag
 *                 (and the key struct for init) byte-for-byte untouched on every error
 *   selection     an AEAD key keeps the implementation that set it up
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "internal.h" /* white-box: the short one-shot GCM limits of the implementation under test */
#include "spec.h"

#define GUARD 32
#define GUARD_BYTE 0xC3

typedef union {
    vg_aes_gcm_key gcm;
    vg_aes_gcm_siv_key siv;
    vg_aes_ccm_key ccm;
} any_key;

struct aead {
    const char *name;
    size_t key_lens[3], n_key_lens;
    size_t nonce_min, nonce_max, nonce_default;
    size_t tag_lens[8], n_tag_lens;
    int (*init)(void *k, const uint8_t *key, size_t key_len);
    int (*seal)(const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag, size_t tag_len);
    int (*open)(const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                const uint8_t *in, size_t len, const uint8_t *tag, size_t tag_len, uint8_t *out);
    void (*wipe)(void *k);
    /* spec: writes tag_len bytes of tag */
    void (*spec_seal)(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                      size_t aad_len, const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag, size_t tag_len);
    int (*spec_open)(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                     size_t aad_len, const uint8_t *in, size_t len, const uint8_t *tag, size_t tag_len, uint8_t *out);
    size_t key_size; /* sizeof the public key type */
};

/* --- the three rows ------------------------------------------------------------------------------- */

static int gcm_init(void *k, const uint8_t *key, size_t n) { return vg_aes_gcm_init(k, key, n); }
static int gcm_seal(const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                    const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag, size_t tag_len)
{
    return vg_aes_gcm_seal(k, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
}
static int gcm_open(const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                    const uint8_t *in, size_t len, const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    return vg_aes_gcm_open(k, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, out);
}
static void gcm_wipe(void *k) { vg_aes_gcm_key_wipe(k); }
static void gcm_spec_seal(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                          const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
                          uint8_t *tag, size_t tag_len)
{
    uint8_t full[16];
    spec_aes_gcm_seal(key, key_len, nonce, nonce_len, aad, aad_len, in, len, out, full);
    memcpy(tag, full, tag_len);
}

static int siv_init(void *k, const uint8_t *key, size_t n) { return vg_aes_gcm_siv_init(k, key, n); }
static int siv_seal(const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                    const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag, size_t tag_len)
{
    return vg_aes_gcm_siv_seal(k, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
}
static int siv_open(const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                    const uint8_t *in, size_t len, const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    return vg_aes_gcm_siv_open(k, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, out);
}
static void siv_wipe(void *k) { vg_aes_gcm_siv_key_wipe(k); }
static void siv_spec_seal(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                          const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, uint8_t *out,
                          uint8_t *tag, size_t tag_len)
{
    uint8_t full[16];
    (void)nonce_len;
    spec_aes_gcm_siv_seal(key, key_len, nonce, aad, aad_len, in, len, out, full);
    memcpy(tag, full, tag_len);
}
static int siv_spec_open(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                         const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, const uint8_t *tag,
                         size_t tag_len, uint8_t *out)
{
    (void)nonce_len;
    (void)tag_len;
    return spec_aes_gcm_siv_open(key, key_len, nonce, aad, aad_len, in, len, tag, out);
}

static int ccm_init(void *k, const uint8_t *key, size_t n) { return vg_aes_ccm_init(k, key, n); }
static int ccm_seal(const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                    const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag, size_t tag_len)
{
    return vg_aes_ccm_seal(k, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len);
}
static int ccm_open(const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                    const uint8_t *in, size_t len, const uint8_t *tag, size_t tag_len, uint8_t *out)
{
    return vg_aes_ccm_open(k, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, out);
}
static void ccm_wipe(void *k) { vg_aes_ccm_key_wipe(k); }

static const struct aead aeads[3] = {
    {"gcm", {16, 24, 32}, 3, 1, 64, 12, {16, 15, 14, 13, 12, 8, 4}, 7, gcm_init, gcm_seal, gcm_open, gcm_wipe,
     gcm_spec_seal, spec_aes_gcm_open, sizeof(vg_aes_gcm_key)},
    {"gcm-siv", {16, 24, 32}, 3, 12, 12, 12, {16}, 1, siv_init, siv_seal, siv_open, siv_wipe, siv_spec_seal,
     siv_spec_open, sizeof(vg_aes_gcm_siv_key)},
    {"ccm", {16, 24, 32}, 3, 7, 13, 13, {16, 14, 12, 10, 8, 6, 4}, 7, ccm_init, ccm_seal, ccm_open, ccm_wipe,
     spec_aes_ccm_seal, spec_aes_ccm_open, sizeof(vg_aes_ccm_key)},
};

static int tag_len_ok(const struct aead *m, size_t t)
{
    for (size_t i = 0; i < m->n_tag_lens; i++)
        if (m->tag_lens[i] == t) return 1;
    return 0;
}
static int key_len_ok(const struct aead *m, size_t n)
{
    for (size_t i = 0; i < m->n_key_lens; i++)
        if (m->key_lens[i] == n) return 1;
    return 0;
}

/* --- buffers ----------------------------------------------------------------------------------------- */

/* Heap blocks freed at the end of each case. Inputs are copied to the END of an exact-size block (so
   reading one byte past them is a heap overflow ASan reports), at a chosen offset from malloc's
   alignment. */
#define POOL_MAX 32
static void *pool[POOL_MAX];
static size_t npool;

static uint8_t *pool_alloc(size_t n)
{
    if (npool == POOL_MAX) { printf("error: pool exhausted\n"); exit(2); }
    return pool[npool++] = vgt_xmalloc(n);
}
static void pool_free(void)
{
    while (npool) free(pool[--npool]);
}
/* An exact-size copy of src (n bytes) starting off bytes past a malloc boundary. */
static const uint8_t *exact_copy(const uint8_t *src, size_t n, size_t off)
{
    uint8_t *b = pool_alloc(off + n);
    if (n) memcpy(b + off, src, n);
    return b + off;
}

/* An output buffer of len bytes at off past a malloc boundary, GUARD bytes of GUARD_BYTE each side. */
struct gbuf {
    uint8_t *base, *p;
    size_t len, total;
};
static void gb_make(struct gbuf *g, size_t len, size_t off)
{
    g->total = GUARD + off + len + GUARD;
    g->base = pool_alloc(g->total);
    memset(g->base, GUARD_BYTE, g->total);
    g->p = g->base + GUARD + off;
    g->len = len;
}
static int gb_guards_ok(const struct gbuf *g)
{
    for (uint8_t *q = g->base; q < g->p; q++)
        if (*q != GUARD_BYTE) return 0;
    for (uint8_t *q = g->p + g->len; q < g->base + g->total; q++)
        if (*q != GUARD_BYTE) return 0;
    return 1;
}

/* --- differential ------------------------------------------------------------------------------------ */

enum { F_INPLACE = 1, F_UNALIGNED = 2, F_NULL_EMPTY = 4 };

static size_t g_cases;

/* Seals random (key, nonce, aad, plaintext) with the library and the spec, compares, then opens the
   library's output and compares with the plaintext. */
static void diff_one(const struct aead *m, size_t key_len, size_t nonce_len, size_t aad_len, size_t len,
                     size_t tag_len, unsigned flags)
{
    uint8_t key[32], nonce_b[64], want_tag[16];
    char what[160];
    snprintf(what, sizeof what, "%s key=%zu nonce=%zu aad=%zu len=%zu tag=%zu%s%s", m->name, key_len, nonce_len,
             aad_len, len, tag_len, flags & F_INPLACE ? " in-place" : "", flags & F_UNALIGNED ? " unaligned" : "");
    g_cases++;
    vgt_rand_bytes(key, key_len);
    vgt_rand_bytes(nonce_b, nonce_len);
    uint8_t *aad_b = pool_alloc(aad_len), *pt = pool_alloc(len), *want_ct = pool_alloc(len);
    vgt_rand_bytes(aad_b, aad_len);
    vgt_rand_bytes(pt, len);
    m->spec_seal(key, key_len, nonce_b, nonce_len, aad_b, aad_len, pt, len, want_ct, want_tag, tag_len);

    any_key k;
    if (!CHECK(m->init(&k, key, key_len) == VG_OK, "%s: init", what)) { pool_free(); return; }

#define OFF() ((flags & F_UNALIGNED) ? vgt_rand_below(16) : 0)
    const uint8_t *nonce = exact_copy(nonce_b, nonce_len, OFF());
    const uint8_t *aad = exact_copy(aad_b, aad_len, OFF());
    if (aad_len == 0 && (flags & F_NULL_EMPTY)) aad = NULL;
    const uint8_t *in = exact_copy(pt, len, OFF());
    struct gbuf out, tag;
    gb_make(&out, len, OFF());
    gb_make(&tag, tag_len, OFF());
    if (flags & F_INPLACE) {
        if (len) memcpy(out.p, pt, len);
        in = out.p;
    }
    uint8_t *outp = out.p;
    if (len == 0 && (flags & F_NULL_EMPTY)) in = outp = NULL;

    int rc = m->seal(&k, nonce, nonce_len, aad, aad_len, in, len, outp, tag.p, tag_len);
    CHECK(rc == VG_OK, "%s: seal returned %d", what, rc);
    CHECK_BYTES(out.p, want_ct, len, "%s: ciphertext", what);
    CHECK_BYTES(tag.p, want_tag, tag_len, "%s: tag", what);
    CHECK(gb_guards_ok(&out), "%s: seal wrote outside out", what);
    CHECK(gb_guards_ok(&tag), "%s: seal wrote outside tag", what);
    if (!(flags & F_INPLACE)) CHECK_BYTES(in, pt, len, "%s: seal changed its input", what);

    /* open what the library sealed (equal to the spec's if the checks above passed) */
    const uint8_t *tag_in = exact_copy(tag.p, tag_len, OFF());
    struct gbuf back;
    gb_make(&back, len, OFF());
    const uint8_t *ct = exact_copy(out.p, len, OFF());
    if (flags & F_INPLACE) {
        if (len) memcpy(back.p, out.p, len);
        ct = back.p;
    }
    uint8_t *backp = back.p;
    if (len == 0 && (flags & F_NULL_EMPTY)) ct = backp = NULL;
    rc = m->open(&k, nonce, nonce_len, aad, aad_len, ct, len, tag_in, tag_len, backp);
    CHECK(rc == VG_OK, "%s: open returned %d", what, rc);
    CHECK_BYTES(back.p, pt, len, "%s: open gave back", what);
    CHECK(gb_guards_ok(&back), "%s: open wrote outside out", what);

    /* the spec agrees the library's output authenticates (cheap cross-check of the spec itself) */
    if (len < 64) {
        uint8_t *tmp = pool_alloc(len);
        CHECK(m->spec_open(key, key_len, nonce_b, nonce_len, aad_b, aad_len, out.p, len, tag.p, tag_len, tmp) == 1,
              "%s: spec_open of the library's output", what);
    }
    m->wipe(&k);
    pool_free();
#undef OFF
}

static size_t pick(const size_t *list, size_t n, size_t i) { return list[i % n]; }

static void test_differential(const struct aead *m)
{
    static const size_t aad_rot[] = {0, 13, 16, 1, 0, 31, 48, 17, 80, 5, 64, 0};
    const size_t n_aad = sizeof aad_rot / sizeof aad_rot[0];
    int quick = vgt_quick();

    /* every plaintext length 0..1100; key size, AAD length, nonce length, tag length, buffer shapes rotate */
    for (size_t len = 0; len <= 1100; len++) {
        if (quick && len > 70 && len % 7 != 0 && len != 1100) continue;
        for (size_t ki = 0; ki < m->n_key_lens; ki++) {
            size_t r = len + ki;
            size_t nonce_len = m->nonce_default;
            if (m->nonce_max > m->nonce_min && r % 4 == 3)
                nonce_len = m->nonce_min + (r / 4) % (m->nonce_max - m->nonce_min + 1);
            size_t tag_len = r % 5 == 2 ? pick(m->tag_lens, m->n_tag_lens, r / 5) : m->tag_lens[0];
            unsigned flags = (r % 3 == 0 ? F_INPLACE : 0) | (r % 2 == 1 ? F_UNALIGNED : 0) | (r % 7 == 0 ? F_NULL_EMPTY : 0);
            diff_one(m, m->key_lens[ki], nonce_len, pick(aad_rot, n_aad, r), len, tag_len, flags);
        }
    }
    /* the fused bulk kernels' shapes, not left to the rotation above: n = 16..47 whole blocks (one
       or two 16-block iterations of ppc64le's stitched GCM loop, then every remainder: an 8-block
       group and 0..7 single blocks), a partial last block on two of every three, every key size (the
       loop has one copy per key size), in place and not */
    for (size_t n = 16; n < 48; n++)
        for (size_t ki = 0; ki < m->n_key_lens; ki++)
            for (unsigned inplace = 0; inplace < 2; inplace++)
                diff_one(m, m->key_lens[ki], m->nonce_default, n % 2 ? 13 : 0, 16 * n + 7 * (n % 3),
                         m->tag_lens[0], (inplace ? F_INPLACE : 0) | ((n + ki) % 2 ? F_UNALIGNED : 0));
    /* every AAD length 0..80 with a few plaintext lengths */
    static const size_t pt_few[] = {0, 1, 16, 33, 100};
    for (size_t aad_len = 0; aad_len <= 80; aad_len++)
        for (size_t i = 0; i < 5; i++) {
            if (quick && i != aad_len % 5) continue;
            size_t r = aad_len + i;
            diff_one(m, m->key_lens[r % m->n_key_lens], m->nonce_default, aad_len, pt_few[i], m->tag_lens[0],
                     (r % 2 ? F_UNALIGNED : 0) | (r % 3 == 0 ? F_INPLACE : 0) | F_NULL_EMPTY);
        }
    /* (len, aad_len) around the whole-message kernels' limits (ppc64le: a fixed copy per block
       count when len <= 96 and AAD + data + lengths fit 8 blocks; the general one to len 224 and
       aad_len 64; past them the mode's own path): every length to 240 with a rotating AAD, and
       every AAD edge with the data edges */
    static const size_t edge_aads[] = {0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 80};
    static const size_t edge_lens[] = {0, 1, 15, 16, 17, 31, 32, 33, 80, 95, 96, 97, 111, 112, 113, 208, 223, 224, 225};
    const size_t n_edge_aads = sizeof edge_aads / sizeof edge_aads[0];
    for (size_t len = 0; len <= 240; len++) {
        size_t r = len * 5 + 3;
        diff_one(m, m->key_lens[r % m->n_key_lens], m->nonce_default, pick(edge_aads, n_edge_aads, r), len,
                 m->tag_lens[r % 3 == 0 ? m->n_tag_lens - 1 : 0], (r % 2 ? F_UNALIGNED : 0) | (r % 3 == 1 ? F_INPLACE : 0));
    }
    for (size_t a = 0; a < n_edge_aads; a++)
        for (size_t i = 0; i < sizeof edge_lens / sizeof edge_lens[0]; i++) {
            size_t r = a * 7 + i;
            diff_one(m, m->key_lens[r % m->n_key_lens], m->nonce_default, edge_aads[a], edge_lens[i], m->tag_lens[0],
                     (r % 2 ? F_UNALIGNED : 0) | (r % 3 == 0 ? F_INPLACE : 0));
        }
    /* (data, AAD) lengths on both sides of the implementations' whole-message short paths for
       one-shot GCM (armv8: <= 192 B of data, <= 48 B of AAD, 12-byte nonce), with partial and whole
       last blocks of each */
    static const size_t short_lens[] = {0, 1, 15, 16, 17, 63, 64, 65, 100, 176, 191, 192, 193, 208};
    static const size_t short_aads[] = {0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 49, 64};
    for (size_t i = 0; i < sizeof short_lens / sizeof short_lens[0]; i++)
        for (size_t j = 0; j < sizeof short_aads / sizeof short_aads[0]; j++) {
            size_t r = i * 5 + j;
            if (quick && r % 3 != 0 && short_lens[i] != 192 && short_aads[j] != 48) continue;
            diff_one(m, m->key_lens[r % m->n_key_lens], m->nonce_default, short_aads[j], short_lens[i],
                     m->tag_lens[(r / 3) % m->n_tag_lens],
                     (r % 2 ? F_UNALIGNED : 0) | (r % 3 == 1 ? F_INPLACE : 0) | (r % 5 == 0 ? F_NULL_EMPTY : 0));
        }
    /* longer AAD: block edges, and CCM's switch from the 2-byte to the 6-byte length encoding at
       2^16 - 2^8 = 65280 (SP 800-38C A.2.2) */
    static const size_t aad_long[] = {255, 256, 257, 1000, 4096, 65279, 65280, 65281};
    for (size_t i = 0; i < sizeof aad_long / sizeof aad_long[0]; i++)
        diff_one(m, m->key_lens[i % m->n_key_lens], m->nonce_default, aad_long[i], i * 7, m->tag_lens[0],
                 i % 2 ? F_UNALIGNED : 0);

    /* every nonce length (and for GCM 12 is the default everywhere else) */
    static const size_t pt_nonce[] = {0, 1, 17, 64, 200};
    for (size_t nl = m->nonce_min; nl <= m->nonce_max; nl++)
        for (size_t ki = 0; ki < m->n_key_lens; ki++)
            for (size_t i = 0; i < 5; i++) {
                if (quick && i != (nl + ki) % 5) continue;
                diff_one(m, m->key_lens[ki], nl, (nl + i) % 3 ? 20 : 0, pt_nonce[i], m->tag_lens[0],
                         (nl + i) % 2 ? F_UNALIGNED : 0);
            }
    /* every tag length with every key size */
    static const size_t pt_tag[] = {0, 5, 16, 47, 130};
    for (size_t ti = 0; ti < m->n_tag_lens; ti++)
        for (size_t ki = 0; ki < m->n_key_lens; ki++)
            for (size_t i = 0; i < 5; i++) {
                if (quick && i != (ti + ki) % 5) continue;
                diff_one(m, m->key_lens[ki], m->nonce_default, i * 3, pt_tag[i], m->tag_lens[ti],
                         (ti + i) % 2 ? F_UNALIGNED | F_INPLACE : 0);
            }
    /* long messages; CCM's 13-byte nonce (L = 2) allows at most 65535 bytes, so longer ones use 12, and
       65535 itself is sealed with a 13-byte nonce */
    size_t long_lens[4] = {16384, 65536 + 17, 70000 + vgt_rand_below(4000), 65535};
    for (size_t i = 0; i < 4; i++)
        for (size_t ki = 0; ki < m->n_key_lens; ki++) {
            if (quick && ki != i % m->n_key_lens) continue;
            size_t nl = m->nonce_default;
            if (strcmp(m->name, "ccm") == 0) nl = long_lens[i] > 65535 ? 12 : 13;
            diff_one(m, m->key_lens[ki], nl, i == 1 ? 0 : 33, long_lens[i], m->tag_lens[0],
                     (i + ki) % 2 ? F_UNALIGNED : F_INPLACE);
        }
    /* both sides of the x86 GCM kernels' switch to their pipelined loop at 256 whole blocks, every key
       size, with a 12-byte nonce's counters and (GCM) a 16-byte nonce's general ones */
    static const size_t piped_lens[] = {4095, 4096, 4111, 4608 + 5};
    for (size_t i = 0; i < sizeof piped_lens / sizeof piped_lens[0]; i++)
        for (size_t ki = 0; ki < m->n_key_lens; ki++) {
            size_t nl = strcmp(m->name, "gcm") == 0 && (i + ki) % 2 ? 16 : m->nonce_default;
            diff_one(m, m->key_lens[ki], nl, i * 5, piped_lens[i], m->tag_lens[0],
                     (i + ki) % 3 == 0 ? F_INPLACE : (i + ki) % 3 == 1 ? F_UNALIGNED : 0);
        }
    /* both sides of the x86 whole-group seal (gcm_seal_groups: multiples of 256 B on vaes256, 512 B
       on vaes512, below 4 KiB), with no AAD, a 13-byte one and one longer than a group, and the
       shortest tag too (the general path calls the same kernel through a full tag) */
    static const size_t group_lens[] = {255, 256, 512, 513, 768, 1024, 3584, 3840};
    static const size_t group_aads[] = {0, 13, 600};
    for (size_t i = 0; i < sizeof group_lens / sizeof group_lens[0]; i++)
        for (size_t ki = 0; ki < m->n_key_lens; ki++)
            for (size_t a = 0; a < sizeof group_aads / sizeof group_aads[0]; a++)
                diff_one(m, m->key_lens[ki], m->nonce_default, group_aads[a], group_lens[i],
                         (i + a) % 2 ? m->tag_lens[m->n_tag_lens - 1] : m->tag_lens[0],
                         (i + ki + a) % 3 == 0 ? F_INPLACE : (i + ki + a) % 3 == 1 ? F_UNALIGNED : 0);
}

/* --- forgery --------------------------------------------------------------------------------------- */

/* Seals one message, then flips bits of nonce, AAD, ciphertext and tag one at a time: every bit when
   sample == 0, else `sample` random bits per field. Each open must return VG_ERR_AUTH and leave out
   all zero (out is filled with GUARD_BYTE beforehand, so zeroing is visible), nothing outside out
   written. Every fourth flip opens in place. */
static void forge_one(const struct aead *m, size_t key_len, size_t nonce_len, size_t aad_len, size_t len,
                      size_t tag_len, size_t sample)
{
    uint8_t key[32], nonce[64], tag[16];
    vgt_rand_bytes(key, key_len);
    vgt_rand_bytes(nonce, nonce_len);
    uint8_t *aad = pool_alloc(aad_len), *pt = pool_alloc(len), *ct = pool_alloc(len);
    vgt_rand_bytes(aad, aad_len);
    vgt_rand_bytes(pt, len);
    any_key k;
    m->init(&k, key, key_len);
    CHECK(m->seal(&k, nonce, nonce_len, aad, aad_len, pt, len, ct, tag, tag_len) == VG_OK, "%s forge: seal", m->name);

    struct gbuf out;
    gb_make(&out, len, 3);
    CHECK(m->open(&k, nonce, nonce_len, aad, aad_len, ct, len, tag, tag_len, out.p) == VG_OK,
          "%s forge: unmodified open", m->name);
    CHECK_BYTES(out.p, pt, len, "%s forge: unmodified open", m->name);

    uint8_t *fields[4] = {nonce, aad, ct, tag};
    size_t sizes[4] = {nonce_len, aad_len, len, tag_len};
    static const char *names[4] = {"nonce", "aad", "ciphertext", "tag"};
    size_t flips = 0, bad = 0;
    for (int f = 0; f < 4; f++) {
        size_t nbits = sizes[f] * 8;
        size_t count = sample && sample < nbits ? sample : nbits;
        for (size_t j = 0; j < count; j++) {
            size_t bit = count == nbits ? j : vgt_rand_below(nbits);
            uint8_t mask = (uint8_t)(1u << (bit % 8));
            fields[f][bit / 8] ^= mask;
            memset(out.base, GUARD_BYTE, out.total);
            int in_place = (flips % 4) == 3;
            int rc;
            if (in_place) {
                memcpy(out.p, ct, len);
                rc = m->open(&k, nonce, nonce_len, aad, aad_len, out.p, len, tag, tag_len, out.p);
            } else {
                rc = m->open(&k, nonce, nonce_len, aad, aad_len, ct, len, tag, tag_len, out.p);
            }
            int ok = rc == VG_ERR_AUTH && vgt_all_zero(out.p, len) && gb_guards_ok(&out);
            if (!ok && bad++ < 5)
                CHECK(0, "%s key=%zu nonce=%zu aad=%zu len=%zu tag=%zu: %s bit %zu flipped%s: rc=%d, out %s, guards %s",
                      m->name, key_len, nonce_len, aad_len, len, tag_len, names[f], bit, in_place ? " (in place)" : "",
                      rc, vgt_all_zero(out.p, len) ? "zero" : "NOT zero", gb_guards_ok(&out) ? "ok" : "WRITTEN");
            fields[f][bit / 8] ^= mask;
            flips++;
        }
    }
    CHECK(bad == 0, "%s forge: %zu of %zu flips not rejected cleanly", m->name, bad, flips);
    /* and after all that the original still opens */
    CHECK(m->open(&k, nonce, nonce_len, aad, aad_len, ct, len, tag, tag_len, out.p) == VG_OK, "%s forge: reopen",
          m->name);
    m->wipe(&k);
    pool_free();
}

/* GCM takes the first tag_len bytes of the full tag, so a shorter valid prefix of a longer tag
   authenticates; CCM binds the tag length into B0, so it does not. Whatever the spec says is right. */
static void test_tag_length_mismatch(const struct aead *m)
{
    uint8_t key[32], nonce[16], aad[8], pt[40], ct[40], tag[16], out[40];
    for (size_t a = 0; a < m->n_tag_lens; a++)
        for (size_t b = 0; b < m->n_tag_lens; b++) {
            size_t key_len = m->key_lens[(a + b) % m->n_key_lens];
            vgt_rand_bytes(key, 32);
            vgt_rand_bytes(nonce, 16);
            vgt_rand_bytes(aad, 8);
            vgt_rand_bytes(pt, 40);
            any_key k;
            m->init(&k, key, key_len);
            m->seal(&k, nonce, m->nonce_default, aad, 8, pt, 40, ct, tag, m->tag_lens[a]);
            uint8_t spec_out[40];
            int want = m->spec_open(key, key_len, nonce, m->nonce_default, aad, 8, ct, 40, tag, m->tag_lens[b], spec_out);
            int rc = m->open(&k, nonce, m->nonce_default, aad, 8, ct, 40, tag, m->tag_lens[b], out);
            CHECK(rc == (want ? VG_OK : VG_ERR_AUTH), "%s sealed with tag %zu, opened with %zu: %d, spec %d", m->name,
                  m->tag_lens[a], m->tag_lens[b], rc, want);
            if (rc == VG_OK) CHECK_BYTES(out, pt, 40, "%s tag %zu/%zu", m->name, m->tag_lens[a], m->tag_lens[b]);
            else CHECK(vgt_all_zero(out, 40), "%s tag %zu/%zu: out not zeroed", m->name, m->tag_lens[a], m->tag_lens[b]);
        }
}

static void test_forgery(const struct aead *m)
{
    /* (AAD, data) lengths; the last two at the armv8 short-GCM limits (48, 192) and just past them */
    static const size_t shapes[][2] = {{0, 0}, {0, 7}, {1, 0}, {15, 3}, {16, 16}, {17, 20}, {33, 1},
                                       {48, 192}, {49, 193}};
    const size_t n_shapes = sizeof shapes / sizeof shapes[0];
    for (size_t s = 0; s < n_shapes; s++) {
        if (vgt_quick() && s % 2) continue;
        size_t key_len = m->key_lens[s % m->n_key_lens];
        /* longest and shortest tag; for GCM a 1-byte and a 20-byte nonce too */
        forge_one(m, key_len, m->nonce_default, shapes[s][1], shapes[s][0], m->tag_lens[0], 0);
        forge_one(m, key_len, m->nonce_max - s % (m->nonce_max - m->nonce_min + 1), shapes[s][1], shapes[s][0],
                  m->tag_lens[m->n_tag_lens - 1], 0);
        if (strcmp(m->name, "gcm") == 0) {
            forge_one(m, key_len, 1, shapes[s][1], shapes[s][0], 12, 0);
            forge_one(m, key_len, 20, shapes[s][1], shapes[s][0], 16, 0);
        }
    }
    /* long: a random sample of bits per field */
    size_t nl = strcmp(m->name, "ccm") == 0 ? 12 : m->nonce_default;
    forge_one(m, m->key_lens[0], nl, 100, 16384, m->tag_lens[0], vgt_quick() ? 8 : 40);
    forge_one(m, m->key_lens[m->n_key_lens - 1], nl, 1, 65536 + 17, m->tag_lens[m->n_tag_lens - 1],
              vgt_quick() ? 4 : 16);
    test_tag_length_mismatch(m);
}

/* --- GCM's whole-message kernels ------------------------------------------------------------------- */

/* An implementation with gcm_seal_short / gcm_open_short takes every one-shot call with a 12-byte nonce,
   len <= gcm_short_max and aad_len <= gcm_short_max_aad; the mode's general path takes the rest. So
   lengths on both sides of both limits, every length up to 80 bytes, and the kernels' own edges (the
   point where AAD + data + length block stop fitting one GHASH sum of 8, 16 or 32 blocks, and the
   whole groups of 8, 16 and 32 blocks their fused loop takes), each with AAD lengths around the AAD
   limit and around block edges. Implementations without the kernels run the same lengths harmlessly. */
static void test_gcm_short(const struct aead *m)
{
    if (strcmp(m->name, "gcm") != 0) return;
    uint8_t key[16] = {1};
    any_key k;
    CHECK(m->init(&k, key, 16) == VG_OK, "gcm init");
    const struct vg_impl *impl = ((const struct vg_aes_key_state *)(const void *)k.gcm.opaque)->impl;
    size_t max = impl->gcm_seal_short ? impl->gcm_short_max : 0, max_aad = impl->gcm_seal_short ? impl->gcm_short_max_aad : 0;
    m->wipe(&k);
    printf("gcm short kernels: %s (len <= %zu, aad_len <= %zu)\n", impl->gcm_seal_short ? "yes" : "none", max, max_aad);

    size_t lens[256], n = 0;
    for (size_t len = 0; len <= 80; len++) lens[n++] = len;
    /* (96: vaes512's three groups, where its seal and open leave gcm_short's passes for the fused loop) */
    static const size_t groups[] = {8, 16, 32, 64, 96};
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        for (size_t d = 0; d < 5; d++) {
            size_t b = 16 * groups[g] - 32 + 16 * d; /* group edges with 0..2 AAD blocks before them */
            lens[n++] = b - 1;
            lens[n++] = b;
            lens[n++] = b + 1;
        }
    lens[n++] = 1350;
    if (max) {
        static const size_t around[] = {17, 16, 15, 1, 0};
        for (size_t i = 0; i < 5; i++) lens[n++] = max - around[i];
        lens[n++] = max + 1;
        lens[n++] = max + 16;
    }
    size_t aads[] = {0, 1, 12, 15, 16, 17, 31, 32, 33, 48, 64, 100, max_aad ? max_aad - 1 : 2,
                     max_aad, max_aad + 1, max_aad + 17};
    const size_t n_aads = sizeof aads / sizeof aads[0];
    int quick = vgt_quick();
    for (size_t i = 0; i < n; i++) {
        size_t per_len = quick ? 2 : (lens[i] <= 80 ? 3 : 6);
        for (size_t j = 0; j < per_len; j++) {
            size_t r = i * 7 + j * 5;
            unsigned flags = (r % 3 == 0 ? F_INPLACE : 0) | (r % 2 ? F_UNALIGNED : 0) | (r % 5 == 0 ? F_NULL_EMPTY : 0);
            diff_one(m, m->key_lens[r % m->n_key_lens], 12, aads[r % n_aads], lens[i], m->tag_lens[r % 3 == 1 ? 0 : (r % m->n_tag_lens)],
                     flags);
        }
    }
    /* forgeries on the kernels' path: at both limits, and with a whole group before the rest */
    if (max) {
        forge_one(m, 16, 12, max_aad, max, 16, quick ? 4 : 24);
        forge_one(m, 32, 12, 13, 1350, 16, quick ? 4 : 24);
        forge_one(m, 24, 12, 3, 64, 16, quick ? 4 : 0);
    }
}

/* --- bad input ------------------------------------------------------------------------------------- */

static const size_t bad_key_lens[] = {0, 1, 8, 15, 17, 20, 23, 24, 25, 31, 33, 48, 64, SIZE_MAX};

static void test_bad_init(const struct aead *m)
{
    uint8_t key[64];
    any_key pattern, k;
    vgt_rand_bytes(key, sizeof key);
    vgt_rand_bytes((uint8_t *)&pattern, sizeof pattern);
    for (size_t i = 0; i < sizeof bad_key_lens / sizeof bad_key_lens[0]; i++) {
        size_t n = bad_key_lens[i];
        if (key_len_ok(m, n)) continue;
        memcpy(&k, &pattern, sizeof k);
        CHECK(m->init(&k, key, n) == VG_ERR_KEY_LENGTH, "%s init key_len %zu", m->name, n);
        CHECK(memcmp(&k, &pattern, sizeof k) == 0, "%s init key_len %zu touched the key", m->name, n);
        CHECK(m->init(&k, NULL, n) == VG_ERR_KEY_LENGTH, "%s init NULL key, key_len %zu", m->name, n);
        CHECK(memcmp(&k, &pattern, sizeof k) == 0, "%s init NULL key touched the key", m->name);
        CHECK(m->init(NULL, key, n) == VG_ERR_ARG, "%s init NULL k, key_len %zu", m->name, n);
    }
    for (size_t i = 0; i < m->n_key_lens; i++) {
        memcpy(&k, &pattern, sizeof k);
        CHECK(m->init(&k, NULL, m->key_lens[i]) == VG_ERR_ARG, "%s init NULL key, key_len %zu", m->name, m->key_lens[i]);
        CHECK(memcmp(&k, &pattern, sizeof k) == 0, "%s init NULL key touched the key", m->name);
        CHECK(m->init(NULL, key, m->key_lens[i]) == VG_ERR_ARG, "%s init NULL k", m->name);
    }
    /* a failed re-init keeps the old key working */
    uint8_t nonce[16] = {0}, pt[20] = {1}, ct[20], tag[16], want_ct[20], want_tag[16];
    m->init(&k, key, m->key_lens[0]);
    any_key saved;
    memcpy(&saved, &k, sizeof k);
    CHECK(m->init(&k, key, 17) == VG_ERR_KEY_LENGTH && memcmp(&saved, &k, sizeof k) == 0, "%s failed re-init", m->name);
    m->seal(&k, nonce, m->nonce_default, NULL, 0, pt, 20, ct, tag, m->tag_lens[0]);
    m->spec_seal(key, m->key_lens[0], nonce, m->nonce_default, NULL, 0, pt, 20, want_ct, want_tag, m->tag_lens[0]);
    CHECK_BYTES(ct, want_ct, 20, "%s key after failed re-init", m->name);
    CHECK_BYTES(tag, want_tag, m->tag_lens[0], "%s key after failed re-init: tag", m->name);
    /* wipe zeroes every byte, and a wiped key is refused */
    m->wipe(&k);
    CHECK(vgt_all_zero((const uint8_t *)&k, m->key_size), "%s wipe left non-zero bytes", m->name);
    m->wipe(NULL);
}

/* The fixture of the bad-input checks: a valid key, inputs, and output regions whose every byte is
   checked after each rejected call. */
struct fixture {
    any_key k;
    uint8_t nonce[80], aad[64], in[64], tag_in[16];
    uint8_t out_region[GUARD + 64 + GUARD], tag_region[GUARD + 16 + GUARD];
    uint8_t *out, *tag;
};
static struct fixture fx;

static void fx_reset(void)
{
    memset(fx.out_region, 0xA5, sizeof fx.out_region);
    memset(fx.tag_region, 0x5A, sizeof fx.tag_region);
    fx.out = fx.out_region + GUARD;
    fx.tag = fx.tag_region + GUARD;
}
static int fx_untouched(void)
{
    for (size_t i = 0; i < sizeof fx.out_region; i++)
        if (fx.out_region[i] != 0xA5) return 0;
    for (size_t i = 0; i < sizeof fx.tag_region; i++)
        if (fx.tag_region[i] != 0x5A) return 0;
    return 1;
}

/* Runs seal (open = 0) or open (open = 1) with the given arguments on fresh output regions and checks
   the code and that nothing was written. For open the tag is fx.tag_in (an input). */
static void expect(const struct aead *m, int open, int want, const void *k, const uint8_t *nonce, size_t nonce_len,
                   const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len, int out_null, int tag_null,
                   size_t tag_len, const char *what)
{
    fx_reset();
    uint8_t *out = out_null ? NULL : fx.out;
    int rc = open ? m->open(k, nonce, nonce_len, aad, aad_len, in, len, tag_null ? NULL : fx.tag_in, tag_len, out)
                  : m->seal(k, nonce, nonce_len, aad, aad_len, in, len, out, tag_null ? NULL : fx.tag, tag_len);
    CHECK(rc == want, "%s %s: %s: got %d (%s), want %d (%s)", m->name, open ? "open" : "seal", what, rc,
          vg_strerror(rc), want, vg_strerror(want));
    CHECK(fx_untouched(), "%s %s: %s: wrote to out or tag", m->name, open ? "open" : "seal", what);
}

#define BOTH(want, k, nonce, nl, aad, al, in, len, out_null, tag_null, tl, ...)                                     \
    do {                                                                                                         \
        char what_[160];                                                                                         \
        snprintf(what_, sizeof what_, __VA_ARGS__);                                                               \
        expect(m, 0, want, k, nonce, nl, aad, al, in, len, out_null, tag_null, tl, what_);                        \
        expect(m, 1, want, k, nonce, nl, aad, al, in, len, out_null, tag_null, tl, what_);                        \
    } while (0)

static void test_bad_args(const struct aead *m)
{
    uint8_t key[32];
    vgt_rand_bytes(key, 32);
    vgt_rand_bytes(fx.nonce, sizeof fx.nonce);
    vgt_rand_bytes(fx.aad, sizeof fx.aad);
    vgt_rand_bytes(fx.in, sizeof fx.in);
    vgt_rand_bytes(fx.tag_in, sizeof fx.tag_in);
    const size_t kl = m->key_lens[0], nl = m->nonce_default, tl = m->tag_lens[0];
    CHECK(m->init(&fx.k, key, kl) == VG_OK, "%s init", m->name);
    const void *k = &fx.k;

    /* keys: NULL, never set up (zero, garbage), wiped */
    any_key zeroed, garbage, wiped;
    memset(&zeroed, 0, sizeof zeroed);
    vgt_rand_bytes((uint8_t *)&garbage, sizeof garbage);
    m->init(&wiped, key, kl);
    m->wipe(&wiped);
    BOTH(VG_ERR_ARG, NULL, fx.nonce, nl, fx.aad, 16, fx.in, 32, 0, 0, tl, "NULL key");
    BOTH(VG_ERR_ARG, &zeroed, fx.nonce, nl, fx.aad, 16, fx.in, 32, 0, 0, tl, "zeroed key");
    BOTH(VG_ERR_ARG, &garbage, fx.nonce, nl, fx.aad, 16, fx.in, 32, 0, 0, tl, "garbage key");
    BOTH(VG_ERR_ARG, &wiped, fx.nonce, nl, fx.aad, 16, fx.in, 32, 0, 0, tl, "wiped key");

    /* every wrong nonce length up to 70, and SIZE_MAX (GCM's only wrong one is 0) */
    for (size_t n = 0; n <= 71; n++) {
        size_t bad = n == 71 ? SIZE_MAX : n;
        if (bad >= m->nonce_min && bad <= m->nonce_max) continue;
        if (strcmp(m->name, "gcm") == 0 && bad != 0) continue;
        BOTH(VG_ERR_NONCE_LENGTH, k, fx.nonce, bad, fx.aad, 16, fx.in, 32, 0, 0, tl, "nonce_len %zu", bad);
    }
    BOTH(VG_ERR_NONCE_LENGTH, k, NULL, 0, fx.aad, 16, fx.in, 32, 0, 0, tl, "NULL nonce, nonce_len 0");
    /* every wrong tag length up to 40, and SIZE_MAX */
    for (size_t t = 0; t <= 41; t++) {
        size_t bad = t == 41 ? SIZE_MAX : t;
        if (tag_len_ok(m, bad)) continue;
        BOTH(VG_ERR_TAG_LENGTH, k, fx.nonce, nl, fx.aad, 16, fx.in, 32, 0, 0, bad, "tag_len %zu", bad);
    }
    /* NULL with a non-zero length */
    BOTH(VG_ERR_ARG, k, NULL, nl, fx.aad, 16, fx.in, 32, 0, 0, tl, "NULL nonce");
    BOTH(VG_ERR_ARG, k, fx.nonce, nl, NULL, 16, fx.in, 32, 0, 0, tl, "NULL aad");
    BOTH(VG_ERR_ARG, k, fx.nonce, nl, fx.aad, 16, NULL, 32, 0, 0, tl, "NULL in");
    BOTH(VG_ERR_ARG, k, fx.nonce, nl, fx.aad, 16, fx.in, 32, 1, 0, tl, "NULL out");
    BOTH(VG_ERR_ARG, k, fx.nonce, nl, fx.aad, 16, fx.in, 32, 0, 1, tl, "NULL tag");
    BOTH(VG_ERR_ARG, k, fx.nonce, nl, NULL, 0, NULL, 0, 1, 1, tl, "NULL tag, empty message");

    /* NULL with a zero length is fine: the tag is the spec's */
    {
        uint8_t want_tag[16], tag[16], dummy[1];
        m->spec_seal(key, kl, fx.nonce, nl, NULL, 0, NULL, 0, dummy, want_tag, tl);
        CHECK(m->seal(k, fx.nonce, nl, NULL, 0, NULL, 0, NULL, tag, tl) == VG_OK, "%s seal all-NULL empty", m->name);
        CHECK_BYTES(tag, want_tag, tl, "%s seal all-NULL empty: tag", m->name);
        CHECK(m->open(k, fx.nonce, nl, NULL, 0, NULL, 0, tag, tl, NULL) == VG_OK, "%s open all-NULL empty", m->name);
        CHECK(m->seal(k, fx.nonce, nl, fx.aad, 0, fx.in, 0, fx.out, tag, tl) == VG_OK, "%s seal empty non-NULL",
              m->name);
        CHECK_BYTES(tag, want_tag, tl, "%s seal empty non-NULL: tag", m->name);
        tag[0] ^= 1;
        CHECK(m->open(k, fx.nonce, nl, NULL, 0, NULL, 0, tag, tl, NULL) == VG_ERR_AUTH, "%s open all-NULL forged",
              m->name);
    }

    /* partial overlap of in and out, every distance, both ways; the region must not change */
    {
        static uint8_t region[256], snap[256], tag[16];
        const size_t len = 48;
        for (size_t d = 1; d < len; d++)
            for (int dir = 0; dir < 2; dir++)
                for (int op = 0; op < 2; op++) {
                    vgt_rand_bytes(region, sizeof region);
                    memcpy(snap, region, sizeof region);
                    memset(tag, 0x5A, 16);
                    const uint8_t *pi = region + 64 + (dir ? d : 0);
                    uint8_t *po = region + 64 + (dir ? 0 : d);
                    int rc = op ? m->open(k, fx.nonce, nl, fx.aad, 5, pi, len, fx.tag_in, tl, po)
                                : m->seal(k, fx.nonce, nl, fx.aad, 5, pi, len, po, tag, tl);
                    CHECK(rc == VG_ERR_ARG, "%s %s partial overlap %s%zu: %d", m->name, op ? "open" : "seal",
                          dir ? "in=out+" : "out=in+", d, rc);
                    CHECK(memcmp(region, snap, sizeof region) == 0, "%s %s partial overlap %zu wrote", m->name,
                          op ? "open" : "seal", d);
                    CHECK(tag[0] == 0x5A && tag[tl - 1] == 0x5A, "%s seal partial overlap wrote the tag", m->name);
                }
    }
}

/* Limits: a length just over the limit with 16-byte buffers is VG_ERR_LENGTH and touches nothing; the
   limit itself passes the length check, which shows as the later VG_ERR_ARG for a NULL buffer (checked
   after the lengths), so no huge memory is ever read. */
static void test_limits(const struct aead *m)
{
#if SIZE_MAX > 0xFFFFFFFFu
    const size_t nl = m->nonce_default, tl = m->tag_lens[0];
    const void *k = &fx.k;
    struct lim {
        size_t nonce_len, max_len, max_aad; /* max_aad 0: no AAD limit expressible in size_t */
    } lims[8];
    size_t n = 0;
    if (strcmp(m->name, "gcm") == 0) {
        lims[n++] = (struct lim){12, ((size_t)1 << 36) - 32, ((size_t)1 << 61) - 1};
        lims[n++] = (struct lim){1, ((size_t)1 << 36) - 32, ((size_t)1 << 61) - 1};
    } else if (strcmp(m->name, "gcm-siv") == 0) {
        lims[n++] = (struct lim){12, (size_t)1 << 36, (size_t)1 << 36};
    } else {
        /* plaintext < 2^(8L), L = 15 - nonce_len */
        for (size_t L = 2; L <= 7; L++) lims[n++] = (struct lim){15 - L, ((size_t)1 << (8 * L)) - 1, 0};
    }
    for (size_t i = 0; i < n; i++) {
        size_t nn = lims[i].nonce_len, over = lims[i].max_len + 1;
        BOTH(VG_ERR_LENGTH, k, fx.nonce, nn, fx.aad, 16, fx.in, over, 0, 0, tl, "len %zu (limit + 1), nonce %zu", over, nn);
        BOTH(VG_ERR_LENGTH, k, fx.nonce, nn, fx.aad, 16, fx.in, SIZE_MAX, 0, 0, tl, "len SIZE_MAX, nonce %zu", nn);
        BOTH(VG_ERR_LENGTH, k, fx.nonce, nn, fx.aad, 16, NULL, over, 1, 1, tl, "len limit + 1 beats NULL buffers");
        BOTH(VG_ERR_ARG, k, fx.nonce, nn, fx.aad, 16, NULL, lims[i].max_len, 0, 0, tl,
             "len %zu (the limit) passes the length check, nonce %zu", lims[i].max_len, nn);
        if (lims[i].max_aad) {
            size_t aover = lims[i].max_aad + 1;
            BOTH(VG_ERR_LENGTH, k, fx.nonce, nn, fx.aad, aover, fx.in, 16, 0, 0, tl, "aad_len %zu (limit + 1)", aover);
            BOTH(VG_ERR_LENGTH, k, fx.nonce, nn, fx.aad, SIZE_MAX, fx.in, 16, 0, 0, tl, "aad_len SIZE_MAX");
            BOTH(VG_ERR_LENGTH, k, fx.nonce, nn, NULL, aover, fx.in, 16, 0, 0, tl, "aad limit + 1 beats NULL aad");
            BOTH(VG_ERR_ARG, k, fx.nonce, nn, NULL, lims[i].max_aad, fx.in, 16, 0, 0, tl,
                 "aad_len %zu (the limit) passes the length check", lims[i].max_aad);
        } else {
            BOTH(VG_ERR_ARG, k, fx.nonce, nn, NULL, SIZE_MAX, fx.in, 16, 0, 0, tl, "any AAD length: NULL aad, SIZE_MAX");
        }
    }

    /* The documented order: ARG (key) > NONCE_LENGTH > TAG_LENGTH > LENGTH > ARG (buffers). */
    size_t bad_nonce = strcmp(m->name, "gcm") == 0 ? 0 : m->nonce_max + 1;
    size_t bad_tag = 11;
    size_t over = lims[0].max_len + 1;
    any_key zeroed;
    memset(&zeroed, 0, sizeof zeroed);
    BOTH(VG_ERR_ARG, NULL, fx.nonce, bad_nonce, fx.aad, 16, fx.in, over, 0, 0, bad_tag, "order: NULL key first");
    BOTH(VG_ERR_ARG, &zeroed, fx.nonce, bad_nonce, fx.aad, 16, fx.in, over, 0, 0, bad_tag, "order: unset key first");
    BOTH(VG_ERR_NONCE_LENGTH, k, fx.nonce, bad_nonce, fx.aad, 16, NULL, over, 1, 1, bad_tag,
         "order: nonce before tag, length, NULL");
    BOTH(VG_ERR_TAG_LENGTH, k, fx.nonce, lims[0].nonce_len, fx.aad, 16, NULL, over, 1, 1, bad_tag,
         "order: tag before length, NULL");
    BOTH(VG_ERR_TAG_LENGTH, k, fx.nonce, nl, NULL, 16, NULL, 16, 1, 1, bad_tag, "order: tag before NULL buffers");
    BOTH(VG_ERR_LENGTH, k, NULL, lims[0].nonce_len, NULL, 16, NULL, over, 1, 1, tl, "order: length before NULL");
    {
        /* partial overlap loses to a bad tag length */
        static uint8_t region[128];
        memset(region, 0x33, sizeof region);
        int rc = m->seal(k, fx.nonce, nl, NULL, 0, region, 32, region + 1, fx.tag, bad_tag);
        CHECK(rc == VG_ERR_TAG_LENGTH, "%s order: tag length before overlap: %d", m->name, rc);
        CHECK(region[0] == 0x33 && region[40] == 0x33, "%s order: overlap + bad tag wrote", m->name);
    }
#else
    (void)m;
    CHECK(1, "size_t too small for the length limits");
#endif
}

/* An AEAD key keeps the implementation that set it up, whatever is selected afterwards. */
static void test_key_keeps_impl(const struct aead *m)
{
    const char *names[16];
    size_t n = vg_impl_list(names, 16);
    if (n > 16) n = 16;
    const char *under_test = vgt_impl();
    for (size_t ki = 0; ki < m->n_key_lens; ki++) {
        uint8_t key[32], nonce[16], aad[9], pt[100], ct[100], tag[16], want_ct[100], want_tag[16];
        vgt_rand_bytes(key, 32);
        vgt_rand_bytes(nonce, 16);
        vgt_rand_bytes(aad, 9);
        vgt_rand_bytes(pt, 100);
        m->spec_seal(key, m->key_lens[ki], nonce, m->nonce_default, aad, 9, pt, 100, want_ct, want_tag, m->tag_lens[0]);
        CHECK(vg_impl_select(under_test) == VG_OK, "impl_select");
        any_key k;
        m->init(&k, key, m->key_lens[ki]);
        for (size_t i = 0; i < n; i++) {
            CHECK(vg_impl_select(names[i]) == VG_OK, "impl_select");
            m->seal(&k, nonce, m->nonce_default, aad, 9, pt, 100, ct, tag, m->tag_lens[0]);
            CHECK_BYTES(ct, want_ct, 100, "%s key from %s used with %s selected", m->name, under_test, names[i]);
            CHECK_BYTES(tag, want_tag, m->tag_lens[0], "%s key from %s used with %s selected: tag", m->name,
                        under_test, names[i]);
            any_key k2;
            m->init(&k2, key, m->key_lens[ki]);
            CHECK(m->open(&k2, nonce, m->nonce_default, aad, 9, want_ct, 100, want_tag, m->tag_lens[0], ct) == VG_OK,
                  "%s key from %s opens", m->name, names[i]);
            CHECK_BYTES(ct, pt, 100, "%s key from %s: open", m->name, names[i]);
        }
    }
    CHECK(vg_impl_select(under_test) == VG_OK, "impl_select");
}

int main(int argc, char **argv)
{
    vgt_init(argc, argv);
    const char *only = vgt_option("aead"); /* --aead gcm|gcm-siv|ccm: one row only (debugging) */
    for (size_t i = 0; i < 3; i++) {
        const struct aead *m = &aeads[i];
        if (only && strcmp(only, m->name) != 0) continue;
        size_t before = vgt_failures();
        test_bad_init(m);
        test_bad_args(m);
        test_limits(m);
        test_differential(m);
        test_forgery(m);
        test_gcm_short(m);
        test_key_keeps_impl(m);
        printf("%s: %zu differential cases, %s\n", m->name, g_cases, vgt_failures() == before ? "ok" : "FAILED");
        g_cases = 0;
    }
    return vgt_finish();
}
