/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * spec.h — the executable specification: AES (FIPS 197), ECB and CTR (SP 800-38A), GHASH and GCM
 * (SP 800-38D), POLYVAL and GCM-SIV (RFC 8452) and CCM (SP 800-38C), written straight from the
 * documents for reading, not for speed or constant time. Tests compare the library with it; it is
 * never linked into libvg.
 *
 * Every function takes the raw key (16, 24 or 32 bytes) and works on byte strings. Lengths are trusted
 * (the spec does not validate arguments; the tests do that against the library). Output may equal input
 * (in == out) everywhere; partial overlap is not allowed. Thread-safe: no global state.
 *
 * Slow on purpose: the S-box and key schedule are rebuilt on every call and the AEADs call the block
 * cipher once per block (about 4 us per block on a 2020s x86-64 core, 5-10 us per AEAD block; several
 * times that under qemu). Keep differential-test messages to a few KB.
 */
#ifndef VG_SPEC_H
#define VG_SPEC_H

#include <stddef.h>
#include <stdint.h>

/* FIPS 197 §5.1 Cipher and §5.3 InvCipher. */
void spec_aes_encrypt_block(const uint8_t *key, size_t key_len, const uint8_t in[16], uint8_t out[16]);
void spec_aes_decrypt_block(const uint8_t *key, size_t key_len, const uint8_t in[16], uint8_t out[16]);

/* SP 800-38A §6.1 ECB over nblocks blocks; in == out allowed. */
void spec_aes_ecb_encrypt(const uint8_t *key, size_t key_len, const uint8_t *in, uint8_t *out, size_t nblocks);
void spec_aes_ecb_decrypt(const uint8_t *key, size_t key_len, const uint8_t *in, uint8_t *out, size_t nblocks);

/* SP 800-38A §6.5 CTR with SP 800-38D's inc32 counter; counter advanced by nblocks. in == out allowed. */
void spec_aes_ctr32(const uint8_t *key, size_t key_len, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                    size_t nblocks);

/* SP 800-38D §6.4 GHASH_H(X_1 || ... || X_m) and RFC 8452 §3 POLYVAL(H, X_1, ..., X_s), from a zero
   accumulator; the block products are §6.3 Algorithm 1 and RFC 8452's dot. */
void spec_ghash(const uint8_t h[16], const uint8_t *x, size_t m, uint8_t y[16]);
void spec_polyval(const uint8_t h[16], const uint8_t *x, size_t s, uint8_t result[16]);

/* SP 800-38D §7.1 GCM-AE: any nonce_len >= 1; writes the full 16-byte tag (callers truncate). */
void spec_aes_gcm_seal(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                       uint8_t *out, uint8_t tag[16]);
/* SP 800-38D §7.2 GCM-AD: returns 1 and writes the plaintext if the first tag_len bytes of the tag
   match, else returns 0 (out then holds the unverified plaintext: the spec releases it, the library
   must not). */
int spec_aes_gcm_open(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                      const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                      const uint8_t *tag, size_t tag_len, uint8_t *out);

/* RFC 8452 §4 (encryption) and §5 (decryption); key 16 or 32 bytes, nonce 12 bytes, tag 16 bytes. */
void spec_aes_gcm_siv_seal(const uint8_t *key, size_t key_len, const uint8_t nonce[12],
                           const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                           uint8_t *out, uint8_t tag[16]);
int spec_aes_gcm_siv_open(const uint8_t *key, size_t key_len, const uint8_t nonce[12],
                          const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                          const uint8_t tag[16], uint8_t *out);

/* SP 800-38C §6.1 Generation-Encryption / §6.2 Decryption-Verification, Appendix A formatting;
   nonce 7..13 bytes, tag_len 4..16 even. */
void spec_aes_ccm_seal(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                       uint8_t *out, uint8_t *tag, size_t tag_len);
int spec_aes_ccm_open(const uint8_t *key, size_t key_len, const uint8_t *nonce, size_t nonce_len,
                      const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                      const uint8_t *tag, size_t tag_len, uint8_t *out);

#endif
