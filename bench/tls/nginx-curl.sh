#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# A benchmark, not a test (nothing runs it in CI): Debian's nginx serves a file (1 GiB by default)
# over TLS 1.3 to curl on 127.0.0.1, with TLS_AES_128_GCM_SHA256 and TLS_AES_256_GCM_SHA384, each
# with vg.so on the server side (OPENSSL_CONF loading vg and default, default_properties =
# ?provider=vg; OPENSSL_MODULES at vg.so's directory) and without it (OPENSSL_CONF loading default
# only). curl always uses the default provider alone. Reports, per suite and server provider, the
# median over --runs transfers of curl's MB/s (10^6 bytes/s, %{speed_download}) and of the nginx
# worker's CPU seconds (utime + stime from /proc/<pid>/stat) per GiB moved, and of utime and stime
# each (their own medians, so they need not add up to the total's). Transfers alternate
# between the vg and the default server (which goes first alternates too), so machine noise hits
# both. Before timing, each configuration downloads the file once and checks its SHA-256 and the
# negotiated suite, and checks that vg.so is mapped in the worker in the vg case and not otherwise.
#
#   bench/tls/nginx-curl.sh --modules build/provider/modules [--runs 5] [--mib 1024] [--nginx PATH]
#
# Needs nginx (Debian: apt-get install nginx-light), curl and openssl. Everything (key, certificate,
# configurations, the served file, pid file, logs, nginx's temp paths) lives in a temp dir removed on
# exit; nginx is started with -p/-c/-e pointing there and listens on 127.0.0.1 only; openssl, nginx
# and curl all get an OPENSSL_CONF in the temp dir, so /etc/ssl/openssl.cnf is not used. When run as
# root the worker stays root (`user root root;`) so it can read the temp dir and /proc shows its maps.
set -u

modules=
runs=5
mib=1024
nginx_bin=$(command -v nginx 2>/dev/null || echo /usr/sbin/nginx)
max_time=300

usage() {
    echo "usage: $0 --modules DIR_WITH_vg.so [--runs N] [--mib N] [--nginx PATH]" >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case "$1" in
    --modules) modules=${2:-}; shift 2 ;;
    --runs) runs=${2:-}; shift 2 ;;
    --mib) mib=${2:-}; shift 2 ;;
    --nginx) nginx_bin=${2:-}; shift 2 ;;
    *) usage ;;
    esac
done
[ -n "$modules" ] && [ -f "$modules/vg.so" ] || { echo "no vg.so in '--modules $modules'" >&2; usage; }
case "$runs" in '' | *[!0-9]* | 0) usage ;; esac
case "$mib" in '' | *[!0-9]* | 0) usage ;; esac
[ -x "$nginx_bin" ] || { echo "nginx not found (apt-get install nginx-light)" >&2; exit 2; }
for t in curl openssl sha256sum; do
    command -v "$t" > /dev/null || { echo "$t not found" >&2; exit 2; }
done
modules=$(cd "$modules" && pwd -P)
vg_so=$(readlink -f "$modules/vg.so")
hz=$(getconf CLK_TCK)

dir=$(mktemp -d "${TMPDIR:-/tmp}/vg-nginx-curl.XXXXXX") || exit 1
masters=()
workers=()

