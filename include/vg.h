/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * vg.h — AES and the AES-based AEADs, constant time, with run-time selected implementations.
 *
 * This header is the manual. Every function documents the lengths it takes, what may alias, and what
 * it writes when it fails. General rules that hold everywhere unless a function says otherwise:
 *
 *  - Contexts (keys, streams) are caller-allocated complete types that need no heap. They are opaque:
 *    read or write them only through these functions. A key is read-only after set-up and may be
 *    shared by any number of threads; a stream belongs to one thread at a time.
 *  - Placement and copies. A context works at any address its type's alignment allows (16 bytes,
 *    which every malloc, calloc and aligned stack or static object of these platforms gives), inside
 *    a struct or alone. A set-up key may be copied with memcpy into another object of the same type:
 *    the copy is a complete key, independent of the original (wipe both). A stream may be copied the
 *    same way: the copy continues from the same point and refers to the same key. Sealing two
 *    messages from copies of one sealing stream reuses the nonce.
 *  - Each context type carries its own marker: a key or stream of another type (a CCM key cast to a
 *    vg_aes_gcm_key, say), a zeroed or wiped context, or one never set up is refused with VG_ERR_ARG
 *    by every function that takes it, including a stream whose key was wiped after stream_init.
 *  - A key records the implementation that set it up (see vg_impl_select) and keeps using it.
 *  - Arguments are checked before anything is written: a call that returns an error other than
 *    VG_ERR_AUTH has written nothing to any output (out, tag, counter, key or stream).
 *  - NULL is accepted for a buffer whose length is 0. NULL with a non-zero length is VG_ERR_ARG.
 *  - Overlap. in == out is allowed; any other overlap of in and out is VG_ERR_ARG. Every other
 *    overlap is allowed and gives the same result on every implementation: out may overlap the AAD,
 *    the nonce and (open) the tag, and seal's tag may overlap the AAD, the nonce, in and out. Every
 *    function reads all it needs of its inputs before it writes over them, so the bytes written and
 *    the verdict are those of the same call with separate buffers; seal writes its tag last, so a tag
 *    that overlaps out replaces those bytes of the ciphertext. (vg_aes_ctr32's counter is both an
 *    input and an output: a counter overlapping in or out is VG_ERR_ARG.)
 *  - No branch and no memory address depends on a key, a nonce, a plaintext, a ciphertext, AAD or a
 *    tag. Lengths are public, and so is the verdict of an open once it is returned.
 *  - On AArch64 CPUs with FEAT_DIT, every function that processes a key or data sets PSTATE.DIT
 *    (data-independent timing) for its duration and restores the caller's value before returning.
 *  - Every function that returns an error code is declared VG_WARN_UNUSED_RESULT: ignoring the code
 *    draws a compiler warning where the compiler supports it.
 *  - Wipe functions zero a context in a way the compiler may not remove.
 */
#ifndef VG_H
#define VG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define VG_API __attribute__((visibility("default")))
#define VG_WARN_UNUSED_RESULT __attribute__((warn_unused_result))
#else
#define VG_API
#define VG_WARN_UNUSED_RESULT
#endif
/* The alignment of every context type: what malloc guarantees on every platform vg targets, so a
   context inside a malloc'd struct is never misaligned. (The implementations load their round keys
   and powers with instructions that need 16 bytes at most.) */
#if defined(__cplusplus)
#define VG_CONTEXT_ALIGN alignas(16)
#else
#define VG_CONTEXT_ALIGN _Alignas(16)
#endif

/* ---------------------------------------------------------------------------------------------- */
/* Version. These lines are the one source of the version: CMakeLists.txt reads them.              */

#define VG_VERSION_MAJOR 0
#define VG_VERSION_MINOR 2
#define VG_VERSION_PATCH 0
#define VG_VERSION_STRING "0.2.0"
/* The version of the library actually loaded, "MAJOR.MINOR.PATCH" (static; never NULL). Compare it
   with VG_VERSION_STRING to detect a header and library from different releases. */
