// SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
//! What the binding costs, measured so that a busy machine cannot fake it: for each row, the crate,
//! the C library called directly (through vg-sys, the calls the crate makes) and, for AES-GCM,
//! ring 0.16 take turns in one process, vg-speed's method (bench/vg-speed.c): each participant
//! calibrated once to about --ms milliseconds, then --rounds rounds in which every participant runs
//! once (the order rotating), each round timed on its own; the figure is each participant's median
//! round. A slow phase (another process, a frequency change) hits all participants of a round
//! alike, and a preempted round is an outlier the median drops. Criterion's benches/aead.rs times
//! each participant in a block of its own, seconds apart.
//!
//! Run: `cargo bench --offline --bench ab` in rust/vg-bench (`-- --rounds 51 --ms 4` to change the
//! defaults; `-- --markdown` prints docs/rust.md's table rows). Rows as benches/aead.rs: AES-GCM seal
//! (in place) and open (out of place, so the ciphertext survives) at 64 B, 1350 B + 13 B AAD and
//! 16 KiB; key set-up; AES-GCM-SIV and AES-CCM (12-byte nonce) at 64 B, 1350 B and 16 KiB.

use std::cell::RefCell;
use std::time::Instant;

use criterion::black_box;
use ring::aead as r;
use vg::aead as v;
use vg_sys as sys;

const NONCE: [u8; 12] = [7; 12];
const AAD13: [u8; 13] = [0, 0, 0, 0, 0, 0, 0, 42, 23, 3, 3, 0x05, 0x46];

struct Opts {
    rounds: usize,
    ms: f64,
    markdown: bool,
}

fn opts() -> Opts {
    let mut o = Opts { rounds: 31, ms: 3.0, markdown: false };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--rounds" => {
                o.rounds = args[i + 1].parse().expect("--rounds N");
                i += 1;
            }
            "--ms" => {
                o.ms = args[i + 1].parse().expect("--ms N");
                i += 1;
            }
            "--markdown" => o.markdown = true,
            // cargo bench passes --bench; anything else is criterion's and ignored here.
            _ => {}
        }
        i += 1;
    }
    o
}

type Op<'a> = Box<dyn FnMut() + 'a>;

/// Median ns per call of each participant, timed in alternating rounds.
fn race(o: &Opts, ops: &mut [Op<'_>]) -> Vec<f64> {
    // Calibrate: iterations lasting about o.ms.
    let mut iters = Vec::new();
    for op in ops.iter_mut() {
        let mut n = 1u64;
        loop {
            let t = Instant::now();
            for _ in 0..n {
                op();
            }
            let e = t.elapsed().as_secs_f64() * 1e3;
            if e >= o.ms / 4.0 || n >= 1 << 30 {
                iters.push(((n as f64) * o.ms / e.max(1e-6)).ceil() as u64);
                break;
            }
            n *= 4;
        }
    }
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); ops.len()];
    for round in 0..o.rounds {
        for k in 0..ops.len() {
            let p = (k + round) % ops.len();
            let t = Instant::now();
            for _ in 0..iters[p] {
                ops[p]();
            }
            times[p].push(t.elapsed().as_secs_f64() * 1e9 / iters[p] as f64);
        }
    }
    times
        .into_iter()
        .map(|mut t| {
            t.sort_by(|a, b| a.partial_cmp(b).unwrap());
            t[t.len() / 2]
        })
        .collect()
}

fn show(ns: f64, bytes: usize) -> String {
    if bytes <= 64 {
        format!("{ns:.1} ns")
    } else {
        format!("{:.2} GB/s", bytes as f64 / ns)
    }
}

/// The message buffer of a row, one for all its participants (they run one after the other) and
/// starting on a cache line: separate buffers would differ in alignment, and a 64-byte message
/// that straddles two lines is measurably slower than one that does not.
struct Arena {
    v: Vec<u8>,
    off: usize,
    len: usize,
}

impl Arena {
    fn new(content: &[u8]) -> RefCell<Arena> {
        let mut v = vec![0u8; content.len() + 64];
        let off = (64 - (v.as_ptr() as usize) % 64) % 64;
        v[off..off + content.len()].copy_from_slice(content);
        RefCell::new(Arena { v, off, len: content.len() })
    }

    fn get(&mut self) -> &mut [u8] {
        &mut self.v[self.off..self.off + self.len]
    }
}

/// A key on a cache line's start, as vg-speed's (bench/peer_vg.c) and the crate's keys are.
#[repr(C, align(64))]
struct A64<T>(T);

