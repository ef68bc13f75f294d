//! Protocol `detection` (docs/specs/families.md sections 0, 3 and 5): COCO bounding-box evaluation exactly as
//! pycocotools' `COCOeval(iouType='bbox')` computes it. The ground truth is a COCO annotation JSON, the
//! submission a COCO results JSON; the 12 `stats` are the headline, per category AP/AP50/AP75, per image the
//! TP/FP/FN counts at IoU 0.5, PR curves at IoU 0.50 and 0.75. The text output is `summarize()`'s print.
//! There is no corrected behaviour: corrected mode gives the same numbers.

mod budget;
mod inputs;
mod params;
mod preflight;
pub mod units;
pub mod viewer;

pub use params::{DetectionOptions, OPTIONS};

use super::options::OptionSet;
use super::{Class, Example, Progress, Protocol, ProtocolInfo, Run, UsageError};
use crate::metrics::coco::{self, summarize, Eval, STAT_IDS};
use crate::report::{
    natural_cmp, Column, Display, Item, Label, Mode, Plot, Report, Scores, Series,
};
use inputs::Loaded;
use serde_json::{json, Map, Value};

pub const INFO: ProtocolInfo = ProtocolInfo {
    id: "detection",
    name: "Object detection, COCO boxes (pycocotools)",
    built: true,
    summary: "COCO bounding-box mAP as pycocotools' COCOeval computes it: AP at IoU .50:.05:.95, AP50, AP75, \
              AP by object size, AR at 1/10/100 detections and by size; per-category AP and precision/recall curves. \
              The text output is summarize()'s print, byte for byte.",
    gt_files: "A COCO annotation file (JSON object with images, annotations, categories).",
    pred_files: "A COCO results file (JSON list of {image_id, category_id, bbox, score}).",
    options: DetectionOptions::SPECS,
    examples: &[Example {
        id: "shapes",
        label: "Synthetic shapes: 12 images, 4 categories, a crowd box",
        // The images too, so that the page's view draws the boxes on them (they are not scored).
        gt: &[
            "examples/detection/gt/instances.json",
            "examples/detection/images/shapes_01.jpg",
            "examples/detection/images/shapes_02.jpg",
            "examples/detection/images/shapes_03.jpg",
            "examples/detection/images/shapes_04.jpg",
            "examples/detection/images/shapes_05.jpg",
            "examples/detection/images/shapes_06.jpg",
            "examples/detection/images/shapes_07.jpg",
            "examples/detection/images/shapes_08.jpg",
            "examples/detection/images/shapes_09.jpg",
            "examples/detection/images/shapes_10.jpg",
            "examples/detection/images/shapes_11.jpg",
            "examples/detection/images/shapes_12.jpg",
        ],
        pred: &["examples/detection/pred/results.json"],
        set: &[],
    }],
    official_noun: "pycocotools evaluation",
    head_len: 4096,
};

/// The `detection` protocol.
pub struct Detection;

impl Protocol for Detection {
    const INFO: &'static ProtocolInfo = &INFO;
    type Options = DetectionOptions;

    /// pycocotools' 12 `stats`, under their report ids.
    fn score_ids(&self, _: &DetectionOptions) -> Option<Vec<String>> {
        Some(STAT_IDS.iter().map(|s| s.to_string()).collect())
    }

