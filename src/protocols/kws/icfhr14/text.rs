//! rusteval's printed text output of an `icfhr14` report.

use crate::report::Report;
use serde_json::Value;

/// rusteval's printed layout, with the columns in the fixed order precAt5, precAt10, ap and queries sorted.
pub fn render_text(report: &Report) -> String {
    let keys: Vec<String> = report
        .items
        .first()
        .map(|i| i.scores.iter().map(|(k, _)| k.to_string()).collect())
        .unwrap_or_else(|| vec!["precAt5".into(), "precAt10".into(), "ap".into()]);
    let cell = |v: Option<f64>| v.map_or("NaN".to_string(), |x| format!("{:.5}", x as f32));
    let mut out = String::from("\t\t");
    for k in &keys {
        out.push_str(&format!("{k:16}"));
    }
    out.push_str("\n=======================================================================\n");
    for it in &report.items {
        if it.detail.get("in_results") == Some(&Value::Bool(false))
            && it.scores.iter().all(|(_, v)| v.is_none())
        {
            continue;
        }
        if it.detail.get("in_gt") == Some(&Value::Bool(false)) {
            continue;
        }
        out.push_str(&it.id);
        for k in &keys {
            out.push_str(&format!("\t\t{}", cell(it.scores.get(k))));
        }
        out.push('\n');
    }
    out.push_str(
        "------------------------------------------------------------------------\nMEAN:\t\t",
    );
    for k in &keys {
        out.push_str(&format!("{k:16}"));
    }
    out.push_str("\n=======================================================================\n\t\t");
    let means: Vec<Option<f64>> = report.scores.iter().map(|(_, v)| v).collect();
    for v in &means {
        out.push_str(&format!("{}\t\t", cell(*v)));
    }
    out.push('\n');
    if !report.display.footer.is_empty() {
        out.push_str(&format!("({})\n", report.display.footer));
    }
    out
}
