/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * ct_valgrind.c — the constant-time check: no branch and no memory address may depend on a secret.
 *
 * Technique (Langley's "ctgrind"): memcheck tracks, bit by bit, which values are "undefined", and it
 * reports a conditional jump or a memory access whose address depends on an undefined value. Marking
 * every secret input undefined with VALGRIND_MAKE_MEM_UNDEFINED (the bytes keep their values) turns
 * memcheck into a checker of exactly the rule in vg.h: any branch or table index derived from a key,
 * nonce, AAD, plaintext, ciphertext or tag becomes a report, and ctest fails on any report
 * (valgrind --error-exitcode=1). Lengths stay defined: they are public.
 *
 * Outputs derived from secrets are undefined too, so each is marked defined (VALGRIND_MAKE_MEM_DEFINED)
 * before this program looks at it. An open's verdict is the exception: vg.h makes it public once
 * returned, and the library marks it so itself (vg_declassify in vg_open_finish: this program links
 * vg_ct_static, built with VG_CT_VALGRIND, and an MSan build unpoisons), right after the constant-time
 * tag comparison, then branches on it. The comparison itself, and everything before it, must not. The expected answers come from the spec, computed on defined copies
 * before anything is marked.
 *
 * What runs, for every key size: key expansion (AES, GCM, GCM-SIV, CCM), ECB both ways, CTR32 (counter
 * included, wrapping too), the CTR stream cut into pieces, GCM seal/open with 12-byte and other nonces
 * (open with the right tag and with a wrong one), streaming GCM (finish, verify right and wrong),
 * GCM-SIV and CCM seal/open (right and wrong tag), at lengths that hit every batch size and tail.
 *
 * Under valgrind the program also checks the poison is live: the marked key reads as undefined, and an
 * output of the library is still undefined before it is marked defined, so a check that silently
 * stopped tracking (a wrong header, a no-op macro) fails instead of passing.
 * Built with MemorySanitizer (VG_MSAN) the same marks map to __msan_poison / __msan_unpoison and the
 * program runs without valgrind: MSan reports branches on poisoned values. It is the weaker check:
 * MSan's shadow for x - y is only the OR of the operands' shadows (a borrow does not carry the
 * taint into higher bits), so a leak through an idiom like "(d - 1) >> 8" of a poisoned byte d goes
 * unseen, where memcheck smears the taint leftwards and reports it. valgrind is the authority.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "spec.h"

#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define CT_MSAN 1
#endif
#endif

#if defined(CT_MSAN)
#include <sanitizer/msan_interface.h>
#define SECRET(p, n) __msan_poison((p), (n))
#define PUBLIC(p, n) __msan_unpoison((p), (n))
#define CHECKER_NAME "MemorySanitizer"
#define CHECKER_ACTIVE() 1
/* 1 if any byte of [p, p+n) is poisoned */
#define IS_SECRET(p, n) (__msan_test_shadow((p), (n)) >= 0)
#else
#include <valgrind/memcheck.h>
#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#define CHECKER_NAME "valgrind memcheck"
#define CHECKER_ACTIVE() (RUNNING_ON_VALGRIND != 0)
static int is_secret_vg(const void *p, size_t n)
{
    unsigned char vbits[64];
    if (n > sizeof vbits) n = sizeof vbits;
    if (VALGRIND_GET_VBITS(p, vbits, n) != 1) return 0;
    unsigned char any = 0;
    for (size_t i = 0; i < n; i++) any |= vbits[i]; /* vbits are defined data: reading them is fine */
    return any != 0;
}
#define IS_SECRET(p, n) is_secret_vg((p), (n))
#endif

#define MAX_LEN 16500

/* --- the checker's own test (MSan builds on x86-64: --plant branch|address) ----------------------- */
/*
 * MSan only sees what its instrumentation of each instruction propagates; a check that passes because
 * the taint got lost on the way (an intrinsic MSan treats as "result initialised", a masked load it
 * does not model) would pass forever. So ct_msan.cmake also runs this program with --plant: a
 * miniature kernel written exactly like the vaes512/vaes256 ones (round key broadcast to every lane,
 * vaesenc, a masked or 128-bit tail load, vpclmulqdq, vpshufb, in-lane byte shifts, the lane fold)
 * on a poisoned key and poisoned data, then one deliberate leak: a branch on a bit of the result, or a
 * table index made from a byte of it. Those runs must end in an MSan report (the test passes on the
 * report text): if they do not, the real check above cannot be trusted for that width.
 */
#if defined(CT_MSAN) && defined(__x86_64__)
#include <immintrin.h>
#define PLANT_T512 __attribute__((target("vaes,vpclmulqdq,avx512f,avx512bw,avx512vl,avx2,avx,aes,pclmul,ssse3")))
#define PLANT_T256 __attribute__((target("vaes,vpclmulqdq,avx2,avx,aes,pclmul,ssse3")))
unsigned char ct_plant_table[256];
volatile unsigned ct_plant_sink;

PLANT_T512 __attribute__((noinline)) static __m128i plant_kernel512(const uint8_t key16[16], const uint8_t *data)
{
    __m512i k = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)key16));
    __m512i x = _mm512_maskz_loadu_epi64(0x3f, data); /* a 3-block tail, as the kernels load it */
    for (int r = 0; r < 10; r++) x = _mm512_aesenc_epi128(x, k);
    __m512i h = _mm512_set1_epi64(0x0123456789abcdefLL);
    __m512i lo = _mm512_clmulepi64_epi128(x, h, 0x00), mid = _mm512_clmulepi64_epi128(x, h, 0x01);
    lo = _mm512_xor_si512(lo, _mm512_bslli_epi128(mid, 8));
    lo = _mm512_shuffle_epi8(_mm512_shuffle_epi32(lo, (_MM_PERM_ENUM)0x4e), _mm512_set1_epi8(1));
    __m256i y = _mm256_xor_si256(_mm512_castsi512_si256(lo), _mm512_extracti64x4_epi64(lo, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1));
}

