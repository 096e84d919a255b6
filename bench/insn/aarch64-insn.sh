#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# aarch64-insn.sh — executed instructions per operation (per 16-byte block for bulk ones) of vg's
# armv8 implementation and of OpenSSL 3.0's arm64 libcrypto, in the same qemu run, with the
# aese/aesmc/pmull counts that show where the instructions go.
#
# usage: bench/insn/aarch64-insn.sh [BUILD_DIR] [CPU]
#   BUILD_DIR  an aarch64 cross build (cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake),
#              default build-arm; its libvg.a is linked statically with -lcrypto.
#   CPU        qemu -cpu (default max: AES, PMULL, SHA3/EOR3, DIT; cortex-a57: no SHA3, no DIT).
# needs: aarch64-linux-gnu-gcc, qemu-user, OpenSSL's arm64 libcrypto.a and its arch headers:
#   libssl-dev:arm64 (dpkg --add-architecture arm64), or OPENSSL_ARM64=DIR with DIR/lib/libcrypto.a and
#   DIR/include/openssl/{opensslconf,configuration}.h copied from it. The program is static, so it runs
#   without a sysroot. Beware: libssl-dev:arm64 pulls in libc6:arm64, and qemu-aarch64 -L
#   /usr/aarch64-linux-gnu then mixes the cross ld.so with that libc (threaded programs hang) unless
#   LD_LIBRARY_PATH=/lib is passed as cmake/toolchain-aarch64.cmake does.
# A benchmark, not a test: the figures go into docs/aarch64.md by hand.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${1:-build-arm}
CPU=${2:-max}
CC=${CC_AARCH64:-aarch64-linux-gnu-gcc}
[ -f "$BUILD/libvg.a" ] || { echo "no $BUILD/libvg.a: build the aarch64 tree first" >&2; exit 2; }
if [ -n "${OPENSSL_ARM64:-}" ]; then SSL_LIB=$OPENSSL_ARM64/lib; SSL_INC=$OPENSSL_ARM64/include
else SSL_LIB=/usr/lib/aarch64-linux-gnu; SSL_INC=/usr/include/aarch64-linux-gnu; fi
[ -f "$SSL_LIB/libcrypto.a" ] || { echo "needs libssl-dev:arm64 (or OPENSSL_ARM64=DIR)" >&2; exit 2; }
EXE=$(mktemp "${TMPDIR:-/tmp}"/aarch64-insn.XXXXXX)
OUT=$(mktemp "${TMPDIR:-/tmp}"/aarch64-insn.XXXXXX.log)
trap 'rm -f "$EXE" "$OUT"' EXIT
$CC -O2 -static -o "$EXE" "$HERE/insn-bench.c" -I"$ROOT/include" -I"$SSL_INC" \
    "$BUILD/libvg.a" -L"$SSL_LIB" -lcrypto -lpthread 2>&1 |
    { grep -v -e "statically linked applications" -e "in function" >&2 || true; }
VG_IMPL=armv8 "$ROOT/tools/qemu-insn-count/count-insns.sh" -b insn_begin -e insn_end -c "$CPU" \
    -m aese -m aesmc -m pmull "$EXE" > "$OUT" 2>/dev/null || { cat "$OUT" >&2; exit 1; }
grep -q "^impl armv8" "$OUT" || { echo "VG_IMPL=armv8 did not select armv8:" >&2; grep '^impl' "$OUT" >&2; exit 1; }
echo "## armv8 vs OpenSSL (qemu -cpu $CPU); per block for bulk operations, per call otherwise; marker overhead subtracted"
echo
echo "| operation | instructions | aese | aesmc | pmull(2) | other |"
echo "|---|---:|---:|---:|---:|---:|"
awk '
  /^op / { label[$2] = ""; for (i = 3; i < NF; i++) label[$2] = label[$2] (i > 3 ? " " : "") $i; blocks[$2] = $NF; nops++ }
  /^insncount: pair\[/ {
    match($0, /pair\[[0-9]+\]/); k = substr($0, RSTART + 5, RLENGTH - 6) + 0
    split($2, a, "="); cnt[k] = a[2]
    for (i = 3; i <= NF; i++) { split($i, b, "="); f[k, substr(b[1], 2) + 0] = b[2] }
  }
  END {
    ovh = cnt[0]
    for (k = 1; k < nops; k++) {
      d = blocks[k] > 0 ? blocks[k] : 1
      t = (cnt[k] - ovh) / d
      ae = f[k,0] / d; mc = f[k,1] / d; pm = f[k,2] / d
      fmt = (blocks[k] > 0) ? "%.2f" : "%d"
      line = "| %s%s | " fmt " | " fmt " | " fmt " | " fmt " | " fmt " |\n"
      printf(line, label[k], (blocks[k] > 0) ? " (/block)" : "", t, ae, mc, pm, t - ae - mc - pm)
    }
  }' "$OUT"
echo
# The bare schedules' own instructions per steady-state call (-f: the function's code only, without the
# caller's argument set-up; the README's "asm only" figure for OpenSSL is this measure): two calls each
# minus one call each.
echo "## bare key schedules, own instructions per call (count-insns -f; qemu -cpu $CPU)"
echo
echo "| key | vg_armv8_aes_expand_key (its dispatch + the _sha3 or _base variant it calls) | aes_v8_set_encrypt_key (OpenSSL) |"
echo "|---|---:|---:|"
for len in 16 32; do
  for reps in 1 2; do
    "$ROOT/tools/qemu-insn-count/count-insns.sh" -c "$CPU" -f aes_v8_set_encrypt_key -f vg_armv8_aes_expand_key \
        -f vg_armv8_aes_expand_key_sha3 -f vg_armv8_aes_expand_key_base "$EXE" keysched "$len" "$reps" \
        > "$OUT.$reps" 2>/dev/null || { cat "$OUT.$reps" >&2; exit 1; }
  done
  # the second call alone: the run with two calls minus the run with one
  awk -v len="$len" 'FNR == 1 { r++; n = 0 } /^insncount: f[0-9]/ { split($NF, a, "="); c[r, n++] = a[2] }
       END { printf("| %d bytes | %d | %d |\n", len, (c[2,1] + c[2,2] + c[2,3]) - (c[1,1] + c[1,2] + c[1,3]),
                    c[2,0] - c[1,0]) }' "$OUT.1" "$OUT.2"
  rm -f "$OUT.1" "$OUT.2"
done
echo
