//! How the page shows an aij2022 report: the integral score S when it was computed; when it was not (it needs
//! all six open tasks and the hidden values) and several tasks were given, the first task score that was
//! computed, with S beside it (its "—" says what it needs), so the big number is a number; with one task, that
//! task's score.

use crate::report::{Hints, Report};

pub fn hints(report: &Report) -> Hints {
    let headline = &report.display.headline;
    let Some(at) = headline.iter().position(|l| l.id == "integral") else {
        return Hints::default();
    };
    let computed = |id: &str| report.scores.get(id).is_some_and(f64::is_finite);
    if computed("integral") {
        return Hints {
            primary: Some("integral".into()),
            ..Hints::default()
        };
    }
    if at == 1 {
        return Hints {
            primary: Some(headline[0].id.clone()),
            ..Hints::default()
        };
    }
    match headline.iter().find(|l| computed(&l.id)) {
        Some(first) => Hints {
            primary: Some(first.id.clone()),
            beside: vec!["integral".into()],
            ..Hints::default()
        },
        None => Hints {
            primary: Some("integral".into()),
            ..Hints::default()
        },
    }
}
