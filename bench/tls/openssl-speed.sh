#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# openssl-speed.sh MODULES_DIR [ROUNDS] — `openssl speed -evp` with the vg provider and with the default
# provider, alternating, for the ciphers the provider serves (a benchmark, never a test).
#
# Each round runs every (cipher, direction) twice, vg then default or default then vg (the order swaps
# every round), at 16 KiB and 1 KiB, and prints one line per measurement:
#   round cipher direction provider bytes bytes-per-second
# then the median of each cell over the rounds in GB/s (10^9 bytes/s), and vg's over default's.
# AES-GCM-SIV is left out: OpenSSL 3.0 has none to compare with, and its `openssl speed` does not
# drive a one-shot AEAD the way GCM-SIV needs (tried: it timed the provider's buffering of the
# updates, hundreds of GB/s, not the cipher).
# The vg run uses an OPENSSL_CONF that loads vg and default with default_properties = ?provider=vg
# (`openssl speed -provider vg -propquery ...` does not select vg in 3.0); the default run an
# OPENSSL_CONF that loads default only.
set -eu
modules=${1:?usage: openssl-speed.sh MODULES_DIR [ROUNDS]}
rounds=${2:-3}
secs=${SECONDS_PER_CELL:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/vg.cnf" <<CNF
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
CNF
cat >"$tmp/default.cnf" <<CNF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
[provider_sect]
default = default_sect
[default_sect]
activate = 1
CNF
one() { # provider cipher direction bytes -> bytes per second
    cnf=$tmp/$1.cnf
    dec=
    [ "$3" = decrypt ] && dec=-decrypt
    OPENSSL_CONF=$cnf OPENSSL_MODULES=$modules openssl speed -mr -seconds "$secs" -bytes "$4" $dec -evp "$2" 2>/dev/null |
        awk -F: '/^\+F:/ { print $4; exit }'
}
ciphers="AES-128-GCM AES-256-GCM AES-128-CCM AES-128-CTR"
: >"$tmp/all"
r=1
while [ "$r" -le "$rounds" ]; do
    for c in $ciphers; do
        for d in encrypt decrypt; do
            for b in 16384 1024; do
                if [ $((r % 2)) = 1 ]; then order="vg default"
                else order="default vg"; fi
                for p in $order; do
                    v=$(one "$p" "$c" "$d" "$b")
                    echo "$r $c $d $p $b ${v:-?}" | tee -a "$tmp/all"
                done
            done
        done
    done
    r=$((r + 1))
done
echo "# medians over $rounds rounds: cipher direction bytes vg-GB/s default-GB/s vg/default"
# (openssl speed -mr prints bytes per second)
awk '{ k = $2 " " $3 " " $5; if ($4 == "vg") vg[k] = vg[k] " " $6; else df[k] = df[k] " " $6; keys[k] = 1 }
     function med(list,    n, a, i, j, t) {
         n = split(list, a, " "); if (n == 0) return "";
         for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
         return a[int((n + 1) / 2)] / 1e9 }
     END { for (k in keys) { v = med(vg[k]); d = med(df[k]);
             printf "%s %.3f %s %s\n", k, v, (d == "" ? "-" : sprintf("%.3f", d)),
                    (d == "" || d == 0 ? "-" : sprintf("%.2fx", v / d)) } }' "$tmp/all" | sort
