/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * internal.h — the implementation table and the internal helpers every part of the library shares.
 *
 * How the pieces fit (see docs/design.md):
 *   include/vg.h     public functions: check arguments, then call the mode
 *   src/modes/       each mode written once, over `struct vg_impl`: counters, lengths, padding, tags
 *   src/<impl>/      the block kernels of one implementation, reached only through its vg_impl table
 *
 * A kernel never checks arguments and never learns about lengths in bytes or tags: it takes whole
 * 16-byte blocks. Every byte a kernel is given is secret, counter blocks included (they hold nonce
 * bytes: CCM's 12- and 13-byte nonces reach into the low 32 bits, and GCM's J0 for a non-12-byte
 * nonce is a GHASH output): no kernel branches on them, and no mode derives a block count from them. in == out is allowed for every kernel that has both; other overlaps never reach it.
 */
#ifndef VG_INTERNAL_H
#define VG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "batch.h"
#include "vg.h"

#define VG_INTERNAL __attribute__((visibility("hidden")))

/* ---------------------------------------------------------------------------------------------- */
/* ACSL vocabulary of the WP proofs (proofs/wp/, docs/proofs-wp.md). Compilers see comments only.  */
/*
 * VgCSemantics states what C11 defines and WP's integer theory leaves abstract: conversion to an
 * unsigned type is reduction modulo 2^N (6.3.1.3p2), E1 >> E2 of a non-negative E1 is the integral
 * part of E1 / 2^E2, and E1 << E2 is E1 * 2^E2 before the conversion to the result type (6.5.7).
 * WP models casts and shifts as uninterpreted functions with bit-level axioms only, which z3 and
 * cvc4 cannot connect to arithmetic; these axioms are that connection, and nothing more (one per
 * shift amount the proved code uses). VgBytes states four facts about bitwise operations on
 * bytes, a finite domain: proofs/wp/check_axioms.c checks each over all 2^16 pairs.
 * VgKeys names what the proofs do not look inside: a set-up key of a given type (vg_aes_key_state_of
 * reads its marker through a cast WP's typed memory model cannot follow) and partial overlap
 * (vg_partial_overlap compares addresses as integers).
 */
/*@ // 256^k for 0 <= k <= 8 (spelled out: the provers cannot do induction on a recursive definition)
    logic integer vg_pow256(integer k) =
      k <= 0 ? 1 : k == 1 ? 0x100 : k == 2 ? 0x10000 : k == 3 ? 0x1000000 : k == 4 ? 0x100000000 :
      k == 5 ? 0x10000000000 : k == 6 ? 0x1000000000000 : k == 7 ? 0x100000000000000 :
      0x10000000000000000;
    lemma vg_pow256_pos: \forall integer k; vg_pow256(k) >= 1;
    axiomatic VgCSemantics {
      axiom vg_to_u8:  \forall integer x; 0 <= x ==> (uint8_t)x == x % 0x100;
      axiom vg_to_u8_neg: \forall integer x; -0x100 <= x < 0 ==> (uint8_t)x == x + 0x100;
      axiom vg_to_u32: \forall integer x; 0 <= x ==> (uint32_t)x == x % 0x100000000;
      axiom vg_to_u32_neg: \forall integer x; -0x100000000 <= x < 0 ==> (uint32_t)x == x + 0x100000000;
      axiom vg_to_u64: \forall integer x; 0 <= x ==> (uint64_t)x == x % 0x10000000000000000;
      axiom vg_shr8:  \forall integer x; 0 <= x ==> (x >> 8) == x / 0x100;
      axiom vg_shr16: \forall integer x; 0 <= x ==> (x >> 16) == x / 0x10000;
      axiom vg_shr24: \forall integer x; 0 <= x ==> (x >> 24) == x / 0x1000000;
      axiom vg_shr32: \forall integer x; 0 <= x ==> (x >> 32) == x / 0x100000000;
      axiom vg_shr_bytes: \forall integer x, k; 0 <= x && 0 <= k <= 7 ==> (x >> (8 * k)) == x / vg_pow256(k);
      axiom vg_shl8:  \forall integer x; (x << 8) == x * 0x100;
      axiom vg_shl16: \forall integer x; (x << 16) == x * 0x10000;
      axiom vg_shl24: \forall integer x; (x << 24) == x * 0x1000000;
      axiom vg_shl32: \forall integer x; (x << 32) == x * 0x100000000;
    }
    axiomatic VgBytes {
      axiom vg_xor_byte: \forall integer x, y; 0 <= x <= 0xFF && 0 <= y <= 0xFF ==> 0 <= (x ^ y) <= 0xFF;
      axiom vg_or_byte:  \forall integer x, y; 0 <= x <= 0xFF && 0 <= y <= 0xFF ==> 0 <= (x | y) <= 0xFF;
      axiom vg_and_ff:   \forall integer x; 0 <= x <= 0xFF ==> (x & 0xFF) == x;
      axiom vg_xor_zero: \forall integer x, y; 0 <= x <= 0xFF && 0 <= y <= 0xFF ==> ((uint32_t)(x ^ y) == 0 <==> x == y);
    }
    lemma vg_or_zero: \forall integer x, y; 0 <= x && 0 <= y ==> ((x | y) == 0 <==> (x == 0 && y == 0));
    axiomatic VgKeys {
      logic boolean vg_key_ready{L}(unsigned char *opaque, integer magic);
      logic integer vg_key_len{L}(unsigned char *opaque);
      logic boolean vg_partial(uint8_t *a, uint8_t *b, integer n);
      logic boolean vg_overlaps(uint8_t *a, integer an, uint8_t *b, integer bn);
    }

    // Big- and little-endian byte strings as numbers.
    logic integer vg_be32{L}(uint8_t *p) = p[0] * 0x1000000 + p[1] * 0x10000 + p[2] * 0x100 + p[3];
    logic integer vg_le32{L}(uint8_t *p) = p[0] + p[1] * 0x100 + p[2] * 0x10000 + p[3] * 0x1000000;
    logic integer vg_be64{L}(uint8_t *p) = vg_be32(p) * 0x100000000 + vg_be32(p + 4);
    // Bytes [0, n) of p unchanged between labels A and B.
    predicate vg_unchanged{A, B}(uint8_t *p, integer from, integer to) =
      \forall integer i; from <= i < to ==> \at(p[i], A) == \at(p[i], B);
*/

