#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
#
# speed-chart.sh BUILD_DIR OUT   (make speed-chart PEERS=... runs it)
#
# AES-128-GCM seal and open, GB/s against message size (16 B to 1 MiB, every power of two), for vg,
# OpenSSL, BoringSSL and AWS-LC: runs BUILD_DIR/bench/vg-speed, vg-speed-boringssl and vg-speed-awslc
# (whichever exist; the last two need -DVG_SPEED_PEERS, see bench/CMakeLists.txt) with --csv, merges
# their results into OUT.csv and plots OUT.svg with gnuplot. Each binary's table (its header names the
# CPU, the versions and each peer's GCM code path) is shown and kept in CHART_WORK (default: a new
# temporary directory).
#
# Each binary times vg next to its own peers, so vg is measured three times; OUT.csv keeps all three
# (vg_with_openssl, vg_with_boringssl, vg_with_awslc) and the chart draws their median, with their range
# as a band: on a shared machine the three runs differ, and a peer is only strictly comparable with the
# vg of its own run (vg-speed's ratio columns, in the tables). Figures of 64 bytes or less, which
# vg-speed reports in ns per call, are turned into GB/s (bytes / ns).
#
# Environment: CHART_WORK, where the tables go; CHART_ARGS, extra vg-speed arguments (default
# "--cpu-time", the thread's CPU-time clock, for a shared machine); CHART_CPU, the CPU as the chart
# names it (default: /proc/cpuinfo's model name with its family and model, and the number of online
# CPUs). A benchmark, not a test: nothing here checks a time, but a MISMATCH (exit 1) stops it.
set -eu

