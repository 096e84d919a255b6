#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""Rewrites the measured section of docs/speed.md from one fresh vg-speed run (`make speed-doc`).

    bench/speed-doc.py VG_SPEED_BINARY docs/speed.md [vg-speed arguments...]

Runs `VG_SPEED_BINARY --impl all --cpu-time --csv FILE [arguments]`, then replaces everything between
the markers `<!-- speed-run:begin -->` and `<!-- speed-run:end -->` of the page with: the command as
run, the commit, compiler, CPU, peers and load; the headline tables (vg's best implementation and
aesni against OpenSSL 3.0 and BearSSL; portable against BearSSL), computed from the run's CSV; and the
run's whole output. So every figure in that section comes from the one run, and the page says when
and where it ran. A benchmark, never a test: nothing here is asserted. Exit status: vg-speed's, or 2
for a usage error.
"""
import csv
import os
import re
import subprocess
import sys
import tempfile
import time

BEGIN, END = "<!-- speed-run:begin -->", "<!-- speed-run:end -->"


def sh(cmd, cwd=None):
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return ""


def cpu_line():
    model = family = modelno = ""
    flags = set()
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            k, _, v = line.partition(":")
            k, v = k.strip(), v.strip()
            if k == "model name" and not model:
                model = v
            elif k == "cpu family" and not family:
                family = v
            elif k == "model" and not modelno:
                modelno = v
            elif k == "flags" and not flags:
                flags = set(v.split())
    except OSError:
        pass
    wanted = ["aes", "pclmulqdq", "vaes", "vpclmulqdq", "avx", "avx2", "movbe", "avx512f", "avx512bw", "avx512vl"]
    have = " ".join(f for f in wanted if f in flags)
    return model, family, modelno, have, os.cpu_count()


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    binary, doc = sys.argv[1], sys.argv[2]
    extra = sys.argv[3:]
    page = open(doc, encoding="utf-8").read()
    if BEGIN not in page or END not in page:
        print(f"speed-doc: {doc} has no {BEGIN} ... {END} section", file=sys.stderr)
        return 2
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    load = open("/proc/loadavg").read().split()[0] if os.path.exists("/proc/loadavg") else "?"
    with tempfile.TemporaryDirectory() as tmp:
        csv_path = os.path.join(tmp, "run.csv")
        args = ["--impl", "all", "--cpu-time", "--csv", csv_path] + extra
        started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        t0 = time.time()
        run = subprocess.run([binary] + args, capture_output=True, text=True)
        took = time.time() - t0
        if run.returncode != 0:
            sys.stdout.write(run.stdout)
            sys.stderr.write(run.stderr)
            return run.returncode
        rows = list(csv.DictReader(open(csv_path, encoding="utf-8")))
    output = run.stdout.rstrip("\n")

    def cell(row, nbytes, impl):
        for r in rows:
            if r["row"] == row and r["impl"] == impl and (nbytes is None or r["bytes"] == str(nbytes)):
                return r
        return None

    def fmt(r, key):
        if r is None or not r.get(key):
            return "–"
        v = float(r[key])
        if r["unit"] == "ns":
            return f"{v:.1f} ns" if v < 1000 else f"{v:.0f} ns"
        return f"{v:.3f} GB/s" if v < 10 else f"{v:.2f} GB/s"

    def ratio(r, peer):
        if r is None or not r.get("vg_over_" + peer):
            return ""
        return f" ({float(r['vg_over_' + peer]):.2f}×)"

    impls = []
    for r in rows:
        if r["impl"] not in impls:
            impls.append(r["impl"])
    best = impls[0] if impls else "?"
    headline = [
        ("seal 16 B", "aes128-gcm-seal", 16), ("open 16 B", "aes128-gcm-open", 16),
        ("seal 64 B", "aes128-gcm-seal", 64), ("open 64 B", "aes128-gcm-open", 64),
        ("seal 1 KiB", "aes128-gcm-seal", 1024),
        ("seal 1350 B + 13 B AAD (TLS)", "aes128-gcm-aad13-seal", 1350),
        ("open 1350 B + 13 B AAD (TLS)", "aes128-gcm-aad13-open", 1350),
        ("seal 16 KiB", "aes128-gcm-seal", 16384), ("open 16 KiB", "aes128-gcm-open", 16384),
        ("seal 16 KiB in 1 KiB stream updates", "aes128-gcm-stream1k-seal", 16384),
        ("AES-256-GCM seal 16 KiB", "aes256-gcm-seal", 16384), ("AES-256-GCM open 16 KiB", "aes256-gcm-open", 16384),
        ("AES-192-GCM open 16 KiB", "aes192-gcm-open", 16384),
        ("GCM key set-up", "aes128-gcm-keysetup", None),
        ("AES-128-CTR 16 KiB", "aes128-ctr", 16384),
        ("AES-128-GCM-SIV seal 1 KiB", "aes128-gcm-siv-seal", 1024),
        ("AES-128-GCM-SIV seal 16 KiB", "aes128-gcm-siv-seal", 16384),
        ("AES-128-CCM seal 1 KiB", "aes128-ccm-seal", 1024),
    ]
    lines = [f"| row | vg {best} | vg aesni | OpenSSL | BearSSL ct64 |", "|---|---|---|---|---|"]
    for label, row, nbytes in headline:
        b, a = cell(row, nbytes, best), cell(row, nbytes, "aesni")
        ref = b or a
        lines.append(f"| {label} | {fmt(b, 'vg')}{ratio(b, 'openssl')} | {fmt(a, 'vg')}{ratio(a, 'openssl')} | "
                     f"{fmt(ref, 'openssl')} | {fmt(ref, 'bearssl')} |")
    portable = [
        ("AES-128-CTR 16 KiB", "aes128-ctr", 16384, "≥ 1.5×"),
        ("AES-128 key expansion (vg: enc + dec keys; BearSSL `br_aes_ct64_ctr_init`, enc only)", "aes128-keysetup", None, "≥ 1×"),
        ("AES-128-GCM seal 16 KiB (BearSSL ct64 + ctmul64)", "aes128-gcm-seal", 16384, "≥ 1.3×"),
        ("AES-128-CCM seal 16 KiB (BearSSL ct64 ctrcbc)", "aes128-ccm-seal", 16384, "≥ 1.3×"),
    ]
    plines = ["| row | vg portable | BearSSL ct64 | ratio | target |", "|---|---|---|---|---|"]
    for label, row, nbytes, target in portable:
        p = cell(row, nbytes, "portable")
        rr = f"{float(p['vg_over_bearssl']):.2f}×" if p and p.get("vg_over_bearssl") else "–"
        plines.append(f"| {label} | {fmt(p, 'vg')} | {fmt(p, 'bearssl')} | {rr} | {target} |")

    model, family, modelno, have, ncpu = cpu_line()
    commit = sh(["git", "rev-parse", "--short", "HEAD"], cwd=root)
    dirty = sh(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root)
    gcc = sh(["gcc", "-dumpfullversion"]) or "?"
    peers = "; ".join(p.strip() for p in re.findall(r"^peer\s+(.*)$", output, re.M)) or "none built in"
    section = f"""{BEGIN}
