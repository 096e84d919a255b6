#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# Real TLS between Debian's openssl s_server and s_client on 127.0.0.1, one side with the vg provider
# (OPENSSL_CONF loading vg and default, default_properties = ?provider=vg), the other with OpenSSL's
# default provider alone, both ways round; for each suite, data uploaded (client to server) and
# downloaded (s_server -WWW) and the SHA-256 of what arrived compared with what was sent.
#   TLS 1.3: TLS_AES_128_GCM_SHA256 TLS_AES_256_GCM_SHA384 TLS_AES_128_CCM_SHA256 TLS_AES_128_CCM_8_SHA256
#   TLS 1.2: ECDHE-ECDSA-AES128-GCM-SHA256 ECDHE-ECDSA-AES256-GCM-SHA384 ECDHE-ECDSA-AES128-CCM
#
# usage: check_provider_tls.sh --avail PROG --impl NAME --modules DIR [--mib N] [other options ignored]
#   PROG   tests/provider_impl_available: exits 77 if this CPU cannot run NAME (then so does this)
#   DIR    where vg.so is; VG_IMPL=NAME must be set (ctest does) so that vg.so runs NAME
#   N      MiB per transfer (default 16, or $VG_TLS_MIB): 7 suites x 2 sides x 2 directions = 28
#          transfers, so 16 MiB each way for every suite with vg on either side (about 14 s with
#          aesni, 24 s with portable, on a shared Zen 5; most of it is process start-up).
# Exit: 0 all transfers intact, 1 a failure, 77 skipped (no openssl binary, or implementation
# unavailable).
set -eu

avail='' impl='' modules='' mib=${VG_TLS_MIB:-16}
while [ $# -gt 0 ]; do
  case $1 in
    --avail) avail=$2; shift 2 ;;
    --impl) impl=$2; shift 2 ;;
    --modules) modules=$2; shift 2 ;;
    --mib) mib=$2; shift 2 ;;
    --vectors) shift 2 ;;
    *) shift ;;
  esac
done
if [ -z "$avail" ] || [ -z "$impl" ] || [ -z "$modules" ]; then
  echo "usage: $0 --avail PROG --impl NAME --modules DIR [--mib N]"
  exit 1
fi
if ! command -v openssl >/dev/null 2>&1; then
  echo "UNAVAILABLE: no openssl binary (Debian package openssl)"
  exit 77
fi
rc=0
"$avail" --impl "$impl" || rc=$?
[ "$rc" -eq 0 ] || exit "$rc"

tmp=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  exec 3>&- 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
cd "$tmp"

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=localhost -days 1 \
  -keyout key.pem -out cert.pem >/dev/null 2>&1
cat > vg.cnf <<CNF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = algorithm_sect
[provider_sect]
vg = vg_sect
default = default_sect
[vg_sect]
module = $modules/vg.so
activate = 1
[default_sect]
activate = 1
[algorithm_sect]
default_properties = ?provider=vg
CNF
# The vg side's configuration must load vg, running the implementation under test.
info=$(OPENSSL_CONF=vg.cnf openssl list -providers -verbose 2>&1) || { echo "$info"; exit 1; }
echo "$info" | grep -q "build info: $impl\$" || { echo "error: vg not active with $impl:"; echo "$info"; exit 1; }
echo "vg.cnf: vg ($impl) and default active, default_properties ?provider=vg"

head -c $((mib * 1048576)) /dev/urandom > data.bin
want=$(sha256sum < data.bin | cut -d' ' -f1)
# s_server reads its stdin and quits at EOF: give it a FIFO this script holds open.
mkfifo server_in
exec 3<>server_in

