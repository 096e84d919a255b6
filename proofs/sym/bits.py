# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""bits.py -- the value algebra of the prover: every bit as a canonical Boolean term.

A bit is an *affine form* over GF(2): a frozenset of atom ids whose XOR it is, atom 0 standing for the
constant 1 (so ZERO = {}, ONE = {0}). XOR is set symmetric difference, so linear code (XOR, shifts,
shuffles, byte swaps, ShiftRows, MixColumns, the bitsliced circuits' linear layers) costs nothing and
two linear computations of the same value give the *same* set: equality is syntactic.

Atoms are of three kinds, interned (hash-consed) in one table, so that the same term always gets the
same id:
  var   an input bit (key, data, counter), named;
  lut   a non-linear Boolean function of a few affine forms, stored canonically (below);
  word  one bit of a word-level node (an addition or comparison too wide for a lut).

Canonical luts. A non-linear function f of affine forms g_1..g_m depends only on their span V. We
store f over the reduced row-echelon basis of V (pivot = the highest atom id of each vector; a
subspace has exactly one such basis) with its truth table over those coordinates, after dropping the
coordinates f ignores and rewriting any f that is affine as the affine form itself. Two computations
of the same function of the same subspace then meet in the same atom: an S-box computed by table
look-up (the spec), by AESENC (a model) or by a bitsliced gate circuit (portable) all end as the same
lut atom, whatever the order of their gates. When an AND's operands themselves hold luts, those are
opened (their own bases joined to the new one) while the joint dimension stays <= MAX_DIM, newest
first: that is what merges the gates of one S-box and keeps the S-boxes of an earlier round opaque.

Soundness does not rest on canonicity: every atom is a correct function of its inputs (eval() below
computes it), so equal sets are equal functions. Canonicity is what makes the prover *complete*
enough: when it fails, two different terms for one function are reported as a failure, never as a
proof. The driver then evaluates both sides on random inputs to tell a real difference (a
counterexample) from a term it could not identify.
"""

import collections
import sys

ZERO = frozenset()
ONE = frozenset((0,))
MAX_DIM = 8

# atom id -> description; index 0 is the constant
ATOMS = [("one",)]
_INTERN = {}


def _intern(key):
    a = _INTERN.get(key)
    if a is None:
        a = len(ATOMS)
        if a >= 1 << 31:  # ids from POLY_BASE up are named polynomials and monomials (products)
            raise OverflowError("too many atoms")
        ATOMS.append(key)
        _INTERN[key] = a
    return a


def var(name):
    """The input bit called name (the same bit for every caller that names it)."""
    return frozenset((_intern(("var", name)),))


def const_bits(value, width):
    return [ONE if (value >> i) & 1 else ZERO for i in range(width)]


def is_const(b):
    return b == ZERO or b == ONE


def const_value(bits):
    """The integer a list of constant bits spells (LSB first), or None."""
    v = 0
    for i, b in enumerate(bits):
        if b == ONE:
            v |= 1 << i
        elif b != ZERO:
            return None
    return v


# ---- linear algebra over GF(2), vectors are frozensets of atom ids (no constant) -----------------

def _pivot(v):
    return max(v)


def rref(vectors):
    """The reduced row-echelon basis of span(vectors), sorted by pivot: unique for the subspace."""
    rows = {}  # pivot -> vector
    for v in vectors:
        v = frozenset(v)
        while v:
            p = _pivot(v)
            r = rows.get(p)
            if r is None:
                break
            v = v ^ r
        if v:
            p = _pivot(v)
            # reduce the existing rows by the new one (they must not contain p)
            for q, r in list(rows.items()):
                if p in r:
                    rows[q] = r ^ v
            rows[p] = v
    # reduce the new-row/old-row pairs the loop above may leave: full back-substitution
    pivots = sorted(rows)
    for p in pivots:
        v = rows[p]
        for q in pivots:
            if q != p and q in v:
                v = v ^ rows[q]
        rows[p] = v
    changed = True
    while changed:
        changed = False
        for p in pivots:
            v = rows[p]
            for q in pivots:
                if q != p and q in v:
                    v = v ^ rows[q]
                    changed = True
            rows[p] = v
    return tuple(rows[p] for p in pivots)


def coords(basis, v):
    """Coefficients (a bit mask over basis positions) of the linear vector v in basis, or None if v is
    outside the span."""
    index = _INDEX.get(basis)
    if index is None:
        index = {_pivot(b): i for i, b in enumerate(basis)}
        if isinstance(basis, tuple):
            _INDEX[basis] = index
    mask = 0
    while v:
        p = _pivot(v)
        i = index.get(p)
        if i is None:
            return None
        v = v ^ basis[i]
        mask |= 1 << i
    return mask


# ---- truth tables -------------------------------------------------------------------------------
# A truth table over k coordinates is an int of 2^k bits; bit a is f at the assignment a (coordinate j
# is bit j of a).

_PROJ = {}


def proj(k, j):
    """The truth table of coordinate j over k coordinates."""
    key = (k, j)
    t = _PROJ.get(key)
    if t is None:
        t = 0
        for a in range(1 << k):
            if (a >> j) & 1:
                t |= 1 << a
        _PROJ[key] = t
    return t


def full(k):
    return (1 << (1 << k)) - 1


def tt_linear(k, mask, c):
    t = full(k) if c else 0
    for j in range(k):
        if (mask >> j) & 1:
            t ^= proj(k, j)
    return t


def tt_compose(tt, m, cols, k):
    """f over k coordinates, f(a) = tt(beta(a)), where beta is linear: coordinate j of the new space
    maps to the m-bit mask cols[j] of the old one."""
    beta = [0] * (1 << k)
    out = tt & 1
    for a in range(1, 1 << k):
        low = a & -a
        beta[a] = beta[a ^ low] ^ cols[low.bit_length() - 1]
        if (tt >> beta[a]) & 1:
            out |= 1 << a
    return out


# ---- bringing forms into one local basis --------------------------------------------------------

_NORM = {}
_MERGED = {}
_INDEX = {}
_SUPPORT = {}


def _support(basis):
    r = _SUPPORT.get(basis)
    if r is None:
        r = frozenset(x for v in basis for x in v)
        _SUPPORT[basis] = r
    return r


def _merge_tt(basis, members):
    """The XOR of the luts members as one truth table over basis (which spans all their bases)."""
    k = len(basis)
    t = 0
    for a in members:
        _, lb, lt = ATOMS[a][:3]
        if lb == basis:
            t ^= lt
            continue
        cols = [0] * k
        for i, b in enumerate(lb):
            cm = coords(basis, b)
            for j in range(k):
                if (cm >> j) & 1:
                    cols[j] |= 1 << i
        t ^= tt_compose(lt, len(lb), cols, k)
    return t


def normalize(f):
    """f with its luts merged: luts of f whose bases together span at most MAX_DIM dimensions are one
    function of that span, so they are replaced by its canonical form (a gate circuit's output bit,
    a XOR of several gates' luts, becomes the one lut a table look-up gives). Cached per form.

    Two luts over different MAX_DIM-dimensional spans never merge (their union is larger), so only
    luts with equal bases, and smaller luts contained in (or joinable with) another, are looked at."""
    r = _NORM.get(f)
    if r is not None:
        return r
    by_basis = {}
    nluts = 0
    for a in f:
        if a >= POLY_BASE:
            continue
        d = ATOMS[a]
        if d[0] == "lut":
            by_basis.setdefault(d[1], []).append(a)
            nluts += 1
    if nluts < 2:
        return f  # (not cached: a GHASH bit of 10^4 monomials would be kept alive for nothing)
    full = [b for b in by_basis if len(b) >= MAX_DIM]
    small = sorted((b for b in by_basis if len(b) < MAX_DIM), key=lambda b: -len(b))
    if not small and nluts == len(full):
        # one lut per full span: nothing can merge
        _NORM[f] = f
        return f
    clusters = {b: [b] for b in full}
    rest = []
    for b in small:
        for fb in full:
            if all(coords(fb, v) is not None for v in b):
                clusters[fb].append(b)
                break
        else:
            for c in rest:
                u = rref(list(c[0]) + list(b))
                if len(u) <= MAX_DIM:
                    c[0] = u
                    c[1].append(b)
                    break
            else:
                rest.append([b, [b]])
    # f minus the merged luts, plus each cluster's canonical form (XOR is associative, and the
    # members are distinct atoms of f, so removing them is XORing them out)
    removed = []
    merged = ZERO
    for basis, members_b in list(clusters.items()) + [tuple(c) for c in rest]:
        members = [a for b in members_b for a in by_basis[b]]
        if len(members) < 2:
            continue
        removed.extend(members)
        # the same luts meet again and again (a round key's bits in every block's S-box indexes)
        key = (basis, frozenset(members))
        m = _MERGED.get(key)
        if m is None:
            m = _MERGED[key] = from_tt(basis, _merge_tt(basis, members))
        merged = merged ^ m
    out = (f.difference(removed) ^ merged) if removed else f
    _NORM[f] = out
    return out


def local(forms):
    """Truth tables of the forms over one basis: (basis, [tt...]), or None when the joint dimension
    exceeds MAX_DIM even with every lut kept opaque."""
    forms = [normalize(f) for f in forms]
    lin = [f - ONE for f in forms]
    luts = sorted({a for f in lin for a in f if a < POLY_BASE and ATOMS[a][0] == "lut"}, reverse=True)
    opened = []

    def vectors(op):
        ops = set(op)
        vs = [frozenset(a for a in f if a not in ops) for f in lin]
        for a in op:
            vs.extend(ATOMS[a][1])
        return vs

    # every lut opened, when that fits (a word of outputs of one earlier small computation); else
    # newest first, one at a time. Opening a lut of MAX_DIM inputs can only fit when every other
    # vector lies in its span: tested first, as it is cheap and almost always false for the S-boxes
    # of an earlier round.
    opened = []
    base = None
    if luts and len({v for a in luts for v in ATOMS[a][1]}) <= 2 * MAX_DIM:
        trial = rref(vectors(luts))
        if len(trial) <= MAX_DIM:
            opened = list(luts)
            base = trial
    if base is None:
        base = rref(vectors(opened))
        for a in luts:
            lb = ATOMS[a][1]
            if len(lb) >= MAX_DIM:
                # opening a full lut fits only if everything else lies in its span, so at least
                # uses only atoms of its basis: one foreign atom rules it out
                sup = _support(lb)
                if any(x != a and x not in sup for f in lin for x in f) or \
                        any(x not in sup for v in base for x in v if x != a):
                    continue
            trial = rref(vectors(opened + [a]))
            if len(trial) <= MAX_DIM:
                opened.append(a)
                base = trial
        if len(base) > MAX_DIM:
            return None
    k = len(base)
    ops = set(opened)
    comp = {}
    for a in opened:
        _, lb, lt = ATOMS[a][:3]
        cols_old = [coords(base, b) for b in lb]  # old coordinate i -> mask over new coords
        # transpose: new coordinate j -> mask over old coordinates
        cols = [0] * k
        for i, cm in enumerate(cols_old):
            for j in range(k):
                if (cm >> j) & 1:
                    cols[j] |= 1 << i
        comp[a] = tt_compose(lt, len(lb), cols, k)
    tts = []
    for f, l in zip(forms, lin):
        rest = frozenset(a for a in l if a not in ops)
        t = tt_linear(k, coords(base, rest), ONE <= f)
        for a in l:
            if a in ops:
                t ^= comp[a]
        tts.append(t)
    return base, tts


_LOWS = {}


def _lows(k):
    """For each coordinate j < k, the truth table of the assignments with coordinate j = 0."""
    r = _LOWS.get(k)
    if r is None:
        r = _LOWS[k] = [full(k) ^ proj(k, j) for j in range(k)]
    return r


def from_tt(basis, tt):
    """The canonical form of the function with truth table tt over basis."""
    k = len(basis)
    # drop the coordinates f does not depend on
    j = 0
    lows = _lows(k)
    while j < k:
        lo = lows[j]
        if ((tt >> (1 << j)) & lo) == (tt & lo):
            # keep the half with coordinate j = 0, compressed
            nt = 0
            n = 0
            for a in range(1 << k):
                if not (a >> j) & 1:
                    if (tt >> a) & 1:
                        nt |= 1 << n
                    n += 1
            tt = nt
            basis = basis[:j] + basis[j + 1:]
            k -= 1
            lows = _lows(k)
        else:
            j += 1
    if k == 0:
        return ONE if tt & 1 else ZERO
    c = tt & 1
    # an affine f has f(a) = f(0) ^ sum of f(e_j) ^ f(0) over the set bits j of a; f(e_0 + e_1) is a
    # cheap first test of that (k >= 2 here unless f is a coordinate or its complement)
    if k < 2 or ((tt >> 3) ^ (tt >> 2) ^ (tt >> 1) ^ c) & 1 == 0:
        mask = 0
        for j in range(k):
            if ((tt >> (1 << j)) & 1) ^ c:
                mask |= 1 << j
        if tt == tt_linear(k, mask, c):
            f = ONE if c else ZERO
            for j in range(k):
                if (mask >> j) & 1:
                    f = f ^ basis[j]
            return f
    # a lut is stored with f(0) = 0: the complement of a function is its lut plus the constant, so
    # a circuit that folds the S-box's constant {63} elsewhere still meets the table's lut
    f = _decompose(tuple(basis), tt ^ full(k) if c else tt)
    return f ^ ONE if c else f


# Per span, the functions met so far, as a GF(2) basis of truth tables. The functions of one span form
# a vector space (XOR of truth tables), and its luts must form a basis of what has been met: otherwise
# S_3 + S_7 of one S-box, computed by a circuit (or by an inverse S-box built as A^-1 ∘ S' ∘ A^-1),
# would be an atom of its own, unrelated to the atoms S_3 and S_7 that a table look-up gives, and the
# next round's index forms would span different subspaces of atom space. So each new function is
# reduced against the span's earlier functions and its coordinates (the affine ones): if it lies in
# their span it *is* that XOR of atoms and forms; if not, it becomes an atom itself (the function as
# met, so a table's S-box bits stay single atoms) and is added. Rows are kept semi-echelon (each
# row's pivot is clear in every later row), so the expression of a function is unique, and adding a
# function never changes the expression of one met before (caches stay valid). Which functions are
# atoms depends on the order they are met, but every obligation compares terms of one process.
_REG = {}


def _decompose(basis, tt):
    """The function with truth table tt (tt(0) = 0, not affine) over basis, as a XOR of this span's
    registered atoms and basis forms (registering it if it is new)."""
    reg = _REG.get(basis)
    k = len(basis)
    if reg is None:
        # the coordinates first: a function that differs from registered ones by an affine function
        # is written with that affine part as forms
        rows, elems = [], []
        for j in range(k):
            rows.append((1 << j, proj(k, j), 1 << j))
            elems.append(basis[j])
        reg = _REG[basis] = (rows, elems)
    rows, elems = reg
    t, m = tt, 0
    for piv, rt, rm in rows:
        if (t >> piv) & 1:
            t ^= rt
            m ^= rm
    if t:
        atom = frozenset((_intern(("lut", basis, tt)),))
        rows.append(((t & -t).bit_length() - 1, t, m ^ (1 << len(elems))))
        elems.append(atom)
        return atom
    out = ZERO
    i = 0
    while m:
        if m & 1:
            out = out ^ elems[i]
        m >>= 1
        i += 1
    return out


_AND = {}


def band(a, b):
    if a == ZERO or b == ZERO:
        return ZERO
    if a == ONE:
        return b
    if b == ONE:
        return a
    if a == b:
        return a
    if a ^ b == ONE:
        return ZERO
    if PRODUCTS:
        # AND is the product in GF(2): in the products' normal form (below), so that a product
        # computed by masks (ghash_ctmul.c's low key bits: a & -(k_i)) meets the carry-less one
        return clmul([a], [b])[0]
    key = (a, b) if hash(a) <= hash(b) else (b, a)
    r = _AND.get(key)
    if r is None:
        loc = local([a, b])
        if loc is None:
            r = frozenset((_intern(("and", key[0], key[1])),))
        else:
            basis, (ta, tb) = loc
            r = from_tt(basis, ta & tb)
        _AND[key] = r
    return r


def bor(a, b):
    return a ^ b ^ band(a, b)


def bnot(a):
    return a ^ ONE


def mux(c, a, b):
    """c ? a : b"""
    if c == ONE:
        return a
    if c == ZERO:
        return b
    return b ^ band(c, a ^ b)


_TABLE = {}


def table(index_bits, values, width):
    """Bits of values[index] for a symbolic index (a constant table read at a secret address: only
    the spec and the instruction models' S-boxes do this; the constant-time check rejects it in the
    library). values must be a tuple (it is part of the cache key)."""
    key = (tuple(index_bits), values, width)
    r = _TABLE.get(key)
    if r is None:
        r = _table(index_bits, values, width)
        _TABLE[key] = r
    return list(r)


def _table(index_bits, values, width):
    index_bits = [normalize(b) for b in index_bits]
    v = const_value(index_bits)
    if v is not None:
        return const_bits(values[v], width)
    loc = local(index_bits)
    if loc is None:
        raise ValueError("table index of too many bits")
    basis, tts = loc
    k = len(basis)
    # the index at each assignment a of the basis coordinates: linear in a plus a constant, so built
    # in Gray-code order from the index's value at each unit vector
    idx0 = 0
    unit = [0] * k
    for i, t in enumerate(tts):
        if t & 1:
            idx0 |= 1 << i
        for j in range(k):
            if (t >> (1 << j)) & 1:
                unit[j] |= 1 << i
    unit = [u ^ idx0 for u in unit]
    idx = [idx0] * (1 << k)
    for a in range(1, 1 << k):
        low = a & -a
        idx[a] = idx[a ^ low] ^ unit[low.bit_length() - 1]
    if any(idx[a] != _eval_index(tts, a) for a in (0, (1 << k) - 1)):
        raise AssertionError("table index is not affine in its basis")
    if width == 8:
        # bit plane j of the looked-up bytes, most significant assignment first, via bytes.translate
        rev = bytes(values[i] for i in reversed(idx))
        return [from_tt(basis, int(rev.translate(_PLANE[bit]), 2)) for bit in range(8)]
    vals = [values[i] for i in idx]
    out = []
    for bit in range(width):
        s = "".join("1" if (x >> bit) & 1 else "0" for x in reversed(vals))
        out.append(from_tt(basis, int(s, 2)))
    return out


_PLANE = [bytes(48 + ((v >> j) & 1) for v in range(256)) for j in range(8)]


def _eval_index(tts, a):
    v = 0
    for i, t in enumerate(tts):
        v |= ((t >> a) & 1) << i
    return v


# ---- words --------------------------------------------------------------------------------------

def _word_node(key, width):
    n = _intern(key)
    return [frozenset((_intern(("word", n, i)),)) for i in range(width)]


def _node_of(bits):
    """(node id, key) if bits are exactly the bits 0..w-1 of one word node, else None."""
    if not bits or len(bits[0]) != 1:
        return None
    (a,) = bits[0]
    if a >= POLY_BASE:
        return None
    d = ATOMS[a]
    if d[0] != "word" or d[2] != 0:
        return None
    n = d[1]
    for i, b in enumerate(bits):
        if b != frozenset((_intern(("word", n, i)),)):
            return None
    return n, ATOMS[n]


def _band_lin(a, b):
    """a AND b when that needs no new atom (a constant, an operand or its complement), else None."""
    r = band(a, b)
    if r - a - b - ONE:
        return None
    return r


def _ripple(a, b, subtract):
    """a + b (or a - b) bit by bit, or None as soon as a carry would be a new non-linear term. That
    keeps the additions whose carries are only copies of input bits exact (a word times 15 with its
    bits four apart, a 0/1 value negated into a mask) and hands real carry chains (counters) to
    word nodes, where (x + c1) + c2 and x + (c1 + c2) meet."""
    out = []
    c = ZERO
    for x, y in zip(a, b):
        out.append(x ^ y ^ c)
        if subtract:
            g, p = _band_lin(bnot(x), y), bnot(x ^ y)
        else:
            g, p = _band_lin(x, y), x ^ y
        t = _band_lin(p, c)
        if g is None or t is None:
            return None
        gt = _band_lin(g, t)
        if gt is None:
            return None
        c = g ^ t ^ gt
    return out


def add(a, b):
    """a + b mod 2^w (lists of bits, LSB first)."""
    w = len(a)
    ca, cb = const_value(a), const_value(b)
    if ca is not None and cb is not None:
        return const_bits((ca + cb) % (1 << w), w)
    if ca is not None:
        a, b, ca, cb = b, a, cb, ca
    if cb == 0:
        return list(a)
    r = _ripple(a, b, False)
    if r is not None:
        return r
    if cb is not None:
        # a constant tail of a passes through the word; only the bits up to a's highest variable bit
        # form the node (so that a zero-extended counter and the counter itself meet)
        h = max(i for i, x in enumerate(a) if not is_const(x))
        lo_c = cb % (1 << (h + 1))
        low = a[: h + 1]
        if h + 1 == w:
            # (x + c0) + c = x + (c0 + c) mod 2^w: fold, so that counters met by different chains of
            # increments are one node (a wider word's carry out would differ, so only at full width)
            node = _node_of(low)
            if node is not None and node[1][0] == "addc" and len(node[1][1]) == w:
                low = list(node[1][1])
                lo_c = (lo_c + node[1][3]) % (1 << w)
                if lo_c == 0:
                    return low
        if lo_c == 0:
            res, carry = list(low), ZERO
        else:
            bits = _word_node(("addc", tuple(low), None, lo_c), h + 2)
            res, carry = bits[: h + 1], bits[h + 1]
        if h + 1 == w:
            return res
        # the upper part: a's constant bits + cb's upper bits + carry, a one-bit-support addition
        hi = _ripple(a[h + 1:], const_bits(cb >> (h + 1), w - h - 1), False) if carry == ZERO else None
        if hi is None:
            out = []
            c = carry
            for x, y in zip(a[h + 1:], const_bits(cb >> (h + 1), w - h - 1)):
                out.append(x ^ y ^ c)
                c = bor(band(x, y), band(c, x ^ y))
            hi = out
        return res + hi
    ka, kb = tuple(a), tuple(b)
    if hash(ka) > hash(kb):
        ka, kb = kb, ka
    return _word_node(("add", ka, kb), w)


def sub(a, b):
    w = len(a)
    ca, cb = const_value(a), const_value(b)
    if cb is not None:
        return add(a, const_bits((-cb) % (1 << w), w))
    r = _ripple(a, b, True)
    if r is not None:
        return r
    return _word_node(("sub", tuple(a), tuple(b)), w)


def _generic(op, operands, width, fn):
    """op over small support, by enumeration: fn maps the operands' integer values to the result."""
    flat = [b for x in operands for b in x]
    loc = local(flat)
    if loc is None:
        return None
    basis, tts = loc
    k = len(basis)
    outs = [0] * width
    for a in range(1 << k):
        vals = []
        pos = 0
        for x in operands:
            v = 0
            for i in range(len(x)):
                if (tts[pos + i] >> a) & 1:
                    v |= 1 << i
            pos += len(x)
            vals.append(v)
        r = fn(*vals)
        for i in range(width):
            if (r >> i) & 1:
                outs[i] |= 1 << a
    return [from_tt(basis, t) for t in outs]


def generic(op, operands, width, fn):
    """Any operation: concrete when the operands are, by enumeration over a small support, else a word
    node named op (sound: an opaque function of exactly its operands)."""
    vals = [const_value(x) for x in operands]
    if all(v is not None for v in vals):
        return const_bits(fn(*vals) % (1 << width), width)
    if True:
        r = _generic(op, operands, width, lambda *v: fn(*v) % (1 << width))
        if r is not None:
            return r
    return _word_node((op, tuple(tuple(x) for x in operands)), width)


def opaque(op, operands, width):
    """op applied to the operands as an uninterpreted function: one word node of their normalized
    bits, so the same function of the same inputs, however computed, meets the same node (and an
    identity proved over it holds for every function, the real one included). GENERIC_FNS[op]
    evaluates it (counterexamples are real ones)."""
    return _word_node((op, tuple(tuple(normalize(b) for b in x) for x in operands)), width)


def word_node_of(bits):
    """(op, operands) if bits are exactly one word node's bits 0..w-1, else None."""
    n = _node_of(bits)
    return None if n is None else n[1]


# ---- products: the normal form of carry-less multiplication (GHASH, POLYVAL) ---------------------
#
# A carry-less product of two variable words is bilinear: bit k of a * b is XOR_{i+j=k} a_i b_j. Kept
# as a lut per bit it would be a function of 256 inputs; kept as an opaque word node, a Karatsuba
# product, an aggregated sum of products and the spec's Horner chain would be three unrelated terms.
# So products get the ring normal form of GF(2)[atoms]: a bit is a XOR of *monomials*, a monomial
# being the product of two factor atoms (any atom that is not itself a monomial: a var, a lut, a
# word bit, or a named polynomial, below). The product of two forms is expanded by distributivity,
#     (a_1 + ... + a_m)(b_1 + ... + b_n) = XOR_{i,j} a_i b_j,   a a = a,   1 a = a,   a b = b a,
# which are identities of Boolean functions. Over vars alone this is the algebraic normal form, which
# is unique: two products of the same 128-bit values, computed schoolbook, by Karatsuba
# ((a0 + a1)(b0 + b1) + a0 b0 + a1 b1 = a0 b1 + a1 b0 is cancellation of equal monomials) or
# aggregated (the reduction is linear, so a sum of unreduced products reduced once equals the sum of
# the reduced ones), are the same set of monomials. That decides the identities of GHASH's aggregated
# kernels with the powers of H as free symbols, where a SAT miter on 128-bit multipliers stalls.
#
# Named polynomials cut the degree. An aggregated update multiplies the accumulator of the previous
# group, already a sum of products, by a power again: expanded, a bit of that would have ~10^5 cubic
# monomials. Instead, the monomial part of a factor is written over a basis of named polynomials,
# as the luts of a span are (_decompose): a new polynomial is reduced against the rows met so far and
# becomes a new named atom if something is left (two ways of keeping the rows, below, differ only in
# cost). The expression of a polynomial in named atoms is then unique and never changes, so a
# kernel's acc_i and the spec's y_i, equal sets of monomials, are the same factor, and acc_i +
# acc_(i+64) (Karatsuba's half sum) is the XOR of their factors. The identities proved are then identities of the free algebra over those
# factors; that is sound (every named atom is exactly its polynomial, evaluate() below computes it)
# and complete for computations that differ by distributivity and commutativity, which is what
# aggregation and Karatsuba are. A bare named atom (from 1 * q or q * q) is replaced by its polynomial,
# so that a product that is linear again (a square: cross terms cancel) ends in monomials, as the
# spec's own square does.
#
# Ids: a named polynomial is POLY_BASE + its index, a monomial MONO_BASE + (a << 32) + b for its factors
# a < b, so monomials need no table (a 71-block update has millions). Neither kind is in ATOMS.
# reset_products() forgets the named polynomials between obligations; no product outlives one.
POLY_BASE = 1 << 31
MONO_BASE = 1 << 62
_POLYS = []       # named polynomial index -> its monomials (a frozenset of atom ids)
_POLY_ROWS = {}   # pivot -> [row, its expression in named atoms], triangular (see _reduce_rows)
_FACTORS = {}     # form -> its factor atoms (a tuple)
_TOP_ROWS = {}    # the same rows for _name_top: largest atom -> (row, its expression)
TOP_ROWS = False
_IN_ROWS = collections.Counter()  # atom -> how many rows hold it (pivots are chosen where it is 0)


# whether carry-less products of variable words take this normal form (the GHASH/POLYVAL obligations)
# or stay opaque word nodes (the AES obligations, which only carry a GCM key's powers of H along)
PRODUCTS = False
LINEAR = False


def reset_products(enable, top_rows=False, linear=False):
    """Products in the normal form (enable) or as word nodes, named polynomials forgotten. top_rows:
    name by the largest atom (_name_top: the powers of H in an init) rather than by triangular
    rows (an update's accumulators). linear: name a factor's atoms too, not only its monomials (a
    GCM key's H, each bit of which is a XOR of dozens of the AES's atoms: a product of two such bits
    would be hundreds of monomials, a product of their names is one). Either way a polynomial's
    expression is unique; only the cost differs, and one obligation keeps to one."""
    global PRODUCTS, TOP_ROWS, LINEAR
    PRODUCTS = enable
    TOP_ROWS = top_rows
    LINEAR = linear
    _TOP_ROWS.clear()
    _POLYS.clear()
    _POLY_ROWS.clear()
    _IN_ROWS.clear()
    _FACTORS.clear()


def set_products(enable):
    """Products on or off, the named polynomials kept (an obligation's own set-up run with products
    as word nodes, between two runs whose terms must share their names)."""
    global PRODUCTS
    PRODUCTS = enable


def mono_factors(a):
    """The two factor atoms of the monomial a."""
    a -= MONO_BASE
    return a >> 32, a & 0xffffffff


def poly_of(a):
    """The monomials of the named polynomial a."""
    return _POLYS[a - POLY_BASE]


def _reduce_rows(monos):
    """(what is left of monos after the rows, the XOR of their expressions).

    The rows are triangular in creation order: row k holds its pivot p_k and none of the pivots of
    the rows before it (it was reduced by them), though it may hold later ones. So for a vector in
    their span, taking the rows in order, what is left once rows 1..k-1 are taken out holds p_k
    exactly when row k is in the vector's combination (every row after k lacks p_k), and the vector
    reduces to nothing. One membership test per row, a XOR per row taken; stored rows never change."""
    v, expr = set(monos), set()
    for p, row in _POLY_ROWS.items():  # in creation order
        if p in v:
            v ^= row[0]
            expr ^= row[1]
    return v, expr


def _new_row(v, count):
    """Names the reduced, non-empty v; returns its named atom. Any atom of v can be its pivot (v lacks
    every earlier pivot). One that no other row and no other vector being named with it holds (count)
    is best: a later vector holding this row's pivot only because it took an earlier row must take
    this one too. An accumulator bit nearly always has such monomials (POLYVAL's product
    coefficients x^128..x^255 each land in one bit); a power of H's bit has few, and then the atom in
    fewest rows is taken."""
    q = POLY_BASE + len(_POLYS)
    if q >= 1 << 32:  # a monomial keeps each factor in 32 bits
        raise OverflowError("too many named polynomials")
    v = frozenset(v)
    _POLYS.append(v)
    # (never the constant: then no XOR of rows is the constant 1, and 1 + (rows) has one expression)
    pivot = next((e for e in v if e and count.get(e, 0) <= 1 and not _IN_ROWS.get(e)), None)
    if pivot is None:
        pivot = min((e for e in v if e), key=lambda e: (_IN_ROWS.get(e, 0), count.get(e, 0)))
    _POLY_ROWS[pivot] = [v, frozenset((q,))]
    _IN_ROWS.update(v)
    return q


def _name_top(monos):
    """monos over named polynomials, semi-echelon by the largest atom: the rows' pivots are their
    largest atoms, a vector is reduced from the top down and named as soon as its largest atom is no
    row's pivot (its expression is then its own atom plus the rows taken). Stored rows never change.
    For families of dense, overlapping polynomials (the bits of powers of H) that early stop is
    what keeps the rows few; accumulators, whose largest atoms are shared, reduce through long
    chains this way, and are named by _reduce_rows' rows instead."""
    v, expr = monos, set()
    while v:
        row = _TOP_ROWS.get(max(v))
        if row is None:
            break
        v = v ^ row[0]  # the pivot cancels; what is left is below it
        expr ^= row[1]
    if v == ONE:  # the constant stays the atom 1, as in name_forms (else 1 has two expressions)
        expr ^= ONE
    elif v:
        q = POLY_BASE + len(_POLYS)
        if q >= 1 << 32:
            raise OverflowError("too many named polynomials")
        _POLYS.append(v)
        _TOP_ROWS[max(v)] = (v, frozenset((q,)))
        expr ^= {q}
    return expr


def name_forms(forms):
    """Writes the monomial parts of forms over the named polynomials, naming what is new, all at once
    (a whole operand register: its bits' pivots are chosen knowing one another). Whatever the order
    and the pivots, a polynomial's expression is unique: the named polynomials are linearly
    independent, each being what was left of a vector after the rows before it."""
    todo = []
    for u in forms:  # in order (the rows depend on it; a set's order would make their cost vary)
        if u in _FACTORS:
            continue
        # (linear: the constant is named with the rest, so that 1 + L is one factor: kept apart, each
        # product by it would copy the other factor's whole polynomial back)
        monos = (u if u != ONE else ZERO) if LINEAR else frozenset(a for a in u if a >= MONO_BASE)
        if not monos:
            _FACTORS[u] = tuple(u)
            continue
        if TOP_ROWS:
            _FACTORS[u] = tuple((u - monos) ^ frozenset(_name_top(monos)))
            continue
        v, expr = _reduce_rows(monos)
        todo.append((u, monos, v, expr))
        _FACTORS[u] = None  # (a form twice in forms is named once; set below)
    count = collections.Counter()
    for _, _, v, _ in todo:
        count.update(v)
    for u, monos, v, expr in todo:
        if v:
            v, e2 = _reduce_rows(v)  # rows named by the vectors before this one
            expr ^= e2
        if v == ONE:
            # the rows and the constant: the constant stays the atom 1 (named, it would be a second
            # expression of 1, and a product by it a monomial where the spec's is the other factor)
            expr ^= ONE
        elif v:
            expr ^= {_new_row(v, count)}
        _FACTORS[u] = tuple((u - monos) ^ frozenset(expr))


def _factors(u):
    r = _FACTORS.get(u)
    if r is None:  # (never None once name_forms has returned)
        name_forms((u,))
        r = _FACTORS[u]
    return r


def _toggle_product(out, a, b):
    """out ^= the monomial a * b of factor atoms a, b (out a mutable set)."""
    if a == b or b == 0:
        pass
    elif a == 0:
        a = b
    else:
        m = MONO_BASE + ((a << 32) | b if a < b else (b << 32) | a)
        if m in out:
            out.remove(m)
        else:
            out.add(m)
        return
    if POLY_BASE <= a < MONO_BASE:
        out ^= _POLYS[a - POLY_BASE]
    elif a in out:
        out.remove(a)
    else:
        out.add(a)


def bmul(u, v):
    """The product u * v of two forms, in the normal form above."""
    if not u or not v:
        return ZERO
    out = set()
    fv = _factors(v)
    for a in _factors(u):
        for b in fv:
            _toggle_product(out, a, b)
    return frozenset(out)


def clmul(a, b):
    """Carry-less product of the words a and b (lists of forms, LSB first): len(a) + len(b) bits, bit
    k = XOR_{i+j=k} a_i b_j in the normal form above."""
    name_forms(a)
    name_forms(b)
    fa = [_factors(x) if x else None for x in a]
    fb = [(j, _factors(y)) for j, y in enumerate(b) if y]
    out = [set() for _ in range(len(a) + len(b))]
    if all(xs is None or (len(xs) == 1 and 0 < xs[0] < POLY_BASE) for xs in fa):
        # every factor of a one var-like atom (a block as loaded): monomials straight away
        for i, xs in enumerate(fa):
            if xs is None:
                continue
            x = xs[0]
            for j, ys in fb:
                s = out[i + j]
                if len(ys) == 1 and 0 < ys[0] < POLY_BASE and ys[0] != x:
                    y = ys[0]
                    m = MONO_BASE + ((x << 32) | y if x < y else (y << 32) | x)
                    if m in s:
                        s.remove(m)
                    else:
                        s.add(m)
                else:
                    for y in ys:
                        _toggle_product(s, x, y)
        return [frozenset(s) for s in out]
    # factors that are sums (powers of H, shifted and reduced): per factor atom x of a, first the XOR
    # of the b factors it meets at each output bit (set operations, in C), then one monomial per atom
    # left after the cancellations; expanding pair by pair costs |a_i| |b_j| toggles per bit pair
    occ = {}
    for i, xs in enumerate(fa):
        if xs is not None:
            for x in xs:
                occ.setdefault(x, []).append(i)
    fb = [(j, frozenset(ys)) for j, ys in fb]
    for x, pos in occ.items():
        w = {}
        for i in pos:
            for j, ys in fb:
                t = w.get(i + j)
                if t is None:
                    w[i + j] = set(ys)
                else:
                    t ^= ys
        if x == 0:  # the constant: 1 * y = y
            for k, ys in w.items():
                for y in ys:
                    _toggle_product(out[k], x, y)
            continue
        hi = MONO_BASE + (x << 32)
        for k, ys in w.items():
            s = out[k]
            if x in ys or 0 in ys:  # x x = x and x 1 = x: not monomials
                for y in (x, 0):
                    if y in ys:
                        ys.discard(y)
                        _toggle_product(s, x, y)
            # x y for the rest, as one set: the monomial's factors in order (x << 32 | y if x < y)
            s ^= {hi + y if x < y else MONO_BASE + (y << 32) + x for y in ys}
    return [frozenset(s) for s in out]


def mul(a, b):
    """a * b mod 2^w, the integer product, for exec.py's mul. With products on, an operand pair whose
    possibly non-zero bits are sparse enough (src/portable/ghash_ctmul.c's "holes": every fourth bit
    of each factor) is decided exactly: the product is sum over q of c_q 2^q, c_q the number of pairs
    i + j = q with a_i = b_j = 1, at most n_q = the pairs whose bits are not the constant 0, so c_q has
    at most bitlen(n_q) bits. When those fields [q, q + bitlen(n_q)) are disjoint no two columns'
    counts overlap, so the sum has no carries between fields: bit q is c_q mod 2 = XOR of a_i b_j over
    i + j = q (the carry-less product's bit q, clmul), a field's other bits are the product's own bits
    (an opaque word node of a and b), and every bit outside the fields is 0; a constant operand's
    bits count as they are (a zero operand gives zero). Otherwise, and with products off, the whole
    product is the opaque word node."""
    w = len(a)
    if all(x == ZERO for x in a) or all(y == ZERO for y in b):
        return [ZERO] * w  # (a zero block through ghash_ctmul.c: 0 * h, never an opaque node)
    fn = lambda x, y: x * y  # noqa: E731
    op = "mul%d" % w
    GENERIC_FNS.setdefault(op, fn)
    if not PRODUCTS or all(is_const(x) for x in a + b):
        return generic(op, [a, b], w, fn)
    sa = [i for i, x in enumerate(a) if x]
    sb = [j for j, y in enumerate(b) if y]
    count = {}
    for i in sa:
        for j in sb:
            if i + j < w:
                count[i + j] = count.get(i + j, 0) + 1
    end = 0
    for q in sorted(count):
        if q < end:
            return generic(op, [a, b], w, fn)  # two columns' counts overlap: carries between them
        end = q + count[q].bit_length()
    # the fields' upper bits: the word node itself (generic's small-support enumeration is not tried:
    # on a GCM ciphertext's bits it costs more than the rest of the product, and the kernels mask
    # these bits away)
    node = _word_node((op, (tuple(a), tuple(b))), w)
    parity = clmul(a, b)
    out = [ZERO] * w
    for q, n in count.items():
        out[q] = parity[q]
        for t in range(q + 1, min(w, q + n.bit_length())):
            out[t] = node[t]
    return out


# ---- evaluation (counterexamples, model validation) ---------------------------------------------

def evaluate(bits, env, memo=None):
    """Concrete value (int, LSB first) of bits under env: var name -> 0/1. (Recursive over the term
    DAG, whose depth is the computation's: a CBC-MAC of 4,081 blocks through opaque rounds nests
    about 40,000 word nodes, so the limit is raised; Python 3.11 keeps Python frames off the C
    stack.)"""
    if memo is None:
        memo = {}
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 1 << 21))
    try:
        return _evaluate(bits, env, memo)
    finally:
        sys.setrecursionlimit(limit)