PLANT_T256 __attribute__((noinline)) static __m128i plant_kernel256(const uint8_t key16[16], const uint8_t *data)
{
    __m256i k = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)key16));
    __m256i x = _mm256_inserti128_si256(_mm256_setzero_si256(), _mm_loadu_si128((const __m128i *)data), 0);
    for (int r = 0; r < 10; r++) x = _mm256_aesenc_epi128(x, k);
    __m256i h = _mm256_set1_epi64x(0x0123456789abcdefLL);
    __m256i lo = _mm256_clmulepi64_epi128(x, h, 0x11), mid = _mm256_clmulepi64_epi128(x, h, 0x10);
    lo = _mm256_xor_si256(lo, _mm256_bsrli_epi128(mid, 8));
    lo = _mm256_shuffle_epi8(_mm256_shuffle_epi32(lo, 0x4e), _mm256_set1_epi8(2));
    return _mm_xor_si128(_mm256_castsi256_si128(lo), _mm256_extracti128_si256(lo, 1));
}

/* Runs the planted leak; returns only if MSan did not stop the program. */
static void plant(const char *what)
{
    uint8_t k[16], data[64];
    for (int i = 0; i < 256; i++) ct_plant_table[i] = (unsigned char)(i * 7 + 1);
    vgt_rand_bytes(k, sizeof k);
    vgt_rand_bytes(data, sizeof data);
    SECRET(k, sizeof k);
    SECRET(data, sizeof data);
    int wide = strcmp(vgt_impl(), "vaes512") == 0;
    __m128i r = wide ? plant_kernel512(k, data) : plant_kernel256(k, data);
    unsigned v = (unsigned)_mm_cvtsi128_si32(r);
    printf("planted %s leak in a %s-style kernel\n", what, wide ? "vaes512" : "vaes256");
    if (strcmp(what, "branch") == 0) {
        if (v & 1) ct_plant_sink++; /* the leak: a branch on a secret bit */
    } else {
        ct_plant_sink += ct_plant_table[(v >> 8) & 255]; /* the leak: an address from a secret byte */
    }
    printf("NOT DETECTED: MemorySanitizer did not report the planted %s leak\n", what);
    exit(1);
}
#endif

