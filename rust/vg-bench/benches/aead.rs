// SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
//! vg's crate and ring 0.16 in one process, through the same `ring::aead` calls (docs/rust.md has
//! the table and how to compare it with vg-speed's C figures):
//!
//! - AES-128-GCM and AES-256-GCM seal and open at 64 B, 1350 B with 13 B of AAD (a TLS record's
//!   header) and 16 KiB, vg and ring;
//! - key set-up (`UnboundKey::new`, then drop: vg's drop includes the wipe and the free);
//! - AES-GCM-SIV and AES-CCM (16-byte tag) for vg alone.
//!
//! Seal is `seal_in_place_separate_tag`. Open is `open_within` with the ciphertext placed after the
//! output (disjoint), so the same ciphertext is opened on every iteration without being restored,
//! out of place as vg-speed's open; both libraries take their direct path for it.
//!
//! The binding's own cost (the crate against the same C calls made directly) is measured by
//! benches/ab.rs, in alternating rounds; here each participant runs in a block of its own.
//!
//! Run: `cargo bench --offline --bench aead` in rust/vg-bench (criterion's options after `--`, e.g.
//! `-- --measurement-time 5 aes128`).

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ring::aead as r;
use vg::aead as v;

/// (label, message bytes, AAD bytes): the sizes the issue asks for.
const SIZES: [(&str, usize, usize); 3] = [("64", 64, 0), ("1350+13aad", 1350, 13), ("16384", 16384, 0)];

/// A TLS 1.2 record header as AAD, as vg-speed's aad13 rows use.
const AAD13: [u8; 13] = [0, 0, 0, 0, 0, 0, 0, 42, 23, 3, 3, 0x05, 0x46];

fn aad(len: usize) -> &'static [u8] {
    &AAD13[..len]
}

fn vg_key(alg: &'static v::Algorithm) -> v::LessSafeKey {
    v::LessSafeKey::new(v::UnboundKey::new(alg, &vec![0x42; alg.key_len()]).unwrap())
}

fn ring_key(alg: &'static r::Algorithm) -> r::LessSafeKey {
    r::LessSafeKey::new(r::UnboundKey::new(alg, &vec![0x42; alg.key_len()]).unwrap())
}

const NONCE: [u8; 12] = [7; 12];

/// The sealed message laid out for an out-of-place open: `len` bytes of room, then ciphertext
/// and tag.
fn for_open(seal: impl Fn(&mut Vec<u8>), len: usize) -> Vec<u8> {
    let mut msg: Vec<u8> = (0..len).map(|i| i as u8).collect();
    seal(&mut msg);
    [vec![0u8; len], msg].concat()
}

fn gcm(c: &mut Criterion) {
    for (bits, va, ra) in [(128, &v::AES_128_GCM, &r::AES_128_GCM), (256, &v::AES_256_GCM, &r::AES_256_GCM)] {
        let (vk, rk) = (vg_key(va), ring_key(ra));
        let mut g = c.benchmark_group(format!("aes{bits}-gcm-seal"));
        for (label, len, alen) in SIZES {
            g.throughput(Throughput::Bytes(len as u64));
            let mut buf = vec![0x11u8; len];
            g.bench_with_input(BenchmarkId::new("vg", label), &len, |b, _| {
                b.iter(|| {
                    let n = v::Nonce::assume_unique_for_key(NONCE);
                    black_box(
                        vk.seal_in_place_separate_tag(n, v::Aad::from(aad(alen)), black_box(&mut buf[..]))
                            .unwrap(),
                    )
                })
            });
            g.bench_with_input(BenchmarkId::new("ring", label), &len, |b, _| {
                b.iter(|| {
                    let n = r::Nonce::assume_unique_for_key(NONCE);
                    black_box(
                        rk.seal_in_place_separate_tag(n, r::Aad::from(aad(alen)), black_box(&mut buf[..]))
                            .unwrap(),
                    )
                })
            });
        }
        g.finish();

        let mut g = c.benchmark_group(format!("aes{bits}-gcm-open"));
        for (label, len, alen) in SIZES {
            g.throughput(Throughput::Bytes(len as u64));
            let seal = |m: &mut Vec<u8>| {
                vk.seal_in_place_append_tag(
                    v::Nonce::assume_unique_for_key(NONCE),
                    v::Aad::from(aad(alen)),
                    m,
                )
                .unwrap()
            };
            let mut vbuf = for_open(seal, len);
            let mut rbuf = vbuf.clone();
            g.bench_with_input(BenchmarkId::new("vg", label), &len, |b, _| {
                b.iter(|| {
                    let n = v::Nonce::assume_unique_for_key(NONCE);
                    let p =
                        vk.open_within(n, v::Aad::from(aad(alen)), black_box(&mut vbuf[..]), len..).unwrap();
                    black_box(p.len())
                })
            });
            g.bench_with_input(BenchmarkId::new("ring", label), &len, |b, _| {
                b.iter(|| {
                    let n = r::Nonce::assume_unique_for_key(NONCE);
                    let p =
                        rk.open_within(n, r::Aad::from(aad(alen)), black_box(&mut rbuf[..]), len..).unwrap();
                    black_box(p.len())
                })
            });
        }
        g.finish();
    }
}

