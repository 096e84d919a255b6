# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# test_aes once more, linked with vg_fp_static (CMakeLists.txt: the library built with
# -fno-omit-frame-pointer, ppc64le with GCC, the POWER8 test build): every key size's set-up and use
# on each implementation. A stack frame around the key set-up's tail call (src/internal.h) would
# return into the wrong frame and crash here.
if(TARGET vg_fp_static)
  add_library(vg_fp_test_harness STATIC harness.c)
  target_link_libraries(vg_fp_test_harness PUBLIC vg_fp_static)
  target_compile_definitions(vg_fp_test_harness PRIVATE VG_TEST_VECTORS_DIR="${CMAKE_CURRENT_SOURCE_DIR}/vectors")
  target_include_directories(vg_fp_test_harness PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  add_executable(test_aes_fp test_aes.c)
  target_link_libraries(test_aes_fp PRIVATE vg_fp_test_harness vg_spec)
  target_include_directories(test_aes_fp PRIVATE ${PROJECT_SOURCE_DIR}/src)
  vg_add_impl_test(NAME frame_pointer.aes TARGET test_aes_fp)
endif()
