#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""Builds the seed corpora fuzz/corpus/<target>/ from the vector files in tests/vectors.

Each seed is a fuzz input in the layout its target documents at the top of its .c file, holding the
key, nonce, AAD and message of a known-answer vector (Wycheproof for the AEADs, the NIST CAVP KAT files
for AES), so the fuzzer starts from inputs that reach every length class and path the vectors reach.
Deterministic: running it again gives the same files. Usage: fuzz/make_corpus.py [REPO_ROOT]
"""
import hashlib
import json
import os
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
VEC = os.path.join(ROOT, "tests", "vectors")
OUT = os.path.join(ROOT, "fuzz", "corpus")
MAX_MSG, MAX_AAD = 1100, 300  # FZ_MAX_MSG, FZ_MAX_AAD in fuzz_common.h
PER_TARGET = 12
GCM_TAGS = [16, 15, 14, 13, 12, 8, 4]


def u16(n):
    return bytes([(n >> 8) & 0xFF, n & 0xFF])


def wycheproof(name):
    with open(os.path.join(VEC, "wycheproof", name)) as f:
        doc = json.load(f)
    for g in doc["testGroups"]:
        for t in g["tests"]:
            if t["result"] != "valid":
                continue
            v = {k: bytes.fromhex(t[k]) for k in ("key", "iv", "aad", "msg", "tag")}
            if len(v["aad"]) <= MAX_AAD and len(v["msg"]) <= MAX_MSG:
                yield v


def spread(items, n):
    """n items spread evenly over the list (so different groups: key, nonce and tag sizes)."""
    items = list(items)
    if len(items) <= n:
        return items
    return [items[i * len(items) // n] for i in range(n)]


def write(target, seeds):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    for old in os.listdir(d):
        os.remove(os.path.join(d, old))
    for s in seeds:
        with open(os.path.join(d, hashlib.sha1(s).hexdigest()), "wb") as f:
            f.write(s)
    print(f"{target}: {len(seeds)} seeds")


def key_index(key):
    return {16: 0, 24: 1, 32: 2}[len(key)]


def aes_seeds():
    seeds = []
    for i, (fname, bits) in enumerate([("ECBVarKey128.rsp", 128), ("ECBVarTxt192.rsp", 192),
                                       ("ECBGFSbox256.rsp", 256), ("ECBKeySbox128.rsp", 128)]):
        key = pt = None
        count = 0
        with open(os.path.join(VEC, "nist-cavp", "aes-kat", fname)) as f:
            for line in f:
                line = line.strip()
                if line.startswith("KEY ="):
                    key = bytes.fromhex(line.split("=")[1].strip())
                elif line.startswith("PLAINTEXT ="):
                    pt = bytes.fromhex(line.split("=")[1].strip())
                    # Data of 1, 9 and 33 blocks plus a tail; the counter near the wrap for odd ones.
                    nblk = [1, 9, 33][count % 3]
                    w = 1 + 2 * (count % 8) if count % 2 == 0 else 0
                    data = (pt * nblk) + pt[: count % 16]
                    seeds.append(bytes([key_index(key) | (0x80 if count % 4 == 0 else 0)]) + key + pt
                                 + bytes([w]) + bytes([0x12, 0x34, 0x56, count & 0xFF]) + data)
                    count += 1
                    if count == 3:
                        break
    return seeds


def gcm_seeds():
    seeds = []
    for i, v in enumerate(spread(wycheproof("aes_gcm_test.json"), PER_TARGET)):
        if not 1 <= len(v["iv"]) <= 64 or len(v["tag"]) not in GCM_TAGS:
            continue
        tb = GCM_TAGS.index(len(v["tag"])) | (0x80 | (3 << 3) if i % 3 == 0 else 0)
        seeds.append(bytes([key_index(v["key"]) | (0x80 if i % 3 == 0 else 0)]) + v["key"]
                     + bytes([len(v["iv"]) - 1]) + v["iv"] + bytes([tb]) + u16(len(v["aad"]))
                     + bytes([i % 4]) + u16(7 * i) + bytes([0x40 + i]) + bytes([i, 1, 2, 3])
                     + v["aad"] + v["msg"])
    return seeds


def gcm_siv_seeds():
    seeds = []
    for i, v in enumerate(spread(wycheproof("aes_gcm_siv_test.json"), PER_TARGET)):
        if len(v["key"]) not in (16, 32) or len(v["iv"]) != 12:
            continue
        kb = (1 if len(v["key"]) == 32 else 0) | (0x80 if i % 3 == 0 else 0)
        seeds.append(bytes([kb]) + v["key"] + v["iv"] + bytes([11, 17]) + u16(len(v["aad"]))
                     + bytes([i % 4]) + u16(5 * i) + bytes([0x80 + i]) + v["aad"] + v["msg"])
    return seeds


def ccm_seeds():
    seeds = []
    for i, v in enumerate(spread(wycheproof("aes_ccm_test.json"), PER_TARGET)):
        if not 7 <= len(v["iv"]) <= 13 or len(v["tag"]) not in range(4, 17, 2):
            continue
        kb = key_index(v["key"]) | (0x80 if i % 3 == 0 else 0)
        seeds.append(bytes([kb]) + v["key"] + bytes([len(v["iv"]) - 7]) + v["iv"]
                     + bytes([(len(v["tag"]) - 4) // 2, 0x20 | 5, 6]) + u16(len(v["aad"]))
                     + bytes([i % 4]) + u16(3 * i) + bytes([0x10 + i]) + v["aad"] + v["msg"])
    return seeds


def openssl_seeds():
    seeds = []
    gcm = [v for v in spread(wycheproof("aes_gcm_test.json"), PER_TARGET // 2)
           if 1 <= len(v["iv"]) <= 64 and len(v["tag"]) in GCM_TAGS]
    ccm = [v for v in spread(wycheproof("aes_ccm_test.json"), PER_TARGET // 2)
           if 7 <= len(v["iv"]) <= 13 and len(v["tag"]) in range(4, 17, 2)]
    for i, v in enumerate(gcm + ccm):
        is_ccm = i >= len(gcm)
        nb = len(v["iv"]) - (7 if is_ccm else 1)
        tb = (len(v["tag"]) - 4) // 2 if is_ccm else GCM_TAGS.index(len(v["tag"]))
        seeds.append(bytes([(key_index(v["key"]) << 1) | int(is_ccm)]) + v["key"] + bytes([nb]) + v["iv"]
                     + bytes([tb]) + u16(len(v["aad"])) + u16(i) + bytes([0x21 + i]) + v["aad"] + v["msg"])
    return seeds


if __name__ == "__main__":
    write("fuzz_aes", aes_seeds())
    write("fuzz_gcm", gcm_seeds())
    write("fuzz_gcm_siv", gcm_siv_seeds())
    write("fuzz_ccm", ccm_seeds())
    write("fuzz_openssl", openssl_seeds())
