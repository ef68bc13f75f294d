//! Protocol `chalearn-ce`: ChaLearn LAP 2015 Cultural Event Recognition V2, Track 2 (specs/chalearn-ce.md).
//! One confidence file per category, AP on the monotone precision/recall curve by the trapezoidal rule, mAP
//! over the categories with positives. No official code was published: `official` is the metric page's text
//! read as the PASCAL VOC 2010 construction, with the spec's [default] choices.

mod category;
mod options;
mod pairing;
mod plots;
mod preflight;
mod run;

pub use category::{stem_of, steps, TieOrder};
pub use options::OPTIONS;
pub use pairing::split_gt_stem;

use super::{Class, Example, Options, Progress, Protocol, ProtocolInfo, Run, UsageError};
use crate::diag::Diagnostic;
use crate::input::kind::Kind;
use crate::input::Role;
use crate::metrics::mean::plain_mean;
use crate::metrics::voc_ap::Integration;
use crate::report::{natural_cmp, Column, Display, Label, Mode, Report, Scores};
use category::{ReadSettings, Reading};
use serde_json::Value;

pub const ID: &str = "chalearn-ce";

pub const INFO: ProtocolInfo = ProtocolInfo {
    id: ID,
    name: "ChaLearn LAP 2015 cultural event recognition (mAP)",
    built: true,
    summary: "Mean average precision over the cultural-event categories: one confidence file per category, AP on the \
              monotone precision/recall curve by the trapezoidal rule (the metric page of ChaLearn LAP 2015 Track 2, \
              read as PASCAL VOC 2010), averaged over the categories with positives.",
    gt_files: "One <Category>_<imgset>.txt file per category (e.g. La_Tomatina_test.txt), lines `<image_id> <label>` with \
               1 = positive; or the Codalab input/ref folder. Folders and zips are fine.",
    pred_files: "The submission zip: one <Category>.txt per category (e.g. La_Tomatina.txt), lines `<image_id> \
                 <confidence>`; or the Codalab input/res folder.",
    options: OPTIONS,
    examples: &[
        Example {
            id: "ap-example",
            label: "Worked example (1 category, a tie at 0.6)",
            gt: &["examples/chalearn-ce/ref/La_Tomatina_test.txt"],
            pred: &["examples/chalearn-ce/res/La_Tomatina.txt"],
            set: &[],
        },
        Example {
            id: "ap-missing",
            label: "A positive missing from the submission",
            gt: &["examples/chalearn-ce/ref/La_Tomatina_test.txt"],
            pred: &["examples/chalearn-ce/res_missing/La_Tomatina.txt"],
            set: &[],
        },
    ],
};

/// The reader's settings (scoring and the pre-flight check).
fn read_settings(opts: &Options) -> ReadSettings {
    ReadSettings {
        duplicates_error: opts.get("duplicates") == "error",
        gt_zero_ignore: opts.get("gt_zero") == "ignore",
        stem: opts.get("id_match") == "stem",
    }
}

fn reading_of(opts: &Options) -> Reading {
    Reading {
        tie: TieOrder::parse(opts.get("tie_order")),
        append_missing: opts.get("missing_images") == "append",
        integration: if opts.get("integration") == "step" {
            Integration::Step
        } else {
            Integration::Trapezoid
        },
        sentinels: opts.flag("sentinels"),
    }
}

/// The other readings shown next to the active one: (id, label, reading).
fn other_readings(a: Reading) -> Vec<(&'static str, Reading)> {
    vec![
        (
            "step",
            Reading {
                integration: Integration::Step,
                ..a
            },
        ),
        (
            "trapezoid",
            Reading {
                integration: Integration::Trapezoid,
                ..a
            },
        ),
        (
            "tie_grouped",
            Reading {
                tie: TieOrder::Grouped,
                ..a
            },
        ),
        (
            "positives_first",
            Reading {
                tie: TieOrder::PositivesFirst,
                ..a
            },
        ),
        (
            "negatives_first",
            Reading {
                tie: TieOrder::NegativesFirst,
                ..a
            },
        ),
        (
            "missing_unranked",
            Reading {
                append_missing: false,
                ..a
            },
        ),
        (
            "missing_appended",
            Reading {
                append_missing: true,
                ..a
            },
        ),
        (
            "official_ranking",
            Reading {
                tie: TieOrder::File,
                append_missing: false,
                ..a
            },
        ),
        (
            "corrected_ranking",
            Reading {
                tie: TieOrder::Grouped,
                append_missing: true,
                ..a
            },
        ),
    ]
}

/// The `chalearn-ce` protocol.
pub struct ChalearnCe;

