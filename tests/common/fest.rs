//! Helpers of the `fest` tests (tests/fest.rs, fest_cases.rs, fest_spec.rs, fest_two_files.rs): PNGs written in
//! memory, the scoring of PNGs given as bytes, the spec's synthetic page (docs/specs/fest.md 7.1), and how a
//! report's first item is read.

use super::{bytes_input, input, score_inputs};
use dropscore::input::Role;
use dropscore::{Mode, Report};

pub const SYN_GT: &str = "fest/synthetic/gt/001.png";
pub const SYN_PRED: &str = "fest/synthetic/pred/001.png";

/// A PNG of any colour type and bit depth (`png` crate), `data` already packed as PNG rows expect.
pub fn png(
    w: u32,
    h: u32,
    color: png::ColorType,
    depth: png::BitDepth,
    data: &[u8],
    palette: Option<&[u8]>,
) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut e = png::Encoder::new(&mut out, w, h);
        e.set_color(color);
        e.set_depth(depth);
        if let Some(p) = palette {
            e.set_palette(p.to_vec());
        }
        let mut wr = e.write_header().unwrap();
        wr.write_image_data(data).unwrap();
    }
    out
}

pub fn rgb8(w: u32, h: u32, px: &[[u8; 3]]) -> Vec<u8> {
    png(
        w,
        h,
        png::ColorType::Rgb,
        png::BitDepth::Eight,
        &px.concat(),
        None,
    )
}

pub fn fest(
    gt: Vec<(&str, Vec<u8>)>,
    pred: Vec<(&str, Vec<u8>)>,
    mode: Mode,
    set: &[(&str, &str)],
) -> Report {
    let mut inputs: Vec<_> = gt
        .into_iter()
        .map(|(p, b)| bytes_input(p, Some(Role::Gt), b))
        .collect();
    inputs.extend(
        pred.into_iter()
            .map(|(p, b)| bytes_input(p, Some(Role::Pred), b)),
    );
    score_inputs("fest", inputs, mode, set)
}

pub fn synthetic(mode: Mode, set: &[(&str, &str)]) -> Report {
    score_inputs(
        "fest",
        vec![
            input(SYN_GT, Some(Role::Gt)),
            input(SYN_PRED, Some(Role::Pred)),
        ],
        mode,
        set,
    )
}

pub fn det(r: &Report, k: &str) -> u64 {
    r.items[0].detail[k]
        .as_u64()
        .unwrap_or_else(|| panic!("detail {k}"))
}

pub fn five(r: &Report) -> Vec<Option<f64>> {
    ["pixel_iu", "line_iu", "dr", "ra", "fm"]
        .iter()
        .map(|k| r.items[0].scores.get(k))
        .collect()
}
