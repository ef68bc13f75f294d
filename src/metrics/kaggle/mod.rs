//! Metrics of Kaggle competitions that the CSV families cannot express: run-length-encoded masks (Dice, the
//! 2018 Data Science Bowl's precision over IoU thresholds, F-beta over pixels, the Hausdorff distance), MAP@k
//! over predicted lists, F1 over label sets, and single competitions' formulas (KL divergence, weighted AUC,
//! lwlrap, probabilistic F-beta, weighted log loss, haversine, angular error, Laplace log likelihood). Each
//! function names the published code it follows.

pub mod curves;
pub mod geometry;
pub mod hausdorff;
pub mod ordering;
pub mod probability;
pub mod ranking;
pub mod rle;
pub mod round;
