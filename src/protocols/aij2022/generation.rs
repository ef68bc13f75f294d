//! ImageGeneration (FID + CLIP) and the captioning CLIP part, from precomputed inputs
//! (docs/specs/aij2022.md 2.3, 3.5, 3.6; `generation/evaluate_fid_clip.py`, `generation/metrics/ruclip.py`,
//! `captioning/metrics/ruclip_score.py`).

use super::pyjson::{index, key};
use super::{Ctx, TaskResult};
use crate::diag::Diagnostic;
use crate::formats::aij_json::{Doc, Val};
use crate::formats::npy::Array;
use crate::metrics::aij::fid::{self, Stats};
use crate::metrics::mean::numpy_mean;
use crate::report::{Item, Mode, Scores};
use serde_json::json;
use std::collections::HashMap;

/// One FID side as read.
pub enum Side {
    Acts {
        file: String,
        arr: Array,
    },
    Stats {
        file: String,
        mu: Array,
        sigma: Array,
    },
}

impl Side {
    pub fn file(&self) -> &str {
        match self {
            Side::Acts { file, .. } | Side::Stats { file, .. } => file,
        }
    }
    fn dim(&self) -> usize {
        match self {
            Side::Acts { arr, .. } => arr.cols(),
            Side::Stats { mu, .. } => mu.data.len(),
        }
    }
    fn stats(&self, progress: &mut dyn FnMut(f64)) -> Result<Stats, Box<Diagnostic>> {
        match self {
            Side::Acts { arr, file } => {
                let (n, d) = (arr.rows(), arr.cols());
                if arr.shape.len() != 2 || n < 2 {
                    return Err(Box::new(
                        Diagnostic::error(
                            "aij.gen.activations_shape",
                            format!(
                                "activations must be an N×d matrix with N ≥ 2, found shape {:?}",
                                arr.shape
                            ),
                        )
                        .file(file)
                        .official("crashes or gives nan (np.cov of fewer than 2 samples)"),
                    ));
                }
                Ok(fid::stats_from_rows(&arr.data, n, d, progress))
            }
            Side::Stats { mu, sigma, file } => {
                let d = mu.data.len();
                if mu.shape.len() != 1 || sigma.shape != [d, d] {
                    return Err(Box::new(
                        Diagnostic::error(
                            "aij.gen.npz_shape",
                            format!(
                                "mu must be (d,) and sigma (d, d); found {:?} and {:?}",
                                mu.shape, sigma.shape
                            ),
                        )
                        .file(file)
                        .official("crashes (shape assertion)"),
                    ));
                }
                Ok(Stats {
                    mu: mu.data.clone(),
                    sigma: sigma.data.clone(),
                    n: None,
                    centred: None,
                })
            }
        }
    }
}

/// Bytes FID holds for `n` samples of dimension `d` (README, "Limits and the memory budget"): up to eight
/// d×d binary64 matrices at once (both covariances, the Cholesky factor and faer's copies and products of
/// `fid::frechet`, the eigen-solver's workspace), plus two N×d copies of the activations (binary64 and
/// centred). Checked before anything is allocated, so faer never sees a size it cannot allocate.
pub fn fid_memory(n: usize, d: usize) -> u64 {
    let (n, d) = (n as u128, d as u128);
    // u128 holds 64·d² only for d < 2^61: a shape read from a hostile header can be larger (fuzz crash
    // `aij2022_npy` crash-d5a2c647…), so every step saturates.
    let need = d
        .checked_mul(d)
        .and_then(|dd| dd.checked_mul(64))
        .and_then(|a| n.checked_mul(d)?.checked_mul(16)?.checked_add(a));
    need.map_or(u64::MAX, |x| u64::try_from(x).unwrap_or(u64::MAX))
}

/// The largest d whose FID fits the budget (with few samples).
pub fn max_fid_dim(budget: crate::budget::Budget) -> u64 {
    ((budget.max_memory / 64) as f64).sqrt() as u64
}