## x86-64, {model or 'unknown CPU'} (family {family}, model {modelno}; {ncpu} vCPUs shared with other work), {started}

- Command (`make speed-doc`, which built the Release `vg-speed` and ran): `vg-speed {' '.join(a if a != csv_path else 'RUN.csv' for a in args)}`;
  it took {took:.0f} s. `--cpu-time`: the thread CPU-time clock, which leaves out the time other
  processes hold the CPU (not their effect on the shared core's caches and vector units).
- Code: commit {commit}{' plus uncommitted changes' if dirty else ''}, vg 0.2.0, gcc {gcc}.
- CPU flags that matter here: {have}.
- Peers: {peers} (OpenSSL's AES-GCM code path on this CPU: the output's second `peer` line).
- Load when the run started: {load} on {ncpu} CPUs. Ratios within the run are the meaningful part;
  absolute figures move by ±20% between runs on this machine.

Headline (AES-128-GCM unless said otherwise; vg {best} and vg aesni against OpenSSL 3.0 in the same
run; in brackets vg's speed over OpenSSL's):

{chr(10).join(lines)}

The portable implementation against BearSSL's constant-time code, from the same run:

{chr(10).join(plines)}

The full output of the run:

```
{output}
```
{END}"""
    i, j = page.index(BEGIN), page.index(END) + len(END)
    open(doc, "w", encoding="utf-8").write(page[:i] + section + page[j:])
    print(f"speed-doc: {doc} rewritten from a {took:.0f} s run at commit {commit}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
