/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * ct_trace.c — the constant-time check for targets run under qemu (ppc64le, aarch64), where valgrind
 * cannot run. Architecture-neutral: public API only.
 *
 * Every operation of the library runs on CT_SECRETS different secrets (keys, nonces, counters, AADs,
 * plaintexts, ciphertexts, tags) with the SAME public inputs (key, nonce, AAD, message and tag
 * lengths), each run between ct_begin() and ct_end(). tools/qemu-ct-trace/ct-trace.sh hashes the
 * sequence of executed translation blocks and memory addresses between each pair, and with
 * -g CT_SECRETS fails unless the hashes of each group are equal: a branch or a memory index that
 * depends on a secret changes the hash. Opens always get a valid tag (a failed open's early exit is
 * public). Message lengths hit the 8-block loops, every 4/2/1 tail and partial blocks.
 *
 * Buffers are static, so their addresses are the same in every run; everything a run needs (a tag to
 * open, the key struct) is made before ct_begin(), and each group starts with one unmarked warm-up run.
 * The CTR and GCM streams run too, each message in three public-length pieces, and the GCM batches,
 * four messages of a quarter of the length each.
 *
 * Usage: ct_trace --impl NAME [--plant]   (run through ct-trace.sh -b ct_begin -e ct_end -g 4)
 * --plant adds one group that branches on a secret byte: the check must fail with it (proof that
 * the check can fail).
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "vg.h"

#define CT_SECRETS 4
#define CT_MAX 1024

__attribute__((noinline)) void ct_begin(void) { __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) void ct_end(void) { __asm__ volatile("" ::: "memory"); }

static uint8_t key[32], nonce[16], counter[16], aad[80], msg[CT_MAX], out[CT_MAX], back[CT_MAX];
static uint8_t tag[16];
static uint8_t bnonce[4][12], btag[4][16]; /* the batches' four messages */
static vg_aes_gcm_batch_msg batch[4];
static int bres[4];
static vg_aes_key aes_key;
static vg_aes_gcm_key gcm_key;
static vg_aes_gcm_siv_key siv_key;
static vg_aes_ccm_key ccm_key;
static vg_aes_ctr_stream ctr_stream;
static vg_aes_gcm_stream gcm_stream;
static size_t groups;
static volatile uint8_t sink;

/* New secrets for run s of a group: every secret byte differs between runs. */
static void new_secrets(void)
{
    vgt_rand_bytes(key, sizeof key);
    vgt_rand_bytes(nonce, sizeof nonce);
    vgt_rand_bytes(counter, sizeof counter);
    vgt_rand_bytes(aad, sizeof aad);
    vgt_rand_bytes(msg, sizeof msg);
    vgt_rand_bytes(&bnonce[0][0], sizeof bnonce);
}

static const size_t key_lens[] = {16, 24, 32};
/* Lengths in bytes: 1, 2, 3, 4, 7 blocks (each tail combination), 8, 15 and 23 blocks (loop + tails),
   64 B (4 blocks), 192 B (12 blocks) and partial blocks. */
static const size_t msg_lens[] = {16, 32, 48, 64, 112, 128, 192, 240, 368, 1000};
#define NKEYS (sizeof key_lens / sizeof key_lens[0])
#define NMSGS (sizeof msg_lens / sizeof msg_lens[0])

enum op { EXPAND, ECB_ENC, ECB_DEC, CTR, GCM_INIT, GCM_SEAL, GCM_OPEN, SIV_INIT, SIV_SEAL, SIV_OPEN,
          CCM_INIT, CCM_SEAL, CCM_OPEN, CTR_STREAM, GCM_STREAM_ENC, GCM_STREAM_DEC, GCM_SEAL_BATCH,
          GCM_OPEN_BATCH, PLANT };
