//! Target `kaggle_csv`: its body is `dropscore::fuzzing::kaggle_csv` (src/fuzzing/), replayed under `cargo test` by
//! tests/fuzz_replay.rs. What it feeds: fuzz/README.md.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| dropscore::fuzzing::run("kaggle_csv", data));
