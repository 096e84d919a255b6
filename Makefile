# Thin wrapper over CMake. The two commands the README starts with:
#   make speed         build (Release) and run vg-speed against OpenSSL/BearSSL
#   make deps check    install the test dependencies (Debian, root) and run every test
JOBS ?= 2
CTEST = ctest --output-on-failure -j$(JOBS) --test-dir

.PHONY: all speed deps check test test-native test-asan test-msan test-s390x install clean

all:
	cmake -S . -B build
	cmake --build build -j$(JOBS)

speed:
	cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
	cmake --build build -j$(JOBS) --target vg-speed
	./build/bench/vg-speed $(SPEED_ARGS)

deps:
	scripts/install-deps.sh

# Every test: native (vectors, differential, bad input, threads, exports, install, valgrind constant
# time), the same built with clang under ASan+UBSan, the MemorySanitizer constant-time check (the only
# one that can run VAES/AVX-512 code), and the portable suite on big-endian s390x under qemu.
check: test-native test-asan test-msan test-s390x
	@echo "check: all test builds passed"
test: check

test-native:
	cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
	cmake --build build -j$(JOBS)
	$(CTEST) build

test-asan:
	CC=clang cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVG_SANITIZE=ON -DVG_BUILD_BENCH=OFF
	cmake --build build-asan -j$(JOBS)
	$(CTEST) build-asan

test-msan:
	CC=clang cmake -S . -B build-msan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVG_MSAN=ON -DVG_BUILD_BENCH=OFF
	cmake --build build-msan -j$(JOBS) --target ct_valgrind
	$(CTEST) build-msan -R '^ct_msan'

test-s390x:
	cmake -S . -B build-s390x -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-s390x.cmake -DVG_BUILD_BENCH=OFF
	cmake --build build-s390x -j$(JOBS)
	$(CTEST) build-s390x

install:
	cmake -S . -B build
	cmake --build build -j$(JOBS)
	cmake --install build

clean:
	rm -rf build build-asan build-msan build-s390x
