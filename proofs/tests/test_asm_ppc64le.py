#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""test_asm_ppc64le.py -- ctest prove.asm_text: the text side of sym/asm_ppc64le.py, without qemu: gas
macro expansion (.macro/.endm with arguments and defaults, .purgem, .irp/.endr, .if/.ifc/.ifnc/.else/
.endif), the .rodata layout, `.long sym-1b` data and the errors for what is not modelled. (The
instructions' semantics, and the expansion of power8_gcm.c's macros run whole, are checked against the
real ones by validate_ppc64le.py.)
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from sym import asm_ppc64le as AS  # noqa: E402
from sym import bits as B  # noqa: E402
from sym.exec import Memory, Unsupported  # noqa: E402

FAILS = []


def check(what, got, want):
    if got != want:
        FAILS.append("%s: got %r, want %r" % (what, got, want))


def raises(what, f):
    try:
        f()
    except Unsupported:
        return
    FAILS.append("%s: no error" % what)


def norm(lines):
    return [x.strip() for x in lines if x.strip()]


def test_macros():
    text = r"""
    .macro ADDR op, v, base, off
    .ifc \off,z
    \op \v,0,\base
    .else
    \op \v,\base,\off
    .endif
    .endm
    .macro TWICE a, b=7
    ADDR lvx,\a,3,z
    ADDR lvx,\a,3,\b
    .endm
    .macro RND k
    .irp b,4,5
    vcipher \b,\b,\k
    .endr
    .endm
    .macro CAT r
    li \r\()0,1
    .endm
    .macro SEL n
    .if \n == 10
    li 3,10
    .else
    .if \n > 12 && \n < 20
    li 3,14
    .else
    li 3,12
    .endif
    .endif
    .endm
    TWICE 1
    TWICE 2, 9
    RND 22
    SEL 10
    SEL 12
    SEL 14
    .ifnc a,b
    li 4,1
    .endif
    .if (1 + 2 * 3) == 7
    CAT 5
    .endif
    .purgem ADDR
    .macro ADDR x
    li 6,\x
    .endm
    ADDR 3
    2: SEL 10
    """
    got = norm(AS.expand(text.split("\n"), "test"))
    want = ["lvx 1,0,3", "lvx 1,3,7", "lvx 2,0,3", "lvx 2,3,9", "vcipher 4,4,22", "vcipher 5,5,22",
            "li 3,10", "li 3,12", "li 3,14", "li 4,1", "li 50,1", "li 6,3", "2:", "li 3,10"]
    check("expansion", got, want)


def test_expr():
    for text, want in (("10 == 10", -1), ("12 > 10", -1), ("10 > 12", 0), ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9),
                       ("-1", -1), ("~0", -1), ("16 >> 2", 4), ("1 && 0", 0), ("0 || 3", 1), ("0x10", 16),
                       ("(5 - 1) == 4", -1), ("3 & 1 | 4", 5)):
        check("expression %r" % text, AS._abs_expr(text, "test"), want)
    raises("+ beside ==", lambda: AS._abs_expr("5 - 1 == 4", "test"))


def test_errors():
    for text in (".endm", ".macro M a\nli 3,\\a", ".if 1\nli 3,1", ".if sym\n.endif", ".else", ".endif",
                 ".macro M a\nli 3,\\@\n.endm\nM 1", ".purgem NOPE", ".macro M\n.endm\n.macro M\n.endm",
                 ".rept 3\nnop\n.endr", ".elseif 1"):
        raises("error for %r" % text, lambda t=text: AS.expand(t.split("\n"), "test"))
    # an argument left unexpanded is no instruction
    raises("unexpanded argument", lambda: AS.Unit(["f:", "vxor \\b,1,2"], "f"))
    raises("unknown section", lambda: AS.Unit([".pushsection .data", ".byte 1", ".popsection"], "f"))
    raises("instruction in .rodata", lambda: AS.Unit([".pushsection .rodata", "li 3,1", ".popsection"], "f"))


def test_layout():
    lines = [".text", "f:", "0:\taddis 2,12,.TOC.-0b@ha", "addi 2,2,.TOC.-0b@l", ".localentry f,.-f",
             "addis 3,2,.Ltab@toc@ha", "addi 3,3,.Ltab@toc@l", "blr",
             ".pushsection .rodata", ".p2align 4", ".Ltab:", ".byte 1,2", ".long 3", ".popsection",
             "g:", "blr", ".Lt2:", "1:", ".long ext_fn-1b", ".long g-1b"]
    u = AS.Unit(lines, "f")
    check("text size before .rodata", u.labels["g"], 20)
    check(".rodata after the text, aligned", u.labels[".Ltab"], 32)
    check("local entry", u.local_entry("f"), 8)
    check("data", [u.data[32 + k] for k in range(6)], [1, 2, 3, 0, 0, 0])
    mem = Memory()
    toc = mem.alloc("@.TOC.", 16).base
    p = AS.Placed(mem, u, toc)
    fn = p.functions["ext_fn"]
    check("reloc sym-1b", B.const_value(mem.load(p.base + 24, 4)), (fn - (p.base + 24)) % (1 << 32))
    check("reloc label-1b", B.const_value(mem.load(p.base + 28, 4)), (20 - 24) % (1 << 32))
    check("function_at", p.function_at(fn), "ext_fn")
    it = AS.Interp(type("M", (), {"mem": mem})(), p)
    check("@toc@ha/@toc@l", ((it.simm(".Ltab@toc@ha", 12) << 16) + it.simm(".Ltab@toc@l", 16)) % (1 << 64),
          (p.base + 32 - toc) % (1 << 64))


def main():
    test_macros()
    test_expr()
    test_errors()
    test_layout()
    for f in FAILS:
        print("FAIL " + f)
    print("test_asm_ppc64le: %d failures" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
