//! Python's `json` is not strict JSON: it reads the literals `NaN`, `Infinity` and `-Infinity` as floats. COCO
//! files written by Python (`json.dump` writes them by default) carry them, and pycocotools reads them, so the
//! COCO reader does too: the literals are replaced by stand-in strings while serde parses the file, and the
//! float fields read the stand-ins back ([`pyfloat`]).

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use std::cell::Cell;
use std::fmt;

/// The three literals Python's `json` reads as floats, with the JSON string each is replaced by while parsing
/// (8 bytes longer: `"\u0000` and a closing quote), so that serde can read the file; `pyfloat` turns the
/// strings back into floats. Active only while a file that needed them is read.
pub(super) const LITERALS: [(&str, &str, f64); 3] = [
    ("-Infinity", "\"\\u0000-Infinity\"", f64::NEG_INFINITY),
    ("Infinity", "\"\\u0000Infinity\"", f64::INFINITY),
    ("NaN", "\"\\u0000NaN\"", f64::NAN),
];

thread_local! {
    static PY_LITERALS: Cell<bool> = const { Cell::new(false) };
}

/// A file's text as serde parses it: the text itself, or a copy with Python's literals replaced
/// ([`LITERALS`]), with the (parsed) offsets of the replacements to map offsets back to the file.
pub struct PyText<'a> {
    original: &'a str,
    pub(super) copy: Option<String>,
    starts: Vec<usize>,
}

impl PyText<'_> {
    pub fn as_str(&self) -> &str {
        self.copy.as_deref().unwrap_or(self.original)
    }
    /// The file offset of a parsed offset.
    pub fn orig(&self, at: usize) -> usize {
        let k = self.starts.partition_point(|&s| s < at);
        at.saturating_sub(8 * k).min(self.original.len())
    }
}

/// Sets [`PY_LITERALS`] while a file is read; resets it when dropped.
pub(super) struct Active;

impl Active {
    pub(super) fn new(on: bool) -> Active {
        PY_LITERALS.with(|c| c.set(on));
        Active
    }
}

impl Drop for Active {
    fn drop(&mut self) {
        PY_LITERALS.with(|c| c.set(false));
    }
}

/// Replaces `NaN`, `Infinity` and `-Infinity` where Python's `json` reads a value (not inside a string, not
/// where an object key is expected) by stand-in strings. Nothing to replace, or a text that already holds the
/// escape `\u0000`: the text itself.
pub fn py_literals(text: &str) -> PyText<'_> {
    let none = |original| PyText {
        original,
        copy: None,
        starts: Vec::new(),
    };
    let b = text.as_bytes();
    if (memchr::memmem::find(b, b"NaN").is_none() && memchr::memmem::find(b, b"Infinity").is_none())
        || memchr::memmem::find(b, b"\\u0000").is_some()
    {
        return none(text);
    }
    let mut out = String::with_capacity(text.len() + 64);
    let mut starts = Vec::new();
    let (mut in_string, mut escaped) = (false, false);
    // Open containers (true = object) and the last significant byte outside strings.
    let mut stack: Vec<bool> = Vec::new();
    let mut last: u8 = 0;
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        let c = b[i];
        if in_string {
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_string = false;
                last = b'"';
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => in_string = true,
            b'{' => stack.push(true),
            b'[' => stack.push(false),
            b'}' | b']' => {
                stack.pop();
            }
            _ => {}
        }
        let value_position = match last {
            0 | b':' | b'[' => true,
            b',' => stack.last() == Some(&false),
            _ => false,
        };
        if value_position && matches!(c, b'N' | b'I' | b'-') {
            if let Some((lit, with, _)) = LITERALS
                .iter()
                .find(|(l, _, _)| b[i..].starts_with(l.as_bytes()))
            {
                out.push_str(&text[copied..i]);
                starts.push(out.len());
                out.push_str(with);
                i += lit.len();
                copied = i;
                last = b'"';
                continue;
            }
        }
        if !c.is_ascii_whitespace() {
            last = c;
        }
        i += 1;
    }
    if starts.is_empty() {
        return none(text);
    }
    out.push_str(&text[copied..]);
    PyText {
        original: text,
        copy: Some(out),
        starts,
    }
}

/// A float as Python's `json` reads one: a JSON number, or one of [`LITERALS`] (while they are active).
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
            let lit = v.strip_prefix('\0').filter(|_| PY_LITERALS.with(Cell::get));
            match LITERALS.iter().find(|(l, _, _)| Some(*l) == lit) {
                Some((_, _, x)) => Ok(*x),
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
        // Not in a string or where a key goes; not when the file holds the escape \u0000.
        let mut d = Vec::new();
        assert!(read_results("r.json", b"[{NaN: 1}]", &mut d).is_none());
        assert_eq!(d[0].code, "detection.json.syntax");
        let p = py_literals("[\"NaN\", {\"a\": NaN, \"b\": [Infinity]}]");
        assert_eq!(
            p.as_str(),
            "[\"NaN\", {\"a\": \"\\u0000NaN\", \"b\": [\"\\u0000Infinity\"]}]"
        );
        assert!(py_literals("[\"\\u0000\", NaN]").copy.is_none());
        // A repeated top-level key of the annotation file: the last list wins.
        let mut d = Vec::new();
        let g = read_gt("g.json", br#"{"images": [], "categories": [], "images": [{"id": 4}], "categories": [{"id": 1}]}"#, &mut d).unwrap();
        assert_eq!((g.images.len(), g.categories.len(), d.len()), (1, 1, 0));
    }
}
