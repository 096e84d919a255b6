# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# ct_msan.cmake — the checker's own test for the MemorySanitizer constant-time check (VG_MSAN builds
# on x86-64). Include after the ct_valgrind target and the ct_msan.<impl> tests are defined.
#
# valgrind cannot run VAES or AVX-512, so "vaes512" and "vaes256" are checked by MSan only
# (ct_msan.<impl>). MSan must then really carry the taint through the instructions those kernels use:
# these tests run ct_valgrind --plant, a miniature kernel in their style (vaesenc/vpclmulqdq on
# ymm/zmm, masked tail loads, vpshufb, byte shifts, lane folds) on poisoned inputs followed by one
# deliberate leak, and pass only if MSan reports it. On a CPU without the implementation they skip
# (77), like the other per-implementation tests.
if(VG_MSAN AND TARGET ct_valgrind AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  foreach(impl vaes512 vaes256)
    foreach(leak branch address)
      add_test(NAME ct_msan_plant_${leak}.${impl}
               COMMAND ct_valgrind --impl ${impl} --plant ${leak})
      set_tests_properties(ct_msan_plant_${leak}.${impl} PROPERTIES
        SKIP_RETURN_CODE 77 TIMEOUT 60
        # halt_on_error: the first report ends the run; exitcode 1 keeps a report from looking like
        # a skip (77)
        ENVIRONMENT "MSAN_OPTIONS=halt_on_error=1:exitcode=1"
        PASS_REGULAR_EXPRESSION "WARNING: MemorySanitizer: use-of-uninitialized-value")
    endforeach()
  endforeach()
endif()
