# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""vg in a second interpreter of the same process, as mod_wsgi runs each application: a forgery there
must raise the InvalidTag that interpreter's `vg`/`vg.aead` export, or its `except InvalidTag` does
not catch it (issue 31, item 3). That class is cryptography's where that interpreter can import
cryptography, else vg's own; cryptography 48 (PyO3) refuses to be imported by any interpreter other
than the first that imported it, so in a second interpreter here it is vg's own.

Needs a way to run code in a sub-interpreter: _xxsubinterpreters (3.9-3.12), _interpreters (3.13+) or
_testcapi.run_in_subinterp. Where this Python has none, the tests are skipped and say so on stderr."""

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

import _support  # noqa: F401 -- imports cryptography here first, as a real main interpreter would
from _support import aead, log

import vg

try:
    import _xxsubinterpreters as interpreters
except ImportError:
    try:
        import _interpreters as interpreters
    except ImportError:
        interpreters = None
try:
    import _testcapi
except ImportError:
    _testcapi = None

HOW = ("_xxsubinterpreters" if interpreters and interpreters.__name__ == "_xxsubinterpreters"
       else "_interpreters" if interpreters else
       "_testcapi.run_in_subinterp" if _testcapi and hasattr(_testcapi, "run_in_subinterp") else None)
SKIP = "this Python has no _xxsubinterpreters, _interpreters or _testcapi.run_in_subinterp: " \
       "sub-interpreter tests NOT RUN"


def interpreter_kinds():
    """(label, expression creating one) for each kind of sub-interpreter this Python makes: one sharing
    the main interpreter's GIL (what mod_wsgi makes, the only kind before 3.12) and, from 3.12, one
    with its own GIL (the default of these modules there)."""
    if interpreters is None:
        return []
    if interpreters.__name__ == "_interpreters":  # 3.13+
        return [("own GIL", "interpreters.create('isolated')"), ("shared GIL", "interpreters.create('legacy')")]
    if sys.version_info < (3, 12):
        return [("shared GIL", "interpreters.create()")]  # one GIL for all interpreters
    return [("own GIL", "interpreters.create(isolated=True)"), ("shared GIL", "interpreters.create(isolated=False)")]


KINDS = interpreter_kinds()

# What each interpreter runs: forgeries through every class and method, each caught by this
# interpreter's `except InvalidTag`; the class's identity and relation to cryptography. Its findings
# go to a JSON file (the interpreters share no objects).
PROBE = """
import json, sys
sys.path[:0] = PATH
import vg, vg.aead, vg._vg
from vg.aead import AESCCM, AESGCM, AESGCMSIV, InvalidTag
found = {"caught": [], "escaped": []}
for cls, nonce in ((AESGCM, bytes(12)), (AESGCMSIV, bytes(12)), (AESCCM, bytes(13))):
    c = cls(bytes(16))
    ct = bytearray(c.encrypt(nonce, b"attack at dawn", b"aad"))
    ct[3] ^= 1
    for label, call in (("decrypt", lambda: c.decrypt(nonce, bytes(ct), b"aad")),
                        ("decrypt_into", lambda: c.decrypt_into(nonce, ct, b"aad", bytearray(14))),
                        ("short", lambda: c.decrypt(nonce, b"x", None))):
        try:
            call()
            found["escaped"].append("%s.%s: no exception" % (cls.__name__, label))
        except InvalidTag as e:
            found["caught"].append(type(e) is vg.InvalidTag)
        except BaseException as e:
            found["escaped"].append("%s.%s: %s.%s %s" % (cls.__name__, label, type(e).__module__,
                                    type(e).__qualname__, e))
try:
    from cryptography.exceptions import InvalidTag as crypto_tag
    found["cryptography"] = None
except ImportError as e:
    crypto_tag = None
    found["cryptography"] = str(e)
found["is_cryptography_class"] = vg.InvalidTag is crypto_tag
found["module"] = vg.InvalidTag.__module__
found["same_everywhere"] = vg.InvalidTag is vg.aead.InvalidTag is vg._vg.InvalidTag
found["id"] = id(vg.InvalidTag)
found["aesgcm_id"] = id(AESGCM)
with open(OUT, "w") as f:
    json.dump(found, f)
