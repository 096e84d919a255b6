#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
#
# build-peers.sh BORINGSSL_SRC AWSLC_SRC OUTDIR
#
# Builds BoringSSL's and AWS-LC's libcrypto (Release, static, position-independent) from the source
# checkouts given by path, for vg-speed's optional peer binaries (vg-speed-boringssl, vg-speed-awslc;
# see bench/CMakeLists.txt, VG_SPEED_PEERS). Leaves, for each peer P in {boringssl, aws-lc}:
#   OUTDIR/P/include/openssl/*.h   the public headers
#   OUTDIR/P/lib/libcrypto.a       the library
#   OUTDIR/P/COMMIT                "<full commit> <git describe>" of the source (vg-speed prints it)
#   OUTDIR/P/build/                the CMake build tree
# and prints each commit. Neither peer needs Go for libcrypto alone; AWS-LC is told so
# (DISABLE_GO) and uses its pre-generated assembly (DISABLE_PERL), BoringSSL ships its assembly
# pre-generated. Tests, libssl and the tools are not built.
#
# Keep the checkouts and OUTDIR outside the vg tree: they are only built and linked, never part of vg.
# Environment: JOBS (default 2) parallel jobs; NICE (default 10) the niceness of the compiler runs;
# CC, CXX as usual. Either source argument may be "-" to skip that peer.
set -eu

if [ $# -ne 3 ]; then
    echo "usage: $0 BORINGSSL_SRC AWSLC_SRC OUTDIR   (a source of '-' skips that peer)" >&2
    exit 2
fi
boringssl_src=$1
awslc_src=$2
mkdir -p "$3"
out=$(cd "$3" && pwd)
jobs=${JOBS:-2}
nice=${NICE:-10}

generator=
if command -v ninja >/dev/null 2>&1; then generator=-GNinja; fi

# commit SRC: the checkout's commit and its description, or "unknown" outside git.
commit() {
    c=$(git -C "$1" rev-parse HEAD 2>/dev/null || echo unknown)
    d=$(git -C "$1" describe --tags --always 2>/dev/null || echo unknown)
    echo "$c $d"
}

# build NAME SRC CMAKE_ARGS...: configures and builds the crypto target, then gathers the headers
# and libcrypto.a.
build() {
    name=$1
    src=$(cd "$2" && pwd)
    shift 2
    dest=$out/$name
    if [ ! -f "$src/CMakeLists.txt" ] || [ ! -d "$src/include/openssl" ]; then
        echo "build-peers: $src does not look like a $name checkout" >&2
        exit 1
    fi
    echo "build-peers: $name from $src ($(commit "$src"))"
    mkdir -p "$dest/build"
    cmake -S "$src" -B "$dest/build" $generator -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DBUILD_SHARED_LIBS=OFF -DBUILD_TESTING=OFF "$@"
    nice -n "$nice" cmake --build "$dest/build" --target crypto -j "$jobs"
    lib=$(find "$dest/build" -name libcrypto.a -print | head -n 1)
    if [ -z "$lib" ]; then
        echo "build-peers: $name: no libcrypto.a under $dest/build" >&2
        exit 1
    fi
    rm -rf "${dest:?}/include" "${dest:?}/lib"
    mkdir -p "$dest/lib"
    cp -R "$src/include" "$dest/include"
    cp "$lib" "$dest/lib/libcrypto.a"
    commit "$src" >"$dest/COMMIT"
}

if [ "$boringssl_src" != - ]; then
    build boringssl "$boringssl_src"
fi
if [ "$awslc_src" != - ]; then
    build aws-lc "$awslc_src" -DDISABLE_GO=ON -DDISABLE_PERL=ON -DBUILD_LIBSSL=OFF -DBUILD_TOOL=OFF
fi

echo
for name in boringssl aws-lc; do
    if [ -f "$out/$name/COMMIT" ]; then
        echo "build-peers: $name $(cat "$out/$name/COMMIT") -> $out/$name"
    fi
done
