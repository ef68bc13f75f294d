//! A [`Replicate`] for metrics that are functions of sums over units (docs/specs/statistics.md section 1):
//! each unit keeps one row of numbers (its sufficient statistics: counts, a per-unit value, a membership), a
//! replicate adds the rows, each times its draw count, and finishes every metric from the sums and the total
//! weight. A unit drawn k times thus counts k times, as on the repeated set. Sums of integer counts are exact
//! (below 2^53); sums of real values agree with any other summation order to the spec's 1e-12.
//!
//! Metrics that are not functions of fixed-width sums (a per-label table whose labels are the drawn units')
//! are [`Custom`]: computed from the weights alone.

use super::units::Replicate;
use std::any::Any;
use std::sync::Arc;

/// A metric's value from its columns' weighted sums and the total weight; `None` where undefined.
pub type Finish = Arc<dyn Fn(&[f64], f64) -> Option<f64> + Send + Sync>;

/// A metric computed from the unit weights directly.
pub type Custom = Arc<dyn Fn(&[u32]) -> Option<f64> + Send + Sync>;

enum How {
    Sums {
        at: usize,
        width: usize,
        finish: Finish,
    },
    Custom(Custom),
}

struct Metric {
    id: String,
    how: How,
}

/// The metrics as they are declared: each its columns (`width` numbers per unit) and its finish.
pub struct SumsBuilder {
    n: usize,
    columns: Vec<Vec<f64>>,
    metrics: Vec<Metric>,
    width: usize,
}

impl SumsBuilder {
    /// Metrics over `n` units.
    pub fn new(n: usize) -> SumsBuilder {
        SumsBuilder {
            n,
            columns: Vec::new(),
            metrics: Vec::new(),
            width: 0,
        }
    }

    /// Metric `id` from `data` (`width` numbers per unit, unit after unit): `finish(Σ w·row, Σ w)`. Ignored
    /// when `data` has another length.
    pub fn sums(&mut self, id: &str, width: usize, data: Vec<f64>, finish: Finish) {
        if data.len() != width * self.n {
            return;
        }
        self.columns.push(data);
        self.metrics.push(Metric {
            id: id.to_string(),
            how: How::Sums {
                at: self.width,
                width,
                finish,
            },
        });
        self.width += width;
    }

    /// `scale` × the weighted mean of `values` (`sum(values) / len(values)` on the repeated list); undefined
    /// when a drawn value is NaN.
    pub fn mean(&mut self, id: &str, values: Vec<f64>, scale: f64) {
        let finish: Finish =
            Arc::new(move |s, t| (t > 0.0 && s[0].is_finite()).then(|| scale * (s[0] / t)));
        self.sums(id, 1, values, finish);
    }

    /// The weighted mean of the defined values (`None`s left out, as a mean over the kept units is); undefined
    /// when no drawn unit has one.
    pub fn mean_of_defined(&mut self, id: &str, values: &[Option<f64>]) {
        let mut data = Vec::with_capacity(2 * values.len());
        for v in values {
            data.push(v.unwrap_or(0.0));
            data.push(v.is_some() as u8 as f64);
        }
        let finish: Finish = Arc::new(|s, _| (s[1] > 0.0 && s[0].is_finite()).then(|| s[0] / s[1]));
        self.sums(id, 2, data, finish);
    }

    /// Metric `id` computed from the weights by `f`.
    pub fn custom(&mut self, id: &str, f: Custom) {
        self.metrics.push(Metric {
            id: id.to_string(),
            how: How::Custom(f),
        });
    }

    /// Whether no metric was declared.
    pub fn is_empty(&self) -> bool {
        self.metrics.is_empty()
    }

    /// The replicate: the rows of every unit, the metrics' columns side by side.
    pub fn build(self, unit_scores: Option<Vec<f64>>, lower_is_better: &[&str]) -> UnitSums {
        let width = self.width;
        let mut rows = vec![0.0f64; width * self.n];
        for (data, m) in self.columns.iter().zip(
            self.metrics
                .iter()
                .filter(|m| matches!(m.how, How::Sums { .. })),
        ) {
            let How::Sums { at, width: w, .. } = m.how else {
                continue;
            };
            for (i, part) in data.chunks_exact(w).enumerate() {
                rows[i * width + at..i * width + at + w].copy_from_slice(part);
            }
        }
        UnitSums {
            metrics: self.metrics,
            width,
            rows,
            n: self.n,
            unit_scores,
            lower: lower_is_better.iter().map(|s| s.to_string()).collect(),
        }
    }
}

