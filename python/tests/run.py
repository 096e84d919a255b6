# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""ctest's entry point for the Python tests: `python3 -m unittest discover` over this folder, after
checking the implementation asked for with VG_IMPL can run here (exit 77, skipped, if not).

    PYTHONPATH=<build>/python python3 python/tests/run.py [VECTORS_DIR]

VG_PY_QUICK=1 runs fewer random cases (the per-implementation ctest runs set it).
"""

import os
import sys
import unittest
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))

if len(sys.argv) > 1:
    os.environ["VG_TEST_VECTORS"] = os.path.abspath(sys.argv[1])

# A VG_IMPL this CPU cannot run makes vg warn at import (vg.ImplementationWarning); recorded here, so
# that the skip below is one line and a -W error in the environment cannot turn it into a failure.
with warnings.catch_warnings(record=True) as import_warnings:
    warnings.simplefilter("always")
    import vg  # noqa: E402 (after the environment is set)

wanted = os.environ.get("VG_IMPL", "")
if wanted:
    if wanted not in vg.implementations():
        print("UNAVAILABLE: implementation %r cannot run on this CPU (available: %s)%s"
              % (wanted, ", ".join(vg.implementations()),
                 "".join("; vg warned: %s" % w.message for w in import_warnings)))
        sys.exit(77)
    if vg.implementation() != wanted:
        print("FAIL: VG_IMPL=%s but vg selected %s" % (wanted, vg.implementation()))
        sys.exit(1)
print("vg %s from %s; implementation %s%s" % (vg.__version__, os.path.dirname(vg.__file__),
      vg.implementation(), " (quick)" if os.environ.get("VG_PY_QUICK") else ""), flush=True)

program = unittest.main(module=None, argv=[sys.argv[0], "discover", "-s", HERE, "-t", HERE],
                        exit=False)
result = program.result
if not result.wasSuccessful():
    sys.exit(1)
if result.testsRun == 0:
    print("FAIL: no tests ran")
    sys.exit(1)
sys.exit(0)
