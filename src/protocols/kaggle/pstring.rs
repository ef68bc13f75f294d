//! Detection from `PredictionString` cells: the solution's boxes (`[class] x y w h …`) and the submission's
//! (`[class] conf x y w h …`, or `xmin ymin xmax ymax` with `box_format = xyxy`) per image id, one row per id
//! on each side, scored as pycocotools' COCOeval would score the same boxes written as a COCO annotation file
//! (images in the solution's order, categories the solution's classes sorted, numerically when all are
//! numbers; GT area w·h, no crowd; results in the submission's order, those of a class the solution lacks left
//! out as pycocotools leaves them out), as PASCAL VOC's AP at the IoU `iou`, and as Global Wheat Detection's
//! metric ([`crate::metrics::coco::voc`]).

use super::inputs;
use super::lists::Scored;
use super::KaggleOptions;
use crate::diag::Diags;
use crate::formats::csv_records::Row;
use crate::formats::kaggle_csv::pstring::{self, Layout};
use crate::formats::kaggle_csv::{At, Columns, Table};
use crate::input::Entry;
use crate::metrics::coco::{self, voc, Det, Gt, Input};
use crate::metrics::mean::numpy_mean;
use rustc_hash::FxHashMap;

/// The metrics of boxes: COCO's AP, AP50, AP75 and AR@100, VOC's AP at `iou`, Global Wheat's precision.
pub const METRICS: &[&str] = &[
    "box_ap",
    "box_ap50",
    "box_ap75",
    "box_ar100",
    "voc_ap",
    "wheat_precision",
];

/// Bytes a box costs from its tokens to the evaluation (the parsed box, the COCO input, the matching), per
/// byte of the files: a box takes at least 10 bytes (`0 0 0 0 0 `).
const BYTES_PER_BYTE: u64 = 16;

/// One parsed box: its class code, confidence and `[x, y, w, h]`.
type Parsed = (u32, f64, [f64; 4]);

/// The classes' texts, interned across both files.
#[derive(Default)]
struct Classes {
    codes: FxHashMap<String, u32>,
    names: Vec<String>,
}

impl Classes {
    fn code(&mut self, name: &str) -> u32 {
        if let Some(&c) = self.codes.get(name) {
            return c;
        }
        let c = self.names.len() as u32;
        self.codes.insert(name.to_string(), c);
        self.names.push(name.to_string());
        c
    }
}

/// Reads one side with `layout`; a cell that is not a list of boxes is a located error naming its token.
fn read_side(
    entry: &Entry,
    delim: u8,
    columns: &Columns,
    layout: Layout,
    classes: &mut Classes,
    diags: &mut Diags,
) -> Option<Table<Vec<Parsed>>> {
    let mut cell = |r: &Row, at: &At, diags: &mut Diags| match pstring::parse(
        r.get(at.value),
        layout,
    ) {
        Ok(boxes) => Some(
            boxes
                .iter()
                .map(|b| (classes.code(b.class), b.conf, b.bbox))
                .collect(),
        ),
        Err(e) => {
            let d = inputs::cell_error(&entry.path, r, at, at.value, e.what, e.message)
                .expected(format!("boxes of `{}`", layout.fields()))
                .hint(
                    "Write each box as the sample submission does; set box_format = xywh|xyxy and classes = true|false to the competition's layout.",
                );
            diags.push(d);
            None
        }
    };
    inputs::read(entry, delim, columns, diags, &mut cell)
}

/// The solution's classes as COCO category indices (sorted: by value when every name is a number, else as
/// Python sorts strings), `u32::MAX` for a class only the submission has; and the categories' names.
fn categories(classes: &Classes, in_gt: &[bool]) -> (Vec<u32>, Vec<String>) {
    let mut names: Vec<(u32, &str)> = (0..classes.names.len())
        .filter(|&c| in_gt[c])
        .map(|c| (c as u32, classes.names[c].as_str()))
        .collect();
    let numbers: Option<Vec<f64>> = names.iter().map(|(_, n)| n.parse::<f64>().ok()).collect();
    match numbers {
        Some(v) if v.iter().all(|x| x.is_finite()) => {
            let mut keyed: Vec<(f64, u32, &str)> = names
                .iter()
                .zip(&v)
                .map(|((c, n), x)| (*x, *c, *n))
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
            names = keyed.into_iter().map(|(_, c, n)| (c, n)).collect();
        }
        _ => names.sort_by(|a, b| a.1.cmp(b.1)),
    }
    let mut index = vec![u32::MAX; classes.names.len()];
    for (i, (c, _)) in names.iter().enumerate() {
        index[*c as usize] = i as u32;
    }
    (index, names.iter().map(|(_, n)| n.to_string()).collect())
}

