#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""controls.py -- the negative controls of `make prove`: the prover must catch what it claims to.

Each control copies src/ and include/, seeds one defect into the copy, and runs the obligations it
names on the copy's IR. The control passes only if every one of them fails *for the expected reason*:
a functional mutant must give a counterexample (the term differs from the spec's, and a concrete
input shows it), a constant-time violation must be reported as one. A seeded edit that no longer
matches the source is an error: the control is out of date, never silently skipped.

  controls.py NAME [--build DIR]   run one control (ctest prove.control.NAME)
  controls.py --list               the names ctest runs
  controls.py --list-full          the names make prove-full runs: controls of its own cases, too
                                   long for CI (minutes each)
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

_CT_ANCHOR = "    aesni_load_enc_keys(&rk, sched);\n    ecb(&rk, in, out, nblocks, 0);"

# name: (file, old text, new text, obligations (PROVE_ONLY regex), expected reason[, "full": the
# obligations are make prove-full's, and so is the control: run by make prove-full, not ctest])
CONTROLS = {
    # a changed round constant: AES-128's last Rcon, {36} -> {37} (aesni, vaes256, vaes512 share it)
    "rcon": ("src/x86_64/aesni.h", "0x80, 0x1b, 0x36};", "0x80, 0x1b, 0x37};",
             r"^aes\.(aesni|vaes512)\.expand_key\.k128$", "counterexample"),
    # a swapped shuffle mask: the inc32 counter's byte swap with bytes 12 and 13 exchanged
    "swap_mask": ("src/x86_64/aesni.h", "_mm_set_epi8(12, 13, 14, 15, 11,", "_mm_set_epi8(13, 12, 14, 15, 11,",
                  r"^aes\.aesni\.ctr32\.k128\.n3$", "counterexample"),
    # an off-by-one in a tail's block count: the VAES tail's last vector holds one block fewer
    "tail_off_by_one": ("src/x86_64/vaes_body.h", "int vv_last_ = (int)((r) - (vv_nv_ - 1) * VV_LANES);",
                        "int vv_last_ = (int)((r) - (vv_nv_ - 1) * VV_LANES) - 1;",
                        r"^aes\.(vaes256\.ecb_encrypt\.k128\.n4|vaes512\.ecb_encrypt\.k128\.n6)$", "counterexample"),
    # a counter increment on the wrong word: aesni's per-block counters step dword 2, not dword 3
    "counter_word_aesni": ("src/x86_64/aesni_aes.c", "big_endian ? _mm_set_epi32(i, 0, 0, 0)",
                           "big_endian ? _mm_set_epi32(0, i, 0, 0)", r"^aes\.aesni\.ctr32\.k128\.n2$",
                           "counterexample"),
    # the same in the VAES counter write-back
    "counter_word_vaes": ("src/x86_64/vaes_body.h", "big_endian ? _mm_set_epi32((int)(uint32_t)nblocks, 0, 0, 0)",
                          "big_endian ? _mm_set_epi32(0, (int)(uint32_t)nblocks, 0, 0)",
                          r"^aes\.(vaes256|vaes512)\.ctr32\.k128\.n2$", "counterexample"),
    # constant time: a branch on a key byte (round key 0 is the key)
    "ct_branch_on_key": ("src/x86_64/aesni_aes.c", _CT_ANCHOR,
                         "    if (((const uint8_t *)sched)[0] & 1) __asm__ volatile(\"\" ::: \"memory\");\n" + _CT_ANCHOR,
                         r"^aes\.aesni\.ecb_encrypt\.k128\.n1$", "constant time"),
    # constant time: a table look-up indexed by a data byte
    "ct_table_by_data": ("src/x86_64/aesni_aes.c", _CT_ANCHOR,
                         "    static const uint8_t vg_ct_table[256] = {1};\n"
                         "    { volatile uint8_t sink = vg_ct_table[in[0]]; (void)sink; }\n" + _CT_ANCHOR,
                         r"^aes\.aesni\.ecb_encrypt\.k128\.n1$", "constant time"),
    # constant time: a division by a secret
    "ct_division": ("src/x86_64/aesni_aes.c", _CT_ANCHOR,
                    "    { volatile uint32_t q = 1000u / ((uint32_t)in[0] | 1u); (void)q; }\n" + _CT_ANCHOR,
                    r"^aes\.aesni\.ecb_encrypt\.k128\.n1$", "constant time"),
}

