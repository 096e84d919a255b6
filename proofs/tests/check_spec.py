#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""check_spec.py -- ctest prove.spec_transcription: the prover's spec (proofs/sym/spec_aes.py) against
spec/aes.c, run on the same random keys (all three sizes), blocks and counters (wraps of the 32-bit
counter included), byte for byte; and its GHASH and POLYVAL (proofs/sym/spec_gf.py, Horner's rule over
its field products) against spec/modes.c's on random keys and 0..5 blocks, with edge keys; and its GCM-AE
(proofs/sym/spec_gcm.py) against spec/modes.c's, with the true powers of H in random group sizes (the
aggregated form's paper step, checked on values); and its CCM (proofs/sym/spec_ccm.py) against
spec/modes.c's, every nonce length (so every q), every tag length, AAD and payload lengths on both
sides of a block; and its AES-GCM-SIV (proofs/sym/spec_siv.py) against spec/modes.c's seal (its open
checked to invert it), POLYVAL by the true powers of the derived H in random group sizes, and on RFC
8452's own vectors (tests/vectors/rfc8452)."""
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from sym import bits as B  # noqa: E402
from sym import spec_aes as S  # noqa: E402
from sym import spec_gf as F  # noqa: E402
from sym import spec_gcm as G  # noqa: E402
from sym import spec_ccm as C  # noqa: E402
from sym import spec_siv as V  # noqa: E402


def bits_of(bs):
    out = []
    for x in bs:
        out += B.const_bits(x, 8)
    return out


