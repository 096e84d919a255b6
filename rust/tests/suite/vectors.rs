// SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
//! Every vector file of tests/vectors/ for the modes the crate exposes (GCM, GCM-SIV, CCM; the AES
//! block-cipher files test vg_aes_*, which the crate does not expose), through the crate:
//!
//! - NIST CAVP GCM (47,250 records), CCM (2,880), RFC 3610 CCM (24), RFC 8452 GCM-SIV (49),
//!   cryptography's AES-192-GCM-SIV (24), Wycheproof GCM, GCM-SIV and CCM (316, 202, 552).
//! - Each record through `seal_detached`/`open_detached` (any nonce length vg takes) and, when its
//!   nonce is 12 bytes, through ring's calls as well (`seal_in_place_append_tag`, `open_in_place`).
//! - A record that must fail to open fails with `Error::Auth` and leaves no plaintext: the
//!   ciphertext span is zero. A record with a parameter vg refuses fails with that parameter's
//!   error, and the buffer is untouched.
//!
//! The readers follow tests/vecfile.c: a line they do not understand, a missing field, and a
//! record attribute nobody read fail the test; every file's record count is pinned, so a truncated
//! or edited copy cannot pass.

use std::collections::BTreeMap;
use std::fs;

use vg::aead::{self, Aad, Algorithm, LessSafeKey, Nonce, UnboundKey};
use vg::error::Error;

use super::common::{for_each_impl, hex, vectors_dir};
use super::json;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    Gcm,
    GcmSiv,
    Ccm,
}

/// The crate's algorithm for these lengths. The tag length is part of an Algorithm, so it is
/// checked when the algorithm is chosen, before the nonce (vg checks the nonce first; only the
/// order differs, never the verdict).
fn algorithm(mode: Mode, key_len: usize, tag_len: usize) -> Result<&'static Algorithm, Error> {
    match mode {
        Mode::Gcm => aead::aes_gcm(key_len, tag_len),
        Mode::Ccm => aead::aes_ccm(key_len, tag_len),
        Mode::GcmSiv => {
            let alg = match key_len {
                16 => &aead::AES_128_GCM_SIV,
                24 => &aead::AES_192_GCM_SIV,
                32 => &aead::AES_256_GCM_SIV,
                _ => return Err(Error::KeyLength),
            };
            if tag_len == alg.tag_len() {
                Ok(alg)
            } else {
                Err(Error::TagLength)
            }
        }
    }
}

/// vg.h's documented limits, as the C tests' vt_aead_param_error: the error a (key, nonce, tag)
/// length triple must get, in the crate's order (key, tag, nonce).
fn param_error(mode: Mode, key_len: usize, nonce_len: usize, tag_len: usize) -> Result<(), Error> {
    if ![16, 24, 32].contains(&key_len) {
        return Err(Error::KeyLength);
    }
    let tag_ok = match mode {
        Mode::Gcm => [4, 8, 12, 13, 14, 15, 16].contains(&tag_len),
        Mode::GcmSiv => tag_len == 16,
        Mode::Ccm => (4..=16).contains(&tag_len) && tag_len % 2 == 0,
    };
    if !tag_ok {
        return Err(Error::TagLength);
    }
    let nonce_ok = match mode {
        Mode::Gcm => nonce_len >= 1,
        Mode::GcmSiv => nonce_len == 12,
        Mode::Ccm => (7..=13).contains(&nonce_len),
    };
    if !nonce_ok {
        return Err(Error::NonceLength);
    }
    Ok(())
}

struct Vector {
    at: String,
    mode: Mode,
    key: Vec<u8>,
    nonce: Vec<u8>,
    aad: Vec<u8>,
    /// None for a record that gives no plaintext (a NIST FAIL record).
    pt: Option<Vec<u8>>,
    ct: Vec<u8>,
    tag: Vec<u8>,
    expect: Result<(), Error>,
}

