//! Fuzz target `replay_journal`: see `maul3d_fuzz::fuzz_replay_journal` (fuzz/src/lib.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| maul3d_fuzz::fuzz_replay_journal(data));
