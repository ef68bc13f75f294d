//! Target `aij2022_npy`: its body is `dropscore::fuzzing::aij2022_npy` (src/fuzzing/), replayed under `cargo test` by
//! tests/fuzz_replay.rs. What it feeds: fuzz/README.md.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| dropscore::fuzzing::run("aij2022_npy", data));
