//! aij2022 `.npy` reader and FID: arbitrary bytes as the generated side's activations (reference: the fixture
//! activations), as a CLIP text-embedding matrix next to the fixture image matrix and ids, and directly through
//! `formats::npy::parse`. Asserts only that nothing panics.
#![no_main]
use dropscore::input::{Entry, FileSet, Role};
use dropscore::protocols::{self, Quiet, Request};
use dropscore::Mode;
use libfuzzer_sys::fuzz_target;

const GT: &[u8] = include_bytes!("../../tests/data/aij2022/fid_A_gt_acts.npy");
const CAP_GT: &[u8] = include_bytes!("../../tests/data/aij2022/captioning_gt.json");
const CAP_PRED: &[u8] = include_bytes!("../../tests/data/aij2022/captioning_pred.json");
const CLIP_IMAGE: &[u8] = include_bytes!("../../tests/data/aij2022/clip/clip_image.npy");
const CLIP_IDS: &[u8] = include_bytes!("../../tests/data/aij2022/clip/clip_ids.json");

fuzz_target!(|data: &[u8]| {
    let _ = dropscore::formats::npy::parse("x.npy", data);
    // Keep the FID affordable: a huge declared shape is refused by the reader before any allocation.
    if data.len() > 1 << 16 {
        return;
    }
    let files = FileSet::of(
        vec![
            Entry::from_bytes("gt.npy", Some(Role::Gt), GT.to_vec()),
            Entry::from_bytes("pred.npy", Some(Role::Pred), data.to_vec()),
        ],
        Vec::new(),
    );
    if let Ok(r) = protocols::score("aij2022", &files, &Request::new(Mode::Official), &mut Quiet) {
        let _ = r.to_json();
    }
    let files = FileSet::of(
        vec![
            Entry::from_bytes("captioning_gt.json", Some(Role::Gt), CAP_GT.to_vec()),
            Entry::from_bytes("captioning_pred.json", Some(Role::Pred), CAP_PRED.to_vec()),
            Entry::from_bytes("clip_image.npy", Some(Role::Pred), CLIP_IMAGE.to_vec()),
            Entry::from_bytes("clip_text.npy", Some(Role::Pred), data.to_vec()),
            Entry::from_bytes("clip_ids.json", Some(Role::Pred), CLIP_IDS.to_vec()),
        ],
        Vec::new(),
    );
    if let Ok(r) = protocols::score("aij2022", &files, &Request::new(Mode::Official), &mut Quiet) {
        let _ = r.to_json();
    }
});
