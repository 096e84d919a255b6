// SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
//! The FFI boundary: the only module of the crate allowed `unsafe` (lib.rs denies it everywhere
//! else). Every call into vg is here, behind a safe function whose arguments are slices, so each
//! pointer handed to C comes with the exact length Rust knows it to be valid for.
//!
//! What the callers (aead.rs) have already checked is the algorithm's rules: key, nonce and tag
//! lengths and the message limits. vg checks them again; that is its contract with every caller,
//! and costs a few compares.
#![allow(unsafe_code)]

use std::ffi::CStr;
use std::mem::MaybeUninit;
use std::os::raw::{c_char, c_int};

use vg_sys as sys;

use crate::error::Error;

/// The AEAD modes vg has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Gcm,
    GcmSiv,
    Ccm,
}

// Inline, with the error's construction out of line (cold): the success path of every call is one
// compare and no call.
#[inline]
fn check(rc: c_int) -> Result<(), Error> {
    if rc == sys::VG_OK {
        Ok(())
    } else {
        Err(error_of(rc))
    }
}

#[cold]
fn error_of(rc: c_int) -> Error {
    // Every code vg.h defines has a variant (build.rs reads them from the header); anything else
    // would be a library that does not match its header, and is refused as a bad call.
    Error::from_code(rc).unwrap_or(Error::Arg)
}

/// A set-up vg key of one mode. Boxed so that the key material lives at one heap address for the
/// key's whole life: moving an `UnboundKey` into a `LessSafeKey` or a `SealingKey` moves a pointer,
/// and leaves no copy of the round keys behind on the stack for `Drop` to miss. The box is wiped
/// with vg's wipe (which the compiler may not remove) before it is freed.
///
/// The box is allocated uninitialised (MaybeUninit) and only ever reached through raw pointers:
/// vg's init writes the whole key, so zeroing it first would be a second 2-3 KiB memset per key
/// (calloc against malloc of a GCM key's block: about 120 against 50 ns here). Its alignment is
/// the 16 bytes vg.h asks for: a 64-byte-aligned key (vg-speed's) made no measurable difference to
/// seal or open, and glibc's aligned allocation cost a key set-up about 40 ns more.
pub(crate) enum Key {
    Gcm(Box<MaybeUninit<sys::vg_aes_gcm_key>>),
    GcmSiv(Box<MaybeUninit<sys::vg_aes_gcm_siv_key>>),
    Ccm(Box<MaybeUninit<sys::vg_aes_ccm_key>>),
}

impl Drop for Key {
    fn drop(&mut self) {
        match self {
            // SAFETY: k is a live, exclusively owned allocation of the wipe's type (a Key exists
            // only once init succeeded); vg's wipe writes exactly sizeof(key) bytes of it and reads
            // nothing.
            Key::Gcm(k) => unsafe { sys::vg_aes_gcm_key_wipe(k.as_mut_ptr()) },
            // SAFETY: as above, for the GCM-SIV key type.
            Key::GcmSiv(k) => unsafe { sys::vg_aes_gcm_siv_key_wipe(k.as_mut_ptr()) },
            // SAFETY: as above, for the CCM key type.
            Key::Ccm(k) => unsafe { sys::vg_aes_ccm_key_wipe(k.as_mut_ptr()) },
        }
    }
}

// One macro for the three modes' calls, which differ only in the key type and the function names.
macro_rules! init {
    ($variant:ident, $ty:ident, $init:ident, $key:expr) => {{
        let key: &[u8] = $key;
        let mut k: Box<MaybeUninit<sys::$ty>> = Box::new(MaybeUninit::uninit());
        // SAFETY: k is a whole, exclusively owned allocation with the size and 16-byte alignment of
        // the type the function takes, which writes it and reads none of it before writing;
        // key.as_ptr() is valid for key.len() bytes. On error vg leaves *k untouched, and the box
        // is freed holding no key material (and never read).
        check(unsafe { sys::$init(k.as_mut_ptr(), key.as_ptr(), key.len()) })?;
        Ok(Key::$variant(k))
    }};
}

// seal(k, nonce, aad, in, len, out, tag) and open(k, nonce, aad, in, len, tag, out).
macro_rules! call_seal {
    ($f:ident, $k:expr, $nonce:expr, $aad:expr, $input:expr, $len:expr, $out:expr, $tag:expr) => {{
        let (nonce, aad, tag): (&[u8], &[u8], &mut [u8]) = ($nonce, $aad, $tag);
        // SAFETY: the key was set up by init (a Key exists only then) and is borrowed for the
        // call, vg only reading it; nonce, aad and tag are slices valid for their lengths (tag for
        // writing, and disjoint from everything else: it is a separate &mut); input and out come
        // from one &mut slice of len bytes (the caller's in_out), which is vg.h's permitted
        // in == out case. vg reads nonce and AAD before it writes.
        unsafe {
            sys::$f(
                $k.as_ptr(),
                nonce.as_ptr(),
                nonce.len(),
                aad.as_ptr(),
                aad.len(),
                $input,
                $len,
                $out,
                tag.as_mut_ptr(),
                tag.len(),
            )
        }
    }};
}

macro_rules! call_open {
    ($f:ident, $k:expr, $nonce:expr, $aad:expr, $input:expr, $len:expr, $tag:expr, $out:expr) => {{
        let (nonce, aad, tag): (&[u8], &[u8], &[u8]) = ($nonce, $aad, $tag);
        // SAFETY: the key was set up by init and is borrowed for the call, vg only reading it;
        // nonce, aad and tag are shared slices valid for their lengths, which the borrow checker
        // keeps apart from out (a &mut); input and out are valid for len bytes and are either the
        // same pointer (in place: vg.h's in == out) or disjoint slices (a & and a &mut cannot
        // overlap).
        unsafe {
            sys::$f(
                $k.as_ptr(),
                nonce.as_ptr(),
                nonce.len(),
                aad.as_ptr(),
                aad.len(),
                $input,
                $len,
                tag.as_ptr(),
                tag.len(),
                $out,
            )
        }
    }};
}

