//! Classification metrics, exact to scikit-learn 1.9 (docs/specs/families.md section 1): hard-label metrics from a
//! confusion matrix ([`labels`]), binary ranking curves ([`curves`]) and score-based metrics ([`scores`]).

pub mod binary_pass;
pub mod curves;
pub mod groups;
pub mod labels;
pub mod scores;
pub mod weighted;
