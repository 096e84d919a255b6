// SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
//! Errors: ring's opaque [`Unspecified`], and [`Error`], which keeps vg's error codes.
//!
//! The functions that mirror `ring::aead` return `Unspecified`, as ring's do, so code written for
//! ring compiles unchanged and cannot branch on why an open failed. The functions vg adds
//! ([`UnboundKey::try_new`](crate::aead::UnboundKey::try_new),
//! [`LessSafeKey::seal_detached`](crate::aead::LessSafeKey::seal_detached),
//! [`LessSafeKey::open_detached`](crate::aead::LessSafeKey::open_detached), [`crate::impls::select`])
//! return `Error`, which says which rule a call broke; it converts into `Unspecified` with `?`.

use std::fmt;

/// An error with no detail, as `ring::error::Unspecified`: a failed open and a bad argument look
/// the same, so a caller cannot give an attacker an oracle by reacting differently to them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unspecified;

impl fmt::Display for Unspecified {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("vg::error::Unspecified")
    }
}

impl std::error::Error for Unspecified {}

/// Why a vg call failed: one variant per error code of `include/vg.h` (`VG_ERR_*`), plus the
/// checks this crate makes before it calls vg, mapped onto the code of the rule they enforce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// `VG_ERR_KEY_LENGTH`: the key is not the length the algorithm takes.
    KeyLength,
    /// `VG_ERR_NONCE_LENGTH`: a nonce length the mode does not take.
    NonceLength,
    /// `VG_ERR_TAG_LENGTH`: a tag length the algorithm does not take, or an input too short to hold
    /// the tag (so no plaintext can exist).
    TagLength,
    /// `VG_ERR_LENGTH`: the message or the AAD is longer than the mode allows.
    Length,
    /// `VG_ERR_AUTH`: the tag did not verify; the output has been zeroed.
    Auth,
    /// `VG_ERR_ARG`: an argument vg refuses (here: a range outside the buffer).
    Arg,
    /// `VG_ERR_UNSUPPORTED`: an implementation this build does not know or this CPU cannot run.
    Unsupported,
}

impl Error {
    /// vg's error code (`VG_ERR_*`, a negative number).
    pub fn code(self) -> i32 {
        use vg_sys as sys;
        match self {
            Error::KeyLength => sys::VG_ERR_KEY_LENGTH,
            Error::NonceLength => sys::VG_ERR_NONCE_LENGTH,
            Error::TagLength => sys::VG_ERR_TAG_LENGTH,
            Error::Length => sys::VG_ERR_LENGTH,
            Error::Auth => sys::VG_ERR_AUTH,
            Error::Arg => sys::VG_ERR_ARG,
            Error::Unsupported => sys::VG_ERR_UNSUPPORTED,
        }
    }

    /// The error for one of vg's codes; `None` for `VG_OK` and for codes vg does not define.
    pub fn from_code(code: i32) -> Option<Error> {
        [
            Error::KeyLength,
            Error::NonceLength,
            Error::TagLength,
            Error::Length,
            Error::Auth,
            Error::Arg,
            Error::Unsupported,
        ]
        .iter()
        .copied()
        .find(|e| e.code() == code)
    }
}

impl fmt::Display for Error {
    /// vg's own sentence for the code (`vg_strerror`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(crate::ffi::strerror(self.code()))
    }
}

impl std::error::Error for Error {}

impl From<Error> for Unspecified {
    fn from(_: Error) -> Self {
        Unspecified
    }
}
