#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# check_provider_check.sh CASE VG_PROVIDER_CHECK MODULE
#
# vg-provider-check (provider/vg-provider-check.c) run as a user would, in one of these cases, with
# OPENSSL_MODULES unset:
#   vg        OPENSSL_CONF loads MODULE (the build tree's vg.so, by absolute path) beside default with
#             ?provider=vg: exit 0, every algorithm's row says vg, no "NOT vg"
#   devnull   OPENSSL_CONF=/dev/null: exit 1, the rows name default, "vg is NOT loaded"
#   missing   --config with a module that does not exist: exit 1, the message names the path and
#             says it does not exist (OpenSSL 3.0 itself says nothing: shown, not asserted)
#   impl_env  VG_IMPL=nosuchimpl with the vg configuration: exit 0 and the warning naming it
#   pid       --pid of an `openssl enc` started with the vg configuration (waiting on its input):
#             exit 0, vg.so and the process's OPENSSL_CONF named; --pid of this shell: exit 1
# Exit 0 pass, 1 fail.
set -u
case=${1:?usage: check_provider_check.sh CASE VG_PROVIDER_CHECK MODULE}
tool=${2:?}
module=$(readlink -f "${3:?}") || exit 1
unset OPENSSL_MODULES VG_IMPL

tmp=$(mktemp -d) || exit 1
pids=
# shellcheck disable=SC2086 # pids is a list
trap 'if [ -n "$pids" ]; then kill $pids 2>/dev/null; fi; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

conf="$tmp/vg.cnf"
cat > "$conf" <<CNF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = algorithm_sect
[provider_sect]
default = default_sect
vg = vg_sect
[default_sect]
activate = 1
[vg_sect]
module = $module
activate = 1
[algorithm_sect]
default_properties = ?provider=vg
CNF

# run EXPECTED_STATUS COMMAND...: runs it, shows its output, checks the exit status; output in $out
run() {
    want=$1
    shift
    echo "== $*"
    "$@" > "$tmp/out" 2>&1
    got=$?
    cat "$tmp/out"
    out=$(cat "$tmp/out")
    [ "$got" -eq "$want" ] || fail "exit status $got, want $want"
}
has() { printf '%s\n' "$out" | grep -q -- "$1" || fail "the output lacks: $1"; }
hasnt() { if printf '%s\n' "$out" | grep -q -- "$1"; then fail "the output has: $1"; fi; }
# rows of the algorithm table: "  AES-<bits>-<mode>  <served by>  <note>"
rows() { printf '%s\n' "$out" | grep -E '^  AES-[0-9]+-' ; }

case $case in
vg)
    run 0 env OPENSSL_CONF="$conf" "$tool"
    [ "$(rows | wc -l)" -ge 14 ] || fail "fewer than 14 algorithm rows"
    if rows | awk '$2 != "vg" && $0 !~ /not offered by this vg/' | grep .; then fail "rows above not served by vg"; fi
    for alg in AES-128-GCM AES-192-GCM AES-256-GCM AES-128-CCM AES-192-CCM AES-256-CCM AES-128-CTR \
               AES-192-CTR AES-256-CTR AES-128-ECB AES-192-ECB AES-256-ECB AES-128-GCM-SIV AES-256-GCM-SIV; do
        rows | grep -qE "^  $alg +vg " || fail "$alg is not served by vg"
    done
    hasnt "NOT vg"
    has "result: vg serves all"
    has "module $module"
    ;;
devnull)
    run 1 env OPENSSL_CONF=/dev/null "$tool"
    rows | grep -qE '^  AES-128-GCM +default ' || fail "AES-128-GCM is not reported as served by default"
    has "vg is NOT loaded"
    has "does not name vg"
    ;;
missing)
    sed "s|^module = .*|module = $tmp/no-such-dir/vg.so|" "$conf" > "$tmp/missing.cnf"
    if command -v openssl > /dev/null; then
        echo "== for the record, OpenSSL itself with this configuration:"
        OPENSSL_CONF="$tmp/missing.cnf" openssl list -providers 2>&1
        echo "(exit status $?)"
    fi
    run 1 "$tool" --config "$tmp/missing.cnf"
    has "vg is NOT loaded"
    has "provider 'vg' (section \[vg_sect\]) is activated by the configuration but not loaded"
    has "module $tmp/no-such-dir/vg.so: No such file or directory"
    ;;
impl_env)
    run 0 env OPENSSL_CONF="$conf" VG_IMPL=nosuchimpl "$tool"
    has "warning: VG_IMPL=nosuchimpl was ignored"
    # and no warning when VG_IMPL names what runs anyway
    impl=$(printf '%s\n' "$out" | sed -n 's/^vg: .*implementation \(.*\)$/\1/p')
    [ -n "$impl" ] || fail "no implementation reported"
    run 0 env OPENSSL_CONF="$conf" VG_IMPL="$impl" "$tool"
    hasnt "warning"
    ;;
pid)
    command -v openssl > /dev/null || { echo "SKIPPED: no openssl program"; exit 77; }
    # openssl loads its configuration (and so vg.so) at start, then waits on its input: a FIFO this
    # shell holds open (fd 3) until it exits
    mkfifo "$tmp/in" || fail "mkfifo"
    OPENSSL_CONF="$conf" openssl enc -aes-128-ctr -K 000102030405060708090a0b0c0d0e0f \
        -iv 000102030405060708090a0b0c0d0e0f < "$tmp/in" > /dev/null 2> "$tmp/enc.err" &
    pid=$!
    pids="$pid"
    exec 3> "$tmp/in"
    i=0
    until grep -q '/vg\.so' "/proc/$pid/maps" 2>/dev/null; do
        i=$((i + 1))
        [ $i -lt 100 ] || fail "vg.so did not appear in /proc/$pid/maps"
        sleep 0.1
    done
    run 0 "$tool" --pid "$pid"
    has "vg.so mapped: $module"
    has "OPENSSL_CONF=$conf"
    run 1 "$tool" --pid $$
    has "vg.so is not mapped"
    run 2 "$tool" --pid not-a-pid
    ;;
*)
    fail "unknown case $case"
    ;;
esac
echo "PASS"