VG_API const char *vg_version(void);

/* ---------------------------------------------------------------------------------------------- */
/* Errors                                                                                          */

#define VG_OK 0
#define VG_ERR_KEY_LENGTH   (-1)
#define VG_ERR_NONCE_LENGTH (-2)
#define VG_ERR_TAG_LENGTH   (-3)
#define VG_ERR_LENGTH       (-4)  /* message or AAD longer than the mode allows */
#define VG_ERR_AUTH         (-5)  /* tag mismatch; a one-shot open has zeroed its output */
#define VG_ERR_ARG          (-6)  /* NULL with a non-zero length, partly overlapping buffers, misuse */
#define VG_ERR_UNSUPPORTED  (-7)  /* implementation not available on this CPU */

/* A static English sentence for any code (unknown codes included); never NULL. */
VG_API const char *vg_strerror(int code);

/* ---------------------------------------------------------------------------------------------- */
/* Implementations                                                                                 */
/*
 * "portable" (bitsliced, constant-time C) runs everywhere. Hardware implementations are added per
 * architecture and listed by vg_impl_list only where the CPU (and the OS) can run them.
 *
 * The first call into the library picks the implementation new keys will use: the one named by the
 * environment variable VG_IMPL if it names an available implementation, else the best available one
 * (an unknown or unavailable name is ignored; vg_impl_env_status says whether that happened).
 * vg_impl_select changes it later. Both are thread-safe; a key keeps the implementation that set it
 * up, whatever is selected afterwards.
 */

/* The name of the implementation new keys will use. Never NULL. */
VG_API const char *vg_impl_name(void);
/* Select by name ("auto" = best available). VG_OK, or VG_ERR_UNSUPPORTED for a name this build does
   not know or this CPU cannot run (the selection is then unchanged); VG_ERR_ARG for NULL. */
VG_API VG_WARN_UNUSED_RESULT int vg_impl_select(const char *name);
/* What became of VG_IMPL. The variable is read with secure_getenv where the C library has it (so a
   set-uid or set-gid program ignores it), else getenv. An empty value counts as unset.
   VG_OK: unset, or it names an implementation this CPU can run (the first call selected it).
   VG_ERR_UNSUPPORTED: it names one this build does not know or this CPU cannot run; it was ignored
   and the best available implementation was selected instead, as if it were unset. The library
   prints nothing: a program that wants to know calls this (vg-speed and the tests print a warning). */
VG_API VG_WARN_UNUSED_RESULT int vg_impl_env_status(void);
/* Writes up to max names (static strings) of the implementations available here, best first, and
   returns how many there are in all (which may exceed max). names may be NULL when max is 0. */
VG_API size_t vg_impl_list(const char **names, size_t max);

/* ---------------------------------------------------------------------------------------------- */
/* AES block cipher: FIPS 197                                                                      */

#define VG_AES_BLOCK_SIZE 16
#define VG_AES_KEY_SIZE   2112 /* sizeof(vg_aes_key) */

typedef struct vg_aes_key {
    VG_CONTEXT_ALIGN unsigned char opaque[VG_AES_KEY_SIZE];
} vg_aes_key;

/* Expands a 16-, 24- or 32-byte key for encryption and decryption.
   VG_ERR_ARG if k is NULL (or key is NULL with key_len != 0 and key_len is a valid length);
   VG_ERR_KEY_LENGTH for any other key_len. On error *k is left untouched. */
VG_API VG_WARN_UNUSED_RESULT int vg_aes_expand_key(vg_aes_key *k, const uint8_t *key, size_t key_len);

/* ECB over nblocks whole 16-byte blocks. in == out is allowed. VG_OK, or VG_ERR_ARG with nothing
   written if k is NULL or not a set-up vg_aes_key, if in or out is NULL while nblocks > 0, if
   nblocks * 16 overflows size_t, or if in and out partly overlap. nblocks == 0 is VG_OK (for a
   valid key) and writes nothing. */