/// A C context of any vg key type, set up by `init`.
fn c_key<T>(
    zeroed: T,
    init: unsafe extern "C" fn(*mut T, *const u8, usize) -> sys::c_int,
    len: usize,
) -> Box<A64<T>> {
    let mut k = Box::new(A64(zeroed));
    let key = vec![0x42u8; len];
    // SAFETY: k is a whole context of the type init takes; key is valid for len bytes.
    assert_eq!(unsafe { init(&mut k.0, key.as_ptr(), len) }, sys::VG_OK);
    k
}

type SealFn<T> = unsafe extern "C" fn(
    *const T,
    *const u8,
    usize,
    *const u8,
    usize,
    *const u8,
    usize,
    *mut u8,
    *mut u8,
    usize,
) -> sys::c_int;
type OpenFn<T> = unsafe extern "C" fn(
    *const T,
    *const u8,
    usize,
    *const u8,
    usize,
    *const u8,
    usize,
    *const u8,
    usize,
    *mut u8,
) -> sys::c_int;

/// The C seal the crate's seal_in_place_separate_tag makes: in place, 16-byte tag, and the nonce
/// written to memory for each call, as the crate's `Nonce` (a value made per message) is. A nonce
/// that sits in memory unchanged across calls (vg-speed's) made a 64-byte vaes256 seal several ns
/// quicker here than one just written: the kernel's first loads wait on the stores that wrote the
/// nonce. A C caller with a fresh nonce per message pays that too: not the binding's cost.
fn c_seal<'a, T>(k: &'a T, f: SealFn<T>, aad: &'a [u8], arena: &'a RefCell<Arena>) -> Op<'a> {
    Box::new(move || {
        let mut a = arena.borrow_mut();
        let buf = black_box(a.get());
        let nonce = black_box(NONCE);
        let mut tag = [0u8; 16];
        let p = buf.as_mut_ptr();
        // SAFETY: k is set up; nonce, AAD and tag are valid for their lengths; in == out, buf.len() bytes.
        let rc = unsafe {
            f(k, nonce.as_ptr(), 12, aad.as_ptr(), aad.len(), p, buf.len(), p, tag.as_mut_ptr(), 16)
        };
        assert_eq!(rc, sys::VG_OK);
        black_box(tag);
    })
}

/// The C open the crate's open_within makes for a disjoint output: the arena is len bytes of room,
/// then ciphertext and tag; the nonce written per call, as for c_seal.
fn c_open<'a, T>(k: &'a T, f: OpenFn<T>, aad: &'a [u8], arena: &'a RefCell<Arena>, len: usize) -> Op<'a> {
    Box::new(move || {
        let mut a = arena.borrow_mut();
        let nonce = black_box(NONCE);
        let (out, input) = black_box(a.get()).split_at_mut(len);
        // SAFETY: k is set up; nonce, AAD and the tag after the ciphertext are valid for their
        // lengths; in and out are disjoint, len bytes each.
        let rc = unsafe {
            f(
                k,
                nonce.as_ptr(),
                12,
                aad.as_ptr(),
                aad.len(),
                input.as_ptr(),
                len,
                input[len..].as_ptr(),
                16,
                out.as_mut_ptr(),
            )
        };
        assert_eq!(rc, sys::VG_OK);
    })
}

/// The crate's seal_in_place_separate_tag over the arena.
fn vg_seal<'a>(k: &'a v::LessSafeKey, aad: &'a [u8], arena: &'a RefCell<Arena>) -> Op<'a> {
    Box::new(move || {
        let mut a = arena.borrow_mut();
        let n = v::Nonce::assume_unique_for_key(NONCE);
        let _ = black_box(k.seal_in_place_separate_tag(n, v::Aad::from(aad), black_box(a.get())).unwrap());
    })
}

/// The crate's open_within over the arena, output before the ciphertext (disjoint).
fn vg_open<'a>(k: &'a v::LessSafeKey, aad: &'a [u8], arena: &'a RefCell<Arena>, len: usize) -> Op<'a> {
    Box::new(move || {
        let mut a = arena.borrow_mut();
        let n = v::Nonce::assume_unique_for_key(NONCE);
        black_box(k.open_within(n, v::Aad::from(aad), black_box(a.get()), len..).unwrap().len());
    })
}

fn ring_seal<'a>(k: &'a r::LessSafeKey, aad: &'a [u8], arena: &'a RefCell<Arena>) -> Op<'a> {
    Box::new(move || {
        let mut a = arena.borrow_mut();
        let n = r::Nonce::assume_unique_for_key(NONCE);
        let _ = black_box(k.seal_in_place_separate_tag(n, r::Aad::from(aad), black_box(a.get())).unwrap());
    })
}

