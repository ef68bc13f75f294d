//! One image: both label maps decoded ([`crate::formats::label_map`]), `reduce_zero_label` on the GT, the
//! values checked against `num_classes` (first bad pixel located), the sizes compared, the pixels counted;
//! and the overlay of one image (fest's colours: correct green, wrong class magenta, missed blue, ignored
//! pixels hatched grey).

use super::pairing::Pair;
use super::Settings;
use crate::diag::{Diagnostic, Diags};
use crate::formats::label_map::{self, LabelMap};
use crate::formats::png_chunks;
use crate::input::Entry;
use crate::metrics::segmentation::{reduce_zero_label, Counts};
use crate::protocols::views::{hatch, Overlay, FN, FP, TP};
use serde_json::json;

pub(super) fn decode(e: &Entry, st: &Settings, diags: &mut Diags) -> Option<LabelMap> {
    let bytes = match e.read_all() {
        Ok(b) => b,
        Err(err) => {
            diags.push(Diagnostic::read_error(&e.path, err));
            return None;
        }
    };
    match label_map::decode(&e.path, &bytes, st.max_pixels, st.palette.as_ref()) {
        Ok(m) => {
            diags.extend(png_chunks::palette_warnings(
                "segmentation",
                &e.path,
                &bytes,
                &m.values,
                m.width,
            ));
            Some(m)
        }
        Err(d) => {
            diags.push(*d);
            None
        }
    }
}

/// The first pixel whose value is ≥ `num_classes` and not `ignore_index`, and how many there are.
pub(super) fn check_values(
    m: &LabelMap,
    st: &Settings,
    file: &str,
    gt: bool,
    diags: &mut Diags,
) -> bool {
    let c = st.classes;
    let bad = |v: &u16| *v as usize >= c && *v != st.ignore;
    let Some(first) = m.values.iter().position(bad) else {
        return true;
    };
    let count = m.values.iter().filter(|v| bad(v)).count();
    let v = m.values[first];
    let what = if gt { "GT" } else { "prediction" };
    let mut d = Diagnostic::error(
        if gt { "segmentation.gt_value" } else { "segmentation.pred_value" },
        format!("{what} class value {v} is not below num_classes = {c} ({count} pixels)"),
    )
    .file(file)
    .expected(format!("a class 0–{} or ignore_index {}", c.saturating_sub(1), st.ignore))
    .found(v.to_string())
    .hint(if gt && st.reduce {
        "With reduce_zero_label, GT value v is class v − 1: check num_classes and the label encoding."
    } else {
        "Check num_classes (or class_names) and that the label maps hold class indices, not colours."
    })
    .official("counts it in no class (torch.histc drops values outside 0..num_classes − 1)");
    d.pixel = Some([
        (first % m.width.max(1) as usize) as u64,
        (first / m.width.max(1) as usize) as u64,
    ]);
    diags.push(d);
    false
}

/// A decoded, checked pair: GT (reduced) and prediction values of equal size.
pub struct Loaded {
    pub width: u32,
    pub height: u32,
    pub gt: Vec<u16>,
    /// `None`: missing prediction scored as all wrong.
    pub pred: Option<Vec<u16>>,
}

/// Decodes and checks one pair; `None` when an error blocks it (pushed to `diags`).
pub fn load(p: &Pair, st: &Settings, diags: &mut Diags) -> Option<Loaded> {
    let g = decode(p.gt, st, diags);
    let q = match p.pred {
        Some(e) => Some(decode(e, st, diags)?),
        None => None,
    };
    let mut g = g?;
    if st.reduce {
        for v in &mut g.values {
            *v = reduce_zero_label(*v);
        }
    }
    if let (Some(q), Some(e)) = (&q, p.pred) {
        if (q.width, q.height) != (g.width, g.height) {
            diags.push(
                Diagnostic::error(
                    "segmentation.size_mismatch",
                    format!(
                        "prediction is {}×{}, GT is {}×{}",
                        q.width, q.height, g.width, g.height
                    ),
                )
                .file(&e.path)
                .expected(format!("{}×{} (as {})", g.width, g.height, p.gt.path))
                .found(format!("{}×{}", q.width, q.height))
                .hint(
                    "Predict at the GT's resolution (resize with nearest-neighbour before saving).",
                )
                .official("crashes (shape mismatch in intersect_and_union)"),
            );
            return None;
        }
    }
    let ok_g = check_values(&g, st, &p.gt.path, true, diags);
    let ok_q = match (&q, p.pred) {
        (Some(q), Some(e)) => check_values(q, st, &e.path, false, diags),
        _ => true,
    };
    (ok_g && ok_q).then(|| Loaded {
        width: g.width,
        height: g.height,
        gt: g.values,
        pred: q.map(|q| q.values),
    })
}

/// `intersect_and_union` of one loaded pair.
pub fn count(l: &Loaded, st: &Settings) -> Counts {
    let mut c = Counts::new(st.classes);
    match &l.pred {
        Some(p) => c.add_image(p, &l.gt, st.ignore),
        None => {
            let none = vec![u16::MAX; l.gt.len()];
            c.add_image(&none, &l.gt, st.ignore);
        }
    }
    c
}

/// The overlay of one loaded pair: correct (GT = prediction) green, wrong class magenta, missed (no valid
/// prediction) blue, ignored GT hatched.
pub fn render(l: &Loaded, st: &Settings) -> Overlay {
    let (w, n) = (l.width as usize, l.gt.len());
    let none = vec![u16::MAX; n];
    let pred = l.pred.as_deref().unwrap_or(&none);
    let mut rgba = vec![0u8; n * 4];
    let (mut correct, mut wrong, mut missed, mut ignored) = (0u64, 0u64, 0u64, 0u64);
    for (i, px) in rgba.chunks_exact_mut(4).enumerate() {
        let (g, p) = (l.gt[i], pred[i]);
        let c = if g == st.ignore || g as usize >= st.classes {
            ignored += 1;
            hatch(i, w)
        } else if p == g {
            correct += 1;
            TP
        } else if (p as usize) < st.classes {
            wrong += 1;
            FP
        } else {
            missed += 1;
            FN
        };
        px.copy_from_slice(&c);
    }
    let meta = json!({"width": l.width, "height": l.height, "classes": st.names, "ignore_index": st.ignore,
        "counts": {"correct": correct, "wrong": wrong, "missed": missed, "ignored": ignored}});
    Overlay {
        width: l.width,
        height: l.height,
        rgba,
        gt_labels: l.gt.iter().map(|&v| v as u32).collect(),
        pred_labels: pred.iter().map(|&v| v as u32).collect(),
        meta,
    }
}
