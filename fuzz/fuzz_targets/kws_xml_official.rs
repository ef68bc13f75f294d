//! Target `kws_xml_official`: its body is `dropscore::fuzzing::kws_xml_official` (src/fuzzing/), replayed under `cargo test` by
//! tests/fuzz_replay.rs. What it feeds: fuzz/README.md.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| dropscore::fuzzing::run("kws_xml_official", data));