static int checker_active;
static int poison_checked;

/* Called on a library output before it is marked defined: it must still carry the secret's taint. */
static void expect_tainted(const void *p, size_t n, const char *what)
{
    if (!checker_active || n == 0) return;
    CHECK(IS_SECRET(p, n), "%s: output not tainted by the secret inputs (is the checker tracking?)", what);
    poison_checked++;
}

/* Lengths in bytes hitting 1..33 blocks and the tails next to them, and the bigger batches (8, 16, 32
   blocks and more) of the hardware implementations. */
static const size_t lens[] = {0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 80, 96, 100, 112, 127, 128,
                              129, 143, 161, 191, 208, 225, 240, 255, 256, 257, 383, 511, 512, 513, 1000,
                              1024 + 17, 2048 + 33, 4096 + 15};
#define NLENS (sizeof lens / sizeof lens[0])

static uint8_t key[32], nonce[64], aad[320], pt[MAX_LEN], tagbuf[16];
static uint8_t want[MAX_LEN + 16], want_tag[16], got[MAX_LEN + 16], got2[MAX_LEN + 16];

/* --- AES: key expansion, ECB, CTR32, CTR stream --------------------------------------------------- */

static void ct_aes(size_t key_len)
{
    vg_aes_key k;
    for (size_t li = 0; li < NLENS; li++) {
        size_t nb = (lens[li] + 15) / 16;
        if (nb * 16 > MAX_LEN) continue;
        uint8_t ctr[16], ctr_want[16];
        vgt_rand_bytes(key, key_len);
        vgt_rand_bytes(pt, nb * 16);
        vgt_rand_bytes(ctr, 16);
        if (li % 3 == 0) { ctr[12] = ctr[13] = ctr[14] = 0xFF; } /* wraps within 256 blocks */

        SECRET(key, key_len);
        CHECK(vg_aes_expand_key(&k, key, key_len) == VG_OK, "expand_key");
        PUBLIC(key, key_len);

        /* ECB encrypt */
        spec_aes_ecb_encrypt(key, key_len, pt, want, nb);
        SECRET(pt, nb * 16);
        CHECK(vg_aes_ecb_encrypt(&k, pt, got, nb) == VG_OK, "ecb_encrypt");
        expect_tainted(got, nb * 16, "ecb_encrypt");
        PUBLIC(got, nb * 16);
        PUBLIC(pt, nb * 16);
        CHECK_BYTES(got, want, nb * 16, "ecb_encrypt key %zu nblocks %zu", key_len, nb);
        /* ECB decrypt, in place */
        spec_aes_ecb_decrypt(key, key_len, pt, want, nb);
        memcpy(got, pt, nb * 16);
        SECRET(got, nb * 16);
        CHECK(vg_aes_ecb_decrypt(&k, got, got, nb) == VG_OK, "ecb_decrypt");
        PUBLIC(got, nb * 16);
        CHECK_BYTES(got, want, nb * 16, "ecb_decrypt key %zu nblocks %zu", key_len, nb);
        /* CTR32: the counter is secret too (it comes from a nonce), including its written-back value */
        memcpy(ctr_want, ctr, 16);
        spec_aes_ctr32(key, key_len, ctr_want, pt, want, nb);
        SECRET(pt, nb * 16);
        SECRET(ctr, 16);
        CHECK(vg_aes_ctr32(&k, ctr, pt, got, nb) == VG_OK, "ctr32");
        expect_tainted(got, nb * 16, "ctr32");
        PUBLIC(got, nb * 16);
        PUBLIC(ctr, 16);
        PUBLIC(pt, nb * 16);
        CHECK_BYTES(got, want, nb * 16, "ctr32 key %zu nblocks %zu", key_len, nb);
        CHECK_BYTES(ctr, ctr_want, 16, "ctr32 counter key %zu nblocks %zu", key_len, nb);

        /* CTR stream over lens[li] bytes in three pieces */
        size_t len = lens[li];
        vgt_rand_bytes(ctr, 16);
        memcpy(ctr_want, ctr, 16);
        spec_aes_ctr32(key, key_len, ctr_want, pt, want, nb);
        vg_aes_ctr_stream s;
        SECRET(ctr, 16);
        SECRET(pt, len);
        CHECK(vg_aes_ctr_stream_init(&s, &k, ctr) == VG_OK, "ctr stream init");
        size_t a = len / 3, b = len / 3 + 5 > len ? len : len / 3 + 5;
        CHECK(vg_aes_ctr_stream_xor(&s, pt, got, a) == VG_OK, "ctr_stream_xor");
        CHECK(vg_aes_ctr_stream_xor(&s, pt + a, got + a, b - a) == VG_OK, "ctr_stream_xor");
        CHECK(vg_aes_ctr_stream_xor(&s, pt + b, got + b, len - b) == VG_OK, "ctr_stream_xor");
        vg_aes_ctr_stream_wipe(&s);
        PUBLIC(got, len);
        PUBLIC(pt, len);
        CHECK_BYTES(got, want, len, "ctr stream key %zu len %zu", key_len, len);
        vg_aes_key_wipe(&k);
    }
}

