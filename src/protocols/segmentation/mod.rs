//! Protocol `segmentation` (docs/specs/families.md sections 0, 4 and 5): semantic label maps (PNG) scored as
//! mmsegmentation's `IoUMetric` scores them, in binary64 from exact pixel counts: aAcc, mIoU, mAcc, mDice,
//! mFscore, mPrecision, mRecall; per class IoU, Acc, Dice, precision, recall and pixel counts; per image
//! pixel accuracy and mIoU; per-class IoU bars and the confusion matrix; an overlay per image. There is no
//! corrected behaviour: corrected mode gives the same numbers.

mod image;
mod pairing;
mod preflight;
mod swap;
pub mod units;
mod view;

use super::options::{List, OptionSet, OptionSpec};
use super::{Class, Example, Progress, Protocol, ProtocolInfo, Run, UsageError};
use crate::formats::label_map::parse_palette;
use crate::metrics::segmentation::{nanmean, per_class, summary, Counts, METRIC_IDS};
use crate::report::{natural_cmp, Column, Display, Item, Label, Mode, Plot, Report, Scores};
use rustc_hash::FxHashMap;
use serde_json::{json, Map};

crate::choice! {
    /// Option `metric`: the leaderboard metric ([`METRIC_IDS`]).
    pub enum Metric {
        AAcc = "aAcc",
        MIoU = "mIoU",
        MAcc = "mAcc",
        MDice = "mDice",
        MFscore = "mFscore",
        MPrecision = "mPrecision",
        MRecall = "mRecall",
    }
}

crate::choice! {
    /// Option `missing`: a GT image without prediction.
    pub enum Missing { Error = "error", Worst = "worst" }
}

crate::options! {
    /// The options of `segmentation`.
    pub struct SegmentationOptions {
        metric: Metric = ("mIoU", "mIoU"), "The leaderboard metric, shown first.";
        num_classes: Option<u64> = ("none", "none"),
            "Number of classes (class values 0 … num_classes − 1). Required unless class_names is given \
             (docs/specs/families.md 4): a class value ≥ num_classes that is not ignore_index is an error at its pixel.";
        class_names: List = ("", ""),
            "Class names in class-value order, comma-separated (their number is num_classes).";
        ignore_index: i64 = ("255", "255"), "GT value of pixels that are not scored.";
        reduce_zero_label: bool = ("false", "false"),
            "GT only, as mmseg's loader: 0 becomes ignore (255) and every other value v becomes v − 1.";
        palette: String = ("", ""),
            "For RGB label maps: colour → class pairs, e.g. #000000=0,#FF0000=1 (gray and palette PNGs need none).";
        missing: Missing = ("error", "error"),
            "A GT image without prediction: an error (default), or scored as all wrong.";
        max_megapixels: i64 = ("64", "64"),
            "Refuse label maps larger than this many megapixels before decoding them (memory cap).";
    }
}

/// The option table (`dropscore list`, the page, the config validator).
pub const OPTIONS: &[OptionSpec] = SegmentationOptions::SPECS;

pub const INFO: ProtocolInfo = ProtocolInfo {
    id: "segmentation",
    name: "Semantic segmentation, label maps (mmsegmentation mIoU)",
    built: true,
    summary: "Semantic-segmentation scores from PNG label maps as mmsegmentation's IoUMetric computes them \
              (areas summed over the data set, then per class): aAcc, mIoU, mAcc, mDice, mFscore, mPrecision, \
              mRecall, unrounded; per-class and per-image rows, the confusion matrix and an overlay per image.",
    gt_files: "GT label maps: PNG (8/16-bit gray or palette indices; RGB with the palette option), one per image; \
               files, a folder or a zip.",
    pred_files: "Predicted label maps, named like the GT images (same stem); a single file in each role pairs \
                 whatever the names.",
    options: SegmentationOptions::SPECS,
    examples: &[Example {
        id: "blobs",
        label: "Synthetic 64×48 street scenes: 6 images, 4 classes, ignore border",
        gt: &[
            "examples/segmentation/gt/scene_1.png",
            "examples/segmentation/gt/scene_2.png",
            "examples/segmentation/gt/scene_3.png",
            "examples/segmentation/gt/scene_4.png",
            "examples/segmentation/gt/scene_5.png",
            "examples/segmentation/gt/scene_6.png",
        ],
        pred: &[
            "examples/segmentation/pred/scene_1.png",
            "examples/segmentation/pred/scene_2.png",
            "examples/segmentation/pred/scene_3.png",
            "examples/segmentation/pred/scene_4.png",
            "examples/segmentation/pred/scene_5.png",
            "examples/segmentation/pred/scene_6.png",
        ],
        set: &[("class_names", "background,sky,road,car")],
    }],
    official_noun: "mmsegmentation evaluation",
    head_len: 4096,
};

