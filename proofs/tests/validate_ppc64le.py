#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""validate_ppc64le.py -- ctest prove.model_ppc64le: the POWER models of proofs/sym/ against the
instructions themselves under qemu-ppc64le, as a POWER8 and as a POWER9 (ISA 3.0 instructions on the
POWER9 only), on edge inputs (zero, all ones, alternating bits, single bits, carries and sign
boundaries) and random ones:

- each LLVM intrinsic model of intrinsics_ppc64le.py (the llvm.ppc.* the IR calls, and vperm and
  vpermxor), through clang's builtin for it: the handler exec.py calls, on the same operands;
- each instruction the assembly interpreter (asm_ppc64le.py) knows, in the operand forms
  power8_aes.c's key expansion uses (RA = 0, a negative index, an unaligned EA, the cr0 branches),
  as snippets run on a whole register state (GPRs, v0..v9, CR0, XER[CA], 256 bytes of memory),
  the interpreter parsing the same text;
- whole runs of vg_power8_aes_expand_key and vg_power9_aes_expand_key, the assembly as GCC builds it
  for the library, against the interpreter running the module assembly of the IR the proofs read
  (random and edge keys, 16/24/32 bytes; the 24-byte path is a tail call into C, checked for its
  target and arguments).

  validate_ppc64le.py BUILD_DIR [COUNT]   (BUILD_DIR: build-prove; works in BUILD_DIR/ppc64le-insn)
  VALIDATE_BREAK=OP flips one bit of model OP: the run must then fail