/// Reads, matches and scores the boxes; `None` when a file could not be read.
pub fn score(
    gt_e: &Entry,
    pred_e: &Entry,
    opts: &KaggleOptions,
    delim: u8,
    budget: crate::budget::Budget,
    diags: &mut Diags,
) -> Option<Scored> {
    let iou = opts.iou.unwrap_or(0.5);
    let b = read(gt_e, pred_e, opts, delim, budget, diags)?;
    Some(evaluate(b.ids, &b.input, &b.others, iou, opts.empty_rule()))
}

/// Both files' boxes as the evaluation takes them (see [`read`]).
pub struct Read {
    /// The images' ids, in the solution's order (the COCO input's image indices).
    pub ids: Vec<String>,
    pub input: Input,
    /// The detections of classes the solution lacks.
    pub others: Vec<Det>,
    /// The COCO categories' names (the solution's classes, sorted).
    pub categories: Vec<String>,
}

/// Reads and matches the boxes within the memory budget; `None` when a file could not be read or the
/// evaluation would not fit (the reason in `diags`).
pub fn read(
    gt_e: &Entry,
    pred_e: &Entry,
    opts: &KaggleOptions,
    delim: u8,
    budget: crate::budget::Budget,
    diags: &mut Diags,
) -> Option<Read> {
    let need = BYTES_PER_BYTE * (gt_e.size + pred_e.size) + (1 << 20);
    if budget.check("the parsed boxes", need).is_err() {
        let what = "the parsed boxes of the solution and the submission";
        diags.push(crate::budget::refusal(
            &pred_e.path,
            None,
            what,
            need,
            budget,
        ));
        return None;
    }
    let xyxy = opts.box_format == super::BoxFormat::Xyxy;
    let layout = |conf| Layout {
        class: opts.classes,
        conf,
        xyxy,
    };
    let mut columns = Columns {
        id: &opts.id_column,
        value: &opts.column,
        value_option: "column",
        extra: &[],
    };
    let mut classes = Classes::default();
    let gt = read_side(gt_e, delim, &columns, layout(false), &mut classes, diags)?;
    let name = gt.column.clone();
    if opts.column.is_empty() {
        columns.value = &name;
    }
    let sub = read_side(pred_e, delim, &columns, layout(true), &mut classes, diags)?;
    let m = inputs::matched_as(&gt, &sub, false, opts.read_as.mode(), diags);
    let (input, others, names) = build(&gt, &sub, &m, &classes);
    let over = coco::cost::over(&input, &coco::Params::default(), budget.max_memory)
        .map(|(_, need)| need)
        .or_else(|| {
            let need = pair_bytes(&input, &others);
            (need > budget.max_memory).then_some(need)
        });
    if let Some(need) = over {
        let what = format!(
            "evaluating the {} boxes",
            input.gts.len() + input.dets.len()
        );
        diags.push(crate::budget::refusal(
            &pred_e.path,
            None,
            &what,
            need,
            budget,
        ));
        return None;
    }
    let ids = m
        .first
        .iter()
        .map(|&r| gt.ids.get(r as usize).to_string())
        .collect();
    Some(Read {
        ids,
        input,
        others,
        categories: names,
    })
}

/// The solution's ids and the COCO input exactly as [`score`] builds it (the bootstrap's units read the
/// files again, after scoring has read them within the budget); `None` when a file cannot be read.
pub fn coco_input(
    gt_e: &Entry,
    pred_e: &Entry,
    opts: &KaggleOptions,
    delim: u8,
) -> Option<(Vec<String>, Input)> {
    let unchecked = crate::budget::Budget {
        max_memory: u64::MAX,
    };
    let r = read(gt_e, pred_e, opts, delim, unchecked, &mut Diags::new())?;
    Some((r.ids, r.input))
}