fn keysetup(c: &mut Criterion) {
    let mut g = c.benchmark_group("keysetup");
    let key = [0x42u8; 32];
    for (name, va, ra) in [
        ("aes128-gcm", &v::AES_128_GCM, Some(&r::AES_128_GCM)),
        ("aes256-gcm", &v::AES_256_GCM, Some(&r::AES_256_GCM)),
        ("aes128-gcm-siv", &v::AES_128_GCM_SIV, None),
        ("aes256-gcm-siv", &v::AES_256_GCM_SIV, None),
        ("aes128-ccm", &v::AES_128_CCM, None),
        ("aes256-ccm", &v::AES_256_CCM, None),
    ] {
        let k = &key[..va.key_len()];
        g.bench_function(BenchmarkId::new("vg", name), |b| {
            b.iter(|| v::UnboundKey::new(va, black_box(k)).unwrap())
        });
        if let Some(ra) = ra {
            g.bench_function(BenchmarkId::new("ring", name), |b| {
                b.iter(|| r::UnboundKey::new(ra, black_box(k)).unwrap())
            });
        }
    }
    g.finish();
}

/// GCM-SIV and CCM, vg alone, through ring's calls (12-byte nonce, 16-byte tag, no AAD). vg-speed's
/// CCM rows use a 13-byte nonce: the same number of AES blocks per message (the nonce length only
/// moves bytes between the nonce and the length field of B0 and the counter blocks).
fn vg_only(c: &mut Criterion) {
    let modes: [(&str, &'static v::Algorithm); 4] = [
        ("aes128-gcm-siv", &v::AES_128_GCM_SIV),
        ("aes256-gcm-siv", &v::AES_256_GCM_SIV),
        ("aes128-ccm", &v::AES_128_CCM),
        ("aes256-ccm", &v::AES_256_CCM),
    ];
    let sizes = [("64", 64), ("1350", 1350), ("16384", 16384)];
    for (name, alg) in modes {
        let k = vg_key(alg);
        let mut g = c.benchmark_group(format!("{name}-seal"));
        for (label, len) in sizes {
            g.throughput(Throughput::Bytes(len as u64));
            let mut buf = vec![0x11u8; len];
            g.bench_with_input(BenchmarkId::new("vg", label), &len, |b, _| {
                b.iter(|| {
                    let n = v::Nonce::assume_unique_for_key(NONCE);
                    black_box(
                        k.seal_in_place_separate_tag(n, v::Aad::empty(), black_box(&mut buf[..])).unwrap(),
                    )
                })
            });
        }
        g.finish();
        let mut g = c.benchmark_group(format!("{name}-open"));
        for (label, len) in sizes {
            g.throughput(Throughput::Bytes(len as u64));
            let seal = |m: &mut Vec<u8>| {
                k.seal_in_place_append_tag(v::Nonce::assume_unique_for_key(NONCE), v::Aad::empty(), m)
                    .unwrap()
            };
            let mut buf = for_open(seal, len);
            g.bench_with_input(BenchmarkId::new("vg", label), &len, |b, _| {
                b.iter(|| {
                    let n = v::Nonce::assume_unique_for_key(NONCE);
                    black_box(
                        k.open_within(n, v::Aad::empty(), black_box(&mut buf[..]), len..).unwrap().len(),
                    )
                })
            });
        }
        g.finish();
    }
}

fn config() -> Criterion {
    // Short runs (about 3 s a cell, a few minutes in all); `-- --measurement-time N` for longer.
    // No plots: drawing them took longer than the measurements.
    Criterion::default()
        .warm_up_time(Duration::from_millis(700))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
        .without_plots()
}

fn header(_: &mut Criterion) {
    println!(
        "vg {} with implementation {} (available: {:?}); ring 0.16",
        vg::version(),
        vg::impls::name(),
        vg::impls::available()
    );
}

criterion_group! {
    name = benches;
    config = config();
    targets = header, gcm, keysetup, vg_only
}
criterion_main!(benches);