/// Runs one vector through the crate. Returns the number of calls checked.
fn check(v: &Vector) -> usize {
    let at = &v.at;
    let alg = match algorithm(v.mode, v.key.len(), v.tag.len()) {
        Ok(a) => a,
        Err(e) => {
            assert_eq!(Err(e), v.expect, "{at}: choosing the algorithm");
            return 1;
        }
    };
    let key = match UnboundKey::try_new(alg, &v.key) {
        Ok(k) => LessSafeKey::new(k),
        Err(e) => {
            assert_eq!(Err(e), v.expect, "{at}: key set-up");
            return 1;
        }
    };
    let aad = || Aad::from(&v.aad[..]);
    let nonce12 =
        if v.nonce.len() == 12 { Some(|| Nonce::try_assume_unique_for_key(&v.nonce).unwrap()) } else { None };
    let mut checks = 0;
    match v.expect {
        Ok(()) => {
            let pt = v.pt.as_ref().expect("a vector that must open has a plaintext");
            let mut buf = pt.clone();
            let tag =
                key.seal_detached(&v.nonce, aad(), &mut buf).unwrap_or_else(|e| panic!("{at}: seal: {e:?}"));
            assert_eq!(buf, v.ct, "{at}: seal_detached ciphertext");
            assert_eq!(tag.as_ref(), &v.tag[..], "{at}: seal_detached tag");
            let mut buf = v.ct.clone();
            key.open_detached(&v.nonce, aad(), &mut buf, &v.tag)
                .unwrap_or_else(|e| panic!("{at}: open: {e:?}"));
            assert_eq!(&buf, pt, "{at}: open_detached plaintext");
            checks += 2;
            if let Some(n) = nonce12 {
                let mut buf = pt.clone();
                key.seal_in_place_append_tag(n(), aad(), &mut buf).unwrap();
                assert_eq!(&buf[..v.ct.len()], &v.ct[..], "{at}: seal_in_place_append_tag ciphertext");
                assert_eq!(&buf[v.ct.len()..], &v.tag[..], "{at}: seal_in_place_append_tag tag");
                let opened =
                    key.open_in_place(n(), aad(), &mut buf).unwrap_or_else(|_| panic!("{at}: open_in_place"));
                assert_eq!(opened, &pt[..], "{at}: open_in_place plaintext");
                checks += 2;
            }
        }
        Err(Error::Auth) => {
            let mut buf = v.ct.clone();
            assert_eq!(
                key.open_detached(&v.nonce, aad(), &mut buf, &v.tag),
                Err(Error::Auth),
                "{at}: open_detached"
            );
            assert!(buf.iter().all(|&b| b == 0), "{at}: a refused open_detached left bytes in its output");
            checks += 1;
            if let Some(n) = nonce12 {
                let mut buf = [&v.ct[..], &v.tag[..]].concat();
                assert!(
                    key.open_in_place(n(), aad(), &mut buf).is_err(),
                    "{at}: open_in_place accepted a forgery"
                );
                assert!(
                    buf[..v.ct.len()].iter().all(|&b| b == 0),
                    "{at}: a refused open_in_place left plaintext"
                );
                assert_eq!(&buf[v.ct.len()..], &v.tag[..], "{at}: open_in_place wrote over the tag");
                checks += 1;
            }
            if let Some(pt) = &v.pt {
                // A modified tag: sealing the message must not give it.
                let mut buf = pt.clone();
                let tag = key.seal_detached(&v.nonce, aad(), &mut buf).unwrap();
                assert!(buf != v.ct || tag.as_ref() != &v.tag[..], "{at}: seal produced the forged pair");
                checks += 1;
            }
        }
        Err(e) => {
            // A parameter error at the call (the nonce): refused with nothing written.
            if let Some(pt) = &v.pt {
                let mut buf = pt.clone();
                assert_eq!(
                    key.seal_detached(&v.nonce, aad(), &mut buf).err(),
                    Some(e),
                    "{at}: seal_detached"
                );
                assert_eq!(&buf, pt, "{at}: a refused seal wrote to its buffer");
                checks += 1;
            }
            let mut buf = v.ct.clone();
            assert_eq!(key.open_detached(&v.nonce, aad(), &mut buf, &v.tag), Err(e), "{at}: open_detached");
            assert_eq!(buf, v.ct, "{at}: a refused open wrote to its buffer");
            checks += 1;
        }
    }
    checks
}

fn run_all(test: &str, vectors: &[Vector]) {
    for_each_impl(test, |imp| {
        let checks: usize = vectors.iter().map(check).sum();
        println!("{test}: impl {imp}: {} vectors, {checks} calls checked", vectors.len());
    });
}

// ------------------------------------------------------------------------------------------------
// NIST CAVP .rsp files

