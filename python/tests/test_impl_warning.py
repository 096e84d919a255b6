# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""VG_IMPL naming an implementation that does not exist, or that this CPU lacks, is ignored by the
library (vg_impl_env_status says so); the package warns about it once, at import, with
vg.ImplementationWarning (a RuntimeWarning) naming the value and the implementation that runs
instead (issue 31, item 9). A valid VG_IMPL (every available implementation, "auto", empty, unset)
gives no warning. Each case runs in a fresh interpreter: the warning is an import-time event."""

import json
import os
import subprocess
import sys
import unittest

import vg

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(vg.__file__)))
RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "run.py")

# Imports every public way in, then reports each warning recorded (all are kept: "always").
CHILD = """
import json, warnings
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    import vg.aead
    import vg
    import vg._vg
    import vg._exceptions
    vg.aead.AESGCM(bytes(16)).encrypt(bytes(12), b"x", None)
print(json.dumps({
    "warnings": [[w.category.__module__ + "." + w.category.__qualname__,
                  issubclass(w.category, RuntimeWarning), w.category is vg.ImplementationWarning,
                  str(w.message), w.filename] for w in seen],
    "implementation": vg.implementation(),
    "implementations": vg.implementations(),
}))
"""


def run(code_or_args, vg_impl, extra_env=None):
    env = dict(os.environ)
    env.pop("VG_IMPL", None)
    if vg_impl is not None:
        env["VG_IMPL"] = vg_impl
    env["PYTHONPATH"] = PACKAGE_DIR
    env.pop("PYTHONWARNINGS", None)
    env.update(extra_env or {})
    args = ["-c", code_or_args] if isinstance(code_or_args, str) else code_or_args
    return subprocess.run([sys.executable] + args, env=env, capture_output=True, text=True, timeout=120)


class ImplWarning(unittest.TestCase):
    def child(self, vg_impl):
        proc = run(CHILD, vg_impl)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return json.loads(proc.stdout)

    def test_unknown_value_warns_once(self):
        for value in ("nosuchimpl", "AESNI", " portable"):
            with self.subTest(VG_IMPL=value):
                got = self.child(value)
                self.assertEqual(len(got["warnings"]), 1, got["warnings"])
                category, is_runtime, is_ours, message, filename = got["warnings"][0]
                self.assertEqual(category, "vg.ImplementationWarning")
                self.assertTrue(is_runtime)
                self.assertTrue(is_ours)
                # It names the value and what runs instead: the best available implementation.
                self.assertIn("VG_IMPL=%r" % value, message)
                self.assertEqual(got["implementation"], got["implementations"][0])
                self.assertIn("vg uses %r" % got["implementation"], message)
                # Attributed to the importing code, not to vg's own files.
                self.assertNotIn(os.path.join("vg", "__init__.py"), filename)

    def test_default_filters_show_it_once(self):
        proc = run("import vg.aead, vg, vg._vg; import vg.aead", "nosuchimpl")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stderr.count("ImplementationWarning"), 1, proc.stderr)
        self.assertIn("VG_IMPL='nosuchimpl'", proc.stderr)

    def test_valid_values_are_silent(self):
        values = [None, "", "auto"] + vg.implementations()
        for value in values:
            with self.subTest(VG_IMPL=value):
                got = self.child(value)
                self.assertEqual(got["warnings"], [])
                if value not in (None, "", "auto"):
                    self.assertEqual(got["implementation"], value)
        # And -W error does not break an import with a valid value.
        proc = run(["-W", "error", "-c", "import vg.aead"], vg.implementations()[-1])
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_runner_still_skips(self):
        """The per-implementation ctest runs set VG_IMPL to every implementation vg has; one this CPU
        lacks must still print UNAVAILABLE and exit 77 (skipped), even with warnings made errors."""
        for extra in ({}, {"PYTHONWARNINGS": "error"}):
            with self.subTest(env=extra):
                proc = run([RUNNER], "nosuchimpl", extra)
                self.assertEqual(proc.returncode, 77, proc.stdout + proc.stderr)
                self.assertTrue(proc.stdout.startswith("UNAVAILABLE: implementation 'nosuchimpl'"), proc.stdout)


if __name__ == "__main__":
    unittest.main()