/* Bytes each implementation may use for an AES schedule (encryption and, if asked, decryption round
   keys, in whatever layout it wants) and for a GHASH or POLYVAL key (H and its powers). Both are
   16-byte aligned (VG_CONTEXT_ALIGN: what malloc gives), never more: a kernel may use 16-byte
   aligned loads on them, and must use unaligned ones for anything wider. */
#define VG_SCHED_SIZE 2048
#define VG_HKEY_SIZE 1024

/*
 * One implementation. The portable one fills every mandatory slot; the optional ones may be NULL,
 * and the modes then compose the mandatory kernels.
 *
 * Byte order conventions: every kernel takes and writes blocks as byte strings in the standards'
 * order (never host-order words), so the same mode code is right on little- and big-endian CPUs.
 */
/* One message of a two-message GCM kernel call (vg_impl.gcm_seal_short2): its 12-byte nonce, its
   aad, in, out, and its 16-byte tag (seal: the caller's buffer; open: where the kernel puts the tag
   the ciphertext should have). */
struct vg_gcm_short_msg {
    const uint8_t *nonce, *aad, *in;
    uint8_t *out, *tag;
};

struct vg_impl {
    const char *name;
    /* 1 if this CPU and OS can run it. Called once per process (cached by impl.c). */
    int (*available)(void);

    /* AES. key_len is 16, 24 or 32 (already checked). want_decrypt = 0 lets a hardware backend skip
       the decryption round keys (the AEADs never decrypt blocks); ecb_decrypt is then never called
       with that schedule. It cannot fail and returns VG_OK, so that the key set-up calls can return
       its result: their call to it is then a tail call (no frame, no work after it). On AArch64 it sets
       PSTATE.DIT itself around the schedule (the only code of a key set-up call that reads the key),
       for the same reason (see vg_arch_secret_enter below). */
    int (*aes_expand_key)(void *sched, const uint8_t *key, size_t key_len, int want_decrypt);
    void (*aes_ecb_encrypt)(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks);
    void (*aes_ecb_decrypt)(const void *sched, const uint8_t *in, uint8_t *out, size_t nblocks);
    /* out[i] = in[i] ^ E(counter + i) with + i on the last 4 bytes, big-endian, mod 2^32 (inc32);
       counter is advanced by nblocks on return. */
    void (*aes_ctr32)(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                      size_t nblocks);
    /* RFC 8452's counter: + i on the FIRST 4 bytes, little-endian, mod 2^32; the other 12 bytes stay.
       counter is advanced by nblocks on return. */
    void (*aes_ctr32_le)(const void *sched, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                         size_t nblocks);

    /* GHASH (SP 800-38D §6.4): acc = (acc ^ in[i]) * H for each block, in GCM's bit order.
       ghash_init stores H (and whatever powers it wants) into hkey (VG_HKEY_SIZE bytes, 16-byte
       aligned: the key states place it so). */
    void (*ghash_init)(void *hkey, const uint8_t h[16]);
    void (*ghash_update)(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks);
    /* POLYVAL (RFC 8452 §3): acc = (acc ^ in[i]) * H * x^-128, in POLYVAL's bit order. */
    void (*polyval_init)(void *hkey, const uint8_t h[16]);
    void (*polyval_update)(const void *hkey, uint8_t acc[16], const uint8_t *in, size_t nblocks);

    /* Optional GCM key set-up in one call (NULL: the mode runs aes_expand_key, aes_ecb_encrypt of the
       zero block for H and ghash_init). Writes exactly what those would: sched as
       aes_expand_key(sched, key, key_len, 0), and all VG_HKEY_SIZE bytes of hkey as ghash_init(hkey, H)
       after zeroing it. One call lets H = E(0^128) run round by round beside the expansion (round r
       needs round key r only) and the powers start from a register, and skips a memset of hkey that
       ghash_init then writes over. */
    void (*gcm_key_setup)(void *sched, void *hkey, const uint8_t *key, size_t key_len);

