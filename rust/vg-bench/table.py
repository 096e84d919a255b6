#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""docs/rust.md's benchmark table from one `cargo bench -p vg-bench` run and one vg-speed run.

    python3 rust/vg-bench/table.py CRITERION_DIR [VG_SPEED_CSV ...]

CRITERION_DIR is criterion's output (build-rust/target/criterion); each VG_SPEED_CSV is one
`vg-speed --csv` run over the same rows (docs/rust.md gives the command): with several, a cell shows
the fastest run's figure, since on a shared machine a run can only be slowed down, never sped up, by
the others. Each crate figure is criterion's median. As in
vg-speed, key set-ups and 64-byte messages are in ns per call, longer messages in GB/s (10^9 bytes
per second). "vg / ring" is ring's time over the crate's (above 1: the crate is faster); "crate vs
C" is the crate's time over the C library's called directly in the same process (c-direct), and
"crate vs vg-speed" over vg-speed's figure, as a percentage more (+) or less (-) time.
"""
import csv
import json
import os
import sys


def median_ns(root, group, func, param=None):
    parts = [root, group, func] + ([param] if param else []) + ["new", "estimates.json"]
    path = os.path.join(*parts)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)["median"]["point_estimate"]


def show(ns, nbytes):
    if ns is None:
        return "-"
    if nbytes is None or nbytes <= 64:
        return "%.1f ns" % ns
    return "%.2f GB/s" % (nbytes / ns)


def ratio(a, b):
    return "-" if a is None or b is None else "%.2fx" % (a / b)


def more(a, b):
    return "-" if a is None or b is None else "%+.1f%%" % (100.0 * (a / b - 1.0))


def load_vg_speed(paths):
    """(row, bytes) -> ns per call, the fastest of the runs."""
    cells = {}
    for path in paths:
        with open(path) as f:
            for r in csv.DictReader(f):
                value = float(r["vg"])
                ns = value if r["unit"] == "ns" else int(r["bytes"]) / value
                key = (r["row"], r["bytes"])
                cells[key] = min(cells.get(key, ns), ns)
    return cells


def vg_speed_ns(cells, row, nbytes):
    return cells.get((row, str(nbytes) if nbytes else ""))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    cells = load_vg_speed(sys.argv[2:])
    print("| row | bytes | ring | vg crate | vg / ring | vg-speed (C) | crate vs vg-speed |")
    print("|---|---|---|---|---|---|---|")
    for bits in (128, 256):
        name = "aes%d-gcm-keysetup" % bits
        ring = median_ns(root, "keysetup", "ring", "aes%d-gcm" % bits)
        vg = median_ns(root, "keysetup", "vg", "aes%d-gcm" % bits)
        vs = vg_speed_ns(cells, name, None)
        print("| %s | - | %s | %s | %s | %s | %s |" % (
            name, show(ring, None), show(vg, None), ratio(ring, vg), show(vs, None), more(vg, vs)))
    for bits in (128, 256):
        for op in ("seal", "open"):
            group = "aes%d-gcm-%s" % (bits, op)
            for label, nbytes, speed_row in (("64", 64, group), ("1350+13aad", 1350, "aes%d-gcm-aad13-%s" % (bits, op)),
                                             ("16384", 16384, group)):
                ring = median_ns(root, group, "ring", label)
                vg = median_ns(root, group, "vg", label)
                vs = vg_speed_ns(cells, speed_row, nbytes)
                print("| %s | %s | %s | %s | %s | %s | %s |" % (
                    group, label.replace("+13aad", " + 13 AAD"), show(ring, nbytes), show(vg, nbytes),
                    ratio(ring, vg), show(vs, nbytes), more(vg, vs)))
    print()
    print("| row | bytes | vg crate | vg-speed (C) | crate vs vg-speed |")
    print("|---|---|---|---|---|")
    for mode in ("gcm-siv", "ccm"):
        for bits in (128, 256):
            name = "aes%d-%s-keysetup" % (bits, mode)
            vg = median_ns(root, "keysetup", "vg", "aes%d-%s" % (bits, mode))
            vs = vg_speed_ns(cells, name, None)
            print("| %s | - | %s | %s | %s |" % (name, show(vg, None), show(vs, None), more(vg, vs)))
            for op in ("seal", "open"):
                group = "aes%d-%s-%s" % (bits, mode, op)
                for nbytes in (64, 1350, 16384):
                    vg = median_ns(root, group, "vg", str(nbytes))
                    vs = vg_speed_ns(cells, group, nbytes)
                    print("| %s | %d | %s | %s | %s |" % (group, nbytes, show(vg, nbytes), show(vs, nbytes), more(vg, vs)))


main()