impl Key {
    pub(crate) fn new(mode: Mode, key: &[u8]) -> Result<Key, Error> {
        match mode {
            Mode::Gcm => init!(Gcm, vg_aes_gcm_key, vg_aes_gcm_init, key),
            Mode::GcmSiv => init!(GcmSiv, vg_aes_gcm_siv_key, vg_aes_gcm_siv_init, key),
            Mode::Ccm => init!(Ccm, vg_aes_ccm_key, vg_aes_ccm_init, key),
        }
    }

    /// Encrypts in_out in place and writes tag.len() bytes of tag.
    #[inline(always)]
    pub(crate) fn seal(
        &self,
        nonce: &[u8],
        aad: &[u8],
        in_out: &mut [u8],
        tag: &mut [u8],
    ) -> Result<(), Error> {
        let len = in_out.len();
        let p = in_out.as_mut_ptr();
        let rc = match self {
            Key::Gcm(k) => call_seal!(vg_aes_gcm_seal, k, nonce, aad, p, len, p, tag),
            Key::GcmSiv(k) => call_seal!(vg_aes_gcm_siv_seal, k, nonce, aad, p, len, p, tag),
            Key::Ccm(k) => call_seal!(vg_aes_ccm_seal, k, nonce, aad, p, len, p, tag),
        };
        check(rc)
    }

    /// Verifies tag and decrypts in_out in place; on Error::Auth vg has zeroed in_out.
    #[inline(always)]
    pub(crate) fn open_in_place(
        &self,
        nonce: &[u8],
        aad: &[u8],
        in_out: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        let len = in_out.len();
        let p = in_out.as_mut_ptr();
        let rc = match self {
            Key::Gcm(k) => call_open!(vg_aes_gcm_open, k, nonce, aad, p, len, tag, p),
            Key::GcmSiv(k) => call_open!(vg_aes_gcm_siv_open, k, nonce, aad, p, len, tag, p),
            Key::Ccm(k) => call_open!(vg_aes_ccm_open, k, nonce, aad, p, len, tag, p),
        };
        check(rc)
    }

    /// Verifies tag and decrypts input into out (of the same length; the two cannot overlap, being
    /// a & and a &mut); on Error::Auth vg has zeroed out.
    #[inline(always)]
    pub(crate) fn open_into(
        &self,
        nonce: &[u8],
        aad: &[u8],
        input: &[u8],
        out: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        // The length passed to C is the one both buffers must be valid for.
        if input.len() != out.len() {
            return Err(Error::Arg);
        }
        let len = input.len();
        let (i, o) = (input.as_ptr(), out.as_mut_ptr());
        let rc = match self {
            Key::Gcm(k) => call_open!(vg_aes_gcm_open, k, nonce, aad, i, len, tag, o),
            Key::GcmSiv(k) => call_open!(vg_aes_gcm_siv_open, k, nonce, aad, i, len, tag, o),
            Key::Ccm(k) => call_open!(vg_aes_ccm_open, k, nonce, aad, i, len, tag, o),
        };
        check(rc)
    }
}

/// A string vg.h documents as static and never NULL.
fn static_str(p: *const c_char) -> &'static str {
    if p.is_null() {
        return "?";
    }
    // SAFETY: p is non-NULL and, by vg.h's contract for every function that returns a name or a
    // sentence, points to a NUL-terminated string with static storage that is never written.
    let s: &'static CStr = unsafe { CStr::from_ptr(p) };
    s.to_str().unwrap_or("?")
}

pub(crate) fn strerror(code: c_int) -> &'static str {
    // SAFETY: takes any int and returns a static string (vg.h).
    static_str(unsafe { sys::vg_strerror(code) })
}

pub(crate) fn version() -> &'static str {
    // SAFETY: no arguments; returns a static string (vg.h).
    static_str(unsafe { sys::vg_version() })
}

pub(crate) fn impl_name() -> &'static str {
    // SAFETY: no arguments; returns a static string (vg.h). Thread-safe.
    static_str(unsafe { sys::vg_impl_name() })
}

pub(crate) fn impl_list() -> Vec<&'static str> {
    // SAFETY: names may be NULL when max is 0 (vg.h); returns the count only.
    let n = unsafe { sys::vg_impl_list(std::ptr::null_mut(), 0) };
    let mut names: Vec<*const c_char> = vec![std::ptr::null(); n];
    // SAFETY: names has room for names.len() pointers, and vg writes at most max of them.
    let total = unsafe { sys::vg_impl_list(names.as_mut_ptr(), names.len()) };
    names.truncate(total.min(n));
    names.into_iter().map(static_str).collect()
}

pub(crate) fn impl_select(name: &str) -> Result<(), Error> {
    // A name with a NUL byte names no implementation: the same answer vg gives for any unknown name.
    let c = std::ffi::CString::new(name).map_err(|_| Error::Unsupported)?;
    // SAFETY: c is a NUL-terminated string that outlives the call; vg only reads it.
    check(unsafe { sys::vg_impl_select(c.as_ptr()) })
}

pub(crate) fn impl_env_status() -> Result<(), Error> {
    // SAFETY: no arguments.
    check(unsafe { sys::vg_impl_env_status() })
}