    fn extras(&self) -> &'static crate::protocols::views::Extras {
        &viewer::EXTRAS
    }

    /// JSON, and images (not scored: viewer::note_images).
    fn accepts(&self, kind: crate::input::kind::Kind, _role: Option<crate::input::Role>) -> bool {
        kind.is_text() || kind.is_image()
    }

    fn classify(&self, path: &str, head: &[u8]) -> Class {
        let lower = path.to_ascii_lowercase();
        if [".jpg", ".jpeg", ".png", ".bmp", ".webp"]
            .iter()
            .any(|x| lower.ends_with(x))
        {
            return Class::unrelated("is an image");
        }
        let body = crate::formats::lines::strip_bom(head);
        match body.iter().find(|b| !b.is_ascii_whitespace()) {
            Some(b'{') if memchr::memmem::find(body, b"\"images\"").is_some() => {
                Class::gt("is a JSON object with `images` (a COCO annotation file)")
            }
            Some(b'[') => Class::pred("is a JSON list (a COCO results file)").or_name(path),
            _ => Class::either().or_name(path),
        }
    }

    fn manifest(&self, run: &mut Run, _opts: &DetectionOptions) -> Value {
        preflight::manifest(run)
    }

    fn check(
        &self,
        run: &mut Run,
        _opts: &DetectionOptions,
        expects: &Value,
    ) -> super::preflight::Found {
        preflight::check(run, expects)
    }

    fn score(
        &self,
        run: &mut Run,
        opts: &DetectionOptions,
        progress: &mut dyn Progress,
    ) -> Result<Report, UsageError> {
        let (p, metric) = params::params(opts)?;
        let mut report = Report::new(INFO.id, run.mode);
        report.display = display(metric, run.mode);
        progress.update(0.05, "reading");
        viewer::note_images(run.files, &mut run.diags);
        if !p.max_dets.contains(&100) {
            run.diags.push(budget::without_100(&p.max_dets));
        }
        let budget = run.opts.budget();
        let Some(loaded) = inputs::load(run.files, budget, &mut run.diags) else {
            return Ok(report);
        };
        let (gt, res) = (&loaded.gt_path, &loaded.res_path);
        if !budget::evaluation_fits(&loaded.input, &p, gt, res, budget, &mut run.diags)? {
            return Ok(report);
        }
        progress.update(0.3, "evaluating");
        let e = coco::evaluate(&loaded.input, &p);
        progress.update(0.95, "summarizing");
        let stats = coco::stats(&e);
        for (id, v) in STAT_IDS.iter().zip(&stats) {
            report.scores.set(id, *v);
        }
        report.items = items(&e, &loaded);
        report.plots = pr_plots(&e, &loaded);
        if run.wants_units() {
            report.units = units::slot(&loaded, &p, &report.scores);
        }
        Ok(report)
    }

    fn render_text(&self, report: &Report) -> Option<String> {
        summary_of(report)
    }

    /// The reference library's numbers in both modes: the page shows one column.
    fn hints(&self, _report: &Report) -> crate::report::Hints {
        crate::report::Hints {
            one_mode: true,
            ..Default::default()
        }
    }
}

fn display(metric: &str, mode: Mode) -> Display {
    let mut ids: Vec<&str> = vec![metric];
    ids.extend(STAT_IDS.iter().copied().filter(|m| *m != metric));
    Display {
        title: "COCO bounding-box evaluation (pycocotools COCOeval)".into(),
        headline: ids
            .iter()
            .map(|id| Label {
                id: id.to_string(),
                label: id.to_string(),
                decimals: 3,
            })
            .collect(),
        item_label: "category / image".into(),
        columns: vec![
            Column::score("AP", "AP", 3),
            Column::score("AP50", "AP50", 3),
            Column::score("AP75", "AP75", 3),
            Column::score("gt_boxes", "GT boxes", 0),
            Column::score("detections", "detections", 0),
            Column::detail("tp50", "TP@.5"),
            Column::detail("fp50", "FP@.5"),
            Column::detail("fn50", "FN@.5"),
        ],
        footer: if mode == Mode::Corrected {
            "This family has no corrected behaviour: corrected mode gives pycocotools' numbers."
                .into()
        } else {
            String::new()
        },
    }
}