/// The usage error of a run without `num_classes` and without `class_names` (docs/specs/families.md 4).
pub const NUM_CLASSES_REQUIRED: &str = "option `num_classes` is required (or `class_names`): set the number of \
     classes of the competition, e.g. --set num_classes=19, or num_classes = \"19\" under [options] in dropscore.toml \
     (class values 0 … num_classes − 1; ignore_index, default 255, marks unscored pixels)";

/// The largest number of classes (the confusion matrix holds C² counts, per image and for the data set).
pub const MAX_CLASSES: usize = 1024;

/// The resolved options of a run.
pub struct Settings {
    pub metric: &'static str,
    pub classes: usize,
    pub names: Vec<String>,
    pub ignore: u16,
    pub reduce: bool,
    pub palette: Option<FxHashMap<u32, u16>>,
    pub missing_worst: bool,
    pub max_pixels: u64,
}

/// Bytes a pixel of a label-map pair holds while scored: each map's decoded samples (up to 8, RGBA 16-bit)
/// and class values (2).
const BYTES_PER_PIXEL: u64 = 20;

/// [`settings`] with the pixel cap lowered to what the memory budget holds ([`png_mask::pixel_cap`]).
pub fn settings_in(
    opts: &SegmentationOptions,
    budget: crate::budget::Budget,
) -> Result<Settings, UsageError> {
    let mut st = settings(opts)?;
    st.max_pixels =
        crate::formats::png_mask::pixel_cap(st.max_pixels / 1_000_000, budget, BYTES_PER_PIXEL);
    Ok(st)
}

pub fn settings(opts: &SegmentationOptions) -> Result<Settings, UsageError> {
    let names = opts.class_names.items();
    let num_classes = opts.num_classes.and_then(|n| i64::try_from(n).ok());
    let classes = match (num_classes, names.len()) {
        (Some(n), k) if k > 0 && n as usize != k => {
            return Err(UsageError(format!(
                "option `num_classes` = {n} but `class_names` lists {k} names"
            )))
        }
        (Some(n), _) if !(1..=MAX_CLASSES as i64).contains(&n) => {
            return Err(UsageError(format!(
                "option `num_classes`: expected 1 to {MAX_CLASSES}, found {n}"
            )))
        }
        (_, k) if k > MAX_CLASSES => {
            return Err(UsageError(format!(
                "option `class_names`: at most {MAX_CLASSES} classes, found {k}"
            )))
        }
        (Some(n), _) => n as usize,
        (None, 0) => return Err(UsageError(NUM_CLASSES_REQUIRED.into())),
        (None, k) => k,
    };
    let ignore = opts.ignore_index;
    let ignore = u16::try_from(ignore).map_err(|_| {
        UsageError(format!(
            "option `ignore_index`: expected 0 to 65535, found {ignore}"
        ))
    })?;
    let palette = match opts.palette.trim() {
        "" | "none" => None,
        s => Some(parse_palette(s).map_err(|e| UsageError(format!("option `palette`: {e}")))?),
    };
    let mp = opts.max_megapixels;
    if mp <= 0 {
        return Err(UsageError(
            "option `max_megapixels`: expected a positive integer".into(),
        ));
    }
    Ok(Settings {
        metric: METRIC_IDS
            .iter()
            .copied()
            .find(|m| *m == opts.metric.as_str())
            .unwrap_or("mIoU"),
        names: (0..classes)
            .map(|k| names.get(k).cloned().unwrap_or_else(|| k.to_string()))
            .collect(),
        classes,
        ignore,
        reduce: opts.reduce_zero_label,
        palette,
        missing_worst: opts.missing == Missing::Worst,
        max_pixels: mp as u64 * 1_000_000,
    })
}

/// The `segmentation` protocol.
pub struct Segmentation;

impl Protocol for Segmentation {
    const INFO: &'static ProtocolInfo = &INFO;
    type Options = SegmentationOptions;

