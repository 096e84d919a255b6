#!/usr/bin/env python3
"""wp_postconditions.py LOG — prints "yes" if every property status Eva reported as not valid in LOG
belongs to an ACSL annotation written for WP in src/ (a postcondition, loop invariant or assertion of
the contracts proved by proofs/wp), and there is at least one; else "no".

Why: Eva evaluates every annotation it meets. The WP contracts in src/ are stated with ACSL logic
functions Eva cannot evaluate ("unsupported ACSL construct: logic function ...") or with loop
invariants only a deductive prover can use, so Eva leaves them "unknown"; WP proves them. The Eva
harness's own properties live elsewhere (proofs/eva/kernel_specs.h, Frama-C's libc) and must still be
valid, and every run-time-error alarm ("out of bounds read. assert ...", "signed overflow ...") is
still a failure: those never take the allowed form below. An alarm is allowed only when it reads
    [eva:alarm] src/<file>:<line>: Warning: [function F[, behavior B]: ]<kind> got status unknown.
with <kind> one of postcondition, loop invariant, assertion. run.sh also requires every precondition
valid and no status invalid, and "0 alarms generated"."""
import re
import sys

lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
allowed = re.compile(r"^(function [A-Za-z_]\w*(, behavior [A-Za-z_]\w*)?: )?"
                     r"(postcondition|loop invariant|assertion) got status unknown\.")
seen = 0
ok = True
for i, line in enumerate(lines):
    m = re.match(r"^\[eva:alarm\] (\S+?):\d+: Warning: ?(.*)$", line)
    if not m:
        if line.startswith("[eva:alarm]"):
            ok = False
        continue
    loc, rest = m.group(1), m.group(2).strip()
    if not rest and i + 1 < len(lines):
        rest = lines[i + 1].strip()
    if loc.startswith("src/") and allowed.match(rest):
        seen += 1
    else:
        ok = False
print("yes" if ok and seen else "no")
