# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# Per-file flags for the armv8 kernels under clang (include from the top-level CMakeLists.txt after
# VG_SOURCES is set, on aarch64). gcc enables the Cryptographic Extension per function with
# target("arch=armv8-a+crypto") attributes and needs nothing here; clang before 16 declares the
# intrinsics only for a file compiled with the feature. armv8_impl.c (CPU detection) gets no flag, so
# nothing that runs before the HWCAP check can contain AES/PMULL/EOR3 instructions.
if(CMAKE_C_COMPILER_ID MATCHES "Clang")
  set_source_files_properties(
    ${CMAKE_CURRENT_SOURCE_DIR}/src/aarch64/armv8_aes.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/aarch64/armv8_base.c
    ${CMAKE_CURRENT_SOURCE_DIR}/src/aarch64/armv8_ghash.c
    PROPERTIES COMPILE_OPTIONS "-march=armv8-a+crypto")
  set_source_files_properties(
    ${CMAKE_CURRENT_SOURCE_DIR}/src/aarch64/armv8_sha3.c
    PROPERTIES COMPILE_OPTIONS "-march=armv8.2-a+crypto+sha3")
endif()