if [ $# -ne 2 ]; then
    echo "usage: $0 BUILD_DIR OUT   (writes OUT.csv and OUT.svg)" >&2
    exit 2
fi
bench=$1/bench
out=$2
args=${CHART_ARGS:---cpu-time}
sizes=16,32,64,128,256,512,1k,2k,4k,8k,16k,32k,64k,128k,256k,512k,1M
command -v gnuplot >/dev/null 2>&1 || {
    echo "speed-chart: gnuplot not found (Debian: apt-get install gnuplot-nox)" >&2
    exit 2
}
if [ -z "${CHART_CPU:-}" ]; then
    # AMD family 26 is Zen 5: a virtual machine's model name may say no more than "AMD EPYC".
    CHART_CPU=$(awk -F': *' '/^model name/ && !m {m=$2} /^cpu family/ && !f {f=$2} /^model[ \t]*:/ && !o {o=$2}
                            END {printf "%s, family %s model %s%s", m, f, o, m ~ /AMD/ && f == 26 ? " (Zen 5)" : ""}' /proc/cpuinfo)
    CHART_CPU="$CHART_CPU, $(getconf _NPROCESSORS_ONLN) online CPUs"
fi
work=${CHART_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/vg-speed-chart.XXXXXX")}
mkdir -p "$work"

# Each binary: its table to WORK/BINARY.txt (and the terminal), its CSV to WORK/BINARY.csv.
ran=
for bin in vg-speed vg-speed-boringssl vg-speed-awslc; do
    if [ ! -x "$bench/$bin" ]; then
        echo "speed-chart: no $bench/$bin, its column is left out" >&2
        continue
    fi
    # shellcheck disable=SC2086 # CHART_ARGS is a list of arguments
    if ! "$bench/$bin" --no-limit --filter =aes128-gcm-seal,=aes128-gcm-open --sizes "$sizes" $args \
        --csv "$work/$bin.csv" >"$work/$bin.txt"; then
        cat "$work/$bin.txt"
        echo "speed-chart: $bin failed (a MISMATCH or a failed operation): no chart" >&2
        exit 1
    fi
    cat "$work/$bin.txt"
    ran="$ran $bin"
done
[ -n "$ran" ] || { echo "speed-chart: no vg-speed binary in $bench" >&2; exit 2; }

# peer_label BINARY NAME: the version the binary's header gives for peer NAME ("OpenSSL 3.0.17 ...").
peer_label() {
    [ -f "$work/$1.txt" ] || return 0
    sed -n "s/^peer       \($2[^,(]*\).*/\1/p" "$work/$1.txt" | head -n 1 | awk '{print $1, $2}' | sed 's/ *$//'
}
commit_of() { # peer_label's commit in parentheses, abbreviated
    [ -f "$work/$1.txt" ] || return 0
    sed -n 's/^peer       [^(]*(\([^)]*\)).*/\1/p' "$work/$1.txt" | head -n 1 |
        sed 's/API version [0-9]*, //; s/^\([0-9a-f]\{12\}\)[0-9a-f]* .*/\1/'
}
openssl=$(peer_label vg-speed OpenSSL)
boringssl="$(peer_label vg-speed-boringssl BoringSSL) $(commit_of vg-speed-boringssl)"
awslc="$(peer_label vg-speed-awslc AWS-LC) $(commit_of vg-speed-awslc)"
impl=$(sed -n 's/^vg impl    \([^ ]*\).*/\1/p' "$work/vg-speed.txt" 2>/dev/null | head -n 1)
vg_commit=$(git -C "$(dirname "$0")" describe --always --dirty 2>/dev/null || echo unknown)
date=$(date -u '+%Y-%m-%d %H:%M UTC')

# Merge: one line per (row, bytes), every value in GB/s. The CSV files become the positional arguments.
set --
for bin in $ran; do set -- "$@" "$work/$bin.csv"; done
{
    echo "# AES-128-GCM, 12-byte nonce, 16-byte tag, no AAD; GB/s = 10^9 bytes/s; median of each binary's rounds"
    echo "# cpu: $CHART_CPU; date: $date; vg $vg_commit ($impl)"
    echo "# OpenSSL: $openssl; BoringSSL: $boringssl; AWS-LC: $awslc"
    echo "# vg-speed arguments: --no-limit --filter =aes128-gcm-seal,=aes128-gcm-open --sizes $sizes $args"
    echo "# vg = median of vg_with_openssl, vg_with_boringssl, vg_with_awslc (vg as timed next to each peer); vg_min, vg_max their range"
    awk -F, '
        FNR == 1 {
            for (i = 1; i <= NF; i++) col[$i] = i
            file = FILENAME; sub(/.*\//, "", file)
            next
        }
        {
            key = $col["row"] SUBSEP $col["bytes"]
            if (!(key in seen)) { seen[key] = 1; order[++n] = key }
            b = $col["bytes"]
            g = $col["unit"] == "ns" ? 0 : 1
            # A value in GB/s (columns in ns per call become bytes / ns).
            vg = g ? $col["vg"] : b / $col["vg"]
            if (file == "vg-speed.csv") {
                v["vg_with_openssl", key] = vg
                if ($col["openssl"] != "") v["openssl", key] = g ? $col["openssl"] : b / $col["openssl"]
            } else if (file == "vg-speed-boringssl.csv") {
                v["vg_with_boringssl", key] = vg
                if ($col["boringssl"] != "") v["boringssl", key] = g ? $col["boringssl"] : b / $col["boringssl"]
            } else if (file == "vg-speed-awslc.csv") {
                v["vg_with_awslc", key] = vg
                if ($col["awslc"] != "") v["awslc", key] = g ? $col["awslc"] : b / $col["awslc"]
            }
        }
        END {
            print "row,bytes,vg,openssl,boringssl,awslc,vg_with_openssl,vg_with_boringssl,vg_with_awslc,vg_min,vg_max"
            for (i = 1; i <= n; i++) {
                k = order[i]; split(k, p, SUBSEP)
                m = 0
                if ((("vg_with_openssl", k) in v)) x[++m] = v["vg_with_openssl", k]
                if ((("vg_with_boringssl", k) in v)) x[++m] = v["vg_with_boringssl", k]
                if ((("vg_with_awslc", k) in v)) x[++m] = v["vg_with_awslc", k]
                for (a = 1; a <= m; a++) for (c = a + 1; c <= m; c++) if (x[c] < x[a]) { t = x[a]; x[a] = x[c]; x[c] = t }
                med = m % 2 ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2
                printf "%s,%s,%.4g", p[1], p[2], med
                split("openssl boringssl awslc vg_with_openssl vg_with_boringssl vg_with_awslc", names, " ")
                for (j = 1; j <= 6; j++) printf ",%s", ((names[j], k) in v) ? sprintf("%.4g", v[names[j], k]) : ""
                printf ",%.4g,%.4g\n", x[1], x[m]
            }
        }' "$@"
} >"$out.csv"

# One panel per operation; missing values ("") are skipped by gnuplot.
gnuplot <<EOF
set terminal svg size 1100,520 dynamic noenhanced font "sans,12" background rgb "white"
set output "$out.svg"
set datafile separator ","
set datafile missing ""
set logscale x 2
set xrange [12:1400000]
set xtics ("16 B" 16, "64 B" 64, "256 B" 256, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576)
set yrange [0:*]
set ylabel "GB/s (1e9 bytes/s)"
set xlabel "message size"
set grid xtics ytics lc rgb "#dddddd"
set key right center
set multiplot layout 1,2 title "AES-128-GCM (12-byte nonce, 16-byte tag, no AAD) on $CHART_CPU\nvg-speed $args, medians; vg $vg_commit ($impl), each peer in its own binary next to vg; $date"
set title "seal"
plot "$out.csv" using (strcol(1) eq "aes128-gcm-seal" ? \$2 : 1/0):10:11 with filledcurves fc rgb "#d62728" fs transparent solid 0.15 noborder title "vg, range of its runs", \
     "" using (strcol(1) eq "aes128-gcm-seal" ? \$2 : 1/0):3 with linespoints lw 2 pt 7 lc rgb "#d62728" title "vg ($impl), median of its runs", \
     "" using (strcol(1) eq "aes128-gcm-seal" ? \$2 : 1/0):4 with linespoints lw 1.5 pt 5 lc rgb "#1f77b4" title "$openssl", \
     "" using (strcol(1) eq "aes128-gcm-seal" ? \$2 : 1/0):5 with linespoints lw 1.5 pt 9 lc rgb "#2ca02c" title "$boringssl", \
     "" using (strcol(1) eq "aes128-gcm-seal" ? \$2 : 1/0):6 with linespoints lw 1.5 pt 11 lc rgb "#ff7f0e" title "$awslc"
set title "open"
plot "$out.csv" using (strcol(1) eq "aes128-gcm-open" ? \$2 : 1/0):10:11 with filledcurves fc rgb "#d62728" fs transparent solid 0.15 noborder title "vg, range of its runs", \
     "" using (strcol(1) eq "aes128-gcm-open" ? \$2 : 1/0):3 with linespoints lw 2 pt 7 lc rgb "#d62728" title "vg ($impl), median of its runs", \
     "" using (strcol(1) eq "aes128-gcm-open" ? \$2 : 1/0):4 with linespoints lw 1.5 pt 5 lc rgb "#1f77b4" title "$openssl", \
     "" using (strcol(1) eq "aes128-gcm-open" ? \$2 : 1/0):5 with linespoints lw 1.5 pt 9 lc rgb "#2ca02c" title "$boringssl", \
     "" using (strcol(1) eq "aes128-gcm-open" ? \$2 : 1/0):6 with linespoints lw 1.5 pt 11 lc rgb "#ff7f0e" title "$awslc"
unset multiplot
EOF
echo "speed-chart: wrote $out.csv and $out.svg (the binaries' tables and CSV are in $work)"
