# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""vg.aead against cryptography 48, in one process: the same bytes for random keys, nonces, data and
AAD over every nonce and tag length each class allows, through every method and buffer kind; the same
exception type and message for every error case; the same results from several threads at once.
Skipped (reported as skipped) where cryptography cannot be imported."""

import os
import random
import threading
import unittest

import vg._vg
from _support import (CLASSES, CRYPTOGRAPHY_SKIP, GCM_SIV_192, HAVE_CRYPTOGRAPHY, NONCE_LENGTHS, QUICK,
                      SIV_192_ERROR, aead, big_mapping, crypto_aead, key_sizes, log)

RANDOM_CASES = 60 if QUICK else 400


def twin(cls, key, *args):
    return cls(key, *args), getattr(crypto_aead, cls.__name__)(key, *args)


def outcome(call):
    """(result, None) or (None, (exception type, message)) of a call."""
    try:
        return call(), None
    except BaseException as e:  # noqa: B902 -- every exception is compared
        return None, (type(e), str(e))


@unittest.skipUnless(HAVE_CRYPTOGRAPHY, CRYPTOGRAPHY_SKIP)
class Differential(unittest.TestCase):
    def setUp(self):
        self.rng = random.Random(int.from_bytes(os.urandom(8), "little"))

    def rand(self, n):
        return self.rng.randbytes(n)

    def params(self, cls):
        """(key_size, nonce_len, tag_len) covering every nonce and tag length the class allows."""
        name = cls.__name__
        tags = (4, 6, 8, 10, 12, 14, 16) if cls is aead.AESCCM else (16,)
        combos = [(ks, nl, tl) for nl in NONCE_LENGTHS[name] for tl in tags for ks in key_sizes(name)]
        return combos

    def check_one(self, cls, key, nonce, data, aad, tag_len):
        extra = (tag_len,) if cls is aead.AESCCM else ()
        ours, theirs = twin(cls, key, *extra)
        ct = theirs.encrypt(nonce, data, aad)
        self.assertEqual(ours.encrypt(nonce, data, aad), ct)
        self.assertEqual(ours.decrypt(nonce, ct, aad), data)
        self.assertEqual(theirs.decrypt(nonce, ours.encrypt(nonce, data, aad), aad), data)
        # Other buffer types for every input.
        self.assertEqual(ours.encrypt(bytearray(nonce), memoryview(data), aad and bytearray(aad)), ct)
        self.assertEqual(ours.decrypt(memoryview(nonce), bytearray(ct), aad and memoryview(aad)), data)
        # *_into: bytearray, memoryview, and a slice of a larger buffer whose edges must stay as they were.
        for make in (bytearray, lambda n: memoryview(bytearray(n))):
            buf = make(len(ct))
            self.assertEqual(ours.encrypt_into(nonce, data, aad, buf), len(ct))
            self.assertEqual(bytes(buf), ct)
            buf = make(len(data))
            self.assertEqual(ours.decrypt_into(nonce, ct, aad, buf), len(data))
            self.assertEqual(bytes(buf), data)
        big = bytearray(b"\x5a" * (len(ct) + 40))
        self.assertEqual(ours.encrypt_into(nonce, data, aad, memoryview(big)[17:17 + len(ct)]), len(ct))
        self.assertEqual(bytes(big[17:17 + len(ct)]), ct)
        self.assertEqual(big[:17] + big[17 + len(ct):], b"\x5a" * 40)
        big = bytearray(b"\x5a" * (len(data) + 40))
        self.assertEqual(ours.decrypt_into(nonce, ct, aad, memoryview(big)[3:3 + len(data)]), len(data))
        self.assertEqual(bytes(big[3:3 + len(data)]), data)
        self.assertEqual(big[:3] + big[3 + len(data):], b"\x5a" * 40)
        # In place (data and buf at the same address) and partly overlapping: cryptography's answer.
        work = bytearray(data) + bytearray(tag_len)
        self.assertEqual(ours.encrypt_into(nonce, memoryview(work)[:len(data)], aad, work), len(ct))
        self.assertEqual(bytes(work), ct)
        work = bytearray(ct)
        self.assertEqual(ours.decrypt_into(nonce, work, aad, memoryview(work)[:len(data)]), len(data))
        self.assertEqual(bytes(work[:len(data)]), data)
        if data:
            shift = 1 + self.rng.randrange(min(len(data), 40))
            work = bytearray(shift) + bytearray(data) + bytearray(tag_len)
            src = bytes(work[shift:shift + len(data)])
            self.assertEqual(ours.encrypt_into(nonce, memoryview(work)[shift:shift + len(data)], aad,
                                               memoryview(work)[:len(ct)]), len(ct))
            self.assertEqual(bytes(work[:len(ct)]), theirs.encrypt(nonce, src, aad))
            work = bytearray(ct) + bytearray(shift)
            self.assertEqual(ours.decrypt_into(nonce, memoryview(work)[:len(ct)], aad,
                                               memoryview(work)[shift:shift + len(data)]), len(data))
            self.assertEqual(bytes(work[shift:shift + len(data)]), data)
        # A changed byte anywhere (ciphertext, tag, AAD, nonce) is refused by both.
        bad = bytearray(ct)
        bad[self.rng.randrange(len(bad))] ^= 1 << self.rng.randrange(8)
        for impl in (ours, theirs):
            with self.assertRaises(aead.InvalidTag):
                impl.decrypt(nonce, bytes(bad), aad)
        if aad:
            bad_aad = bytearray(aad)
            bad_aad[self.rng.randrange(len(aad))] ^= 0x80
            for impl in (ours, theirs):
                with self.assertRaises(aead.InvalidTag):
                    impl.decrypt(nonce, ct, bytes(bad_aad))

    def test_random(self):
        for cls in CLASSES:
            combos = self.params(cls)
            n = 0
            # Every (key size, nonce length, tag length) once with short random data and AAD ...
            for ks, nl, tl in combos:
                self.check_one(cls, self.rand(ks), self.rand(nl), self.rand(self.rng.randrange(70)),
                               self.rand(self.rng.randrange(40)) if self.rng.randrange(4) else None, tl)
                n += 1
            # ... then random cases with data 0..5000 and AAD 0..300 bytes (edges included).
            for i in range(RANDOM_CASES):
                ks, nl, tl = self.rng.choice(combos)
                dlen = (0, 1, 15, 16, 17, 2047, 2048, 5000)[i] if i < 8 else self.rng.randrange(5001)
                alen = self.rng.choice((0, 1, 300, self.rng.randrange(301)))
                aad = self.rand(alen) if alen or self.rng.randrange(2) else None
                self.check_one(cls, self.rand(ks), self.rand(nl), self.rand(dlen), aad, tl)
                n += 1
            # Both sides of the size from which the GIL is released (data + AAD).
            t = vg._vg.nogil_min_ccm if cls is aead.AESCCM else vg._vg.nogil_min_gcm
            for dlen, alen in ((t - 1, 0), (t, 0), (t - 17, 16), (t - 16, 16), (t + 1, 300)):
                ks, nl, tl = self.rng.choice(combos)
                self.check_one(cls, self.rand(ks), self.rand(nl), self.rand(dlen), self.rand(alen) or None, tl)
                n += 1
            log("  differential %-9s %d cases (%d parameter combinations)" % (cls.__name__, n, len(combos)))

    def test_gcm_siv_192(self):
        key = self.rand(24)
        if GCM_SIV_192:
            self.check_one(aead.AESGCMSIV, key, self.rand(12), self.rand(100), self.rand(10), 16)
        else:
            with self.assertRaises(NotImplementedError) as cm:
                aead.AESGCMSIV(key)
            self.assertEqual(str(cm.exception), SIV_192_ERROR)
            crypto_aead.AESGCMSIV(key)  # cryptography takes it: the one documented difference

    def error_cases(self, name):
        """(label, callable taking the module) pairs; each must fail (or pass) identically."""
        k = b"k" * 16
        n = {"AESGCM": b"n" * 12, "AESGCMSIV": b"n" * 12, "AESCCM": b"n" * 13}[name]
        cases = []

        def add(label, f):
            cases.append((label, f))

        for kv in (b"", b"x" * 15, b"x" * 17, b"x" * 33, b"x" * 64, "x" * 16, 16, None, 1.5,
                   memoryview(bytearray(32))[::2], memoryview(b"x" * 16).cast("I"), bytearray(b"x" * 20)):
            add("key %r" % (kv,), lambda m, kv=kv: getattr(m, name)(kv))
        add("no key", lambda m: getattr(m, name)())
        add("key kw", lambda m: getattr(m, name)(key=k))
        add("bad kw", lambda m: getattr(m, name)(k, bogus=1))
        if name != "AESCCM":
            add("2 args", lambda m: getattr(m, name)(k, 16))
        else:
            for tl in (-1, 0, 1, 2, 3, 5, 7, 9, 11, 13, 15, 17, 18, 32, 2 ** 70, "16", 16.0, True, None):
                add("tag_length %r" % (tl,), lambda m, tl=tl: m.AESCCM(k, tl))
            add("tag kw", lambda m: m.AESCCM(k, tag_length=8))
            add("bad key and bad tag", lambda m: m.AESCCM(b"x", 3))
            add("bad key and bad tag type", lambda m: m.AESCCM(b"x", "3"))
        for bl in (128, 192, 256, 0, 64, 129, 512, -1, 2 ** 70, "128", 128.0, None, True):
            add("generate_key %r" % (bl,), lambda m, bl=bl: len(getattr(m, name).generate_key(bl)))
        add("generate_key()", lambda m: getattr(m, name).generate_key())

        c = lambda m: getattr(m, name)(k)  # noqa: E731
        for nl in (0, 1, 6, 7, 8, 11, 12, 13, 14, 16, 64, 128, 129, 256):
            add("encrypt nonce %d" % nl, lambda m, nl=nl: c(m).encrypt(b"n" * nl, b"d", None))
            add("decrypt nonce %d" % nl, lambda m, nl=nl: c(m).decrypt(b"n" * nl, b"d" * 20, None))
            add("encrypt_into nonce %d" % nl, lambda m, nl=nl: c(m).encrypt_into(b"n" * nl, b"d", None, bytearray(17)))
            add("decrypt_into nonce %d" % nl, lambda m, nl=nl: c(m).decrypt_into(b"n" * nl, b"d" * 20, None, bytearray(4)))
        import array
        bad_objects = ("str", None, 5, 1.0, [1], array.array("I", [1, 2]), array.array("b", [1]),
                       memoryview(bytearray(8))[::2], memoryview(b"x" * 8).cast("I"), object())
        for i, label in enumerate(("nonce", "data", "associated_data")):
            for bad in bad_objects:
                if label == "associated_data" and bad is None:
                    continue
                def call(m, i=i, bad=bad, meth="encrypt"):
                    args = [n, b"data", b"aad"]
                    args[i] = bad
                    return getattr(c(m), meth)(*args)
                add("encrypt %s=%r" % (label, bad), call)
                add("decrypt %s=%r" % (label, bad), lambda m, call=call: call(m, meth="decrypt"))
        for bad in bad_objects + (b"x" * 20, memoryview(bytes(20)), bytes(0)):
            add("encrypt_into buf=%r" % (bad,), lambda m, bad=bad: c(m).encrypt_into(n, b"abcd", None, bad))
        add("encrypt 0 args", lambda m: c(m).encrypt())
        add("decrypt 1 arg", lambda m: c(m).decrypt(n))
        add("encrypt_into 1 arg", lambda m: c(m).encrypt_into(n))
        add("decrypt_into nonce kw only", lambda m: c(m).decrypt_into(nonce=n))
        add("encrypt positional and kw", lambda m: c(m).encrypt(n, b"", associated_data=None, data=b""))
        add("generate_key 2 args", lambda m: getattr(m, name).generate_key(128, 3))
        add("encrypt 2 args", lambda m: c(m).encrypt(n, b""))
        add("encrypt 4 args", lambda m: c(m).encrypt(n, b"", None, None))
        add("encrypt kw", lambda m: c(m).encrypt(nonce=n, data=b"x", associated_data=None))
        add("encrypt bad kw", lambda m: c(m).encrypt(n, b"", aad=None))
        add("encrypt_into kw", lambda m: c(m).encrypt_into(nonce=n, data=b"x", associated_data=None, buf=bytearray(17)))
        add("decrypt_into 3 args", lambda m: c(m).decrypt_into(n, b"x" * 16, None))
        for bl in (0, 3, 4, 5, 20, 21, 22, 100):
            add("encrypt_into buf %d" % bl, lambda m, bl=bl: c(m).encrypt_into(n, b"abcde", None, bytearray(bl)))
            add("decrypt_into buf %d (bad tag)" % bl,
                lambda m, bl=bl: c(m).decrypt_into(n, b"x" * 21, None, bytearray(bl)))
        for dl in (0, 1, 3, 4, 15, 16, 17):
            add("decrypt data %d" % dl, lambda m, dl=dl: c(m).decrypt(n, b"x" * dl, None))
            add("decrypt_into data %d wrong buf" % dl, lambda m, dl=dl: c(m).decrypt_into(n, b"x" * dl, None, bytearray(3)))
        add("encrypt_into bad nonce, wrong buf", lambda m: c(m).encrypt_into(b"n", b"abcde", None, bytearray(3)))
        add("decrypt bad nonce, short data", lambda m: c(m).decrypt(b"n", b"", None))
        add("encrypt bad nonce, bad data type", lambda m: c(m).encrypt(b"n", 5, None))
        add("encrypt_into read-only buf, bad nonce", lambda m: c(m).encrypt_into(b"", b"", None, b""))
        if name == "AESCCM":
            for tl in (4, 8, 16):
                for dl in (0, tl - 1, tl):
                    add("ccm tag %d decrypt %d" % (tl, dl),
                        lambda m, tl=tl, dl=dl: m.AESCCM(k, tl).decrypt(b"n" * 13, b"x" * dl, None))
            add("ccm 13-byte nonce, 65535 bytes", lambda m: len(c(m).encrypt(b"n" * 13, bytes(65535), None)))
            add("ccm 13-byte nonce, 65537 bytes", lambda m: c(m).encrypt(b"n" * 13, bytes(65537), None))
            add("ccm 13-byte nonce, decrypt 65537 + 16", lambda m: c(m).decrypt(b"n" * 13, bytes(65537 + 16), None))
            add("ccm 13-byte nonce, decrypt 65536 + 16", lambda m: c(m).decrypt(b"n" * 13, bytes(65536 + 16), None))
            add("ccm 13-byte nonce, decrypt_into 65537 + 16 wrong buf",
                lambda m: c(m).decrypt_into(b"n" * 13, bytes(65537 + 16), None, bytearray(1)))
            add("ccm 13-byte nonce, encrypt_into 65537 wrong buf",
                lambda m: c(m).encrypt_into(b"n" * 13, bytes(65537), None, bytearray(1)))
            add("ccm bad nonce and long data", lambda m: c(m).encrypt(b"n" * 14, bytes(65537), None))
        return cases

    def test_errors(self):
        for cls in CLASSES:
            name = cls.__name__
            for label, f in self.error_cases(name):
                with self.subTest(cls=name, case=label):
                    r1, e1 = outcome(lambda: f(aead))
                    r2, e2 = outcome(lambda: f(crypto_aead))
                    if e2 is not None and e2[0].__name__ == "InternalError":
                        self.fail("cryptography raised InternalError: not a case to compare")
                    self.assertEqual(e1, e2)
                    if e1 is None and not isinstance(r1, (bytes, int)):
                        self.assertEqual(type(r1).__name__, type(r2).__name__)
                    elif e1 is None and not (label.startswith("generate_key")):
                        self.assertEqual(r1, r2)

    def test_too_long(self):
        """The 2**31 - 1 byte limits, with a 2 GiB anonymous mapping (never touched: both refuse it
        before reading a byte)."""
        big = big_mapping(self)
        for cls in CLASSES:
            name = cls.__name__
            n = b"n" * 12
            k = b"k" * 16
            cases = [
                ("encrypt data", lambda m: getattr(m, name)(k).encrypt(n, big, None)),
                ("encrypt aad", lambda m: getattr(m, name)(k).encrypt(n, b"", big)),
                ("encrypt data, bad nonce", lambda m: getattr(m, name)(k).encrypt(b"n", big, None)),
                ("encrypt aad, bad nonce", lambda m: getattr(m, name)(k).encrypt(b"", b"", big)),
                ("decrypt aad", lambda m: getattr(m, name)(k).decrypt(n, b"x" * 16, big)),
                ("decrypt aad, short data", lambda m: getattr(m, name)(k).decrypt(n, b"x" * 3, big)),
                ("encrypt_into data", lambda m: getattr(m, name)(k).encrypt_into(n, big, None, bytearray(16))),
                ("encrypt_into aad", lambda m: getattr(m, name)(k).encrypt_into(n, b"", big, bytearray(16))),
                ("encrypt_into aad, wrong buf", lambda m: getattr(m, name)(k).encrypt_into(n, b"", big, bytearray(1))),
                ("decrypt_into aad, wrong buf", lambda m: getattr(m, name)(k).decrypt_into(n, b"x" * 16, big, bytearray(1))),
                ("decrypt_into aad", lambda m: getattr(m, name)(k).decrypt_into(n, b"x" * 16, big, bytearray(0))),
            ]
            if cls is aead.AESCCM:
                cases.append(("ccm decrypt 2**24 + 17", lambda m: m.AESCCM(k).decrypt(n, memoryview(big)[:2 ** 24 + 17], None)))
                cases.append(("ccm encrypt 2**24 + 1", lambda m: m.AESCCM(k).encrypt(n, memoryview(big)[:2 ** 24 + 1], None)))
            for label, f in cases:
                with self.subTest(cls=name, case=label):
                    r1, e1 = outcome(lambda: f(aead))
                    r2, e2 = outcome(lambda: f(crypto_aead))
                    self.assertIsNotNone(e2)
                    self.assertEqual(e1, e2)

    def test_threads(self):
        """Several threads share each key object; sizes on both sides of the GIL-release threshold."""
        jobs = []
        for cls in CLASSES:
            for size in (100, 4096, 70000):
                key, nonce, data, aad = self.rand(16), self.rand(12), self.rand(size), self.rand(20)
                expected = getattr(crypto_aead, cls.__name__)(key).encrypt(nonce, data, aad)
                jobs.append((cls(key), nonce, data, aad, expected))
        errors = []
        rounds = 5 if QUICK else 20

        def worker(seed):
            rng = random.Random(seed)
            try:
                for _ in range(rounds):
                    for obj, nonce, data, aad, expected in rng.sample(jobs, len(jobs)):
                        if obj.encrypt(nonce, data, aad) != expected:
                            errors.append("encrypt mismatch")
                        if obj.decrypt(nonce, expected, aad) != data:
                            errors.append("decrypt mismatch")
                        buf = bytearray(len(data))
                        obj.decrypt_into(nonce, expected, aad, buf)
                        if buf != data:
                            errors.append("decrypt_into mismatch")
            except BaseException as e:  # noqa: B902
                errors.append(repr(e))

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])


if __name__ == "__main__":
    unittest.main()
