# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""intrinsics_aarch64.py -- the armv8 implementation's machine: the llvm.aarch64.* intrinsics its IR
calls, its inline assembly (asm_aarch64.py), and the modelled CPU its feature detection sees.

Intrinsics, each the instruction clang selects for it, with the semantics of asm_aarch64.py (Arm ARM
pseudo-code; validated against the instructions under qemu-aarch64 by proofs/tests/
validate_aarch64.py):
  llvm.aarch64.crypto.aese/aesd(data, key)   AESE/AESD: (data EOR key), then (Inv)ShiftRows, (Inv)SubBytes
  llvm.aarch64.crypto.aesmc/aesimc(data)     AESMC/AESIMC: (Inv)MixColumns
  llvm.aarch64.crypto.eor3u.v16i8(a, b, c)   EOR3 (FEAT_SHA3)
  llvm.aarch64.neon.tbl1.v16i8(table, idx)   TBL with one table register
  llvm.aarch64.neon.pmull64(a, b)            PMULL of two 64-bit values (FEAT_PMULL)
  llvm.aarch64.neon.ld1xN / st1xN            LD1/ST1 of N consecutive registers

The CPU. vg's armv8 table asks getauxval(AT_HWCAP) (and, with HWCAP_CPUID, the kernel-emulated MRS of
ID_AA64PFR0_EL1) which features there are; the answer decides the table's availability, the EOR3
variant and DIT. Each implementation name of the obligations is one modelled CPU, so that the
library's own detection chooses the path under proof:
  armv8          AES, PMULL, SHA3 (EOR3), CPUID; DIT seen through ID_AA64PFR0_EL1.DIT (as under qemu
                 -cpu max, whose kernel view has no HWCAP_DIT)
  armv8-noeor3   AES, PMULL, DIT in HWCAP (no SHA3): the plain-EOR kernels
