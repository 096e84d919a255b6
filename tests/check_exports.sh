#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# check_exports.sh LIBVG_SO VG_H [--cross]
#
# The shared library's interface is exactly the public header's: every dynamic symbol it defines is
# named vg_*, every function vg.h declares with VG_API is among them, and nothing else (no helper, no
# kernel, no symbol of a static dependency) leaks. The SONAME is libvg.so.1, so programs linked today
# keep loading the ABI-compatible library of tomorrow.
# Exit 0 pass, 1 fail, 77 skipped (only when cross-compiling: the host's binutils need not read the
# target's objects, and the result would be the same as the native build's).
set -u
lib=${1:?usage: check_exports.sh LIBVG_SO VG_H [--cross]}
header=${2:?usage: check_exports.sh LIBVG_SO VG_H [--cross]}
if [ "${3:-}" = "--cross" ]; then
    echo "SKIPPED: cross-compiling (exports are checked by the native build)"
    exit 77
fi
fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

if [ ! -f "$lib" ]; then
    echo "FAIL: $lib does not exist"
    exit 1
fi

# Defined dynamic symbols, without the @VERSION / @@VERSION suffix newer nm prints. The version
# node itself (VG_1, an absolute symbol of type A) is the version script's, not an export.
versions=$(readelf -V --wide "$lib" 2>/dev/null | sed -n 's/.*Name: \([A-Za-z0-9_.]*\).*/\1/p' | sort -u)
nm -D --defined-only "$lib" | awk '{ print $(NF-1), $NF }' | while read -r type name; do
    name=${name%%@*}
    if [ "$type" = "A" ] && printf '%s\n' "$versions" | grep -qx "$name"; then continue; fi
    printf '%s %s\n' "$type" "$name"
done | sort -u -k2 > "$tmp/exported"

awk '{ print $2 }' "$tmp/exported" | sort -u > "$tmp/names"
count=$(wc -l < "$tmp/names")
echo "$count exported symbols in $lib"
if [ "$count" -eq 0 ]; then
    echo "FAIL: no exported symbols at all"
    fail=1
fi

bad=$(grep -v '^vg_' "$tmp/names")
if [ -n "$bad" ]; then
    echo "FAIL: exported symbols not named vg_*:"
    printf '%s\n' "$bad" | sed 's/^/  /'
    fail=1
fi
datasyms=$(awk '$1 != "T" && $1 != "W" && $1 != "i" { print "  " $0 }' "$tmp/exported")
if [ -n "$datasyms" ]; then
    echo "FAIL: exported symbols that are not functions:"
    printf '%s\n' "$datasyms"
    fail=1
fi

# The functions vg.h declares: "VG_API <type> vg_name(" (the declaration may span lines; the name
# and its parenthesis are on the VG_API line in this header's style).
grep 'VG_API' "$header" | grep -v '#define' | sed -n 's/.*[^A-Za-z0-9_]\(vg_[A-Za-z0-9_]*\)[ ]*(.*/\1/p' \
    | sort -u > "$tmp/declared"
ndecl=$(wc -l < "$tmp/declared")
echo "$ndecl functions declared VG_API in $header"
if [ "$ndecl" -eq 0 ]; then
    echo "FAIL: found no VG_API declarations in $header"
    fail=1
fi
missing=$(comm -23 "$tmp/declared" "$tmp/names")
if [ -n "$missing" ]; then
    echo "FAIL: declared in vg.h but not exported:"
    printf '%s\n' "$missing" | sed 's/^/  /'
    fail=1
fi
extra=$(comm -13 "$tmp/declared" "$tmp/names")
if [ -n "$extra" ]; then
    echo "FAIL: exported but not declared in vg.h:"
    printf '%s\n' "$extra" | sed 's/^/  /'
    fail=1
fi

soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
if [ "$soname" != "libvg.so.1" ]; then
    echo "FAIL: SONAME is '$soname', want libvg.so.1"
    fail=1
else
    echo "SONAME $soname"
fi

if [ "$fail" -ne 0 ]; then exit 1; fi
echo "PASS"
exit 0
