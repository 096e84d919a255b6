# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# Thin wrapper over CMake. The two commands the README starts with:
#   make speed         build (Release) and run vg-speed against OpenSSL/BearSSL
#   make deps check    install the test dependencies (Debian, root) and run every test
JOBS ?= 2
CTEST = ctest --output-on-failure -j$(JOBS) --test-dir

.PHONY: all speed speed-chart speed-doc deps check test prove prove-full test-native build-asan test-asan test-msan test-s390x test-ppc64le insn-ppc64le test-aarch64 insn-aarch64 test-debian fuzz-build fuzz-smoke fuzz frama-eva frama-wp install clean

all:
	cmake -S . -B build -DVG_WERROR=ON
	cmake --build build -j$(JOBS)

speed:
	cmake -S . -B build -DVG_WERROR=ON -DCMAKE_BUILD_TYPE=Release
	cmake --build build -j$(JOBS) --target vg-speed
	./build/bench/vg-speed $(SPEED_ARGS)

# docs/speed.md's measured section, rewritten from one fresh run of every implementation (a benchmark;
# run it on a machine as quiet as you can get, and commit the page with the code it measured).
speed-doc:
	cmake -S . -B build -DVG_WERROR=ON -DCMAKE_BUILD_TYPE=Release
	cmake --build build -j$(JOBS) --target vg-speed
	python3 bench/speed-doc.py ./build/bench/vg-speed docs/speed.md $(SPEED_ARGS)

deps:
	scripts/install-deps.sh

# The AES-128-GCM chart of docs/speed.md (docs/speed-gcm.svg and the CSV it is drawn from): vg-speed,
# vg-speed-boringssl and vg-speed-awslc built against PEERS (bench/peers/build-peers.sh's OUTDIR),
# run with --csv and plotted with gnuplot. A benchmark, not a test; CI never runs it.
speed-chart:
	@test -n "$(PEERS)" || { echo "usage: make speed-chart PEERS=OUTDIR (bench/peers/build-peers.sh BORINGSSL_SRC AWSLC_SRC OUTDIR makes it)"; exit 2; }
	cmake -S . -B build-peers -DVG_WERROR=ON -DCMAKE_BUILD_TYPE=Release -DVG_SPEED_PEERS=$(abspath $(PEERS))
	cmake --build build-peers -j$(JOBS) --target vg-speed vg-speed-boringssl vg-speed-awslc
	bench/peers/speed-chart.sh build-peers docs/speed-gcm

# Every test: the fuzz smoke runs, the Frama-C proofs (WP contracts, Eva's absence of run-time
# errors; docs/proofs-wp.md, docs/proofs-eva.md), native (vectors, differential, bad input, threads,
# exports, install, valgrind constant time), the same built with clang under ASan+UBSan, the
# MemorySanitizer constant-time check (the only one that can run VAES/AVX-512 code), the portable suite
# on big-endian s390x, and the ppc64le and aarch64 suites (constant-time traces included) under qemu.
# test-debian comes last: it installs and purges system packages (nothing before it depends on them).
#
# The stages run in three phases. Most of them keep both cores busy (builds -j2, ctest -j2, the
# prover's two workers), but the WP run, the fuzz targets' build (most of it on two files, vaes256.c
# and vaes512.c under clang's ASan+UBSan) and the smoke runs use one core. So those run side by side
# with the ASan suite (make -j2, each stage's output kept together); docs/testing.md has the phases
# and what they saved. test-debian comes last, alone: it installs and purges system packages.
check:
	$(MAKE) --no-print-directory -j2 --output-sync=target frama-wp fuzz-smoke test-asan
	$(MAKE) --no-print-directory frama-eva prove test-native test-msan test-s390x test-ppc64le test-aarch64 test-rust
	$(MAKE) --no-print-directory test-debian
	@echo "check: all test builds passed"
test: check