# ppc64le (power8, power9; the key expansion's mutants are in its assembly, which asm_ppc64le.py runs)
_P8_ECB_ANCHOR = ("    p8_load_keys(&rk, sched, rounds);\n    p8_offsets_init(&off);\n"
                  "    VG_BLOCKS_8421(nblocks, k, { ecb_encrypt_n")
CONTROLS.update({
    # a changed round constant in the assembly's table: {1b} (R reloaded after {80}) -> {1c}
    "rcon_ppc64le": ("src/ppc64le/power8_aes.c", '".long 0x1b000000,0,0,0\\n\\t"', '".long 0x1c000000,0,0,0\\n\\t"',
                     r"^aes\.power(8|9)\.expand_key\.k128$", "counterexample"),
    # a swapped permute mask: the assembly's RotWord-broadcast vperm mask with two selectors exchanged
    "swap_mask_ppc64le": ("src/ppc64le/power8_aes.c",
                          '".byte 12,15,14,13,12,15,14,13,12,15,14,13,12,15,14,13\\n\\t"',
                          '".byte 15,12,14,13,12,15,14,13,12,15,14,13,12,15,14,13\\n\\t"',
                          r"^aes\.power(8|9)\.expand_key\.k(128|256)$", "counterexample"),
    # power9 alone: its key loaded with power8's lxvw4x (each word byte-reversed) instead of lxvb16x
    "key_load_power9": ("src/ppc64le/power8_aes.c", '#define P8K_LOAD128 "lxvb16x 33,0,4\\n\\t"',
                        '#define P8K_LOAD128 "lxvw4x 33,0,4\\n\\t"', r"^aes\.power9\.expand_key\.k128$",
                        "counterexample"),
    # a counter increment on the wrong word: the one-block CTR32's counter write-back adds 1 to
    # big-endian word 2 instead of word 3 (in power8_aes.c, not power8.h's p8_inc32, so that the control
    # recompiles two files, not every ppc64le file)
    "counter_word_ppc64le": ("src/ppc64le/power8_aes.c", "    p8_store_aes(p8_inc32(ctr), counter);\n}",
                             "    p8_store_aes((p8_u8)vec_add((p8_u32)ctr, (p8_u32){0, 1, 0, 0}), counter);\n}",
                             r"^aes\.power(8|9)\.ctr32\.k128\.n1$", "counterexample"),
    # an off-by-one at the batch/tail boundary: CTR32's 8-block loop runs while nblocks > 8, so exactly
    # 8 blocks left are never encrypted (8 blocks is the first count that shows it; power9 runs the same
    # loop, and has its own control below)
    "tail_off_by_one_ppc64le": ("src/ppc64le/power8_aes.c", "for (; nblocks >= 8; nblocks -= 8, idx += 128)",
                                "for (; nblocks > 8; nblocks -= 8, idx += 128)",
                                r"^aes\.power8\.ctr32\.k128\.n8$", "counterexample"),
    # constant time on ppc64le: a branch on a key byte in power8/power9 ECB
    "ct_branch_on_key_ppc64le": ("src/ppc64le/power8_aes.c", _P8_ECB_ANCHOR,
                                 "    if (((const uint8_t *)sched)[0] & 1) __asm__ volatile(\"\" ::: \"memory\");\n"
                                 + _P8_ECB_ANCHOR, r"^aes\.power(8|9)\.ecb_encrypt\.k128\.n1$", "constant time"),
})

