//! How the page shows an aij2022 report: the integral score S when it was computed or several tasks were given
//! (it needs all six open tasks, so it is missing then until every task is there); with one task, that task's
//! score.

use crate::report::{Hints, Report};

pub fn hints(report: &Report) -> Hints {
    let headline = &report.display.headline;
    let Some(at) = headline.iter().position(|l| l.id == "integral") else {
        return Hints::default();
    };
    let computed = report.scores.get("integral").is_some_and(f64::is_finite);
    let primary = if computed || at != 1 {
        "integral"
    } else {
        headline[0].id.as_str()
    };
    Hints {
        primary: Some(primary.to_string()),
        ..Hints::default()
    }
}