cleanup() {
    local p i alive=0
    for p in "${masters[@]}"; do kill -TERM "$p" 2> /dev/null; done
    for i in 1 2 3 4 5 6 7 8 9 10; do
        alive=0
        for p in "${masters[@]}" "${workers[@]}"; do kill -0 "$p" 2> /dev/null && alive=1; done
        [ $alive = 0 ] && break
        sleep 0.5
    done
    if [ $alive = 1 ]; then
        for p in "${masters[@]}" "${workers[@]}"; do kill -KILL "$p" 2> /dev/null; done
    fi
    wait 2> /dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

die() {
    echo "error: $*" >&2
    exit 1
}

# --- key, certificate, file, OpenSSL configurations ----------------------------------------------
cat > "$dir/vg.cnf" << EOF
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
activate = 1
[algorithm_sect]
default_properties = ?provider=vg
EOF
cat > "$dir/default.cnf" << EOF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
[provider_sect]
default = default_sect
[default_sect]
activate = 1
EOF
OPENSSL_CONF=$dir/default.cnf openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
    -keyout "$dir/key.pem" -out "$dir/cert.pem" 2> "$dir/req.log" ||
    { cat "$dir/req.log" >&2; die "openssl req failed"; }
mkdir -p "$dir/www" "$dir/tmp"
head -c $((mib * 1048576)) /dev/urandom > "$dir/www/blob" || die "cannot write the $mib MiB file"
want_sha=$(sha256sum < "$dir/www/blob" | cut -d' ' -f1)
bytes=$((mib * 1048576))

# --- nginx ----------------------------------------------------------------------------------------
suites=(TLS_AES_128_GCM_SHA256 TLS_AES_256_GCM_SHA384)
provs=(vg default)
declare -A port master worker

port_free() {
    # Nothing listens on 127.0.0.1:$1 (connect refused); nginx's bind is the real check.
    ! (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null
}

# write_conf PROV: one nginx per server provider, one server block (port) per suite.
write_conf() {
    local prov=$1 s p user=
    [ "$(id -u)" = 0 ] && user="user root root;"
    mkdir -p "$dir/$prov"
    {
        cat << EOF
$user
worker_processes 1;
daemon off;
master_process on;
pid $dir/$prov/nginx.pid;
lock_file $dir/$prov/nginx.lock;
error_log $dir/$prov/error.log warn;
events { worker_connections 64; }
http {
    access_log off;
    sendfile off;
    client_body_temp_path $dir/tmp/$prov-body;
    proxy_temp_path $dir/tmp/$prov-proxy;
    fastcgi_temp_path $dir/tmp/$prov-fastcgi;
    uwsgi_temp_path $dir/tmp/$prov-uwsgi;
    scgi_temp_path $dir/tmp/$prov-scgi;
    default_type application/octet-stream;
    ssl_protocols TLSv1.3;
    ssl_certificate $dir/cert.pem;
    ssl_certificate_key $dir/key.pem;
    ssl_buffer_size 16k;
    ssl_session_cache off;
    ssl_session_tickets off;
EOF
        for s in "${suites[@]}"; do
            p=${port[$prov.$s]}
            cat << EOF
    server {
        listen 127.0.0.1:$p ssl;
        ssl_conf_command Ciphersuites $s;
        root $dir/www;
    }
EOF
        done
        echo "}"
    } > "$dir/$prov/nginx.conf"
}

# start_nginx PROV: picks free ports, starts the master in the foreground (daemon off) in the
# background of this shell with PROV's OpenSSL configuration, waits for its worker and ports.
start_nginx() {
    local prov=$1 try s i m w ok p
    for try in 1 2 3 4 5; do
        for s in "${suites[@]}"; do
            while :; do
                p=$((20000 + RANDOM % 40000))
                port_free "$p" && break
            done
            port[$prov.$s]=$p
        done
        write_conf "$prov"
        if [ "$prov" = vg ]; then
            OPENSSL_CONF=$dir/vg.cnf OPENSSL_MODULES=$modules \
                "$nginx_bin" -p "$dir/$prov" -c "$dir/$prov/nginx.conf" -e "$dir/$prov/error.log" \
                > "$dir/$prov/stdout.log" 2>&1 &
        else
            OPENSSL_CONF=$dir/default.cnf \
                "$nginx_bin" -p "$dir/$prov" -c "$dir/$prov/nginx.conf" -e "$dir/$prov/error.log" \
                > "$dir/$prov/stdout.log" 2>&1 &
        fi
        m=$!
        masters+=("$m")
        ok=0
        for i in $(seq 1 100); do # up to 10 s
            kill -0 "$m" 2> /dev/null || break
            w=$(cat "/proc/$m/task/$m/children" 2> /dev/null)
            w=${w%% *}
            [ -n "$w" ] || w=$(pgrep -P "$m" 2> /dev/null | head -n 1)
            if [ -n "$w" ]; then
                ok=1
                for s in "${suites[@]}"; do
                    port_free "${port[$prov.$s]}" && ok=0
                done
                [ $ok = 1 ] && break
            fi
            sleep 0.1
        done
        if [ $ok = 1 ]; then
            master[$prov]=$m
            worker[$prov]=$w
            workers+=("$w")
            return 0
        fi
        kill -TERM "$m" 2> /dev/null
        wait "$m" 2> /dev/null
        grep -q "in use" "$dir/$prov/error.log" "$dir/$prov/stdout.log" 2> /dev/null || break
    done
    cat "$dir/$prov/error.log" "$dir/$prov/stdout.log" >&2 2> /dev/null
    die "nginx ($prov) did not start"
}

# cpu_ticks PID: "utime stime" of PID, in clock ticks (fields 14 and 15 of /proc/PID/stat; counted
# after the closing parenthesis of comm, which may hold spaces).
cpu_ticks() {
    local st
    st=$(cat "/proc/$1/stat") || die "worker $1 is gone"
    st=${st##*) }
    set -- $st
    echo "${12} ${13}"
}

# fetch PROV SUITE OUT: one download; prints "bytes speed".
fetch() {
    OPENSSL_CONF=$dir/default.cnf curl -sS --fail --max-time "$max_time" --connect-timeout 10 \
        --tlsv1.3 --tls13-ciphers "$2" --cacert "$dir/cert.pem" -o "$3" \
        -w '%{size_download} %{speed_download}\n' "https://127.0.0.1:${port[$1.$2]}/blob"
}

for prov in "${provs[@]}"; do start_nginx "$prov"; done

# --- checks: vg.so mapped only where it should be; SHA-256 and suite once per configuration --------
for prov in "${provs[@]}"; do
    w=${worker[$prov]}
    if grep -qF "$vg_so" "/proc/$w/maps"; then mapped=yes; else mapped=no; fi
    [ "$(readlink -f "/proc/$w/exe")" = "$(readlink -f "$nginx_bin")" ] || die "pid $w is not nginx"
    if [ "$prov" = vg ]; then
        [ $mapped = yes ] || die "vg.so ($vg_so) is not mapped in the vg server's worker $w"
    else
        [ $mapped = no ] || die "vg.so is mapped in the default server's worker $w"
    fi
    echo "check: $prov server worker $w: vg.so mapped: $mapped"
done
for s in "${suites[@]}"; do
    for prov in "${provs[@]}"; do
        got=$(OPENSSL_CONF=$dir/default.cnf curl -sS -v --fail --max-time "$max_time" \
            --connect-timeout 10 --tlsv1.3 --tls13-ciphers "$s" --cacert "$dir/cert.pem" \
            "https://127.0.0.1:${port[$prov.$s]}/blob" 2> "$dir/curl-v.log" | sha256sum | cut -d' ' -f1)
        grep -q "SSL connection using TLSv1.3 / $s" "$dir/curl-v.log" ||
            { cat "$dir/curl-v.log" >&2; die "$prov $s: not TLS 1.3 with $s"; }
        [ "$got" = "$want_sha" ] || die "$prov $s: SHA-256 $got, want $want_sha"
        echo "check: $s, server $prov: TLS 1.3 $s, SHA-256 of the $mib MiB download matches"
    done
done

# --- timed transfers -----------------------------------------------------------------------------
declare -A speeds cpus usrs syss
for r in $(seq 1 "$runs"); do
    if [ $((r % 2)) = 1 ]; then order=(vg default); else order=(default vg); fi
    for s in "${suites[@]}"; do
        for prov in "${order[@]}"; do
            w=${worker[$prov]}
            t0=$(cpu_ticks "$w")
            out=$(fetch "$prov" "$s" /dev/null) || die "$prov $s: transfer failed"
            t1=$(cpu_ticks "$w")
            set -- $out $t0 $t1
            [ "$1" = "$bytes" ] || die "$prov $s: $1 bytes, want $bytes"
            mbs=$(awk -v v="$2" 'BEGIN { printf "%.1f", v / 1e6 }')
            usr=$(awk -v d=$(($5 - $3)) -v hz="$hz" -v b="$1" 'BEGIN { printf "%.3f", d / hz / (b / 1073741824) }')
            sys=$(awk -v d=$(($6 - $4)) -v hz="$hz" -v b="$1" 'BEGIN { printf "%.3f", d / hz / (b / 1073741824) }')
            cpu=$(awk -v u="$usr" -v k="$sys" 'BEGIN { printf "%.3f", u + k }')
            speeds[$s.$prov]="${speeds[$s.$prov]:-} $mbs"
            cpus[$s.$prov]="${cpus[$s.$prov]:-} $cpu"
            usrs[$s.$prov]="${usrs[$s.$prov]:-} $usr"
            syss[$s.$prov]="${syss[$s.$prov]:-} $sys"
            printf 'run %d  %-22s  %-7s  %8s MB/s  server CPU s/GiB %6s (user %s, sys %s)\n' \
                "$r" "$s" "$prov" "$mbs" "$cpu" "$usr" "$sys"
        done
    done
done

median() {
    printf '%s\n' $1 | sort -g | awk '{ v[NR] = $1 } END {
        if (NR % 2) printf "%.3f", v[(NR + 1) / 2]; else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo
echo "nginx $("$nginx_bin" -v 2>&1 | sed 's/.*nginx\///'), $(openssl version), vg.so: $vg_so,"
echo "$mib MiB per transfer, medians of $runs transfers"
echo
echo "| suite | server provider | MB/s | server CPU s/GiB | of which user | of which sys |"
echo "|---|---|---|---|---|---|"
for s in "${suites[@]}"; do
    for prov in "${provs[@]}"; do
        printf '| %s | %s | %.0f | %.2f | %.2f | %.2f |\n' "$s" "$prov" \
            "$(median "${speeds[$s.$prov]}")" "$(median "${cpus[$s.$prov]}")" \
            "$(median "${usrs[$s.$prov]}")" "$(median "${syss[$s.$prov]}")"
    done
done
echo
# The reduction from the two medians, and the median of each run's own reduction (the vg and the
# default transfer of one run are back to back, so they saw about the same machine).
for s in "${suites[@]}"; do
    paired=$(paste -d' ' <(printf '%s\n' ${cpus[$s.vg]}) <(printf '%s\n' ${cpus[$s.default]}) |
        awk '$2 > 0 { printf "%.4f\n", (1 - $1 / $2) * 100 }')
    awk -v s="$s" -v v="$(median "${cpus[$s.vg]}")" -v d="$(median "${cpus[$s.default]}")" \
        -v mv="$(median "${speeds[$s.vg]}")" -v md="$(median "${speeds[$s.default]}")" \
        -v p="$(median "$paired")" 'BEGIN {
        if (d <= 0 || md <= 0) { printf "%s: too few CPU ticks to compare (try a larger --mib)\n", s; exit }
        printf "%s: server CPU s/GiB %.1f%% lower with vg (median of the runs'"'"' own reductions: %.1f%%); MB/s %+.1f%%\n",
            s, (1 - v / d) * 100, p, (mv / md - 1) * 100 }'
done