    /* CBC-MAC chain for CCM: mac = E(mac ^ in[i]) for each block. */
    void (*cbc_mac)(const void *sched, uint8_t mac[16], const uint8_t *in, size_t nblocks);

    /* Optional fused kernels. Each processes as many whole blocks as it likes (0..nblocks) and
       returns how many; the mode finishes the rest with the mandatory kernels.
       GCM: counter is the inc32 counter of the first block (advanced on return), acc the GHASH
       accumulator; seal hashes the ciphertext it writes, open hashes the ciphertext it reads. */
    size_t (*gcm_seal_blocks)(const void *sched, const void *hkey, uint8_t counter[16], uint8_t acc[16],
                              const uint8_t *in, uint8_t *out, size_t nblocks);
    size_t (*gcm_open_blocks)(const void *sched, const void *hkey, uint8_t counter[16], uint8_t acc[16],
                              const uint8_t *in, uint8_t *out, size_t nblocks);
    /* The same, optional, for a message with a 12-byte nonce: the counter's last 32 bits are then
       2 + the data blocks before it, public, and the kernel may branch on them (the counter's other
       bytes are the nonce's: secret as ever). NULL: the mode calls the two above. */
    size_t (*gcm_seal_blocks_n12)(const void *sched, const void *hkey, uint8_t counter[16], uint8_t acc[16],
                                  const uint8_t *in, uint8_t *out, size_t nblocks);
    size_t (*gcm_open_blocks_n12)(const void *sched, const void *hkey, uint8_t counter[16], uint8_t acc[16],
                                  const uint8_t *in, uint8_t *out, size_t nblocks);
    /* CCM: mac is the CBC-MAC chain over the plaintext blocks, counter the inc32 CTR counter. */
    size_t (*ccm_seal_blocks)(const void *sched, uint8_t mac[16], uint8_t counter[16],
                              const uint8_t *in, uint8_t *out, size_t nblocks);
    size_t (*ccm_open_blocks)(const void *sched, uint8_t mac[16], uint8_t counter[16],
                              const uint8_t *in, uint8_t *out, size_t nblocks);

