//! Target `lemma_asset`: its body is `dropscore::fuzzing::lemma_asset` (src/fuzzing/), replayed under `cargo test` by
//! tests/fuzz_replay.rs. What it feeds: fuzz/README.md.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| dropscore::fuzzing::run("lemma_asset", data));