static const char *const op_names[] = {"expand", "ecb_enc", "ecb_dec", "ctr32", "gcm_init", "gcm_seal",
                                       "gcm_open", "siv_init", "siv_seal", "siv_open", "ccm_init",
                                       "ccm_seal", "ccm_open", "ctr_stream", "gcm_stream_enc",
                                       "gcm_stream_dec", "gcm_seal_batch", "gcm_open_batch", "planted"};

/* AAD bytes of every AEAD call (20 unless a group says otherwise). */
static size_t al = 20;

/* The batches: four messages of len / 4 bytes each (so the short ones form an interleaved group), from
   msg to out (seal) and from out to back (open), each with its own nonce, tag and slice of the AAD. */
static void batch_msgs(size_t len, int open)
{
    size_t q = len / 4;
    for (size_t j = 0; j < 4; j++)
        batch[j] = (vg_aes_gcm_batch_msg){bnonce[j], 12, aad + 5 * j, al / 4, open ? out + q * j : msg + q * j, q,
                                          open ? back + q * j : out + q * j, btag[j], 16};
}

/* One group: CT_SECRETS runs of op with key length kl and message length len. */
static void group(enum op op, size_t kl, size_t len)
{
    const size_t nl_gcm = 12, nl_ccm = 13, tl = 16;
    printf("group %zu: %s key %zu len %zu aad %zu\n", groups++, op_names[op], kl, len, al);
    /* run -1 is a warm-up outside the markers: first-call work that is not the operation's (lazy
       symbol binding of libc functions, one-time initialisation) happens there */
    for (int s = -1; s < CT_SECRETS; s++) {
        new_secrets();
        int rc = 0;
        /* set-up outside the markers */
        switch (op) {
        case ECB_ENC: case ECB_DEC: case CTR: case CTR_STREAM:
            rc = vg_aes_expand_key(&aes_key, key, kl);
            break;
        case GCM_SEAL: case GCM_OPEN: case GCM_STREAM_ENC: case GCM_STREAM_DEC:
            rc = vg_aes_gcm_init(&gcm_key, key, kl);
            if (op == GCM_OPEN || op == GCM_STREAM_DEC)
                rc |= vg_aes_gcm_seal(&gcm_key, nonce, nl_gcm, aad, al, msg, len, out, tag, tl);
            break;
        case SIV_SEAL: case SIV_OPEN:
            rc = vg_aes_gcm_siv_init(&siv_key, key, kl);
            if (op == SIV_OPEN)
                rc |= vg_aes_gcm_siv_seal(&siv_key, nonce, 12, aad, al, msg, len, out, tag, tl);
            break;
        case GCM_SEAL_BATCH: case GCM_OPEN_BATCH:
            rc = vg_aes_gcm_init(&gcm_key, key, kl);
            batch_msgs(len, 0);
            if (op == GCM_OPEN_BATCH) rc |= vg_aes_gcm_seal_batch(&gcm_key, batch, 4, bres);
            batch_msgs(len, op == GCM_OPEN_BATCH);
            break;
        case CCM_SEAL: case CCM_OPEN:
            rc = vg_aes_ccm_init(&ccm_key, key, kl);
            if (op == CCM_OPEN)
                rc |= vg_aes_ccm_seal(&ccm_key, nonce, nl_ccm, aad, al, msg, len, out, tag, tl);
            break;
        default:
            break;
        }
        CHECK(rc == 0, "%s set-up", op_names[op]);
        if (s >= 0) ct_begin();
        switch (op) {
        case EXPAND: rc = vg_aes_expand_key(&aes_key, key, kl); break;
        case ECB_ENC: CHECK(vg_aes_ecb_encrypt(&aes_key, msg, out, len / 16) == VG_OK, "ecb_encrypt"); break;
        case ECB_DEC: CHECK(vg_aes_ecb_decrypt(&aes_key, msg, out, len / 16) == VG_OK, "ecb_decrypt"); break;
        case CTR: CHECK(vg_aes_ctr32(&aes_key, counter, msg, out, len / 16) == VG_OK, "ctr32"); break;
        case GCM_INIT: rc = vg_aes_gcm_init(&gcm_key, key, kl); break;
        case GCM_SEAL: rc = vg_aes_gcm_seal(&gcm_key, nonce, nl_gcm, aad, al, msg, len, out, tag, tl); break;
        case GCM_OPEN: rc = vg_aes_gcm_open(&gcm_key, nonce, nl_gcm, aad, al, out, len, tag, tl, back); break;
        case SIV_INIT: rc = vg_aes_gcm_siv_init(&siv_key, key, kl); break;
        case SIV_SEAL: rc = vg_aes_gcm_siv_seal(&siv_key, nonce, 12, aad, al, msg, len, out, tag, tl); break;
        case SIV_OPEN: rc = vg_aes_gcm_siv_open(&siv_key, nonce, 12, aad, al, out, len, tag, tl, back); break;
        case CCM_INIT: rc = vg_aes_ccm_init(&ccm_key, key, kl); break;
        case CCM_SEAL: rc = vg_aes_ccm_seal(&ccm_key, nonce, nl_ccm, aad, al, msg, len, out, tag, tl); break;
        case CCM_OPEN: rc = vg_aes_ccm_open(&ccm_key, nonce, nl_ccm, aad, al, out, len, tag, tl, back); break;
        /* Streams: the message in three pieces (a partial block, then a run that ends mid-block,
           then the rest), so the buffered-keystream and partial-block paths run; the split points
           are public (lengths only). */
        case CTR_STREAM: {
            size_t a = len / 3 < 5 ? len / 3 : 5, b = (len - a) / 2;
            rc = vg_aes_ctr_stream_init(&ctr_stream, &aes_key, counter);
            rc |= vg_aes_ctr_stream_xor(&ctr_stream, msg, out, a);
            rc |= vg_aes_ctr_stream_xor(&ctr_stream, msg + a, out + a, b);
            rc |= vg_aes_ctr_stream_xor(&ctr_stream, msg + a + b, out + a + b, len - a - b);
            vg_aes_ctr_stream_wipe(&ctr_stream);
            break;
        }
        case GCM_STREAM_ENC: case GCM_STREAM_DEC: {
            size_t a = len / 3 < 5 ? len / 3 : 5, b = (len - a) / 2;
            const uint8_t *src = op == GCM_STREAM_ENC ? msg : out;
            uint8_t *dst = op == GCM_STREAM_ENC ? out : back;
            int (*crypt)(vg_aes_gcm_stream *, const uint8_t *, size_t, uint8_t *) =
                op == GCM_STREAM_ENC ? vg_aes_gcm_stream_encrypt : vg_aes_gcm_stream_decrypt;
            rc = vg_aes_gcm_stream_init(&gcm_stream, &gcm_key, nonce, nl_gcm);
            rc |= vg_aes_gcm_stream_aad(&gcm_stream, aad, 7);
            rc |= vg_aes_gcm_stream_aad(&gcm_stream, aad + 7, al - 7);
            rc |= crypt(&gcm_stream, src, a, dst);
            rc |= crypt(&gcm_stream, src + a, b, dst + a);
            rc |= crypt(&gcm_stream, src + a + b, len - a - b, dst + a + b);
            if (op == GCM_STREAM_ENC)
                rc |= vg_aes_gcm_stream_finish(&gcm_stream, tag, tl);
            else
                rc |= vg_aes_gcm_stream_verify(&gcm_stream, tag, tl);
            vg_aes_gcm_stream_wipe(&gcm_stream);
            break;
        }
        case GCM_SEAL_BATCH: rc = vg_aes_gcm_seal_batch(&gcm_key, batch, 4, bres); break;
        case GCM_OPEN_BATCH: rc = vg_aes_gcm_open_batch(&gcm_key, batch, 4, bres); break;
        case PLANT: if (key[0] & 1) sink = key[1]; break; /* a secret-dependent branch, on purpose */
        }
        if (s >= 0) ct_end();
        CHECK(rc == 0, "%s key %zu len %zu", op_names[op], kl, len);
        if (op == GCM_OPEN || op == SIV_OPEN || op == CCM_OPEN || op == GCM_STREAM_DEC)
            CHECK_BYTES(back, msg, len, "%s round trip", op_names[op]);
        if (op == GCM_OPEN_BATCH) CHECK_BYTES(back, msg, len / 4 * 4, "%s round trip", op_names[op]);
    }
}

