# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# AArch64-only tests (include from tests/CMakeLists.txt when CMAKE_SYSTEM_PROCESSOR is aarch64):
# DIT set inside every public call and restored after it (skipped, 77, on a CPU without FEAT_DIT).
vg_add_test_program(test_dit test_dit.c)
target_include_directories(test_dit PRIVATE ${PROJECT_SOURCE_DIR}/src)
vg_add_impl_test(NAME dit TARGET test_dit)
