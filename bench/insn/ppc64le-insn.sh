#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# ppc64le-insn.sh — executed instructions per operation (per 16-byte block for bulk ones) of vg's
# ppc64le implementations and of OpenSSL 3.0's ppc64le libcrypto, in the same qemu run, with the
# vcipher(last)/vncipher/vpmsumd/vsbox counts that show where the instructions go.
#
# usage: bench/insn/ppc64le-insn.sh [BUILD_DIR] [IMPL...]
#   BUILD_DIR  a ppc64le cross build (cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-ppc64le.cmake),
#              default build-ppc; its libvg.a is linked statically with -lcrypto.
#   IMPL       vg implementations to count (default: power8); each runs under qemu -cpu power8
#              (power9 for "power9"). Column "vncipher+last": -m vncipher plus 0x10000549/0xfc0007ff
#              (vncipherlast, which the counter has no name for).
# needs: powerpc64le-linux-gnu-gcc, qemu-user, libssl-dev:ppc64el (dpkg --add-architecture ppc64el).
# A benchmark, not a test: the figures go into docs/ppc64le.md by hand.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${1:-build-ppc}; shift || true
IMPLS=("$@"); [ ${#IMPLS[@]} -gt 0 ] || IMPLS=(power8)
CC=${CC_PPC64LE:-powerpc64le-linux-gnu-gcc}
[ -f "$BUILD/libvg.a" ] || { echo "no $BUILD/libvg.a: build the ppc64le tree first" >&2; exit 2; }
[ -f /usr/lib/powerpc64le-linux-gnu/libcrypto.a ] || { echo "needs libssl-dev:ppc64el" >&2; exit 2; }
EXE=$(mktemp "${TMPDIR:-/tmp}"/ppc64le-insn.XXXXXX)
OUT=$(mktemp "${TMPDIR:-/tmp}"/ppc64le-insn.XXXXXX.log)
trap 'rm -f "$EXE" "$OUT"' EXIT
$CC -O2 -static -o "$EXE" "$HERE/insn-bench.c" -I"$ROOT/include" -I/usr/include/powerpc64le-linux-gnu \
    "$BUILD/libvg.a" -L/usr/lib/powerpc64le-linux-gnu -lcrypto -lpthread 2>&1 |
    { grep -v -e "statically linked applications" -e "in function" >&2 || true; }
for impl in "${IMPLS[@]}"; do
  cpu=power8; [ "$impl" = power9 ] && cpu=power9
  VG_IMPL=$impl "$ROOT/tools/qemu-insn-count/count-insns.sh" -b insn_begin -e insn_end -c "$cpu" \
      -m vcipher -m vcipherlast -m vncipher -m 0x10000549/0xfc0007ff -m vpmsumd -m vsbox "$EXE" \
      > "$OUT" 2>/dev/null || { cat "$OUT" >&2; exit 1; }
  grep -q "^impl $impl" "$OUT" || { echo "VG_IMPL=$impl did not select $impl:" >&2; grep '^impl' "$OUT" >&2; exit 1; }
  echo "## $impl (qemu -cpu $cpu); per block for bulk operations, per call otherwise;" \
       "marker overhead subtracted"
  echo
  echo "| operation | instructions | vcipher+last | vncipher+last | vpmsumd | vsbox | other |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
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
        vc = (f[k,0] + f[k,1]) / d; vn = (f[k,2] + f[k,3]) / d; pm = f[k,4] / d; sb = f[k,5] / d
        fmt = (blocks[k] > 0) ? "%.2f" : "%d"
        line = "| %s%s | " fmt " | " fmt " | " fmt " | " fmt " | " fmt " | " fmt " |\n"
        printf(line, label[k], (blocks[k] > 0) ? " (/block)" : "", t, vc, vn, pm, sb, t - vc - vn - pm - sb)
      }
    }' "$OUT"
  echo
done
# The bare schedules' own instructions per call (-f: the function's code only, callees and the caller's
# argument set-up excluded; the README's "asm only" figure for OpenSSL is this measure), per steady-state
# call: a run with two calls each minus a run with one call each, under -cpu power9 so that the power9 variant can run too (the power8 kernel has no ISA 3.0
# instruction, and its count does not depend on the CPU model).
echo "## bare key schedules, own instructions per call (count-insns -f; qemu -cpu power9)"
echo
echo "| key | vg_power8_aes_expand_key | vg_power9_aes_expand_key | aes_p8_set_encrypt_key (OpenSSL) |"
echo "|---|---:|---:|---:|"
for len in 16 32; do
  for reps in 1 2; do
    "$ROOT/tools/qemu-insn-count/count-insns.sh" -c power9 -f vg_power8_aes_expand_key -f vg_power9_aes_expand_key \
        -f aes_p8_set_encrypt_key "$EXE" keysched "$len" "$reps" > "$OUT.$reps" 2>/dev/null ||
        { cat "$OUT.$reps" >&2; exit 1; }
  done
  # the second call alone: the run with two calls minus the run with one
  awk -v len="$len" 'FNR == 1 { r++; n = 0 } /^insncount: f[0-9]/ { split($NF, a, "="); c[r, n++] = a[2] }
       END { printf("| %d bytes | %d | %d | %d |\n", len, c[2,0] - c[1,0], c[2,1] - c[1,1], c[2,2] - c[1,2]) }' \
       "$OUT.1" "$OUT.2"
  rm -f "$OUT.1" "$OUT.2"
done
echo