impl Protocol for ChalearnCe {
    fn info(&self) -> &'static ProtocolInfo {
        &INFO
    }
    fn head_len(&self) -> usize {
        2048
    }
    /// Text; an empty prediction file is a category with no confidences (reported per category).
    fn accepts(&self, kind: Kind, _role: Option<Role>) -> bool {
        kind == Kind::Text || kind == Kind::Empty
    }
    fn classify(&self, path: &str, head: &[u8]) -> Class {
        pairing::classify(path, head)
    }
    fn score(&self, run: &mut Run, progress: &mut dyn Progress) -> Result<Report, UsageError> {
        score(run, progress)
    }
    fn render_text(&self, report: &Report) -> String {
        render_text(report)
    }
    fn official_noun(&self) -> &'static str {
        "official reading"
    }
    fn explain(&self, official: &Report, corrected: &Report) -> Vec<String> {
        explain(official, corrected)
    }
    fn manifest(&self, run: &mut Run) -> Option<Value> {
        Some(preflight::manifest(run))
    }
    fn check(&self, run: &mut Run, expects: &Value) -> Option<super::preflight::Found> {
        Some(preflight::check(run, expects))
    }
}

fn score(run: &mut Run, progress: &mut dyn Progress) -> Result<Report, UsageError> {
    let (files, opts, diags) = (run.files, &run.opts, &mut run.diags);
    let mode = run.mode;
    progress.update(0.0, "pairing files");
    let mut report = Report::new(ID, mode);
    report.display = display();
    let active = reading_of(opts);
    let others = other_readings(active);
    let set = read_settings(opts);
    let Some(paired) = pairing::pair(files, opts.get("gt_suffix"), diags) else {
        report.scores.set("map", None);
        report.official_fails = mode == Mode::Official;
        return Ok(report);
    };
    let expected = opts.int("expected_categories").unwrap_or(100);
    if paired.gts.len() as i64 != expected {
        diags.push(
            Diagnostic::warning(
                "chalearn.gt.category_count",
                format!(
                    "{} GT categories; the challenge has {expected}",
                    paired.gts.len()
                ),
            )
            .expected(expected.to_string())
            .found(paired.gts.len().to_string())
            .hint("Drop every GT category file (or set expected_categories)."),
        );
    }
    let n = paired.gts.len();
    let ctx = run::Ctx {
        set,
        active,
        others,
    };
    let results = run::all(&paired, &ctx, progress);
    let others = ctx.others;
    // Per category, in ascending byte order: AP under the active reading and under the other readings.
    let mut aps: Vec<Option<f64>> = Vec::with_capacity(n);
    let mut other_aps: Vec<Vec<Option<f64>>> = vec![Vec::with_capacity(n); others.len()];
    let mut excluded = Vec::new();
    let mut blocked = false;
    let mut mode_diffs: Vec<(usize, f64)> = Vec::new();
    for (k, r) in results.into_iter().enumerate() {
        diags.absorb(r.diags);
        blocked |= r.blocked;
        if r.no_positives {
            excluded.push(r.item.id.clone());
        }
        if let (Some(x), Some(y)) = (r.row[7], r.row[8]) {
            if x != y {
                mode_diffs.push((k, y - x));
            }
        }
        report.items.push(r.item);
        aps.push(r.ap);
        for (j, v) in r.row.into_iter().enumerate() {
            other_aps[j].push(v);
        }
    }
    let map_of = |v: &[Option<f64>], npos_ok: &dyn Fn(usize) -> bool| -> Option<f64> {
        if blocked {
            return None;
        }
        let xs: Vec<f64> = v
            .iter()
            .enumerate()
            .filter(|(i, _)| npos_ok(*i))
            .filter_map(|(_, x)| *x)
            .collect();
        plain_mean(&xs)
    };
    let counted = |i: usize| !excluded.contains(&paired.gts[i].category);
    report.scores.set("map", map_of(&aps, &counted));
    let mut reading = Scores::new();
    for ((id, _), v) in others.iter().zip(&other_aps) {
        reading.set(id, map_of(v, &counted));
    }
    report.readings.push(crate::report::Reading {
        id: "map_readings".into(),
        label: "mAP under other readings (each changes one rule of the active reading; the last two: official / corrected ranking rules)".into(),
        scores: reading,
    });
    let names: Vec<(&str, f64)> = report
        .items
        .iter()
        .filter_map(|it| it.scores.get("ap").map(|v| (it.id.as_str(), v)))
        .collect();
    if !names.is_empty() {
        report.plots.push(plots::ap_sorted(names));
    }
    if let Some(p) = plots::mode_change(
        mode_diffs
            .iter()
            .map(|(k, d)| (paired.gts[*k].category.as_str(), *d))
            .collect(),
    ) {
        report.plots.push(p);
    }
    report.items.sort_by(|a, b| natural_cmp(&a.id, &b.id));
    let _ = &paired.imgset;
    Ok(report)
}