# The equivalence proofs (docs/proofs-equivalence.md): every obligation of proofs/prove.py (each
# implementation equal to the spec, and constant time, on clang's IR of the sources), the instruction
# models checked against this CPU's instructions, the spec transcription checked against spec/, and the
# negative controls (seeded defects that must fail). PROVE_ONLY=<regex> selects obligations;
# build-prove/summary.tsv lists them all. prove-full: the larger length bounds, then the negative controls
# of its own cases (controls.py --list-full; not in CI).
PROVE_CMAKE = cmake -S . -B build-prove -DVG_WERROR=ON -DCMAKE_BUILD_TYPE=Release -DVG_PROVE=ON \
	-DVG_BUILD_BENCH=OFF -DVG_OPENSSL_PROVIDER=OFF -DVG_PYTHON=OFF
prove:
	$(PROVE_CMAKE)
	cmake --build build-prove -j$(JOBS) --target vg_prove_x86_insn vg_prove_spec_run
	$(CTEST) build-prove -L prove

prove-full:
	$(PROVE_CMAKE)
	PROVE_FULL=1 ./proofs/prove.py --build build-prove
	for c in $$(./proofs/controls.py --list-full); do ./proofs/controls.py $$c --build build-prove || exit 1; done

test-native:
	cmake -S . -B build -DVG_WERROR=ON -DCMAKE_BUILD_TYPE=Release
	cmake --build build -j$(JOBS)
	$(CTEST) build

build-asan:
	CC=clang cmake -S . -B build-asan -DVG_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVG_SANITIZE=ON -DVG_BUILD_BENCH=OFF
	cmake --build build-asan -j$(JOBS)
test-asan: build-asan
	$(CTEST) build-asan

test-msan:
	CC=clang cmake -S . -B build-msan -DVG_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVG_MSAN=ON -DVG_BUILD_BENCH=OFF
	cmake --build build-msan -j$(JOBS) --target ct_valgrind
	$(CTEST) build-msan -R '^ct_msan'

# ppc64le under qemu as a POWER8: every test of power8 and portable (an ISA 3.0 instruction in the
# power8 path would fail there), power9's reported unavailable. Then as a POWER9, where the power9
# variant runs, and a POWER10, which vg also gives the power9 variant: the tests of that implementation
# (*.power9). power8's and portable's run once, on the POWER8: the other CPUs run the same code.
test-ppc64le:
	cmake -S . -B build-ppc64le -DVG_WERROR=ON -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-ppc64le.cmake -DVG_BUILD_BENCH=OFF
	cmake --build build-ppc64le -j$(JOBS)
	$(CTEST) build-ppc64le
	for cpu in power9 power10; do \
	  cmake -S . -B build-ppc64le-$$cpu -DVG_WERROR=ON -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-ppc64le.cmake \
	    -DVG_BUILD_BENCH=OFF -DVG_QEMU_CPU=$$cpu && \
	  cmake --build build-ppc64le-$$cpu -j$(JOBS) && \
	  $(CTEST) build-ppc64le-$$cpu -R '\.power9$$' || exit 1; \
	done

# Executed instructions per block under qemu, ours against OpenSSL's ppc64le build (a benchmark, not a
# test; needs libssl-dev:ppc64el, see docs/ppc64le.md).
insn-ppc64le: test-ppc64le
	bench/insn/ppc64le-insn.sh build-ppc64le power8 power9

# AArch64 under qemu: -cpu max (AES, PMULL, SHA3's EOR3, DIT) and -cpu cortex-a57 (no SHA3, no DIT),
# so both kernel variants and both DIT paths run, constant-time trace included: every test on the
# first, armv8's (*.armv8) on the second (portable runs the same code on both).
test-aarch64:
	cmake -S . -B build-aarch64 -DVG_WERROR=ON -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake -DVG_BUILD_BENCH=OFF
	cmake --build build-aarch64 -j$(JOBS)
	$(CTEST) build-aarch64
	cmake -S . -B build-aarch64-a57 -DVG_WERROR=ON -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake \
	  -DVG_BUILD_BENCH=OFF -DVG_QEMU_CPU=cortex-a57
	cmake --build build-aarch64-a57 -j$(JOBS)
	$(CTEST) build-aarch64-a57 -R '\.armv8$$'