/* --- the AEADs --------------------------------------------------------------------------------------- */

enum aead_kind { GCM, SIV, CCM };
static const char *kind_name[3] = {"gcm", "gcm-siv", "ccm"};

typedef union {
    vg_aes_gcm_key gcm;
    vg_aes_gcm_siv_key siv;
    vg_aes_ccm_key ccm;
} any_key;

static int lib_init(enum aead_kind kind, any_key *k, size_t key_len)
{
    switch (kind) {
    case GCM: return vg_aes_gcm_init(&k->gcm, key, key_len);
    case SIV: return vg_aes_gcm_siv_init(&k->siv, key, key_len);
    default: return vg_aes_ccm_init(&k->ccm, key, key_len);
    }
}
static int lib_seal(enum aead_kind kind, const any_key *k, size_t nl, size_t al, const uint8_t *in, size_t len,
                    uint8_t *out, uint8_t *tag, size_t tl)
{
    switch (kind) {
    case GCM: return vg_aes_gcm_seal(&k->gcm, nonce, nl, aad, al, in, len, out, tag, tl);
    case SIV: return vg_aes_gcm_siv_seal(&k->siv, nonce, nl, aad, al, in, len, out, tag, tl);
    default: return vg_aes_ccm_seal(&k->ccm, nonce, nl, aad, al, in, len, out, tag, tl);
    }
}
static int lib_open(enum aead_kind kind, const any_key *k, size_t nl, size_t al, const uint8_t *in, size_t len,
                    const uint8_t *tag, size_t tl, uint8_t *out)
{
    switch (kind) {
    case GCM: return vg_aes_gcm_open(&k->gcm, nonce, nl, aad, al, in, len, tag, tl, out);
    case SIV: return vg_aes_gcm_siv_open(&k->siv, nonce, nl, aad, al, in, len, tag, tl, out);
    default: return vg_aes_ccm_open(&k->ccm, nonce, nl, aad, al, in, len, tag, tl, out);
    }
}
static void spec_seal(enum aead_kind kind, size_t key_len, size_t nl, size_t al, size_t len, size_t tl)
{
    uint8_t full[16];
    switch (kind) {
    case GCM: spec_aes_gcm_seal(key, key_len, nonce, nl, aad, al, pt, len, want, full); break;
    case SIV: spec_aes_gcm_siv_seal(key, key_len, nonce, aad, al, pt, len, want, full); break;
    default: spec_aes_ccm_seal(key, key_len, nonce, nl, aad, al, pt, len, want, full, tl); break;
    }
    memcpy(want_tag, full, tl);
}

/* Marks every secret input of one AEAD call undefined / defined again. */
static void secret_inputs(size_t nl, size_t al, const uint8_t *in, size_t len, int mark)
{
    if (mark) {
        SECRET(nonce, nl);
        SECRET(aad, al);
        SECRET(in, len);
    } else {
        PUBLIC(nonce, nl);
        PUBLIC(aad, al);
        PUBLIC(in, len);
    }
}