# armv8 and armv8-noeor3 (AArch64: the key expansion's mutants are in its inline assembly, which
# asm_aarch64.py runs)
_A8_ECB_ANCHOR = "    ARMV8_FOR_ROUNDS(s->rounds, ecb(s->enc, in, out, nblocks, 0, ROUNDS));"
CONTROLS.update({
    # a changed round constant in the AES-128 asm's table: the last Rcon {36} -> {37}
    "rcon_armv8": ("src/aarch64/armv8.h", "ARMV8_RC(0x1b), ARMV8_RC(0x36),", "ARMV8_RC(0x1b), ARMV8_RC(0x37),",
                   r"^aes\.armv8(-noeor3)?\.expand_key\.k128$", "counterexample"),
    # a swapped TBL index: the asm's RotWord broadcast with its first two selectors exchanged
    "swap_tbl_armv8": ("src/aarch64/armv8.h", "{13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12}}",
                       "{14, 13, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12}}",
                       r"^aes\.armv8(-noeor3)?\.expand_key\.k128$", "counterexample"),
    # the EOR3 build alone: the asm's three-way XOR with its last operand replaced (d ^ a ^ a)
    "eor3_operand_armv8": ("src/aarch64/armv8_sha3.c", '" a ".16b, " b ".16b\\n\\t"',
                           '" a ".16b, " a ".16b\\n\\t"', r"^aes\.armv8\.expand_key\.k128$",
                           "counterexample"),
    # a counter increment on the wrong word: inc32 adds to lane 2 instead of lane 3
    "counter_word_armv8": ("src/aarch64/armv8_kernels.inc", "one_be[4] = {0, 0, 0, 1}, one_le",
                           "one_be[4] = {0, 0, 1, 0}, one_le", r"^aes\.armv8(-noeor3)?\.ctr32\.k128\.n1$",
                           "counterexample"),
    # constant time: a branch on a key byte in armv8 ECB
    "ct_branch_on_key_armv8": ("src/aarch64/armv8_aes.c", _A8_ECB_ANCHOR,
                               "    if (((const uint8_t *)sched)[0] & 1) __asm__ volatile(\"\" ::: \"memory\");\n"
                               + _A8_ECB_ANCHOR, r"^aes\.armv8(-noeor3)?\.ecb_encrypt\.k128\.n1$", "constant time"),
    # constant time on a CPU with FEAT_DIT: the key schedule run without setting PSTATE.DIT
    "dit_missing_armv8": ("src/aarch64/armv8_kernels.inc", "const uint64_t dit = vg_aarch64_dit_enter(features);",
                          "const uint64_t dit = 0;\n    (void)features;", r"^aes\.armv8(-noeor3)?\.expand_key\.k128$",
                          "constant time"),
})

# portable (the bitsliced AES: its S-box circuit through the override's own obligation, the rest
# through the AES obligations)
CONTROLS.update({
    # an S-box gate changed in the Boyar-Peralta circuit: the first AND takes T5 instead of T6
    "sbox_gate": ("src/portable/aes_bitsliced.c", "M1 = A(T13, T6)", "M1 = A(T13, T5)",
                  r"^aes\.portable\.sub_bytes$", "counterexample"),
    # MixColumns without one term of its reduction by x^8 + x^4 + x^3 + x + 1 (bit 3 drops t[7])
    "mix_columns_portable": ("src/portable/aes_bitsliced.c", "s[3] = w_xor(w_xor(t[2], t[7]), u[3]);",
                             "s[3] = w_xor(t[2], u[3]);", r"^aes\.portable\.ecb_encrypt\.k128\.n1$",
                             "counterexample"),
})

