# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""asm_aarch64.py -- an interpreter for the AArch64 inline assembly of vg's armv8 sources, over the bit
algebra of bits.py, and the instruction semantics the armv8 models share (intrinsics_aarch64.py).

An `asm` call in the IR is its template text and LLVM's constraint string. The interpreter
  - parses the constraints: outputs ("=w", "=&w", "=r", "={v31}"), inputs ("w", "r", "0" tied to an
    output, "*m" a memory operand passed by address), clobbers ("~{v21}", "~{memory}", "~{cc}");
  - substitutes the operands into the template ($N, ${N}, ${N:q}; $$ is a dollar): an operand's
    register is a virtual one ("v@3", "x@5") unless the constraint names a physical register;
  - runs the instructions, one semantics each below, written from the Arm Architecture Reference
    Manual's pseudo-code (DDI 0487, section C7.2 for the SIMD&FP instructions, C6.2 for the base ones;
    the AES operations are FIPS 197's, as the Arm ARM's AESSubBytes/AESShiftRows/AESMixColumns are),
    with a register file of v0-v31 (128 bits), x0-x30 (64 bits) and NZCV, and memory through the
    executor's memory (addresses must be public: a secret address is a constant-time failure);
  - returns the outputs.

The interpreter also checks that the asm keeps its constraints' contract, because the compiler relies
on it and a proof of an asm that breaks it would be about code the compiler does not build:
  - a physical register the asm writes is clobbered or an output; one it reads was written first in
    the same asm (or is an operand); an input-only operand is never written;
  - a non-early-clobber output may share its register with an input (the compiler may allocate it so):
    no input is read after such an output was written (else the result depends on the allocation);
  - every output is written; memory is read only inside an "m" operand's object or with a "memory"
    clobber, and written only with a "memory" clobber or an "=*m" output;
  - an instruction of a feature the modelled CPU lacks (EOR3 without FEAT_SHA3, MRS of DIT without
    FEAT_DIT) is an error: it would be UNDEFINED;
  - on a CPU with FEAT_DIT, a data-processing instruction on secret operands while PSTATE.DIT = 0 is a
    constant-time failure (Arm guarantees data-independent timing only with DIT set).
Anything else (an instruction or an operand form not listed here) is an error, never skipped.

Every semantics is validated against the instruction under qemu-aarch64 (proofs/tests/
validate_aarch64.py, ctest prove.model_aarch64).
"""
import itertools
import re

from . import aes_model as A
from . import bits as B
from .exec import CTViolation, Unsupported, cval
from .intrinsics import clmul_word


class AsmError(Unsupported):
    """The asm uses what the interpreter does not define, or breaks its constraints' contract."""


_FRESH = itertools.count()


def _undef(what, n):
    k = next(_FRESH)
    return [B.var(("asm-undef", what, k, i)) for i in range(n)]


# ---- the modelled CPU ---------------------------------------------------------------------------------

class CPU:
    """What the library's feature detection sees, and PSTATE.DIT.
    features: a subset of {"aes", "pmull", "sha3", "dit", "cpuid"}; hwcap: getauxval(AT_HWCAP);
    pfr0: ID_AA64PFR0_EL1 as the kernel's MRS emulation shows it (with HWCAP_CPUID)."""

    def __init__(self, name, features, hwcap, pfr0=0):
        self.name = name
        self.features = frozenset(features)
        self.hwcap = hwcap
        self.pfr0 = pfr0
        self.dit = 0
        self.dit_checked = 0  # data-processing instructions on secrets run with DIT set (a count, for tests)
        self.check_dit = True  # the model validation runs symbolic inputs without DIT: it checks values only

    def need(self, feat, what):
        if feat not in self.features:
            raise AsmError("%s needs FEAT_%s, which the modelled CPU (%s) lacks: UNDEFINED there"
                           % (what, feat.upper(), self.name))

    def data(self, what, *operands):
        """A data-processing instruction on these operands: with FEAT_DIT, secrets need PSTATE.DIT."""
        if "dit" not in self.features or not self.check_dit:
            return
        for op in operands:
            for b in op:
                if not B.is_const(b):
                    if not self.dit:
                        raise CTViolation("%s on secret data with PSTATE.DIT clear (CPU with FEAT_DIT)" % what)
                    self.dit_checked += 1
                    return


# ---- instruction semantics (Arm ARM pseudo-code) on bit lists ----------------------------------------

_MEMO = {}


def _memo(f):
    def run(*args):
        key = (f.__name__, A.OPAQUE) + tuple(tuple(a) for a in args)
        r = _MEMO.get(key)
        if r is None:
            r = f(*args)
            _MEMO[key] = r
        return list(r)
    run.__name__ = f.__name__
    return run


# AESE: result = operand1 EOR operand2; result = AESSubBytes(AESShiftRows(result)).
@_memo
def aese(d, n):
    return A.round_last(A.xor(d, n))  # SubBytes(ShiftRows(.))


