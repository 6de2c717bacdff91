//! The floating-point environment at the library's boundaries.
//!
//! Every call that computes runs in the library's own setting — round to nearest,
//! subnormals kept, every exception masked — and hands the calling thread back its
//! rounding mode and flush-to-zero / denormals-are-zero bits as it found them (MXCSR on
//! x86 and x86-64, FPCR on aarch64; wasm32 has no environment). On x86 and x86-64 the x87
//! control word (rounding, precision, exception masks) is switched and restored with the
//! MXCSR: i686 returns floats through the x87 stack, and a host callback that runs in the
//! library's setting (the pre-solve callback) must find both units in it, not the
//! library's MXCSR beside the caller's x87 rounding. Rust assumes the default
//! environment, so the switch happens only in `#[inline(never)]` shims where foreign code
//! enters: the C ABI's exports, Godot entries and the task trampoline. Between `enter` and
//! `leave` no host code runs; host callbacks (allocator, task hooks, debug draw) are
//! called through `call_host`, which puts the host's bits back for the call.
//!
//! The Rust API itself does not switch: its callers are in Rust's default environment,
//! which is the library's setting.

/// The caller's floating-point control bits, to restore on return (on x86 and x86-64:
/// the MXCSR in the low 32 bits, the x87 control word in the next 16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SavedFp(u64);

/// MXCSR with every exception masked, round to nearest, FTZ and DAZ off.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
const LIBRARY_MXCSR: u32 = 0x1F80;

/// The x87 control word a thread starts with under the platform's ABI (so Rust code is
/// already in it): every exception masked, round to nearest, and 64-bit precision
/// (`fninit`'s value, the System V ABIs') or 53-bit on Windows (its x64 ABI and the MSVC
/// runtime).
#[cfg(all(any(target_arch = "x86", target_arch = "x86_64"), not(windows)))]
const LIBRARY_X87: u16 = 0x037F;
#[cfg(all(any(target_arch = "x86", target_arch = "x86_64"), windows))]
const LIBRARY_X87: u16 = 0x027F;

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
impl SavedFp {
    fn pack(mxcsr: u32, x87: u16) -> SavedFp {
        SavedFp(((x87 as u64) << 32) | mxcsr as u64)
    }

    /// The MXCSR part.
    pub fn mxcsr(self) -> u32 {
        self.0 as u32
    }

    /// The x87 control word part.
    pub fn x87_control(self) -> u16 {
        (self.0 >> 32) as u16
    }
}

/// Reads the thread's control bits.
#[inline(always)]
pub fn current() -> SavedFp {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        let mut csr: u32 = 0;
        let mut cw: u16 = 0;
        // SAFETY: stmxcsr stores the 32-bit MXCSR to the address of `csr`, and fnstcw the
        // 16-bit x87 control word to the address of `cw`: both valid, aligned, writable
        // locals on this stack frame. Neither changes any state.
        unsafe {
            core::arch::asm!("stmxcsr [{p}]", p = in(reg) &mut csr, options(nostack, preserves_flags));
            core::arch::asm!("fnstcw [{p}]", p = in(reg) &mut cw, options(nostack, preserves_flags));
        }
        SavedFp::pack(csr, cw)
    }
    #[cfg(target_arch = "aarch64")]
    {
        let fpcr: u64;
        // SAFETY: reading FPCR has no side effects.
        unsafe {
            core::arch::asm!("mrs {r}, fpcr", r = out(reg) fpcr, options(nomem, nostack, preserves_flags));
        }
        SavedFp(fpcr)
    }
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64", target_arch = "aarch64")))]
    {
        SavedFp(0)
    }
}

/// Writes the thread's control bits.
#[inline(always)]
fn set(bits: SavedFp) {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        let (csr, cw) = (bits.mxcsr(), bits.x87_control());
        // SAFETY: ldmxcsr loads MXCSR from a valid u32 and fldcw the x87 control word from
        // a valid u16; each value is either the caller's own earlier one or the library's
        // (all exceptions masked), so no reserved bit is set and no exception can be
        // unmasked by us.
        unsafe {
            core::arch::asm!("ldmxcsr [{p}]", p = in(reg) &csr, options(nostack, readonly, preserves_flags));
            core::arch::asm!("fldcw [{p}]", p = in(reg) &cw, options(nostack, readonly, preserves_flags));
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        // SAFETY: FPCR takes the caller's own earlier value or the library's (0: IEEE
        // defaults, no traps).
        unsafe {
            core::arch::asm!("msr fpcr, {r}", r = in(reg) bits.0, options(nomem, nostack, preserves_flags));
        }
    }
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let _ = bits;
    }
}

/// The library's setting.
#[inline(always)]
pub fn library() -> SavedFp {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        SavedFp::pack(LIBRARY_MXCSR, LIBRARY_X87)
    }
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
    {
        SavedFp(0)
    }
}

/// Saves the caller's bits and switches to the library's setting.
#[inline(always)]
pub fn enter() -> SavedFp {
    let saved = current();
    let lib = library();
    if saved != lib {
        set(lib);
    }
    saved
}

/// Restores the caller's bits.
#[inline(always)]
pub fn leave(saved: SavedFp) {
    if saved != library() {
        set(saved);
    }
}

/// Keeps a computation inside the switch: LLVM assumes the default environment and may
/// move arithmetic on values it already holds across the (side-effecting, memory-reading)
/// switch, so a shim passes what it computes from through this after `enter` and what it
/// computed through it again before `leave`. (Without it `m3Normalize` computed part of
/// its result in the caller's upward rounding.)
#[inline(always)]
pub fn fence<T>(x: T) -> T {
    core::hint::black_box(x)
}

/// Runs `f` in the library's setting and restores the caller's afterwards: the shim
/// every foreign entry goes through. Not inlined, so the switch brackets the call, and
/// `f` and its result pass through [`fence`], so nothing it computes moves out.
#[inline(never)]
pub fn with_library_fp<R>(f: impl FnOnce() -> R) -> R {
    let saved = enter();
    let f = fence(f);
    let r = fence(f());
    leave(saved);
    r
}

/// Runs host code `f` (a callback) in the host's setting `host`, then returns to the
/// library's.
#[inline(never)]
pub fn call_host<R>(host: SavedFp, f: impl FnOnce() -> R) -> R {
    if host != library() {
        set(host);
    }
    let f = fence(f);
    let r = fence(f());
    if host != library() {
        set(library());
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_environment_is_the_library_setting() {
        // Rust test threads start in the default environment.
        assert_eq!(current(), library());
        let r = with_library_fp(|| 1.0f32 / 3.0);
        assert_eq!(r, 1.0f32 / 3.0);
        assert_eq!(current(), library());
    }

    /// A host that rounds upward in both units: the library's setting inside a shim (and
    /// in host code run in it), the host's in a callback, and the host's again after.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    #[test]
    fn the_shim_switches_and_restores_the_x87_control_word_with_the_mxcsr() {
        // Rounding control upward: MXCSR bits 13-14 = 10, x87 control bits 10-11 = 10.
        let host = SavedFp::pack(LIBRARY_MXCSR | 0x4000, LIBRARY_X87 | 0x0800);
        set(host);
        let (inside, in_callback) = with_library_fp(|| (current(), call_host(host, current)));
        let after = current();
        set(library());
        assert_eq!(inside, library());
        assert_eq!(inside.x87_control(), LIBRARY_X87);
        assert_eq!(in_callback, host);
        assert_eq!(after, host);
    }
}
