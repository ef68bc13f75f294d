//! COCO JSON (docs/specs/families.md section 3): the annotation file (`images`, `annotations`, `categories`) and
//! the results file (a list of `{image_id, category_id, bbox, score}`), read with serde_json. A syntax error
//! stops the file (located by serde_json); past that, every element is read on its own, so all missing
//! fields, wrong types and negative box sizes are reported together, each at its line and column.
//!
//! Accepted as pycocotools accepts them (Python's `json.load`, then `COCO.createIndex` / `loadRes`): ids are
//! JSON integers (image ids integers or strings: [`ImageId`]); `bbox` is 4 numbers; `iscrowd` an integer or a boolean; unknown keys are ignored. As Python's
//! `json` (which is not strict JSON): the literals `NaN`, `Infinity` and `-Infinity` in a value position are
//! the floats nan, inf and −inf ([`py_literals`]; the metrics then treat them as pycocotools does: a NaN
//! score sorts last, a NaN box or area fails every comparison), and a key repeated inside an object keeps its
//! last value (`dict` semantics), at the top level and in every element. Not reproduced: a number beyond
//! binary64's range (`1e999`, inf in Python) is a syntax error, and so is a lone surrogate escape (`"\ud800"`).

use crate::diag::Diagnostic;
use crate::formats::lines::{column_of, strip_bom};
use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::fmt;

mod image_id;
mod python;
mod shape;
pub use image_id::ImageId;
use python::{py_literals, pyfloat, pyfloat_opt, pyfloat_vec, Active, PyText};

/// An image of the annotation file.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub id: ImageId,
    pub file_name: Option<String>,
    pub width: Option<f64>,
    pub height: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Category {
    pub id: i64,
    pub name: Option<String>,
}

/// A GT annotation.
#[derive(Clone, Debug, PartialEq)]
pub struct Annotation {
    pub id: i64,
    pub image_id: ImageId,
    pub category_id: i64,
    pub bbox: [f64; 4],
    pub area: f64,
    pub iscrowd: bool,
    /// Byte offset of the element in the file.
    pub at: usize,
}

/// A detection of the results file.
#[derive(Clone, Debug, PartialEq)]
pub struct Detection {
    pub image_id: ImageId,
    pub category_id: i64,
    pub bbox: [f64; 4],
    pub score: f64,
    pub at: usize,
}

/// The annotation file, lists in file order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GtFile {
    pub images: Vec<Image>,
    pub categories: Vec<Category>,
    pub annotations: Vec<Annotation>,
    /// Byte offsets of the `images` elements (for diagnostics).
    pub image_at: Vec<usize>,
}

/// Byte offset → 1-based line and column (Unicode scalar values) of one file's text.
pub struct Locator<'a> {
    text: &'a [u8],
    newlines: std::cell::OnceCell<Vec<usize>>,
}

impl<'a> Locator<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Locator {
            text: strip_bom(bytes),
            newlines: std::cell::OnceCell::new(),
        }
    }
    /// Line and column of byte `offset` of the text (after the BOM).
    pub fn line_col(&self, offset: usize) -> (u64, u64) {
        let nl = self
            .newlines
            .get_or_init(|| memchr::memchr_iter(b'\n', self.text).collect());
        let line = nl.partition_point(|&p| p < offset);
        let start = if line == 0 { 0 } else { nl[line - 1] + 1 };
        let end = offset.min(self.text.len()).max(start);
        (
            line as u64 + 1,
            column_of(&self.text[start..end], end - start),
        )
    }
    /// An error of `code` at byte `offset`.
    pub fn error(
        &self,
        file: &str,
        code: &str,
        offset: usize,
        msg: impl Into<String>,
    ) -> Diagnostic {
        let (l, c) = self.line_col(offset);
        Diagnostic::error(code, msg).file(file).at(l, c)
    }
}

impl PyText<'_> {
    /// The file offset of a serde_json error raised while reading the element at (parsed offset) `base`.
    fn serde_offset(&self, base: usize, e: &serde_json::Error) -> usize {
        let text = self.as_str().as_bytes();
        let rel = &text[base.min(text.len())..];
        let (line, col) = (e.line().max(1), e.column());
        let mut at = 0usize;
        for _ in 1..line {
            match memchr::memchr(b'\n', &rel[at..]) {
                Some(p) => at += p + 1,
                None => break,
            }
        }
        self.orig((base + at + col.saturating_sub(1)).min(text.len()))
    }
}

/// serde_json's message without its " at line L column C" tail, Python's literals shown as such.
fn message(py: &PyText, e: &serde_json::Error) -> String {
    let mut s = e.to_string();
    if let Some(i) = s.rfind(" at line ") {
        s.truncate(i);
    }
    py.literals_shown(s)
}

