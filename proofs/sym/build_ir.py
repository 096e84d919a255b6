# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""build_ir.py -- the object of the proofs: clang's LLVM IR of the library's own sources, compiled with
a Release build's flags (CMakeLists.txt: -O3 -DNDEBUG, C11, PIC, hidden visibility; the ISA of each
x86-64 kernel comes from its functions' target attributes, as in the library), linked into one
module with llvm-link, parsed once and cached by the hash of the sources and flags."""
import concurrent.futures
import glob
import hashlib
import os
import pickle
import re
import subprocess

from . import ir

CLANG = os.environ.get("VG_PROVE_CLANG", "clang-14")
LINK = os.environ.get("VG_PROVE_LLVM_LINK", "llvm-link-14")
# VG_PROVE_IR: the one difference from the library's build, the declassification point as a call
# (src/internal.h vg_declassify), which the machine handles (exec.py, declassify)
FLAGS = ["-O3", "-DNDEBUG", "-std=c11", "-fPIC", "-fvisibility=hidden", "-DVG_HAVE_SECURE_GETENV=1", "-DVG_PROVE_IR=1",
         "-Wall", "-Wextra", "-Werror", "-Wno-unused-command-line-argument"]
# Targets other than the host's x86-64: clang's --target and the cross sysroot's C headers
# (scripts/install-deps.sh installs them). x86-64 adds nothing.
TARGETS = {"aarch64": ["--target=aarch64-linux-gnu", "-isystem", "/usr/aarch64-linux-gnu/include"],
           "ppc64le": ["--target=powerpc64le-linux-gnu", "-isystem", "/usr/powerpc64le-linux-gnu/include"]}

# Variants of an architecture's IR: the same sources with one more definition. x86_64-noint128 is the
# portable GHASH of 32-bit targets (src/portable/ghash_ctmul.c without unsigned __int128: 32 x 32 -> 64
# products and a Karatsuba step), which no 64-bit build compiles, proved in the x86-64 IR.
VARIANTS = {"x86_64-noint128": ("x86_64", ["-DVG_GHASH_NO_INT128=1"])}


def _base(arch):
    """(the architecture whose sources and flags a variant takes, its extra flags)."""
    return VARIANTS.get(arch, (arch, []))


def file_flags(root, arch, src):
    """The per-file flags of the library's CMake build for arch's sources: aarch64's -march options are
    read from src/aarch64/aarch64.cmake's set_source_files_properties(... COMPILE_OPTIONS "..."), the
    file the build itself includes, so the IR is compiled as the library is. x86-64: none (its ISA
    comes from target attributes). A variant adds its definitions."""
    arch, extra = _base(arch)
    if arch != "aarch64":
        return list(extra)
    with open(os.path.join(root, "src", "aarch64", "aarch64.cmake")) as f:
        text = f.read()
    for files, opts in re.findall(r"set_source_files_properties\(([^)]*?)PROPERTIES\s+COMPILE_OPTIONS\s+\"([^\"]*)\"",
                                  text):
        if "${CMAKE_CURRENT_SOURCE_DIR}/" + src in files.split():
            return opts.split(";")
    return list(extra)


def sources(root, arch="x86_64"):
    common = ["src/util.c", "src/impl.c", "src/modes/aes.c", "src/modes/ctr.c", "src/modes/gcm.c",
              "src/modes/gcm_siv.c", "src/modes/ccm.c", "src/portable/portable_impl.c",
              "src/portable/aes_bitsliced.c", "src/portable/ghash_ctmul.c"]
    arch = _base(arch)[0]
    return common + sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "src", arch, "*.c")))


def module(root, outdir, arch="x86_64", ir_cache=None):
    """Parse (or load from the cache) the linked IR of the sources under root."""
    srcs = sources(root, arch)
    h = hashlib.sha256()
    h.update(" ".join(FLAGS + TARGETS.get(_base(arch)[0], []) + [CLANG, arch, str(ir.__file__)]).encode())
    with open(ir.__file__, "rb") as f:
        h.update(f.read())
    for s in srcs:
        h.update(s.encode())
        h.update(" ".join(file_flags(root, arch, s)).encode())
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
    # each file's IR is cached by its text and the text of every project header it includes (the list
    # clang -MD wrote at its last compile): a negative control, which changes one file, recompiles only
    # what includes it. A change to the include graph starts in a file already hashed, so a stale
    # list cannot hide it.
    cache_dir = ir_cache or outdir
    os.makedirs(cache_dir, exist_ok=True)
    def one(s):
        extra = TARGETS.get(_base(arch)[0], []) + file_flags(root, arch, s)
        flags_hash = hashlib.sha256(" ".join(FLAGS + extra + [CLANG, arch]).encode()).hexdigest()
        name = s.replace("/", "_")
        # each architecture its own list of headers (a common source includes other ones per target)
        deps_file = os.path.join(cache_dir, name + ("" if arch == "x86_64" else "." + arch) + ".deps")
        out = None
        if os.path.exists(deps_file):
            with open(deps_file) as f:
                deps = f.read().split()
            out = os.path.join(cache_dir, "%s-%s.ll" % (name, _file_key(root, s, deps, flags_hash)))
        if out is None or not os.path.exists(out):
            tmp = os.path.join(cache_dir, "%s.tmp%d" % (name, os.getpid()))
            subprocess.run([CLANG] + FLAGS + extra + ["-I", os.path.join(root, "include"), "-I",
                                                      os.path.join(root, "src"), "-MD", "-MF", tmp + ".d", "-S",
                                                      "-emit-llvm", os.path.join(root, s), "-o", tmp], check=True)
            deps = _project_deps(root, tmp + ".d", s)
            os.remove(tmp + ".d")
            with open(deps_file + ".tmp%d" % os.getpid(), "w") as f:
                f.write("\n".join(deps) + "\n")
            os.replace(deps_file + ".tmp%d" % os.getpid(), deps_file)
            out = os.path.join(cache_dir, "%s-%s.ll" % (name, _file_key(root, s, deps, flags_hash)))
            os.replace(tmp, out)
        return out

    # the compiles are independent processes: JOBS of them at a time (threads only wait on them)
    with concurrent.futures.ThreadPoolExecutor(max(1, int(os.environ.get("JOBS", "2")))) as pool:
        lls = list(pool.map(one, srcs))
    linked = os.path.join(outdir, "vg-%s.ll" % arch)
    subprocess.run([LINK, "-S", "-o", linked] + lls, check=True)
    with open(linked) as f:
        m = ir.parse_module(f.read())
    for old in glob.glob(os.path.join(outdir, "module-%s-*.pickle" % arch)):
        os.remove(old)
    with open(cache, "wb") as f:
        pickle.dump(m, f)
    return m


def _project_deps(root, dfile, src):
    """The project headers (under root, relative paths) in clang's dependency file."""
    with open(dfile) as f:
        text = f.read().replace("\\\n", " ")
    deps = set()
    for tok in text.split(":", 1)[1].split():
        p = os.path.realpath(tok if os.path.isabs(tok) else os.path.join(root, tok))
        rel = os.path.relpath(p, os.path.realpath(root))
        if not rel.startswith("..") and rel != src:
            deps.add(rel)
    return sorted(deps)


def _file_key(root, src, deps, flags_hash):
    h = hashlib.sha256(flags_hash.encode())
    for rel in [src] + deps:
        h.update(rel.encode())
        with open(os.path.join(root, rel), "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]
