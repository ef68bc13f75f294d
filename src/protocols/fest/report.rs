//! The `fest` report (spec 8): items per image (with per-GT-line and per-predicted-line rows in `detail`),
//! groups per manuscript (numpy means in pairing order, or pooled counts), the leaderboard headline, plots.

use super::image::{self, hex, Scored};
use super::layout::Manuscript;
use super::Settings;
use crate::diag::Diagnostic;
use crate::metrics::fest::{five, Counts, Five, IDS, V};
use crate::metrics::mean::{numpy_mean, plain_mean};
use crate::protocols::Progress;
use crate::report::{Column, Display, Group, Item, Label, Mode, Plot, Report, Scores};
use serde_json::{json, Map, Value};

/// Most per-line rows kept in one item's detail (the counts always cover every line).
const MAX_LINE_ROWS: usize = 5000;

/// The report's one top-level score: the mean line IU (the leaderboard value).
pub(super) const LEADERBOARD: &str = "line_iu";

/// What the whole run gathers across manuscripts: progress, whether official scoring fails, the best IoU of
/// every matched GT line and each manuscript's Line IU.
struct Across<'a> {
    total: usize,
    done: usize,
    fails: bool,
    best_ious: Vec<f64>,
    ms_line_iu: Vec<Option<f64>>,
    progress: &'a mut dyn Progress,
}

/// One manuscript's scored images: their five values, pooled counts and Line IU bars.
#[derive(Default)]
struct Images {
    fives: Vec<(String, Five)>,
    pooled: Counts,
    bars: Vec<(String, Option<f64>)>,
    /// Every image in pairing order with its counts and Line IU: the bootstrap's units.
    units: Vec<super::units::Image>,
}

pub fn build(
    manuscripts: &[Manuscript],
    st: &Settings,
    mode: Mode,
    diags: &mut Vec<Diagnostic>,
    progress: &mut dyn Progress,
) -> Report {
    let mut report = Report::new("fest", mode);
    let mut all = Across {
        total: manuscripts.iter().map(|m| m.jobs.len()).sum(),
        done: 0,
        fails: false,
        best_ious: Vec::new(),
        ms_line_iu: Vec::new(),
        progress,
    };
    let mut strata = Vec::new();
    for ms in manuscripts {
        let mut images = Images::default();
        for job in &ms.jobs {
            let item = image_item(job, &ms.name, st, mode, diags, &mut all, &mut images);
            report.items.push(item);
        }
        let g = manuscript_scores(ms, &images, st, mode, diags);
        all.ms_line_iu.push(g.get("line_iu"));
        report.groups.push(Group {
            id: ms.name.clone(),
            scores: g,
        });
        report.plots.push(Plot {
            id: format!("line_iu_{}", ms.name),
            kind: "bars".into(),
            title: format!("Line IU per image: {}", ms.name),
            x_label: "image".into(),
            y_label: "Line IU".into(),
            labels: images.bars.iter().map(|b| b.0.clone()).collect(),
            values: images.bars.iter().map(|b| b.1).collect(),
            series: vec![],
        });
        strata.push(images.units);
    }
    let fails = all.fails;
    let ms_line_iu = &all.ms_line_iu;
    let lead = if fails || ms_line_iu.is_empty() || ms_line_iu.iter().any(|v| v.is_none()) {
        None
    } else {
        plain_mean(
            &ms_line_iu
                .iter()
                .map(|v| v.unwrap_or(0.0))
                .collect::<Vec<_>>(),
        )
    };
    if fails {
        for g in &mut report.groups {
            for id in IDS {
                g.scores.set(id, None);
            }
        }
    }
    report.scores.set(LEADERBOARD, lead);
    if !fails && lead.is_some() {
        report.units = super::units::slot(&st.params, st.pooled, strata);
    }
    report
        .items
        .sort_by(|a, b| crate::report::natural_cmp(&a.id, &b.id));
    report.plots.insert(0, histogram(&all.best_ious));
    report.display = display();
    report
}

