# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""intrinsics_ppc64le.py -- models of the POWER instructions vg's ppc64le code uses, from the Power
ISA 3.0B pseudo-code (Book I, chapter 6 "Vector Facility": 6.11 "Vector Cryptographic Instructions",
6.8 "Vector Permute and Formatting", 6.9 "Vector Integer"; chapter 7 "VSX" for the loads and stores),
shared by the LLVM intrinsics (llvm.ppc.*) of the IR and by the assembly interpreter (asm_ppc64le.py).

Element order. The ISA numbers a vector register's bytes big-endian: byte 0 is the most significant
byte of the 128-bit register. LLVM on ppc64le numbers vector elements little-endian: element 0 of a
<16 x i8> is the least significant byte. A register value is held here as LLVM holds it, a list of
128 bits least significant first (exec.py's representation, so a bitcast stays the identity):
    ISA byte j of the register = bits [8 (15 - j), 8 (15 - j) + 8)
    ISA word i                 = bits [32 (3 - i), 32 (4 - i))       (LLVM element 3 - i of <4 x i32>)
The AES instructions take ISA byte i as byte i of the AES state (s[r][c], i = r + 4c, FIPS 197 §3.4):
state() and unstate() convert, and the rounds themselves are aes_model.py's FIPS 197 steps, the code
the spec transcription runs.

Memory, little-endian mode (the CPU's mode on ppc64le): lvx/stvx move the 16 bytes at EA & ~15 as one
little-endian 128-bit value, i.e. byte e of memory is LLVM element e; lxvw4x/stxvw4x move four words,
ISA word i from EA + 4i as a little-endian word; lxvd2x/stxvd2x two doublewords likewise; lxvb16x and
stxvb16x move ISA byte i from EA + i (byte order).

Every model here is validated against the instruction under qemu-ppc64le (-cpu power8 and power9) by
proofs/tests/validate_ppc64le.py (ctest prove.model_ppc64le), on edge and random inputs, and the LLVM
intrinsics through clang's own builtins (the intrinsic as clang emits it).
"""
from . import aes_model as A
from . import bits as B
from .exec import Unsupported, cval
from .intrinsics import _memo, clmul_word


def be_byte(v, j):
    """ISA byte j (0 = most significant) of a register value."""
    return v[8 * (15 - j):8 * (16 - j)]


def from_be_bytes(bs):
    """A register value from its 16 ISA bytes, byte 0 first."""
    out = []
    for j in range(15, -1, -1):
        out += bs[j]
    return out


def state(v):
    """The AES state (aes_model's layout: state byte i at bits [8i, 8i+8)) of a register: ISA byte i."""
    return A.from_bytes(be_byte(v, i) for i in range(16))


def unstate(s):
    return from_be_bytes([A.byte(s, i) for i in range(16)])


# ---- 6.11 Vector Cryptographic Instructions (ISA 2.07, unchanged in 3.0) --------------------------

# vcipher VRT,VRA,VRB: State <- (VRA); RoundKey <- (VRB); vtemp1 <- SubBytes(State);
# vtemp2 <- ShiftRows(vtemp1); vtemp3 <- MixColumns(vtemp2); VRT <- vtemp3 XOR RoundKey
@_memo
def vcipher(a, k):
    return A.xor(unstate(A.round_f(state(a))), k)  # MixColumns(ShiftRows(SubBytes(.)))


# vcipherlast: SubBytes, ShiftRows, XOR RoundKey (no MixColumns)
@_memo
def vcipherlast(a, k):
    return A.xor(unstate(A.round_last(state(a))), k)  # ShiftRows(SubBytes(.))


# vncipher VRT,VRA,VRB: vtemp1 <- InvShiftRows(State); vtemp2 <- InvSubBytes(vtemp1);
# vtemp3 <- vtemp2 XOR RoundKey; VRT <- InvMixColumns(vtemp3)
@_memo
def vncipher(a, k):
    t = A.xor(A.inv_sub_bytes(A.inv_shift_rows(state(a))), state(k))
    return unstate(A.inv_mix_columns(t))


# vncipherlast: InvShiftRows, InvSubBytes, XOR RoundKey
@_memo
def vncipherlast(a, k):
    return A.xor(unstate(A.inv_sub_bytes(A.inv_shift_rows(state(a)))), k)


# vsbox VRT,VRA: VRT <- SubBytes(VRA) (each byte through the S-box, no byte moves)
@_memo
def vsbox(a):
    return A.sub_bytes(a)


# vpmsumd VRT,VRA,VRB: the carry-less products of doubleword 0 of VRA and VRB and of doubleword 1 of
# VRA and VRB, XORed (128 bits). Doubleword 0 is bits [64, 128) here, doubleword 1 bits [0, 64).
def vpmsumd(a, b):
    lo = clmul_word(a[0:64], b[0:64])
    hi = clmul_word(a[64:128], b[64:128])
    return [x ^ y for x, y in zip(lo, hi)]


# ---- 6.8 permutes, 6.9 integer -------------------------------------------------------------------

def vperm(a, b, c, what="vperm"):
    """vperm VRT,VRA,VRB,VRC: temp <- VRA || VRB (32 bytes, ISA numbering); for i in 0..15:
    index <- VRC byte i bits 3:7 (the low 5 bits); VRT byte i <- temp byte index. The selector must be
    a constant (every vperm of vg has a constant mask); a secret one is reported, never guessed."""
    out = []
    for i in range(16):
        sel = B.const_value(be_byte(c, i))
        if sel is None:
            raise Unsupported("%s with a non-constant selector" % what)
        sel &= 0x1f
        out.append(be_byte(a, sel) if sel < 16 else be_byte(b, sel - 16))
    return from_be_bytes(out)


def vpermxor(a, b, c):
    """vpermxor VRT,VRA,VRB,VRC: VRT byte i <- VRA byte (VRC byte i bits 0:3) XOR VRB byte (bits 4:7)."""
    out = []
    for i in range(16):
        sel = B.const_value(be_byte(c, i))
        if sel is None:
            raise Unsupported("vpermxor with a non-constant selector")
        out.append([x ^ y for x, y in zip(be_byte(a, sel >> 4), be_byte(b, sel & 15))])
    return from_be_bytes(out)


def vsldoi(a, b, shb):
    """vsldoi VRT,VRA,VRB,SHB: VRT <- (VRA || VRB) bytes SHB .. SHB+15."""
    cat = [be_byte(a, j) for j in range(16)] + [be_byte(b, j) for j in range(16)]
    return from_be_bytes(cat[shb:shb + 16])


def vspltw(b, uim):
    """vspltw VRT,VRB,UIM: every word of VRT <- word UIM of VRB."""
    w = b[32 * (3 - uim):32 * (4 - uim)]
    return w * 4


def vspltisw(sim):
    """vspltisw VRT,SIM: every word <- EXTS(SIM) (SIM a 5-bit signed value)."""
    return B.const_bits(sim % (1 << 32), 32) * 4


def vadduwm(a, b):
    """vadduwm: each word a + b mod 2^32."""
    out = []
    for e in range(4):
        out += B.add(a[32 * e:32 * e + 32], b[32 * e:32 * e + 32])
    return out


def vxor(a, b):
    return [x ^ y for x, y in zip(a, b)]


# ---- loads and stores, little-endian mode ---------------------------------------------------------

def lvx(mem, ea):
    """lvx: VRT <- the quadword at EA & ~15; in LE mode its byte EA+e is element e (bits 8e..)."""
    return mem.load(ea & ~15, 16)


def stvx(mem, v, ea):
    mem.store(ea & ~15, v)


def lxvw4x(mem, ea):
    """lxvw4x: ISA word i <- the word at EA + 4i (little-endian in LE mode); word i is element 3 - i."""
    out = []
    for e in range(4):
        out += mem.load(ea + 4 * (3 - e), 4)
    return out


def stxvw4x(mem, v, ea):
    for e in range(4):
        mem.store(ea + 4 * (3 - e), v[32 * e:32 * e + 32])


def lxvd2x(mem, ea):
    """lxvd2x: ISA doubleword i <- the doubleword at EA + 8i (little-endian in LE mode)."""
    return mem.load(ea + 8, 8) + mem.load(ea, 8)


def stxvd2x(mem, v, ea):
    mem.store(ea + 8, v[0:64])
    mem.store(ea, v[64:128])


def lxvb16x(mem, ea):
    """lxvb16x (ISA 3.0): ISA byte i <- the byte at EA + i, whatever the mode."""
    return from_be_bytes([mem.load(ea + j, 1) for j in range(16)])


def stxvb16x(mem, v, ea):
    for j in range(16):
        mem.store(ea + j, be_byte(v, j))


# ---- the LLVM intrinsics --------------------------------------------------------------------------

def _two(f):
    def run(m, ins, args, name):
        return f(args[0], args[1])
    return run


def _addr(bits, what):
    return cval(bits, "%s at a secret address" % what) % (1 << 64)


def _load(f, what):
    def run(m, ins, args, name):
        return f(m.mem, _addr(args[0], what))
    return run


def _store(f, what):
    def run(m, ins, args, name):
        f(m.mem, args[0], _addr(args[1], what))
    return run


def _vperm(m, ins, args, name):
    return vperm(args[0], args[1], args[2])


def _vpermxor(m, ins, args, name):
    # on little-endian, LLVM 14 lowers this intrinsic to vpermxor after an xxlnot of the selector (the
    # element order of the intrinsic is LLVM's): the instruction with VRC complemented (validated)
    return vpermxor(args[0], args[1], [B.bnot(x) for x in args[2]])


PPC64LE = {
    "llvm.ppc.altivec.crypto.vcipherlast": _two(vcipherlast),
    "llvm.ppc.altivec.crypto.vcipher": _two(vcipher),
    "llvm.ppc.altivec.crypto.vncipherlast": _two(vncipherlast),
    "llvm.ppc.altivec.crypto.vncipher": _two(vncipher),
    "llvm.ppc.altivec.crypto.vsbox": lambda m, ins, args, name: vsbox(args[0]),
    "llvm.ppc.altivec.crypto.vpmsumd": _two(vpmsumd),
    "llvm.ppc.altivec.crypto.vpermxor": _vpermxor,
    "llvm.ppc.altivec.vperm": _vperm,
    # llvm.ppc.altivec.lvx(p) and stvx(v, p): the instruction with rA|0 + rB = p
    "llvm.ppc.altivec.lvx": _load(lvx, "lvx"),
    "llvm.ppc.altivec.stvx": _store(stvx, "stvx"),
    # the .be forms are clang's vec_xl_be / vec_xst_be: the instruction itself on little-endian
    "llvm.ppc.vsx.lxvw4x.be": _load(lxvw4x, "lxvw4x"),
    "llvm.ppc.vsx.stxvw4x.be": _store(stxvw4x, "stxvw4x"),
    "llvm.ppc.vsx.lxvd2x.be": _load(lxvd2x, "lxvd2x"),
    "llvm.ppc.vsx.stxvd2x.be": _store(stxvd2x, "stxvd2x"),
}


# ---- the C library and the assembly, as the IR calls them -----------------------------------------

# The modelled CPU: getauxval(AT_HWCAP2) says POWER ISA 3.0 (PPC_FEATURE2_ARCH_3_00) and the ISA 2.07
# vector crypto (PPC_FEATURE2_VEC_CRYPTO), a POWER9, so power8_available() and power9_available()
# (power8_impl.c, power9_impl.c) both say yes and VG_IMPL picks the implementation under proof through
# the library's own detection code. Values from Linux's uapi asm/cputable.h and elf.h.
AT_HWCAP = 16
AT_HWCAP2 = 26
PPC_FEATURE2_ARCH_3_00 = 0x00800000
PPC_FEATURE2_VEC_CRYPTO = 0x02000000
PPC_FEATURE_ALTIVEC_VSX = 0x10000000 | 0x00000080  # AT_HWCAP: ALTIVEC, VSX (not read by vg)


def _getauxval(m, args):
    t = cval(args[0], "getauxval of a secret type")
    v = {AT_HWCAP2: PPC_FEATURE2_ARCH_3_00 | PPC_FEATURE2_VEC_CRYPTO, AT_HWCAP: PPC_FEATURE_ALTIVEC_VSX}.get(t, 0)
    return B.const_bits(v, 64)


def externals(module):
    """The functions the ppc64le IR calls that it does not define: getauxval (the modelled CPU) and
    each function of the module assembly (run by asm_ppc64le.py's interpreter)."""
    from . import asm_ppc64le
    out = {"getauxval": _getauxval}
    out.update(asm_ppc64le.externals(module))
    return out


def new_machine(module, impl):
    """An executor for the ppc64le IR: the common intrinsics, these models, the C library of
    obligations.externals (VG_IMPL = impl), getauxval and the module assembly."""
    from . import obligations as O
    from .exec import Machine
    from .intrinsics import COMMON
    intr = dict(COMMON)
    intr.update(PPC64LE)
    ext = O.externals(impl)
    ext.update(externals(module))
    return Machine(module, intr, ext)
