//! Target `kaggle_csv`: the `kaggle` protocol's CSV reader, run-length-encoding parser, list and string cells
//! and every metric, with the bytes as the submission next to the built-in examples' solutions, then as the
//! solution, under each metric kind, and the masks' page views.

use super::{both_modes, pair};
use crate::input::Role;

const RLE_GT: &[u8] = include_bytes!("../../www/examples/kaggle/rle/solution.csv");
const RLE_SUB: &[u8] = include_bytes!("../../www/examples/kaggle/rle/submission.csv");
const MAP_GT: &[u8] = include_bytes!("../../www/examples/kaggle/map/solution.csv");
const MAP_SUB: &[u8] = include_bytes!("../../www/examples/kaggle/map/submission.csv");
const RLE_SETS: &[&[(&str, &str)]] = &[
    &[("metric", "mean_dice"), ("width", "32"), ("height", "24")],
    &[
        ("metric", "hausdorff"),
        ("width", "32"),
        ("height", "24"),
        ("empty", "skip"),
    ],
    &[
        ("metric", "iou_precision"),
        ("width", "3"),
        ("height", "2"),
        ("max_memory", super::SMALL_BUDGET),
    ],
    &[
        ("metric", "fbeta"),
        ("beta", "2"),
        ("width", "w"),
        ("height", "h"),
    ],
];
const LIST_SETS: &[&[(&str, &str)]] = &[
    &[("metric", "map"), ("k", "5")],
    &[("metric", "f1_macro")],
    &[("metric", "levenshtein"), ("empty", "zero")],
    &[
        ("metric", "word_jaccard"),
        ("delimiter", ";"),
        ("column", "prediction"),
    ],
];

/// The bytes as the submission, then as the solution, with masks and with lists.
pub fn kaggle_csv(data: &[u8]) {
    let rle = RLE_SETS[data.len() % RLE_SETS.len()];
    let list = LIST_SETS[data.len() % LIST_SETS.len()];
    both_modes(
        "kaggle",
        &pair("submission.csv", Role::Pred, data, "solution.csv", RLE_GT),
        rle,
    );
    both_modes(
        "kaggle",
        &pair("solution.csv", Role::Gt, data, "submission.csv", RLE_SUB),
        rle,
    );
    both_modes(
        "kaggle",
        &pair("submission.csv", Role::Pred, data, "solution.csv", MAP_GT),
        list,
    );
    both_modes(
        "kaggle",
        &pair("solution.csv", Role::Gt, data, "submission.csv", MAP_SUB),
        list,
    );
}
