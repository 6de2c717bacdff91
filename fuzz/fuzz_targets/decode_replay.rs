//! Fuzz target `decode_replay`: see `maul3d_fuzz::fuzz_decode_replay` (fuzz/src/lib.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| maul3d_fuzz::fuzz_decode_replay(data));
