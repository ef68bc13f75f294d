//! Targets of the four metric families' readers (classification and regression CSV, COCO JSON, PNG label
//! maps) and of `detailed_results.html` (src/html.rs).

use super::{both_modes, pair, request, set_of, Bytes};
use crate::input::{Entry, Role};
use crate::protocols::{self, Quiet};
use crate::{Mode, Report};

const CLS_GT: &[u8] = include_bytes!("../../www/examples/classification/gt.csv");
const CLS_GT_BINARY: &[u8] = include_bytes!("../../www/examples/classification/gt_binary.csv");
const CLS_SCORES: &[u8] = include_bytes!("../../www/examples/classification/pred_scores.csv");
const CLS_SETS: &[&[(&str, &str)]] = &[
    &[],
    &[("metric", "roc_auc"), ("missing", "worst")],
    &[
        ("metric", "log_loss"),
        ("k", "2"),
        ("positive_label", "cat"),
    ],
    &[
        ("delimiter", ";"),
        ("id_column", "id"),
        ("label_column", "label"),
    ],
    &[("metric", "f1_macro"), ("max_memory", super::SMALL_BUDGET)],
];

/// classification CSV readers and metrics: the bytes as the submission next to the multi-class GT
/// (hard labels or per-class score columns) and the binary GT, then as the GT next to the score submission.
pub fn classification_csv(data: &[u8]) {
    let set = CLS_SETS[data.len() % CLS_SETS.len()];
    let other = CLS_SETS[(data.len() / 5) % CLS_SETS.len()];
    both_modes(
        "classification",
        &pair("pred.csv", Role::Pred, data, "gt.csv", CLS_GT),
        set,
    );
    both_modes(
        "classification",
        &pair("pred.csv", Role::Pred, data, "gt.csv", CLS_GT_BINARY),
        other,
    );
    both_modes(
        "classification",
        &pair("gt.csv", Role::Gt, data, "pred.csv", CLS_SCORES),
        set,
    );
}

const REG_GT: &[u8] = include_bytes!("../../www/examples/regression/gt.csv");
const REG_PRED: &[u8] = include_bytes!("../../www/examples/regression/pred.csv");
const REG_SETS: &[&[(&str, &str)]] = &[
    &[],
    &[("metric", "r2")],
    &[("delimiter", "\t"), ("label_column", "prediction")],
    &[
        ("metric", "mean_absolute_error"),
        ("max_memory", super::SMALL_BUDGET),
    ],
];

/// regression CSV readers and metrics: the bytes as the submission, then as the GT.
pub fn regression_csv(data: &[u8]) {
    let set = REG_SETS[data.len() % REG_SETS.len()];
    both_modes(
        "regression",
        &pair("pred.csv", Role::Pred, data, "gt.csv", REG_GT),
        set,
    );
    both_modes(
        "regression",
        &pair("gt.csv", Role::Gt, data, "pred.csv", REG_PRED),
        set,
    );
}

const COCO_GT: &[u8] = include_bytes!("../../www/examples/detection/gt/instances.json");
const COCO_RES: &[u8] = include_bytes!("../../www/examples/detection/pred/results.json");
const COCO_SETS: &[&[(&str, &str)]] = &[
    &[],
    &[("use_cats", "false"), ("max_dets", "1,5,20")],
    &[("iou_thresholds", "0.5:0.05:0.95"), ("metric", "AP50")],
    &[
        ("area_ranges", "all=0:1e10,small=0:1024"),
        ("max_memory", super::SMALL_BUDGET),
    ],
];

/// COCO JSON reader and COCOeval: the bytes as the results file next to the example annotations,
/// then as the annotation file next to the example results.
pub fn coco_json(data: &[u8]) {
    let set = COCO_SETS[data.len() % COCO_SETS.len()];
    both_modes(
        "detection",
        &pair("results.json", Role::Pred, data, "instances.json", COCO_GT),
        set,
    );
    both_modes(
        "detection",
        &pair("instances.json", Role::Gt, data, "results.json", COCO_RES),
        set,
    );
}

const SEG_GT: &[u8] = include_bytes!("../../www/examples/segmentation/gt/scene_1.png");
const SEG_PRED: &[u8] = include_bytes!("../../www/examples/segmentation/pred/scene_1.png");
const SEG_PALETTE: &str = "#000000=0,#ff0000=1,#00ff00=2,#0000ff=3";
const SEG_SETS: &[&[(&str, &str)]] = &[
    &[],
    &[("reduce_zero_label", "true"), ("ignore_index", "0")],
    &[("num_classes", "4"), ("missing", "zero")],
    &[("palette", SEG_PALETTE), ("max_megapixels", "1")],
];

/// (colour type, bit depth) pairs a PNG may have.
const PNG_SHAPES: &[(png::ColorType, png::BitDepth)] = &[
    (png::ColorType::Grayscale, png::BitDepth::One),
    (png::ColorType::Grayscale, png::BitDepth::Two),
    (png::ColorType::Grayscale, png::BitDepth::Four),
    (png::ColorType::Grayscale, png::BitDepth::Eight),
    (png::ColorType::Grayscale, png::BitDepth::Sixteen),
    (png::ColorType::Indexed, png::BitDepth::Four),
    (png::ColorType::Indexed, png::BitDepth::Eight),
    (png::ColorType::GrayscaleAlpha, png::BitDepth::Eight),
    (png::ColorType::Rgb, png::BitDepth::Eight),
    (png::ColorType::Rgba, png::BitDepth::Eight),
    (png::ColorType::Rgb, png::BitDepth::Sixteen),
];

