// SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
//! Misuse: wrong key lengths, inputs too short for a tag, short and tampered tags, tampered
//! ciphertext and AAD, bad nonces and ranges, lengths over a mode's limit, an exhausted nonce
//! sequence. Each must give its error and never release plaintext: a refused open leaves its
//! output zero (a forgery) or untouched (a parameter error), on every algorithm and implementation.
//! Also the type-level promises: keys are Send + Sync and neither Copy nor Clone.

use std::sync::Arc;

use vg::aead::{
    self, Aad, Algorithm, BoundKey, LessSafeKey, Nonce, NonceSequence, OpeningKey, SealingKey, UnboundKey,
};
use vg::error::{Error, Unspecified};

use super::common::{for_each_impl, seed, Rng};

/// Every algorithm the crate names, and one of each table row built at run time.
fn algorithms() -> Vec<&'static Algorithm> {
    let mut all = vec![
        &aead::AES_128_GCM,
        &aead::AES_192_GCM,
        &aead::AES_256_GCM,
        &aead::AES_128_GCM_SIV,
        &aead::AES_192_GCM_SIV,
        &aead::AES_256_GCM_SIV,
        &aead::AES_128_CCM,
        &aead::AES_192_CCM,
        &aead::AES_256_CCM,
        &aead::AES_128_CCM_8,
        &aead::AES_192_CCM_8,
        &aead::AES_256_CCM_8,
    ];
    for k in [16, 24, 32] {
        for t in [4, 8, 12, 13, 14, 15, 16] {
            all.push(aead::aes_gcm(k, t).unwrap());
        }
        for t in [4, 6, 8, 10, 12, 14, 16] {
            all.push(aead::aes_ccm(k, t).unwrap());
        }
    }
    all
}

fn is_zero(b: &[u8]) -> bool {
    b.iter().all(|&x| x == 0)
}

fn nonce(n: &[u8; 12]) -> Nonce {
    Nonce::assume_unique_for_key(*n)
}

#[test]
fn wrong_key_lengths() {
    for_each_impl("misuse.key_length", |_| {
        for alg in algorithms() {
            for len in 0..=48 {
                if len == alg.key_len() {
                    assert!(UnboundKey::new(alg, &vec![1u8; len]).is_ok());
                    continue;
                }
                assert_eq!(
                    UnboundKey::new(alg, &vec![1u8; len]).err(),
                    Some(Unspecified),
                    "{alg:?} key {len}"
                );
                assert_eq!(
                    UnboundKey::try_new(alg, &vec![1u8; len]).err(),
                    Some(Error::KeyLength),
                    "{alg:?} key {len}"
                );
            }
        }
    });
}

#[test]
fn algorithm_choices() {
    for bad_key in [0, 8, 15, 17, 20, 31, 33, 64] {
        assert_eq!(aead::aes_gcm(bad_key, 16).err(), Some(Error::KeyLength));
        assert_eq!(aead::aes_ccm(bad_key, 16).err(), Some(Error::KeyLength));
    }
    for bad_tag in [0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 17, 32] {
        assert_eq!(aead::aes_gcm(16, bad_tag).err(), Some(Error::TagLength), "gcm tag {bad_tag}");
    }
    for bad_tag in [0, 1, 2, 3, 5, 7, 9, 11, 13, 15, 17, 18] {
        assert_eq!(aead::aes_ccm(16, bad_tag).err(), Some(Error::TagLength), "ccm tag {bad_tag}");
    }
    assert_eq!(aead::aes_gcm(16, 16).unwrap(), &aead::AES_128_GCM);
    assert_eq!(aead::aes_ccm(32, 8).unwrap(), &aead::AES_256_CCM_8);
    assert_eq!(format!("{:?}", aead::AES_256_CCM_8), "AES_256_CCM_8");
    assert_eq!(format!("{:?}", aead::AES_192_GCM_SIV), "AES_192_GCM_SIV");
    assert_eq!(format!("{:?}", aead::aes_gcm(24, 12).unwrap()), "AES_192_GCM_12");
    for alg in algorithms() {
        assert_eq!(alg.nonce_len(), aead::NONCE_LEN);
        assert!(alg.tag_len() <= aead::MAX_TAG_LEN);
    }
    assert!(Nonce::try_assume_unique_for_key(&[0u8; 11]).is_err());
    assert!(Nonce::try_assume_unique_for_key(&[0u8; 13]).is_err());
    assert_eq!(Nonce::try_assume_unique_for_key(&[5u8; 12]).unwrap().as_ref(), &[5u8; 12]);
    // Error codes are vg's.
    for (e, code) in [
        (Error::KeyLength, -1),
        (Error::NonceLength, -2),
        (Error::TagLength, -3),
        (Error::Length, -4),
        (Error::Auth, -5),
        (Error::Arg, -6),
        (Error::Unsupported, -7),
    ] {
        assert_eq!(e.code(), code);
        assert_eq!(Error::from_code(code), Some(e));
        assert!(!e.to_string().is_empty());
    }
    assert_eq!(Error::from_code(0), None);
    assert_eq!(Unspecified::from(Error::Auth), Unspecified);
}