"""


def run_in_subinterpreter(code, create="interpreters.create()"):
    """Runs code (which must write its findings to the file OUT names) in a new sub-interpreter made by
    the expression create."""
    fd, out = tempfile.mkstemp(prefix="vg-subinterp-", suffix=".json")
    os.close(fd)
    try:
        code = "PATH = %r\nOUT = %r\n" % (sys.path, out) + code
        if HOW == "_testcapi.run_in_subinterp":
            rc = _testcapi.run_in_subinterp(code)
            if rc != 0:
                raise AssertionError("the sub-interpreter's code failed (traceback above)")
        else:
            interp = eval(create)
            try:
                failure = interpreters.run_string(interp, code)  # raises (3.11) or returns (3.13)
                if failure is not None:
                    raise AssertionError("the sub-interpreter's code failed: %s" % (failure,))
            finally:
                interpreters.destroy(interp)
        with open(out) as f:
            return json.load(f)
    finally:
        os.unlink(out)


class SubInterpreters(unittest.TestCase):
    def setUp(self):
        if HOW is None:
            log("  " + SKIP)
            self.skipTest(SKIP)

    def check(self, found, where):
        self.assertEqual(found["escaped"], [], "%s: InvalidTag not caught by its own except clause" % where)
        self.assertEqual(found["caught"], [True] * 9, where)
        self.assertTrue(found["same_everywhere"], where)
        if found["cryptography"] is None:
            self.assertTrue(found["is_cryptography_class"], where)
        else:
            self.assertEqual(found["module"], "vg", where)

    def main_still_right(self):
        c = aead.AESGCM(bytes(16))
        with self.assertRaises(vg.InvalidTag) as cm:
            c.decrypt(bytes(12), bytes(20), None)
        self.assertIs(type(cm.exception), vg.InvalidTag)
        self.assertIs(aead.InvalidTag, vg.InvalidTag)

    def test_forgery_caught_in_each_interpreter(self):
        """The main interpreter imported vg first (the mod_wsgi case); several sub-interpreters, one
        after the other, each get their own classes and their own InvalidTag."""
        log("  sub-interpreters via %s%s" % (HOW, "".join(", " + k for k, _ in KINDS)))
        ids = set()
        for label, create in KINDS or [("_testcapi", None)]:
            for i in range(3):
                found = run_in_subinterpreter(PROBE, create)
                self.check(found, "sub-interpreter %d, %s" % (i, label))
                self.assertNotEqual(found["id"], id(vg.InvalidTag))
                self.assertNotEqual(found["aesgcm_id"], id(aead.AESGCM))
                ids.add(found["cryptography"])
                self.main_still_right()
        log("  sub-interpreter InvalidTag: %s" % (
            "cryptography's" if ids == {None} else "vg's own (cryptography there: %s)" % ids.pop()))

    def test_first_import_in_a_sub_interpreter(self):
        """A fresh process whose first import of vg is in a sub-interpreter, then the main interpreter's,
        then the sub-interpreter's forgeries again (still alive), then the main's once it is gone: each
        interpreter's import must leave the other's InvalidTag alone."""
        if interpreters is None:
            log("  only _testcapi.run_in_subinterp here: the first-import-in-a-sub-interpreter test NOT RUN")
            self.skipTest("needs _xxsubinterpreters or _interpreters to run code twice in one sub-interpreter")
        for label, create in KINDS:
            with self.subTest(kind=label):
                self.first_import_in(create)

    def first_import_in(self, create):
        script = textwrap.dedent("""\
            import json, sys
            import %s as interpreters
            PROBE = sys.argv[1]
            def findings():
                with open(OUT) as f:
                    return json.load(f)
            def in_sub():
                assert interpreters.run_string(interp, PROBE) is None
                return findings()
            interp = CREATE
            seen = [in_sub()]            # the process's first import of vg
            exec(PROBE)                  # the main interpreter's first import
            seen.append(findings())
            seen.append(in_sub())        # the sub-interpreter again, after the main's import
            interpreters.destroy(interp)
            exec(PROBE)
            seen.append(findings())
            print(json.dumps(seen))
            """).replace("CREATE", create) % interpreters.__name__
        fd, out = tempfile.mkstemp(prefix="vg-subinterp-", suffix=".json")
        os.close(fd)
        self.addCleanup(os.unlink, out)
        head = "PATH = %r\nOUT = %r\n" % (sys.path, out)
        proc = subprocess.run([sys.executable, "-c", head + script, head + PROBE], capture_output=True,
                              text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        seen = json.loads(proc.stdout.strip().splitlines()[-1])
        for found, where in zip(seen, ("sub-interpreter (first import)", "main interpreter",
                                       "sub-interpreter (after the main's import)",
                                       "main interpreter (sub-interpreter destroyed)")):
            self.check(found, where)
        self.assertEqual(seen[0]["id"], seen[2]["id"])

if __name__ == "__main__":
    unittest.main()
