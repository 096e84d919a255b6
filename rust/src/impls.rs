// SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
//! vg's implementations (portable, aesni, vaes256, vaes512, power8, power9, armv8): which one new
//! keys use, which ones this CPU can run, and choosing one. Not in ring.
//!
//! The choice is process-wide and made on first use: the one `VG_IMPL` names if this CPU can run
//! it, else the best available. A key keeps the implementation that set it up, whatever is
//! selected afterwards, so [`select`] affects only keys made after it.

use crate::error::Error;
use crate::ffi;

/// The implementation new keys will use (`vg_impl_name`).
pub fn name() -> &'static str {
    ffi::impl_name()
}

/// The implementations this CPU (and OS) can run, best first (`vg_impl_list`).
pub fn available() -> Vec<&'static str> {
    ffi::impl_list()
}

/// Selects the implementation for new keys by name (`"auto"`: the best available).
/// [`Error::Unsupported`] for a name this build does not know or this CPU cannot run; the selection
/// is then unchanged.
pub fn select(name: &str) -> Result<(), Error> {
    ffi::impl_select(name)
}

/// What became of the `VG_IMPL` environment variable: `Ok` if it is unset or names an
/// implementation that runs here, [`Error::Unsupported`] if it was ignored (`vg_impl_env_status`).
pub fn env_status() -> Result<(), Error> {
    ffi::impl_env_status()
}