/// The file's text as UTF-8, or a located error.
fn text<'a>(file: &str, bytes: &'a [u8], loc: &Locator) -> Result<&'a str, Box<Diagnostic>> {
    std::str::from_utf8(strip_bom(bytes)).map_err(|e| {
        Box::new(
            loc.error(
                file,
                "detection.json.encoding",
                e.valid_up_to(),
                "the file is not valid UTF-8",
            )
            .expected("UTF-8 text")
            .hint("Save the JSON file as UTF-8."),
        )
    })
}

fn syntax(file: &str, loc: &Locator, py: &PyText, e: &serde_json::Error, what: &str) -> Diagnostic {
    let at = py.serde_offset(0, e);
    loc.error(
        file,
        "detection.json.syntax",
        at,
        format!("{what}: {}", message(py, e)),
    )
    .expected(what.to_string())
    .hint("Check the file with a JSON validator; COCO files are plain JSON (no NaN, no comments).")
    .official("json.load raises (JSONDecodeError), or COCO() fails on the wrong structure")
}

fn field_error(
    file: &str,
    loc: &Locator,
    py: &PyText,
    base: usize,
    e: &serde_json::Error,
    what: &str,
) -> Diagnostic {
    let at = py.serde_offset(base, e);
    loc.error(
        file,
        "detection.json.field",
        at,
        format!("{what}: {}", message(py, e)),
    )
    .hint("Each element needs the fields COCO defines, with numbers where numbers are expected.")
    .official("crashes (KeyError or TypeError)")
}

fn offset_of(text: &str, raw: &RawValue) -> usize {
    (raw.get().as_ptr() as usize).saturating_sub(text.as_ptr() as usize)
}

/// `iscrowd`: an integer (non-zero is a crowd) or a boolean.
fn crowd<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    struct V;
    impl Visitor<'_> for V {
        type Value = bool;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("0, 1 or a boolean")
        }
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
            Ok(v)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<bool, E> {
            Ok(v != 0)
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<bool, E> {
            Ok(v != 0)
        }
    }
    d.deserialize_any(V)
}

#[derive(Deserialize)]
struct GtTop<'a> {
    #[serde(borrow)]
    images: Option<Vec<&'a RawValue>>,
    #[serde(borrow)]
    annotations: Option<Vec<&'a RawValue>>,
    #[serde(borrow)]
    categories: Option<Vec<&'a RawValue>>,
}

/// The annotation file's top level as a `dict`: serde's typed reading, and when a key is repeated, a map
/// where the last value wins.
fn gt_top(text: &str) -> Result<GtTop<'_>, serde_json::Error> {
    match serde_json::from_str::<GtTop>(text) {
        Err(e) if e.to_string().starts_with("duplicate field") => {
            let last: std::collections::HashMap<String, &RawValue> = serde_json::from_str(text)?;
            let list = |k: &str| -> Result<Option<Vec<&RawValue>>, serde_json::Error> {
                match last.get(k) {
                    Some(r) => serde_json::from_str(r.get()),
                    None => Ok(None),
                }
            };
            Ok(GtTop {
                images: list("images")?,
                annotations: list("annotations")?,
                categories: list("categories")?,
            })
        }
        other => other,
    }
}

#[derive(Deserialize)]
struct RawImage {
    id: ImageId,
    file_name: Option<String>,
    #[serde(default, deserialize_with = "pyfloat_opt")]
    width: Option<f64>,
    #[serde(default, deserialize_with = "pyfloat_opt")]
    height: Option<f64>,
}

#[derive(Deserialize)]
struct RawCategory {
    id: i64,
    name: Option<String>,
}

#[derive(Deserialize)]
struct RawAnnotation {
    id: i64,
    image_id: ImageId,
    category_id: i64,
    #[serde(deserialize_with = "pyfloat_vec")]
    bbox: Vec<f64>,
    #[serde(deserialize_with = "pyfloat")]
    area: f64,
    #[serde(deserialize_with = "crowd")]
    iscrowd: bool,
}

#[derive(Deserialize)]
struct RawDetection {
    image_id: ImageId,
    category_id: i64,
    #[serde(deserialize_with = "pyfloat_vec")]
    bbox: Vec<f64>,
    #[serde(deserialize_with = "pyfloat")]
    score: f64,
}

