// SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
//! Implementation selection through the crate (vg::impls), and the version.

use vg::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_128_GCM};
use vg::error::Error;

use super::common::{for_each_impl, known_impls};

#[test]
fn selection() {
    let ran = for_each_impl("impls.selection", |imp| {
        let available = vg::impls::available();
        assert_eq!(available.last(), Some(&"portable"), "portable runs everywhere and is listed last");
        for a in &available {
            assert!(known_impls().contains(a), "{a} is not an implementation of this architecture");
        }
        // An unknown name is refused and changes nothing.
        assert_eq!(vg::impls::select("nosuchimpl"), Err(Error::Unsupported));
        assert_eq!(vg::impls::select("port\0able"), Err(Error::Unsupported));
        assert_eq!(vg::impls::name(), imp);
        // A key keeps the implementation that set it up: made under `imp`, it must still give the
        // same answer after another implementation is selected.
        let key = LessSafeKey::new(UnboundKey::new(&AES_128_GCM, &[0x42; 16]).unwrap());
        let mut a = b"one key, every implementation".to_vec();
        key.seal_in_place_append_tag(Nonce::assume_unique_for_key([1; 12]), Aad::empty(), &mut a).unwrap();
        vg::impls::select("portable").unwrap();
        let mut b = b"one key, every implementation".to_vec();
        key.seal_in_place_append_tag(Nonce::assume_unique_for_key([1; 12]), Aad::empty(), &mut b).unwrap();
        let other = LessSafeKey::new(UnboundKey::new(&AES_128_GCM, &[0x42; 16]).unwrap());
        let mut c = b"one key, every implementation".to_vec();
        other.seal_in_place_append_tag(Nonce::assume_unique_for_key([1; 12]), Aad::empty(), &mut c).unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        vg::impls::select(imp).unwrap();
    });
    assert!(ran >= 1);
    println!("impls.selection: available here: {:?}", vg::impls::available());
}

#[test]
fn version_and_environment() {
    assert!(vg::version().starts_with("0.2."), "vg {}", vg::version());
    // VG_IMPL, when set, must name an implementation that runs here: otherwise vg ignored it and
    // the run would test something other than what was asked for.
    if std::env::var("VG_IMPL").map_or(false, |v| !v.is_empty()) {
        assert_eq!(vg::impls::env_status(), Ok(()), "VG_IMPL names no implementation this CPU runs");
    }
}