/// One image of manuscript `ms_name`: scored (unless its GT entry is unreadable, where the official script
/// stops), its item, and what it adds to the manuscript's and the run's totals.
fn image_item(
    job: &super::layout::Job,
    ms_name: &str,
    st: &Settings,
    mode: Mode,
    diags: &mut Vec<Diagnostic>,
    all: &mut Across,
    images: &mut Images,
) -> Item {
    all.progress.update(
        all.done as f64 / all.total.max(1) as f64,
        &format!("scoring {}", job.id),
    );
    all.done += 1;
    // The official script stops at a GT entry it cannot read (its error is already in `diags`).
    let scored = if job.unreadable {
        None
    } else {
        image::score(job, &st.decode, &st.params, mode, diags)
    };
    let mut item = Item {
        id: job.id.clone(),
        group: Some(ms_name.to_string()),
        scores: Scores::new(),
        detail: Map::new(),
    };
    item.detail.insert("order".into(), json!(all.done - 1));
    item.detail.insert("gt_file".into(), json!(job.gt.path));
    item.detail
        .insert("pred_file".into(), json!(job.pred.map(|p| p.path.clone())));
    let Some(s) = scored else {
        for id in IDS {
            item.scores.set(id, None);
        }
        all.fails |= mode == Mode::Official;
        images.bars.push((job.id.clone(), None));
        images.units.push((job.id.clone(), None));
        return item;
    };
    let f = five(&s.matched.counts, &st.params);
    if f.ra == V::DivZero {
        diags.push(
            Diagnostic::error(
                "fest.official.ra_division_by_zero",
                "no predicted line (N2 = 0) while the GT has lines: RA = M/N2 divides by zero",
            )
            .file(job.pred.map_or(job.gt.path.as_str(), |p| p.path.as_str()))
            .hint("The prediction is all background; corrected mode scores it (RA undefined, DR = 0, FM = 0).")
            .official("crashes: an all-background prediction of an image whose GT has lines makes RA divide by zero (the script checks N1, not N2)"),
        );
        all.fails = true;
    }
    for (k, id) in IDS.iter().enumerate() {
        item.scores.set(id, f.get(k).value());
    }
    for g in s.matched.gt.iter().skip(1) {
        if g.pred.is_some() {
            all.best_ious.push(g.iou);
        }
    }
    images.pooled.add(&s.matched.counts);
    images
        .units
        .push((job.id.clone(), Some((s.matched.counts, f.line_iu))));
    images.bars.push((job.id.clone(), f.line_iu.value()));
    detail(&mut item.detail, &s, &f);
    images.fives.push((job.id.clone(), f));
    item
}

/// A manuscript's five values: from its pooled counts, or the numpy means of its images' values (undefined
/// ones left out, with a warning); an empty manuscript is a warning (official) or an error (corrected).
fn manuscript_scores(
    ms: &Manuscript,
    images: &Images,
    st: &Settings,
    mode: Mode,
    diags: &mut Vec<Diagnostic>,
) -> Scores {
    let mut g = Scores::new();
    if st.pooled {
        let f = five(&images.pooled, &st.params);
        for (k, id) in IDS.iter().enumerate() {
            g.set(id, f.get(k).value());
        }
    } else {
        let mut undefined: Vec<String> = Vec::new();
        for (k, id) in IDS.iter().enumerate() {
            let mut vals = Vec::new();
            for (img, f) in &images.fives {
                match f.get(k) {
                    V::Undef => undefined.push(format!("{img} ({id})")),
                    V::DivZero => {}
                    v => vals.extend(v.value()),
                }
            }
            g.set(id, numpy_mean(&vals));
        }
        if !undefined.is_empty() {
            diags.push(
                Diagnostic::warning(
                    "fest.metric.undefined",
                    format!(
                        "manuscript {}: undefined (0/0) metrics left out of the means: {}",
                        ms.name,
                        undefined.join(", ")
                    ),
                )
                .hint("These images have no GT lines or no predicted lines.")
                .official("counts them as 0"),
            );
        }
    }
    if ms.jobs.is_empty() {
        // Spec 6, empty GT folder: official NaN means and a warning, corrected an error.
        let d = Diagnostic::new(
            if mode == Mode::Official {
                crate::Severity::Warning
            } else {
                crate::Severity::Error
            },
            "fest.input.no_images",
            format!("manuscript {}: no image to score", ms.name),
        )
        .hint(
            "Put the GT masks (PNG) of this manuscript in its folder, or leave the manuscript out.",
        )
        .official("NaN means (numpy mean of an empty list)");
        diags.push(d);
    }
    g
}

