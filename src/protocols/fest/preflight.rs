//! The pre-flight check of `fest` (docs/specs/preflight.md): the manifest holds the GT layout (dataset or folders),
//! each manuscript's GT entries (their paths relative to the dropped roots) and each mask's width × height,
//! never a pixel. `check` writes a stand-in GT from it, every mask all background at its size under its own
//! path, and runs fest scoring itself on it with the submission ([`score_with_stand_ins`]): the same layout,
//! pairing, PNG reader, size check and prediction warnings, so the diagnostics carry scoring's codes and
//! locations (a missing prediction is located at the GT entry's path, as scoring locates it).
//!
//! Only the ground truth can reveal (label-dependent, not seen by `check`): an all-background prediction of an
//! image whose GT has lines (official `fest.official.ra_division_by_zero`), a binary prediction against
//! several GT lines (`fest.pred.binary_mask`), and the GT's own warnings (`fest.gt.*`).

use super::layout;
use super::FestOptions;
use crate::diag::Diagnostic;
use crate::formats::png_mask::{blank_gray, decode_gray};
use crate::input::{Entry, FileSet, Role, RoleFrom};
use crate::protocols::preflight::{
    bad_manifest, counted, item, score_with_stand_ins, stand_in_fits, thousands, Found,
};
use crate::protocols::{AnyProtocol, Progress, Run, UsageError};
use crate::report::{Mode, Report};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Diagnostics whose outcome depends on the GT's pixels, which the stand-in (all background) does not have.
const LABEL_DEPENDENT: &[&str] = &[
    "fest.gt.empty",
    "fest.gt.dark_foreground",
    "fest.gt.sixteen_bit_low",
    "fest.metric.undefined",
    "fest.pred.binary_mask",
    "fest.official.ra_division_by_zero",
];

fn max_pixels(run: &mut Run, opts: &FestOptions) -> Option<u64> {
    match super::settings(opts, run.opts.budget(), Mode::Official) {
        Ok(st) => Some(st.decode.max_pixels),
        Err(UsageError(e)) => {
            run.diags
                .push(Diagnostic::error("fest.preflight.options", e).hint("Fix the option."));
            None
        }
    }
}

/// `expects`: `{"layout": "dataset"|"folders", "manuscripts": [{"name": "Latin2", "entries": [{"path": …,
/// "width": 40, "height": 20}, …]}]}`; an entry without a size is a GT entry that is not a PNG but has the
/// stem of one (`001.jpg` next to `001.png`: the official script scores 001 once per entry).
pub fn manifest(run: &mut Run, opts: &FestOptions) -> Value {
    let Some(max) = max_pixels(run, opts) else {
        return Value::Null;
    };
    let mut diags: Vec<Diagnostic> = Vec::new();
    let gt_only = FileSet::of(run.files.with_role(Role::Gt).cloned().collect(), Vec::new());
    let (gt_ms, dataset) = layout::gt_side(&gt_only, &opts.split, &mut diags);
    let single = gt_ms.len() == 1;
    let mut manuscripts = Vec::new();
    for (ms, entries) in &gt_ms {
        // Scoring's pairing with no prediction: non-PNG entries (error) and repeated stems (warning).
        let jobs = layout::pair(
            ms,
            entries,
            &[],
            Mode::Official,
            !single || dataset,
            false,
            &mut diags,
        );
        let mut sizes: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
        for job in jobs.iter().filter(|j| !j.unreadable) {
            if sizes.contains_key(job.gt.path.as_str()) {
                continue;
            }
            match super::image::read(job.gt).and_then(|b| decode_gray(&job.gt.path, &b, max)) {
                Ok(m) => {
                    sizes.insert(&job.gt.path, (m.width, m.height));
                }
                Err(d) => diags.push(*d),
            }
        }
        let mut paths: Vec<&str> = entries.iter().map(|e| e.path.as_str()).collect();
        paths.sort_unstable();
        let listed: Vec<Value> = paths
            .iter()
            .map(|p| match sizes.get(p) {
                Some((w, h)) => json!({"path": p, "width": w, "height": h}),
                None => json!({ "path": p }),
            })
            .collect();
        manuscripts.push(json!({"name": ms, "entries": listed}));
    }
    run.diags.extend(diags);
    json!({"layout": if dataset { "dataset" } else { "folders" }, "manuscripts": manuscripts})
}

/// Bytes a pixel of a stand-in costs while it is scored (fest's rule: the GT mask 1, the prediction's
/// colours 4 and labels 4, slack 4).
const STAND_IN_BYTES_PER_PIXEL: u64 = 13;

/// A GT entry of the manifest: its path and, for a PNG, its size.
type Listed = (String, Option<(u32, u32)>);

