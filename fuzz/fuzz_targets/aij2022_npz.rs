//! aij2022 `.npz` statistics: arbitrary bytes as the generated side's `.npz` (a zip opened by the input layer,
//! members `mu.npy` / `sigma.npy`), with the fixture statistics as the reference. Asserts only that nothing panics.
#![no_main]
use dropscore::input::{FileSet, Input, Limits, Role};
use dropscore::protocols::{self, Quiet, Request};
use dropscore::Mode;
use libfuzzer_sys::fuzz_target;
use std::rc::Rc;

const GT: &[u8] = include_bytes!("../../tests/data/aij2022/fid_A_gt_stats.npz");
const PRED: &[u8] = include_bytes!("../../tests/data/aij2022/fid_A_pred_stats_uncompressed.npz");

fuzz_target!(|data: &[u8]| {
    // Mutate the stored fixture when the input is short, so the fuzzer starts from a valid archive.
    let mut bytes = PRED.to_vec();
    if data.len() < 64 {
        for (i, b) in data.iter().enumerate() {
            let at = (*b as usize * 7 + i * 131) % bytes.len();
            bytes[at] ^= data.get(i + 1).copied().unwrap_or(0x5a);
        }
    } else {
        bytes = data.to_vec();
    }
    let files = FileSet::build(
        vec![
            Input {
                path: "gt.npz".into(),
                role: Some(Role::Gt),
                blob: Rc::new(GT.to_vec()),
            },
            Input {
                path: "pred.npz".into(),
                role: Some(Role::Pred),
                blob: Rc::new(bytes),
            },
        ],
        &Limits::default(),
    );
    if let Ok(r) = protocols::score("aij2022", &files, &Request::new(Mode::Official), &mut Quiet) {
        let _ = r.to_json();
    }
});
