# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""ir.py -- a reader for the textual LLVM IR (LLVM 14, typed pointers) that clang writes for vg.

It reads what clang emits for the library's sources and nothing more general: type definitions,
globals with their initialisers (constant expressions included), and function bodies. Anything it
does not know is an error, never skipped: a proof over a misread instruction would prove nothing.

Types are tuples: ('int', bits), ('ptr', pointee), ('vec', n, elem), ('arr', n, elem),
('struct', (fields...), packed), ('named', name), ('void',), ('fn', ret, params, vararg),
('label',), ('metadata',), ('float', bits).
Values are tuples: ('local', name), ('global', name), ('int', v), ('null',), ('undef',), ('poison',),
('zero',), ('agg', [(type, value)...]), ('str', bytes), ('cexpr', op, ...), ('asm', text, constraints).
"""
import re

_TOKEN = re.compile(r'''
    (?P<ws>\s+|;[^\n]*)
  | (?P<str>c?"[^"]*")
  | (?P<local>%[-a-zA-Z$._0-9]+|%"[^"]*")
  | (?P<global>@[-a-zA-Z$._0-9]+|@"[^"]*")
  | (?P<meta>![-a-zA-Z$._0-9]+|!)
  | (?P<attr>\#[0-9]+)
  | (?P<num>-?0x[0-9a-fA-F]+|-?[0-9]+(\.[0-9]+(e[-+]?[0-9]+)?)?)
  | (?P<word>[a-zA-Z_][a-zA-Z0-9_.]*:?)
  | (?P<dots>\.\.\.)
  | (?P<p>[][(){}<>,=*:|])
''', re.X)


def tokenize(text):
    out = []
    pos = 0
    n = len(text)
    while pos < n:
        m = _TOKEN.match(text, pos)
        if not m:
            raise SyntaxError("IR: cannot read at %r" % text[pos:pos + 40])
        pos = m.end()
        k = m.lastgroup
        if k == "ws":
            continue
        out.append((k, m.group()))
    return out


_LINKAGE = {"private", "internal", "external", "hidden", "protected", "default", "dso_local", "unnamed_addr",
            "local_unnamed_addr", "constant", "global", "weak", "linkonce_odr", "weak_odr", "common",
            "available_externally", "thread_local", "dso_preemptable", "appending", "extern_weak",
            "linkonce", "externally_initialized"}
_FLAGS = {"nuw", "nsw", "exact", "inbounds", "volatile", "tail", "musttail", "notail", "fast", "nnan",
          "ninf", "nsz", "arcp", "contract", "afn", "reassoc", "atomic"}
_PARAM_ATTRS = {"noundef", "nonnull", "readonly", "writeonly", "nocapture", "signext", "zeroext",
                "noalias", "returned", "immarg", "inreg", "byval", "sret", "align", "dereferenceable",
                "dereferenceable_or_null", "nofree", "readnone", "noinline", "nounwind", "elementtype"}


class Function:
    """A defined function. Its body is parsed on first use: a proof touches a few of the module's
    functions, and the negative controls parse a module each."""

    def __init__(self, name, header, body):
        self.name = name
        self._header = header
        self._body = body
        self._blocks = None

    def _parse(self):
        self.ret, self.params, self._blocks, self.attrs_text = _parse_function(self._header, self._body)
        self.entry = next(iter(self._blocks))
        self._header = self._body = None

    @property
    def blocks(self):
        if self._blocks is None:
            self._parse()
        return self._blocks

    def __getattr__(self, attr):
        if attr in ("ret", "params", "entry", "attrs_text"):
            self._parse()
            return self.__dict__[attr]
        raise AttributeError(attr)


class Module:
    def __init__(self):
        self.types = {}
        self.globals = {}         # name -> (type, init value or None, align, is_constant)
        self.functions = {}
        self.declares = set()
        self.attr_groups = {}
        self.module_asm = []      # the lines of the top-level (module) assembly, in order

    # ---- layout (x86-64, ppc64le and AArch64 share these rules for the types vg uses) ----------
    def resolve(self, t):
        while t[0] == "named":
            t = self.types[t[1]]
        return t

    def size(self, t):
        t = self.resolve(t)
        k = t[0]
        if k == "int":
            return (t[1] + 7) // 8 if t[1] <= 8 else _pow2ceil((t[1] + 7) // 8)
        if k in ("ptr", "fn"):
            return 8
        if k == "float":
            return t[1] // 8
        if k == "vec":
            return _pow2ceil(t[1] * self.bits(t[2]) // 8) if t[2][0] != "ptr" else t[1] * 8
        if k == "arr":
            return t[1] * self.size(t[2])
        if k == "struct":
            off = 0
            al = 1
            for f in t[1]:
                a = 1 if t[2] else self.align(f)
                off = (off + a - 1) // a * a
                off += self.size(f)
                al = max(al, a)
            return (off + al - 1) // al * al
        raise TypeError(t)

    def align(self, t):
        t = self.resolve(t)
        k = t[0]
        if k == "int":
            return min(self.size(t), 16) if t[1] > 64 else self.size(t)
        if k in ("ptr", "fn"):
            return 8
        if k == "float":
            return t[1] // 8
        if k == "vec":
            return self.size(t)
        if k == "arr":
            return self.align(t[2])
        if k == "struct":
            return 1 if t[2] else max([self.align(f) for f in t[1]] or [1])
        raise TypeError(t)

    def field_offset(self, t, i):
        t = self.resolve(t)
        off = 0
        for j, f in enumerate(t[1]):
            a = 1 if t[2] else self.align(f)
            off = (off + a - 1) // a * a
            if j == i:
                return off
            off += self.size(f)
        raise IndexError(i)

    def bits(self, t):
        """Width of a first-class value in a register."""
        t = self.resolve(t)
        k = t[0]
        if k == "int":
            return t[1]
        if k in ("ptr", "fn"):
            return 64
        if k == "vec":
            return t[1] * self.bits(t[2])
        if k == "float":
            return t[1]
        raise TypeError(t)


def _pow2ceil(n):
    p = 1
    while p < n:
        p *= 2
    return p


class Parser:
    def __init__(self, toks):
        self.t = toks
        self.i = 0

    def peek(self, o=0):
        j = self.i + o
        return self.t[j] if j < len(self.t) else ("eof", "")

    def next(self):
        tok = self.t[self.i]
        self.i += 1
        return tok

    def accept(self, s):
        if self.i < len(self.t) and self.t[self.i][1] == s:
            self.i += 1
            return True
        return False

    def expect(self, s):
        tok = self.next()
        if tok[1] != s:
            raise SyntaxError("IR: expected %r, got %r near %r" % (s, tok[1], self.t[self.i - 5:self.i + 5]))

    # ---- types ----
    def type(self):
        k, s = self.next()
        if k == "word" and re.fullmatch(r"i[0-9]+", s):
            t = ("int", int(s[1:]))
        elif s == "void":
            t = ("void",)
        elif s in ("float", "double", "half", "x86_fp80", "fp128"):
            t = ("float", {"half": 16, "float": 32, "double": 64, "x86_fp80": 80, "fp128": 128}[s])
        elif s in ("label", "metadata", "token"):
            t = (s,)
        elif s == "ptr":
            t = ("ptr", ("int", 8))
        elif s == "[":
            n = int(self.next()[1])
            self.expect("x")
            e = self.type()
            self.expect("]")
            t = ("arr", n, e)
        elif s == "<":
            if self.peek()[1] == "{":
                self.next()
                fs = self.fields("}")
                self.expect(">")
                t = ("struct", tuple(fs), True)
            else:
                n = int(self.next()[1])
                self.expect("x")
                e = self.type()
                self.expect(">")
                t = ("vec", n, e)
        elif s == "{":
            t = ("struct", tuple(self.fields("}")), False)
        elif k == "local":
            t = ("named", s[1:])
        else:
            raise SyntaxError("IR: type expected, got %r" % s)
        while True:
            if self.accept("*"):
                t = ("ptr", t)
            elif self.peek()[1] == "(" and t[0] != "label":
                self.next()
                ps = []
                va = False
                while not self.accept(")"):
                    if self.accept("..."):
                        va = True
                        continue
                    ps.append(self.type())
                    self.accept(",")
                t = ("fn", t, tuple(ps), va)
            else:
                return t

    def fields(self, close):
        fs = []
        while not self.accept(close):
            fs.append(self.type())
            self.accept(",")
        return fs

    # ---- values ----
    def value(self, t=None):
        k, s = self.peek()
        if k == "local":
            self.next()
            return ("local", s[1:])
        if k == "global":
            self.next()
            return ("global", s[1:])
        if k == "num":
            self.next()
            if "." in s:
                return ("int", 0)
            return ("int", int(s, 0))
        if k == "str":
            self.next()
            return ("str", _unescape(s[2:-1]))
        if s in ("true", "false"):
            self.next()
            return ("int", 1 if s == "true" else 0)
        if s == "null":
            self.next()
            return ("null",)
        if s in ("undef", "poison"):
            self.next()
            return (s,)
        if s == "zeroinitializer":
            self.next()
            return ("zero",)
        if s == "<" and self.peek(1)[1] == "{":
            # a packed struct constant <{ ... }>
            self.next()
            self.next()
            items = []
            while not self.accept("}"):
                ty = self.type()
                items.append((ty, self.value(ty)))
                self.accept(",")
            self.expect(">")
            return ("agg", items)
        if s in ("<", "[", "{"):
            self.next()
            close = {"<": ">", "[": "]", "{": "}"}[s]
            items = []
            while not self.accept(close):
                ty = self.type()
                items.append((ty, self.value(ty)))
                self.accept(",")
            return ("agg", items)
        if s == "asm":
            self.next()
            flags = []
            while self.peek()[0] == "word":
                flags.append(self.next()[1])
            text = self.next()[1]
            self.expect(",")
            cons = self.next()[1]
            return ("asm", _unescape(text[1:-1]).decode("latin-1"), cons[1:-1])
        if s in ("getelementptr", "bitcast", "ptrtoint", "inttoptr", "trunc", "zext", "sext", "add", "sub",
                 "and", "or", "xor", "shl", "lshr", "icmp"):
            self.next()
            while self.peek()[1] in _FLAGS:
                self.next()
            if s == "icmp":
                pred = self.next()[1]
                self.expect("(")
                a = self.typed()
                self.expect(",")
                b = self.typed()
                self.expect(")")
                return ("cexpr", "icmp", pred, a, b)
            self.expect("(")
            if s == "getelementptr":
                base_ty = self.type()
                self.expect(",")
                ptr = self.typed()
                idx = []
                while self.accept(","):
                    self.accept("inrange")
                    idx.append(self.typed())
                self.expect(")")
                return ("cexpr", "gep", base_ty, ptr, idx)
            a = self.typed()
            if self.accept("to"):
                to = self.type()
                self.expect(")")
                return ("cexpr", s, a, to)
            self.expect(",")
            b = self.typed()
            self.expect(")")
            return ("cexpr", s, a, b)
        raise SyntaxError("IR: value expected, got %r" % s)

    def typed(self):
        ty = self.type()
        self.param_attrs()
        return (ty, self.value(ty))

    def param_attrs(self):
        while True:
            s = self.peek()[1]
            if s in _PARAM_ATTRS:
                self.next()
                if self.peek()[1] == "(":
                    self.next()
                    while not self.accept(")"):
                        self.next()
                elif s in ("align", "dereferenceable", "dereferenceable_or_null") and self.peek()[0] == "num":
                    self.next()
            else:
                return


def _unescape(s):
    out = bytearray()
    i = 0
    while i < len(s):
        if s[i] == "\\" and s[i + 1:i + 2] == "\\":  # LLVM's \\: one backslash (gas macro arguments)
            out.append(0x5c)
            i += 2
        elif s[i] == "\\" and i + 2 < len(s) + 1 and re.fullmatch(r"[0-9A-Fa-f]{2}", s[i + 1:i + 3]):
            out.append(int(s[i + 1:i + 3], 16))
            i += 3
        else:
            out.append(ord(s[i]))
            i += 1
    return bytes(out)


def parse_module(text):
    m = Module()
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        s = line.strip()
        i += 1
        if not s or s.startswith(";") or s.startswith("!") or s.startswith("source_filename") \
                or s.startswith("target ") or s.startswith("declare") or s.startswith("$"):
            if s.startswith("declare"):
                mm = re.search(r"@([-\w.$]+)\(", s)
                if mm:
                    m.declares.add(mm.group(1))
            continue
        if s.startswith("module asm "):
            # top-level assembly: kept as text for the architecture's interpreter (asm_<arch>.py),
            # which reads the functions it is asked to run and rejects what it does not know
            mm = re.fullmatch(r'module asm "(.*)"', s)
            m.module_asm.append(_unescape(mm.group(1)).decode("latin-1"))
            continue
        if s.startswith("attributes"):
            mm = re.match(r"attributes #(\d+) = \{(.*)\}", s)
            m.attr_groups[mm.group(1)] = mm.group(2)
            continue
        if s.startswith("%") and " = type " in s:
            p = Parser(tokenize(s))
            name = p.next()[1][1:]
            p.expect("=")
            p.expect("type")
            if p.peek()[1] == "opaque":
                m.types[name] = ("struct", (), False)
            else:
                m.types[name] = p.type()
            continue
        if s.startswith("@"):
            _parse_global(m, s)
            continue
        if s.startswith("define"):
            body = []
            while not lines[i].startswith("}"):
                body.append(lines[i])
                i += 1
            i += 1
            mm = re.search(r"@([-\w.$]+)\(", s)
            m.functions[mm.group(1)] = Function(mm.group(1), s, body)
            continue
        raise SyntaxError("IR: top-level line not understood: %r" % s[:80])
    return m


def _parse_global(m, s):
    p = Parser(tokenize(s))
    name = p.next()[1][1:]
    p.expect("=")
    is_const = False
    while True:
        w = p.peek()[1]
        if w in _LINKAGE:
            p.next()
            if w == "constant":
                is_const = True
            if w in ("constant", "global"):
                break
        elif w == "alias":
            p.next()
            ty = p.type()
            p.expect(",")
            target = p.typed()
            m.globals[name] = (ty, ("alias", target), 1, True)
            return
        else:
            raise SyntaxError("IR: global %s: %r" % (name, w))
    ty = p.type()
    init = None
    if p.peek()[0] != "eof" and p.peek()[1] not in (",",):
        init = p.value(ty)
    align = 1
    while p.accept(","):
        w = p.next()[1]
        if w == "align":
            align = int(p.next()[1])
        elif w == "section":
            p.next()
        elif w.startswith("!"):
            p.next()
    m.globals[name] = (ty, init, align, is_const)


def _parse_function(header, body):
    p = Parser(tokenize(header))
    p.expect("define")
    while p.peek()[0] == "word" and not re.fullmatch(r"i[0-9]+|void|float|double", p.peek()[1]) \
            and p.peek()[1] not in ("<", "{", "["):
        p.next()
    ret = p.type()
    name = p.next()[1][1:]
    p.expect("(")
    params = []
    while not p.accept(")"):
        ty = p.type()
        p.param_attrs()
        pname = p.next()[1][1:]
        params.append((ty, pname))
        p.accept(",")
    attrs = " ".join(x[1] for x in p.t[p.i:])
    blocks = {}
    cur = "entry" if False else None
    # the first block is unnamed in clang's output: its label is the number after the parameters
    first = str(len([1 for _, n in params if n.isdigit()]))
    cur = first
    blocks[cur] = []
    j = 0
    while j < len(body):
        line = body[j]
        j += 1
        s = line.split(";")[0].rstrip() if not line.strip().startswith(";") else ""
        if not s.strip():
            continue
        mm = re.match(r"^([-\w.$]+):", s)
        if mm and not s.startswith(" "):
            cur = mm.group(1)
            blocks.setdefault(cur, [])
            continue
        if s.strip().startswith("switch"):
            while "]" not in s:
                s += " " + body[j].strip()
                j += 1
        blocks[cur].append(parse_instr(s.strip()))
    if not blocks[first]:
        del blocks[first]
    return ret, params, blocks, attrs


def parse_instr(s):
    p = Parser(tokenize(s))
    res = None
    if p.peek()[0] == "local" and p.peek(1)[1] == "=":
        res = p.next()[1][1:]
        p.next()
    while p.peek()[1] in ("tail", "musttail", "notail"):
        p.next()
    op = p.next()[1]
    ins = {"op": op, "res": res, "text": s}
    while p.peek()[1] in _FLAGS:
        p.next()
    if op in ("add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr", "udiv", "sdiv", "urem", "srem"):
        ty = p.type()
        a = p.value()
        p.expect(",")
        b = p.value()
        ins.update(ty=ty, a=a, b=b)
    elif op in ("icmp",):
        ins["pred"] = p.next()[1]
        ty = p.type()
        a = p.value()
        p.expect(",")
        b = p.value()
        ins.update(ty=ty, a=a, b=b)
    elif op in ("trunc", "zext", "sext", "bitcast", "ptrtoint", "inttoptr"):
        ins["src"] = p.typed()
        p.expect("to")
        ins["ty"] = p.type()
    elif op == "select":
        ins["c"] = p.typed()
        p.expect(",")
        ins["a"] = p.typed()
        p.expect(",")
        ins["b"] = p.typed()
        ins["ty"] = ins["a"][0]
    elif op == "phi":
        ins["ty"] = p.type()
        inc = []
        while p.accept("["):
            v = p.value()
            p.expect(",")
            lab = p.next()[1][1:]
            p.expect("]")
            inc.append((v, lab))
            if not p.accept(","):
                break
        ins["inc"] = inc
    elif op == "load":
        ins["ty"] = p.type()
        p.expect(",")
        ins["ptr"] = p.typed()
    elif op == "store":
        ins["val"] = p.typed()
        p.expect(",")
        ins["ptr"] = p.typed()
    elif op == "getelementptr":
        ins["base_ty"] = p.type()
        p.expect(",")
        ins["ptr"] = p.typed()
        idx = []
        while p.accept(","):
            if p.peek()[1].startswith("!") or p.peek()[1] == "align":
                break
            idx.append(p.typed())
        ins["idx"] = idx
    elif op == "alloca":
        ins["ty"] = p.type()
        ins["count"] = None
        if p.accept(","):
            if p.peek()[1] != "align":
                ins["count"] = p.typed()
                p.accept(",")
        ins["align"] = 16
        if p.accept("align"):
            ins["align"] = int(p.next()[1])
    elif op == "br":
        if p.accept("label"):
            ins["dest"] = p.next()[1][1:]
        else:
            ins["c"] = p.typed()
            p.expect(",")
            p.expect("label")
            ins["t"] = p.next()[1][1:]
            p.expect(",")
            p.expect("label")
            ins["f"] = p.next()[1][1:]
    elif op == "switch":
        ins["v"] = p.typed()
        p.expect(",")
        p.expect("label")
        ins["default"] = p.next()[1][1:]
        p.expect("[")
        cases = []
        while not p.accept("]"):
            ty = p.type()
            v = p.value()
            p.expect(",")
            p.expect("label")
            cases.append((v[1], p.next()[1][1:]))
        ins["cases"] = cases
    elif op == "ret":
        if p.accept("void"):
            ins["v"] = None
        else:
            ins["v"] = p.typed()
    elif op == "unreachable":
        pass
    elif op == "call":
        while p.peek()[1] in ("fastcc", "ccc", "coldcc") or p.peek()[1] in _PARAM_ATTRS:
            p.param_attrs()
            if p.peek()[1] in ("fastcc", "ccc", "coldcc"):
                p.next()
        ins["ty"] = p.type()
        ins["callee"] = p.value()
        p.expect("(")
        args = []
        while not p.accept(")"):
            if p.peek()[1] == "metadata":
                p.next()
                args.append((("metadata",), p.value() if p.peek()[0] != "meta" else ("meta", p.next()[1])))
            else:
                args.append(p.typed())
            p.accept(",")
        ins["args"] = args
    elif op == "extractelement":
        ins["vec"] = p.typed()
        p.expect(",")
        ins["idx"] = p.typed()
    elif op == "insertelement":
        ins["vec"] = p.typed()
        p.expect(",")
        ins["elt"] = p.typed()
        p.expect(",")
        ins["idx"] = p.typed()
    elif op == "shufflevector":
        ins["a"] = p.typed()
        p.expect(",")
        ins["b"] = p.typed()
        p.expect(",")
        ins["mask"] = p.typed()
    elif op == "extractvalue":
        ins["agg"] = p.typed()
        idx = []
        while p.accept(","):
            if p.peek()[0] != "num":
                break
            idx.append(int(p.next()[1]))
        ins["idx"] = idx
    elif op == "insertvalue":
        ins["agg"] = p.typed()
        p.expect(",")
        ins["elt"] = p.typed()
        idx = []
        while p.accept(","):
            if p.peek()[0] != "num":
                break
            idx.append(int(p.next()[1]))
        ins["idx"] = idx
    elif op == "cmpxchg":
        while p.peek()[1] in ("weak", "volatile"):
            p.next()
        ins["ptr"] = p.typed()
        p.expect(",")
        ins["cmp"] = p.typed()
        p.expect(",")
        ins["new"] = p.typed()
    elif op in ("fence",):
        pass
    elif op == "freeze":
        ins["src"] = p.typed()
    else:
        raise SyntaxError("IR: instruction not supported: %r" % s[:100])
    return ins