/// One record of a .rsp file, with the parameters and carried-over attributes in force for it.
struct Record {
    at: String,
    own: BTreeMap<String, String>,
    words: Vec<String>,
    carried: BTreeMap<String, String>,
    params: BTreeMap<String, String>,
}

impl Record {
    /// An attribute: the record's own (which counts it as read), else carried over, else a
    /// parameter; a missing one fails the test.
    fn take(&mut self, name: &str) -> String {
        if let Some(v) = self.own.remove(name) {
            return v;
        }
        if let Some(v) = self.carried.get(name).or_else(|| self.params.get(name)) {
            return v.clone();
        }
        panic!("{}: no {name}", self.at)
    }

    fn uint(&mut self, name: &str) -> usize {
        let at = self.at.clone();
        self.take(name).parse().unwrap_or_else(|_| panic!("{at}: {name} is not a number"))
    }

    fn bytes(&mut self, name: &str) -> Vec<u8> {
        hex(&self.take(name))
    }

    fn has_own(&self, name: &str) -> bool {
        self.own.contains_key(name)
    }

    fn word(&mut self, w: &str) -> bool {
        match self.words.iter().position(|x| x == w) {
            Some(i) => {
                self.words.remove(i);
                true
            }
            None => false,
        }
    }

    /// Every attribute of the record must have been read.
    fn done(&self) {
        assert!(
            self.own.is_empty() && self.words.is_empty(),
            "{}: attributes nobody read: {:?} {:?}",
            self.at,
            self.own,
            self.words
        );
    }
}

fn read_rsp(rel: &str) -> Vec<Record> {
    let path = vectors_dir().join(rel);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut records = Vec::new();
    let mut params = BTreeMap::new();
    let mut carried = BTreeMap::new();
    let mut in_param_run = false;
    let mut current: Option<Record> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let at = format!("{rel}:{}", n + 1);
        if line.is_empty() {
            records.extend(current.take());
            in_param_run = false;
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            assert!(current.is_none(), "{at}: a parameter line inside a record");
            if !in_param_run {
                params.clear();
                in_param_run = true;
            }
            for part in inner.split(',') {
                match part.split_once('=') {
                    Some((k, v)) => params.insert(k.trim().to_string(), v.trim().to_string()),
                    None => params.insert(part.trim().to_string(), String::new()),
                };
            }
            continue;
        }
        in_param_run = false;
        match line.split_once('=') {
            Some((k, v)) => {
                let (k, v) = (k.trim(), v.trim());
                if k.eq_ignore_ascii_case("count") {
                    records.extend(current.take());
                    current = Some(Record {
                        at: format!("{at} (Count = {v})"),
                        own: BTreeMap::new(),
                        words: Vec::new(),
                        carried: carried.clone(),
                        params: params.clone(),
                    });
                } else if let Some(r) = current.as_mut() {
                    assert!(r.own.insert(k.to_string(), v.to_string()).is_none(), "{at}: {k} given twice");
                } else {
                    carried.insert(k.to_string(), v.to_string());
                }
            }
            None => match current.as_mut() {
                Some(r) if line.chars().all(|c| c.is_ascii_alphabetic()) => r.words.push(line.to_string()),
                _ => panic!("{at}: a line this reader does not understand: {line:?}"),
            },
        }
    }
    records.extend(current.take());
    records
}

fn bits(at: &str, what: &str, bytes: usize, bits: usize) {
    assert!(
        bits % 8 == 0 && bytes * 8 == bits,
        "{at}: {what} has {bytes} bytes but its parameter says {bits} bits"
    );
}

