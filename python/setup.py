# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""Builds vg.aead with vg compiled in (static: the installed package needs no libvg.so).

Supported commands (docs/python.md):
    pip install ./python --no-build-isolation              (from a vg checkout)
    pip install ./python --no-build-isolation --target DIR
    VG_SOURCE_DIR=/path/to/vg pip install /elsewhere/python --no-build-isolation

vg's C sources are found through the VG_SOURCE_DIR environment variable, else in the parent of this
directory (the checkout pip builds in place). The list of sources is read from vg's CMakeLists.txt
(VG_SOURCES, plus src/<arch>/*.c as CMake globs them), so the two builds cannot drift apart. Only
x86-64 (and the portable-only architectures CMake knows no folder for) is supported here; other
architectures build the binding with CMake (-DVG_PYTHON=ON).
"""

import glob
import os
import platform
import re
import sys

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))


def vg_source_dir():
    candidates = []
    if os.environ.get("VG_SOURCE_DIR"):
        candidates.append(os.environ["VG_SOURCE_DIR"])
    else:
        candidates.append(os.path.dirname(HERE))
    for d in candidates:
        d = os.path.abspath(d)
        if os.path.isfile(os.path.join(d, "include", "vg.h")) and os.path.isfile(os.path.join(d, "CMakeLists.txt")):
            return d
    sys.exit(
        "vg: cannot find vg's source tree (include/vg.h, src/, CMakeLists.txt) in %s; set VG_SOURCE_DIR "
        "to the root of a vg checkout" % ", ".join(os.path.abspath(c) for c in candidates)
    )


def vg_sources(root):
    """VG_SOURCES as CMakeLists.txt lists them, with ${VG_ARCH_SOURCES} expanded as CMake does."""
    with open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8") as f:
        cmake = f.read()
    m = re.search(r"set\(VG_SOURCES\s+(.*?)\)", cmake, re.S)
    if not m:
        sys.exit("vg: no set(VG_SOURCES ...) in %s/CMakeLists.txt" % root)
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64"):
        arch = "x86_64"
    elif machine in ("aarch64", "arm64", "ppc64le", "powerpc64le"):
        sys.exit("vg: setup.py builds x86-64 only; on %s build the binding with CMake (-DVG_PYTHON=ON)" % machine)
    else:
        arch = None
    sources = []
    for item in m.group(1).split():
        if item == "${VG_ARCH_SOURCES}":
            if arch:
                sources += sorted(glob.glob(os.path.join(root, "src", arch, "*.c")))
        elif item.startswith("src/") and item.endswith(".c"):
            sources.append(os.path.join(root, item))
        else:
            sys.exit("vg: unexpected entry %r in VG_SOURCES; update python/setup.py" % item)
    return sources


def relative(paths):
    # setuptools wants source paths relative to setup.py where they can be; absolute ones work too.
    return [os.path.relpath(p, HERE) if os.path.commonpath([p, HERE]) == HERE else p for p in paths]


def version(root):
    with open(os.path.join(root, "include", "vg.h"), encoding="utf-8") as f:
        return re.search(r'#define VG_VERSION_STRING "([^"]+)"', f.read()).group(1)


root = vg_source_dir()
ext = Extension(
    "vg._vg",
    sources=["_vgmodule.c"] + relative(vg_sources(root)),
    # src/ is on the include path for vg's own sources (as CMake's PRIVATE src); _vgmodule.c includes
    # vg.h and nothing else of vg's.
    include_dirs=[os.path.join(root, "include"), os.path.join(root, "src")],
    # VG_HAVE_SECURE_GETENV as CMake's check_symbol_exists finds it on glibc (only src/impl.c reads it).
    define_macros=[("VG_HAVE_SECURE_GETENV", "1")] if sys.platform.startswith("linux") else [],
    extra_compile_args=["-std=c11", "-O2", "-fvisibility=hidden"],
    extra_link_args=["-Wl,--version-script=" + os.path.join(HERE, "_vg.map")],
)

setup(
    name="vg",
    version=version(root),
    description="AES-GCM, AES-GCM-SIV and AES-CCM for Python over vg (cryptography-compatible API)",
    license="Apache-2.0 OR BSD-3-Clause",
    packages=["vg"],
    ext_modules=[ext],
    python_requires=">=3.9",
    zip_safe=False,
)
