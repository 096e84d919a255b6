#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""validate_aarch64.py -- ctest prove.model_aarch64: every AArch64 instruction semantics of
proofs/sym/asm_aarch64.py, and every llvm.aarch64.* intrinsic model of proofs/sym/intrinsics_aarch64.py,
against the instruction itself under qemu-aarch64, on edge inputs (zero, all ones, single bits,
alternating patterns, counters that wrap) and random ones.

Each case is one snippet of assembly text. The same text runs twice: compiled into a C program
(generated here, built with aarch64-linux-gnu-gcc, run under qemu-aarch64 -cpu CPU) between loads
of v0-v7, x0-x3 and x4 = the address of a 128-byte buffer, and stores of them afterwards; and in the
interpreter, from the same registers and buffer. Every output register, the buffer and x4's
change must be equal. The AES, PMULL, EOR3, TBL and LD1/ST1 cases are also run through the intrinsic
models (the IR's llvm.aarch64.* calls), and a fifth of all cases also with symbolic inputs
(variables), whose terms are then evaluated on the concrete input: that validates the terms the
proofs build (word nodes, S-box tables), not only their constant folding.

On a CPU without FEAT_SHA3 (cortex-a57) the EOR3 cases are UNAVAILABLE, and without FEAT_DIT the DIT
ones; the CPU models' feature bits (HWCAP positions, ID_AA64PFR0_EL1.DIT) are checked against each
CPU too.

  validate_aarch64.py BUILD_DIR [COUNT] [--cpu max --cpu cortex-a57]
  VALIDATE_BREAK=<case prefix>  flips one bit of the model's result for those cases (must then fail)
"""
import argparse
import os
import random
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from sym import asm_aarch64 as S  # noqa: E402
from sym import bits as B  # noqa: E402
from sym import intrinsics_aarch64 as IA  # noqa: E402
from sym import ir  # noqa: E402
from sym.exec import Memory  # noqa: E402

CC = os.environ.get("VG_AARCH64_CC", "aarch64-linux-gnu-gcc")
QEMU = os.environ.get("VG_QEMU_AARCH64", "qemu-aarch64")

# ---- the cases: (name, text, needs, kind) --------------------------------------------------------------
# kind: None, or how the v/x inputs are shaped ("tblN": indices in v5 mostly inside an N-register table;
# "loop": x0 a small count; "zero": x1 sometimes 0)


def cases():
    out = [
        ("aese", "aese v0.16b, v1.16b", None, None),
        ("aesd", "aesd v0.16b, v1.16b", None, None),
        ("aesmc", "aesmc v0.16b, v1.16b", None, None),
        ("aesimc", "aesimc v0.16b, v1.16b", None, None),
        ("aese+aesmc", "aese v0.16b, v1.16b\n\taesmc v0.16b, v0.16b", None, None),
        ("pmull", "pmull v0.1q, v1.1d, v2.1d", None, None),
        ("pmull2", "pmull2 v0.1q, v1.2d, v2.2d", None, None),
        ("pmull.8h", "pmull v0.8h, v1.8b, v2.8b", None, None),
        ("pmull2.8h", "pmull2 v0.8h, v1.16b, v2.16b", None, None),
        ("eor", "eor v0.16b, v1.16b, v2.16b", None, None),
        ("eor.8b", "eor v0.8b, v1.8b, v2.8b", None, None),
        ("eor3", "eor3 v0.16b, v1.16b, v2.16b, v3.16b", "sha3", None),
        ("eor3.same", "eor3 v1.16b, v1.16b, v1.16b, v2.16b", "sha3", None),
        ("tbl1", "tbl v0.16b, {v1.16b}, v5.16b", None, "tbl1"),
        ("tbl2", "tbl v0.16b, {v1.16b-v2.16b}, v5.16b", None, "tbl2"),
        ("tbl2.list", "tbl v0.16b, {v1.16b, v2.16b}, v5.16b", None, "tbl2"),
        ("tbl3", "tbl v0.16b, {v1.16b-v3.16b}, v5.16b", None, "tbl3"),
        ("tbl4", "tbl v0.16b, {v1.16b-v4.16b}, v5.16b", None, "tbl4"),
        ("tbl1.8b", "tbl v0.8b, {v1.16b}, v5.8b", None, "tbl1"),
        ("tbl.inplace", "tbl v1.16b, {v1.16b}, v5.16b", None, "tbl1"),
        ("rev16", "rev16 v0.16b, v1.16b", None, None),
        ("rev32", "rev32 v0.16b, v1.16b", None, None),
        ("rev32.8h", "rev32 v0.8h, v1.8h", None, None),
        ("rev32.8b", "rev32 v0.8b, v1.8b", None, None),
        ("rev64", "rev64 v0.16b, v1.16b", None, None),
        ("rev64.4s", "rev64 v0.4s, v1.4s", None, None),
        ("movi.16b.0", "movi v0.16b, #0", None, None),
        ("movi.16b.5a", "movi v0.16b, #0x5a", None, None),
        ("movi.8b", "movi v0.8b, #255", None, None),
        ("movi.2d", "movi v0.2d, #0xff00ff0000ffff00", None, None),
        ("movi.d", "movi d0, #0xffffffff00000000", None, None),
        ("movi.4s", "movi v0.4s, #0x1b, lsl #8", None, None),
        ("movi.8h", "movi v0.8h, #0x80, lsl #8", None, None),
        ("ld1.1", "ld1 {v0.16b}, [x4]", None, None),
        ("ld1.4.post", "ld1 {v0.16b-v3.16b}, [x4], #64", None, None),
        ("ld1.3.post", "ld1 {v1.16b-v3.16b}, [x4], #48", None, None),
        ("ld1.2.list.reg", "ld1 {v0.16b, v1.16b}, [x4], x1", None, None),
        ("ld1.4s", "ld1 {v0.4s-v1.4s}, [x4]", None, None),
        ("ld1.8b", "ld1 {v0.8b-v1.8b}, [x4], #16", None, None),
        ("ld1.2d", "ld1 {v6.2d}, [x4]", None, None),
        ("st1.4.post", "st1 {v0.16b-v3.16b}, [x4], #64", None, None),
        ("st1.1", "st1 {v2.16b}, [x4]", None, None),
        ("st1.8b", "st1 {v0.8b-v2.8b}, [x4], #24", None, None),
        ("ldp.q", "ldp q0, q1, [x4]", None, None),
        ("ldp.q.off", "ldp q2, q3, [x4, #32]", None, None),
        ("ldp.q.pre", "ldp q0, q1, [x4, #32]!", None, None),
        ("ldp.q.post", "ldp q0, q1, [x4], #32", None, None),
        ("ldp.x", "ldp x0, x1, [x4, #8]", None, None),
        ("ldp.d", "ldp d0, d1, [x4]", None, None),
        ("stp.q.off", "stp q0, q1, [x4, #16]", None, None),
        ("stp.q.post", "stp q2, q3, [x4], #32", None, None),
        ("stp.x.pre", "stp x2, x3, [x4, #24]!", None, None),
        ("add.scalar", "add x0, x1, #16", None, None),
        ("add.reg.w", "add w0, w1, w2", None, None),
        ("sub.reg", "sub x0, x1, x2", None, None),
        ("subs.imm", "subs x0, x1, #1\n\tmrs x3, nzcv", None, "zero"),
        ("subs.imm12", "subs x0, x1, #0xfff\n\tmrs x3, nzcv", None, "zero"),
        ("subs.lsl12", "subs x0, x1, #1, lsl #12\n\tmrs x3, nzcv", None, "zero"),
        ("subs.reg", "subs x0, x1, x2\n\tmrs x3, nzcv", None, "zero"),
        ("subs.w", "subs w0, w1, w2\n\tmrs x3, nzcv", None, "zero"),
        ("loop", "movi v0.16b, #0\n\tmovi v6.16b, #3\n1:\n\tadd v0.16b, v0.16b, v6.16b\n\tsubs x0, x0, #1\n\tb.ne 1b",
         None, "loop"),
        ("cbz", "cbz x1, 1f\n\tmovi v0.16b, #1\n\tb 2f\n1:\n\tmovi v0.16b, #2\n2:", None, "zero"),
        ("cbnz.w", "cbnz w1, 1f\n\tmovi v0.16b, #1\n\tb 2f\n1:\n\tmovi v0.16b, #2\n2:", None, "zero"),
        ("dit.inst", ".inst 0xd503415f\n\tmrs x0, s3_3_c4_c2_5\n\t.inst 0xd503405f\n\tmrs x1, s3_3_c4_c2_5",
         "dit", None),
        ("dit.msr.reg", "msr s3_3_c4_c2_5, x2\n\tmrs x0, s3_3_c4_c2_5\n\t.inst 0xd503405f", "dit", None),
    ]
    for t in ("16b", "8b", "8h", "4h", "4s", "2s", "2d"):
        out.append(("add." + t, "add v0.%s, v1.%s, v2.%s" % (t, t, t), None, None))
    out.append(("sub.4s", "sub v0.4s, v1.4s, v2.4s", None, None))
    for k in range(16):
        out.append(("ext.16b.%d" % k, "ext v0.16b, v1.16b, v2.16b, #%d" % k, None, None))
    for k in range(8):
        out.append(("ext.8b.%d" % k, "ext v0.8b, v1.8b, v2.8b, #%d" % k, None, None))
    for c in ("eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt", "le"):
        out.append(("b." + c, "subs x0, x1, x2\n\tb.%s 1f\n\tmovi v0.16b, #1\n\tb 2f\n1:\n\tmovi v0.16b, #2\n2:" % c,
                    None, "zero"))
    return out


# ---- the C program ------------------------------------------------------------------------------------

def c_source(cs):
    out = ["/* generated by proofs/tests/validate_aarch64.py: each case's text between loads and stores */",
           "#include <stdint.h>", "#include <stdio.h>", "#include <string.h>", "#include <sys/auxv.h>", ""]
    for i, (name, text, _needs, _kind) in enumerate(cs):
        body = "\\n\\t".join(line.replace("\\", "\\\\").replace('"', '\\"') for line in text.split("\n"))
        out.append("static void case_%d(uint8_t *v, uint64_t *x, uint8_t *mem) /* %s */" % (i, name))
        out.append("{")
        out.append('    __asm__ volatile("ldp q0, q1, [%0]\\n\\tldp q2, q3, [%0, #32]\\n\\t"')
        out.append('                     "ldp q4, q5, [%0, #64]\\n\\tldp q6, q7, [%0, #96]\\n\\t"')
        out.append('                     "ldp x0, x1, [%1]\\n\\tldp x2, x3, [%1, #16]\\n\\tmov x4, %2\\n\\t"')
        out.append('                     "%s\\n\\t"' % body)
        out.append('                     "stp q0, q1, [%0]\\n\\tstp q2, q3, [%0, #32]\\n\\t"')
        out.append('                     "stp q4, q5, [%0, #64]\\n\\tstp q6, q7, [%0, #96]\\n\\t"')
        out.append('                     "stp x0, x1, [%1]\\n\\tstp x2, x3, [%1, #16]\\n\\tsub x4, x4, %2\\n\\t"')
        out.append('                     "str x4, [%1, #32]"')
        out.append('                     : : "r"(v), "r"(x), "r"(mem)')
        out.append('                     : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "x0", "x1", "x2", "x3", '
                   '"x4", "memory", "cc");')
        out.append("}")
    out.append("static void (*const cases[])(uint8_t *, uint64_t *, uint8_t *) = {")
    out.append(",\n".join("    case_%d" % i for i in range(len(cs))))
    out.append("};")
    out.append("static const char *const needs[] = {%s};" % ", ".join('"%s"' % (c[2] or "") for c in cs))
    out.append(r'''
static int unhex(const char *s, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned b;
        if (sscanf(s + 2 * i, "%2x", &b) != 1) return -1;
        out[i] = (uint8_t)b;
    }
    return 0;
}

static void hex(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
}

int main(void)
{
    unsigned long hw = getauxval(AT_HWCAP);
    int sha3 = (hw >> 17) & 1, dit = (hw >> 24) & 1;
    uint64_t pfr0 = 0;
    if (hw & (1ul << 11)) {
        __asm__ volatile("mrs %0, s3_0_c0_c4_0" : "=r"(pfr0));
        if ((pfr0 >> 48) & 0xf) dit = 1;
    }
    printf("cpu %lx %llx\n", hw, (unsigned long long)pfr0);
    static char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        unsigned idx;
        char vs[300], xs[100], ms[300];
        if (sscanf(line, "%u %299s %99s %299s", &idx, vs, xs, ms) != 4) return 2;
        const char *nd = needs[idx];
        if ((!strcmp(nd, "sha3") && !sha3) || (!strcmp(nd, "dit") && !dit)) {
            printf("UNAVAILABLE\n");
            continue;
        }
        uint8_t v[128] __attribute__((aligned(16))), mem[128] __attribute__((aligned(16)));
        uint64_t x[5] = {0};
        if (unhex(vs, v, 128) || unhex(xs, (uint8_t *)x, 32) || unhex(ms, mem, 128)) return 2;
        cases[idx](v, x, mem);
        hex(v, 128);
        printf(" ");
        hex((const uint8_t *)x, 40);
        printf(" ");
        hex(mem, 128);
        printf("\n");
    }
    return 0;
}
''')
    return "\n".join(out)


# ---- inputs -------------------------------------------------------------------------------------------

def edge16():
    n = 16
    e = [bytes(n), bytes([0xff] * n), bytes([0xaa] * n), bytes([0x55] * n), bytes(range(n)),
         bytes([0x80] + [0] * (n - 1)), bytes([0] * (n - 1) + [0x01]), bytes([0xff, 0xff, 0xff, 0x7f] * 4),
         bytes([0, 0, 0, 0x80] * 4), bytes([0xff] * 8 + [0] * 8)]
    for i in range(0, 128, 37):
        e.append(bytes((1 << (i % 8)) if k == i // 8 else 0 for k in range(n)))
    return e


X_EDGE = [0, 1, 2, 0xfff, 0x1000, (1 << 63), (1 << 63) - 1, (1 << 64) - 1, 0x7fffffff, 0x80000000, 0xffffffff]


def make_inputs(kind, rnd, count):
    edge = edge16()
    out = []
    for i in range(len(edge) + count):
        if i < len(edge):
            v = [edge[(i + 3 * k) % len(edge)] for k in range(8)]
            xs = [X_EDGE[(i + k) % len(X_EDGE)] for k in range(4)]
        else:
            v = [bytes(rnd.getrandbits(8) for _ in range(16)) for _ in range(8)]
            xs = [rnd.getrandbits(64) for _ in range(4)]
        if kind and kind.startswith("tbl"):
            n = int(kind[3:])
            v[5] = bytes(b % (16 * n + 8) if (i + j) % 5 else b for j, b in enumerate(v[5]))
        if kind == "loop":
            xs[0] = 1 + i % 20
        if kind == "zero":
            if i % 3 == 0:
                xs[1] = xs[2]
            if i % 4 == 1:
                xs[1] = 0
            if i % 7 == 2:
                xs[1] &= 0xffffffff00000000
        mem = bytes(rnd.getrandbits(8) for _ in range(128))
        out.append((b"".join(v), b"".join(x.to_bytes(8, "little") for x in xs), mem))
    return out


def bits_of(bs):
    out = []
    for x in bs:
        out += B.const_bits(x, 8)
    return out


def bits_of_named(name, data):
    return bits_of(data)


def bytes_of(bits):
    v = B.const_value(bits)
    return bytes((v >> (8 * i)) & 0xff for i in range(len(bits) // 8))


# ---- the model side -----------------------------------------------------------------------------------

def model_cpu(name):
    feats = {"max": {"aes", "pmull", "sha3", "dit", "cpuid"}}.get(name, {"aes", "pmull", "cpuid"})
    return S.CPU("qemu " + name, feats, 0, 1 << 48 if "dit" in feats else 0)


class FakeMachine:
    """What the intrinsic handlers use of a Machine: memory, the CPU, and type sizes."""

    def __init__(self, mem, cpu):
        self.mem = mem
        self.aarch64_cpu = cpu
        self.m = ir.Module()


def run_model(text, kind, cpu_name, vin, xin, memin, symbolic, rnd):
    mem = Memory()
    r = mem.alloc("buffer", 128)
    env = {}
    if symbolic:
        def val(name, data):  # noqa: E306
            bits = []
            for i, byte in enumerate(data):
                for j in range(8):
                    key = (name, rnd.random(), 8 * i + j)
                    env[key] = (byte >> j) & 1
                    bits.append(B.var(key))
            return bits
    else:
        val = bits_of_named
    mem.store(r.base, val("mem", memin))
    # symbolic: the vector registers and memory (the data of the proofs); general registers are
    # addresses and counts, public by the constant-time rule, and so are TBL's indices (v5)
    tbl = kind is not None and kind.startswith("tbl")
    vregs = {i: (bits_of_named if i == 5 and tbl else val)("v%d" % i, vin[16 * i:16 * i + 16]) for i in range(8)}
    xregs = {i: bits_of(xin[8 * i:8 * i + 8]) for i in range(4)}
    xregs[4] = B.const_bits(r.base, 64)
    cpu = model_cpu(cpu_name)
    cpu.check_dit = False  # values only: the DIT rule is the proofs' concern
    st = S.run_raw(text, mem, cpu, vregs, xregs)

    def conc(bits):
        if symbolic:
            v = B.evaluate(bits, env)
            return bytes((v >> (8 * i)) & 0xff for i in range(len(bits) // 8))
        return bytes_of(bits)
    v = b"".join(conc(st.v[str(i)]) for i in range(8))
    x = b"".join(conc(st.x[str(i)]) for i in range(4))
    delta = (B.const_value(st.x["4"]) - r.base) % (1 << 64)
    return v + x + delta.to_bytes(8, "little"), conc(mem.load(r.base, 128))


def intrinsic_check(name, vin, memin):
    """The llvm.aarch64.* model for the cases that have one: (what, its result for v0 or the buffer)."""
    cpu = model_cpu("max")
    mem = Memory()
    r = mem.alloc("buffer", 128)
    mem.store(r.base, bits_of(memin))
    m = FakeMachine(mem, cpu)
    v = [bits_of(vin[16 * i:16 * i + 16]) for i in range(8)]
    A = IA.AARCH64
    if name in ("aese", "aesd"):
        return name, bytes_of(A["llvm.aarch64.crypto." + name](m, None, [v[0], v[1]], name))
    if name in ("aesmc", "aesimc"):
        return name, bytes_of(A["llvm.aarch64.crypto." + name](m, None, [v[1]], name))
    if name == "eor3":
        return name, bytes_of(A["llvm.aarch64.crypto.eor3u.v16i8"](m, None, [v[1], v[2], v[3]], name))
    if name == "tbl1":
        return name, bytes_of(A["llvm.aarch64.neon.tbl1.v16i8"](m, None, [v[1], v[5]], name))
    if name == "pmull":
        return name, bytes_of(A["llvm.aarch64.neon.pmull64"](m, None, [v[1][:64], v[2][:64]], name))
    if name == "ld1.4.post":
        ty = ("struct", [("vec", 16, ("int", 8))] * 4, False)
        res = A["llvm.aarch64.neon.ld1x4."](m, {"ty": ty}, [B.const_bits(r.base, 64)], name)
        return "ld1x4", b"".join(bytes_of(x) for x in res)
    if name == "st1.4.post":
        A["llvm.aarch64.neon.st1x4."](m, None, v[:4] + [B.const_bits(r.base, 64)], name)
        return "st1x4", bytes_of(mem.load(r.base, 128))
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("count", nargs="?", type=int, default=24)
    ap.add_argument("--cpu", action="append")
    a = ap.parse_args()
    cpus = a.cpu or ["max", "cortex-a57"]
    for tool in (CC, QEMU):
        if shutil.which(tool) is None:
            print("validate_aarch64: %s not found (scripts/install-deps.sh installs it)" % tool)
            return 1
    cs = cases()
    os.makedirs(a.build, exist_ok=True)
    src = os.path.join(a.build, "aarch64_insn.c")
    exe = os.path.join(a.build, "aarch64_insn")
    with open(src, "w") as f:
        f.write(c_source(cs))
    subprocess.run([CC, "-O1", "-static", "-march=armv8.2-a+crypto+sha3", "-o", exe, src], check=True)
    brk = os.environ.get("VALIDATE_BREAK")
    rnd = random.Random(20261206)
    work = []
    for i, (name, text, needs, kind) in enumerate(cs):
        for vin, xin, memin in make_inputs(kind, rnd, a.count):
            work.append((i, vin, xin, memin))
    text_in = "".join("%d %s %s %s\n" % (i, v.hex(), x.hex(), m.hex()) for i, v, x, m in work)
    bad = 0
    validated = set()
    for cpu in cpus:
        p = subprocess.run([QEMU, "-cpu", cpu, exe], input=text_in, capture_output=True, text=True)
        lines = p.stdout.split("\n")
        if p.returncode != 0 or len(lines) < len(work) + 1:
            print("validate_aarch64: %s under -cpu %s: exit %d, %d answers for %d cases\n%s"
                  % (exe, cpu, p.returncode, len(lines) - 2, len(work), p.stderr[-2000:]))
            return 1
        # the CPU models' feature bits against this CPU's
        hw, pfr0 = (int(t, 16) for t in lines[0].split()[1:3])
        want_sha3 = cpu == "max"
        ok = (hw >> 3) & 1 and (hw >> 4) & 1 and (hw >> 11) & 1 and bool((hw >> 17) & 1) == want_sha3 \
            and bool((pfr0 >> 48) & 0xf) == want_sha3
        print("cpu %s: HWCAP %#x, ID_AA64PFR0_EL1.DIT %d: %s" % (cpu, hw, (pfr0 >> 48) & 0xf,
                                                                "as modelled" if ok else "NOT AS MODELLED"))
        if not ok:
            bad += 1
        checked, unavailable, intr, failed = {}, set(), {}, {}
        srnd = random.Random(7)
        for k, ((i, vin, xin, memin), hwline) in enumerate(zip(work, lines[1:])):
            name, text, needs, kind = cs[i]
            if hwline == "UNAVAILABLE":
                unavailable.add(name)
                continue
            hv, hx, hm = hwline.split()
            hregs, hmem = bytes.fromhex(hv) + bytes.fromhex(hx), bytes.fromhex(hm)
            try:
                regs, mem = run_model(text, kind, cpu, vin, xin, memin, k % 5 == 0, srnd)
            except Exception as e:  # a model that cannot run a case is a failure
                regs, mem = b"", repr(e).encode()
            if brk and name.startswith(brk) and regs:
                regs = bytes([regs[0] ^ 1]) + regs[1:]
            checked[name] = checked.get(name, 0) + 1
            if (regs, mem) != (hregs, hmem):
                bad += 1
                failed[name] = failed.get(name, 0) + 1
                if bad <= 8:
                    print("MISMATCH %s (-cpu %s) v=%s x=%s mem=%s:\n  model       %s %s\n  instruction %s %s"
                          % (name, cpu, vin.hex(), xin.hex(), memin.hex(), regs.hex(), mem[:200],
                             hregs.hex(), hmem.hex()))
            ic = intrinsic_check(name, vin, memin)
            if ic is not None:
                what, got = ic
                want = hmem if what == "st1x4" else (hregs[:64] if what == "ld1x4" else hregs[:16])
                if brk and what.startswith(brk):
                    got = bytes([got[0] ^ 1]) + got[1:]
                intr[what] = intr.get(what, 0) + 1
                if got != want:
                    bad += 1
                    if bad <= 8:
                        print("MISMATCH intrinsic %s (-cpu %s) v=%s: model %s, instruction %s"
                              % (what, cpu, vin.hex(), got.hex(), want.hex()))
        print("cpu %s: %d instruction cases validated on %d inputs; intrinsics %s"
              % (cpu, len(checked), sum(checked.values()),
                 ", ".join("%s %d" % kv for kv in sorted(intr.items()))))
        if failed:
            print("  mismatches: %s" % ", ".join("%s %d" % kv for kv in sorted(failed.items())))
        for name in sorted(unavailable):
            print("  UNAVAILABLE on %s: %s (validated on the other CPU)" % (cpu, name))
        for name in checked:
            validated.add(name)
    # every case, and every mnemonic the interpreter defines, validated on at least one CPU
    missing = [c[0] for c in cs if c[0] not in validated]
    used = {line.split()[0] for c in cs for line in c[1].split("\n") if line.strip() and not line.endswith(":")}
    missing += ["mnemonic " + mn for mn in sorted(S.INSTRUCTIONS) if mn not in used]
    if missing:
        print("validate_aarch64: not validated: %s" % ", ".join(missing))
        bad += 1
    if bad:
        print("validate_aarch64: %d mismatches" % bad)
        return 1
    print("validate_aarch64: every case equal to the instruction")
    return 0


if __name__ == "__main__":
    sys.exit(main())