fn ring_open<'a>(k: &'a r::LessSafeKey, aad: &'a [u8], arena: &'a RefCell<Arena>, len: usize) -> Op<'a> {
    Box::new(move || {
        let mut a = arena.borrow_mut();
        let n = r::Nonce::assume_unique_for_key(NONCE);
        black_box(k.open_within(n, r::Aad::from(aad), black_box(a.get()), len..).unwrap().len());
    })
}

fn vg_key(alg: &'static v::Algorithm) -> v::LessSafeKey {
    v::LessSafeKey::new(v::UnboundKey::new(alg, &vec![0x42; alg.key_len()]).unwrap())
}

fn sealed(k: &v::LessSafeKey, aad: &[u8], len: usize) -> Vec<u8> {
    let mut m = vec![0x11u8; len];
    k.seal_in_place_append_tag(v::Nonce::assume_unique_for_key(NONCE), v::Aad::from(aad), &mut m).unwrap();
    [vec![0u8; len], m].concat()
}

struct Row {
    name: String,
    bytes: usize,
    ring: Option<f64>,
    crate_: f64,
    c: f64,
}

fn print(o: &Opts, rows: &[Row]) {
    if o.markdown {
        println!("| row | bytes | ring | vg crate | vg / ring | C direct | crate vs C |");
        println!("|---|---|---|---|---|---|---|");
    }
    for r in rows {
        let ring = r.ring.map_or("-".to_string(), |t| show(t, r.bytes));
        let ratio = r.ring.map_or("-".to_string(), |t| format!("{:.2}x", t / r.crate_));
        let bytes = if r.bytes == 0 { "-".to_string() } else { r.bytes.to_string() };
        let cost = format!("{:+.1}%", 100.0 * (r.crate_ / r.c - 1.0));
        let (cr, c) = if r.bytes == 0 {
            (show(r.crate_, 0), show(r.c, 0))
        } else {
            (show(r.crate_, r.bytes), show(r.c, r.bytes))
        };
        if o.markdown {
            println!("| {} | {bytes} | {ring} | {cr} | {ratio} | {c} | {cost} |", r.name);
        } else {
            println!("{:<24} {bytes:>6} {ring:>12} {cr:>12} {ratio:>8} {c:>12} {cost:>8}", r.name);
        }
    }
}

