# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# Test-vector programs (included by tests/CMakeLists.txt). Each reads its vector files from
# tests/vectors (passed with --vectors) and runs once per implementation in VG_IMPLS.
# The readers (vecfile.c) are shared through a small static library.

add_library(vg_vecfile STATIC ${CMAKE_CURRENT_SOURCE_DIR}/vecfile.c)
target_link_libraries(vg_vecfile PUBLIC vg_test_harness)

foreach(family aes gcm ccm gcm_siv wycheproof)
  vg_add_test_program(vectors_${family} ${CMAKE_CURRENT_SOURCE_DIR}/vectors_${family}.c)
  target_link_libraries(vectors_${family} PRIVATE vg_vecfile)
endforeach()

vg_add_impl_test(NAME vectors_aes TARGET vectors_aes)
# 47,250 GCM records: the longest run, and the slowest under qemu even with --quick.
vg_add_impl_test(NAME vectors_gcm TARGET vectors_gcm TIMEOUT 1800)
vg_add_impl_test(NAME vectors_ccm TARGET vectors_ccm)
vg_add_impl_test(NAME vectors_gcm_siv TARGET vectors_gcm_siv)
vg_add_impl_test(NAME vectors_wycheproof TARGET vectors_wycheproof)