/// Checks a `bbox`: 4 numbers, width and height not negative.
fn check_box(
    file: &str,
    loc: &Locator,
    at: usize,
    b: &[f64],
    diags: &mut Vec<Diagnostic>,
) -> Option<[f64; 4]> {
    let Ok(bb) = <[f64; 4]>::try_from(b) else {
        diags.push(
            loc.error(
                file,
                "detection.json.field",
                at,
                format!("`bbox` has {} numbers", b.len()),
            )
            .expected("[x, y, width, height]")
            .found(format!("{} numbers", b.len()))
            .hint("A COCO box is [x, y, width, height].")
            .official("crashes (maskUtils.iou: list input can be bounding box (Nx4))"),
        );
        return None;
    };
    if bb[2] < 0.0 || bb[3] < 0.0 {
        diags.push(
            loc.error(
                file,
                "detection.negative_size",
                at,
                format!("box with negative size: width {} height {}", bb[2], bb[3]),
            )
            .expected("width ≥ 0 and height ≥ 0")
            .found(format!("[{}, {}, {}, {}]", bb[0], bb[1], bb[2], bb[3]))
            .hint("COCO boxes are [x, y, width, height], not [x1, y1, x2, y2].")
            .official(
                "scores it: IoU 0 with every GT, a negative area (ignored in every area range)",
            ),
        );
        return None;
    }
    Some(bb)
}

/// An element as Python's `json` and `dict` read it: serde's typed reading, and when that fails on a
/// repeated key, the object read as a map where the last value of a key wins, then typed.
fn element<'a, T: Deserialize<'a>>(raw: &'a RawValue) -> Result<T, serde_json::Error> {
    match serde_json::from_str::<T>(raw.get()) {
        Err(e) if e.to_string().starts_with("duplicate field") => {
            let last: serde_json::Map<String, serde_json::Value> = serde_json::from_str(raw.get())?;
            T::deserialize(serde_json::Value::Object(last)).map_err(|_| e)
        }
        other => other,
    }
}

