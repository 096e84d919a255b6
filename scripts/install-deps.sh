#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
# Installs, from Debian's packages, everything the tests and the benchmark peers need.
# Needs root (or sudo). Safe to run again: apt-get skips what is installed.
set -euo pipefail
pkgs=(
  build-essential cmake pkg-config python3
  valgrind                                   # constant-time check (memcheck) + its client header
  libssl-dev libbearssl-dev                  # peers in vg-speed and differential checks
  openssl                                    # s_server/s_client for the provider's TLS test
  clang libclang-rt-14-dev                   # clang build and sanitizers
  llvm-14                                    # llvm-link: the equivalence proofs link clang's IR (proofs/)
  qemu-user gcc-s390x-linux-gnu libc6-dev-s390x-cross  # big-endian run of the portable suite
  gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross   # the power8/power9 suite under qemu-ppc64le
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross         # the armv8 suite under qemu-aarch64
  frama-c-base why3 z3 cvc4                  # Frama-C Eva (run-time errors) and WP (contracts) proofs
  librust-cc-dev librust-pkg-config-dev      # the Rust crate (rust/): vg-sys's build script
  librust-ring-dev                           # ... and its differential test's reference, ring 0.16
  debhelper dh-python dpkg-dev lintian       # the Debian packages (debian/, make test-debian)
  python3-all-dev python3-setuptools pkgconf # ... their Build-Depends not listed above
)
# The Rust crate builds with rustc 1.63 or later (offline, from the crates above under
# /usr/share/cargo/registry): Debian's cargo and rustc (1.63) unless a cargo is on PATH already
# (rustup's, say), which is then used as it is and checked below. Its benchmarks need
# librust-criterion-dev too, left out here as no test uses it (docs/rust.md).
if ! command -v cargo >/dev/null 2>&1; then
  pkgs+=(cargo rustc)
fi
SUDO=
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
# apt-get update can fail transiently; retry a few times before giving up.
for i in 1 2 3; do
  if $SUDO apt-get update -qq; then break; fi
  sleep 5
done
$SUDO apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
echo "install-deps: ${pkgs[*]}"
rustc_version=$(rustc --version | awk '{print $2}')
if [ "$(printf '%s\n' 1.63 "$rustc_version" | sort -V | head -n 1)" != 1.63 ]; then
  echo "install-deps: rustc $rustc_version on PATH is older than 1.63, which the Rust crate needs" >&2
  exit 1
fi