/// The FID part: value and its terms, or diagnostics.
pub fn fid_part(
    a: &Side,
    b: &Side,
    out: &mut TaskResult,
    progress: &mut dyn FnMut(f64, &str),
) -> Option<f64> {
    if a.dim() != b.dim() {
        out.diags.push(
            Diagnostic::error(
                "aij.gen.dim_mismatch",
                format!(
                    "the two FID sides have different dimensions: {} vs {}",
                    a.dim(),
                    b.dim()
                ),
            )
            .file(b.file())
            .hint("Both sides must come from the same feature extractor (Inception pool3: 2048).")
            .official("crashes (assertion: different lengths)"),
        );
        out.official_fails = true;
        return None;
    }
    let sa = match a.stats(&mut |f| progress(0.1 + 0.3 * f, "FID: reference covariance")) {
        Ok(s) => s,
        Err(d) => {
            out.diags.push(*d);
            return None;
        }
    };
    let sb = match b.stats(&mut |f| progress(0.4 + 0.3 * f, "FID: generated covariance")) {
        Ok(s) => s,
        Err(d) => {
            out.diags.push(*d);
            return None;
        }
    };
    let d = sa.dim();
    for (s, side) in [(&sa, a), (&sb, b)] {
        if let Some(n) = s.n {
            if n <= d {
                out.diags.push(
                    Diagnostic::warning("aij.gen.singular_cov", format!("{n} samples for {d} dimensions: the covariance is singular (rank ≤ {})", n - 1))
                        .file(side.file())
                        .hint("FID needs more samples than dimensions to be meaningful (2048-d Inception features: more than 2048 images).")
                        .official("computes a large FID, often ≥ 200 (the FID term is then 0)"),
                );
            }
        }
    }
    let r = fid::frechet(&sa, &sb, &mut |f| {
        progress(0.7 + 0.3 * f, "FID: matrix square root")
    });
    if r.negative_ratio > 1e-6 {
        out.diags.push(
            Diagnostic::warning("aij.gen.fid_negative_eigen", format!("Σ₁Σ₂ has a clearly negative eigenvalue ({:.3e} of the largest): the official scorer may fail on this input", -r.negative_ratio))
                .file(b.file())
                .official("may stop with an error: the matrix square root of these statistics has an imaginary part"),
        );
    }
    out.extra.insert(
        "fid".into(),
        json!({
            "fid": r.fid, "mean_term": r.mean_term, "trace_ref": r.trace1, "trace_gen": r.trace2,
            "tr_covmean": r.tr_covmean, "route": r.route, "d": d, "n_ref": sa.n, "n_gen": sb.n,
            "ref": a.file(), "gen": b.file(), "negative_ratio": r.negative_ratio,
        }),
    );
    r.fid.is_finite().then_some(r.fid)
}

/// Per-id CLIP scores from a JSON object or `id,score` CSV.
pub fn read_clip(file: &str, bytes: &[u8], diags: &mut Vec<Diagnostic>) -> HashMap<String, f64> {
    let mut m = HashMap::new();
    let text =
        String::from_utf8_lossy(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)).to_string();
    if file.to_ascii_lowercase().ends_with(".csv") {
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || (n == 0 && line.to_ascii_lowercase().starts_with("id,")) {
                continue;
            }
            match line
                .rsplit_once(',')
                .and_then(|(k, v)| v.trim().parse::<f64>().ok().map(|v| (k, v)))
            {
                Some((k, v)) if v.is_finite() => {
                    m.insert(k.trim().trim_matches('"').to_string(), v);
                }
                _ => diags.push(
                    Diagnostic::error("aij.clip.format", "expected id,score")
                        .file(file)
                        .at(n as u64 + 1, 1)
                        .found(crate::diag::excerpt(line)),
                ),
            }
        }
        return m;
    }
    match crate::formats::aij_json::parse(file, bytes) {
        Ok(doc) => {
            for (k, v) in &doc.entries {
                match v.as_f64() {
                    Some(x) => {
                        m.insert(k.clone(), x);
                    }
                    None => diags.push(doc.at(
                        k,
                        Diagnostic::error(
                            "aij.clip.format",
                            format!("the CLIP score of id {k} is not a number"),
                        ),
                    )),
                }
            }
        }
        Err(d) => diags.push(*d),
    }
    m
}

/// Generation CLIP per input id (official: `pred[id][1]` must be an image; text from the input).
pub fn generation_clip(
    input: &Doc,
    pred: &Doc,
    clip: &HashMap<String, f64>,
    ctx: &Ctx,
    out: &mut TaskResult,
) -> Option<f64> {
    let readme = ctx.readme;
    let mut vals = Vec::new();
    let mut missing = Vec::new();
    for (id, iv) in &input.entries {
        let mut detail = serde_json::Map::new();
        let image = generated_image(pred, id, ctx);
        let text = prompt_text(iv);
        detail.insert("image".into(), json!(image.as_ref().ok()));
        detail.insert("text".into(), json!(text.as_ref().ok()));
        let s = match (&image, &text) {
            (Ok(_), Ok(_)) => match clip.get(id) {
                Some(v) => Some(*v),
                None => {
                    missing.push(id.clone());
                    None
                }
            },
            (Err(e), _) | (_, Err(e)) => {
                detail.insert("clip_zero_because".into(), json!(e));
                if image.is_err() && !readme {
                    out.diags.push(pred.at(id, Diagnostic::warning("aij.gen.image_index", format!("CLIP scores 0 for this id: {e}")).hint("Put the generated image second, as the scoring code reads pred[id][1].").official("counts 0 (exception caught)")));
                }
                Some(0.0)
            }
        };
        if let Some(v) = s {
            vals.push(v);
        }
        out.items.push(Item {
            id: format!("generation/{id}"),
            group: Some("generation".into()),
            scores: Scores::new().with("clip", s),
            detail,
        });
    }
    if !missing.is_empty() {
        out.diags.push(missing_clip(&missing));
        return None;
    }
    numpy_mean(&vals)
}

