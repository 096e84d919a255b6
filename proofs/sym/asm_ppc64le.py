# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""asm_ppc64le.py -- an interpreter for the top-level (module) assembly of vg's ppc64le sources.

power8's and power9's AES key expansion (src/ppc64le/power8_aes.c, P8K_ASM) is a function written in
assembly: clang's IR has only its text (`module asm` lines) and a `declare`. An opaque block proves
nothing, so this file reads that text and executes it, one instruction at a time, on the executor's
memory and bit algebra:

- Layout. The __asm__ statement holding a function (from its `.text` to the next one) is laid out as
  the assembler lays it out: 4 bytes per instruction, `.p2align`, `.byte`/`.long`/`.quad` data
  (little-endian), labels, numeric local labels (`1:` with `1f`/`1b`). It is placed in a read-only
  region of the executor's memory, so the constant table that follows the code (power8_aes.c's
  masks and round constants) is read by lvx from the bytes the source gives; instruction words read
  as data are undefined (fresh atoms), never zero.
- Registers. GPRs r0..r31 (64-bit), CR0, the vector registers v0..v31 (as LLVM values: 128 bits,
  least significant first; intrinsics_ppc64le.py's conventions), LR as the return to the caller.
  A register read before anything wrote it is an error (the ABI gives it no value), and so is a
  write to a register the ELFv2 ABI says a function must preserve (r1, r2 excepted as below, r13..r31,
  v20..v31): this interpreter does not model saving and restoring them.
- The call, ELFv2 (the 64-bit ELF V2 ABI for Power, 2.1: §2.2.2 registers, §2.2.3 parameter passing):
  arguments in r3..r10 (an int sign-extended, pointers and size_t as they are), the result in r3,
  and r12 = the address of the function called through a pointer (its global entry), which the
  kernel uses to find its table. The library reaches the kernel only through its implementation
  table, an indirect call in the IR (checked, see direct_callers), so r12 is the function's address:
  the address of its label in the laid-out region. r2 (the TOC) may be set from r12 (`addis/addi
  .TOC.-f@ha/@l`): the TOC is a region of its own; the IR does not use it.
- A `b` to a symbol that is not in the function's text is a tail call: the C function of that name
  in the IR runs with r3.. as its arguments, and its result is this function's (LR is untouched).
- Semantics: each instruction as the Power ISA 3.0B pseudo-code has it (cited beside each one), the
  vector ones through intrinsics_ppc64le.py's models. Each is validated against the instruction
  under qemu-ppc64le, and whole runs of both key expansion functions against the real ones, by
  proofs/tests/validate_ppc64le.py (ctest prove.model_ppc64le).
- Constant time: an address (EA) or a branch condition that is not a constant fails the run, as in
  exec.py. Anything not listed here (an instruction, directive, operand form) is an error, never
  skipped.
"""
import re

from . import bits as B
from . import intrinsics_ppc64le as P
from .exec import CTViolation, Unsupported

MASK64 = (1 << 64) - 1

# ELFv2: nonvolatile registers a function must leave as it found them (we do not model saving them)
_NONVOLATILE_GPR = set([1]) | set(range(13, 32))
_NONVOLATILE_VR = set(range(20, 32))


def _signed(v, w):
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


# ---- the text ------------------------------------------------------------------------------------

class Unit:
    """One __asm__ statement's text laid out: items at offsets, labels, data bytes."""

    def __init__(self, lines, name):
        self.name = name
        self.insns = {}      # offset -> (mnemonic, operand string, source line)
        self.labels = {}     # symbol -> offset
        self.numeric = []    # (number, offset) in order, for 1f / 1b
        self.data = {}       # offset -> byte value
        self.size = 0
        self.localentry = {}
        off = 0
        for raw in lines:
            line = raw.strip()
            if not line:
                continue
            # labels at the start of the line: "name:", ".Lx:", "1:"
            while True:
                mm = re.match(r"([A-Za-z_.$][\w.$]*|\d+):\s*", line)
                if not mm:
                    break
                lab = mm.group(1)
                if lab.isdigit():
                    self.numeric.append((int(lab), off))
                else:
                    if lab in self.labels:
                        raise Unsupported("asm: label %s defined twice" % lab)
                    self.labels[lab] = off
                line = line[mm.end():]
            if not line:
                continue
            parts = line.split(None, 1)
            op = parts[0]
            args = parts[1].strip() if len(parts) > 1 else ""
            if op.startswith("."):
                off = self._directive(op, args, off, raw)
            else:
                self.insns[off] = (op, args, raw)
                off += 4
        self.size = off

    def _directive(self, op, args, off, raw):
        if op in (".text", ".globl", ".hidden", ".type", ".size", ".machine"):
            return off
        if op == ".localentry":
            sym, val = [x.strip() for x in args.split(",", 1)]
            self.localentry[sym] = val
            return off
        if op == ".p2align":
            n = int(args.split(",")[0])
            if n > 4:
                raise Unsupported("asm: .p2align %d (the layout assumes the section 16-byte aligned)" % n)
            a = 1 << n
            return (off + a - 1) // a * a
        if op in (".byte", ".long", ".quad"):
            width = {".byte": 1, ".long": 4, ".quad": 8}[op]
            for tok in args.split(","):
                v = int(tok.strip(), 0) % (1 << (8 * width))
                for k in range(width):  # little-endian, as the assembler emits for ppc64le
                    self.data[off + k] = (v >> (8 * k)) & 0xff
                off += width
            return off
        raise Unsupported("asm: directive %s not modelled (%s)" % (op, raw.strip()))

    def local_label(self, ref, at):
        """`1f`: the next numeric label 1 after offset `at`; `1b`: the last one at or before it."""
        n, d = int(ref[:-1]), ref[-1]
        if d == "f":
            cands = [o for k, o in self.numeric if k == n and o > at]
            if cands:
                return min(cands)
        else:
            cands = [o for k, o in self.numeric if k == n and o <= at]
            if cands:
                return max(cands)
        raise Unsupported("asm: local label %s not found" % ref)


def units(module_asm):
    """The module asm split into __asm__ statements (each starts with `.text`)."""
    out, cur = [], []
    for line in module_asm:
        if line.strip() == ".text" and cur:
            out.append(cur)
            cur = []
        cur.append(line)
    if cur:
        out.append(cur)
    return out


def find_unit(module_asm, name):
    for lines in units(module_asm):
        for line in lines:
            if re.match(r"\s*%s:" % re.escape(name), line):
                return Unit(lines, name)
    raise Unsupported("asm: no function %s in the module assembly" % name)


def defined_functions(module_asm):
    """The names the module assembly defines as functions (.type name,@function)."""
    out = []
    for line in module_asm:
        mm = re.match(r"\s*\.type\s+([\w.$]+),\s*@function", line)
        if mm:
            out.append(mm.group(1))
    return out


def direct_callers(module, name):
    """The IR functions that call name directly (not through a pointer): such a call would not set
    r12, and the kernel's table addressing needs it. The proofs require there is none."""
    cache = module.__dict__.setdefault("_asm_direct_callers", {})
    if name not in cache:
        pat = re.compile(r"call [^@]*@%s\(" % re.escape(name))
        found = []
        for f in module.functions.values():
            if f.__dict__.get("_body") is not None:  # not parsed yet: its text
                hit = any(pat.search(line) for line in f._body)
            else:
                hit = any(ins["op"] == "call" and ins["callee"] == ("global", name)
                          for block in f.blocks.values() for ins in block)
            if hit:
                found.append(f.name)
        cache[name] = found
    return cache[name]


# ---- execution -----------------------------------------------------------------------------------

class Placed:
    """A unit placed in one machine's memory."""

    def __init__(self, mem, unit, toc):
        self.unit = unit
        r = mem.alloc("asm text of %s" % unit.name, max(unit.size, 16))
        for off, b in unit.data.items():
            r.bits[8 * off:8 * off + 8] = B.const_bits(b, 8)
        r.readonly = True  # .text
        self.base = r.base
        self.toc = toc

    def symbol(self, name):
        if name in self.unit.labels:
            return self.base + self.unit.labels[name]
        if name == ".TOC.":
            return self.toc
        return None


class Interp:
    """Runs one function of the module assembly on machine m (exec.Machine, or the validation's
    stand-in with .mem and .tail_call)."""

    MAX_STEPS = 1000000

    def __init__(self, m, placed):
        self.m = m
        self.mem = m.mem
        self.p = placed
        self.u = placed.unit
        self.gpr = [None] * 32
        self.vr = [None] * 32
        self.cr0 = None      # (lt, gt, eq, so), each 0/1 or None (unknown)
        self.ca = None
        self.entry = None

    # -- registers
    def g(self, r):
        v = self.gpr[r]
        if v is None:
            raise Unsupported("asm %s: r%d read before it is written" % (self.u.name, r))
        return v

    def gval(self, r, what):
        """The value of r as an integer: a public value is required (addresses, arithmetic)."""
        v = B.const_value(self.g(r))
        if v is None:
            if what.startswith("address") or what.startswith("branch"):
                raise CTViolation("asm %s: %s depends on a secret (r%d)" % (self.u.name, what, r))
            raise Unsupported("asm %s: %s of a non-constant r%d is not modelled" % (self.u.name, what, r))
        return v

    def setg(self, r, v):
        if r in _NONVOLATILE_GPR:
            raise Unsupported("asm %s: writes r%d, which ELFv2 says it must preserve" % (self.u.name, r))
        if r == 2 and self.entry is not None and self.u.localentry.get(self.entry) != "1":
            # r2 (the TOC) may change only in a function whose .localentry says it does not keep it
            raise Unsupported("asm %s: writes r2 without `.localentry %s,1`" % (self.u.name, self.entry))
        self.gpr[r] = B.const_bits(v & MASK64, 64) if isinstance(v, int) else v

    def v(self, r):
        x = self.vr[r]
        if x is None:
            raise Unsupported("asm %s: v%d read before it is written" % (self.u.name, r))
        return x

    def setv(self, r, x):
        if r in _NONVOLATILE_VR:
            raise Unsupported("asm %s: writes v%d, which ELFv2 says it must preserve" % (self.u.name, r))
        assert len(x) == 128
        self.vr[r] = x

    def ra0(self, r):
        """(RA|0): register 0 in the RA field reads as the number 0 (ISA Book I 1.6.2)."""
        return 0 if r == 0 else self.gval(r, "address")

    def cr(self, bit):
        if self.cr0 is None or self.cr0[bit] is None:
            raise Unsupported("asm %s: branch on CR0 bit %d, which nothing set" % (self.u.name, bit))
        return self.cr0[bit]

    def set_cr0_signed(self, v):
        s = _signed(v, 64)
        self.cr0 = (int(s < 0), int(s > 0), int(s == 0), None)  # SO = XER.SO, unknown

    # -- operands
    def expr(self, text, at):
        """An assembler expression: terms joined by + and -, each a number, a symbol, `.` or a local
        label reference, optionally with @ha / @l / @h."""
        text = text.strip()
        mod = None
        mm = re.fullmatch(r"(.*)@(ha|l|h)", text)
        if mm:
            text, mod = mm.group(1), mm.group(2)
        val = 0
        for sign, term in re.findall(r"([+-]?)\s*([^+\-\s]+)", text):
            t = term.strip()
            if re.fullmatch(r"0x[0-9a-fA-F]+|\d+", t):
                x = int(t, 0)
            elif re.fullmatch(r"\d+[fb]", t):
                x = self.p.base + self.u.local_label(t, at)
            elif t == ".":
                x = self.p.base + at
            else:
                x = self.p.symbol(t)
                if x is None:
                    raise Unsupported("asm %s: symbol %s unknown" % (self.u.name, t))
            val = val - x if sign == "-" else val + x
        if mod == "l":
            val = val & 0xffff
        elif mod == "ha":
            val = ((val + 0x8000) >> 16) & 0xffff
        elif mod == "h":
            val = (val >> 16) & 0xffff
        return val

    def simm(self, text, at):
        v = self.expr(text, at)
        s = _signed(v, 16) if 0 <= v < 0x10000 and re.search(r"@(l|ha|h)\s*$", text) else v
        if not -0x8000 <= s < 0x8000:
            raise Unsupported("asm %s: immediate %s out of range" % (self.u.name, text))
        return s

    # -- run
    def run(self, args, entry):
        """Call the function at label entry with the IR's arguments (bit lists); returns r3 (bits)."""
        for i, a in enumerate(args):
            if i >= 8:
                raise Unsupported("asm: more than 8 arguments")
            if len(a) < 64:  # an int: sign-extended by the caller (ELFv2 §2.2.3)
                a = a + [a[-1]] * (64 - len(a))
            self.gpr[3 + i] = a
        self.gpr[12] = B.const_bits(self.p.base + self.u.labels[entry], 64)
        self.entry = entry
        return self.execute(self.u.labels[entry])

    def execute(self, pc, stop=None):
        """Run from offset pc to a return (r3) or a tail call (its result); or, for the validation's
        snippets, until pc reaches stop (None then)."""
        steps = 0
        while True:
            if pc == stop:
                return None
            steps += 1
            if steps > self.MAX_STEPS:
                raise Unsupported("asm %s: step limit" % self.u.name)
            ins = self.u.insns.get(pc)
            if ins is None:
                raise Unsupported("asm %s: no instruction at offset %d (falls into data)" % (self.u.name, pc))
            op, ops, raw = ins
            r = self.step(op, [x.strip() for x in ops.split(",")] if ops else [], pc, raw)
            if r is None:
                pc += 4
            elif r[0] == "jump":
                pc = r[1]
            elif r[0] == "return":
                return self.g(3)
            elif r[0] == "tail":
                return r[1]

    def step(self, op, o, pc, raw):
        h = getattr(self, "i_" + op.replace(".", "_dot"), None)
        if h is None:
            raise Unsupported("asm %s: instruction %r not modelled" % (self.u.name, raw.strip()))
        return h(o, pc)

    # ---- fixed-point (ISA Book I chapter 3) -----------------------------------------------------
    def i_addi(self, o, pc):  # 3.3.9: RT <- (RA|0) + EXTS(SI)
        rt, ra = int(o[0]), int(o[1])
        self.setg(rt, (0 if ra == 0 else self.gval(ra, "addi")) + self.simm(o[2], pc))

    def i_li(self, o, pc):  # extended mnemonic: addi RT,0,SI
        self.setg(int(o[0]), self.simm(o[1], pc))

    def i_addis(self, o, pc):  # RT <- (RA|0) + EXTS(SI || 0x0000)
        rt, ra = int(o[0]), int(o[1])
        self.setg(rt, (0 if ra == 0 else self.gval(ra, "addis")) + (self.simm(o[2], pc) << 16))

    def i_addic_dot(self, o, pc):  # RT <- (RA) + EXTS(SI); CA; CR0 (Rc = 1)
        rt, ra = int(o[0]), int(o[1])
        a = self.gval(ra, "addic.")
        s = self.simm(o[2], pc)
        res = (a + (s & MASK64))
        self.ca = int(res > MASK64)
        res &= MASK64
        self.setg(rt, res)
        self.set_cr0_signed(res)

    def i_cmpldi(self, o, pc):  # cmpli 0,1,RA,UI: unsigned 64-bit compare into CR0
        if len(o) != 2:
            raise Unsupported("asm: cmpldi with a CR field")
        a = self.gval(int(o[0]), "branch condition")
        ui = self.expr(o[1], pc)
        if not 0 <= ui < 0x10000:
            raise Unsupported("asm %s: cmpldi immediate %s out of range" % (self.u.name, o[1]))
        self.cr0 = (int(a < ui), int(a > ui), int(a == ui), None)

    def i_stw(self, o, pc):  # EA <- (RA|0) + EXTS(D); MEM(EA, 4) <- (RS)32:63
        rs = int(o[0])
        mm = re.fullmatch(r"(.+)\((\d+)\)", o[1])
        d, ra = self.simm(mm.group(1), pc), int(mm.group(2))
        ea = (self.ra0(ra) + d) & MASK64
        self.mem.store(ea, self.g(rs)[0:32])

    # ---- branches (ISA Book I chapter 2) --------------------------------------------------------
    def _target(self, t, pc):
        t = t.strip()
        if re.fullmatch(r"\d+[fb]", t):
            return self.u.local_label(t, pc)
        if t in self.u.labels:
            return self.u.labels[t]
        return None

    def i_b(self, o, pc):
        t = self._target(o[0], pc)
        if t is not None:
            return ("jump", t)
        # a branch out of the function's text: a tail call of a C function (LR is the caller's)
        name = o[0].strip()
        f = self.m.m.functions.get(name) if hasattr(self.m, "m") else None
        if f is None:
            if hasattr(self.m, "tail_call"):
                return ("tail", self.m.tail_call(name, self))
            raise Unsupported("asm %s: branch to %s, not a function of the IR" % (self.u.name, name))
        args = []
        for i, (ty, _) in enumerate(f.params):
            w = self.m.m.bits(ty)
            args.append(self.g(3 + i)[:w])
        return ("tail", self.m.call(name, args))

    def _bc(self, o, pc, bit, value):
        t = self._target(o[0], pc)
        if t is None:
            raise Unsupported("asm: conditional branch out of the function")
        c = self.cr(bit)
        return ("jump", t) if c == value else None

    def i_bge(self, o, pc):  # bc 4,0: branch if CR0.LT = 0
        return self._bc(o, pc, 0, 0)

    def i_blt(self, o, pc):  # bc 12,0: branch if CR0.LT = 1
        return self._bc(o, pc, 0, 1)

    def i_bne(self, o, pc):  # bc 4,2: branch if CR0.EQ = 0
        return self._bc(o, pc, 2, 0)

    def i_beq(self, o, pc):  # bc 12,2
        return self._bc(o, pc, 2, 1)

    def i_blr(self, o, pc):
        return ("return",)

    # ---- vector loads and stores (ISA 6.7.2, 7.6) -----------------------------------------------
    def _ea(self, o):
        return (self.ra0(int(o[1])) + self.gval(int(o[2]), "address")) & MASK64

    @staticmethod
    def _xt(x):
        x = int(x)
        if x < 32:
            raise Unsupported("asm: VSX register %d (a floating-point register) not modelled" % x)
        return x - 32

    def i_lvx(self, o, pc):  # EA <- ((RA|0) + (RB)) & ~0xF; VRT <- MEM(EA, 16)
        self.setv(int(o[0]), P.lvx(self.mem, self._ea(o)))

    def i_stvx(self, o, pc):
        P.stvx(self.mem, self.v(int(o[0])), self._ea(o))

    def i_lxvw4x(self, o, pc):
        self.setv(self._xt(o[0]), P.lxvw4x(self.mem, self._ea(o)))

    def i_stxvw4x(self, o, pc):
        P.stxvw4x(self.mem, self.v(self._xt(o[0])), self._ea(o))

    def i_lxvb16x(self, o, pc):
        self.setv(self._xt(o[0]), P.lxvb16x(self.mem, self._ea(o)))

    def i_stxvb16x(self, o, pc):
        P.stxvb16x(self.mem, self.v(self._xt(o[0])), self._ea(o))

    def i_lxvd2x(self, o, pc):
        self.setv(self._xt(o[0]), P.lxvd2x(self.mem, self._ea(o)))

    def i_stxvd2x(self, o, pc):
        P.stxvd2x(self.mem, self.v(self._xt(o[0])), self._ea(o))

    # ---- vector arithmetic, permutes, crypto ----------------------------------------------------
    def _v3(self, o, f):
        self.setv(int(o[0]), f(self.v(int(o[1])), self.v(int(o[2]))))

    def i_vxor(self, o, pc):
        self._v3(o, P.vxor)

    def i_vadduwm(self, o, pc):
        self._v3(o, P.vadduwm)

    def i_vcipher(self, o, pc):
        self._v3(o, P.vcipher)

    def i_vcipherlast(self, o, pc):
        self._v3(o, P.vcipherlast)

    def i_vncipher(self, o, pc):
        self._v3(o, P.vncipher)

    def i_vncipherlast(self, o, pc):
        self._v3(o, P.vncipherlast)

    def i_vpmsumd(self, o, pc):
        self._v3(o, P.vpmsumd)

    def i_vsbox(self, o, pc):
        self.setv(int(o[0]), P.vsbox(self.v(int(o[1]))))

    def i_vperm(self, o, pc):
        self.setv(int(o[0]), P.vperm(self.v(int(o[1])), self.v(int(o[2])), self.v(int(o[3])),
                                     "asm %s: vperm" % self.u.name))

    def i_vsldoi(self, o, pc):
        shb = self.expr(o[3], pc)
        if not 0 <= shb < 16:
            raise Unsupported("asm: vsldoi shift %d" % shb)
        self.setv(int(o[0]), P.vsldoi(self.v(int(o[1])), self.v(int(o[2])), shb))

    def i_vspltw(self, o, pc):
        uim = self.expr(o[2], pc)
        if not 0 <= uim < 4:
            raise Unsupported("asm: vspltw %d" % uim)
        self.setv(int(o[0]), P.vspltw(self.v(int(o[1])), uim))

    def i_vspltisw(self, o, pc):
        sim = self.simm(o[1], pc)
        if not -16 <= sim < 16:
            raise Unsupported("asm: vspltisw %d" % sim)
        self.setv(int(o[0]), P.vspltisw(sim))


# ---- the executor's hook -------------------------------------------------------------------------

def externals(module):
    """For exec.Machine's externals: each function the module assembly defines, run by Interp when
    the IR calls it. Functions the IR calls directly are refused (see direct_callers)."""
    out = {}
    for name in defined_functions(module.module_asm):
        def run(m, args, name=name):
            placed = m.__dict__.setdefault("_asm_placed", {})  # laid out once per machine (memory)
            if name not in placed:
                if direct_callers(m.m, name):
                    raise Unsupported("asm %s is called directly by %s: r12 would not hold its address"
                                      % (name, direct_callers(m.m, name)))
                if "@.TOC." not in placed:
                    placed["@.TOC."] = m.mem.alloc("@.TOC.", 16).base
                placed[name] = Placed(m.mem, find_unit(m.m.module_asm, name), placed["@.TOC."])
            r3 = Interp(m, placed[name]).run(args, name)
            return r3[:32]  # the IR's int result: the low word of r3
        out[name] = run
    return out
