# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""InvalidTag: cryptography's own class where cryptography is importable, so code written for
cryptography catches vg's failures unchanged; otherwise vg's, with the same name and base."""

try:
    from cryptography.exceptions import InvalidTag
except ImportError:

    class InvalidTag(Exception):
        """The ciphertext, tag or associated data is not genuine (or the key or nonce is wrong)."""

        __module__ = "vg"

__all__ = ["InvalidTag"]
