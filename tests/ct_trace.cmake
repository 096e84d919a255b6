# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# The constant-time trace check for targets that run under qemu (ppc64le, aarch64), where valgrind
# cannot run: tests/ct_trace.c runs every function on 4 secrets per group between markers, and
# tools/qemu-ct-trace/ct-trace.sh fails the test if the hashes of the executed branches and memory
# addresses differ inside any group. One test per implementation in VG_IMPLS ("ct_trace.<impl>").
# Included from tests/CMakeLists.txt; registers nothing unless cross-compiling for ppc64le or aarch64.
if(CMAKE_CROSSCOMPILING AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(ppc64le|powerpc64le|aarch64|arm64)$")
  add_executable(ct_trace ${CMAKE_CURRENT_LIST_DIR}/ct_trace.c)
  target_link_libraries(ct_trace PRIVATE vg_test_harness)
  # the script finds the markers by address: no PIE
  target_link_options(ct_trace PRIVATE -no-pie -Wl,-z,now)
  set_target_properties(ct_trace PROPERTIES POSITION_INDEPENDENT_CODE OFF)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(ppc64le|powerpc64le)$")
    set(VG_CT_TRACE_CPU ${VG_QEMU_CPU})
    if(NOT VG_CT_TRACE_CPU)
      set(VG_CT_TRACE_CPU power8)
    endif()
    set(VG_CT_TRACE_SYSROOT ${VG_QEMU_SYSROOT})
    if(NOT VG_CT_TRACE_SYSROOT)
      set(VG_CT_TRACE_SYSROOT /usr/powerpc64le-linux-gnu)
    endif()
  else()
    # the toolchain's VG_QEMU_CPU: max (EOR3, DIT) or cortex-a57 (plain EOR), both traced in CI
    set(VG_CT_TRACE_CPU ${VG_QEMU_CPU})
    if(NOT VG_CT_TRACE_CPU)
      set(VG_CT_TRACE_CPU max)
    endif()
    set(VG_CT_TRACE_SYSROOT /usr/aarch64-linux-gnu)
  endif()
  foreach(impl ${VG_IMPLS})
    add_test(NAME ct_trace.${impl}
             COMMAND ${PROJECT_SOURCE_DIR}/tools/qemu-ct-trace/ct-trace.sh -b ct_begin -e ct_end -g 4
                     -c ${VG_CT_TRACE_CPU} -L ${VG_CT_TRACE_SYSROOT} -q $<TARGET_FILE:ct_trace> --impl ${impl})
    # exit 77 = the CPU lacks the implementation (skipped, not passed)
    set_tests_properties(ct_trace.${impl} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
  endforeach()
endif()