fn main() {
    let o = opts();
    println!(
        "vg {} implementation {} (available {:?}); ring 0.16; median of {} alternating rounds of ~{} ms",
        vg::version(),
        vg::impls::name(),
        vg::impls::available(),
        o.rounds,
        o.ms
    );
    if !o.markdown {
        println!(
            "{:<24} {:>6} {:>12} {:>12} {:>8} {:>12} {:>8}",
            "row", "bytes", "ring", "vg crate", "vg/ring", "C direct", "crate-C"
        );
    }
    let mut rows = Vec::new();

    // Key set-up: the crate's new + drop (allocation, vg_aes_gcm_init, wipe, free), ring's new +
    // drop, and vg_aes_gcm_init into one context again and again (vg-speed's key set-up row).
    for (bits, va, ra) in [(128, &v::AES_128_GCM, &r::AES_128_GCM), (256, &v::AES_256_GCM, &r::AES_256_GCM)] {
        let key = vec![0x42u8; va.key_len()];
        let mut ck = c_key(sys::vg_aes_gcm_key::zeroed(), sys::vg_aes_gcm_init, key.len());
        let ckr = &mut ck.0;
        let k = &key;
        let mut ops: Vec<Op<'_>> = vec![
            Box::new(move || {
                let _ = black_box(r::UnboundKey::new(ra, black_box(k)).unwrap());
            }),
            Box::new(move || drop(black_box(v::UnboundKey::new(va, black_box(k)).unwrap()))),
            Box::new(move || {
                // SAFETY: ckr is a whole vg_aes_gcm_key; k is valid for its length.
                let rc = unsafe { sys::vg_aes_gcm_init(&mut *ckr, black_box(k).as_ptr(), k.len()) };
                assert_eq!(rc, sys::VG_OK);
            }),
        ];
        let t = race(&o, &mut ops);
        rows.push(Row {
            name: format!("aes{bits}-gcm-keysetup"),
            bytes: 0,
            ring: Some(t[0]),
            crate_: t[1],
            c: t[2],
        });
    }
    print(&o, &rows);
    rows.clear();

    for (bits, va, ra) in [(128, &v::AES_128_GCM, &r::AES_128_GCM), (256, &v::AES_256_GCM, &r::AES_256_GCM)] {
        let vk = vg_key(va);
        let rk = r::LessSafeKey::new(r::UnboundKey::new(ra, &vec![0x42; ra.key_len()]).unwrap());
        let ck = c_key(sys::vg_aes_gcm_key::zeroed(), sys::vg_aes_gcm_init, va.key_len());
        for (len, alen) in [(64usize, 0usize), (1350, 13), (16384, 0)] {
            let aad = &AAD13[..alen];
            let label = if alen > 0 { format!("{len}+{alen}aad") } else { len.to_string() };
            // Seal, in place.
            let arena = Arena::new(&vec![0x11u8; len]);
            let mut ops = vec![
                ring_seal(&rk, aad, &arena),
                vg_seal(&vk, aad, &arena),
                c_seal(&ck.0, sys::vg_aes_gcm_seal, aad, &arena),
            ];
            let t = race(&o, &mut ops);
            drop(ops);
            rows.push(Row {
                name: format!("aes{bits}-gcm-seal {label}"),
                bytes: len,
                ring: Some(t[0]),
                crate_: t[1],
                c: t[2],
            });
            // Open, out of place (the ciphertext after the output, disjoint).
            let arena = Arena::new(&sealed(&vk, aad, len));
            let mut ops = vec![
                ring_open(&rk, aad, &arena, len),
                vg_open(&vk, aad, &arena, len),
                c_open(&ck.0, sys::vg_aes_gcm_open, aad, &arena, len),
            ];
            let t = race(&o, &mut ops);
            drop(ops);
            rows.push(Row {
                name: format!("aes{bits}-gcm-open {label}"),
                bytes: len,
                ring: Some(t[0]),
                crate_: t[1],
                c: t[2],
            });
        }
    }
    print(&o, &rows);
    rows.clear();

    // GCM-SIV and CCM, vg alone: the crate against the C calls it makes.
    let siv128 = c_key(sys::vg_aes_gcm_siv_key::zeroed(), sys::vg_aes_gcm_siv_init, 16);
    let siv256 = c_key(sys::vg_aes_gcm_siv_key::zeroed(), sys::vg_aes_gcm_siv_init, 32);
    let ccm128 = c_key(sys::vg_aes_ccm_key::zeroed(), sys::vg_aes_ccm_init, 16);
    let ccm256 = c_key(sys::vg_aes_ccm_key::zeroed(), sys::vg_aes_ccm_init, 32);
    for (name, alg) in [
        ("aes128-gcm-siv", &v::AES_128_GCM_SIV),
        ("aes256-gcm-siv", &v::AES_256_GCM_SIV),
        ("aes128-ccm", &v::AES_128_CCM),
        ("aes256-ccm", &v::AES_256_CCM),
    ] {
        let vk = vg_key(alg);
        for len in [64usize, 1350, 16384] {
            let arena = Arena::new(&vec![0x11u8; len]);
            let c: Op<'_> = match name {
                "aes128-gcm-siv" => c_seal(&siv128.0, sys::vg_aes_gcm_siv_seal, &[], &arena),
                "aes256-gcm-siv" => c_seal(&siv256.0, sys::vg_aes_gcm_siv_seal, &[], &arena),
                "aes128-ccm" => c_seal(&ccm128.0, sys::vg_aes_ccm_seal, &[], &arena),
                _ => c_seal(&ccm256.0, sys::vg_aes_ccm_seal, &[], &arena),
            };
            let mut ops = vec![vg_seal(&vk, &[], &arena), c];
            let t = race(&o, &mut ops);
            drop(ops);
            rows.push(Row { name: format!("{name}-seal"), bytes: len, ring: None, crate_: t[0], c: t[1] });
            let arena = Arena::new(&sealed(&vk, &[], len));
            let c: Op<'_> = match name {
                "aes128-gcm-siv" => c_open(&siv128.0, sys::vg_aes_gcm_siv_open, &[], &arena, len),
                "aes256-gcm-siv" => c_open(&siv256.0, sys::vg_aes_gcm_siv_open, &[], &arena, len),
                "aes128-ccm" => c_open(&ccm128.0, sys::vg_aes_ccm_open, &[], &arena, len),
                _ => c_open(&ccm256.0, sys::vg_aes_ccm_open, &[], &arena, len),
            };
            let mut ops = vec![vg_open(&vk, &[], &arena, len), c];
            let t = race(&o, &mut ops);
            drop(ops);
            rows.push(Row { name: format!("{name}-open"), bytes: len, ring: None, crate_: t[0], c: t[1] });
        }
    }
    print(&o, &rows);
}