/* One-shot GCM with a 12-byte nonce over a grid of (AAD length, data length) pairs: the whole-message
   kernels of the hardware implementations (gcm_seal_short / gcm_open_short) take these, and they branch
   on both lengths (one GHASH sum or several, the fused groups, the masked tail), so each of those shapes
   runs with secrets: below and above the x86-64 limits (16384 bytes, 256 bytes of AAD), the one-sum edges
   of 8, 16 and 32 blocks in all, and the group edges. Seal, open, and open with a wrong tag. */
static void ct_gcm_short(size_t key_len)
{
    static const size_t glens[] = {0,    1,    15,   16,   17,   63,   64,   65,   95,    111,   112,  113,
                                   127,  128,  129,  223,  239,  240,  241,  255,  256,   257,   479,  495,
                                   496,  497,  511,  512,  513,  1350, 4095, 4096, 4097, 16383, 16384, 16385};
    static const size_t galens[] = {0, 1, 13, 16, 17, 32, 33, 255, 256, 257};
    const size_t nl = 12;
    for (size_t li = 0; li < sizeof glens / sizeof glens[0]; li++)
        for (size_t ai = 0; ai < sizeof galens / sizeof galens[0]; ai++) {
            if ((li + ai) % 3 != key_len % 3) continue; /* each pair with one key size */
            size_t len = glens[li], al = galens[ai];
            vgt_rand_bytes(key, key_len);
            vgt_rand_bytes(nonce, nl);
            vgt_rand_bytes(aad, al);
            vgt_rand_bytes(pt, len);
            spec_seal(GCM, key_len, nl, al, len, 16);
            any_key k;
            SECRET(key, key_len);
            CHECK(lib_init(GCM, &k, key_len) == VG_OK, "gcm init");
            PUBLIC(key, key_len);
            secret_inputs(nl, al, pt, len, 1);
            int rc = lib_seal(GCM, &k, nl, al, pt, len, got, tagbuf, 16);
            secret_inputs(nl, al, pt, len, 0);
            expect_tainted(tagbuf, 16, "gcm short seal tag");
            PUBLIC(got, len);
            PUBLIC(tagbuf, 16);
            CHECK(rc == VG_OK, "gcm short seal rc %d", rc);
            CHECK_BYTES(got, want, len, "gcm short seal key %zu aad %zu len %zu", key_len, al, len);
            CHECK_BYTES(tagbuf, want_tag, 16, "gcm short seal tag key %zu aad %zu len %zu", key_len, al, len);
            for (int forged = 0; forged < 2; forged++) {
                uint8_t tag[16];
                memcpy(tag, want_tag, 16);
                if (forged) tag[(li + ai) % 16] ^= 0x80;
                memcpy(got2, want, len); /* in place */
                secret_inputs(nl, al, got2, len, 1);
                SECRET(tag, 16);
                rc = lib_open(GCM, &k, nl, al, got2, len, tag, 16, got2);
                secret_inputs(nl, al, got2, len, 0);
                PUBLIC(&rc, sizeof rc);
                if (forged) {
                    CHECK(rc == VG_ERR_AUTH && vgt_all_zero(got2, len), "gcm short forged open aad %zu len %zu", al, len);
                } else {
                    CHECK(rc == VG_OK, "gcm short open rc %d (aad %zu len %zu)", rc, al, len);
                    CHECK_BYTES(got2, pt, len, "gcm short open key %zu aad %zu len %zu", key_len, al, len);
                }
            }
            vg_aes_gcm_key_wipe(&k.gcm);
        }
}

/* The GCM batches: one seal batch whose messages come in pairs of like messages (the same lengths,
   12-byte nonces: vaes256's two-message kernel, up to 96 bytes) and single ones (a 13-byte nonce, a
   12-byte tag, 1350 bytes), with the key, nonces, AAD and data secret; then the open batch of the same,
   with one message's tag forged. Each message is checked against the one-shot call's output. */
