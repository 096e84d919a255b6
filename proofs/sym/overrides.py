# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""overrides.py -- specifications proved once, then used in place of a function at its call sites.

This is SAW's compositional step. A function with an override is proved equal to its specification by
its own obligation, on inputs that are all fresh symbols; every other obligation then meets the
function only through that specification, so no normal form ever faces the function's body on
composite inputs. The override is sound at a call because the obligation runs the real function on
fully symbolic inputs (every value a call site can pass) and checks that it writes nothing but what
the specification writes; the constant-time check runs on that same execution, and the override
itself needs its pointer argument concrete (else a constant-time failure, as for any access).
An override's obligation may use the overrides of the functions it calls (never its own).

portable (src/portable/aes_bitsliced.c), on 8 bitsliced 128-bit words, word b holding bit b of every
byte. Both functions are bitwise across the 128 positions, so position p is one byte, the one whose
bit b is bit p of word b:
  sub_bytes      the Boyar-Peralta circuit: S'(x) = S(x) + {63}, the S-box without its constant
                 (which the portable code folds into the round keys);
  inv_sub_bytes  A^-1 ∘ S' ∘ A^-1, the inverse of S': S'^-1(z) = S^-1(z + {63}).
The specifications are the spec transcription's own table look-ups (aes_model.SBOX and INV_SBOX) on
the byte with the constant applied to the index forms, so the forms a call looks up are the spec's
(the portable state is the spec's state, the constant being in its round keys) and its outputs are
the spec's own terms.
"""
from . import bits as B
from .aes_model import INV_SBOX, SBOX
from .exec import CTViolation


def _const(bits, c):
    return [b ^ B.ONE if (c >> i) & 1 else b for i, b in enumerate(bits)]


def _bytewise(words, fn):
    """words: 8 lists of 128 bits -> 8 lists, position p's byte mapped by fn (8 bits -> 8 bits)."""
    out = [[None] * 128 for _ in range(8)]
    for p in range(128):
        y = fn([words[b][p] for b in range(8)])
        for b in range(8):
            out[b][p] = y[b]
    return out


def _sub_bytes_spec(words):
    return _bytewise(words, lambda x: _const(B.table(x, SBOX, 8), 0x63))


def _inv_sub_bytes_spec(words):
    return _bytewise(words, lambda z: B.table(_const(z, 0x63), INV_SBOX, 8))


SPECS = {"sub_bytes": _sub_bytes_spec, "inv_sub_bytes": _inv_sub_bytes_spec}
# what each override's obligation may use: the functions it calls
USES = {"sub_bytes": (), "inv_sub_bytes": ("sub_bytes",)}


# (function, its 8 input words) -> the 8 output words: the same state meets the same call again and
# again (every obligation expands the same symbolic key, and an ECB or CTR obligation of n blocks starts
# with the batches of the one of n - 8), and the specification is a function of its inputs
_MEMO = {}


def _override(name):
    spec = SPECS[name]

    def run(m, args):
        base = B.const_value(args[0])
        if base is None:
            raise CTViolation("a bitsliced state through a secret pointer")
        words = [m.mem.load(base + 16 * b, 16) for b in range(8)]
        key = (name, tuple(x for w in words for x in w))
        out = _MEMO.get(key)
        if out is None:
            out = _MEMO[key] = spec(words)
        for b in range(8):
            m.mem.store(base + 16 * b, out[b])
        return None
    return run


def install(m, names=None):
    """The overrides an obligation uses (all of them, or names)."""
    for name in (SPECS if names is None else names):
        m.overrides[name] = _override(name)


def prove(m, name):
    """name's obligation: the function, run on 8 words of fresh bits with only the overrides of what it
    calls, equals its specification bit for bit and writes nothing else."""
    from .obligations import Failed, compare, place
    install(m, USES[name])
    words = [[B.var((name, b, p)) for p in range(128)] for b in range(8)]
    base = place(m, name + " state", [x for w in words for x in w])
    # every region that exists before the call, globals included, must be unchanged after it
    before = [(r, list(r.bits)) for r in m.mem.regions if r.base != base]
    m.call(name, [B.const_bits(base, 64)])
    for r, bits in before:
        if r.bits != bits:
            raise Failed("%s wrote %s, which its override does not" % (name, r.name))
    got = m.mem.load(base, 128)
    want = [x for w in SPECS[name](words) for x in w]
    compare(got, want, name)
