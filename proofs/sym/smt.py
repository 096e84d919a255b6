# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""smt.py -- one question the normal form of bits.py cannot answer, put to z3: is an open's verdict
bit the OR of the tag differences?

The verdict is computed by a comparison (src/internal.h vg_ct_differ16: two 64-bit ORs, then
(d | -d) >> 63; src/util.c vg_ct_differ: byte ORs, then (d + 0xFF) / 0x100). As a XOR of monomials
an OR of 128 bits has 2^128 - 1 terms, so the normal form cannot hold it; as a Boolean circuit over
the 128 differences it is a small SAT question. The term is written as SMT-LIB 2 (one define-fun per
atom, the atoms' own semantics, as bits.evaluate computes them) and the z3 binary shows that
    verdict != OR(deltas)
is unsatisfiable. Every atom other than the deltas' variables is left free: if the equivalence holds
for every value of those atoms taken independently, it holds for the values they really have, so
this is sound; it is complete when the tag bits cancel syntactically, which the obligation arranges
(ob_gcm_open: the tag given is the spec's tag XOR delta).
"""
import os
import subprocess
import tempfile

from . import bits as B
from .exec import Unsupported

Z3 = os.environ.get("VG_PROVE_Z3", "z3")


_PREDS = {"ult": "bvult", "ule": "bvule", "ugt": "bvugt", "uge": "bvuge", "slt": "bvslt", "sle": "bvsle",
          "sgt": "bvsgt", "sge": "bvsge"}


def _compare(op):
    """The SMT-LIB relation of an icmp word node's op (exec.py _icmp_scalar), else None."""
    if op.startswith("eq") and op[2:].isdigit():
        return "="
    if op.startswith("icmp_"):
        return _PREDS.get(op[5:8])
    return None


def _xor_normal(a, b):
    """x_i XOR y_i with each side normalized first: two terms of one function are equal once each is
    normalized (what compare() checks), while the normal form of their raw XOR merges the luts of
    both at once and need not cancel them."""
    return [B.normalize(x) ^ B.normalize(y) for x, y in zip(a, b)]


class _Writer:
    def __init__(self, abstract=None):
        self.lines = []
        self.done = set()
        self.nodes = {}
        # normalized form -> the name of the fresh variable that stands for it (is_or's abstract)
        self.abstract = abstract or {}

    def _atoms_of(self, f):
        """The atoms a form is written with: none for an abstracted form (its variable is declared)."""
        n = B.normalize(f)
        return [] if n in self.abstract else list(n)

    def form(self, f):
        # normalized first (the same function): the tag bits the code XORs with the given tag are
        # raw forms, whose luts cancel against the spec's only once merged
        n = B.normalize(f)
        if n in self.abstract:
            return self.abstract[n]
        names = [self.atom(a) for a in sorted(n)]
        if not names:
            return "false"
        if len(names) == 1:
            return names[0]
        return "(xor %s)" % " ".join(names)

    def atom(self, a):
        name = "a%d" % a
        if a in self.done:
            return name
        stack = [a]
        while stack:  # depth first without recursion: a verdict's chains are hundreds deep
            x = stack[-1]
            if x in self.done:
                stack.pop()
                continue
            deps = self._deps(x)
            todo = [d for d in deps if d not in self.done]
            if todo:
                stack.extend(todo)
                continue
            self._define(x)
            self.done.add(x)
            stack.pop()
        return name

    def _deps(self, a):
        if a == 0:
            return []
        if a >= B.MONO_BASE:
            return list(B.mono_factors(a))
        if a >= B.POLY_BASE:
            return self._atoms_of(B.poly_of(a))
        d = B.ATOMS[a]
        if d[0] == "var":
            return []
        if d[0] == "lut":
            return [x for f in d[1] for x in self._atoms_of(f)]
        if d[0] == "and":
            return self._atoms_of(d[1]) + self._atoms_of(d[2])
        if d[0] == "word":
            n = B.ATOMS[d[1]]
            return [x for w in self._operands(n) for f in w for x in self._atoms_of(f)]
        raise Unsupported("smt: atom %r" % (d[0],))

    @staticmethod
    def _operands(n):
        if n[0] in ("addc",):
            return [n[1]]
        if n[0] in ("add", "sub"):
            return [n[1], n[2]]
        if _compare(n[0]) == "=":
            return [_xor_normal(*n[1])]
        if _compare(n[0]):
            return list(n[1])
        raise Unsupported("smt: word node %s" % n[0])

    def _word(self, bits, width):
        """The bits as a bitvector of width (zero-extended), most significant first for concat."""
        parts = ["(ite %s #b1 #b0)" % self.form(b) for b in reversed(bits)]
        parts = ["#b0"] * (width - len(bits)) + parts
        return parts[0] if len(parts) == 1 else "(concat %s)" % " ".join(parts)

    def _node(self, n):
        """A word node's value, one bit wider than its operands (a carry or a borrow's sign)."""
        r = self.nodes.get(n)
        if r is not None:
            return r
        d = B.ATOMS[n]
        cmp = _compare(d[0])
        if cmp:
            # exec.py's icmp nodes: eq<w> (x == y) and icmp_<pred><w>, one bit
            a, b = d[1]
            if cmp == "=":
                # x == y as (x XOR y) == 0, the same relation: the computed tag and the given one
                # (the spec's tag XOR delta) cancel to delta in the XOR, never in the pair
                a, b = _xor_normal(a, b), [B.ZERO] * len(a)
            v = "(ite (%s %s %s) #b1 #b0)" % (cmp, self._word(a, len(a)), self._word(b, len(b)))
            name = "n%d" % n
            self.lines.append("(define-fun %s () (_ BitVec 1) %s)" % (name, v))
            self.nodes[n] = (name, 1)
            return name, 1
        w = max(len(x) for x in self._operands(d)) + 1
        if d[0] == "addc":
            v = "(bvadd %s (_ bv%d %d))" % (self._word(d[1], w), d[3] % (1 << w), w)
        elif d[0] == "add":
            v = "(bvadd %s %s)" % (self._word(d[1], w), self._word(d[2], w))
        else:
            v = "(bvsub %s %s)" % (self._word(d[1], w), self._word(d[2], w))
        name = "n%d" % n
        self.lines.append("(define-fun %s () (_ BitVec %d) %s)" % (name, w, v))
        self.nodes[n] = (name, w)
        return name, w

    def _define(self, a):
        name = "a%d" % a
        if a == 0:
            self.lines.append("(define-fun a0 () Bool true)")
            return
        if a >= B.MONO_BASE:
            x, y = B.mono_factors(a)
            body = "(and a%d a%d)" % (x, y)
        elif a >= B.POLY_BASE:
            body = self.form(B.poly_of(a))
        else:
            d = B.ATOMS[a]
            if d[0] == "var":
                self.lines.append("(declare-const %s Bool)" % name)
                return
            if d[0] == "lut":
                k = len(d[1])
                size = 1 << k
                idx = self._word(list(d[1]), size)
                tt = "(_ bv%d %d)" % (d[2] % (1 << size), size)
                body = "(= ((_ extract 0 0) (bvlshr %s %s)) #b1)" % (tt, idx)
            elif d[0] == "and":
                body = "(and %s %s)" % (self.form(d[1]), self.form(d[2]))
            else:  # word
                node, w = self._node(d[1])
                body = "(= ((_ extract %d %d) %s) #b1)" % (d[2], d[2], node)
        self.lines.append("(define-fun %s () Bool %s)" % (name, body))


def is_or(verdict, deltas, timeout=300, abstract=False):
    """True when the form verdict equals OR(deltas) (each delta a form) for all values of the atoms;
    False when z3 finds an assignment where they differ, or when the verdict is 1 for a matching tag
    on a random input; raises Unsupported when it cannot say.

    abstract: the deltas are forms over other atoms (GCM-SIV's E_i ^ T_i, the spec's tag depending on
    the tag given), each replaced by a fresh variable wherever a subterm of the verdict normalizes to
    it. The verdict is then a function G(delta, rest) of the fresh variables and of whatever else is
    left, with verdict = G(D, rest) for the deltas' real values D; z3 shows G(delta, rest) = OR(delta)
    for all values of delta and rest, which holds in particular at delta = D (generalization: sound
    whatever was or was not replaced; complete when every atom of the verdict is under a delta)."""
    names = {}
    if abstract:
        for i, d in enumerate(deltas):
            names.setdefault(B.normalize(d), "d%d" % i)
    w = _Writer(names)
    v = w.form(verdict)
    ds = [w.form(d) for d in deltas]
    free = {a for a in w.done if 0 < a < B.POLY_BASE and B.ATOMS[a][0] == "var"}
    free -= {a for d in deltas for a in d}
    if abstract and free:
        # not every atom is under a delta: evaluated on random inputs, a verdict other than
        # OR(deltas) is a counterexample; else the terms are not identified
        import random
        rnd = random.Random(2)

        class Env2(dict):
            def __missing__(self, name):
                v = self[name] = rnd.getrandbits(1)
                return v

        for _ in range(8):
            vals = B.evaluate([verdict] + list(deltas), Env2())
            if vals & 1 != (1 if vals >> 1 else 0):
                return False
        raise Unsupported("smt: the verdict depends on %d inputs not under the tag differences (%s, ...): "
                          "not identified" % (len(free), B.ATOMS[min(free)][1]))
    if abstract:
        w.lines = ["(declare-const %s Bool)" % n for n in sorted(set(names.values()))] + w.lines
    if free:
        # the computed tag did not cancel against the spec's: z3 would only time out on the AES and
        # GHASH terms left. Evaluated with delta = 0 on random inputs: a verdict of 1 there is a wrong
        # tag (a counterexample); else the terms are not identified, reported as such
        import random
        rnd = random.Random(2)

        class Env(dict):  # every input bit random as evaluate meets it, delta's 0
            def __missing__(self, name):
                v = self[name] = rnd.getrandbits(1)
                return v

        for _ in range(8):
            env = Env({B.ATOMS[a][1]: 0 for d in deltas for a in d})
            if B.evaluate([verdict], env):
                return False
        raise Unsupported("smt: the verdict depends on %d inputs other than the tag difference (%s, ...), "
                          "and is 0 for the matching tag on 8 random inputs: not identified"
                          % (len(free), B.ATOMS[min(free)][1]))
    text = "\n".join(w.lines + ["(assert (not (= %s (or false %s))))" % (v, " ".join(ds)), "(check-sat)", ""])
    with tempfile.NamedTemporaryFile("w", suffix=".smt2", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        out = subprocess.run([Z3, "-smt2", "-T:%d" % timeout, path], capture_output=True, text=True).stdout
    finally:
        os.unlink(path)
    ans = out.strip().split("\n")[0] if out.strip() else ""
    if ans == "unsat":
        return True
    if ans == "sat":
        return False
    raise Unsupported("smt: z3 answered %r" % out.strip()[:200])