    /* Optional whole-message GCM for short messages: a 12-byte nonce, len <= gcm_short_max and
       aad_len <= gcm_short_max_aad (both public; the mode checks them, the kernel may rely on them).
       The mode's general path (state, staging buffer, several kernel calls) costs more than the AES
       and GHASH of a 64-byte message; these do the whole message in one call, in registers.
       seal: out = the ciphertext of in, tag = the full 16-byte tag (for a 16-byte tag the mode passes
       the caller's buffer: write it after the last read of in and aad).
       open: out = the plaintext of the ciphertext in (GHASH reads each block before out is written,
       so in == out is safe), tag = the full 16-byte tag the ciphertext should have; the mode compares
       it in constant time and zeroes out on a mismatch; open never sees the caller's tag. Both write
       tag last, after every read of nonce, aad and in and every write of out, so seal may be given
       the caller's 16-byte tag buffer directly whatever it overlaps. They may write out before they
       have read all of aad: the mode never passes an out that overlaps aad (it takes the general
       path then, which hashes the AAD first). */
    void (*gcm_seal_short)(const void *sched, const void *hkey, const uint8_t nonce[12], const uint8_t *aad,
                           size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16]);
    void (*gcm_open_short)(const void *sched, const void *hkey, const uint8_t nonce[12], const uint8_t *aad,
                           size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16]);
    size_t gcm_short_max, gcm_short_max_aad;
    /* Optional: the same kernels' form for long messages, called in their place from gcm_long_min
       bytes of data on (the same contract; the mode checks the same limits). vaes512/vaes256 switch
       there to a bulk loop whose fixed cost only a long message repays; choosing inside one kernel
       would cost every short call a tail jump. */
    void (*gcm_seal_long)(const void *sched, const void *hkey, const uint8_t nonce[12], const uint8_t *aad,
                          size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16]);
    void (*gcm_open_long)(const void *sched, const void *hkey, const uint8_t nonce[12], const uint8_t *aad,
                          size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16]);
    size_t gcm_long_min;
    /* Optional: the seal kernel for messages of whole groups shorter than gcm_long_min, len a nonzero
       multiple of gcm_seal_groups_bytes (a power of two; 0 where there is none), called in place of
       gcm_seal_short (the same contract). vaes512/vaes256 hash the length block in the last group's
       reduction there, which needs one power more than the tables hold, made per call. */
    void (*gcm_seal_groups)(const void *sched, const void *hkey, const uint8_t nonce[12], const uint8_t *aad,
                            size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16]);
    size_t gcm_seal_groups_bytes;

    /* Optional: gcm_seal_short / gcm_open_short for two messages at once (the batch calls), with the
       same public aad_len and len, 12-byte nonces and 16-byte tags, each message's AAD, data and
       length blocks at most gcm_short2_max_blocks (ceil(aad_len/16) + ceil(len/16) + 1 <= it), and
       len <= gcm_short2_max_len, the length up to which the pair was measured faster than two
       single calls (the mode checks both). Each message's out and tag are the one-shot kernel's;
       open writes the tag its ciphertext should have to m[q].tag, a mode-local buffer, for the mode
       to compare. The mode passes no buffer of m[0] that it writes (out; seal's tag) overlapping a
       buffer of m[1], nor an out overlapping its own message's aad; in == out within a message is
       allowed. The kernel reads all of m[0]'s inputs before it writes anything of m[1]'s, writes
       each message's out before its tag, m[0]'s before m[1]'s, and the tags last. */
    void (*gcm_seal_short2)(const void *sched, const void *hkey, const struct vg_gcm_short_msg *m, size_t aad_len,
                            size_t len);
    void (*gcm_open_short2)(const void *sched, const void *hkey, const struct vg_gcm_short_msg *m, size_t aad_len,
                            size_t len);
    size_t gcm_short2_max_blocks, gcm_short2_max_len;

    /* Optional whole-message AES-GCM-SIV (RFC 8452) for len <= gcm_siv_short_max and aad_len <=
       gcm_siv_short_max_aad (public; the mode checks them and every argument). sched is the master
       key's schedule (this impl's layout), key_len 16 or 32. The kernel does the whole message: key
       derivation, K_enc, the POLYVAL key's powers (only those the message needs), POLYVAL, the tag and
       CTR, and wipes every per-message secret it stored. The general path's state, its several kernel
       calls and its 3 KiB wipe cost more than the AES and POLYVAL of a short message.
       seal: out = the ciphertext of in, tag = the tag.
       open: received = the tag that came with the ciphertext (its counter block), out = the plaintext
       of in (in == out safe), tag = the tag that plaintext should have; the mode compares it with
       received in constant time and zeroes out on a mismatch.
       nonce and received are the mode's own copies (no overlap with out); tag is a mode-local buffer.
       open may write out before it has read all of aad: the mode never passes an out that overlaps
       aad (it takes the general path then). */
    void (*gcm_siv_seal_short)(const void *sched, size_t key_len, const uint8_t nonce[12], const uint8_t *aad,
                               size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16]);
    void (*gcm_siv_open_short)(const void *sched, size_t key_len, const uint8_t nonce[12], const uint8_t *aad,
                               size_t aad_len, const uint8_t *in, uint8_t *out, size_t len,
                               const uint8_t received[16], uint8_t tag[16]);
    size_t gcm_siv_short_max, gcm_siv_short_max_aad;
};

/* Every implementation compiled into this build, best first (NULL-terminated). */
extern const struct vg_impl *const vg_all_impls[] VG_INTERNAL;
extern const struct vg_impl vg_portable_impl VG_INTERNAL;

/* The implementation new keys use (thread-safe, honours VG_IMPL on first use). */
const struct vg_impl *vg_current_impl(void) VG_INTERNAL;

/*
 * Data-independent timing. Every public function that touches a key or data runs its body between
 * these two calls, except the three key set-up calls that only run the schedule (vg_aes_expand_key,
 * vg_aes_ccm_init, vg_aes_gcm_siv_init): there the schedule kernel, the only code that reads the key,
 * brackets itself (struct vg_impl's aes_expand_key), so that the public call stays a tail call. On
 * AArch64 with FEAT_DIT, enter sets PSTATE.DIT (Arm promises constant-time AES, PMULL and integer
 * instructions only while it is set), and exit restores the caller's value (src/aarch64/aarch64.h).
 * Elsewhere they are empty and cost nothing.
 */
#if defined(__aarch64__)
uint64_t vg_arch_secret_enter(void) VG_INTERNAL;
void vg_arch_secret_exit(uint64_t token) VG_INTERNAL;
#else
static inline uint64_t vg_arch_secret_enter(void) { return 0; }
static inline void vg_arch_secret_exit(uint64_t token) { (void)token; }
#endif

/* ---------------------------------------------------------------------------------------------- */
/* The layout behind the public opaque key types.                                                  */

/* One marker per context type, set last by set-up and checked by every use, so a key of one type
   passed (by a cast) as another is refused instead of read past its end, and a zeroed or wiped key
   is refused instead of crashing. The streams have their own (ctr.c, gcm.c). The key markers'
   low 16 bits are zero so that set-up makes each with one instruction (ppc64le `lis`, AArch64
   `mov` with a shift; two with a low half: 2026-12-04, one instruction of every key set-up call). */
#define VG_MAGIC_AES_KEY 0x4b410000u     /* "KA": vg_aes_key */
#define VG_MAGIC_GCM_KEY 0x4b470000u     /* "KG": vg_aes_gcm_key */
#define VG_MAGIC_SIV_KEY 0x4b530000u     /* "KS": vg_aes_gcm_siv_key */
#define VG_MAGIC_CCM_KEY 0x4b430000u     /* "KC": vg_aes_ccm_key */
#define VG_MAGIC_SIV_MESSAGE 0x4b4d0000u /* "KM": GCM-SIV's per-message key, never a public key */

