// SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
//! What the tests share: running a body once per implementation, a seeded generator, hex.

use std::path::PathBuf;
use std::sync::Mutex;

/// vg's implementations for the architecture the tests were built for, best first (CMakeLists.txt's
/// VG_IMPLS): each is run, or reported UNAVAILABLE when this CPU cannot run it.
pub fn known_impls() -> &'static [&'static str] {
    if cfg!(target_arch = "x86_64") {
        &["vaes512", "vaes256", "aesni", "portable"]
    } else if cfg!(all(target_arch = "powerpc64", target_endian = "little")) {
        &["power9", "power8", "portable"]
    } else if cfg!(target_arch = "aarch64") {
        &["armv8", "portable"]
    } else {
        &["portable"]
    }
}

// vg's selection is process-wide and a key takes the one current when it is set up; the tests of a
// binary run on parallel threads, so a body that selects an implementation and makes keys holds
// this lock for its whole run.
static SELECTION: Mutex<()> = Mutex::new(());

/// Runs `body` once per implementation this CPU can run, with that implementation selected for
/// every key the body makes, and returns how many ran. With `VG_IMPL` set (as for every vg program)
/// only that one runs. An implementation of this architecture that the CPU lacks is printed as
/// UNAVAILABLE, never counted as passed; a test during which none ran fails.
pub fn for_each_impl(test: &str, mut body: impl FnMut(&str)) -> usize {
    let _guard = SELECTION.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let available = vg::impls::available();
    let wanted = std::env::var("VG_IMPL").ok().filter(|v| !v.is_empty());
    let mut ran = 0;
    for &name in known_impls() {
        if let Some(w) = &wanted {
            if w != name {
                continue;
            }
        }
        if !available.contains(&name) {
            println!("{test}: impl {name}: UNAVAILABLE (this CPU cannot run it; skipped, not passed)");
            continue;
        }
        vg::impls::select(name).unwrap();
        assert_eq!(vg::impls::name(), name);
        body(name);
        println!("{test}: impl {name}: passed");
        ran += 1;
    }
    vg::impls::select("auto").unwrap();
    assert!(ran > 0, "{test}: no implementation ran (VG_IMPL={wanted:?}, available {available:?})");
    ran
}

/// tests/vectors of this repository (VG_VECTORS_DIR overrides it).
pub fn vectors_dir() -> PathBuf {
    match std::env::var_os("VG_VECTORS_DIR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors"),
    }
}

/// SplitMix64: a small seeded generator, so a failing case can be replayed from its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n (n > 0); the modulo bias is irrelevant at these sizes.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }

    #[allow(dead_code)] // for the differential test, which not every architecture builds
    pub fn fill(&mut self, buf: &mut [u8]) {
        for b in buf {
            *b = self.next_u64() as u8;
        }
    }
}

/// A seed for a test and an implementation: the same on every run, different for each pair.
pub fn seed(test: &str, imp: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in test.bytes().chain([0u8]).chain(imp.bytes()) {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

pub fn hex(s: &str) -> Vec<u8> {
    assert!(s.len() % 2 == 0, "odd-length hex {s:?}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap_or_else(|_| panic!("bad hex {s:?}")))
        .collect()
}
