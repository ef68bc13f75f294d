//! The leaderboard value as a competition publishes it, in both table families: option `one_minus` gives
//! `1 − x` of the leaderboard metric (the error rate from accuracy), option `round` rounds it as Python's
//! `round(x, ndigits)` does (`return round(score, 4)` in a competition's metric code). Either adds the score
//! `leaderboard`, shown first; the metric's own value stays as scikit-learn computes it.

use crate::metrics::kaggle::round::python_round;
use crate::protocols::options::Int;
use crate::protocols::UsageError;
use crate::report::{Label, Report};

/// The help text of option `one_minus`.
pub const ONE_MINUS_HELP: &str =
    "the leaderboard value is 1 − the leaderboard metric (e.g. the error rate 1 − accuracy), as score `leaderboard`";
/// The help text of option `round`.
pub const ROUND_HELP: &str =
    "decimals the leaderboard value is rounded to, as Python's round(x, ndigits) \
    (score `leaderboard`); -1: not rounded";

/// The score id of the transformed leaderboard value.
pub const ID: &str = "leaderboard";

/// The options, checked: `1 − x` or not, and the decimals to round to (`None`: not rounded).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Headline {
    pub one_minus: bool,
    pub round: Option<u32>,
}

impl Headline {
    /// From options `one_minus` and `round` (empty or `-1`: not rounded; else 0 to 15 decimals).
    pub fn of(one_minus: bool, round: &Int) -> Result<Headline, UsageError> {
        let round = match round.value {
            -1 => None,
            d @ 0..=15 => Some(d as u32),
            _ => {
                return Err(UsageError(format!(
                    "option `round`: expected a number of decimals from 0 to 15 (or -1: not rounded), found `{}`",
                    round.text
                )))
            }
        };
        Ok(Headline { one_minus, round })
    }
    pub fn is_set(&self) -> bool {
        self.one_minus || self.round.is_some()
    }
    /// The value of the leaderboard metric's value `x`.
    pub fn value(&self, x: f64) -> f64 {
        let v = if self.one_minus { 1.0 - x } else { x };
        self.round.map_or(v, |d| python_round(v, d))
    }
    /// The score `leaderboard` from the leaderboard metric's value in `report` (the first of its headline; null
    /// when it is), first in the scores and the headline.
    pub fn apply(&self, report: &mut Report) {
        let Some(metric) = report.display.headline.first().map(|l| l.id.clone()) else {
            return;
        };
        if !self.is_set() {
            return;
        }
        let v = report.scores.get(&metric).map(|x| self.value(x));
        report
            .scores
            .0
            .insert(0, (ID.to_string(), v.filter(|x| x.is_finite())));
        let what = if self.one_minus {
            format!("1 − {metric}")
        } else {
            metric.to_string()
        };
        let label = match self.round {
            Some(d) => format!("{what}, rounded to {d} decimals"),
            None => what,
        };
        let decimals = self.round.unwrap_or(5);
        report.display.headline.insert(
            0,
            Label {
                id: ID.into(),
                label,
                decimals,
            },
        );
    }
    /// The score ids with `leaderboard` first when set.
    pub fn ids(&self, mut ids: Vec<String>) -> Vec<String> {
        if self.is_set() {
            ids.insert(0, ID.to_string());
        }
        ids
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_rate_rounded() {
        let h = Headline {
            one_minus: true,
            round: Some(4),
        };
        assert_eq!(h.value(0.87654), 0.1235);
        let h = Headline {
            one_minus: false,
            round: Some(2),
        };
        assert_eq!(h.value(0.125), 0.12);
    }
}
