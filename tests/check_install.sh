#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# check_install.sh BUILD_DIR CMAKE CC [--cross] [-- EXTRA_CFLAGS...]
#
# What a user gets from `cmake --install`: installs the build into a temporary prefix, then compiles a
# small program against it with nothing but `pkg-config --cflags --libs vg` (PKG_CONFIG_PATH pointing
# into the prefix), links it once against the shared library and once against the static one, runs
# both, and checks the answer (GCM test case 2 of McGrew & Viega's GCM specification: AES-128 with the
# zero key, zero 96-bit IV, one zero block). Also: the shared library is the file
# libvg.so.<SONAME number>.<minor>.<patch> with SONAME libvg.so.1, behind the symlinks libvg.so.1 and
# libvg.so; vg.pc gives a clean -I and -L (the prefix's own paths, no "..", for an install with --prefix
# and for one staged under DESTDIR, where it names the final prefix); and a prefix moved after
# installing is found again with `pkg-config --define-prefix` (vg.pc itself names the prefix it was
# installed under).
# BUILD_DIR is a build tree of the tests' own (tests/suite.cmake's install.tree), never the user's:
# `cmake --install` rewrites the install_manifest.txt of the tree it installs.
# EXTRA_CFLAGS are what the library was built with that a program linking it must share (the
# sanitizer flags of a VG_SANITIZE/VG_MSAN build).
# Exit 0 pass, 1 fail, 77 skipped (only when cross-compiling: the program could not run here).
set -u
build=${1:?usage: check_install.sh BUILD_DIR CMAKE CC [--cross] [-- CFLAGS...]}
cmake=${2:?}
cc=${3:?}
shift 3
if [ "${1:-}" = "--cross" ]; then
    echo "SKIPPED: cross-compiling (the installed program cannot run on this machine)"
    exit 77
fi
[ "${1:-}" = "--" ] && shift
extra="$*"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"

fail() { echo "FAIL: $*"; exit 1; }

echo "== cmake --install $build --prefix $prefix"
"$cmake" --install "$build" --prefix "$prefix" > "$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "cmake --install"; }
cat "$tmp/install.log"

pc=$(find "$prefix" -name vg.pc | head -n 1)
[ -n "$pc" ] || fail "no vg.pc installed"
[ -f "$prefix/include/vg.h" ] || fail "vg.h not installed in $prefix/include"
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
# vg.pc names the prefix given to `cmake --install` (it is written at install time): the paths must be
# inside that prefix, and clean. No --define-variable here.
pkg="pkg-config"
$pkg --exists vg || fail "pkg-config does not find vg"
# (pkgconf ends each list with a space: dropped, to compare)
cflags=$($pkg --cflags vg | sed 's/ *$//')
libs=$($pkg --libs vg) || fail "pkg-config --libs"
libs_L=$($pkg --libs-only-L vg | sed 's/ *$//')
libs_l=$($pkg --libs-only-l vg)
libdir=$($pkg --variable=libdir vg)
version=$($pkg --modversion vg)
echo "pkg-config: cflags '$cflags' libs '$libs' (version $version)"
case "$libdir" in "$prefix"/*) ;; *) fail "libdir $libdir is outside the install prefix" ;; esac
# vg.pc used to compute its prefix as ${pcfiledir}/../.., which pkg-config printed as such
# (-I<prefix>/lib/pkgconfig/../../include): what a user reads and pastes must be the plain path.
[ "$cflags" = "-I$prefix/include" ] || fail "pkg-config --cflags gives '$cflags', want '-I$prefix/include'"
[ "$libs_L" = "-L$libdir" ] || fail "pkg-config --libs-only-L gives '$libs_L', want '-L$libdir'"
case "$libdir" in *..*|*//*|*/) fail "libdir $libdir is not a clean path" ;; esac
[ -f "$libdir/libvg.a" ] || fail "libvg.a not in $libdir"
[ -e "$libdir/libvg.so.1" ] || fail "libvg.so.1 not in $libdir"
[ -e "$libdir/libvg.so" ] || fail "libvg.so (link-time name) not in $libdir"

