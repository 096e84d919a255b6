#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""Writes aes_192_gcm_siv.txt: AES-192-GCM-SIV records made by pyca/cryptography's AESGCMSIV.

RFC 8452 defines AES-GCM-SIV for 128- and 256-bit keys only; OpenSSL 3.2 adds AES-192-GCM-SIV, and
cryptography (48, bundling OpenSSL 4.0) exposes it. These records pin vg's 24-byte keys to that
implementation: vg's C tests read them (tests/vectors_gcm_siv.c), and the Python package's tests
compare with cryptography directly. The inputs come from a fixed seed, so running this again with the
same cryptography gives the same file.

    python3 tests/vectors/cryptography/make_aes_192_gcm_siv.py > tests/vectors/cryptography/aes_192_gcm_siv.txt
"""
import random

import cryptography
from cryptography.hazmat.primitives.ciphers.aead import AESGCMSIV

rng = random.Random(8452192)
cases = [(0, 0), (0, 1), (1, 0), (15, 13), (16, 16), (17, 0), (31, 5), (32, 32), (33, 47), (48, 0),
         (63, 64), (64, 13), (100, 20), (127, 3), (128, 128), (255, 0), (256, 300), (1000, 13),
         (1024, 0), (4096, 17), (4097, 1), (5000, 250), (16384, 13), (16385, 0)]
print("# AES-192-GCM-SIV, made by pyca/cryptography %s (AESGCMSIV, OpenSSL's AES-192-GCM-SIV)"
      % cryptography.__version__)
print("# with tests/vectors/cryptography/make_aes_192_gcm_siv.py (seed 8452192). Not an RFC 8452 vector:")
print("# RFC 8452 defines 128- and 256-bit keys only.")
for ptlen, adlen in cases:
    key = bytes(rng.getrandbits(8) for _ in range(24))
    nonce = bytes(rng.getrandbits(8) for _ in range(12))
    pt = bytes(rng.getrandbits(8) for _ in range(ptlen))
    ad = bytes(rng.getrandbits(8) for _ in range(adlen))
    sealed = AESGCMSIV(key).encrypt(nonce, pt, ad)
    print()
    print("KEY: " + key.hex())
    print("NONCE: " + nonce.hex())
    print("IN: " + pt.hex())
    print("AD: " + ad.hex())
    print("CT: " + sealed[:-16].hex())
    print("TAG: " + sealed[-16:].hex())