VG_API VG_WARN_UNUSED_RESULT int vg_aes_ecb_encrypt(const vg_aes_key *k, const uint8_t *in, uint8_t *out,
                                                    size_t nblocks);
VG_API VG_WARN_UNUSED_RESULT int vg_aes_ecb_decrypt(const vg_aes_key *k, const uint8_t *in, uint8_t *out,
                                                    size_t nblocks);

/* CTR with a 32-bit counter: block i is XORed with E(cb + i), where + i adds to the last 32 bits of
   the counter block, big-endian, mod 2^32 (SP 800-38D inc32), leaving the first 96 bits alone.
   On return counter holds cb + nblocks. in == out is allowed. VG_OK, or VG_ERR_ARG with nothing
   written (counter included) under the same conditions as the ECB functions, when counter is NULL,
   or when the 16 counter bytes overlap in or out. */
VG_API VG_WARN_UNUSED_RESULT int vg_aes_ctr32(const vg_aes_key *k, uint8_t counter[16], const uint8_t *in,
                                              uint8_t *out, size_t nblocks);

/* Zeroes the key; the compiler may not elide it. NULL is ignored. */
VG_API void vg_aes_key_wipe(vg_aes_key *k);

/* ---------------------------------------------------------------------------------------------- */
/* AES-CTR as a byte stream                                                                        */
/*
 * For callers that treat AES-CTR as a stream cipher: any lengths across calls, the unused part of
 * the last keystream block kept for the next call. Same inc32 counter as vg_aes_ctr32. The stream
 * keeps a pointer to the key: the key must stay valid (and unchanged) while the stream is used.
 * The keystream repeats after 2^32 blocks (64 GiB) from the initial counter: stop well before that.
 */

#define VG_AES_CTR_STREAM_SIZE 64
typedef struct vg_aes_ctr_stream {
    VG_CONTEXT_ALIGN unsigned char opaque[VG_AES_CTR_STREAM_SIZE];
} vg_aes_ctr_stream;

/* VG_ERR_ARG if s, k or counter is NULL or k is not a set-up vg_aes_key. */
VG_API VG_WARN_UNUSED_RESULT int vg_aes_ctr_stream_init(vg_aes_ctr_stream *s, const vg_aes_key *k, const uint8_t counter[16]);
/* XORs len bytes of keystream into in, writing out. in == out allowed. VG_ERR_ARG for a stream not
   initialised, a stream whose key has been wiped since, NULL with len > 0, or partial overlap
   (nothing written then). */
VG_API VG_WARN_UNUSED_RESULT int vg_aes_ctr_stream_xor(vg_aes_ctr_stream *s, const uint8_t *in, uint8_t *out, size_t len);
/* Zeroes the stream (keystream and counter). NULL is ignored. */
VG_API void vg_aes_ctr_stream_wipe(vg_aes_ctr_stream *s);

/* ---------------------------------------------------------------------------------------------- */
/* AES-GCM: SP 800-38D                                                                             */
/*
 * Keys 16/24/32 bytes. Nonce: any length >= 1 byte (12 is the fast path; other lengths go through
 * GHASH as SP 800-38D §7.1 says). Tags: 16, 15, 14, 13, 12, 8 or 4 bytes (the first bytes of the full
 * tag). Limits: plaintext <= 2^36 - 32 bytes, AAD <= 2^61 - 1 bytes.
 *
 * A (key, nonce) pair must never encrypt two different messages: doing so reveals the XOR of the
 * plaintexts and lets an attacker forge tags. With random 12-byte nonces, keep to 2^32 messages per
 * key. Short tags (4, 8 bytes) are weak forgery protection; see SP 800-38D Appendix C.
 */

