//! Protocol `chalearn-ce`: ChaLearn LAP 2015 Cultural Event Recognition V2, Track 2 (docs/specs/chalearn-ce.md).
//! One confidence file per category, AP on the monotone precision/recall curve by the trapezoidal rule, mAP
//! over the categories with positives. No official code was published: `official` is the metric page's text
//! read as the PASCAL VOC 2010 construction, with the spec's [default] choices.

mod category;
mod options;
mod pairing;
mod plots;
mod preflight;
mod run;
mod units;
mod units_curve;

pub use category::{stem_of, steps, TieOrder};
pub use options::{ChalearnOptions, OPTIONS};
use options::{Duplicates, GtZero, IdMatch, MissingImages};
pub use pairing::split_gt_stem;

/// The report's one top-level score: the mean average precision (the leaderboard value).
const MAP: &str = "map";

use super::options::OptionSet;
use super::{Class, Example, Progress, Protocol, ProtocolInfo, Run, UsageError};
use crate::diag::{Diagnostic, Diags};
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
    options: ChalearnOptions::SPECS,
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
    official_noun: "official reading",
    head_len: 2048,
};

/// The reader's settings (scoring and the pre-flight check).
fn read_settings(opts: &ChalearnOptions) -> ReadSettings {
    ReadSettings {
        duplicates_error: opts.duplicates == Duplicates::Error,
        gt_zero_ignore: opts.gt_zero == GtZero::Ignore,
        stem: opts.id_match == IdMatch::Stem,
        keep: false,
    }
}

