//! Target `kaggle_pstring`: the `kaggle` protocol's PredictionString reader and its box metrics (COCO, VOC,
//! Global Wheat), with the bytes as the submission next to examples/kaggle/prediction-string's solution, then as
//! the solution next to its submission, under each layout (`classes`, `box_format`).

use super::{both_modes, pair};
use crate::input::Role;

const GT: &[u8] = include_bytes!("../../examples/kaggle/prediction-string/solution.csv");
const SUB: &[u8] = include_bytes!("../../examples/kaggle/prediction-string/submission.csv");
const SETS: &[&[(&str, &str)]] = &[
    &[("metric", "box_ap")],
    &[("metric", "voc_ap"), ("iou", "0.3"), ("box_format", "xyxy")],
    &[
        ("metric", "wheat_precision"),
        ("classes", "false"),
        ("empty", "skip"),
    ],
    &[("metric", "box_ap50"), ("max_memory", super::SMALL_BUDGET)],
];

/// The bytes as the submission, then as the solution.
pub fn kaggle_pstring(data: &[u8]) {
    let set = SETS[data.len() % SETS.len()];
    both_modes(
        "kaggle",
        &pair("submission.csv", Role::Pred, data, "solution.csv", GT),
        set,
    );
    both_modes(
        "kaggle",
        &pair("solution.csv", Role::Gt, data, "submission.csv", SUB),
        set,
    );
}