fn parse(expects: &Value) -> Option<Vec<(String, Vec<Listed>)>> {
    let mut out = Vec::new();
    for m in expects.get("manuscripts")?.as_array()? {
        let name = m.get("name")?.as_str()?.to_string();
        let mut entries = Vec::new();
        for e in m.get("entries")?.as_array()? {
            let path = e.get("path")?.as_str()?.to_string();
            let size = match (e.get("width"), e.get("height")) {
                (None, None) => None,
                (Some(w), Some(h)) => Some((
                    u32::try_from(w.as_u64()?).ok()?,
                    u32::try_from(h.as_u64()?).ok()?,
                )),
                _ => return None,
            };
            entries.push((path, size));
        }
        out.push((name, entries));
    }
    Some(out)
}

fn score(run: &mut Run, progress: &mut dyn Progress) -> Result<Report, UsageError> {
    AnyProtocol::score(&super::Fest, run, progress)
}

/// Checks the submission in `run.files` against `expects`; returns what was found.
pub fn check(run: &mut Run, opts: &FestOptions, expects: &Value) -> Found {
    let Some(mss) = parse(expects) else {
        run.diags
            .push(bad_manifest("expected manuscripts with their entries"));
        return String::from("no usable manifest").into();
    };
    let Some(max) = max_pixels(run, opts) else {
        return String::from("no usable manifest").into();
    };
    // Only an entry whose stem a submitted PNG has is built at its size (or the only one, with one file):
    // without a prediction, scoring reports it missing at the GT entry's path and never compares sizes, so a
    // 1×1 stand-in gives the same diagnostics at no cost.
    let files = run.files;
    let pngs: Vec<&str> = files
        .with_role(Role::Pred)
        .map(|e| e.name())
        .filter(|n| n.to_ascii_lowercase().ends_with(".png"))
        .collect();
    let predicted: std::collections::HashSet<&str> = pngs.iter().map(|n| layout::stem(n)).collect();
    let sized = mss
        .iter()
        .flat_map(|m| &m.1)
        .filter(|e| e.1.is_some())
        .count();
    let single = sized == 1 && files.with_role(Role::Pred).count() == 1;
    let budget = run.opts.budget();
    let mut stand_ins = Vec::new();
    for (_, entries) in &mss {
        for (path, size) in entries {
            if let Some((w, h)) = *size {
                if let Err(d) = stand_in_fits(path, w, h, STAND_IN_BYTES_PER_PIXEL, budget) {
                    run.diags.push(*d);
                    return String::from("no usable manifest").into();
                }
            }
            let name = path.rsplit(['/', '!']).next().unwrap_or(path);
            let full = single || predicted.contains(layout::stem(name));
            let bytes = match *size {
                Some((w, h)) if w > 0 && h > 0 && w as u64 * h as u64 <= max && full => {
                    blank_gray(w, h, 0)
                }
                Some((w, h)) if w > 0 && h > 0 && w as u64 * h as u64 <= max => blank_gray(1, 1, 0),
                Some(_) => {
                    run.diags.push(bad_manifest(&format!(
                        "the size of `{path}` is out of range"
                    )));
                    return String::from("no usable manifest").into();
                }
                None => b"(stand-in of a GT entry that is not a PNG)".to_vec(),
            };
            stand_ins.push(Entry::plain(
                path.clone(),
                Some(Role::Gt),
                Some(RoleFrom::Explicit),
                bytes,
            ));
        }
    }
    let keep = |d: &Diagnostic| !LABEL_DEPENDENT.contains(&d.code.as_str());
    let Some(report) = score_with_stand_ins(run, stand_ins, score, &keep) else {
        return String::from("no usable manifest").into();
    };
    let (mut images, mut found) = (0u64, 0u64);
    let mut items = Vec::new();
    for g in &report.groups {
        let of: Vec<_> = report
            .items
            .iter()
            .filter(|i| i.group.as_deref() == Some(g.id.as_str()))
            .collect();
        let n = of.len() as u64;
        let k = of
            .iter()
            .filter(|i| i.detail.get("pred_file").is_some_and(|v| !v.is_null()))
            .count() as u64;
        images += n;
        found += k;
        items.push(item(&g.id, json!({ "expected": n, "found": k })));
    }
    let imgs = if found == images {
        counted(images, "image", "images")
    } else {
        format!(
            "predictions for {} of {}",
            thousands(found),
            counted(images, "image", "images")
        )
    };
    let summary = if report.groups.len() > 1 {
        format!(
            "{}, {imgs}",
            counted(report.groups.len() as u64, "manuscript", "manuscripts")
        )
    } else {
        imgs
    };
    Found { summary, items }
}
