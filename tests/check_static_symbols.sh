#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# check_static_symbols.sh LIBVG_A [--cross]
#
# Every global symbol libvg.a defines is named vg_*: hidden visibility keeps the internal kernels out
# of libvg.so, but a static link sees every global of the archive, and an unprefixed one
# (aesni_ghash_init, portable_cbc_mac, ...) could collide with another library's. Exit 0 pass, 1 fail,
# 77 skipped (cross-compiling: the host's nm need not read the target's objects).
set -u
lib=${1:?usage: check_static_symbols.sh LIBVG_A [--cross]}
if [ "${2:-}" = "--cross" ]; then
    echo "SKIPPED: cross-compiling (the native build checks the same sources)"
    exit 77
fi
[ -f "$lib" ] || { echo "FAIL: $lib does not exist"; exit 1; }
# nm -g --defined-only: "ADDRESS TYPE NAME" per symbol, "file.o:" headers and blank lines between.
all=$(nm -g --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort -u)
count=$(printf '%s\n' "$all" | grep -c . || true)
bad=$(printf '%s\n' "$all" | grep -v '^vg_' | grep . || true)
echo "$count global symbols defined in $lib"
if [ "$count" -eq 0 ]; then echo "FAIL: no global symbol at all"; exit 1; fi
if [ -n "$bad" ]; then
    echo "FAIL: global symbols without the vg_ prefix:"
    printf '  %s\n' $bad
    exit 1
fi
echo "1 passed, 0 failed"