/// `summarize()`'s 12 lines, rebuilt from the report's stats and effective options.
fn summary_of(report: &Report) -> Option<String> {
    if !STAT_IDS.iter().all(|id| report.scores.contains(id)) {
        return None;
    }
    let opt = |k: &str| report.options.get(k).and_then(Value::as_str).unwrap_or("");
    let list: Vec<String> = opt("max_dets")
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    let p = coco::Params {
        iou_thrs: params::iou_thresholds(opt("iou_thresholds")).ok()?,
        max_dets: params::max_dets(&list).ok()?,
        ..coco::Params::default()
    };
    let e = Eval {
        params: p,
        k: 0,
        precision: Vec::new(),
        recall: Vec::new(),
        per_image: Vec::new(),
    };
    let stats: Vec<Option<f64>> = STAT_IDS.iter().map(|id| report.scores.get(id)).collect();
    Some(summarize::summary_text(&e, &stats))
}

fn category_label(l: &Loaded, k: usize) -> String {
    let id = l.category_ids[k];
    let name = l.category_names[k]
        .clone()
        .unwrap_or_else(|| id.to_string());
    let clash = (0..l.category_ids.len())
        .any(|j| j != k && l.category_names[j].as_deref().unwrap_or("") == name);
    if clash {
        format!("{name} (id {id})")
    } else {
        name
    }
}

fn items(e: &Eval, l: &Loaded) -> Vec<Item> {
    let q = summarize::queries(&e.params.max_dets);
    let mut out = Vec::new();
    if e.params.use_cats {
        for k in 0..e.k {
            let mut s = Scores::new();
            for (id, qi) in [("AP", 0), ("AP50", 1), ("AP75", 2)] {
                s.set(id, summarize::summarize_one(e, &q[qi], Some(k)));
            }
            s.set("gt_boxes", Some(l.gt_boxes[k] as f64));
            s.set("detections", Some(l.detections[k] as f64));
            let mut detail = Map::new();
            detail.insert("category_id".into(), json!(l.category_ids[k]));
            out.push(Item {
                id: category_label(l, k),
                group: None,
                scores: s,
                detail,
            });
        }
    }
    for (i, c) in e.per_image.iter().enumerate() {
        let mut detail = Map::new();
        detail.insert("image_id".into(), json!(l.image_ids[i]));
        detail.insert("gt_boxes".into(), json!(l.image_gt[i]));
        detail.insert("detections".into(), json!(l.image_dets[i]));
        if e.params.iou_thrs.contains(&0.5) {
            detail.insert("tp50".into(), json!(c[0]));
            detail.insert("fp50".into(), json!(c[1]));
            detail.insert("fn50".into(), json!(c[2]));
        }
        out.push(Item {
            id: l.image_names[i]
                .clone()
                .unwrap_or_else(|| l.image_ids[i].to_string()),
            group: Some("image".into()),
            scores: Scores::new(),
            detail,
        });
    }
    out.sort_by(|a, b| {
        a.group
            .is_some()
            .cmp(&b.group.is_some())
            .then_with(|| natural_cmp(&a.id, &b.id))
    });
    out
}

/// Precision at the 101 recall thresholds (area "all" = the first range, the largest maxDets), per category,
/// at IoU 0.50 and 0.75.
fn pr_plots(e: &Eval, l: &Loaded) -> Vec<Plot> {
    let p = &e.params;
    let m = p.max_dets.len().saturating_sub(1);
    let mut plots = Vec::new();
    for (thr, id) in [(0.5, "pr50"), (0.75, "pr75")] {
        let Some(t) = p.iou_thrs.iter().position(|&x| x == thr) else {
            continue;
        };
        let series = (0..e.k)
            .filter(|&k| e.precision_at(t, 0, k, 0, m) > -1.0)
            .map(|k| Series {
                label: if p.use_cats {
                    category_label(l, k)
                } else {
                    "all categories".into()
                },
                x: p.rec_thrs.clone(),
                y: (0..p.rec_thrs.len())
                    .map(|r| Some(e.precision_at(t, r, k, 0, m)))
                    .collect(),
            })
            .collect();
        plots.push(Plot {
            id: id.into(),
            kind: "lines".into(),
            title: format!("Precision / recall at IoU {thr:.2} (per category)"),
            x_label: "recall".into(),
            y_label: "precision".into(),
            labels: Vec::new(),
            values: Vec::new(),
            series,
        });
    }
    plots
}
