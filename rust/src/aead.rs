// SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause
//! Authenticated encryption with `ring::aead`'s interface (ring 0.16), computed by vg.
//!
//! Code written for ring migrates by its `use` lines:
//!
//! ```
//! use vg::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_256_GCM};   // was: use ring::aead::{...}
//!
//! let key = LessSafeKey::new(UnboundKey::new(&AES_256_GCM, &[7u8; 32]).unwrap());
//! let mut in_out = b"attack at dawn".to_vec();
//! let nonce = Nonce::assume_unique_for_key([1u8; 12]);
//! key.seal_in_place_append_tag(nonce, Aad::from(b"header"), &mut in_out).unwrap();
//!
//! let nonce = Nonce::assume_unique_for_key([1u8; 12]);
//! let plaintext = key.open_in_place(nonce, Aad::from(b"header"), &mut in_out).unwrap();
//! assert_eq!(plaintext, b"attack at dawn");
//! ```
//!
//! Beyond ring: AES-192-GCM, AES-GCM-SIV (RFC 8452) and AES-CCM (SP 800-38C) as further
//! [`Algorithm`]s; GCM with a truncated tag and CCM with any tag length through [`aes_gcm`] and
//! [`aes_ccm`]; nonces of other lengths and vg's error codes through
//! [`LessSafeKey::seal_detached`] / [`LessSafeKey::open_detached`]. docs/rust.md lists every
//! difference from ring and the reason for it.

use std::fmt;
use std::ops::RangeFrom;

use crate::error::{Error, Unspecified};
use crate::ffi::{Key, Mode};

/// The length of a [`Nonce`]: 96 bits, GCM's fast path and the length TLS and QUIC use.
pub const NONCE_LEN: usize = 12;

/// The longest tag of any algorithm here.
pub const MAX_TAG_LEN: usize = 16;

// ------------------------------------------------------------------------------------------------
// Algorithms

/// An AEAD algorithm: a mode, a key length and a tag length.
#[derive(PartialEq, Eq)]
pub struct Algorithm {
    mode: Mode,
    key_len: usize,
    tag_len: usize,
}

impl Algorithm {
    const fn new(mode: Mode, key_len: usize, tag_len: usize) -> Algorithm {
        Algorithm { mode, key_len, tag_len }
    }

    /// The length of the key in bytes.
    #[inline]
    pub fn key_len(&self) -> usize {
        self.key_len
    }

    /// The length of the tag in bytes.
    #[inline]
    pub fn tag_len(&self) -> usize {
        self.tag_len
    }

    /// The length of a [`Nonce`] ([`NONCE_LEN`]), as ring has it. The `*_detached` calls take the
    /// other lengths a mode allows (GCM: any from 1 byte; CCM: 7 to 13; GCM-SIV: 12 only).
    #[inline]
    pub fn nonce_len(&self) -> usize {
        NONCE_LEN
    }

    /// Whether a nonce of `len` bytes is one this algorithm's mode takes (`vg.h`).
    #[inline]
    fn nonce_len_ok(&self, len: usize) -> bool {
        match self.mode {
            Mode::Gcm => len >= 1,
            Mode::GcmSiv => len == vg_sys::VG_AES_GCM_SIV_NONCE_SIZE,
            Mode::Ccm => {
                (vg_sys::VG_AES_CCM_NONCE_MIN_SIZE..=vg_sys::VG_AES_CCM_NONCE_MAX_SIZE).contains(&len)
            }
        }
    }

    /// The message limits of `vg.h`: GCM plaintext at most 2^36 - 32 bytes and AAD at most
    /// 2^61 - 1; GCM-SIV both at most 2^36; CCM plaintext below 2^(8L) with L = 15 - nonce length.
    #[inline]
    fn lengths_ok(&self, nonce_len: usize, aad_len: usize, len: usize) -> bool {
        let (aad, len) = (aad_len as u64, len as u64);
        match self.mode {
            Mode::Gcm => len <= (1u64 << 36) - 32 && aad < (1u64 << 61),
            Mode::GcmSiv => len <= 1u64 << 36 && aad <= 1u64 << 36,
            Mode::Ccm => {
                let l_bits = 8 * (15 - nonce_len as u32);
                l_bits >= 64 || len < (1u64 << l_bits)
            }
        }
    }
}

