#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# check_build_testing_off.sh TREE CMAKE
#
# TREE is a build configured with -DBUILD_TESTING=OFF and no VG_BUILD_BENCH (the fixture
# install.tree): it must build what is installed (libvg.a, libvg.so) and have no target the tests or
# the benchmark need: no test program, no example, no spec library (vg_spec), no vg-speed
# (VG_BUILD_BENCH follows BUILD_TESTING). The targets are asked of the build system, not looked for
# as files: TREE is incremental, and a file a target of an earlier configuration left stays there.
# Exit 0 pass, 1 fail.
set -u
tree=${1:?usage: check_build_testing_off.sh TREE CMAKE}
cmake=${2:?usage: check_build_testing_off.sh TREE CMAKE}
fail() { echo "FAIL: $*"; exit 1; }

grep -q '^BUILD_TESTING:BOOL=OFF$' "$tree/CMakeCache.txt" || fail "$tree is not configured with BUILD_TESTING=OFF"
grep -q '^VG_BUILD_BENCH:BOOL=OFF$' "$tree/CMakeCache.txt" || fail "VG_BUILD_BENCH did not follow BUILD_TESTING=OFF"
[ -f "$tree/libvg.a" ] || fail "libvg.a was not built"
ls "$tree"/libvg.so.* > /dev/null 2>&1 || fail "libvg.so was not built"
for target in vg_spec vg-speed vg_test_harness test_aes test_aead example_gcm_oneshot ct_valgrind; do
    # make: "No rule to make target"; ninja: "unknown target"
    if out=$("$cmake" --build "$tree" --target "$target" 2>&1); then
        fail "BUILD_TESTING=OFF still has the target $target"
    fi
    printf '%s\n' "$out" | grep -qiE 'no rule to make target|unknown target' \
        || { printf '%s\n' "$out"; fail "building $target failed, but not for want of the target"; }
    echo "no target $target"
done
echo "PASS"