/// The bytes of the IoU matrices of Global Wheat's metric: 8 per detection × GT pair of each image.
fn pair_bytes(input: &Input, others: &[Det]) -> u64 {
    let mut n = vec![[0u64; 2]; input.n_images];
    for g in &input.gts {
        n[g.image][0] += 1;
    }
    for d in input.dets.iter().chain(others) {
        n[d.image][1] += 1;
    }
    n.iter()
        .map(|[g, d]| g.saturating_mul(*d).saturating_mul(8))
        .fold(0u64, u64::saturating_add)
}

/// The COCO input: images in the solution's order, GT in file order, detections in the submission's order;
/// and the detections of classes the solution lacks (COCO and VOC leave them out, Global Wheat's metric does
/// not look at classes); and the categories' names.
fn build(
    gt: &Table<Vec<Parsed>>,
    sub: &Table<Vec<Parsed>>,
    m: &inputs::Matched,
    classes: &Classes,
) -> (Input, Vec<Det>, Vec<String>) {
    let mut others = Vec::new();
    let mut in_gt = vec![false; classes.names.len()];
    for v in gt.values.iter().flatten() {
        for b in v {
            in_gt[b.0 as usize] = true;
        }
    }
    let (cat, names) = categories(classes, &in_gt);
    let mut input = Input {
        n_images: m.len(),
        n_categories: names.len(),
        ..Input::default()
    };
    for (g, &r) in m.first.iter().enumerate() {
        for &(c, _, bbox) in gt.values[r as usize].iter().flatten() {
            input.gts.push(Gt {
                id: input.gts.len() as i64 + 1,
                image: g,
                category: cat[c as usize] as usize,
                bbox,
                area: bbox[2] * bbox[3],
                crowd: false,
            });
        }
    }
    for (r, &g) in m.sub_group.iter().enumerate() {
        if g == inputs::NONE {
            continue;
        }
        for &(c, score, bbox) in sub.values[r].iter().flatten() {
            let det = Det {
                image: g as usize,
                category: cat[c as usize] as usize,
                bbox,
                score,
            };
            if cat[c as usize] != u32::MAX {
                input.dets.push(det);
            } else {
                others.push(det);
            }
        }
    }
    (input, others, names)
}

/// Every metric of [`METRICS`] and the per-image columns.
fn evaluate(
    ids: Vec<String>,
    input: &Input,
    others: &[Det],
    iou: f64,
    empty: crate::metrics::kaggle::rle::Empty,
) -> Scored {
    use crate::metrics::kaggle::rle::Empty;
    let e = coco::evaluate(input, &coco::Params::default());
    let stats = coco::stats(&e);
    let (_, voc) = voc::voc_ap(input, iou);
    let empty = match empty {
        Empty::One => Some(1.0),
        Empty::Zero => Some(0.0),
        Empty::Skip => None,
    };
    let wheat = voc::wheat(input, others, empty);
    let kept: Vec<f64> = wheat.iter().flatten().copied().collect();
    let mut n_gt = vec![0f64; input.n_images];
    let mut n_det = vec![0f64; input.n_images];
    for g in &input.gts {
        n_gt[g.image] += 1.0;
    }
    for d in input.dets.iter().chain(others) {
        n_det[d.image] += 1.0;
    }
    let count = |j: usize| e.per_image.iter().map(|c| c[j] as f64).collect();
    Scored {
        ids: super::lists::id_table(&ids),
        columns: vec![
            ("gt_boxes", n_gt),
            ("detections", n_det),
            ("tp50", count(0)),
            ("fp50", count(1)),
            ("fn50", count(2)),
            (
                "wheat_precision",
                wheat.iter().map(|v| v.unwrap_or(f64::NAN)).collect(),
            ),
        ],
        scores: vec![
            ("box_ap", stats[0]),
            ("box_ap50", stats[1]),
            ("box_ap75", stats[2]),
            ("box_ar100", stats[8]),
            ("voc_ap", voc),
            ("wheat_precision", numpy_mean(&kept)),
        ],
    }
}