int main(int argc, char **argv)
{
    vgt_init(argc, argv);
    for (size_t k = 0; k < NKEYS; k++) {
        group(EXPAND, key_lens[k], 0);
        group(GCM_INIT, key_lens[k], 0);
        group(SIV_INIT, key_lens[k], 0);
        group(CCM_INIT, key_lens[k], 0);
        for (size_t m = 0; m < NMSGS; m++) {
            size_t whole = msg_lens[m] & ~(size_t)15;
            group(ECB_ENC, key_lens[k], whole);
            group(ECB_DEC, key_lens[k], whole);
            group(CTR, key_lens[k], whole);
            group(GCM_SEAL, key_lens[k], msg_lens[m]);
            group(GCM_OPEN, key_lens[k], msg_lens[m]);
            group(SIV_SEAL, key_lens[k], msg_lens[m]);
            group(SIV_OPEN, key_lens[k], msg_lens[m]);
            group(CCM_SEAL, key_lens[k], msg_lens[m]);
            group(CCM_OPEN, key_lens[k], msg_lens[m]);
            group(CTR_STREAM, key_lens[k], msg_lens[m]);
            group(GCM_STREAM_ENC, key_lens[k], msg_lens[m]);
            group(GCM_STREAM_DEC, key_lens[k], msg_lens[m]);
            group(GCM_SEAL_BATCH, key_lens[k], msg_lens[m]);
            group(GCM_OPEN_BATCH, key_lens[k], msg_lens[m]);
        }
    }
    /* GCM one-shots at (len, aad_len) shapes around the whole-message kernels' limits (ppc64le:
       a fixed copy per block count up to 96 bytes when AAD + data + lengths are at most 8 blocks,
       the general one up to 224 bytes and 64 bytes of AAD), partial blocks of data and AAD included */
    static const size_t short_lens[] = {0, 1, 15, 17, 47, 64, 95, 96, 97, 112, 143, 208, 223, 224, 225};
    static const size_t short_aads[] = {0, 13, 16, 33, 64, 65};
    for (size_t k = 0; k < NKEYS; k += 2)
        for (size_t a = 0; a < sizeof short_aads / sizeof short_aads[0]; a++)
            for (size_t m = 0; m < sizeof short_lens / sizeof short_lens[0]; m++) {
                al = short_aads[a];
                group(GCM_SEAL, key_lens[k], short_lens[m]);
                group(GCM_OPEN, key_lens[k], short_lens[m]);
            }
    al = 20;
    /* One-shot GCM around the limits of the implementations' whole-message short paths (armv8:
       <= 192 B of data and <= 48 B of AAD): partial and whole last blocks of data and AAD on both
       sides of each limit, so every branch of those kernels runs with secrets. */
    static const size_t arm_lens[] = {0, 1, 15, 17, 63, 100, 191, 192, 193};
    static const size_t arm_aads[] = {0, 5, 16, 33, 48, 49};
    for (size_t k = 0; k < NKEYS; k++)
        for (size_t m = 0; m < sizeof arm_lens / sizeof arm_lens[0]; m++)
            for (size_t a = 0; a < sizeof arm_aads / sizeof arm_aads[0]; a++) {
                if ((k + m + a) % 3 != 0 && arm_lens[m] != 192 && arm_aads[a] != 48) continue;
                al = arm_aads[a];
                group(GCM_SEAL, key_lens[k], arm_lens[m]);
                group(GCM_OPEN, key_lens[k], arm_lens[m]);
            }
    al = 20;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--plant") == 0) group(PLANT, 16, 0);
    return vgt_finish();
}