fn reading_of(opts: &ChalearnOptions) -> Reading {
    Reading {
        tie: opts.tie_order,
        append_missing: opts.missing_images == MissingImages::Append,
        integration: opts.integration,
        sentinels: opts.sentinels,
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
    const INFO: &'static ProtocolInfo = &INFO;
    type Options = ChalearnOptions;

    /// The one leaderboard value, the mean average precision.
    fn score_ids(&self, _: &ChalearnOptions) -> Option<Vec<String>> {
        Some(vec![MAP.to_string()])
    }

    /// Text; an empty prediction file is a category with no confidences (reported per category).
    fn accepts(&self, kind: Kind, _role: Option<Role>) -> bool {
        kind == Kind::Text || kind == Kind::Empty
    }
    fn classify(&self, path: &str, head: &[u8]) -> Class {
        pairing::classify(path, head)
    }
    fn score(
        &self,
        run: &mut Run,
        opts: &ChalearnOptions,
        progress: &mut dyn Progress,
    ) -> Result<Report, UsageError> {
        score(run, opts, progress)
    }
    fn render_text(&self, report: &Report) -> Option<String> {
        Some(render_text(report))
    }
    fn explain(&self, official: &Report, corrected: &Report) -> Vec<String> {
        explain(official, corrected)
    }
    fn manifest(&self, run: &mut Run, opts: &ChalearnOptions) -> Value {
        preflight::manifest(run, opts)
    }
    fn check(
        &self,
        run: &mut Run,
        opts: &ChalearnOptions,
        expects: &Value,
    ) -> super::preflight::Found {
        preflight::check(run, opts, expects)
    }
}

fn score(
    run: &mut Run,
    opts: &ChalearnOptions,
    progress: &mut dyn Progress,
) -> Result<Report, UsageError> {
    let keep = run.wants_units();
    let (files, diags) = (run.files, &mut run.diags);
    let mode = run.mode;
    progress.update(0.0, "pairing files");
    let mut report = Report::new(ID, mode);
    report.display = display();
    let active = reading_of(opts);
    let others = other_readings(active);
    let set = ReadSettings {
        keep,
        ..read_settings(opts)
    };
    let Some(paired) = pairing::pair(files, &opts.gt_suffix, diags) else {
        report.scores.set(MAP, None);
        report.official_fails = mode == Mode::Official;
        return Ok(report);
    };
    check_category_count(paired.gts.len(), opts.expected_categories, diags);
    let ctx = run::Ctx {
        set,
        active,
        others,
    };
    let mut results = run::all(&paired, &ctx, progress);
    let kept: Vec<_> = results.iter_mut().map(|r| r.kept.take()).collect();
    let collected = collect(results, ctx.others.len(), &mut report, diags);
    fill_map(&mut report, &paired, &ctx.others, &collected);
    if keep && !collected.blocked {
        report.units = units::slot(kept, active);
    }
    let names: Vec<(&str, f64)> = report
        .items
        .iter()
        .filter_map(|it| it.scores.get("ap").map(|v| (it.id.as_str(), v)))
        .collect();
    if !names.is_empty() {
        report.plots.push(plots::ap_sorted(names));
    }
    if let Some(p) = plots::mode_change(
        collected
            .mode_diffs
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

/// The warning for a ground truth with another number of categories than `expected`.
fn check_category_count(n: usize, expected: i64, diags: &mut Diags) {
    if n as i64 != expected {
        diags.push(
            Diagnostic::warning(
                "chalearn.gt.category_count",
                format!("{n} GT categories; the challenge has {expected}"),
            )
            .expected(expected.to_string())
            .found(n.to_string())
            .hint("Drop every GT category file (or set expected_categories)."),
        );
    }
}

/// The categories' results gathered, in ascending byte order of the categories.
struct Collected {
    /// AP under the active reading.
    aps: Vec<Option<f64>>,
    /// AP under each of the other readings.
    other_aps: Vec<Vec<Option<f64>>>,
    /// Categories without positives (left out of mAP).
    excluded: Vec<String>,
    /// An error blocks mAP.
    blocked: bool,
    /// (category index, corrected − official AP) where the two ranking rules differ.
    mode_diffs: Vec<(usize, f64)>,
}

/// Takes each category's diagnostics into `diags` and its item into the report, and gathers its APs.
fn collect(
    results: Vec<run::CategoryResult>,
    readings: usize,
    report: &mut Report,
    diags: &mut Diags,
) -> Collected {
    let n = results.len();
    let mut c = Collected {
        aps: Vec::with_capacity(n),
        other_aps: vec![Vec::with_capacity(n); readings],
        excluded: Vec::new(),
        blocked: false,
        mode_diffs: Vec::new(),
    };
    for (k, r) in results.into_iter().enumerate() {
        diags.absorb(r.diags);
        c.blocked |= r.blocked;
        if r.no_positives {
            c.excluded.push(r.item.id.clone());
        }
        if let (Some(x), Some(y)) = (r.row[7], r.row[8]) {
            if x != y {
                c.mode_diffs.push((k, y - x));
            }
        }
        report.items.push(r.item);
        c.aps.push(r.ap);
        for (j, v) in r.row.into_iter().enumerate() {
            c.other_aps[j].push(v);
        }
    }
    c
}

/// mAP under the active reading (the headline) and under each of the other readings.
fn fill_map(
    report: &mut Report,
    paired: &pairing::Paired,
    others: &[(&'static str, Reading)],
    c: &Collected,
) {
    let map_of = |v: &[Option<f64>], npos_ok: &dyn Fn(usize) -> bool| -> Option<f64> {
        if c.blocked {
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
    let counted = |i: usize| !c.excluded.contains(&paired.gts[i].category);
    report.scores.set(MAP, map_of(&c.aps, &counted));
    let mut reading = Scores::new();
    for ((id, _), v) in others.iter().zip(&c.other_aps) {
        reading.set(id, map_of(v, &counted));
    }
    report.readings.push(crate::report::Reading {
        id: "map_readings".into(),
        label: "mAP under other readings (each changes one rule of the active reading; the last two: official / corrected ranking rules)".into(),
        scores: reading,
    });
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
    let (a, b) = (official.scores.get("map"), corrected.scores.get("map"));
    let Differences {
        differ,
        ties,
        missing,
        repeated,
    } = differences(official, corrected);
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

/// Six decimals, or `null`.
fn f6(v: Option<f64>) -> String {
    v.map_or("null".to_string(), |x| format!("{x:.6}"))
}

/// The categories whose AP differs between the modes, and the first category each step changed.
struct Differences {
    /// One "category AP → AP (why)" per category that differs.
    differ: Vec<String>,
    /// (category, AP spread of the tie orders).
    ties: Option<(String, f64)>,
    /// (category, missing positives).
    missing: Option<(String, u64)>,
    /// (category, repeated ids).
    repeated: Option<(String, u64)>,
}

fn differences(official: &Report, corrected: &Report) -> Differences {
    let mut out = Differences {
        differ: Vec::new(),
        ties: None,
        missing: None,
        repeated: None,
    };
    let positive_u64 = |d: &serde_json::Map<String, Value>, key: &str| {
        d.get(key).and_then(Value::as_u64).filter(|m| *m > 0)
    };
    for it in &official.items {
        let other = corrected.items.iter().find(|c| c.id == it.id);
        let (x, y) = (it.scores.get("ap"), other.and_then(|c| c.scores.get("ap")));
        if x == y {
            continue;
        }
        let d = &it.detail;
        let mut why = Vec::new();
        if let Some(t) = d
            .get("tie_spread")
            .and_then(Value::as_f64)
            .filter(|t| *t != 0.0)
        {
            why.push("ties between positives and negatives");
            out.ties.get_or_insert((it.id.clone(), t));
        }
        if let Some(m) = positive_u64(d, "missing_positives") {
            why.push("missing positives appended");
            out.missing.get_or_insert((it.id.clone(), m));
        }
        if let Some(m) = positive_u64(d, "duplicates") {
            why.push("repeated ids refused");
            out.repeated.get_or_insert((it.id.clone(), m));
        }
        out.differ.push(format!(
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
    out
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
