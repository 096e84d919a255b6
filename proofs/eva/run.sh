#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# Frama-C Eva over the portable implementation and src/modes/ (docs/proofs-eva.md).
# usage: proofs/eva/run.sh [OUTDIR]      (OUTDIR default: build-frama-eva; EVA_JOBS default 2)
# Runs each entry point of proofs/eva/, then fails (exit 1) unless every run ends with 0 alarms, no
# Eva error, and every property it reached (kernel contracts, libc preconditions) valid.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/build-frama-eva}
jobs=${EVA_JOBS:-2}
mkdir -p "$out"

# Preprocessing: the analysis-only <stdatomic.h>; only the portable implementation in impl.c's list;
# C11's _Alignas/_Alignof, which Frama-C 25 does not parse, as the GNU attribute/operator.
# EVA_CPP_EXTRA may add -D overrides of eva_bounds.h (smaller bounds for a quick look).
cpp="-include $here/eva_stdatomic.h -I$here -I$root/include -I$root/src -DVG_PORTABLE_ONLY"
cpp="$cpp '-D_Alignas(x)=__attribute__((__aligned__(x)))' -D_Alignof=__alignof__ ${EVA_CPP_EXTRA:-}"
# Eva options (why each: docs/proofs-eva.md).
eva_opts=(-c11 -eva -eva-alloc-builtin fresh -eva-no-alloc-returns-null -eva-auto-loop-unroll 64
          -eva-no-show-progress -eva-msg-key=-final-states -eva-print-callstacks)
# memexec (reusing a call's result for an identical input state; it needs the stored results) pays
# in the kernel run, where the same AES batch recurs; in the mode runs both cost more than they save.
modes=("$root/src/util.c" "$root/src/impl.c" "$root/src/modes/aes.c" "$root/src/modes/ctr.c"
       "$root/src/modes/gcm.c" "$root/src/modes/gcm_siv.c" "$root/src/modes/ccm.c"
       "$root/src/portable/portable_impl.c" /usr/share/frama-c/libc/stdlib.c)
kernels=("$root/src/util.c" "$root/src/portable/aes_bitsliced.c" "$root/src/portable/ghash_ctmul.c")

run_one() {
    local name=$1 files
    local extra=()
    if [ "$name" = eva_kernels ]; then files=("${kernels[@]}"); else files=("${modes[@]}"); extra=(-eva-no-results -eva-no-memexec); fi
    local start=$SECONDS
    if frama-c -cpp-extra-args="$cpp" "${files[@]}" "$here/$name.c" "${eva_opts[@]}" "${extra[@]}" \
        > "$out/$name.log" 2>&1; then
        echo "$name: frama-c finished in $((SECONDS - start)) s" >> "$out/$name.log"
    else
        echo "$name: FRAMA-C FAILED (exit $?)" >> "$out/$name.log"
    fi
}

names=(${EVA_NAMES:-eva_kernels eva_gcm eva_aes eva_siv eva_ccm eva_gcm_stream eva_gcm_batch})
for name in "${names[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 1; done
    run_one "$name" &
done
wait

fail=0
for name in "${names[@]}"; do
    log=$out/$name.log
    summary=$(sed -n '/ANALYSIS SUMMARY/,$p' "$log")
    alarms=$(printf '%s\n' "$summary" | sed -n 's/^ *\([0-9][0-9]*\) alarms\{0,1\} generated.*/\1/p')
    # Unknown statuses are allowed for one kind of property only: the WP annotations in src/
    # (postconditions, loop invariants, assertions of the functions proofs/wp/run.sh proves, and of the
    # assumed contracts docs/proofs-wp.md lists), which Eva cannot evaluate (ACSL logic functions);
    # see wp_postconditions.py, which names on stderr any other it meets. Every other
    # non-valid status (the kernel contracts, libc preconditions, any precondition at all) still fails,
    # and so does any invalid status and any run-time-error alarm.
    wp_only=$(python3 "$here/wp_postconditions.py" "$log")
    if [ "$wp_only" = yes ]; then
        bad=$(printf '%s\n' "$summary" | grep -E '^ +[A-Za-z-]+ +[0-9]+ valid' |
              awk '{ if ($6 != 0 || ($1 == "Preconditions" && $4 != 0)) print }' || true)
    else
        bad=$(printf '%s\n' "$summary" | grep -E '^ +[A-Za-z-]+ +[0-9]+ valid' |
              awk '{ if ($4 != 0 || $6 != 0) print }' || true)
    fi
    evaerr=$(printf '%s\n' "$summary" | sed -n 's/.*by the Eva analyzer: *\([0-9]*\) errors.*/\1/p')
    if printf '%s\n' "$summary" | grep -q 'No errors or warnings raised'; then evaerr=0; fi
    stmts=$(printf '%s\n' "$summary" | grep -E 'statements reached' | sed 's/^ *//' || true)
    if grep -q "FRAMA-C FAILED" "$log" || [ -z "$summary" ] || [ "${alarms:-x}" != 0 ] ||
       [ -n "$bad" ] || [ "${evaerr:-x}" != 0 ]; then
        echo "FAIL $name: alarms=${alarms:-?} eva-errors=${evaerr:-?} $bad (see $log)"
        grep -A12 'eva:alarm' "$log" | head -60 || true
        fail=1
    else
        note="all reached properties valid"
        [ "$wp_only" = yes ] && note="all reached properties valid except the WP annotations of src/ (unknown to Eva; proved by WP, or an assumed contract of docs/proofs-wp.md)"
        echo "ok   $name: 0 alarms, $note; $stmts; $(tail -1 "$log" | sed 's/.*finished in //')"
    fi
done
exit $fail