impl fmt::Debug for Algorithm {
    /// The name of the static that holds it: `AES_128_GCM`, `AES_256_CCM_8`, ... (a tag shorter
    /// than 16 bytes is a suffix, as in TLS's `CCM_8`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mode = match self.mode {
            Mode::Gcm => "GCM",
            Mode::GcmSiv => "GCM_SIV",
            Mode::Ccm => "CCM",
        };
        write!(f, "AES_{}_{}", self.key_len * 8, mode)?;
        if self.tag_len != MAX_TAG_LEN {
            write!(f, "_{}", self.tag_len)?;
        }
        Ok(())
    }
}

/// AES-128 in GCM mode, 16-byte tag (as ring's).
pub static AES_128_GCM: Algorithm = Algorithm::new(Mode::Gcm, 16, 16);
/// AES-192 in GCM mode, 16-byte tag (not in ring).
pub static AES_192_GCM: Algorithm = Algorithm::new(Mode::Gcm, 24, 16);
/// AES-256 in GCM mode, 16-byte tag (as ring's).
pub static AES_256_GCM: Algorithm = Algorithm::new(Mode::Gcm, 32, 16);
/// AES-128-GCM-SIV (RFC 8452): a repeated nonce reveals only whether two messages were equal.
pub static AES_128_GCM_SIV: Algorithm = Algorithm::new(Mode::GcmSiv, 16, 16);
/// AES-192-GCM-SIV: RFC 8452's derivation carried to a 24-byte key, as OpenSSL 3.2 does (vg.h).
pub static AES_192_GCM_SIV: Algorithm = Algorithm::new(Mode::GcmSiv, 24, 16);
/// AES-256-GCM-SIV (RFC 8452).
pub static AES_256_GCM_SIV: Algorithm = Algorithm::new(Mode::GcmSiv, 32, 16);
/// AES-128 in CCM mode, 16-byte tag. With a [`Nonce`] (12 bytes) a message is below 16 MiB.
pub static AES_128_CCM: Algorithm = Algorithm::new(Mode::Ccm, 16, 16);
/// AES-192 in CCM mode, 16-byte tag.
pub static AES_192_CCM: Algorithm = Algorithm::new(Mode::Ccm, 24, 16);
/// AES-256 in CCM mode, 16-byte tag.
pub static AES_256_CCM: Algorithm = Algorithm::new(Mode::Ccm, 32, 16);
/// AES-128 in CCM mode, 8-byte tag (TLS's `CCM_8`).
pub static AES_128_CCM_8: Algorithm = Algorithm::new(Mode::Ccm, 16, 8);
/// AES-192 in CCM mode, 8-byte tag.
pub static AES_192_CCM_8: Algorithm = Algorithm::new(Mode::Ccm, 24, 8);
/// AES-256 in CCM mode, 8-byte tag (TLS's `CCM_8`).
pub static AES_256_CCM_8: Algorithm = Algorithm::new(Mode::Ccm, 32, 8);

// Every (key, tag) combination vg takes, so that aes_gcm / aes_ccm can hand out `&'static`
// algorithms (what UnboundKey::new takes, as in ring) for lengths chosen at run time.
const GCM_TAG_LENS: [usize; 7] = [4, 8, 12, 13, 14, 15, 16];
const CCM_TAG_LENS: [usize; 7] = [4, 6, 8, 10, 12, 14, 16];

const fn row(mode: Mode, key_len: usize, tags: [usize; 7]) -> [Algorithm; 7] {
    [
        Algorithm::new(mode, key_len, tags[0]),
        Algorithm::new(mode, key_len, tags[1]),
        Algorithm::new(mode, key_len, tags[2]),
        Algorithm::new(mode, key_len, tags[3]),
        Algorithm::new(mode, key_len, tags[4]),
        Algorithm::new(mode, key_len, tags[5]),
        Algorithm::new(mode, key_len, tags[6]),
    ]
}

