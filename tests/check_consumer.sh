#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# check_consumer.sh BUILD_DIR SOURCE_DIR CMAKE CC VERSION [--cross] [-- EXTRA_CFLAGS...]
#
# The CMake package, used as a user would: installs the build into a temporary prefix, checks that no
# file of the package names that prefix, the build tree or the source tree, moves the prefix
# elsewhere (so only a relocatable package can work), checks the version rule of vgConfigVersion.cmake,
# then configures tests/consumer with -DCMAKE_PREFIX_PATH=<moved prefix>, builds it and runs:
#   consumer_default  vg::vg         must need libvg.so.1
#   consumer_shared   vg::vg_shared  must need libvg.so.1
#   consumer_static   vg::vg_static  must not need libvg
# asking find_package for MAJOR.MINOR; then vg::vg again with -DVG_USE_STATIC_LIBS=ON (asking for
# MAJOR.MINOR.PATCH), and against a copy of the prefix with the shared library and its targets file
# removed, as a static-only package would be (asking for no version): both must link statically.
# A configure asking for MAJOR.(MINOR+1) must fail on the version.
# The shared programs run with LD_LIBRARY_PATH unset: they find libvg.so.1 through the RUNPATH CMake
# writes into a program in its build tree for each imported shared library outside the system
# directories, and the test checks that RUNPATH names the moved prefix.
# BUILD_DIR is a build tree of the tests' own (tests/suite.cmake's install.tree), never the user's:
# `cmake --install` rewrites the install_manifest.txt of the tree it installs.
# EXTRA_CFLAGS are what the library was built with that a program linking it must share (the
# sanitizer flags of a VG_SANITIZE/VG_MSAN build), as in check_install.sh; they go into the consumer's
# CMAKE_C_FLAGS and CMAKE_EXE_LINKER_FLAGS. The consumer is compiled with -Wall -Wextra -Werror
# whatever VG_WERROR was: vg.h must not draw a warning in a correct program.
# Exit 0 pass, 1 fail, 77 skipped (only when cross-compiling: the program could not run here).
set -u
usage="usage: check_consumer.sh BUILD_DIR SOURCE_DIR CMAKE CC VERSION [--cross] [-- CFLAGS...]"
build=${1:?$usage}
src=${2:?$usage}
cmake=${3:?$usage}
cc=${4:?$usage}
version=${5:?$usage}
shift 5
if [ "${1:-}" = "--cross" ]; then
    echo "SKIPPED: cross-compiling (the consumer program cannot run on this machine)"
    exit 77
fi
[ "${1:-}" = "--" ] && shift
extra="$*"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
stage="$tmp/stage"
prefix="$tmp/elsewhere/prefix"

fail() { echo "FAIL: $*"; exit 1; }
run_logged() { # LOG COMMAND...: runs it, shows the log only when it fails
    log=$1
    shift
    "$@" > "$log" 2>&1 || { cat "$log"; return 1; }
}

echo "== cmake --install $build --prefix $stage"
run_logged "$tmp/install.log" "$cmake" --install "$build" --prefix "$stage" || fail "cmake --install"
config=$(find "$stage" -name vgConfig.cmake | head -n 1)
[ -n "$config" ] || fail "no vgConfig.cmake installed"
pkgdir=$(dirname "$config")
libdir=$(dirname "$(dirname "$pkgdir")")
[ "$(basename "$(dirname "$pkgdir")")/$(basename "$pkgdir")" = "cmake/vg" ] || fail "$pkgdir is not <libdir>/cmake/vg"
[ -f "$libdir/libvg.a" ] || fail "libvg.a is not in $libdir"
[ -e "$libdir/libvg.so.1" ] || fail "libvg.so.1 is not in $libdir"
for f in vgConfigVersion.cmake vgSharedTargets.cmake vgStaticTargets.cmake; do
    [ -f "$pkgdir/$f" ] || fail "$f not installed in $pkgdir"
done
echo "installed in $pkgdir:" "$(cd "$pkgdir" && echo *)"
for path in "$stage" "$build" "$src"; do
    if grep -rlF "$path" "$pkgdir"; then fail "the files above name $path: the package is not relocatable"; fi
done
mkdir -p "$tmp/elsewhere" || exit 1
mv "$stage" "$prefix" || fail "moving the prefix"
pkgdir="$prefix${pkgdir#"$stage"}"
libdir="$prefix${libdir#"$stage"}"
echo "moved the prefix to $prefix"

