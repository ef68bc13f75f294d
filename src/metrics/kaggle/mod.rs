//! Metrics of Kaggle competitions that the CSV families cannot express: run-length-encoded masks (Dice, the
//! 2018 Data Science Bowl's precision over IoU thresholds, F-beta over pixels, the Hausdorff distance), MAP@k
//! over predicted lists and F1 over label sets. Each function names the published code it follows.

pub mod hausdorff;
pub mod ordering;
pub mod ranking;
pub mod rle;
pub mod round;
