# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""What the test modules share: where the vectors are, quick mode, cryptography if importable, and
the exact ValueError/OverflowError messages cryptography 48 gives (probed from it)."""

import os
import sys

QUICK = bool(os.environ.get("VG_PY_QUICK"))

VECTORS = os.environ.get("VG_TEST_VECTORS") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "vectors")

# The differential tests compare with cryptography 48, the version whose behaviour vg.aead copies;
# another version (or none) skips them, with the reason.
try:
    import cryptography
    from cryptography.hazmat.primitives.ciphers import aead as crypto_aead
    CRYPTOGRAPHY_VERSION = cryptography.__version__
    HAVE_CRYPTOGRAPHY = CRYPTOGRAPHY_VERSION.split(".")[0] == "48"
    CRYPTOGRAPHY_SKIP = "cryptography %s is not 48: differential tests skipped" % CRYPTOGRAPHY_VERSION
except ImportError:
    crypto_aead = None
    HAVE_CRYPTOGRAPHY = False
    CRYPTOGRAPHY_VERSION = None
    CRYPTOGRAPHY_SKIP = "cryptography is not importable: differential tests skipped"

from vg import aead  # noqa: E402
import vg._vg  # noqa: E402

GCM_SIV_192 = bool(vg._vg.gcm_siv_192)

KEY_ERROR = {
    "AESGCM": "AESGCM key must be 128, 192, or 256 bits.",
    "AESGCMSIV": "AES-GCM-SIV key must be 128, 192 or 256 bits.",
    "AESCCM": "AESCCM key must be 128, 192, or 256 bits.",
}
NONCE_ERROR = {
    "AESGCM": "Nonce must be between 8 and 128 bytes",
    "AESGCMSIV": "Nonce must be 12 bytes long",
    "AESCCM": "Nonce must be between 7 and 13 bytes",
}
NONCE_LENGTHS = {
    "AESGCM": range(8, 129),
    "AESGCMSIV": (12,),
    "AESCCM": range(7, 14),
}
TOO_LONG = "Data or associated data too long. Max 2**31 - 1 bytes"
CCM_TOO_LONG = "Data too long for nonce"
TAG_LENGTH_ERROR = "Invalid tag_length"
BIT_LENGTH_ERROR = "bit_length must be 128, 192, or 256"
SIV_192_ERROR = "AES-192-GCM-SIV is not supported by this vg build yet"

CLASSES = (aead.AESGCM, aead.AESGCMSIV, aead.AESCCM)


def key_sizes(name):
    if name == "AESGCMSIV" and not GCM_SIV_192:
        return (16, 32)
    return (16, 24, 32)


def big_mapping(test, size=2 ** 31):
    """A 2 GiB anonymous mapping for the length limits, never touched (both libraries refuse it before
    reading a byte). A machine that will not map that much reports the test as skipped."""
    import mmap
    try:
        m = mmap.mmap(-1, size)
    except (OSError, MemoryError, OverflowError) as e:
        test.skipTest("cannot map %d bytes: %s" % (size, e))
    test.addCleanup(m.close)
    return m


def log(*args):
    print(*args, file=sys.stderr, flush=True)
