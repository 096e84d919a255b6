# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""AES-GCM, AES-GCM-SIV and AES-CCM with the API of cryptography.hazmat.primitives.ciphers.aead.

The classes are the C extension's types themselves (no Python wrapper on the hot path). The
differences from cryptography 48 are listed in docs/python.md.
"""

from vg._exceptions import InvalidTag
from vg._vg import AESCCM, AESGCM, AESGCMSIV

__all__ = ["AESGCM", "AESGCMSIV", "AESCCM", "InvalidTag"]