#define VG_AES_GCM_NONCE_SIZE 12 /* the recommended nonce length, the fast path */
#define VG_AES_GCM_TAG_SIZE   16 /* the full tag */
#define VG_AES_GCM_KEY_SIZE 3136
typedef struct vg_aes_gcm_key {
    VG_CONTEXT_ALIGN unsigned char opaque[VG_AES_GCM_KEY_SIZE];
} vg_aes_gcm_key;

/* VG_ERR_ARG for NULL k (or NULL key with a valid length), VG_ERR_KEY_LENGTH otherwise as for
   vg_aes_expand_key. On error *k is untouched. */
VG_API VG_WARN_UNUSED_RESULT int vg_aes_gcm_init(vg_aes_gcm_key *k, const uint8_t *key, size_t key_len);

/* Encrypts len bytes of in into out (in == out allowed) and writes tag_len bytes of tag.
   Errors, checked in this order, with nothing written: VG_ERR_ARG (k NULL or not set up),
   VG_ERR_NONCE_LENGTH, VG_ERR_TAG_LENGTH, VG_ERR_LENGTH (len or aad_len over the limit), VG_ERR_ARG
   (NULL with non-zero length, tag NULL, partial overlap). */
VG_API VG_WARN_UNUSED_RESULT int vg_aes_gcm_seal(const vg_aes_gcm_key *k, const uint8_t *nonce, size_t nonce_len,
                           const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                           uint8_t *out, uint8_t *tag, size_t tag_len);

/* Verifies tag (constant-time comparison) and decrypts len bytes of in into out (in == out allowed).
   VG_ERR_AUTH if the tag does not match: out has then been zeroed (all len bytes). Other errors as for
   seal, with nothing written. */
VG_API VG_WARN_UNUSED_RESULT int vg_aes_gcm_open(const vg_aes_gcm_key *k, const uint8_t *nonce, size_t nonce_len,
                           const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                           const uint8_t *tag, size_t tag_len, uint8_t *out);

/* Zeroes the key. NULL is ignored. */
VG_API void vg_aes_gcm_key_wipe(vg_aes_gcm_key *k);

/*
 * Batches: many messages under one key in one call, as a QUIC or TLS server seals the packets of one
 * sendmmsg/GSO burst. A batch is exactly the loop
 *     for (i = 0; i < n; i++) results[i] = vg_aes_gcm_seal(k, msgs[i].nonce, ..., msgs[i].tag_len);
 * (vg_aes_gcm_open for _open_batch): each message's bytes, its code in results[i], the zeroing of its
 * out on a failed open, and the order of every read and write, results[i] and the descriptors
 * included (a message may read what an earlier one wrote). A failed message writes nothing of its
 * own (a failed open zeroes its out) and does not affect the others. Where the implementation has a
 * two-message kernel, consecutive short messages of the same lengths are sealed or opened side by
 * side, which fills the pipelines one short message leaves idle; it does so only where the result
 * is the loop's (docs/design.md).
 *
 * Returns VG_OK if every message gave VG_OK, else the first code other than VG_OK in array order.
 * VG_ERR_ARG with nothing written (results[] included) if k is NULL or not a set-up GCM key, or msgs
 * or results is NULL while n != 0.
 * For QUIC header protection (one AES block per packet), gather the samples and make one
 * vg_aes_ecb_encrypt call: it is already one pass over all of them.
 */
typedef struct vg_aes_gcm_batch_msg {
    const uint8_t *nonce;
    size_t nonce_len;
    const uint8_t *aad;
    size_t aad_len;
    const uint8_t *in;
    size_t len;
    uint8_t *out;
    uint8_t *tag; /* seal writes tag_len bytes here; open reads them (and never writes the tag) */
    size_t tag_len;
} vg_aes_gcm_batch_msg;

VG_API VG_WARN_UNUSED_RESULT int vg_aes_gcm_seal_batch(const vg_aes_gcm_key *k, const vg_aes_gcm_batch_msg *msgs,
                                                       size_t n, int *results);
