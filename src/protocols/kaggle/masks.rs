//! Run-length-encoded masks: each row of the solution and of the submission is one mask of the image its id
//! names (several rows of an id: the image's objects, whose union is its mask). The metrics: foreground Dice
//! over the whole set, the mean per-image Dice (Severstal, Carvana), the 2018 Data Science Bowl's precision
//! over IoU thresholds per image, F-beta over pixels, the mean Hausdorff distance.

use super::inputs::{self, Matched};
use super::KaggleOptions;
use crate::diag::Diags;
use crate::formats::csv_records::Row;
use crate::formats::kaggle_csv::{cells, rle, At, Columns};
use crate::input::Entry;
use crate::metrics::kaggle::hausdorff::hausdorff;
use crate::metrics::kaggle::rle::{self as m, Empty, PixelCounts, Runs};
use crate::metrics::mean::numpy_mean;
use crate::protocols::UsageError;
use rustc_hash::FxHashMap;

/// The metrics of masks, in the report's order.
pub const METRICS: &[&str] = &["dice", "mean_dice", "iou_precision", "fbeta", "hausdorff"];

/// Most object pairs of one image the DSB precision compares (an IoU matrix of 8 MiB); an image with more is an
/// error (the competition's images have hundreds of objects at most).
pub const MAX_PAIRS: usize = 1 << 20;
/// Largest image the Hausdorff distance transforms (16,777,216 pixels: 4096 × 4096, about 150 MB of work arrays).
pub const MAX_HAUSDORFF_PIXELS: u64 = 1 << 24;
/// Largest image whose overlay the page view draws (one byte per pixel).
pub const MAX_OVERLAY_PIXELS: u64 = 1 << 26;

/// An image side: a number of pixels, or the solution's column that holds it per row.
#[derive(Clone, Debug, PartialEq)]
pub enum Side {
    Fixed(u32),
    Column(String),
}

impl Side {
    fn of(option: &str, text: &str) -> Result<Side, UsageError> {
        match (text.trim(), cells::side(text)) {
            ("", _) => Err(UsageError(format!(
                "option `{option}`: the mask metrics need the image's {option} in pixels, or the solution's column that holds it"
            ))),
            (_, Some(v)) => Ok(Side::Fixed(v)),
            (t, None) => Ok(Side::Column(t.to_string())),
        }
    }
}

/// The masks of the solution and the submission, matched by image.
pub struct MaskSet {
    /// The solution's distinct ids, in order.
    pub ids: Vec<String>,
    /// Each image's height and width.
    pub sizes: Vec<(u32, u32)>,
    /// Each image's objects (one per row) on each side.
    pub gt: Vec<Vec<Runs>>,
    pub pred: Vec<Vec<Runs>>,
}

/// Reads and matches both files; `None` when either cannot be read (the errors pushed).
pub fn read(
    gt_e: &Entry,
    pred_e: &Entry,
    opts: &KaggleOptions,
    delim: u8,
    diags: &mut Diags,
) -> Result<Option<MaskSet>, UsageError> {
    let sides = [
        Side::of("height", &opts.height)?,
        Side::of("width", &opts.width)?,
    ];
    let extra: Vec<&str> = sides
        .iter()
        .filter_map(|s| match s {
            Side::Column(c) => Some(c.as_str()),
            Side::Fixed(_) => None,
        })
        .collect();
    let columns = Columns {
        id: &opts.id_column,
        value: &opts.column,
        value_option: "column",
        extra: &extra,
    };
    let file = gt_e.path.clone();
    let mut parse_gt = |r: &Row, at: &At, d: &mut Diags| {
        let mut k = 0;
        let mut size = [0u32; 2];
        for (i, s) in sides.iter().enumerate() {
            size[i] = match s {
                Side::Fixed(v) => *v,
                Side::Column(_) => {
                    let col = at.extra[k];
                    k += 1;
                    let Some(v) = cells::side(r.get(col)) else {
                        d.push(inputs::cell_error(
                            &file,
                            r,
                            at,
                            col,
                            "bad_size",
                            "not an image side in pixels (a whole number from 1 to 65535)"
                                .to_string(),
                        ));
                        return None;
                    };
                    v
                }
            };
        }
        let runs = cell(&file, r, at, size[0] as u64 * size[1] as u64, d)?;
        Some((runs, (size[0], size[1])))
    };
    let Some(gt) = inputs::read(gt_e, delim, &columns, diags, &mut parse_gt) else {
        return Ok(None);
    };
    let mut size_of: FxHashMap<&str, (u32, u32)> = FxHashMap::default();
    for (r, v) in gt.values.iter().enumerate() {
        if let Some((_, s)) = v {
            size_of.entry(gt.ids.get(r)).or_insert(*s);
        }
    }
    let sub_columns = Columns {
        id: &opts.id_column,
        value: if opts.column.is_empty() {
            &gt.column
        } else {
            &opts.column
        },
        value_option: "column",
        extra: &[],
    };
    let sub_file = pred_e.path.clone();
    let mut parse_sub = |r: &Row, at: &At, d: &mut Diags| {
        let pixels = size_of
            .get(r.get(at.id))
            .map_or(u64::MAX, |s| s.0 as u64 * s.1 as u64);
        cell(&sub_file, r, at, pixels, d)
    };
    let Some(sub) = inputs::read(pred_e, delim, &sub_columns, diags, &mut parse_sub) else {
        return Ok(None);
    };
    let matched = inputs::matched_as(&gt, &sub, true, opts.read_as.mode(), diags);
    let set = assemble(&gt, &sub, &matched);
    limits(&set, &gt, &matched, opts.metric == "hausdorff", diags);
    Ok(Some(set))
}

