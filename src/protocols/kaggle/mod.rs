//! Protocol `kaggle`: the Kaggle conventions the CSV families cannot express, from a `solution.csv` and a
//! `submission.csv` keyed by an id column, with `metric` choosing among run-length-encoded masks (Dice, mean
//! Dice, the 2018 Data Science Bowl's precision over IoU thresholds, F-beta over pixels, the Hausdorff
//! distance), MAP@k over predicted lists, F1 over label sets, Levenshtein distances and word Jaccard over
//! strings, and PredictionString boxes (COCO, VOC and Global Wheat Detection's metrics). Each metric follows
//! the competitions' published metric code, named where it is computed
//! (`metrics::kaggle`). The scores are the published code's in both modes.

mod formulas;
mod inputs;
mod lists;
mod masks;
mod order;
mod preflight;
mod pstring;
mod pstring_view;
pub mod units;
mod view;

use super::contract_parts_csv::{score_whole_or_by_part, CsvLayout};
use super::options::{List, OptionSet};
use super::{Example, Progress, Protocol, ProtocolInfo, Run, UsageError};
use crate::diag::Diags;
use crate::input::FileSet;
use crate::items::{ItemTable, ScoreColumn};
use crate::metrics::kaggle::rle::Empty;
use crate::report::{Column, Display, Label, Mode, Report};
use std::sync::Arc;

pub const ID: &str = "kaggle";

crate::choice! {
    /// Option `empty`: what an image (or a row) with nothing on either side scores.
    pub enum EmptyScore { One = "one", Zero = "zero", Skip = "skip" }
}

crate::choice! {
    /// Option `box_format`: how a PredictionString writes a box's four numbers.
    pub enum BoxFormat { Xywh = "xywh", Xyxy = "xyxy" }
}

crate::choice! {
    /// Option `read_as`: ids as `pandas.read_csv` reads them (Kaggle's metrics merge the DataFrames it read),
    /// or as written.
    pub enum ReadAsOption { Pandas = "pandas", Text = "text" }
}

impl ReadAsOption {
    /// The readers' mode.
    pub fn mode(self) -> crate::formats::pandas_cells::ReadAs {
        match self {
            ReadAsOption::Pandas => crate::formats::pandas_cells::ReadAs::Pandas,
            ReadAsOption::Text => crate::formats::pandas_cells::ReadAs::Text,
        }
    }
}