#[test]
fn nist_gcm() {
    // (file, records, FAIL records), as tests/vectors_gcm.c pins them.
    let files = [
        ("gcmEncryptExtIV128.rsp", 7875, 0),
        ("gcmEncryptExtIV192.rsp", 7875, 0),
        ("gcmEncryptExtIV256.rsp", 7875, 0),
        ("gcmDecrypt128.rsp", 7875, 4011),
        ("gcmDecrypt192.rsp", 7875, 3978),
        ("gcmDecrypt256.rsp", 7875, 3919),
    ];
    let mut vectors = Vec::new();
    for (name, count, fails) in files {
        let records = read_rsp(&format!("nist-cavp/gcm/{name}"));
        assert_eq!(records.len(), count, "{name}: record count");
        let mut nfail = 0;
        for mut r in records {
            let (keylen, ivlen, ptlen) = (r.uint("Keylen"), r.uint("IVlen"), r.uint("PTlen"));
            let (aadlen, taglen) = (r.uint("AADlen"), r.uint("Taglen"));
            let (key, nonce, aad, ct, tag) =
                (r.bytes("Key"), r.bytes("IV"), r.bytes("AAD"), r.bytes("CT"), r.bytes("Tag"));
            let fail = r.word("FAIL");
            let pt = if fail {
                assert!(!r.has_own("PT"), "{}: a FAIL record with a PT", r.at);
                nfail += 1;
                None
            } else {
                Some(r.bytes("PT"))
            };
            r.done();
            bits(&r.at, "Key", key.len(), keylen);
            bits(&r.at, "IV", nonce.len(), ivlen);
            bits(&r.at, "CT", ct.len(), ptlen);
            bits(&r.at, "AAD", aad.len(), aadlen);
            bits(&r.at, "Tag", tag.len(), taglen);
            if let Some(p) = &pt {
                assert_eq!(p.len(), ct.len(), "{}: PT and CT lengths", r.at);
            }
            vectors.push(Vector {
                at: r.at,
                mode: Mode::Gcm,
                key,
                nonce,
                aad,
                pt,
                ct,
                tag,
                expect: if fail { Err(Error::Auth) } else { Ok(()) },
            });
        }
        assert_eq!(nfail, fails, "{name}: FAIL records");
    }
    assert_eq!(vectors.len(), 47_250);
    run_all("vectors.nist_gcm", &vectors);
}

#[test]
fn nist_ccm_and_rfc3610() {
    // (file, records, Result = Pass records of DVPT), as tests/vectors_ccm.c pins them.
    let mut files = Vec::new();
    for kind in ["VADT", "VNT", "VPT", "VTT", "DVPT"] {
        for bits in [128, 192, 256] {
            let (count, passes) = match kind {
                "VADT" => (330, 0),
                "VNT" | "VTT" => (70, 0),
                "VPT" => (250, 0),
                _ => (240, 80),
            };
            files.push((format!("{kind}{bits}.rsp"), bits / 8, count, passes));
        }
    }
    let mut vectors = Vec::new();
    for (name, key_len, count, passes) in files {
        let records = read_rsp(&format!("nist-cavp/ccm/{name}"));
        assert_eq!(records.len(), count, "{name}: record count");
        let dvpt = name.starts_with("DVPT");
        let mut npass = 0;
        for mut r in records {
            let (alen, plen, nlen, tlen) = (r.uint("Alen"), r.uint("Plen"), r.uint("Nlen"), r.uint("Tlen"));
            let (key, nonce, ct_tag) = (r.bytes("Key"), r.bytes("Nonce"), r.bytes("CT"));
            // "00" with a length of 0 stands for the empty string.
            let empty_or = |r: &mut Record, name: &str, len: usize| {
                let b = r.bytes(name);
                if len == 0 {
                    assert_eq!(b, [0u8], "{}: {name} with length 0 should read 00", r.at);
                    Vec::new()
                } else {
                    b
                }
            };
            let aad = empty_or(&mut r, "Adata", alen);
            let pass = if dvpt {
                match r.take("Result").as_str() {
                    "Pass" => true,
                    "Fail" => false,
                    other => panic!("{}: Result = {other:?}", r.at),
                }
            } else {
                true
            };
            let pt = if pass {
                npass += 1;
                Some(empty_or(&mut r, "Payload", plen))
            } else {
                assert!(!r.has_own("Payload"), "{}: a Fail record with a Payload", r.at);
                None
            };
            r.done();
            assert_eq!(key.len(), key_len, "{}: key length", r.at);
            assert_eq!(nonce.len(), nlen, "{}: Nlen", r.at);
            assert_eq!(aad.len(), alen, "{}: Alen", r.at);
            assert_eq!(ct_tag.len(), plen + tlen, "{}: CT is not Plen + Tlen bytes", r.at);
            if let Some(p) = &pt {
                assert_eq!(p.len(), plen, "{}: Plen", r.at);
            }
            let (ct, tag) = ct_tag.split_at(plen);
            vectors.push(Vector {
                at: r.at,
                mode: Mode::Ccm,
                key,
                nonce,
                aad,
                pt,
                ct: ct.to_vec(),
                tag: tag.to_vec(),
                expect: if pass { Ok(()) } else { Err(Error::Auth) },
            });
        }
        if dvpt {
            assert_eq!(npass, passes, "{name}: Pass records");
        }
    }
    assert_eq!(vectors.len(), 2880);
    // RFC 3610's packets, each also with its tag's last bit flipped.
    let rfc = read_blocks("rfc3610/aes_128_ccm.txt", Mode::Ccm);
    assert_eq!(rfc.len(), 24, "rfc3610/aes_128_ccm.txt: record count");
    vectors.extend(with_forgeries(rfc));
    run_all("vectors.ccm", &vectors);
}

