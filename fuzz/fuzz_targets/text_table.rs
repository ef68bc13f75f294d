//! Target `text_table`: its body is `dropscore::fuzzing::text_table` (src/fuzzing/), replayed under `cargo test` by
//! tests/fuzz_replay.rs. What it feeds: fuzz/README.md.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| dropscore::fuzzing::run("text_table", data));