def _evaluate(bits, env, memo):

    def atom(a):
        r = memo.get(a)
        if r is not None:
            return r
        if a >= MONO_BASE:
            x, y = mono_factors(a)
            r = memo[a] = atom(x) & atom(y)
            return r
        if a >= POLY_BASE:
            r = memo[a] = form(poly_of(a))
            return r
        d = ATOMS[a]
        if d[0] == "one":
            r = 1
        elif d[0] == "var":
            r = env[d[1]]
        elif d[0] == "lut":
            idx = 0
            for j, b in enumerate(d[1]):
                idx |= form(b) << j
            r = (d[2] >> idx) & 1
        elif d[0] == "and":
            r = form(d[1]) & form(d[2])
        elif d[0] == "word":
            r = (node(d[1]) >> d[2]) & 1
        else:
            raise ValueError(d)
        memo[a] = r
        return r

    def form(f):
        r = 0
        for a in f:
            r ^= atom(a)
        return r

    def word(bs):
        v = 0
        for i, b in enumerate(bs):
            v |= form(b) << i
        return v

    def node(n):
        key = ("node", n)
        r = memo.get(key)
        if r is not None:
            return r
        d = ATOMS[n]
        if d[0] == "addc":
            r = word(d[1]) + d[3]
        elif d[0] == "add":
            r = word(d[1]) + word(d[2])
        elif d[0] == "sub":
            r = word(d[1]) - word(d[2])
        else:
            fn = GENERIC_FNS[d[0]]
            r = fn(*[word(x) for x in d[1]])
        memo[key] = r
        return r

    v = 0
    for i, b in enumerate(bits):
        v |= form(b) << i
    return v


# word-node operations evaluate() must know: name -> function of the operands' integer values
GENERIC_FNS = {}