Needs powerpc64le-linux-gnu-gcc, its libc (static), clang-14 and qemu-ppc64le (scripts/install-deps.sh).
"""
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROOFS = os.path.dirname(HERE)
ROOT = os.path.dirname(PROOFS)
sys.path.insert(0, PROOFS)
from sym import asm_ppc64le as AS  # noqa: E402
from sym import bits as B  # noqa: E402
from sym import build_ir  # noqa: E402
from sym import intrinsics_ppc64le as P  # noqa: E402
from sym import spec_aes as S  # noqa: E402
from sym.exec import Memory, Region  # noqa: E402

CC = os.environ.get("VG_PPC64LE_CC", "powerpc64le-linux-gnu-gcc")
CLANG = os.environ.get("VG_PROVE_CLANG", "clang-14")
QEMU = os.environ.get("VG_QEMU_PPC64LE", "qemu-ppc64le")
BREAK = os.environ.get("VALIDATE_BREAK")

GPRS = [0, 3, 4, 5, 6, 7, 8, 9, 10, 12]
NVR = 10
ST_SIZE, ST_CR, ST_XER, ST_VR, ST_MEM = 688, 256, 264, 272, 432
MASK_T = bytes([12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3])     # power8_aes.c's table, +0
MASK_C = bytes([12, 15, 14, 13] * 4)                                          # +16


def bits_of(bs):
    out = []
    for x in bs:
        out += B.const_bits(x, 8)
    return out


def bytes_of(bits):
    v = B.const_value(bits)
    if v is None:
        raise ValueError("model result not constant")
    return bytes((v >> (8 * i)) & 0xff for i in range(len(bits) // 8))


def vectors(rnd, count):
    edge = [bytes(16), bytes([0xff] * 16), bytes([0xaa] * 16), bytes([0x55] * 16), bytes(range(16)),
            bytes([0x80] + [0] * 15), bytes([0] * 15 + [0x01]), bytes([0xff, 0xff, 0xff, 0x7f] * 4),
            bytes([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0x80] * 2), MASK_T, MASK_C]
    for i in range(0, 128, 37):
        edge.append(bytes((1 << (i % 8)) if k == i // 8 else 0 for k in range(16)))
    return edge + [bytes(rnd.getrandbits(8) for _ in range(16)) for _ in range(count)]


def edge64(rnd, count):
    e = [0, 1, 15, 16, 17, 23, 24, 25, 31, 32, 33, 0x7fffffffffffffff, 0x8000000000000000, (1 << 64) - 1,
         (1 << 64) - 17, (1 << 64) - 16, 0x10, 0xffffffff, 0x100000000]
    return e + [rnd.getrandbits(64) for _ in range(count)]


# ---- the snippets: (text, CPU, gpr setup (rnd, mem base, i) -> {reg: value}) ---------------------------

def _snippets():
    out = []

    def add(text, setup=lambda r, b, i: {}, cpu="power8"):
        out.append((text, cpu, setup))

    add("addic. 0,5,-17", lambda r, b, i: {5: edge64(r, 40)[i % 59]})
    add("addic. 0,5,-17\nbge 1f\nli 3,1\nb 2f\n1:\tli 3,2\n2:", lambda r, b, i: {5: edge64(r, 40)[i % 59]})
    add("cmpldi 5,24", lambda r, b, i: {5: edge64(r, 40)[i % 59]})
    add("cmpldi 5,24\nbne 2f\nli 3,1\nb 1f\n2:\tli 3,2\n1:", lambda r, b, i: {5: [24, 23, 25, 0, 16, 32][i % 6]})
    add("addi 7,12,48\naddi 8,0,-48\nli 9,32\nli 10,-1\naddi 6,6,-32768\naddi 5,5,32767")
    add("addis 9,12,0x1234\naddis 10,12,-2\naddis 8,0,0x7fff\naddis 7,7,-32768")
    add("0:\taddi 7,12,.Lsnip_t%(k)d-0b\nb 1f\n.p2align 4\n.Lsnip_t%(k)d:\n.byte 1,2,3\n.long 0x01000000,0\n"
        ".p2align 2\n1:\taddi 8,7,.Lsnip_t%(k)d-1b")
    add("stw 5,240(3)\nstw 6,-4(4)", lambda r, b, i: {3: b, 4: b + 4 + r.randrange(200)})
    add("lvx 6,7,0\nlvx 3,0,7\nlvx 2,7,5\nlvx 1,0,4",
        lambda r, b, i: {7: b + 16 + r.randrange(200), 0: (1 << 64) - 1, 5: 16, 4: b + r.randrange(240)})
    add("stvx 1,0,3\nstvx 2,3,5\nstvx 7,3,8\nstvx 4,9,0",
        lambda r, b, i: {3: b + r.randrange(48), 5: 16, 8: 48, 9: b + 64 + r.randrange(100), 0: (1 << 64) - 1})
    add("lxvw4x 32,0,4\nlxvw4x 39,4,6", lambda r, b, i: {4: b + r.randrange(200), 6: 16})
    add("stxvw4x 33,0,4\nstxvw4x 39,4,6", lambda r, b, i: {4: b + r.randrange(200), 6: 16})
    add("lxvd2x 34,0,4\nstxvd2x 35,4,6", lambda r, b, i: {4: b + r.randrange(200), 6: 16})
    add("lxvb16x 33,0,4\nlxvb16x 39,4,6", lambda r, b, i: {4: b + r.randrange(200), 6: 16}, "power9")
    add("stxvb16x 33,0,4\nstxvb16x 39,4,6", lambda r, b, i: {4: b + r.randrange(200), 6: 16}, "power9")
    add("vperm 1,0,0,6\nvperm 4,1,1,3\nvperm 5,2,7,8")
    for k in range(16):
        add("vsldoi 0,1,2,%d\nvsldoi 3,2,2,%d" % (k, (k * 5) % 16))
    add("vsldoi 5,2,1,12\nvsldoi 6,2,1,8\nvsldoi 7,8,7,12\nvsldoi 9,8,7,8")
    add("vcipherlast 4,4,2\nvcipher 5,1,2\nvncipher 6,1,2\nvncipherlast 7,1,2\nvsbox 8,3\nvpmsumd 9,1,2")
    add("vxor 1,1,5\nvadduwm 2,2,2\nvadduwm 3,4,5")
    add("vspltw 4,1,3\nvspltw 5,1,0\nvspltw 6,1,1\nvspltw 7,1,2")
    add("vspltisw 8,0\nvspltisw 9,-16\nvspltisw 0,15\nvspltisw 3,-1\nvspltisw 4,7")
    # power8_gcm.c's stitched loops and short-message dispatch
    add("std 5,8(3)\nstd 6,-16(4)\nld 7,8(3)\nld 8,-8(4)\nld 9,0(3)",
        lambda r, b, i: {3: b + 8 * r.randrange(28), 4: b + 16 + 8 * r.randrange(29)})
    add("lwz 5,240(3)\nlwz 6,-4(4)\nlwz 7,2(3)",
        lambda r, b, i: {3: b, 4: b + 4 + r.randrange(200)})
    add("lwax 5,4,6\nlwax 7,0,4\nlwax 8,4,9",
        lambda r, b, i: {4: b + 64 + r.randrange(64), 6: r.randrange(-60, 60) % (1 << 64),
                         9: r.randrange(-60, 60) % (1 << 64)})
    add("add 5,6,7\nadd 8,8,8\nadd 9,0,10", lambda r, b, i: {6: edge64(r, 40)[i % 59], 7: edge64(r, 40)[(i * 7) % 59]})
    add("mulli 5,6,12\nmulli 7,8,-3\nmulli 9,10,32767", lambda r, b, i: {6: edge64(r, 40)[i % 59]})
    for sh, mb in ((0, 60), (4, 0), (60, 4), (13, 7), (0, 0), (63, 63)):
        add("rldicl 5,6,%d,%d\nrldicl 7,7,%d,%d" % (sh, mb, 64 - sh if sh else 0, mb),
            lambda r, b, i: {6: edge64(r, 40)[i % 59]})
    for n in (1, 4, 63):
        add("srdi 5,6,%d\nsldi 7,6,%d\nsldi 8,8,%d" % (n, n, 64 - n), lambda r, b, i: {6: edge64(r, 40)[i % 59]})
    add("srdi. 9,9,4", lambda r, b, i: {9: ([0, 15, 16, 17, 255, 256, (1 << 64) - 1, 1 << 63] + edge64(r, 40))[i % 67]})
    add("srdi. 9,9,4\nbeq 1f\nli 3,1\n1:", lambda r, b, i: {9: [0, 15, 16, 17, 255][i % 5]})
    add("li 5,0\nmtctr 6\n1:\taddi 5,5,3\nbdnz 1b", lambda r, b, i: {6: 1 + i % 20})
    add("cmpldi 9,8\nbgt 1f\nli 3,1\n1:\tcmpldi 10,7\nble 2f\nli 4,1\n2:",
        lambda r, b, i: {9: [7, 8, 9, 0, (1 << 64) - 1][i % 5], 10: [6, 7, 8, 0, 1 << 63][(i // 5) % 5]})
    add("lxvw4x 32+5,0,4\nstxvw4x 32+6,4,6", lambda r, b, i: {4: b + r.randrange(200), 6: 16})
    add("lxvb16x 32+5,0,4\nstxvb16x 32+6,4,6", lambda r, b, i: {4: b + r.randrange(200), 6: 16}, "power9")
    add("vpermxor 1,2,3,4\nvpermxor 5,6,7,3\nvpermxor 8,8,9,6")
    add("xxpermdi 32+1,32+2,32+3,0\nxxpermdi 36,37,38,3\nxxpermdi 39,33,34,1\nxxpermdi 40,41,35,2")
    return [(t % {"k": k} if "%(k)" in t else t, cpu, setup) for k, (t, cpu, setup) in enumerate(out)]


SNIPPETS = _snippets()


def dispatch_copies(module):
    """power8_gcm.c's short-message dispatch as the IR has it (gcm_seal_short, gcm_open_short of power8
    and power9), each renamed vg_vdisp_K, its 27 kernels renamed to stubs vg_vstub_I (I the table
    index) that return I: [(K's text lines, name, {stub: index})]."""
    out = []
    for impl in ("power8", "power9"):
        for d in ("seal", "open"):
            name = "vg_%s_gcm_%s_short" % (impl, d)
            lines = next(u for u in AS.units(module.module_asm) if any(x.strip() == name + ":" for x in u))
            new = "vg_vdisp_%d" % len(out)
            targets = []
            for x in lines:
                mm = re.match(r"\s*\.long\s+([\w.]+)-1b\s*$", x)
                if mm:
                    targets.append(mm.group(1))
            stubs = {t: "vg_vstub_%d" % i for i, t in enumerate(targets)}
            text = []
            for x in lines:
                x = re.sub(r"\b%s\b" % re.escape(name), new, x)
                for t, st in stubs.items():
                    x = re.sub(r"\b%s\b" % re.escape(t), st, x)
                text.append(x)
            out.append((text, new, {st: i for i, st in enumerate(stubs.values())}))
    return out


def write_snippets(path_s, path_c, disp):
    lines = [".text", ".machine power9"]
    for k, (text, _, _) in enumerate(SNIPPETS):
        name = "vg_snip_%d" % k
        lines += [".globl %s" % name, ".type %s,@function" % name, ".p2align 4", "%s:" % name, "mr 11,3",
                  "ld 0,%d(11)" % ST_CR, "mtcrf 0x80,0", "ld 0,%d(11)" % ST_XER, "mtxer 0"]
        for v in range(NVR):
            lines += ["li 0,%d" % (ST_VR + 16 * v), "lvx %d,11,0" % v]
        lines += ["ld %d,%d(11)" % (r, 8 * r) for r in GPRS]
        lines += [".p2align 4"]  # the snippet starts 16-aligned, as the interpreter lays it out
        lines += text.split("\n")
        lines += ["std %d,%d(11)" % (r, 8 * r) for r in GPRS]
        for v in range(NVR):
            lines += ["li 0,%d" % (ST_VR + 16 * v), "stvx %d,11,0" % v]
        lines += ["mfcr 0", "std 0,%d(11)" % ST_CR, "mfxer 0", "std 0,%d(11)" % ST_XER, "blr",
                  ".size %s,.-%s" % (name, name)]
    nstubs = max((len(st) for _, _, st in disp), default=0)
    for i in range(nstubs):
        lines += [".globl vg_vstub_%d" % i, ".type vg_vstub_%d,@function" % i, "vg_vstub_%d:" % i,
                  "li 3,%d" % i, "blr", ".size vg_vstub_%d,.-vg_vstub_%d" % (i, i)]
    for text, _, _ in disp:
        lines += text
    with open(path_s, "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(path_c, "w") as f:
        f.write("struct state;\n")
        for k in range(len(SNIPPETS)):
            f.write("void vg_snip_%d(struct state *);\n" % k)
        f.write("void (*const vg_snips[])(struct state *) = {%s};\n"
                % ", ".join("vg_snip_%d" % k for k in range(len(SNIPPETS))))
        f.write("const int vg_nsnips = %d;\n" % len(SNIPPETS))
        f.write("typedef long (*disp_fn)(void);\n")
        for _, name, _ in disp:
            f.write("long %s(void);\n" % name)
        f.write("disp_fn const vg_vdisps[] = {%s};\n" % ", ".join(name for _, name, _ in disp))
        f.write("const int vg_ndisps = %d;\n" % len(disp))


def build(bdir, disp):
    os.makedirs(bdir, exist_ok=True)
    exe = os.path.join(bdir, "ppc64le_insn")
    write_snippets(os.path.join(bdir, "snips.s"), os.path.join(bdir, "snips_table.c"), disp)
    lib = ["-O3", "-DNDEBUG", "-std=c11", "-fvisibility=hidden", "-I", os.path.join(ROOT, "include"),
           "-I", os.path.join(ROOT, "src")]
    objs = []

    def cc(args, out):
        subprocess.run(args + ["-o", os.path.join(bdir, out)], check=True)
        objs.append(os.path.join(bdir, out))

    cc([CLANG, "--target=powerpc64le-linux-gnu", "-isystem", "/usr/powerpc64le-linux-gnu/include", "-O2",
        "-std=c11", "-c", os.path.join(HERE, "ppc64le_insn.c")], "insn.o")
    cc([CC, "-c", os.path.join(bdir, "snips.s")], "snips.o")
    cc([CC, "-O2", "-c", os.path.join(bdir, "snips_table.c")], "snips_table.o")
    # the key expansion as the library builds it (GCC, Release flags): power8, and power9 as
    # power9_impl.c compiles it (P8_POWER9)
    cc([CC] + lib + ["-c", os.path.join(ROOT, "src", "ppc64le", "power8_aes.c")], "power8_aes.o")
    cc([CC] + lib + ["-DP8_POWER9=1", "-c", os.path.join(ROOT, "src", "ppc64le", "power8_aes.c")], "power9_aes.o")
    cc([CC] + lib + ["-c", os.path.join(ROOT, "src", "util.c")], "util.o")
    # the GCM stitched loops likewise
    cc([CC] + lib + ["-c", os.path.join(ROOT, "src", "ppc64le", "power8_gcm.c")], "power8_gcm.o")
    cc([CC] + lib + ["-DP8_POWER9=1", "-c", os.path.join(ROOT, "src", "ppc64le", "power8_gcm.c")], "power9_gcm.o")
    subprocess.run([CC, "-static", "-o", exe] + objs, check=True)
    return exe


def qemu(exe, cpu, text):
    p = subprocess.run([QEMU, "-cpu", cpu, exe], input=text, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("validate_ppc64le: the harness failed under -cpu %s (exit %d): %s"
                         % (cpu, p.returncode, p.stderr[-2000:]))
    return p.stdout.split("\n")


class FakeMachine:
    """What the interpreter and the intrinsic handlers need of exec.Machine: a memory (with regions at
    the harness's own addresses), and for the key expansion's 24-byte path a stand-in of the IR call."""

    def __init__(self):
        self.mem = Memory()
        self.tail_calls = []

    def place(self, name, addr, data):
        r = Region(name, addr, len(data))
        r.bits = bits_of(data)
        i = __import__("bisect").bisect(self.mem.bases, addr)
        self.mem.bases.insert(i, addr)
        self.mem.regions.insert(i, r)
        return r

    def tail_call(self, name, interp):
        if name.startswith("vg_vstub_"):  # the dispatch's stubs: return their index
            self.tail_calls.append((name, [B.const_value(interp.g(r)) for r in range(3, 11)]
                                    + [B.const_value(a) for a in interp.stack_args]))
            return B.const_bits(int(name[len("vg_vstub_"):]), 64)
        # vg_power8/9_aes_expand_key_192(sched, key): the C function (validated by running the whole
        # call on qemu); computed here from the spec with the power8 layout
        sched = B.const_value(interp.g(3))
        key = B.const_value(interp.g(4))
        self.tail_calls.append((name, sched, key))
        kb = self.mem.load(key, 24)
        w, nr = S.key_expansion(kb, 24)
        for r in range(nr + 1):
            k = S.round_key(w, r)
            self.mem.store(sched + 16 * r, [b for i in range(16) for b in k[8 * (15 - i):8 * (16 - i)]])
        self.mem.store(sched + 240, B.const_bits(24, 32))
        return B.const_bits(0, 64)


def gcm_inputs(seed, nb):
    """The stitched loop's inputs as ppc64le_insn.c's G draws them (xorshift64 from seed)."""
    st = [seed]

    def byte():
        x = st[0]
        x ^= (x << 13) & ((1 << 64) - 1)
        x ^= x >> 7
        x ^= (x << 17) & ((1 << 64) - 1)
        st[0] = x
        return (x >> 32) & 0xff

    def fill(n):
        return bytes(byte() for _ in range(n))
    sched, hkey, ctr, acc = fill(240), fill(640), bytearray(fill(16)), fill(16)
    if seed % 3 == 0:
        ctr[12:16] = b"\xff\xff\xff\xf8"
    return sched, hkey, bytes(ctr), acc, fill(16 * nb)


def gcm_run(unit, name, nb, seed):
    """The interpreter on the stitched loop, called directly (local entry) as gcm_seal_blocks does."""
    sched, hkey, ctr, acc, data = gcm_inputs(seed, nb)
    fm = FakeMachine()
    ioff, ooff = seed % 8, (seed // 8) % 8
    regions = {}
    for what, content in (("sched", sched + bytes(16)), ("hkey", hkey), ("ctr", ctr), ("acc", acc),
                          ("in", bytes(ioff) + data + bytes(16)), ("out", bytes([0xa5]) * (16 * nb + 16))):
        r = fm.mem.alloc(what, len(content))
        r.bits = bits_of(content)
        regions[what] = r.base
    placed = AS.Placed(fm.mem, unit, fm.mem.alloc("@.TOC.", 16).base)
    args = [regions["sched"], regions["hkey"], regions["ctr"], regions["acc"], regions["in"] + ioff,
            regions["out"] + ooff, nb]
    AS.Interp(fm, placed).run([B.const_bits(a, 64) for a in args], name, direct=True)
    out = bytes_of(fm.mem.load(regions["out"] + ooff, 16 * nb)) if nb else b""
    return "%s %s %s" % (out.hex(), bytes_of(fm.mem.load(regions["ctr"], 16)).hex(),
                         bytes_of(fm.mem.load(regions["acc"], 16)).hex())


def flip(bs, op):
    if BREAK == op:
        return bytes([bs[0] ^ 0x01]) + bs[1:]
    return bs


def main():
    build_dir = sys.argv[1]
    bdir = os.path.join(build_dir, "ppc64le-insn" + ("-broken" if BREAK else ""))
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 120
    if BREAK:
        orig = getattr(P, BREAK)

        def broken(*a, **k):
            r = list(orig(*a, **k))
            r[0] = B.bnot(r[0])
            return r
        setattr(P, BREAK, broken)  # the interpreter's use of the model (module attribute)
    # the IR the proofs read (its per-file cache shared with prove.obligations; the module of its own)
    module = build_ir.module(ROOT, os.path.join(bdir, "ir"), "ppc64le", ir_cache=os.path.join(build_dir, "ir"))
    disp = dispatch_copies(module)
    exe = build(bdir, disp)
    rnd = random.Random(20261206)
    base_line = qemu(exe, "power8", "B\n")[0].split()
    st_mem, key_addr, sched_addr, buf_addr = (int(x, 16) for x in base_line)

    cases = []  # (cpu set, line, checker)
    checked = {}
    bad = []

    def note(what, ok, detail):
        checked[what] = checked.get(what, 0) + 1
        if not ok:
            bad.append("%s: %s" % (what, detail))

    # -- intrinsics, through the handlers exec.py calls
    vs = vectors(rnd, count)
    for op in ("vcipher", "vcipherlast", "vncipher", "vncipherlast", "vsbox", "vpmsumd", "vperm", "vpermxor"):
        name = {"vperm": "llvm.ppc.altivec.vperm", "vpermxor": "llvm.ppc.altivec.crypto.vpermxor"}.get(
            op, "llvm.ppc.altivec.crypto." + op)
        for i, a in enumerate(vs):
            b = vs[(i * 7 + 3) % len(vs)]
            c = vs[(i * 5 + 1) % len(vs)]

            def check(out, op=op, name=name, a=a, b=b, c=c):
                got = flip(bytes_of(P.PPC64LE[name](None, None, [bits_of(a), bits_of(b), bits_of(c)], name)), op)
                note("intrinsic " + op, got.hex() == out, "a=%s b=%s c=%s model %s, instruction %s"
                     % (a.hex(), b.hex(), c.hex(), got.hex(), out))
            cases.append(("I %s %s %s %s" % (op, a.hex(), b.hex(), c.hex()), check))
    for op in ("lvx", "lxvw4x", "lxvd2x"):
        name = {"lvx": "llvm.ppc.altivec.lvx"}.get(op, "llvm.ppc.vsx.%s.be" % op)
        for off in range(49):
            data = bytes(rnd.getrandbits(8) for _ in range(64))

            def check(out, op=op, name=name, off=off, data=data):
                fm = FakeMachine()
                fm.place("buf", buf_addr, data)
                got = flip(bytes_of(P.PPC64LE[name](fm, None, [B.const_bits(buf_addr + off, 64)], name)), op)
                note("intrinsic " + op, got.hex() == out, "offset %d: model %s, instruction %s" % (off, got.hex(), out))
            cases.append(("L %s %d %s" % (op, off, data.hex()), check))
    for op in ("stvx", "stxvw4x", "stxvd2x"):
        name = {"stvx": "llvm.ppc.altivec.stvx"}.get(op, "llvm.ppc.vsx.%s.be" % op)
        for off in range(49):
            v = vs[off % len(vs)] if off < 20 else bytes(rnd.getrandbits(8) for _ in range(16))

            def check(out, op=op, name=name, off=off, v=v):
                fm = FakeMachine()
                fm.place("buf", buf_addr, bytes([0xa5] * 64))
                P.PPC64LE[name](fm, None, [bits_of(v), B.const_bits(buf_addr + off, 64)], name)
                got = flip(bytes_of(fm.mem.load(buf_addr, 64)), op)
                note("intrinsic " + op, got.hex() == out, "offset %d: model %s, instruction %s" % (off, got.hex(), out))
            cases.append(("S %s %d %s" % (op, off, v.hex()), check))

    # -- assembly snippets, through the interpreter
    snippet_cases = {"power8": [], "power9": []}
    per = max(30, count // 2)
    for k, (text, cpu, setup) in enumerate(SNIPPETS):
        for i in range(per):
            gpr = {r: rnd.getrandbits(64) for r in GPRS}
            gpr.update(setup(rnd, st_mem, i))
            vrs = [vs[(i * 3 + j * 11 + k) % len(vs)] for j in range(NVR)]
            if i % 4 == 0:  # the key expansion's masks where it uses them
                vrs[3], vrs[6] = MASK_C, MASK_T
            mem = bytes(rnd.getrandbits(8) for _ in range(256))
            cr = rnd.getrandbits(4) << 28
            xer = (rnd.getrandbits(1) << 29) | (rnd.getrandbits(1) << 31)
            st = bytearray(ST_SIZE)
            for r, v in gpr.items():
                st[8 * r:8 * r + 8] = (v % (1 << 64)).to_bytes(8, "little")
            st[ST_CR:ST_CR + 8] = cr.to_bytes(8, "little")
            st[ST_XER:ST_XER + 8] = xer.to_bytes(8, "little")
            for j, v in enumerate(vrs):
                st[ST_VR + 16 * j:ST_VR + 16 * j + 16] = v
            st[ST_MEM:ST_MEM + 256] = mem

            def check(out, k=k, text=text, st=bytes(st), gpr=gpr, vrs=vrs, mem=mem, cr=cr):
                hw = bytes.fromhex(out)
                fm = FakeMachine()
                fm.place("st.mem", st_mem, mem)
                unit = AS.Unit(text.split("\n"), "snippet %d" % k)
                it = AS.Interp(fm, AS.Placed(fm.mem, unit, 0))
                for r, v in gpr.items():
                    it.gpr[r] = B.const_bits(v % (1 << 64), 64)
                for j, v in enumerate(vrs):
                    it.vr[j] = bits_of(v)
                it.cr0 = ((cr >> 31) & 1, (cr >> 30) & 1, (cr >> 29) & 1, (cr >> 28) & 1)
                it.execute(0, unit.size)
                diffs = []
                for r in GPRS:
                    if bytes_of(it.g(r)) != hw[8 * r:8 * r + 8]:
                        diffs.append("r%d: model %s, instruction %s" % (r, bytes_of(it.g(r))[::-1].hex(),
                                                                         hw[8 * r:8 * r + 8][::-1].hex()))
                for j in range(NVR):
                    if bytes_of(it.v(j)) != hw[ST_VR + 16 * j:ST_VR + 16 * j + 16]:
                        diffs.append("v%d: model %s, instruction %s" % (j, bytes_of(it.v(j)).hex(),
                                                                         hw[ST_VR + 16 * j:ST_VR + 16 * j + 16].hex()))
                hcr = int.from_bytes(hw[ST_CR:ST_CR + 8], "little")
                for bit in range(3):  # LT, GT, EQ (SO is XER[SO]'s copy; the interpreter leaves it unknown)
                    if it.cr0[bit] is not None and it.cr0[bit] != (hcr >> (31 - bit)) & 1:
                        diffs.append("cr0 bit %d" % bit)
                if it.ca is not None and it.ca != (int.from_bytes(hw[ST_XER:ST_XER + 8], "little") >> 29) & 1:
                    diffs.append("XER[CA]")
                if bytes_of(fm.mem.load(st_mem, 256)) != hw[ST_MEM:ST_MEM + 256]:
                    diffs.append("memory")
                note("asm " + text.split("\n")[0].split()[0] + (" ..." if "\n" in text else ""), not diffs,
                     "snippet %r: %s" % (text, "; ".join(diffs[:3])))
            snippet_cases[cpu].append(("A %d %s" % (k, bytes(st).hex()), check))

    # -- the key expansion functions, whole
    key_cases = {"power8": [], "power9": []}
    for impl in ("power8", "power9"):
        name = "vg_%s_aes_expand_key" % impl
        unit = AS.find_unit(module.module_asm, name)
        for kl in (16, 24, 32):
            keys = [bytes(kl), bytes([0xff] * kl), bytes(range(kl))]
            keys += [bytes(rnd.getrandbits(8) for _ in range(kl)) for _ in range(max(10, count // 6))]
            for key in keys:
                def check(out, impl=impl, name=name, unit=unit, kl=kl, key=key):
                    ret, hw = out.split()
                    fm = FakeMachine()
                    fm.place("key", key_addr, key + bytes(64 - kl))
                    fm.place("sched", sched_addr, bytes([0xa5] * 256))
                    placed = AS.Placed(fm.mem, unit, fm.mem.alloc("@.TOC.", 16).base)
                    r3 = AS.Interp(fm, placed).run([B.const_bits(sched_addr, 64), B.const_bits(key_addr, 64),
                                                    B.const_bits(kl, 64), B.const_bits(0, 32)], name)
                    got = bytes_of(fm.mem.load(sched_addr, 256))
                    ok = got.hex() == hw and B.const_value(r3[:32]) == int(ret)
                    if kl == 24:
                        ok = ok and fm.tail_calls == [(name + "_192", sched_addr, key_addr)]
                    note("asm %s (whole, %d-byte keys)" % (name, kl), ok,
                         "key %s: model %s, instruction %s" % (key.hex(), got.hex(), hw))
                # power8's is the POWER8 code: run it on both CPUs; power9's on the POWER9
                key_cases[impl].append(("K %s %d %s" % (impl, kl, key.hex()), check))

    # -- the GCM stitched loops, whole (macro expansion, layout, the protected zone, the nonvolatile
    # registers restored): every count of blocks class (none, tail only, 8 + tail, whole groups, both)
    gcm_cases = {"power8": [], "power9": []}
    for impl in ("power8", "power9"):
        for rounds in (10, 12, 14):
            for d in ("seal", "open"):
                name = "vg_%s_gcm_%s_stitched_%d" % (impl, d, rounds)
                unit = AS.find_unit(module.module_asm, name)
                nbs = [0, 1, 7, 8, 9, 16, 17, 24, 33] if rounds == 10 else [0, 3, 8, 16, 25]
                if BREAK:  # the broken twin: one run with the 8-block group and the tail shows it
                    nbs = [9]
                for k, nb in enumerate(nbs):
                    seed = rnd.getrandbits(62) | 1
                    seed = seed - seed % 3 + (k % 3) or 1  # a third of them wrap the counter's word

                    def check(out, impl=impl, name=name, unit=unit, nb=nb, seed=seed):
                        got = gcm_run(unit, name, nb, seed)
                        note("asm %s (whole)" % name.replace(impl, "<impl>"), got == out,
                             "%d blocks, seed %d: model %s, instruction %s" % (nb, seed, got[-64:], out[-64:]))
                    gcm_cases[impl].append(("G %s %s %d %d %d" % (impl, d, rounds, nb, seed), check))

    # -- the short-message dispatch, whole: which kernel each (key, AAD, data) length reaches, and the
    # arguments (r3..r10 and the stack's) passed on untouched, through the TOC-relative table and bctr.
    # Not in the broken twin: the dispatch runs no vector instruction, so a broken model cannot show in
    # it, and its 4,752 runs were most of the twin's time
    for k, (text, dname, stubs) in enumerate([] if BREAK else disp):
        unit = AS.Unit(text, dname)
        for kl in (16, 24, 32):
            for aad in (0, 1, 15, 16, 17, 32, 33, 48, 49, 63, 64):
                for ln in (0, 1, 15, 16, 17, 32, 47, 48, 80, 95, 96, 97, 111, 112, 113, 128, 200, 224):
                    def check(out, unit=unit, dname=dname, stubs=stubs, kl=kl, aad=aad, ln=ln):
                        fm = FakeMachine()
                        fm.place("sched", sched_addr, bytes(240) + kl.to_bytes(4, "little") + bytes(12))
                        placed = AS.Placed(fm.mem, unit, fm.mem.alloc("@.TOC.", 16).base)
                        args = [sched_addr, 0x1000, 0x2000, 0x3000, aad, 0x5000, 0x6000, ln]
                        r3 = AS.Interp(fm, placed).run([B.const_bits(a, 64) for a in args], dname,
                                                       stack_args=[B.const_bits(0x9000, 64)])
                        ok = (len(fm.tail_calls) == 1 and fm.tail_calls[0][0] in stubs
                              and fm.tail_calls[0][1] == args + [0x9000]
                              and B.const_value(r3) == stubs[fm.tail_calls[0][0]])
                        note("asm gcm_<dir>_short dispatch (whole)", ok and str(B.const_value(r3)) == out,
                             "%s key %d aad %d len %d: model %s, instruction %s"
                             % (dname, kl, aad, ln, fm.tail_calls, out))
                    cases.append(("D %d %d %d %d" % (k, kl, aad, ln), check))

    runs = {"power8": cases + snippet_cases["power8"] + key_cases["power8"] + gcm_cases["power8"],
            "power9": cases + snippet_cases["power8"] + snippet_cases["power9"] + key_cases["power8"]
            + key_cases["power9"] + gcm_cases["power8"] + gcm_cases["power9"]}
    for cpu, cs in runs.items():
        out = qemu(exe, cpu, "".join(line + "\n" for line, _ in cs))
        if len([x for x in out if x]) != len(cs):
            print("validate_ppc64le: %d answers for %d cases under -cpu %s" % (len(out), len(cs), cpu))
            return 1
        for (line, check), o in zip(cs, out):
            check(o)
        print("-cpu %s: %d cases" % (cpu, len(cs)))
    for what, n in sorted(checked.items()):
        print("validated %-44s %5d inputs" % (what, n))
    if bad:
        for b in bad[:8]:
            print("MISMATCH " + b)
        print("validate_ppc64le: %d mismatches" % len(bad))
        caught = any(b.startswith("intrinsic " + str(BREAK)) for b in bad) and any(b.startswith("asm") for b in bad)
        if BREAK and not caught:
            print("validate_ppc64le: VALIDATE_BREAK=%s was not caught on both paths (intrinsic, interpreter)" % BREAK)
            return 0
        return 1
    return 0


def run():
    """With VALIDATE_BREAK (ctest prove.model_ppc64le.broken, WILL_FAIL) only the broken model caught
    on both of its paths is a failure: any other outcome, an error included, exits 0 and fails the
    twin."""
    if not BREAK:
        return main()
    try:
        return main()
    except BaseException as e:  # noqa: B902 -- the twin must not pass on a crash
        print("validate_ppc64le: error with VALIDATE_BREAK set: %r" % (e,))
        return 0


if __name__ == "__main__":
    sys.exit(run())