// ------------------------------------------------------------------------------------------------
// KEY:/NONCE:/IN:/AD:/CT:/TAG: blocks (the RFC files and cryptography's)

fn read_blocks(rel: &str, mode: Mode) -> Vec<Vector> {
    let path = vectors_dir().join(rel);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    let mut fields: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut start = 0;
    let mut flush = |fields: &mut BTreeMap<String, Vec<u8>>, start: usize| {
        if fields.is_empty() {
            return;
        }
        let at = format!("{rel}:{start}");
        let names: Vec<&str> = fields.keys().map(String::as_str).collect();
        assert_eq!(names, ["AD", "CT", "IN", "KEY", "NONCE", "TAG"], "{at}: fields");
        let mut take = |n: &str| fields.remove(n).unwrap();
        let (key, nonce, pt, aad, ct, tag) =
            (take("KEY"), take("NONCE"), take("IN"), take("AD"), take("CT"), take("TAG"));
        assert_eq!(pt.len(), ct.len(), "{at}: IN and CT lengths");
        out.push(Vector { at, mode, key, nonce, aad, pt: Some(pt), ct, tag, expect: Ok(()) });
    };
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            flush(&mut fields, start);
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let (name, value) =
            line.split_once(':').unwrap_or_else(|| panic!("{rel}:{}: not understood: {line:?}", n + 1));
        let value = value.trim();
        let bytes = match value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
            Some(text) => text.as_bytes().to_vec(),
            None => hex(value),
        };
        if fields.is_empty() {
            start = n + 1;
        }
        assert!(
            fields.insert(name.trim().to_string(), bytes).is_none(),
            "{rel}:{}: {name} given twice",
            n + 1
        );
    }
    flush(&mut fields, start);
    out
}

/// The vectors, each followed by a copy with its tag's last bit flipped, which must be refused.
fn with_forgeries(vectors: Vec<Vector>) -> Vec<Vector> {
    let mut out = Vec::new();
    for v in vectors {
        let mut tag = v.tag.clone();
        *tag.last_mut().unwrap() ^= 1;
        let forged = Vector {
            at: format!("{} (tag's last bit flipped)", v.at),
            mode: v.mode,
            key: v.key.clone(),
            nonce: v.nonce.clone(),
            aad: v.aad.clone(),
            pt: v.pt.clone(),
            ct: v.ct.clone(),
            tag,
            expect: Err(Error::Auth),
        };
        out.push(v);
        out.push(forged);
    }
    out
}

#[test]
fn gcm_siv() {
    let mut vectors = Vec::new();
    for (file, key_len, count) in [
        ("rfc8452/aes_128_gcm_siv.txt", 16, 25),
        ("rfc8452/aes_256_gcm_siv.txt", 32, 24),
        ("cryptography/aes_192_gcm_siv.txt", 24, 24),
    ] {
        let v = read_blocks(file, Mode::GcmSiv);
        assert_eq!(v.len(), count, "{file}: record count");
        for x in &v {
            assert_eq!((x.key.len(), x.nonce.len(), x.tag.len()), (key_len, 12, 16), "{}: lengths", x.at);
        }
        vectors.extend(with_forgeries(v));
    }
    run_all("vectors.gcm_siv", &vectors);
}

// ------------------------------------------------------------------------------------------------
// Wycheproof

/// Every flag the test understands and what a vector carrying it must get (tests/vectors_wycheproof.c).
fn flag_expect(flag: &str) -> Option<Result<(), Error>> {
    Some(match flag {
        "Ktv" | "Pseudorandom" | "SmallIv" | "LongIv" | "CounterWrap" | "SpecialCase" | "WrappedIv" => Ok(()),
        "ModifiedTag" => Err(Error::Auth),
        "ZeroLengthIv" | "InvalidNonceSize" | "CVE-2017-18330" => Err(Error::NonceLength),
        "InvalidTagSize" | "InsecureTagSize" => Err(Error::TagLength),
        _ => return None,
    })
}