/// Seals a random message with `key`, returning (plaintext, ciphertext || tag).
fn sealed(key: &LessSafeKey, n: &[u8; 12], aad: &[u8], len: usize, rng: &mut Rng) -> (Vec<u8>, Vec<u8>) {
    let pt = rng.bytes(len);
    let mut buf = pt.clone();
    key.seal_in_place_append_tag(nonce(n), Aad::from(aad), &mut buf).unwrap();
    (pt, buf)
}

#[test]
fn short_inputs_and_tags() {
    for_each_impl("misuse.short", |imp| {
        let mut rng = Rng::new(seed("short", imp));
        for alg in algorithms() {
            let key = LessSafeKey::new(UnboundKey::new(alg, &rng.bytes(alg.key_len())).unwrap());
            let n = [9u8; 12];
            let tl = alg.tag_len();
            // in_out too short to hold a tag: refused, untouched.
            for len in 0..tl {
                let orig = rng.bytes(len);
                let mut buf = orig.clone();
                assert!(
                    key.open_in_place(nonce(&n), Aad::empty(), &mut buf).is_err(),
                    "{alg:?} in_out {len}"
                );
                assert_eq!(buf, orig);
                let mut buf = orig.clone();
                assert!(key.open_within(nonce(&n), Aad::empty(), &mut buf, 0..).is_err());
                assert_eq!(buf, orig);
            }
            // A range that starts past the end: refused, untouched.
            let (_, msg) = sealed(&key, &n, b"", 40, &mut rng);
            let mut buf = msg.clone();
            assert!(key.open_within(nonce(&n), Aad::empty(), &mut buf, msg.len() + 1..).is_err());
            assert_eq!(buf, msg);
            // A short tag: the message with its tag truncated by 1..tag_len bytes. The last tag
            // bytes then count as ciphertext and the tag is misread: a forgery, output zeroed.
            let (pt, msg) = sealed(&key, &n, b"aad", 40, &mut rng);
            for cut in 1..tl {
                let mut buf = msg[..msg.len() - cut].to_vec();
                let ct_len = buf.len() - tl;
                assert!(
                    key.open_in_place(nonce(&n), Aad::from(b"aad"), &mut buf).is_err(),
                    "{alg:?} cut {cut}"
                );
                assert!(is_zero(&buf[..ct_len]), "{alg:?}: a refused open left plaintext");
            }
            // The detached open: a tag slice of any other length is refused as such, untouched.
            let (ct, tag) = msg.split_at(pt.len());
            for len in (0..=aead::MAX_TAG_LEN + 1).filter(|&l| l != tl) {
                let t: Vec<u8> = tag.iter().copied().cycle().take(len).collect();
                let mut buf = ct.to_vec();
                assert_eq!(
                    key.open_detached(&n, Aad::from(b"aad"), &mut buf, &t),
                    Err(Error::TagLength),
                    "{alg:?} tag {len}"
                );
                assert_eq!(buf, ct);
            }
            let mut buf = ct.to_vec();
            key.open_detached(&n, Aad::from(b"aad"), &mut buf, tag).unwrap();
            assert_eq!(buf, pt);
        }
    });
}