/* The layout is position-independent (no pointer into itself, no alignment above 16), so a key
   copied with memcpy to another object of its type is a complete key (vg.h). */
struct vg_aes_key_state {
    const struct vg_impl *impl;
    uint32_t magic;
    uint32_t key_len; /* the rounds and whether decryption keys exist follow from it and the marker */
    unsigned char pad[64 - sizeof(void *) - 2 * sizeof(uint32_t)];
    _Alignas(16) unsigned char sched[VG_SCHED_SIZE];
};
_Static_assert(sizeof(struct vg_aes_key_state) <= VG_AES_KEY_SIZE, "vg_aes_key too small");
_Static_assert(sizeof(struct vg_aes_key_state) == 64 + VG_SCHED_SIZE, "layout");
#if !defined(__FRAMAC__) /* Frama-C 25 does not parse _Alignof */
_Static_assert(_Alignof(struct vg_aes_key_state) <= _Alignof(vg_aes_key), "a key must fit its public type's alignment");
#endif

struct vg_aes_gcm_key_state {
    struct vg_aes_key_state aes;
    _Alignas(16) unsigned char hkey[VG_HKEY_SIZE];
};
_Static_assert(sizeof(struct vg_aes_gcm_key_state) <= VG_AES_GCM_KEY_SIZE, "vg_aes_gcm_key too small");
#if !defined(__FRAMAC__)
_Static_assert(_Alignof(struct vg_aes_gcm_key_state) <= _Alignof(vg_aes_gcm_key), "alignment");
#endif

/*
 * Arch hook: VG_ARCH_AES_EXPAND_KEY(impl, sched, key, key_len, want_decrypt) is
 * impl->aes_expand_key(sched, key, key_len, want_decrypt), written so that `return` of it is a tail
 * call on every target. GCC makes the indirect call a tail call on x86-64 and AArch64 but not on
 * ppc64le ELFv2, where a call through a pointer may change the TOC pointer r2: GCC restores r2 after
 * it and never sibcalls it, and a key set-up call was a frame, LR and r2 saves, bctrl, restores and
 * an extsw (35 instructions of its own on power8). GCC does sibcall a direct call of a function
 * defined in the same translation unit (not of an external one, even a hidden one: it cannot know
 * that one keeps r2), so the call goes through vg_ppc64le_aes_expand_key_tail below: a static leaf
 * whose body is one asm, the slot's load into r12 (ELFv2's rule for an indirect call: the callee's
 * global entry computes its TOC pointer from r12), mtctr and bctr, with sched, key, key_len still
 * in r3..r5 and LR still the public call's caller's, so the kernel returns straight there. Three
 * instructions and a `b`, against 13 for the frame. It is safe because it has no stack frame (a
 * leaf without locals: GCC gives it none when optimizing, hence __OPTIMIZE__, -O0 takes the plain
 * call; noipa so that GCC neither infers from the asm and __builtin_unreachable that it never
 * returns nor propagates constant arguments into it; no stack protector or -finstrument-functions
 * hooks, which would give it one; optimize("omit-frame-pointer") because -fno-omit-frame-pointer,
 * which distributions build packages with for profiling, gave it `std 31; stdu 1` that the bctr
 * never popped, and every key set-up crashed: tests/frame_pointer.cmake builds the library that way
 * and runs test_aes under qemu; -pg is not supported here) and because its
 * callers are in this library, which has one TOC, so whatever r2 the kernel's global entry sets is
 * theirs. Frama-C, clang and every other target see the plain indirect call.
 */
#if defined(__powerpc64__) && defined(_CALL_ELF) && _CALL_ELF == 2 && defined(__OPTIMIZE__) && defined(__GNUC__) \
    && !defined(__clang__) && !defined(__FRAMAC__)
#if __GNUC__ >= 11
#define VG_PPC64LE_NO_FRAME                                                                                 \
    __attribute__((noipa, unused, no_instrument_function, no_stack_protector, optimize("omit-frame-pointer")))
#else
#define VG_PPC64LE_NO_FRAME __attribute__((noipa, unused, no_instrument_function, optimize("omit-frame-pointer")))
#endif
static VG_PPC64LE_NO_FRAME int
vg_ppc64le_aes_expand_key_tail(void *sched, const uint8_t *key, size_t key_len, const struct vg_impl *impl)
{
    _Static_assert(offsetof(struct vg_impl, aes_expand_key) == 16, "the ld below reads the slot at impl + 16");
    register void *r3 __asm__("r3") = sched;
    register const uint8_t *r4 __asm__("r4") = key;
    register size_t r5 __asm__("r5") = key_len;
    register const struct vg_impl *r6 __asm__("r6") = impl;
    __asm__ volatile("ld 12,16(%3)\n\t" /* r12 = impl->aes_expand_key */
                     "mtctr 12\n\t"
                     "bctr" /* returns to our caller's caller with the kernel's VG_OK */
                     :
                     : "r"(r3), "r"(r4), "r"(r5), "r"(r6)
                     : "r12", "ctr", "memory");
    __builtin_unreachable();
}
/* want_decrypt is not passed: every ppc64le schedule ignores it (power8/power9 decrypt with vncipher,
   which takes the encryption round keys backwards, and the bitsliced core uses the same keys both
   ways), so its register r6 carries impl instead and the call site saves the `li` that set it. A
   schedule that did build decryption keys would see a non-zero r6 and build them always: extra work
   within VG_SCHED_SIZE, never a wrong key. */