    /// mmsegmentation's summary metrics, under their report ids.
    fn score_ids(&self, _: &SegmentationOptions) -> Option<Vec<String>> {
        Some(METRIC_IDS.iter().map(|s| s.to_string()).collect())
    }

    fn extras(&self) -> &'static crate::protocols::views::Extras {
        &view::EXTRAS
    }

    /// PNG label maps; a file that is not a valid PNG gets the PNG reader's located error, and one of a kind
    /// known to be something else (a JPEG, a document, an archive) or an empty one is named as such first.
    fn accepts(&self, kind: crate::input::kind::Kind, _role: Option<crate::input::Role>) -> bool {
        use crate::input::kind::Kind;
        matches!(
            kind,
            Kind::Png | Kind::Text | Kind::Xml | Kind::Json | Kind::Binary
        )
    }

    fn classify(&self, path: &str, head: &[u8]) -> Class {
        if head.starts_with(b"\x89PNG") || path.to_ascii_lowercase().ends_with(".png") {
            Class::either().or_name(path)
        } else {
            Class::unrelated("is not a PNG label map")
        }
    }

    fn manifest(&self, run: &mut Run, opts: &SegmentationOptions) -> serde_json::Value {
        preflight::manifest(run, opts)
    }

    fn check(
        &self,
        run: &mut Run,
        opts: &SegmentationOptions,
        expects: &serde_json::Value,
    ) -> super::preflight::Found {
        preflight::check(run, opts, expects)
    }

    fn score(
        &self,
        run: &mut Run,
        opts: &SegmentationOptions,
        progress: &mut dyn Progress,
    ) -> Result<Report, UsageError> {
        let st = settings_in(opts, run.opts.budget())?;
        let mut report = Report::new(INFO.id, run.mode);
        report.display = display(&st, run.mode);
        let pairs = pairing::pair(run.files, st.missing_worst, &mut run.diags);
        let counted = count_pairs(&pairs, &st, run.wants_units(), progress);
        if let Some(found) = counted.looks.swapped(&pairs, st.ignore, st.reduce) {
            // Pixels only suggest a swap (a model may leave pixels unpredicted): scored as given, as
            // mmsegmentation scores it, with a warning whose hint is the call with the sides exchanged.
            run.diags.push(
                crate::diag::Diagnostic::warning(
                    "segmentation.maybe_swapped",
                    "These label maps may be swapped: the predictions look like ground truth. Scored as given.",
                )
                .found(found)
                .hint(format!(
                    "If they are, swap the two inputs and score again: {}",
                    super::roles::corrected_command(INFO.id, run.files)
                )),
            );
        }
        let Counted {
            total,
            mut rows,
            mut units,
            diags,
            ..
        } = counted;
        run.diags.absorb(diags);
        if run.diags.has_errors() || pairs.is_empty() {
            return Ok(report);
        }
        for (id, v) in METRIC_IDS.iter().zip(summary(&total)) {
            report.scores.set(id, v);
        }
        report.items = class_items(&total, &st);
        report.items.sort_by(|a, b| natural_cmp(&a.id, &b.id));
        rows.sort_by(|a, b| natural_cmp(&a.id, &b.id));
        report.items.extend(rows);
        if run.wants_units() {
            units.sort_by(|a, b| natural_cmp(&a.0, &b.0));
            report.units = units::slot(st.classes, units);
        }
        report.plots = plots(&total, &st);
        Ok(report)
    }

    /// The reference library's numbers in both modes: the page shows one column.
    fn hints(&self, _report: &Report) -> crate::report::Hints {
        crate::report::Hints {
            one_mode: true,
            ..Default::default()
        }
    }
}

/// The pixels of every pair counted, each image's row, and what the pairs show about the sides.
struct Counted {
    total: Counts,
    rows: Vec<Item>,
    looks: swap::Looks,
    /// Each image's id and areas, when the bootstrap's units are kept.
    units: Vec<(String, units::ImageAreas)>,
    diags: crate::diag::Diags,
}

fn count_pairs(
    pairs: &[pairing::Pair],
    st: &Settings,
    keep_units: bool,
    progress: &mut dyn Progress,
) -> Counted {
    let mut out = Counted {
        total: Counts::new(st.classes),
        rows: Vec::with_capacity(pairs.len()),
        looks: swap::Looks::default(),
        units: Vec::new(),
        diags: crate::diag::Diags::new(),
    };
    for (i, p) in pairs.iter().enumerate() {
        progress.update(i as f64 / pairs.len().max(1) as f64, "scoring images");
        let Some(l) = image::load(p, st, &mut out.diags) else {
            continue;
        };
        out.looks.add(&l, st.ignore);
        let c = image::count(&l, st);
        out.total.add(&c);
        if keep_units {
            out.units.push((p.id.clone(), units::ImageAreas::of(&c)));
        }
        out.rows.push(image_item(&p.id, &l, &c));
    }
    out
}