echo "== vgConfigVersion.cmake ($version)"
major=${version%%.*}
minor=${version#*.}
minor=${minor%%.*}
cat > "$tmp/version.cmake" <<'EOF'
# What find_package(vg REQUEST) sets before it loads the version file.
set(PACKAGE_FIND_VERSION "${REQUEST}")
string(REGEX MATCH "^([0-9]+)\\.([0-9]+)\\.?([0-9]*)" _ "${REQUEST}")
set(PACKAGE_FIND_VERSION_MAJOR "${CMAKE_MATCH_1}")
set(PACKAGE_FIND_VERSION_MINOR "${CMAKE_MATCH_2}")
set(PACKAGE_FIND_VERSION_PATCH "${CMAKE_MATCH_3}")
include("${VERSION_FILE}")
message(STATUS "compatible=${PACKAGE_VERSION_COMPATIBLE}")
EOF
expect_version() { # REQUEST TRUE|FALSE
    got=$("$cmake" -DREQUEST="$1" -DVERSION_FILE="$pkgdir/vgConfigVersion.cmake" -P "$tmp/version.cmake" \
          | sed -n 's/^-- compatible=//p')
    [ "$got" = "$2" ] || fail "find_package(vg $1) against $version: compatible '$got', want $2"
    echo "find_package(vg $1): compatible $got"
}
expect_version "$major.$minor" TRUE
expect_version "$version" TRUE
expect_version "$major.$((minor + 1))" FALSE
expect_version "$((major + 1)).$minor" FALSE
if [ "$minor" -gt 0 ]; then expect_version "$major.$((minor - 1))" FALSE; fi

# build NAME PREFIX REQUEST [CMAKE ARGS...]: configures tests/consumer with find_package(vg REQUEST)
# (REQUEST may be empty: no version asked for) against PREFIX, and builds it.
build() {
    name=$1
    where=$2
    request=$3
    shift 3
    echo "== consumer $name: find_package(vg $request) in $where $*"
    run_logged "$tmp/$name.configure.log" "$cmake" -S "$src/tests/consumer" -B "$tmp/$name" \
        -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$where" \
        -DVG_REQUEST="$request" -DCMAKE_C_FLAGS="-Wall -Wextra -Werror $extra" \
        -DCMAKE_EXE_LINKER_FLAGS="$extra" "$@" || fail "configuring the consumer ($name)"
    found=$(sed -n 's/^vg_DIR:PATH=//p' "$tmp/$name/CMakeCache.txt")
    case "$found" in "$where"/*) ;; *) fail "find_package(vg) used $found, not the package in $where" ;; esac
    run_logged "$tmp/$name.build.log" "$cmake" --build "$tmp/$name" || fail "building the consumer ($name)"
}
# check PROGRAM shared|static: how it links libvg, then runs it with LD_LIBRARY_PATH unset.
check() {
    prog=$1
    if [ "$2" = shared ]; then
        readelf -d "$prog" | grep -q 'NEEDED.*\[libvg\.so\.1\]' || fail "$prog does not need libvg.so.1"
        readelf -d "$prog" | grep -E 'R(UN)?PATH' | grep -qF "$libdir" || fail "$prog has no RUNPATH to $libdir"
        env -u LD_LIBRARY_PATH ldd "$prog" | grep 'libvg\.so\.1' | grep -qF "$libdir/" \
            || fail "$prog does not load libvg.so.1 from $libdir"
    else
        if readelf -d "$prog" | grep -q 'NEEDED.*libvg'; then fail "$prog needs libvg dynamically"; fi
    fi
    out=$(env -u LD_LIBRARY_PATH "$prog") || fail "$prog failed: $out"
    echo "$(basename "$prog") ($2): $out"
    case "$out" in "vg $version "*) ;; *) fail "$prog did not report version $version" ;; esac
}

build both "$prefix" "$major.$minor"
check "$tmp/both/consumer_default" shared
check "$tmp/both/consumer_shared" shared
check "$tmp/both/consumer_static" static

build use-static "$prefix" "$version" -DVG_USE_STATIC_LIBS=ON
check "$tmp/use-static/consumer_default" static

too_new="$major.$((minor + 1))"
echo "== consumer too-new: find_package(vg $too_new) in $prefix must fail"
if "$cmake" -S "$src/tests/consumer" -B "$tmp/too-new" -DCMAKE_C_COMPILER="$cc" -DCMAKE_PREFIX_PATH="$prefix" \
        -DVG_REQUEST="$too_new" > "$tmp/too-new.log" 2>&1; then
    fail "find_package(vg $too_new) accepted version $version"
fi
if ! grep -q "requested version \"$too_new\"" "$tmp/too-new.log"; then
    cat "$tmp/too-new.log"
    fail "configuring failed, but not on the version"
fi

static_only="$tmp/static-only"
cp -R "$prefix" "$static_only" || fail "copying the prefix"
rm -f "$static_only${libdir#"$prefix"}"/libvg.so* "$static_only${pkgdir#"$prefix"}"/vgSharedTargets*.cmake
build static-only "$static_only" ""
check "$tmp/static-only/consumer_default" static
[ ! -e "$tmp/static-only/consumer_shared" ] || fail "consumer_shared was built without a shared library"

echo "PASS"
exit 0
