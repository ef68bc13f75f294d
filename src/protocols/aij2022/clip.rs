//! CLIP from embedding matrices (docs/specs/aij2022.md 2.3 b): an image and a text `.npy` matrix (N×d each, e.g.
//! N×768 for ruCLIP-L), loose or inside a `.npz`, plus a JSON array of the N ids, row i belonging to id i.
//! Each id's score is `metrics::aij::clip::cosine` of its two rows; the scores then take the same path as
//! per-id scores from `clip_scores.json` (with the official index quirks of generation and captioning).
//!
//! Recognised names (case-insensitive): a `.npy` whose name contains `clip` and `image`/`img` or
//! `text`/`txt` (`clip_image.npy`, `image_clip.npy`, …); a `.npz` whose name contains `clip` with members
//! named by the same words (`image.npy`, `text.npy`); the ids as `clip_ids.json` (any JSON name containing
//! `clip` and `ids`).

use crate::diag::Diagnostic;
use crate::formats::npy::{self, Array};
use crate::metrics::aij::clip::cosine;
use std::collections::HashMap;

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Kind {
    Image,
    Text,
}

/// The embedding kind a file or `.npz` member name stands for (`None`: not an embedding name).
pub fn kind(name: &str) -> Option<Kind> {
    let l = name.to_ascii_lowercase();
    let stem = l.strip_suffix(".npy").unwrap_or(&l);
    let img = stem.contains("image") || stem.contains("img");
    let txt = stem.contains("text") || stem.contains("txt");
    match (img, txt) {
        (true, false) => Some(Kind::Image),
        (false, true) => Some(Kind::Text),
        _ => None,
    }
}

/// True for a JSON file name holding the ids of the embedding rows.
pub fn is_ids_name(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.ends_with(".json") && l.contains("clip") && l.contains("ids")
}

#[derive(Default)]
pub struct Embeddings {
    pub image: Option<(String, Array)>,
    pub text: Option<(String, Array)>,
    pub ids: Option<(String, Vec<u8>)>,
}

impl Embeddings {
    pub fn is_empty(&self) -> bool {
        self.image.is_none() && self.text.is_none() && self.ids.is_none()
    }

    /// Adds one embedding matrix read from `file` (a path, or `archive.npz!member.npy`).
    pub fn add(&mut self, kind: Kind, file: &str, bytes: &[u8], diags: &mut Vec<Diagnostic>) {
        let arr = match npy::parse(file, bytes) {
            Ok(a) => a,
            Err(d) => return diags.push(*d),
        };
        let slot = match kind {
            Kind::Image => &mut self.image,
            Kind::Text => &mut self.text,
        };
        if let Some((first, _)) = slot {
            diags.push(
                Diagnostic::warning(
                    "aij.clip.embeddings_extra",
                    format!("a second {kind:?} embedding matrix: {first} is used, this one is not"),
                )
                .file(file),
            );
            return;
        }
        *slot = Some((file.to_string(), arr));
    }

    /// The per-id scores, or `None` (with located errors) when the three parts do not fit together.
    pub fn scores(&self, diags: &mut Vec<Diagnostic>) -> Option<HashMap<String, f64>> {
        if self.is_empty() {
            return None;
        }
        let (Some((fi, img)), Some((ft, txt)), Some((fids, ids_bytes))) =
            (&self.image, &self.text, &self.ids)
        else {
            let have: Vec<&str> = [
                self.image.as_ref().map(|(f, _)| f.as_str()),
                self.text.as_ref().map(|(f, _)| f.as_str()),
                self.ids.as_ref().map(|(f, _)| f.as_str()),
            ]
            .into_iter()
            .flatten()
            .collect();
            diags.push(
                Diagnostic::error(
                    "aij.clip.embeddings_incomplete",
                    format!(
                        "CLIP embeddings need an image matrix, a text matrix and the ids; found only {}",
                        have.join(", ")
                    ),
                )
                .file(have.first().copied().unwrap_or(""))
                .expected("clip_image.npy (N×d), clip_text.npy (N×d), clip_ids.json ([N ids])")
                .hint("Or give per-id scores as clip_scores.json {\"id\": score} / clip_scores.csv."),
            );
            return None;
        };
        let ids = read_ids(fids, ids_bytes, diags)?;
        if !shapes_fit(
            (fi.as_str(), img),
            (ft.as_str(), txt),
            (fids.as_str(), ids.len()),
            diags,
        ) {
            return None;
        }
        let d = img.cols();
        let mut out = HashMap::new();
        let mut bad = Vec::new();
        for (i, id) in ids.iter().enumerate() {
            let row = |a: &Array| a.data.get(i * d..(i + 1) * d).map(<[f64]>::to_vec);
            match (row(img), row(txt)) {
                (Some(u), Some(v)) => match cosine(&u, &v) {
                    Some(s) => {
                        out.insert(id.clone(), s);
                    }
                    None => bad.push(format!("row {i} (id {id})")),
                },
                _ => bad.push(format!("row {i} (id {id})")),
            }
        }
        if !bad.is_empty() {
            let n = bad.len();
            bad.truncate(10);
            diags.push(
                Diagnostic::error(
                    "aij.clip.zero_norm",
                    format!(
                        "{n} embedding row(s) have a zero or non-finite norm, so no cosine: {}{}",
                        bad.join(", "),
                        if n > 10 { ", …" } else { "" }
                    ),
                )
                .file(fi)
                .hint("These ids get no CLIP score.")
                .official("nan (division by a zero norm)"),
            );
        }
        Some(out)
    }
}

