//! The ground floor of every byte format: a little-endian, field-by-field encoder and a
//! bounds-checked decoder, with the FNV-1a checksum they feed. The hash, the snapshot and
//! the journal all write through [`Enc`] and read through [`Dec`].
//!
//! Fields are written one by one, little-endian, with no padding and no `usize`, so the
//! bytes are the same on every target. Where the bytes go is a [`Sink`]: the hash
//! ([`Fnv`]), a byte count ([`Count`]), or a buffer (the snapshot's and the journal's
//! writers).

use crate::alloc::FixedVec;
use crate::error::{Error, Result};
use crate::math::{DAabb, DVec3, Mat3, Quat, Vec3};

/// FNV-1a, 64-bit (offset basis 0xcbf29ce484222325, prime 0x100000001b3): a fixed,
/// documented function (never std's hasher).
pub(crate) struct Fnv(u64);

impl Fnv {
    pub(crate) fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    pub(crate) fn byte(&mut self, b: u8) {
        self.0 ^= b as u64;
        self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
    }
    pub(crate) fn finish(&self) -> u64 {
        self.0
    }
}

/// Where encoded bytes go.
pub(crate) trait Sink {
    fn put(&mut self, bytes: &[u8]);
}

impl Sink for Fnv {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.byte(b);
        }
    }
}

/// Counts bytes.
pub(crate) struct Count(pub(crate) usize);

impl Sink for Count {
    fn put(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
}

/// Field-by-field writer.
pub(crate) struct Enc<'a, S: Sink>(pub &'a mut S);

impl<S: Sink> Enc<'_, S> {
    pub(crate) fn u8(&mut self, v: u8) {
        self.0.put(&[v]);
    }
    pub(crate) fn bool(&mut self, v: bool) {
        self.u8(v as u8);
    }
    pub(crate) fn u16(&mut self, v: u16) {
        self.0.put(&v.to_le_bytes());
    }
    pub(crate) fn u32(&mut self, v: u32) {
        self.0.put(&v.to_le_bytes());
    }
    pub(crate) fn i32(&mut self, v: i32) {
        self.0.put(&v.to_le_bytes());
    }
    pub(crate) fn u64(&mut self, v: u64) {
        self.0.put(&v.to_le_bytes());
    }
    pub(crate) fn i64(&mut self, v: i64) {
        self.0.put(&v.to_le_bytes());
    }
    pub(crate) fn f32(&mut self, v: f32) {
        self.u32(v.to_bits());
    }
    pub(crate) fn f64(&mut self, v: f64) {
        self.u64(v.to_bits());
    }
    pub(crate) fn vec3(&mut self, v: Vec3) {
        self.f32(v.x);
        self.f32(v.y);
        self.f32(v.z);
    }
    pub(crate) fn dvec3(&mut self, v: DVec3) {
        self.f64(v.x);
        self.f64(v.y);
        self.f64(v.z);
    }
    pub(crate) fn quat(&mut self, q: Quat) {
        self.f32(q.x);
        self.f32(q.y);
        self.f32(q.z);
        self.f32(q.w);
    }
    pub(crate) fn mat3(&mut self, m: &Mat3) {
        self.vec3(m.cx);
        self.vec3(m.cy);
        self.vec3(m.cz);
    }
    pub(crate) fn daabb(&mut self, a: &DAabb) {
        self.dvec3(a.lower);
        self.dvec3(a.upper);
    }
    /// A pool's free list: its length, then its slots in list order.
    pub(crate) fn free_list(&mut self, free: &[u32]) {
        self.u32(free.len() as u32);
        for &f in free {
            self.u32(f);
        }
    }
}

/// Reads the encoding back; every read is bounds-checked and every value validated, so no
/// input can panic it.
pub(crate) struct Dec<'a> {
    pub(crate) buf: &'a [u8],
    pub(crate) pos: usize,
}