static void ct_gcm_batch(size_t key_len)
{
    static const size_t blens[] = {0, 0, 16, 16, 64, 64, 96, 96, 1, 15, 17, 255, 256, 257, 1350, 33, 128};
    enum { NB = sizeof blens / sizeof blens[0], FORGED = 4 };
    static uint8_t bn[NB][13], ba[NB][40], bp[NB][1350], bc[NB][1350], bt[NB][16], wc[NB][1350], wt[NB][16];
    vg_aes_gcm_batch_msg m[NB];
    int res[NB];
    any_key k;
    vgt_rand_bytes(key, key_len);
    SECRET(key, key_len);
    CHECK(lib_init(GCM, &k, key_len) == VG_OK, "gcm init");
    PUBLIC(key, key_len);
    for (size_t i = 0; i < NB; i++) {
        size_t nl = i == 9 ? 13 : 12, al = (i / 2 * 7) % 40, tl = i == 8 ? 12 : 16;
        vgt_rand_bytes(bn[i], nl);
        vgt_rand_bytes(ba[i], al);
        vgt_rand_bytes(bp[i], blens[i]);
        CHECK(vg_aes_gcm_seal(&k.gcm, bn[i], nl, ba[i], al, bp[i], blens[i], wc[i], wt[i], tl) == VG_OK, "one-shot seal");
        m[i] = (vg_aes_gcm_batch_msg){bn[i], nl, ba[i], al, bp[i], blens[i], bc[i], bt[i], tl};
    }
    for (size_t i = 0; i < NB; i++) {
        SECRET(bn[i], m[i].nonce_len);
        SECRET(ba[i], m[i].aad_len);
        SECRET(bp[i], m[i].len);
    }
    int rc = vg_aes_gcm_seal_batch(&k.gcm, m, NB, res);
    for (size_t i = 0; i < NB; i++) {
        PUBLIC(bn[i], m[i].nonce_len);
        PUBLIC(ba[i], m[i].aad_len);
        PUBLIC(bp[i], m[i].len);
        expect_tainted(bt[i], m[i].tag_len, "gcm batch seal tag");
        PUBLIC(bc[i], m[i].len);
        PUBLIC(bt[i], m[i].tag_len);
        /* the one-shot's outputs too: they came from the key schedule, which stays secret */
        PUBLIC(wc[i], m[i].len);
        PUBLIC(wt[i], m[i].tag_len);
        CHECK(res[i] == VG_OK, "gcm batch seal message %zu: %d", i, res[i]);
        CHECK_BYTES(bc[i], wc[i], m[i].len, "gcm batch seal message %zu (key %zu)", i, key_len);
        CHECK_BYTES(bt[i], wt[i], m[i].tag_len, "gcm batch seal tag %zu (key %zu)", i, key_len);
    }
    CHECK(rc == VG_OK, "gcm batch seal rc %d", rc);

    bt[FORGED][0] ^= 1;
    for (size_t i = 0; i < NB; i++) {
        m[i].in = bc[i];
        m[i].out = bc[i];
        SECRET(bn[i], m[i].nonce_len);
        SECRET(ba[i], m[i].aad_len);
        SECRET(bc[i], m[i].len);
        SECRET(bt[i], m[i].tag_len);
    }
    rc = vg_aes_gcm_open_batch(&k.gcm, m, NB, res);
    PUBLIC(&rc, sizeof rc);
    for (size_t i = 0; i < NB; i++) {
        PUBLIC(bn[i], m[i].nonce_len);
        PUBLIC(ba[i], m[i].aad_len);
        PUBLIC(bt[i], m[i].tag_len);
        PUBLIC(bc[i], m[i].len);
        if (i == FORGED) {
            CHECK(res[i] == VG_ERR_AUTH && vgt_all_zero(bc[i], m[i].len), "gcm batch forged open %zu: %d", i, res[i]);
        } else {
            CHECK(res[i] == VG_OK, "gcm batch open message %zu: %d", i, res[i]);
            CHECK_BYTES(bc[i], bp[i], m[i].len, "gcm batch open message %zu (key %zu)", i, key_len);
        }
    }
    CHECK(rc == VG_ERR_AUTH, "gcm batch open rc %d", rc);
    vg_aes_gcm_key_wipe(&k.gcm);
}

