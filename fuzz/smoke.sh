#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# fuzz/smoke.sh BUILD_DIR [SECONDS] — runs every fuzz target for SECONDS (default 10, or $FUZZ_SECONDS)
# on a temporary copy of its committed seed corpus (so the corpus in the tree is never modified) and
# fails if any target crashes, finds a mismatch, leaks, or times out. Crash inputs are kept in
# BUILD_DIR/fuzz-artifacts/; reproduce one with `BUILD_DIR/.../fuzz_X FILE`.
# Long runs: fuzz/smoke.sh BUILD_DIR 3600 with FUZZ_WORK=DIR set keeps each target's growing corpus in
# DIR/<target> (seeded from the committed corpus) across runs instead of a temporary copy.
set -eu
build=${1:?usage: fuzz/smoke.sh BUILD_DIR [SECONDS]}
secs=${2:-${FUZZ_SECONDS:-10}}
here=$(cd "$(dirname "$0")" && pwd)
# The targets sit in BUILD_DIR/fuzz when built from the top level (-DVG_FUZZ=ON), in BUILD_DIR when
# fuzz/ is configured stand-alone.
bindir=$build/fuzz
[ -x "$bindir/fuzz_aes" ] || bindir=$build
artifacts=$build/fuzz-artifacts
mkdir -p "$artifacts"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

status=0
total=0
for t in fuzz_aes fuzz_gcm fuzz_gcm_siv fuzz_ccm fuzz_openssl; do
    if [ ! -x "$bindir/$t" ]; then
        if [ "$t" = fuzz_openssl ]; then
            echo "SKIP $t (not built: no OpenSSL)"
            continue
        fi
        echo "FAIL $t: $bindir/$t missing"
        status=1
        continue
    fi
    corpus=${FUZZ_WORK:-$tmp}/$t
    mkdir -p "$corpus"
    cp "$here/corpus/$t"/* "$corpus/" 2>/dev/null || true
    if "$bindir/$t" -max_total_time="$secs" -timeout=20 -print_final_stats=1 \
        -artifact_prefix="$artifacts/$t-" "$corpus" >"$tmp/$t.log" 2>&1; then
        n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$t.log")
        total=$((total + ${n:-0}))
        echo "PASS $t: ${n:-?} executions in ${secs}s"
    else
        echo "FAIL $t (log follows; the crashing input is in $artifacts/)"
        grep -v '^#' "$tmp/$t.log" | tail -40
        status=1
    fi
done
echo "total executions: $total"
exit $status