# A random port in 20000..59999 that nothing on 127.0.0.1 or 0.0.0.0 uses now (s_server failing to
# bind, in a race, is retried by the caller).
free_port() {
  while :; do
    p=$(( $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 40000 + 20000 ))
    hex=$(printf '%04X' "$p")
    if ! grep -q ":$hex " /proc/net/tcp /proc/net/tcp6 2>/dev/null; then echo "$p"; return; fi
  done
}
# Waits (up to 10 s, for a loaded machine) until something listens on 127.0.0.1:$1 (from /proc/net/tcp, without connecting).
wait_listen() {
  hex=$(printf '%04X' "$1")
  i=0
  while [ $i -lt 500 ]; do
    if grep -q "^ *[0-9]*: 0100007F:$hex 00000000:0000 0A" /proc/net/tcp 2>/dev/null; then return 0; fi
    if ! kill -0 "$server_pid" 2>/dev/null; then return 1; fi
    sleep 0.02
    i=$((i + 1))
  done
  return 1
}

failures=0
# transfer SUITE_ARGS VG_SIDE DIRECTION
transfer() {
  suite_args=$1 vg_side=$2 direction=$3
  server_conf=/dev/null client_conf=/dev/null
  if [ "$vg_side" = server ]; then server_conf=$tmp/vg.cnf; else client_conf=$tmp/vg.cnf; fi
  www=
  if [ "$direction" = download ]; then www="-WWW -http_server_binmode"; fi
  for _ in 1 2 3; do
    port=$(free_port)
    # shellcheck disable=SC2086 # the argument lists split on purpose
    OPENSSL_CONF=$server_conf timeout 120 openssl s_server -accept "127.0.0.1:$port" -naccept 1 -quiet $www \
      -cert cert.pem -key key.pem $suite_args < server_in > server.out 2> server.err &
    server_pid=$!
    if wait_listen "$port"; then break; fi
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=
  done
  [ -n "$server_pid" ] || { echo "error: s_server did not start"; cat server.err; return 1; }
  crc=0
  if [ "$direction" = upload ]; then
    # shellcheck disable=SC2086
    OPENSSL_CONF=$client_conf timeout 120 openssl s_client -connect "127.0.0.1:$port" -quiet -no_ign_eof \
      -nocommands $suite_args < data.bin > client.out 2> client.err || crc=$?
  else
    # shellcheck disable=SC2086
    printf 'GET /data.bin HTTP/1.0\r\n\r\n' | OPENSSL_CONF=$client_conf timeout 120 openssl s_client \
      -connect "127.0.0.1:$port" -quiet -nocommands $suite_args > client.out 2> client.err || crc=$?
  fi
  src=0
  wait "$server_pid" || src=$?
  server_pid=
  if [ "$direction" = upload ]; then
    got=$(sha256sum < server.out | cut -d' ' -f1)
  else
    # The body follows s_server's 45-byte header "HTTP/1.0 200 ok\r\nContent-type: text/plain\r\n\r\n".
    got=$(tail -c +46 client.out | sha256sum | cut -d' ' -f1)
  fi
  if [ "$crc" -ne 0 ] || [ "$src" -ne 0 ] || [ "$got" != "$want" ]; then
    echo "FAIL $suite_args, vg $vg_side, $direction: client rc $crc, server rc $src, sha256 $got (want $want)"
    tail -n 5 client.err server.err
    return 1
  fi
  echo "ok   $suite_args, vg $vg_side, $direction: $mib MiB intact"
}

for suite in "-tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256" "-tls1_3 -ciphersuites TLS_AES_256_GCM_SHA384" \
             "-tls1_3 -ciphersuites TLS_AES_128_CCM_SHA256" "-tls1_3 -ciphersuites TLS_AES_128_CCM_8_SHA256" \
             "-tls1_2 -cipher ECDHE-ECDSA-AES128-GCM-SHA256" "-tls1_2 -cipher ECDHE-ECDSA-AES256-GCM-SHA384" \
             "-tls1_2 -cipher ECDHE-ECDSA-AES128-CCM"; do
  for vg_side in server client; do
    for direction in upload download; do
      transfer "$suite" "$vg_side" "$direction" || failures=$((failures + 1))
    done
  done
done
if [ "$failures" -ne 0 ]; then
  echo "$failures transfers failed"
  exit 1
fi
echo "all 28 transfers intact"