# Executed instructions per block under qemu against OpenSSL's arm64 build (benchmark; docs/aarch64.md).
insn-aarch64: test-aarch64
	bench/insn/aarch64-insn.sh build-aarch64 max

# The Debian packages (debian/, docs/packaging.md): built with dpkg-buildpackage from a copy of the
# tree in /tmp/vg-deb (VG_DEB_WORK), lintian without error or warning, installed with dpkg -i, used
# from their installed paths only (C with pkg-config and find_package, /usr/bin/python3, openssl with
# the shipped vg-provider.cnf, vg-provider-check), the provider removed under configurations that
# still name it, then purged, leaving nothing of vg on disk. As root; about 2-3 minutes on 2 cores.
test-debian:
	JOBS=$(JOBS) scripts/test-debian.sh

# Frama-C WP: the ACSL contracts listed in docs/proofs-wp.md, with -wp-rte, on z3 and cvc4 (and
# Alt-Ergo when installed). Fails on any unproved goal. The why3 configuration and the logs go to
# VG_WP_WORK (default /tmp/vg-wp), never to $$HOME.
frama-wp:
	proofs/wp/run.sh

# libFuzzer (clang, ASan + UBSan) differential targets: a 10-second smoke run each in check, long runs
# with `make fuzz` (FUZZ_SECONDS per target, corpus kept in FUZZ_WORK). See docs/fuzzing.md.
fuzz-build:
	CC=clang cmake -S . -B build-fuzz -DVG_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVG_FUZZ=ON -DBUILD_TESTING=OFF -DVG_BUILD_BENCH=OFF
	cmake --build build-fuzz -j$(JOBS)
fuzz-smoke: fuzz-build
	fuzz/smoke.sh build-fuzz 10
fuzz: fuzz-build
	FUZZ_WORK=$${FUZZ_WORK:-$$HOME/vg-fuzz} fuzz/smoke.sh build-fuzz $${FUZZ_SECONDS:-3600}

# Frama-C Eva (absence of run-time errors) over the portable implementation and src/modes/: every
# entry point of proofs/eva/, two at a time; fails on any alarm or any property not proved valid.
# First the portable suite built the way Eva reads the code (scalar bitsliced AES, GHASH without
# __int128), so the analysed variant is also the tested one. See docs/proofs-eva.md.
frama-eva:
	cmake -S . -B build-frama-eva-native -DVG_WERROR=ON -DCMAKE_BUILD_TYPE=Release -DVG_BUILD_BENCH=OFF \
	  -DCMAKE_C_FLAGS="-DVG_AES_BITSLICED_SCALAR -DVG_GHASH_NO_INT128"
	cmake --build build-frama-eva-native -j$(JOBS)
	$(CTEST) build-frama-eva-native -R 'portable$$'
	EVA_JOBS=$(JOBS) proofs/eva/run.sh build-frama-eva

test-s390x:
	cmake -S . -B build-s390x -DVG_WERROR=ON -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-s390x.cmake -DVG_BUILD_BENCH=OFF
	cmake --build build-s390x -j$(JOBS)
	$(CTEST) build-s390x

# The Rust crate (rust/, docs/rust.md): its tests (vector files, the differential test against ring
# 0.16, misuse, key wiping), once per implementation this CPU runs, built offline from Debian's crates
# (/usr/share/cargo/registry; scripts/install-deps.sh). --release: the C library is compiled -O3
# in every profile, so the tests run in seconds either way, but the debug profile adds -g to every C
# and assembly file of vg and ring, and the release build was the quicker one from clean (47 s
# against 61 s on 2 cores; 67 s against 73 s with Debian's rustc 1.63).
.PHONY: test-rust
test-rust:
	cd rust && CARGO_TARGET_DIR=$(CURDIR)/build-rust/target CARGO_BUILD_JOBS=$(JOBS) cargo test --offline --release -- --nocapture

install:
	cmake -S . -B build
	cmake --build build -j$(JOBS)
	cmake --install build

clean:
	rm -rf build build-peers build-asan build-msan build-s390x build-ppc64le* build-aarch64* build-fuzz build-frama-eva*