/// The located errors of images past the work limits: too many object pairs, too large for the Hausdorff
/// distance.
fn limits(set: &MaskSet, gt: &GtTable, m: &Matched, hausdorff: bool, diags: &mut Diags) {
    for g in 0..set.ids.len() {
        let at = |d: crate::diag::Diagnostic| d.file(&gt.file).line(gt.lines[m.first[g] as usize]);
        let pairs = set.gt[g].len().saturating_mul(set.pred[g].len());
        if pairs > MAX_PAIRS {
            diags.push(at(crate::diag::Diagnostic::error(
                "kaggle.too_many_objects",
                format!("image `{}` has {} × {} objects on the two sides: more than {MAX_PAIRS} pairs to compare", set.ids[g], set.gt[g].len(), set.pred[g].len()),
            )));
        }
        let (h, w) = set.sizes[g];
        if hausdorff && h as u64 * w as u64 > MAX_HAUSDORFF_PIXELS {
            diags.push(at(crate::diag::Diagnostic::error(
                "kaggle.image_too_large",
                format!("image `{}` has {h} × {w} pixels: the Hausdorff distance is computed for images of at most {MAX_HAUSDORFF_PIXELS} pixels", set.ids[g]),
            )));
        }
    }
}

/// The mask of one cell, or a located error.
fn cell(file: &str, r: &Row, at: &At, pixels: u64, d: &mut Diags) -> Option<Runs> {
    let col = at.value;
    match rle::parse(r.get(col), pixels) {
        Ok(runs) => Some(runs),
        Err(e) => {
            d.push(
                inputs::cell_error(file, r, at, col, e.what, e.message).hint(
                    "Write the mask as Kaggle's run-length encoding: pairs `start length`, pixels numbered from 1 \
                     top to bottom then left to right, runs sorted; an empty cell for an empty mask.",
                ),
            );
            None
        }
    }
}

type GtTable = crate::formats::kaggle_csv::Table<(Runs, (u32, u32))>;
type SubTable = crate::formats::kaggle_csv::Table<Runs>;

fn assemble(gt: &GtTable, sub: &SubTable, m: &Matched) -> MaskSet {
    let n = m.len();
    let gt_rows = Matched::members(&m.gt_group, n);
    let sub_rows = Matched::members(&m.sub_group, n);
    let mut set = MaskSet {
        ids: m
            .first
            .iter()
            .map(|&r| gt.ids.get(r as usize).to_string())
            .collect(),
        sizes: Vec::with_capacity(n),
        gt: Vec::with_capacity(n),
        pred: Vec::with_capacity(n),
    };
    for g in 0..n {
        let size = gt.values[m.first[g] as usize]
            .as_ref()
            .map_or((0, 0), |v| v.1);
        set.sizes.push(size);
        set.gt.push(objects(
            gt_rows[g]
                .iter()
                .map(|&r| gt.values[r as usize].as_ref().map(|v| &v.0)),
        ));
        set.pred.push(objects(
            sub_rows[g].iter().map(|&r| sub.values[r as usize].as_ref()),
        ));
    }
    set
}

/// The non-empty masks among `rows` (a row that could not be read is left out).
fn objects<'a>(rows: impl Iterator<Item = Option<&'a Runs>>) -> Vec<Runs> {
    rows.flatten().filter(|m| !m.is_empty()).cloned().collect()
}

