#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""validate_x86.py -- ctest prove.model_x86: each x86 instruction model of proofs/sym/intrinsics.py
against the instruction itself on this CPU, on edge inputs (zero, all ones, single bits, alternating
patterns) and random ones. A model that differs on any input fails the test; an instruction this CPU
lacks is reported UNAVAILABLE (VPTERNLOG without AVX-512), and the test says so."""
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from sym import bits as B  # noqa: E402
from sym import intrinsics as I  # noqa: E402


def bits_of(bs):
    out = []
    for x in bs:
        out += B.const_bits(x, 8)
    return out


def bytes_of(bits):
    v = B.const_value(bits)
    return bytes((v >> (8 * i)) & 0xff for i in range(len(bits) // 8))


def model(op, a, b, c, imm):
    r = _model(op, a, b, c, imm)
    if os.environ.get("VALIDATE_BREAK") == op:
        r = bytes([r[0] ^ 0x01]) + r[1:]  # a broken model, to show the validation catches one
    return r


def _model(op, a, b, c, imm):
    A, Bb, C = bits_of(a), bits_of(b), bits_of(c)
    one = {"aesenc": I.aesenc, "aesenclast": I.aesenclast, "aesdec": I.aesdec, "aesdeclast": I.aesdeclast}
    if op in one:
        return bytes_of(one[op](A, Bb))
    if op == "aesimc":
        return bytes_of(I.aesimc(A))
    if op.startswith("vaes") and op.endswith("256"):
        f = one[op[1:-3]]
        return bytes_of(f(A[:128], Bb[:128]) + f(A[128:], Bb[128:]))
    if op == "pclmulqdq":
        return bytes_of(I.pclmulqdq(None, None, [A, Bb, B.const_bits(imm, 8)], ""))
    if op == "vpternlog":
        return bytes_of(I.pternlog(None, None, [A, Bb, C, B.const_bits(imm, 32)], ""))
    raise ValueError(op)


def inputs(n, rnd, count):
    edge = [bytes(n), bytes([0xff] * n), bytes([0xaa] * n), bytes([0x55] * n),
            bytes(range(n)), bytes([0x80] + [0] * (n - 1)), bytes([0] * (n - 1) + [0x01])]
    for i in range(0, 8 * n, 37):
        edge.append(bytes((1 << (i % 8)) if k == i // 8 else 0 for k in range(n)))
    rand = [bytes(rnd.getrandbits(8) for _ in range(n)) for _ in range(count)]
    return edge + rand


def main():
    exe = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    rnd = random.Random(20261206)
    cases = []
    for op in ("aesenc", "aesenclast", "aesdec", "aesdeclast", "aesimc"):
        xs = inputs(16, rnd, count)
        for i, a in enumerate(xs):
            cases.append((op, a, xs[(i * 7 + 3) % len(xs)], bytes(16), 0))
    for imm in (0x00, 0x01, 0x10, 0x11):
        xs = inputs(16, rnd, count // 4)
        for i, a in enumerate(xs):
            cases.append(("pclmulqdq", a, xs[(i * 5 + 1) % len(xs)], bytes(16), imm))
    for op in ("vaesenc256", "vaesenclast256", "vaesdec256", "vaesdeclast256"):
        xs = inputs(32, rnd, count // 4)
        for i, a in enumerate(xs):
            cases.append((op, a, xs[(i * 3 + 2) % len(xs)], bytes(32), 0))
    for imm in list(range(0, 256, 7)) + [0x96, 0xe8, 0xca, 0xff, 0x00]:
        xs = inputs(16, rnd, 3)
        cases.append(("vpternlog", xs[0], xs[1], xs[2], imm))
    text = "".join("%s %s %s %s %d\n" % (op, a.hex(), b.hex(), c.hex(), imm) for op, a, b, c, imm in cases)
    out = subprocess.run([exe], input=text, capture_output=True, text=True, check=True).stdout.split()
    if len(out) != len(cases):
        print("validate_x86: %d answers for %d cases" % (len(out), len(cases)))
        return 1
    bad = 0
    checked = {}
    unavailable = set()
    for (op, a, b, c, imm), hw in zip(cases, out):
        if hw == "UNAVAILABLE":
            unavailable.add(op)
            continue
        got = model(op, a, b, c, imm).hex()
        checked[op] = checked.get(op, 0) + 1
        if got != hw:
            bad += 1
            if bad <= 5:
                print("MISMATCH %s a=%s b=%s c=%s imm=%#x: model %s, instruction %s" % (op, a.hex(), b.hex(),
                                                                                     c.hex(), imm, got, hw))
    for op, n in sorted(checked.items()):
        print("validated %-16s %4d inputs" % (op, n))
    for op in sorted(unavailable):
        print("UNAVAILABLE %s on this CPU: its model is not validated by this run" % op)
    if bad:
        print("validate_x86: %d mismatches" % bad)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