fn display() -> Display {
    let col = |id: &str, label: &str, decimals: Option<u32>| Column {
        id: id.into(),
        label: label.into(),
        from: "detail".into(),
        decimals,
    };
    Display {
        title: INFO.name.into(),
        headline: vec![Label {
            id: "map".into(),
            label: "mAP".into(),
            decimals: 4,
        }],
        item_label: "category".into(),
        columns: vec![
            col("npos", "positives", None),
            col("submitted", "submitted lines", None),
            col("matched", "matched lines", None),
            col("unknown", "unknown ids", None),
            col("missing_positives", "missing positives", None),
            Column::score("ap", "AP", 4),
            col("ap_step", "AP (step sum)", Some(4)),
            col("ap_grouped", "AP (tie-grouped)", Some(4)),
            col("tie_spread", "tie spread", Some(4)),
        ],
        footer: String::new(),
    }
}

/// One line per difference between the official and the corrected report of the same input: the mAPs, the
/// categories whose AP differs, then one plain line per step that differs, with one example category.
fn explain(official: &Report, corrected: &Report) -> Vec<String> {
    let mut lines = Vec::new();
    let f6 = |v: Option<f64>| v.map_or("null".to_string(), |x| format!("{x:.6}"));
    let (a, b) = (official.scores.get("map"), corrected.scores.get("map"));
    let mut differ = Vec::new();
    // The first category each step changed: (category, what it shows).
    let (mut ties, mut missing, mut repeated) = (None, None, None);
    for it in &official.items {
        let other = corrected.items.iter().find(|c| c.id == it.id);
        let (x, y) = (it.scores.get("ap"), other.and_then(|c| c.scores.get("ap")));
        if x != y {
            let d = &it.detail;
            let mut why = Vec::new();
            if let Some(t) = d
                .get("tie_spread")
                .and_then(Value::as_f64)
                .filter(|t| *t != 0.0)
            {
                why.push("ties between positives and negatives");
                ties.get_or_insert((it.id.clone(), t));
            }
            if let Some(m) = d
                .get("missing_positives")
                .and_then(Value::as_u64)
                .filter(|m| *m > 0)
            {
                why.push("missing positives appended");
                missing.get_or_insert((it.id.clone(), m));
            }
            if let Some(m) = d
                .get("duplicates")
                .and_then(Value::as_u64)
                .filter(|m| *m > 0)
            {
                why.push("repeated ids refused");
                repeated.get_or_insert((it.id.clone(), m));
            }
            differ.push(format!(
                "{} {} → {}{}",
                it.id,
                f6(x),
                f6(y),
                if why.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", why.join(", "))
                }
            ));
        }
    }
    lines.push(format!("mAP: official {} vs corrected {}.", f6(a), f6(b)));
    if differ.is_empty() {
        lines.push("Every category has the same AP in both modes.".to_string());
    } else {
        let n = differ.len();
        let shown: Vec<String> = differ.into_iter().take(20).collect();
        lines.push(format!(
            "{n} {}: {}{}.",
            if n == 1 {
                "category differs"
            } else {
                "categories differ"
            },
            shown.join("; "),
            if n > 20 { "; …" } else { "" }
        ));
    }
    if let Some((cat, t)) = ties {
        lines.push(format!(
            "Ordering equal confidences: the official scorer ranks images with the same confidence in file order, \
             so the order you wrote them in changes AP; corrected mode takes one threshold per distinct confidence. \
             Example: in {cat}, positives and negatives share a confidence, and the possible orders move AP by up to {t:.6}."
        ));
    }
    if let Some((cat, m)) = missing {
        lines.push(format!(
            "Completing the ranking: the official scorer leaves GT images that a category file does not list out of \
             the ranking; corrected mode appends them at the end as one tied group. Example: {cat} does not list {m} \
             of its positive images."
        ));
    }
    if let Some((cat, m)) = repeated {
        lines.push(format!(
            "Reading a category file: the official scorer keeps the first of repeated image ids; corrected mode \
             refuses the file. Example: {cat} lists {m} image id(s) more than once."
        ));
    }
    lines
}

/// The text output: one line per category (`category npos AP`), then `<scores_key>: <mAP>` with 6 decimals.
pub fn render_text(report: &Report) -> String {
    let key = report
        .options
        .get("scores_key")
        .and_then(Value::as_str)
        .unwrap_or("mAP");
    let f6 = |v: Option<f64>| v.map_or("nan".to_string(), |x| format!("{x:.6}"));
    let mut out = String::from("category\tnpos\tAP\n");
    for it in &report.items {
        let npos = it.detail.get("npos").and_then(Value::as_u64).unwrap_or(0);
        out.push_str(&format!("{}\t{npos}\t{}\n", it.id, f6(it.scores.get("ap"))));
    }
    out.push_str(&format!("{key}: {}\n", f6(report.scores.get("map"))));
    out
}
