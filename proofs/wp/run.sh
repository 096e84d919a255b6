#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# proofs/wp/run.sh — Frama-C WP over the functions listed in docs/proofs-wp.md.
#
#   proofs/wp/run.sh            (from anywhere; `make frama-wp` runs it)
#
# Environment: VG_WP_WORK (scratch directory, default /tmp/vg-wp: the why3 configuration written by
# `why3 config detect` and the logs go there, nothing is written to $HOME), VG_WP_TIMEOUT (seconds
# per goal and prover, default 20: generous, so that a loaded machine does not fail a proof), VG_WP_JOBS (parallel prover runs, default 2).
# Exit status: 0 when every goal of every run is proved and the totals match expected.txt.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${VG_WP_WORK:-/tmp/vg-wp}
timeout=${VG_WP_TIMEOUT:-20}
jobs=${VG_WP_JOBS:-2}
mkdir -p "$work"

# 1. Provers: why3's own configuration, written once into the scratch directory.
export WHY3CONFIG="$work/why3.conf"
if [ ! -s "$WHY3CONFIG" ]; then
    why3 config detect >"$work/why3-detect.log" 2>&1 || { cat "$work/why3-detect.log"; exit 1; }
fi
provers=z3,cvc4
if frama-c -wp-detect 2>/dev/null | grep -q '\[alt-ergo'; then provers=alt-ergo,$provers; fi

# 2. The axioms about bytes, by exhaustion.
cc -std=c11 -O1 -o "$work/check_axioms" "$here/check_axioms.c"
"$work/check_axioms"

# 3. WP. Frama-C 25 parses C11 with -c11 but not _Alignas, which only pads the key layouts (no
#    proved function reads a key's fields).
fc() {
    name=$1; shift
    log="$work/$name.log"
    frama-c -c11 -cpp-extra-args="-I$root/include -I$root/src '-D_Alignas(x)='" \
        -wp -wp-prover "$provers" -wp-timeout "$timeout" -wp-par "$jobs" -wp-cache none \
        "$@" >"$log" 2>&1 || { cat "$log"; echo "frama-c failed ($name)"; exit 1; }
    summary=$(grep 'Proved goals:' "$log" | tail -1)
    echo "$name: $summary"
    sed -n '/Proved goals:/,$p' "$log" | grep -E '^ +(Qed|Z3|CVC4|Alt-Ergo)' | sed "s/^/    /"
    grep -E '^\[wp\] \[(Failed|Timeout|Unknown)' "$log" || true
    echo "$name $summary" >>"$work/summary.txt"
}

start=$(date +%s)
: >"$work/summary.txt"
fc util -wp-rte "$root/src/util.c" \
    -wp-fct vg_ct_differ,vg_open_finish,vg_aes_key_len_ok,vg_load32_be,vg_store32_be,vg_load32_le,vg_store32_le,vg_store64_be,vg_inc32_add,vg_ctr32_le_add
fc lemmas "$root/src/util.c" -wp-prop vg_or_zero,vg_pow256_pos
fc batch -wp-rte "$here/batch.c"
fc aes -wp-rte "$root/src/modes/aes.c" -wp-fct block_check
fc aes_rejected "$root/src/modes/aes.c" -wp-bhv rejected \
    -wp-fct vg_aes_expand_key_body,vg_aes_ecb_encrypt_body,vg_aes_ecb_decrypt_body,vg_aes_ctr32_body
fc gcm -wp-rte "$root/src/modes/gcm.c" -wp-fct tag_len_ok,exceeds,put_lengths,check_one_shot
fc gcm_rejected "$root/src/modes/gcm.c" -wp-bhv rejected \
    -wp-fct vg_aes_gcm_init_body,vg_aes_gcm_seal_body,vg_aes_gcm_open_body
fc siv -wp-rte -wp-split "$root/src/modes/gcm_siv.c" -wp-fct siv_check
fc siv_rejected "$root/src/modes/gcm_siv.c" -wp-bhv rejected \
    -wp-fct vg_aes_gcm_siv_init_body,vg_aes_gcm_siv_seal_body,vg_aes_gcm_siv_open_body
fc ccm -wp-rte "$root/src/modes/ccm.c" -wp-fct ccm_tag_len_ok,ccm_aad_length,ccm_format
fc ccm_check -wp-rte -wp-split "$root/src/modes/ccm.c" -wp-fct ccm_check
fc ccm_rejected "$root/src/modes/ccm.c" -wp-bhv rejected \
    -wp-fct vg_aes_ccm_init_body,vg_aes_ccm_seal_body,vg_aes_ccm_open_body
# The streaming argument checks: the result (the error function, in every case) and the rejected
# behaviour's assigns; the success path's calls are not checked. stream_data is inlined into the
# encrypt/decrypt bodies (Frama-C's -inline-calls, a source-level inlining), because WP does not carry
# a callee behaviour's assigns over to a call site; stream_data is also proved on its own.
streamprops=@ensures,@assigns
fc gcm_stream -inline-calls stream_data "$root/src/modes/gcm.c" -wp-prop "$streamprops" \
    -wp-fct vg_aes_gcm_stream_init_body,vg_aes_gcm_stream_aad_body,stream_data,vg_aes_gcm_stream_encrypt_body,vg_aes_gcm_stream_decrypt_body,vg_aes_gcm_stream_finish_body,vg_aes_gcm_stream_verify_body
fc ctr_stream "$root/src/modes/ctr.c" -wp-prop "$streamprops" \
    -wp-fct vg_aes_ctr_stream_init_body,vg_aes_ctr_stream_xor_body
end=$(date +%s)
# CPU seconds of everything this script waited for (Frama-C, why3server, the provers)
cpu=$(awk '{ printf "%d", ($14 + $15 + $16 + $17) / 100 }' /proc/$$/stat 2>/dev/null || echo "?")

# 4. Verdict: every goal proved, and as many goals as expected (a lost contract is a regression too).
proved=$(awk '{ split($0, a, "Proved goals:"); split(a[2], b, "/"); p += b[1]; t += b[2] } END { print p }' "$work/summary.txt")
total=$(awk '{ split($0, a, "Proved goals:"); split(a[2], b, "/"); p += b[1]; t += b[2] } END { print t }' "$work/summary.txt")
expected=$(grep -v '^#' "$here/expected.txt" | awk '{ t += $2 } END { print t }')
echo "WP: $proved / $total goals proved in $((end - start)) s wall, $cpu s CPU (expected $expected); logs in $work"
[ "$proved" -eq "$total" ] || { echo "WP: unproved goals"; exit 1; }
[ "$total" -eq "$expected" ] || { echo "WP: $total goals, expected $expected (proofs/wp/expected.txt)"; exit 1; }
echo "WP: all goals proved"