static GCM_TABLE: [[Algorithm; 7]; 3] =
    [row(Mode::Gcm, 16, GCM_TAG_LENS), row(Mode::Gcm, 24, GCM_TAG_LENS), row(Mode::Gcm, 32, GCM_TAG_LENS)];
static CCM_TABLE: [[Algorithm; 7]; 3] =
    [row(Mode::Ccm, 16, CCM_TAG_LENS), row(Mode::Ccm, 24, CCM_TAG_LENS), row(Mode::Ccm, 32, CCM_TAG_LENS)];

fn lookup(
    table: &'static [[Algorithm; 7]; 3],
    tags: &[usize; 7],
    key_len: usize,
    tag_len: usize,
) -> Result<&'static Algorithm, Error> {
    let k = match key_len {
        16 => 0,
        24 => 1,
        32 => 2,
        _ => return Err(Error::KeyLength),
    };
    let t = tags.iter().position(|&t| t == tag_len).ok_or(Error::TagLength)?;
    Ok(&table[k][t])
}

/// AES-GCM with a key of `key_len` bytes (16, 24, 32) and a tag of `tag_len` (16, 15, 14, 13, 12,
/// 8 or 4: the first bytes of the full tag). Tags of 8 and 4 bytes are weak forgery protection:
/// SP 800-38D Appendix C limits how much data a key may then authenticate. Not in ring.
pub fn aes_gcm(key_len: usize, tag_len: usize) -> Result<&'static Algorithm, Error> {
    lookup(&GCM_TABLE, &GCM_TAG_LENS, key_len, tag_len)
}

/// AES-CCM with a key of `key_len` bytes (16, 24, 32) and a tag of `tag_len` (4, 6, 8, 10, 12, 14
/// or 16). Not in ring.
pub fn aes_ccm(key_len: usize, tag_len: usize) -> Result<&'static Algorithm, Error> {
    lookup(&CCM_TABLE, &CCM_TAG_LENS, key_len, tag_len)
}

// ------------------------------------------------------------------------------------------------
// Nonces, AAD, tags

/// A nonce for a single use with a key: 12 bytes, as ring's. Neither `Clone` nor `Copy`, so one
/// value cannot be used twice by accident.
pub struct Nonce([u8; NONCE_LEN]);

impl Nonce {
    /// The nonce in `value`, which must be exactly [`NONCE_LEN`] bytes.
    #[inline]
    pub fn try_assume_unique_for_key(value: &[u8]) -> Result<Self, Unspecified> {
        if value.len() != NONCE_LEN {
            return Err(Unspecified);
        }
        let mut bytes = [0u8; NONCE_LEN];
        bytes.copy_from_slice(value);
        Ok(Nonce(bytes))
    }

    /// The nonce `value`. The caller promises it is never used with this key again.
    #[inline]
    pub fn assume_unique_for_key(value: [u8; NONCE_LEN]) -> Self {
        Nonce(value)
    }
}

impl AsRef<[u8; NONCE_LEN]> for Nonce {
    fn as_ref(&self) -> &[u8; NONCE_LEN] {
        &self.0
    }
}

/// A sequence of unique nonces, as ring's: `advance` must never return the same nonce twice for
/// one key.
pub trait NonceSequence {
    /// The next nonce, or an error when the sequence is exhausted.
    fn advance(&mut self) -> Result<Nonce, Unspecified>;
}

/// Additional authenticated data: authenticated, not encrypted.
pub struct Aad<A: AsRef<[u8]>>(A);

impl<A: AsRef<[u8]>> Aad<A> {
    /// The AAD `aad`. (An inherent function, not the `From` trait, as in ring.)
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn from(aad: A) -> Self {
        Aad(aad)
    }
}

impl<A: AsRef<[u8]>> AsRef<[u8]> for Aad<A> {
    fn as_ref(&self) -> &[u8] {
        self.0.as_ref()
    }
}

