#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""loop-bound.py — how fast could a kernel's main loop run with the instructions it has?

Takes the main loop of a function in the library's x86-64 objects (of the loops that end in a
backward jump, the one with the most vaesenc and vpclmulqdq on its path; where the function has a
loop per key size, the one whose vaesenc count per vaesenclast is this key size's), follows the path
one key size takes through it (the `cmp $rounds` tests a kernel makes when one loop serves every key
size), and rewrites that path with every data dependency removed: the same instructions, in the same
order, each writing the next of a set of rotating registers and reading only two constant ones, memory
operands turned into loads from (and stores to) a small buffer in L1. On a CPU with AVX-512 (avx512f
and avx512vl in /proc/cpuinfo) the destinations rotate over zmm0-23 and the VEX-only forms become
their EVEX twins (vpxor -> vpxord); without it (Zen 3: AVX2 + VAES + VPCLMULQDQ only) they rotate
over ymm0-13 with ymm14/15 the constants, every instruction keeps its VEX form, and the assembled
loop is checked for EVEX encodings before it runs (--vex takes this form on an AVX-512 CPU too). No
instruction reads a rotating register, so their number does not matter. Run back to back, that loop
shows the machine's throughput for this instruction mix in this order: what the vector pipes (AES on
two, the carry-less multiplier on one, everything else spread over four) and the core's window allow.
The real kernel has its dependencies besides, and the call its set-up and tail, so it runs slower.
(Until 2026-12-04 each instruction read a register written 12 instructions earlier: chains through
every twelfth instruction that held that loop 5-10% below the true figure.)

--spread moves the carry-less multiplies to even intervals over the trip before timing: the same
instructions in another order, which shows how much the order costs (docs/speed-x86_64.md).

It then times, in the same process and alternating (thread CPU time, median of the rounds), the
dependency-free loop and the real one-shot call (vg_aes_gcm_seal / open of --size bytes on --impl), and
prints both as GB/s of message and their ratio, then as core cycles a trip: thread CPU time counts
nanoseconds, and a vCPU's clock can change between runs (Zen 3 here: 2.0-3.2 GHz), so each round also
times a chain of dependent adds (one cycle each) and divides by it. Where other work shares the
core's vector units (a vCPU's SMT sibling) the adds do not see it and the medians move by tens of
percent between runs; the fastest rounds (GB/s, printed too) move least.

    bench/x86/loop-bound.py BUILD_DIR [--func vaes512_gcm_seal_long] [--key-bits 128] [--size 16384] [--spread]
    bench/x86/loop-bound.py BUILD_DIR --impl vaes256 --func vaes256_gcm_seal_long

The function must hold the loop itself: for an open that is vaes*_gcm_open_piped (AES-192/256 from 4
KiB) or vaes*_gcm_open_short (shorter messages, and AES-128 at every length); vaes*_gcm_open_long
only chooses between them.