def hex_of(bits):
    v = B.const_value(bits)
    return bytes((v >> (8 * i)) & 0xff for i in range(len(bits) // 8)).hex()


def _groups(rnd, m, k):
    """A random split of m blocks into groups of at most k."""
    out = []
    while m:
        r = rnd.randint(1, min(k, m))
        out.append(r)
        m -= r
    return out


def _gcm(rnd, key, nonce, aad, data):
    """spec_gcm.gcm on concrete bits, the powers H^1..H^8 of the key's H, J0's and S's GHASH in random
    group sizes (S's last one sometimes 9): ciphertext and tag in hex, as spec_aes_run prints them."""
    w, nr = S.key_expansion(bits_of(key), len(key))
    h = S.cipher(w, nr, [B.ZERO] * 128)
    memo = {}
    powers = [F.power(F.ghash_mul, h, j, memo) for j in range(1, 9)]
    jg = _groups(rnd, (len(nonce) + 15) // 16 + 1, 8) if len(nonce) != 12 else []
    m = (len(aad) + 15) // 16 + (len(data) + 15) // 16 + 1
    sg = _groups(rnd, m, 8)
    if m >= 9 and rnd.getrandbits(1):
        # a last group of 9, one past the table (H^9 made as H^8 H), as VAES's whole-groups seal does
        sg = _groups(rnd, m - 9, 8) + [9]
    out, tag = G.gcm(bits_of(key), len(key), bits_of(nonce), bits_of(aad), bits_of(data), powers, jg, sg)
    return (hex_of(out) if data else "") + " " + hex_of(tag)


def _siv(rnd, key, nonce, aad, data):
    """spec_siv.siv on concrete bits with the powers H^1..H^8 of the derived H (dot-powers, RFC 8452
    §3) and POLYVAL in random group sizes: ciphertext and tag in hex. The open of the result is
    checked on the way: it must give the plaintext back and expect the same tag."""
    h, _ = V.derive_keys(bits_of(key), len(key), bits_of(nonce))
    memo = {}
    powers = [F.power(F.dot, h, j, memo) for j in range(1, 9)]
    sg = _groups(rnd, (len(aad) + 15) // 16 + (len(data) + 15) // 16 + 1, 8)
    out, tag = V.siv(bits_of(key), len(key), bits_of(nonce), bits_of(aad), bits_of(data), powers, sg)
    back, again = V.siv(bits_of(key), len(key), bits_of(nonce), bits_of(aad), out, powers, sg, decrypt=True,
                        tag=tag)
    if B.const_value(back) != B.const_value(bits_of(data)) or again != tag:
        return "open does not invert seal"
    return (hex_of(out) if data else "") + " " + hex_of(tag)


def _siv_vectors():
    """RFC 8452 Appendix C (and §8's example), tests/vectors/rfc8452: spec_siv on the vectors' keys,
    nonces, AAD and plaintexts with the true powers, all blocks in one group. Returns the mismatches."""
    root = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "vectors", "rfc8452")
    bad = n = 0
    for name in ("aes_128_gcm_siv.txt", "aes_256_gcm_siv.txt"):
        cur = {}
        with open(os.path.join(root, name)) as f:
            lines = f.read().split("\n") + [""]
        for line in lines:
            if ":" in line and not line.startswith("#"):
                k, v = line.split(":", 1)
                v = v.strip()
                cur[k] = v[1:-1].encode() if v.startswith('"') else bytes.fromhex(v)
                continue
            if line.strip() or "TAG" not in cur:
                continue
            key, nonce, pt, ad = cur["KEY"], cur["NONCE"], cur["IN"], cur["AD"]
            h, _ = V.derive_keys(bits_of(key), len(key), bits_of(nonce))
            m = (len(ad) + 15) // 16 + (len(pt) + 15) // 16 + 1
            memo = {}
            powers = [F.power(F.dot, h, j, memo) for j in range(1, m + 1)]
            out, tag = V.siv(bits_of(key), len(key), bits_of(nonce), bits_of(ad), bits_of(pt), powers, [m])
            n += 1
            if (hex_of(out) if pt else "") != cur["CT"].hex() or hex_of(tag) != cur["TAG"].hex():
                bad += 1
                print("MISMATCH rfc8452 %s key=%s nonce=%s" % (name, key.hex(), nonce.hex()))
            cur = {}
    print("check_spec: %d RFC 8452 vectors, %d mismatches" % (n, bad))
    return bad if n else 1


def main():
    exe = sys.argv[1]
    rnd = random.Random(197)
    cases = []
    for t in range(int(sys.argv[2]) if len(sys.argv) > 2 else 30):
        kl = (16, 24, 32)[t % 3]
        key = bytes(rnd.getrandbits(8) for _ in range(kl))
        n = rnd.randrange(0, 4)
        data = bytes(rnd.getrandbits(8) for _ in range(16 * n))
        ctr = bytearray(rnd.getrandbits(8) for _ in range(16))
        if t % 4 == 0:
            ctr[12:16] = b"\xff\xff\xff" + bytes([0xff - rnd.randrange(3)])  # wraps within the message
        cases.append(("enc", key, data, None))
        cases.append(("dec", key, data, None))
        cases.append(("ctr", key, data, bytes(ctr)))
        # GHASH and POLYVAL with H as the key; H = 1 (each field's), all ones and x^127 among them
        h = bytes(rnd.getrandbits(8) for _ in range(16))
        if t < 6:
            h = [b"\x80" + bytes(15), b"\x01" + bytes(15), b"\xff" * 16, bytes(15) + b"\x01",
                 bytes(15) + b"\x80", bytes(16)][t]
        cases.append(("ghash", h, data + bytes(rnd.getrandbits(8) for _ in range(16 * (t % 3))), None))
        cases.append(("polyval", h, data, None))
    # GCM-AE: nonces of 12 bytes and of others (J0 by GHASH), partial blocks, empty AAD and data
    for t in range(12):
        kl = (16, 24, 32)[t % 3]
        key = bytes(rnd.getrandbits(8) for _ in range(kl))
        nonce = bytes(rnd.getrandbits(8) for _ in range((12, 12, 1, 16, 17, 60)[t % 6]))
        aad = bytes(rnd.getrandbits(8) for _ in range(rnd.choice((0, 1, 13, 16, 40))))
        data = bytes(rnd.getrandbits(8) for _ in range(rnd.choice((0, 5, 16, 33, 100))))
        cases.append(("gcm", key, data, (nonce, aad)))
    # CCM: nonces of 7..13 bytes (q = 8..2), tags of 4..16 bytes
    for t in range(14):
        kl = (16, 24, 32)[t % 3]
        key = bytes(rnd.getrandbits(8) for _ in range(kl))
        nonce = bytes(rnd.getrandbits(8) for _ in range(7 + t % 7))
        aad = bytes(rnd.getrandbits(8) for _ in range(rnd.choice((0, 1, 14, 15, 40))))
        data = bytes(rnd.getrandbits(8) for _ in range(rnd.choice((0, 5, 16, 33, 100))))
        cases.append(("ccm", key, data, (nonce, aad, 4 + 2 * (t % 7))))
    # AES-GCM-SIV: every key size (24 bytes: the extension), partial blocks, empty AAD and data
    for t in range(12):
        kl = (16, 24, 32)[t % 3]
        key = bytes(rnd.getrandbits(8) for _ in range(kl))
        nonce = bytes(rnd.getrandbits(8) for _ in range(12))
        aad = bytes(rnd.getrandbits(8) for _ in range(rnd.choice((0, 1, 13, 16, 40))))
        data = bytes(rnd.getrandbits(8) for _ in range(rnd.choice((0, 5, 16, 33, 100))))
        cases.append(("siv", key, data, (nonce, aad)))
    # "-" stands for an empty input (zero blocks)
    text = "".join(("%s %s %s %s %s\n" % (op, k.hex(), c[0].hex(), c[1].hex() or "-", d.hex() or "-"))
                   if op in ("gcm", "siv")
                   else ("ccm %s %s %s %s %d\n" % (k.hex(), c[0].hex(), c[1].hex() or "-", d.hex() or "-", c[2]))
                   if op == "ccm"
                   else "%s %s %s%s\n" % (op, k.hex(), d.hex() if d else "-", (" " + c.hex()) if c else "")
                   for op, k, d, c in cases)
    out = subprocess.run([exe], input=text, capture_output=True, text=True, check=True)
    lines = out.stdout.split("\n")
    bad = 0
    for (op, k, d, c), line in zip(cases, lines):
        n = len(d) // 16
        if op == "gcm":
            mine = _gcm(rnd, k, c[0], c[1], d)
        elif op == "siv":
            mine = _siv(rnd, k, c[0], c[1], d)
        elif op == "ccm":
            o, tag = C.ccm(bits_of(k), len(k), bits_of(c[0]), bits_of(c[1]), bits_of(d), c[2])
            mine = (hex_of(o) if d else "") + " " + hex_of(tag)
        elif op in ("ghash", "polyval"):
            mul = F.ghash_mul if op == "ghash" else F.dot
            blocks = [bits_of(d[16 * i:16 * (i + 1)]) for i in range(n)]
            mine = hex_of(F.horner(mul, [B.ZERO] * 128, blocks, bits_of(k)))
        elif op == "ctr":
            o, cc = S.ctr32(bits_of(k), len(k), bits_of(c), bits_of(d), n)
            mine = (hex_of(o) if n else "") + " " + hex_of(cc)
        else:
            mine = hex_of(S.ecb(bits_of(k), len(k), bits_of(d), n, op == "dec")) if n else ""
        if mine.strip() != line.strip():
            bad += 1
            print("MISMATCH %s key=%s: transcription %s, spec/aes.c %s" % (op, k.hex(), mine, line))
    print("check_spec: %d cases, %d mismatches" % (len(cases), bad))
    bad += _siv_vectors()
    return 1 if bad or len(lines) < len(cases) else 0


if __name__ == "__main__":
    sys.exit(main())
