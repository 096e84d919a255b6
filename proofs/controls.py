#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""controls.py -- the negative controls of `make prove`: the prover must catch what it claims to.

Each control copies src/ and include/, seeds one defect into the copy, and runs the obligations it
names on the copy's IR. The control passes only if every one of them fails *for the expected reason*:
a functional mutant must give a counterexample (the term differs from the spec's, and a concrete
input shows it), a constant-time violation must be reported as one. A seeded edit that no longer
matches the source is an error: the control is out of date, never silently skipped.

  controls.py NAME [--build DIR]   run one control (ctest prove.control.NAME)
  controls.py --list               the names
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

_CT_ANCHOR = "    aesni_load_enc_keys(&rk, sched);\n    ecb(&rk, in, out, nblocks, 0);"

# name: (file, old text, new text, obligations (PROVE_ONLY regex), expected reason)
CONTROLS = {
    # a changed round constant: AES-128's last Rcon, {36} -> {37} (aesni, vaes256, vaes512 share it)
    "rcon": ("src/x86_64/aesni.h", "0x80, 0x1b, 0x36};", "0x80, 0x1b, 0x37};",
             r"^aes\.(aesni|vaes512)\.expand_key\.k128$", "counterexample"),
    # a swapped shuffle mask: the inc32 counter's byte swap with bytes 12 and 13 exchanged
    "swap_mask": ("src/x86_64/aesni.h", "_mm_set_epi8(12, 13, 14, 15, 11,", "_mm_set_epi8(13, 12, 14, 15, 11,",
                  r"^aes\.aesni\.ctr32\.k128\.n3$", "counterexample"),
    # an off-by-one in a tail's block count: the VAES tail's last vector holds one block fewer
    "tail_off_by_one": ("src/x86_64/vaes_body.h", "int vv_last_ = (int)((r) - (vv_nv_ - 1) * VV_LANES);",
                        "int vv_last_ = (int)((r) - (vv_nv_ - 1) * VV_LANES) - 1;",
                        r"^aes\.(vaes256\.ecb_encrypt\.k128\.n4|vaes512\.ecb_encrypt\.k128\.n6)$", "counterexample"),
    # a counter increment on the wrong word: aesni's per-block counters step dword 2, not dword 3
    "counter_word_aesni": ("src/x86_64/aesni_aes.c", "big_endian ? _mm_set_epi32(i, 0, 0, 0)",
                           "big_endian ? _mm_set_epi32(0, i, 0, 0)", r"^aes\.aesni\.ctr32\.k128\.n2$",
                           "counterexample"),
    # the same in the VAES counter write-back
    "counter_word_vaes": ("src/x86_64/vaes_body.h", "big_endian ? _mm_set_epi32((int)(uint32_t)nblocks, 0, 0, 0)",
                          "big_endian ? _mm_set_epi32(0, (int)(uint32_t)nblocks, 0, 0)",
                          r"^aes\.(vaes256|vaes512)\.ctr32\.k128\.n2$", "counterexample"),
    # constant time: a branch on a key byte (round key 0 is the key)
    "ct_branch_on_key": ("src/x86_64/aesni_aes.c", _CT_ANCHOR,
                         "    if (((const uint8_t *)sched)[0] & 1) __asm__ volatile(\"\" ::: \"memory\");\n" + _CT_ANCHOR,
                         r"^aes\.aesni\.ecb_encrypt\.k128\.n1$", "constant time"),
    # constant time: a table look-up indexed by a data byte
    "ct_table_by_data": ("src/x86_64/aesni_aes.c", _CT_ANCHOR,
                         "    static const uint8_t vg_ct_table[256] = {1};\n"
                         "    { volatile uint8_t sink = vg_ct_table[in[0]]; (void)sink; }\n" + _CT_ANCHOR,
                         r"^aes\.aesni\.ecb_encrypt\.k128\.n1$", "constant time"),
    # constant time: a division by a secret
    "ct_division": ("src/x86_64/aesni_aes.c", _CT_ANCHOR,
                    "    { volatile uint32_t q = 1000u / ((uint32_t)in[0] | 1u); (void)q; }\n" + _CT_ANCHOR,
                    r"^aes\.aesni\.ecb_encrypt\.k128\.n1$", "constant time"),
}


def run(name, build):
    path, old, new, only, reason = CONTROLS[name]
    tree = os.path.join(build, "controls", name)
    shutil.rmtree(tree, ignore_errors=True)
    for d in ("src", "include"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(tree, d))
    target = os.path.join(tree, path)
    with open(target) as f:
        text = f.read()
    if text.count(old) != 1:
        print("control %s: the text to mutate occurs %d times in %s (the control is out of date)"
              % (name, text.count(old), path))
        return 2
    with open(target, "w") as f:
        f.write(text.replace(old, new))
    summary = os.path.join(tree, "summary.tsv")
    p = subprocess.run([sys.executable, os.path.join(HERE, "prove.py"), "--root", tree, "--build",
                        os.path.join(tree, "build"), "--only", only, "--summary", summary, "--jobs", "1",
                        "--ir-cache", os.path.join(build, "ir")],
                       capture_output=True, text=True)
    print(p.stdout[-4000:], end="")
    if not os.path.exists(summary + ".details"):
        print(p.stderr[-4000:], end="")
        print("control %s: the prover did not run to the end (exit %d)" % (name, p.returncode))
        return 2
    with open(summary + ".details") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    ok = bool(rows)
    for obname, res, detail in rows:
        caught = res == "failed" and (("counterexample" in detail) if reason == "counterexample"
                                      else detail.startswith("constant time"))
        print("control %s: %s %s (%s)" % (name, obname, "CAUGHT" if caught else "MISSED", detail or res))
        ok = ok and caught
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name", nargs="?")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--build", default=os.path.join(ROOT, "build-prove"))
    a = ap.parse_args()
    if a.list:
        print("\n".join(CONTROLS))
        return 0
    return run(a.name, a.build)


if __name__ == "__main__":
    sys.exit(main())
