# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""obligations.py -- what is proved: each obligation runs one public function of vg.h on symbolic
inputs, through the implementation table and the mode down to the kernel, and compares every output
bit with the spec transcription.

Inputs are named bits (key, in, counter), the same names in every obligation, so that the spec's
terms and the models' terms are computed once per process (bits.py interns them): the work of a
length class is mostly what is new in it.
"""
from . import bits as B
from . import spec_aes as S
from .exec import Machine, Unsupported
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

    return {"secure_getenv": getenv, "getenv": getenv, "strcmp": strcmp}


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
        g = B.evaluate([got[i] for i in bad], env)
        w = B.evaluate([want[i] for i in bad], env)
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
            "portable": 4}
# the updates whose remainder after the whole groups is one block at a time (ghash_ctmul.c); the
# others take it as one shorter group
GF_TAIL_SINGLE = {"portable"}
# the inits that compute H_k = H_(k-1) H (armv8_ghash.c, power8_ghash.c store_powers, ghash_ctmul.c
# hkey_set); the x86 ones square (spec_gf.power)
GF_LINEAR_INIT = {"armv8", "armv8-noeor3", "power8", "power9", "portable"}


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
