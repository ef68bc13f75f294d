//! Corrected mode (the XML reader): arbitrary bytes as the ICFHR'14 GT (with fixed results) and as the results
//! (with a fixed GT). Asserts only that nothing panics.
#![no_main]
mod common;
use dropscore::Mode;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::both_sides(
        data,
        Mode::Corrected,
        "icfhr14",
        false,
        ("gt.xml", common::EDGE_GT),
        ("res.xml", common::EDGE_RES),
    );
});
