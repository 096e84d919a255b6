# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""Bad inputs of every kind raise the expected exception (cryptography's messages, written out here
so these run without cryptography) and none crashes; 10**5 calls, good and bad, leave Python's memory
(tracemalloc), the process's RSS and the reference counts of the objects passed in flat; other
threads keep running during a large call (the GIL is released)."""

import gc
import os
import random
import resource
import sys
import tracemalloc
import unittest

from _support import (BIT_LENGTH_ERROR, CCM_TOO_LONG, CLASSES, GCM_SIV_192, KEY_ERROR, NONCE_ERROR,
                      NONCE_LENGTHS, QUICK, SIV_192_ERROR, TAG_LENGTH_ERROR, TOO_LONG, aead, big_mapping,
                      key_sizes)

import vg

CALLS = 20000 if QUICK else 100000


def make(cls, key=b"k" * 16, tag=None):
    return cls(key, tag) if tag is not None else cls(key)


class Behaviour(unittest.TestCase):
    """What cryptography does, as probed from cryptography 48, asserted without it."""

    def test_package(self):
        self.assertIs(vg.InvalidTag, aead.InvalidTag)
        self.assertTrue(issubclass(aead.InvalidTag, Exception))
        self.assertIn(vg.implementation(), vg.implementations())
        self.assertEqual(aead.AESGCM.__module__, "vg.aead")
        try:
            import cryptography.exceptions
        except ImportError:
            self.assertEqual(aead.InvalidTag.__module__, "vg")
        else:
            self.assertIs(aead.InvalidTag, cryptography.exceptions.InvalidTag)
        for cls in CLASSES:
            with self.assertRaises(TypeError):
                type("Sub", (cls,), {})
            obj = make(cls)
            with self.assertRaises(AttributeError):
                obj.x = 1
            import pickle
            with self.assertRaises(TypeError):
                pickle.dumps(obj)

    def test_keys(self):
        for cls in CLASSES:
            name = cls.__name__
            for n in range(0, 65):
                if n in key_sizes(name):
                    make(cls, bytes(n))
                elif name == "AESGCMSIV" and n == 24:
                    with self.assertRaises(NotImplementedError) as cm:
                        make(cls, bytes(n))
                    self.assertEqual(str(cm.exception), SIV_192_ERROR)
                    self.assertFalse(GCM_SIV_192)
                else:
                    with self.assertRaises(ValueError) as cm:
                        make(cls, bytes(n))
                    self.assertEqual(str(cm.exception), KEY_ERROR[name])
            for bad in ("k" * 16, 16, None, 1.5, [0] * 16, object()):
                with self.assertRaises(TypeError):
                    make(cls, bad)
            with self.assertRaises(BufferError):
                make(cls, memoryview(bytearray(32))[::2])
            for ok in (bytearray(16), memoryview(bytes(32)), memoryview(bytes(16)).cast("c")):
                make(cls, ok)
            for bits in (128, 192, 256):
                key = cls.generate_key(bits)
                self.assertIsInstance(key, bytes)
                self.assertEqual(len(key), bits // 8)
            self.assertNotEqual(cls.generate_key(128), cls.generate_key(128))
            for bits, exc in ((0, ValueError), (64, ValueError), (True, ValueError), (-1, OverflowError),
                              (2 ** 70, OverflowError), ("128", TypeError), (128.0, TypeError)):
                with self.assertRaises(exc) as cm:
                    cls.generate_key(bits)
                if exc is ValueError:
                    self.assertEqual(str(cm.exception), BIT_LENGTH_ERROR)

    def test_ccm_tag_length(self):
        for tl in range(-2, 40):
            if tl in (4, 6, 8, 10, 12, 14, 16):
                self.assertEqual(len(aead.AESCCM(bytes(16), tl).encrypt(bytes(7), b"", None)), tl)
            elif tl < 0:
                with self.assertRaises(OverflowError):
                    aead.AESCCM(bytes(16), tl)
            else:
                with self.assertRaises(ValueError) as cm:
                    aead.AESCCM(bytes(16), tl)
                self.assertEqual(str(cm.exception), TAG_LENGTH_ERROR)
        self.assertEqual(len(aead.AESCCM(bytes(16), None).encrypt(bytes(7), b"", None)), 16)
        self.assertEqual(len(aead.AESCCM(bytes(16)).encrypt(bytes(7), b"", None)), 16)

    def test_nonces_and_lengths(self):
        for cls in CLASSES:
            name = cls.__name__
            c = make(cls)
            for n in range(0, 300):
                if n in NONCE_LENGTHS[name]:
                    ct = c.encrypt(bytes(n), b"abc", None)
                    self.assertEqual(c.decrypt(bytes(n), ct, None), b"abc")
                    continue
                for call in (lambda: c.encrypt(bytes(n), b"abc", None),
                             lambda: c.decrypt(bytes(n), bytes(30), None),
                             lambda: c.encrypt_into(bytes(n), b"abc", None, bytearray(19)),
                             lambda: c.decrypt_into(bytes(n), bytes(30), None, bytearray(14))):
                    with self.assertRaises(ValueError) as cm:
                        call()
                    self.assertEqual(str(cm.exception), NONCE_ERROR[name])
            nonce = bytes(13 if cls is aead.AESCCM else 12)
            for n in range(0, 16):
                with self.assertRaises(aead.InvalidTag):
                    c.decrypt(nonce, bytes(n), None)
                with self.assertRaises(aead.InvalidTag):
                    c.decrypt_into(nonce, bytes(n), None, bytearray(1))
            for size in (0, 1, 20, 22, 100):
                with self.assertRaises(ValueError) as cm:
                    c.encrypt_into(nonce, bytes(5), None, bytearray(size))
                self.assertEqual(str(cm.exception), "buffer must be 21 bytes")
            for bad_buf in (bytes(21), memoryview(bytes(21))):
                with self.assertRaises(TypeError) as cm:
                    c.encrypt_into(nonce, bytes(5), None, bad_buf)
                self.assertEqual(str(cm.exception), "argument 'buf': Buffer is not writable.")

    def test_ccm_length_field(self):
        c = aead.AESCCM(bytes(16))
        ct = c.encrypt(bytes(13), bytes(65535), None)
        self.assertEqual(c.decrypt(bytes(13), ct, None), bytes(65535))
        # Exactly 2**16 bytes with L = 2: cryptography 48 lets OpenSSL fail (InternalError); vg refuses
        # it with the ValueError of a longer message (docs/python.md).
        for n in (65536, 65537):
            with self.assertRaises(ValueError) as cm:
                c.encrypt(bytes(13), bytes(n), None)
            self.assertEqual(str(cm.exception), CCM_TOO_LONG)
        with self.assertRaises(aead.InvalidTag):
            c.decrypt(bytes(13), bytes(65536 + 16), None)
        with self.assertRaises(ValueError) as cm:
            c.decrypt(bytes(13), bytes(65537 + 16), None)
        self.assertEqual(str(cm.exception), CCM_TOO_LONG)

    def test_too_long(self):
        """2**31 bytes of data or AAD (an anonymous mapping, never read: refused first)."""
        big = big_mapping(self)
        for cls in CLASSES:
            c = make(cls)
            nonce = bytes(12)
            for call in (lambda: c.encrypt(nonce, big, None), lambda: c.encrypt(nonce, b"", big),
                         lambda: c.encrypt(b"", big, None), lambda: c.decrypt(nonce, bytes(16), big),
                         lambda: c.encrypt_into(nonce, b"", big, bytearray(16))):
                with self.assertRaises(OverflowError) as cm:
                    call()
                self.assertEqual(str(cm.exception), TOO_LONG)

    def test_failed_decrypt_into_zeroes(self):
        # vg's open zeroes its output on failure (cryptography's GCM and GCM-SIV leave the
        # unauthenticated plaintext there; docs/python.md).
        for cls in CLASSES:
            c = make(cls)
            nonce = bytes(12)
            ct = bytearray(c.encrypt(nonce, b"secret message", None))
            ct[0] ^= 1
            buf = bytearray(b"\xff" * 14)
            with self.assertRaises(aead.InvalidTag):
                c.decrypt_into(nonce, ct, None, buf)
            self.assertEqual(buf, bytes(14))


class GilThreshold(unittest.TestCase):
    def test_round_trip_around_threshold(self):
        """Calls just under and at the size from which the GIL is released agree with each other."""
        import vg._vg
        for cls in CLASSES:
            t = vg._vg.nogil_min_ccm if cls is aead.AESCCM else vg._vg.nogil_min_gcm
            c = make(cls)
            nonce = bytes(12)
            data = os.urandom(t + 1)
            for dlen, aad in ((t - 1, b""), (t, b""), (t - 5, b"12345"), (t - 6, b"12345")):
                ct = c.encrypt(nonce, data[:dlen], aad)
                self.assertEqual(c.decrypt(nonce, ct, aad), data[:dlen])
                buf = bytearray(dlen + 16)
                c.encrypt_into(nonce, data[:dlen], aad, buf)
                self.assertEqual(bytes(buf), ct)
                # The same message one byte longer must share the ciphertext prefix (CTR-based modes;
                # GCM-SIV's synthetic IV changes with the message, so only the lengths are compared).
                longer = c.encrypt(nonce, data[:dlen + 1], aad)
                if cls is not aead.AESGCMSIV:
                    self.assertEqual(longer[:dlen], ct[:dlen])
                self.assertEqual(len(longer), len(ct) + 1)


class GilReleased(unittest.TestCase):
    def test_other_threads_run_during_a_large_call(self):
        """While one thread is inside a large encrypt, another keeps running Python code. If the GIL
        were held for the call, the other thread would stop for the whole call: its longest pause
        would be at least the call's duration (measured alone beforehand, the fastest of 3). Passing
        needs a longest pause under half of that; on a loaded machine the OS may pause the thread
        anyway, so it is tried up to 5 times (a held GIL can never pass)."""
        import threading
        import time
        # The release is the binding's code, the same for every implementation: the quick
        # (per-implementation) runs check one class, python.auto all three.
        for cls in (aead.AESGCM,) if QUICK else CLASSES:
            c = make(cls)
            nonce = bytes(7 if cls is aead.AESCCM else 12)  # CCM: L = 8, no length limit that matters
            size = 1 << 20

            def duration(n):
                best = None
                for _ in range(3):
                    t0 = time.perf_counter()
                    c.encrypt(nonce, bytes(n), None)
                    d = time.perf_counter() - t0
                    best = d if best is None else min(best, d)
                return best

            d0 = duration(size)
            while d0 < 0.02 and size < 1 << 26:
                size *= 4
                d0 = duration(size)
            data = bytes(size)
            pauses = []
            for attempt in range(5):
                done = threading.Event()

                def worker():
                    c.encrypt(nonce, data, None)
                    done.set()

                t = threading.Thread(target=worker)
                stamps = [time.perf_counter()]  # a held GIL would stop this thread inside start()
                t.start()
                while not done.is_set():
                    stamps.append(time.perf_counter())
                t.join()
                gaps = [b - a for a, b in zip(stamps, stamps[1:])]
                pause = max(gaps) if gaps else float("inf")
                pauses.append(pause)
                if pause < d0 / 2:
                    break
            else:
                self.fail("%s: another thread paused for %s s during a %d-byte encrypt that takes %.4f s "
                          "alone: the GIL looks held" % (cls.__name__, ["%.4f" % p for p in pauses], size, d0))


class Fuzz(unittest.TestCase):
    def test_random_arguments(self):
        """Random argument lists from a pool of good and bad objects: an exception from the expected
        set or a result, never a crash or another exception."""
        rng = random.Random(1)
        pool = [None, b"", b"n" * 12, b"n" * 13, b"x" * 100, bytearray(16), bytearray(116), bytes(16),
                memoryview(bytearray(32))[::2], memoryview(b"abcd").cast("I"), "str", 0, -1, 2 ** 80, 1.5,
                [], object(), memoryview(bytes(116)), bytearray(100), memoryview(bytearray(128))[4:120]]
        allowed = (TypeError, ValueError, OverflowError, BufferError, aead.InvalidTag)
        objs = [make(cls) for cls in CLASSES] + [aead.AESCCM(bytes(16), 8)]
        for _ in range(3000 if QUICK else 20000):
            obj = rng.choice(objs)
            meth = getattr(obj, rng.choice(("encrypt", "decrypt", "encrypt_into", "decrypt_into")))
            args = [rng.choice(pool) for _ in range(rng.randrange(6))]
            try:
                meth(*args)
            except allowed:
                pass
            try:
                type(obj)(*args[:2])
            except allowed + (NotImplementedError,):
                pass


class Leaks(unittest.TestCase):
    def workload(self, objs, inputs):
        """One round of good and bad calls over every path that allocates or raises."""
        gcm, siv, ccm = objs
        nonce, data, aad, ct_gcm, buf, rbuf, badct = inputs
        gcm.encrypt(nonce, data, aad)
        gcm.decrypt(nonce, ct_gcm, aad)
        siv.encrypt_into(nonce, data, aad, buf)
        ccm.encrypt(nonce, data, None)
        gcm.decrypt_into(nonce, ct_gcm, aad, rbuf)
        try:
            gcm.decrypt(nonce, badct, aad)
        except aead.InvalidTag:
            pass
        try:
            siv.encrypt(data, data, aad)
        except ValueError:
            pass
        try:
            ccm.encrypt_into(nonce, data, aad, rbuf)
        except ValueError:
            pass
        try:
            gcm.encrypt(nonce, "str", aad)
        except TypeError:
            pass
        try:
            gcm.encrypt(nonce, memoryview(data)[::2], aad)
        except BufferError:
            pass
        try:
            gcm.encrypt_into(nonce, data, aad, ct_gcm)
        except TypeError:
            pass
        gcm.encrypt(nonce=nonce, data=data, associated_data=aad)
        # Partly overlapping data and buf: the binding reads the message from a temporary copy.
        view = memoryview(buf)
        ccm.encrypt_into(nonce, view[1:1 + len(data) - 16], aad, view[:len(data)])

    def test_flat(self):
        objs = (aead.AESGCM(bytes(16)), aead.AESGCMSIV(bytes(32)), aead.AESCCM(bytes(16)))
        nonce, data, aad = os.urandom(12), bytearray(os.urandom(3000)), os.urandom(40)
        ct_gcm = objs[0].encrypt(nonce, data, aad)
        badct = bytes([ct_gcm[0] ^ 1]) + ct_gcm[1:]
        inputs = (nonce, data, aad, ct_gcm, bytearray(len(data) + 16), bytearray(len(data)), badct)
        rounds = CALLS // 13
        for _ in range(200):
            self.workload(objs, inputs)
        gc.collect()
        refs = [sys.getrefcount(x) for x in objs + inputs]
        rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        tracemalloc.start()
        self.addCleanup(tracemalloc.stop)
        for _ in range(rounds // 10):
            self.workload(objs, inputs)
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(rounds):
            self.workload(objs, inputs)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        self.assertEqual([sys.getrefcount(x) for x in objs + inputs], refs)
        # A leak of one object per call would be several MB here; allow a few KB of noise.
        self.assertLess(after - before, 16 * 1024, "traced memory grew by %d bytes" % (after - before))
        self.assertLess(rss1 - rss0, 8 * 1024, "peak RSS grew by %d KiB" % (rss1 - rss0))

    def test_key_objects_freed(self):
        """Constructing and dropping key objects (good and bad keys) does not grow memory."""
        tracemalloc.start()
        self.addCleanup(tracemalloc.stop)
        key = bytearray(32)
        ref = sys.getrefcount(key)
        for _ in range(2000):
            aead.AESGCM(key)
            aead.AESCCM(key, 8)
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(CALLS // 10):
            aead.AESGCM(key)
            aead.AESGCMSIV(key)
            aead.AESCCM(key, 8)
            try:
                aead.AESCCM(key[:5])
            except ValueError:
                pass
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        self.assertLess(after - before, 16 * 1024)
        self.assertEqual(sys.getrefcount(key), ref)


if __name__ == "__main__":
    unittest.main()
