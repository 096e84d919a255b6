// SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
//! Raw declarations of `include/vg.h`, vg's C API. Nothing here is safe to call without reading the
//! header: it is the manual, and every function's contract (lengths, aliasing, what is written on
//! error) is stated there. The safe interface is the `vg` crate.
//!
//! The context sizes, error codes and version come from the header the linked library was built
//! with (build.rs reads it), so a context type here is always exactly the size the C code expects.
//! `size_t` is `usize` on every platform vg supports.
#![allow(non_camel_case_types)]

use std::fmt;
pub use std::os::raw::{c_char, c_int};

include!(concat!(env!("OUT_DIR"), "/vg_h.rs"));

macro_rules! context_type {
    ($(#[$doc:meta])* $name:ident, $size:ident) => {
        $(#[$doc])*
        /// Opaque: only vg's functions read or write it. 16-byte aligned as `VG_CONTEXT_ALIGN` says.
        #[repr(C, align(16))]
        pub struct $name {
            pub opaque: [u8; $size],
        }
        impl $name {
            /// An all-zero context, which every vg function refuses until it is set up.
            pub const fn zeroed() -> Self {
                $name { opaque: [0; $size] }
            }
        }
        // The bytes are key material: never print them.
        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(stringify!($name))
            }
        }
    };
}

context_type!(
    /// `vg_aes_key`: an expanded AES key.
    vg_aes_key,
    VG_AES_KEY_SIZE
);
context_type!(
    /// `vg_aes_ctr_stream`: AES-CTR as a byte stream.
    vg_aes_ctr_stream,
    VG_AES_CTR_STREAM_SIZE
);
context_type!(
    /// `vg_aes_gcm_key`: an AES-GCM key (schedule, H and its powers).
    vg_aes_gcm_key,
    VG_AES_GCM_KEY_SIZE
);
context_type!(
    /// `vg_aes_gcm_stream`: streaming GCM.
    vg_aes_gcm_stream,
    VG_AES_GCM_STREAM_SIZE
);
context_type!(
    /// `vg_aes_gcm_siv_key`: an AES-GCM-SIV key-generating key.
    vg_aes_gcm_siv_key,
    VG_AES_GCM_SIV_KEY_SIZE
);
context_type!(
    /// `vg_aes_ccm_key`: an AES-CCM key.
    vg_aes_ccm_key,
    VG_AES_CCM_KEY_SIZE
);

