//! trec_eval's `-q` text output of a `trec` report.

use crate::metrics::trec::{parse_measures, Family};
use crate::report::{Item, Report};
use serde_json::Value;

/// trec_eval `-q` output: per-query lines (queries in ascending byte order, measures in trec_eval order),
/// then the `all` lines, each `%-22s\t%s\t%6.4f` (counts `%ld`, runid `%s`), as `meas_print_single.c` and
/// `meas_print_final.c` print them. Nothing when the report's scores are blocked by an error (trec_eval
/// prints nothing on stdout then).
pub fn render_text(report: &Report) -> String {
    if report.scores.iter().all(|(_, v)| v.is_none()) && report.has_errors() {
        return String::new();
    }
    let is_count = |k: &str| matches!(k, "num_q" | "num_ret" | "num_rel" | "num_rel_ret");
    let line = |out: &mut String, name: &str, qid: &str, v: Option<f64>| {
        let val = match v {
            Some(x) if is_count(name) => format!("{}", x as i64),
            Some(x) => format!("{x:6.4}"),
            None => "  -nan".to_string(),
        };
        out.push_str(&format!("{name:<22}\t{qid}\t{val}\n"));
    };
    let mut out = String::new();
    let mut printed: Vec<&Item> = report
        .items
        .iter()
        .filter(|i| i.detail.get("evaluated") == Some(&Value::Bool(true)))
        .collect();
    printed.sort_by(|a, b| a.id.as_bytes().cmp(b.id.as_bytes()));
    for it in printed {
        for (k, v) in it.scores.iter() {
            line(&mut out, k, &it.id, v);
        }
    }
    if let Some(Value::String(runid)) = report.options.get("runid") {
        let has_runid = report
            .options
            .get("measures")
            .and_then(|v| v.as_str())
            .and_then(|l| parse_measures(&l.split(',').collect::<Vec<_>>()).ok())
            .is_none_or(|ms| ms.iter().any(|x| x.family == Family::Runid));
        if has_runid {
            out.push_str(&format!("{:<22}\tall\t{runid}\n", "runid"));
        }
    }
    for (k, v) in report.scores.iter() {
        line(&mut out, k, "all", v);
    }
    out
}
