//! Python's `json` is not strict JSON: it reads the literals `NaN`, `Infinity` and `-Infinity` as floats. COCO
//! files written by Python (`json.dump` writes them by default) carry them, and pycocotools reads them, so the
//! COCO reader does too: [`python_json::rewrite`] replaces the literals by marker strings while serde parses
//! the file, and the float fields read the markers back ([`pyfloat`]).

use crate::formats::python_json::{self, Read, Rewrite};
use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use std::cell::Cell;
use std::fmt;

thread_local! {
    /// The marker of the literals' stand-in strings, while a file that needed them is read.
    static MARKER: Cell<Option<char>> = const { Cell::new(None) };
}

/// A file's text as serde parses it: the text itself, or its rewrite with Python's literals replaced.
pub struct PyText<'a> {
    original: &'a str,
    pub(super) copy: Option<Rewrite>,
}

impl PyText<'_> {
    pub fn as_str(&self) -> &str {
        self.copy
            .as_ref()
            .map_or(self.original, |r| r.text.as_str())
    }
    /// The file offset of a parsed offset (an offset inside a stand-in string counted from its end: serde
    /// locates an error about a value at its last byte).
    pub fn orig(&self, at: usize) -> usize {
        match &self.copy {
            Some(r) => r.original_from_end(at).min(self.original.len()),
            None => at.min(self.original.len()),
        }
    }
    /// `msg` with each stand-in string serde quotes in it (`string "…"`) shown as the literal it stands for.
    pub fn literals_shown(&self, msg: String) -> String {
        let Some(r) = &self.copy else { return msg };
        let mut s = msg;
        for k in ['N', 'I', 'J'] {
            let stand_in = format!("{}{k}", r.marker);
            let Some((lit, _)) = python_json::literal_of(&stand_in, r.marker) else {
                continue;
            };
            s = s
                .replace(&format!("string {stand_in:?}"), lit)
                .replace(&format!("string \"{stand_in}\""), lit);
        }
        s
    }
}

/// Sets [`MARKER`] while a file is read; resets it when dropped.
pub(super) struct Active;

impl Active {
    pub(super) fn new(py: &PyText) -> Active {
        MARKER.with(|c| c.set(py.copy.as_ref().map(|r| r.marker)));
        Active
    }
}

impl Drop for Active {
    fn drop(&mut self) {
        MARKER.with(|c| c.set(None));
    }
}

/// Replaces `NaN`, `Infinity` and `-Infinity` where Python's `json` reads a value (not inside a string, not
/// where an object key is expected) by marker strings ([`Read::LITERALS`]). Nothing to replace: the text itself.
pub fn py_literals(text: &str) -> PyText<'_> {
    let b = text.as_bytes();
    let copy = if memchr::memmem::find(b, b"NaN").is_none()
        && memchr::memmem::find(b, b"Infinity").is_none()
    {
        None
    } else {
        python_json::rewrite(text, Read::LITERALS)
    };
    PyText {
        original: text,
        copy,
    }
}

/// Whether `v` is the stand-in string of one of Python's literals in the file being read (a float, not a string).
pub(super) fn is_py_literal(v: &str) -> bool {
    MARKER
        .with(Cell::get)
        .and_then(|m| python_json::literal_of(v, m))
        .is_some()
}

/// A float as Python's `json` reads one: a JSON number, or one of Python's literals (the marker strings of the file being read).
pub(super) fn pyfloat<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    struct V;
    impl Visitor<'_> for V {
        type Value = f64;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a number")
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
            Ok(v)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
            Ok(v as f64)
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
            Ok(v as f64)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
            let lit = MARKER
                .with(Cell::get)
                .and_then(|m| python_json::literal_of(v, m));
            match lit {
                Some((_, x)) => Ok(x),
                None => Err(E::invalid_type(de::Unexpected::Str(v), &self)),
            }
        }
    }
    d.deserialize_any(V)
}

pub(super) fn pyfloat_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    #[derive(Deserialize)]
    struct W(#[serde(deserialize_with = "pyfloat")] f64);
    Ok(Option::<W>::deserialize(d)?.map(|w| w.0))
}

pub(super) fn pyfloat_vec<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
    #[derive(Deserialize)]
    struct W(#[serde(deserialize_with = "pyfloat")] f64);
    Ok(Vec::<W>::deserialize(d)?.into_iter().map(|w| w.0).collect())
}

#[cfg(test)]
mod tests {
    use super::super::{read_gt, read_results};
    use super::py_literals;

    /// Python's json reads `NaN`, `Infinity` and `-Infinity` where a value goes, and keeps the last of a
    /// repeated key; a later error on the same line is still located in the file's own columns.
    #[test]
    fn python_literals_and_repeated_keys() {
        let text = "[{\"image_id\": 1, \"category_id\": 2, \"bbox\": [NaN, 2, Infinity, 4], \"score\": -Infinity},\n {\"score\": 0.1, \"image_id\": 1, \"category_id\": 2, \"bbox\": [1, 2, 3, 4], \"score\": NaN}, {\"image_id\": NaN, \"x\": 1}]";
        let mut d = Vec::new();
        let r = read_results("r.json", text.as_bytes(), &mut d).unwrap();
        assert_eq!(r.len(), 2, "{d:#?}");
        assert!(r[0].bbox[0].is_nan() && r[0].bbox[2] == f64::INFINITY);
        assert_eq!(r[0].score, f64::NEG_INFINITY);
        assert!(r[1].score.is_nan(), "the last `score` wins");
        assert_eq!((r[1].at, d.len()), (text.find("{\"score\"").unwrap(), 1));
        // `image_id: NaN`: not an integer id (loadRes refuses such a result too), located at the NaN.
        assert_eq!(d[0].code, "detection.json.field");
        // serde locates a value error at the value's last character, here the last `N` of `NaN`.
        let col = text.lines().nth(1).unwrap().find("NaN, \"x").unwrap() as u64 + 3;
        assert_eq!(
            (d[0].line, d[0].column),
            (Some(2), Some(col)),
            "{}",
            d[0].message
        );
        assert!(
            d[0].message.contains("invalid type: NaN"),
            "{}",
            d[0].message
        );
        // Not in a string or where a key goes; numbers beyond the float range and lone surrogates stay errors.
        let mut d = Vec::new();
        assert!(read_results("r.json", b"[{NaN: 1}]", &mut d).is_none());
        assert_eq!(d[0].code, "detection.json.syntax");
        let p = py_literals("[\"NaN\", {\"a\": NaN, \"b\": [Infinity]}]");
        assert_eq!(
            p.as_str(),
            "[\"NaN\", {\"a\": \"\u{e000}N\", \"b\": [\"\u{e000}I\"]}]"
        );
        assert!(py_literals("[NaN, 1e999, \"\\ud800\"]")
            .copy
            .is_some_and(|r| r.uses.len() == 1));
        // A repeated top-level key of the annotation file: the last list wins.
        let mut d = Vec::new();
        let g = read_gt("g.json", br#"{"images": [], "categories": [], "images": [{"id": 4}], "categories": [{"id": 1}]}"#, &mut d).unwrap();
        assert_eq!((g.images.len(), g.categories.len(), d.len()), (1, 1, 0));
    }
}
