//! Target `kaggle_pstring`: its body is `dropscore::fuzzing::kaggle_pstring` (src/fuzzing/), replayed under `cargo test` by
//! tests/fuzz_replay.rs. What it feeds: fuzz/README.md.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| dropscore::fuzzing::run("kaggle_pstring", data));