crate::options! {
    /// The options of `kaggle`.
    pub struct KaggleOptions {
        metric: String = ("dice", "dice"),
            "the leaderboard metric: dice, mean_dice, iou_precision, fbeta, hausdorff (run-length-encoded masks), \
             map (MAP@k), f1_micro, f1_macro, f1_samples (label sets), levenshtein, sequence_levenshtein, \
             word_jaccard (strings), kendall_tau (space-separated orderings), kl_divergence, weighted_log_loss, \
             lwlrap, pfbeta, weighted_auc, haversine, angular_error, laplace_log_likelihood (single competitions' \
             formulas over number columns), box_ap, box_ap50, box_ap75, box_ar100, voc_ap, wheat_precision \
             (PredictionString boxes)";
        id_column: String = ("", ""),
            "the id column (default: the first column named id, else the first column)";
        column: String = ("", ""),
            "the value column (default: the solution's first column besides the id and `Usage`; the submission's \
             column of the same name)";
        width: String = ("", ""),
            "masks: the image width in pixels, or the solution's column that holds each row's width";
        height: String = ("", ""),
            "masks: the image height in pixels, or the solution's column that holds each row's height";
        empty: EmptyScore = ("one", "one"),
            "what an image with both masks empty scores in mean_dice and iou_precision (and two empty strings in \
             word_jaccard): one, zero, or skip (left out of the mean), as the competition defines it";
        beta: Option<f64> = ("1", "1"), "fbeta: the β of F-beta over pixels";
        k: Option<u64> = ("12", "12"), "map: the k of MAP@k";
        columns: List = ("", ""),
            "formulas: the solution's number columns the metric reads (default: kl_divergence, weighted_log_loss \
             and lwlrap every column besides the id and `Usage`; haversine `latDeg,lngDeg`; angular_error \
             `azimuth,zenith`; laplace_log_likelihood `FVC,Confidence`, the confidence in the submission only)";
        group_column: String = ("", ""),
            "haversine: the solution's column of the phone (default `phone`): per phone the mean of the 50th and \
             95th percentile errors, then the mean over phones";
        weights: List = ("", ""),
            "weighted_log_loss: one weight per column (default all 1; RSNA 2019: 2 for `any`); weighted_auc: one \
             weight per true-positive-rate range (default ALASKA2's `2,1`)";
        tpr_thresholds: List = ("", ""),
            "weighted_auc: the true-positive-rate ranges' bounds (default ALASKA2's `0,0.4,1`)";
        epsilon: Option<f64> = ("1e-15", "1e-15"),
            "kl_divergence, weighted_log_loss: predictions clipped to [ε, 1 − ε]";
        delimiter: String = (",", ","), "the CSV field delimiter (one character, or tab)";
        read_as: ReadAsOption = ("pandas", "pandas"),
            "how ids are compared: pandas (as Kaggle's metrics merge the DataFrames pandas.read_csv read: `00012`, \
             `+12` and `12.0` are the integer id 12, in scoring and in the pre-flight check) or text (as written)";
        box_format: BoxFormat = ("xywh", "xywh"),
            "PredictionString: a box's four numbers are `x y w h` (xywh) or `xmin ymin xmax ymax` (xyxy)";
        classes: bool = ("true", "true"),
            "PredictionString: each box begins with a class token (the submission's `class conf x y w h`, the \
             solution's `class x y w h`); false for one class (`conf x y w h`, Global Wheat)";
        iou: Option<f64> = ("0.5", "0.5"), "voc_ap: the IoU a detection must exceed to match";
    }
}

pub const INFO: ProtocolInfo = ProtocolInfo {
    id: ID,
    name: "Kaggle conventions (RLE masks, MAP@k, label sets, strings)",
    built: true,
    summary: "Kaggle competitions' published metrics over a solution.csv and a submission.csv keyed by an id: \
              run-length-encoded masks (Dice, mean Dice, the 2018 Data Science Bowl's IoU-threshold precision, \
              F-beta over pixels, Hausdorff), MAP@k over space-separated lists, micro/macro/samples F1 over label \
              sets, Levenshtein and word Jaccard over strings, PredictionString boxes (COCO AP as pycocotools, \
              VOC AP, Global Wheat's precision).",
    gt_files: "The solution CSV: an id column and a value column (e.g. `ImageId,EncodedPixels`), optionally `Usage`.",
    pred_files: "The submission CSV, as the sample submission: the id column and the value column.",
    options: KaggleOptions::SPECS,
    examples: &[
        Example {
            id: "rle_dice",
            label: "RLE masks, Dice (12 images, 32 × 24)",
            gt: &["examples/kaggle/rle/solution.csv"],
            pred: &["examples/kaggle/rle/submission.csv"],
            set: &[("metric", "mean_dice"), ("width", "32"), ("height", "24")],
        },
        Example {
            id: "map5",
            label: "MAP@5 (20 customers)",
            gt: &["examples/kaggle/map/solution.csv"],
            pred: &["examples/kaggle/map/submission.csv"],
            set: &[("metric", "map"), ("k", "5")],
        },
    ],
    official_noun: "published metric code",
    head_len: 4096,
};

/// The `kaggle` protocol.
pub struct Kaggle;

/// What the metric reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    Masks,
    Map,
    Tags,
    Strings,
    Orderings,
    Formulas,
    Boxes,
}

