//! Target `chalearn_ce`: its body is `dropscore::fuzzing::chalearn_ce` (src/fuzzing/), replayed under `cargo test` by
//! tests/fuzz_replay.rs. What it feeds: fuzz/README.md.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| dropscore::fuzzing::run("chalearn_ce", data));