/// The generated image of `id`: the README's first image element (counting when the code's `pred[id][1]`
/// would have given another), or the code's `pred[id][1]`, which must be an image element.
/// The error for ids the CLIP file has no score for (the first ten named).
fn missing_clip(missing: &[String]) -> Diagnostic {
    let named: Vec<&str> = missing.iter().take(10).map(String::as_str).collect();
    Diagnostic::error(
        "aij.clip.missing_id",
        format!(
            "no CLIP score for {} id(s): {}",
            missing.len(),
            named.join(", ")
        ),
    )
    .hint("The CLIP file needs one score per id.")
}

fn generated_image(pred: &Doc, id: &str, ctx: &Ctx) -> Result<String, String> {
    let pv = pred
        .get(id)
        .ok_or("KeyError: id missing from the predictions")?;
    if ctx.readme {
        let got = super::pyjson::first_of_type(pv, "image")
            .and_then(|(v, _)| v.as_str().map(String::from));
        // Would the code's `pred[id][1]` have given the same image? (A deviation is listed only when
        // it changed a number.)
        let code = index(pv, 1)
            .ok()
            .filter(|e| e.get("type").and_then(Val::as_str) == Some("image"));
        if code.and_then(|e| e.get("content")).and_then(Val::as_str) != got.as_deref() {
            ctx.extraction_changed.set(ctx.extraction_changed.get() + 1);
        }
        return got.ok_or_else(|| "no image element".to_string());
    }
    let el = index(pv, 1)?;
    if key(el, "type")?.as_str() != Some("image") {
        return Err("pred[id][1] is not an image (Image.open(None))".into());
    }
    key(el, "content")?
        .as_str()
        .map(String::from)
        .ok_or_else(|| "TypeError: content is not a string".into())
}

/// The prompt of an input: its second element's content, or with one element its content after the first
/// sentence.
fn prompt_text(iv: &Val) -> Result<String, String> {
    match iv.as_array().map(Vec::len) {
        Some(2) => index(iv, 1)
            .and_then(|e| key(e, "content"))
            .map(|c| c.as_str().unwrap_or("").to_string()),
        Some(1) => index(iv, 0).and_then(|e| key(e, "content")).and_then(|c| {
            c.as_str()
                .map(|s| s.split(". ").skip(1).collect::<Vec<_>>().join(". "))
                .ok_or_else(|| "content is not a string".into())
        }),
        _ => Err("NameError: the input has neither 1 nor 2 elements".into()),
    }
}

/// Captioning CLIP per prediction id (official: `pred[id][0]` must be text, `input[id][1]` an image).
pub fn captioning_clip(
    input: Option<&Doc>,
    pred: &Doc,
    clip: &HashMap<String, f64>,
    ctx: &Ctx,
    out: &mut TaskResult,
) -> Option<HashMap<String, f64>> {
    let mut per = HashMap::new();
    let mut missing = Vec::new();
    for (id, pv) in &pred.entries {
        let first_is_text = index(pv, 0)
            .ok()
            .and_then(|e| e.get("type"))
            .and_then(Val::as_str)
            == Some("text");
        let cap_ok = if ctx.readme {
            let ok = super::pyjson::first_of_type(pv, "text").is_some();
            if ok != first_is_text {
                ctx.extraction_changed.set(ctx.extraction_changed.get() + 1);
            }
            ok
        } else {
            first_is_text
        };
        let img_ok = input.is_none_or(|inp| {
            inp.get(id)
                .and_then(|v| index(v, 1).ok())
                .and_then(|e| e.get("type"))
                .and_then(Val::as_str)
                == Some("image")
        });
        let v = if !cap_ok || !img_ok {
            if !cap_ok && ctx.mode == Mode::Official {
                out.diags.push(pred.at(id, Diagnostic::warning("aij.cap.caption_not_first", "the caption is not the first element: the official CLIP part scores 0 for this id").official("counts 0 (exception caught)")));
            }
            0.0
        } else {
            match clip.get(id) {
                Some(v) => *v,
                None => {
                    missing.push(id.clone());
                    continue;
                }
            }
        };
        per.insert(id.clone(), v);
    }
    if !missing.is_empty() {
        out.diags.push(missing_clip(&missing));
        return None;
    }
    Some(per)
}