#[test]
fn tampering() {
    for_each_impl("misuse.tamper", |imp| {
        let mut rng = Rng::new(seed("tamper", imp));
        for alg in algorithms() {
            let key = LessSafeKey::new(UnboundKey::new(alg, &rng.bytes(alg.key_len())).unwrap());
            let n = [3u8; 12];
            let aad = rng.bytes(20);
            let len = 1 + rng.below(100);
            let (pt, msg) = sealed(&key, &n, &aad, len, &mut rng);
            let refused = |mut buf: Vec<u8>, aad: &[u8], n: &[u8; 12], what: &str| {
                assert!(
                    key.open_in_place(nonce(n), Aad::from(aad), &mut buf).is_err(),
                    "{alg:?}: {what} accepted"
                );
                assert!(is_zero(&buf[..len]), "{alg:?}: {what}: a refused open left plaintext");
            };
            // Every bit of the tag.
            for bit in 0..alg.tag_len() * 8 {
                let mut m = msg.clone();
                m[len + bit / 8] ^= 1 << (bit % 8);
                refused(m, &aad, &n, "a tag bit flipped");
            }
            // A bit of the ciphertext, of the AAD, of the nonce.
            let mut m = msg.clone();
            m[rng.below(len)] ^= 0x80;
            refused(m, &aad, &n, "a ciphertext bit flipped");
            let mut a = aad.clone();
            let i = rng.below(a.len());
            a[i] ^= 1;
            refused(msg.clone(), &a, &n, "an AAD bit flipped");
            let mut n2 = n;
            n2[11] ^= 1;
            refused(msg.clone(), &aad, &n2, "a nonce bit flipped");
            // The shifted opens: overlapping and disjoint outputs, forged tag.
            for shift in [1, len / 2 + 1, len, len + 7] {
                let mut m = [rng.bytes(shift), msg.clone()].concat();
                let last = m.len() - 1;
                m[last] ^= 1;
                assert!(key.open_within(nonce(&n), Aad::from(&aad[..]), &mut m, shift..).is_err());
                assert!(
                    is_zero(&m[..len]),
                    "{alg:?}: open_within shift {shift}: plaintext left in the output"
                );
                assert!(
                    !m.windows(len).any(|w| w == &pt[..]),
                    "{alg:?}: open_within shift {shift}: plaintext in the buffer"
                );
            }
            // The genuine message still opens, at every kind of shift.
            for shift in [0, 1, len / 2 + 1, len, len + 7] {
                let mut m = [rng.bytes(shift), msg.clone()].concat();
                let out = key.open_within(nonce(&n), Aad::from(&aad[..]), &mut m, shift..).unwrap();
                assert_eq!(out, &pt[..], "{alg:?}: open_within shift {shift}");
            }
            // The detached open: a forgery zeroes in_out.
            let mut buf = msg[..len].to_vec();
            let mut tag = msg[len..].to_vec();
            tag[0] ^= 4;
            assert_eq!(key.open_detached(&n, Aad::from(&aad[..]), &mut buf, &tag), Err(Error::Auth));
            assert!(is_zero(&buf));
        }
    });
}

#[test]
fn nonces_and_limits() {
    for_each_impl("misuse.nonces", |imp| {
        let mut rng = Rng::new(seed("nonces", imp));
        for alg in algorithms() {
            let key = LessSafeKey::new(UnboundKey::new(alg, &rng.bytes(alg.key_len())).unwrap());
            let name = format!("{alg:?}");
            // vg.h: GCM-SIV takes 12-byte nonces, CCM 7 to 13, GCM any from 1 byte.
            let ok = |nlen: usize| {
                if name.contains("SIV") {
                    nlen == 12
                } else if name.contains("CCM") {
                    (7..=13).contains(&nlen)
                } else {
                    nlen >= 1
                }
            };
            for nlen in 0..=20 {
                let n = rng.bytes(nlen);
                let pt = rng.bytes(33);
                let mut buf = pt.clone();
                let r = key.seal_detached(&n, Aad::from(b"x"), &mut buf);
                if ok(nlen) {
                    let tag = r.unwrap();
                    let mut back = buf.clone();
                    key.open_detached(&n, Aad::from(b"x"), &mut back, tag.as_ref()).unwrap();
                    assert_eq!(back, pt);
                } else {
                    assert_eq!(r.err(), Some(Error::NonceLength), "{name} nonce {nlen}");
                    assert_eq!(buf, pt, "{name}: a refused seal wrote");
                    let mut buf2 = buf.clone();
                    let tag = vec![0u8; alg.tag_len()];
                    assert_eq!(
                        key.open_detached(&n, Aad::from(b"x"), &mut buf2, &tag),
                        Err(Error::NonceLength)
                    );
                    assert_eq!(buf2, buf, "{name}: a refused open wrote");
                }
            }
            // CCM's message limit follows from the nonce: a 13-byte nonce leaves 2 length bytes.
            if name.contains("CCM") {
                let n = [1u8; 13];
                let mut big = vec![7u8; 1 << 16];
                assert_eq!(key.seal_detached(&n, Aad::empty(), &mut big).err(), Some(Error::Length));
                assert!(big.iter().all(|&b| b == 7), "{name}: a refused seal wrote");
                let mut fits = vec![7u8; (1 << 16) - 1];
                assert!(key.seal_detached(&n, Aad::empty(), &mut fits).is_ok());
            }
        }
    });
}

