//! Input layer: arbitrary bytes dropped as `x.zip` (predictions) next to a fixed GT; every entry is read
//! (bounded), then scored with auto detection in both modes. Asserts only that nothing panics.
#![no_main]
mod common;
use dropscore::input::Role;
use dropscore::protocols::Request;
use dropscore::Mode;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let files = common::build(vec![
        ("x.zip", Some(Role::Pred), data.to_vec()),
        ("gt.xml", Some(Role::Gt), common::EDGE_GT.to_vec()),
    ]);
    for mode in [Mode::Official, Mode::Corrected] {
        common::score(&files, &Request::new(mode));
    }
    // The same bytes with no role: role detection by path and by content.
    let files = common::build(vec![("x.zip", None, data.to_vec())]);
    common::score(&files, &Request::new(Mode::Official));
});