impl Kind {
    pub fn of(metric: &str) -> Result<Kind, UsageError> {
        let all = [
            (Kind::Masks, masks::METRICS),
            (Kind::Map, lists::MAP),
            (Kind::Tags, lists::TAGS),
            (Kind::Strings, lists::STRINGS),
            (Kind::Orderings, lists::ORDERINGS),
            (Kind::Formulas, formulas::FORMULAS),
            (Kind::Boxes, pstring::METRICS),
        ];
        all.iter()
            .find(|(_, ids)| ids.contains(&metric))
            .map(|(k, _)| *k)
            .ok_or_else(|| {
                let known: Vec<&str> = all
                    .iter()
                    .flat_map(|(_, ids)| ids.iter().copied())
                    .collect();
                UsageError(format!(
                    "option `metric`: `{metric}` is not a kaggle metric; known: {}",
                    known.join(", ")
                ))
            })
    }
    pub fn metrics(self) -> &'static [&'static str] {
        match self {
            Kind::Masks => masks::METRICS,
            Kind::Map => lists::MAP,
            Kind::Tags => lists::TAGS,
            Kind::Strings => lists::STRINGS,
            Kind::Orderings => lists::ORDERINGS,
            Kind::Formulas => formulas::FORMULAS,
            Kind::Boxes => pstring::METRICS,
        }
    }
}

impl Protocol for Kaggle {
    const INFO: &'static ProtocolInfo = &INFO;
    type Options = KaggleOptions;

    fn classify(&self, path: &str, _head: &[u8]) -> super::Class {
        let lower = path.to_ascii_lowercase();
        if lower.ends_with("solution.csv") {
            return super::Class::gt("is named solution.csv");
        }
        super::Class::either().or_name(path)
    }
    fn score(
        &self,
        run: &mut Run,
        opts: &KaggleOptions,
        progress: &mut dyn Progress,
    ) -> Result<Report, UsageError> {
        let (budget, mode, wants_units) = (run.opts.budget(), run.mode, run.wants_units());
        let mut scored =
            |files: &FileSet, diags: &mut Diags, progress: &mut dyn Progress, units| {
                let mut report = run_on(files, opts, budget, mode, diags, progress)?;
                if wants_units && units && !diags.has_errors() {
                    report.units = units::slot(files, opts, &report);
                }
                Ok(report)
            };
        // Public and private parts from the solution's `Usage` column or a split file, each the score of its
        // rows alone (docs/specs/statistics.md section 4).
        let layout = inputs::delimiter(&opts.delimiter)
            .ok()
            .map(|delimiter| CsvLayout {
                delimiter,
                id_column: &opts.id_column,
                read_as: opts.read_as.mode(),
            });
        score_whole_or_by_part(run, layout.as_ref(), progress, &mut scored)
    }
    fn score_ids(&self, _: &KaggleOptions) -> Option<Vec<String>> {
        let all = [
            masks::METRICS,
            lists::MAP,
            lists::TAGS,
            lists::STRINGS,
            lists::ORDERINGS,
            formulas::FORMULAS,
            pstring::METRICS,
        ];
        Some(
            all.iter()
                .flat_map(|m| m.iter().map(|s| s.to_string()))
                .collect(),
        )
    }
    fn manifest(&self, run: &mut Run, opts: &KaggleOptions) -> serde_json::Value {
        preflight::manifest(run, opts)
    }
    fn check(
        &self,
        run: &mut Run,
        opts: &KaggleOptions,
        expects: &serde_json::Value,
    ) -> super::preflight::Found {
        preflight::check(run, opts, expects)
    }
    fn extras(&self) -> &'static super::views::Extras {
        &view::EXTRAS
    }
    fn hints(&self, _report: &Report) -> crate::report::Hints {
        crate::report::Hints {
            one_mode: true,
            ..Default::default()
        }
    }
}

impl KaggleOptions {
    pub fn empty_rule(&self) -> Empty {
        match self.empty {
            EmptyScore::One => Empty::One,
            EmptyScore::Zero => Empty::Zero,
            EmptyScore::Skip => Empty::Skip,
        }
    }
}

