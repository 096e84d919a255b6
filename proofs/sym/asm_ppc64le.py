# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""asm_ppc64le.py -- an interpreter for the top-level (module) assembly of vg's ppc64le sources.

power8's and power9's AES key expansion (src/ppc64le/power8_aes.c, P8K_ASM), their GCM stitched loops
(power8_gcm.c, gcm_seal_stitched_R / gcm_open_stitched_R, called by gcm_seal_blocks / gcm_open_blocks)
and their short-message dispatch (gcm_seal_short / gcm_open_short) are functions written in assembly:
clang's IR has only their text (`module asm` lines) and a `declare`. An opaque block proves nothing, so
this file reads that text and executes it, one instruction at a time, on the executor's memory and bit
algebra:

- Macros. GNU as macros and conditional assembly (.macro/.endm with \\arg and defaults, .purgem,
  .irp/.endr, .if EXPR, .ifc/.ifnc, .else, .endif) are expanded textually first, as gas does (expand).
- Layout. The __asm__ statement holding a function (from its `.text` to the next one) is laid out as
  the assembler lays it out: 4 bytes per instruction, `.p2align`, `.byte`/`.long`/`.quad` data
  (little-endian), labels, numeric local labels (`1:` with `1f`/`1b`), `.pushsection .rodata` data
  after the text, `.long sym-1b` (sym a label, or a C function: an address of its own). It is placed
  in a read-only region of the executor's memory, so the constant tables (power8_aes.c's masks and
  round constants, power8_gcm.c's) are read by lvx from the bytes the source gives; instruction words
  read as data are undefined (fresh atoms), never zero.
