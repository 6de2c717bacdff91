//! Fuzz target `restore`: see `maul3d_fuzz::fuzz_restore` (fuzz/src/lib.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| maul3d_fuzz::fuzz_restore(data));
