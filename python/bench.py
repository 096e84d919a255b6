# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
"""vg.aead against cryptography 48 in one process (a benchmark, not a test).

    PYTHONPATH=<build>/python python3 python/bench.py [--rounds N] [--quick]

For each class and message size (64 B, 1 KiB, 16 KiB, 1 MiB): encrypt(nonce, data, aad) with a
12-byte nonce, 16-byte tag, 16 bytes of AAD and a 128-bit key; batches of calls timed
for vg then cryptography, alternating, the median of the rounds reported as calls/s and MB/s, with
the ratio. Then the same calls from 2 threads at once on one shared key object: total calls/s, and
the scaling from 1 to 2 threads for each library (the GIL is released around large calls).
"""

import argparse
import os
import platform
import statistics
import sys
import threading
import time

# python/ holds the package's sources without the built extension: import vg from PYTHONPATH (the
# CMake build's python/ folder, or wherever pip installed it), not from next to this script.
_here = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or os.curdir) != _here]

import vg  # noqa: E402
from vg import aead as vg_aead  # noqa: E402

try:
    import cryptography
    from cryptography.hazmat.primitives.ciphers import aead as crypto_aead
except ImportError:
    sys.exit("bench.py needs cryptography (it times vg.aead against it)")

SIZES = (64, 1024, 16384, 1 << 20)
CLASSES = ("AESGCM", "AESGCMSIV", "AESCCM")


def setup(module, name, size):
    key = bytes(range(16))
    obj = getattr(module, name)(key)
    nonce = bytes(12)
    return obj.encrypt, nonce, os.urandom(size), os.urandom(16)


def batch_count(size, total=16 << 20, most=20000):
    """Calls per timed batch: about `total` bytes, at most `most` calls."""
    return max(4, min(most, total // max(size, 1)))


def time_batch(fn, nonce, data, aad, n):
    t0 = time.perf_counter_ns()
    for _ in range(n):
        fn(nonce, data, aad)
    return (time.perf_counter_ns() - t0) / 1e9


def single(rounds):
    rows = []
    for name in CLASSES:
        for size in SIZES:
            n = batch_count(size)
            subjects = {lib: setup(mod, name, size) for lib, mod in (("vg", vg_aead), ("cryptography", crypto_aead))}
            for lib, (fn, nonce, data, aad) in subjects.items():
                time_batch(fn, nonce, data, aad, max(1, n // 4))  # warm-up
            times = {"vg": [], "cryptography": []}
            for _ in range(rounds):
                for lib in ("vg", "cryptography"):
                    fn, nonce, data, aad = subjects[lib]
                    times[lib].append(time_batch(fn, nonce, data, aad, n))
            rate = {lib: n / statistics.median(ts) for lib, ts in times.items()}
            rows.append((name, size, rate["vg"], rate["cryptography"]))
            print("%-9s %8s  vg %11.0f calls/s %8.0f MB/s   cryptography %11.0f calls/s %8.0f MB/s   x%.2f"
                  % (name, fmt_size(size), rate["vg"], rate["vg"] * size / 1e6, rate["cryptography"],
                     rate["cryptography"] * size / 1e6, rate["vg"] / rate["cryptography"]), flush=True)
    return rows


def threaded_rate(fn, nonce, data, aad, n, threads):
    barrier = threading.Barrier(threads + 1)
    done = []

    def worker():
        barrier.wait()
        time_batch(fn, nonce, data, aad, n)
        done.append(1)

    ts = [threading.Thread(target=worker) for _ in range(threads)]
    for t in ts:
        t.start()
    barrier.wait()
    t0 = time.perf_counter_ns()
    for t in ts:
        t.join()
    elapsed = (time.perf_counter_ns() - t0) / 1e9
    return threads * n / elapsed


def two_threads(rounds):
    rows = []
    # Control: hashlib.sha256 releases the GIL for large inputs, so its scaling shows how much of a
    # second CPU this (shared) machine actually gave during the run.
    import hashlib
    data = os.urandom(1 << 20)
    fn = lambda nonce, d, aad: hashlib.sha256(d).digest()  # noqa: E731
    one = [threaded_rate(fn, None, data, None, 256, 1) for _ in range(rounds)]
    two = [threaded_rate(fn, None, data, None, 256, 2) for _ in range(rounds)]
    print("control   hashlib.sha256 1 MiB: 1 thread %.0f, 2 threads %.0f calls/s (x%.2f)"
          % (statistics.median(one), statistics.median(two), statistics.median(two) / statistics.median(one)),
          flush=True)
    for name in CLASSES:
        for size in (1024, 16384, 1 << 20):
            # Long batches (tens of ms), so starting the threads is noise.
            n = batch_count(size, total=256 << 20, most=200000)
            result = {}
            for lib, mod in (("vg", vg_aead), ("cryptography", crypto_aead)):
                fn, nonce, data, aad = setup(mod, name, size)
                one, two = [], []
                for _ in range(rounds):
                    one.append(threaded_rate(fn, nonce, data, aad, n, 1))
                    two.append(threaded_rate(fn, nonce, data, aad, n, 2))
                result[lib] = (statistics.median(one), statistics.median(two))
            rows.append((name, size, result))
            print("%-9s %8s  vg 1 thread %10.0f, 2 threads %10.0f calls/s (x%.2f)   "
                  "cryptography 1 thread %10.0f, 2 threads %10.0f calls/s (x%.2f)"
                  % (name, fmt_size(size), result["vg"][0], result["vg"][1], result["vg"][1] / result["vg"][0],
                     result["cryptography"][0], result["cryptography"][1],
                     result["cryptography"][1] / result["cryptography"][0]), flush=True)
    return rows


def fmt_size(size):
    return "%d MiB" % (size >> 20) if size >= 1 << 20 else "%d KiB" % (size >> 10) if size >= 1024 else "%d B" % size


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=11)
    p.add_argument("--quick", action="store_true", help="3 rounds (a smoke run)")
    args = p.parse_args()
    rounds = 3 if args.quick else args.rounds
    print("# %s; Python %s; vg %s (%s); cryptography %s; %d CPUs visible; median of %d rounds"
          % (cpu_name(), platform.python_version(), vg.__version__, vg.implementation(),
             cryptography.__version__, os.cpu_count(), rounds), flush=True)
    single(rounds)
    print("# 2 threads, one shared key object", flush=True)
    two_threads(max(3, rounds // 2))


if __name__ == "__main__":
    main()