impl Aad<[u8; 0]> {
    /// No AAD.
    #[inline]
    pub fn empty() -> Self {
        Aad([])
    }
}

/// An authentication tag: [`Algorithm::tag_len`] bytes.
#[must_use]
#[derive(Clone, Copy)]
pub struct Tag {
    bytes: [u8; MAX_TAG_LEN],
    len: usize,
}

impl AsRef<[u8]> for Tag {
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl fmt::Debug for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tag(")?;
        for b in self.as_ref() {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

// ------------------------------------------------------------------------------------------------
// Keys

/// A key not yet bound to a nonce policy: make a [`LessSafeKey`], a [`SealingKey`] or an
/// [`OpeningKey`] from it. Zeroed (by vg's wipe) when dropped; `Send + Sync`; not `Clone` or
/// `Copy`, like ring's.
pub struct UnboundKey {
    algorithm: &'static Algorithm,
    key: Key,
}

impl UnboundKey {
    /// A key for `algorithm` from `key_bytes`, which must be [`Algorithm::key_len`] bytes.
    #[inline]
    pub fn new(algorithm: &'static Algorithm, key_bytes: &[u8]) -> Result<Self, Unspecified> {
        Ok(Self::try_new(algorithm, key_bytes)?)
    }

    /// As [`UnboundKey::new`], with vg's reason on failure ([`Error::KeyLength`]). Not in ring.
    pub fn try_new(algorithm: &'static Algorithm, key_bytes: &[u8]) -> Result<Self, Error> {
        // vg takes any AES key length for any mode; the algorithm fixes one.
        if key_bytes.len() != algorithm.key_len {
            return Err(Error::KeyLength);
        }
        Ok(UnboundKey { algorithm, key: Key::new(algorithm.mode, key_bytes)? })
    }

    /// The key's algorithm.
    #[inline]
    pub fn algorithm(&self) -> &'static Algorithm {
        self.algorithm
    }

    /// Seals in_out in place; every check of the algorithm's rules before vg is called.
    // This and open_within are always inlined into the public generic wrappers (and so into the
    // caller): left outlined, their register saves and spilled arguments were a few ns of a ~40 ns
    // 64-byte open in the alternating-rounds bench (vg-bench/benches/ab.rs).
    #[inline(always)]
    fn seal(&self, nonce: &[u8], aad: &[u8], in_out: &mut [u8]) -> Result<Tag, Error> {
        let alg = self.algorithm;
        if !alg.nonce_len_ok(nonce.len()) {
            return Err(Error::NonceLength);
        }
        if !alg.lengths_ok(nonce.len(), aad.len(), in_out.len()) {
            return Err(Error::Length);
        }
        let mut tag = Tag { bytes: [0; MAX_TAG_LEN], len: alg.tag_len };
        self.key.seal(nonce, aad, in_out, &mut tag.bytes[..alg.tag_len])?;
        Ok(tag)
    }

    /// Opens the ciphertext and tag at in_out[src..], writing the plaintext to in_out[..len], and
    /// returns len. On any error no plaintext is left anywhere in in_out: on Error::Auth the
    /// output (and, when it overlapped the input, the whole span it shares) is zero; on a
    /// parameter error nothing was decrypted.
    #[inline(always)]
    fn open_within(&self, nonce: &[u8], aad: &[u8], in_out: &mut [u8], src: usize) -> Result<usize, Error> {
        let alg = self.algorithm;
        if !alg.nonce_len_ok(nonce.len()) {
            return Err(Error::NonceLength);
        }
        let ct_and_tag = in_out.len().checked_sub(src).ok_or(Error::Arg)?;
        // Too short to hold a tag: no ciphertext, so nothing to release; the tag rule is the one broken.
        let len = ct_and_tag.checked_sub(alg.tag_len).ok_or(Error::TagLength)?;
        if !alg.lengths_ok(nonce.len(), aad.len(), len) {
            return Err(Error::Length);
        }
        // The tag is a shared borrow of the bytes after the ciphertext, the input and output a
        // mutable one of the bytes before it: the borrow checker keeps them apart, and no copy of
        // the tag is needed (a copy of a run-time length was a memcpy call per open).
        let (region, rest) = in_out.split_at_mut(src + len);
        let tag = &rest[..alg.tag_len];
        if src == 0 {
            self.key.open_in_place(nonce, aad, region, tag)?;
        } else if src >= len {
            // Output before the input, not overlapping it: one call, out of place.
            let (out, input) = region.split_at_mut(src);
            self.key.open_into(nonce, aad, input, &mut out[..len], tag)?;
        } else {
            // The output overlaps the input at an offset, which vg.h refuses (in and out must be
            // equal or disjoint): open in place, then move the plaintext down. On failure vg has
            // zeroed the input span; the output span is zeroed here too, as ring leaves it. On
            // success the span between the plaintext and the tag would hold the plaintext's tail a
            // second time: it is zeroed, so nothing outside the returned slice holds plaintext.
            if let Err(e) = self.key.open_in_place(nonce, aad, &mut region[src..], tag) {
                if e == Error::Auth {
                    region[..len].fill(0);
                }
                return Err(e);
            }
            region.copy_within(src.., 0);
            region[len..].fill(0);
        }
        Ok(len)
    }

    /// Opens in_out (ciphertext only) against a separate tag, in place.
    #[inline]
    fn open_detached(&self, nonce: &[u8], aad: &[u8], in_out: &mut [u8], tag: &[u8]) -> Result<(), Error> {
        let alg = self.algorithm;
        if !alg.nonce_len_ok(nonce.len()) {
            return Err(Error::NonceLength);
        }
        if tag.len() != alg.tag_len {
            return Err(Error::TagLength);
        }
        if !alg.lengths_ok(nonce.len(), aad.len(), in_out.len()) {
            return Err(Error::Length);
        }
        self.key.open_in_place(nonce, aad, in_out, tag)
    }
}

impl fmt::Debug for UnboundKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UnboundKey").field("algorithm", self.algorithm).finish()
    }
}