#define VG_ARCH_AES_EXPAND_KEY(impl, sched, key, key_len, want_decrypt)                                \
    ((void)(want_decrypt), vg_ppc64le_aes_expand_key_tail((sched), (key), (key_len), (impl)))
#else
#define VG_ARCH_AES_EXPAND_KEY(impl, sched, key, key_len, want_decrypt)                                \
    ((impl)->aes_expand_key((sched), (key), (key_len), (want_decrypt)))
#endif

/* Sets up *st with impl for key (length already checked); magic is the marker of the key's type.
   Inline, with the schedule last, so that a key set-up call is its checks, three stores and a tail
   call of the schedule, whose VG_OK it returns: the kernel cannot fail, so the marker may
   go in before it (a key in use while it is being set up again is a data race whatever the order).
   The header's pad is left as it is: nothing reads it. */
static inline int vg_aes_key_setup(struct vg_aes_key_state *st, const struct vg_impl *impl, const uint8_t *key,
                                   size_t key_len, int want_decrypt, uint32_t magic)
{
    st->impl = impl;
    st->magic = magic;
    st->key_len = (uint32_t)key_len;
    return VG_ARCH_AES_EXPAND_KEY(impl, st->sched, key, key_len, want_decrypt); /* VG_OK */
}

/*
 * The key set-up calls' success path (vg_aes_expand_key, vg_aes_ccm_init, vg_aes_gcm_siv_init), whose
 * whole cost beside the schedule is a few dozen instructions (docs/ppc64le.md, docs/aarch64.md). The
 * published choice of implementation is read inline, with no test: before the first choice it is
 * the placeholder table `unchosen` (impl.c), whose only slot, aes_expand_key, makes the choice,
 * records it in the key in place of itself and runs the chosen schedule. So this path keeps nothing
 * in a register across a call, needs no stack frame and has no branch of its own. A relaxed load suffices: the pointer only
 * ever designates one of the static const tables, whose contents exist before any thread runs, so
 * nothing is published through it that an acquire would have to order (and a key set up with an
 * older choice is as valid as one set up with the newer). Frama-C's analyses see the plain call of
 * vg_current_impl.
 */
#if !defined(__FRAMAC__)
#include <stdatomic.h>
extern _Atomic(const struct vg_impl *) vg_impl_choice VG_INTERNAL; /* impl.c */
#endif
static inline int vg_aes_key_init(struct vg_aes_key_state *st, const uint8_t *key, size_t key_len,
                                  int want_decrypt, uint32_t magic)
{
#if defined(__FRAMAC__)
    return vg_aes_key_setup(st, vg_current_impl(), key, key_len, want_decrypt, magic);
#else
    return vg_aes_key_setup(st, atomic_load_explicit(&vg_impl_choice, memory_order_relaxed), key, key_len,
                            want_decrypt, magic);
#endif
}
/* The same for a GCM key through impl->gcm_key_setup (not NULL), which also fills the hkey. */
void vg_aes_gcm_key_setup(struct vg_aes_gcm_key_state *st, const struct vg_impl *impl, const uint8_t *key,
                          size_t key_len) VG_INTERNAL;
/* The state behind a public key of the type whose marker is magic, or NULL if it was never set up as
   that type (or was wiped). */
/*@ assigns \nothing;
    ensures \result == \null <==> !(opaque != \null && vg_key_ready((unsigned char *)opaque, magic));
    ensures \result != \null ==> \valid_read(\result);
    ensures \result != \null ==> \result->key_len == vg_key_len((unsigned char *)opaque);
*/
static inline const struct vg_aes_key_state *vg_aes_key_state_of(const unsigned char *opaque, uint32_t magic)
{
    /* inline, like vg_partial_overlap: every one-shot call asks both, and a call of either made its
       caller save registers and build a frame (x86-64: six pushes around a 64-byte seal) */
    const struct vg_aes_key_state *st = (const struct vg_aes_key_state *)(const void *)opaque;
    if (!st || st->magic != magic || !st->impl) return NULL;
    return st;
}

/*
 * Declassification. vg_declassify(p, n) tells the constant-time checkers that the n bytes at p, though
 * computed from secrets, are public from here on, in the builds that run those checkers: the library
 * variant tests/ct_valgrind links (VG_CT_VALGRIND: valgrind's VALGRIND_MAKE_MEM_DEFINED) and any
 * MemorySanitizer build (__msan_unpoison), and the IR make prove runs (VG_PROVE_IR: a call of
 * vg_prove_declassify); everywhere else it is nothing. The library uses it at exactly
 * one kind of point, an open's verdict after the constant-time tag comparison (vg_open_finish), as
 * BoringSSL's constant_time_declassify marks its own; the checkers still report every other branch or
 * address that depends on a secret.
 */