# GHASH and POLYVAL (issue 33: the update with the powers free, the init filling the table)
_GF_UPDATE_ANCHOR = "    struct aesni_hpowers hp;\n    aesni_load_hpowers(&hp, hkey);"
CONTROLS.update({
    # a wrong reduction constant: c = x^63 + x^62 + x^57 with x^56 added, in aesni's Montgomery fold
    # (vaes256 takes it too, for a single block)
    "gf_reduce_constant": ("src/x86_64/aesni.h",
                           "const __m128i poly = _mm_set_epi64x((long long)0xc200000000000000ULL, 0);",
                           "const __m128i poly = _mm_set_epi64x((long long)0xc300000000000000ULL, 0);",
                           r"^gf\.(aesni|vaes256)\.polyval_update\.n1$", "counterexample"),
    # a swapped Karatsuba half: the high product x1 h1 taken as x0 h1
    "gf_karatsuba_half": ("src/x86_64/aesni.h", "_mm_clmulepi64_si128(x, h, 0x11));          /* x1 * h1 */",
                          "_mm_clmulepi64_si128(x, h, 0x10));          /* x1 * h1 */",
                          r"^gf\.aesni\.ghash_update\.n2$", "counterexample"),
    # a power table read shifted by one: a VAES tail's block b multiplied by H_(r-b-1)
    "gf_power_shift": ("src/x86_64/vaes_body.h",
                       "return vv_loadu(hk->desc[VV_GROUP - r + (size_t)(VV_LANES * i)]);",
                       "return vv_loadu(hk->desc[VV_GROUP - r + 1 + (size_t)(VV_LANES * i)]);",
                       r"^gf\.(vaes256|vaes512)\.polyval_update\.n2$", "counterexample"),
    # GHASH's key without its factor x: H' = rev(H) instead of rev(H) * x (RFC 8452 Appendix A)
    "gf_mul_x_missing": ("src/x86_64/aesni_ghash.c",
                         "store_powers(hk, mul_x(hrev)); /* H' = rev(H) * x, section 2 */", "store_powers(hk, hrev);",
                         r"^gf\.aesni\.ghash_init$", "counterexample"),
    # armv8: the update's Montgomery fold with c = x^63 + x^62 + x^57 + x^56 (both armv8 CPUs)
    "gf_reduce_constant_armv8": ("src/aarch64/armv8_kernels.inc",
                                 "vdupq_n_u64(0xc200000000000000ULL)); /* c in lane 0 */",
                                 "vdupq_n_u64(0xc300000000000000ULL)); /* c in lane 0 */",
                                 r"^gf\.armv8(-noeor3)?\.polyval_update\.n2$", "counterexample"),
    # power8 and power9: the second fold without its doubleword swap (S x^-64 = s1 + s0 x^64 + s0 c)
    "gf_fold_swap_ppc64le": ("src/ppc64le/power8.h",
                             "return vec_xor(vec_xor(s->hi, vec_sld(s1, s1, 8)), p8_pmsum(s1, poly));",
                             "return vec_xor(vec_xor(s->hi, s1), p8_pmsum(s1, poly));",
                             r"^gf\.power(8|9)\.ghash_update\.n1$", "counterexample"),
    # portable (ghash_ctmul.c): the Karatsuba middle term without a1 k1
    "gf_karatsuba_portable": ("src/portable/ghash_ctmul.c",
                              "u128 mid = gather(s->mid, s->mid_fix) ^ lo ^ hi; /* a0k1 ^ a1k0, the x^64 term */",
                              "u128 mid = gather(s->mid, s->mid_fix) ^ lo; /* a0k1 ^ a1k0, the x^64 term */",
                              r"^gf\.portable\.polyval_update\.n1$", "counterexample"),
    # the GCM key set-up (vg_aes_gcm_init): aesni's fused gcm_key_setup without H's factor x
    "gcm_key_mul_x_missing": ("src/x86_64/aesni_ghash.c",
                              "store_powers((struct aesni_hkey *)hkey, mul_x(_mm_shuffle_epi8(h, aesni_byte_reverse_mask())));",
                              "store_powers((struct aesni_hkey *)hkey, _mm_shuffle_epi8(h, aesni_byte_reverse_mask()));",
                              r"^gf\.aesni\.gcm_key\.k128$", "counterexample"),
    # the mode's general path (armv8, power8, portable) with H = 0^128 left unencrypted
    "gcm_key_h_unencrypted": ("src/modes/gcm.c",
                              "    impl->aes_ecb_encrypt(st->aes.sched, h, h, 1); /* H = E(0^128) */\n", "",
                              r"^gf\.(armv8|power8|portable)\.gcm_key\.k128$", "counterexample"),
    # portable's 32-bit GHASH (VG_GHASH_NO_INT128, the IR variant): its Karatsuba middle term without
    # the high product
    "gf_karatsuba_noint128": ("src/portable/ghash_ctmul.c", "uint64_t mid = clmul32(a0 ^ a1, b0 ^ b1) ^ lo ^ hi;",
                              "uint64_t mid = clmul32(a0 ^ a1, b0 ^ b1) ^ lo;",
                              r"^gf\.portable-noint128\.polyval_update\.n1$", "counterexample"),
    # GCM through the public API (issue 33, item 3). The general path without the length block:
    # gcm_first_blocks' GHASH range one block short when it closes the message
    "gcm_length_block_dropped": ("src/modes/gcm.c", "size_t end = 1 + whole + (closing ? (rest != 0) + 1 : 0);",
                                 "size_t end = 1 + whole + (closing ? (rest != 0) : 0);",
                                 r"^aead\.portable\.gcm_seal\.k128\.iv12\.a13\.p33\.t16$", "counterexample"),
    # aesni's short kernel with the data's counters from J0 instead of inc32(J0)
    "gcm_counter_j0_aesni": ("src/x86_64/aesni_gcm.c",
                             "_mm_add_epi32(_mm_shuffle_epi8(j0, shuf), _mm_set_epi32(1, 0, 0, 0)); /* inc32(J0) */",
                             "_mm_add_epi32(_mm_shuffle_epi8(j0, shuf), _mm_set_epi32(0, 0, 0, 0)); /* inc32(J0) */",
                             r"^aead\.aesni\.gcm_seal\.k128\.iv12\.a13\.p33\.t16$", "counterexample"),
    # an open whose tag comparison skips the last byte (vg_ct_differ, the tags shorter than 16): the
    # verdict is then not "the tags differ", which z3 shows with a counterexample
    "gcm_open_tag_byte_skipped": ("src/util.c", "for (size_t i = 0; i < n; i++) d |= (uint8_t)(a[i] ^ b[i]);",
                                  "for (size_t i = 0; i + 1 < n; i++) d |= (uint8_t)(a[i] ^ b[i]);",
                                  r"^aead\.vaes256\.gcm_open\.k256\.iv12\.a20\.p100\.t12$", "counterexample"),
    # the same for the 16-byte comparison (vg_ct_differ16: the GCM and GCM-SIV opens with a full tag),
    # byte 15 masked out of the second word
    "gcm_open_differ16_byte_skipped": ("src/internal.h", "    uint64_t d = (a0 ^ b0) | (a1 ^ b1);",
                                       "    uint64_t d = (a0 ^ b0) | ((a1 ^ b1) & 0x00ffffffffffffffu);",
                                       r"^aead\.aesni\.gcm_open\.k128\.iv12\.a13\.p33\.t16$", "counterexample"),
    # vaes256's two-message kernel (the batch calls) counting message 1's data from message 0's J0
    "gcm_batch_pair_counter": ("src/x86_64/vaes_body.h",
                               "base[q] = VV_NAME(ctr_base)(_mm_add_epi32(_mm_shuffle_epi8(j0[q], shuf128)",
                               "base[q] = VV_NAME(ctr_base)(_mm_add_epi32(_mm_shuffle_epi8(j0[0], shuf128)",
                               r"^aead\.vaes256\.gcm_seal_batch\.k128\.a13p33-a13p33-a0p20$", "counterexample"),
    # VAES's whole-groups seal (gcm_seal_groups): the power one past the table made as H_(GROUP-1) H_1 = H^k,
    # not H_GROUP H_1 = H^(k+1) (the spec's H^(k+1) = H^k H is not vacuous)
    "gcm_seal_groups_top_power": ("src/x86_64/vaes_body.h", "hk->desc[0]); /* H_GROUP */",
                                  "hk->desc[1]); /* H_GROUP */",
                                  r"^aead\.vaes256\.gcm_seal\.k128\.iv12\.a13\.p256\.t16$", "counterexample"),
    # CCM (SP 800-38C A.2.1): B_0's flags byte with its Adata bit inverted, on a portable, an AArch64
    # and a POWER implementation (the mode formats B_0 for all of them)
    "ccm_flags_bit": ("src/modes/ccm.c", "b0[0] = (uint8_t)((aad_len ? 0x40u : 0u) +",
                      "b0[0] = (uint8_t)((aad_len ? 0u : 0x40u) +",
                      r"^aead\.(portable|armv8|power8)\.ccm_seal\.k256\.n13\.a14\.p64\.t16$", "counterexample"),
    # power8's and power9's stitched assembly loop (gcm_open_blocks, the stream's whole blocks): the
    # single-block tail's middle GHASH product takes the H row lo instead of mid (x0 h0 for x1 h0 ^ x0 h1)
    "gcm_stitched_pmsum_ppc64le": ("src/ppc64le/power8_gcm.c", '"vpmsumd 15,16,10\\n\\tvxor 13,13,15\\n\\t"',
                                   '"vpmsumd 15,16,9\\n\\tvxor 13,13,15\\n\\t"',
                                   r"^aead\.power(8|9)\.gcm_stream_dec\.k128\.iv12\.a5-0-20\.p1-15-16-7-33\.t16$",
                                   "counterexample"),
    # their 8-block AES step (P8G_AES8) loading AES-256's round key 13 from round key 12's offset (the
    # stream's 144-byte call: the 8-block tail group of the AES-256 copy)
    "gcm_stitched_round_key_ppc64le": ("src/ppc64le/power8_gcm.c",
                                       '".if \\\\rounds > 12\\n\\tlvx 15,21,18\\n\\t.endif\\n\\t"',
                                       '".if \\\\rounds > 12\\n\\tlvx 15,21,17\\n\\t.endif\\n\\t"',
                                       r"^aead\.power(8|9)\.gcm_stream_dec\.k256\.iv12\.a16-17\.p3-144-5\.t12$",
                                       "counterexample"),
    # their short-message dispatch (assembly) one column off: AES-128 messages to the AES-192 kernels
    "gcm_short_dispatch_ppc64le": ("src/ppc64le/power8_gcm.c", '"addi 11,11,-8\\n"', '"addi 11,11,-4\\n"',
                                   r"^aead\.power8\.gcm_seal\.k128\.iv12\.a13\.p33\.t16$", "counterexample"),
    # constant time: the open's verdict branched on without its declassification (vg_open_finish)
    "ct_verdict_undeclassified": ("src/util.c", "    vg_declassify(&differ, sizeof differ);\n", "",
                                  r"^aead\.armv8\.gcm_open\.k128\.iv12\.a13\.p33\.t16$", "constant time"),
    # AES-GCM-SIV (RFC 8452) through the public API. POLYVAL's x^-128 factor left out: portable's
    # reduce without its two Montgomery steps, so dot(a, k) is the high half of a * k (x^-128 taken as
    # a shift, the multiple of P that makes it exact dropped). The init's powers and every update
    # differ from dot's; the SIV seal's POLYVAL (partial blocks: the empty message's length block is
    # zero, whatever the product) meets the spec's with the free powers no more
    "siv_polyval_x128_missing": ("src/portable/ghash_ctmul.c",
                                 "    w1 ^= (w0 << 57) ^ (w0 << 62) ^ (w0 << 63);\n"
                                 "    w2 ^= w0 ^ (w0 >> 7) ^ (w0 >> 2) ^ (w0 >> 1);\n"
                                 "    /* step 2: the same with the new low word w1, one word higher; w2 and w3 take its "
                                 "multiple */\n"
                                 "    w2 ^= (w1 << 57) ^ (w1 << 62) ^ (w1 << 63);\n"
                                 "    w3 ^= w1 ^ (w1 >> 7) ^ (w1 >> 2) ^ (w1 >> 1);\n",
                                 "    (void)w0;\n    (void)w1;\n",
                                 r"^(gf\.portable\.polyval_init|aead\.portable\.siv_seal\.k192\.a20\.p17)$",
                                 "counterexample"),
    # the VAES short path (vaes_siv.h): the tag's input with bit 127 kept (RFC 8452 §4 clears it; with
    # data, since the empty message's S_s is zero there anyway)
    "siv_short_tag_bit127": ("src/x86_64/vaes_siv.h",
                             "clear127 = _mm_set_epi32(0x7fffffff, -1, -1, -1)",
                             "clear127 = _mm_set_epi32(-1, -1, -1, -1)",
                             r"^aead\.vaes256\.siv_seal\.k256\.a13\.p33$", "counterexample"),
    # the VAES short kernel's powers past 4 KiB (siv_powers_group, which the AEAD obligations take
    # through its specification): the powers of H x instead of H
    "siv_powers_of_hx": ("src/x86_64/vaes_siv.h", "(void)VV_NAME(siv_powers)(hp, h1, VV_GROUP);",
                         "(void)VV_NAME(siv_powers)(hp, VV_NAME(mul_x)(h1), VV_GROUP);",
                         r"^gf\.vaes256\.siv_powers$", "counterexample"),
    # CCM's AAD length encoding from 2^16 - 2^8 bytes (ccm.c, 0xff 0xfe [a]_32) with its second byte
    # 0xfd: the prove-full case of 65,280 bytes of AAD, AES's rounds uninterpreted
    "ccm_aad_encoding_fffd": ("src/modes/ccm.c", "        enc[1] = 0xfe;", "        enc[1] = 0xfd;",
                              r"^aead\.aesni\.ccm_seal\.k128\.n13\.a65280\.p17\.t16$", "counterexample", "full"),
    # constant time: a branch on an accumulator bit
    "ct_branch_on_acc": ("src/x86_64/aesni_ghash.c", _GF_UPDATE_ANCHOR,
                         "    if (acc[0] & 1) __asm__ volatile(\"\" ::: \"memory\");\n" + _GF_UPDATE_ANCHOR,
                         r"^gf\.aesni\.polyval_update\.n1$", "constant time"),
})


