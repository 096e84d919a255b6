# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""vg: AES and the AES-based AEADs, constant time (Python binding over vg.h).

vg.aead has AESGCM, AESGCMSIV and AESCCM, drop-in replacements for the classes of the same names in
cryptography.hazmat.primitives.ciphers.aead. vg.implementation() names the implementation new keys
use (vg_impl_name); VG_IMPL in the environment chooses one before the first import.
"""

from vg._exceptions import InvalidTag
from vg._vg import implementation, implementations, vg_version

__version__ = vg_version

__all__ = ["InvalidTag", "implementation", "implementations", "__version__"]
