# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""A minimal PEP 517 build backend for vg's Python package.

setuptools' own backend needs the `wheel` package to make a wheel; this one needs only setuptools:
it runs `setup.py build_ext` (which compiles vg's C sources into vg/_vg*.so, see setup.py), adds the
package's .py files, and writes the wheel (a zip with a .dist-info folder, PEP 427) with zipfile.
Only the hooks pip needs to install from a source directory are provided (build_wheel and its
requirements); no sdist.
"""

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))


def _version():
    # The same search as setup.py's (VG_SOURCE_DIR, else the parent of python/), with its message.
    root = os.path.abspath(os.environ.get("VG_SOURCE_DIR") or os.path.dirname(HERE))
    header = os.path.join(root, "include", "vg.h")
    if not os.path.isfile(header):
        raise RuntimeError("vg: cannot find vg's source tree (include/vg.h, src/, CMakeLists.txt) in %s; "
                           "set VG_SOURCE_DIR to the root of a vg checkout" % root)
    with open(header, encoding="utf-8") as f:
        return re.search(r'#define VG_VERSION_STRING "([^"]+)"', f.read()).group(1)


def _tag():
    impl = "cp" if sys.implementation.name == "cpython" else sys.implementation.name
    py = "%s%d%d" % (impl, sys.version_info[0], sys.version_info[1])
    plat = re.sub(r"[-.]", "_", sysconfig.get_platform())
    return "%s-%s-%s" % (py, py, plat)


def get_requires_for_build_wheel(config_settings=None):
    return []


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (arcname, digest, len(data))


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version = _version()
    tag = _tag()
    with tempfile.TemporaryDirectory(prefix="vg-build-") as tmp:
        lib = os.path.join(tmp, "lib")
        subprocess.run(
            [sys.executable, os.path.join(HERE, "setup.py"), "build_ext", "--build-lib", lib,
             "--build-temp", os.path.join(tmp, "obj")],
            cwd=HERE, check=True,
        )
        for name in sorted(os.listdir(os.path.join(HERE, "vg"))):
            if name.endswith(".py"):
                shutil.copy(os.path.join(HERE, "vg", name), os.path.join(lib, "vg", name))
        dist_info = "vg-%s.dist-info" % version
        files = {}
        for dirpath, _, names in os.walk(lib):
            for name in sorted(names):
                path = os.path.join(dirpath, name)
                with open(path, "rb") as f:
                    files[os.path.relpath(path, lib).replace(os.sep, "/")] = f.read()
        files[dist_info + "/METADATA"] = (
            "Metadata-Version: 2.1\nName: vg\nVersion: %s\n"
            "Summary: AES-GCM, AES-GCM-SIV and AES-CCM for Python over vg (cryptography-compatible API)\n"
            "License: Apache-2.0 OR BSD-3-Clause\nRequires-Python: >=3.9\n" % version
        ).encode()
        files[dist_info + "/WHEEL"] = (
            "Wheel-Version: 1.0\nGenerator: vg _vg_build\nRoot-Is-Purelib: false\nTag: %s\n" % tag
        ).encode()
        files[dist_info + "/top_level.txt"] = b"vg\n"
        record = [_record_line(n, d) for n, d in files.items()] + [dist_info + "/RECORD,,"]
        files[dist_info + "/RECORD"] = ("\n".join(record) + "\n").encode()
        wheel_name = "vg-%s-%s.whl" % (version, tag)
        with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as z:
            for name, data in files.items():
                z.writestr(name, data)
    return wheel_name
