# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""obligations.py -- what is proved: each obligation runs one public function of vg.h on symbolic
inputs, through the implementation table and the mode down to the kernel, and compares every output
bit with the spec transcription.

Inputs are named bits (key, in, counter), the same names in every obligation, so that the spec's
terms and the models' terms are computed once per process (bits.py interns them): the work of a
length class is mostly what is new in it.
"""
import contextlib

from . import bits as B
from . import spec_aes as S
from .exec import CTViolation, Machine, Unsupported
from .intrinsics import COMMON

KEY_OBJ = 8192  # bytes for any vg key or stream object (vg.h's sizes are below this)


class Failed(Exception):
    pass


def _string(m, addr):
    out = bytearray()
    while True:
        b = B.const_value(m.mem.load(addr, 1))
        if b is None:
            raise Unsupported("string with secret bytes")
        if b == 0:
            return bytes(out)
        out.append(b)
        addr += 1


def externals(impl):
    """The C library as the library's selection code sees it: VG_IMPL names the implementation."""
    env = {}

    def getenv(m, args):
        name = _string(m, B.const_value(args[0]))
        if name != b"VG_IMPL":
            return B.const_bits(0, 64)
        if "VG_IMPL" not in env:
            r = m.mem.alloc("env.VG_IMPL", len(impl) + 1)
            m.mem.store(r.base, [b for ch in impl.encode() + b"\0" for b in B.const_bits(ch, 8)])
            env["VG_IMPL"] = r.base
        return B.const_bits(env["VG_IMPL"], 64)

    def strcmp(m, args):
        a = _string(m, B.const_value(args[0]))
        b = _string(m, B.const_value(args[1]))
        return B.const_bits(0 if a == b else (1 if a > b else 0xffffffff), 32)

    return {"secure_getenv": getenv, "getenv": getenv, "strcmp": strcmp, "vg_prove_declassify": declassify}


def declassify(m, args):
    """vg_declassify(p, n) (src/internal.h; a call in the prover's IR): the n bytes at p become public.
    Constant bytes are public already. Secret ones are allowed only where an obligation splits on
    them (m.verdict, 0 or 1: an open's verdict, ob_gcm; a list of them for a batch, one per message
    in the order declassified): the bytes are recorded for the obligation,
    which proves what they are, and replaced by the case's value, so that the code after the point
    runs, and is checked for constant time, once per value. Anywhere else a secret reaching
    vg_declassify fails the obligation."""
    addr = B.const_value(args[0])
    n = B.const_value(args[1])
    if addr is None or n is None:
        raise Unsupported("vg_declassify of a secret address or length")
    bits = m.mem.load(addr, n)
    if all(B.is_const(b) for b in bits):
        return None
    choice = getattr(m, "verdict", None)
    if isinstance(choice, list):  # a batch: one verdict per message, in the order they are declassified
        choice = choice[len(m.declassified)] if len(m.declassified) < len(choice) else None
    if choice is None:
        raise Unsupported("vg_declassify of a secret outside an open's verdict")
    m.declassified.append(bits)
    m.mem.store(addr, B.const_bits(choice, 8 * n))
    return None


def new_machine(module, impl, arch_intrinsics):
    intr = dict(COMMON)
    intr.update(arch_intrinsics)
    return Machine(module, intr, externals(impl))


def sym_bytes(name, n):
    return [B.var((name, i)) for i in range(8 * n)]