/// The label of a metric id in the headline.
fn label(id: &str, opts: &KaggleOptions) -> String {
    match id {
        "dice" => "Dice (all pixels)".into(),
        "mean_dice" => "mean Dice per image".into(),
        "iou_precision" => "precision over IoU 0.5:0.95 (DSB 2018)".into(),
        "fbeta" => format!("F{} over pixels", opts.beta.unwrap_or(1.0)),
        "hausdorff" => "mean Hausdorff distance (pixels)".into(),
        "map" => format!("MAP@{}", opts.k.unwrap_or(12)),
        "kendall_tau" => "Kendall's τ over orderings (AI4Code)".into(),
        "kl_divergence" => "KL divergence (HMS)".into(),
        "weighted_log_loss" => "weighted multi-label log loss (RSNA 2019)".into(),
        "lwlrap" => "lwlrap (Freesound 2019)".into(),
        "pfbeta" => format!("probabilistic F{} (RSNA 2023)", opts.beta.unwrap_or(1.0)),
        "weighted_auc" => "weighted ROC AUC (ALASKA2)".into(),
        "haversine" => "mean of the 50th and 95th percentile distance errors (m)".into(),
        "angular_error" => "mean angular error (rad, IceCube)".into(),
        "laplace_log_likelihood" => "Laplace log likelihood (OSIC)".into(),
        "box_ap" => "COCO AP (IoU .50:.95)".into(),
        "box_ap50" => "COCO AP50".into(),
        "box_ap75" => "COCO AP75".into(),
        "box_ar100" => "COCO AR (100 detections)".into(),
        "voc_ap" => format!("VOC AP at IoU {}", opts.iou.unwrap_or(0.5)),
        "wheat_precision" => "precision over IoU 0.5:0.75 (Global Wheat)".into(),
        other => other.replace('_', " "),
    }
}

fn display(kind: Kind, opts: &KaggleOptions) -> Display {
    let metric = opts.metric.as_str();
    let mut ids: Vec<&str> = vec![metric];
    if kind != Kind::Formulas {
        ids.extend(
            kind.metrics()
                .iter()
                .filter(|m| **m != metric && **m != "hausdorff"),
        );
    }
    let columns = match kind {
        Kind::Masks => vec![
            Column::score("dice", "Dice", 5),
            Column::score("iou_precision", "IoU precision", 5),
            Column::score("hausdorff", "Hausdorff", 3),
            Column::score("gt_pixels", "solution pixels", 0),
            Column::score("pred_pixels", "submission pixels", 0),
        ],
        Kind::Map => vec![Column::score("ap", "AP@k", 5)],
        Kind::Tags => vec![Column::score("f1", "F1", 5)],
        Kind::Strings => vec![
            Column::score("levenshtein", "Levenshtein", 0),
            Column::score("sequence_levenshtein", "token Levenshtein", 0),
            Column::score("word_jaccard", "word Jaccard", 5),
        ],
        Kind::Orderings => vec![Column::score("kendall_tau", "Kendall's τ", 5)],
        Kind::Formulas => formulas::row_column(metric)
            .map(|(key, label)| Column::score(key, label, 5))
            .into_iter()
            .collect(),
        Kind::Boxes => vec![
            Column::score("gt_boxes", "solution boxes", 0),
            Column::score("detections", "detections", 0),
            Column::score("tp50", "TP at IoU .5", 0),
            Column::score("fp50", "FP at IoU .5", 0),
            Column::score("fn50", "FN at IoU .5", 0),
            Column::score("wheat_precision", "Global Wheat precision", 5),
        ],
    };
    Display {
        title: INFO.name.into(),
        headline: ids
            .iter()
            .map(|id| Label {
                id: id.to_string(),
                label: label(id, opts),
                decimals: 5,
            })
            .collect(),
        item_label: "id".into(),
        columns,
        footer: String::new(),
    }
}

