//! The pre-flight check of `kws` (docs/specs/preflight.md): the manifest holds the format family and the query ids
//! in file order (TREC: every qid on a qrels line whatever its grade; XML: every block rusteval's line reader
//! keeps), never a relevant item, box or grade. `check` writes a stand-in ground truth from the manifest (each
//! query with one placeholder judgement, in the family's own layout) and runs scoring itself ([`score`]:
//! file detection, the readers, every per-query and per-file check) on it with the submission; it keeps the
//! diagnostics about the submission and drops the two whose outcome depends on which items are relevant.

use super::detect::{sniff, Sniff};
use super::options::{FloatRel, KwsOptions, TrecVersion};
use crate::diag::Diagnostic;
use crate::formats::kws_xml::Kind;
use crate::formats::{kws_xml_lines, trec};
use crate::input::{Entry, Role, RoleFrom};
use crate::protocols::preflight::{
    bad_manifest, counted, item, score_with_stand_in, strings, thousands, Found,
};
use crate::protocols::{AnyProtocol, Progress, Run, UsageError};
use crate::report::Report;
use serde_json::{json, Value};
use std::collections::HashSet;

/// Diagnostics that depend on which results are hits (relevant items): the stand-in ground truth cannot tell.
const LABEL_DEPENDENT: &[&str] = &[
    "kws.results.duplicate_item",
    "kws.results.cross_document_hit",
];

/// `expects`: `{"format": "icfhr14" | "trec", "queries": ["sb0000", …]}`.
pub fn manifest(run: &mut Run, opts: &KwsOptions) -> Value {
    let gts: Vec<(&Entry, Sniff)> = run
        .files
        .with_role(Role::Gt)
        .filter_map(|e| match e.head(64 << 10) {
            Ok(h) => Some((e, sniff(&h))),
            Err(err) => {
                run.diags.push(Diagnostic::read_error(&e.path, err));
                None
            }
        })
        .filter(|(_, s)| matches!(s, Sniff::XmlGt | Sniff::Qrels))
        .collect();
    let [(gt, kind)] = gts[..] else {
        run.diags.push(
            Diagnostic::error(
                "kws.input.missing_role",
                "expected exactly one ground-truth file (ICFHR'14 <GTRel> XML or TREC qrels)",
            )
            .found(format!("{} ground-truth files", gts.len())),
        );
        return Value::Null;
    };
    let mut seen = HashSet::new();
    let mut queries = Vec::new();
    let mut keep = |q: &str| {
        if seen.insert(q.to_string()) {
            queries.push(q.to_string());
        }
    };
    let format = if kind == Sniff::XmlGt {
        match gt.buffered() {
            Ok(r) => kws_xml_lines::read(
                r,
                &gt.path,
                Kind::Gt,
                &mut run.diags,
                &mut |_| {},
                &mut |b, _| keep(&b.query),
            ),
            Err(e) => run.diags.push(Diagnostic::read_error(&gt.path, e)),
        }
        "icfhr14"
    } else {
        let rs = trec::ReadSettings {
            float_rel_error: opts.float_rel == FloatRel::Error,
            comments: opts.trec_version == TrecVersion::V10,
            comment_quirks: opts.trec_version == TrecVersion::V10,
            extra_fields_ok: true,
        };
        let qrels = trec::read_qrels(gt.text_file(), &rs, &mut run.diags);
        for q in &qrels.queries {
            keep(&q.qid);
            // A repeated judgement stops trec_eval whatever the submission: the ground truth is refused.
            if let Some(d) = super::trec::duplicate_judgement(q, gt) {
                run.diags.push(d);
            }
        }
        "trec"
    };
    if queries.is_empty() {
        run.diags.push(
            Diagnostic::error("kws.preflight.no_queries", "the ground truth has no query")
                .file(&gt.path),
        );
    }
    json!({ "format": format, "queries": queries })
}

/// The stand-in ground truth: every query of the manifest with one placeholder judgement.
fn stand_in(format: &str, queries: &[String]) -> Option<Entry> {
    let mut s = String::new();
    let path = match format {
        "icfhr14" => {
            s.push_str(
                "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<GroundTruthRelevanceJudgements>\n",
            );
            for q in queries {
                s.push_str(&format!(
                    "  <GTRel queryid=\"{q}\">\n    <word document=\"dropscore-placeholder\" x=\"0\" y=\"0\" \
                     width=\"1\" height=\"1\" Relevance=\"1\" />\n  </GTRel>\n"
                ));
            }
            s.push_str("</GroundTruthRelevanceJudgements>\n");
            "(manifest) ground truth.xml"
        }
        "trec" => {
            for q in queries {
                s.push_str(&format!("{q} 0 dropscore-placeholder 1\n"));
            }
            "(manifest) ground truth.qrels"
        }
        _ => return None,
    };
    Some(Entry::plain(
        path.to_string(),
        Some(Role::Gt),
        Some(RoleFrom::Explicit),
        s.into_bytes(),
    ))
}

/// Scoring, with the typed options read from `run.opts` (the stand-in run's).
fn score(run: &mut Run, progress: &mut dyn Progress) -> Result<Report, UsageError> {
    AnyProtocol::score(&super::Kws, run, progress)
}

/// Checks the submission in `run.files` against `expects`; returns what was found.
pub fn check(run: &mut Run, expects: &Value) -> Found {
    let format = expects.get("format").and_then(Value::as_str).unwrap_or("");
    let queries = strings(expects.get("queries").unwrap_or(&Value::Null));
    let ok = queries.len()
        == expects
            .get("queries")
            .and_then(Value::as_array)
            .map_or(usize::MAX, Vec::len)
        && queries
            .iter()
            .all(|q| !q.is_empty() && !q.contains(['"', '\n', '\r', ' ', '\t']));
    let Some(gt) = stand_in(format, &queries).filter(|_| ok && !queries.is_empty()) else {
        run.diags.push(bad_manifest(
            "expected format (icfhr14 or trec) and queries",
        ));
        return String::from("no usable manifest").into();
    };
    let Some(report) = score_with_stand_in(run, gt, score, LABEL_DEPENDENT) else {
        return String::from("no usable manifest").into();
    };
    let flag = |i: &crate::report::Item, k: &str| i.detail.get(k) == Some(&Value::Bool(true));
    let answered = report
        .items
        .iter()
        .filter(|i| flag(i, "in_gt") && flag(i, "in_results"))
        .count() as u64;
    let n = queries.len() as u64;
    let runs = run.files.entries.len() as u64;
    let files = counted(runs, "results file", "results files");
    let summary = if answered == n {
        format!(
            "{}, all with results ({files})",
            counted(n, "query", "queries")
        )
    } else {
        format!(
            "results for {} of {} ({files})",
            thousands(answered),
            counted(n, "query", "queries")
        )
    };
    // One item per query of the first results file: in the manifest, answered.
    let items = report
        .items
        .iter()
        .map(|i| {
            item(
                &i.id,
                json!({ "in_manifest": flag(i, "in_gt"), "in_results": flag(i, "in_results") }),
            )
        })
        .collect();
    Found { summary, items }
}
