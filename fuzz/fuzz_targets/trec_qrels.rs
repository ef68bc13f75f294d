//! TREC qrels reader and trec_eval measures: arbitrary bytes as qrels, with a fixed run, in both modes.
//! Asserts only that nothing panics.
#![no_main]
mod common;
use dropscore::input::Role;
use dropscore::Mode;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for mode in [Mode::Official, Mode::Corrected] {
        let req = common::request(mode, "trec", true, data.len());
        common::score(
            &common::pair("x.qrels", Role::Gt, data, "x.run", common::RUN),
            &req,
        );
    }
});