def place(m, name, bits):
    r = m.mem.alloc(name, max(len(bits) // 8, 1))
    if bits:
        m.mem.store(r.base, bits)
    return r.base


def ptr(v):
    return B.const_bits(v, 64)


def i64(v):
    return B.const_bits(v, 64)


def rc(bits):
    v = B.const_value(bits)
    if v is None:
        raise Failed("return code depends on a secret")
    return v - (1 << 32) if v >> 31 else v


def compare(got, want, what):
    got = [B.normalize(b) for b in got]
    want = [B.normalize(b) for b in want]
    if got == want:
        return
    bad = [i for i, (g, w) in enumerate(zip(got, want)) if g != w]
    if len(got) != len(want):
        raise Failed("%s: %d bits, the spec has %d" % (what, len(got), len(want)))
    # not the same term: evaluate both on random inputs to tell a wrong result (a counterexample) from
    # a term the algebra could not identify (then still a failure, never a proof)
    import random
    rnd = random.Random(1)
    names = set()
    seen = set()  # one walk of the shared DAG for all the bad bits, not one per bit
    for i in bad:
        _collect(got[i], names, seen)
        _collect(want[i], names, seen)
    for _ in range(8):
        env = {n: rnd.getrandbits(1) for n in names}
        # both sides in one evaluation: their shared subterms (the AES of a long CBC-MAC) once
        both = B.evaluate([got[i] for i in bad] + [want[i] for i in bad], env)
        g, w = both & ((1 << len(bad)) - 1), both >> len(bad)
        if g != w:
            raise Failed("%s: differs from the spec (bit %d first; counterexample found)" % (what, bad[0]))
    raise Failed("%s: %d bits not identified with the spec's terms (no counterexample in 8 tries)" % (what, len(bad)))


def _collect(form, names, seen=None):
    if seen is None:
        seen = set()
    stack = list(form)
    while stack:
        a = stack.pop()
        if a in seen:
            continue
        seen.add(a)
        if a >= B.MONO_BASE:
            stack.extend(B.mono_factors(a))
            continue
        if a >= B.POLY_BASE:
            stack.extend(B.poly_of(a))
            continue
        d = B.ATOMS[a]
        if d[0] == "var":
            names.add(d[1])
        elif d[0] == "lut":
            for v in d[1]:
                stack.extend(v)
        elif d[0] == "and":
            stack.extend(d[1])
            stack.extend(d[2])
        elif d[0] == "word":
            # a node's operands once, not once per bit of it (an opaque AES round has 128)
            if ("node", d[1]) in seen:
                continue
            seen.add(("node", d[1]))
            n = B.ATOMS[d[1]]
            for x in n[1:]:
                if isinstance(x, tuple):
                    for y in x:
                        if isinstance(y, frozenset):
                            stack.extend(y)
                        elif isinstance(y, tuple):
                            for z in y:
                                stack.extend(z)


# ---- the obligations ------------------------------------------------------------------------------

def setup_key(m, key_len):
    key = sym_bytes("key", key_len)
    kobj = m.mem.alloc("vg_aes_key", KEY_OBJ).base
    kp = place(m, "key bytes", key)
    r = rc(m.call("vg_aes_expand_key", [ptr(kobj), ptr(kp), i64(key_len)]))
    if r != 0:
        raise Failed("vg_aes_expand_key returned %d" % r)
    return key, kobj


def ob_ecb(m, key_len, n, decrypt):
    key, kobj = setup_key(m, key_len)
    data = sym_bytes("in", 16 * n)
    ip = place(m, "in", data)
    op = m.mem.alloc("out", max(16 * n, 1)).base
    fn = "vg_aes_ecb_decrypt" if decrypt else "vg_aes_ecb_encrypt"
    r = rc(m.call(fn, [ptr(kobj), ptr(ip), ptr(op), i64(n)]))
    if r != 0:
        raise Failed("%s returned %d" % (fn, r))
    got = m.mem.load(op, 16 * n) if n else []
    want = S.ecb(key, key_len, data, n, decrypt)
    compare(got, want, fn)


def ob_ctr(m, key_len, n):
    key, kobj = setup_key(m, key_len)
    data = sym_bytes("in", 16 * n)
    ctr = sym_bytes("ctr", 16)
    ip = place(m, "in", data)
    cp = place(m, "counter", ctr)
    op = m.mem.alloc("out", max(16 * n, 1)).base
    r = rc(m.call("vg_aes_ctr32", [ptr(kobj), ptr(cp), ptr(ip), ptr(op), i64(n)]))
    if r != 0:
        raise Failed("vg_aes_ctr32 returned %d" % r)
    want, want_ctr = S.ctr32(key, key_len, ctr, data, n)
    got = m.mem.load(op, 16 * n) if n else []
    compare(got, want, "vg_aes_ctr32 output")
    compare(m.mem.load(cp, 16), want_ctr, "vg_aes_ctr32 counter")


def ob_expand(m, impl, key_len, how):
    """The schedule a key set-up call leaves, read through impl's layout, equals FIPS 197 §5.2's."""
    from . import layouts
    key = sym_bytes("key", key_len)
    kobj = m.mem.alloc("key object", KEY_OBJ).base
    kp = place(m, "key bytes", key)
    fn = {"expand_key": "vg_aes_expand_key", "gcm_init": "vg_aes_gcm_init", "ccm_init": "vg_aes_ccm_init",
          "gcm_siv_init": "vg_aes_gcm_siv_init"}[how]
    r = rc(m.call(fn, [ptr(kobj), ptr(kp), i64(key_len)]))
    if r != 0:
        raise Failed("%s returned %d" % (fn, r))
    w, nr = S.key_expansion(key, key_len)
    got, want = layouts.READERS[impl](m.mem, kobj, w, nr, how == "expand_key")
    compare(got, want, fn + " schedule")


def ob_ctr_stream(m, key_len, pieces):
    """vg_aes_ctr_stream_xor over the given call lengths equals CTR32 over their concatenation."""
    key, kobj = setup_key(m, key_len)
    total = sum(pieces)
    data = sym_bytes("in", total)
    ctr = sym_bytes("ctr", 16)
    ip = place(m, "in", data)
    cp = place(m, "counter", ctr)
    op = m.mem.alloc("out", max(total, 1)).base
    sobj = m.mem.alloc("stream", KEY_OBJ).base
    r = rc(m.call("vg_aes_ctr_stream_init", [ptr(sobj), ptr(kobj), ptr(cp)]))
    if r != 0:
        raise Failed("vg_aes_ctr_stream_init returned %d" % r)
    done = 0
    for p in pieces:
        r = rc(m.call("vg_aes_ctr_stream_xor", [ptr(sobj), ptr(ip + done), ptr(op + done), i64(p)]))
        if r != 0:
            raise Failed("vg_aes_ctr_stream_xor returned %d" % r)
        done += p
    nblocks = (total + 15) // 16
    pad = data + [B.ZERO] * (8 * (16 * nblocks - total))
    want, _ = S.ctr32(key, key_len, ctr, pad, nblocks)
    compare(m.mem.load(op, total) if total else [], want[: 8 * total], "vg_aes_ctr_stream_xor output")


# ---- GHASH and POLYVAL (issue 33): the update with the powers free, and the init -------------------

# the kernels' functions (the implementation tables point at them; vaes's are static). armv8's update
# is called in the variant its modelled CPU selects (armv8_impl.c: EOR3 with FEAT_SHA3); its init is
# one function for both
GF_FUNCTIONS = {"aesni": "vg_aesni_%s", "vaes256": "vaes256_%s", "vaes512": "vaes512_%s",
                "power8": "vg_power8_%s", "power9": "vg_power9_%s", "portable": "vg_portable_%s"}
GF_ARMV8 = {"armv8": "vg_armv8_%s_sha3", "armv8-noeor3": "vg_armv8_%s_base"}
# each implementation's update: how many blocks it takes under one reduction (aesni_ghash.c,
# vaes_body.h gf_update, armv8_kernels.inc gf_update, power8_ghash.c update, ghash_ctmul.c
# hash_blocks)
GF_GROUP = {"aesni": 8, "vaes256": 16, "vaes512": 32, "armv8": 8, "armv8-noeor3": 8, "power8": 8, "power9": 8,
            "portable": 4, "portable-noint128": 4}
# portable-noint128: portable's GHASH and POLYVAL as 32-bit targets compile them (ghash_ctmul.c without
# unsigned __int128, build_ir.VARIANTS), the same functions, table and aggregation in another IR
GF_FUNCTIONS["portable-noint128"] = GF_FUNCTIONS["portable"]
# the implementations whose AEADs are proved (the variant is GHASH/POLYVAL only: no 64-bit build runs it)
AEAD_IMPLS = [i for i in GF_GROUP if i != "portable-noint128"]
# the updates whose remainder after the whole groups is one block at a time (ghash_ctmul.c); the
# others take it as one shorter group
GF_TAIL_SINGLE = {"portable", "portable-noint128"}
# the inits that compute H_k = H_(k-1) H (armv8_ghash.c, power8_ghash.c store_powers, ghash_ctmul.c
# hkey_set); the x86 ones square (spec_gf.power)
GF_LINEAR_INIT = {"armv8", "armv8-noeor3", "power8", "power9", "portable", "portable-noint128"}


def gf_function(impl, what):
    if impl in GF_ARMV8:
        return "vg_armv8_%s" % what if what.endswith("_init") else GF_ARMV8[impl] % what
    return GF_FUNCTIONS[impl] % what


def _gf_field(field):
    from . import spec_gf as F
    if field == "ghash":
        return F.ghash_mul, F.to_polyval
    return F.dot, lambda e: e


def gf_groups(impl, n):
    """How impl's update splits n blocks into one-reduction groups: whole groups of its widest, then
    the rest, as one group or block by block."""
    k = GF_GROUP[impl]
    if impl in GF_TAIL_SINGLE:
        return [k] * (n // k) + [1] * (n % k)
    return [k] * (n // k) + ([n % k] if n % k else [])


def _gf_call(m, fn, args):
    """The call as the modes make it: on armv8 inside vg_arch_secret_enter/exit (gcm.c, gcm_siv.c),
    so with PSTATE.DIT set, which the machine checks is set again on return."""
    cpu = getattr(m, "aarch64_cpu", None)
    if cpu is not None:
        cpu.dit = 1
    m.call(fn, args)


def _unchanged(m, regions, fn):
    for r, bits in regions:
        if r.bits != bits:
            raise Failed("%s wrote %s" % (fn, r.name))


def ob_gf_update(m, impl, field, n):
    """impl's <field>_update over n blocks from a symbolic accumulator, the hkey holding free powers
    E_1..E_k in impl's layout, equals the aggregated update by those powers (spec_gf.aggregated), and
    writes only the accumulator. With the init obligation (the table holds H^1..H^k), that is Horner's
    rule: acc = (acc + X_i) * H for each block."""
    from . import layouts, spec_gf as F
    mul, embed = _gf_field(field)
    k, writer = layouts.hkey(impl, field)
    powers = [sym_bytes(("pow", j), 16) for j in range(1, k + 1)]
    hk = place(m, "hkey", writer([embed(p) for p in powers]))
    acc = sym_bytes("acc", 16)
    ap = place(m, "acc", acc)
    data = sym_bytes("in", 16 * n)
    ip = place(m, "in", data)
    fn = gf_function(impl, field + "_update")
    before = [(r, list(r.bits)) for r in m.mem.regions if r.base != ap]
    _gf_call(m, fn, [ptr(hk), ptr(ap), ptr(ip), i64(n)])
    _unchanged(m, before, fn)
    blocks = [data[128 * i:128 * (i + 1)] for i in range(n)]
    want = F.aggregated(mul, acc, blocks, powers, gf_groups(impl, n))
    compare(m.mem.load(ap, 16), want, fn + " accumulator")


def ob_gf_init(m, impl, field):
    """impl's <field>_init on a symbolic H writes the hkey (zeroed first, as the modes do) with the
    powers H^1..H^k in impl's layout (spec_gf.power: the field's own product)."""
    from . import layouts, spec_gf as F
    mul, embed = _gf_field(field)
    k, writer = layouts.hkey(impl, field)
    h = sym_bytes("h", 16)
    hp = place(m, "H", h)
    hk = place(m, "hkey", [B.ZERO] * (8 * layouts.HKEY_SIZE))
    fn = gf_function(impl, field + "_init")
    before = [(r, list(r.bits)) for r in m.mem.regions if r.base != hk]
    _gf_call(m, fn, [ptr(hk), ptr(hp)])
    _unchanged(m, before, fn)
    memo = {}
    linear = impl in GF_LINEAR_INIT
    want = writer([embed(F.power(mul, h, j, memo, linear)) for j in range(1, k + 1)])
    compare(m.mem.load(hk, layouts.HKEY_SIZE), want, fn + " hkey")


# where vg_aes_gcm_init leaves the GHASH key in a key object (src/internal.h struct
# vg_aes_gcm_key_state: the AES state, 64 + VG_SCHED_SIZE bytes, then hkey)
GCM_HKEY = 64 + 2048


def ob_gcm_key(m, impl, key_len):
    """vg_aes_gcm_init on a symbolic key leaves the hkey holding, in impl's layout, the GHASH powers
    of H = CIPH_K(0^128) (SP 800-38D §7.1 step 1): by impl's gcm_key_setup where it has one (x86:
    the expansion with H beside it), else by the mode's general path (the block cipher on the zero
    block, the memset, then ghash_init). The schedule in the same object is aes.<impl>.gcm_init's."""
    from . import layouts, spec_gf as F
    key = sym_bytes("key", key_len)
    kobj = m.mem.alloc("key object", KEY_OBJ).base
    kp = place(m, "key bytes", key)
    r = rc(m.call("vg_aes_gcm_init", [ptr(kobj), ptr(kp), i64(key_len)]))
    if r != 0:
        raise Failed("vg_aes_gcm_init returned %d" % r)
    w, nr = S.key_expansion(key, key_len)
    h = S.cipher(w, nr, [B.ZERO] * 128)
    k, writer = layouts.hkey(impl, "ghash")
    memo = {}
    linear = impl in GF_LINEAR_INIT
    want = writer([F.to_polyval(F.power(F.ghash_mul, h, j, memo, linear)) for j in range(1, k + 1)])
    compare(m.mem.load(kobj + GCM_HKEY, layouts.HKEY_SIZE), want, "vg_aes_gcm_init hkey")


# ---- GCM through the public API (issue 33, item 3) ------------------------------------------------

def gcm_key_free_powers(m, impl, key_len, fresh=True):
    """A GCM key object as vg_aes_gcm_init leaves it for a symbolic key, with its hkey holding free
    blocks E_1..E_k in impl's layout (phi(E_j), as gf.<impl>.gcm_key proves the hkey to hold phi(H^j)):
    the AEAD obligations are then proved for every table and meet the key set-up's proof at it. The
    set-up runs with products as word nodes (its H powers are overwritten, and gcm_key proves them);
    the schedule is the one aes.<impl>.gcm_init proves. fresh: the products' names start anew
    (else they are kept: a second run whose terms meet the first's)."""
    from . import layouts, spec_gf as F
    key = sym_bytes("key", key_len)
    kobj = m.mem.alloc("key object", KEY_OBJ).base
    kp = place(m, "key bytes", key)
    if fresh:
        B.reset_products(True, linear=True)
    B.set_products(False)
    r = rc(m.call("vg_aes_gcm_init", [ptr(kobj), ptr(kp), i64(key_len)]))
    if r != 0:
        raise Failed("vg_aes_gcm_init returned %d" % r)
    B.set_products(True)
    powers = gcm_powers(impl)
    m.mem.store(kobj + GCM_HKEY, layouts.hkey(impl, "ghash")[1]([F.to_polyval(p) for p in powers]))
    return key, kobj, powers


def gcm_powers(impl):
    """The free blocks E_1..E_k standing for H^1..H^k in impl's GHASH table."""
    from . import layouts
    return [sym_bytes(("pow", j), 16) for j in range(1, layouts.hkey(impl, "ghash")[0] + 1)]


def _observe_updates(m, impl, field="ghash"):
    """Logs the GHASH (or POLYVAL) work the mode hands out, the bodies still run: ("u", acc address,
    blocks) for each call of impl's update, ("f", acc address, blocks done) for each fused CTR+GHASH
    block kernel (internal.h gcm_seal_blocks & co., which return how many blocks they took)."""
    log = []
    depth = [0]  # (armv8's dispatcher calls its variant: the outermost call is the one logged)

    def observe(fn, kind, acc_arg, count):
        def observed(mach, args):
            del mach.overrides[fn]
            depth[0] += 1
            try:
                r = mach.call(fn, args)
            finally:
                mach.overrides[fn] = observed
                depth[0] -= 1
            if not depth[0]:
                log.append((kind, B.const_value(args[acc_arg]), count(args, r)))
            return r
        m.overrides[fn] = observed

    observe(gf_function(impl, field + "_update"), "u", 1, lambda args, r: B.const_value(args[3]))
    for fn in m.m.functions:
        if "gcm_seal_blocks" in fn or "gcm_open_blocks" in fn:
            observe(fn, "f", 3, lambda args, r: B.const_value(r))
    return log


def _groups_of_run(impl, log, nonce_len):
    """(J0's groups, the candidates for S's) from a run's log; S's are None when the mode made no
    update call on S's accumulator (a whole-message kernel). For a nonce of other than 12 bytes J0 is
    hashed first, into its own accumulator (gcm.c gcm_start). An update of n blocks splits as
    gf_groups says (the update obligations prove it); a fused kernel's blocks are tried in groups of
    4, 8, 16 and 32 (its width), the rest as one group or in groups of 4, 2 and 1."""
    accs = []
    for kind, a, _ in log:
        if kind == "u" and a not in accs:
            accs.append(a)
    jacc = accs[0] if nonce_len != 12 and accs else None
    jg = [g for kind, a, n in log if a == jacc for g in gf_groups(impl, n)]
    rest = [a for a in accs if a != jacc]
    if not rest:
        return jg, None
    cands = [[]]
    for kind, a, n in log:
        if a != rest[0] or not n:
            continue
        if kind == "u":
            cands = [c + gf_groups(impl, n) for c in cands]
        else:
            cands = [c + t for c in cands for w in (4, 8, 16, 32) for t in (_split(n, w), _binary_tail(n, w))]
    return jg, _unique(cands)


def _binary_tail(n, w):
    """Whole groups of w, then the rest as groups of 4, 2 and 1 (armv8's fused kernels)."""
    return [w] * (n // w) + [b for b in (16, 8, 4, 2, 1) if b < w and (n % w) & b]


def _unique(cands):
    seen, out = set(), []
    for c in cands:
        if tuple(c) not in seen:
            seen.add(tuple(c))
            out.append(c)
    return out


def _split(n, w):
    return [w] * (n // w) + ([n % w] if n % w else [])


def _s_candidates(a, d, k):
    """Group sizes a whole-message kernel may use for GHASH(A || C || L), a AAD blocks and d data
    blocks (the whole-message kernels make no update call to observe): every one is GHASH by the
    paper step (spec_gcm), so trying several is sound, and any whose tag meets the code's is a proof
    (_pick chooses it).
    The shapes of the kernels' comments: all m = a + d + 1 blocks in one sum; the AAD and the data
    each in groups of w (the last one partial), the length block alone or with the data's last group;
    the whole sequence in groups of w, the partial one last or first. With whole groups of data, the
    length block may join the last whole group as one group of k + 1 (VAES's whole-groups seal,
    vaes_body.h gf_hash_group_len, with H^(k+1) = H^k * H made from the table: spec_gcm.ghash)."""
    m = a + d + 1
    out = [[m]]
    for w in (4, 8, 16, 32):
        aa, dd = _split(a, w), _split(d, w)
        out.append(aa + dd + [1])
        if dd and (dd[-1] < w or w == k):
            out.append(aa + dd[:-1] + [dd[-1] + 1])
        elif not dd and aa and aa[-1] < w:
            out.append(aa[:-1] + [aa[-1] + 1])
        out.append(_split(m, w))
        if m % w:
            out.append([m % w] + [w] * (m // w))
    # (k: the powers the table holds; k + 1 only in the length-joined shape above)
    return _unique(c for c in out if max(c) <= k or (max(c) == k + 1 and c[-1] == k + 1))


def _check_groups(groups, nblocks, what):
    if sum(groups) != nblocks:
        raise Failed("%s: the GHASH updates took %d blocks, the spec has %d" % (what, sum(groups), nblocks))


# (impl, key, nonce, AAD and data lengths) -> (J0's, S's group sizes) of a seal proved in this process.
# An open at the same lengths takes them instead of sealing again: they only pick which split of the
# spec's GHASH sum its tag is written with, and every split is GHASH (spec_gcm), so the open's proof
# does not rest on the seal's; a split the code does not take fails the open, never passes it.
SEAL_GROUPS = {}


def ob_gcm_seal(m, impl, key_len, nonce_len, aad_len, length, tag_len, fresh=True):
    """vg_aes_gcm_seal on a symbolic key, nonce, AAD and plaintext equals GCM-AE (spec_gcm.gcm):
    ciphertext and tag_len bytes of tag, nothing else written."""
    from . import spec_gcm as G
    key, kobj, powers = gcm_key_free_powers(m, impl, key_len, fresh)
    nonce = sym_bytes("nonce", nonce_len)
    aad = sym_bytes("aad", aad_len)
    data = sym_bytes("in", length)
    np_ = place(m, "nonce", nonce)
    ap = place(m, "aad", aad)
    ip = place(m, "in", data)
    op = m.mem.alloc("out", max(length, 1)).base
    tp = m.mem.alloc("tag", 16).base
    log = _observe_updates(m, impl)
    before = [(r, list(r.bits)) for r in m.mem.regions if r.base not in (op, tp)]
    r = rc(m.call("vg_aes_gcm_seal", [ptr(kobj), ptr(np_), i64(nonce_len), ptr(ap), i64(aad_len), ptr(ip),
                                      i64(length), ptr(op), ptr(tp), i64(tag_len)]))
    if r != 0:
        raise Failed("vg_aes_gcm_seal returned %d" % r)
    _unchanged(m, before, "vg_aes_gcm_seal")
    jg, sgs = _groups(impl, log, nonce_len, aad_len, length, len(powers))
    got = m.mem.load(tp, tag_len)
    sg = _pick(got, sgs, [key, nonce, aad, data] + powers,
               lambda c, g: G.gcm(c[0], key_len, c[1], c[2], c[3], c[4:], jg, g)[1])
    want, tag = G.gcm(key, key_len, nonce, aad, data, powers, jg, sg)
    compare(m.mem.load(op, length) if length else [], want, "vg_aes_gcm_seal ciphertext")
    compare(got, tag[:8 * tag_len], "vg_aes_gcm_seal tag")
    SEAL_GROUPS[(impl, key_len, nonce_len, aad_len, length)] = (jg, sg)
    return jg, sg


def _groups(impl, log, nonce_len, aad_len, length, k):
    """J0's group sizes and the candidates for S's, from a run's log."""
    jg, sg = _groups_of_run(impl, log, nonce_len)
    if nonce_len != 12:
        _check_groups(jg, (nonce_len + 15) // 16 + 1, "J0")
    a, d = (aad_len + 15) // 16, (length + 15) // 16
    # a whole-message kernel (no update calls), or calls that do not cover the blocks (a wrong path,
    # which then fails every candidate with a counterexample): the documented shapes
    sg = [c for c in (sg or []) if sum(c) == a + d + 1 and max(c) <= k]
    return jg, sg or _s_candidates(a, d, k)


def _pick(got, candidates, inputs, spec):
    """The candidate group sizes whose tag the code's tag bits (got) meet on one random input: both
    evaluated concretely (the code's terms by bits.evaluate, the spec on constant bits, products off),
    the powers random too, so that different splits give different tags. Only a search: the proof is
    the symbolic comparison that follows, with the candidate chosen here (or the last one)."""
    import random
    if len(candidates) == 1:
        return candidates[0]
    rnd = random.Random(33)
    env = {}
    concrete = []
    for bits in inputs:
        vals = []
        for b in bits:
            (a,) = b
            v = env.setdefault(B.ATOMS[a][1], rnd.getrandbits(1))
            vals.append(B.ONE if v else B.ZERO)
        concrete.append(vals)
    names, seen = set(), set()
    for b in got:
        _collect(b, names, seen)
    for n in names:  # (anything else the code's tag depends on, which the comparison will report)
        env.setdefault(n, rnd.getrandbits(1))
    want = B.evaluate(got, env)
    B.set_products(False)
    try:
        for c in candidates:
            if B.const_value(spec(concrete, c)[: len(got)]) == want:
                return c
    finally:
        B.set_products(True)
    return candidates[-1]


def _gcm_open_run(m, impl, key_len, nonce_len, aad_len, length, tag_len, tag, verdict, fresh):
    """One run of vg_aes_gcm_open with the given tag bits, the verdict's declassification taken as
    verdict: (return code, out, the update log, the bytes declassified, the key's powers)."""
    key, kobj, powers = gcm_key_free_powers(m, impl, key_len, fresh)
    nonce = sym_bytes("nonce", nonce_len)
    aad = sym_bytes("aad", aad_len)
    data = sym_bytes("in", length)
    np_ = place(m, "nonce", nonce)
    ap = place(m, "aad", aad)
    ip = place(m, "in", data)
    tp = place(m, "tag", tag)
    op = m.mem.alloc("out", max(length, 1)).base
    log = _observe_updates(m, impl)
    m.verdict, m.declassified = verdict, []
    before = [(r, list(r.bits)) for r in m.mem.regions if r.base != op]
    r = rc(m.call("vg_aes_gcm_open", [ptr(kobj), ptr(np_), i64(nonce_len), ptr(ap), i64(aad_len), ptr(ip),
                                      i64(length), ptr(tp), i64(tag_len), ptr(op)]))
    _unchanged(m, before, "vg_aes_gcm_open")
    if len(m.declassified) != 1:
        raise Failed("vg_aes_gcm_open declassified %d values, not its one verdict" % len(m.declassified))
    return r, (m.mem.load(op, length) if length else []), log, m.declassified[0], (key, nonce, aad, data, powers)


def ob_gcm_open(m, impl, key_len, nonce_len, aad_len, length, tag_len, again):
    """vg_aes_gcm_open equals GCM-AD (SP 800-38D §7.2) with its verdict: on a symbolic key, nonce,
    AAD, ciphertext and tag it returns VG_OK with the plaintext when the tag_len bytes given equal
    the first tag_len bytes of the spec's tag, and otherwise VG_ERR_AUTH with all of out zeroed.

    The verdict is the one value the code declassifies (src/util.c vg_open_finish), and the proof
    splits on it there (declassify above). The tag given is T[:t] XOR delta, T the spec's tag and
    delta free: every tag is one such. The seal of the same lengths (SEAL_GROUPS, or a seal run here,
    proved on the way) gives the GHASH group sizes, so T. Then two runs of the open, each through the whole call
    and checked for constant time up to the point and past it with the verdict public:
      verdict taken as 0: VG_OK, out = GCM-AD's plaintext;
      verdict taken as 1: VG_ERR_AUTH, out all zero.
    The verdict declassified (the same term in both runs) must be, as a function, the OR of the bits
    of delta (smt.is_or: z3), and the declassified int's other bits 0: so it is 0 exactly when the
    tag given is T[:t], and each run's case is the one that happens. again() gives a fresh machine."""
    from . import smt, spec_gcm as G
    groups = SEAL_GROUPS.get((impl, key_len, nonce_len, aad_len, length))
    if groups is None:
        jg, sg = ob_gcm_seal(m, impl, key_len, nonce_len, aad_len, length, 16)
    else:
        jg, sg = groups
        B.reset_products(True, linear=True)  # (as the seal's first run would: the runs below meet these names)
    key, nonce, aad, data = (sym_bytes(n, k) for n, k in (("key", key_len), ("nonce", nonce_len),
                                                          ("aad", aad_len), ("in", length)))
    powers = gcm_powers(impl)
    want, tag = G.gcm(key, key_len, nonce, aad, data, powers, jg, sg, decrypt=True)
    delta = sym_bytes("delta", tag_len)
    given = [B.normalize(t) ^ d for t, d in zip(tag[:8 * tag_len], delta)]
    verdicts = []
    for verdict, code in ((0, 0), (1, -5)):
        r, out, _, declassified, _ = _gcm_open_run(again(), impl, key_len, nonce_len, aad_len, length, tag_len,
                                                   given, verdict, False)
        if verdict == 0 and max(sg) > len(powers):
            # the seal took the whole-groups kernel, whose split (the length block in the last
            # group's sum) the open's kernels do not make: the open's own split, found from this
            # run's verdict (_open_split), then the two runs again with the tag it gives
            sg = _open_split(declassified[0], delta, [key, nonce, aad, data] + powers, key_len, jg, sg,
                             _s_candidates((aad_len + 15) // 16, (length + 15) // 16, len(powers)), tag_len)
            tag = G.gcm(key, key_len, nonce, aad, data, powers, jg, sg, decrypt=True)[1]
            given = [B.normalize(t) ^ d for t, d in zip(tag[:8 * tag_len], delta)]
            r, out, _, declassified, _ = _gcm_open_run(again(), impl, key_len, nonce_len, aad_len, length,
                                                       tag_len, given, verdict, False)
        if r != code:
            raise Failed("vg_aes_gcm_open, verdict %d: returned %d, not %d" % (verdict, r, code))
        if verdict == 0:
            compare(out, want, "vg_aes_gcm_open plaintext")
        elif any(b != B.ZERO for b in out):
            raise Failed("vg_aes_gcm_open, verdict 1: out not zeroed")
        if any(b != B.ZERO for b in declassified[1:]):
            raise Failed("vg_aes_gcm_open: the declassified verdict is not 0 or 1")
        verdicts.append(B.normalize(declassified[0]))
    if verdicts[0] != verdicts[1]:
        raise Failed("vg_aes_gcm_open: the two runs declassified different verdicts")
    if not smt.is_or(verdicts[0], delta):
        raise Failed("vg_aes_gcm_open: the verdict is not 'the tags differ' (z3 found a counterexample)")


def _open_split(verdict, delta, inputs, key_len, jg, sg, candidates, tag_len):
    """The split of GHASH's sum an open's kernel takes, from the verdict term of its run with the tag
    given as T_sg ^ delta: on one random input, with delta set to T_sg ^ T_c, the code's verdict is 0
    exactly when its expected tag is T_c (the spec's tag with split c). A search only, as _pick: the
    proof is the two runs that follow with the split found (or the last candidate, which then fails)."""
    import random
    from . import spec_gcm as G
    rnd = random.Random(35)
    env, concrete = {}, []
    for bits in inputs:
        vals = []
        for b in bits:
            (a,) = b
            vals.append(B.ONE if env.setdefault(B.ATOMS[a][1], rnd.getrandbits(1)) else B.ZERO)
        concrete.append(vals)
    names = set()
    _collect(verdict, names)
    for n in names:
        env.setdefault(n, rnd.getrandbits(1))
    B.set_products(False)
    try:
        def spec_tag(c):
            return G.gcm(concrete[0], key_len, concrete[1], concrete[2], concrete[3], concrete[4:], jg, c,
                         decrypt=True)[1][:8 * tag_len]
        t0 = spec_tag(sg)
        cands = [c for c in candidates if max(c) <= len(inputs) - 4]  # (no power made past the table)
        for c in cands:
            for d, x, y in zip(delta, t0, spec_tag(c)):
                (a,) = d
                env[B.ATOMS[a][1]] = int(x != y)
            if B.evaluate([verdict], env) == 0:
                return c
    finally:
        B.set_products(True)
    return cands[-1]


def _gcm_stream_run(m, impl, key_len, nonce_len, aad_pieces, data_pieces, decrypt, tag_len, tag, verdict,
                    fresh):
    """One stream: init, the AAD in aad_pieces, the data in data_pieces, then finish (encrypt) or
    verify with tag (decrypt, the verdict's declassification taken as verdict). Returns (code of the
    last call, out, the tag finish wrote, the update log, what was declassified, the inputs)."""
    key, kobj, powers = gcm_key_free_powers(m, impl, key_len, fresh)
    nonce = sym_bytes("nonce", nonce_len)
    aad = sym_bytes("aad", sum(aad_pieces))
    data = sym_bytes("in", sum(data_pieces))
    np_ = place(m, "nonce", nonce)
    ap = place(m, "aad", aad)
    ip = place(m, "in", data)
    op = m.mem.alloc("out", max(len(data) // 8, 1)).base
    tp = place(m, "tag", tag) if decrypt else m.mem.alloc("tag", 16).base
    sobj = m.mem.alloc("stream", KEY_OBJ).base
    log = _observe_updates(m, impl)
    m.verdict, m.declassified = verdict, []

    def call(fn, args):
        r = rc(m.call(fn, [ptr(sobj)] + args))
        if r != 0 and not fn.endswith("verify"):
            raise Failed("%s returned %d" % (fn, r))
        return r

    call("vg_aes_gcm_stream_init", [ptr(kobj), ptr(np_), i64(nonce_len)])
    done = 0
    for p in aad_pieces:
        call("vg_aes_gcm_stream_aad", [ptr(ap + done), i64(p)])
        done += p
    done = 0
    fn = "vg_aes_gcm_stream_decrypt" if decrypt else "vg_aes_gcm_stream_encrypt"
    for p in data_pieces:
        call(fn, [ptr(ip + done), i64(p), ptr(op + done)])
        done += p
    if decrypt:
        r = call("vg_aes_gcm_stream_verify", [ptr(tp), i64(tag_len)])
    else:
        r = call("vg_aes_gcm_stream_finish", [ptr(tp), i64(tag_len)])
    out = m.mem.load(op, len(data) // 8) if data else []
    return r, out, (None if decrypt else m.mem.load(tp, tag_len)), log, m.declassified, \
        (key, nonce, aad, data, powers)


def ob_gcm_stream(m, impl, key_len, nonce_len, aad_pieces, data_pieces, tag_len, decrypt, again):
    """The GCM stream (vg_aes_gcm_stream_init, _aad, _encrypt or _decrypt, _finish or _verify) at the
    given call splits equals GCM-AE over the concatenations: encrypt writes the ciphertext and the tag;
    decrypt writes the plaintext (released before verification, as vg.h says) and verify returns
    VG_OK exactly when the tag given matches, else VG_ERR_AUTH, its verdict split as ob_gcm_open's
    (the same splits encrypted first give the group sizes, so the spec's tag)."""
    from . import smt, spec_gcm as G
    r, out, got, log, _, (key, nonce, aad, data, powers) = _gcm_stream_run(
        m, impl, key_len, nonce_len, aad_pieces, data_pieces, False, 16, None, None, True)
    jg, sgs = _groups(impl, log, nonce_len, len(aad) // 8, len(data) // 8, len(powers))
    sg = _pick(got, sgs, [key, nonce, aad, data] + powers,
               lambda c, g: G.gcm(c[0], key_len, c[1], c[2], c[3], c[4:], jg, g)[1])
    want, tag = G.gcm(key, key_len, nonce, aad, data, powers, jg, sg)
    compare(out, want, "vg_aes_gcm_stream_encrypt output")
    compare(got, tag, "vg_aes_gcm_stream_finish tag")
    if not decrypt:
        return
    want, tag = G.gcm(key, key_len, nonce, aad, data, powers, jg, sg, decrypt=True)
    delta = sym_bytes("delta", tag_len)
    given = [B.normalize(t) ^ d for t, d in zip(tag[:8 * tag_len], delta)]
    verdicts = []
    for verdict, code in ((0, 0), (1, -5)):
        r, out, _, _, declassified, _ = _gcm_stream_run(again(), impl, key_len, nonce_len, aad_pieces, data_pieces,
                                                        True, tag_len, given, verdict, False)
        if r != code:
            raise Failed("vg_aes_gcm_stream_verify, verdict %d: returned %d, not %d" % (verdict, r, code))
        compare(out, want, "vg_aes_gcm_stream_decrypt output")
        if len(declassified) != 1 or any(b != B.ZERO for b in declassified[0][1:]):
            raise Failed("vg_aes_gcm_stream_verify: not one verdict of 0 or 1 declassified")
        verdicts.append(B.normalize(declassified[0][0]))
    if verdicts[0] != verdicts[1]:
        raise Failed("vg_aes_gcm_stream_verify: the two runs declassified different verdicts")
    if not smt.is_or(verdicts[0], delta):
        raise Failed("vg_aes_gcm_stream_verify: the verdict is not 'the tags differ' (z3 found a counterexample)")


# ---- CCM through the public API (issue 33, item 3) ------------------------------------------------

# AAD from 2^16 - 2^8 bytes takes CCM's 6-byte length encoding (0xff 0xfe [a]_32) and a CBC-MAC chain
# of thousands of blocks. With every S-box of every round a lut of its own, aesni's seal of 65,280
# bytes passed 17.8 GB unfinished; such cases take AES's rounds as uninterpreted functions instead
# (aes_model.OPAQUE: the instruction models and the spec's cipher meet the same word node for the same
# round input), which is sound for an identity of terms. The key set-up still runs computed, before
# it: its round keys are the ones aes.<impl>.ccm_init proves.
CCM_OPAQUE_AAD = (1 << 16) - (1 << 8)


@contextlib.contextmanager
def opaque_rounds(on):
    from . import aes_model as A
    old, A.OPAQUE = A.OPAQUE, on
    try:
        yield
    finally:
        A.OPAQUE = old


def ccm_key(m, key_len):
    """A CCM key object from vg_aes_ccm_init on the symbolic key (its schedule is the one
    aes.<impl>.ccm_init proves)."""
    key = sym_bytes("key", key_len)
    kobj = m.mem.alloc("key object", KEY_OBJ).base
    kp = place(m, "key bytes", key)
    r = rc(m.call("vg_aes_ccm_init", [ptr(kobj), ptr(kp), i64(key_len)]))
    if r != 0:
        raise Failed("vg_aes_ccm_init returned %d" % r)
    return key, kobj


def ob_ccm_seal(m, impl, key_len, nonce_len, aad_len, length, tag_len):
    """vg_aes_ccm_seal on a symbolic key, nonce, AAD and payload equals SP 800-38C generation-encryption
    (spec_ccm.ccm): ciphertext and tag_len bytes of tag, nothing else written. No group sizes here:
    CBC-MAC is a chain, so the code's terms and the spec's are the same cipher calls on the same
    blocks, whatever the kernels fuse."""
    from . import spec_ccm as C
    key, kobj = ccm_key(m, key_len)
    nonce = sym_bytes("nonce", nonce_len)
    aad = sym_bytes("aad", aad_len)
    data = sym_bytes("in", length)
    np_ = place(m, "nonce", nonce)
    ap = place(m, "aad", aad)
    ip = place(m, "in", data)
    op = m.mem.alloc("out", max(length, 1)).base
    tp = m.mem.alloc("tag", 16).base
    before = [(r, list(r.bits)) for r in m.mem.regions if r.base not in (op, tp)]
    tag_before = m.mem.load(tp + tag_len, 16 - tag_len)
    with opaque_rounds(aad_len >= CCM_OPAQUE_AAD):
        r = rc(m.call("vg_aes_ccm_seal", [ptr(kobj), ptr(np_), i64(nonce_len), ptr(ap), i64(aad_len), ptr(ip),
                                          i64(length), ptr(op), ptr(tp), i64(tag_len)]))
        if r != 0:
            raise Failed("vg_aes_ccm_seal returned %d" % r)
        _unchanged(m, before, "vg_aes_ccm_seal")
        if m.mem.load(tp + tag_len, 16 - tag_len) != tag_before:
            raise Failed("vg_aes_ccm_seal wrote past the tag's %d bytes" % tag_len)
        want, tag = C.ccm(key, key_len, nonce, aad, data, tag_len)
        compare(m.mem.load(op, length) if length else [], want, "vg_aes_ccm_seal ciphertext")
        compare(m.mem.load(tp, tag_len), tag, "vg_aes_ccm_seal tag")


def ob_ccm_open(m, impl, key_len, nonce_len, aad_len, length, tag_len, again):
    """vg_aes_ccm_open equals SP 800-38C decryption-verification: VG_OK with the payload when the
    tag_len bytes given are the spec's tag, else VG_ERR_AUTH with out all zero. The verdict is split as
    in ob_gcm_open: the tag given is T XOR delta (T the spec's tag, delta free), two runs with the
    verdict taken as 0 and as 1, and z3 decides that the verdict declassified is the OR of delta."""
    from . import smt, spec_ccm as C
    key, nonce, aad, data = (sym_bytes(n, k) for n, k in (("key", key_len), ("nonce", nonce_len),
                                                          ("aad", aad_len), ("in", length)))
    opaque = aad_len >= CCM_OPAQUE_AAD
    with opaque_rounds(opaque):
        want, tag = C.ccm(key, key_len, nonce, aad, data, tag_len, decrypt=True)
    delta = sym_bytes("delta", tag_len)
    given = [B.normalize(t) ^ d for t, d in zip(tag, delta)]
    verdicts = []
    for verdict, code in ((0, 0), (1, -5)):
        m = m if verdict == 0 else again()
        _, kobj = ccm_key(m, key_len)
        np_ = place(m, "nonce", nonce)
        ap = place(m, "aad", aad)
        ip = place(m, "in", data)
        tp = place(m, "tag", given)
        op = m.mem.alloc("out", max(length, 1)).base
        m.verdict, m.declassified = verdict, []
        before = [(r, list(r.bits)) for r in m.mem.regions if r.base != op]
        with opaque_rounds(opaque):
            r = rc(m.call("vg_aes_ccm_open", [ptr(kobj), ptr(np_), i64(nonce_len), ptr(ap), i64(aad_len),
                                              ptr(ip), i64(length), ptr(tp), i64(tag_len), ptr(op)]))
        _unchanged(m, before, "vg_aes_ccm_open")
        if r != code:
            raise Failed("vg_aes_ccm_open, verdict %d: returned %d, not %d" % (verdict, r, code))
        out = m.mem.load(op, length) if length else []
        if verdict == 0:
            compare(out, want, "vg_aes_ccm_open payload")
        elif any(b != B.ZERO for b in out):
            raise Failed("vg_aes_ccm_open, verdict 1: out not zeroed")
        if len(m.declassified) != 1 or any(b != B.ZERO for b in m.declassified[0][1:]):
            raise Failed("vg_aes_ccm_open: not one verdict of 0 or 1 declassified")
        verdicts.append(B.normalize(m.declassified[0][0]))
    if verdicts[0] != verdicts[1]:
        raise Failed("vg_aes_ccm_open: the two runs declassified different verdicts")
    if not smt.is_or(verdicts[0], delta):
        raise Failed("vg_aes_ccm_open: the verdict is not 'the tags differ' (z3 found a counterexample)")


# ---- GCM batches through the public API (issue 33, item 3; the calls of issue 34) -----------------

BATCH_MSG = 72  # sizeof(vg_aes_gcm_batch_msg): nine 8-byte fields (vg.h), in this order
BATCH_FIELDS = ("nonce", "nonce_len", "aad", "aad_len", "in", "len", "out", "tag", "tag_len")


def _gcm_batch_run(m, impl, key_len, msgs, open_, tags, verdicts):
    """One vg_aes_gcm_seal_batch (or _open_batch with the given tag bits per message, the verdicts'
    declassifications taken in order as verdicts) over msgs = [(aad bytes, data bytes)], each with a
    12-byte nonce and a 16-byte tag, message i's inputs named nonce/aad/in with suffix i (none for
    message 0, whose names are the one-shot obligations'). Returns (code, results[], [(out, tag)])."""
    key, kobj, powers = gcm_key_free_powers(m, impl, key_len, False)
    arr = m.mem.alloc("msgs", BATCH_MSG * len(msgs)).base
    res = m.mem.alloc("results", 4 * len(msgs)).base
    outs = []
    for i, (al, ln) in enumerate(msgs):
        sfx = "" if i == 0 else str(i)
        f = {"nonce": place(m, "nonce" + sfx, sym_bytes("nonce" + sfx, 12)), "nonce_len": 12,
             "aad": place(m, "aad" + sfx, sym_bytes("aad" + sfx, al)), "aad_len": al,
             "in": place(m, "in" + sfx, sym_bytes("in" + sfx, ln)), "len": ln,
             "out": m.mem.alloc("out" + sfx, max(ln, 1)).base,
             "tag": place(m, "tag" + sfx, tags[i]) if open_ else m.mem.alloc("tag" + sfx, 16).base,
             "tag_len": 16}
        for j, name in enumerate(BATCH_FIELDS):
            m.mem.store(arr + BATCH_MSG * i + 8 * j, B.const_bits(f[name], 64))
        outs.append((f["out"], f["tag"], ln))
    m.verdict, m.declassified = (list(verdicts) if open_ else None), []
    writable = {o for o, _, _ in outs} | {res} | (set() if open_ else {t for _, t, _ in outs})
    before = [(r, list(r.bits)) for r in m.mem.regions if r.base not in writable]
    fn = "vg_aes_gcm_open_batch" if open_ else "vg_aes_gcm_seal_batch"
    r = rc(m.call(fn, [ptr(kobj), ptr(arr), i64(len(msgs)), ptr(res)]))
    _unchanged(m, before, fn)
    results = [rc(m.mem.load(res + 4 * i, 4)) for i in range(len(msgs))]
    got = [(m.mem.load(o, ln) if ln else [], None if open_ else m.mem.load(t, 16)) for o, t, ln in outs]
    return r, results, got, m.declassified


def ob_gcm_batch(m, impl, key_len, msgs, open_, again):
    """vg_aes_gcm_seal_batch / vg_aes_gcm_open_batch over messages of the given (AAD, data) lengths
    equal the one-shot calls message by message (vg.h: a batch is exactly that loop): each message's
    bytes are GCM-AE's, each open returns VG_OK with GCM-AD's plaintext exactly when its own tag
    matches, else VG_ERR_AUTH with its out zeroed, results[] holds each code and the return is the
    first code other than VG_OK. Consecutive messages of the same short lengths go through a
    two-message kernel where the implementation has one (vaes256), in which the two messages' GHASH
    sums are computed side by side.

    Group sizes: the one-shot seal of each message's lengths (SEAL_GROUPS, or a seal run here, proved
    on the way) gives the one-shot's, and the whole-message shapes (_s_candidates) are tried beside
    them for the two-message kernel; any split is GHASH (spec_gcm), _pick chooses, the comparison
    proves. Open: message i's tag given is
    T_i XOR delta_i, and every combination of verdicts is run (2^n runs), each declassification taken
    in message order; each verdict must be the OR of its own message's delta (z3), the same term in
    every run, so no message's verdict depends on another's tag."""
    from . import smt, spec_gcm as G
    seen = {}
    B.reset_products(True, linear=True)  # (every run below meets these names)
    for al, ln in msgs:
        if (al, ln) not in seen:
            seen[(al, ln)] = SEAL_GROUPS.get((impl, key_len, 12, al, ln)) or \
                ob_gcm_seal(again(), impl, key_len, 12, al, ln, 16, False)
    names = [("" if i == 0 else str(i)) for i in range(len(msgs))]
    inputs = [[sym_bytes(n + s, k) for n, k in (("nonce", 12), ("aad", al), ("in", ln))]
              for s, (al, ln) in zip(names, msgs)]
    powers = gcm_powers(impl)
    key = sym_bytes("key", key_len)
    k = len(powers)

    def cands(i):
        al, ln = msgs[i]
        jg, sg = seen[(al, ln)]
        return jg, _unique([sg] + _s_candidates((al + 15) // 16, (ln + 15) // 16, k))

    def spec(i, sg, decrypt=False):
        nonce, aad, data = inputs[i]
        return G.gcm(key, key_len, nonce, aad, data, powers, [], sg, decrypt)

    if not open_:
        r, results, got, _ = _gcm_batch_run(again(), impl, key_len, msgs, False, None, ())
        if r != 0 or any(results):
            raise Failed("vg_aes_gcm_seal_batch returned %d, results %s" % (r, results))
        for i, (out, tag) in enumerate(got):
            jg, cs = cands(i)
            sg = _pick(tag, cs, [key] + inputs[i] + powers,
                       lambda c, g: G.gcm(c[0], key_len, c[1], c[2], c[3], c[4:], jg, g)[1])
            want, wtag = spec(i, sg)
            compare(out, want, "vg_aes_gcm_seal_batch message %d ciphertext" % i)
            compare(tag, wtag, "vg_aes_gcm_seal_batch message %d tag" % i)
        return
    # open: the spec's tags need the group sizes the batch's seal takes (the same kernels, both ways)
    r, results, got, _ = _gcm_batch_run(again(), impl, key_len, msgs, False, None, ())
    plain, deltas, given = [], [], []
    for i, (_, tag) in enumerate(got):
        jg, cs = cands(i)
        sg = _pick(tag, cs, [key] + inputs[i] + powers,
                   lambda c, g: G.gcm(c[0], key_len, c[1], c[2], c[3], c[4:], jg, g)[1])
        compare(tag, spec(i, sg)[1], "vg_aes_gcm_seal_batch message %d tag" % i)
        want, t = spec(i, sg, decrypt=True)
        d = sym_bytes("delta" + names[i], 16)
        plain.append(want)
        deltas.append(d)
        given.append([B.normalize(x) ^ y for x, y in zip(t, d)])
    verdicts = None
    for combo in range(1 << len(msgs)):
        vs = [(combo >> i) & 1 for i in range(len(msgs))]
        r, results, got, decl = _gcm_batch_run(again(), impl, key_len, msgs, True, given, vs)
        want_codes = [-5 if v else 0 for v in vs]
        first = next((c for c in want_codes if c), 0)
        if results != want_codes or r != first:
            raise Failed("vg_aes_gcm_open_batch, verdicts %s: returned %d, results %s" % (vs, r, results))
        for i, (out, _) in enumerate(got):
            if vs[i] == 0:
                compare(out, plain[i], "vg_aes_gcm_open_batch message %d plaintext" % i)
            elif any(b != B.ZERO for b in out):
                raise Failed("vg_aes_gcm_open_batch, verdicts %s: message %d's out not zeroed" % (vs, i))
        if len(decl) != len(msgs) or any(b != B.ZERO for d in decl for b in d[1:]):
            raise Failed("vg_aes_gcm_open_batch: not one verdict of 0 or 1 declassified per message")
        terms = [B.normalize(d[0]) for d in decl]
        if verdicts is None:
            verdicts = terms
        elif terms != verdicts:
            raise Failed("vg_aes_gcm_open_batch: the runs declassified different verdicts")
    for i, v in enumerate(verdicts):
        if not smt.is_or(v, deltas[i]):
            raise Failed("vg_aes_gcm_open_batch: message %d's verdict is not 'its tags differ'" % i)


# ---- AES-GCM-SIV through the public API (RFC 8452) -------------------------------------------------
# vg_aes_gcm_siv_seal and vg_aes_gcm_siv_open derive the POLYVAL key H and K_enc per message
# (src/modes/gcm_siv.c). Two paths:
#   the general path (every implementation; and VAES with a 24-byte key or a longer message): the
#     derivation's ECB call, impl->polyval_init(hkey, H), K_enc's expansion, polyval_update calls,
#     the tag block, aes_ctr32_le. polyval_init is replaced (_siv_free_powers) by one that writes free
#     powers E_1..E_k into the bytes the real init writes: the result is then proved for every table,
#     and gf.<impl>.polyval_init proves the table the real init writes holds the powers of its H,
#     which is compared here with the spec's derived H;
#   the VAES short path (vaes_siv.h: 16- and 32-byte keys, messages up to VG_X86_GCM_SIV_SHORT_MAX):
#     one kernel call that derives, expands and makes the powers it needs in registers. Up to
#     VV_SIV_OPEN_CTR_FIRST bytes nothing is replaced: the spec takes the true powers of its H
#     (spec_gf.power, squaring as the x86 kernels do) and the normal form of bits.py identifies the
#     kernel's. Past it the kernel calls siv_powers_group, replaced (_siv_powers_override) by its
#     specification with H^2..H^GROUP free, as polyval_init is on the general path, and proved by
#     gf.<impl>.siv_powers: there the stitched open's products of AES terms by true powers (degree
#     popcount(k) in H's bits) outgrew 20 GB.
SIV_SHORT_GROUP = {"vaes256": 16, "vaes512": 32}  # VV_GROUP: one reduction's blocks in vaes_siv.h
SIV_LANES = {"vaes256": 2, "vaes512": 4}  # VV_LANES: blocks a vector
# the function that makes every power for messages past VV_SIV_OPEN_CTR_FIRST (vaes_siv.h: never
# inlined, so that it can be proved once and used through its specification)
SIV_POWERS = {"vaes256": "vaes256_siv_powers_group", "vaes512": "vaes512_siv_powers_group"}


def _siv_pow_layout(powers, lanes):
    """vaes_siv.h struct siv_pow: entry t = H_(GROUP - t) at 16t for t < GROUP (vaes_body.h's hkey
    order), then LANES zero entries (the vector after H_1)."""
    out = []
    for e in reversed(powers):
        out += e
    return out + [B.ZERO] * (128 * lanes)


def ob_siv_powers(m, impl):
    """vaes_siv.h siv_powers_group on a symbolic H writes its table (struct siv_pow) with the POLYVAL
    powers H^1..H^GROUP and the zero entries after them, and writes nothing else; constant time on
    the same run, H secret. With it, _siv_powers_override is sound."""
    from . import spec_gf as F
    g, lanes = SIV_SHORT_GROUP[impl], SIV_LANES[impl]
    h = sym_bytes("h", 16)
    hp = m.mem.alloc("siv_pow", 16 * (g + lanes)).base
    fn = SIV_POWERS[impl]
    before = [(r, list(r.bits)) for r in m.mem.regions if r.base != hp]
    m.call(fn, [ptr(hp), h])
    _unchanged(m, before, fn)
    memo = {}
    want = _siv_pow_layout([F.power(F.dot, h, j, memo) for j in range(1, g + 1)], lanes)
    compare(m.mem.load(hp, 16 * (g + lanes)), want, fn + " table")


def _siv_powers_override(m, impl):
    """Replaces siv_powers_group (VAES's short kernel calls it for messages past 4 KiB) by its
    specification with the powers H^2..H^GROUP free: it records its argument H and writes the table's
    layout of [H, E_2, .., E_GROUP] and the zero entries. Sound with gf.<impl>.siv_powers, which proves
    on a symbolic H, with constant time, that the function writes exactly that layout of H's true
    powers and nothing else: E_k then stands for H^k, the obligation holding for every value of it.
    H^1 stays the argument itself, since the kernel also multiplies by h1 from its register (the
    length block). Returns the H arguments recorded."""
    g, lanes = SIV_SHORT_GROUP[impl], SIV_LANES[impl]
    seen = []

    def run(mach, args):
        hp = B.const_value(args[0])
        if hp is None:
            raise CTViolation("siv_powers_group's table through a secret pointer")
        h = list(args[1])
        seen.append(h)
        mach.mem.store(hp, _siv_pow_layout([h] + [sym_bytes(("pow", j), 16) for j in range(2, g + 1)], lanes))
        return None

    m.overrides[SIV_POWERS[impl]] = run
    return seen


def _siv_free_powers(m, impl):
    """Replaces impl's polyval_init for one run: the real init runs first (products as word nodes:
    its powers are overwritten), which shows which bits of the hkey it writes; those bits then get
    the layout's bits for free powers E_1..E_k (layouts.hkey), and every other bit stays unwritten,
    as the real run leaves it (the mode does not zero the hkey: an update that read such a bit would
    read an undefined value and fail). Sound with gf.<impl>.polyval_init, which proves the real init
    writes the layout of the powers of its argument H: provided that what it writes does not depend
    on what the hkey held before (checked: no undefined value reaches the bits it writes) and that it
    writes every bit where the layout holds a power (checked). Returns (the H arguments recorded, the
    free powers)."""
    from . import layouts
    fn = gf_function(impl, "polyval_init")
    k, writer = layouts.hkey(impl, "polyval")
    powers = [sym_bytes(("pow", j), 16) for j in range(1, k + 1)]
    want = writer(powers)
    seen = []

    def init(mach, args):
        hk, hp = B.const_value(args[0]), B.const_value(args[1])
        r, off = mach.mem.find(hk, layouts.HKEY_SIZE)
        lo, hi = 8 * off, 8 * (off + layouts.HKEY_SIZE)
        if any(b is not None for b in r.bits[lo:hi]):
            raise Failed("%s: the hkey was written before the init" % fn)
        seen.append(mach.mem.load(hp, 16))
        del mach.overrides[fn]
        B.set_products(False)
        try:
            mach.call(fn, args)
        finally:
            B.set_products(True)
            mach.overrides[fn] = init
        wrote = r.bits[lo:hi]
        names, done = set(), set()
        for b in wrote:
            if b is not None:
                _collect(b, names, done)
        if any(isinstance(n, tuple) and str(n[0]).startswith(("undef", "poison")) for n in names):
            raise Failed("%s: what it writes depends on what the hkey held before" % fn)
        if any(b is None and w != B.ZERO for b, w in zip(wrote, want)):
            raise Failed("%s: leaves bits of the powers' layout unwritten" % fn)
        r.bits[lo:hi] = [None if b is None else w for b, w in zip(wrote, want)]
        return None

    m.overrides[fn] = init
    return seen, powers


def _siv_short_groups(impl, aad_len, length):
    """POLYVAL's group sizes in vaes_siv.h siv_polyval (a public function of the lengths): the whole
    message in one sum when its a + d + 1 blocks fit one group; else the AAD in pieces of GROUP
    blocks (the last one partial), the data likewise, the length block joining the data's last piece
    when that is short of GROUP blocks, else alone. (The stitched open hashes the same pieces.)"""
    g = SIV_SHORT_GROUP[impl]
    a, d = (aad_len + 15) // 16, (length + 15) // 16
    if a + d + 1 <= g:
        return [a + d + 1]
    dd = _split(d, g)
    if dd and dd[-1] < g:
        dd[-1] += 1
    else:
        dd.append(1)
    return _split(a, g) + dd


def _siv_run(m, impl, key_len, aad_len, length, tag, verdict, fresh):
    """One run of vg_aes_gcm_siv_seal (tag None) or vg_aes_gcm_siv_open (tag: the bits given, the
    verdict's declassification taken as verdict) on a symbolic key, nonce, AAD and input. Returns
    (return code, out, the tag written (seal), the polyval_update log, what was declassified, the H
    recorded by polyval_init (None on the short path), the free powers, the inputs)."""
    if fresh:
        # (top_rows: named by the largest atom, as the powers of a key set-up are; measured, it halves
        # the VAES short path's time, which makes the powers of H itself, and helps the others too)
        B.reset_products(True, top_rows=True, linear=True)
    key = sym_bytes("key", key_len)
    kobj = m.mem.alloc("key object", KEY_OBJ).base
    kp = place(m, "key bytes", key)
    r = rc(m.call("vg_aes_gcm_siv_init", [ptr(kobj), ptr(kp), i64(key_len)]))
    if r != 0:
        raise Failed("vg_aes_gcm_siv_init returned %d" % r)
    nonce = sym_bytes("nonce", 12)
    aad = sym_bytes("aad", aad_len)
    data = sym_bytes("in", length)
    np_ = place(m, "nonce", nonce)
    ap = place(m, "aad", aad)
    ip = place(m, "in", data)
    op = m.mem.alloc("out", max(length, 1)).base
    seen, powers = _siv_free_powers(m, impl)
    seen_p = _siv_powers_override(m, impl) if impl in SIV_POWERS else []
    log = _observe_updates(m, impl, "polyval")
    if tag is None:
        fn = "vg_aes_gcm_siv_seal"
        tp = m.mem.alloc("tag", 16).base
        written = (op, tp)
        args = [ptr(ip), i64(length), ptr(op), ptr(tp), i64(16)]
    else:
        fn = "vg_aes_gcm_siv_open"
        tp = place(m, "tag", tag)
        written = (op,)
        args = [ptr(ip), i64(length), ptr(tp), i64(16), ptr(op)]
        m.verdict, m.declassified = verdict, []
    before = [(r, list(r.bits)) for r in m.mem.regions if r.base not in written]
    r = rc(m.call(fn, [ptr(kobj), ptr(np_), i64(12), ptr(ap), i64(aad_len)] + args))
    _unchanged(m, before, fn)
    if len(seen) + len(seen_p) > 1:
        raise Failed("%s: %d POLYVAL keys set up, not one" % (fn, len(seen) + len(seen_p)))
    out = m.mem.load(op, length) if length else []
    hrec = ("init", seen[0]) if seen else ("powers", seen_p[0]) if seen_p else None
    return (r, out, m.mem.load(tp, 16) if tag is None else None, log, getattr(m, "declassified", None),
            hrec, powers, (key, nonce, aad, data))


def _siv_spec_keys(impl, fn, hrec, log, inputs, free, aad_len, length):
    """(the powers, POLYVAL's group sizes) the spec takes for a run. General path (polyval_init was
    called): the recorded H must be the spec's derived H, the powers are the free ones, the groups
    those of the update calls (as gf_groups splits each; the update obligations prove it). Short
    path: no init and no update call; vaes_siv.h's groups, and the true powers of the spec's H, or,
    where siv_powers_group was called, the spec's H and the free powers after it (the recorded H
    must be the spec's)."""
    from . import spec_gf as F, spec_siv as V
    key, nonce, aad, data = inputs
    h, _ = V.derive_keys(key, len(key) // 8, nonce)
    if hrec is not None and hrec[0] == "init":
        compare(hrec[1], h, fn + ": polyval_init's H")
        _, cands = _groups_of_run(impl, log, 12)
        groups = cands[0] if cands else []
        _check_groups(groups, (aad_len + 15) // 16 + (length + 15) // 16 + 1, fn + " POLYVAL")
        return free, groups
    if log or impl not in SIV_SHORT_GROUP:
        raise Failed("%s: neither polyval_init nor the whole-message kernel" % fn)
    groups = _siv_short_groups(impl, aad_len, length)
    if hrec is not None:
        # past VV_SIV_OPEN_CTR_FIRST: the powers of siv_powers_group's specification
        compare(hrec[1], h, fn + ": siv_powers_group's H")
        return [h] + free[1:max(groups)], groups
    memo = {}
    return [F.power(F.dot, h, j, memo) for j in range(1, max(groups) + 1)], groups


def ob_siv_seal(m, impl, key_len, aad_len, length):
    """vg_aes_gcm_siv_seal on a symbolic key, nonce, AAD and plaintext equals RFC 8452 §4
    (spec_siv.siv): the ciphertext and the 16-byte tag, nothing else written."""
    from . import spec_siv as V
    r, out, got, log, _, hrec, free, inputs = _siv_run(m, impl, key_len, aad_len, length, None, None, True)
    if r != 0:
        raise Failed("vg_aes_gcm_siv_seal returned %d" % r)
    powers, groups = _siv_spec_keys(impl, "vg_aes_gcm_siv_seal", hrec, log, inputs, free, aad_len, length)
    key, nonce, aad, data = inputs
    want, tag = V.siv(key, key_len, nonce, aad, data, powers, groups)
    compare(out, want, "vg_aes_gcm_siv_seal ciphertext")
    compare(got, tag, "vg_aes_gcm_siv_seal tag")


def ob_siv_open(m, impl, key_len, aad_len, length, again):
    """vg_aes_gcm_siv_open equals RFC 8452 §5 with its verdict: on a symbolic key, nonce, AAD,
    ciphertext and tag T it returns VG_OK with the plaintext P = C ^ keystream(T | bit 127) when the
    tag E the spec computes over P equals T, and otherwise VG_ERR_AUTH with all of out zeroed.

    As ob_gcm_open: the verdict is the one value declassified, and two runs take it as 0 (VG_OK, out
    = the spec's P) and 1 (VG_ERR_AUTH, out all zero), the same term in both. Unlike GCM, E depends on
    T (the counter comes from it), so no choice of T makes the comparison cancel to a free delta.
    Instead the differences D_i = E_i ^ T_i (E_i the spec's terms) are generalized: z3 shows that the
    verdict, with every subterm equal to some D_i replaced by a fresh delta_i, is OR(delta) for all
    values of the deltas and of everything else (smt.is_or with abstract). That holds in particular
    for delta_i = D_i, so the verdict is 0 exactly when E = T."""
    from . import smt, spec_siv as V
    tag = sym_bytes("tag", 16)
    runs = []
    for verdict, code in ((0, 0), (1, -5)):
        run = _siv_run(m if not runs else again(), impl, key_len, aad_len, length, tag, verdict, not runs)
        r, out, _, log, declassified, hrec, free, inputs = run
        if r != code:
            raise Failed("vg_aes_gcm_siv_open, verdict %d: returned %d, not %d" % (verdict, r, code))
        if len(declassified) != 1:
            raise Failed("vg_aes_gcm_siv_open declassified %d values, not its one verdict" % len(declassified))
        if any(b != B.ZERO for b in declassified[0][1:]):
            raise Failed("vg_aes_gcm_siv_open: the declassified verdict is not 0 or 1")
        if verdict == 1 and any(b != B.ZERO for b in out):
            raise Failed("vg_aes_gcm_siv_open, verdict 1: out not zeroed")
        runs.append(run)
    (_, out, _, log, dec0, hrec, free, inputs), (_, _, _, log1, dec1, hrec1, _, _) = runs
    if log != log1 or (hrec is None) != (hrec1 is None):
        raise Failed("vg_aes_gcm_siv_open: the two runs took different paths before the verdict")
    powers, groups = _siv_spec_keys(impl, "vg_aes_gcm_siv_open", hrec, log, inputs, free, aad_len, length)
    if hrec1 is not None:
        if hrec1[0] != hrec[0]:
            raise Failed("vg_aes_gcm_siv_open: the two runs took different paths before the verdict")
        compare(hrec1[1], hrec[1], "vg_aes_gcm_siv_open: the POLYVAL key's H in the second run")
    key, nonce, aad, data = inputs
    want, expected = V.siv(key, key_len, nonce, aad, data, powers, groups, decrypt=True, tag=tag)
    compare(out, want, "vg_aes_gcm_siv_open plaintext")
    v0, v1 = B.normalize(dec0[0][0]), B.normalize(dec1[0][0])
    if v0 != v1:
        raise Failed("vg_aes_gcm_siv_open: the two runs declassified different verdicts")
    diffs = [B.normalize(e) ^ B.normalize(t) for e, t in zip(expected, tag)]
    if not smt.is_or(v0, diffs, abstract=True):
        raise Failed("vg_aes_gcm_siv_open: the verdict is not 'the tags differ' (z3 found a counterexample)")