/// A key used with nonces the caller supplies on every call, as ring's `LessSafeKey`: nothing stops
/// a nonce from being reused, which with GCM and CCM reveals the XOR of two plaintexts and lets an
/// attacker forge tags. Prefer [`SealingKey`]/[`OpeningKey`], or AES-GCM-SIV where nonces may
/// repeat.
pub struct LessSafeKey {
    key: UnboundKey,
}

impl LessSafeKey {
    /// A `LessSafeKey` from `key`.
    #[inline]
    pub fn new(key: UnboundKey) -> Self {
        LessSafeKey { key }
    }

    /// Authenticates and decrypts `in_out` (ciphertext then tag) in place, and returns the
    /// plaintext: `in_out[..in_out.len() - tag_len]`. On error that span is zero (if the tag did
    /// not verify) or untouched (a bad length).
    #[inline]
    pub fn open_in_place<'in_out, A: AsRef<[u8]>>(
        &self,
        nonce: Nonce,
        aad: Aad<A>,
        in_out: &'in_out mut [u8],
    ) -> Result<&'in_out mut [u8], Unspecified> {
        self.open_within(nonce, aad, in_out, 0..)
    }

    /// As `open_in_place`, for the ciphertext and tag at `in_out[ciphertext_and_tag]`; the
    /// plaintext is written to the start of `in_out` and returned (ring's "shifting" open, for
    /// reassembling packets in place). On error `in_out[..plaintext length]` is zero (a forgery) or
    /// untouched (a bad length or range).
    ///
    /// When the output overlaps the ciphertext at an offset (0 < start < ciphertext length), vg
    /// (whose functions take equal or disjoint buffers) opens in place and moves the plaintext
    /// down, one extra copy; the bytes between the plaintext and the tag are then zeroed, and on a
    /// forgery everything up to the tag is. ring leaves ciphertext there; both are "unspecified".
    #[inline]
    pub fn open_within<'in_out, A: AsRef<[u8]>>(
        &self,
        nonce: Nonce,
        aad: Aad<A>,
        in_out: &'in_out mut [u8],
        ciphertext_and_tag: RangeFrom<usize>,
    ) -> Result<&'in_out mut [u8], Unspecified> {
        let len = self.key.open_within(&nonce.0, aad.as_ref(), in_out, ciphertext_and_tag.start)?;
        Ok(&mut in_out[..len])
    }

    /// Encrypts `in_out` in place and appends the tag.
    #[inline]
    pub fn seal_in_place_append_tag<A, InOut>(
        &self,
        nonce: Nonce,
        aad: Aad<A>,
        in_out: &mut InOut,
    ) -> Result<(), Unspecified>
    where
        A: AsRef<[u8]>,
        InOut: AsMut<[u8]> + for<'in_out> Extend<&'in_out u8>,
    {
        let tag = self.seal_in_place_separate_tag(nonce, aad, in_out.as_mut())?;
        in_out.extend(tag.as_ref());
        Ok(())
    }

    /// Encrypts `in_out` in place and returns the tag.
    #[inline]
    pub fn seal_in_place_separate_tag<A: AsRef<[u8]>>(
        &self,
        nonce: Nonce,
        aad: Aad<A>,
        in_out: &mut [u8],
    ) -> Result<Tag, Unspecified> {
        Ok(self.key.seal(&nonce.0, aad.as_ref(), in_out)?)
    }

    /// The old name of [`LessSafeKey::seal_in_place_append_tag`], kept as ring 0.16 keeps it.
    #[deprecated(note = "Renamed to `seal_in_place_append_tag`.")]
    #[inline]
    pub fn seal_in_place<A, InOut>(
        &self,
        nonce: Nonce,
        aad: Aad<A>,
        in_out: &mut InOut,
    ) -> Result<(), Unspecified>
    where
        A: AsRef<[u8]>,
        InOut: AsMut<[u8]> + for<'in_out> Extend<&'in_out u8>,
    {
        self.seal_in_place_append_tag(nonce, aad, in_out)
    }

    /// vg's one-shot seal as `vg.h` has it: a nonce of any length the mode takes (GCM: 1 byte or
    /// more, 12 being the fast path; CCM: 7 to 13, where 15 - length bytes count the message, so 13
    /// allows 64 KiB and 12 16 MiB; GCM-SIV: 12), vg's error on failure. Encrypts `in_out` in
    /// place and returns the tag. Not in ring.
    #[inline]
    pub fn seal_detached<A: AsRef<[u8]>>(
        &self,
        nonce: &[u8],
        aad: Aad<A>,
        in_out: &mut [u8],
    ) -> Result<Tag, Error> {
        self.key.seal(nonce, aad.as_ref(), in_out)
    }

    /// vg's one-shot open: verifies `tag` (exactly [`Algorithm::tag_len`] bytes) over `in_out` (the
    /// ciphertext alone) and decrypts it in place. On [`Error::Auth`] `in_out` is zero; on any other
    /// error it is untouched. Nonce lengths as for [`LessSafeKey::seal_detached`]. Not in ring.
    #[inline]
    pub fn open_detached<A: AsRef<[u8]>>(
        &self,
        nonce: &[u8],
        aad: Aad<A>,
        in_out: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        self.key.open_detached(nonce, aad.as_ref(), in_out, tag)
    }

    /// The key's algorithm.
    #[inline]
    pub fn algorithm(&self) -> &'static Algorithm {
        self.key.algorithm
    }
}