#if defined(VG_PROVE_IR)
/* make prove (proofs/sym/exec.py): a call the symbolic machine sees, where it splits the proof on the
   two values of the verdict; never linked into a library */
void vg_prove_declassify(const void *p, size_t n);
#define vg_declassify(p, n) vg_prove_declassify((p), (n))
#elif defined(VG_CT_VALGRIND)
#include <valgrind/memcheck.h>
#define vg_declassify(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#elif defined(__has_feature)
#if __has_feature(memory_sanitizer)
#include <sanitizer/msan_interface.h>
#define vg_declassify(p, n) __msan_unpoison((p), (n))
#endif
#endif
#if !defined(vg_declassify)
#define vg_declassify(p, n) ((void)(p), (void)(n))
#endif

/* ---------------------------------------------------------------------------------------------- */
/* Helpers (src/util.c).                                                                           */

/* Zeroes n bytes through a volatile pointer and a compiler barrier: not elided. */
/*@ requires \valid((char *)p + (0 .. n - 1));
    assigns ((char *)p)[0 .. n - 1];
    ensures \forall integer i; 0 <= i < n ==> ((char *)p)[i] == 0;
*/
void vg_wipe(void *p, size_t n) VG_INTERNAL;
/* 0 if the first n bytes of a and b are equal, else 1; time depends on n only. */
/*@ requires \valid_read(a + (0 .. n - 1)) && \valid_read(b + (0 .. n - 1));
    assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures \result == 0 <==> (\forall integer i; 0 <= i < n ==> a[i] == b[i]);
*/
int vg_ct_differ(const uint8_t *a, const uint8_t *b, size_t n) VG_INTERNAL;
/* The 16-byte cases of vg_wipe and vg_ct_differ, the tag buffers every open compares and wipes,
   inline: a zero store and the barrier, and two 8-byte XORs ORed and folded to one bit ((d | -d) >> 63
   is 1 exactly when d != 0, no branch), where the calls cost a 64-byte open on x86-64 about 75
   instructions of its ~600 (vg_ct_differ's byte loop 42, two vg_wipe calls into the C library's
   memset 34; callgrind, aesni). Frama-C sees the calls they stand for, whose contracts are proved. */
#if defined(__FRAMAC__)
#define vg_wipe16(p) vg_wipe((p), 16)
#define vg_ct_differ16(a, b) vg_ct_differ((a), (b), 16)
#else
static inline void vg_wipe16(void *p)
{
    memset(p, 0, 16);
    __asm__ __volatile__("" : : "r"(p) : "memory");
}
static inline int vg_ct_differ16(const uint8_t *a, const uint8_t *b)
{
    uint64_t a0, a1, b0, b1;
    memcpy(&a0, a, 8);
    memcpy(&a1, a + 8, 8);
    memcpy(&b0, b, 8);
    memcpy(&b1, b + 8, 8);
    uint64_t d = (a0 ^ b0) | (a1 ^ b1);
    return (int)((d | (0 - d)) >> 63);
}
#endif
/* The end of every open: given differ (0 or 1, from the constant-time comparison, secret until now)
   returns VG_OK, or zeroes out[0..len) and returns VG_ERR_AUTH. The verdict is public once the call
   returns it (vg.h), so it is declassified here and branched on: a genuine open makes no pass over its
   output, and a forged one is zeroed by vg_wipe, which the compiler cannot elide. out may be NULL when
   len is 0. */
/*  The two outcomes are implications rather than ACSL behaviours: Eva (proofs/eva/) evaluates an
    open's two paths separately and cannot tell that the other behaviour is inactive on each, which
    it would report as an invalid postcondition; WP proves both forms alike. */
/*@ requires differ == 0 || differ == 1;
    requires \valid(out + (0 .. len - 1));
    assigns out[0 .. len - 1];
    ensures \old(differ) == 0 ==> \result == VG_OK;
    ensures \old(differ) == 0 ==> vg_unchanged{Pre, Post}(out, 0, len);
    ensures \old(differ) == 1 ==> \result == VG_ERR_AUTH;
    ensures \old(differ) == 1 ==> (\forall integer i; 0 <= i < len ==> out[i] == 0);
*/
int vg_open_finish(uint8_t *out, size_t len, int differ) VG_INTERNAL;
/* 1 if [a, a+n) and [b, b+n) overlap without being the same range. */
/*@ assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 <==> vg_partial(a, b, n) == \true;
    ensures n == 0 ==> \result == 0;
*/
static inline int vg_partial_overlap(const uint8_t *a, const uint8_t *b, size_t n)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    if (n == 0 || x == y) return 0;
    return x < y ? y - x < n : x - y < n;
}
/* 1 if [a, a+an) and [b, b+bn) share a byte (an empty range shares none). */
/*@ assigns \nothing;
    ensures \result == 0 || \result == 1;
    ensures \result == 1 <==> vg_overlaps(a, an, b, bn) == \true;
*/
static inline int vg_overlap(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    /* inline: the one-shot GCM path asks it on every call, and with no AAD (bn = 0) it folds away */
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    if (an == 0 || bn == 0) return 0;
    return x < y ? y - x < an : x - y < bn;
}