/// Whether the image and text matrices are N×d with N the number of ids (of `fids`) and the same d; each
/// mismatch is an error.
fn shapes_fit(
    (fi, img): (&str, &Array),
    (ft, txt): (&str, &Array),
    (fids, n_ids): (&str, usize),
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let mut ok = true;
    for (f, a) in [(fi, img), (ft, txt)] {
        if a.shape.len() != 2 {
            ok = false;
            diags.push(
                Diagnostic::error(
                    "aij.clip.shape",
                    format!(
                        "an embedding matrix must be 2-D (N×d), found shape {:?}",
                        a.shape
                    ),
                )
                .file(f),
            );
        } else if a.rows() != n_ids {
            ok = false;
            diags.push(
                Diagnostic::error(
                    "aij.clip.shape",
                    format!(
                        "{} rows but {} ids in {fids}: row i must belong to the i-th id",
                        a.rows(),
                        n_ids
                    ),
                )
                .file(f)
                .expected(format!("shape ({}, d)", n_ids))
                .found(format!("{:?}", a.shape)),
            );
        }
    }
    if ok && img.cols() != txt.cols() {
        ok = false;
        diags.push(
            Diagnostic::error(
                "aij.clip.shape",
                format!(
                    "the image embeddings have d = {} but the text embeddings ({ft}) d = {}",
                    img.cols(),
                    txt.cols()
                ),
            )
            .file(fi)
            .hint("Both come from the same CLIP model (768 for ruclip-vit-large-patch14-336)."),
        );
    }
    ok
}

/// The ids array: strings or integers, no duplicates.
fn read_ids(file: &str, bytes: &[u8], diags: &mut Vec<Diagnostic>) -> Option<Vec<String>> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let v: serde_json::Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => {
            diags.push(
                Diagnostic::error("aij.clip.ids", format!("not valid JSON: {e}"))
                    .file(file)
                    .at(e.line() as u64, e.column() as u64),
            );
            return None;
        }
    };
    let Some(arr) = v.as_array() else {
        diags.push(
            Diagnostic::error("aij.clip.ids", "the CLIP ids must be a JSON array of ids")
                .file(file)
                .expected("[\"id0\", \"id1\", …] in the order of the embedding rows"),
        );
        return None;
    };
    let mut ids = Vec::with_capacity(arr.len());
    let mut seen = HashMap::new();
    let mut ok = true;
    for (i, x) in arr.iter().enumerate() {
        let id = match x {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(n) if n.is_u64() || n.is_i64() => n.to_string(),
            _ => {
                ok = false;
                diags.push(
                    Diagnostic::error("aij.clip.ids", format!("element {i} is not an id: {x}"))
                        .file(file),
                );
                continue;
            }
        };
        if let Some(j) = seen.insert(id.clone(), i) {
            ok = false;
            diags.push(
                Diagnostic::error(
                    "aij.clip.duplicate_id",
                    format!("id {id} appears at elements {j} and {i}"),
                )
                .file(file),
            );
        }
        ids.push(id);
    }
    ok.then_some(ids)
}
