# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""Every kind of object, in every argument of every method and constructor, through vg.aead and
cryptography 48: the same exception (type and message) or the same bytes (issue 31, item 5; the
rules are in _vgmodule.c's buffer_get and docs/python.md). Skipped, and reported as skipped, without
cryptography 48; the cases that matter most are also asserted without it (NoCryptography).

Objects: bytes and a bytes subclass, bytearray, memoryview (1-D, 0-D, 2-D, 3-D, non-contiguous,
read-only, 'c' and 'b' formats, released, of a ctypes array), ctypes arrays and scalars, array.array
of several item types, mmap (writable and read-only), pickle.PickleBuffer, str, int, float, None,
list, object(); _testbuffer's exporters (byte-order marks, suboffsets, Fortran order, 0-D, failing
export) where this Python has _testbuffer; numpy arrays where numpy is installed."""

import array
import ctypes
import mmap
import pickle
import tempfile
import unittest

from _support import CLASSES, CRYPTOGRAPHY_SKIP, HAVE_CRYPTOGRAPHY, aead, crypto_aead, log

try:
    import _testbuffer
except ImportError:
    _testbuffer = None
try:
    import numpy
except ImportError:
    numpy = None


class BytesSubclass(bytes):
    pass


def interleaved(content, writable):
    """A non-contiguous view of content (every other byte of a buffer twice its size)."""
    wide = bytearray(2 * len(content))
    wide[::2] = content
    return memoryview(wide if writable else bytes(wide))[::2]


def shaped(content, writable, ndim):
    n = len(content)
    base = memoryview(bytearray(content) if writable else bytes(content))
    if ndim == 0:
        return base[:1].cast("B", shape=[]) if n else memoryview(bytearray(1) if writable else b"\0").cast("B", shape=[])
    if ndim == 2:
        return base.cast("B", shape=[2, n // 2] if n % 2 == 0 else [1, n])
    return base.cast("B", shape=[1, 2, n // 2] if n % 2 == 0 else [1, 1, n])


def released(content):
    m = memoryview(bytearray(content))
    m.release()
    return m


def ctypes_array(ctype, content):
    arr = (ctype * len(content))()
    ctypes.memmove(arr, content, len(content))
    return arr


def ctypes_2d(content):
    n = len(content)
    rows, cols = (2, n // 2) if n % 2 == 0 else (1, n)
    arr = ((ctypes.c_ubyte * cols) * rows)()
    ctypes.memmove(arr, content, n)
    return arr


def readonly_mmap(content):
    f = tempfile.TemporaryFile()
    f.write(content or b"\0")
    f.flush()
    m = mmap.mmap(f.fileno(), len(content) or 1, access=mmap.ACCESS_READ)
    f.close()
    return m


def rw_mmap(content):
    m = mmap.mmap(-1, len(content) or 1)
    m[:len(content)] = content
    return m if content else memoryview(m)[:0]


# name -> a function making a fresh object from the bytes it should hold (where it can hold them).
KINDS = {
    "bytes": bytes,
    "bytes subclass": BytesSubclass,
    "bytearray": bytearray,
    "memoryview of bytes": lambda c: memoryview(bytes(c)),
    "memoryview of bytearray": lambda c: memoryview(bytearray(c)),
    "read-only memoryview of bytearray": lambda c: memoryview(bytearray(c)).toreadonly(),
    "memoryview cast 'c'": lambda c: memoryview(bytearray(c)).cast("c"),
    "memoryview cast 'b'": lambda c: memoryview(bytearray(c)).cast("b"),
    "0-D memoryview, read-only": lambda c: shaped(c, False, 0),
    "0-D memoryview, writable": lambda c: shaped(c, True, 0),
    "2-D memoryview, read-only": lambda c: shaped(c, False, 2),
    "2-D memoryview, writable": lambda c: shaped(c, True, 2),
    "3-D memoryview, writable": lambda c: shaped(c, True, 3),
    "non-contiguous memoryview, read-only": lambda c: interleaved(c, False),
    "non-contiguous memoryview, writable": lambda c: interleaved(c, True),
    "released memoryview": released,
    "ctypes c_ubyte array": lambda c: ctypes_array(ctypes.c_ubyte, c),
    "ctypes c_char array": lambda c: ctypes_array(ctypes.c_char, c),
    "ctypes c_byte array": lambda c: ctypes_array(ctypes.c_byte, c),
    "ctypes 2-D c_ubyte array": ctypes_2d,
    "ctypes c_ubyte scalar": lambda c: ctypes.c_ubyte(c[0] if c else 0),
    "ctypes string buffer": lambda c: ctypes.create_string_buffer(c, len(c)) if c else ctypes.create_string_buffer(0),
    "memoryview of a ctypes array": lambda c: memoryview(ctypes_array(ctypes.c_ubyte, c)),
    "memoryview of a ctypes array, cast 'B'": lambda c: memoryview(ctypes_array(ctypes.c_ubyte, c)).cast("B"),
    "array('B')": lambda c: array.array("B", c),
    "array('b')": lambda c: array.array("b", bytes(c)),
    "array('H')": lambda c: array.array("H", bytes(c)[:len(c) // 2 * 2]),
    "array('I')": lambda c: array.array("I", bytes(c)[:len(c) // 4 * 4]),
    "mmap": rw_mmap,
    "read-only mmap": readonly_mmap,
    "PickleBuffer of bytes": lambda c: pickle.PickleBuffer(bytes(c)),
    "PickleBuffer of bytearray": lambda c: pickle.PickleBuffer(bytearray(c)),
    "str": lambda c: c.decode("latin-1"),
    "int": len,
    "float": lambda c: float(len(c)),
    "None": lambda c: None,
    "list": list,
    "object": lambda c: object(),
}
if _testbuffer is not None:
    def nd(fmt, flags=0, shape=None):
        def make(c):
            items = [bytes([b]) for b in c] if fmt.endswith("c") else list(c)
            if shape == "scalar":
                return _testbuffer.ndarray(items[0] if items else 0, shape=[], format=fmt,
                                           flags=flags | _testbuffer.ND_WRITABLE)
            n = len(items)
            dims = [n] if shape is None else [2, n // 2] if n % 2 == 0 else [1, n]
            return _testbuffer.ndarray(items, shape=dims, format=fmt, flags=flags | _testbuffer.ND_WRITABLE)
        return make
    for fmt in ("B", "c", "@B", "=B", "<B", ">B", "!B", "@c", "<c", ">c", "b", "?"):
        KINDS["_testbuffer %r" % fmt] = nd(fmt)
    KINDS["_testbuffer 0-D 'B'"] = nd("B", shape="scalar")
    KINDS["_testbuffer suboffsets (PIL)"] = nd("B", _testbuffer.ND_PIL, shape="2d")
    KINDS["_testbuffer Fortran order 2-D"] = nd("B", _testbuffer.ND_FORTRAN, shape="2d")
    KINDS["_testbuffer export fails"] = nd("B", _testbuffer.ND_GETBUF_FAIL)
if numpy is not None:
    KINDS["numpy uint8"] = lambda c: numpy.frombuffer(bytes(c), dtype=numpy.uint8).copy()
    KINDS["numpy int8"] = lambda c: numpy.frombuffer(bytes(c), dtype=numpy.int8).copy()
    KINDS["numpy uint8, read-only"] = lambda c: numpy.frombuffer(bytes(c), dtype=numpy.uint8)
    KINDS["numpy uint8 2-D transposed"] = lambda c: numpy.frombuffer(bytes(c), dtype=numpy.uint8).copy().reshape(
        (2, len(c) // 2) if len(c) % 2 == 0 else (1, len(c))).T
    KINDS["numpy uint8 every other byte"] = lambda c: numpy.frombuffer(bytes(c) * 2, dtype=numpy.uint8).copy()[::2]
    KINDS["numpy uint8 0-D"] = lambda c: numpy.array(c[0] if c else 0, dtype=numpy.uint8)


def snapshot(obj):
    """The bytes an object holds (to compare buffers after *_into), or its type where it has none."""
    try:
        return memoryview(obj).tobytes()
    except (TypeError, ValueError):
        return repr(type(obj))


def outcome(call):
    try:
        return ("result", call())
    except BaseException as e:  # noqa: B902 -- every exception is compared
        return ("raised", type(e), str(e))


def nonce_len(name):
    return 13 if name == "AESCCM" else 12


def cases(name):
    """(label, function(module, make) -> comparable result) for every argument that takes bytes."""
    key, aad, plain = bytes(range(16)), b"associated data", b"sixteen byte msg"
    nonce = bytes(range(100, 100 + nonce_len(name)))
    ct = getattr(aead, name)(key).encrypt(nonce, plain, aad)

    def obj(m, k=key):
        return getattr(m, name)(k)

    def into(meth, args, size):
        def run(m, mk):
            buf = bytearray(size)
            return getattr(obj(m), meth)(*args(mk), buf), bytes(buf)
        return run

    out = [
        ("key", lambda m, mk: obj(m, mk(key)).encrypt(nonce, plain, aad)),
        ("key (with tag_length)" if name == "AESCCM" else "key (keyword)",
         (lambda m, mk: m.AESCCM(mk(key), 8).encrypt(nonce, plain, aad)) if name == "AESCCM"
         else (lambda m, mk: getattr(m, name)(key=mk(key)).encrypt(nonce, plain, aad))),
        ("encrypt nonce", lambda m, mk: obj(m).encrypt(mk(nonce), plain, aad)),
        ("encrypt data", lambda m, mk: obj(m).encrypt(nonce, mk(plain), aad)),
        ("encrypt empty data", lambda m, mk: obj(m).encrypt(nonce, mk(b""), aad)),
        ("encrypt associated_data", lambda m, mk: obj(m).encrypt(nonce, plain, mk(aad))),
        ("encrypt empty associated_data", lambda m, mk: obj(m).encrypt(nonce, plain, mk(b""))),
        ("decrypt nonce", lambda m, mk: obj(m).decrypt(mk(nonce), ct, aad)),
        ("decrypt data", lambda m, mk: obj(m).decrypt(nonce, mk(ct), aad)),
        ("decrypt associated_data", lambda m, mk: obj(m).decrypt(nonce, ct, mk(aad))),
        ("encrypt_into nonce", into("encrypt_into", lambda mk: (mk(nonce), plain, aad), len(ct))),
        ("encrypt_into data", into("encrypt_into", lambda mk: (nonce, mk(plain), aad), len(ct))),
        ("encrypt_into associated_data", into("encrypt_into", lambda mk: (nonce, plain, mk(aad)), len(ct))),
        ("decrypt_into nonce", into("decrypt_into", lambda mk: (mk(nonce), ct, aad), len(plain))),
        ("decrypt_into data", into("decrypt_into", lambda mk: (nonce, mk(ct), aad), len(plain))),
        ("decrypt_into associated_data", into("decrypt_into", lambda mk: (nonce, ct, mk(aad)), len(plain))),
    ]

    def buf_case(meth, args, size):
        def run(m, mk):
            buf = mk(bytes(size))
            return getattr(obj(m), meth)(*args, buf), snapshot(buf)
        return run

    out.append(("encrypt_into buf", buf_case("encrypt_into", (nonce, plain, aad), len(ct))))
    out.append(("decrypt_into buf", buf_case("decrypt_into", (nonce, ct, aad), len(plain))))
    out.append(("encrypt_into empty buf (wrong size)", buf_case("encrypt_into", (nonce, plain, aad), 0)))
    return out


@unittest.skipUnless(HAVE_CRYPTOGRAPHY, CRYPTOGRAPHY_SKIP)
class SameAsCryptography(unittest.TestCase):
    def test_every_kind_everywhere(self):
        n = 0
        for cls in CLASSES:
            name = cls.__name__
            for label, run in cases(name):
                for kind, make in KINDS.items():
                    with self.subTest(cls=name, argument=label, kind=kind):
                        ours = outcome(lambda: run(aead, make))
                        theirs = outcome(lambda: run(crypto_aead, make))
                        self.assertEqual(ours, theirs)
                        n += 1
        log("  buffer types: %d kinds x %d arguments x 3 classes = %d cases compared with cryptography%s%s"
            % (len(KINDS), len(cases("AESGCM")), n,
               "" if _testbuffer else " (no _testbuffer here: its exporters not tried)",
               "" if numpy else " (numpy not installed: not tried)"))


class NoCryptography(unittest.TestCase):
    """The decisive cases with cryptography 48's answers written out (probed from it)."""

    def test_refused_like_cryptography(self):
        for cls in CLASSES:
            c = cls(bytes(16))
            nonce = bytes(nonce_len(cls.__name__))
            for kind in ("ctypes c_ubyte array", "ctypes c_char array", "ctypes 2-D c_ubyte array",
                         "ctypes c_ubyte scalar", "0-D memoryview, read-only", "0-D memoryview, writable",
                         "memoryview of a ctypes array", "released memoryview"):
                make = KINDS[kind]
                for label, content, call, prefix in (
                        ("key", bytes(16), lambda o: cls(o), "argument 'key': " if cls is aead.AESGCMSIV else ""),
                        ("nonce", nonce, lambda o: c.encrypt(o, b"", None), "argument 'nonce': "),
                        ("data", b"x" * 16, lambda o: c.encrypt(nonce, o, None), "argument 'data': "),
                        ("associated_data", b"a" * 16, lambda o: c.encrypt(nonce, b"", o),
                         "argument 'associated_data': "),
                        ("buf", bytes(16), lambda o: c.encrypt_into(nonce, b"", None, o), "argument 'buf': ")):
                    with self.subTest(cls=cls.__name__, kind=kind, argument=label):
                        o = make(content)
                        with self.assertRaises(TypeError) as cm:
                            call(o)
                        self.assertEqual(str(cm.exception),
                                         '%sCannot convert "%r" instance to a buffer.' % (prefix, type(o)))
            # A read-only buf is refused as read-only before its layout is looked at.
            for kind in ("non-contiguous memoryview, read-only", "read-only memoryview of bytearray"):
                with self.assertRaises(TypeError) as cm:
                    c.encrypt_into(nonce, b"", None, KINDS[kind](bytes(16)))
                self.assertEqual(str(cm.exception), "argument 'buf': Buffer is not writable.")
            with self.assertRaises(BufferError) as cm:
                c.encrypt_into(nonce, b"", None, KINDS["non-contiguous memoryview, writable"](bytes(16)))
            self.assertEqual(str(cm.exception), "Buffer is not contiguous.")
            # Accepted: multi-dimensional C-contiguous views, 'c' items, array('B'), mmap.
            for kind in ("2-D memoryview, writable", "3-D memoryview, writable", "memoryview cast 'c'",
                         "array('B')", "mmap", "memoryview of a ctypes array, cast 'B'"):
                ref = c.encrypt(nonce, b"x" * 16, None)
                self.assertEqual(c.encrypt(nonce, KINDS[kind](b"x" * 16), None), ref, kind)
                buf = KINDS[kind](bytes(32))
                self.assertEqual(c.encrypt_into(nonce, b"x" * 16, None, buf), 32, kind)
                self.assertEqual(memoryview(buf).tobytes(), ref, kind)


if __name__ == "__main__":
    unittest.main()