/*@ assigns \nothing;
    ensures \result == 1 <==> (n == 16 || n == 24 || n == 32);
    ensures \result == 0 || \result == 1;
*/
/* One compare rather than two: r = n / 8 + (n % 8) 2^(w-3) is n rotated right by 3 bits (GCC makes it
   one rotate; WP reads the arithmetic), a bijection that maps exactly 16, 24, 32 to 2, 3, 4, and GCC
   makes the range test of r one subtract and one compare: three instructions, where the
   range-and-low-bits test of n took two compares (issue 18 counts the key set-up calls' every
   instruction). The assertion is the step the provers need (with it cvc4 proves the contract in
   ~0.1 s; without it only z3, in ~0.5 s, and not on every run). */
static inline int vg_aes_key_len_ok(size_t n)
{
    size_t r = n / 8 + (n % 8) * ((SIZE_MAX >> 3) + 1);
    /*@ assert rotated: n % 8 == 0 ? r == n / 8 : r >= (SIZE_MAX >> 3) + 1; */
    return r >= 2 && r <= 4;
}

/* Byte-order helpers. The loads add the shifted bytes rather than OR them: the same number (the
   terms share no bit), and gcc 12 and clang 14 compile both to one load (and a bswap), but addition
   is arithmetic the provers know. */
/*@ requires \valid_read(p + (0 .. 3));
    assigns \nothing;
    ensures \result == vg_be32(p);
*/
static inline uint32_t vg_load32_be(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) + ((uint32_t)p[1] << 16) + ((uint32_t)p[2] << 8) + (uint32_t)p[3];
}
/*@ requires \valid(p + (0 .. 3));
    assigns p[0 .. 3];
    ensures vg_be32(p) == v;
*/
static inline void vg_store32_be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}
/*@ requires \valid_read(p + (0 .. 3));
    assigns \nothing;
    ensures \result == vg_le32(p);
*/
static inline uint32_t vg_load32_le(const uint8_t *p)
{
    return (uint32_t)p[0] + ((uint32_t)p[1] << 8) + ((uint32_t)p[2] << 16) + ((uint32_t)p[3] << 24);
}
/*@ requires \valid(p + (0 .. 3));
    assigns p[0 .. 3];
    ensures vg_le32(p) == v;
*/
static inline void vg_store32_le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline uint64_t vg_load64_be(const uint8_t *p)
{
    return ((uint64_t)vg_load32_be(p) << 32) + vg_load32_be(p + 4);
}
/*@ requires \valid(p + (0 .. 7));
    assigns p[0 .. 7];
    ensures vg_be64(p) == v;
*/
static inline void vg_store64_be(uint8_t *p, uint64_t v)
{
    vg_store32_be(p, (uint32_t)(v >> 32)); vg_store32_be(p + 4, (uint32_t)v);
}
static inline uint64_t vg_load64_le(const uint8_t *p)
{
    return (uint64_t)vg_load32_le(p) + ((uint64_t)vg_load32_le(p + 4) << 32);
}
static inline void vg_store64_le(uint8_t *p, uint64_t v)
{
    vg_store32_le(p, (uint32_t)v); vg_store32_le(p + 4, (uint32_t)(v >> 32));
}
static inline void vg_xor_bytes(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) out[i] = a[i] ^ b[i];
}

/* The counter write-back of a CTR kernel that used n blocks. SP 800-38D inc32, n times: the last 4
   bytes, big-endian, + n mod 2^32; the first 12 bytes stay. */
/*@ requires \valid(counter + (0 .. 15));
    assigns counter[12 .. 15];
    ensures vg_unchanged{Pre, Post}(counter, 0, 12);
    ensures vg_be32(counter + 12) == (\old(vg_be32(counter + 12)) + n) % 0x100000000;
*/
static inline void vg_inc32_add(uint8_t counter[16], size_t n)
{
    vg_store32_be(counter + 12, vg_load32_be(counter + 12) + (uint32_t)n);
}
/* RFC 8452's counter, n times: the first 4 bytes, little-endian, + n mod 2^32; the other 12 stay. */
/*@ requires \valid(counter + (0 .. 15));
    assigns counter[0 .. 3];
    ensures vg_unchanged{Pre, Post}(counter, 4, 16);
    ensures vg_le32(counter) == (\old(vg_le32(counter)) + n) % 0x100000000;
*/
static inline void vg_ctr32_le_add(uint8_t counter[16], size_t n)
{
    vg_store32_le(counter, vg_load32_le(counter) + (uint32_t)n);
}

#endif /* VG_INTERNAL_H */
