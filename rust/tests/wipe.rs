// SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
//! Keys are zeroed when dropped. The crate keeps each vg key in one heap block of exactly the C
//! type's size and alignment; this binary's global allocator looks at every such block as it is
//! freed and counts those that still hold a non-zero byte. A binary of its own, since the global
//! allocator is per binary.
//!
//! The unsafe code here is the allocator interface itself (GlobalAlloc is an unsafe trait); it
//! only forwards to the system allocator and reads blocks the program is handing back.
#![allow(unsafe_code)]
// Each unsafe operation in its own block with its own SAFETY line, on every toolchain.
#![deny(unsafe_op_in_unsafe_fn)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use vg::aead::{self, Aad, BoundKey, LessSafeKey, Nonce, NonceSequence, OpeningKey, SealingKey, UnboundKey};

// vg.h's VG_AES_GCM_KEY_SIZE and VG_AES_KEY_SIZE (GCM-SIV and CCM keys), 16-byte aligned: the blocks
// that hold keys (vg-sys's generated constants pin them to the header; a change there fails the
// count below rather than passing unchecked).
const KEY_BLOCK_SIZES: [usize; 2] = [3136, 2112];

struct Checking;

static FREED_KEY_BLOCKS: AtomicUsize = AtomicUsize::new(0);
static FREED_DIRTY: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every method forwards to System with the caller's arguments unchanged, so System's
// guarantees are this allocator's.
unsafe impl GlobalAlloc for Checking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged (the caller upholds alloc's contract).
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if layout.align() == 16 && KEY_BLOCK_SIZES.contains(&layout.size()) {
            // SAFETY: ptr was allocated with this layout and is still allocated, so its
            // layout.size() bytes are readable; nothing else uses the block any more.
            let bytes = unsafe { std::slice::from_raw_parts(ptr, layout.size()) };
            FREED_KEY_BLOCKS.fetch_add(1, Ordering::SeqCst);
            if bytes.iter().any(|&b| b != 0) {
                FREED_DIRTY.fetch_add(1, Ordering::SeqCst);
            }
        }
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Checking = Checking;

struct Counter(u8);
impl NonceSequence for Counter {
    fn advance(&mut self) -> Result<Nonce, vg::error::Unspecified> {
        self.0 += 1;
        Ok(Nonce::assume_unique_for_key([self.0; 12]))
    }
}

#[test]
fn keys_are_zeroed_when_dropped() {
    let algorithms = [
        &aead::AES_128_GCM,
        &aead::AES_192_GCM,
        &aead::AES_256_GCM,
        &aead::AES_128_GCM_SIV,
        &aead::AES_256_GCM_SIV,
        &aead::AES_128_CCM,
        &aead::AES_256_CCM_8,
    ];
    let mut made = 0;
    for imp in vg::impls::available() {
        // The only test in this binary, so selecting here races with nothing.
        vg::impls::select(imp).unwrap();
        for alg in algorithms {
            let key_bytes = vec![0xa5u8; alg.key_len()];
            // Dropped as an UnboundKey.
            drop(UnboundKey::new(alg, &key_bytes).unwrap());
            // Moved into a LessSafeKey, used, dropped.
            let k = LessSafeKey::new(UnboundKey::new(alg, &key_bytes).unwrap());
            let mut m = b"some bytes".to_vec();
            k.seal_in_place_append_tag(Nonce::assume_unique_for_key([1; 12]), Aad::empty(), &mut m).unwrap();
            drop(k);
            // Bound keys.
            let mut s = SealingKey::new(UnboundKey::new(alg, &key_bytes).unwrap(), Counter(0));
            s.seal_in_place_append_tag(Aad::empty(), &mut m).unwrap();
            drop(s);
            drop(OpeningKey::new(UnboundKey::new(alg, &key_bytes).unwrap(), Counter(0)));
            made += 4;
        }
        // A refused key set-up frees its block too, never having held a key.
        assert!(UnboundKey::new(&aead::AES_128_GCM, &[1; 15]).is_err());
    }
    vg::impls::select("auto").unwrap();
    let freed = FREED_KEY_BLOCKS.load(Ordering::SeqCst);
    let dirty = FREED_DIRTY.load(Ordering::SeqCst);
    println!(
        "wipe: {made} keys made and dropped on {:?}; {freed} key blocks freed, {dirty} not zero",
        vg::impls::available()
    );
    assert!(
        freed >= made,
        "only {freed} key-sized blocks were freed for {made} keys: has the key layout changed?"
    );
    assert_eq!(dirty, 0, "{dirty} key blocks were freed without being wiped");
}