Both have FEAT_DIT, so the run also checks DIT: every AES/PMULL/EOR3/TBL/... instruction on secret
operands must run with PSTATE.DIT set (a constant-time failure otherwise), and every public call
must return with DIT as it found it (clear). An EOR3 executed on the CPU without SHA3, or a DIT
access on one without DIT, is an error (UNDEFINED there).
"""
from . import asm_aarch64 as S
from . import bits as B
from .exec import Unsupported, cval

HWCAP_FP, HWCAP_ASIMD, HWCAP_AES, HWCAP_PMULL = 1 << 0, 1 << 1, 1 << 3, 1 << 4
HWCAP_CPUID, HWCAP_SHA3, HWCAP_DIT = 1 << 11, 1 << 17, 1 << 24
AT_HWCAP = 16

# implementation (obligation name) -> (VG_IMPL value, CPU factory)
CPUS = {
    "armv8": ("armv8", lambda: S.CPU("armv8 (EOR3)", {"aes", "pmull", "sha3", "dit", "cpuid"},
                                     HWCAP_FP | HWCAP_ASIMD | HWCAP_AES | HWCAP_PMULL | HWCAP_CPUID | HWCAP_SHA3,
                                     pfr0=1 << 48)),
    "armv8-noeor3": ("armv8", lambda: S.CPU("armv8 without SHA3", {"aes", "pmull", "dit"},
                                            HWCAP_FP | HWCAP_ASIMD | HWCAP_AES | HWCAP_PMULL | HWCAP_DIT)),
}


def _aes(f, nargs):
    def run(m, ins, args, name):
        cpu = m.aarch64_cpu
        cpu.need("aes", name)
        cpu.data(name, *args[:nargs])
        return f(*args[:nargs])
    return run


def _eor3(m, ins, args, name):
    cpu = m.aarch64_cpu
    cpu.need("sha3", name)
    cpu.data(name, *args)
    return S.eor3(*args)


def _tbl1(m, ins, args, name):
    table, idx = args
    m.aarch64_cpu.data(name, idx)
    return S.tbl(table, idx)


def _pmull64(m, ins, args, name):
    a, b = args
    cpu = m.aarch64_cpu
    cpu.need("pmull", name)
    cpu.data(name, a, b)
    return S.polymul(a, b)


def _ld1x(m, ins, args, name):
    (p,) = args
    addr = cval(p, "%s at a secret address" % name)
    t = m.m.resolve(ins["ty"])
    out = []
    for f in t[1]:
        w = m.m.bits(f)
        out.append(m.mem.load(addr, w // 8))
        addr += w // 8
    return tuple(out)


def _st1x(m, ins, args, name):
    *vals, p = args
    addr = cval(p, "%s at a secret address" % name)
    for v in vals:
        m.mem.store(addr, v)
        addr += len(v) // 8


def _asm(m, ins, args):
    text, cons = ins["callee"][1], ins["callee"][2]
    prog = S.program(text, cons)
    mod = m.m
    in_widths, mem_sizes = [], []
    for ty, _v in ins["args"]:
        t = mod.resolve(ty)
        in_widths.append(mod.bits(t) if t[0] in ("int", "ptr", "vec") else None)
        mem_sizes.append(mod.size(t[1]) if t[0] == "ptr" else None)
    rt = mod.resolve(ins["ty"])
    if rt[0] == "void":
        outw = []
    elif rt[0] == "struct":
        outw = [mod.bits(f) for f in rt[1]]
    else:
        outw = [mod.bits(rt)]
    outs = S.execute(prog, m.mem, m.aarch64_cpu, args, in_widths, mem_sizes, outw)
    if len(outw) != len(prog.outputs):
        raise Unsupported("asm with %d outputs returns %d values" % (len(prog.outputs), len(outw)))
    if rt[0] == "void":
        return None
    return tuple(outs) if rt[0] == "struct" else outs[0]


AARCH64 = {
    "llvm.aarch64.crypto.aese": _aes(S.aese, 2),
    "llvm.aarch64.crypto.aesd": _aes(S.aesd, 2),
    "llvm.aarch64.crypto.aesmc": _aes(S.aesmc, 1),
    "llvm.aarch64.crypto.aesimc": _aes(S.aesimc, 1),
    "llvm.aarch64.crypto.eor3u.v16i8": _eor3,
    "llvm.aarch64.neon.tbl1.v16i8": _tbl1,
    "llvm.aarch64.neon.pmull64": _pmull64,
    "llvm.aarch64.neon.ld1x2.": _ld1x,
    "llvm.aarch64.neon.ld1x3.": _ld1x,
    "llvm.aarch64.neon.ld1x4.": _ld1x,
    "llvm.aarch64.neon.st1x2.": _st1x,
    "llvm.aarch64.neon.st1x3.": _st1x,
    "llvm.aarch64.neon.st1x4.": _st1x,
    "asm": _asm,
}


def new_machine(module, impl):
    """A machine for one armv8 obligation: the IR's module with these intrinsics, the modelled CPU of impl
    (getauxval answers for it), and the DIT check on each outermost call's return: PSTATE.DIT as its
    caller had it."""
    from . import obligations as O
    vg_impl, make_cpu = CPUS[impl]
    cpu = make_cpu()
    m = O.new_machine(module, vg_impl, AARCH64)
    m.aarch64_cpu = cpu

    def getauxval(mach, args):
        t = cval(args[0], "getauxval of a secret")
        return B.const_bits(cpu.hwcap if t == AT_HWCAP else 0, 64)

    m.externals = dict(m.externals)
    m.externals["getauxval"] = getauxval
    inner = m.call
    depth = [0]

    def call(name, args):
        entry = cpu.dit
        depth[0] += 1
        try:
            r = inner(name, args)
        finally:
            depth[0] -= 1
        if depth[0] == 0 and cpu.dit != entry:
            raise S.AsmError("%s returns with PSTATE.DIT %s (its caller had it %s)"
                             % (name, *(("set", "clear") if cpu.dit else ("clear", "set"))))
        return r

    m.call = call
    return m