#[allow(clippy::too_many_arguments)]
fn each<'a, T: Deserialize<'a>>(
    file: &str,
    loc: &Locator,
    py: &PyText,
    text: &'a str,
    list: &[&'a RawValue],
    what: &str,
    diags: &mut Vec<Diagnostic>,
    mut keep: impl FnMut(T, usize, &mut Vec<Diagnostic>),
) {
    for (i, raw) in list.iter().enumerate() {
        let at = offset_of(text, raw);
        match element::<T>(raw) {
            Ok(v) => keep(v, py.orig(at), diags),
            Err(e) => diags.push(field_error(
                file,
                loc,
                py,
                at,
                &e,
                &format!("{what} #{}", i + 1),
            )),
        }
    }
}

/// Reads a COCO annotation file. `None` when the file cannot be used at all (syntax, structure); element
/// errors are pushed to `diags` and the element skipped.
pub fn read_gt(file: &str, bytes: &[u8], diags: &mut Vec<Diagnostic>) -> Option<GtFile> {
    let loc = Locator::new(bytes);
    let text = match text(file, bytes, &loc) {
        Ok(t) => t,
        Err(d) => {
            diags.push(*d);
            return None;
        }
    };
    let py = py_literals(text);
    let _active = Active::new(&py);
    let text = py.as_str();
    let top: GtTop = match gt_top(text) {
        Ok(t) => t,
        Err(e) => {
            diags.push(syntax(
                file,
                &loc,
                &py,
                &e,
                "a COCO annotation object {\"images\": […], \"annotations\": […], \"categories\": […]}",
            ));
            return None;
        }
    };
    let mut gt = GtFile::default();
    let (Some(images), Some(categories)) = (top.images.as_ref(), top.categories.as_ref()) else {
        for (key, list) in [("images", &top.images), ("categories", &top.categories)] {
            if list.is_none() {
                diags.push(missing_list(file, &loc, key));
            }
        }
        return None;
    };
    each::<RawImage>(file, &loc, &py, text, images, "image", diags, |v, at, _| {
        gt.images.push(Image {
            id: v.id,
            file_name: v.file_name,
            width: v.width,
            height: v.height,
        });
        gt.image_at.push(at);
    });
    each::<RawCategory>(
        file,
        &loc,
        &py,
        text,
        categories,
        "category",
        diags,
        |v, _, _| {
            gt.categories.push(Category {
                id: v.id,
                name: v.name,
            });
        },
    );
    let anns = top.annotations.unwrap_or_default();
    gt.annotations = annotations(file, &loc, &py, text, &anns, diags);
    Some(gt)
}

/// The error of a missing top-level list `key` of the annotation file.
fn missing_list(file: &str, loc: &Locator, key: &str) -> Diagnostic {
    loc.error(
        file,
        "detection.json.field",
        0,
        format!("no `{key}` list in the annotation file"),
    )
    .expected(format!("a top-level `{key}` list"))
    .hint("A COCO annotation file has `images`, `annotations` and `categories`.")
    .official("crashes (KeyError)")
}

/// The annotations of the list `anns` that read and have a valid box (the others reported).
fn annotations<'a>(
    file: &str,
    loc: &Locator,
    py: &PyText,
    text: &'a str,
    anns: &[&'a RawValue],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Annotation> {
    let mut out = Vec::with_capacity(anns.len());
    each::<RawAnnotation>(
        file,
        loc,
        py,
        text,
        anns,
        "annotation",
        diags,
        |v, at, d| {
            if let Some(bbox) = check_box(file, loc, at, &v.bbox, d) {
                out.push(Annotation {
                    id: v.id,
                    image_id: v.image_id,
                    category_id: v.category_id,
                    bbox,
                    area: v.area,
                    iscrowd: v.iscrowd,
                    at,
                });
            }
        },
    );
    out
}

/// Reads a COCO results file (a JSON list). `None` when it is not a list; element errors are pushed to
/// `diags` and the element skipped. An empty list is returned as such (the caller reports it).
pub fn read_results(
    file: &str,
    bytes: &[u8],
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Detection>> {
    let loc = Locator::new(bytes);
    let text = match text(file, bytes, &loc) {
        Ok(t) => t,
        Err(d) => {
            diags.push(*d);
            return None;
        }
    };
    let py = py_literals(text);
    let _active = Active::new(&py);
    let text = py.as_str();
    let list: Vec<&RawValue> = match serde_json::from_str(text) {
        Ok(t) => t,
        Err(e) => {
            let what =
                "a COCO results list [{\"image_id\", \"category_id\", \"bbox\", \"score\"}, …]";
            diags.push(
                shape::not_a_list(file, &loc, text)
                    .unwrap_or_else(|| syntax(file, &loc, &py, &e, what)),
            );
            return None;
        }
    };
    let mut out = Vec::with_capacity(list.len());
    each::<RawDetection>(file, &loc, &py, text, &list, "result", diags, |v, at, d| {
        if let Some(bbox) = check_box(file, &loc, at, &v.bbox, d) {
            out.push(Detection {
                image_id: v.image_id,
                category_id: v.category_id,
                bbox,
                score: v.score,
                at,
            });
        }
    });
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_results_and_locates_errors() {
        let text = "[\n {\"image_id\": 1, \"category_id\": 2, \"bbox\": [1, 2, 3, 4], \"score\": 0.5},\n {\"image_id\": 1.5, \"category_id\": 2, \"bbox\": [1, 2, 3, 4], \"score\": 0.5},\n {\"image_id\": 1, \"category_id\": 2, \"bbox\": [1, 2, -3, 4], \"score\": 0.5},\n {\"image_id\": 1, \"bbox\": [1, 2, 3, 4], \"score\": 0.5}\n]";
        let mut d = Vec::new();
        let r = read_results("r.json", text.as_bytes(), &mut d).unwrap();
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].bbox, [1.0, 2.0, 3.0, 4.0]);
        assert_eq!(d.len(), 3, "{d:#?}");
        assert_eq!(d[0].code, "detection.json.field");
        assert_eq!((d[0].line, d[0].column), (Some(3), Some(17)));
        assert_eq!(d[1].code, "detection.negative_size");
        assert_eq!((d[1].line, d[1].column), (Some(4), Some(2)));
        assert!(
            d[2].message.contains("missing field `category_id`"),
            "{}",
            d[2].message
        );
        assert_eq!(d[2].line, Some(5));
    }

    #[test]
    fn syntax_errors_are_located() {
        let mut d = Vec::new();
        assert!(read_results("r.json", b"[\n {\"image_id\": 1,,}\n]", &mut d).is_none());
        assert_eq!(d[0].code, "detection.json.syntax");
        assert_eq!(d[0].line, Some(2));
        let mut d = Vec::new();
        assert!(read_gt("g.json", b"{\"images\": []}", &mut d).is_none());
        assert!(d[0].message.contains("categories"));
    }

    #[test]
    fn reads_gt() {
        let text = r#"{"images": [{"id": 3, "file_name": "a.jpg"}], "categories": [{"id": 1, "name": "cat"}],
            "annotations": [{"id": 7, "image_id": 3, "category_id": 1, "bbox": [0, 0, 2.5, 4], "area": 10, "iscrowd": true}]}"#;
        let mut d = Vec::new();
        let g = read_gt("g.json", text.as_bytes(), &mut d).unwrap();
        assert!(d.is_empty());
        assert_eq!(g.images[0].id, ImageId::Int(3));
        assert_eq!(g.categories[0].name.as_deref(), Some("cat"));
        assert!(g.annotations[0].iscrowd);
        assert_eq!(g.annotations[0].area, 10.0);
    }
}