/// A valid PNG built from fuzz bytes: size, colour type and depth from the first bytes, samples from the
/// rest (repeated to fill), a palette for indexed images.
pub fn built_png(b: &mut Bytes) -> Vec<u8> {
    let w = 1 + u32::from(b.u16()) % 300;
    let h = 1 + u32::from(b.u16()) % 300;
    let (ct, depth) = PNG_SHAPES[b.u8() as usize % PNG_SHAPES.len()];
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(ct);
    enc.set_depth(depth);
    if ct == png::ColorType::Indexed {
        let n = 1 + b.u8() as usize % 16;
        let pal: Vec<u8> = (0..n * 3)
            .map(|i| b.u8().wrapping_add((i as u8).wrapping_mul(40)))
            .collect();
        enc.set_palette(pal);
    }
    let channels = match ct {
        png::ColorType::Grayscale | png::ColorType::Indexed => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
    };
    let bits = channels * depth as usize;
    let row = (w as usize * bits).div_ceil(8);
    let seed = b.take(4096);
    let seed = if seed.is_empty() { &[0u8][..] } else { seed };
    let pixels: Vec<u8> = seed
        .iter()
        .copied()
        .cycle()
        .take(row * h as usize)
        .collect();
    if let Ok(mut wr) = enc.write_header() {
        let _ = wr.write_image_data(&pixels);
    }
    out
}

/// Segmentation label-map decoder and mIoU: the first byte picks the options, the side and whether
/// the rest is a PNG as is or the recipe of a valid one ([`built_png`]); the PNG is decoded directly
/// (with and without a palette, under a small pixel cap), then scored as the prediction next to the
/// example GT or as the GT next to the example prediction, in both modes.
pub fn label_map(data: &[u8]) {
    let Some((&k, rest)) = data.split_first() else {
        return;
    };
    let bytes = if k & 0x10 != 0 {
        built_png(&mut Bytes { data: rest })
    } else {
        rest.to_vec()
    };
    let palette = crate::formats::label_map::parse_palette(SEG_PALETTE).ok();
    let _ = crate::formats::label_map::decode("x.png", &bytes, 1 << 12, None);
    let _ = crate::formats::label_map::decode("x.png", &bytes, 1 << 20, palette.as_ref());
    let set = SEG_SETS[k as usize % SEG_SETS.len()];
    let files = if k & 0x20 == 0 {
        pair(
            "pred/scene_1.png",
            Role::Pred,
            &bytes,
            "gt/scene_1.png",
            SEG_GT,
        )
    } else {
        pair(
            "gt/scene_1.png",
            Role::Gt,
            &bytes,
            "pred/scene_1.png",
            SEG_PRED,
        )
    };
    both_modes("segmentation", &files, set);
}

/// A report of the classification example (for rendering configs into `detailed_results.html`).
pub fn fixed_report() -> Option<Report> {
    let files = pair("pred.csv", Role::Pred, CLS_SCORES, "gt.csv", CLS_GT);
    protocols::score(
        "classification",
        &files,
        &request(Mode::Corrected, &[]),
        &mut Quiet,
    )
    .ok()
}

/// `detailed_results.html` (src/html.rs): the bytes up to the first NUL are a dropscore.toml (its title and
/// leaderboard columns), the rest a report in JSON (`Report` deserialised as is, so titles, ids, groups,
/// readings and plots come from the fuzzer); when the rest is not a report, it is scored as a
/// classification submission and as a chalearn-ce category, and those reports are written.
pub fn html(data: &[u8]) {
    let (cfg, rest) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&[][..], data),
    };
    let config = std::str::from_utf8(cfg)
        .ok()
        .and_then(|t| crate::config::from_toml(t).ok());
    if let Ok(report) = serde_json::from_slice::<Report>(rest) {
        let _ = crate::html::detailed(&report, config.as_ref());
        let _ = crate::html::detailed(&report, None);
        let _ = crate::render::text(&report);
        return;
    }
    let cls = pair("pred.csv", Role::Pred, rest, "gt.csv", CLS_GT);
    let ce = set_of(vec![
        Entry::from_bytes(
            "ref/La_Tomatina_test.txt",
            Some(Role::Gt),
            include_bytes!(
                "../../tests/data/chalearn-ce/ap_example/input/ref/La_Tomatina_test.txt"
            )
            .to_vec(),
        ),
        Entry::from_bytes("res/La_Tomatina.txt", Some(Role::Pred), rest.to_vec()),
    ]);
    for (id, files) in [("classification", &cls), ("chalearn-ce", &ce)] {
        for mode in [Mode::Official, Mode::Corrected] {
            if let Ok(r) = protocols::score(id, files, &request(mode, &[]), &mut Quiet) {
                let _ = crate::html::detailed(&r, config.as_ref());
            }
        }
    }
}
