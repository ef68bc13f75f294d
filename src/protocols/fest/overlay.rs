//! The mask overlay of spec 8 for one image: an RGBA buffer (TP green, FP magenta, FN blue, lines the mode
//! does not count hatched grey, background black) plus the per-pixel GT and prediction labels, so the page can
//! draw it into a canvas and tell which line was clicked.

use super::image::{self, Scored};
use super::{layout, settings, FestOptions, OPTIONS};
use crate::diag::Diagnostic;
use crate::input::FileSet;
use crate::metrics::fest::Class;
use crate::protocols::options::OptionSet;
use crate::protocols::views::{hatch, Array, Extras, View, ViewCall, ViewOut, FN, FP, TP};
use crate::protocols::{Options, Request};
use serde_json::{json, Value};

pub use crate::protocols::views::Overlay;

/// The fest view (`www/views/fest.js`) and its requests: an image's overlay (`{"image": id}`, the
/// object of [`ViewOut`]'s `From<Overlay>`), and the page image dropped for it (`{path, bytes}` or null).
pub static EXTRAS: Extras = Extras {
    page_view: true,
    views: &[
        View {
            name: "overlay",
            run: overlay_view,
        },
        View {
            name: "page-image",
            run: page_image_view,
        },
    ],
    ..Extras::NONE
};

fn overlay_view(call: &mut ViewCall) -> Result<ViewOut, String> {
    overlay(call.files, call.req, call.text("image")?).map(ViewOut::from)
}

fn page_image_view(call: &mut ViewCall) -> Result<ViewOut, String> {
    let Some(e) = super::page_image::find(call.files, call.req, call.text("image")?) else {
        return Ok(Value::Null.into());
    };
    let bytes = e.read_all().map_err(|err| format!("{}: {err}", e.path))?;
    Ok(ViewOut {
        json: json!({"path": e.path}),
        arrays: vec![("bytes", Array::U8(bytes))],
    })
}

/// Colours every pixel of a scored image.
pub fn render(s: &Scored) -> Overlay {
    let (w, h) = (s.width as usize, s.height as usize);
    let mut gt_labels = vec![0u32; w * h];
    for r in &s.gt_runs {
        let base = r.y as usize * w;
        gt_labels[base + r.x0 as usize..base + r.x1 as usize].fill(r.label);
    }
    let m = &s.matched;
    let gt_counted: Vec<bool> = m.gt.iter().map(|g| g.class != Class::NotCounted).collect();
    let mut rgba = vec![0u8; w * h * 4];
    for (i, px) in rgba.chunks_exact_mut(4).enumerate() {
        let (g, p) = (gt_labels[i], s.pred_labels[i]);
        let hatch = hatch(i, w);
        let c = if g != 0 {
            let line = &m.gt[g as usize];
            if line.pred == Some(p) && p != 0 {
                TP
            } else if gt_counted[g as usize] {
                FN
            } else if p != 0 && m.pred_counted.get(p as usize) == Some(&true) {
                FP
            } else {
                hatch
            }
        } else if p != 0 {
            if m.pred_counted.get(p as usize) == Some(&true) {
                FP
            } else {
                hatch
            }
        } else {
            [0, 0, 0, 255]
        };
        px.copy_from_slice(&c);
    }
    let mut bbox = vec![[u32::MAX, u32::MAX, 0u32, 0u32]; m.gt.len()];
    for r in &s.gt_runs {
        if let Some(b) = bbox.get_mut(r.label as usize) {
            *b = [
                b[0].min(r.x0),
                b[1].min(r.y),
                b[2].max(r.x1 - 1),
                b[3].max(r.y),
            ];
        }
    }
    let gt_lines: Vec<Value> = m
        .gt
        .iter()
        .enumerate()
        .skip(1)
        .map(|(g, l)| {
            json!({"label": g, "pixels": s.gt_size[g], "bbox": bbox[g], "pred": l.pred,
                   "colour": l.pred.and_then(|p| s.colours.get(p as usize)).and_then(|c| c.first()).map(|c| image::hex(*c)),
                   "iou": l.iou, "precision": l.precision, "recall": l.recall, "class": l.class.as_str()})
        })
        .collect();
    let pred_lines: Vec<Value> = (1..s.pred_size.len())
        .map(|p| {
            json!({"label": p, "colour": s.colours[p].first().map(|c| image::hex(*c)), "pixels": s.pred_size[p],
                   "gt": m.pred_gt[p], "counted": m.pred_counted[p]})
        })
        .collect();
    let c = &m.counts;
    let meta = json!({"width": s.width, "height": s.height, "gt_lines": gt_lines, "pred_lines": pred_lines,
        "counts": {"n1": c.n1, "n2": c.n2, "m": c.m, "tp": c.tp, "fp": c.fp, "fn": c.fn_, "cl": c.cl, "ml": c.ml, "el": c.el}});
    Overlay {
        width: s.width,
        height: s.height,
        rgba,
        gt_labels,
        pred_labels: s.pred_labels.clone(),
        meta,
    }
}

/// Scores the image `image_id` (an item id of the report) of `files` and renders its overlay.
pub fn overlay(files: &FileSet, req: &Request, image_id: &str) -> Result<Overlay, String> {
    let resolved = Options::resolve(OPTIONS, req.mode, &req.set)?;
    let opts = FestOptions::read(&resolved);
    let st = settings(&opts, resolved.budget(), req.mode).map_err(|e| e.0)?;
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mss = layout::build(
        files,
        req.mode,
        &opts.split,
        &opts.manuscript_map,
        &mut diags,
    );
    let job = mss
        .iter()
        .flat_map(|m| m.jobs.iter())
        .find(|j| j.id == image_id && !j.unreadable)
        .ok_or_else(|| format!("no image `{image_id}` in the dropped files"))?;
    match image::score(job, &st.decode, &st.params, req.mode, &mut diags) {
        Some(s) => Ok(render(&s)),
        None => Err(diags.iter().find(|d| d.is_error()).map_or_else(
            || format!("image `{image_id}` cannot be scored"),
            |d| d.message.clone(),
        )),
    }
}