# AESD: result = operand1 EOR operand2; result = AESInvSubBytes(AESInvShiftRows(result)).
@_memo
def aesd(d, n):
    return A.inv_sub_bytes(A.inv_shift_rows(A.xor(d, n)))


# AESMC: V[d] = AESMixColumns(V[n]).
@_memo
def aesmc(n):
    return A.mix_columns_of(n)


# AESIMC: V[d] = AESInvMixColumns(V[n]).
@_memo
def aesimc(n):
    return A.inv_mix_columns(n)


def _clmul_small(x, y):
    r = 0
    while y:
        if y & 1:
            r ^= x
        x <<= 1
        y >>= 1
    return r


B.GENERIC_FNS["clmul8"] = _clmul_small


def polymul(a, b):
    """PolynomialMult(op1, op2) of two esize-bit elements: a 2*esize-bit carry-less product."""
    if len(a) == 64:
        return clmul_word(a, b)
    return B.generic("clmul%d" % len(a), [a, b], 2 * len(a), _clmul_small)


B.GENERIC_FNS["clmul16"] = _clmul_small
B.GENERIC_FNS["clmul32"] = _clmul_small


def pmull(n, m, esize, part):
    """PMULL/PMULL2: for e in 0..64/esize-1: Elem[result, e, 2*esize] = PolynomialMult(Elem[operand1, e,
    esize], Elem[operand2, e, esize]), operand = Vpart[n, part] (the low or the high 64 bits)."""
    lo = 64 * part
    out = []
    for e in range(64 // esize):
        out += polymul(n[lo + e * esize: lo + (e + 1) * esize], m[lo + e * esize: lo + (e + 1) * esize])
    return out


def eor3(n, m, a):
    # EOR3: Vd = Vn EOR Vm EOR Va
    return [x ^ y ^ z for x, y, z in zip(n, m, a)]


def tbl(table, idx):
    """TBL: for i: index = UInt(Elem[indices, i, 8]); Elem[result, i, 8] = index < 16*regs ?
    Elem[table, index, 8] : 0. table is the concatenation of the list's registers."""
    out = []
    for i in range(len(idx) // 8):
        v = B.const_value(idx[8 * i:8 * i + 8])
        if v is None:
            raise AsmError("TBL with a secret index (not modelled)")
        out += table[8 * v:8 * v + 8] if 8 * v < len(table) else [B.ZERO] * 8
    return out


def rev(n, esize, container):
    """REV16/REV32/REV64: reverse the esize-bit elements within each container-bit container."""
    out = []
    per = container // esize
    for c in range(0, len(n), container):
        for e in range(per - 1, -1, -1):
            out += n[c + e * esize: c + (e + 1) * esize]
    return out


def ext(n, m, imm, datasize):
    """EXT: concat = Vm:Vn (datasize each); result = concat<8*imm + datasize - 1 : 8*imm>."""
    cat = n[:datasize] + m[:datasize]
    return cat[8 * imm: 8 * imm + datasize]


def vadd(n, m, esize):
    out = []
    for i in range(0, len(n), esize):
        out += B.add(n[i:i + esize], m[i:i + esize])
    return out


def nzcv_sub(x, y, width):
    """AddWithCarry(x, NOT(y), 1): the difference and (N, Z, C, V) for concrete x, y (SUBS, CMP)."""
    d = (x - y) % (1 << width)
    n = d >> (width - 1)
    z = int(d == 0)
    c = int(x >= y)
    sx, sy, sd = x >> (width - 1), y >> (width - 1), n
    v = int(sx != sy and sd != sx)
    return d, (n << 3) | (z << 2) | (c << 1) | v


_COND = {
    "eq": lambda f: f >> 2 & 1, "ne": lambda f: 1 - (f >> 2 & 1),
    "cs": lambda f: f >> 1 & 1, "hs": lambda f: f >> 1 & 1, "cc": lambda f: 1 - (f >> 1 & 1),
    "lo": lambda f: 1 - (f >> 1 & 1), "mi": lambda f: f >> 3 & 1, "pl": lambda f: 1 - (f >> 3 & 1),
    "vs": lambda f: f & 1, "vc": lambda f: 1 - (f & 1),
    "hi": lambda f: int((f >> 1 & 1) == 1 and (f >> 2 & 1) == 0),
    "ls": lambda f: int(not ((f >> 1 & 1) == 1 and (f >> 2 & 1) == 0)),
    "ge": lambda f: int((f >> 3 & 1) == (f & 1)), "lt": lambda f: int((f >> 3 & 1) != (f & 1)),
    "gt": lambda f: int((f >> 2 & 1) == 0 and (f >> 3 & 1) == (f & 1)),
    "le": lambda f: int(not ((f >> 2 & 1) == 0 and (f >> 3 & 1) == (f & 1))),
    "al": lambda f: 1,
}

# arrangement -> (elements, element size)
_ARR = {"16b": (16, 8), "8b": (8, 8), "8h": (8, 16), "4h": (4, 16), "4s": (4, 32), "2s": (2, 32),
        "2d": (2, 64), "1d": (1, 64), "1q": (1, 128)}
_SIZE_OF = {"q": 128, "d": 64, "s": 32, "h": 16, "b": 8}

# system registers: (op0, op1, CRn, CRm, op2)
_DIT = (3, 3, 4, 2, 5)
_PFR0 = (3, 0, 0, 4, 0)
_NZCV = (3, 3, 4, 2, 0)
_SYSREG_NAMES = {"dit": _DIT, "id_aa64pfr0_el1": _PFR0, "nzcv": _NZCV}


def _sysreg(name):
    m = re.match(r"^s(\d)_(\d)_c(\d+)_c(\d+)_(\d)$", name)
    if m:
        return tuple(int(x) for x in m.groups())
    r = _SYSREG_NAMES.get(name)
    if r is None:
        raise AsmError("system register %s" % name)
    return r


# ---- the program -------------------------------------------------------------------------------------

class Operand:
    def __init__(self, index, code):
        self.index = index
        self.code = code
        self.out = code.startswith("=")
        c = code[1:] if self.out else code
        self.early = c.startswith("&")
        c = c.lstrip("&")
        self.indirect = c.startswith("*")
        c = c.lstrip("*")
        self.tied = int(c) if c.isdigit() else None
        self.phys = c[1:-1] if c.startswith("{") else None
        self.cls = c if self.tied is None and self.phys is None else None
        self.arg = None  # index in the call's arguments (inputs and indirect outputs)


class Program:
    """One asm template with its constraints, parsed once."""

    def __init__(self, text, cons):
        self.text = text
        parts = [c for c in cons.split(",") if c]
        self.clobbers = {c[2:-1] for c in parts if c.startswith("~")}
        self.ops = []
        arg = 0
        for i, c in enumerate(c for c in parts if not c.startswith("~")):
            op = Operand(i, c)
            if not op.out or op.indirect:
                op.arg = arg
                arg += 1
            self.ops.append(op)
        # register identity of each operand: its output's for a tied input, a physical name, or "@i"
        for op in self.ops:
            if op.tied is not None:
                t = self.ops[op.tied]
                op.cls, op.phys = t.cls, t.phys
                op.reg = t.reg
            elif op.phys is not None:
                m = re.match(r"^([vxwqd])(\d+)$", op.phys)
                if m is None:
                    raise AsmError("register constraint {%s}" % op.phys)
                op.cls = "w" if m.group(1) in "vqd" else "r"
                op.reg = m.group(2)
            elif op.cls in ("w", "r"):
                op.reg = "@%d" % op.index
            elif op.cls == "m" and op.indirect:
                op.reg = "@%d" % op.index  # the address, in a virtual x register
            else:
                raise AsmError("constraint %r" % op.code)
        self.outputs = [op for op in self.ops if op.out and not op.indirect]
        # registers the asm must not write (inputs, and the addresses of memory operands)
        self.inputs_only = {op.reg for op in self.ops if not op.out and op.tied is None}
        # an output with a tied input ("+w") owns its register from the start: no input can share it
        self.tied_outputs = {op.tied for op in self.ops if op.tied is not None}
        self.lines = self._parse(self._substitute(text))
        self.labels = {}
        for i, st in enumerate(self.lines):
            if st[0] == "label":
                self.labels.setdefault(st[1], []).append(i)

    def _substitute(self, text):
        def sub(mo):
            s = mo.group(0)
            if s == "$$":
                return "$"
            n = int(mo.group(1) or mo.group(2))
            mod = mo.group(3)
            if n >= len(self.ops):
                raise AsmError("operand $%d of %d" % (n, len(self.ops)))
            op = self.ops[n]
            if op.cls == "m":
                if mod:
                    raise AsmError("modifier %s on a memory operand" % mod)
                return "[x%s]" % op.reg
            if op.cls == "w":
                if mod and mod not in "qdshb":
                    raise AsmError("modifier %s on a vector operand" % mod)
                return (mod or "v") + op.reg
            if mod and mod not in "xw":
                raise AsmError("modifier %s on a general-purpose operand" % mod)
            return (mod or "x") + op.reg
        return re.sub(r"\$(?:(\d+)|\{(\d+)(?::([a-zA-Z]))?\}|\$)", sub, text)

    @staticmethod
    def _parse(text):
        out = []
        for raw in re.split(r"[\n;]", text):
            line = raw.split("//")[0].strip()
            while True:
                m = re.match(r"^(\w+):\s*(.*)$", line)
                if not m:
                    break
                out.append(("label", m.group(1)))
                line = m.group(2)
            if not line:
                continue
            parts = line.split(None, 1)
            mn = parts[0].lower()
            ops = _split_operands(parts[1]) if len(parts) > 1 else []
            out.append((mn, ops, line))
        return out

    def target(self, pc, ref):
        m = re.match(r"^(\d+)([bf])$", ref)
        if not m:
            raise AsmError("branch target %s" % ref)
        cands = self.labels.get(m.group(1), [])
        if m.group(2) == "b":
            c = [i for i in cands if i <= pc]
            if c:
                return c[-1]
        else:
            c = [i for i in cands if i > pc]
            if c:
                return c[0]
        raise AsmError("no label for %s" % ref)


def _split_operands(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


_PROGRAMS = {}


def program(text, cons):
    p = _PROGRAMS.get((text, cons))
    if p is None:
        p = Program(text, cons)
        _PROGRAMS[(text, cons)] = p
    return p


# ---- execution ---------------------------------------------------------------------------------------

class State:
    MAX_STEPS = 1000000

    def __init__(self, prog, mem, cpu):
        self.p = prog
        self.mem = mem
        self.cpu = cpu
        self.v = {}  # register id -> 128 bits
        self.x = {}  # register id -> 64 bits
        self.flags = None
        self.written = set()  # ("v"|"x", id) written by the asm
        self.out_written = set()  # non-early-clobber outputs already written (their classes)
        self.mem_in = []  # (base, size) of "m" input operands
        self.mem_out = []

    # -- registers
    def _check_read(self, kind, rid):
        if rid.startswith("@"):
            if rid in self.p.inputs_only and ("w" if kind == "v" else "r") in self.out_written:
                raise AsmError("input %s read after a non-early-clobber output was written (they may share a "
                               "register: the output needs '&')" % rid)
            return
        if (kind, rid) not in self.written and not self._phys_operand(kind, rid):
            raise AsmError("reads %s%s, which is no operand and was not written before in the asm" % (kind, rid))

    def _phys_operand(self, kind, rid):
        return any(op.phys is not None and op.reg == rid and op.cls == ("w" if kind == "v" else "r")
                   for op in self.p.ops)

    def _check_write(self, kind, rid):
        cls = "w" if kind == "v" else "r"
        if rid.startswith("@"):
            if rid in self.p.inputs_only:
                raise AsmError("writes input-only operand %s" % rid)
            op = self.p.ops[int(rid[1:])]
            if not op.early and op.index not in self.p.tied_outputs:
                self.out_written.add(cls)
        else:
            names = {kind + rid} | ({"q" + rid, "d" + rid} if kind == "v" else {"w" + rid})
            outs = [op for op in self.p.outputs if op.phys is not None and op.reg == rid and op.cls == cls]
            if not (names & self.p.clobbers) and not outs:
                raise AsmError("writes %s%s, which is neither clobbered nor an output" % (kind, rid))
            for op in outs:
                if not op.early and op.index not in self.p.tied_outputs:
                    self.out_written.add(cls)
        self.written.add((kind, rid))

    def getv(self, rid):
        self._check_read("v", rid)
        r = self.v.get(rid)
        if r is None:
            raise AsmError("v%s has no value" % rid)
        return r

    def setv(self, rid, bits):
        assert len(bits) == 128
        self._check_write("v", rid)
        self.v[rid] = bits

    def getx(self, rid, width=64):
        if rid == "zr":
            return [B.ZERO] * width
        self._check_read("x", rid)
        r = self.x.get(rid)
        if r is None:
            raise AsmError("x%s has no value" % rid)
        return r[:width]

    def setx(self, rid, bits):
        if rid == "zr":
            return
        self._check_write("x", rid)
        self.x[rid] = bits + [B.ZERO] * (64 - len(bits))  # a W write zeroes the upper half

    # -- memory
    def _covered(self, ranges, addr, n):
        return any(b <= addr and addr + n <= b + s for b, s in ranges)

    def load(self, addr, n):
        if "memory" not in self.p.clobbers and not self._covered(self.mem_in + self.mem_out, addr, n):
            raise AsmError("reads %d bytes at %#x: no \"m\" operand covers them and no \"memory\" clobber" % (n, addr))
        return self.mem.load(addr, n)

    def store(self, addr, bits):
        if "memory" not in self.p.clobbers and not self._covered(self.mem_out, addr, len(bits) // 8):
            raise AsmError("writes memory at %#x without a \"memory\" clobber or an \"=*m\" output" % addr)
        self.mem.store(addr, bits)


def _vreg(tok):
    """'v@3.16b' -> ('@3', '16b'); 'q18' -> ('18', 'q'); 'd5' -> ('5', 'd')."""
    m = re.match(r"^v(\d+|@\d+)\.(\w+)$", tok)
    if m:
        if m.group(2) not in _ARR:
            raise AsmError("arrangement %s" % tok)
        return m.group(1), m.group(2)
    m = re.match(r"^([qdshb])(\d+|@\d+)$", tok)
    if m:
        return m.group(2), m.group(1)
    raise AsmError("vector register operand %r" % tok)


def _arr_bits(arr):
    if arr in _ARR:
        n, e = _ARR[arr]
        return n * e
    return _SIZE_OF[arr]


def _xreg(tok):
    """'x@5' -> ('@5', 64); 'w3' -> ('3', 32); 'xzr' -> ('zr', 64); 'sp' is not modelled."""
    m = re.match(r"^([xw])(\d+|@\d+|zr)$", tok)
    if not m:
        raise AsmError("general-purpose register operand %r" % tok)
    return m.group(2), 64 if m.group(1) == "x" else 32


def _imm(tok):
    t = tok.strip()
    if t.startswith("#"):
        t = t[1:]
    try:
        return int(t, 0)
    except ValueError:
        raise AsmError("immediate %r" % tok)


def _reglist(tok):
    """'{v21.16b-v24.16b}' or '{v0.16b, v1.16b}' -> ([ids], arrangement); consecutive numbers wrap at 32."""
    if not (tok.startswith("{") and tok.endswith("}")):
        raise AsmError("register list %r" % tok)
    body = tok[1:-1].strip()
    m = re.match(r"^v(\d+)\.(\w+)\s*-\s*v(\d+)\.(\w+)$", body)
    if m:
        a, b = int(m.group(1)), int(m.group(3))
        if m.group(2) != m.group(4):
            raise AsmError("register list %r" % tok)
        n = (b - a) % 32 + 1
        return [str((a + i) % 32) for i in range(n)], m.group(2)
    regs = [_vreg(x.strip()) for x in body.split(",")]
    arrs = {r[1] for r in regs}
    if len(arrs) != 1:
        raise AsmError("register list %r" % tok)
    ids = [r[0] for r in regs]
    if not all(i.startswith("@") for i in ids) and len(ids) > 1:
        nums = [int(i) for i in ids]
        if any((nums[k + 1] - nums[k]) % 32 != 1 for k in range(len(nums) - 1)):
            raise AsmError("register list %r: not consecutive" % tok)
    return ids, arrs.pop()


def _address(st, ops, i):
    """The addressing operands from ops[i]: [Xn], [Xn, #imm], [Xn, #imm]!, then an optional post-index
    (#imm or Xm). Returns (address, writeback function)."""
    tok = ops[i]
    pre = tok.endswith("!")
    body = tok.rstrip("!")
    if not (body.startswith("[") and body.endswith("]")):
        raise AsmError("address %r" % tok)
    parts = [x.strip() for x in body[1:-1].split(",")]
    base_id, w = _xreg(parts[0])
    if w != 64:
        raise AsmError("address base %r" % parts[0])
    base = cval(st.getx(base_id), "asm memory access at a secret address")
    off = _imm(parts[1]) if len(parts) > 1 else 0
    if len(parts) > 2:
        raise AsmError("address %r" % tok)
    post = None
    if len(ops) > i + 1:
        p = ops[i + 1]
        if p.startswith("#"):
            post = _imm(p)
        else:
            rid, w = _xreg(p)
            post = cval(st.getx(rid), "asm post-index by a secret")
        if len(ops) > i + 2:
            raise AsmError("operands after the address: %r" % ops)
    if post is not None and (pre or off):
        raise AsmError("address %r with a post-index" % tok)
    addr = (base + off) % (1 << 64) if not post else base

    def writeback():
        if pre:
            st.setx(base_id, B.const_bits((base + off) % (1 << 64), 64))
        elif post is not None:
            st.setx(base_id, B.const_bits((base + post) % (1 << 64), 64))
    return addr, writeback


def _vec3(st, ops, n=3):
    regs = [_vreg(o) for o in ops[:n]]
    return regs


def _put(st, rid, bits, datasize):
    """V[d] = result: a 64-bit result clears the upper half (the Arm ARM's V[] write of datasize 64)."""
    st.setv(rid, bits[:datasize] + [B.ZERO] * (128 - datasize))


def _i_aes(f, feat="aes"):
    def run(st, ops):
        (d, ad), (n, an) = _vec3(st, ops, 2)
        if ad != "16b" or an != "16b" or len(ops) != 2:
            raise AsmError("operands of %s" % f.__name__)
        st.cpu.need(feat, f.__name__.upper())
        if f in (aese, aesd):
            a, b = st.getv(d), st.getv(n)
            st.cpu.data(f.__name__.upper(), a, b)
            st.setv(d, f(a, b))
        else:
            a = st.getv(n)
            st.cpu.data(f.__name__.upper(), a)
            st.setv(d, f(a))
    return run


def _i_pmull(part):
    def run(st, ops):
        (d, ta), (n, tb), (m, tb2) = _vec3(st, ops)
        if tb != tb2 or len(ops) != 3:
            raise AsmError("operands of PMULL")
        if (ta, tb) == ("1q", "2d" if part else "1d"):
            esize = 64
            st.cpu.need("pmull", "PMULL (64-bit)")
        elif (ta, tb) == ("8h", "16b" if part else "8b"):
            esize = 8
        else:
            raise AsmError("arrangement of PMULL%s: %s, %s" % ("2" if part else "", ta, tb))
        a, b = st.getv(n), st.getv(m)
        st.cpu.data("PMULL", a, b)
        st.setv(d, pmull(a, b, esize, part))
    return run


def _i_eor(st, ops):
    (d, a1), (n, a2), (m, a3) = _vec3(st, ops)
    if not (a1 == a2 == a3) or a1 not in ("16b", "8b") or len(ops) != 3:
        raise AsmError("operands of EOR")
    a, b = st.getv(n), st.getv(m)
    st.cpu.data("EOR", a, b)
    ds = _arr_bits(a1)
    _put(st, d, [x ^ y for x, y in zip(a[:ds], b[:ds])], ds)


def _i_eor3(st, ops):
    regs = _vec3(st, ops, 4)
    if len(ops) != 4 or any(r[1] != "16b" for r in regs):
        raise AsmError("operands of EOR3")
    st.cpu.need("sha3", "EOR3")
    vals = [st.getv(r[0]) for r in regs[1:]]
    st.cpu.data("EOR3", *vals)
    st.setv(regs[0][0], eor3(*vals))


def _i_add(st, ops, sub=False, flags=False):
    if ops and ops[0].startswith("v"):
        if flags or len(ops) != 3:
            raise AsmError("operands of vector ADD/SUB")
        (d, a1), (n, a2), (m, a3) = _vec3(st, ops)
        if not (a1 == a2 == a3) or a1 == "1q":
            raise AsmError("arrangement of vector ADD")
        ds = _arr_bits(a1)
        esize = _ARR[a1][1]
        a, b = st.getv(n)[:ds], st.getv(m)[:ds]
        st.cpu.data("ADD", a, b)
        if sub:
            r = []
            for i in range(0, ds, esize):
                r += B.sub(a[i:i + esize], b[i:i + esize])
        else:
            r = vadd(a, b, esize)
        _put(st, d, r, ds)
        return
    # scalar: Xd, Xn, #imm{, lsl #12} | Xd, Xn, Xm (public values: addresses and counts)
    if len(ops) not in (3, 4):
        raise AsmError("operands of ADD/SUB")
    d, w = _xreg(ops[0])
    n, w2 = _xreg(ops[1])
    if w != w2:
        raise AsmError("operands of ADD/SUB")
    x = cval(st.getx(n, w), "scalar arithmetic on a secret in asm")
    if ops[2].startswith("#"):
        y = _imm(ops[2])
        if len(ops) == 4:
            if ops[3].replace(" ", "") != "lsl#12":
                raise AsmError("shift %r" % ops[3])
            y <<= 12
        if not 0 <= y < (1 << 24):
            raise AsmError("immediate %r" % ops[2])
    else:
        if len(ops) != 3:
            raise AsmError("operands of ADD/SUB")
        m_, w3 = _xreg(ops[2])
        y = cval(st.getx(m_, w3), "scalar arithmetic on a secret in asm")
    if sub:
        r, f = nzcv_sub(x, y, w)
    else:
        r = (x + y) % (1 << w)
        f = None
    if flags:
        if sub is False:
            raise AsmError("ADDS")
        st.flags = f
    st.setx(d, B.const_bits(r, w))


def _i_tbl(st, ops):
    if len(ops) != 3:
        raise AsmError("operands of TBL")
    d, ad = _vreg(ops[0])
    ids, al = _reglist(ops[1])
    m, am = _vreg(ops[2])
    if al != "16b" or ad != am or ad not in ("16b", "8b") or not 1 <= len(ids) <= 4:
        raise AsmError("operands of TBL")
    table = []
    for r in ids:
        table += st.getv(r)
    ds = _arr_bits(ad)
    idx = st.getv(m)[:ds]
    st.cpu.data("TBL", idx)
    _put(st, d, tbl(table, idx), ds)


def _i_rev(container):
    def run(st, ops):
        (d, a1), (n, a2) = _vec3(st, ops, 2)
        if a1 != a2 or len(ops) != 2 or _ARR[a1][1] >= container:
            raise AsmError("operands of REV%d" % container)
        ds = _arr_bits(a1)
        a = st.getv(n)[:ds]
        _put(st, d, rev(a, _ARR[a1][1], container), ds)
    return run


def _i_ext(st, ops):
    if len(ops) != 4:
        raise AsmError("operands of EXT")
    (d, a1), (n, a2), (m, a3) = _vec3(st, ops)
    if not (a1 == a2 == a3) or a1 not in ("16b", "8b"):
        raise AsmError("operands of EXT")
    ds = _arr_bits(a1)
    imm = _imm(ops[3])
    if not 0 <= imm < ds // 8:
        raise AsmError("EXT index %d" % imm)
    _put(st, d, ext(st.getv(n), st.getv(m), imm, ds), ds)


def _i_movi(st, ops):
    d, arr = _vreg(ops[0])
    imm = _imm(ops[1])
    shift = 0
    if len(ops) == 3:
        mm = re.match(r"^lsl\s*#(\d+)$", ops[2].strip())
        if not mm:
            raise AsmError("MOVI shift %r" % ops[2])
        shift = int(mm.group(1))
    elif len(ops) != 2:
        raise AsmError("operands of MOVI")
    if arr in ("16b", "8b") and 0 <= imm < 256 and shift == 0:
        elem, esize = imm, 8
    elif arr in ("8h", "4h") and 0 <= imm < 256 and shift in (0, 8):
        elem, esize = imm << shift, 16
    elif arr in ("4s", "2s") and 0 <= imm < 256 and shift in (0, 8, 16, 24):
        elem, esize = imm << shift, 32
    elif arr in ("2d", "d") and shift == 0 and all(((imm >> (8 * k)) & 0xff) in (0, 0xff) for k in range(8)) \
            and 0 <= imm < (1 << 64):
        elem, esize = imm, 64
    else:
        raise AsmError("MOVI %s" % ", ".join(ops))
    ds = _arr_bits(arr)
    _put(st, d, B.const_bits(elem, esize) * (ds // esize), ds)


def _i_ldst(load, pair=False):
    def run(st, ops):
        if pair:
            if len(ops) < 3:
                raise AsmError("operands of LDP/STP")
            regs = [ops[0], ops[1]]
            addr, wb = _address(st, ops, 2)
            sizes = []
            for r in regs:
                if r[0] in "xw":
                    rid, w = _xreg(r)
                    sizes.append(("x", rid, w))
                else:
                    rid, kind = _vreg(r)
                    if kind not in _SIZE_OF:
                        raise AsmError("LDP/STP register %r" % r)
                    sizes.append(("v", rid, _SIZE_OF[kind]))
            if len({s[2] for s in sizes}) != 1:
                raise AsmError("LDP/STP of mixed sizes")
        else:
            ids, arr = _reglist(ops[0])
            addr, wb = _address(st, ops, 1)
            sizes = [("v", rid, _arr_bits(arr)) for rid in ids]
        off = addr
        if load:
            vals = []
            for kind, rid, w in sizes:
                vals.append((kind, rid, w, st.load(off, w // 8)))
                off += w // 8
            for kind, rid, w, bits in vals:
                if kind == "v":
                    _put(st, rid, bits, w)
                else:
                    st.setx(rid, bits)
        else:
            for kind, rid, w in sizes:
                bits = st.getv(rid)[:w] if kind == "v" else st.getx(rid, w)
                st.store(off, bits)
                off += w // 8
        wb()
    return run


def _i_mrs(st, ops):
    if len(ops) != 2:
        raise AsmError("operands of MRS")
    d, w = _xreg(ops[0])
    reg = _sysreg(ops[1].lower())
    if reg == _DIT:
        st.cpu.need("dit", "MRS DIT")
        v = st.cpu.dit << 24
    elif reg == _PFR0:
        # EL0 access is UNDEFINED in hardware; Linux emulates it when it advertises HWCAP_CPUID
        st.cpu.need("cpuid", "MRS ID_AA64PFR0_EL1 (kernel emulation, HWCAP_CPUID)")
        v = st.cpu.pfr0
    elif reg == _NZCV:
        if st.flags is None:
            raise AsmError("MRS NZCV before the asm set the flags")
        v = st.flags << 28
    else:
        raise AsmError("MRS of %s" % ops[1])
    st.setx(d, B.const_bits(v, 64))


def _msr_dit(st, value):
    st.cpu.need("dit", "MSR DIT")
    st.cpu.dit = value & 1


def _i_msr(st, ops):
    if len(ops) != 2:
        raise AsmError("operands of MSR")
    reg = _sysreg(ops[0].lower()) if ops[0].lower() != "dit" else _DIT
    if reg != _DIT:
        raise AsmError("MSR of %s" % ops[0])
    if ops[1].startswith("#"):
        _msr_dit(st, _imm(ops[1]))
    else:
        rid, w = _xreg(ops[1])
        _msr_dit(st, cval(st.getx(rid), "MSR DIT of a secret") >> 24)


def _i_inst(st, ops):
    """.inst WORD: the instruction word decoded. Only MSR (immediate) to DIT: 1101 0101 0000 0 op1 0100 CRm
    op2 11111 with op1 = 011, op2 = 010 (Arm ARM C5.1.3 / C6.2.x MSR (immediate)); PSTATE.DIT = CRm<0>."""
    if len(ops) != 1:
        raise AsmError(".inst with %d words" % len(ops))
    w = _imm(ops[0])
    if (w & 0xfff8f01f) == 0xd500401f:
        op1, crm, op2 = (w >> 16) & 7, (w >> 8) & 0xf, (w >> 5) & 7
        if (op1, op2) == (3, 2):
            if crm > 1:
                raise AsmError("MSR DIT, #%d" % crm)
            _msr_dit(st, crm)
            return
    raise AsmError(".inst %#x: not a decoded instruction" % w)


INSTRUCTIONS = {
    "aese": _i_aes(aese), "aesd": _i_aes(aesd), "aesmc": _i_aes(aesmc), "aesimc": _i_aes(aesimc),
    "pmull": _i_pmull(0), "pmull2": _i_pmull(1),
    "eor": _i_eor, "eor3": _i_eor3,
    "add": lambda st, ops: _i_add(st, ops),
    "sub": lambda st, ops: _i_add(st, ops, sub=True),
    "subs": lambda st, ops: _i_add(st, ops, sub=True, flags=True),
    "tbl": _i_tbl, "rev16": _i_rev(16), "rev32": _i_rev(32), "rev64": _i_rev(64), "ext": _i_ext,
    "movi": _i_movi,
    "ld1": _i_ldst(True), "st1": _i_ldst(False), "ldp": _i_ldst(True, True), "stp": _i_ldst(False, True),
    "mrs": _i_mrs, "msr": _i_msr, ".inst": _i_inst,
}


def execute(prog, mem, cpu, args, in_widths, mem_sizes, out_widths):
    """Run prog: args are the call's arguments (bits), in_widths their widths, mem_sizes the pointee size
    of each "*m" argument (by argument index), out_widths the widths of the direct outputs. Returns
    the list of the outputs' bits."""
    st = State(prog, mem, cpu)
    for op in prog.ops:
        if op.arg is None:
            continue
        val = args[op.arg]
        if op.cls == "m":
            addr = cval(val, "asm memory operand at a secret address")
            (st.mem_out if op.out else st.mem_in).append((addr, mem_sizes[op.arg]))
            st.x[op.reg] = B.const_bits(addr, 64)
            continue
        w = in_widths[op.arg]
        if op.cls == "w":
            if w > 128:
                raise AsmError("a %d-bit value in a vector register" % w)
            st.v[op.reg] = list(val) + _undef("upper", 128 - w)
        else:
            if w > 64:
                raise AsmError("a %d-bit value in a general register" % w)
            st.x[op.reg] = list(val) + _undef("upper", 64 - w)
    _run(prog, st)
    outs = []
    for op, w in zip(prog.outputs, out_widths):
        kind = "v" if op.cls == "w" else "x"
        tied = any(o.tied == op.index for o in prog.ops)
        if (kind, op.reg) not in st.written and not tied:
            raise AsmError("output $%d is never written" % op.index)
        outs.append((st.v if kind == "v" else st.x)[op.reg][:w])
    return outs


def run_raw(text, mem, cpu, vregs, xregs):
    """For the model validation (proofs/tests/validate_aarch64.py): runs text with every register
    clobbered and memory free, v<i> = vregs[i] (128 bits) and x<i> = xregs[i] (64 bits) preset. Returns
    the final state (st.v / st.x keyed by register number as a string, st.flags)."""
    cons = ",".join(["~{memory}", "~{cc}"] + ["~{v%d}" % i for i in range(32)] + ["~{x%d}" % i for i in range(31)])
    prog = Program(text, cons)
    st = State(prog, mem, cpu)
    for i, b in vregs.items():
        st.v[str(i)] = list(b)
        st.written.add(("v", str(i)))
    for i, b in xregs.items():
        st.x[str(i)] = list(b)
        st.written.add(("x", str(i)))
    _run(prog, st)
    return st


def _run(prog, st):
    pc = 0
    steps = 0
    lines = prog.lines
    while pc < len(lines):
        steps += 1
        if steps > State.MAX_STEPS:
            raise AsmError("asm runs more than %d instructions" % State.MAX_STEPS)
        stmt = lines[pc]
        if stmt[0] == "label":
            pc += 1
            continue
        mn, ops, text = stmt
        if mn.startswith("b.") or mn == "b":
            cond = mn[2:] if mn.startswith("b.") else "al"
            if cond not in _COND or len(ops) != 1:
                raise AsmError("branch %s" % text)
            if cond != "al" and st.flags is None:
                raise AsmError("%s before the flags were set" % text)
            taken = _COND[cond](st.flags if st.flags is not None else 0)
            pc = prog.target(pc, ops[0]) if taken else pc + 1
            continue
        if mn in ("cbz", "cbnz"):
            rid, w = _xreg(ops[0])
            v = cval(st.getx(rid, w), "branch on a secret in asm: %s" % text)
            taken = (v == 0) == (mn == "cbz")
            pc = prog.target(pc, ops[1]) if taken else pc + 1
            continue
        f = INSTRUCTIONS.get(mn)
        if f is None:
            raise AsmError("instruction %r" % text)
        try:
            f(st, ops)
        except (AsmError, CTViolation) as e:
            raise type(e)("%s (in asm: %s)" % (e, text))
        pc += 1