/// Every unit's row of sufficient statistics and the metrics read from their weighted sums.
pub struct UnitSums {
    metrics: Vec<Metric>,
    width: usize,
    rows: Vec<f64>,
    n: usize,
    unit_scores: Option<Vec<f64>>,
    lower: Vec<String>,
}

impl UnitSums {
    /// The metrics' values for weights `w`, unit i's row being `row(i)`.
    fn weighted<'a>(&'a self, w: &[u32], row: impl Fn(usize) -> &'a [f64]) -> Vec<Option<f64>> {
        let mut sums = vec![0.0f64; self.width];
        let mut total = 0u64;
        for (i, &k) in w.iter().enumerate().take(self.n) {
            if k == 0 {
                continue;
            }
            total += k as u64;
            let kf = k as f64;
            for (s, x) in sums.iter_mut().zip(row(i)) {
                *s += kf * x;
            }
        }
        self.metrics
            .iter()
            .map(|m| match &m.how {
                How::Sums { at, width, finish } => finish(&sums[*at..at + width], total as f64),
                How::Custom(f) => f(w),
            })
            .collect()
    }

    fn row(&self, i: usize) -> &[f64] {
        &self.rows[i * self.width..(i + 1) * self.width]
    }
}

impl Replicate for UnitSums {
    fn metrics(&self) -> Vec<String> {
        self.metrics.iter().map(|m| m.id.clone()).collect()
    }

    fn values(&self, w: &[u32]) -> Vec<Option<f64>> {
        self.weighted(w, |i| self.row(i))
    }

    /// The other submission's rows where `take_other` (the same units, the same metrics); none when a metric
    /// is [`Custom`].
    fn mixed(
        &self,
        other: &dyn Replicate,
        take_other: &[bool],
        w: &[u32],
    ) -> Option<Vec<Option<f64>>> {
        let o = other.as_any().downcast_ref::<UnitSums>()?;
        let layout = |u: &UnitSums| -> Option<Vec<(String, usize)>> {
            u.metrics
                .iter()
                .map(|m| match m.how {
                    How::Sums { at, .. } => Some((m.id.clone(), at)),
                    How::Custom(_) => None,
                })
                .collect()
        };
        let same = o.n == self.n
            && o.width == self.width
            && take_other.len() == self.n
            && layout(self).is_some()
            && layout(self) == layout(o);
        if !same {
            return None;
        }
        Some(self.weighted(w, |i| if take_other[i] { o.row(i) } else { self.row(i) }))
    }

    fn unit_scores(&self) -> Option<Vec<f64>> {
        self.unit_scores.clone()
    }

    fn lower_is_better(&self, metric: &str) -> bool {
        self.lower.iter().any(|m| m == metric)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weighted_sums_and_means() {
        let mut b = SumsBuilder::new(3);
        b.mean("m", vec![1.0, 2.0, 4.0], 1.0);
        b.mean_of_defined("d", &[Some(1.0), None, Some(3.0)]);
        let ratio: Finish = Arc::new(|s, _| (s[1] > 0.0).then(|| s[0] / s[1]));
        b.sums("r", 2, vec![1.0, 2.0, 0.0, 1.0, 3.0, 3.0], ratio);
        b.custom("c", Arc::new(|w| Some(w[0] as f64)));
        let u = b.build(None, &["m"]);
        assert_eq!(
            u.values(&[2, 1, 0]),
            vec![Some(4.0 / 3.0), Some(1.0), Some(2.0 / 5.0), Some(2.0)]
        );
        assert_eq!(u.values(&[0, 3, 0])[1], None);
        assert!(u.lower_is_better("m") && !u.lower_is_better("r"));
        assert!(u.mixed(&u, &[true, false, true], &[1, 1, 1]).is_none());
    }
}
