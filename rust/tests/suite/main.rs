// SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
//! The crate's tests, one binary (one link) for all of them: the vector files, the differential
//! test against ring 0.16, misuse, and implementation selection. Every test that makes keys runs
//! once per implementation this CPU has (common::for_each_impl); the key-wipe check is a binary of
//! its own (tests/wipe.rs) because it replaces the global allocator.

mod common;
// Against ring 0.16, on the architectures it builds for (Cargo.toml's dev-dependency says the same).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64", target_arch = "x86", target_arch = "arm"))]
mod differential;
mod impls;
mod json;
mod misuse;
mod vectors;

/// Says, in the test list itself, that the differential test did not run here (ring 0.16 does not
/// build for this architecture), rather than leaving it out silently.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64", target_arch = "x86", target_arch = "arm")))]
#[test]
fn differential_against_ring_unavailable_here() {
    println!(
        "differential.ring: UNAVAILABLE on this architecture: ring 0.16 does not build for it (not passed)"
    );
}
