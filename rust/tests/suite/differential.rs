// SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
//! vg against ring 0.16 for AES-128-GCM and AES-256-GCM, through the same calls: random keys and
//! nonces, AAD of 0..=100 bytes, messages of 0..=5000 (uniform, short, and around block and kernel
//! boundaries), sealed with both of ring's seal calls, opened in place and with `open_within` at
//! random shifts (none, overlapping, disjoint), then a tampered copy (ciphertext, tag, AAD, nonce
//! or length) that both must refuse. Both must give the same bytes and the same verdict.
//!
//! Where the bytes may legitimately differ, ring documents them as unspecified: after an
//! `open_within` whose output overlaps its input at an offset, the bytes between the plaintext and
//! the tag (ring leaves ciphertext there; vg zeroes them, so no stray plaintext is left behind).
//!
//! VG_RUST_DIFF_CASES sets the number of cases per implementation (default 3000).

use ring::aead as r;
use vg::aead as v;

use super::common::{for_each_impl, seed, Rng};

fn cases() -> usize {
    std::env::var("VG_RUST_DIFF_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(3000)
}

/// A message length: uniform, short, or next to a multiple of 16 (block, 8-block batch, and the
/// whole-message and 4 KiB kernel limits all sit on such multiples).
fn pick_len(rng: &mut Rng) -> usize {
    match rng.below(4) {
        0 | 1 => rng.below(5001),
        2 => rng.below(301),
        _ => (16 * rng.below(313) + rng.below(3)).saturating_sub(1).min(5000),
    }
}

/// A shift for open_within: none, overlapping the ciphertext, or past it (disjoint).
fn pick_shift(rng: &mut Rng, len: usize) -> usize {
    match rng.below(4) {
        0 => 0,
        1 => 1 + rng.below(16),
        2 => 1 + rng.below(64),
        _ => len + rng.below(17),
    }
}

fn keys(key: &[u8]) -> (v::LessSafeKey, r::LessSafeKey) {
    let (va, ra) =
        if key.len() == 16 { (&v::AES_128_GCM, &r::AES_128_GCM) } else { (&v::AES_256_GCM, &r::AES_256_GCM) };
    (
        v::LessSafeKey::new(v::UnboundKey::new(va, key).unwrap()),
        r::LessSafeKey::new(r::UnboundKey::new(ra, key).unwrap()),
    )
}

fn vn(n: [u8; 12]) -> v::Nonce {
    v::Nonce::assume_unique_for_key(n)
}

fn rn(n: [u8; 12]) -> r::Nonce {
    r::Nonce::assume_unique_for_key(n)
}

struct Stats {
    cases: usize,
    overlapping: usize,
    disjoint: usize,
    bytes: usize,
}

fn one_case(rng: &mut Rng, ctx: &str, st: &mut Stats) {
    let key_len = if rng.below(2) == 0 { 16 } else { 32 };
    let key = rng.bytes(key_len);
    let mut nonce = [0u8; 12];
    rng.fill(&mut nonce);
    let aad_len = rng.below(101);
    let aad = rng.bytes(aad_len);
    let len = pick_len(rng);
    let pt = rng.bytes(len);
    let (vk, rk) = keys(&key);
    st.cases += 1;
    st.bytes += len;

    // Seal, tag appended.
    let mut vs = pt.clone();
    vk.seal_in_place_append_tag(vn(nonce), v::Aad::from(&aad[..]), &mut vs).unwrap();
    let mut rs = pt.clone();
    rk.seal_in_place_append_tag(rn(nonce), r::Aad::from(&aad[..]), &mut rs).unwrap();
    assert_eq!(
        vs,
        rs,
        "{ctx}: seal_in_place_append_tag (key {} bytes, aad {}, len {len})",
        key.len(),
        aad.len()
    );

    // Seal, tag separate.
    let mut vb = pt.clone();
    let vt = vk.seal_in_place_separate_tag(vn(nonce), v::Aad::from(&aad[..]), &mut vb).unwrap();
    let mut rb = pt.clone();
    let rt = rk.seal_in_place_separate_tag(rn(nonce), r::Aad::from(&aad[..]), &mut rb).unwrap();
    assert_eq!(vb, rb, "{ctx}: seal_in_place_separate_tag ciphertext");
    assert_eq!(vt.as_ref(), rt.as_ref(), "{ctx}: seal_in_place_separate_tag tag");
    assert_eq!([&vb[..], vt.as_ref()].concat(), vs, "{ctx}: the two seals disagree");

    // Open the genuine message at a random shift.
    let shift = pick_shift(rng, len);
    let overlapping = shift != 0 && shift < len;
    if overlapping {
        st.overlapping += 1;
    } else if shift != 0 {
        st.disjoint += 1;
    }
    let prefix = rng.bytes(shift);
    let sealed = [&prefix[..], &vs[..]].concat();
    let (mut vo, mut ro) = (sealed.clone(), sealed.clone());
    let vr = vk.open_within(vn(nonce), v::Aad::from(&aad[..]), &mut vo, shift..).map(|p| p.to_vec());
    let rr = rk.open_within(rn(nonce), r::Aad::from(&aad[..]), &mut ro, shift..).map(|p| p.to_vec());
    assert_eq!(vr.as_deref().ok(), Some(&pt[..]), "{ctx}: vg open_within (shift {shift}, len {len})");
    assert_eq!(rr.as_deref().ok(), Some(&pt[..]), "{ctx}: ring open_within (shift {shift}, len {len})");
    compare_buffers(ctx, "genuine", &vo, &ro, shift, len, overlapping);

    // One tampered copy: both must refuse, and neither may leave plaintext behind.
    let mut t_nonce = nonce;
    let mut t_aad = aad.clone();
    let mut t_sealed = sealed.clone();
    let what = match rng.below(5) {
        0 if len > 0 => {
            t_sealed[shift + rng.below(len)] ^= 1 << rng.below(8);
            "ciphertext bit"
        }
        0 | 1 => {
            t_sealed[shift + len + rng.below(16)] ^= 1 << rng.below(8);
            "tag bit"
        }
        2 if !aad.is_empty() => {
            let i = rng.below(aad.len());
            t_aad[i] ^= 1 << rng.below(8);
            "AAD bit"
        }
        2 => {
            t_aad.push(0);
            "AAD byte added"
        }
        3 => {
            t_sealed.pop();
            "last byte dropped"
        }
        _ => {
            t_nonce[rng.below(12)] ^= 1 << rng.below(8);
            "nonce bit"
        }
    };
    let (mut vo, mut ro) = (t_sealed.clone(), t_sealed.clone());
    let vr = vk.open_within(vn(t_nonce), v::Aad::from(&t_aad[..]), &mut vo, shift..).is_ok();
    let rr = rk.open_within(rn(t_nonce), r::Aad::from(&t_aad[..]), &mut ro, shift..).is_ok();
    assert!(!vr && !rr, "{ctx}: {what} (shift {shift}, len {len}): vg accepted {vr}, ring accepted {rr}");
    // The ciphertext length the open saw (one less when a byte was dropped; none when what is left
    // cannot hold a tag, and then neither library writes anything).
    let seen = (t_sealed.len() - shift).saturating_sub(16);
    let overlapping = shift != 0 && shift < seen;
    assert!(vo[..seen].iter().all(|&b| b == 0), "{ctx}: {what}: vg left bytes in its output after refusing");
    if overlapping {
        assert!(
            vo[..shift + seen].iter().all(|&b| b == 0),
            "{ctx}: {what}: vg left plaintext in the input span"
        );
    }
    compare_buffers(ctx, what, &vo, &ro, shift, seen, overlapping);
}

/// Same bytes: everywhere when the open was in place or its output disjoint from its input; for an
/// overlapping shift, the plaintext (or zeroed output) and the tag, not the span in between.
fn compare_buffers(ctx: &str, what: &str, vo: &[u8], ro: &[u8], shift: usize, len: usize, overlapping: bool) {
    if overlapping {
        assert_eq!(vo[..len], ro[..len], "{ctx}: {what}: output differs (shift {shift})");
        assert_eq!(vo[shift + len..], ro[shift + len..], "{ctx}: {what}: tag region differs (shift {shift})");
        assert!(
            vo[len..shift + len].iter().all(|&b| b == 0),
            "{ctx}: {what}: bytes after the plaintext not zeroed"
        );
    } else {
        assert_eq!(vo, ro, "{ctx}: {what}: buffers differ (shift {shift}, len {len})");
    }
}

#[test]
fn against_ring() {
    let n = cases();
    for_each_impl("differential.ring", |imp| {
        let mut rng = Rng::new(seed("differential", imp));
        let mut st = Stats { cases: 0, overlapping: 0, disjoint: 0, bytes: 0 };
        for case in 0..n {
            one_case(&mut rng, &format!("differential.ring impl {imp} case {case}"), &mut st);
        }
        println!(
            "differential.ring: impl {imp}: {} cases ({} MB sealed), {} overlapping and {} disjoint open_within shifts",
            st.cases,
            st.bytes / 1_000_000,
            st.overlapping,
            st.disjoint
        );
    });
}

// A counter nonce sequence for each library (the trait is each library's own).
struct VgCounter(u64);
impl v::NonceSequence for VgCounter {
    fn advance(&mut self) -> Result<v::Nonce, vg::error::Unspecified> {
        self.0 += 1;
        let mut n = [0u8; 12];
        n[4..].copy_from_slice(&self.0.to_be_bytes());
        Ok(v::Nonce::assume_unique_for_key(n))
    }
}
struct RingCounter(u64);
impl r::NonceSequence for RingCounter {
    fn advance(&mut self) -> Result<r::Nonce, ring::error::Unspecified> {
        self.0 += 1;
        let mut n = [0u8; 12];
        n[4..].copy_from_slice(&self.0.to_be_bytes());
        Ok(r::Nonce::assume_unique_for_key(n))
    }
}

#[test]
fn bound_keys_against_ring() {
    use r::BoundKey as _;
    use v::BoundKey as _;
    for_each_impl("differential.bound_keys", |imp| {
        let mut rng = Rng::new(seed("bound_keys", imp));
        for (va, ra) in [(&v::AES_128_GCM, &r::AES_128_GCM), (&v::AES_256_GCM, &r::AES_256_GCM)] {
            let key = rng.bytes(va.key_len());
            let mut vseal = v::SealingKey::new(v::UnboundKey::new(va, &key).unwrap(), VgCounter(0));
            let mut rseal = r::SealingKey::new(r::UnboundKey::new(ra, &key).unwrap(), RingCounter(0));
            let mut vopen = v::OpeningKey::new(v::UnboundKey::new(va, &key).unwrap(), VgCounter(0));
            let mut ropen = r::OpeningKey::new(r::UnboundKey::new(ra, &key).unwrap(), RingCounter(0));
            for i in 0..100 {
                let len = pick_len(&mut rng);
                let pt = rng.bytes(len);
                let aad_len = rng.below(101);
                let aad = rng.bytes(aad_len);
                let (mut vb, mut rb) = (pt.clone(), pt.clone());
                vseal.seal_in_place_append_tag(v::Aad::from(&aad[..]), &mut vb).unwrap();
                rseal.seal_in_place_append_tag(r::Aad::from(&aad[..]), &mut rb).unwrap();
                assert_eq!(vb, rb, "bound keys impl {imp}: message {i} sealed differently");
                let vp = vopen.open_in_place(v::Aad::from(&aad[..]), &mut vb).unwrap().to_vec();
                let rp = ropen.open_in_place(r::Aad::from(&aad[..]), &mut rb).unwrap().to_vec();
                assert_eq!(vp, pt, "bound keys impl {imp}: message {i}");
                assert_eq!(rp, pt);
            }
        }
    });
}