static void ct_aead(enum aead_kind kind, size_t key_len)
{
    static const size_t aad_lens[] = {0, 1, 16, 17, 69, 300};
    for (size_t li = 0; li < NLENS; li++) {
        size_t len = lens[li], al = aad_lens[li % 6];
        size_t nl = kind == SIV ? 12 : kind == CCM ? 13 - li % 7 : (li % 4 == 3 ? 1 + li % 60 : 12);
        size_t tl = kind == SIV ? 16 : (li % 5 == 4 ? (kind == GCM ? 12 : 8) : 16);
        if (kind == CCM && nl == 13 && len > 65535) nl = 12;
        const char *name = kind_name[kind];
        vgt_rand_bytes(key, key_len);
        vgt_rand_bytes(nonce, nl);
        vgt_rand_bytes(aad, al);
        vgt_rand_bytes(pt, len);
        spec_seal(kind, key_len, nl, al, len, tl);

        any_key k;
        SECRET(key, key_len);
        CHECK(lib_init(kind, &k, key_len) == VG_OK, "%s init", name);
        PUBLIC(key, key_len);

        /* seal */
        secret_inputs(nl, al, pt, len, 1);
        int rc = lib_seal(kind, &k, nl, al, pt, len, got, tagbuf, tl);
        secret_inputs(nl, al, pt, len, 0);
        expect_tainted(tagbuf, tl, "seal tag");
        PUBLIC(got, len);
        PUBLIC(tagbuf, tl);
        CHECK(rc == VG_OK, "%s seal rc %d", name, rc);
        CHECK_BYTES(got, want, len, "%s seal key %zu nonce %zu aad %zu len %zu", name, key_len, nl, al, len);
        CHECK_BYTES(tagbuf, want_tag, tl, "%s seal tag key %zu nonce %zu aad %zu len %zu", name, key_len, nl, al, len);

        /* open with the right tag, then with a wrong one (last byte flipped); the code and the output are
           marked defined only after the call */
        for (int forged = 0; forged < 2; forged++) {
            uint8_t tag[16];
            memcpy(tag, want_tag, tl);
            if (forged) tag[(li * 5) % tl] ^= 0x01;
            secret_inputs(nl, al, want, len, 1);
            SECRET(tag, tl);
            rc = lib_open(kind, &k, nl, al, want, len, tag, tl, got2);
            secret_inputs(nl, al, want, len, 0);
            PUBLIC(&rc, sizeof rc);
            PUBLIC(got2, len);
            if (forged) {
                CHECK(rc == VG_ERR_AUTH, "%s open forged rc %d", name, rc);
                CHECK(vgt_all_zero(got2, len), "%s forged open: out not zeroed (len %zu)", name, len);
            } else {
                CHECK(rc == VG_OK, "%s open rc %d (key %zu nonce %zu aad %zu len %zu)", name, rc, key_len, nl, al, len);
                CHECK_BYTES(got2, pt, len, "%s open key %zu len %zu", name, key_len, len);
            }
        }

        /* streaming GCM: seal in pieces, then open in pieces with the right and a wrong tag */
        if (kind == GCM) {
            vg_aes_gcm_stream s;
            size_t c1 = len / 2, ca = al / 2;
            secret_inputs(nl, al, pt, len, 1);
            CHECK(vg_aes_gcm_stream_init(&s, &k.gcm, nonce, nl) == VG_OK, "gcm_stream_init");
            CHECK(vg_aes_gcm_stream_aad(&s, aad, ca) == VG_OK, "gcm_stream_aad");
            CHECK(vg_aes_gcm_stream_aad(&s, aad + ca, al - ca) == VG_OK, "gcm_stream_aad");
            CHECK(vg_aes_gcm_stream_encrypt(&s, pt, c1, got) == VG_OK, "gcm_stream_encrypt");
            CHECK(vg_aes_gcm_stream_encrypt(&s, pt + c1, len - c1, got + c1) == VG_OK, "gcm_stream_encrypt");
            rc = vg_aes_gcm_stream_finish(&s, tagbuf, tl);
            secret_inputs(nl, al, pt, len, 0);
            PUBLIC(got, len);
            PUBLIC(tagbuf, tl);
            CHECK(rc == VG_OK, "gcm stream finish rc %d", rc);
            CHECK_BYTES(got, want, len, "gcm stream ciphertext len %zu", len);
            CHECK_BYTES(tagbuf, want_tag, tl, "gcm stream tag len %zu", len);
            for (int forged = 0; forged < 2; forged++) {
                uint8_t tag[16];
                memcpy(tag, want_tag, tl);
                if (forged) tag[tl - 1] ^= 0x80;
                secret_inputs(nl, al, want, len, 1);
                SECRET(tag, tl);
                CHECK(vg_aes_gcm_stream_init(&s, &k.gcm, nonce, nl) == VG_OK, "gcm_stream_init");
                CHECK(vg_aes_gcm_stream_aad(&s, aad, al) == VG_OK, "gcm_stream_aad");
                CHECK(vg_aes_gcm_stream_decrypt(&s, want, c1, got2) == VG_OK, "gcm_stream_decrypt");
                CHECK(vg_aes_gcm_stream_decrypt(&s, want + c1, len - c1, got2 + c1) == VG_OK, "gcm_stream_decrypt");
                rc = vg_aes_gcm_stream_verify(&s, tag, tl);
                secret_inputs(nl, al, want, len, 0);
                PUBLIC(&rc, sizeof rc);
                PUBLIC(got2, len);
                CHECK(rc == (forged ? VG_ERR_AUTH : VG_OK), "gcm stream verify (%s tag) rc %d", forged ? "wrong" : "right", rc);
                CHECK_BYTES(got2, pt, len, "gcm stream plaintext len %zu", len);
            }
        }

        switch (kind) {
        case GCM: vg_aes_gcm_key_wipe(&k.gcm); break;
        case SIV: vg_aes_gcm_siv_key_wipe(&k.siv); break;
        default: vg_aes_ccm_key_wipe(&k.ccm); break;
        }
    }
}

