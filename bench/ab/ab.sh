#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# ab.sh OLD_BUILD NEW_BUILD [ROUNDS] — in-process A/B of two builds of vg (a benchmark, not a test).
# Each build directory is a Release build with libvg.a (e.g. of two commits, `cmake --build DIR
# --target vg_static`). The old library's global symbols are renamed old_* (objcopy
# --redefine-syms), both are linked into bench/ab/ab.c, and each case below runs the two alternately
# in one process (see ab.c). VG_IMPL chooses the implementation for both. On a VM whose vCPUs run at
# different speeds, pin it (taskset -c N) to the faster one (docs/speed-x86_64.md).
set -eu
old=${1:?usage: ab.sh OLD_BUILD NEW_BUILD [ROUNDS]}
new=${2:?usage: ab.sh OLD_BUILD NEW_BUILD [ROUNDS]}
rounds=${3:-31}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -g --defined-only "$old/libvg.a" | awk 'NF == 3 { print $3 " old_" $3 }' | sort -u >"$tmp/syms"
objcopy --redefine-syms="$tmp/syms" "$old/libvg.a" "$tmp/libold.a"
${CC:-cc} -O2 -I"$here/../../include" -I"$here/.." "$here/ab.c" "$new/libvg.a" "$tmp/libold.a" -o "$tmp/ab"
# CASES (environment) replaces the list, e.g. CASES="init 1 16;seal 4096 32"
cases=${CASES:-"seal 16384 16;open 16384 16;seal 16384 32;open 16384 32;seal 4096 16;open 4096 16;seal 1024 16;open 1024 16;seal 64 16;open 64 16;sstream 16384 16;ostream 16384 16;init 1 16;init 1 32"}
IFS=';'
set -f
for c in $cases; do
    IFS=' '
    # shellcheck disable=SC2086
    "$tmp/ab" "$rounds" $c
    IFS=';'
done