echo "== the shared library's names"
# The convention: SONAME libvg.so.N (N counts ABI breaks, docs/api-abi.md), the file
# libvg.so.N.<minor>.<patch> (not the project's version: 0.2.0 once gave libvg.so.0.2.0 with SONAME
# libvg.so.1, a file name that said ABI 0), libvg.so.N and libvg.so symlinks to it.
soname=$(readelf -d "$libdir/libvg.so.1" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
[ "$soname" = "libvg.so.1" ] || fail "SONAME is '$soname', want libvg.so.1"
minor=${version#*.}
patch=${minor#*.}
minor=${minor%%.*}
want="$soname.$minor.$patch"
if [ ! -f "$libdir/$want" ] || [ -L "$libdir/$want" ]; then
    fail "the library file is not $want:" "$libdir"/libvg.so*
fi
for link in libvg.so.1 libvg.so; do
    if [ ! -L "$libdir/$link" ] || [ "$(readlink -f "$libdir/$link")" != "$(readlink -f "$libdir/$want")" ]; then
        fail "$link is not a symlink to $want"
    fi
done
echo "SONAME $soname, file $want"

cat > "$tmp/prog.c" <<'PROG'
#include <stdio.h>
#include <string.h>
#include <vg.h>

int main(void)
{
    static const uint8_t want_ct[16] = {0x03, 0x88, 0xda, 0xce, 0x60, 0xb6, 0xa3, 0x92,
                                        0xf3, 0x28, 0xc2, 0xb9, 0x71, 0xb2, 0xfe, 0x78};
    static const uint8_t want_tag[16] = {0xab, 0x6e, 0x47, 0xd4, 0x2c, 0xec, 0x13, 0xbd,
                                         0xf5, 0x3a, 0x67, 0xb2, 0x12, 0x57, 0xbd, 0xdf};
    uint8_t key[16] = {0}, iv[12] = {0}, pt[16] = {0}, ct[16], tag[16], back[16];
    vg_aes_gcm_key k;
    if (vg_aes_gcm_init(&k, key, sizeof key) != VG_OK) return 1;
    if (vg_aes_gcm_seal(&k, iv, sizeof iv, NULL, 0, pt, 16, ct, tag, 16) != VG_OK) return 1;
    if (memcmp(ct, want_ct, 16) != 0 || memcmp(tag, want_tag, 16) != 0) {
        printf("wrong answer\n");
        return 1;
    }
    if (vg_aes_gcm_open(&k, iv, sizeof iv, NULL, 0, ct, 16, tag, 16, back) != VG_OK || memcmp(back, pt, 16) != 0)
        return 1;
    vg_aes_gcm_key_wipe(&k);
    printf("ok: %s\n", vg_impl_name());
    return 0;
}
PROG

echo "== shared"
# shellcheck disable=SC2086 # the flag strings are lists of words
$cc -std=c11 -Wall -Wextra -Werror $extra $cflags "$tmp/prog.c" -o "$tmp/prog_shared" $libs \
    || fail "compiling against the shared library"
readelf -d "$tmp/prog_shared" | grep -q 'NEEDED.*\[libvg\.so\.1\]' || fail "prog_shared does not need libvg.so.1"
LD_LIBRARY_PATH="$libdir" ldd "$tmp/prog_shared" | grep "libvg.so.1" | grep -q "$libdir" \
    || fail "prog_shared does not load libvg.so.1 from $libdir"
LD_LIBRARY_PATH="$libdir" "$tmp/prog_shared" || fail "prog_shared failed"

echo "== static"
# shellcheck disable=SC2086
$cc -std=c11 -Wall -Wextra -Werror $extra $cflags "$tmp/prog.c" -o "$tmp/prog_static" \
    $libs_L -Wl,-Bstatic $libs_l -Wl,-Bdynamic || fail "compiling against the static library"
if readelf -d "$tmp/prog_static" | grep -q 'NEEDED.*libvg'; then fail "prog_static needs libvg dynamically"; fi
"$tmp/prog_static" || fail "prog_static failed"

echo "== DESTDIR"
# A package build stages the files under DESTDIR: vg.pc must name the final prefix, without DESTDIR.
DESTDIR="$tmp/root" "$cmake" --install "$build" --prefix /opt/vg > "$tmp/destdir.log" 2>&1 \
    || { cat "$tmp/destdir.log"; fail "cmake --install with DESTDIR"; }
staged=$(find "$tmp/root" -name vg.pc | head -n 1)
[ -n "$staged" ] || fail "no vg.pc under DESTDIR"
staged_cflags=$(PKG_CONFIG_PATH=$(dirname "$staged") $pkg --cflags vg | sed 's/ *$//')
[ "$staged_cflags" = "-I/opt/vg/include" ] || fail "staged vg.pc gives '$staged_cflags', want '-I/opt/vg/include'"
echo "DESTDIR=$tmp/root --prefix /opt/vg: $staged_cflags"

echo "== moved prefix"
# vg.pc names the prefix it was installed under, so a moved tree needs pkg-config to recompute it
# from the file's place: --define-prefix (pkgconf, Debian's pkg-config). The CMake package is
# relocatable by itself (check_consumer.sh).
mv "$prefix" "$tmp/moved" || fail "moving the prefix"
moved_cflags=$(PKG_CONFIG_PATH="$tmp/moved${PKG_CONFIG_PATH#"$prefix"}" $pkg --define-prefix --cflags vg |
               sed 's/ *$//')
[ "$moved_cflags" = "-I$tmp/moved/include" ] || fail "moved: --define-prefix gives '$moved_cflags'"
echo "moved to $tmp/moved: pkg-config --define-prefix --cflags vg: $moved_cflags"

echo "PASS"
exit 0
