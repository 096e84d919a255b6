# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""build_ir.py -- the object of the proofs: clang's LLVM IR of the library's own sources, compiled with
a Release build's flags (CMakeLists.txt: -O3 -DNDEBUG, C11, PIC, hidden visibility; the ISA of each
x86-64 kernel comes from its functions' target attributes, as in the library), linked into one
module with llvm-link, parsed once and cached by the hash of the sources and flags."""
import glob
import hashlib
import os
import pickle
import subprocess

from . import ir

CLANG = os.environ.get("VG_PROVE_CLANG", "clang-14")
LINK = os.environ.get("VG_PROVE_LLVM_LINK", "llvm-link-14")
FLAGS = ["-O3", "-DNDEBUG", "-std=c11", "-fPIC", "-fvisibility=hidden", "-DVG_HAVE_SECURE_GETENV=1",
         "-Wall", "-Wextra", "-Werror", "-Wno-unused-command-line-argument"]


def sources(root, arch="x86_64"):
    common = ["src/util.c", "src/impl.c", "src/modes/aes.c", "src/modes/ctr.c", "src/modes/gcm.c",
              "src/modes/gcm_siv.c", "src/modes/ccm.c", "src/portable/portable_impl.c",
              "src/portable/aes_bitsliced.c", "src/portable/ghash_ctmul.c"]
    return common + sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "src", arch, "*.c")))


def module(root, outdir, arch="x86_64", ir_cache=None):
    """Parse (or load from the cache) the linked IR of the sources under root."""
    srcs = sources(root, arch)
    h = hashlib.sha256()
    h.update(" ".join(FLAGS + [CLANG, arch, str(ir.__file__)]).encode())
    with open(ir.__file__, "rb") as f:
        h.update(f.read())
    for s in srcs:
        h.update(s.encode())
    for p in sorted(glob.glob(os.path.join(root, "src", "**", "*"), recursive=True)
                    + glob.glob(os.path.join(root, "include", "*.h"))):
        if os.path.isfile(p):
            with open(p, "rb") as f:
                h.update(p[len(root):].encode())
                h.update(f.read())
    key = h.hexdigest()[:16]
    os.makedirs(outdir, exist_ok=True)
    cache = os.path.join(outdir, "module-%s-%s.pickle" % (arch, key))
    if os.path.exists(cache):
        with open(cache, "rb") as f:
            return pickle.load(f)
    # each file's IR is cached by its own text and every header's (the negative controls, which change
    # one file, then recompile only what the change can reach)
    hh = hashlib.sha256(" ".join(FLAGS + [CLANG, arch]).encode())
    for p in sorted(glob.glob(os.path.join(root, "src", "**", "*.h"), recursive=True)
                    + glob.glob(os.path.join(root, "src", "**", "*.inc"), recursive=True)
                    + glob.glob(os.path.join(root, "include", "*.h"))):
        with open(p, "rb") as f:
            hh.update(p[len(root):].encode())
            hh.update(f.read())
    cache_dir = ir_cache or outdir
    os.makedirs(cache_dir, exist_ok=True)
    lls = []
    for s in srcs:
        fh = hh.copy()
        with open(os.path.join(root, s), "rb") as f:
            fh.update(s.encode())
            fh.update(f.read())
        out = os.path.join(cache_dir, "%s-%s.ll" % (s.replace("/", "_"), fh.hexdigest()[:16]))
        if not os.path.exists(out):
            tmp = out + ".tmp%d" % os.getpid()
            subprocess.run([CLANG] + FLAGS + ["-I", os.path.join(root, "include"), "-I", os.path.join(root, "src"),
                                              "-S", "-emit-llvm", os.path.join(root, s), "-o", tmp], check=True)
            os.replace(tmp, out)
        lls.append(out)
    linked = os.path.join(outdir, "vg-%s.ll" % arch)
    subprocess.run([LINK, "-S", "-o", linked] + lls, check=True)
    with open(linked) as f:
        m = ir.parse_module(f.read())
    for old in glob.glob(os.path.join(outdir, "module-%s-*.pickle" % arch)):
        os.remove(old)
    with open(cache, "wb") as f:
        pickle.dump(m, f)
    return m
