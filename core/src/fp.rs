//! The floating-point environment at the library's boundaries.
//!
//! Every call that computes runs in the library's own setting — round to nearest,
//! subnormals kept, every exception masked — and hands the calling thread back its
//! rounding mode and flush-to-zero / denormals-are-zero bits as it found them (MXCSR on
//! x86 and x86-64, FPCR on aarch64; wasm32 has no environment). Rust assumes the default
//! environment, so the switch happens only in `#[inline(never)]` shims where foreign code
//! enters: the C ABI's exports, Godot entries and the task trampoline. Between `enter` and
//! `leave` no host code runs; host callbacks (allocator, task hooks, debug draw) are
//! called through `call_host`, which puts the host's bits back for the call.
//!
//! The Rust API itself does not switch: its callers are in Rust's default environment,
//! which is the library's setting.

/// The caller's floating-point control bits, to restore on return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SavedFp(u64);

/// MXCSR with every exception masked, round to nearest, FTZ and DAZ off.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
const LIBRARY_MXCSR: u32 = 0x1F80;

/// Reads the thread's control bits.
#[inline(always)]
pub fn current() -> SavedFp {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        let mut csr: u32 = 0;
        // SAFETY: stmxcsr stores the 32-bit MXCSR to the address of `csr`, which is a
        // valid, aligned, writable u32 on this stack frame.
        unsafe {
            core::arch::asm!("stmxcsr [{p}]", p = in(reg) &mut csr, options(nostack, preserves_flags));
        }
        SavedFp(csr as u64)
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
        let csr = bits.0 as u32;
        // SAFETY: ldmxcsr loads MXCSR from a valid u32; the value is either the caller's
        // own earlier MXCSR or the library's (all exceptions masked), so no reserved bit
        // is set and no exception can be unmasked by us.
        unsafe {
            core::arch::asm!("ldmxcsr [{p}]", p = in(reg) &csr, options(nostack, readonly, preserves_flags));
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
        SavedFp(LIBRARY_MXCSR as u64)
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

/// Runs `f` in the library's setting and restores the caller's afterwards: the shim
/// every foreign entry goes through. Not inlined, so the switch brackets the call.
#[inline(never)]
pub fn with_library_fp<R>(f: impl FnOnce() -> R) -> R {
    let saved = enter();
    let r = f();
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
    let r = f();
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
}
