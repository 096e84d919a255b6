#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""prove.py -- `make prove`: every obligation of docs/proofs-equivalence.md, on the IR clang makes of
the library's sources, through the public API, with the constant-time check on the same run.

Writes BUILD/summary.tsv (name, implementation, function, length class, result, seconds) and exits
non-zero on any failed or timed-out obligation, and when the number of obligations differs from
proofs/sym/expected.txt (unless PROVE_ONLY selects a subset).
  PROVE_ONLY=<regex>   run the obligations whose names match (re.search)
  --full               the larger length bounds of `make prove-full`
"""
import argparse
import multiprocessing
import os
import re
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

# Each implementation's widest batch in blocks (the obligations cover 0 .. 2*widest + 7 blocks).
# portable: the bitsliced AES of src/portable in the x86-64 IR (8 blocks a batch), its S-box circuit
# proved once and then used through its override (sym/overrides.py).
X86_IMPLS = {"aesni": 8, "vaes256": 16, "vaes512": 32, "portable": 8}
# AArch64 (the IR of src/aarch64 for --target=aarch64-linux-gnu): armv8 on a modelled CPU with SHA3 (the
# EOR3 kernels) and without (the plain-EOR ones); sym/intrinsics_aarch64.py models both CPUs.
AARCH64_IMPLS = {"armv8": 8, "armv8-noeor3": 8}
# ppc64le (the IR of src/ppc64le for --target=powerpc64le-linux-gnu, the key expansion's module assembly
# run by sym/asm_ppc64le.py): power9 and power8 on a modelled POWER9 (sym/intrinsics_ppc64le.py).
PPC64LE_IMPLS = {"power9": 8, "power8": 8}
# GHASH/POLYVAL (issue 33), each implementation's widest aggregation in blocks (sym/obligations.py
# GF_GROUP): the update obligations cover 0 .. 2*widest + 7 blocks
from sym.obligations import GF_GROUP as GF_IMPLS, AEAD_IMPLS, SIV_POWERS  # noqa: E402
# Not yet proved (docs/proofs-equivalence.md, "Not yet proved"); --pending runs them alone. None today.
PENDING = {}
KEYS = (16, 24, 32)
STREAM_SPLITS = [(1, 15), (15, 1, 16), (5, 27, 3), (16, 16), (7, 9, 33), (31, 2), (0, 17, 0, 14)]


def obligations(full=False, pending=False):
    out = []
    if not pending:
        # the overrides' own obligations (sym/overrides.py): each function run on fresh inputs
        for fn in ("sub_bytes", "inv_sub_bytes"):
            out.append(("aes.portable.%s" % fn, "portable", fn, "128 lanes", ("override", fn)))
    if not pending:
        # GHASH and POLYVAL (issue 33): the update with the powers free, and the init that fills the
        # table with the powers. make prove (CI) takes the counts that reach each kind of path (none,
        # the one-block path, a two-block tail, the longest tail, a group and one block) and every
        # init but vaes512's (two minutes each); make prove-full every count 0 .. 2 * widest + 7 and
        # every init (docs: its time)
        for impl, width in GF_IMPLS.items():
            counts = range(2 * width + 8) if full else sorted({0, 1, 2, width - 1, width + 1})
            for field in ("ghash", "polyval"):
                if full or impl != "vaes512":
                    out.append(("gf.%s.%s_init" % (impl, field), impl, field + "_init", "H",
                                ("gf_init", field)))
                for n in counts:
                    out.append(("gf.%s.%s_update.n%d" % (impl, field, n), impl, field + "_update", "n=%d" % n,
                                ("gf_update", field, n)))
        # VAES's GCM-SIV short kernel: the function that makes all its powers past 4 KiB (vaes_siv.h
        # siv_powers_group), proved once and then used through its specification; vaes512's in
        # make prove-full only, as its polyval_init
        for impl in SIV_POWERS:
            if full or impl != "vaes512":
                out.append(("gf.%s.siv_powers" % impl, impl, "siv_powers_group", "H", ("siv_powers",)))
        # the GCM key set-up (vg_aes_gcm_init): the GHASH table from H = E_K(0), on every
        # implementation, each key size
        for impl in AEAD_IMPLS:
            if full or impl != "vaes512":
                for kl in KEYS:
                    out.append(("gf.%s.gcm_key.k%d" % (impl, 8 * kl), impl, "gcm_key", "k%d" % (8 * kl),
                                ("gcm_key", kl)))
    if not pending:
        # GCM through the public API (issue 33, item 3): vg_aes_gcm_seal and vg_aes_gcm_open, the
        # GHASH table free (gf.<impl>.gcm_key proves what it holds); make prove-full adds longer
        # messages
        for impl in AEAD_IMPLS:
            for op, (kl, nl, al, ln, tl) in gcm_cases(impl, full):
                out.append(("aead.%s.gcm_%s.k%d.iv%d.a%d.p%d.t%d" % (impl, op, 8 * kl, nl, al, ln, tl), impl,
                            "gcm_" + op, "k%d iv=%d aad=%d len=%d tag=%d" % (8 * kl, nl, al, ln, tl),
                            ("gcm_" + op, kl, nl, al, ln, tl)))
            for d, (kl, nl, ap, dp, tl) in gcm_streams(impl, full):
                sp = "a%s.p%s" % ("-".join(map(str, ap)) or "none", "-".join(map(str, dp)) or "none")
                out.append(("aead.%s.gcm_stream_%s.k%d.iv%d.%s.t%d" % (impl, d, 8 * kl, nl, sp, tl), impl,
                            "gcm_stream_" + d, "k%d iv=%d %s tag=%d" % (8 * kl, nl, sp, tl),
                            ("gcm_stream", kl, nl, ap, dp, tl, d == "dec")))
    if not pending:
        # CCM through the public API (issue 33, item 3): vg_aes_ccm_seal and vg_aes_ccm_open
        for impl in AEAD_IMPLS:
            for op, (kl, nl, al, ln, tl) in ccm_cases(impl, full):
                out.append(("aead.%s.ccm_%s.k%d.n%d.a%d.p%d.t%d" % (impl, op, 8 * kl, nl, al, ln, tl), impl,
                            "ccm_" + op, "k%d nonce=%d aad=%d len=%d tag=%d" % (8 * kl, nl, al, ln, tl),
                            ("ccm_" + op, kl, nl, al, ln, tl)))
    if not pending:
        # GCM batches (vg_aes_gcm_seal_batch, _open_batch): equal to the one-shot calls, message by message
        for impl in AEAD_IMPLS:
            for op, (kl, msgs) in gcm_batches(impl, full):
                sh = "-".join("a%dp%d" % m for m in msgs)
                out.append(("aead.%s.gcm_%s_batch.k%d.%s" % (impl, op, 8 * kl, sh), impl, "gcm_%s_batch" % op,
                            "k%d %s" % (8 * kl, sh), ("gcm_batch", kl, msgs, op == "open")))
    if not pending:
        # AES-GCM-SIV through the public API (RFC 8452): vg_aes_gcm_siv_seal and vg_aes_gcm_siv_open,
        # the POLYVAL table free on the general path (gf.<impl>.polyval_init proves what it holds)
        for impl in AEAD_IMPLS:
            for op, (kl, al, ln) in siv_cases(impl, full):
                out.append(("aead.%s.siv_%s.k%d.a%d.p%d" % (impl, op, 8 * kl, al, ln), impl, "siv_" + op,
                            "k%d aad=%d len=%d" % (8 * kl, al, ln), ("siv_" + op, kl, al, ln)))
    for impl, width in (PENDING if pending else dict(X86_IMPLS, **AARCH64_IMPLS, **PPC64LE_IMPLS)).items():
        top = 2 * width + 7 if not full else 4 * width + 7
        for kl in KEYS:
            kb = "k%d" % (8 * kl)
            for how in ("expand_key", "gcm_init", "ccm_init", "gcm_siv_init"):
                out.append(("aes.%s.%s.%s" % (impl, how, kb), impl, how, kb, ("expand", how, kl)))
            for fn in ("ecb_encrypt", "ecb_decrypt", "ctr32"):
                for n in range(top + 1):
                    out.append(("aes.%s.%s.%s.n%d" % (impl, fn, kb, n), impl, fn, "%s n=%d" % (kb, n),
                                (fn, kl, n)))
            for sp in STREAM_SPLITS:
                tag = "-".join(map(str, sp))
                out.append(("aes.%s.ctr_stream.%s.s%s" % (impl, kb, tag), impl, "ctr_stream",
                            "%s split=%s" % (kb, tag), ("stream", kl, sp)))
    return out


# (key bytes, nonce bytes, AAD bytes, data bytes, tag bytes) of the GCM obligations, each sealed and
# opened. Each reaches a kind of path: the empty message (E(J0) alone); partial AAD and data blocks
# (a short kernel's one sum); a shorter tag (through the full one, then vg_ct_differ); AAD past
# armv8's and power8's short kernels (the mode's general path: ghash_update and ctr32); more blocks
# than one aggregation of aesni (its short kernel's AAD groups, the data's fused groups); a nonce of
# other than 12 bytes (J0 by GHASH, the general path).
GCM_CASES = [(16, 12, 0, 0, 16), (16, 12, 13, 33, 16), (32, 12, 20, 100, 12), (24, 12, 80, 33, 8),
             (16, 12, 40, 149, 16), (32, 17, 20, 40, 16)]
# power8 and power9: their whole-message kernels (up to 224 bytes and 64 of AAD) are entered through
# the module assembly's dispatch (gcm_seal_short/_open_short, run by sym/asm_ppc64le.py): the empty
# message and the partial blocks reach the fixed copies (t = 1, 4), the shorter tag the general copy
# with the 8-block group (t = 8, AES-256); AAD over 64 bytes the mode's general path (ghash_update and
# ctr32), as do a nonce of other than 12 bytes
GCM_CASES_PPC64LE = [(16, 12, 0, 0, 16), (16, 12, 13, 33, 16), (32, 12, 20, 100, 12), (16, 12, 80, 0, 16),
                     (16, 12, 65, 33, 16), (32, 12, 80, 100, 12), (24, 12, 80, 33, 8), (32, 17, 20, 40, 16)]
# make prove-full: the general copy without the 8-block group (t = 7 but m = 9); past the short
# kernels, 16 whole blocks and more through the stitched assembly loops (gcm_seal_blocks /
# gcm_open_blocks): a group and one block of the single-block tail, a group, the 8-block tail group and
# a block (AES-128), a group exactly (AES-192), a group and a block (AES-256)
GCM_CASES_PPC64LE_FULL = [(16, 12, 50, 96, 16), (16, 12, 40, 149, 16), (16, 12, 80, 16 * 17 + 5, 16),
                          (16, 12, 80, 16 * 25 + 5, 16), (24, 12, 66, 16 * 16, 8), (32, 12, 70, 16 * 17, 16)]
# The tag lengths the cases above leave out (vg.h: 16, 15, 14, 13, 12, 8 and 4; 4 is make prove-full's),
# each on short lengths: a one-byte AAD and data, data alone across a block, AAD alone. In CI sealed,
# and opened at 13 bytes (an open's verdict over 15 bytes took z3 17 s on aesni): the open of every one
# and portable's are make prove-full's
GCM_CASES_TAGS = [(16, 12, 1, 1, 15), (32, 12, 0, 17, 14), (24, 12, 13, 0, 13)]
# armv8 and armv8-noeor3 add 16 whole blocks on the general path (AAD past their short kernel): the
# fused block kernels' gcm_loop, whose round keys encrypt_group's inline assembly loads (seal: one group
# after the first; open: two)
GCM_CASES_AARCH64 = [(16, 12, 80, 256, 16)]
# VAES's data of whole 16- or 32-block groups under 4 KiB: the seal's own kernel (gcm_seal_groups, the
# length block in the last group's sum with H^(k+1) made from the table); the open's is gcm_short's
# path (the groups, then the length block alone). In CI one group with partial AAD, sealed, and opened
# on vaes256 (vaes512's open took 42 s); make prove-full opens both and adds two groups with an AES-256
# key and no AAD. vaes512 sends one or two groups through gcm_short's unstitched passes instead
# (vaes512.c, VV_SHORT_GROUPS_*), a seal of exactly one group included: its CI cases are that seal
# (512 bytes), the kernel's own two groups (1024), and one group and a rest sealed and opened (the
# passes, then the last pass with the length block); make prove-full adds three groups and a rest,
# the fused loop group by group
GCM_CASES_GROUPS = {"vaes256": [(16, 12, 13, 256, 16)], "vaes512": [(16, 12, 13, 512, 16), (16, 12, 13, 1024, 16)]}
GCM_CASES_GROUPS_FULL = {"vaes256": [(32, 12, 0, 512, 16)], "vaes512": [(32, 12, 0, 1024, 16), (16, 12, 0, 16 * 96 + 5, 16)]}
GCM_CASES_PASSES = {"vaes512": [(16, 12, 13, 600, 16)]}
# make prove-full: VAES's long kernels (gcm_seal_long/_open_long, from gcm_long_min = 4 KiB: the
# pipelined gcm_loop), 16 or 8 groups and a 5-byte tail. AES-128 sealed; AES-256 sealed and opened, with
# no AAD and with 13 bytes (an AES-128 open of that length stays group by group: vaes_body.h
# gcm_piped). 134-306 s each; each length and key runs in a group of its own, its seal and open
# together (main): all of one implementation's in one worker had grown it to 8.6 GB
GCM_CASES_LONG = [("seal", (16, 12, 0, 4101, 16)), ("seal", (32, 12, 0, 4101, 16)),
                  ("open", (32, 12, 0, 4101, 16)), ("seal", (32, 12, 13, 4101, 16)),
                  ("open", (32, 12, 13, 4101, 16))]
# make prove-full: longer messages, up to two of the widest aggregation and a tail
GCM_CASES_FULL = [(16, 12, 256, 512 + 16 * 31 + 7, 16), (32, 12, 17, 1024 + 5, 16), (16, 12, 0, 16 * 71, 16),
                  (16, 1, 0, 0, 16), (24, 16, 0, 16 * 9 + 1, 16), (16, 60, 255, 17, 4)]


# The GCM stream: (key bytes, nonce bytes, AAD call lengths, data call lengths, tag bytes), encrypted
# (then finish) and decrypted (then verify; the same splits encrypted first). They take the staging
# paths of gcm.c: AAD across calls and an empty call; a first data call that closes the AAD; the open
# keystream block finished by a later call; whole blocks from the caller's buffers (with a fused
# block kernel, the _n12 ones on VAES, from 8 blocks); no AAD; an empty data call; AAD alone.
GCM_STREAMS = [(16, 12, (5, 0, 20), (1, 15, 16, 7, 33), 16), (32, 12, (16, 17), (3, 144, 5), 12),
               (24, 17, (), (0, 31, 2), 16), (16, 12, (13,), (), 8)]
# portable in CI: no whole blocks after the first call (its GHASH is the slowest to prove). power8's and
# power9's fused block kernels are the stitched assembly loops: the first stream's whole blocks (1, 2)
# take their single-block tail, the second's 8 (of its 144-byte call) the 8-block tail group of the
# AES-256 copy; in CI they decrypt both
GCM_STREAM_SHORT = (16, 12, (5, 0, 20), (1, 15, 7), 16)


def gcm_streams(impl, full):
    """(encrypt/decrypt, case) of the stream obligations: in CI one decryption per implementation (two
    on power8 and power9: their stitched loop's paths)."""
    if full:
        return [(d, c) for c in GCM_STREAMS for d in ("enc", "dec")]
    if impl in PPC64LE_IMPLS:
        return [("dec", GCM_STREAMS[0]), ("dec", GCM_STREAMS[1])]
    return [("dec", GCM_STREAM_SHORT if impl == "portable" else GCM_STREAMS[0])]


def gcm_cases(impl, full):
    cases = GCM_CASES_PPC64LE if impl in PPC64LE_IMPLS else GCM_CASES
    if impl == "portable" and not full:
        # its integer-multiply GHASH makes each case three times the others' time: in CI the empty
        # message, the partial blocks and the shorter tag
        cases = [GCM_CASES[0], GCM_CASES[1], GCM_CASES[3]]
    if impl in AARCH64_IMPLS:
        cases = cases + GCM_CASES_AARCH64
    groups = GCM_CASES_GROUPS.get(impl, [])
    if full:
        cases = cases + (GCM_CASES_PPC64LE_FULL if impl in PPC64LE_IMPLS else GCM_CASES_FULL) + GCM_CASES_TAGS
        cases = cases + groups + GCM_CASES_GROUPS_FULL.get(impl, []) + GCM_CASES_PASSES.get(impl, [])
        extra = list(GCM_CASES_LONG) if impl in ("vaes256", "vaes512") else []
    else:
        extra = [] if impl == "portable" else [("seal", c) for c in GCM_CASES_TAGS] + [("open", GCM_CASES_TAGS[2])]
        extra += [("seal", c) for c in groups] + [("open", c) for c in groups if impl == "vaes256"]
        extra += [(op, c) for c in GCM_CASES_PASSES.get(impl, []) for op in ("seal", "open")]
    return [(op, c) for c in cases for op in ("seal", "open")] + extra


# (key bytes, nonce bytes, AAD bytes, payload bytes, tag bytes) of the CCM obligations, each sealed and
# opened. Every nonce length, so every q = 15 - n (at q = 2 and 3 the kernels' inc32 word holds nonce
# bytes), tags of 4..16 bytes, and the paths of ccm.c: a payload ending in a partial block up to
# CCM_STAGED_MAX (the staged path: one CTR call gives E(A_0) and the keystream); whole blocks (the fused
# ccm_seal_blocks/ccm_open_blocks); a partial tail past the staged limit (fused, then the tail alone); no
# AAD, AAD within the first block beside its length encoding, filling it exactly, and across blocks.
CCM_CASES = [(16, 7, 0, 5, 4), (32, 13, 14, 64, 16), (24, 12, 40, 49, 10), (16, 8, 1, 33, 6),
             (16, 9, 20, 48, 8), (32, 10, 0, 100, 12), (24, 11, 13, 16, 14)]
# make prove-full: a longer message (AAD over 255 bytes, 20 blocks and a tail of payload)
CCM_CASES_FULL = [(16, 13, 255, 16 * 20 + 3, 16)]
# AAD of 2^16 - 2^8 bytes and more: the 6-byte length encoding (0xff 0xfe [a]_32), 4,081 blocks of
# CBC-MAC before the payload's, with AES's rounds uninterpreted (obligations.CCM_OPAQUE_AAD). Not on
# portable: its bitsliced AES has no round instruction to take whole.
CCM_CASES_LONG_AAD = [(16, 13, 65280, 17, 16)]


def ccm_cases(impl, full):
    cases = CCM_CASES
    if impl == "portable" and not full:
        # its bitsliced AES makes each case ten times the others' time: in CI the first three
        cases = CCM_CASES[:3]
    if full:
        cases = cases + CCM_CASES_FULL
    if full and impl != "portable":
        cases = cases + CCM_CASES_LONG_AAD
    return [(op, c) for c in cases for op in ("seal", "open")]


# GCM batches: (key bytes, [(AAD bytes, data bytes) per message]), 12-byte nonces and 16-byte tags. Two
# messages of the same short lengths (vaes256's two-message kernel takes them side by side), then one
# of other lengths (the one-shot path inside the batch). An open runs every combination of verdicts, 2^n
# runs: in CI it opens the pair alone, make prove-full all three. power8 and power9: AAD over 64 bytes,
# the mode's general path (their short kernels are GCM_CASES_PPC64LE's first cases).
GCM_BATCH = (16, ((13, 33), (13, 33), (0, 20)))
GCM_BATCH_PPC64LE = (16, ((65, 33), (65, 33), (80, 20)))


def gcm_batches(impl, full):
    kl, msgs = GCM_BATCH_PPC64LE if impl in PPC64LE_IMPLS else GCM_BATCH
    if full:
        return [("seal", (kl, msgs)), ("open", (kl, msgs))]
    if impl == "portable":
        return [("seal", (kl, msgs))]  # its GHASH: the open's four runs are make prove-full's
    return [("seal", (kl, msgs)), ("open", (kl, msgs[:2]))]


# (key bytes, AAD bytes, data bytes) of the AES-GCM-SIV obligations, each sealed and opened. The empty
# message (POLYVAL of the length block alone); partial AAD and data blocks (the mode's zero-padded tails;
# on VAES the short kernel's one sum); a 24-byte key (the general path on every implementation, VAES
# included: its short kernels derive 16- and 32-byte keys only).
SIV_CASES = [(16, 0, 0), (32, 13, 33), (24, 20, 17)]
# make prove-full: past one aggregation of the widest update (and of VAES's short kernel's group), and
# past the open's 4 KiB chunk (SIV_OPEN_CHUNK; on VAES VV_SIV_OPEN_CTR_FIRST, the stitched open)
SIV_CASES_FULL = [(16, 40, 149), (32, 255, 16 * 33 + 7), (24, 17, 1024 + 5), (16, 0, 4096 + 16 * 33 + 3)]


def siv_cases(impl, full):
    if impl == "portable" and not full:
        # its bitsliced AES (the derivation, K_enc's expansion, nested) and integer-multiply POLYVAL
        # make each case several times the others' time: in CI the empty message both ways (the
        # verdict) and the partial blocks' seal (its POLYVAL over data: a wrong product shows there
        # as a counterexample, where an open's verdict would only be "not identified")
        return [("seal", SIV_CASES[0]), ("open", SIV_CASES[0]), ("seal", SIV_CASES[2])]
    cases = SIV_CASES + (SIV_CASES_FULL if full else [])
    return [(op, c) for c in cases for op in ("seal", "open")]


class Timeout(Exception):
    pass


def _alarm(*_):
    raise Timeout()


_MODULES = {}


def _arch(impl):
    if impl == "portable-noint128":
        return "x86_64-noint128"
    if impl in PPC64LE_IMPLS:
        return "ppc64le"
    return "aarch64" if impl in AARCH64_IMPLS else "x86_64"


def _machine(impl, arch, kind):
    from sym import intrinsics_aarch64, intrinsics_ppc64le, obligations as O
    from sym.intrinsics import X86
    if arch == "aarch64":
        return intrinsics_aarch64.new_machine(_MODULES[arch], impl)
    if arch == "ppc64le":
        return intrinsics_ppc64le.new_machine(_MODULES[arch], impl)
    m = O.new_machine(_MODULES[arch], impl, X86)
    if kind not in ("override", "gf_init", "gf_update", "siv_powers"):
        from sym import overrides
        overrides.install(m)
    return m


def run_group(args):
    """One worker's share: the obligations of one key size and function, in order."""
    build, group, timeout, mutant_root, ir_cache = args
    from sym import build_ir, obligations as O
    from sym.exec import CTViolation, Unsupported
    results = []
    signal.signal(signal.SIGALRM, _alarm)
    for name, impl, fn, lc, spec in group:
        t0 = time.time()
        detail = ""
        try:
            signal.alarm(timeout)
            # the alarm is cancelled as soon as the body ends, however it ends: one that fires in
            # an except or finally clause below would escape them and stop the whole run
            try:
                arch = _arch(impl)
                if arch not in _MODULES:
                    _MODULES[arch] = build_ir.module(mutant_root or ROOT, os.path.join(build, "ir"), arch,
                                                     ir_cache=ir_cache)
                m = _machine(impl, arch, spec[0])
                kind = spec[0]
                # carry-less products in the normal form of bits.py only where they are compared; its
                # named polynomials are per obligation
                from sym import bits
                # (the AEAD obligations set their own: sym/obligations.py gcm_key_free_powers)
                bits.reset_products(kind in ("gf_init", "gf_update", "gcm_key", "siv_powers"),
                                    top_rows=kind != "gf_update",
                                    linear=kind != "gf_update")
                if kind == "override":
                    from sym import overrides
                    overrides.prove(m, spec[1])
                elif kind == "expand":
                    O.ob_expand(m, impl, spec[2], spec[1])
                elif kind in ("ecb_encrypt", "ecb_decrypt"):
                    O.ob_ecb(m, spec[1], spec[2], kind == "ecb_decrypt")
                elif kind == "ctr32":
                    O.ob_ctr(m, spec[1], spec[2])
                elif kind == "stream":
                    O.ob_ctr_stream(m, spec[1], spec[2])
                elif kind == "gf_update":
                    O.ob_gf_update(m, impl, spec[1], spec[2])
                elif kind == "gf_init":
                    O.ob_gf_init(m, impl, spec[1])
                elif kind == "siv_powers":
                    O.ob_siv_powers(m, impl)
                elif kind == "gcm_key":
                    O.ob_gcm_key(m, impl, spec[1])
                elif kind == "gcm_seal":
                    O.ob_gcm_seal(m, impl, *spec[1:])
                elif kind == "gcm_stream":
                    O.ob_gcm_stream(m, impl, *spec[1:], again=lambda: _machine(impl, arch, spec[0]))
                elif kind == "ccm_seal":
                    O.ob_ccm_seal(m, impl, *spec[1:])
                elif kind == "ccm_open":
                    O.ob_ccm_open(m, impl, *spec[1:], again=lambda: _machine(impl, arch, spec[0]))
                elif kind == "gcm_batch":
                    O.ob_gcm_batch(m, impl, *spec[1:], again=lambda: _machine(impl, arch, spec[0]))
                elif kind == "siv_seal":
                    O.ob_siv_seal(m, impl, *spec[1:])
                elif kind == "siv_open":
                    O.ob_siv_open(m, impl, *spec[1:], again=lambda: _machine(impl, arch, spec[0]))
                elif kind == "gcm_open":
                    O.ob_gcm_open(m, impl, *spec[1:], again=lambda: _machine(impl, arch, spec[0]))
                else:
                    raise ValueError(kind)
            finally:
                signal.alarm(0)
            res = "proved"
        except Timeout:
            res = "timeout"
        except CTViolation as e:
            res, detail = "failed", "constant time: %s" % e
        except (O.Failed, Unsupported) as e:
            res, detail = "failed", str(e)
        except Exception as e:  # a prover error is a failed obligation too, reported, never a pass
            res, detail = "failed", "prover error: %r" % (e,)
        results.append((name, impl, fn, lc, res, "%.1f" % (time.time() - t0), detail))
        if os.environ.get("PROVE_PROGRESS"):
            print("  %s %s %.1fs" % (res, name, time.time() - t0), file=sys.stderr, flush=True)
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build-prove"))
    ap.add_argument("--full", action="store_true", default=bool(os.environ.get("PROVE_FULL")))
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2")))
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--only", default=os.environ.get("PROVE_ONLY", ""))
    ap.add_argument("--pending", action="store_true", help="the implementations not yet proved, alone")
    ap.add_argument("--root", default=None, help="prove the sources under this tree (negative controls)")
    ap.add_argument("--summary", default=None)
    ap.add_argument("--ir-cache", default=None, help="a directory of per-file IR shared between trees")
    ap.add_argument("--expect-fail", action="store_true",
                    help="negative control: succeed only if at least one selected obligation fails")
    a = ap.parse_args()
    obs = obligations(a.full, a.pending)
    selected = [o for o in obs if not a.only or re.search(a.only, o[0])]
    if not selected:
        print("prove: PROVE_ONLY=%r selects no obligation" % a.only)
        return 1
    os.makedirs(a.build, exist_ok=True)
    # build (or load) the IR once before the workers start, so they all find it cached
    from sym import build_ir
    for arch in sorted({_arch(o[1]) for o in selected}):
        build_ir.module(a.root or ROOT, os.path.join(a.build, "ir"), arch, ir_cache=a.ir_cache)
    # one group per (key size, function): the same blocks under the same key give the same terms in
    # every implementation, so a group's later implementations reuse the first one's (bits.py interns
    # them per process); the implementations with the longest lengths go first
    groups = {}
    for o in selected:
        if o[0].startswith("aead."):
            # GCM (with its streams and batches): one group per implementation, whose cases share the
            # AES terms of the same key bits, and an open the groups of the seal before it
            # (obligations.SEAL_GROUPS). CCM and GCM-SIV: one group each across the implementations,
            # as the AES obligations are grouped. Their cost is mostly the spec's AES terms, which the
            # later implementations find interned: CCM's 104 obligations took 153 s of obligation
            # time in per-implementation groups and 62 s in one (2.4 GB). GCM's cost is GHASH's
            # normal form, which is not shared: one group would save 12% and serialize a third of
            # the run (docs: Time)
            family = "siv" if o[2].startswith("siv") else "ccm" if o[2].startswith("ccm") else "gcm"
            if o[4][0] in ("gcm_seal", "gcm_open") and o[4][4] >= 4096:
                family = "gcm-long"  # (make prove-full's long kernels: a fresh worker's memory)
            # (gcm-long: one group per implementation and lengths, so that a worker holds one long
            # seal and the open that takes its split, never several lengths' terms at once)
            key = (("aead", o[1], family) if family == "gcm" else
                   ("aead", o[1], family) + tuple(o[4][1:]) if family == "gcm-long" else ("aead", family))
            groups.setdefault(key, []).append(o)
            continue
        if o[0].startswith("gf."):
            # nothing is shared between GHASH obligations (their products are reset): small groups of
            # one implementation and field, for the pool's balance
            n = o[4][2] if o[4][0] == "gf_update" else 0
            groups.setdefault(("gf", o[1], o[2].split("_")[0], n // 8), []).append(o)
            continue
        kind = {"expand": "ecb_encrypt", "stream": "ctr32", "override": "ecb_encrypt"}.get(o[4][0], o[4][0])
        groups.setdefault((o[3].split()[0], kind), []).append(o)
    for g in groups.values():
        g.sort(key=lambda o: -dict(X86_IMPLS, **AARCH64_IMPLS, **PPC64LE_IMPLS).get(o[1], PENDING.get(o[1], 0)))
    # biggest groups first, for the pool's balance
    work = sorted(groups.values(), key=lambda g: -len(g))
    t0 = time.time()
    results = []
    # each group in a fresh worker (maxtasksperchild=1): bits.py interns every term for the life of a
    # process, and long-lived workers that ran group after group reached 13 and 11 GB, more than this
    # machine's 24 GiB (docs: Time). Terms are shared within a group only
    with multiprocessing.Pool(max(1, a.jobs), maxtasksperchild=1) as pool:
        for res in pool.imap_unordered(run_group, [(a.build, g, a.timeout, a.root, a.ir_cache) for g in work]):
            for r in res:
                print("%-8s %6ss  %s%s" % (r[4], r[5], r[0], ("  -- " + r[6]) if r[6] else ""), flush=True)
            results += res
    order = {o[0]: i for i, o in enumerate(obs)}
    results.sort(key=lambda r: order[r[0]])
    summary = a.summary or os.path.join(a.build, "summary.tsv")
    with open(summary, "w") as f:
        f.write("name\timplementation\tfunction\tlength class\tresult\tseconds\n")
        for r in results:
            f.write("\t".join(r[:6]) + "\n")
    with open(summary + ".details", "w") as f:
        for r in results:
            f.write("%s\t%s\t%s\n" % (r[0], r[4], r[6].replace("\t", " ").replace("\n", " ")))
    bad = [r for r in results if r[4] != "proved"]
    print("prove: %d obligations, %d proved, %d failed or timed out, %.0f s (summary: %s)"
          % (len(results), len(results) - len(bad), len(bad), time.time() - t0, summary))
    if a.expect_fail:
        return 0 if bad else 1
    rc = 1 if bad else 0
    if a.full:
        print("prove: full bounds (make prove-full); the expected count is that of make prove")
    elif not a.only and not a.pending:
        with open(os.path.join(HERE, "sym", "expected.txt")) as f:
            expected = int(f.read().split()[0])
        if expected != len(results):
            print("prove: %d obligations, proofs/sym/expected.txt says %d" % (len(results), expected))
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
