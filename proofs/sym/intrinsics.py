# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""intrinsics.py -- the target-independent LLVM intrinsics vg's IR uses, the x86-64 instruction
models, and inline assembly.

x86 models follow the Intel SDM's pseudo-code (vol. 2): AESENC/AESENCLAST/AESDEC/AESDECLAST/AESIMC
and their VAES forms (the same operation on each 128-bit lane), VPTERNLOG, PCLMULQDQ. Each is
validated against the instruction on this CPU by proofs/tests/validate_x86.py (ctest
prove.model_x86), on random and edge inputs. Inline assembly: the empty barriers `""` are the
identity on their tied operands; cpuid and xgetbv return a modelled CPU (feature bits below) so
that the library's own detection code chooses the implementation under proof.
"""
from . import aes_model as A
from . import bits as B
from .exec import Unsupported, cval


def _lanes(f, nargs=2):
    def run(m, ins, args, name):
        a = args[0]
        out = []
        for i in range(0, len(a), 128):
            out += f(*[x[i:i + 128] for x in args[:nargs]])
        return out
    return run


_MEMO = {}


def _memo(f):
    """The same model on the same terms gives the same terms: computed once per process (the lanes of
    every implementation, and every length class, meet the same blocks)."""
    def run(*args):
        key = (f.__name__, A.OPAQUE) + tuple(tuple(a) for a in args)
        r = _MEMO.get(key)
        if r is None:
            r = f(*args)
            _MEMO[key] = r
        return list(r)
    run.__name__ = f.__name__
    return run


# Intel SDM vol. 2, AESENC: STATE <- ShiftRows(SRC1); SubBytes; MixColumns; DEST <- STATE XOR SRC2.
@_memo
def aesenc(s, k):
    return A.xor(A.round_f(s), k)  # MixColumns(SubBytes(ShiftRows(s)))


# AESENCLAST: ShiftRows, SubBytes, XOR (no MixColumns).
@_memo
def aesenclast(s, k):
    return A.xor(A.round_last(s), k)  # SubBytes(ShiftRows(s))


# AESDEC: InvShiftRows, InvSubBytes, InvMixColumns, XOR (the Equivalent Inverse Cipher's round).
@_memo
def aesdec(s, k):
    return A.xor(A.inv_mix_columns(A.inv_sub_bytes(A.inv_shift_rows(s))), k)


# AESDECLAST: InvShiftRows, InvSubBytes, XOR.
@_memo
def aesdeclast(s, k):
    return A.xor(A.inv_sub_bytes(A.inv_shift_rows(s)), k)


# AESIMC: InvMixColumns.
@_memo
def aesimc(s):
    return A.inv_mix_columns(s)


def clmul64(a, b):
    """Carry-less product of two 64-bit values (bits), one of them constant: bit k is XOR_{i+j=k}
    a_i b_j, a XOR of shifted copies of the other (a reduction's multiply by its constant)."""
    if B.const_value(a) is not None:
        a, b = b, a
    c = B.const_value(b)
    if c is None:
        out = [B.ZERO] * 128
        for i in range(64):
            if a[i] == B.ZERO:
                continue
            for j in range(64):
                out[i + j] = out[i + j] ^ B.band(a[i], b[j])
        return out
    out = [set() for _ in range(128)]
    for j in range(64):
        if (c >> j) & 1:
            for i in range(64):
                out[i + j] ^= a[i]
    return [frozenset(s) for s in out]


def _clmul_int(x, y):
    r = 0
    while y:
        if y & 1:
            r ^= x
        x <<= 1
        y >>= 1
    return r


B.GENERIC_FNS["clmul64"] = _clmul_int


def clmul_word(a, b):
    """The carry-less product of two 64-bit values: in the products' normal form (bits.py) in the
    GHASH/POLYVAL obligations, as an opaque word node in the AES ones, which only carry the powers of a
    GCM key's H along."""
    if B.const_value(a) is not None or B.const_value(b) is not None:
        return clmul64(a, b)
    if B.PRODUCTS:
        return B.clmul(a, b)
    return B.generic("clmul64", [a, b], 128, _clmul_int)


def pclmulqdq(m, ins, args, name):
    a, b, imm = args
    imm = cval(imm, "pclmulqdq selector from a secret")
    halves = [(a[i + (64 if imm & 0x01 else 0):][:64], b[i + (64 if imm & 0x10 else 0):][:64])
              for i in range(0, len(a), 128)]
    if B.PRODUCTS:
        # every lane's factors named together (bits.name_forms picks pivots knowing them all)
        B.name_forms([f for x, _ in halves for f in x])
        B.name_forms([f for _, y in halves for f in y])
    out = []
    for x, y in halves:
        out += clmul_word(x, y)
    return out


def _anf(imm):
    """The algebraic normal form of the 3-input table imm (bit x<<2 | y<<1 | z): the monomials (bit
    masks over x = 4, y = 2, z = 1) whose XOR it is, by the Moebius transform."""
    c = [(imm >> i) & 1 for i in range(8)]
    for bit in (1, 2, 4):
        for i in range(8):
            if i & bit:
                c[i] ^= c[i ^ bit]
    return [i for i in range(8) if c[i]]


def pternlog(m, ins, args, name):
    a, b, c, imm = args
    imm = cval(imm, "vpternlog table from a secret")
    monos = _anf(imm)
    out = []
    for x, y, z in zip(a, b, c):
        # the table's ANF: a linear table (vv_xor3's 0x96) is a XOR, with no AND to normalise
        r = B.ZERO
        for mono in monos:
            t = B.ONE
            for v, bit in ((x, 4), (y, 2), (z, 1)):
                if mono & bit:
                    t = B.band(t, v)
            r = r ^ t
        out.append(r)
    return out


# ---- target-independent ---------------------------------------------------------------------------

def _memcpy(m, ins, args, name):
    dst, src, n = args[0], args[1], args[2]
    d = cval(dst, "memcpy to a secret address")
    s = cval(src, "memcpy from a secret address")
    n = cval(n, "memcpy of a secret length")
    if n:
        m.mem.store(d, m.mem.load(s, n))


def _memset(m, ins, args, name):
    d = cval(args[0], "memset at a secret address")
    n = cval(args[2], "memset of a secret length")
    if n:
        m.mem.store(d, args[1][:8] * n)


def _nothing(m, ins, args, name):
    return None


def _bswap(m, ins, args, name):
    (a,) = args[:1]
    ty = ins["ty"]
    t = m.m.resolve(ty)
    w = m.m.bits(t[2]) if t[0] == "vec" else len(a)
    out = []
    for i in range(0, len(a), w):
        e = a[i:i + w]
        out += [b for k in range(w // 8 - 1, -1, -1) for b in e[8 * k:8 * k + 8]]
    return out


def _fsh(m, ins, args, name):
    a, b, s = args
    t = m.m.resolve(ins["ty"])
    w = m.m.bits(t[2]) if t[0] == "vec" else len(a)
    out = []
    for i in range(0, len(a), w):
        sh = cval(s[i:i + w], "funnel shift by a secret") % w
        cat = b[i:i + w] + a[i:i + w]  # a:b, LSB first
        if name.startswith("llvm.fshl"):
            out += cat[w - sh:2 * w - sh]
        else:
            out += cat[sh:sh + w]
    return out


def _minmax(m, ins, args, name):
    a, b = args
    op = name.split(".")[1]
    t = m.m.resolve(ins["ty"])
    w = m.m.bits(t[2]) if t[0] == "vec" else len(a)
    out = []
    for i in range(0, len(a), w):
        x, y = a[i:i + w], b[i:i + w]
        fn = {"umax": max, "umin": min}.get(op)
        if fn is None:
            raise Unsupported(name)
        out += B.generic(op + str(w), [x, y], w, fn)
    return out


def _reduce_or(m, ins, args, name):
    (a,) = args
    w = m.m.bits(ins["ty"])
    out = [B.ZERO] * w
    for i in range(0, len(a), w):
        out = [B.bor(x, y) for x, y in zip(out, a[i:i + w])]
    return out


def _masked_load(m, ins, args, name):
    ptr, _align, mask, passthru = args
    t = m.m.resolve(ins["ty"])
    n, w = t[1], m.m.bits(t[2])
    base = cval(ptr, "masked load at a secret address")
    out = []
    for i in range(n):
        if cval(mask[i:i + 1], "masked load with a secret mask"):
            out += m.mem.load(base + i * w // 8, w // 8)
        else:
            out += passthru[i * w:(i + 1) * w]
    return out


def _masked_store(m, ins, args, name):
    val, ptr, _align, mask = args
    n = len(mask)
    w = len(val) // n
    base = cval(ptr, "masked store at a secret address")
    for i in range(n):
        if cval(mask[i:i + 1], "masked store with a secret mask"):
            m.mem.store(base + i * w // 8, val[i * w:(i + 1) * w])


# ---- inline assembly ------------------------------------------------------------------------------

# The modelled x86 CPU: every feature vg detects (SSSE3, SSE4.1, PCLMULQDQ, AES, OSXSAVE, AVX; BMI2, AVX2,
# AVX-512F/BW/VL, VAES, VPCLMULQDQ) and XCR0 with the XMM, YMM, opmask and ZMM states enabled.
CPUID = {
    (0, 0): (7, 0, 0, 0),
    (1, 0): (0, 0, (1 << 9) | (1 << 19) | (1 << 1) | (1 << 25) | (1 << 27) | (1 << 28), 0),
    (7, 0): (0, (1 << 8) | (1 << 5) | (1 << 16) | (1 << 30) | (1 << 31), (1 << 9) | (1 << 10), 0),
}
XCR0 = (1 << 1) | (1 << 2) | (1 << 5) | (1 << 6) | (1 << 7)


def _asm(m, ins, args):
    text, cons = ins["callee"][1], ins["callee"][2]
    parts = [c for c in cons.split(",") if not c.startswith("~")]
    outs = [c for c in parts if c.startswith("=")]
    ins_c = [c for c in parts if not c.startswith("=")]
    t = text.strip()
    if t == "":
        # an optimisation barrier: outputs are the tied inputs, unchanged
        if not outs:
            return None
        res = []
        for k in range(len(outs)):
            j = ins_c.index(str(k))
            res.append(args[j])
        return res[0] if len(res) == 1 else tuple(res)
    if "cpuid" in t:
        leaf = cval(args[0], "cpuid leaf")
        sub = cval(args[1], "cpuid subleaf") if len(args) > 1 else 0
        a, b, c, d = CPUID.get((leaf, sub), CPUID.get((leaf, 0), (0, 0, 0, 0)))
        # clang's cpuid.h: outputs eax, ebx (through a scratch register), ecx, edx
        return tuple(B.const_bits(v, 32) for v in (a, b, c, d))
    if t == "xgetbv":
        return (B.const_bits(XCR0, 32), B.const_bits(0, 32))
    raise Unsupported("inline assembly %r" % t)


X86 = {
    "llvm.x86.aesni.aesenclast": _lanes(aesenclast),
    "llvm.x86.aesni.aesenc": _lanes(aesenc),
    "llvm.x86.aesni.aesdeclast": _lanes(aesdeclast),
    "llvm.x86.aesni.aesdec": _lanes(aesdec),
    "llvm.x86.aesni.aesimc": _lanes(aesimc, 1),
    "llvm.x86.pclmulqdq": pclmulqdq,
    "llvm.x86.avx512.pternlog": pternlog,
}

COMMON = {
    "llvm.memcpy": _memcpy,
    "llvm.memmove": _memcpy,
    "llvm.memset": _memset,
    "llvm.lifetime": _nothing,
    "llvm.assume": _nothing,
    "llvm.experimental.noalias.scope.decl": _nothing,
    "llvm.bswap": _bswap,
    "llvm.fshl": _fsh,
    "llvm.fshr": _fsh,
    "llvm.umax": _minmax,
    "llvm.umin": _minmax,
    "llvm.vector.reduce.or": _reduce_or,
    "llvm.masked.load": _masked_load,
    "llvm.masked.store": _masked_store,
    "asm": _asm,
}