/// The per-image values and the set's metrics.
pub struct Scored {
    pub dice: Vec<Option<f64>>,
    pub precision: Vec<Option<f64>>,
    pub hausdorff: Vec<Option<f64>>,
    pub gt_pixels: Vec<u64>,
    pub pred_pixels: Vec<u64>,
    pub scores: Vec<(&'static str, Option<f64>)>,
}

/// Scores a read set. `hausdorff`: compute the Hausdorff distances (a distance transform per image).
pub fn score(set: &MaskSet, empty: Empty, beta: f64, with_hausdorff: bool) -> Scored {
    let thresholds = m::dsb_thresholds();
    let n = set.ids.len();
    let mut s = Scored {
        dice: Vec::with_capacity(n),
        precision: Vec::with_capacity(n),
        hausdorff: Vec::with_capacity(n),
        gt_pixels: Vec::with_capacity(n),
        pred_pixels: Vec::with_capacity(n),
        scores: Vec::new(),
    };
    let mut counts = PixelCounts::default();
    for g in 0..n {
        let (a, b) = (Runs::union(&set.gt[g]), Runs::union(&set.pred[g]));
        counts.add(PixelCounts::of(&a, &b));
        s.dice.push(m::dice(&a, &b, empty));
        s.precision.push(
            m::dsb_precision(&set.gt[g], &set.pred[g], &thresholds, empty)
                .filter(|v| v.is_finite()),
        );
        s.hausdorff.push(
            with_hausdorff
                .then(|| hausdorff(&a, &b, set.sizes[g].0))
                .flatten(),
        );
        s.gt_pixels.push(a.area());
        s.pred_pixels.push(b.area());
    }
    let mean = |v: &[Option<f64>]| numpy_mean(&v.iter().flatten().copied().collect::<Vec<_>>());
    s.scores = vec![
        ("dice", counts.dice()),
        ("mean_dice", mean(&s.dice)),
        ("iou_precision", mean(&s.precision)),
        ("fbeta", counts.fbeta(beta)),
        (
            "hausdorff",
            if with_hausdorff {
                mean(&s.hausdorff)
            } else {
                None
            },
        ),
    ];
    s
}

/// The image `id`'s overlay, row-major, one byte per pixel: 0 neither, 1 both, 2 the submission alone, 3 the
/// solution alone; with its size and Dice.
pub fn overlay(set: &MaskSet, id: &str) -> Option<(serde_json::Value, Vec<u8>)> {
    let g = set.ids.iter().position(|i| i == id)?;
    let (h, w) = set.sizes[g];
    if h as u64 * w as u64 > MAX_OVERLAY_PIXELS {
        return None;
    }
    let (a, b) = (Runs::union(&set.gt[g]), Runs::union(&set.pred[g]));
    let both = intersect(&a, &b);
    let mut px = vec![0u8; h as usize * w as usize];
    for (code, m) in [
        (2u8, subtract(&b, &both)),
        (3, subtract(&a, &both)),
        (1, both),
    ] {
        for (r, c) in m.pixels(h) {
            if let Some(p) = px.get_mut(r as usize * w as usize + c as usize) {
                *p = code;
            }
        }
    }
    let json = serde_json::json!({
        "id": id,
        "height": h,
        "width": w,
        "gt_pixels": a.area(),
        "pred_pixels": b.area(),
        "dice": m::dice(&a, &b, Empty::Skip),
    });
    Some((json, px))
}

/// The images, worst Dice first (two empty masks last), at most `max`: `[id, dice]`.
pub fn worst_first(set: &MaskSet, max: usize) -> Vec<(String, Option<f64>)> {
    let mut all: Vec<(String, Option<f64>)> = (0..set.ids.len())
        .map(|g| {
            let (a, b) = (Runs::union(&set.gt[g]), Runs::union(&set.pred[g]));
            (set.ids[g].clone(), m::dice(&a, &b, Empty::Skip))
        })
        .collect();
    all.sort_by(|x, y| {
        let key = |v: Option<f64>| v.unwrap_or(2.0);
        key(x.1).total_cmp(&key(y.1))
    });
    all.truncate(max);
    all
}

fn intersect(a: &Runs, b: &Runs) -> Runs {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.0.len() && j < b.0.len() {
        let (s1, e1) = (a.0[i].0, a.0[i].0 + a.0[i].1);
        let (s2, e2) = (b.0[j].0, b.0[j].0 + b.0[j].1);
        let (s, e) = (s1.max(s2), e1.min(e2));
        if e > s {
            out.push((s, e - s));
        }
        if e1 <= e2 {
            i += 1;
        } else {
            j += 1;
        }
    }
    Runs(out)
}

/// `a` minus `sub`, where `sub` ⊆ `a`.
fn subtract(a: &Runs, sub: &Runs) -> Runs {
    let mut out = Vec::new();
    let mut j = 0;
    for &(s, l) in &a.0 {
        let (mut cur, e) = (s, s + l);
        while j < sub.0.len() && sub.0[j].0 < e {
            let (ss, se) = (sub.0[j].0, sub.0[j].0 + sub.0[j].1);
            if ss > cur {
                out.push((cur, ss - cur));
            }
            cur = cur.max(se);
            j += 1;
        }
        if cur < e {
            out.push((cur, e - cur));
        }
    }
    Runs(out)
}