int main(int argc, char **argv)
{
    int require = 0;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--require-checker") == 0) require = 1;
    vgt_init(argc, argv);
    checker_active = CHECKER_ACTIVE();
    printf("constant-time checker: %s%s\n", CHECKER_NAME, checker_active ? "" : " NOT active (functional checks only)");
    if (require)
        CHECK(checker_active, "--require-checker given but %s is not running", CHECKER_NAME);

    const char *plant_what = vgt_option("plant");
    if (plant_what) {
#if defined(CT_MSAN) && defined(__x86_64__)
        if (strcmp(vgt_impl(), "vaes512") != 0 && strcmp(vgt_impl(), "vaes256") != 0) {
            printf("--plant needs --impl vaes512 or vaes256\n");
            return 2;
        }
        plant(plant_what);
#else
        printf("--plant is for MemorySanitizer builds on x86-64\n");
        return 2;
#endif
    }

    if (checker_active) {
        /* the poison takes: a marked buffer reads as secret, an unmarked one as public */
        uint8_t probe[16] = {0};
        CHECK(!IS_SECRET(probe, 16), "a defined buffer reads as secret");
        SECRET(probe, 16);
        CHECK(IS_SECRET(probe, 16), "SECRET() did not mark the buffer");
        PUBLIC(probe, 16);
        CHECK(!IS_SECRET(probe, 16), "PUBLIC() did not unmark the buffer");
    }

    static const size_t key_lens[3] = {16, 24, 32};
    for (size_t i = 0; i < 3; i++) {
        ct_aes(key_lens[i]);
        ct_aead(GCM, key_lens[i]);
        ct_gcm_short(key_lens[i]);
        ct_gcm_batch(key_lens[i]);
        ct_aead(CCM, key_lens[i]);
        ct_aead(SIV, key_lens[i]);
    }
    if (checker_active) CHECK(poison_checked > 0, "no output was checked for taint");
    return vgt_finish();
}