VG_API VG_WARN_UNUSED_RESULT int vg_aes_gcm_open_batch(const vg_aes_gcm_key *k, const vg_aes_gcm_batch_msg *msgs,
                                                       size_t n, int *results);

/*
 * Streaming GCM: stream_init, then AAD (any number of calls, any lengths), then data (any number of
 * calls, any lengths, all encrypt or all decrypt), then finish (sealing side) or verify (opening side).
 * A call out of this order returns VG_ERR_ARG and changes nothing. The stream keeps a pointer to the
 * key, which must stay valid until finish/verify. finish and verify wipe the stream once they have
 * run (VG_OK, or VG_ERR_AUTH for verify; a later call gets VG_ERR_ARG); an argument error such as a bad
 * tag length leaves it as it was. vg_aes_gcm_stream_wipe abandons a stream.
 *
 * !!! vg_aes_gcm_stream_decrypt RELEASES UNAUTHENTICATED PLAINTEXT. The bytes it writes are not known
 * !!! to be genuine until vg_aes_gcm_stream_verify returns VG_OK, and verify cannot take them back.
 * !!! Do not act on them (parse, display, forward, store) before then. If you can hold the whole
 * !!! message, use vg_aes_gcm_open, which releases nothing on failure.
 *
 * The message limits are those of one-shot GCM; data past them gets VG_ERR_LENGTH.
 */
#define VG_AES_GCM_STREAM_SIZE 192
typedef struct vg_aes_gcm_stream {
    VG_CONTEXT_ALIGN unsigned char opaque[VG_AES_GCM_STREAM_SIZE];
} vg_aes_gcm_stream;

/* VG_ERR_ARG (s or k NULL, k not set up, NULL nonce), VG_ERR_NONCE_LENGTH (nonce_len 0). */
VG_API VG_WARN_UNUSED_RESULT int vg_aes_gcm_stream_init(vg_aes_gcm_stream *s, const vg_aes_gcm_key *k,
                                  const uint8_t *nonce, size_t nonce_len);
VG_API VG_WARN_UNUSED_RESULT int vg_aes_gcm_stream_aad(vg_aes_gcm_stream *s, const uint8_t *aad, size_t len);
VG_API VG_WARN_UNUSED_RESULT int vg_aes_gcm_stream_encrypt(vg_aes_gcm_stream *s, const uint8_t *in, size_t len, uint8_t *out);
VG_API VG_WARN_UNUSED_RESULT int vg_aes_gcm_stream_decrypt(vg_aes_gcm_stream *s, const uint8_t *in, size_t len, uint8_t *out);
/* Sealing side: writes tag_len bytes (16, 15, 14, 13, 12, 8 or 4). VG_ERR_TAG_LENGTH leaves the stream
   usable for another finish. */
VG_API VG_WARN_UNUSED_RESULT int vg_aes_gcm_stream_finish(vg_aes_gcm_stream *s, uint8_t *tag, size_t tag_len);
/* Opening side: VG_OK or VG_ERR_AUTH (constant-time comparison). See the warning above: VG_ERR_AUTH
   zeroes nothing, since the plaintext was already released by vg_aes_gcm_stream_decrypt. */
VG_API VG_WARN_UNUSED_RESULT int vg_aes_gcm_stream_verify(vg_aes_gcm_stream *s, const uint8_t *tag, size_t tag_len);
/* Zeroes a stream (abandoning it). NULL is ignored. */
VG_API void vg_aes_gcm_stream_wipe(vg_aes_gcm_stream *s);