struct Twice(u32);
impl NonceSequence for Twice {
    fn advance(&mut self) -> Result<Nonce, Unspecified> {
        if self.0 == 0 {
            return Err(Unspecified);
        }
        self.0 -= 1;
        Ok(Nonce::assume_unique_for_key([self.0 as u8; 12]))
    }
}

#[test]
fn exhausted_nonce_sequence() {
    for_each_impl("misuse.sequence", |_| {
        let mut s = SealingKey::new(UnboundKey::new(&aead::AES_128_GCM, &[1; 16]).unwrap(), Twice(2));
        let mut o = OpeningKey::new(UnboundKey::new(&aead::AES_128_GCM, &[1; 16]).unwrap(), Twice(2));
        let mut msgs = Vec::new();
        for _ in 0..2 {
            let mut m = b"hello".to_vec();
            s.seal_in_place_append_tag(Aad::empty(), &mut m).unwrap();
            msgs.push(m);
        }
        let mut m = b"third".to_vec();
        assert!(s.seal_in_place_append_tag(Aad::empty(), &mut m).is_err());
        assert_eq!(m, b"third", "a seal refused for want of a nonce wrote");
        for m in &mut msgs {
            assert_eq!(o.open_in_place(Aad::empty(), m).unwrap(), b"hello");
        }
        let mut m = msgs[0].clone();
        let before = m.clone();
        assert!(o.open_in_place(Aad::empty(), &mut m).is_err());
        assert_eq!(m, before);
        assert_eq!(s.algorithm(), &aead::AES_128_GCM);
        assert!(format!("{s:?} {o:?}").contains("AES_128_GCM"));
    });
}

// Type-level promises. A key is Send + Sync (vg.h: read-only after set-up, shared by any number of
// threads) and neither Copy nor Clone (copies of key material would each need wiping). The
// negative checks: if the type implemented the trait, `<T as NotCopy<_>>::check` would have two
// candidate impls and not compile.
trait NotCopy<A> {
    fn check() {}
}
impl<T: ?Sized> NotCopy<()> for T {}
impl<T: Copy> NotCopy<u8> for T {}
trait NotClone<A> {
    fn check() {}
}
impl<T: ?Sized> NotClone<()> for T {}
impl<T: Clone> NotClone<u8> for T {}

#[test]
fn key_types() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<UnboundKey>();
    send_sync::<LessSafeKey>();
    send_sync::<SealingKey<Twice>>();
    send_sync::<OpeningKey<Twice>>();
    send_sync::<&'static Algorithm>();
    <UnboundKey as NotCopy<_>>::check();
    <LessSafeKey as NotCopy<_>>::check();
    <SealingKey<Twice> as NotCopy<_>>::check();
    <OpeningKey<Twice> as NotCopy<_>>::check();
    <Nonce as NotCopy<_>>::check();
    <UnboundKey as NotClone<_>>::check();
    <LessSafeKey as NotClone<_>>::check();
    <Nonce as NotClone<_>>::check();
    // Debug never shows key bytes.
    let k = UnboundKey::new(&aead::AES_256_GCM, &[0x5a; 32]).unwrap();
    assert_eq!(format!("{k:?}"), "UnboundKey { algorithm: AES_256_GCM }");
}

#[test]
fn shared_between_threads() {
    for_each_impl("misuse.threads", |_| {
        let key = Arc::new(LessSafeKey::new(UnboundKey::new(&aead::AES_256_GCM_SIV, &[4; 32]).unwrap()));
        let handles: Vec<_> = (0..4u8)
            .map(|t| {
                let key = Arc::clone(&key);
                std::thread::spawn(move || {
                    for i in 0..200u32 {
                        let pt = vec![t; (i as usize * 7) % 300];
                        let mut buf = pt.clone();
                        let n = [t, i as u8, (i >> 8) as u8, 0, 0, 0, 0, 0, 0, 0, 0, 0];
                        key.seal_in_place_append_tag(Nonce::assume_unique_for_key(n), Aad::empty(), &mut buf)
                            .unwrap();
                        let out = key
                            .open_in_place(Nonce::assume_unique_for_key(n), Aad::empty(), &mut buf)
                            .unwrap();
                        assert_eq!(out, &pt[..]);
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    });
}
