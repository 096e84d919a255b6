# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""exec.py -- symbolic execution of LLVM IR over the bit algebra of bits.py, with the constant-time
check built in.

Every first-class value is a list of bit forms, least significant bit first; a vector's element i
occupies bits [i*w, (i+1)*w) (the little-endian targets vg proves: x86-64, ppc64le, AArch64), so a
bitcast is the identity. Pointers are 64-bit constants: every object (global, stack slot, caller's
buffer) is a region at an address of its own, and a load or store resolves its address to a region
and an offset.

Only public values may steer execution. The run stops with CTViolation when a branch or switch
condition, a load or store address, a called function's address, or an operand of a division or
remainder is not a constant, i.e. when it depends on an input bit (every input bit is secret; lengths
and addresses are concrete by construction). That is the constant-time check of the same run that
computes the outputs: the proof of equality and the CT argument are made on one semantics.
"""
import bisect

from . import bits as B


class CTViolation(Exception):
    pass


class Unsupported(Exception):
    pass


class Region:
    def __init__(self, name, base, size, readonly=False):
        self.name = name
        self.base = base
        self.size = size
        self.bits = [None] * (size * 8)
        self.readonly = readonly


class Memory:
    def __init__(self):
        self.regions = []  # sorted by base
        self.bases = []
        self.next = 0x10000

    def alloc(self, name, size, align=16, readonly=False):
        base = (self.next + 4095) // 4096 * 4096
        self.next = base + max(size, 1) + 4096  # a guard gap: an overrun is an error, not a neighbour
        r = Region(name, base, size, readonly)
        i = bisect.bisect(self.bases, base)
        self.bases.insert(i, base)
        self.regions.insert(i, r)
        return r

    def find(self, addr, n):
        i = bisect.bisect(self.bases, addr) - 1
        if i < 0:
            raise Unsupported("access to address %#x: no object there" % addr)
        r = self.regions[i]
        off = addr - r.base
        if off < 0 or off + n > r.size:
            raise Unsupported("access of %d bytes at %s+%d (size %d): out of bounds" % (n, r.name, off, r.size))
        return r, off

    def load(self, addr, n):
        r, off = self.find(addr, n)
        out = r.bits[off * 8:(off + n) * 8]
        if None in out:
            for i, b in enumerate(out):
                if b is None:
                    # reading memory never written: a value the program does not define; a fresh
                    # atom per position, so that any result depending on it differs from the spec
                    out[i] = B.var(("undef", r.name, off * 8 + i))
        return out

    def store(self, addr, bits):
        n = len(bits) // 8
        r, off = self.find(addr, n)
        if r.readonly:
            raise Unsupported("store to constant %s" % r.name)
        r.bits[off * 8:(off + n) * 8] = bits


def cval(bits, what):
    v = B.const_value(bits)
    if v is None:
        raise CTViolation(what)
    return v


def to_signed(v, w):
    return v - (1 << w) if v >> (w - 1) else v


class Machine:
    """One module in one memory. intrinsics: name prefix -> python function(machine, ins, args)."""

    def __init__(self, module, intrinsics, externals):
        self.m = module
        self.mem = Memory()
        self.intrinsics = intrinsics
        self.externals = externals
        # function name -> python function(machine, args): a proved specification used in place of the
        # function's body at every call (SAW's override; sym/overrides.py proves each one it offers)
        self.overrides = {}
        self.gaddr = {}
        self.faddr = {}
        self.fname = {}
        self.steps = 0
        self.trace = []
        fbase = 0x1000
        for i, name in enumerate(sorted(set(module.functions) | set(module.declares))):
            self.faddr[name] = fbase + 16 * i
            self.fname[fbase + 16 * i] = name
        for name, (ty, init, align, is_const) in module.globals.items():
            if init is not None and init[0] == "alias":
                continue
            r = self.mem.alloc("@" + name, module.size(ty), align)
            self.gaddr[name] = r.base
        for name, (ty, init, align, is_const) in module.globals.items():
            if init is not None and init[0] == "alias":
                self.gaddr[name] = B.const_value(self.const(init[1][0], init[1][1]))
        for name, (ty, init, align, is_const) in module.globals.items():
            if init is None or init[0] == "alias":
                continue
            r, _ = self.mem.find(self.gaddr[name], 1)
            r.bits[:] = self.const_mem(ty, init)
            # a `constant` global is read-only from here on: a store to one fails the obligation
            r.readonly = is_const

    # ---- constants -------------------------------------------------------------------------------
    def const_mem(self, ty, v):
        """The bytes (as bits) of a constant of type ty in memory."""
        m = self.m
        t = m.resolve(ty)
        size = m.size(t)
        if v[0] in ("zero", "null"):
            return [B.ZERO] * (size * 8)
        if v[0] in ("undef", "poison"):
            return [B.ZERO] * (size * 8)
        if t[0] in ("int", "ptr", "vec", "fn"):
            bits = self.const(ty, v)
            return bits + [B.ZERO] * (size * 8 - len(bits))
        if t[0] == "arr":
            if v[0] == "str":
                out = []
                for byte in v[1]:
                    out += B.const_bits(byte, 8)
                return out + [B.ZERO] * (size * 8 - len(out))
            out = []
            for ety, ev in v[1]:
                out += self.const_mem(ety, ev)
            return out
        if t[0] == "struct":
            out = [B.ZERO] * (size * 8)
            for i, (fty, fv) in enumerate(v[1]):
                off = m.field_offset(t, i) * 8
                b = self.const_mem(fty, fv)
                out[off:off + len(b)] = b
            return out
        raise Unsupported("constant %r of %r" % (v, ty))

    def const(self, ty, v):
        m = self.m
        k = v[0]
        if k == "int":
            return B.const_bits(v[1] % (1 << m.bits(ty)), m.bits(ty))
        if k in ("null", "zero"):
            t = m.resolve(ty)
            if t[0] == "struct":
                return tuple(self.const(f, ("zero",)) for f in t[1])
            return [B.ZERO] * m.bits(ty)
        if k in ("undef", "poison"):
            t = m.resolve(ty)
            if t[0] == "struct":
                return tuple(self.const(f, v) for f in t[1])
            self.steps += 1
            return [B.var(("undef-value", self.steps, i)) for i in range(m.bits(ty))]
        if k == "global":
            name = v[1]
            if name in self.gaddr:
                return B.const_bits(self.gaddr[name], 64)
            return B.const_bits(self.faddr[name], 64)
        if k == "agg":
            t = m.resolve(ty)
            if t[0] == "vec":
                out = []
                for ety, ev in v[1]:
                    out += self.const(ety, ev)
                return out
            if t[0] == "struct":
                return tuple(self.const(fty, fv) for fty, fv in v[1])
            raise Unsupported("aggregate constant of %r" % (t,))
        if k == "cexpr":
            op = v[1]
            if op == "gep":
                base = B.const_value(self.const(*v[3]))
                idx = [B.const_value(self.const(*x)) for x in v[4]]
                return B.const_bits(self.gep_addr(v[2], base, [(x[0], i) for x, i in zip(v[4], idx)]) % (1 << 64), 64)
            if op in ("bitcast", "ptrtoint", "inttoptr"):
                src = self.const(*v[2])
                return self.resize(src, m.bits(v[3]), False)
            if op in ("trunc", "zext", "sext"):
                src = self.const(*v[2])
                return self.resize(src, m.bits(v[3]), op == "sext")
            if op in ("add", "sub", "and", "or", "xor", "shl", "lshr"):
                a = B.const_value(self.const(*v[2]))
                b = B.const_value(self.const(*v[3]))
                w = m.bits(v[2][0])
                r = {"add": a + b, "sub": a - b, "and": a & b, "or": a | b, "xor": a ^ b,
                     "shl": a << b, "lshr": a >> b}[op]
                return B.const_bits(r % (1 << w), w)
            raise Unsupported("constant expression %s" % op)
        if k == "str":
            raise Unsupported("string constant as a value")
        raise Unsupported("constant %r" % (v,))

    @staticmethod
    def resize(bits, w, signed):
        if len(bits) >= w:
            return bits[:w]
        fill = bits[-1] if signed else B.ZERO
        return bits + [fill] * (w - len(bits))

    def gep_addr(self, base_ty, base, idx):
        m = self.m
        addr = base
        t = base_ty
        first = True
        for ity, i in idx:
            if first:
                addr += to_signed(i, m.bits(ity)) * m.size(t)
                first = False
                continue
            rt = m.resolve(t)
            if rt[0] == "struct":
                addr += m.field_offset(rt, i)
                t = rt[1][i]
            elif rt[0] in ("arr", "vec"):
                e = rt[2]
                addr += to_signed(i, m.bits(ity)) * m.size(e)
                t = e
            else:
                raise Unsupported("gep into %r" % (rt,))
        return addr

    # ---- execution -------------------------------------------------------------------------------
    def call(self, name, args):
        ov = self.overrides.get(name)
        if ov is not None:
            return ov(self, args)
        f = self.m.functions.get(name)
        if f is None:
            ext = self.externals.get(name)
            if ext is None:
                raise Unsupported("call of external function %s" % name)
            return ext(self, args)
        env = {}
        for (ty, pname), a in zip(f.params, args):
            env[pname] = a
        label = f.entry
        prev = None
        while True:
            block = f.blocks[label]
            # phis read their inputs all at once, on entry
            i = 0
            phis = []
            while i < len(block) and block[i]["op"] == "phi":
                ins = block[i]
                for v, lab in ins["inc"]:
                    if lab == prev:
                        phis.append((ins["res"], self.val(env, ins["ty"], v)))
                        break
                else:
                    raise Unsupported("phi without an entry for %s in %s" % (prev, name))
                i += 1
            for r, v in phis:
                env[r] = v
            for ins in block[i:]:
                self.steps += 1
                op = ins["op"]
                if op == "br":
                    if "dest" in ins:
                        nxt = ins["dest"]
                    else:
                        c = cval(self.val(env, *ins["c"]), "branch on a secret in %s: %s" % (name, ins["text"]))
                        nxt = ins["t"] if c else ins["f"]
                    prev, label = label, nxt
                    break
                if op == "switch":
                    v = cval(self.val(env, *ins["v"]), "switch on a secret in %s: %s" % (name, ins["text"]))
                    w = self.m.bits(ins["v"][0])
                    nxt = ins["default"]
                    for cv, lab in ins["cases"]:
                        if cv % (1 << w) == v:
                            nxt = lab
                            break
                    prev, label = label, nxt
                    break
                if op == "ret":
                    return None if ins["v"] is None else self.val(env, *ins["v"])
                if op == "unreachable":
                    raise Unsupported("reached unreachable in %s" % name)
                r = self.step(env, ins, name)
                if ins["res"] is not None:
                    env[ins["res"]] = r
            else:
                raise Unsupported("block %s of %s falls through" % (label, name))

    def val(self, env, ty, v):
        if v[0] == "local":
            return env[v[1]]
        return self.const(ty, v)

    def step(self, env, ins, fname):
        op = ins["op"]
        m = self.m
        h = _OPS.get(op)
        if h is None:
            raise Unsupported("instruction %s" % op)
        return h(self, env, ins, fname)


def _binop(self, env, ins, fname):
    op = ins["op"]
    ty = ins["ty"]
    a = self.val(env, ty, ins["a"])
    b = self.val(env, ty, ins["b"])
    t = self.m.resolve(ty)
    if t[0] == "vec":
        w = self.m.bits(t[2])
        out = []
        for i in range(t[1]):
            out += _scalar(self, op, a[i * w:(i + 1) * w], b[i * w:(i + 1) * w], w, ins, fname)
        return out
    return _scalar(self, op, a, b, len(a), ins, fname)


def _scalar(self, op, a, b, w, ins, fname):
    if op == "xor":
        return [x ^ y for x, y in zip(a, b)]
    if op == "and":
        return [B.band(x, y) for x, y in zip(a, b)]
    if op == "or":
        return [B.bor(x, y) for x, y in zip(a, b)]
    if op in ("shl", "lshr", "ashr"):
        s = B.const_value(b)
        if s is None:
            return B.generic(op, [a, b], w, _SHIFT_FNS[op](w))
        if s >= w:
            return [B.var(("poison-shift", self.steps, i)) for i in range(w)]
        if op == "shl":
            return [B.ZERO] * s + a[:w - s]
        if op == "lshr":
            return a[s:] + [B.ZERO] * s
        return a[s:] + [a[-1]] * s
    if op == "add":
        return B.add(a, b)
    if op == "sub":
        return B.sub(a, b)
    if op == "mul":
        return B.mul(a, b)
    if op in ("udiv", "sdiv", "urem", "srem"):
        if not all(B.is_const(x) for x in a + b):
            raise CTViolation("%s of a secret in %s: %s" % (op, fname, ins["text"]))
        x, y = B.const_value(a), B.const_value(b)
        if op in ("sdiv", "srem"):
            x, y = to_signed(x, w), to_signed(y, w)
        if y == 0:
            raise Unsupported("division by zero in %s" % fname)
        q = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
        r = x - q * y
        return B.const_bits((q if op.endswith("div") else r) % (1 << w), w)
    raise Unsupported(op)


def _shift_fn(op, w):
    if op == "shl":
        return lambda x, s: (x << s) if s < w else 0
    if op == "lshr":
        return lambda x, s: (x >> s) if s < w else 0
    return lambda x, s: (to_signed(x, w) >> s) % (1 << w) if s < w else 0


_SHIFT_FNS = {op: (lambda op: lambda w: _shift_fn(op, w))(op) for op in ("shl", "lshr", "ashr")}


def _icmp_scalar(pred, a, b, w):
    ca, cb = B.const_value(a), B.const_value(b)
    if pred == "eq" or pred == "ne":
        if a == b:
            return B.ONE if pred == "eq" else B.ZERO
        # eq is the AND of the bitwise XNORs: for few bits a lut, else a node
        B.GENERIC_FNS.setdefault("eq%d" % w, lambda x, y: int(x == y))
        r = B.generic("eq%d" % w, [a, b], 1, lambda x, y: int(x == y))[0]
        return r if pred == "eq" else B.bnot(r)

    # a sign test (x < 0, x >= 0, x > -1, x <= -1: clang's form of a mask spread from the top bit) is
    # the top bit itself, kept as a bit rather than a word node, so that it meets the spec's terms
    if cb is not None and (pred, cb) in (("slt", 0), ("sle", (1 << w) - 1)):
        return a[w - 1]
    if cb is not None and (pred, cb) in (("sge", 0), ("sgt", (1 << w) - 1)):
        return B.bnot(a[w - 1])

    def fn(x, y):
        if pred[0] == "s":
            x, y = to_signed(x, w), to_signed(y, w)
        return int({"ult": x < y, "ule": x <= y, "ugt": x > y, "uge": x >= y,
                    "slt": x < y, "sle": x <= y, "sgt": x > y, "sge": x >= y}[pred])
    name = "icmp_" + pred + str(w)
    B.GENERIC_FNS.setdefault(name, fn)  # for evaluate() (counterexamples) of the word node below
    return B.generic(name, [a, b], 1, fn)[0]


def _icmp(self, env, ins, fname):
    ty = ins["ty"]
    a = self.val(env, ty, ins["a"])
    b = self.val(env, ty, ins["b"])
    t = self.m.resolve(ty)
    if t[0] == "vec":
        w = self.m.bits(t[2])
        return [_icmp_scalar(ins["pred"], a[i * w:(i + 1) * w], b[i * w:(i + 1) * w], w) for i in range(t[1])]
    return [_icmp_scalar(ins["pred"], a, b, len(a))]


def _cast(self, env, ins, fname):
    op = ins["op"]
    src = self.val(env, *ins["src"])
    st = self.m.resolve(ins["src"][0])
    dt = self.m.resolve(ins["ty"])
    if op in ("bitcast", "ptrtoint", "inttoptr"):
        return self.resize(src, self.m.bits(dt), False)
    if st[0] == "vec":
        sw, dw = self.m.bits(st[2]), self.m.bits(dt[2])
        out = []
        for i in range(st[1]):
            out += self.resize(src[i * sw:(i + 1) * sw], dw, op == "sext")
        return out
    return self.resize(src, self.m.bits(dt), op == "sext")


def _select(self, env, ins, fname):
    c = self.val(env, *ins["c"])
    a = self.val(env, *ins["a"])
    b = self.val(env, *ins["b"])
    if isinstance(a, tuple):
        cv = cval(c, "select of aggregates on a secret")
        return a if cv else b
    if len(c) == 1:
        return [B.mux(c[0], x, y) for x, y in zip(a, b)]
    n = len(c)
    w = len(a) // n
    out = []
    for i in range(n):
        out += [B.mux(c[i], x, y) for x, y in zip(a[i * w:(i + 1) * w], b[i * w:(i + 1) * w])]
    return out


def _load(self, env, ins, fname):
    addr = cval(self.val(env, *ins["ptr"]), "load from a secret address in %s: %s" % (fname, ins["text"]))
    t = self.m.resolve(ins["ty"])
    if t[0] == "struct":
        raise Unsupported("load of an aggregate")
    n = self.m.size(t)
    bits = self.mem.load(addr, n)
    return bits[: self.m.bits(t)]


def _store(self, env, ins, fname):
    addr = cval(self.val(env, *ins["ptr"]), "store to a secret address in %s: %s" % (fname, ins["text"]))
    v = self.val(env, *ins["val"])
    n = self.m.size(ins["val"][0])
    self.mem.store(addr, v + [B.ZERO] * (n * 8 - len(v)))


def _gep(self, env, ins, fname):
    base = self.val(env, *ins["ptr"])
    idx = []
    for ity, iv in ins["idx"]:
        v = self.val(env, ity, iv)
        idx.append((ity, v))
    t = self.m.resolve(ins["ptr"][0])
    if t[0] == "vec":
        raise Unsupported("vector gep")
    cb = cval(base, "address from a secret in %s: %s" % (fname, ins["text"]))
    ci = []
    for ity, v in idx:
        ci.append((ity, cval(v, "address indexed by a secret in %s: %s" % (fname, ins["text"]))))
    return B.const_bits(self.gep_addr(ins["base_ty"], cb, ci) % (1 << 64), 64)


def _alloca(self, env, ins, fname):
    n = self.m.size(ins["ty"])
    if ins["count"] is not None:
        n *= cval(self.val(env, *ins["count"]), "alloca of a secret size")
    r = self.mem.alloc("%s.%s" % (fname, ins["res"]), n, ins["align"])
    return B.const_bits(r.base, 64)


def _extractelement(self, env, ins, fname):
    v = self.val(env, *ins["vec"])
    t = self.m.resolve(ins["vec"][0])
    w = self.m.bits(t[2])
    i = cval(self.val(env, *ins["idx"]), "vector element chosen by a secret")
    return v[i * w:(i + 1) * w]


def _insertelement(self, env, ins, fname):
    v = list(self.val(env, *ins["vec"]))
    e = self.val(env, *ins["elt"])
    i = cval(self.val(env, *ins["idx"]), "vector element chosen by a secret")
    w = len(e)
    v[i * w:(i + 1) * w] = e
    return v


def _shufflevector(self, env, ins, fname):
    t = self.m.resolve(ins["a"][0])
    n = t[1]
    w = self.m.bits(t[2])
    a = self.val(env, *ins["a"])
    # an undef or poison second operand (clang's one-input shuffles) is not materialised: no mask index
    # below may select it then, or the lane would be a value the program does not define
    bv = ins["b"][1]
    b = None if bv[0] in ("undef", "poison") else self.val(env, *ins["b"])
    mty, mv = ins["mask"]
    mt = self.m.resolve(mty)
    if mv[0] == "zero":
        mask = [0] * mt[1]
    elif mv[0] in ("undef", "poison"):
        mask = [None] * mt[1]
    else:
        mask = [None if x[1][0] in ("undef", "poison") else x[1][1] for x in mv[1]]
    both = a + b if b is not None else a
    out = []
    for j, i in enumerate(mask):
        if i is None or (b is None and i >= n):
            self.steps += 1
            out += [B.var(("undef-lane", self.steps, k)) for k in range(w)]
        else:
            out += both[i * w:(i + 1) * w]
    return out


def _extractvalue(self, env, ins, fname):
    v = self.val(env, *ins["agg"])
    for i in ins["idx"]:
        v = v[i]
    return v


def _insertvalue(self, env, ins, fname):
    v = self.val(env, *ins["agg"])
    e = self.val(env, *ins["elt"])
    (i,) = ins["idx"]
    v = list(v)
    v[i] = e
    return tuple(v)


def _freeze(self, env, ins, fname):
    return self.val(env, *ins["src"])


def _cmpxchg(self, env, ins, fname):
    addr = cval(self.val(env, *ins["ptr"]), "cmpxchg at a secret address")
    cmp = self.val(env, *ins["cmp"])
    new = self.val(env, *ins["new"])
    n = len(cmp) // 8
    old = self.mem.load(addr, n)
    eq = cval([_icmp_scalar("eq", old, cmp, len(cmp))], "cmpxchg on a secret")
    if eq:
        self.mem.store(addr, new)
    return (old, [B.ONE if eq else B.ZERO])


def _fence(self, env, ins, fname):
    return None


def _call(self, env, ins, fname):
    callee = ins["callee"]
    args = [self.val(env, ty, v) if ty != ("metadata",) else None for ty, v in ins["args"]]
    if callee[0] == "asm":
        return self.intrinsics["asm"](self, ins, args)
    if callee[0] == "global":
        name = callee[1]
    else:
        addr = cval(self.val(env, ("ptr", ("int", 8)), callee), "call through a secret pointer in %s" % fname)
        name = self.fname.get(addr)
        if name is None:
            raise Unsupported("call of address %#x" % addr)
    if name.startswith("llvm."):
        for prefix in sorted(self.intrinsics, key=len, reverse=True):
            if name.startswith(prefix):
                return self.intrinsics[prefix](self, ins, args, name)
        raise Unsupported("intrinsic %s" % name)
    return self.call(name, args)


_OPS = {op: _binop for op in ("add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr", "udiv", "sdiv",
                              "urem", "srem")}
_OPS.update(icmp=_icmp, trunc=_cast, zext=_cast, sext=_cast, bitcast=_cast, ptrtoint=_cast, inttoptr=_cast,
            select=_select, load=_load, store=_store, getelementptr=_gep, alloca=_alloca,
            extractelement=_extractelement, insertelement=_insertelement, shufflevector=_shufflevector,
            extractvalue=_extractvalue, insertvalue=_insertvalue, freeze=_freeze, cmpxchg=_cmpxchg,
            fence=_fence, call=_call)