impl fmt::Debug for LessSafeKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LessSafeKey").field("algorithm", self.key.algorithm).finish()
    }
}

/// A key bound to a [`NonceSequence`], as ring's `BoundKey`.
pub trait BoundKey<N: NonceSequence>: fmt::Debug {
    /// Binds `key` to `nonce_sequence`.
    fn new(key: UnboundKey, nonce_sequence: N) -> Self;
    /// The key's algorithm.
    fn algorithm(&self) -> &'static Algorithm;
}

/// A key for sealing, taking a fresh nonce from its sequence for every message.
pub struct SealingKey<N: NonceSequence> {
    key: UnboundKey,
    nonce_sequence: N,
}

impl<N: NonceSequence> BoundKey<N> for SealingKey<N> {
    fn new(key: UnboundKey, nonce_sequence: N) -> Self {
        SealingKey { key, nonce_sequence }
    }
    fn algorithm(&self) -> &'static Algorithm {
        self.key.algorithm
    }
}

impl<N: NonceSequence> fmt::Debug for SealingKey<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SealingKey").field("algorithm", self.key.algorithm).finish()
    }
}

impl<N: NonceSequence> SealingKey<N> {
    /// Encrypts `in_out` in place with the next nonce and appends the tag.
    #[inline]
    pub fn seal_in_place_append_tag<A, InOut>(
        &mut self,
        aad: Aad<A>,
        in_out: &mut InOut,
    ) -> Result<(), Unspecified>
    where
        A: AsRef<[u8]>,
        InOut: AsMut<[u8]> + for<'in_out> Extend<&'in_out u8>,
    {
        let tag = self.seal_in_place_separate_tag(aad, in_out.as_mut())?;
        in_out.extend(tag.as_ref());
        Ok(())
    }