fn histogram(ious: &[f64]) -> Plot {
    let mut bins = [0u64; 10];
    for x in ious {
        let b = ((x * 10.0) as usize).min(9);
        bins[b] += 1;
    }
    Plot {
        id: "iou_hist".into(),
        kind: "histogram".into(),
        title: "IoU of each GT line with its matched prediction".into(),
        x_label: "IoU".into(),
        y_label: "GT lines".into(),
        labels: (0..10)
            .map(|i| format!("{:.1}–{:.1}", i as f64 / 10.0, (i + 1) as f64 / 10.0))
            .collect(),
        values: bins.iter().map(|n| Some(*n as f64)).collect(),
        series: vec![],
    }
}

fn detail(d: &mut Map<String, Value>, s: &Scored, f: &Five) {
    let c = &s.matched.counts;
    for (k, v) in [
        ("width", s.width as u64),
        ("height", s.height as u64),
        ("n1", c.n1),
        ("n2", c.n2),
        ("m", c.m),
        ("tp", c.tp),
        ("fp", c.fp),
        ("fn", c.fn_),
        ("cl", c.cl),
        ("ml", c.ml),
        ("el", c.el),
        ("fg_inter", c.fg_inter),
        ("fg_union", c.fg_union),
    ] {
        d.insert(k.into(), json!(v));
    }
    let zero: Vec<&str> = IDS
        .iter()
        .enumerate()
        .filter(|(k, _)| f.get(*k) == V::Zero)
        .map(|(_, id)| *id)
        .collect();
    d.insert("int_zero".into(), json!(zero));
    let shared = s.matched.pred_gt.iter().filter(|v| v.len() > 1).count();
    d.insert("shared_predictions".into(), json!(shared));
    if s.missing_pred {
        d.insert("missing_prediction".into(), json!(true));
    }
    let n1 = s.gt_size.len().saturating_sub(1);
    let bbox = gt_boxes(s, n1);
    let colour = |p: u32| {
        s.colours
            .get(p as usize)
            .and_then(|c| c.first())
            .map(|c| hex(*c))
    };
    let gt_rows: Vec<Value> = (1..=n1)
        .take(MAX_LINE_ROWS)
        .map(|g| {
            let l = &s.matched.gt[g];
            json!({
                "label": g,
                "pixels": s.gt_size[g],
                "bbox": bbox[g],
                "pred": l.pred,
                "colour": l.pred.and_then(colour),
                "iou": l.iou,
                "precision": l.precision,
                "recall": l.recall,
                "class": l.class.as_str(),
            })
        })
        .collect();
    d.insert("gt_lines".into(), Value::Array(gt_rows));
    let n2 = s.pred_size.len().saturating_sub(1);
    let pred_rows: Vec<Value> = (1..=n2)
        .filter(|p| s.pred_size[*p] > 0 || !s.colours[*p].is_empty())
        .take(MAX_LINE_ROWS)
        .map(|p| {
            json!({
                "label": p,
                "colour": colour(p as u32),
                "colours": s.colours[p].len(),
                "pixels": s.pred_size[p],
                "gt": s.matched.pred_gt[p],
                "counted": s.matched.pred_counted[p],
            })
        })
        .collect();
    d.insert("pred_lines".into(), Value::Array(pred_rows));
    let _ = &s.pairs;
}

/// The bounding box `[x0, y0, x1, y1]` (inclusive) of each of the `n1` GT lines, from their runs.
fn gt_boxes(s: &Scored, n1: usize) -> Vec<[u32; 4]> {
    let mut bbox = vec![[u32::MAX, u32::MAX, 0u32, 0u32]; n1 + 1];
    for r in &s.gt_runs {
        if let Some(b) = bbox.get_mut(r.label as usize) {
            b[0] = b[0].min(r.x0);
            b[1] = b[1].min(r.y);
            b[2] = b[2].max(r.x1 - 1);
            b[3] = b[3].max(r.y);
        }
    }
    bbox
}

fn display() -> Display {
    let mut columns: Vec<Column> = ["n1", "n2", "m", "tp", "fp", "fn", "cl", "ml", "el"]
        .iter()
        .map(|k| Column::detail(k, &k.to_uppercase()))
        .collect();
    for (id, label) in IDS.iter().zip(["Pixel IU", "Line IU", "DR", "RA", "FM"]) {
        columns.push(Column::score(id, label, 4));
    }
    Display {
        title: "ICDAR 2025 FEST".into(),
        headline: vec![Label {
            id: "line_iu".into(),
            label: "Line IU (leaderboard)".into(),
            decimals: 4,
        }],
        item_label: "image".into(),
        columns,
        footer: "Leaderboard = mean of the manuscripts' Line IU; per manuscript: numpy means of the per-image values."
            .into(),
    }
}