fn display(st: &Settings, mode: Mode) -> Display {
    let mut ids = vec![st.metric];
    ids.extend(METRIC_IDS.iter().copied().filter(|m| *m != st.metric));
    Display {
        title: "Semantic segmentation (mmsegmentation IoUMetric)".into(),
        headline: ids
            .iter()
            .map(|id| Label {
                id: id.to_string(),
                label: id.to_string(),
                decimals: 4,
            })
            .collect(),
        item_label: "class / image".into(),
        columns: vec![
            Column::score("IoU", "IoU", 4),
            Column::score("Acc", "Acc", 4),
            Column::score("Dice", "Dice", 4),
            Column::score("precision", "precision", 4),
            Column::score("recall", "recall", 4),
            Column::score("gt_pixels", "GT pixels", 0),
            Column::score("pred_pixels", "predicted pixels", 0),
            Column::detail("pixel_acc", "pixel acc"),
            Column::detail("mIoU", "image mIoU"),
        ],
        footer: if mode == Mode::Corrected {
            "This family has no corrected behaviour: corrected mode gives mmsegmentation's numbers."
                .into()
        } else {
            String::new()
        },
    }
}

fn class_items(t: &Counts, st: &Settings) -> Vec<Item> {
    let (_, pc) = per_class(t);
    (0..st.classes)
        .map(|k| {
            let s = Scores::new()
                .with("IoU", Some(pc.iou[k]))
                .with("Acc", Some(pc.acc[k]))
                .with("Dice", Some(pc.dice[k]))
                .with("precision", Some(pc.precision[k]))
                .with("recall", Some(pc.recall[k]))
                .with("gt_pixels", Some(t.label(k) as f64))
                .with("pred_pixels", Some(t.pred(k) as f64));
            let mut detail = Map::new();
            detail.insert("class".into(), json!(k));
            detail.insert(
                "Fscore".into(),
                json!(Some(pc.fscore[k]).filter(|x| x.is_finite())),
            );
            Item {
                id: st.names[k].clone(),
                group: None,
                scores: s,
                detail,
            }
        })
        .collect()
}

fn image_item(id: &str, l: &image::Loaded, c: &Counts) -> Item {
    let classes = c.classes;
    let correct: u64 = (0..classes).map(|k| c.intersect(k)).sum();
    let labelled: u64 = (0..classes).map(|k| c.label(k)).sum();
    let (_, pc) = per_class(c);
    let mut detail = Map::new();
    detail.insert("width".into(), json!(l.width));
    detail.insert("height".into(), json!(l.height));
    detail.insert("labelled_pixels".into(), json!(labelled));
    detail.insert("correct_pixels".into(), json!(correct));
    let acc = (labelled > 0).then(|| correct as f64 / labelled as f64);
    detail.insert("pixel_acc".into(), json!(acc));
    detail.insert("mIoU".into(), json!(nanmean(&pc.iou)));
    detail.insert("predicted".into(), json!(l.pred.is_some()));
    Item {
        id: id.to_string(),
        group: Some("image".into()),
        scores: Scores::new(),
        detail,
    }
}

fn plots(t: &Counts, st: &Settings) -> Vec<Plot> {
    let (_, pc) = per_class(t);
    let bars = Plot {
        id: "class_iou".into(),
        kind: "bars".into(),
        title: "IoU per class".into(),
        x_label: "class".into(),
        y_label: "IoU".into(),
        labels: st.names.clone(),
        values: pc
            .iou
            .iter()
            .map(|&v| Some(v).filter(|x| x.is_finite()))
            .collect(),
        series: Vec::new(),
    };
    let heat = Plot {
        id: "confusion".into(),
        kind: "heatmap".into(),
        title: "Confusion matrix (pixels; rows GT, columns prediction)".into(),
        x_label: "predicted class".into(),
        y_label: "GT class".into(),
        labels: st.names.clone(),
        values: t.confusion.iter().map(|&v| Some(v as f64)).collect(),
        series: Vec::new(),
    };
    vec![bars, heat]
}
