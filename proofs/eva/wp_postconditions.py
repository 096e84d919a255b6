#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""wp_postconditions.py LOG — prints "yes" if every property status Eva reported as not valid in LOG
belongs to an ACSL annotation in src/ that WP proves (proofs/wp/run.sh) or that docs/proofs-wp.md
lists as an assumed contract, and there is at least one; else "no" (and, on stderr, each status that
fails that test).

Why: Eva evaluates every annotation it meets. The WP contracts in src/ are stated with ACSL logic
functions Eva cannot evaluate ("unsupported ACSL construct: logic function ...") or with loop
invariants only a deductive prover can use, so Eva leaves them "unknown"; WP proves them. The Eva
harness's own properties live elsewhere (proofs/eva/kernel_specs.h, Frama-C's libc) and must still be
valid, and every run-time-error alarm ("out of bounds read. assert ...", "signed overflow ...") is
still a failure: those never take the allowed form below. An alarm is allowed only when it reads
    [eva:alarm] src/<file>:<line>: Warning: [function F[, behavior B]: ]<kind> got status unknown.
with <kind> one of postcondition, loop invariant, assertion, and when the function it belongs to
(named by Eva, or, for loop invariants and assertions, the function whose body holds that line) is
  - one proofs/wp/run.sh gives WP with -wp-fct, for the behaviour WP is given there (a group run with
    -wp-bhv B proves behaviour B only), or
  - one of ASSUMED below: the contracts docs/proofs-wp.md ("What the proofs assume") states as
    assumptions, which no tool proves and which the proofs of their callers rest on.
A contract added to src/ without a WP proof, or a behaviour WP is not run on, therefore fails the
check instead of passing as "unknown". run.sh also requires every precondition valid and no status
invalid, and "0 alarms generated"."""
import os
import re
import sys

ASSUMED = {"vg_aes_key_state_of", "gcm_key_of", "stream_of", "ctr_stream_usable", "vg_partial_overlap",
           "vg_overlap"}
ALL = None  # every behaviour

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.abspath(os.path.join(here, "..", ".."))


def wp_functions():
    """function -> set of behaviours WP proves (ALL for every one), from proofs/wp/run.sh's fc lines"""
    text = open(os.path.join(root, "proofs", "wp", "run.sh"), encoding="utf-8").read()
    text = text.replace("\\\n", " ")
    proved = {}
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("fc ") or "-wp-fct" not in line:
            continue
        fcts = re.search(r"-wp-fct\s+(\S+)", line).group(1).split(",")
        bhv = re.search(r"-wp-bhv\s+(\S+)", line)
        for f in fcts:
            if bhv is None:
                proved[f] = ALL
            elif proved.get(f, set()) is not ALL:
                proved.setdefault(f, set()).update(bhv.group(1).split(","))
    return proved


def enclosing_function(path, line_no):
    """the function whose definition precedes line line_no of path (a top-level definition starts
    at column 0 with its name before '(' and is not a prototype or a comment)"""
    try:
        lines = open(os.path.join(root, path), encoding="utf-8", errors="replace").read().splitlines()
    except OSError:
        return None
    for i in range(min(line_no, len(lines)) - 1, -1, -1):
        m = re.match(r"^(?:static\s+|inline\s+|const\s+|unsigned\s+|struct\s+)*[A-Za-z_][\w\s\*]*?\b([A-Za-z_]\w*)\s*\(", lines[i])
        if m and not lines[i].rstrip().endswith(";") and m.group(1) not in ("if", "for", "while", "switch", "return"):
            return m.group(1)
    return None


def main():
    proved = wp_functions()
    known = set(proved) | ASSUMED
    lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
    allowed = re.compile(r"^(function ([A-Za-z_]\w*)(, behavior ([A-Za-z_]\w*))?: )?"
                         r"(postcondition|loop invariant|assertion) got status unknown\.")
    seen, ok, refused = 0, True, set()
    for i, line in enumerate(lines):
        m = re.match(r"^\[eva:alarm\] (\S+?):(\d+): Warning: ?(.*)$", line)
        if not m:
            if line.startswith("[eva:alarm]"):
                ok = False
            continue
        loc, line_no, rest = m.group(1), int(m.group(2)), m.group(3).strip()
        if not rest and i + 1 < len(lines):
            rest = lines[i + 1].strip()
        a = allowed.match(rest)
        if not loc.startswith("src/") or not a:
            ok = False
            continue
        fn, bhv = a.group(2), a.group(4)
        if fn is None:
            fn = enclosing_function(loc, line_no)
        # Frama-C renames the copies of a static inline function of a header included by several
        # files: vg_store32_le_0, vg_store32_le_1, ...
        if fn is not None and fn not in known:
            base = re.sub(r"_\d+$", "", fn)
            if base in known:
                fn = base
        if fn in ASSUMED:
            good = True
        elif fn in proved:
            good = proved[fn] is ALL or (bhv is not None and bhv in proved[fn])
        else:
            good = False
        if good:
            seen += 1
        else:
            ok = False
            refused.add(f"{loc}:{line_no}: {rest} (function {fn}: not proved by WP"
                        f"{'' if fn not in proved else ' for this behaviour'} nor an assumed contract)")
    for r in sorted(refused):
        print("wp_postconditions: " + r, file=sys.stderr)
    print("yes" if ok and seen else "no")


main()