- Registers. GPRs r0..r31 (64-bit), CR0, CTR, the vector registers v0..v31 (as LLVM values: 128 bits,
  least significant first; intrinsics_ppc64le.py's conventions), LR as the return to the caller.
  A register read before anything wrote it is an error (the ABI gives it no value; `vxor t,a,a` is
  zero whatever a holds). r1 and r13 are never written. The nonvolatile r14..r31, v20..v31 start as
  fresh atoms and must hold them again at the return or a tail call (saving and restoring proved);
  r1 points above a 288-byte protected zone private to the call (Interp.run).
- The call, ELFv2 (the 64-bit ELF V2 ABI for Power, 2.1: §2.2.2 registers, §2.2.3 parameter passing):
  arguments in r3..r10 (an int sign-extended, pointers and size_t as they are; a ninth in the caller's
  parameter save area, only passed on by a tail call), the result in r3, r2 the TOC (a region of its
  own; the IR does not use it; `sym@toc@ha/@l` are offsets from it). A function the IR calls only
  through a pointer (the implementation table) is entered at its global entry with r12 = its address,
  which the key expansion uses to find its table; one the IR calls directly (the stitched loops, see
  direct_callers) at its local entry with r12 undefined, after checking that the global entry's
  prologue leaves r2 the TOC.
- A `b` to a symbol that is not in the function's text, or a `bctr` to a C function's address with r12
  that address, is a tail call: the C function in the IR runs with r3.. (and the stack arguments) as
  its arguments, and its result is this function's (LR is untouched).
- Semantics: each instruction as the Power ISA 3.0B pseudo-code has it (cited beside each one), the
  vector ones through intrinsics_ppc64le.py's models. Each is validated against the instruction
  under qemu-ppc64le, and whole runs of the key expansion functions, the twelve stitched loops and the
  four dispatch copies against the real ones, by proofs/tests/validate_ppc64le.py (ctest
  prove.model_ppc64le); the macro expansion also by proofs/tests/test_asm_ppc64le.py.
- Constant time: an address (EA), a branch condition or a count (mtctr) that is not a constant fails
  the run, as in exec.py. Anything not listed here (an instruction, directive, operand form) is an
  error, never skipped.
"""
import re

from . import bits as B
from . import intrinsics_ppc64le as P
from .exec import CTViolation, Unsupported

MASK64 = (1 << 64) - 1

# ELFv2 §2.2.1.1: registers a function must leave as it found them. r1 (the stack pointer) and r13 (the
# thread pointer) are never written here; r14..r31 and v20..v31 may be, if restored (see Interp.run)
_FIXED_GPR = (1, 13)
_NONVOLATILE_GPR = set(range(14, 32))
_NONVOLATILE_VR = set(range(20, 32))
# ELFv2 §2.2.2.4: the protected zone, 288 bytes below r1, which a function may use without a frame
PROTECTED_ZONE = 288


def _signed(v, w):
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


# ---- the text ------------------------------------------------------------------------------------

# GNU as macros and conditional assembly (the GNU assembler manual, "Assembler Directives": .macro,
# .endm, .purgem, .irp, .endr, .if, .ifc, .ifnc, .else, .endif), expanded textually before layout as gas
# does: a macro's body with each \param replaced by its argument (its default, or nothing, when the
# call gives none), `\()` by nothing; .irp's body once per value; a conditional's false branch dropped.
# .if takes an absolute expression of numbers (the subset below); a symbol there is an error.

_DIRECTIVE_NESTING = {".macro": ".endm", ".irp": ".endr", ".irpc": ".endr", ".rept": ".endr"}


def _peel_labels(line):
    """(labels, rest) of a line: the `name:` / `1:` labels at its start."""
    labs = []
    while True:
        mm = re.match(r"([A-Za-z_.$][\w.$]*|\d+):\s*", line)
        if not mm:
            return labs, line
        labs.append(mm.group(1))
        line = line[mm.end():]


def _split_args(text):
    """Macro call or definition arguments: separated by commas (or blanks, as gas allows)."""
    text = text.strip()
    if not text:
        return []
    if "," in text:
        return [a.strip() for a in text.split(",")]
    return text.split()


def _substitute(body, params, what):
    """Each \\name of params in the body's lines replaced (the whole name after the backslash),
    `\\()` dropped; a \\name of no parameter is left for an enclosing .irp, as gas leaves it (one
    left over makes the instruction unparsable, an error); \\@ and the like are errors."""
    out = []
    for line in body:
        res, i = [], 0
        while i < len(line):
            c = line[i]
            if c != "\\":
                res.append(c)
                i += 1
                continue
            if line.startswith("\\()", i):
                i += 3
                continue
            mm = re.match(r"[A-Za-z_][\w]*", line[i + 1:])
            if not mm:
                raise Unsupported("asm %s: %r not modelled" % (what, line.strip()))
            if mm.group(0) in params:
                res.append(params[mm.group(0)])
            else:  # not this macro's: left as it is (an enclosing .irp's, as gas does)
                res.append(line[i:i + 1 + mm.end()])
            i += 1 + mm.end()
        out.append("".join(res))
    return out


def _collect(lines, i, opener, what):
    """The body of the block opened at lines[i] (a .macro or .irp) up to its matching end; (body, next)."""
    end = _DIRECTIVE_NESTING[opener]
    depth, body, j = 1, [], i + 1
    while j < len(lines):
        _, rest = _peel_labels(lines[j].strip())
        op = rest.split(None, 1)[0] if rest else ""
        if op in _DIRECTIVE_NESTING and _DIRECTIVE_NESTING[op] == end:
            depth += 1
        elif op == end:
            depth -= 1
            if depth == 0:
                return body, j + 1
        body.append(lines[j])
        j += 1
    raise Unsupported("asm %s: %s without %s" % (what, opener, end))


def _abs_expr(text, what):
    """A gas absolute expression of integers: prefix - ~ !, the infix operators at gas's precedence
    (comparisons give -1 for true, as gas does), parentheses. Anything else (a symbol) is an error."""
    toks = re.findall(r"\s*(0x[0-9a-fA-F]+|\d+|<<|>>|==|!=|<>|<=|>=|&&|\|\||[-+*/%&|^~!<>()])", text)
    if "".join(toks).replace(" ", "") != re.sub(r"\s+", "", text):
        raise Unsupported("asm %s: expression %r not modelled" % (what, text))
    toks = [t.strip() for t in toks]
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else None

    def take():
        pos[0] += 1
        return toks[pos[0] - 1]

    def unary():
        t = take()
        if t == "-":
            return -unary()
        if t == "~":
            return ~unary()
        if t == "!":
            return int(unary() == 0)
        if t == "(":
            v = level(0)
            if take() != ")":
                raise Unsupported("asm %s: unbalanced %r" % (what, text))
            return v
        if t is None or not re.fullmatch(r"0x[0-9a-fA-F]+|\d+", t):
            raise Unsupported("asm %s: expression %r not modelled" % (what, text))
        return int(t, 0)

    # gas's precedence (the GNU as manual, "Infix Operators"), loosest first, each level left to right
    levels = [("&&", "||"), ("+", "-", "==", "<>", "!=", "<", ">", ">=", "<="), ("|", "&", "^", "!"),
              ("*", "/", "%", "<<", ">>")]

    def apply(op, a, b):
        if op == "||":
            return int(bool(a) or bool(b))
        if op == "&&":
            return int(bool(a) and bool(b))
        if op in ("==", "!=", "<>", "<", ">", "<=", ">="):
            r = {"==": a == b, "!=": a != b, "<>": a != b, "<": a < b, ">": a > b, "<=": a <= b,
                 ">=": a >= b}[op]
            return -1 if r else 0
        if op in ("/", "%") and b == 0:
            raise Unsupported("asm %s: division by zero in %r" % (what, text))
        return {"+": a + b, "-": a - b, "&": a & b, "|": a | b, "^": a ^ b, "!": a | ~b, "*": a * b,
                "/": int(a / b), "%": a - b * int(a / b), "<<": a << b, ">>": a >> b}[op]

    def level(k):
        if k == len(levels):
            return unary()
        v = level(k + 1)
        kinds = set()
        while peek() in levels[k]:
            op = take()
            kinds.add(op in ("+", "-"))
            if len(kinds) > 1:
                # the manual puts + - and the comparisons on one level; not relied on: parenthesize
                raise Unsupported("asm %s: %r mixes + - with a comparison" % (what, text))
            v = apply(op, v, level(k + 1))
        return v

    v = level(0)
    if pos[0] != len(toks):
        raise Unsupported("asm %s: expression %r not modelled" % (what, text))
    return v


def expand(lines, what="asm", macros=None, depth=0):
    """The lines with every macro call, .irp and conditional expanded (gas's order: a line at a time,
    a macro's body expanded when it is called, with the macros defined at that point)."""
    if depth > 64:
        raise Unsupported("asm %s: macros nested too deep" % what)
    macros = {} if macros is None else macros
    out = []
    cond = []  # per open conditional: [this branch taken, some branch already taken, outer active]
    i = 0
    while i < len(lines):
        raw = lines[i]
        i += 1
        active = all(c[0] for c in cond)
        labs, rest = _peel_labels(raw.strip())
        parts = rest.split(None, 1)
        op = parts[0] if parts else ""
        args = parts[1].strip() if len(parts) > 1 else ""
        if op in (".if", ".ifc", ".ifnc", ".ifeq", ".ifne"):
            if labs:
                raise Unsupported("asm %s: label on %r" % (what, raw.strip()))
            if not active:
                cond.append([False, True, False])
                continue
            if op == ".ifc" or op == ".ifnc":
                if "," not in args:
                    raise Unsupported("asm %s: %r" % (what, raw.strip()))
                a, b = [x.strip() for x in args.split(",", 1)]
                if any(x.startswith("'") or x.startswith('"') for x in (a, b)):
                    raise Unsupported("asm %s: quoted .ifc strings not modelled" % what)
                t = (a == b) == (op == ".ifc")
            else:
                v = _abs_expr(args, what)
                t = v == 0 if op == ".ifeq" else v != 0
            cond.append([t, t, True])
            continue
        if op == ".else":
            if not cond or labs or args:
                raise Unsupported("asm %s: %r" % (what, raw.strip()))
            c = cond[-1]
            c[0] = c[2] and not c[1]
            c[1] = True
            continue
        if op == ".endif":
            if not cond or labs or args:
                raise Unsupported("asm %s: %r" % (what, raw.strip()))
            cond.pop()
            continue
        if op in (".elseif",):
            raise Unsupported("asm %s: %s not modelled" % (what, op))
        if not active:
            continue
        if op == ".macro":
            if labs:
                raise Unsupported("asm %s: label on %r" % (what, raw.strip()))
            body, i = _collect(lines, i - 1, ".macro", what)
            head = _split_args(args) if "," in args else args.split()
            if not head:
                raise Unsupported("asm %s: .macro without a name" % what)
            if "," in args:  # "NAME a, b" splits as "NAME a" then "b"
                first = head[0].split(None, 1)
                head = first + head[1:]
            name, params = head[0], []
            for p in head[1:]:
                mm = re.fullmatch(r"([A-Za-z_]\w*)(?:\s*=\s*(.*))?", p.strip())
                if not mm:
                    raise Unsupported("asm %s: macro parameter %r not modelled" % (what, p))
                params.append((mm.group(1), mm.group(2) or ""))
            if name in macros:
                raise Unsupported("asm %s: macro %s defined twice" % (what, name))
            macros[name] = (params, body)
            continue
        if op == ".purgem":
            if args not in macros:
                raise Unsupported("asm %s: .purgem of %s, no such macro" % (what, args))
            del macros[args]
            continue
        if op in (".irp", ".irpc", ".rept"):
            if op != ".irp" or labs:
                raise Unsupported("asm %s: %r not modelled" % (what, raw.strip()))
            body, i = _collect(lines, i - 1, ".irp", what)
            vals = _split_args(args)
            sym = vals[0].split(None, 1) if vals else []
            if not sym:
                raise Unsupported("asm %s: .irp without a symbol" % what)
            if len(sym) == 2:  # ".irp b 4,5": blank after the symbol
                vals = [sym[1]] + vals[1:]
            else:
                vals = vals[1:]
            for v in vals:
                out += expand(_substitute(body, {sym[0]: v}, what), what, macros, depth + 1)
            continue
        if op in (".endm", ".endr"):
            raise Unsupported("asm %s: %s without its opening directive" % (what, op))
        if op in macros:
            params, body = macros[op]
            vals = _split_args(args)
            if len(vals) > len(params) or any("=" in v for v in vals):
                raise Unsupported("asm %s: call %r of macro %s not modelled" % (what, raw.strip(), op))
            bind = {}
            for k, (pn, default) in enumerate(params):
                bind[pn] = vals[k] if k < len(vals) and vals[k] != "" else default
            out += ["%s:" % lab for lab in labs]
            out += expand(_substitute(body, bind, what), what, macros, depth + 1)
            continue
        out.append(raw)
    if cond:
        raise Unsupported("asm %s: .if without .endif" % what)
    return out



class Unit:
    """One __asm__ statement's text laid out: items at offsets, labels, data bytes. Its macros are
    expanded first (expand); what it puts in .rodata (`.pushsection .rodata` .. `.popsection`) is laid
    out after its text, 16-byte aligned (code reaches it only by its address: a symbol, @toc)."""

    def __init__(self, lines, name):
        self.name = name
        self.insns = {}      # offset -> (mnemonic, operand string, source line)
        self.labels = {}     # symbol -> offset
        self.numeric = []    # (number, offset) in order, for 1f / 1b
        self.data = {}       # offset -> byte value
        self.size = 0
        self.localentry = {}  # symbol -> its .localentry operand, and the offset the directive is at
        self.relocs = []     # (offset, width, symbol, addend): data naming a symbol outside the unit
        lines = expand(lines, name)
        text, ro = [], []
        cur = text
        stack = []
        for raw in lines:
            parts = raw.strip().split(None, 1)
            if parts and parts[0] == ".pushsection":
                if parts[1].strip() != ".rodata":
                    raise Unsupported("asm: section %s not modelled" % parts[1].strip())
                stack.append(cur)
                cur = ro
                continue
            if parts and parts[0] == ".popsection":
                if not stack:
                    raise Unsupported("asm: .popsection without .pushsection")
                cur = stack.pop()
                continue
            if parts and parts[0] in (".section", ".previous", ".data", ".bss"):
                raise Unsupported("asm: %s not modelled" % raw.strip())
            cur.append(raw)
        if stack:
            raise Unsupported("asm: .pushsection without .popsection")
        off = self._layout(text, 0, True)
        if ro:
            off = self._layout(ro, (off + 15) // 16 * 16, False)
        self.size = off

    def _layout(self, lines, off, code):
        for raw in lines:
            line = raw.strip()
            if not line:
                continue
            if "\\" in line:
                raise Unsupported("asm: %r: a macro argument left unexpanded" % line)
            labs, line = _peel_labels(line)
            for lab in labs:
                if lab.isdigit():
                    self.numeric.append((int(lab), off))
                else:
                    if lab in self.labels:
                        raise Unsupported("asm: label %s defined twice" % lab)
                    self.labels[lab] = off
            if not line:
                continue
            parts = line.split(None, 1)
            op = parts[0]
            args = parts[1].strip() if len(parts) > 1 else ""
            if op.startswith("."):
                off = self._directive(op, args, off, raw)
            elif not code:
                raise Unsupported("asm: instruction in .rodata (%s)" % raw.strip())
            else:
                self.insns[off] = (op, args, raw)
                off += 4
        return off

    def _directive(self, op, args, off, raw):
        if op in (".text", ".globl", ".hidden", ".type", ".size", ".machine"):
            return off
        if op == ".localentry":
            sym, val = [x.strip() for x in args.split(",", 1)]
            self.localentry[sym] = (val, off)
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
                tok = tok.strip()
                if re.fullmatch(r"-?(0x[0-9a-fA-F]+|\d+)", tok):
                    v = int(tok, 0) % (1 << (8 * width))
                    for k in range(width):  # little-endian, as the assembler emits for ppc64le
                        self.data[off + k] = (v >> (8 * k)) & 0xff
                else:
                    mm = re.fullmatch(r"([A-Za-z_.$][\w.$]*)\s*-\s*(\d+[fb]|[A-Za-z_.$][\w.$]*)", tok)
                    if not mm or width != 4:
                        raise Unsupported("asm: data %s not modelled (%s)" % (tok, raw.strip()))
                    # sym - label: resolved when the unit is placed (the symbol may be a C function)
                    self.relocs.append((off, width, mm.group(1), mm.group(2)))
                off += width
            return off
        raise Unsupported("asm: directive %s not modelled (%s)" % (op, raw.strip()))

    def local_entry(self, sym):
        """The local entry point's offset from sym (ELFv2 §3.4.1 .localentry): 0 when the function has
        no such directive or says 1 (it neither needs nor keeps a TOC: one entry point)."""
        if sym not in self.localentry:
            return 0
        val, at = self.localentry[sym]
        if val == "1" or val == "0":
            return 0
        if re.fullmatch(r"\.\s*-\s*%s" % re.escape(sym), val):
            d = at - self.labels[sym]
            if d not in (4, 8, 16, 32, 64):
                raise Unsupported("asm: .localentry %s is %d bytes" % (sym, d))
            return d
        raise Unsupported("asm: .localentry %s,%s not modelled" % (sym, val))

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
    """The IR functions that call name directly (not through a pointer): such a call enters at the local
    entry and does not set r12, so the interpreter then leaves r12 undefined (a kernel addressing its
    table from r12 fails) and enters as such a call does (Interp.run)."""
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

    def __init__(self, mem, unit, toc, functions=None):
        """functions: name -> address of the functions outside the unit (C functions of the IR) that
        its data names, shared by the units of one memory; each a region of its own, so that an
        address names one function (the executor cannot branch into C code: only to its entry)."""
        self.unit = unit
        r = mem.alloc("asm text of %s" % unit.name, max(unit.size, 16))
        for off, b in unit.data.items():
            r.bits[8 * off:8 * off + 8] = B.const_bits(b, 8)
        self.base = r.base
        self.toc = toc
        self.functions = {} if functions is None else functions
        for off, width, sym, ref in unit.relocs:
            if sym in unit.labels:
                target = self.base + unit.labels[sym]
            else:
                if sym not in self.functions:
                    self.functions[sym] = mem.alloc("function %s" % sym, 16, readonly=True).base
                target = self.functions[sym]
            at = unit.local_label(ref, off) if re.fullmatch(r"\d+[fb]", ref) else unit.labels.get(ref)
            if at is None:
                raise Unsupported("asm: %s-%s: %s unknown" % (sym, ref, ref))
            v = target - (self.base + at)
            if not -(1 << 31) <= v < (1 << 31):
                raise Unsupported("asm: %s-%s does not fit a .long" % (sym, ref))
            r.bits[8 * off:8 * off + 32] = B.const_bits(v % (1 << 32), 32)  # little-endian
        r.readonly = True  # .text
        self.region = r

    def symbol(self, name):
        if name in self.unit.labels:
            return self.base + self.unit.labels[name]
        if name == ".TOC.":
            return self.toc
        return None

    def function_at(self, addr):
        for name, a in self.functions.items():
            if a == addr:
                return name
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
        self.ctr = None      # the count register: an integer (public) or None (never set)
        self.entry = None
        self.saved = None    # the nonvolatile registers' values at entry: {("r"|"v", n): bits}
        self.stack_args = []  # the caller's arguments past the eighth (parameter save area)
        self.zone = None     # the protected zone's region (private to this call)

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
        if r in _FIXED_GPR or (r in _NONVOLATILE_GPR and self.saved is None):
            raise Unsupported("asm %s: writes r%d, which ELFv2 says it must preserve" % (self.u.name, r))
        self.gpr[r] = B.const_bits(v & MASK64, 64) if isinstance(v, int) else v

    def v(self, r):
        x = self.vr[r]
        if x is None:
            raise Unsupported("asm %s: v%d read before it is written" % (self.u.name, r))
        return x

    def setv(self, r, x):
        if r in _NONVOLATILE_VR and self.saved is None:
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
        toc = False
        mm = re.fullmatch(r"(.*?)(@toc)?@(ha|l|h)", text)
        if mm:
            text, toc, mod = mm.group(1), bool(mm.group(2)), mm.group(3)
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
        if toc:  # sym@toc: the offset of sym from the TOC pointer (ELFv2 §3.5.3, R_PPC64_TOC16_*)
            val -= self.p.toc
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
    def run(self, args, entry, direct=False, stack_args=None, tag=0):
        """Call the function at label entry with the IR's arguments (bit lists); returns r3 (bits).

        ELFv2: r2 holds the TOC (§2.2.1.1: every caller in this module has the same one); an indirect
        call (direct=False) enters at the global entry point with r12 = its address (§2.3.2.1), a
        direct one at the local entry point (.localentry) with r12 undefined. r1 points just above
        a protected zone (§2.2.2.4) of its own, fresh for the call (never-written bytes read as
        fresh atoms, so nothing the caller left there is assumed) and taken away at the return (so
        nothing can reach it after). Each nonvolatile register r14..r31, v20..v31 starts as fresh
        atoms (its value unknown) and must hold exactly those again at the return or tail call:
        saving and restoring it is then proved, not assumed. Arguments past the eighth are in the
        caller's parameter save area (stack_args): only passed on unchanged by a tail call."""
        for i, a in enumerate(args):
            if i >= 8:
                raise Unsupported("asm: more than 8 arguments")
            if len(a) < 64:  # an int: sign-extended by the caller (ELFv2 §2.2.3)
                a = a + [a[-1]] * (64 - len(a))
            self.gpr[3 + i] = a
        self.stack_args = list(stack_args or [])
        self.gpr[2] = B.const_bits(self.p.toc, 64)
        start = self.u.labels[entry]
        self.gpr[12] = B.const_bits(self.p.base + start, 64)
        if direct:
            if self.u.local_entry(entry):
                # the global entry's prologue (between the entry points) must leave r2 the TOC it
                # already holds: then entering at the local entry, as a direct call does, is the same
                self.execute(start, stop=start + self.u.local_entry(entry))
                if self.gpr[2] != B.const_bits(self.p.toc, 64):
                    raise Unsupported("asm %s: its global entry does not set r2 to the TOC" % entry)
                start += self.u.local_entry(entry)
            self.gpr[12] = None  # undefined at a direct call: reading it is an error
        self.entry = entry
        self.zone = self.mem.alloc("protected zone of %s #%s" % (entry, tag), PROTECTED_ZONE)
        self.gpr[1] = B.const_bits(self.zone.base + PROTECTED_ZONE, 64)
        self.saved = {}
        for r in _NONVOLATILE_GPR:
            self.gpr[r] = [B.var(("asm nonvolatile", entry, tag, "r%d" % r, i)) for i in range(64)]
            self.saved[("r", r)] = self.gpr[r]
        for r in _NONVOLATILE_VR:
            self.vr[r] = [B.var(("asm nonvolatile", entry, tag, "v%d" % r, i)) for i in range(128)]
            self.saved[("v", r)] = self.vr[r]
        self.fixed = {1: self.gpr[1], 2: self.gpr[2]}
        return self.execute(start)

    def leave(self, how):
        """At a return or a tail call: the nonvolatile registers as they were at entry, r1 the same,
        r2 the TOC (unless .localentry says the function does not keep it); the zone taken away."""
        if self.saved is None:
            return
        for (kind, r), v in self.saved.items():
            now = self.gpr[r] if kind == "r" else self.vr[r]
            if now != v:
                raise Unsupported("asm %s: at its %s %s%d does not hold its value at entry (ELFv2 nonvolatile)"
                                  % (self.u.name, how, kind, r))
        keeps_toc = self.u.localentry.get(self.entry, ("0", 0))[0] != "1"
        if self.gpr[1] != self.fixed[1] or (keeps_toc and self.gpr[2] != self.fixed[2]):
            raise Unsupported("asm %s: r1 or r2 changed at its %s" % (self.u.name, how))
        i = self.mem.regions.index(self.zone)
        del self.mem.regions[i]
        del self.mem.bases[i]

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
                self.leave("return")
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

    def _dform(self, text, pc, ds):
        """D(RA) (ds: the DS form, D a multiple of 4) -> EA = (RA|0) + EXTS(D)."""
        mm = re.fullmatch(r"(.+)\((\d+)\)", text.strip())
        if not mm:
            raise Unsupported("asm %s: operand %s not modelled" % (self.u.name, text))
        d, ra = self.simm(mm.group(1), pc), int(mm.group(2))
        if ds and d % 4:
            raise Unsupported("asm %s: DS-form offset %d not a multiple of 4" % (self.u.name, d))
        return (self.ra0(ra) + d) & MASK64

    def i_std(self, o, pc):  # 3.3.3 (DS-form): EA <- (RA|0) + EXTS(DS || 0b00); MEM(EA, 8) <- (RS)
        self.mem.store(self._dform(o[1], pc, True), self.g(int(o[0])))

    def i_ld(self, o, pc):  # 3.3.2 (DS-form): EA <- (RA|0) + EXTS(DS || 0b00); RT <- MEM(EA, 8)
        self.setg(int(o[0]), self.mem.load(self._dform(o[1], pc, True), 8))

    def i_lwz(self, o, pc):  # 3.3.2: EA <- (RA|0) + EXTS(D); RT <- 32 zeros || MEM(EA, 4)
        self.setg(int(o[0]), self.mem.load(self._dform(o[1], pc, False), 4) + [B.ZERO] * 32)

    def i_lwax(self, o, pc):  # 3.3.2 (X-form): EA <- (RA|0) + (RB); RT <- EXTS(MEM(EA, 4))
        ea = (self.ra0(int(o[1])) + self.gval(int(o[2]), "address")) & MASK64
        w = self.mem.load(ea, 4)
        self.setg(int(o[0]), w + [w[31]] * 32)

    def i_add(self, o, pc):  # 3.3.9: RT <- (RA) + (RB)
        self.setg(int(o[0]), B.add(self.g(int(o[1])), self.g(int(o[2]))))

    def i_mulli(self, o, pc):  # 3.3.9: prod0:127 <- (RA) x EXTS(SI); RT <- prod64:127
        self.setg(int(o[0]), self.gval(int(o[1]), "mulli") * self.simm(o[2], pc))

    def _rotl_mask(self, rs, sh, mb, me):
        """ISA 3.3.14: r <- ROTL64((RS), sh); m <- MASK(mb, me) (ISA bit numbers, 0 the most
        significant; mb > me wraps); r & m. On the bits (least significant first), any value."""
        v = self.g(rs)
        r = [v[(i - sh) % 64] for i in range(64)]  # ROTL64: bit i of the result is bit i - sh
        keep = set()
        k = mb
        while True:
            keep.add(63 - k)  # ISA bit k is bit 63 - k here
            if k == me:
                break
            k = (k + 1) % 64
        return [r[i] if i in keep else B.ZERO for i in range(64)]

    def _rc(self, v):
        """Rc = 1: CR0 from the result (signed compare with 0; SO unknown); a secret result leaves
        CR0 unknown, so a branch on it is an error."""
        c = B.const_value(v)
        if c is None:
            self.cr0 = None
        else:
            self.set_cr0_signed(c)

    def _imm6(self, t, pc):
        v = self.expr(t, pc)
        if not 0 <= v < 64:
            raise Unsupported("asm %s: shift %s out of range" % (self.u.name, t))
        return v

    def i_rldicl(self, o, pc):  # rldicl RA,RS,SH,MB: RA <- ROTL64((RS), SH) & MASK(MB, 63)
        self.setg(int(o[0]), self._rotl_mask(int(o[1]), self._imm6(o[2], pc), self._imm6(o[3], pc), 63))

    def i_srdi(self, o, pc):  # extended mnemonic: rldicl RA,RS,64-n,n
        n = self._imm6(o[2], pc)
        self.setg(int(o[0]), self._rotl_mask(int(o[1]), (64 - n) % 64, n, 63))

    def i_srdi_dot(self, o, pc):  # rldicl. RA,RS,64-n,n (Rc = 1)
        self.i_srdi(o, pc)
        self._rc(self.g(int(o[0])))

    def i_sldi(self, o, pc):  # extended mnemonic: rldicr RA,RS,n,63-n: RA <- ROTL64((RS), n) & MASK(0, 63-n)
        n = self._imm6(o[2], pc)
        self.setg(int(o[0]), self._rotl_mask(int(o[1]), n, 0, 63 - n))

    def i_mtctr(self, o, pc):  # mtspr 9,RS: CTR <- (RS); a count the branches use: public
        self.ctr = self.gval(int(o[0]), "branch count (mtctr)")

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
        return self.tail(o[0].strip())

    def tail(self, name):
        """A tail call of the C function name: r3.. (and the caller's stack arguments, untouched) are
        its arguments, its result this function's; ELFv2's nonvolatile registers must be restored."""
        self.leave("tail call")
        f = self.m.m.functions.get(name) if hasattr(self.m, "m") else None
        if f is None:
            if hasattr(self.m, "tail_call"):
                return ("tail", self.m.tail_call(name, self))
            raise Unsupported("asm %s: branch to %s, not a function of the IR" % (self.u.name, name))
        args = []
        for i, (ty, _) in enumerate(f.params):
            w = self.m.m.bits(ty)
            if i < 8:
                args.append(self.g(3 + i)[:w])
            elif i - 8 < len(self.stack_args):
                args.append(self.stack_args[i - 8])
            else:
                raise Unsupported("asm %s: tail call of %s with more arguments than it was given"
                                  % (self.u.name, name))
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

    def i_bgt(self, o, pc):  # bc 12,1: branch if CR0.GT = 1
        return self._bc(o, pc, 1, 1)

    def i_ble(self, o, pc):  # bc 4,1: branch if CR0.GT = 0
        return self._bc(o, pc, 1, 0)

    def i_bdnz(self, o, pc):  # bc 16,0: CTR <- CTR - 1; branch if CTR != 0
        t = self._target(o[0], pc)
        if t is None:
            raise Unsupported("asm: bdnz out of the function")
        if self.ctr is None:
            raise Unsupported("asm %s: bdnz with CTR never set" % self.u.name)
        self.ctr = (self.ctr - 1) & MASK64
        return ("jump", t) if self.ctr != 0 else None

    def i_bctr(self, o, pc):  # bcctr 20,0: NIA <- CTR & ~3 (a branch through a register: a tail call)
        if self.ctr is None:
            raise Unsupported("asm %s: bctr with CTR never set" % self.u.name)
        return self.branch_to(self.ctr & ~3 & MASK64)

    def branch_to(self, addr):
        """A branch to an address: a label of this text, or (ELFv2) a tail call of the C function whose
        address it is (the IR function, entered at its global entry with r12 = its address)."""
        off = addr - self.p.base
        if 0 <= off < self.u.size and off in self.u.insns:
            return ("jump", off)
        name = self.p.function_at(addr)
        if name is None:
            raise Unsupported("asm %s: branch to %#x, no instruction or function there" % (self.u.name, addr))
        if self.gpr[12] is None or B.const_value(self.gpr[12]) != addr:
            raise Unsupported("asm %s: branch to %s with r12 not its address" % (self.u.name, name))
        return self.tail(name)

    def i_blr(self, o, pc):
        return ("return",)

    # ---- vector loads and stores (ISA 6.7.2, 7.6) -----------------------------------------------
    def _ea(self, o):
        return (self.ra0(int(o[1])) + self.gval(int(o[2]), "address")) & MASK64

    def _xt(self, x):
        x = self.expr(x, 0)  # a number, or 32+n
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
        if int(o[1]) == int(o[2]):  # vxor t,a,a: zero whatever a holds (read or not: the idiom)
            self.setv(int(o[0]), B.const_bits(0, 128))
            return
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

    def i_vpermxor(self, o, pc):  # 6.11: the selector must be constant (it is: a table mask)
        self.setv(int(o[0]), P.vpermxor(self.v(int(o[1])), self.v(int(o[2])), self.v(int(o[3]))))

    def i_xxpermdi(self, o, pc):
        """7.6 xxpermdi XT,XA,XB,DM: XT <- (XA doubleword DM[0]) || (XB doubleword DM[1]) (ISA
        numbering: doubleword 0 the most significant, bits [64, 128) here)."""
        dm = self.expr(o[3], pc)
        if not 0 <= dm < 4:
            raise Unsupported("asm: xxpermdi %d" % dm)
        a, b = self.v(self._xt(o[1])), self.v(self._xt(o[2]))

        def dw(x, k):
            return x[64:128] if k == 0 else x[0:64]
        self.setv(self._xt(o[0]), dw(b, dm & 1) + dw(a, dm >> 1))

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
                if "@.TOC." not in placed:
                    placed["@.TOC."] = m.mem.alloc("@.TOC.", 16).base
                    placed["@functions"] = {}
                units_ = m.m.__dict__.setdefault("_asm_units", {})  # laid out once per module
                if name not in units_:
                    units_[name] = find_unit(m.m.module_asm, name)
                placed[name] = Placed(m.mem, units_[name], placed["@.TOC."], placed["@functions"])
            # a function the IR calls directly is entered at its local entry (r12 is not its address
            # then); one with indirect calls only, at its global entry with r12 set
            direct = bool(direct_callers(m.m, name))
            ft = m.m.functions.get(name)
            nparams = len(ft.params) if ft is not None else len(args)
            calls = placed.setdefault("@calls", [0])
            calls[0] += 1
            r3 = Interp(m, placed[name]).run(args[:8], name, direct=direct, stack_args=args[8:nparams],
                                             tag=calls[0])
            return r3[:32] if r3 is not None else r3  # the IR's int result: the low word of r3
        out[name] = run
    return out
