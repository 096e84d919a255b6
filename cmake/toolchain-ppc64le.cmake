# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# ppc64le cross build, run under qemu-user as a POWER8 (so an instruction newer than ISA 2.07 in the
# power8 path fails the tests): powerpc64le-linux-gnu-gcc, qemu-ppc64le -cpu power8.
# Use: cmake -S . -B build-ppc -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-ppc64le.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ppc64le)
set(CMAKE_C_COMPILER powerpc64le-linux-gnu-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/powerpc64le-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(VG_QEMU_CPU power8 CACHE STRING "qemu-ppc64le -cpu for the tests (power8, power9, power10)")
# qemu's -L sysroot: the cross libc, unless Debian's multiarch libc6:ppc64el is installed (as it is
# once libssl-dev:ppc64el is, for the instruction-count bench): the cross ld.so then finds the
# multiarch libc.so.6 through /etc/ld.so.cache and the mix aborts ("stack smashing detected"), so the
# multiarch ld.so and libc (same glibc) are used instead.
if(EXISTS /lib/powerpc64le-linux-gnu/libc.so.6 OR EXISTS /usr/lib/powerpc64le-linux-gnu/libc.so.6)
  set(VG_QEMU_SYSROOT / CACHE PATH "qemu-ppc64le -L")
else()
  set(VG_QEMU_SYSROOT /usr/powerpc64le-linux-gnu CACHE PATH "qemu-ppc64le -L")
endif()
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-ppc64le;-cpu;${VG_QEMU_CPU};-L;${VG_QEMU_SYSROOT})
