# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""InvalidTag: cryptography's own class where cryptography is importable, so code written for
cryptography catches vg's failures unchanged; otherwise vg's, with the same name and base. Each
interpreter imports this module once, so a sub-interpreter that cannot import cryptography (PyO3
refuses every interpreter but the first) gets vg's own class, and _vg raises that one there.

ImplementationWarning: VG_IMPL named an implementation that this vg does not have or this CPU cannot
run, so it was ignored (vg/__init__.py issues it once, at import)."""

try:
    from cryptography.exceptions import InvalidTag
except ImportError:

    class InvalidTag(Exception):
        """The ciphertext, tag or associated data is not genuine (or the key or nonce is wrong)."""

        __module__ = "vg"


class ImplementationWarning(RuntimeWarning):
    """VG_IMPL was ignored: it names no implementation this vg has and this CPU can run."""

    __module__ = "vg"


__all__ = ["InvalidTag", "ImplementationWarning"]
