//! Target `text_json`: its body is `dropscore::fuzzing::text_json` (src/fuzzing/), replayed under `cargo test` by
//! tests/fuzz_replay.rs. What it feeds: fuzz/README.md.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| dropscore::fuzzing::run("text_json", data));
