//! Resampling statistics (docs/specs/statistics.md): NumPy's seeded draws reproduced bit for bit, and the
//! summaries NumPy computes over replicate values (percentile interval, standard error), so that every interval
//! dropscore reports can be reproduced in Python with `numpy.random.default_rng(seed)`.
//!
//! Pure functions of their arguments, in the core layer: protocols keep per-unit sufficient statistics and use
//! these draws to recompute their metrics on weighted units.

pub mod block;
pub mod histogram;
pub mod interval;
pub mod numpy_rng;
pub mod resample;
pub mod summary;
pub mod sums;
pub mod units;
pub mod wide;

pub use interval::{holm, interval, nearly_equal, p_bootstrap, p_randomization, Interval};
pub use numpy_rng::Generator;
pub use resample::{Exchanges, Resampler};
pub use summary::{percentile, percentile_interval, std_ddof1, sum};