/// Scores one solution and one submission; diagnostics go to `diags`.
pub fn run_on(
    files: &FileSet,
    opts: &KaggleOptions,
    budget: crate::budget::Budget,
    mode: Mode,
    diags: &mut Diags,
    progress: &mut dyn Progress,
) -> Result<Report, UsageError> {
    let kind = Kind::of(&opts.metric)?;
    let delim = inputs::delimiter(&opts.delimiter)?;
    let beta = opts
        .beta
        .filter(|b| b.is_finite() && *b > 0.0)
        .ok_or_else(|| UsageError("option `beta`: expected a positive number".into()))?;
    let k = opts
        .k
        .filter(|k| (1..=1_000_000).contains(k))
        .ok_or_else(|| UsageError("option `k`: expected a whole number from 1 to 1000000".into()))?
        as usize;
    let formula = match kind {
        Kind::Formulas => Some(formulas::settings(opts, beta)?),
        _ => None,
    };
    let mut report = Report::new(ID, mode);
    report.display = display(kind, opts);
    let shown = report
        .display
        .headline
        .iter()
        .map(|l| l.id.clone())
        .collect::<Vec<_>>();
    for id in &shown {
        report.scores.set(id, None);
    }
    let Some((gt, pred)) = inputs::pick(files, diags) else {
        return Ok(report);
    };
    if !inputs::fits(gt, pred, budget, diags) {
        return Ok(report);
    }
    progress.update(0.1, "reading the solution and the submission");
    let scored = match kind {
        Kind::Masks => masks::read(gt, pred, opts, delim, diags)?.map(|set| {
            progress.update(0.5, "scoring the masks");
            let s = masks::score(&set, opts.empty_rule(), beta, opts.metric == "hausdorff");
            let fin = |v: &[Option<f64>]| v.iter().map(|x| x.unwrap_or(f64::NAN)).collect();
            let count = |v: &[u64]| v.iter().map(|&x| x as f64).collect();
            lists::Scored {
                columns: vec![
                    ("dice", fin(&s.dice)),
                    ("iou_precision", fin(&s.precision)),
                    ("hausdorff", fin(&s.hausdorff)),
                    ("gt_pixels", count(&s.gt_pixels)),
                    ("pred_pixels", count(&s.pred_pixels)),
                ],
                ids: lists::id_table(&set.ids),
                scores: s.scores,
            }
        }),
        Kind::Map => lists::map(gt, pred, opts, delim, k, diags),
        Kind::Tags => lists::tags(gt, pred, opts, delim, diags),
        Kind::Strings => lists::strings(gt, pred, opts, delim, opts.empty_rule(), diags),
        Kind::Orderings => lists::orderings(gt, pred, opts, delim, diags),
        Kind::Formulas => formula
            .as_ref()
            .and_then(|s| formulas::score(gt, pred, opts, delim, s, diags)),
        Kind::Boxes => {
            let iou = opts.iou.filter(|t| (0.0..1.0).contains(t));
            if iou.is_none() {
                return Err(UsageError(
                    "option `iou`: expected a number from 0 to 1 (below 1)".into(),
                ));
            }
            pstring::score(gt, pred, opts, delim, budget, diags)
        }
    };
    let Some(scored) = scored else {
        return Ok(report);
    };
    progress.update(0.9, "per-item rows");
    if !diags.has_errors() {
        for (id, v) in &scored.scores {
            if shown.iter().any(|s| s == id) {
                report.scores.set(id, *v);
            }
        }
    }
    report.item_table = Some(Arc::new(item_table(scored)));
    Ok(report)
}

fn item_table(s: lists::Scored) -> ItemTable {
    let ids = s.ids;
    let n = ids.len();
    // A solution already in natural order (the usual case) is not sorted again.
    let in_order = (1..n).all(|r| {
        crate::report::natural_cmp(ids.get(r - 1), ids.get(r)) != std::cmp::Ordering::Greater
    });
    let order: Vec<u32> = match in_order {
        true => (0..n as u32).collect(),
        false => order::natural_order(n, |r| ids.get(r)),
    };
    ItemTable {
        ids,
        order,
        scores: s
            .columns
            .into_iter()
            .map(|(key, values)| ScoreColumn {
                key: key.into(),
                values,
            })
            .collect(),
        detail: Vec::new(),
    }
}
