# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# AArch64 (armv8 implementation) cross build: Debian's aarch64-linux-gnu gcc, tests run under
# qemu-user. -cpu max gives AES, PMULL, SHA3 (EOR3) and DIT; run once more with
# -DVG_QEMU_CPU=cortex-a57 (AES + PMULL only, no SHA3, no DIT) to test the other paths.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
if(NOT VG_QEMU_CPU)
  set(VG_QEMU_CPU max)
endif()
# LD_LIBRARY_PATH=/lib (qemu maps it to the sysroot's lib/): without it the cross ld.so also searches
# /lib/aarch64-linux-gnu, which qemu takes from the HOST when the sysroot lacks it; once a multiarch
# libc6:arm64 is installed (it comes with libssl-dev:arm64, needed by bench/insn/aarch64-insn.sh) the
# programs then mix the cross ld.so with that libc, and every threaded test hangs in pthread_create.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-cpu;${VG_QEMU_CPU};-E;LD_LIBRARY_PATH=/lib;-L;/usr/aarch64-linux-gnu)
