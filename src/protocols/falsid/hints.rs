//! How the page shows a falsid report: the configured headline (the first of `display.headline`: accuracy
//! officially, UAR in corrected mode), with the other of accuracy and UAR beside it.

use crate::report::{Hints, Report};

pub fn hints(report: &Report) -> Hints {
    let headline = &report.display.headline;
    let primary = headline.first().map(|l| l.id.as_str());
    Hints {
        primary: None,
        beside: ["accuracy", "uar"]
            .into_iter()
            .filter(|id| Some(*id) != primary && headline.iter().any(|l| l.id == *id))
            .map(str::to_string)
            .collect(),
        binary32: false,
        one_mode: false,
    }
}