fn wycheproof(file: &str, mode: Mode, algorithm_name: &str, count: usize) -> Vec<Vector> {
    let path = vectors_dir().join("wycheproof").join(file);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let root = json::parse(&text, file);
    assert_eq!(root.at("algorithm", file).str(file), algorithm_name);
    assert_eq!(root.at("schema", file).str(file), "aead_test_schema_v1.json");
    let notes = root.at("notes", file);
    for (flag, _) in notes.members(file) {
        assert!(flag_expect(flag).is_some(), "{file}: flag {flag:?} is not one this test knows how to judge");
    }
    let mut out = Vec::new();
    for (g, group) in root.at("testGroups", file).arr(file).iter().enumerate() {
        let ctx = format!("{file} testGroups[{g}]");
        assert_eq!(group.at("type", &ctx).str(&ctx), "AeadTest");
        let key_bits = group.at("keySize", &ctx).int(&ctx) as usize;
        let iv_bits = group.at("ivSize", &ctx).int(&ctx) as usize;
        let tag_bits = group.at("tagSize", &ctx).int(&ctx) as usize;
        for t in group.at("tests", &ctx).arr(&ctx) {
            let id = t.at("tcId", &ctx).int(&ctx);
            let at = format!("{file} tcId {id} ({})", t.at("comment", &ctx).str(&ctx));
            let b = |name: &str| hex(t.at(name, &at).str(&at));
            let (key, nonce, aad, msg, ct, tag) = (b("key"), b("iv"), b("aad"), b("msg"), b("ct"), b("tag"));
            assert_eq!(
                (key.len() * 8, nonce.len() * 8, tag.len() * 8),
                (key_bits, iv_bits, tag_bits),
                "{at}: sizes"
            );
            assert_eq!(msg.len(), ct.len(), "{at}: msg and ct lengths");
            // What the flags call for; they must agree on any refusal and be described in the notes.
            let mut by_flags = Ok(());
            for f in t.at("flags", &at).arr(&at) {
                let f = f.str(&at);
                assert!(notes.get(f).is_some(), "{at}: flag {f:?} not described in the notes");
                let e = flag_expect(f).unwrap_or_else(|| panic!("{at}: unknown flag {f:?}"));
                if e.is_err() {
                    assert!(
                        by_flags.is_ok() || by_flags == e,
                        "{at}: flags ask for both {by_flags:?} and {e:?}"
                    );
                    by_flags = e;
                }
            }
            let limits = param_error(mode, key.len(), nonce.len(), tag.len());
            let expect = match t.at("result", &at).str(&at) {
                "valid" => {
                    assert_eq!(by_flags, Ok(()), "{at}: a valid vector with a refusing flag");
                    limits
                }
                "invalid" => match by_flags {
                    Ok(()) => panic!("{at}: invalid, but no flag says why"),
                    Err(Error::Auth) => limits.and(Err(Error::Auth)),
                    Err(e) => {
                        assert_eq!(
                            limits,
                            Err(e),
                            "{at}: flagged {e:?}, but vg's documented limits say {limits:?}"
                        );
                        Err(e)
                    }
                },
                "acceptable" => limits,
                other => panic!("{at}: result {other:?}"),
            };
            out.push(Vector { at, mode, key, nonce, aad, pt: Some(msg), ct, tag, expect });
        }
    }
    assert_eq!(out.len(), count, "{file}: test count");
    assert_eq!(root.at("numberOfTests", file).int(file) as usize, count, "{file}: numberOfTests");
    out
}

#[test]
fn wycheproof_all() {
    let mut vectors = wycheproof("aes_gcm_test.json", Mode::Gcm, "AES-GCM", 316);
    vectors.extend(wycheproof("aes_gcm_siv_test.json", Mode::GcmSiv, "AES-GCM-SIV", 202));
    vectors.extend(wycheproof("aes_ccm_test.json", Mode::Ccm, "AES-CCM", 552));
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    for v in &vectors {
        *tally.entry(format!("{:?}", v.expect)).or_default() += 1;
    }
    println!("vectors.wycheproof: required outcomes {tally:?}");
    run_all("vectors.wycheproof", &vectors);
}
