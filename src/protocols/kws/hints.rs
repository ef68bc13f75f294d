//! How the page shows a kws report: `map` is the headline; ICFHR'14 reports show each P@k beside it (TREC reports
//! have none). The `icfhr14` preset in official mode computes in binary32, as rusteval does (docs/specs/kws.md,
//! section 9), so its scores are binary32 values widened to binary64.

use crate::report::{Hints, Mode, Report};

pub fn hints(report: &Report) -> Hints {
    let has_map = report.display.headline.iter().any(|l| l.id == "map");
    let is_prec_at = |id: &str| {
        id.strip_prefix("precAt")
            .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
    };
    Hints {
        primary: has_map.then(|| "map".to_string()),
        beside: if has_map {
            let prec = report.display.headline.iter().filter(|l| is_prec_at(&l.id));
            prec.map(|l| l.id.clone()).collect()
        } else {
            Vec::new()
        },
        binary32: report.mode == Mode::Official
            && report.options.get("preset").and_then(|v| v.as_str()) == Some("icfhr14"),
        one_mode: false,
    }
}
