# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""vg: AES and the AES-based AEADs, constant time (Python binding over vg.h).

vg.aead has AESGCM, AESGCMSIV and AESCCM, drop-in replacements for the classes of the same names in
cryptography.hazmat.primitives.ciphers.aead. vg.implementation() names the implementation new keys
use (vg_impl_name); VG_IMPL in the environment chooses one before the first import. A VG_IMPL that
names no implementation this CPU can run is ignored, with a vg.ImplementationWarning (a
RuntimeWarning) at import.
"""

import warnings as _warnings

from vg import _vg
from vg._exceptions import ImplementationWarning, InvalidTag
from vg._vg import implementation, implementations, vg_version

__version__ = vg_version

# The library ignores a VG_IMPL it cannot honour and says so only when asked (vg_impl_env_status);
# a caller who set it should not believe that implementation runs.
if _vg.impl_env_ignored is not None:
    _warnings.warn(
        "VG_IMPL=%r is not an implementation this vg has and this CPU can run (available: %s); it is "
        "ignored and vg uses %r" % (_vg.impl_env_ignored, ", ".join(implementations()), implementation()),
        ImplementationWarning, stacklevel=2)

__all__ = ["InvalidTag", "ImplementationWarning", "implementation", "implementations", "__version__"]