/* ---------------------------------------------------------------------------------------------- */
/* AES-GCM-SIV: RFC 8452                                                                           */
/*
 * Nonce-misuse resistant: repeating a nonce reveals only whether two (AAD, plaintext) pairs were
 * equal. Keys 16, 24 or 32 bytes; nonce 12 bytes; tag_len must be 16; plaintext <= 2^36 bytes,
 * AAD <= 2^36 bytes. Per-message keys are derived as RFC 8452 §4 says.
 * 24-byte keys are an extension of RFC 8452, which defines AEAD_AES_128_GCM_SIV and
 * AEAD_AES_256_GCM_SIV only: vg derives them as OpenSSL 3.2's AES-192-GCM-SIV does (and so
 * pyca/cryptography's AESGCMSIV): the same §4 rule carried to a 24-byte message-encryption key, the
 * first 8 bytes of AES_K(LE32(i) || nonce) for i = 2, 3, 4.
 * Errors and what is written on error: as for GCM.
 */
#define VG_AES_GCM_SIV_NONCE_SIZE 12 /* the only nonce length */
#define VG_AES_GCM_SIV_TAG_SIZE   16 /* the only tag length */
#define VG_AES_GCM_SIV_KEY_SIZE VG_AES_KEY_SIZE
typedef struct vg_aes_gcm_siv_key {
    VG_CONTEXT_ALIGN unsigned char opaque[VG_AES_GCM_SIV_KEY_SIZE];
} vg_aes_gcm_siv_key;

VG_API VG_WARN_UNUSED_RESULT int vg_aes_gcm_siv_init(vg_aes_gcm_siv_key *k, const uint8_t *key, size_t key_len);
VG_API VG_WARN_UNUSED_RESULT int vg_aes_gcm_siv_seal(const vg_aes_gcm_siv_key *k, const uint8_t *nonce, size_t nonce_len,
                               const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                               uint8_t *out, uint8_t *tag, size_t tag_len);
VG_API VG_WARN_UNUSED_RESULT int vg_aes_gcm_siv_open(const vg_aes_gcm_siv_key *k, const uint8_t *nonce, size_t nonce_len,
                               const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                               const uint8_t *tag, size_t tag_len, uint8_t *out);
VG_API void vg_aes_gcm_siv_key_wipe(vg_aes_gcm_siv_key *k);

/* ---------------------------------------------------------------------------------------------- */
/* AES-CCM: SP 800-38C / RFC 3610                                                                  */
/*
 * Keys 16/24/32; nonce 7..13 bytes (L = 15 - nonce_len); tags 4, 6, 8, 10, 12, 14 or 16;
 * plaintext < 2^(8L) bytes; AAD of any length (all three encodings of its length).
 * A (key, nonce) pair must never encrypt two messages. Errors and what is written: as for GCM.
 */
#define VG_AES_CCM_NONCE_MIN_SIZE 7
#define VG_AES_CCM_NONCE_MAX_SIZE 13
#define VG_AES_CCM_TAG_MAX_SIZE   16
#define VG_AES_CCM_KEY_SIZE VG_AES_KEY_SIZE
typedef struct vg_aes_ccm_key {
    VG_CONTEXT_ALIGN unsigned char opaque[VG_AES_CCM_KEY_SIZE];
} vg_aes_ccm_key;

VG_API VG_WARN_UNUSED_RESULT int vg_aes_ccm_init(vg_aes_ccm_key *k, const uint8_t *key, size_t key_len);
VG_API VG_WARN_UNUSED_RESULT int vg_aes_ccm_seal(const vg_aes_ccm_key *k, const uint8_t *nonce, size_t nonce_len,
                           const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                           uint8_t *out, uint8_t *tag, size_t tag_len);
VG_API VG_WARN_UNUSED_RESULT int vg_aes_ccm_open(const vg_aes_ccm_key *k, const uint8_t *nonce, size_t nonce_len,
                           const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                           const uint8_t *tag, size_t tag_len, uint8_t *out);
VG_API void vg_aes_ccm_key_wipe(vg_aes_ccm_key *k);

#ifdef __cplusplus
}
#endif
#endif /* VG_H */