const DAMAGED: Error = Error::Format("snapshot payload is cut short or inconsistent");

impl Dec<'_> {
    pub(crate) fn take<const N: usize>(&mut self) -> Result<[u8; N]> {
        let end = self.pos.checked_add(N).ok_or(DAMAGED)?;
        let s = self.buf.get(self.pos..end).ok_or(DAMAGED)?;
        self.pos = end;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }
    pub(crate) fn u8(&mut self) -> Result<u8> {
        Ok(self.take::<1>()?[0])
    }
    pub(crate) fn bool(&mut self) -> Result<bool> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Error::Format("a flag is neither 0 nor 1")),
        }
    }
    pub(crate) fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_le_bytes(self.take()?))
    }
    pub(crate) fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.take()?))
    }
    pub(crate) fn i32(&mut self) -> Result<i32> {
        Ok(i32::from_le_bytes(self.take()?))
    }
    pub(crate) fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.take()?))
    }
    pub(crate) fn i64(&mut self) -> Result<i64> {
        Ok(i64::from_le_bytes(self.take()?))
    }
    pub(crate) fn f32(&mut self) -> Result<f32> {
        let v = f32::from_bits(self.u32()?);
        if v.is_finite() {
            Ok(v)
        } else {
            Err(Error::Format("a number is not finite"))
        }
    }
    pub(crate) fn f64(&mut self) -> Result<f64> {
        let v = f64::from_bits(self.u64()?);
        if v.is_finite() {
            Ok(v)
        } else {
            Err(Error::Format("a number is not finite"))
        }
    }
    pub(crate) fn vec3(&mut self) -> Result<Vec3> {
        Ok(Vec3::new(self.f32()?, self.f32()?, self.f32()?))
    }
    pub(crate) fn dvec3(&mut self) -> Result<DVec3> {
        Ok(DVec3::new(self.f64()?, self.f64()?, self.f64()?))
    }
    pub(crate) fn quat(&mut self) -> Result<Quat> {
        Ok(Quat::new(
            self.f32()?,
            self.f32()?,
            self.f32()?,
            self.f32()?,
        ))
    }
    pub(crate) fn mat3(&mut self) -> Result<Mat3> {
        Ok(Mat3::from_cols(self.vec3()?, self.vec3()?, self.vec3()?))
    }
    pub(crate) fn daabb(&mut self) -> Result<DAabb> {
        Ok(DAabb::new(self.dvec3()?, self.dvec3()?))
    }
}

/// A format error naming `why` unless `ok`.
pub(crate) fn check(ok: bool, why: &'static str) -> Result<()> {
    if ok { Ok(()) } else { Err(Error::Format(why)) }
}

/// Reads a free list (as [`Enc::free_list`] wrote it) into `out` (on commit). `info` holds
/// one word per slot of the pool: bit 0 set for live slots; bit 63 marks slots already
/// listed.
pub(crate) fn decode_free_list(
    d: &mut Dec,
    info: &mut [u64],
    commit: bool,
    out: &mut FixedVec<u32>,
) -> Result<()> {
    let n = d.u32()? as usize;
    check(n <= info.len(), "free list longer than its pool")?;
    if commit {
        out.clear();
    }
    for _ in 0..n {
        let s = d.u32()? as usize;
        check(
            s < info.len() && info[s] & 1 == 0,
            "free list names a live or missing slot",
        )?;
        check(info[s] >> 63 == 0, "free list names a slot twice")?;
        info[s] |= 1 << 63;
        if commit {
            let ok = out.push(s as u32);
            debug_assert!(ok);
        }
    }
    Ok(())
}

/// Stores `item` at slot `i` of a pool being rebuilt in slot order.
pub(crate) fn put_slot<T>(pool: &mut FixedVec<T>, i: usize, item: T) {
    if i < pool.len() {
        pool[i] = item;
    } else {
        let ok = pool.push(item);
        debug_assert!(ok);
    }
}
