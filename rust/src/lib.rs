// SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
//! vg for Rust: AES-GCM, AES-GCM-SIV and AES-CCM with `ring::aead`'s interface (ring 0.16),
//! computed by vg, the C library of this repository (`include/vg.h`).
//!
//! - [`aead`]: what `ring::aead` has (`UnboundKey`, `LessSafeKey`, `SealingKey`/`OpeningKey`,
//!   `Nonce`, `Aad`, `AES_128_GCM`, `AES_256_GCM`, ...) plus vg's other algorithms;
//! - [`error`]: ring's `Unspecified`, and [`error::Error`] with vg's error codes;
//! - [`impls`]: which of vg's implementations runs, and choosing one.
//!
//! Migrating from ring is a change of `use` lines: `ring::aead` becomes `vg::aead` and
//! `ring::error::Unspecified` becomes `vg::error::Unspecified`. docs/rust.md has the install
//! instructions, every difference from ring, and measured speed.
#![deny(unsafe_code)]
#![warn(missing_docs)]
// Every unsafe block (all in ffi.rs) states why it is sound; clippy enforces it.
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod aead;
pub mod error;
mod ffi;
pub mod impls;

/// The version of the vg C library linked in (`vg_version`), e.g. `"0.2.0"`.
pub fn version() -> &'static str {
    ffi::version()
}