def run(name, build):
    path, old, new, only, reason = CONTROLS[name][:5]
    full = CONTROLS[name][5:] == ("full",)
    tree = os.path.join(build, "controls", name)
    shutil.rmtree(tree, ignore_errors=True)
    for d in ("src", "include"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(tree, d))
    target = os.path.join(tree, path)
    with open(target) as f:
        text = f.read()
    if text.count(old) != 1:
        print("control %s: the text to mutate occurs %d times in %s (the control is out of date)"
              % (name, text.count(old), path))
        return 2
    with open(target, "w") as f:
        f.write(text.replace(old, new))
    summary = os.path.join(tree, "summary.tsv")
    p = subprocess.run([sys.executable, os.path.join(HERE, "prove.py"), "--root", tree, "--build",
                        os.path.join(tree, "build"), "--only", only, "--summary", summary, "--jobs", "1",
                        "--ir-cache", os.path.join(build, "ir")] + (["--full"] if full else []),
                       capture_output=True, text=True)
    print(p.stdout[-4000:], end="")
    if not os.path.exists(summary + ".details"):
        print(p.stderr[-4000:], end="")
        print("control %s: the prover did not run to the end (exit %d)" % (name, p.returncode))
        return 2
    with open(summary + ".details") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    ok = bool(rows)
    for obname, res, detail in rows:
        caught = res == "failed" and (("counterexample" in detail) if reason == "counterexample"
                                      else detail.startswith("constant time"))
        print("control %s: %s %s (%s)" % (name, obname, "CAUGHT" if caught else "MISSED", detail or res))
        ok = ok and caught
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name", nargs="?")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--list-full", action="store_true")
    ap.add_argument("--build", default=os.path.join(ROOT, "build-prove"))
    a = ap.parse_args()
    if a.list or a.list_full:
        print("\n".join(n for n, c in CONTROLS.items() if (c[5:] == ("full",)) == a.list_full))
        return 0
    return run(a.name, os.path.abspath(a.build))


if __name__ == "__main__":
    sys.exit(main())
