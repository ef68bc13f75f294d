//! The report's statistics keys (docs/specs/statistics.md): `parts`, `statistics` and `intervals`.

use super::Scores;
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};

/// `"parts"`: part name (`public`, `private`) → its scores, in that order.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(from = "Map<String, Value>")]
pub struct Parts(pub Vec<(String, Scores)>);

impl Parts {
    pub fn get(&self, part: &str) -> Option<&Scores> {
        self.0.iter().find(|(k, _)| k == part).map(|(_, v)| v)
    }
}

impl Serialize for Parts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl From<Map<String, Value>> for Parts {
    fn from(m: Map<String, Value>) -> Self {
        Parts(
            m.into_iter()
                .filter_map(|(k, v)| match v {
                    Value::Object(o) => Some((k, Scores::from(o))),
                    _ => None,
                })
                .collect(),
        )
    }
}

/// `"statistics"`: what was resampled, how many times, with which seed and confidence.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Statistics {
    pub unit: String,
    pub strata: Option<String>,
    pub bootstrap: u64,
    pub seed: u64,
    pub confidence: f64,
}

/// One metric's interval as the report writes it (null values where the interval is null).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IntervalValues {
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub se: Option<f64>,
    pub left_out: u64,
    /// Why there is no interval (a metric that is not a mean over units), when that is the case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl From<&crate::stats::Interval> for IntervalValues {
    fn from(i: &crate::stats::Interval) -> Self {
        IntervalValues {
            low: i.low,
            high: i.high,
            se: i.se,
            left_out: i.left_out as u64,
            reason: None,
        }
    }
}

/// Metric id → interval, in insertion order.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(from = "Map<String, Value>")]
pub struct Intervals(pub Vec<(String, IntervalValues)>);

impl Intervals {
    pub fn get(&self, id: &str) -> Option<&IntervalValues> {
        self.0.iter().find(|(k, _)| k == id).map(|(_, v)| v)
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Intervals {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl From<Map<String, Value>> for Intervals {
    fn from(m: Map<String, Value>) -> Self {
        Intervals(
            m.into_iter()
                .filter_map(|(k, v)| Some((k, serde_json::from_value(v).ok()?)))
                .collect(),
        )
    }
}