    /// Encrypts `in_out` in place with the next nonce and returns the tag.
    #[inline]
    pub fn seal_in_place_separate_tag<A: AsRef<[u8]>>(
        &mut self,
        aad: Aad<A>,
        in_out: &mut [u8],
    ) -> Result<Tag, Unspecified> {
        let nonce = self.nonce_sequence.advance()?;
        Ok(self.key.seal(&nonce.0, aad.as_ref(), in_out)?)
    }

    /// The old name of [`SealingKey::seal_in_place_append_tag`], kept as ring 0.16 keeps it.
    #[deprecated(note = "Renamed to `seal_in_place_append_tag`.")]
    #[inline]
    pub fn seal_in_place<A, InOut>(&mut self, aad: Aad<A>, in_out: &mut InOut) -> Result<(), Unspecified>
    where
        A: AsRef<[u8]>,
        InOut: AsMut<[u8]> + for<'in_out> Extend<&'in_out u8>,
    {
        self.seal_in_place_append_tag(aad, in_out)
    }
}

/// A key for opening, taking the next nonce from its sequence for every message.
pub struct OpeningKey<N: NonceSequence> {
    key: UnboundKey,
    nonce_sequence: N,
}

impl<N: NonceSequence> BoundKey<N> for OpeningKey<N> {
    fn new(key: UnboundKey, nonce_sequence: N) -> Self {
        OpeningKey { key, nonce_sequence }
    }
    fn algorithm(&self) -> &'static Algorithm {
        self.key.algorithm
    }
}

impl<N: NonceSequence> fmt::Debug for OpeningKey<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpeningKey").field("algorithm", self.key.algorithm).finish()
    }
}

impl<N: NonceSequence> OpeningKey<N> {
    /// As [`LessSafeKey::open_in_place`], with the next nonce of the sequence.
    #[inline]
    pub fn open_in_place<'in_out, A: AsRef<[u8]>>(
        &mut self,
        aad: Aad<A>,
        in_out: &'in_out mut [u8],
    ) -> Result<&'in_out mut [u8], Unspecified> {
        self.open_within(aad, in_out, 0..)
    }

    /// As [`LessSafeKey::open_within`], with the next nonce of the sequence.
    #[inline]
    pub fn open_within<'in_out, A: AsRef<[u8]>>(
        &mut self,
        aad: Aad<A>,
        in_out: &'in_out mut [u8],
        ciphertext_and_tag: RangeFrom<usize>,
    ) -> Result<&'in_out mut [u8], Unspecified> {
        let nonce = self.nonce_sequence.advance()?;
        let len = self.key.open_within(&nonce.0, aad.as_ref(), in_out, ciphertext_and_tag.start)?;
        Ok(&mut in_out[..len])
    }
}