extern "C" {
    pub fn vg_version() -> *const c_char;
    pub fn vg_strerror(code: c_int) -> *const c_char;

    pub fn vg_impl_name() -> *const c_char;
    pub fn vg_impl_select(name: *const c_char) -> c_int;
    pub fn vg_impl_env_status() -> c_int;
    pub fn vg_impl_list(names: *mut *const c_char, max: usize) -> usize;

    pub fn vg_aes_expand_key(k: *mut vg_aes_key, key: *const u8, key_len: usize) -> c_int;
    pub fn vg_aes_ecb_encrypt(k: *const vg_aes_key, input: *const u8, out: *mut u8, nblocks: usize) -> c_int;
    pub fn vg_aes_ecb_decrypt(k: *const vg_aes_key, input: *const u8, out: *mut u8, nblocks: usize) -> c_int;
    pub fn vg_aes_ctr32(
        k: *const vg_aes_key,
        counter: *mut u8,
        input: *const u8,
        out: *mut u8,
        nblocks: usize,
    ) -> c_int;
    pub fn vg_aes_key_wipe(k: *mut vg_aes_key);

    pub fn vg_aes_ctr_stream_init(
        s: *mut vg_aes_ctr_stream,
        k: *const vg_aes_key,
        counter: *const u8,
    ) -> c_int;
    pub fn vg_aes_ctr_stream_xor(
        s: *mut vg_aes_ctr_stream,
        input: *const u8,
        out: *mut u8,
        len: usize,
    ) -> c_int;
    pub fn vg_aes_ctr_stream_wipe(s: *mut vg_aes_ctr_stream);

    pub fn vg_aes_gcm_init(k: *mut vg_aes_gcm_key, key: *const u8, key_len: usize) -> c_int;
    pub fn vg_aes_gcm_seal(
        k: *const vg_aes_gcm_key,
        nonce: *const u8,
        nonce_len: usize,
        aad: *const u8,
        aad_len: usize,
        input: *const u8,
        len: usize,
        out: *mut u8,
        tag: *mut u8,
        tag_len: usize,
    ) -> c_int;
    pub fn vg_aes_gcm_open(
        k: *const vg_aes_gcm_key,
        nonce: *const u8,
        nonce_len: usize,
        aad: *const u8,
        aad_len: usize,
        input: *const u8,
        len: usize,
        tag: *const u8,
        tag_len: usize,
        out: *mut u8,
    ) -> c_int;
    pub fn vg_aes_gcm_key_wipe(k: *mut vg_aes_gcm_key);

    pub fn vg_aes_gcm_stream_init(
        s: *mut vg_aes_gcm_stream,
        k: *const vg_aes_gcm_key,
        nonce: *const u8,
        nonce_len: usize,
    ) -> c_int;
    pub fn vg_aes_gcm_stream_aad(s: *mut vg_aes_gcm_stream, aad: *const u8, len: usize) -> c_int;
    pub fn vg_aes_gcm_stream_encrypt(
        s: *mut vg_aes_gcm_stream,
        input: *const u8,
        len: usize,
        out: *mut u8,
    ) -> c_int;
    pub fn vg_aes_gcm_stream_decrypt(
        s: *mut vg_aes_gcm_stream,
        input: *const u8,
        len: usize,
        out: *mut u8,
    ) -> c_int;
    pub fn vg_aes_gcm_stream_finish(s: *mut vg_aes_gcm_stream, tag: *mut u8, tag_len: usize) -> c_int;
    pub fn vg_aes_gcm_stream_verify(s: *mut vg_aes_gcm_stream, tag: *const u8, tag_len: usize) -> c_int;
    pub fn vg_aes_gcm_stream_wipe(s: *mut vg_aes_gcm_stream);

    pub fn vg_aes_gcm_siv_init(k: *mut vg_aes_gcm_siv_key, key: *const u8, key_len: usize) -> c_int;
    pub fn vg_aes_gcm_siv_seal(
        k: *const vg_aes_gcm_siv_key,
        nonce: *const u8,
        nonce_len: usize,
        aad: *const u8,
        aad_len: usize,
        input: *const u8,
        len: usize,
        out: *mut u8,
        tag: *mut u8,
        tag_len: usize,
    ) -> c_int;
    pub fn vg_aes_gcm_siv_open(
        k: *const vg_aes_gcm_siv_key,
        nonce: *const u8,
        nonce_len: usize,
        aad: *const u8,
        aad_len: usize,
        input: *const u8,
        len: usize,
        tag: *const u8,
        tag_len: usize,
        out: *mut u8,
    ) -> c_int;
    pub fn vg_aes_gcm_siv_key_wipe(k: *mut vg_aes_gcm_siv_key);

    pub fn vg_aes_ccm_init(k: *mut vg_aes_ccm_key, key: *const u8, key_len: usize) -> c_int;
    pub fn vg_aes_ccm_seal(
        k: *const vg_aes_ccm_key,
        nonce: *const u8,
        nonce_len: usize,
        aad: *const u8,
        aad_len: usize,
        input: *const u8,
        len: usize,
        out: *mut u8,
        tag: *mut u8,
        tag_len: usize,
    ) -> c_int;
    pub fn vg_aes_ccm_open(
        k: *const vg_aes_ccm_key,
        nonce: *const u8,
        nonce_len: usize,
        aad: *const u8,
        aad_len: usize,
        input: *const u8,
        len: usize,
        tag: *const u8,
        tag_len: usize,
        out: *mut u8,
    ) -> c_int;
    pub fn vg_aes_ccm_key_wipe(k: *mut vg_aes_ccm_key);
}

// The alignment the header promises (VG_CONTEXT_ALIGN) and the sizes it names, checked where the
// compiler can see both.
const _: () = assert!(std::mem::align_of::<vg_aes_gcm_key>() == 16);
const _: () = assert!(std::mem::size_of::<vg_aes_gcm_key>() == VG_AES_GCM_KEY_SIZE);
const _: () = assert!(std::mem::size_of::<vg_aes_key>() == VG_AES_KEY_SIZE);
const _: () = assert!(std::mem::size_of::<vg_aes_gcm_siv_key>() == VG_AES_GCM_SIV_KEY_SIZE);
const _: () = assert!(std::mem::size_of::<vg_aes_ccm_key>() == VG_AES_CCM_KEY_SIZE);