BUILD_DIR is a Release build of the library (libvg.a and the object files; `make speed` makes one in
build/). Needs gcc, objdump, a VAES + VPCLMULQDQ CPU (AVX-512 for a vaes512 kernel, AVX2 enough for
vaes256); the kernel must be VEX/EVEX code (vaes512, vaes256; not aesni, which is built as legacy SSE).
docs/speed-x86_64.md has the results.
"""
import argparse
import collections
import glob
import os
import re
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("build")
ap.add_argument("--func", default="vaes512_gcm_seal_long")
ap.add_argument("--key-bits", type=int, default=128, choices=(128, 192, 256))
ap.add_argument("--size", type=int, default=16384)
ap.add_argument("--impl", default="vaes512")
ap.add_argument("--rounds", type=int, default=15, choices=range(1, 65), metavar="1..64")
ap.add_argument("--bytes-per-trip", type=int, help="message bytes one trip of the loop handles "
                "(default: the implementation's group, 512 vaes512, 256 vaes256)")
ap.add_argument("--show", action="store_true", help="print the path's instructions")
ap.add_argument("--spread", action="store_true", help="time the path with its carry-less multiplies "
                "moved to even intervals")
ap.add_argument("--vex", action="store_true", help="VEX registers (ymm0-15) even where the CPU has AVX-512")
args = ap.parse_args()
rounds = {128: 10, 192: 12, 256: 14}[args.key_bits]
here = os.path.dirname(os.path.abspath(__file__))
src = os.path.abspath(os.path.join(here, "..", ".."))

unit = args.func.split("_")[0]  # vaes512 / vaes256
objs = glob.glob(os.path.join(args.build, "**", unit + ".c.o"), recursive=True)
if not objs:
    sys.exit(f"loop-bound: no object for {unit} under {args.build}")
dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", objs[0]], check=True,
                     capture_output=True, text=True).stdout

# the function's instructions: address -> (mnemonic, operands)
insns, order, infunc = {}, [], False
for line in dis.splitlines():
    m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
    if m:
        infunc = m.group(1) == args.func
        continue
    m = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s*(.*?)\s*(#.*)?$", line)
    if infunc and m:
        a = int(m.group(1), 16)
        ops = re.sub(r"\s*<.*>$", "", m.group(3))
        insns[a] = (m.group(2), ops)
        order.append(a)
if not order:
    sys.exit(f"loop-bound: {args.func} not found in {objs[0]}")
nxt = {a: order[i + 1] for i, a in enumerate(order[:-1])}

cond = {"je": lambda r, i: r == i, "jne": lambda r, i: r != i, "jbe": lambda r, i: r <= i,
        "jb": lambda r, i: r < i, "ja": lambda r, i: r > i, "jae": lambda r, i: r >= i}


def trip(head, tail):
    """The vector instructions of one trip from head to the backward jump at tail, with the key size's
    branches taken as the kernel takes them (other conditional jumps fall through); None if the walk
    leaves [head, tail] or meets an indirect jump."""
    path, a, last_cmp, steps = [], head, None, 0
    while a != tail:
        steps += 1
        if not head <= a <= tail or steps > 20000:  # left the loop, or an inner loop
            return None
        mn, ops = insns[a]
        if mn == "cmp":
            m = re.fullmatch(r"\$0x([0-9a-f]+),%\w+", ops)
            last_cmp = int(m.group(1), 16) if m and 8 <= int(m.group(1), 16) <= 14 else None
        elif mn.startswith("j") or mn == "notrack":
            if not re.fullmatch(r"[0-9a-f]+", ops):
                return None
            if mn == "jmp" or (mn in cond and last_cmp is not None and cond[mn](rounds, last_cmp)):
                a = int(ops, 16)
                continue
        elif mn.startswith(("call", "ret")):
            return None
        elif re.search(r"%[xyz]mm", ops):
            path.append((mn, ops))
        a = nxt[a]
    return path


# the main loop: of the loops (backward jumps) whose trip stays inside them, the one with the most
# vaesenc and vpclmulqdq on its path; a loop made for another key size (rounds - 1 vaesenc per
# vaesenclast for an nr-round key) is passed over
def key_size_fits(t):
    last = sum(1 for m, _ in t if m == "vaesenclast")
    full = sum(1 for m, _ in t if m == "vaesenc")
    return last == 0 or full == (rounds - 1) * last


best = None
for a in order:
    mn, ops = insns[a]
    if mn.startswith("j") and re.fullmatch(r"[0-9a-f]+", ops) and int(ops, 16) < a:
        t = trip(int(ops, 16), a)
        if t is None or not key_size_fits(t):
            continue
        n = sum(1 for m, _ in t if m.lstrip("v").startswith(("aesenc", "pclmul")))
        if best is None or n > best[0]:
            best = (n, int(ops, 16), a, t)
if best is None or not any(m.lstrip("v").startswith("pclmul") for m, _ in best[3]):
    sys.exit("loop-bound: no loop with carry-less multiplies in " + args.func)
_, head, tail, path = best


# the path without dependencies
def split_ops(ops):
    out, depth, cur = [], 0, ""
    for ch in ops:
        if ch == "(":
            depth += 1
        if ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return out + [cur] if cur else out

# VEX-only forms cannot name xmm16-31; their EVEX twins do the same work
evex = {"vpxor": "vpxord", "vpand": "vpandd", "vpor": "vpord", "vpandn": "vpandnd", "vmovdqa": "vmovdqa64",
        "vmovdqu": "vmovdqu64", "vextracti128": "vextracti32x4", "vinserti128": "vinserti32x4"}
# Legacy-SSE code (aesni is built without AVX) is two-operand: every instruction reads its
# destination, so no renaming removes the chains, and its register copies vanish at rename. The
# measure is for three-operand (VEX/EVEX) code only.
if any(not mn.startswith("v") for mn, _ in path):
    sys.exit(f"loop-bound: {args.func} is legacy-SSE (two-operand) code; this measure is for VEX/EVEX kernels")
# AVX-512 or not, from the CPU's flags: zmm, xmm/ymm16-31 and the EVEX forms need it; without it the
# loop names only the first 16 registers and keeps every instruction's VEX form
with open("/proc/cpuinfo") as f:
    flags = set(next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), []))
use_evex = {"avx512f", "avx512vl"} <= flags and not args.vex
if not use_evex:
    bad = [f"{mn} {ops}" for mn, ops in path
           if re.search(r"%zmm|%[xy]mm(1[6-9]|[23]\d)\b|%k[0-7]|\{", ops) or mn in evex.values()
           or mn.startswith(("vpternlog", "vprol", "vpror"))]
    if bad:
        sys.exit(f"loop-bound: {args.func} needs AVX-512 (" + "; ".join(bad[:3]) + "), which "
                 + ("--vex excludes" if args.vex else "this CPU lacks"))
nrot, c1, c2 = (24, 25, 24) if use_evex else (14, 15, 14)
asm, p = [], 0
for mn, ops in path:
    if use_evex:
        mn = evex.get(mn, mn)
    parts = split_ops(ops)
    d, s = p % nrot, c1  # destinations rotate over the first nrot registers; c1 and c2 are the constant operands
    p += 1
    new, used_src = [], False
    for i, o in enumerate(parts):
        last = i == len(parts) - 1
        r = re.fullmatch(r"%([xyz])mm(\d+)", o)
        if r:
            w = r.group(1)
            if last:
                new.append(f"%{w}mm{d}")
            elif not used_src:
                new.append(f"%{w}mm{s}")
                used_src = True
            else:
                new.append(f"%{w}mm{c2}")
        elif "(" in o:
            new.append(f"{64 * (p % 8)}(%rdi)" if last else f"{64 * (p % 16)}(%rsi)")
        else:
            new.append(o)
    asm.append(f"  {mn} {','.join(new)}")

if args.spread:
    # the multiplies at even intervals among the other instructions, their own order kept
    mul = [x for x in asm if "clmul" in x]
    rest = [x for x in asm if "clmul" not in x]
    asm, k = [], 0
    for i, x in enumerate(rest):
        while k < len(mul) and (k + 0.5) * len(rest) / len(mul) <= i + 1:
            asm.append(mul[k])
            k += 1
        asm.append(x)
    asm += mul[k:]

per_trip = args.bytes_per_trip or {"vaes512": 512, "vaes256": 256}.get(unit, 0)
if per_trip <= 0:
    sys.exit("loop-bound: give --bytes-per-trip")
counts = collections.Counter(mn for mn, _ in path)
print(f"{args.func}, AES-{args.key_bits} path of its main loop ({head:#x}..{tail:#x}): "
      f"{len(path)} vector instructions per trip of {per_trip} message bytes"
      + (", multiplies spread evenly" if args.spread else "")
      + (" (EVEX, zmm0-25)" if use_evex else " (VEX, ymm0-15)"))
print("  " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
if args.show:
    print("\n".join(f"    {mn} {ops}" for mn, ops in path))

tmpdir = tempfile.TemporaryDirectory(prefix="loop-bound-")
tmp = tmpdir.name
with open(os.path.join(tmp, "mix.S"), "w") as f:
    f.write('  .section .note.GNU-stack,"",@progbits\n  .text\n  .globl mixloop\nmixloop:\n1:\n')
    f.write("\n".join(asm))
    f.write("\n  dec %rdx\n  jnz 1b\n  vzeroupper\n  ret\n")
decrypt = "open" in args.func
with open(os.path.join(tmp, "main.c"), "w") as f:
    f.write(r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "vg.h"
void mixloop(void *out, const void *in, long trips);
static _Alignas(64) unsigned char mix_out[1024], mix_in[2048];
static double now(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
/* the core clock: 64 dependent adds (1 cycle each on every x86-64 core) a trip */
static double add_cycle(void)
{
    long n = 20000;
    unsigned long x = 1, y = 3;
    double t = now();
    __asm__ volatile("1:\n" ".rept 64\n add %2,%1\n .endr\n" "dec %0\n jnz 1b\n" : "+r"(n), "+r"(x) : "r"(y) : "cc");
    return (now() - t) / (20000.0 * 64);
}
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
int main(int argc, char **argv)
{
    size_t size = strtoul(argv[1], 0, 10), per_trip = strtoul(argv[2], 0, 10);
    int rounds = atoi(argv[3]), key_len = atoi(argv[4]), decrypt = atoi(argv[5]);
    if (vg_impl_select(argv[6]) != 0) { fprintf(stderr, "no implementation %s here\n", argv[6]); return 2; }
    static vg_aes_gcm_key k;
    uint8_t key[32] = {1}, nonce[12] = {2}, tag[16];
    size_t alloc = (size + 127) / 64 * 64; /* aligned_alloc wants a multiple of the alignment */
    unsigned char *in = aligned_alloc(64, alloc), *out = aligned_alloc(64, alloc);
    if (!in || !out) return 2;
    memset(in, 0x5a, size);
    if (vg_aes_gcm_init(&k, key, (size_t)key_len) != 0) return 2;
    if (vg_aes_gcm_seal(&k, nonce, 12, 0, 0, in, size, out, tag, 16) != 0) return 2;
    if (decrypt) memcpy(in, out, size);
    double mix[64], vg[64], mix_cycles[64], vg_cycles[64];
    long trips = 100000, calls = (long)(64u << 20) / (long)size + 100; /* ~5 ms each */
    for (int r = 0; r < rounds; r++) {
        double c0 = add_cycle(), t0 = now();
        mixloop(mix_out, mix_in, trips);
        double t1 = now();
        for (long i = 0; i < calls; i++) {
            int rc = decrypt ? vg_aes_gcm_open(&k, nonce, 12, 0, 0, in, size, tag, 16, out)
                             : vg_aes_gcm_seal(&k, nonce, 12, 0, 0, in, size, out, tag, 16);
            if (rc != 0) { fprintf(stderr, "vg call failed: %d\n", rc); return 1; }
        }
        double t2 = now(), cycle = (c0 + add_cycle()) / 2;
        mix[r] = (double)trips * per_trip / (t1 - t0) / 1e9;
        vg[r] = (double)calls * size / (t2 - t1) / 1e9;
        mix_cycles[r] = (t1 - t0) / (double)trips / cycle;
        vg_cycles[r] = (t2 - t1) / ((double)calls * size / per_trip) / cycle;
    }
    qsort(mix, rounds, sizeof mix[0], cmp);
    qsort(vg, rounds, sizeof vg[0], cmp);
    qsort(mix_cycles, rounds, sizeof mix_cycles[0], cmp);
    qsort(vg_cycles, rounds, sizeof vg_cycles[0], cmp);
    printf("dependency-free loop: %.2f GB/s; vg %s %zu B on %s: %.2f GB/s = %.0f%% of it (medians of %d rounds)\n",
           mix[rounds / 2], decrypt ? "open" : "seal", size, argv[6], vg[rounds / 2], 100 * vg[rounds / 2] / mix[rounds / 2], rounds);
    printf("fastest rounds: loop %.2f GB/s, vg %.2f GB/s = %.0f%% of it\n", mix[rounds - 1], vg[rounds - 1],
           100 * vg[rounds - 1] / mix[rounds - 1]);
    printf("in core cycles (a dependent add chain timed before and after each round): loop %.1f a trip, vg %.1f a trip's %zu bytes\n",
           mix_cycles[rounds / 2], vg_cycles[rounds / 2], per_trip);
    return 0;
}
""")
exe = os.path.join(tmp, "loop-bound")
mixobj = os.path.join(tmp, "mix.o")
subprocess.run(["gcc", "-c", "-o", mixobj, os.path.join(tmp, "mix.S")], check=True)
if not use_evex:
    # every vector instruction of the loop VEX-encoded (c4/c5), none EVEX (62): nothing AVX-512 runs
    raw = subprocess.run(["objdump", "-d", "--insn-width=16", mixobj], check=True, capture_output=True, text=True).stdout
    evex_lines = [line for line in raw.splitlines()
                  if re.match(r"^\s+[0-9a-f]+:\s+62 ", line) or "{evex}" in line]
    if evex_lines:
        sys.exit("loop-bound: the rewritten loop has EVEX encodings:\n" + "\n".join(evex_lines[:5]))
subprocess.run(["gcc", "-O2", "-o", exe, "-I", os.path.join(src, "include"), os.path.join(tmp, "main.c"),
                mixobj, os.path.join(args.build, "libvg.a"), "-lpthread"], check=True)
subprocess.run([exe, str(args.size), str(per_trip), str(args.rounds), str(args.key_bits // 8),
                "1" if decrypt else "0", args.impl], check=True)
